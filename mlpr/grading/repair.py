r"""The repair search: find a failing function's mistake by repairing the student's own code.

When a task fails, the grader parses the failing function's source (the submission's file, read
here from the grader's copy, never from the sandbox) and applies a whitelist of edits to the
student's own syntax tree (`EDITS`: an operator swapped, a term or a factor dropped, an inverse
for an element-wise power, a transpose, another axis, a reversed slice on the other dimension,
the key of a sort, the arguments of a call or a pair swapped, a comparison turned, a statement moved
around a loop or past its neighbour, a variable for another, ...). Each candidate is compiled
**in the submission's process** beside the original (`mlpr.grading.channel.Child.define`) and
run there on the task's cases; its answers come back as plain data and are compared here, with
the task's own comparisons, as the student's are. A candidate that passes every case of the
task is a **verified repair**: the hint names the file, the line and the edit (at most
`MAX_REPAIRS` of them). When no single edit passes, pairs of the edits that fixed the first
case are tried (`MAX_PAIRS`). Nothing is said on the text of an exception alone.

Bounds: `MAX_CANDIDATES` candidates and `REPAIR_SECONDS` per task; per submission,
`SUBMISSION_SHARE` of the time its grading took (at least `SUBMISSION_FLOOR`, at most
`SUBMISSION_SECONDS`); each candidate's
cases within `CANDIDATE_SECONDS` (a candidate that loops ends that search, and the submission's
process is started again for the next). The searches run after every task is graded
(`attempt_all`), so they never take a task's time; a passing task costs nothing.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import os
import time
from collections.abc import Iterator
from pathlib import Path

from mlpr.grading.calls import Adapted
from mlpr.grading.channel import ChildGone, StudentRaised
from mlpr.grading.framework import KitError, closed_form

__all__ = ["Edit", "candidates", "function_source", "search", "MAX_CANDIDATES", "MAX_PAIRS",
           "REPAIR_SECONDS", "CANDIDATE_SECONDS", "MAX_REPAIRS", "EDITS"]

#: Single-edit candidates run per task at most
MAX_CANDIDATES = 400
#: Two-edit candidates run per task at most (only when no single edit passes)
MAX_PAIRS = 150
#: Seconds of search per task at most (checked between candidates)
REPAIR_SECONDS = 20.0
#: Seconds of search per submission at most: the searches run once every task is graded, so
#: that they never take a task's time (``MLPR_GRADE_REPAIR_SECONDS``: another budget, 0 none)
SUBMISSION_SECONDS = float(os.environ.get("MLPR_GRADE_REPAIR_SECONDS", "60"))
#: ... and at most `SUBMISSION_SHARE` of the time grading the submission took, but never less
#: than `SUBMISSION_FLOOR`: a class's grading takes at most about twice as long with the
#: searches as without (benchmarks/bench_repair_class.py)
SUBMISSION_SHARE = 0.75
SUBMISSION_FLOOR = 2.0
#: Seconds one candidate may take on all the task's cases
CANDIDATE_SECONDS = 5.0
#: Verified repairs said at most
MAX_REPAIRS = 3
#: The largest source file read, and the largest function repaired (statements)
MAX_SOURCE_BYTES = 2_000_000
MAX_STATEMENTS = 400


@dataclasses.dataclass(frozen=True)
class Edit:
    """One edit of the student's function: where (``line``), what it was and what it becomes
    (source text), and the operator's words."""

    line: int
    old: str
    new: str
    words: str

    def says(self) -> str:
        old = self.old if len(self.old) <= 90 else self.old[:87] + "..."
        if not self.new:  # a statement moved
            return f"line {self.line}: `{old}` {self.words}"
        return f"line {self.line}: {old} \N{RIGHTWARDS ARROW} {self.new} ({self.words})"


# ------------------------------------------------------------------------------------------------
# the student's source

