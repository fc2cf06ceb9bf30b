r"""Where the student's code shows a mistake that the mutation search named: the line.

The mutation search (`mlpr.grading.mutants.search`) names a wrong answer's cause in the formula's
terms: the answer equals the formula's with one term changed. When no edit of the student's own
function passes (`mlpr.grading.repair`), the hint can still say **where** the student's function
first computes that mutant's values: the student's function is run once more in the submission's
process, traced line by line (`mlpr.grading.channel.Child.define` with ``trace``: the numeric
values each line leaves in its local variables, and what it returns), and the formula and its
mutant are evaluated here on the same case, the value of each of their terms recorded (each
operation, call, index and name read), place by place (a mutant's replacement keeps the place
of the term it replaces). The student's line is the first (in the order the run reached it)
whose value is one of the mutant's that differs from the formula's at the same place, and is
the value of none of the formula's own variables: there the student's values leave the notes'
and follow the mistaken formula (`-0.5 * M * np.log(np.pi)`, a term of the mutant with the
factor 2 of `2 * np.pi` left out, is the student's `const`, line 5). Values
are compared entry by entry (to 1e-8, relative), as arrays of the same number of entries (a
column for a row is the same value), or transposed; a value of fewer than two entries counts
only when it is not an integer (a count, an index or a flag agrees by chance).

Nothing of the student's is trusted: the trace is plain data (lines, names, arrays) compared here;
a run that raises, loops (the soft limit), or returns anything else names no line.
"""

from __future__ import annotations

import ast
import copy
import warnings

import numpy as np

from mlpr.grading.channel import ChildGone, StudentRaised
from mlpr.grading.edits import first_line
from mlpr.grading.framework import KitError

__all__ = ["formula_values", "changed", "student_line", "locate"]

#: Relative tolerance of two values being the same
RTOL = 1e-8


#: The most values of one formula's run that are kept
MAX_VALUES = 2000

#: The expressions whose values are recorded: each a term of an equation, or a name read
_TERMS = (ast.BinOp, ast.UnaryOp, ast.Call, ast.Subscript, ast.Name)


class _Record(ast.NodeTransformer):
    """Each term of the formula (an operation, a call, an index or a name read) ``t`` made
    ``__record__((line, column, variable), t)``: the value of every term is seen where it is
    computed (``variable``: a name the formula binds, not a parameter). A mutant's replacement
    keeps the place of the term it replaces, so that the formula's and the mutant's values are
    compared place by place."""

    def __init__(self, bound: set):
        self.bound = bound

    def generic_visit(self, node):
        node = super().generic_visit(node)
        if isinstance(node, _TERMS) and isinstance(getattr(node, "ctx", ast.Load()), ast.Load):
            variable = isinstance(node, ast.Name) and node.id in self.bound
            place = ast.Tuple([ast.Constant(getattr(node, "lineno", 0)),
                               ast.Constant(getattr(node, "col_offset", 0)),
                               ast.Constant(variable)], ast.Load())
            return ast.copy_location(ast.Call(ast.Name("__record__", ast.Load()),
                                              [place, node], []), node)
        return node


def _bound(tree: ast.Module) -> set:
    """The names the formula's function binds in its body (its parameters are not)."""
    fn = tree.body[0]
    params = {a.arg for a in ast.walk(fn.args) if isinstance(a, ast.arg)}
    return {n.id for stmt in fn.body for n in ast.walk(stmt)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)} - params


def formula_values(formula, tree: ast.Module, case) -> dict:
    """``{(line, column, variable, k): array}``: the value of every term of ``tree`` (the
    formula's, or a mutant's) on the case's inputs, the k-th time its place is reached (the
    kit's own code, in this process), the elements of a tuple each at ``(..., k, j)``;
    ``variable``: the term is a name the formula binds. At most `MAX_VALUES`."""
    out: dict = {}
    reached: dict = {}

    def keep(key, value):
        a = _numeric(value)
        if a is not None and len(out) < MAX_VALUES:
            out[key] = a

    def record(place, value):
        k = reached[place] = reached.get(place, -1) + 1
        if isinstance(value, tuple) and len(value) <= 10:
            for j, v in enumerate(value):
                keep((*place, k, j), v)
        else:
            keep((*place, k), value)
        return value
    instrumented = ast.fix_missing_locations(_Record(_bound(tree)).visit(copy.deepcopy(tree)))
    namespace = dict(formula.function.__globals__, __record__=record)
    exec(compile(instrumented, f"<formula {formula.name}>", "exec"), namespace)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        answer = namespace[formula.name](*copy.deepcopy(case.args), **copy.deepcopy(case.kwargs))
    for j, part in enumerate(answer if isinstance(answer, (tuple, list)) else [answer]):
        keep(("answer", 0, False, j), part)
    return out


