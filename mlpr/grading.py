r"""The grading kit: grade course-style lab solutions against mlpr, and say why an answer is wrong.

Three layers (the guide is ``docs/grading.md``):

1. **The task catalogue** (`mlpr.grading_tasks`): one `Task` per function of the course's labs,
   under the course's own name (``logpdf_GAU_ND``, ``Gau_MVG_ML_estimates``,
   ``compute_minDCF_binary_fast``, ``train_dual_SVM_kernel``, ...). Each task knows the course's
   calling convention, computes its reference with mlpr, and knows how to compare.
2. **The checks.** A task is a list of `Case` s: the inputs (chosen so that the classic mistakes
   show: data with an offset, llrs that hit the Bayes threshold, priors other than 0.5, eps != 0,
   components where the eigenvalue floor binds), the reference, a comparison and the known
   mistakes of that task. When a comparison fails, `diagnose` recomputes each known mistake with
   mlpr and names the one the student's answer matches, citing the notes' equation; numeric
   patterns (a constant ratio N / (N - 1), a log base, a transposed matrix, a constant offset)
   are recognised for any result. Optimiser results are compared by their objective value and the
   optimality conditions at the student's point, never first by their parameters.
3. **The runner.** ``python -m mlpr.grading SUBMISSION [SUBMISSION ...]`` (see `main`) grades
   ``.py`` files or folders of modules, each in a child process of its own, in a temporary
   working directory, with a time limit per task, several submissions in parallel. Nothing a
   submission does (raise, hang, print, read files, lack a function) stops the run or affects
   another submission. This contains mistakes, not malice: run untrusted code in a container
   (``docs/grading.md`` shows the command).

Building blocks for a TA's own pytest files: `assert_close` (the same comparison and hints),
the data fixtures (`iris_split`, `binary_split`, `threshold_ties`, `offset_data`), the adapters
from the course's forms to mlpr models (`classifier_from_hparams`, `gmm_from_list`,
`logreg_from_wb`, `model_from_scoring_function`), `reference` (the inputs and mlpr's answer of a
task) and `grade_functions` (grade a dict of functions in this process, without isolation).
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import csv
import dataclasses
import functools
import importlib.util
import inspect
import io
import json
import math
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "Fail",
    "Mistake",
    "Case",
    "Task",
    "TaskResult",
    "Submission",
    "Comparison",
    "as_array",
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
    "classifier_from_hparams",
    "gmm_from_list",
    "logreg_from_wb",
    "model_from_scoring_function",
    "load_submission",
    "StudentCode",
    "StudentFailure",
    "adapted_functions",
    "tasks",
    "reference",
    "grade_functions",
    "grade",
    "Report",
    "run_case",
    "run_task",
    "format_text",
    "format_json",
    "format_csv",
    "format_gradescope",
    "main",
]

#: Tolerance of closed-form results: two correct float64 implementations differ by rounding only
#: (1e-15 to 1e-13 relative on course-sized data), every formula mistake by far more.
RTOL_CLOSED_FORM = 1e-10
#: Default time limit of one task of a submission, in seconds.
TASK_TIMEOUT = 60.0
#: Time limit for importing a submission, in seconds.
IMPORT_TIMEOUT = 60.0


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


@dataclasses.dataclass(frozen=True)
class Mistake:
    """A known mistake of a task: its name, the hint that explains it (citing the notes), and the
    answer it produces on the case's inputs, computed with mlpr (``value()``, lazily).

    ``compare`` recognises the mistake when the case's own comparison is not the right test: an
    optimiser's point is *near* a wrong problem's minimiser, not equal to it to 1e-10.
    """

    name: str
    hint: str
    value: Callable[[], Any]
    compare: Callable | None = None


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
    """

    what: str
    args: tuple
    expected: Any
    kwargs: dict = dataclasses.field(default_factory=dict)
    post: Callable | None = None
    compare: Callable | None = None
    mistakes: Sequence[Mistake] = ()
    context: dict = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class Task:
    """A task of the course's labs, graded under the course's function name.

    ``cases()`` builds the `Case` s (inputs and mlpr's references); ``files`` are data files the
    task may read from its working directory (the course's ``iris.csv`` for the loaders).
    """

    name: str
    lab: int
    topic: str
    cases: Callable[[], list]
    points: float = 1.0
    signature: str = ""
    files: tuple = ()
    function: str = ""

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

    ``status`` is "passed", "failed" or "not graded"; ``err`` / ``tol`` the worst measured error
    of its cases and the tolerance it was held to; ``message`` what was wrong, ``hint`` the likely
    mistake.
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
    except (TypeError, ValueError) as exc:
        raise Fail(f"{what} is a {type(x).__name__} that does not convert to a float array "
                   f"({exc})") from None
    return a


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
             context: dict | None = None) -> str | None:
    """The likely mistake behind a wrong answer, or None.

    First the task's known mistakes: each one's answer is computed with mlpr and compared with the
    student's under the case's comparison. Then numeric patterns that any result may show: the
    transposed matrix; a constant ratio N / (N - 1) (the unbiased covariance), 1 / ln 10 or
    1 / ln 2 (another log base), -1 (a sign), 2 or 1/2 (a factor of the formula); a constant
    offset equal to a prior log-odds (eq. 61, 102, 130); the same values in another order.
    """
    compare = compare or closed_form()
    for m in mistakes:
        try:
            value = m.value()
        except Exception:  # a mistake that does not apply to these inputs
            continue
        if _values_match(got, value, m.compare or compare):
            return m.hint
    return _numeric_hint(got, expected, context or {})


def _numeric_hint(got, expected, context: dict) -> str | None:
    try:
        s = np.asarray(got, dtype=np.float64)
        r = np.asarray(expected, dtype=np.float64)
    except (TypeError, ValueError):
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
    if np.ptp(diff) <= 1e-8 * max(1.0, np.abs(r).max()) and abs(diff.mean()) > 1e-8:
        hint = _offset_hint(float(diff.mean()), context)
        if hint:
            return hint
    if np.allclose(np.sort(s), np.sort(r), rtol=1e-8, atol=1e-12) and not np.allclose(s, r):
        return ("the right values in the wrong order (eigenvalues and eigenvectors: "
                "numpy.linalg.eigh returns them in ascending order; the course takes the m "
                "largest, in decreasing order)")
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
    from mlpr.datasets import load_iris
    from mlpr.utils import split_db_2to1

    return split_db_2to1(*load_iris(), seed=0)


def binary_split():
    """The course's binary iris split (versicolor 1, virginica 0): 66 + 34 flowers."""
    from mlpr.datasets import load_iris_binary
    from mlpr.utils import split_db_2to1

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


# ------------------------------------------------------------------------------------------------
# adapters from the course's forms to mlpr models


def classifier_from_hparams(hParams, kind: str = "mvg"):
    """An mlpr `GaussianClassifier` from the course's ``hParams``: ``{label: (mu, C)}``.

    ``kind`` is "mvg" (full covariances), "naive" (diagonal ones: the diagonals are kept) or
    "tied" (one shared covariance: class 0's is used; a student's tied estimates give every class
    the same matrix). Labels must be 0..K-1.
    """
    from mlpr.generative import GaussianClassifier

    if not isinstance(hParams, dict) or not hParams:
        raise TypeError(f"hParams must be a dict {{label: (mu, C)}}, got {type(hParams).__name__}")
    labels = sorted(hParams)
    if labels != list(range(len(labels))):
        raise ValueError(f"hParams has labels {labels}: expected 0..K-1")
    mus, Cs = [], []
    for k in labels:
        mu, C = hParams[k]
        mus.append(np.asarray(mu, dtype=np.float64).reshape(-1))
        Cs.append(np.asarray(C, dtype=np.float64))
    mu = np.column_stack(mus)
    if kind == "mvg":
        C = np.stack(Cs)
    elif kind == "naive":
        C = np.stack([np.diag(c) if c.ndim == 2 else c for c in Cs])
    elif kind == "tied":
        C = Cs[0]
    else:
        raise ValueError(f"kind must be 'mvg', 'naive' or 'tied', got {kind!r}")
    return GaussianClassifier(mu=mu, C=C, kind=kind)