def function_source(root: Path, relative: str, qualname: str) -> tuple | None:
    """``(file text, FunctionDef)`` of the top-level function ``qualname`` of the submission's
    module ``relative`` (inside ``root``, a file or a folder), or None: a path leaving the
    submission, a link, a file too large, a notebook, a method or a nested function."""
    if "." in qualname or not relative.endswith(".py"):
        return None
    root = Path(root)
    base = root.parent if root.is_file() else root
    path = (base / relative)
    try:
        real = path.resolve(strict=True)
        if not real.is_relative_to(base.resolve(strict=True)) or path.is_symlink():
            return None
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as f:
            data = f.read(MAX_SOURCE_BYTES + 1)
    except (OSError, ValueError):
        return None
    if len(data) > MAX_SOURCE_BYTES:
        return None
    text = data.decode("utf-8", errors="replace")
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    found = None
    for node in tree.body:  # the last definition wins, as on import
        if isinstance(node, ast.FunctionDef) and node.name == qualname:
            found = node
    if found is None or sum(isinstance(n, ast.stmt) for n in ast.walk(found)) > MAX_STATEMENTS:
        return None
    return text, found


# ------------------------------------------------------------------------------------------------
# the edits: each yields (node to replace, its replacement, words) for one node of the function

_SWAPS = {ast.Add: [ast.Sub], ast.Sub: [ast.Add], ast.Mult: [ast.Div, ast.MatMult],
          ast.Div: [ast.Mult, ast.Sub], ast.MatMult: [ast.Mult], ast.Pow: [ast.Mult],
          ast.FloorDiv: [ast.Div]}
_COMPARE = {ast.Lt: [ast.Gt, ast.LtE], ast.Gt: [ast.Lt, ast.GtE], ast.LtE: [ast.GtE, ast.Lt],
            ast.GtE: [ast.LtE, ast.Gt], ast.Eq: [ast.NotEq], ast.NotEq: [ast.Eq]}
_CALLS = {"log": ["exp"], "exp": ["log"], "sum": ["mean"], "mean": ["sum"], "max": ["min"],
          "min": ["max"], "argmax": ["argmin"], "argmin": ["argmax"], "sqrt": ["square"],
          "square": ["sqrt"], "inv": ["pinv"], "eig": ["eigh"], "eigh": ["eig"],
          "vcol": ["vrow"], "vrow": ["vcol"], "hstack": ["vstack"], "vstack": ["hstack"],
          "median": ["mean"], "cov": ["var"], "dot": ["multiply"], "multiply": ["dot"]}
_SORTS = {"argsort", "sort", "sorted", "lexsort", "argmax", "argmin"}


def _name(n) -> str:
    return ast.unparse(n)


def _binop(node, names):
    if not isinstance(node, ast.BinOp):
        return
    for op in _SWAPS.get(type(node.op), []):
        yield ast.BinOp(node.left, op(), node.right), "another operator"
    if isinstance(node.op, (ast.Add, ast.Sub)):
        yield node.left, "a term dropped"
        if isinstance(node.op, ast.Add):
            yield node.right, "a term dropped"
    if isinstance(node.op, (ast.Mult, ast.Div, ast.MatMult)):
        yield node.left, "a factor dropped"
        if isinstance(node.op, ast.Mult):
            yield node.right, "a factor dropped"
    if isinstance(node.op, (ast.Sub, ast.Div, ast.MatMult)):
        yield ast.BinOp(node.right, node.op, node.left), "the operands swapped"
    if isinstance(node.op, ast.Pow) and isinstance(node.right, ast.UnaryOp) and \
            isinstance(node.right.op, ast.USub) and _name(node.right.operand) == "1":
        yield _call("np.linalg.inv", node.left), "the matrix inverse for an element-wise one"
    if isinstance(node.op, ast.Div) and _name(node.left) in ("1", "1.0"):
        yield _call("np.linalg.inv", node.right), "the matrix inverse for an element-wise one"
    for side in ("left", "right"):  # a missing square or 1/2 on an operand
        operand = getattr(node, side)
        if isinstance(operand, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)):
            for new, words in ((ast.BinOp(operand, ast.Pow(), ast.Constant(2)), "squared"),
                               (ast.BinOp(ast.Constant(0.5), ast.Mult(), operand), "halved"),
                               (ast.BinOp(ast.Constant(2), ast.Mult(), operand), "doubled"),
                               (_call("np.sqrt", operand), "its square root"),
                               (_call("np.log", operand), "its log")):
                yield ast.BinOp(new if side == "left" else node.left, node.op,
                                new if side == "right" else node.right), words