def _numeric(v) -> np.ndarray | None:
    if isinstance(v, bool) or not isinstance(v, (int, float, np.ndarray, np.number)):
        return None
    a = np.asarray(v)
    if a.dtype.kind not in "biuf" or a.size == 0 or not np.all(np.isfinite(a)):
        return None
    return a.astype(np.float64)


def _telling(a: np.ndarray) -> bool:
    """A value that can identify a line: two entries or more, or a number not an integer."""
    return a.size >= 2 or float(a.reshape(-1)[0]) != round(float(a.reshape(-1)[0]))


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    if a.size != b.size:
        return False
    scale = max(float(np.abs(b).max()), 1e-300)
    if np.allclose(a.reshape(-1), b.reshape(-1), rtol=RTOL, atol=RTOL * scale):
        return True
    return a.ndim == 2 and b.ndim == 2 and a.shape == b.shape[::-1] and a.shape[0] != a.shape[1] \
        and np.allclose(a.T.reshape(-1), b.reshape(-1), rtol=RTOL, atol=RTOL * scale)


class _Values:
    """Values looked up by their number of entries, then their sums (a cheap test first)."""

    def __init__(self, values):
        self.by_size: dict = {}
        for v in values:
            self.by_size.setdefault(v.size, []).append((float(v.sum()), float(np.abs(v).sum()),
                                                        v))

    def holds(self, a: np.ndarray) -> bool:
        total = float(a.sum())
        for s, m, v in self.by_size.get(a.size, ()):
            if abs(total - s) <= 10 * RTOL * max(m, 1e-300) + 1e-300 and _same(a, v):
                return True  # (a transposed value has the same sum)
        return False


def changed(right: dict, wrong: dict) -> list:
    """The mutant's values (``wrong``) that differ from the formula's (``right``) at the same
    place: the mutated term's, and what it changes downstream."""
    return [v for k, v in wrong.items() if _telling(v) and (k not in right
                                                            or not _same(v, right[k]))]


def student_line(trace: list, right: dict, wrong: dict) -> tuple | None:
    """``(line, name)`` of the first record of the student's ``trace`` (``[line, name, array]``
    in the order reached) whose value is one of the mutant's that differs from the formula's
    at the same place (`changed`) and is the value of none of the formula's own variables (a
    step of the notes' the student got right, which the mutant happens to use in another
    place: `N_c` for the weight `N_c / N`), or None."""
    mutant = _Values(changed(right, wrong))
    if not mutant.by_size:
        return None
    notes = _Values(v for k, v in right.items() if k[2] is True)
    for line, name, value in trace:
        if _telling(value) and mutant.holds(value) and not notes.holds(value):
            return line, name
    return None


def _checked(out) -> list | None:
    """The child's trace as plain data, or None: anything else is not a trace."""
    if not isinstance(out, list) or len(out) > 1000:
        return None
    trace = []
    for item in out:
        if not (isinstance(item, list) and len(item) == 3 and type(item[0]) is int
                and isinstance(item[1], str)):
            return None
        a = _numeric(item[2])
        if a is not None:
            trace.append((item[0], item[1][:40], a))
    return trace


def locate(process, base: str, file: str, source, named, call, task, wrap,
           seconds: float = 2.0) -> str | None:
    """``FILE, line N: ...``: the line of the student's function ``base`` (in ``file``, its
    `mlpr.grading.repair.Source`) that first holds a value of the mutant that ``named`` (a
    `mlpr.grading.mutants.Named` hint) names and not of the formula; None when there is none,
    or the traced run fails or does not finish in ``seconds``. ``call(fn, case, task)`` is the
    runner's call, ``wrap(fn)`` adapts the traced function as the original is."""
    func = source.func
    start = first_line(func)
    text = "\n".join(source.text.split("\n")[start - 1:func.end_lineno])
    try:
        right = formula_values(named.formula, named.base, named.case)
        wrong = formula_values(named.formula, named.tree, named.case)
    except Exception:  # a formula that does not run instrumented: no line is said
        return None
    try:
        process.child.begin(seconds + 1.0)
        fn = process.child.define(base, f"{base}#trace", text, start, soft=float(seconds),
                                  trace=True)
        trace = _checked(call(wrap(fn), named.case, task))
    except (ChildGone, KitError):
        raise
    except (StudentRaised, Exception):  # the traced run failed: no line is said
        return None
    if trace is None:
        return None
    found = student_line(trace, right, wrong)
    if found is None:
        return None
    line, name = found
    what = "what it returns" if name.startswith("return") else f"`{name}`"
    return (f"{file}, {source.place(line)}: {what} is your function's first value that this "
            f"mistaken formula computes and the notes' does not")