def gmm_from_list(gmm):
    """An mlpr `GMM` from the course's list ``[(w, mu, C), ...]`` (``GMM.from_list``)."""
    from mlpr.gmm import GMM

    return GMM.from_list(gmm)


def logreg_from_wb(w, b, prior_log_odds: float = 0.0, l: float = 0.0, prior=None):
    """An mlpr `BinaryLogReg` from the course's ``(w, b)``; ``prior_log_odds`` is what its
    ``llr`` subtracts (eq. 102): log(n_T / n_F) for eq. 100, log(pi_T / (1 - pi_T)) for 101."""
    from mlpr.logreg import BinaryLogReg

    return BinaryLogReg(w=np.asarray(w, dtype=np.float64).reshape(-1), b=float(np.ravel(b)[0]),
                        l=float(l), prior=prior, prior_log_odds=float(prior_log_odds),
                        objective=math.nan, n_iter=0)


@dataclasses.dataclass(frozen=True)
class _ScoringModel:
    """A binary model around a course-style scoring function ``f(D) -> (N,)`` scores."""

    function: Callable

    def scores(self, D) -> np.ndarray:
        return np.asarray(self.function(np.asarray(D, dtype=np.float64)),
                          dtype=np.float64).reshape(-1)


def model_from_scoring_function(f: Callable):
    """A model whose ``scores(D)`` calls the course's scoring function ``f(D)`` (what
    ``train_dual_SVM_kernel`` returns) and returns the (N,) scores."""
    if not callable(f):
        raise TypeError(f"f must be a scoring function f(D) -> scores, got {type(f).__name__}")
    return _ScoringModel(f)


# ------------------------------------------------------------------------------------------------
# submissions


@dataclasses.dataclass
class Submission:
    """A loaded submission: its functions by name, and what happened while importing it."""

    path: Path
    functions: dict
    notes: list


