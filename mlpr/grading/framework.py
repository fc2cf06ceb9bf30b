r"""The grading kit's framework: cases, comparisons and hints (the trusted side only).

A task (generated from a record of `mlpr.grading.course`) is a list of `Case` s: the inputs, chosen
so that the classic mistakes show, mlpr's reference answer, a comparison, and the known mistakes of
the task. When a comparison fails, `diagnose` recomputes each known mistake with mlpr and names the
one the student's answer matches, citing the notes' equation; numeric patterns (a constant ratio N
/ (N - 1), a log base, a transposed matrix, a constant offset) are recognised for any result.
Everything here runs in the grader's process: the process that imports a submission
(`mlpr.grading.child.harness`) never holds a case, a reference, a tolerance or a comparison.

Building blocks for a TA's own pytest files: `assert_close` (the same comparison and hints) and
the data fixtures (`iris_split`, `binary_split`, `threshold_ties`, `offset_data`); the adapters
from the course's forms to mlpr models are `mlpr.grading.course.forms`.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from mlpr.datasets import load_iris, load_iris_binary
from mlpr.grading import mutants
from mlpr.utils import split_db_2to1

__all__ = [
    "Fail",
    "KitError",
    "Mistake",
    "Case",
    "Task",
    "TaskResult",
    "Comparison",
    "as_array",
    "describe_value",
    "odd_feature",
    "unreadable",
    "closed_form",
    "exact",
    "up_to_sign",
    "same_subspace",
    "assert_close",
    "diagnose",
    "iris_split",
    "binary_split",
    "threshold_ties",
    "offset_data",
    "RTOL_CLOSED_FORM",
]

#: A constant offset or another order is measured only on at least this many values (on one or
#: two, any difference is "constant")
MIN_VALUES_FOR_OFFSET = 3

#: Tolerance of closed-form results: two correct float64 implementations differ by rounding only
#: (1e-15 to 1e-13 relative on course-sized data), every formula mistake by far more.
RTOL_CLOSED_FORM = 1e-10


# ------------------------------------------------------------------------------------------------
# checks: what a failure says


class Fail(Exception):
    """A check that did not pass: what was wrong, the likely mistake, the error and tolerance."""

    def __init__(self, message: str, hint: str | None = None, err: float | None = None,
                 tol: float | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.err = err
        self.tol = tol


class KitError(Exception):
    """A failure of the kit's own code (not of a submission's value): reported as the kit's,
    with its traceback, for the task it happened in."""


@dataclasses.dataclass(frozen=True)
class Mistake:
    """A known mistake of a task: its name, the hint that explains it (citing the notes; or a
    function of the student's answer that words what it measured there), and the answer it
    produces on the case's inputs, computed with mlpr (``value()``, lazily).

    ``compare`` recognises the mistake when the case's own comparison is not the right test: an
    optimiser's point is *near* a wrong problem's minimiser, not equal to it to 1e-10.
    ``after_search``: a catch-all that measures rather than reproduces (an optimiser stopped
    early), tried only after the mutation search found nothing.
    """

    name: str
    hint: str | Callable[[Any], str]
    value: Callable[[], Any]
    compare: Callable | None = None
    after_search: bool = False


@dataclasses.dataclass(frozen=True)
class Comparison:
    """The outcome of comparing a student's answer with the reference: ``ok``, the measured
    error ``err`` and its tolerance ``tol`` (in the units that ``detail`` names)."""

    ok: bool
    err: float
    tol: float
    detail: str = ""


@dataclasses.dataclass
class Case:
    """One call of the student's function and how to judge it.

    Attributes
    ----------
    what : str
        The data, in a few words ("iris, 4 x 150, offset 1e3").
    args, kwargs
        The arguments of the course's calling convention (copied before each call, so that a
        function that changes its input in place cannot change the reference).
    expected
        mlpr's answer, in the form that ``post`` gives the student's.
    post : callable, optional
        Maps the student's raw return value to the compared form (e.g. an hParams dict to
        arrays, a scoring function to its scores); raises `Fail` with a hint for a wrong form.
    compare : callable
        ``compare(got, expected) -> Comparison``; default `closed_form`.
    mistakes : sequence of Mistake
        The known mistakes of this case, tried in order when the comparison fails.
    context : dict
        Quantities the generic diagnosis may use: ``N`` (samples), ``prior``, ...
    quiet : dict
        Keyword arguments that silence the course's function (``verbose=False``), passed only
        when the student's function accepts them.
    formula : mlpr.grading.mutants.Formula, optional
        A second implementation of the answer whose mutants `diagnose` tries when no known
        mistake matches (set from the task's record unless the case has its own).
    """

    what: str
    args: tuple
    expected: Any
    kwargs: dict = dataclasses.field(default_factory=dict)
    post: Callable | None = None
    compare: Callable | None = None
    mistakes: Sequence[Mistake] = ()
    context: dict = dataclasses.field(default_factory=dict)
    quiet: dict = dataclasses.field(default_factory=dict)
    formula: Any = None


@dataclasses.dataclass(frozen=True)
class Task:
    """A task of the course's labs, graded under the course's function name.

    ``cases()`` builds the `Case` s (inputs and mlpr's references); ``files`` are data files the
    task may read from its working directory (the course's ``iris.csv`` for the loaders);
    ``extra`` marks a task under a name of the kit's own, which the course's labs do not ask
    for: it is graded only on request, so that a student's function of the same name is never
    judged against a signature the course never gave.
    """

    name: str
    lab: int
    topic: str
    cases: Callable[[], list]
    points: float = 1.0
    signature: str = ""
    files: tuple = ()
    function: str = ""
    extra: bool = False

    @property
    def function_name(self) -> str:
        """The course function the task calls (its name, unless the task is a variant such as
        ``"trainWeightedLogRegBinary (calibration)"``)."""
        return self.function or self.name

    @property
    def title(self) -> str:
        """The test name of reports: ``"lab 5 · logpdf_GAU_ND"``."""
        return f"lab {self.lab} · {self.name}"


@dataclasses.dataclass
class TaskResult:
    """The result of one task for one submission.

    ``status`` is "passed", "failed", "not graded" or "error" (the kit's own code failed on the
    task: ``trace`` holds its traceback, and the submission is not blamed); ``err`` / ``tol`` the
    worst measured error of its cases and the tolerance it was held to; ``message`` what was
    wrong, ``hint`` the likely mistake.
    """

    name: str
    lab: int
    status: str
    points: float
    max_points: float
    err: float | None = None
    tol: float | None = None
    message: str = ""
    hint: str | None = None
    seconds: float = 0.0
    printed: str = ""
    file: str = ""
    trace: str = ""

    @property
    def title(self) -> str:
        return f"lab {self.lab} · {self.name}"

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


# ------------------------------------------------------------------------------------------------
# comparisons


def as_array(x, what: str = "the result") -> np.ndarray:
    """The student's value as a float array, or `Fail` naming what it was."""
    if callable(x):
        raise Fail(f"{what} is a function ({getattr(x, '__name__', type(x).__name__)}), "
                   f"where an array was expected")
    try:
        a = np.asarray(x, dtype=np.float64)
    except Exception as exc:  # TypeError, ValueError, OverflowError, or worse
        raise Fail(f"{what} {_why_not_floats(x, exc)}") from None
    return a


def _why_not_floats(x, exc: Exception) -> str:
    """Why ``x`` is not an array of floats, in words."""
    odd = odd_feature(x)
    if odd:
        return f"is {describe_value(x)}: {odd}, where an array of floats was expected"
    if isinstance(x, (list, tuple)) and isinstance(exc, ValueError):
        return (f"is {describe_value(x)}, whose items have different shapes: a ragged "
                f"{type(x).__name__}, where an array of floats was expected")
    return (f"is {describe_value(x)}, which does not convert to an array of floats "
            f"({type(exc).__name__})")


_MAX_FLOAT = float(np.finfo(np.float64).max)


def describe_value(x, depth: int = 0) -> str:
    """A student's value in a few words: ``a tuple of 2 (an array (4, 4) of float64, None)``."""
    if x is None:
        return "None"
    if isinstance(x, bool):
        return f"the bool {x}"
    if isinstance(x, int):
        return f"the int {x}" if len(str(abs(x))) <= 20 else f"an int of {len(str(abs(x)))} digits"
    if isinstance(x, float):
        return f"the float {x!r}"
    if isinstance(x, str):
        return f"the string {x[:30]!r}" + ("..." if len(x) > 30 else "")
    if isinstance(x, np.ndarray):
        return f"an array {x.shape} of {x.dtype}"
    if isinstance(x, np.generic):
        return f"a numpy {x.dtype} scalar"
    if callable(x):
        return "a function"
    if isinstance(x, (list, tuple, dict)):
        kind = {list: "a list", tuple: "a tuple", dict: "a dict"}.get(type(x), type(x).__name__)
        if not x:
            return f"an empty {kind[2:]}"
        if depth >= 1:
            return f"{kind} of {len(x)}"
        if isinstance(x, dict):
            shown = [f"{describe_value(k, 1)}: {describe_value(v, 1)}"
                     for k, v in list(x.items())[:3]]
        else:
            shown = [describe_value(v, 1) for v in list(x)[:3]]
        more = ", ..." if len(x) > 3 else ""
        return f"{kind} of {len(x)} ({', '.join(shown)}{more})"
    return f"a {type(x).__name__}"


def odd_feature(x, depth: int = 0) -> str | None:
    """The first feature of a student's value that makes it unreadable as numbers, in words, or
    None: an int too large for a float, NaN or infinite entries, complex numbers, an array of
    another dtype, an empty array, nesting deeper than any course answer."""
    if depth > 40:
        return "nested more than 40 levels deep"
    if isinstance(x, bool) or x is None or isinstance(x, str):
        return None
    if isinstance(x, int):
        return "an int too large for a float" if abs(x) > _MAX_FLOAT else None
    if isinstance(x, float):
        return "NaN" if math.isnan(x) else ("an infinite value" if math.isinf(x) else None)
    if isinstance(x, complex):
        return "a complex number"
    if isinstance(x, np.ndarray):
        if x.dtype.kind == "c":
            return "an array of complex numbers"
        if x.dtype.kind not in "biuf":
            return f"an array of {x.dtype}"
        if x.size == 0:
            return f"an empty array {x.shape}"
        if x.dtype.kind == "f":
            n_nan, n_inf = int(np.isnan(x).sum()), int(np.isinf(x).sum())
            if n_nan:
                return f"NaN in {n_nan} of its {x.size} entries"
            if n_inf:
                return f"infinite values in {n_inf} of its {x.size} entries"
        return None
    if isinstance(x, (list, tuple)):
        for i, v in enumerate(x):
            odd = odd_feature(v, depth + 1)
            if odd:
                return f"item {i}: {odd}"
        return None
    if isinstance(x, dict):
        for k, v in x.items():
            odd = odd_feature(v, depth + 1)
            if odd:
                return f"entry {str(k)[:20]!r}: {odd}"
    return None


def unreadable(x, exc: Exception) -> str:
    """The reason a student's value could not be read or compared, in words: what the value
    is, its odd feature if any, and what the kit's reading raised."""
    odd = odd_feature(x)
    what = f"the function returned {describe_value(x)}"
    if odd:
        return f"{what}: {odd}; the kit cannot grade such a value"
    return (f"{what}, which the kit could not read as the course's answer "
            f"({type(exc).__name__}: {str(exc)[:200]})")


def _align_shapes(got: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """``got`` reshaped to ``expected``'s shape when it is the same vector or scalar in another
    layout ((N,), (N, 1), (1, N); a scalar in a (1,) or (1, 1) array); else `Fail`, with the
    transposition named when the transposed matrix has the right shape."""
    if got.shape == expected.shape:
        return got
    squeezed = [d for d in got.shape if d != 1]
    wanted = [d for d in expected.shape if d != 1]
    if squeezed == wanted and got.size == expected.size and len(wanted) <= 1:
        return got.reshape(expected.shape)
    if got.ndim == 2 and expected.ndim == 2 and got.T.shape == expected.shape:
        raise Fail(f"the result has shape {got.shape}, expected {expected.shape}",
                   hint="the result is transposed: the course stores data as D x N matrices, "
                        "one column per sample (and P, W as D x m)")
    if got.ndim >= 1 and expected.ndim >= 1 and got.shape[0] != expected.shape[0] and \
            got.shape[-1:] == expected.shape[:1]:
        raise Fail(f"the result has shape {got.shape}, expected {expected.shape}",
                   hint="computed along the wrong axis: the course's data are D x N, one column "
                        "per sample (statistics over axis 1, e.g. D.mean(1))")
    raise Fail(f"the result has shape {got.shape}, expected {expected.shape}")


def closed_form(rtol: float = RTOL_CLOSED_FORM) -> Callable:
    r"""Compare closed-form results: :math:`|s - r| \le rtol\,(|r| + \max|r|)` elementwise.

    The floor ``rtol * max|r|`` covers entries that are zero in exact arithmetic (an off-diagonal
    of a centred covariance): they carry rounding errors of the size of the largest entry times
    1e-16. The measured error is ``max |s - r| / (|r| + max|r|)``.
    """

    def compare(got, expected) -> Comparison:
        r = as_array(expected)
        s = _align_shapes(as_array(got), r)
        if not np.all(np.isfinite(s)):
            bad = int(np.sum(~np.isfinite(s)))
            if np.all(np.isfinite(r)) or not np.array_equal(np.isfinite(s), np.isfinite(r)):
                raise Fail(f"the result has {bad} NaN or infinite entries out of {s.size}")
        finite = np.isfinite(r)
        if not np.array_equal(s[~finite], r[~finite]):
            return Comparison(False, math.inf, rtol, "relative error")
        s, r = s[finite], r[finite]
        if r.size == 0:
            return Comparison(True, 0.0, rtol, "relative error")
        scale = np.abs(r) + np.abs(r).max()
        scale = np.where(scale > 0, scale, 1.0)
        err = float(np.max(np.abs(s - r) / scale))
        return Comparison(err <= rtol, err, rtol, "relative error")

    compare.rtol = rtol
    return compare


def exact() -> Callable:
    """Compare counts and decisions exactly; the error is the number of differing entries."""

    def compare(got, expected) -> Comparison:
        r = np.asarray(expected)
        s = _align_shapes(as_array(got), r.astype(np.float64))
        n = int(np.sum(s != r))
        return Comparison(n == 0, float(n), 0.0, "entries that differ")

    return compare


def up_to_sign(rtol: float = 1e-8) -> Callable:
    """Compare matrices of eigenvectors column by column, up to the sign of each column."""
    base = closed_form(rtol)

    def compare(got, expected) -> Comparison:
        r = as_array(expected)
        s = _align_shapes(as_array(got), r)
        signs = np.where(np.sum(s * r, axis=0) < 0, -1.0, 1.0)
        return base(s * signs, r)

    return compare


def same_subspace(rtol: float = 1e-8) -> Callable:
    r"""Compare the spans of two (D, m) matrices (LDA directions are defined up to an invertible
    m x m transform): the student's columns projected off the reference's span leave a residual
    at most ``rtol`` relative to their norms, and the student's matrix has rank m."""

    def compare(got, expected) -> Comparison:
        r = as_array(expected)
        s = _align_shapes(as_array(got), r)
        Q, _ = np.linalg.qr(r)
        residual = s - Q @ (Q.T @ s)
        norms = np.linalg.norm(s, axis=0)
        if np.any(norms == 0):
            raise Fail("a column of the result is zero: the directions must have rank m")
        err = float(np.max(np.linalg.norm(residual, axis=0) / norms))
        sv = np.linalg.svd(s / norms, compute_uv=False)
        if sv[-1] < 1e-8 * sv[0]:
            raise Fail("the columns of the result are linearly dependent: the directions must "
                       "have rank m")
        return Comparison(err <= rtol, err, rtol, "distance from the reference subspace")

    return compare


def _values_match(got, value, compare) -> bool:
    """Whether ``got`` agrees with a mistake's answer under the case's comparison."""
    try:
        return bool(compare(got, value).ok)
    except Fail:
        return False
    except Exception:  # a mistake's answer of another form: it does not match
        return False


def diagnose(got, expected, mistakes: Sequence[Mistake] = (), compare: Callable | None = None,
             context: dict | None = None, numeric: bool = True, case: Case | None = None,
             raw: bool = False) -> str | None:
    """The likely mistake behind a wrong answer, or None.

    First the task's known mistakes: each one's answer is computed with mlpr and compared with the
    student's under the case's comparison. Then, when the ``case`` has a formula, the mutation
    search (`mlpr.grading.mutants.search`): the mutant of the formula whose answer matches the
    student's (``raw``: ``got`` is the value before the case's ``post``, which failed). Then
    numeric patterns that any result may show: the
    transposed matrix; a constant ratio N / (N - 1) (the unbiased covariance), 1 / ln 10 or
    1 / ln 2 (another log base), -1 (a sign), 2 or 1/2 (a factor of the formula); a constant
    offset equal to a prior log-odds (eq. 61, 102, 130); the same values in another order
    (``numeric=False``: the known mistakes only). A numeric pattern says what it measured and
    names a cause only where the pattern identifies it (the ratio N / (N - 1) with the case's N,
    an offset equal to the case's prior log-odds).
    """
    compare = compare or closed_form()
    hint = _listed(got, [m for m in mistakes if not m.after_search], compare)
    if hint:
        return hint
    if case is not None and case.formula is not None:
        hint = mutants.search(case, got, compare, raw=raw)
        if hint:
            return hint
    hint = _listed(got, [m for m in mistakes if m.after_search], compare)
    if hint:
        return hint
    return _numeric_hint(got, expected, context or {}) if numeric else None


def _listed(got, mistakes, compare) -> str | None:
    """The hint of the first listed mistake whose answer matches ``got``."""
    for m in mistakes:
        try:
            value = m.value()
        except Exception:  # a mistake that does not apply to these inputs
            continue
        if _values_match(got, value, m.compare or compare):
            return m.hint(got) if callable(m.hint) else m.hint
    return None


def _numeric_hint(got, expected, context: dict) -> str | None:
    try:
        s = np.asarray(got, dtype=np.float64)
        r = np.asarray(expected, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        return None
    if s.size != r.size or r.size == 0 or not np.all(np.isfinite(s)) or \
            not np.all(np.isfinite(r)):
        return None
    if s.ndim == 2 and s.shape == r.T.shape and s.shape != r.shape and \
            np.allclose(s.T, r, rtol=1e-8, atol=1e-12 * np.abs(r).max()):
        return "the result is transposed (the course's matrices are D x N, one column per sample)"
    s, r = s.reshape(-1), r.reshape(-1)
    big = np.abs(r) > 1e-12 * max(np.abs(r).max(), 1e-300)
    if big.sum() >= 1:
        ratio = s[big] / r[big]
        if np.ptp(ratio) <= 1e-8 * max(1.0, abs(ratio.mean())):
            q = float(ratio.mean())
            hint = _ratio_hint(q, context)
            if hint:
                return hint
    diff = s - r
    if r.size >= MIN_VALUES_FOR_OFFSET and np.ptp(diff) <= 1e-8 * max(1.0, np.abs(r).max()) \
            and abs(diff.mean()) > 1e-8:
        hint = _offset_hint(float(diff.mean()), context)
        if hint:
            return hint
    if r.size >= MIN_VALUES_FOR_OFFSET and np.allclose(np.sort(s), np.sort(r), rtol=1e-8,
                                                       atol=1e-12) and not np.allclose(s, r):
        return ("your values are the reference's values in another order (sorted, they match "
                "within 1e-8)")
    return None


def _ratio_hint(q: float, context: dict) -> str | None:
    if abs(q - 1.0) < 1e-12:
        return None
    for N in context.get("N", ()):
        if N > 1 and abs(q - N / (N - 1)) < 1e-9 * q:
            return (f"the covariance is divided by N - 1 = {N - 1} instead of N = {N}: the ML "
                    f"estimate is 1/N (the notes, eq. 50 and 59); np.cov is the unbiased "
                    f"1/(N - 1) estimate (use bias=True, or divide the scatter by N)")
        if N > 1 and abs(q - (N - 1) / N) < 1e-9:
            return (f"the result is (N - 1)/N = {N - 1}/{N} times the reference: a covariance "
                    f"divided by N where the reference divides by N - 1, or the other way round")
    for base, name in ((10.0, "log10"), (2.0, "log2")):
        if abs(q - 1.0 / math.log(base)) < 1e-9:
            return (f"the result is in base {base:g} ({name}): the course's log-densities, "
                    f"llrs and thresholds use the natural log (np.log)")
        if abs(q - math.log(base)) < 1e-9:
            return f"the result is ln {base:g} times the reference: a log in base {base:g}?"
    if abs(q + 1.0) < 1e-9:
        return "the result has the opposite sign of the reference"
    if abs(q - 2.0) < 1e-9:
        return "the result is twice the reference: a factor 1/2 of the formula is missing"
    if abs(q - 0.5) < 1e-9:
        return "the result is half the reference: a factor 2 too many, or a 1/2 applied twice"
    return None


def _offset_hint(d: float, context: dict) -> str | None:
    prior = context.get("prior")
    if prior is not None and 0 < prior < 1:
        lo = math.log(prior / (1 - prior))
        for sign, what in ((1, "added"), (-1, "subtracted")):
            if abs(d - sign * lo) < 1e-8 * max(1.0, abs(lo)):
                return (f"every value is off by the prior log-odds log(pi / (1 - pi)) = {lo:.4g} "
                        f"({'subtracted' if what == 'added' else 'added'} where it should not "
                        f"be, or {what} twice; the notes, eq. 102 for an LR llr, eq. 130 for the "
                        f"Bayes threshold)")
    return f"every value is off by the same constant {d:.6g}"


def assert_close(student, reference, what: str = "the result", rtol: float = RTOL_CLOSED_FORM,
                 mistakes: Sequence[Mistake] = (), context: dict | None = None,
                 compare: Callable | None = None) -> Comparison:
    """Assert that a student's answer agrees with mlpr's reference; explain it when it does not.

    Parameters
    ----------
    student, reference : array_like
        The student's answer and mlpr's. Vectors may differ in layout ((N,), (N, 1), (1, N)).
    what : str
        What is compared, for the message ("the MVG covariance of class 1").
    rtol : float
        Relative tolerance of `closed_form` (default 1e-10), used when ``compare`` is None.
    mistakes : sequence of Mistake
        Known mistakes to recognise (their answers computed with mlpr).
    context : dict, optional
        ``{"N": [n, ...], "prior": pi}``: what the numeric diagnosis may use (a ratio
        N / (N - 1) names the unbiased covariance, an offset of log(pi / (1 - pi)) the prior
        log-odds).
    compare : callable, optional
        `closed_form`, `exact`, `up_to_sign`, `same_subspace` or your own.

    Returns
    -------
    Comparison
        The passing comparison (its ``err`` and ``tol``).

    Raises
    ------
    AssertionError
        With the measured error, the tolerance and the likely mistake.
    """
    compare = compare or closed_form(rtol)
    try:
        result = compare(student, reference)
    except Fail as exc:
        hint = exc.hint or diagnose(student, reference, mistakes, compare, context)
        raise AssertionError(f"{what}: {exc.message}" + (f"\n  hint: {hint}" if hint else "")) \
            from None
    if not result.ok:
        hint = diagnose(student, reference, mistakes, compare, context)
        raise AssertionError(f"{what}: {result.detail} {result.err:.3g} > tolerance "
                             f"{result.tol:.3g}" + (f"\n  hint: {hint}" if hint else ""))
    return result


# ------------------------------------------------------------------------------------------------
# data fixtures


def iris_split():
    """The course's iris split: ``(DTR, LTR), (DVAL, LVAL)``, 100 + 50 flowers, 3 classes
    (``split_db_2to1(load_iris(), seed=0)``)."""
    return split_db_2to1(*load_iris(), seed=0)


def binary_split():
    """The course's binary iris split (versicolor 1, virginica 0): 66 + 34 flowers."""
    return split_db_2to1(*load_iris_binary(), seed=0)


def threshold_ties(n: int = 200, seed: int = 0):
    r"""Integer llrs, labels and applications whose Bayes thresholds the llrs hit exactly.

    Returns ``llr`` (n,) integers in -4..4 stored as floats, ``L`` (n,) labels (llrs drawn higher
    for class 1), and ``apps``: a list of ``(prior, Cfn, Cfp)`` whose threshold
    :math:`t = -\log(\pi C_{fn} / ((1 - \pi) C_{fp}))`, computed in float64 as the course writes
    it, is exactly 0, 2 and -2 (priors 0.5 and 1 / (1 + e^2); costs e^2), so that some llrs equal
    it and a ``>=`` decision differs from the course's ``>`` (eq. 128-130).
    """
    rng = np.random.default_rng(seed)
    L = (rng.random(n) < 0.4).astype(np.int64)
    llr = np.clip(np.round(rng.normal(0.0, 1.6, n) + 1.2 * (2 * L - 1)), -4, 4).astype(float)
    apps = [(0.5, 1.0, 1.0), (float(1.0 / (1.0 + np.exp(2.0))), 1.0, 1.0),
            (0.5, math.e ** 2, 1.0)]
    return llr, L, apps


def offset_data(D: int = 4, N: int = 500, offset: float = 1e3, seed: int = 0) -> np.ndarray:
    """Gaussian data (D, N) far from the origin (mean ``offset``, unit variance): a one-pass
    covariance E[xx^T] - mu mu^T loses digits here, a two-pass one does not."""
    rng = np.random.default_rng(seed)
    return offset + rng.normal(size=(D, N)) * np.linspace(1.0, 2.0, D)[:, None]