def _call(func: str, *args) -> ast.Call:
    return ast.Call(ast.parse(func, mode="eval").body, list(args), [])


def _unary(node, names):
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        yield node.operand, "the sign dropped"


def _compare(node, names):
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        for op in _COMPARE.get(type(node.ops[0]), []):
            yield ast.Compare(node.left, [op()], node.comparators), "another comparison"


def _calls(node, names):
    if not isinstance(node, ast.Call):
        return
    f = node.func
    attr = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
    for other in _CALLS.get(attr, []):
        new = copy.copy(node)
        new.func = (ast.Attribute(f.value, other, ast.Load()) if isinstance(f, ast.Attribute)
                    else ast.Name(other, ast.Load()))
        yield new, "another function"
    if attr in ("inv", "sqrt", "abs", "log", "exp", "square") and len(node.args) == 1:
        yield node.args[0], f"without its {attr}"
    if attr == "exp" and len(node.args) == 1:
        yield ast.Call(node.func, [ast.UnaryOp(ast.USub(), node.args[0])], node.keywords), \
            "the exponent's sign turned"
    positional = [a for a in node.args if not isinstance(a, ast.Starred)]
    if len(positional) == len(node.args) >= 2:
        for i in range(len(node.args) - 1):
            args = list(node.args)
            args[i], args[i + 1] = args[i + 1], args[i]
            yield ast.Call(node.func, args, node.keywords), "the arguments swapped"
    if attr in _SORTS and node.args and isinstance(node.args[0], ast.Name):
        for other in names:
            if other != node.args[0].id:
                yield ast.Call(node.func, [ast.Name(other, ast.Load()), *node.args[1:]],
                               node.keywords), "another array sorted"
    for k, kw in enumerate(node.keywords):  # another axis
        if kw.arg == "axis":
            for value in (0, 1, None):
                if _name(kw.value) != repr(value):
                    keywords = list(node.keywords)
                    keywords[k] = ast.keyword("axis", ast.Constant(value))
                    yield ast.Call(node.func, node.args, keywords), "another axis"
    if isinstance(f, ast.Attribute) and attr in ("sum", "mean", "max", "min", "argmax",
                                                 "argmin", "std", "var", "cumsum") \
            and len(node.args) == 1 and isinstance(node.args[0], ast.Constant) \
            and node.args[0].value in (0, 1):
        yield ast.Call(f, [ast.Constant(1 - node.args[0].value)], node.keywords), \
            "another axis"


def _transpose(node, names):
    if isinstance(node, ast.Attribute) and node.attr == "T":
        yield node.value, "no transpose"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
        for side in ("left", "right"):
            operand = getattr(node, side)
            if not (isinstance(operand, ast.Attribute) and operand.attr == "T"):
                t = ast.Attribute(operand, "T", ast.Load())
                yield ast.BinOp(t if side == "left" else node.left, node.op,
                                t if side == "right" else node.right), "a transpose"