def load_submission(path, mapping: dict | None = None) -> Submission:
    """Import a submission (a ``.py`` file, or a folder of modules) and collect its functions.

    A folder is put on ``sys.path`` (so its modules import each other as students write them) and
    every ``*.py`` module in it is imported in name order, except ``test_*`` files; a name defined
    in several modules is taken from the last and noted. ``mapping`` (course name -> the
    submission's name) renames functions. Importing runs the module's top level: a submission
    whose labs run on import should guard them with ``if __name__ == "__main__":``.
    """
    path = Path(path).resolve()
    if not path.exists():
        raise FileNotFoundError(f"submission {path} does not exist")
    files = [path] if path.is_file() else sorted(
        p for p in path.glob("*.py") if not p.name.startswith("test_"))
    if not files:
        raise ValueError(f"submission {path} holds no .py module")
    folder = str(path if path.is_dir() else path.parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    functions, origin, notes = {}, {}, []
    for i, f in enumerate(files):
        name = f"_submission_{abs(hash(str(path))) % 10**8}_{i}_{f.stem}"
        spec = importlib.util.spec_from_file_location(name, f)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        for key, value in vars(module).items():
            if key.startswith("_") or not callable(value) or inspect.isclass(value):
                continue
            if key in functions and functions[key] is not value and \
                    getattr(value, "__module__", None) == name:
                notes.append(f"{key} is defined in {origin[key]} and {f.name}: {f.name}'s is "
                             f"graded")
            if key not in functions or getattr(value, "__module__", None) == name:
                functions[key] = value
                origin[key] = f.name
    for course, student in (mapping or {}).items():
        if student not in functions:
            notes.append(f"--map {course}={student}: the submission has no function {student}")
        else:
            functions[course] = functions[student]
    return Submission(path=path, functions=functions, notes=notes)


# ------------------------------------------------------------------------------------------------
# student mode: a submission's functions in place of mlpr's


class StudentFailure(Exception):
    """A submission's function raised, or returned what its adapter cannot use."""

    def __init__(self, function: str, reason: str):
        super().__init__(f"your {function} {reason}")
        self.function = function
        self.reason = reason


class StudentCode:
    """A submission's course functions standing in for mlpr's, through the kit's adapters.

    ``replace(f)`` returns, for an mlpr function ``f`` that a lab asks students to write, a
    function with ``f``'s signature that computes with the submission's course functions
    (``train_mvg`` -> ``Gau_MVG_ML_estimates`` and ``compute_log_likelihood_Gau``, ``min_dcf`` ->
    ``compute_minDCF_binary_fast``, ``train_svm_kernel`` -> ``train_dual_SVM_kernel``, ...), or
    ``f`` itself when the submission lacks them. When the submission's function raises, returns
    something of the wrong form, or cannot take an argument that the caller passes, the
    replacement records why and returns mlpr's answer, so that the caller goes on and every
    result built on it can be reported as not served by the student's code.

    ``take(kind)`` returns and forgets the course functions called, and the failures met, since
    the last ``take`` of that kind ("check", "table" and "section" are tracked separately).
    """

    def __init__(self, submission):
        self.functions = dict(submission.functions if isinstance(submission, Submission)
                              else submission)
        self.path = getattr(submission, "path", None)
        self._calls = {"check": set(), "table": set(), "section": set()}
        self._failures = {"check": [], "table": [], "section": []}
        self.replaced: dict = {}

    def has(self, name: str) -> bool:
        return name in self.functions

    def call(self, name: str, *args, **kwargs):
        """Call the submission's ``name`` on copies of the arguments; `StudentFailure` if it
        raises."""
        f = self.functions[name]
        for kind in self._calls:
            self._calls[kind].add(name)
        try:
            return f(*copy.deepcopy(args), **copy.deepcopy(kwargs))
        except Exception as exc:
            raise StudentFailure(name, f"raised {type(exc).__name__}: {exc}") from None

    def accepts(self, name: str, parameter: str) -> bool:
        """Whether the submission's ``name`` takes a keyword argument ``parameter``."""
        try:
            sig = inspect.signature(self.functions[name])
        except (TypeError, ValueError):
            return False
        return parameter in sig.parameters or any(
            p.kind is p.VAR_KEYWORD for p in sig.parameters.values())

    def replace(self, f: Callable) -> Callable:
        """The submission's version of the mlpr function ``f``, or ``f``."""
        entry = _ADAPTERS.get(f.__name__)
        if entry is None:
            return f
        needs, build = entry
        if not any(all(self.has(n) for n in alternative) for alternative in needs):
            return f
        adapted = build(self, f)

        @functools.wraps(f)
        def replacement(*args, **kwargs):
            try:
                return adapted(*args, **kwargs)
            except StudentFailure as exc:
                self._fail(str(exc))
            except _Unsupported as exc:
                self._fail(f"cannot serve {f.__name__}(...): {exc}")
            return f(*args, **kwargs)

        self.replaced[f.__name__] = [n for alt in needs for n in alt if self.has(n)]
        return replacement

    def _fail(self, reason: str) -> None:
        for kind in self._failures:
            if reason not in self._failures[kind]:
                self._failures[kind].append(reason)

    def peek(self, kind: str) -> tuple:
        """``take`` without forgetting."""
        return sorted(self._calls[kind]), list(self._failures[kind])

    def take(self, kind: str = "check") -> tuple:
        """``(called, failures)`` since the last take of this kind: the course functions of the
        submission that were called, and why any of them could not serve."""
        called, failures = sorted(self._calls[kind]), list(self._failures[kind])
        self._calls[kind].clear()
        self._failures[kind].clear()
        return called, failures


class _Unsupported(Exception):
    """A call that the course's function cannot serve (an argument it has no counterpart of)."""


_ADAPTERS: dict = {}


def _adapter(mlpr_name: str, *needs):
    """Register the adapter of mlpr's ``mlpr_name``; ``needs`` lists alternatives, each a tuple
    of the course names it requires (the first alternative the submission has is used)."""

    def register(build):
        _ADAPTERS[mlpr_name] = (needs, build)
        return build

    return register


def adapted_functions() -> dict:
    """The mlpr functions that student mode can replace: ``{mlpr name: [course names]}`` (the
    course functions each needs; one alternative suffices where there are several)."""
    return {name: [n for alt in needs for n in alt] for name, (needs, _) in _ADAPTERS.items()}


def _first(code: StudentCode, *names: str) -> str:
    for n in names:
        if code.has(n):
            return n
    raise _Unsupported(f"the submission has none of {', '.join(names)}")


def _vector(x, n: int | None, function: str, what: str) -> np.ndarray:
    try:
        a = np.asarray(x, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise StudentFailure(function, f"returned {type(x).__name__} as {what}, not an "
                                       f"array") from None
    if n is not None and a.size != n:
        raise StudentFailure(function, f"returned {a.size} values as {what}, expected {n}")
    return a


def _no_extra(kwargs: dict, allowed: dict, name: str) -> None:
    """Refuse keyword arguments the course's function has no counterpart of (unless default)."""
    for k, v in kwargs.items():
        if k not in allowed:
            raise _Unsupported(f"{name} has no counterpart of {k}={v!r}")
        if allowed[k] is not _ANY and v != allowed[k]:
            raise _Unsupported(f"{name} has no counterpart of {k}={v!r}")


_ANY = object()


class _StudentGaussian:
    """An mlpr Gaussian classifier built from the submission's hParams, scoring with its
    ``compute_log_likelihood_Gau`` when it has one."""

    def __init__(self, code: StudentCode, hParams, kind: str, estimator: str):
        try:
            self._model = classifier_from_hparams(hParams, kind)
        except (TypeError, ValueError) as exc:
            raise StudentFailure(estimator, f"returned hParams that are not {{label: (mu, C)}} "
                                            f"with labels 0..K-1 ({exc})") from None
        self._code, self._hParams = code, hParams

    def __getattr__(self, name):
        return getattr(self._model, name)

    def scores(self, D) -> np.ndarray:
        if not self._code.has("compute_log_likelihood_Gau"):
            return self._model.scores(D)
        X = np.asarray(D, dtype=np.float64)
        S = self._code.call("compute_log_likelihood_Gau", X, self._hParams)
        S = np.asarray(S, dtype=np.float64)
        if S.shape != (self._model.n_classes, X.shape[1]):
            raise StudentFailure("compute_log_likelihood_Gau",
                                 f"returned shape {S.shape}, expected "
                                 f"({self._model.n_classes}, {X.shape[1]})")
        return S

    def llr(self, D) -> np.ndarray:
        S = self.scores(D)
        return S[1] - S[0]


def _gaussian_adapter(estimator: str, kind: str):
    def build(code: StudentCode, f):
        def train(D, L, *, unbiased: bool = False, psi=None):
            if unbiased or psi is not None:
                raise _Unsupported(f"{estimator}(D, L) has no counterpart of "
                                   f"{'unbiased=True' if unbiased else f'psi={psi!r}'}")
            return _StudentGaussian(code, code.call(estimator, np.asarray(D, float),
                                                    np.asarray(L)), kind, estimator)
        return train
    return build


_adapter("train_mvg", ("Gau_MVG_ML_estimates",))(_gaussian_adapter("Gau_MVG_ML_estimates", "mvg"))
_adapter("train_naive_bayes", ("Gau_Naive_ML_estimates",))(
    _gaussian_adapter("Gau_Naive_ML_estimates", "naive"))
_adapter("train_tied", ("Gau_Tied_ML_estimates",))(
    _gaussian_adapter("Gau_Tied_ML_estimates", "tied"))


@_adapter("log_posteriors", ("compute_logPosterior",))
def _log_posteriors(code, f):
    def log_posteriors(S, priors):
        S = np.asarray(S, dtype=np.float64)
        P = np.asarray(code.call("compute_logPosterior", S, np.asarray(priors, float)), float)
        if P.shape != S.shape:
            raise StudentFailure("compute_logPosterior", f"returned shape {P.shape}, expected "
                                                         f"{S.shape}")
        return P
    return log_posteriors


@_adapter("map_decisions", ("compute_logPosterior",))
def _map_decisions(code, f):
    post = _log_posteriors(code, f)

    def map_decisions(S, priors):
        return np.argmax(post(S, priors), axis=0)
    return map_decisions


@_adapter("logpdf_GAU_ND", ("logpdf_GAU_ND",), ("logpdf_GAU_ND_fast",))
def _logpdf(code, f):
    def logpdf_GAU_ND(X, mu, C):
        name = _first(code, "logpdf_GAU_ND", "logpdf_GAU_ND_fast")
        X = np.asarray(X, dtype=np.float64)
        mu = np.asarray(mu, dtype=np.float64).reshape(-1, 1)
        return _vector(code.call(name, X, mu, np.asarray(C, float)), X.shape[1], name,
                       "log-densities")
    return logpdf_GAU_ND


@dataclasses.dataclass(frozen=True)
class _Projection:
    """A projection learned by the submission: ``P`` (D, m) and its ``transform``; for PCA also
    the variances along its directions, ``diag(P^T C P)`` (the eigenvalues when P holds
    eigenvectors), and their share of the total variance."""

    P: np.ndarray
    apply: Callable | None = None
    eigenvalues: np.ndarray | None = None
    total_variance: float | None = None

    @property
    def explained_variance_ratio(self) -> np.ndarray:
        return self.eigenvalues / self.total_variance

    def n_components_for_variance(self, fraction: float) -> int:
        from mlpr.dimred import n_components_for_variance

        return n_components_for_variance(
            np.append(self.eigenvalues, self.total_variance - self.eigenvalues.sum()), fraction)

    @property
    def W(self) -> np.ndarray:
        return self.P

    def transform(self, D) -> np.ndarray:
        X = np.asarray(D, dtype=np.float64)
        if self.apply is None:
            return self.P.T @ X
        return self.apply(self.P, X)


@_adapter("fit_pca", ("compute_pca",))
def _fit_pca(code, f):
    def fit_pca(D, m, method: str = "eigh"):
        X = np.asarray(D, dtype=np.float64)
        P = np.asarray(code.call("compute_pca", X, m), dtype=np.float64)
        if P.shape != (X.shape[0], m):
            raise StudentFailure("compute_pca", f"returned shape {P.shape}, expected "
                                                f"({X.shape[0]}, {m})")
        apply = None
        if code.has("apply_pca"):
            def apply(P, X):
                return np.asarray(code.call("apply_pca", P, X), dtype=np.float64)
        Xc = X - X.mean(axis=1, keepdims=True)
        Y = P.T @ Xc
        return _Projection(P, apply, np.sum(Y * Y, axis=1) / X.shape[1],
                           float(np.sum(Xc * Xc) / X.shape[1]))
    return fit_pca


@_adapter("fit_lda", ("compute_lda_geig",), ("compute_lda_JointDiag",))
def _fit_lda(code, f):
    def fit_lda(D, L, m, method: str = "geig", basis: str = "sw"):
        name = ("compute_lda_JointDiag" if method == "jointdiag" and
                code.has("compute_lda_JointDiag") else _first(code, "compute_lda_geig",
                                                              "compute_lda_JointDiag"))
        X = np.asarray(D, dtype=np.float64)
        W = np.asarray(code.call(name, X, np.asarray(L), m), dtype=np.float64)
        if W.shape != (X.shape[0], m):
            raise StudentFailure(name, f"returned shape {W.shape}, expected ({X.shape[0]}, {m})")
        if basis == "orthonormal":  # any orthonormal basis of the LDA subspace
            W = np.linalg.qr(W)[0]
            return _Projection(W)
        apply = None
        if code.has("apply_lda"):
            def apply(W, X):
                return np.asarray(code.call("apply_lda", W, X), dtype=np.float64)
        return _Projection(W, apply)
    return fit_lda


@dataclasses.dataclass(frozen=True)
class _StudentLDABinary:
    """The course's LDA classifier from the submission's direction: w'x > t decides class 1."""

    w: np.ndarray
    t: float

    def scores(self, D) -> np.ndarray:
        return self.w @ np.asarray(D, dtype=np.float64)

    def predict(self, D) -> np.ndarray:
        return (self.scores(D) > self.t).astype(int)


@_adapter("train_lda_binary", ("compute_lda_geig",), ("compute_lda_JointDiag",))
def _lda_binary(code, f):
    lda = _fit_lda(code, f)

    def train_lda_binary(D, L, threshold="midpoint"):
        if threshold != "midpoint":
            raise _Unsupported(f"threshold={threshold!r}: the course's classifier uses the "
                               f"midpoint of the projected class means")
        X, Y = np.asarray(D, dtype=np.float64), np.asarray(L)
        w = lda(X, Y, 1).transform(np.eye(X.shape[0])).reshape(-1)
        m1, m0 = (w @ X[:, Y == 1]).mean(), (w @ X[:, Y == 0]).mean()
        if m1 < m0:  # orient the direction so that class 1 projects higher
            w, m1, m0 = -w, -m1, -m0
        return _StudentLDABinary(w, float((m0 + m1) / 2))
    return train_lda_binary


@_adapter("compute_Sw_Sb", ("compute_Sb_Sw",))
def _sw_sb(code, f):
    def compute_Sw_Sb(D, L):
        out = code.call("compute_Sb_Sw", np.asarray(D, float), np.asarray(L))
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise StudentFailure("compute_Sb_Sw", "did not return (Sb, Sw)")
        return np.asarray(out[1], float), np.asarray(out[0], float)
    return compute_Sw_Sb


@_adapter("confusion_matrix", ("compute_confusion_matrix",))
def _confusion(code, f):
    def confusion_matrix(pred, L, K=None):
        M = np.asarray(code.call("compute_confusion_matrix", np.asarray(pred), np.asarray(L)))
        if K is not None and M.shape != (K, K):
            raise _Unsupported(f"compute_confusion_matrix gave {M.shape}, the caller needs "
                               f"({K}, {K}) (a class absent from the labels)")
        return M.astype(np.int64)
    return confusion_matrix


@_adapter("optimal_bayes_decisions", ("compute_optimal_Bayes_binary_llr",))
def _obd(code, f):
    def optimal_bayes_decisions(llr, prior, Cfn=1.0, Cfp=1.0):
        s = np.asarray(llr, dtype=np.float64)
        d = code.call("compute_optimal_Bayes_binary_llr", s, prior, Cfn, Cfp)
        return _vector(d, s.size, "compute_optimal_Bayes_binary_llr", "decisions").astype(int)
    return optimal_bayes_decisions


@_adapter("dcf", ("compute_empirical_Bayes_risk_binary",))
def _dcf(code, f):
    def dcf(pred, L, prior, Cfn=1.0, Cfp=1.0, normalize=True):
        v = code.call("compute_empirical_Bayes_risk_binary", np.asarray(pred), np.asarray(L),
                      prior, Cfn, Cfp, normalize=normalize)
        return float(_vector(v, 1, "compute_empirical_Bayes_risk_binary", "the DCF")[0])
    return dcf


@_adapter("act_dcf", ("compute_actDCF_binary_fast",),
          ("compute_empirical_Bayes_risk_binary_llr_optimal_decisions",))
def _act_dcf(code, f):
    def act_dcf(llr, L, prior, Cfn=1.0, Cfp=1.0):
        name = _first(code, "compute_actDCF_binary_fast",
                      "compute_empirical_Bayes_risk_binary_llr_optimal_decisions")
        v = code.call(name, np.asarray(llr, float), np.asarray(L), prior, Cfn, Cfp)
        return float(_vector(v, 1, name, "actDCF")[0])
    return act_dcf


@_adapter("min_dcf", ("compute_minDCF_binary_fast",), ("compute_minDCF_binary_slow",))
def _min_dcf(code, f):
    def min_dcf(llr, L, prior, Cfn=1.0, Cfp=1.0, return_threshold=False):
        if return_threshold:
            raise _Unsupported("the threshold of the minimum is mlpr's own convention")
        name = _first(code, "compute_minDCF_binary_fast", "compute_minDCF_binary_slow")
        v = code.call(name, np.asarray(llr, float), np.asarray(L), prior, Cfn, Cfp)
        return float(_vector(v, 1, name, "minDCF")[0])
    return min_dcf


@_adapter("bayes_decisions", ("compute_optimal_Bayes",))
def _bayes_decisions(code, f):
    def bayes_decisions(log_posteriors, costs):
        P = np.exp(np.asarray(log_posteriors, dtype=np.float64))
        d = code.call("compute_optimal_Bayes", P, np.asarray(costs, float))
        return _vector(d, P.shape[1], "compute_optimal_Bayes", "decisions").astype(int)
    return bayes_decisions


@_adapter("empirical_bayes_risk", ("compute_empirical_Bayes_risk",))
def _ebr(code, f):
    def empirical_bayes_risk(pred, L, priors, costs, Cfp=None, normalize=True):
        if Cfp is not None or np.ndim(costs) == 0:
            raise _Unsupported("the binary (prior, Cfn, Cfp) form")
        v = code.call("compute_empirical_Bayes_risk", np.asarray(pred), np.asarray(L),
                      np.asarray(priors, float), np.asarray(costs, float), normalize=normalize)
        return float(_vector(v, 1, "compute_empirical_Bayes_risk", "the risk")[0])
    return empirical_bayes_risk


@_adapter("train_logreg_binary", ("trainLogRegBinary",), ("trainWeightedLogRegBinary",))
def _logreg(code, f):
    def train_logreg_binary(D, L, l, prior=None, **solver_settings):
        # the solver settings (tol, max_iter, ...) are mlpr's: the student's optimiser has its own
        X, Y = np.asarray(D, dtype=np.float64), np.asarray(L)
        if prior is None:
            name = "trainLogRegBinary"
            if not code.has(name):
                raise _Unsupported("the submission has no trainLogRegBinary")
            out = code.call(name, X, Y, l)
            nT, nF = int(np.sum(Y == 1)), int(np.sum(Y == 0))
            lo = math.log(nT / nF)
        else:
            name = "trainWeightedLogRegBinary"
            if not code.has(name):
                raise _Unsupported("the submission has no trainWeightedLogRegBinary")
            out = code.call(name, X, Y, l, prior)
            lo = math.log(prior / (1 - prior))
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise StudentFailure(name, "did not return (w, b)")
        w = _vector(out[0], X.shape[0], name, "w")
        b = _vector(out[1], 1, name, "b")[0]
        from mlpr.logreg import BinaryLogReg, logreg_obj_wrap

        J = float(logreg_obj_wrap(X, Y, l, prior)(np.append(w, b))[0])
        return BinaryLogReg(w=w, b=float(b), l=float(l), prior=prior, prior_log_odds=float(lo),
                            objective=J, n_iter=0)
    return train_logreg_binary


@dataclasses.dataclass(frozen=True)
class _StudentLinearSVM:
    """A linear SVM from the submission's ``(w, b)``: its primal objective is computed at
    (w, b); the course's function returns no dual solution, so the dual, the gap and the KKT
    violation are NaN."""

    w: np.ndarray
    b: float
    primal_objective: float
    dual_objective: float = math.nan
    duality_gap: float = math.nan
    kkt_violation: float = math.nan

    def scores(self, D) -> np.ndarray:
        return self.w @ np.asarray(D, dtype=np.float64) + self.b


@_adapter("train_svm_linear", ("train_dual_SVM_linear",))
def _svm_linear(code, f):
    def train_svm_linear(D, L, C, K=1.0, prior=None, **solver_settings):
        if K is None or prior is not None or not np.isfinite(C):
            raise _Unsupported("train_dual_SVM_linear(DTR, LTR, C, K) is the labs' formulation "
                               "only (a constant feature K, finite C, no re-balancing)")
        X = np.asarray(D, dtype=np.float64)
        out = code.call("train_dual_SVM_linear", X, np.asarray(L), C, K)
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise StudentFailure("train_dual_SVM_linear", "did not return (w, b)")
        w = _vector(out[0], X.shape[0], "train_dual_SVM_linear", "w")
        b = float(_vector(out[1], 1, "train_dual_SVM_linear", "b")[0])
        from mlpr.svm import svm_primal_objective

        return _StudentLinearSVM(w, b, float(svm_primal_objective(w, b, X, np.asarray(L), C, K)))
    return train_svm_linear


@dataclasses.dataclass(frozen=True)
class _StudentKernelSVM:
    """A kernel SVM from the submission's scoring function (no dual solution: the objectives,
    the gap and the KKT violation are NaN)."""

    code: Any
    function: Callable
    primal_objective: float = math.nan
    dual_objective: float = math.nan
    duality_gap: float = math.nan
    kkt_violation: float = math.nan

    def scores(self, D) -> np.ndarray:
        X = np.asarray(D, dtype=np.float64)
        try:
            s = self.function(X.copy())
        except Exception as exc:
            raise StudentFailure("train_dual_SVM_kernel", f"'s scoring function raised "
                                 f"{type(exc).__name__}: {exc}") from None
        return _vector(s, X.shape[1], "train_dual_SVM_kernel", "scores")


@_adapter("train_svm_kernel", ("train_dual_SVM_kernel",))
def _svm_kernel(code, f):
    def train_svm_kernel(D, L, C, kernel, eps=1.0, prior=None, **solver_settings):
        if eps is None or prior is not None or not np.isfinite(C):
            raise _Unsupported("train_dual_SVM_kernel(DTR, LTR, C, kernelFunc, eps) is the labs' "
                               "formulation only (eps in the kernel, finite C, no re-balancing)")

        def kernelFunc(D1, D2):
            return kernel(D1, D2)

        out = code.call("train_dual_SVM_kernel", np.asarray(D, float), np.asarray(L), C,
                        kernelFunc, eps)
        if isinstance(out, (tuple, list)) and out and callable(out[0]):
            out = out[0]
        if not callable(out):
            raise StudentFailure("train_dual_SVM_kernel", "did not return a scoring function")
        return _StudentKernelSVM(code, out)
    return train_svm_kernel


@_adapter("logpdf_GMM", ("logpdf_GMM",))
def _logpdf_gmm(code, f):
    def logpdf_GMM(D, gmm):
        X = np.asarray(D, dtype=np.float64)
        return _vector(code.call("logpdf_GMM", X, gmm_from_list(gmm).to_list()), X.shape[1],
                       "logpdf_GMM", "log-densities")
    return logpdf_GMM


_COV = {"full": "Full", "diagonal": "Diagonal", "tied": "Tied"}


def _student_gmm(out, name: str):
    try:
        return gmm_from_list(out)
    except (TypeError, ValueError) as exc:
        raise StudentFailure(name, f"returned something that is not a GMM [(w, mu, C), ...] "
                                   f"({exc})") from None


def _quiet(code, name: str) -> dict:
    return {"verbose": False} if code.accepts(name, "verbose") else {}


@_adapter("em_step", ("train_GMM_EM_Iteration",))
def _em_step(code, f):
    def em_step(D, gmm, cov_type="full", psi=None, **kwargs):
        kwargs.pop("method", None)
        if kwargs:
            raise _Unsupported(f"no counterpart of {', '.join(kwargs)}")
        out = code.call("train_GMM_EM_Iteration", np.asarray(D, float),
                        gmm_from_list(gmm).to_list(), covType=_COV[cov_type], psiEig=psi)
        return _student_gmm(out, "train_GMM_EM_Iteration")
    return em_step


@_adapter("train_gmm_em", ("train_GMM_EM",))
def _train_gmm_em(code, f):
    def train_gmm_em(D, gmm, cov_type="full", psi=None, tol=1e-6, **kwargs):
        kwargs.pop("max_iter", None)
        kwargs.pop("method", None)
        if kwargs:
            raise _Unsupported(f"no counterpart of {', '.join(kwargs)} (e.g. the history of "
                               f"the log-likelihood)")
        X = np.asarray(D, dtype=np.float64)
        out = code.call("train_GMM_EM", X, gmm_from_list(gmm).to_list(),
                        covType=_COV[cov_type], psiEig=psi, epsLLAverage=tol,
                        **_quiet(code, "train_GMM_EM"))
        g = _student_gmm(out, "train_GMM_EM")
        from mlpr.gmm import logpdf_GMM as mlpr_logpdf

        return g, [float(mlpr_logpdf(X, g).mean())]
    return train_gmm_em


@_adapter("split_gmm", ("split_GMM_LBG",))
def _split_gmm(code, f):
    def split_gmm(gmm, alpha=0.1):
        out = code.call("split_GMM_LBG", gmm_from_list(gmm).to_list(), alpha,
                        **_quiet(code, "split_GMM_LBG"))
        return _student_gmm(out, "split_GMM_LBG")
    return split_gmm


@_adapter("train_gmm_lbg", ("train_GMM_LBG_EM",))
def _train_gmm_lbg(code, f):
    def train_gmm_lbg(D, n_components, cov_type="full", psi=None, alpha=0.1, tol=1e-6,
                      **kwargs):
        if kwargs.get("return_history") or set(kwargs) - {"return_history", "max_iter",
                                                           "method"}:
            raise _Unsupported("train_GMM_LBG_EM returns the final model only (no history)")
        X = np.asarray(D, dtype=np.float64)
        models, M = [], 1
        while M <= n_components:  # the course returns the final model: one run per size
            out = code.call("train_GMM_LBG_EM", X, M, covType=_COV[cov_type], psiEig=psi,
                            epsLLAverage=tol, lbgAlpha=alpha, **_quiet(code, "train_GMM_LBG_EM"))
            models.append(_student_gmm(out, "train_GMM_LBG_EM"))
            M *= 2
        return models
    return train_gmm_lbg


@_adapter("lbg_gmm_classifiers", ("train_GMM_LBG_EM",))
def _lbg_classifiers(code, f):
    lbg = _train_gmm_lbg(code, f)

    def lbg_gmm_classifiers(D, L, n_components, cov_type="full", psi=None, alpha=0.1, tol=1e-6,
                            **kwargs):
        from mlpr.gmm import GMMClassifier

        X, Y = np.asarray(D, dtype=np.float64), np.asarray(L)
        per_class = [lbg(X[:, Y == k], n_components, cov_type, psi, alpha, tol, **kwargs)
                     for k in range(int(Y.max()) + 1)]
        return {2 ** i: GMMClassifier(gmms=tuple(m[i] for m in per_class))
                for i in range(len(per_class[0]))}
    return lbg_gmm_classifiers


@_adapter("kmeans", ("k_means",))
def _kmeans(code, f):
    def kmeans(D, init, rng=None, max_iter=300):
        if not isinstance(init, (int, np.integer)):
            raise _Unsupported("k_means(D, n) starts from its own centroids")
        X = np.asarray(D, dtype=np.float64)
        out = code.call("k_means", X, int(init))
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise StudentFailure("k_means", "did not return (centroids, labels)")
        cent = np.asarray(out[0], dtype=np.float64)
        if cent.shape == (int(init), X.shape[0]):
            cent = cent.T
        lab = _vector(out[1], X.shape[1], "k_means", "labels").astype(int)
        d = ((X[:, :, None] - cent[:, None, :]) ** 2).sum(axis=0)
        return cent, lab, [float(d[np.arange(X.shape[1]), lab].mean())]
    return kmeans


# ------------------------------------------------------------------------------------------------
# the catalogue and in-process grading


def tasks(labs: Sequence[int] | None = None) -> dict:
    """The task catalogue, ``{course name: Task}``, optionally only the given labs."""
    from mlpr.grading_tasks import TASKS

    return {n: t for n, t in TASKS.items() if labs is None or t.lab in set(labs)}


def reference(name: str) -> list:
    """The cases of task ``name``: each `Case` has ``args`` (the inputs, in the course's calling
    convention) and ``expected`` (mlpr's answer). ``reference("logpdf_GAU_ND")[0].expected``."""
    catalogue = tasks()
    if name not in catalogue:
        raise ValueError(f"no task {name!r}; the tasks are: {', '.join(sorted(catalogue))}")
    return catalogue[name].cases()


class _Guard:
    """What a submission's function does besides returning: files it opens, lines it prints.

    One audit hook (they cannot be removed) records the files opened while ``active``, outside
    the Python installation and mlpr's own package and data.
    """

    def __init__(self):
        import mlpr

        roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, os.devnull, "/dev/", "/proc/",
                 "/sys/", str(Path(mlpr.__file__).resolve().parent),
                 str(Path(mlpr.__file__).resolve().parents[1] / "datasets")}
        roots.update(p for p in sys.path if "site-packages" in p or "dist-packages" in p)
        self.roots = tuple(sorted(str(r) for r in roots if r))
        self.allowed: tuple = ()
        self.active = False
        self.opened: list = []
        sys.addaudithook(self._hook)

    def _hook(self, event, args):
        if not self.active or event != "open" or not args or isinstance(args[0], int):
            return
        try:
            p = os.path.abspath(os.fsdecode(args[0]))
        except Exception:
            return
        if p.startswith(self.roots) or p.startswith(self.allowed):
            return
        self.opened.append(p)


_GUARD: _Guard | None = None


def _call(fn, case: Case, guard: _Guard | None):
    """Call the student's function on a copy of the case's inputs; `Fail` with the reason when it
    raises or opens a file."""
    args = copy.deepcopy(case.args)
    kwargs = copy.deepcopy(case.kwargs)
    if guard is not None:
        guard.opened.clear()
        guard.active = True
    try:
        out = fn(*args, **kwargs)
    except Fail:
        raise
    except Exception as exc:
        raise Fail(*_explain_exception(fn, exc, case, guard)) from None
    finally:
        if guard is not None:
            guard.active = False
    if guard is not None and guard.opened:
        raise Fail(f"the function opened the file {guard.opened[0]!r}",
                   hint="graded functions take their data as arguments and read or write no "
                        "file")
    return out


def _explain_exception(fn, exc: Exception, case: Case, guard) -> tuple:
    tb = traceback.extract_tb(exc.__traceback__)
    where = ""
    for frame in reversed(tb):
        if "mlpr/grading" not in frame.filename.replace(os.sep, "/"):
            where = f" (at {Path(frame.filename).name}, line {frame.lineno}: {frame.line})"
            break
    msg = f"raised {type(exc).__name__}: {exc}{where}"
    if guard is not None and guard.opened:
        return (msg, f"the function reads the file {guard.opened[0]!r}: graded functions take "
                     f"their data as arguments")
    if isinstance(exc, TypeError) and ("argument" in str(exc) or "positional" in str(exc)):
        try:
            sig = str(inspect.signature(fn))
        except (TypeError, ValueError):
            sig = "(...)"
        return (msg, f"the function's signature {fn.__name__}{sig} does not take the course's "
                     f"arguments ({_describe_args(case)}); rename it or adapt the signature")
    return msg, None


def _describe_args(case: Case) -> str:
    parts = []
    for a in case.args:
        if isinstance(a, np.ndarray):
            parts.append(f"array {a.shape}")
        elif callable(a):
            parts.append("a function")
        else:
            parts.append(type(a).__name__)
    parts += [f"{k}=..." for k in case.kwargs]
    return ", ".join(parts)


def run_case(fn, case: Case, guard: _Guard | None = None) -> Comparison:
    """Run one case: call, post-process, compare; `Fail` with the likely mistake when wrong."""
    out = _call(fn, case, guard)
    compare = case.compare or closed_form()
    try:
        got = case.post(out) if case.post is not None else out
        result = compare(got, case.expected)
    except Fail as exc:
        if exc.hint is None and case.post is None:
            exc.hint = diagnose(out, case.expected, case.mistakes, compare, case.context)
        raise
    if not result.ok:
        hint = diagnose(got, case.expected, case.mistakes, compare, case.context)
        raise Fail(f"{result.detail} {result.err:.3g} > tolerance {result.tol:.3g}", hint=hint,
                   err=result.err, tol=result.tol)
    return result


def run_task(task: Task, fn, guard: _Guard | None = None) -> TaskResult:
    """Grade one task: every case must pass; the result reports the worst error measured."""
    t0 = time.perf_counter()
    worst: Comparison | None = None
    try:
        for case in task.cases():
            try:
                c = run_case(fn, case, guard)
            except Fail as exc:
                exc.message = f"{case.what}: {exc.message}"
                raise
            if worst is None or c.err / max(c.tol, 1e-300) > worst.err / max(worst.tol, 1e-300):
                worst = c
    except Fail as exc:
        return TaskResult(task.name, task.lab, "failed", 0.0, task.points, exc.err, exc.tol,
                          exc.message, exc.hint, time.perf_counter() - t0)
    return TaskResult(task.name, task.lab, "passed", task.points, task.points,
                      worst.err if worst else None, worst.tol if worst else None, "", None,
                      time.perf_counter() - t0)


def grade_functions(functions: dict, names: Sequence[str] | None = None) -> list:
    """Grade a dict ``{course name: function}`` in this process (no isolation, no time limit):
    a list of `TaskResult`, one per task whose function is in ``functions`` (or per name of
    ``names``, missing ones failing)."""
    catalogue = tasks()
    wanted = list(names) if names is not None else [
        n for n, t in catalogue.items() if t.function_name in functions]
    results = []
    for n in wanted:
        task = catalogue[n]
        f = task.function_name
        if f not in functions:
            results.append(TaskResult(n, task.lab, "failed", 0.0, task.points,
                                      message=f"the submission has no function {f}",
                                      hint=f"define {f}{task.signature}, or map your name to it "
                                           f"with --map {f}=your_name"))
        else:
            results.append(run_task(task, functions[f]))
    return results


# ------------------------------------------------------------------------------------------------
# the isolated worker: one child process per submission


def _worker(path: str, mapping: dict, allow_print: bool = False) -> None:
    """The child process: import the submission, then grade the tasks named on stdin.

    Protocol: one JSON line per message on the original stdout (a duplicate of file descriptor 1
    taken before the submission can print); the submission's own output goes to a file, and a
    task during which it printed fails.
    """
    global _GUARD
    proto = os.fdopen(os.dup(1), "w", buffering=1)
    capture = tempfile.TemporaryFile(mode="w+b")
    os.dup2(capture.fileno(), 1)
    os.dup2(capture.fileno(), 2)
    sys.stdout = io.TextIOWrapper(os.fdopen(1, "wb", buffering=0), write_through=True)
    sys.stderr = sys.stdout

    def printed() -> str:
        sys.stdout.flush()
        capture.seek(0)
        text = capture.read().decode(errors="replace")
        capture.seek(0)
        capture.truncate()
        return text

    def send(msg: dict) -> None:
        proto.write(json.dumps(msg) + "\n")

    import warnings

    warnings.simplefilter("ignore")
    try:
        sub = load_submission(path, mapping)
    except BaseException as exc:  # the submission's import: anything may happen there
        send({"loaded": False, "error": f"importing the submission raised "
                                        f"{type(exc).__name__}: {exc}",
              "printed": printed()[-2000:]})
        return
    send({"loaded": True, "names": sorted(sub.functions), "notes": sub.notes,
          "printed": printed()[-2000:]})
    _GUARD = _Guard()
    _GUARD.allowed = (os.path.join(os.getcwd(), ".cache"),)
    catalogue = tasks()
    for line in sys.stdin:
        name = json.loads(line)["task"]
        task = catalogue[name]
        cwd_files = tuple(os.path.join(os.getcwd(), f) for f in task.files)
        _GUARD.allowed = (os.path.join(os.getcwd(), ".cache"),) + cwd_files
        try:
            result = run_task(task, sub.functions[task.function_name], _GUARD)
        except BaseException as exc:  # SystemExit, KeyboardInterrupt from a submission
            result = TaskResult(name, task.lab, "failed", 0.0, task.points,
                                message=f"raised {type(exc).__name__}: {exc}")
        out = printed()
        if out.strip() and result.status == "passed" and not allow_print:
            first = out.strip().splitlines()[0][:120]
            result = dataclasses.replace(
                result, status="failed", points=0.0,
                message=f"the function printed {len(out.splitlines())} line(s), e.g. {first!r}",
                hint="graded functions return their results and print nothing (a verbose "
                     "default? pass verbose=False by default, or print only under "
                     "if __name__ == '__main__'); a grader who accepts prints passes "
                     "--allow-print")
        send({"result": result.to_dict()})


class _Child:
    """A worker process for one submission, with a reader thread for its protocol lines."""

    def __init__(self, path: Path, mapping: dict, workdir: Path, allow_print: bool = False):
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1",
                   MKL_NUM_THREADS="1", MPLBACKEND="Agg", MPLCONFIGDIR=str(workdir / ".cache"),
                   PYTHONDONTWRITEBYTECODE="1")
        import mlpr

        root = str(Path(mlpr.__file__).resolve().parents[1])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        cmd = [sys.executable, "-m", "mlpr.grading", "--worker", str(path)]
        for k, v in mapping.items():
            cmd += ["--map", f"{k}={v}"]
        if allow_print:
            cmd.append("--allow-print")
        self.proc = subprocess.Popen(cmd, cwd=workdir, env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, start_new_session=True)
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def receive(self, timeout: float) -> dict | None:
        """The next message, or None when the child died or the time ran out."""
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            return None
        if line is None:
            return None
        try:
            return json.loads(line)
        except json.JSONDecodeError:
            return None

    def send(self, task: str) -> bool:
        try:
            self.proc.stdin.write(json.dumps({"task": task}) + "\n")
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def kill(self):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(Exception):
            self.proc.wait(timeout=5)


