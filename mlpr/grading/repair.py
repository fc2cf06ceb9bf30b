r"""The repair search: find a failing function's mistake by repairing the student's own code.

When a task fails, the grader parses the failing function's source (the submission's file, read
here from the grader's copy, never from the sandbox) and makes candidates from the student's own
syntax tree and text with a whitelist of edits (`mlpr.grading.edits`: an operator swapped, a
term or a factor dropped or added, an inverse for an element-wise power, a transpose, another
axis, the key of a sort, a pair swapped, a comparison turned, a statement moved, a variable for
an alike one, ...). Each candidate is compiled **in the submission's process** beside the
original (`mlpr.grading.channel.Child.define`) and run there on the task's cases, seeded afresh
and under a soft time limit; its answers come back as plain data and are compared here, with the
task's own comparisons, as the student's are. A candidate that passes every case of the task is a
**verified repair**: the hint names the file, the line and the edit (at most `MAX_REPAIRS` of
them). When no single edit passes, the candidates that came closest are edited again
(`MAX_PAIRS`); when no edit of the function passes, the helpers it calls that no task grades are
searched, each candidate run in the function's place. Nothing is said on the text of an
exception alone.

Bounds: `MAX_CANDIDATES` candidates and `REPAIR_SECONDS` per function; per submission,
`SUBMISSION_SHARE` of the time its grading took (at least `SUBMISSION_FLOOR`, at most
`SUBMISSION_SECONDS`); each candidate ten times the student's own function's time (at most
`CANDIDATE_SECONDS`): one that loops is interrupted in the child and fails its case, one that
ends the process costs a restart (at most two per search). The searches run after every task is
graded (`attempt_all`), so they never take a task's time; a passing task costs nothing.
``MLPR_GRADE_REPAIR_LOG`` names a file for one line of JSON per search (the benchmarks'
diagnostics; with ``MLPR_GRADE_REPAIR_DEBUG`` also each candidate's failure).
"""

from __future__ import annotations

import ast
import dataclasses
import json
import os
import time
from pathlib import Path
from typing import NamedTuple

import numpy as np

from mlpr.grading.calls import Adapted
from mlpr.grading.channel import ChildGone, StudentRaised
from mlpr.grading.child.discover import notebook_module
from mlpr.grading.edits import EDITS, Edit, candidates, first_line
from mlpr.grading.framework import KitError, closed_form
from mlpr.grading.locate import locate
from mlpr.grading.mutants import Named

__all__ = ["Edit", "Source", "candidates", "function_source", "search", "MAX_CANDIDATES",
           "MAX_PAIRS", "REPAIR_SECONDS", "CANDIDATE_SECONDS", "MAX_REPAIRS", "EDITS"]

#: Single-edit candidates run per task at most
MAX_CANDIDATES = 1500
#: Two-edit candidates run per task at most (only when no single edit passes)
MAX_PAIRS = 300
#: Seconds of search per task at most (checked between candidates)
REPAIR_SECONDS = 20.0
#: Seconds of search per submission at most: the searches run once every task is graded, so
#: that they never take a task's time (``MLPR_GRADE_REPAIR_SECONDS``: another budget, 0 none)
SUBMISSION_SECONDS = float(os.environ.get("MLPR_GRADE_REPAIR_SECONDS", "60"))
#: ... and at most `SUBMISSION_SHARE` of the time grading the submission took, but never less
#: than `SUBMISSION_FLOOR`: a class's grading takes at most about twice as long with the
#: searches as without (benchmarks/bench_repair_class.py)
SUBMISSION_SHARE = 0.75
SUBMISSION_FLOOR = 8.0
#: Seconds one candidate may take on all the task's cases
CANDIDATE_SECONDS = 5.0
#: Verified repairs said at most, the others among the candidates that follow the first
MAX_REPAIRS = 3
MORE_AFTER_A_REPAIR = 60
#: The largest source file read, and the largest function repaired (statements)
MAX_SOURCE_BYTES = 2_000_000
MAX_STATEMENTS = 400


# ------------------------------------------------------------------------------------------------
# the student's source