def _slices(node, names):
    if not isinstance(node, ast.Subscript):
        return
    dims = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    rev = [i for i, d in enumerate(dims) if isinstance(d, ast.Slice) and d.step is not None
           and _name(d.step) == "-1" and d.lower is None and d.upper is None]
    full = ast.Slice(None, None, None)
    for i in rev:
        kept = [full if j == i else d for j, d in enumerate(dims)]
        yield _subscript(node, kept), "no reversal"
        for j in range(max(2, len(dims))):
            if j != i:
                moved = list(kept) + [full] * (j + 1 - len(kept))
                moved[j] = ast.Slice(None, None, ast.UnaryOp(ast.USub(), ast.Constant(1)))
                yield _subscript(node, moved), "the other dimension reversed"
    for i, d in enumerate(dims):  # an off-by-one bound of a slice
        if isinstance(d, ast.Slice):
            for part in ("lower", "upper"):
                bound = getattr(d, part)
                if bound is not None:
                    for delta in (1, -1):
                        s = copy.copy(d)
                        setattr(s, part, _plus(bound, delta))
                        yield _subscript(node, [s if j == i else e for j, e in
                                                enumerate(dims)]), "a bound one off"


def _subscript(node, dims):
    sl = dims[0] if len(dims) == 1 else ast.Tuple(dims, ast.Load())
    return ast.Subscript(node.value, sl, node.ctx)


def _plus(bound, delta):
    if isinstance(bound, ast.Constant) and type(bound.value) is int:
        return ast.Constant(bound.value + delta)
    return ast.BinOp(bound, ast.Add() if delta > 0 else ast.Sub(), ast.Constant(1))


def _tuples(node, names):
    if isinstance(node, (ast.Tuple, ast.List)) and len(node.elts) == 2 and not any(
            isinstance(e, ast.Starred) for e in node.elts):
        yield type(node)(node.elts[::-1], node.ctx), "the pair swapped"


def _indices(node, names):
    """An index 0 for -1 (the first for the last) and back, and an index of one dimension moved
    to the other (``U[:, k]`` and ``U[k]``)."""
    if not isinstance(node, ast.Subscript):
        return
    dims = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    for i, d in enumerate(dims):
        text = ast.unparse(d)
        if text in ("0", "-1"):
            other = ast.UnaryOp(ast.USub(), ast.Constant(1)) if text == "0" else ast.Constant(0)
            yield _subscript(node, [other if j == i else e for j, e in enumerate(dims)]), \
                "the first for the last"
    full = ast.Slice(None, None, None)
    if len(dims) == 2 and isinstance(dims[0], ast.Slice) and dims[0].lower is None and \
            dims[0].upper is None and dims[0].step is None and not isinstance(dims[1], ast.Slice):
        yield _subscript(node, [dims[1]]), "the index on the other dimension"
    if len(dims) == 1 and not isinstance(dims[0], (ast.Slice, ast.Tuple)):
        yield _subscript(node, [full, dims[0]]), "the index on the other dimension"


def _constants(node, names):
    if isinstance(node, ast.Constant) and type(node.value) is bool:
        yield ast.Constant(not node.value), "the flag turned"
    if isinstance(node, ast.Constant) and type(node.value) is float and node.value:
        yield ast.Constant(-node.value), "the sign of a constant"
    if isinstance(node, ast.Constant) and node.value is None:  # a bound left open
        for other in names[:12]:
            yield ast.Name(other, ast.Load()), "a bound for None"
    if isinstance(node, ast.Constant) and type(node.value) is int and 0 <= node.value <= 10:
        for v in (node.value - 1, node.value + 1):
            if v >= 0:
                yield ast.Constant(v), "another constant"


def _variables(node, names):
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in names:
        for other in names:
            if other != node.id:
                yield ast.Name(other, ast.Load()), "another variable"


#: The edits, in the order they are tried (the cheap and likely ones first), each a function
#: ``(node, names) -> iterator of (replacement, words)``; `_statements` moves statements
EDITS = (_binop, _unary, _compare, _calls, _tuples, _transpose, _slices, _indices, _constants,
         _variables)


