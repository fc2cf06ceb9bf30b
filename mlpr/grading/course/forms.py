r"""The course's data forms and their conversion to and from mlpr's.

The labs return ``hParams`` dicts ``{label: (mu, C)}``, GMMs as lists ``[(w, mu, C), ...]``,
linear models as ``(w, b)``, pairs ``(D, L)`` and ``(mu, C)``, and name covariance types
``"Full"``, ``"Diagonal"``, ``"Tied"``. Each reader here takes a student's value in the course's
form and returns one float array to compare, or raises `Fail` naming what the value was; each
writer gives mlpr's answer in the same compared form. The adapters at the end turn a value in
the course's form into an mlpr model (for a TA's own tests, and for student mode).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable

import numpy as np

from mlpr.generative import GaussianClassifier
from mlpr.gmm import GMM
from mlpr.grading.framework import Fail, as_array
from mlpr.logreg import BinaryLogReg

__all__ = ["COV_TYPES", "course_cov", "pair", "hparams", "model_rows", "gmm_array", "gmm_rows",
           "gmm_from_array", "w_and_b", "wb", "mu_C", "data_labels", "classifier_from_hparams",
           "gmm_from_list", "logreg_from_wb", "model_from_scoring_function"]

#: mlpr's covariance types -> the course's names (``covType``)
COV_TYPES = {"full": "Full", "diagonal": "Diagonal", "tied": "Tied"}


def course_cov(cov_type: str) -> str:
    """The course's ``covType`` of mlpr's ``cov_type``."""
    return COV_TYPES[cov_type]


def pair(out, n: int, what: str):
    """A tuple or list of ``n`` values, or `Fail`."""
    if not isinstance(out, (tuple, list)) or len(out) != n:
        length = f" of length {len(out)}" if hasattr(out, "__len__") else ""
        raise Fail(f"{what}: expected a tuple of {n} values, got {type(out).__name__}{length}")
    return out


def hparams(out, K: int, D: int) -> np.ndarray:
    """The course's hParams ``{label: (mu, C)}`` as one (K, D + D*D) array."""
    if not isinstance(out, dict):
        raise Fail(f"expected hParams, a dict {{label: (mu, C)}}, got {type(out).__name__}")
    if not all(isinstance(k, (int, np.integer)) and not isinstance(k, bool) for k in out):
        shown = ", ".join(repr(k)[:30] for k in list(out)[:5])
        raise Fail(f"hParams has the keys {shown}: expected the labels {list(range(K))} (ints)",
                   hint="the course's hParams maps each class label, an int 0..K-1, to its "
                   "(mu, C): hParams[lab] = (mu, C), not keyed by class name")
    keys = sorted(int(k) for k in out)
    if keys != list(range(K)):
        raise Fail(f"hParams has the labels {keys}, expected {list(range(K))}")
    rows = []
    for k in range(K):
        mu, C = pair(out[k], 2, f"hParams[{k}]")
        mu = as_array(mu, f"the mean of class {k}")
        C = as_array(C, f"the covariance of class {k}")
        if mu.size != D or C.shape != (D, D):
            raise Fail(f"class {k}: mean of shape {mu.shape} and covariance of shape {C.shape}, "
                       f"expected ({D}, 1) and ({D}, {D})",
                       hint="computed along the wrong axis? the course's data are D x N")
        rows.append(np.concatenate([mu.reshape(-1), C.reshape(-1)]))
    return np.stack(rows)


def model_rows(model) -> np.ndarray:
    """An mlpr Gaussian classifier in the compared form of `hparams`."""
    K = model.n_classes
    return np.stack([np.concatenate([model.mu[:, k], model.covariance(k).reshape(-1)])
                     for k in range(K)])