class Source(NamedTuple):
    """A function of the student's as the search reads it: the module's text (a notebook's
    code cells joined as the harness joins them), the function's tree, and for a notebook its
    cells (``[(first line in the text, cell number), ...]``, else None)."""

    text: str
    func: ast.FunctionDef
    cells: list | None = None

    def place(self, line: int) -> str:
        """``line N``, or in a notebook ``cell K, line n`` (the line within the cell)."""
        cell = None
        for first, number in self.cells or ():
            if first <= line:
                cell = (first, number)
        if cell is None:
            return f"line {line}"
        return f"cell {cell[1]}, line {line - cell[0] + 1}"


def function_source(root: Path, relative: str, qualname: str) -> Source | None:
    """The `Source` of the function ``qualname`` of the submission's module ``relative``
    (inside ``root``, a file or a folder): a top-level function or a method of a top-level
    class (``Class.method``) of a script or a notebook; or None: a path leaving the
    submission, a link, a file too large or unreadable, a nested function."""
    if qualname.count(".") > 1 or not relative.endswith((".py", ".ipynb")):
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
    text, cells = data.decode("utf-8", errors="replace"), None
    if relative.endswith(".ipynb"):
        try:  # the notebook's JSON (format 4), read as the harness reads it with nbformat
            nb = json.loads(text)
            if nb.get("nbformat", 0) < 4:
                return None
            text, cells, _ = notebook_module([(c.get("cell_type"), c.get("source", ""))
                                              for c in nb["cells"]])
        except (ValueError, TypeError, KeyError, AttributeError):
            return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    owner, _, name = qualname.rpartition(".")
    body = tree.body
    if owner:  # a method: the last class of that name, as on import
        classes = [n for n in body if isinstance(n, ast.ClassDef) and n.name == owner]
        body = classes[-1].body if classes else []
    found = None
    for node in body:  # the last definition wins, as on import
        if isinstance(node, ast.FunctionDef) and node.name == name:
            found = node
    if found is None or sum(isinstance(n, ast.stmt) for n in ast.walk(found)) > MAX_STATEMENTS:
        return None
    return Source(text, found, cells)


# ------------------------------------------------------------------------------------------------
# running the candidates

def _score(fn, cases: list, check) -> tuple:
    """How close ``fn`` comes: ``(cases passed, in order, before the first it fails; on that
    case, how many parts of a tuple answer match; minus the case's measured error)``. A
    candidate that scores above the original is a half repair, the first of a pair."""
    passed = 0
    for case in cases:
        ok, parts, err = check(fn, case)
        if not ok:
            return passed, parts, -err
        passed += 1
    return passed, 0, 0.0