def _statements(func: ast.FunctionDef) -> Iterator[tuple]:
    """Statement moves: ``(path to a body list, new list, line, old, new, words)``."""
    for parent in ast.walk(func):
        for field in ("body", "orelse"):
            body = getattr(parent, field, None)
            if not isinstance(body, list) or not body or not isinstance(body[0], ast.stmt):
                continue
            for i, stmt in enumerate(body):
                if i + 1 < len(body):  # past its neighbour
                    new = body[:i] + [body[i + 1], stmt] + body[i + 2:]
                    yield (parent, field, new, stmt.lineno, ast.unparse(stmt).split("\n")[0],
                           "moved after the next statement")
                block = "loop" if isinstance(stmt, (ast.For, ast.While)) else "if"
                if isinstance(stmt, (ast.For, ast.While, ast.If)) and len(stmt.body) > 1:
                    last = stmt.body[-1]  # out of the loop
                    loop = copy.copy(stmt)
                    loop.body = stmt.body[:-1]
                    yield (parent, field, body[:i] + [loop, last] + body[i + 1:], last.lineno,
                           ast.unparse(last).split("\n")[0], f"moved out of the {block}")
                if isinstance(stmt, (ast.For, ast.While, ast.If)):
                    if i + 1 < len(body):  # the statement after it, into the loop
                        nxt = body[i + 1]
                        loop = copy.copy(stmt)
                        loop.body = stmt.body + [nxt]
                        yield (parent, field, body[:i] + [loop] + body[i + 2:], nxt.lineno,
                               ast.unparse(nxt).split("\n")[0], f"moved into the {block}")


def _local_names(func: ast.FunctionDef) -> list:
    names = [a.arg for a in func.args.posonlyargs + func.args.args + func.args.kwonlyargs]
    for n in ast.walk(func):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id not in names:
            names.append(n.id)
    return names[:30]


def _replace(func: ast.FunctionDef, target, new) -> ast.FunctionDef:
    """A copy of ``func`` with the node ``target`` (of ``func`` itself) replaced by ``new``."""
    memo: dict = {}
    clone = copy.deepcopy(func, memo)
    twin = memo[id(target)]
    for parent in ast.walk(clone):
        for field, value in ast.iter_fields(parent):
            if value is twin:
                setattr(parent, field, new)
                return clone
            if isinstance(value, list):
                for k, item in enumerate(value):
                    if item is twin:
                        value[k] = new
                        return clone
    raise LookupError("node not found")


def candidates(text: str, func: ast.FunctionDef) -> Iterator[tuple]:
    """``(Edit, edited function, its source)`` for each single edit of ``func``, each distinct
    edited function once, in `EDITS`' order (statement moves before variable substitutions).
    The edited function keeps the student's line numbers, so that it can be edited again."""
    names = _local_names(func)
    original = ast.unparse(func)
    seen = {original}
    lines = text.splitlines()

    def old_text(node) -> str:
        seg = ast.get_source_segment(text, node) or ast.unparse(node)
        return " ".join(seg.split())

    def emit(clone, edit):
        try:
            src = ast.unparse(ast.fix_missing_locations(clone))
        except Exception:  # an edit that makes no valid tree: not a candidate
            return None
        if src in seen:
            return None
        seen.add(src)
        return edit, clone, src

    nodes = [n for n in ast.walk(func) if n is not func and hasattr(n, "lineno")
             and not isinstance(n, (ast.arguments, ast.arg))]
    for edit in EDITS[:-1]:
        for node in nodes:
            for new, words in edit(node, names):
                out = emit(_replace(func, node, new),
                           Edit(node.lineno, old_text(node), " ".join(ast.unparse(new).split()),
                                words))
                if out:
                    yield out
    for parent, field, new_body, line, old, words in _statements(func):
        memo: dict = {}
        clone = copy.deepcopy(func, memo)
        twin = memo[id(parent)] if parent is not func else clone
        setattr(twin, field, [memo.get(id(s), s) for s in new_body])
        out = emit(clone, Edit(line, lines[line - 1].strip() if 0 < line <= len(lines)
                               else old, "", words))
        if out:
            yield out
    for node in nodes:
        for new, words in _variables(node, names):
            out = emit(_replace(func, node, new), Edit(node.lineno, old_text(node),
                                                       ast.unparse(new), words))
            if out:
                yield out


