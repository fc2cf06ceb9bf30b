r"""Student mode: a submission's course functions standing in for mlpr's, in the lectures.

``python lectures/NN_topic/run.py --student my_labs.py`` runs a lecture with the student's own lab
functions in place of mlpr's: `load_submission` imports the student's file the way the grading
harness does (the course's ``iris.csv`` in the working folder, matplotlib's non-interactive
backend), and `StudentCode.replace` wraps each mlpr function that a lab asks students to write
(``train_mvg`` -> ``Gau_MVG_ML_estimates``, ``min_dcf`` -> ``compute_minDCF_binary_fast``, ...).

This runs the student's code in the lecture's own process: it is for a student running their own
code on their own machine. Grading untrusted code goes through `mlpr.grading.runner`, which never
imports a submission into the grader's process.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import inspect
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from mlpr.grading.child import wire
from mlpr.grading.framework import classifier_from_hparams, gmm_from_list

__all__ = ["Submission", "load_submission", "StudentCode", "StudentFailure", "Audit",
           "adapted_functions", "AUDIT_CALLS", "RTOL_AUDIT"]

# ------------------------------------------------------------------------------------------------
# submissions


@dataclasses.dataclass
class Submission:
    """A loaded submission: its functions by name, and what happened while importing it."""

    path: Path
    functions: dict
    notes: list
    #: ``{course name: the submission's name}`` (``--map``)
    mapping: dict = dataclasses.field(default_factory=dict)


def load_submission(path, mapping: dict | None = None) -> Submission:
    """Import a submission into this process the way the grading kit's harness imports it (a
    ``.py`` file, a folder of modules, or a repository of lab folders:
    `mlpr.grading.child.harness.load`) and collect its functions.

    As in the kit's sandbox, the module's top level runs in a working folder that holds the
    course's ``iris.csv`` (a file that reads it at import works), with matplotlib's
    non-interactive backend (a ``plt.show()`` at import does not block). ``mapping`` (course name
    -> the submission's name) renames functions. A submission whose labs run on import should
    guard them with ``if __name__ == "__main__":``.
    """
    import os
    import shutil
    import tempfile

    from mlpr.datasets import data_dir
    from mlpr.grading.child.harness import load

    path = Path(path).resolve()
    if not path.exists():
        raise FileNotFoundError(f"submission {path} does not exist")
    for name, module in list(sys.modules.items()):  # a file loaded before is imported anew
        f = getattr(module, "__file__", None)
        if f and (Path(f).resolve() == path or Path(f).resolve().is_relative_to(path)):
            del sys.modules[name]
    cwd = os.getcwd()
    backend = None
    if "matplotlib.pyplot" in sys.modules:
        plt = sys.modules["matplotlib.pyplot"]
        backend = plt.get_backend()
        plt.switch_backend("Agg")
    with tempfile.TemporaryDirectory(prefix="mlpr-student-") as work:
        if (data_dir() / "iris.csv").exists():
            shutil.copy(data_dir() / "iris.csv", Path(work) / "iris.csv")
        os.chdir(work)
        try:
            functions, _, notes = load(path)
        finally:
            os.chdir(cwd)
            if backend is not None and backend.lower() != "agg":
                sys.modules["matplotlib.pyplot"].switch_backend(backend)
    applied = {}
    for course, student in (mapping or {}).items():
        if student in functions:
            functions[course] = functions[student]
            applied[course] = student
        else:
            notes.append(map_mistake(course, student, functions))
    return Submission(path=path, functions=functions, notes=notes, mapping=applied)


def map_mistake(course: str, student: str, functions) -> str:
    """Why ``--map course=student`` does not apply, and the fix: the form is COURSE=YOURS, and
    a map written the other way round is recognised."""
    from mlpr.grading.catalogue import tasks

    names = {t.function_name for t in tasks(everything=True).values()}
    if student in names and course in functions:
        return (f"--map {course}={student} is the wrong way round: the form is "
                f"COURSE=YOURS, course name first: --map {student}={course}")
    if course not in names:
        return (f"--map {course}={student}: {course} is not a course function (the form is "
                f"COURSE=YOURS; python -m mlpr.grading --list names them)")
    return f"--map {course}={student}: the submission has no function {student}"


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
        self.mapping = dict(getattr(submission, "mapping", {}))
        self._calls = {"check": set(), "table": set(), "section": set()}
        self._failures = {"check": [], "table": [], "section": []}
        self.replaced: dict = {}
        #: the mlpr functions used as they are: ``{mlpr name: [course names the file lacks]}``
        self.fallbacks: dict = {}
        #: each replaced function's agreement with mlpr on the lecture's own inputs (`Audit`)
        self.audits: dict = {}
        self._auditing = False
        self._current: set = set()  # the course functions the current replacement called

    def display(self, name: str) -> str:
        """A course function as the student named it: ``my_mvg (Gau_MVG_ML_estimates)`` when
        ``--map`` renamed it."""
        return f"{self.mapping[name]} ({name})" if name in self.mapping else name

    def has(self, name: str) -> bool:
        return name in self.functions

    def call(self, name: str, *args, **kwargs):
        """Call the submission's ``name`` on copies of the arguments, its answer passed through the
        kit's wire codec as a graded answer is (`mlpr.grading.child.wire`: plain data, numpy
        scalars as Python numbers); `StudentFailure` if it raises or returns what is not plain
        data."""
        f = self.functions[name]
        if not self._auditing:  # the audit's own calls belong to no check
            for kind in self._calls:
                self._calls[kind].add(name)
            self._current.add(name)
        try:
            out = f(*copy.deepcopy(args), **copy.deepcopy(kwargs))
        except Exception as exc:
            raise StudentFailure(name, f"raised {type(exc).__name__}: {exc}") from None
        try:
            return wire.round_trip(out)
        except Exception as exc:  # what the harness refuses to send when the code is graded
            raise StudentFailure(name, f"returned what cannot be graded: {exc}") from None

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
            self.fallbacks[f.__name__] = [n for alt in needs for n in alt]
            return f
        adapted = build(self, f)

        @functools.wraps(f)
        def replacement(*args, **kwargs):
            self._current = set()
            try:
                out = adapted(*args, **kwargs)
            except StudentFailure as exc:  # it raised, or returned what cannot be used: wrong
                self._fail(str(exc))
                audit = self.audits.setdefault(f.__name__, Audit(f.__name__, [], *_AUDIT_RULES.get(
                    f.__name__, ("values", RTOL_AUDIT))))
                if not audit.failed:
                    audit.failed, audit.err, audit.detail = True, math.inf, exc.reason
                    audit.names = [exc.function]
                    audit.calls += 1
            except _Unsupported as exc:
                self._fail(f"cannot serve {f.__name__}(...): {exc}")
            else:
                self._audit(f, out, args, kwargs)
                return out
            return f(*args, **kwargs)

        self.replaced[f.__name__] = [n for alt in needs for n in alt if self.has(n)]
        return replacement

    def _audit(self, f: Callable, out, args: tuple, kwargs: dict,
               names: list | None = None) -> None:
        """Compare the student's answer with mlpr's ``f`` on the same inputs (the first
        `AUDIT_CALLS` calls of each function): the verdict that tells a right function from a
        wrong one on the lecture's own data, whatever its references. ``names``: the student's
        functions that computed ``out`` (default: those the current replacement called). A call
        whose inputs mlpr refuses (they came from another of the student's functions) is not
        compared."""
        name = f.__name__
        rule = _AUDIT_RULES.get(name, ("values", RTOL_AUDIT))
        audit = self.audits.setdefault(name, Audit(name, [], rule[0], rule[1]))
        fed = set(names) if names is not None else self._current
        audit.names = sorted(set(audit.names) | fed)  # the functions that fed it
        if rule[0] == "none" or audit.calls >= AUDIT_CALLS or audit.failed:
            return
        self._auditing = True
        try:
            try:
                ref = f(*copy.deepcopy(args), **copy.deepcopy(kwargs))
            except Exception:  # mlpr refuses these inputs: this call tells nothing
                return
            audit.calls += 1
            err = _disagreement(out, ref, args, rule[0])
        except StudentFailure as exc:
            err, audit.detail = math.inf, str(exc)
        except Exception as exc:  # the student's answer cannot be compared
            err = math.inf
            audit.detail = f"cannot be compared with mlpr's ({type(exc).__name__}: {exc})"
        finally:
            self._auditing = False
        audit.err = max(audit.err, err)
        if not err <= audit.tol:
            audit.failed = True
            audit.names = sorted(fed) or audit.names  # the call that differed

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


#: Calls of each replaced function compared with mlpr's (`StudentCode._audit`): two catch a
#: wrong formula and keep the cost of a full-mode lecture within a few percent.
AUDIT_CALLS = 2
#: Tolerance of closed forms: two correct float64 implementations of the course's formulas agree
#: to 1e-13 on the lectures' data; every formula mistake is far above.
RTOL_AUDIT = 1e-8
#: How each replaced function is compared with mlpr's, and at what tolerance: "values" (arrays,
#: numbers, decisions and models by their scores on the call's data, relative to their scale),
#: "objective" (an optimiser's point by the objective there, relative excess over mlpr's: the
#: labs' L-BFGS-B stops 3e-7 (LR) and 3e-6 (the SVM dual) above it at most on the kit's cases,
#: the kit's tolerances are 1e-5 and 3e-5), "subspace" (projections up to their basis), "none".
_AUDIT_RULES = {
    "train_logreg_binary": ("objective", 1e-5),
    "train_svm_linear": ("objective", 3e-5),
    # the scoring function is all the course's kernel SVM returns: its scores on the training
    # data, which the optimum fixes; the labs' dual stops within 1e-3 of them relative to scale
    "train_svm_kernel": ("values", 1e-2),
    "fit_pca": ("subspace", 1e-6),
    "fit_lda": ("subspace", 1e-6),
    "train_lda_binary": ("subspace", 1e-6),
    # EM to convergence: the stopping rule (1e-6 on the average log-likelihood) leaves 1e-8
    "train_gmm_em": ("values", 1e-6),
    "train_gmm_lbg": ("values", 1e-6),
    "lbg_gmm_classifiers": ("values", 1e-6),
    # its random start makes any fixed point of Lloyd's iteration right: every sample at its
    # nearest centroid (eq. 197), every centroid the mean of its cluster (relative to the scale)
    "kmeans": ("lloyd", RTOL_AUDIT),
}


@dataclasses.dataclass
class Audit:
    """One replaced function's agreement with mlpr: the worst measured disagreement ``err``
    over the compared calls against ``tol``, by the ``rule`` of `_AUDIT_RULES`."""

    function: str
    names: list
    rule: str
    tol: float
    calls: int = 0
    err: float = 0.0
    failed: bool = False
    detail: str = ""

    @property
    def who(self) -> str:
        """The student's functions behind it: ``your trainLogRegBinary``."""
        return "your " + ", ".join(self.names)


def _disagreement(out, ref, args: tuple, rule: str) -> float:
    """How far the student's answer ``out`` is from mlpr's ``ref`` under ``rule``: 0 when they
    agree exactly, in units relative to the answer's scale."""
    if rule == "objective":
        a = getattr(out, "objective", getattr(out, "primal_objective", None))
        b = getattr(ref, "objective", getattr(ref, "primal_objective", None))
        return max(0.0, (float(a) - float(b)) / max(abs(float(b)), 1e-12))
    if rule == "subspace":
        A = np.asarray(getattr(out, "P", getattr(out, "w", None)), dtype=np.float64)
        B = np.asarray(getattr(ref, "P", getattr(ref, "W", getattr(ref, "w", None))),
                       dtype=np.float64)
        A, B = A.reshape(A.shape[0], -1), B.reshape(B.shape[0], -1)
        Q = np.linalg.qr(B)[0]
        residual = A - Q @ (Q.T @ A)
        return float(np.max(np.linalg.norm(residual, axis=0) / np.linalg.norm(A, axis=0)))
    data = next((a for a in args if isinstance(a, np.ndarray) and a.ndim == 2), None)
    if rule == "lloyd":
        return _lloyd_residual(np.asarray(data, dtype=np.float64), out[0], out[1])
    return _values_apart(out, ref, data)


def _lloyd_residual(X: np.ndarray, cent: np.ndarray, lab: np.ndarray) -> float:
    """How far K-means' answer is from a fixed point of Lloyd's iteration: inf when a sample is
    not at its nearest centroid, else the largest distance of a centroid from the mean of its
    cluster, relative to the data's scale."""
    d2 = ((X[:, :, None] - cent[:, None, :]) ** 2).sum(axis=0)
    rows = np.arange(X.shape[1])
    if np.any(d2[rows, lab] > d2.min(axis=1) * (1 + 1e-12) + 1e-12):
        return math.inf
    means = np.stack([X[:, lab == k].mean(axis=1) if np.any(lab == k) else cent[:, k]
                      for k in range(cent.shape[1])], axis=1)
    return float(np.abs(means - cent).max() / max(np.abs(X).max(), 1e-300))


def _values_apart(out, ref, data) -> float:
    if isinstance(ref, dict):
        return max((_values_apart(out[k], ref[k], data) for k in ref), default=0.0)
    if isinstance(ref, (tuple, list)) and not np.isscalar(ref):
        if len(out) != len(ref):
            return math.inf
        return max((_values_apart(o, r, data) for o, r in zip(out, ref)), default=0.0)
    if hasattr(ref, "scores") and data is not None:
        cols = data[:, :: max(1, data.shape[1] // 2000)]
        out, ref = out.scores(cols), ref.scores(cols)
    elif hasattr(ref, "to_list"):  # a GMM without data: its parameters
        out, ref = _gmm_rows(out), _gmm_rows(ref)
    exact = np.asarray(ref).dtype.kind in "iub"
    s, r = np.asarray(out, dtype=np.float64), np.asarray(ref, dtype=np.float64)
    if s.shape != r.shape:
        return math.inf
    if exact:
        return float(np.sum(s != r))  # decisions and counts: exactly
    finite = np.isfinite(r)
    if not np.array_equal(finite, np.isfinite(s)) or not np.array_equal(s[~finite], r[~finite]):
        return math.inf
    if not finite.any():
        return 0.0
    scale = np.abs(r[finite]).max()
    return float(np.max(np.abs(s[finite] - r[finite])) / max(scale, 1e-300))


def _gmm_rows(g) -> np.ndarray:
    """A GMM's components as rows (w, mu, C), sorted: the order of the components is free."""
    rows = [np.concatenate([[w], np.ravel(mu), np.ravel(C)]) for w, mu, C in g.to_list()]
    return np.array(sorted(rows, key=lambda r: tuple(np.round(r, 6))))


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


def projection(P, X) -> np.ndarray:
    """The data projected on the columns of P, P^T X (section 3.2, the projection of eq. 1):
    what apply_pca and apply_lda compute."""
    return np.asarray(P, dtype=np.float64).T @ np.asarray(X, dtype=np.float64)


@dataclasses.dataclass(frozen=True)
class _Projection:
    """A projection learned by the submission: ``P`` (D, m) and its ``transform``; for PCA also
    the variances along its directions, ``diag(P^T C P)`` (the eigenvalues when P holds
    eigenvectors), and their share of the total variance, and the training mean ``mu`` (D, 1)."""

    P: np.ndarray
    apply: Callable | None = None
    eigenvalues: np.ndarray | None = None
    total_variance: float | None = None
    mu: np.ndarray | None = None

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
                Y = np.asarray(code.call("apply_pca", P, X), dtype=np.float64)
                code._audit(projection, Y, (P, X), {}, ["apply_pca"])
                return Y
        Xc = X - X.mean(axis=1, keepdims=True)
        Y = P.T @ Xc
        return _Projection(P, apply, np.sum(Y * Y, axis=1) / X.shape[1],
                           float(np.sum(Xc * Xc) / X.shape[1]), X.mean(axis=1, keepdims=True))
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
                Y = np.asarray(code.call("apply_lda", W, X), dtype=np.float64)
                code._audit(projection, Y, (W, X), {}, ["apply_lda"])
                return Y
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
def _sw_sb_adapter(code, f):
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
def _optimal_bayes_decisions_adapter(code, f):
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
def _empirical_bayes_risk_adapter(code, f):
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


def _svm_needs(name: str, free_bias: bool, prior, C: float) -> str:
    """What a check needed that the labs' SVM does not give, in a few words."""
    needs = (["free bias (the notes' SVM; the labs' has K or eps)"] if free_bias else []) + (
        ["class re-balancing (a prior)"] if prior is not None else []) + (
        ["hard margin (C = inf)"] if not np.isfinite(C) else [])
    return f"{name} has no " + " and no ".join(needs)


@_adapter("train_svm_linear", ("train_dual_SVM_linear",))
def _svm_linear(code, f):
    def train_svm_linear(D, L, C, K=1.0, prior=None, **solver_settings):
        if K is None or prior is not None or not np.isfinite(C):
            raise _Unsupported(_svm_needs("train_dual_SVM_linear", K is None, prior, C))
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
            raise _Unsupported(_svm_needs("train_dual_SVM_kernel", eps is None, prior, C))

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
        kwargs.pop("method", None)  # mlpr's reference / fast switch: the student's step is one
        kwargs.pop("solver", None)
        if kwargs:
            raise _Unsupported(f"no counterpart of {', '.join(kwargs)}")
        out = code.call("train_GMM_EM_Iteration", np.asarray(D, float),
                        gmm_from_list(gmm).to_list(), covType=_COV[cov_type], psiEig=psi)
        return _student_gmm(out, "train_GMM_EM_Iteration")
    return em_step


def _mean_ll(code, X, g) -> float:
    """The average log-likelihood of the GMM ``g``, with the submission's ``logpdf_GMM`` when it
    has one."""
    from mlpr.gmm import logpdf_GMM as mlpr_logpdf

    if code.has("logpdf_GMM"):
        return float(_vector(code.call("logpdf_GMM", X, g.to_list()), X.shape[1], "logpdf_GMM",
                             "log-densities").mean())
    return float(mlpr_logpdf(X, g).mean())


@_adapter("train_gmm_em", ("train_GMM_EM_Iteration",), ("train_GMM_EM",))
def _train_gmm_em(code, f):
    def train_gmm_em(D, gmm, cov_type="full", psi=None, tol=1e-6, max_iter=10_000, **kwargs):
        kwargs.pop("method", None)
        kwargs.pop("solver", None)
        if kwargs:
            raise _Unsupported(f"no counterpart of {', '.join(kwargs)}")
        X = np.asarray(D, dtype=np.float64)
        g = gmm_from_list(gmm)
        if code.has("train_GMM_EM_Iteration"):
            # the course's loop (its stopping rule: a gain of the average log-likelihood below
            # epsLLAverage) over the submission's own EM step: the history is the student's
            history = [_mean_ll(code, X, g)]
            from mlpr.gmm import em_step as mlpr_em_step

            for _ in range(max_iter):
                out = code.call("train_GMM_EM_Iteration", X, g.to_list(),
                                covType=_COV[cov_type], psiEig=psi)
                step = _student_gmm(out, "train_GMM_EM_Iteration")
                code._audit(mlpr_em_step, step, (X, g, cov_type, psi), {},
                            ["train_GMM_EM_Iteration"])
                g = step
                history.append(_mean_ll(code, X, g))
                if history[-1] - history[-2] < tol:
                    break
            return g, history
        out = code.call("train_GMM_EM", X, g.to_list(), covType=_COV[cov_type], psiEig=psi,
                        epsLLAverage=tol, **_quiet(code, "train_GMM_EM"))
        final = _student_gmm(out, "train_GMM_EM")
        # the course's train_GMM_EM returns the final model only: the iterations in between are
        # not known, and what is computed from them is skipped with this reason
        code._fail("the history of the log-likelihood: your train_GMM_EM returns the final model "
                   "only (a train_GMM_EM_Iteration gives it)")
        return final, [_mean_ll(code, X, g), _mean_ll(code, X, final)]
    return train_gmm_em


@_adapter("split_gmm", ("split_GMM_LBG",))
def _split_gmm(code, f):
    def split_gmm(gmm, alpha=0.1):
        out = code.call("split_GMM_LBG", gmm_from_list(gmm).to_list(), alpha,
                        **_quiet(code, "split_GMM_LBG"))
        return _student_gmm(out, "split_GMM_LBG")
    return split_gmm


def _lbg_start(code, X, cov_type: str, psi):
    """The course's LBG start, one component: the ML Gaussian (its diagonal for "diagonal"),
    floored at psi, with the submission's compute_mu_C and smooth_covariance_matrix where it
    has them."""
    from mlpr.gaussian import compute_mu_C
    from mlpr.generative import floor_covariance

    if code.has("compute_mu_C"):
        out = code.call("compute_mu_C", X)
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise StudentFailure("compute_mu_C", "did not return (mu, C)")
        mu = _vector(out[0], X.shape[0], "compute_mu_C", "mu").reshape(-1, 1)
        C = np.asarray(out[1], dtype=np.float64).reshape(X.shape[0], X.shape[0])
        code._audit(compute_mu_C, (mu, C), (X,), {}, ["compute_mu_C"])
    else:
        mu, C = compute_mu_C(X)
    if cov_type == "diagonal":
        C = np.diag(np.diag(C))
    if psi is not None and code.has("smooth_covariance_matrix"):
        floored = np.asarray(code.call("smooth_covariance_matrix", C, psi), dtype=np.float64)
        code._audit(floor_covariance, floored, (C, psi), {}, ["smooth_covariance_matrix"])
        C = floored
    elif psi is not None:
        C = floor_covariance(C, psi)
    return gmm_from_list([(1.0, mu, C)])


@_adapter("train_gmm_lbg", ("split_GMM_LBG", "train_GMM_EM_Iteration"), ("train_GMM_LBG_EM",))
def _train_gmm_lbg(code, f):
    em = _train_gmm_em(code, f)

    def train_gmm_lbg(D, n_components, cov_type="full", psi=None, alpha=0.1, tol=1e-6,
                      max_iter=10_000, return_history=False, **kwargs):
        if set(kwargs) - {"method", "solver"}:
            raise _Unsupported(f"no counterpart of {', '.join(kwargs)}")
        X = np.asarray(D, dtype=np.float64)
        from mlpr.gmm import split_gmm as mlpr_split_gmm

        if code.has("split_GMM_LBG") and code.has("train_GMM_EM_Iteration"):
            # the course's LBG loop over the submission's own split and EM step: every model
            # and every history is the student's
            models = [_lbg_start(code, X, cov_type, psi)]
            histories = [[_mean_ll(code, X, models[0])]]
            while models[-1].n_components < n_components:
                out = code.call("split_GMM_LBG", models[-1].to_list(), alpha,
                                **_quiet(code, "split_GMM_LBG"))
                split = _student_gmm(out, "split_GMM_LBG")
                code._audit(mlpr_split_gmm, split, (models[-1], alpha), {}, ["split_GMM_LBG"])
                g, history = em(X, split.to_list(), cov_type, psi, tol, max_iter=max_iter)
                models.append(g)
                histories.append(history)
            return (models, histories) if return_history else models
        if return_history:
            raise _Unsupported("train_GMM_LBG_EM returns the final model only (no history); "
                               "split_GMM_LBG and train_GMM_EM_Iteration give it")
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