def search(process, base: str, text: str, func: ast.FunctionDef, cases: list, check, wrap,
           budget: float = REPAIR_SECONDS, deadline: float = float("inf"),
           install: str | None = None) -> dict:
    """Run the candidate repairs of ``func`` (the submission's function ``base``, in the child
    process ``process.child``) on ``cases`` (the failing one first): ``{"repairs": [Edit ...],
    "tried": n, "pairs": n, "stopped": reason or ""}``. ``check(fn, case) -> (ok, parts,
    err)`` runs one case and compares, in the grader's process; ``wrap(fn)`` adapts a
    candidate as the original was; with ``install`` (a helper's search), what runs on the cases
    is the task's function ``install`` with the candidate in the helper's place. A candidate
    that hangs or ends the process costs the process: it is started again
    (``process.revive()``), at most twice, and the search goes on."""
    t0 = time.monotonic()
    ends = min(t0 + budget, deadline)
    start = first_line(func)
    repairs: list = []
    partial: list = []  # (score, k, edit, edited function): the half repairs
    tried, stopped, restarts, limit = 0, "", 0, CANDIDATE_SECONDS

    def run(edit_source):
        nonlocal tried
        tried += 1  # a candidate's time limit never runs past the search's budget
        hard = max(0.2, min(limit, ends - time.monotonic()))
        process.child.begin(hard)  # the soft limit interrupts a loop, the hard one kills
        try:
            fn = process.child.define(base, f"{base}#repair{tried}", edit_source, start,
                                      install, soft=max(0.1, 0.8 * hard / len(cases)))
        except StudentRaised:
            return (-1, 0, 0.0)
        return _score(wrap(fn), cases, check)

    def trial(edit_source):
        nonlocal restarts
        try:
            return run(edit_source)
        except ChildGone as exc:  # a candidate that hangs or kills the process
            restarts += 1
            if restarts > 2 or not process.revive():
                raise _Ended(repairs, tried, f"a candidate ended the submission's process "
                                             f"({exc.reason})") from None
            return (-1, 0, 0.0)

    started = time.monotonic()
    # how far the student's own function gets, and how long it takes
    original = trial("\n".join(text.split("\n")[start - 1:func.end_lineno]))
    limit = min(CANDIDATE_SECONDS, max(0.5, 10 * (time.monotonic() - started) * len(cases)
                                       + 0.3))  # long: a candidate may take 10 times as long
    found_at = None
    for edit, clone, source in candidates(text, func):
        if tried >= MAX_CANDIDATES or time.monotonic() >= ends:
            stopped = "the search's budget ran out"
            break
        if found_at is not None and tried >= found_at + MORE_AFTER_A_REPAIR:
            break  # another repair is looked for among the next few candidates only
        score = trial(source)
        if score[0] == len(cases):
            if all(r.line != edit.line for r in repairs):  # one edit per line is said
                repairs.append(edit)
            found_at = tried if found_at is None else found_at
            if len(repairs) >= MAX_REPAIRS:
                break
        elif score > original:
            partial.append((score, -tried, edit, (clone, source)))
    pairs = 0
    if not repairs and partial:
        stopped = ""  # the pairs have a budget of their own: what is left, and MAX_PAIRS
        for _, _, e1, (f1, s1) in sorted(partial, reverse=True)[:12]:
            if f1 is None:  # a spliced edit: its own text, parsed again, is edited again
                t1 = "\n" * (start - 1) + s1
                f1 = next(n for n in ast.parse(t1).body if isinstance(n, ast.FunctionDef))
                later = candidates(t1, f1)
            else:  # a statement moved: its tree is edited again
                later = candidates(text, f1, splice=False)
            seconds = sorted(later, key=lambda c: (abs(c[0].line - e1.line) > 1,
                                                   c[0].words != e1.words))
            for e2, _, s2 in seconds:  # on its line or the next first, then the same kind of
                # edit: the two halves of one mistake, or a mistake made twice
                if pairs >= MAX_PAIRS or time.monotonic() >= ends:
                    stopped = "the search's budget ran out"
                    break
                pairs += 1
                if e2.line != e1.line or e2.words != e1.words:
                    if trial(s2)[0] == len(cases):
                        repairs.append((e1, e2))
                        break
            if repairs or stopped:
                break
    closest = [(score, e) for score, _, e, _ in sorted(partial, key=lambda p: p[:2],
                                                        reverse=True)[:3]]
    return {"repairs": repairs, "tried": tried, "pairs": pairs, "stopped": stopped,
            "restarts": restarts, "seconds": time.monotonic() - t0, "original": original,
            "closest": closest}


class _Ended(Exception):
    """The search ended with the submission's process: what it found first."""

    def __init__(self, repairs, tried, stopped):
        super().__init__(stopped)
        self.result = {"repairs": repairs, "tried": tried, "stopped": stopped}


def hint(file: str, function: str, found: dict, n_cases: int,
         task_function: str | None = None, place=None) -> str | None:
    """The hint of verified repairs of ``function`` (a helper of ``task_function``, when that is
    given), or None; ``place(line)`` words a line (`Source.place`: a notebook's cell)."""
    said = []
    for r in found.get("repairs", []):
        if isinstance(r, tuple):
            said.append(f"{Path(file).name}, {r[0].says(place)} and {r[1].says(place)}")
        else:
            said.append(f"{Path(file).name}, {r.says(place)}")
    if not said:
        return None
    cases = f"all {n_cases} cases" if n_cases > 1 else "its case"
    if task_function:  # a helper's edit
        said = [f"{s}, in {function}, which {task_function} calls," for s in said]
        function = task_function
    if len(said) == 1:
        return f"{said[0]} makes {function} pass on {cases}"
    return (f"each of these edits makes {function} pass on {cases}: " + "; ".join(said))