# ------------------------------------------------------------------------------------------------
# running the candidates

def _passes(fn, cases: list, check) -> int:
    """How many of ``cases``, in order, ``fn`` passes before the first it fails."""
    passed = 0
    for case in cases:
        if not check(fn, case):
            break
        passed += 1
    return passed


def search(child, base: str, text: str, func: ast.FunctionDef, cases: list, check, wrap,
           budget: float = REPAIR_SECONDS, deadline: float = float("inf")) -> dict:
    """Run the candidate repairs of ``func`` (the submission's function ``base`` in ``child``)
    on ``cases`` (the failing one first): ``{"repairs": [Edit ...], "tried": n, "pairs": n,
    "stopped": reason or ""}``. ``check(fn, case) -> bool`` runs one case and compares, in
    the grader's process; ``wrap(fn)`` adapts a candidate as the original was."""
    t0 = time.monotonic()
    ends = min(t0 + budget, deadline)
    repairs: list = []
    partial: list = []  # (edit, edited function) of the candidates that pass the first case
    tried, stopped = 0, ""

    def run(edit_source, line, label):
        nonlocal tried
        tried += 1  # a candidate's time limit never runs past the search's budget
        child.begin(max(0.5, min(CANDIDATE_SECONDS, ends - time.monotonic())))
        try:
            fn = child.define(base, f"{base}#repair{tried}", edit_source, line)
        except StudentRaised:
            return 0
        return _passes(wrap(fn), cases, check)

    try:
        for edit, clone, source in candidates(text, func):
            if tried >= MAX_CANDIDATES or time.monotonic() >= ends:
                stopped = "the search's budget ran out"
                break
            passed = run(source, func.lineno, edit)
            if passed == len(cases):
                if all(r.line != edit.line for r in repairs):  # one edit per line is said
                    repairs.append(edit)
                if len(repairs) >= MAX_REPAIRS:
                    break
            elif passed and len(partial) < 20:
                partial.append((edit, clone))
        pairs = 0
        if not repairs and not stopped and partial:
            for e1, f1 in partial:
                for e2, _, s2 in candidates(text, f1):
                    if pairs >= MAX_PAIRS or time.monotonic() >= ends:
                        stopped = stopped or "the search's budget ran out"
                        break
                    pairs += 1
                    if run(s2, func.lineno, e2) == len(cases):
                        repairs.append((e1, e2))
                        break
                if repairs or stopped:
                    break
    except ChildGone as exc:  # a candidate that hangs or kills the process: the search ends
        stopped = f"a candidate ended the submission's process ({exc.reason})"
        raise _Ended(repairs, tried, stopped) from None
    return {"repairs": repairs, "tried": tried, "pairs": pairs, "stopped": stopped,
            "seconds": time.monotonic() - t0}


class _Ended(Exception):
    """The search ended with the submission's process: what it found first."""

    def __init__(self, repairs, tried, stopped):
        super().__init__(stopped)
        self.result = {"repairs": repairs, "tried": tried, "stopped": stopped}


def hint(file: str, function: str, found: dict, n_cases: int) -> str | None:
    """The hint of verified repairs, or None."""
    said = []
    for r in found.get("repairs", []):
        if isinstance(r, tuple):
            said.append(f"{Path(file).name}, {r[0].says()} and {r[1].says()}")
        else:
            said.append(f"{Path(file).name}, {r.says()}")
    if not said:
        return None
    cases = f"all {n_cases} cases" if n_cases > 1 else "its case"
    if len(said) == 1:
        return f"{said[0]} makes {function} pass on {cases}"
    return (f"each of these edits makes {function} pass on {cases}: " + "; ".join(said))


def _checker(call):
    """``check(fn, case)``: whether ``fn`` passes ``case``, by the runner's ``call`` and the
    case's own comparison (no hint is searched for a candidate)."""
    def check(fn, case) -> bool:
        return _check(fn, case, call)
    return check