@dataclasses.dataclass
class Report:
    """The grading of one submission: its task results, the names it defines that no task
    grades, and notes on loading it."""

    submission: str
    results: list
    not_graded: list
    notes: list
    seconds: float = 0.0

    @property
    def score(self) -> float:
        return float(sum(r.points for r in self.results))

    @property
    def max_score(self) -> float:
        return float(sum(r.max_points for r in self.results))

    @property
    def passed(self) -> bool:
        return all(r.status == "passed" for r in self.results)


def grade(path, labs: Sequence[int] | None = None, mapping: dict | None = None,
          timeout: float = TASK_TIMEOUT, import_timeout: float = IMPORT_TIMEOUT,
          allow_print: bool = False) -> Report:
    """Grade one submission in a child process, in a temporary working directory.

    Parameters
    ----------
    path : path-like
        A ``.py`` file or a folder of modules.
    labs : sequence of int, optional
        Grade the tasks of these labs (a missing function then fails its task). By default, the
        labs of which the submission defines at least one function; the others are not graded.
    mapping : dict, optional
        ``{course name: the submission's name}`` for functions named otherwise.
    timeout : float
        Time limit of each task, in seconds: a task that runs longer fails ("hangs"), its child
        is killed and the next task runs in a new one.
    import_timeout : float
        Time limit for importing the submission.
    allow_print : bool
        Accept functions that print (by default printing fails the task: graded functions
        return their results).
    """
    t0 = time.perf_counter()
    path = Path(path).resolve()
    mapping = dict(mapping or {})
    catalogue = tasks()
    notes: list = []
    with tempfile.TemporaryDirectory(prefix="mlpr-grading-") as tmp:
        workdir = Path(tmp)
        (workdir / ".cache").mkdir()
        _stage_files(catalogue, workdir)
        child = _Child(path, mapping, workdir, allow_print)
        hello = child.receive(import_timeout)
        if hello is None or not hello.get("loaded"):
            child.kill()
            reason = (hello or {}).get("error") or (
                f"importing the submission took longer than {import_timeout:g} s (a lab that "
                f"runs on import? guard it with if __name__ == '__main__':)"
                if hello is None else "the submission could not be imported")
            chosen = [t for t in catalogue.values() if labs is None or t.lab in labs]
            results = [TaskResult(t.name, t.lab, "failed", 0.0, t.points, message=reason)
                       for t in chosen] if labs is not None else []
            if labs is None:
                notes.append(reason)
            return Report(str(path), results, [], notes, time.perf_counter() - t0)
        names = set(hello["names"]) | set(mapping)
        notes += hello.get("notes", [])
        if hello.get("printed", "").strip():
            notes.append("the submission printed when imported (its labs' scripts run on "
                         "import?): " + hello["printed"].strip().splitlines()[0][:100])
        if labs is None:
            labs_graded = {t.lab for t in catalogue.values() if t.function_name in names}
        else:
            labs_graded = set(labs)
        chosen = [t for t in catalogue.values() if t.lab in labs_graded]
        chosen.sort(key=lambda t: (t.lab, list(catalogue).index(t.name)))
        results = []
        for task in chosen:
            f = task.function_name
            if f not in names:
                results.append(TaskResult(
                    task.name, task.lab, "failed", 0.0, task.points,
                    message=f"the submission has no function {f}",
                    hint=f"define {f}{task.signature}, or name yours with --map {f}=your_name"))
                continue
            if child is None:
                child = _Child(path, mapping, workdir, allow_print)
                if child.receive(import_timeout) is None:
                    child.kill()
                    child = None
                    results.append(TaskResult(task.name, task.lab, "failed", 0.0, task.points,
                                              message="the submission could not be re-imported"))
                    continue
            t1 = time.perf_counter()
            msg = child.receive(timeout) if child.send(task.name) else None
            if msg is None or "result" not in msg:
                hung = time.perf_counter() - t1 >= timeout * 0.99
                child.kill()
                child = None
                reason = (f"hangs: no answer within the time limit of {timeout:g} s"
                          if hung else "the process running the submission died (a crash, "
                                       "os._exit or a signal)")
                results.append(TaskResult(task.name, task.lab, "failed", 0.0, task.points,
                                          message=reason, seconds=time.perf_counter() - t1))
                continue
            results.append(TaskResult(**msg["result"]))
        if child is not None:
            child.kill()
    graded = {t.function_name for t in catalogue.values()} | set(mapping) | {"vcol", "vrow"}
    not_graded = sorted(n for n in names - graded if not n.startswith("_"))
    return Report(str(path), results, not_graded, notes, time.perf_counter() - t0)