def _checker(call, task):
    """``check(fn, case) -> (ok, parts, err)``: whether ``fn`` passes ``case``, by the runner's
    ``call`` and the case's own comparison (no hint is searched for a candidate), and how close
    it comes when it does not (`_score`)."""
    def check(fn, case) -> tuple:
        got = None
        try:
            out = call(fn, case, task)
            got = case.post(out) if case.post is not None else out
            result = (case.compare or closed_form())(got, case.expected)
        except (ChildGone, KitError):
            raise
        except Exception as exc:  # the candidate's answer fails the case, however; how many
            if os.environ.get("MLPR_GRADE_REPAIR_DEBUG"):  # of its entries are right still
                _log(case=case.what, raised=repr(exc)[:300])  # says how close it comes
            return False, 0 if got is None else _parts(got, case.expected), float("inf")
        if result.ok:
            return True, 0, 0.0
        return False, _parts(got, case.expected), _finite(result.err)
    return check


def _finite(x) -> float:
    try:
        x = float(x)
    except (TypeError, ValueError):
        return float("inf")
    return x if x == x else float("inf")


def _parts(got, expected) -> int:
    """How many entries of the answer equal the reference's (to 1e-6, relative), part by part
    of a tuple answer: how close a candidate that fails comes."""
    if isinstance(expected, (tuple, list)) and isinstance(got, (tuple, list)):
        if len(got) != len(expected) or len(expected) > 50:
            return 0
        return sum(_parts(g, e) for g, e in zip(got, expected))
    try:
        g, e = np.asarray(got, dtype=float), np.asarray(expected, dtype=float)
    except (TypeError, ValueError, OverflowError):
        return 0
    if g.shape != e.shape:
        return 0
    return int(np.sum(np.isclose(g, e, rtol=1e-6, atol=1e-9)))