def _check(fn, case, call) -> bool:
    try:
        out = call(fn, case)
        got = case.post(out) if case.post is not None else out
        return bool((case.compare or closed_form())(got, case.expected).ok)
    except (ChildGone, KitError):
        raise
    except Exception:  # the candidate's answer fails the case, however
        return False


def attempt_all(process, source: Path, tasks: list, results: list, given: dict, hello: dict,
                adaptations: dict, ends: float, call) -> list:
    """``results`` (one per task of ``tasks``, of the submission at ``source``: the grader's own
    copy, never the sandbox's) with the verified repairs of each failed task's
    function as its hint, within `SUBMISSION_SECONDS` and the submission's budget (``ends``, a
    ``time.perf_counter`` time); one search per function (its first failed task). ``call(fn,
    case)`` is the runner's call of a function on a case."""
    t0 = time.perf_counter()
    graded = sum(r.seconds or 0.0 for r in results)
    allowance = min(SUBMISSION_SECONDS, max(SUBMISSION_FLOOR, SUBMISSION_SHARE * graded))
    out, searched = list(results), set()
    failed = {given.get(t.function_name) for t, r in zip(tasks, results) if r.status == "failed"}
    uses = hello.get("uses", {})
    for k, (task, result) in enumerate(zip(tasks, results)):
        ident = given.get(task.function_name)
        if result.status != "failed" or ident is None or ident in searched:
            continue
        if set(uses.get(ident, [])) & (failed - {ident}):
            continue  # it calls a failed function of the student's: that one is the cause
        left = min(allowance - (time.perf_counter() - t0), ends - time.perf_counter())
        if left <= 1.0:
            break
        searched.add(ident)
        if process.restart(task) is not None:  # the process could not be started again
            break
        out[k] = attempt(process, source, task, ident, hello, result, adaptations.get(
            task.function_name, {}), call, min(left, REPAIR_SECONDS))
    return out


def _repairable(result) -> bool:
    """A failure an edit of the arithmetic can explain: a wrong value (measured against its
    tolerance), a wrong form, or an exception of the student's code; not a file opened, a time
    or memory limit, a process ended, what was printed."""
    message = result.message or ""
    if any(word in message for word in ("opened the file", "printed", "time limit", "memory",
                                        "process", "not graded", "has no function")):
        return False
    return result.err is not None or ": raised " in message or " form" in message \
        or message.startswith("raised ") or "returns " in message


def attempt(process, source: Path, task, ident: str, hello: dict, result, spec: dict, call,
            budget: float = REPAIR_SECONDS):
    """The failed ``result`` of ``task`` with the verified repairs of the submission's function
    ``ident`` as its hint (before the hint it had), or ``result`` as it was: a task that passed,
    a function whose source the grader cannot read (a notebook, a method, a file outside the
    submission), or no repair found. The submission's process is started again for the next
    task when a candidate ended it."""
    if result.status != "failed" or process.child is None or not _repairable(result):
        return result
    origin = hello.get("origin", {}).get(ident, "")
    found = function_source(source, origin, ident.rpartition("::")[2])
    if found is None:
        return result
    text, func = found
    failing = result.message.partition(":")[0]
    cases = sorted(task.cases(), key=lambda c: c.what != failing)  # the failing case first
    spec = spec or {}

    def wrap(fn):
        return Adapted(fn, task, spec.get("rename"), spec.get("drop", ()), spec.get("extra"))

    try:
        out = search(process.child, ident, text, func, cases, _checker(call), wrap, budget)
    except _Ended as ended:
        out = ended.result
        process.kill()
    if process.child is not None:
        process.child.take_printed()  # what the candidates printed is not the student's
    said = hint(origin, func.name, out, len(cases))
    if said is None:
        return result
    also = f"; also: {result.hint}" if result.hint else ""
    return dataclasses.replace(result, hint=said + also)