def _stage_files(catalogue: dict, workdir: Path) -> None:
    """Copy the data files that loading tasks read (the course's ``iris.csv``) to ``workdir``."""
    import mlpr

    data = Path(mlpr.__file__).resolve().parents[1] / "datasets"
    for t in catalogue.values():
        for f in t.files:
            if (data / f).exists() and not (workdir / f).exists():
                shutil.copy(data / f, workdir / f)


# ------------------------------------------------------------------------------------------------
# reports


def _fmt_err(r: TaskResult) -> str:
    if r.err is None:
        return ""
    return f"err {r.err:.2g} (tol {r.tol:.2g})"


def format_text(reports: Sequence[Report]) -> str:
    """One line per task: a mark, the points, the error against its tolerance, and the hint."""
    out = []
    for rep in reports:
        out.append(f"== {rep.submission}: {rep.score:g} / {rep.max_score:g} points "
                   f"({rep.seconds:.1f} s)")
        for note in rep.notes:
            out.append(f"   note: {note}")
        for r in rep.results:
            mark = "✔" if r.status == "passed" else "✘"
            line = f" {mark} {r.title:<62s} {r.points:g}/{r.max_points:g}  {_fmt_err(r)}"
            out.append(line.rstrip())
            if r.status != "passed":
                out.append(f"     {r.message}")
                if r.hint:
                    out.append(f"     hint: {r.hint}")
        if rep.not_graded:
            out.append(f"   not graded (no task of that name): {', '.join(rep.not_graded)}")
    return "\n".join(out) + "\n"


