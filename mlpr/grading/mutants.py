r"""The mutation search: name a wrong answer's cause when no listed mistake does.

A task's record may carry a `Formula`: a second, plain-numpy implementation of the task's answer
in the course's calling convention and form, written with the notes' symbols, one equation per
line, each line citing its equation in a comment (``# eq. 41``). A test holds the formula equal to
mlpr's reference on every case.

When a student's answer fails and no listed mistake matches, `search` applies the mutation
operators of `OPERATORS` to the formula's syntax tree (a whitelist: each operator rewrites one
kind of node), evaluates each mutant on the case's inputs in the grader's process, and names the
mutant whose answer matches the student's under the case's comparison (or the formula's own
``match``). A mutant whose answer equals the reference on this case is skipped (it cannot be told
from the right answer here). Pairs of mutations are tried only when no single one matches. The
search is bounded by a number of mutants and a time budget per case. The student's answer is only
compared, never executed.

Each operator words once how its change reads to a student; a mutant's description is generated
from that wording, the changed term (``ast.unparse``), the equation the formula's line cites and
the glossary of the formula's symbols.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import inspect
import math
import re
import textwrap
import time
import warnings
from collections.abc import Callable

import numpy as np
import scipy.optimize

from mlpr.grading.operators import OPERATORS

__all__ = ["Formula", "Mutant", "Named", "OPERATORS", "mutants", "search", "evaluate",
           "unseparated", "MAX_MUTANTS", "MAX_PAIRS", "BUDGET_SECONDS"]

#: Single mutants evaluated per case at most
MAX_MUTANTS = 400
#: Pairs of mutations evaluated per case at most (only when no single mutant matches)
MAX_PAIRS = 600
#: Mutants of different descriptions that may match at once, all said (more: none is said)
MAX_EXPLANATIONS = 3
#: Seconds of search per case at most (checked between mutants)
BUDGET_SECONDS = 2.0
#: A student's point matches a mutant objective when it is at most this far above its minimum
#: (relative): a point minimising another objective sits 1e-4 and more above it on the kit's
#: cases, an L-BFGS-B run to factr=1.0 on the same objective 1e-9 below it
OBJECTIVE_RTOL = 1e-7
#: The largest gradient entry at a student's point that may be a mutant objective's minimiser
#: (L-BFGS-B's default pgtol is 1e-5; the labs' default factr leaves up to 1.3e-4)
GRADIENT_MATCH = 1e-3
#: A mutant objective is evidence only when mlpr's minimiser sits this many times
#: ``OBJECTIVE_RTOL`` above the mutant's minimum (else the case cannot separate the two)
SEPARATION = 1000.0


@dataclasses.dataclass(frozen=True, eq=False)
class Formula:
    """A plain-numpy implementation of a task's answer, in the course's form, to mutate.

    Attributes
    ----------
    function : callable
        A function of the course's arguments (the case's ``args`` and ``kwargs``) returning the
        answer in the course's form (what a student returns: the case's ``post`` reads it). One
        equation per line, each line ending with a comment that cites the notes (``# eq. 41``).
    glossary : dict
        ``{symbol: meaning}``: what the formula's names stand for, cited in the descriptions.
    replace : dict
        ``{name: (expression, ...)}``: what a name may be mistaken for (another count in scope,
        another factor of a decomposition, the whole data for a class's): each is one mutant.
    exchange : tuple
        Pairs of names that a mistake may swap everywhere (``("n_T", "n_F")``).
    match : callable, optional
        ``match(got, value) -> Comparison``: how a mutant's answer is compared with the
        student's (default: the case's comparison). For an optimiser's answer, the point is
        near the mutant problem's minimiser.
    cases : callable, optional
        ``cases(case) -> bool``: the cases the formula applies to (default: all).
    skip : tuple
        Operator names not to apply (their mutants mean nothing for this formula).
    objective : bool
        The formula returns an objective ``J(v)`` of the parameters, not the answer: a mutant's
        answer is the minimiser of its mutated ``J`` (scipy's L-BFGS-B from zero), and the
        student's point matches it when it is as low on the mutated ``J`` as that minimiser, to
        ``OBJECTIVE_RTOL`` (relative).
    """

    function: Callable
    glossary: dict = dataclasses.field(default_factory=dict)
    replace: dict = dataclasses.field(default_factory=dict)
    exchange: tuple = ()
    match: Callable | None = None
    cases: Callable | None = None
    skip: tuple = ()
    objective: bool = False

    @property
    def source(self) -> str:
        return _source(self.function)

    @property
    def name(self) -> str:
        return self.function.__name__


@dataclasses.dataclass(frozen=True, eq=False)
class Mutant:
    """One mutation of a formula: the operator, the wording of its change, the formula's line,
    and where it applies (``path`` to the replaced node and its replacement ``new``; for an
    exchange of two names, ``path`` None and ``new`` the pair)."""

    operator: str
    change: str
    line: int
    path: tuple | None
    new: object


_SOURCES: dict = {}


def _source(function) -> str:
    if function not in _SOURCES:
        _SOURCES[function] = textwrap.dedent(inspect.getsource(function))
    return _SOURCES[function]


def _tree(formula: Formula) -> ast.Module:
    tree = ast.parse(formula.source)
    fn = tree.body[0]
    fn.decorator_list = []
    return tree


def _paths(node, path=()):
    """Every node under ``node`` with its path of (field, index) steps, parents first."""
    yield node, path
    for field, value in ast.iter_fields(node):
        if isinstance(value, ast.AST):
            yield from _paths(value, path + ((field, None),))
        elif isinstance(value, list):
            for i, v in enumerate(value):
                if isinstance(v, ast.AST):
                    yield from _paths(v, path + ((field, i),))


def _apply(tree: ast.Module, path: tuple, new) -> ast.Module:
    """``tree`` with the node at ``path`` replaced by ``new``: the nodes along the path are
    copied, the others shared (compiling a tree does not change it)."""
    root = copy.copy(tree)
    node = root
    for field, i in path:
        child = getattr(node, field)
        if i is None:
            last = copy.copy(child)
            setattr(node, field, last)
        else:
            child = list(child)
            setattr(node, field, child)
            last = copy.copy(child[i])
            child[i] = last
        parent, node = node, last
    field, i = path[-1]
    replacement = copy.deepcopy(new)
    old = getattr(parent, field) if i is None else getattr(parent, field)[i]
    ast.fix_missing_locations(ast.copy_location(replacement, old))
    if i is None:
        setattr(parent, field, replacement)
    else:
        getattr(parent, field)[i] = replacement
    return root


class _Exchange(ast.NodeTransformer):
    def __init__(self, a: str, b: str):
        self.map = {a: b, b: a}

    def visit_Name(self, node):
        if node.id in self.map and isinstance(node.ctx, ast.Load):
            return ast.copy_location(ast.Name(self.map[node.id], node.ctx), node)
        return node


def mutants(formula: Formula, base: ast.Module | None = None) -> list:
    """The single mutants of ``formula``, in the order of its lines."""
    base = base if base is not None else _tree(formula)
    ops = {k: v for k, v in OPERATORS.items() if k not in formula.skip}
    fn = base.body[0]
    out = []
    for k, stmt in enumerate(fn.body):
        for node, path in _paths(stmt, (("body", 0), ("body", k))):
            if isinstance(getattr(node, "ctx", None), ast.Store) or \
                    any(f in ("targets", "target") for f, _ in path):
                continue  # what a line assigns to is not a term of its equation
            line = getattr(node, "lineno", None) or getattr(stmt, "lineno", 0)
            if isinstance(node, ast.comprehension):
                line = getattr(node.iter, "lineno", line)
            for opname, op in ops.items():
                for new, change in op(node, formula):
                    out.append(Mutant(opname, change, line, path, new))
    for a, b in formula.exchange:
        out.append(Mutant("exchange", f"{a} and {b} swapped (`{a}` for `{b}`, `{b}` for "
                                      f"`{a}`)", 0, None, (a, b)))
    return out


def _build(base: ast.Module, chosen) -> ast.Module | None:
    """The tree with every mutation of ``chosen`` applied (None if two touch the same node)."""
    paths = [m.path for m in chosen if m.path is not None]
    for p in paths:
        for q in paths:
            if p is not q and q[:len(p)] == p:
                return None
    tree = base
    for m in chosen:
        if m.path is None:
            tree = ast.fix_missing_locations(_Exchange(*m.new).visit(copy.deepcopy(tree)))
        else:
            tree = _apply(tree, m.path, m.new)
    return tree


def evaluate(formula: Formula, tree: ast.Module, args: tuple, kwargs: dict):
    """The answer of a formula's tree on the case's inputs (the kit's own code, in this
    process), in the course's form."""
    code = compile(tree, f"<formula {formula.name}>", "exec")
    namespace = dict(formula.function.__globals__)
    exec(code, namespace)  # the kit's own formula, mutated by the kit's own operators
    f = namespace[formula.name]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*copy.deepcopy(args), **copy.deepcopy(kwargs))


_EQ = re.compile(r"#\s*(.*)$")


def _cited(formula: Formula, line: int) -> str:
    """What the formula's line ``line`` cites in its comment (``eq. 41: ...``)."""
    lines = formula.source.splitlines()
    if 1 <= line <= len(lines):
        m = _EQ.search(lines[line - 1])
        if m:
            return m.group(1).strip()
    return ""


def _glossed(formula: Formula, text: str) -> str:
    names = [n for n in formula.glossary if re.search(rf"(?<![\w.]){re.escape(n)}(?!\w)", text)]
    return "; ".join(f"{n}: {formula.glossary[n]}" for n in names)


def describe(formula: Formula, chosen: list, err: float, form: str | None = None) -> str:
    """A matching mutant (or pair) in words, with how closely it matches."""
    parts = []
    lines = formula.source.splitlines()
    for m in chosen:
        cited = _cited(formula, m.line)
        code = lines[m.line - 1].split("#")[0].strip() if 1 <= m.line <= len(lines) else ""
        gloss = _glossed(formula, m.change)
        where = f" ({cited})" if cited else ""
        change = m.change
        if code and code not in change and len(code) <= 100:
            change += f" in the line `{code}`"
            gloss = _glossed(formula, change)
        parts.append(change + where + (f" [{gloss}]" if gloss else ""))
    done = " and ".join(parts)
    if form is not None:
        return f"your answer has the form of the formula computed with {done} ({form})"
    if formula.objective:
        above = f", at most {_order(err)} above its minimum (relative)" if err > 0 else ""
        return f"your point minimises the objective of the formula computed with {done}{above}"
    how = "exactly" if err == 0.0 else f"within {_order(err)}"
    return f"your answer matches the formula computed with {done}, {how}"


def _order(err: float) -> str:
    if not math.isfinite(err) or err <= 0:
        return "0"
    return f"{10 ** math.ceil(math.log10(err)):.0e}"


def _objective_test(case, formula: Formula, base, J, got) -> tuple:
    """A mutant objective ``J`` against the student's point: (the reference minimises it too,
    the point is its minimiser, how far above its minimum)."""
    point = np.asarray(got, dtype=np.float64).reshape(-1)
    reference = case.context.get("minimiser")
    if reference is None:
        reference = _minimise(evaluate(formula, base, case.args, case.kwargs), point, 15000)
    Jg, Jr = float(J(point)), float(J(reference))
    if not (math.isfinite(Jg) and math.isfinite(Jr)):
        return False, False, math.inf
    if (Jr - Jg) / max(abs(Jg), 1e-300) <= SEPARATION * OBJECTIVE_RTOL:
        return Jr <= Jg, False, math.inf  # mlpr's minimiser is as low on it: no evidence
    if _gradient(J, point) > GRADIENT_MATCH:
        return False, False, math.inf  # not stationary: not its minimiser
    if _flat(J, point):
        return False, False, math.inf  # a valley of minimisers: no evidence
    Jv = float(J(_minimise(J, point, 300)))  # confirm: from the student's point, it stays
    err = max(0.0, (Jg - Jv) / max(abs(Jv), 1e-300))
    return False, err <= OBJECTIVE_RTOL, err


def _gradient(J, x: np.ndarray) -> float:
    """The largest entry of the central finite-difference gradient of ``J`` at ``x``."""
    g = 0.0
    for i in range(x.size):
        h = 1e-6 * max(1.0, abs(x[i]))
        e = np.zeros_like(x)
        e[i] = h
        g = max(g, abs(float(J(x + e)) - float(J(x - e))) / (2 * h))
    return g


def _flat(J, x: np.ndarray) -> bool:
    """Whether ``J`` is flat along some coordinate at ``x`` (its minimisers are not unique
    there: any point of the valley would match)."""
    J0 = float(J(x))
    for i in range(x.size):
        h = 1e-3 * max(1.0, abs(x[i]))
        e = np.zeros_like(x)
        e[i] = h
        if abs(float(J(x + e)) + float(J(x - e)) - 2 * J0) <= 1e-13 * max(abs(J0), 1e-300):
            return True
    return False


def _minimise(J, start: np.ndarray, maxfun: int) -> np.ndarray:
    """A minimiser of an objective from ``start`` (scipy's L-BFGS-B, finite-difference
    gradients): from the student's point, a minimiser stays where it is and any other point
    goes down within a few steps."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x, f, _ = scipy.optimize.fmin_l_bfgs_b(J, np.array(start, dtype=np.float64),
                                               approx_grad=True, factr=10.0, pgtol=1e-10,
                                               maxfun=maxfun)
    return x if float(J(x)) <= float(J(start)) else np.array(start, dtype=np.float64)


def _finite(v) -> bool:
    """Whether an answer is evidence: no NaN, and some finite number (an infinite threshold
    may be part of a right answer; an answer of infinities alone names nothing)."""
    numbers = _numbers(v)
    return numbers is not None and bool(numbers.size) and not np.isnan(numbers).any() and \
        bool(np.isfinite(numbers).any())


def _numbers(v, depth: int = 0):
    """Every number of an answer as one flat float array (None if it has something else)."""
    if depth > 5:
        return None
    if isinstance(v, (tuple, list)) or isinstance(v, dict):
        parts = [_numbers(x, depth + 1) for x in (v.values() if isinstance(v, dict) else v)]
        if any(p is None for p in parts):
            return None
        return np.concatenate(parts) if parts else np.zeros(0)
    if callable(v) or v is None:
        return np.zeros(0)
    try:
        return np.asarray(v, dtype=np.float64).reshape(-1)
    except Exception:  # not numbers
        return None


def _same(compare, a, b) -> tuple:
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            c = compare(a, b)
        return bool(c.ok), float(c.err)
    except Exception:  # a mutant's answer of another form: not the same
        return False, math.inf


def _prepared(formula: Formula) -> tuple:
    """The formula's tree and single mutants, built once per formula."""
    if formula not in _PREPARED:
        base = _tree(formula)
        _PREPARED[formula] = (base, mutants(formula, base))
    return _PREPARED[formula]


_PREPARED: dict = {}


def _outcome(case, formula: Formula, base, singles: list, key: tuple) -> tuple:
    """What the mutant ``key`` (indices into ``singles``) gives on the case: ``("out", value)``,
    ``("raised", (type name, message))`` or ``("none", None)``; kept on the case, so that the
    search on a class's answers to the same case evaluates each mutant once."""
    cache = case.__dict__.setdefault("_mutant_outcomes", {})
    if key not in cache:
        tree = _build(base, [singles[i] for i in key])
        if tree is None:
            cache[key] = ("none", None)
        else:
            try:
                cache[key] = ("out", evaluate(formula, tree, case.args, case.kwargs))
            except Exception as exc:  # a mutant that does not run on these inputs
                cache[key] = ("raised", (type(exc).__name__, str(exc)))
    return cache[key]


def search(case, got, compare, budget: float = BUDGET_SECONDS, max_mutants: int = MAX_MUTANTS,
           max_pairs: int = MAX_PAIRS, raw: bool = False, form_error: str | None = None
           ) -> str | None:
    """The description of the mutant(s) of ``case.formula`` whose answer matches ``got``, or
    None. ``raw``: ``got`` is the student's value before ``case.post`` (its comparison failed
    on its form). ``form_error``: the case's ``post`` refused the student's value with this
    message; a mutant matches when ``post`` refuses its value with the same message. A function
    that raised is never matched here: an exception's text alone identifies no mistake (the
    same IndexError comes from many), so what was raised is said, and nothing more."""
    formula = getattr(case, "formula", None)
    if formula is None or (formula.cases is not None and not formula.cases(case)):
        return None
    if form_error is None and not _finite(got):
        return None  # a NaN or infinite answer: what was measured is said, nothing more
    t0 = time.perf_counter()
    base, singles = _prepared(formula)
    singles = singles[:max_mutants]
    read = case.__dict__.setdefault("_mutant_read", {})

    def test(key):
        kind, out = _outcome(case, formula, base, singles, key)
        if kind != "out":
            return False, False, math.inf
        if form_error is not None:
            try:
                with np.errstate(all="ignore"), warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    case.post(out)
            except Exception as exc:  # the form refused it: as the student's?
                return False, str(getattr(exc, "message", exc)) == form_error, 0.0
            return False, False, math.inf
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if formula.objective:
                try:
                    return _objective_test(case, formula, base, out, got)
                except Exception:  # a mutant objective that does not run at these points
                    return False, False, math.inf
            if (key, raw) not in read:
                try:
                    v = out if raw or case.post is None else case.post(out)
                    read[key, raw] = (v, _finite(v) and not _same(compare, v,
                                                                   case.expected)[0])
                except Exception:  # the mutant's answer is not of the course's form
                    read[key, raw] = (None, False)
            v, differs = read[key, raw]
            if not differs:
                return True, False, math.inf  # the case cannot tell it from the right answer
            ok, err = _same(formula.match or compare, got, v)
            return False, ok, err

    useful, found = [], []
    for i, m in enumerate(singles):
        if time.perf_counter() - t0 > budget:
            break
        same, ok, err = test((i,))
        if ok:
            found.append(([m], err))
        elif not same:
            useful.append(i)
    if not found:
        pairs = 0
        for n, i in enumerate(useful):
            if pairs >= max_pairs or time.perf_counter() - t0 > budget:
                break
            for j in useful[n + 1:]:
                if pairs >= max_pairs or time.perf_counter() - t0 > budget:
                    break
                pairs += 1
                same, ok, err = test((i, j))
                if ok:
                    found.append(([singles[i], singles[j]], err))
    if not found:
        return None
    texts = {}
    for chosen, err in found:
        t = describe(formula, chosen, err, form_error)
        texts.setdefault(t, err)
    if len(texts) > MAX_EXPLANATIONS:
        return None  # too many explanations to name any
    first, *others = list(texts)
    said = "; ".join([first] + [f"it matches as well the formula computed with "
                                f"{t.split('computed with ', 1)[1]}" for t in others])
    if len(texts) > 1 or formula.objective or form_error is not None or raw:
        return said
    chosen = found[0][0]  # one explanation of the value itself: where the student's code
    return Named(said, formula, base, _build(base, chosen), case)  # shows it can be looked for


class Named(str):
    """A hint naming one mutant of a formula whose answer is the student's, with what it was
    found from: the ``formula``, its tree (``base``), the mutant's (``tree``) and the ``case``
    (`mlpr.grading.locate` looks for the student's line that first holds a value of the
    mutant's and not the formula's)."""

    def __new__(cls, text: str, formula, base, tree, case):
        self = super().__new__(cls, text)
        self.formula, self.base, self.tree, self.case = formula, base, tree, case
        return self

    def __reduce__(self):  # copied or sent elsewhere, it is the plain text
        return str, (str(self),)


def unseparated(cases: list, default_compare: Callable) -> list:
    """What the cases of one task cannot tell from the right answer: each listed mistake and
    each single mutant of the task's formula whose answer passes the case's comparison on every
    case (for an objective, whose minimiser mlpr's minimiser is too). Sorted descriptions,
    ``"mistake <name>"`` or ``"mutant <change> (line N)"``. ``default_compare`` compares the
    cases that name no comparison of their own (the kit's `closed_form`)."""
    seen: dict = {}
    for case in cases:
        compare = case.compare or default_compare
        for m in case.mistakes:
            if m.after_search:
                continue
            try:
                value = m.value()
                if value is None:
                    continue
                same = _same(compare, value, case.expected)[0] or (
                    m.compare is not None and _same(m.compare, case.expected, value)[0])
            except Exception:  # a mistake that does not apply to these inputs
                continue
            key = f"mistake {m.name}"
            seen[key] = seen.get(key, True) and same
        formula = case.formula
        if formula is None or (formula.cases is not None and not formula.cases(case)):
            continue
        base, singles = _prepared(formula)
        for i, m in enumerate(singles[:MAX_MUTANTS]):
            kind, out = _outcome(case, formula, base, singles, (i,))
            key = f"mutant {m.change} (line {m.line})"
            if kind != "out":  # it raises on this case: a student's code would fail it
                seen[key] = False
                continue
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    if formula.objective:
                        v = case.context["minimiser"]
                        same = _gradient(out, np.asarray(v, dtype=np.float64)) <= \
                            GRADIENT_MATCH
                    else:
                        v = out if case.post is None else case.post(out)
                        same = _finite(v) and _same(compare, v, case.expected)[0]
                except Exception:  # a mutant's answer of another form: separated
                    same = False
            seen[key] = seen.get(key, True) and same
    return sorted(k for k, same in seen.items() if same)