def _log(**record) -> None:
    """One line of JSON per search to the file ``MLPR_GRADE_REPAIR_LOG`` names, when set (the
    grader's own diagnostics for the benchmarks: what was searched, how long, why it stopped)."""
    path = os.environ.get("MLPR_GRADE_REPAIR_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(record, default=str) + "\n")


def attempt_all(process, source: Path, tasks: list, results: list, given: dict, hello: dict,
                adaptations: dict, ends: float, call) -> list:
    """``results`` (one per task of ``tasks``, of the submission at ``source``: the grader's own
    copy, never the sandbox's) with the verified repairs of each failed task's
    function as its hint, within `SUBMISSION_SECONDS` and the submission's budget (``ends``, a
    ``time.perf_counter`` time); one search per function (its first failed task). ``call(fn,
    case, task)`` is the runner's call of a function on a case."""
    t0 = time.perf_counter()
    graded = sum(r.seconds or 0.0 for r in results)
    allowance = min(SUBMISSION_SECONDS, max(SUBMISSION_FLOOR, SUBMISSION_SHARE * graded))
    out, searched = list(results), set()
    failed = {given.get(t.function_name) for t, r in zip(tasks, results) if r.status == "failed"}
    verified = {given.get(t.function_name) for t in tasks} - {None}  # graded: not a helper
    uses = hello.get("uses", {})
    for k, (task, result) in enumerate(zip(tasks, results)):
        ident = given.get(task.function_name)
        if result.status != "failed" or ident is None or ident in searched:
            continue
        if _reaches(uses, ident) & (failed - {ident}):
            _log(function=ident, task=task.name, skipped="calls a failed function")
            continue  # it calls a failed function of the student's: that one is the cause
        left = min(allowance - (time.perf_counter() - t0), ends - time.perf_counter())
        if left <= 1.0:
            _log(function=ident, task=task.name, skipped="the submission's budget ran out")
            break
        searched.add(ident)
        if process.restart(task) is not None:  # the process could not be started again
            break
        helpers = [h for h in uses.get(ident, []) if h not in verified and h not in searched
                   and "." not in h.rpartition("::")[2]]  # a method is run in its own place
        out[k], repaired = attempt(process, source, task, ident, hello, result,
                                   adaptations.get(task.function_name, {}), call,
                                   min(left, REPAIR_SECONDS), helpers)
        searched |= set(helpers)
        failed |= {repaired} - {None}  # a helper found wrong: the functions using it are not
    return out                          # searched again


def _reaches(uses: dict, ident: str) -> set:
    """The submission's functions that ``ident`` calls, directly or through others."""
    seen, todo = set(), list(uses.get(ident, []))
    while todo:
        f = todo.pop()
        if f not in seen and f != ident:
            seen.add(f)
            todo += uses.get(f, [])
    return seen


def _repairable(result) -> bool:
    """A failure an edit of the student's code can explain: a wrong value, shape or form, an
    exception of its own; not a file opened, a time or memory limit, a process ended, what
    was printed."""
    message = result.message or ""
    if any(word in message for word in ("opened the file", "printed", "time limit", "memory",
                                        "process", "not graded", "has no function")):
        return False
    return True


class _Revivable:
    """The submission's process as the search sees it: its child, and ``revive()``, which
    starts it again after a candidate ended it (False when it cannot)."""

    def __init__(self, process, task):
        self.process, self.task = process, task

    @property
    def child(self):
        return self.process.child

    def revive(self) -> bool:
        self.process.kill()
        return self.process.restart(self.task) is None and self.process.child is not None


def attempt(process, source: Path, task, ident: str, hello: dict, result, spec: dict, call,
            budget: float = REPAIR_SECONDS, helpers: list = ()):
    """The failed ``result`` of ``task`` with the verified repairs of the submission's function
    ``ident`` as its hint (before the hint it had), or ``result`` as it was: a task that passed,
    a function whose source the grader cannot read (a nested function, a file outside the
    submission, a notebook in an old format), or no repair found; and the function a repair
    was found in, or None. When no edit of the function itself passes, its ``helpers`` (the
    submission's functions it calls that no task grades, not methods) are searched in turn,
    each candidate run in the function's place. The submission's process is started again
    when a candidate ends it."""
    if result.status != "failed" or process.child is None or not _repairable(result):
        _log(function=ident, task=task.name, skipped="not repairable", message=result.message)
        return result, None
    failing = result.message.partition(":")[0]
    cases = sorted(task.cases(), key=lambda c: c.what != failing)  # the failing case first
    spec = spec or {}

    def wrap(fn):
        return Adapted(fn, task, spec.get("rename"), spec.get("drop", ()), spec.get("extra"))

    t0 = time.monotonic()
    said, repaired, own = None, None, None
    for target in [ident, *helpers]:
        origin = hello.get("origin", {}).get(target, "")
        found = function_source(source, origin, target.rpartition("::")[2])
        left = budget - (time.monotonic() - t0)
        if found is None or left <= 0.5 or process.child is None:
            _log(function=target, task=task.name, skipped="no source or no time",
                 origin=origin)
            continue
        text, func = found.text, found.func
        own = found if target == ident else own
        try:
            out = search(_Revivable(process, task), target, text, func, cases,
                         _checker(call, task), wrap, left,
                         install=None if target == ident else ident)
        except _Ended as ended:
            out = ended.result
            process.kill()
        _log(function=target, task=task.name, budget=left, cases=len(cases),
             **{k: v for k, v in out.items() if k != "repairs"},
             repairs=[str(r) for r in out.get("repairs", [])])
        said = hint(origin, target.rpartition("::")[2], out, len(cases),
                    None if target == ident else ident.rpartition("::")[2], found.place)
        if said is not None or process.child is None:
            repaired = target if said is not None else None
            break
    if said is None and own is not None and isinstance(result.hint, Named) \
            and process.child is not None:  # the mutation search's cause: at which line?
        try:
            at = locate(process, ident, Path(hello.get("origin", {}).get(ident, "")).name,
                        own, result.hint, call, task, wrap)
        except (ChildGone, KitError):
            at = None
            process.kill()
        if at is not None:
            _log(function=ident, task=task.name, located=at)
            said = f"{result.hint}; {at}"
            result = dataclasses.replace(result, hint=None)
    if process.child is not None:
        process.child.take_printed()  # what the candidates printed is not the student's
    if said is None:
        return result, None
    also = f"; also: {result.hint}" if result.hint else ""
    return dataclasses.replace(result, hint=said + also), repaired
