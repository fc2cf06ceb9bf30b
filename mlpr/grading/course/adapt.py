r"""The pieces student mode's adapters are built of: how a submission's answer in the course's
form stands in for an mlpr model, and why it cannot.

An adapter (`mlpr.grading.course.records.Adapter`, in the lab modules) computes an mlpr function
with the submission's course functions through a `mlpr.grading.student.StudentCode`; what it
returns is an mlpr model or array, or one of the stand-ins here (a Gaussian classifier from
``hParams``, a projection from ``P``, an SVM from ``(w, b)`` or a scoring function). A
submission's function that raises or returns what cannot be used is a `StudentFailure`; a call
its function cannot serve (an argument it has no counterpart of) is `Unsupported`.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from mlpr.dimred import n_components_for_variance
from mlpr.gaussian import compute_mu_C
from mlpr.generative import floor_covariance
from mlpr.gmm import logpdf_GMM
from mlpr.grading.course.forms import classifier_from_hparams, gmm_from_list

__all__ = ["StudentFailure", "Unsupported", "first", "vector", "StudentGaussian",
           "gaussian_adapter", "projection", "Projection", "StudentLDABinary", "StudentLinearSVM",
           "svm_needs", "StudentKernelSVM", "student_gmm", "quiet", "mean_ll", "lbg_start"]


class StudentFailure(Exception):
    """A submission's function raised, or returned what its adapter cannot use."""

    def __init__(self, function: str, reason: str):
        super().__init__(f"your {function} {reason}")
        self.function = function
        self.reason = reason


class Unsupported(Exception):
    """A call that the course's function cannot serve (an argument it has no counterpart of)."""


def first(code, *names: str) -> str:
    for n in names:
        if code.has(n):
            return n
    raise Unsupported(f"the submission has none of {', '.join(names)}")


def vector(x, n: int | None, function: str, what: str) -> np.ndarray:
    try:
        a = np.asarray(x, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise StudentFailure(function, f"returned {type(x).__name__} as {what}, not an "
                                       f"array") from None
    if n is not None and a.size != n:
        raise StudentFailure(function, f"returned {a.size} values as {what}, expected {n}")
    return a


class StudentGaussian:
    """An mlpr Gaussian classifier built from the submission's hParams, scoring with its
    ``compute_log_likelihood_Gau`` when it has one."""

    def __init__(self, code, hParams, kind: str, estimator: str):
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


def gaussian_adapter(estimator: str, kind: str):
    def build(code, f):
        def train(D, L, *, unbiased: bool = False, psi=None):
            if unbiased or psi is not None:
                raise Unsupported(f"{estimator}(D, L) has no counterpart of "
                                  f"{'unbiased=True' if unbiased else f'psi={psi!r}'}")
            return StudentGaussian(code, code.call(estimator, np.asarray(D, float),
                                                   np.asarray(L)), kind, estimator)
        return train
    return build


def projection(P, X) -> np.ndarray:
    """The data projected on the columns of P, P^T X (section 3.2, the projection of eq. 1):
    what apply_pca and apply_lda compute."""
    return np.asarray(P, dtype=np.float64).T @ np.asarray(X, dtype=np.float64)


@dataclasses.dataclass(frozen=True)
class Projection:
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


@dataclasses.dataclass(frozen=True)
class StudentLDABinary:
    """The course's LDA classifier from the submission's direction: w'x > t decides class 1."""

    w: np.ndarray
    t: float

    def scores(self, D) -> np.ndarray:
        return self.w @ np.asarray(D, dtype=np.float64)

    def predict(self, D) -> np.ndarray:
        return (self.scores(D) > self.t).astype(int)


@dataclasses.dataclass(frozen=True)
class StudentLinearSVM:
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


def svm_needs(name: str, free_bias: bool, prior, C: float) -> str:
    """What a check needed that the labs' SVM does not give, in a few words."""
    needs = (["free bias (the notes' SVM; the labs' has K or eps)"] if free_bias else []) + (
        ["class re-balancing (a prior)"] if prior is not None else []) + (
        ["hard margin (C = inf)"] if not np.isfinite(C) else [])
    return f"{name} has no " + " and no ".join(needs)


@dataclasses.dataclass(frozen=True)
class StudentKernelSVM:
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
        return vector(s, X.shape[1], "train_dual_SVM_kernel", "scores")


def student_gmm(out, name: str):
    try:
        return gmm_from_list(out)
    except (TypeError, ValueError) as exc:
        raise StudentFailure(name, f"returned something that is not a GMM [(w, mu, C), ...] "
                             f"({exc})") from None


def quiet(code, name: str) -> dict:
    return {"verbose": False} if code.accepts(name, "verbose") else {}


def mean_ll(code, X, g) -> float:
    """The average log-likelihood of the GMM ``g``, with the submission's ``logpdf_GMM`` when it
    has one."""
    if code.has("logpdf_GMM"):
        return float(vector(code.call("logpdf_GMM", X, g.to_list()), X.shape[1], "logpdf_GMM",
                            "log-densities").mean())
    return float(logpdf_GMM(X, g).mean())


def lbg_start(code, X, cov_type: str, psi):
    """The course's LBG start, one component: the ML Gaussian (its diagonal for "diagonal"),
    floored at psi, with the submission's compute_mu_C and smooth_covariance_matrix where it
    has them."""
    if code.has("compute_mu_C"):
        out = code.call("compute_mu_C", X)
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise StudentFailure("compute_mu_C", "did not return (mu, C)")
        mu = vector(out[0], X.shape[0], "compute_mu_C", "mu").reshape(-1, 1)
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