def gmm_array(out) -> np.ndarray:
    """A course GMM ``[(w, mu, C), ...]`` as one (M, 1 + D + D*D) array, in its order."""
    if isinstance(out, GMM):
        out = out.to_list()
    if not isinstance(out, (list, tuple)) or not out:
        raise Fail(f"expected a GMM, a list of (w, mu, C) tuples, got {type(out).__name__}")
    rows = []
    for c, comp in enumerate(out):
        w, mu, C = pair(comp, 3, f"component {c}")
        rows.append(np.concatenate([np.ravel(as_array(w)), np.ravel(as_array(mu)),
                                    np.ravel(as_array(C))]))
    if len({r.size for r in rows}) != 1:
        raise Fail("the components of the GMM have different sizes")
    return np.stack(rows)


def gmm_rows(g: GMM) -> np.ndarray:
    """An mlpr GMM in the compared form of `gmm_array`."""
    return np.stack([np.concatenate([[g.w[c]], g.mu[:, c], g.C[c].ravel()])
                     for c in range(g.n_components)])


def gmm_from_array(a: np.ndarray, D: int) -> GMM:
    """The inverse of `gmm_rows`."""
    return GMM(w=a[:, 0], mu=a[:, 1:1 + D].T, C=a[:, 1 + D:].reshape(-1, D, D))


def w_and_b(model) -> np.ndarray:
    """An LR or linear SVM model's parameters as one vector ``[w, b]``."""
    return np.concatenate([model.w, [model.b]])


def wb(D: int, vector: bool = False):
    """A reader of the course's ``(w, b)`` as one vector ``[w, b]``; with ``vector``, the vector
    itself is accepted too (the logistic regression's L-BFGS-B optimises over v = [w, b], and a
    student may return it as it comes)."""
    def post(out):
        if vector and isinstance(out, np.ndarray) and out.ndim == 1 and out.size == D + 1:
            return as_array(out, "[w, b]")
        w, b = pair(out, 2, "(w, b)")
        w = as_array(w, "w").reshape(-1)
        b = as_array(b, "b").reshape(-1)
        if w.size != D or b.size != 1:
            raise Fail(f"w has {w.size} entries and b {b.size}, expected {D} and 1")
        return np.concatenate([w, b])
    return post


def mu_C(out, n: int):
    """The course's ``(mu, C)`` as one stacked ``[mu^T; C]`` array."""
    mu, C = pair(out, 2, "(mu, C)")
    mu, C = as_array(mu, "mu"), as_array(C, "C")
    if mu.size != n:
        raise Fail(f"mu has shape {mu.shape}, expected ({n}, 1)",
                   hint="computed along the wrong axis: the course's data are D x N, one column "
                   "per sample, so mu = vcol(D.mean(1))")
    if C.shape != (n, n):
        raise Fail(f"C has shape {C.shape}, expected ({n}, {n})")
    return np.vstack([mu.reshape(1, -1), C])


def data_labels(out):
    """The course's ``(D, L)`` of the iris loaders as one (5, N) array, D 4 x N above L."""
    D, L = pair(out, 2, "the loader's result (D, L)")
    D, L = as_array(D, "D"), as_array(L, "L")
    if D.ndim != 2:
        raise Fail(f"D has shape {D.shape}, expected (4, N)")
    if D.shape[0] != 4 and D.shape[1] == 4:
        raise Fail(f"D has shape {D.shape}, expected (4, {D.shape[0]})",
                   hint="the course's data are D x N, one column per sample: return D.T")
    return np.vstack([D, L.reshape(1, -1)])


def classifier_from_hparams(hParams, kind: str = "mvg"):
    """An mlpr `GaussianClassifier` from the course's ``hParams``: ``{label: (mu, C)}``.

    ``kind`` is "mvg" (full covariances), "naive" (diagonal ones: the diagonals are kept) or
    "tied" (one shared covariance: class 0's is used; a student's tied estimates give every class
    the same matrix). Labels must be 0..K-1.
    """
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
    return GMM.from_list(gmm)


def logreg_from_wb(w, b, prior_log_odds: float = 0.0, l: float = 0.0, prior=None):
    """An mlpr `BinaryLogReg` from the course's ``(w, b)``; ``prior_log_odds`` is what its
    ``llr`` subtracts (eq. 102): log(n_T / n_F) for eq. 100, log(pi_T / (1 - pi_T)) for 101."""
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