def format_gradescope(rep: Report) -> dict:
    """The Gradescope autograder ``results.json`` of one submission."""
    tests = []
    for r in rep.results:
        text = "passed" if r.status == "passed" else r.message
        if r.err is not None:
            text += f"\nerror {r.err:.3g}, tolerance {r.tol:.3g}"
        if r.hint:
            text += f"\nhint: {r.hint}"
        tests.append({"name": r.title, "score": r.points, "max_score": r.max_points,
                      "status": "passed" if r.status == "passed" else "failed",
                      "output": text})
    output = "\n".join(rep.notes)
    if rep.not_graded:
        output += ("\n" if output else "") + "not graded: " + ", ".join(rep.not_graded)
    return {"score": rep.score, "output": output, "tests": tests}


def format_csv(reports: Sequence[Report]) -> str:
    """One row per submission, one column per task (its points), then the total."""
    names = []
    for rep in reports:
        for r in rep.results:
            if r.title not in names:
                names.append(r.title)
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["submission"] + names + ["score", "max_score"])
    for rep in reports:
        got = {r.title: r.points for r in rep.results}
        w.writerow([rep.submission] + [got.get(n, "") for n in names]
                   + [rep.score, rep.max_score])
    return buf.getvalue()


def format_json(reports: Sequence[Report]) -> str:
    return json.dumps([{"submission": r.submission, "score": r.score, "max_score": r.max_score,
                        "results": [x.to_dict() for x in r.results],
                        "not_graded": r.not_graded, "notes": r.notes, "seconds": r.seconds}
                       for r in reports], indent=1)


# ------------------------------------------------------------------------------------------------
# the command line


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m mlpr.grading",
        description="Grade course-style lab solutions against mlpr: one line per task with the "
                    "measured error, its tolerance and the likely mistake. Each submission runs "
                    "in a child process in a temporary folder (contains mistakes, not malice: "
                    "use a container for untrusted code).")
    p.add_argument("submissions", nargs="*", type=Path, metavar="SUBMISSION",
                   help="a .py file or a folder of modules")
    p.add_argument("--lab", type=int, action="append", dest="labs", metavar="N",
                   help="grade the tasks of lab N (repeatable); default: every lab of which the "
                        "submission defines a function")
    p.add_argument("--map", action="append", default=[], metavar="COURSE=STUDENT",
                   help="the submission's name for a course function (repeatable)")
    p.add_argument("--format", choices=("text", "json", "gradescope", "csv"), default="text")
    p.add_argument("--out", type=Path, help="write the report to this file (default: stdout)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="submissions graded in parallel (default: the machine's cores)")
    p.add_argument("--timeout", type=float, default=TASK_TIMEOUT,
                   help=f"time limit per task, seconds (default {TASK_TIMEOUT:g})")
    p.add_argument("--allow-print", action="store_true",
                   help="accept functions that print (by default a task fails when its "
                        "function prints: graded functions return their results)")
    p.add_argument("--list", action="store_true", help="list the tasks and exit")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    return p


def _parse_map(items: Sequence[str], parser) -> dict:
    mapping = {}
    for item in items:
        course, sep, student = item.partition("=")
        if not sep or not course or not student:
            parser.error(f"--map expects COURSE=STUDENT, got {item!r}")
        mapping[course.strip()] = student.strip()
    return mapping


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m mlpr.grading``: exit 0 when every graded task passes, 1 when one fails, 2 on
    a usage error."""
    parser = _parser()
    args = parser.parse_args(argv)
    mapping = _parse_map(args.map, parser)
    if args.worker:
        _worker(args.worker, mapping, args.allow_print)
        return 0
    catalogue = tasks()
    if args.list:
        for t in catalogue.values():
            print(f"lab {t.lab:2d}  {t.name}{t.signature}  ({t.topic})")
        return 0
    if not args.submissions:
        parser.error("give at least one SUBMISSION (a .py file or a folder of modules)")
    for s in args.submissions:
        if not s.exists():
            parser.error(f"submission {s} does not exist")
    unknown = [k for k in mapping if k not in {t.function_name for t in catalogue.values()}]
    if unknown:
        parser.error(f"--map: no task named {', '.join(unknown)} (python -m mlpr.grading --list)")
    labs = sorted(set(args.labs)) if args.labs else None
    known_labs = {t.lab for t in catalogue.values()}
    if labs and not set(labs) <= known_labs:
        parser.error(f"--lab: the labs with tasks are {sorted(known_labs)}, got {labs}")
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, got {args.jobs}")
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        reports = list(pool.map(lambda s: grade(s, labs, mapping, args.timeout,
                                                allow_print=args.allow_print),
                                args.submissions))
    if args.format == "text":
        text = format_text(reports)
    elif args.format == "json":
        text = format_json(reports)
    elif args.format == "csv":
        text = format_csv(reports)
    else:
        docs = [format_gradescope(r) for r in reports]
        text = json.dumps(docs[0] if len(docs) == 1 else docs, indent=1)
    if args.out:
        args.out.write_text(text)
    else:
        sys.stdout.write(text)
    return 0 if all(r.passed for r in reports) else 1


if __name__ == "__main__":
    # run the imported module's main, so that the catalogue (which imports mlpr.grading) and this
    # runner share one copy of the classes
    from mlpr.grading import main as _main

    sys.exit(_main())
