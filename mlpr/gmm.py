r"""Gaussian mixture models: log-density, K-means, hard EM, EM, LBG, GMM classifiers (notes ch. 9).

A GMM with M components has the density (eq. 185)

.. math:: f(x) = \sum_{c=1}^M w_c \, \mathcal{N}(x \mid \mu_c, C_c), \qquad w_c \ge 0, \;
          \sum_c w_c = 1 ,

stored as a `GMM` with ``w`` (M,), ``mu`` (D, M) and ``C`` (M, D, D); the course's own form, a list
of ``(w, mu, C)`` tuples, converts both ways (`GMM.from_list`, `GMM.to_list`) and is accepted
wherever a GMM is.

The functions, in the order of the chapter:

* `log_joint_GMM` (eq. 190): the (M, N) joint log-densities ``log w_c + log N(x | mu_c, C_c)``;
  `logpdf_GMM` (eq. 185, 188): their logsumexp over the components, the (N,) log-density;
  `responsibilities` (eq. 191) and `hard_assignments` (eq. 192); `sample_GMM`.
* Section 9.2, eq. 193-197: `kmeans`, `train_gmm_hard_em` (hard-assignment EM, K-means its
  special case) and `gmm_from_clusters` (the ML GMM of a clustering: EM's K-means start, 9.4).
* Section 9.3, eq. 198 (the log-likelihood EM increases) and 199-201 (the M-step: mu_c, C_c,
  w_c): `gmm_statistics` (N_c, F_c, S_c), `em_step`, `train_gmm_em`.
* Section 9.4: `split_gmm` and `train_gmm_lbg` (LBG: 1, 2, 4, ... components).
* Section 9.5, eq. 202-203: `train_gmm_classifier` / `lbg_gmm_classifiers` (one GMM per class,
  `GMMClassifier.scores` and ``llr``) and `train_open_set_classifier` (K known classes and a
  "none of the others" GMM).

The pieces come from the chapters before: the component log-densities ``log N(x | mu_c, C_c)`` are
the class-conditional densities of a Gaussian classifier whose "classes" are the components
(`mlpr.generative.GaussianClassifier.scores`, one Gaussian log-density for the whole library), the
eigenvalue floor is `mlpr.generative.floor_covariance`, the one-component start the ML Gaussian
`mlpr.gaussian.compute_mu_C`.

Covariance types (``cov_type``): ``"full"``; ``"diagonal"``, the diagonal of the full estimate
(each component is a naive-Bayes Gaussian, but the mixture is not: 9.4); ``"tied"``, one covariance
shared by the components of one GMM, ``sum_c N_c C_c / N``. Inside EM each type is kept as the
notes store it (the (M, D) variances of a diagonal model, the one (D, D) matrix of a tied one);
the returned `GMM` holds full (D, D) matrices, so that the course's list form and `logpdf_GMM` need
no type: a GMM whose covariances are all diagonal, or all equal, is evaluated as such.

Degeneracy. Without a constraint the GMM likelihood is unbounded: a component can collapse onto a
sample, its covariance going to zero and the likelihood to infinity (9.2, 9.4). The eigenvalue
floor ``psi`` (eigenvalues clipped at ``psi``) prevents it; a collapse without it raises
`DegenerateComponentError`, naming the component and carrying the average log-likelihoods up to
the collapse, never a NaN or an infinite log-likelihood.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable, Sequence
from numbers import Integral
from typing import NamedTuple

import numpy as np
from scipy.special import logsumexp

from . import _gmm_fast
from ._validation import (
    check_bool,
    check_choice,
    check_data,
    check_data_labels,
    check_int,
    check_multiclass,
    check_positive,
    check_psi,
    check_rng,
    check_solver,
)
from .gaussian import cholesky_factor, compute_mu_C
from .generative import GaussianClassifier, floor_covariance
from .utils import ConvergenceWarning, model

__all__ = [
    "GMM",
    "DegenerateComponentError",
    "log_joint_GMM",
    "logpdf_GMM",
    "responsibilities",
    "hard_assignments",
    "sample_GMM",
    "kmeans",
    "gmm_from_clusters",
    "train_gmm_hard_em",
    "gmm_statistics",
    "em_step",
    "train_gmm_em",
    "split_gmm",
    "train_gmm_lbg",
    "GMMClassifier",
    "train_gmm_classifier",
    "lbg_gmm_classifiers",
    "OpenSetClassifier",
    "train_open_set_classifier",
]

_WEIGHT_TOL = 1e-6  # tolerance on sum(w) == 1 (saved models may be rounded)
_SINGULAR_TOL = 10 * np.finfo(float).eps  # per feature, the rule of gaussian.cholesky_factor
_COV_TYPES = ("full", "diagonal", "tied")
_KIND = {"full": "mvg", "diagonal": "naive", "tied": "tied"}  # GaussianClassifier's names


class DegenerateComponentError(ValueError):
    """A GMM component collapsed (singular covariance) or lost every sample during training.

    The density of eq. (185) is unbounded: a component whose covariance shrinks onto a few
    samples sends the likelihood to infinity (sections 9.2, 9.4); the remedy is the floor psi.

    Attributes
    ----------
    component : int
        Index of the component.
    history : list of float
        Average log-likelihood of every model before the collapse (empty outside training).
    gmm : GMM or None
        The last valid model.
    """

    def __init__(self, message: str, component: int, history=(), gmm=None):
        super().__init__(message)
        self.component = component
        self.history = list(history)
        self.gmm = gmm


class _Singular(Exception):
    """Internal: component ``c`` has a covariance that is not numerically positive definite."""

    def __init__(self, c: int, detail: str, empty: bool = False):
        super().__init__(c, detail)
        self.c, self.detail, self.empty = c, detail, empty


# ------------------------------------------------------------------------------------------------
# the model


@model
class GMM:
    r"""A Gaussian mixture model (eq. 185): weights, means and covariances of M components.

    Attributes
    ----------
    w : ndarray, shape (M,)
        Component weights, non-negative, summing to one (within 1e-6).
    mu : ndarray, shape (D, M)
        Means, one column per component (``mu[:, [c]]`` is the (D, 1) mean of component c).
    C : ndarray, shape (M, D, D)
        Covariances, symmetric positive definite. Diagonal and tied models hold their diagonal or
        shared matrices in full.

    solver : str or None
        The E- and M-step that trained it (``"auto"``: the fast path, ``"reference"``: the
        notes' formulas; see `em_step`); None for a model built from given parameters.

    Construction validates every field: a negative weight, weights not summing to one, shapes that
    disagree or a covariance that is not symmetric positive definite raise ``ValueError``.
    Models compare (``==``) and hash by value.
    """

    w: np.ndarray
    mu: np.ndarray
    C: np.ndarray
    solver: str | None = None

    def __post_init__(self):
        w, mu, C = _check_shapes(self.w, self.mu, self.C)
        _check_values(w, C)
        for name, value in (("w", w), ("mu", mu), ("C", C)):
            value.flags.writeable = False
            object.__setattr__(self, name, value)

    @property
    def n_components(self) -> int:
        """M, the number of components."""
        return self.w.size

    @property
    def n_features(self) -> int:
        """D, the dimension of the samples."""
        return self.mu.shape[0]

    @classmethod
    def from_list(cls, components) -> GMM:
        """Build a GMM from the course's list form ``[(w, mu, C), ...]``.

        Each ``mu`` may be (D,), (D, 1) or (1, D); each ``C`` (D, D) (a scalar when D = 1).
        """
        if isinstance(components, GMM):
            return components
        w, mu, C = _unpack_list(components)
        return cls(w=np.concatenate(w), mu=np.column_stack(mu), C=np.stack(C))

    def to_list(self) -> list:
        """The course's list form ``[(w, mu, C), ...]``: float weights, (D, 1) means, (D, D)
        covariances (writeable copies)."""
        return [(float(self.w[c]), self.mu[:, [c]].copy(), self.C[c].copy())
                for c in range(self.n_components)]


def _unpack_list(components) -> tuple[list, list, list]:
    """Validate the course's list form; return the lists of (1,) weights, (D,) means, (D, D)
    covariances."""
    if isinstance(components, (np.ndarray, str)) or not isinstance(components, Sequence):
        raise TypeError(
            f"gmm must be a GMM or a list of (w, mu, C) tuples, got {type(components).__name__}"
        )
    if len(components) == 0:
        raise ValueError("gmm is an empty list: a GMM needs at least one (w, mu, C) component")
    w, mu, C = [], [], []
    for c, comp in enumerate(components):
        if not isinstance(comp, (tuple, list)) or len(comp) != 3:
            raise ValueError(f"gmm[{c}] must be a (w, mu, C) tuple, got {comp!r:.60}")
        try:
            wc, mc, Cc = (np.asarray(a, dtype=float) for a in comp)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"gmm[{c}] must hold a numeric (w, mu, C): {exc}") from None
        if wc.size != 1:
            raise ValueError(f"gmm[{c}] weight must be a scalar, got shape {wc.shape}")
        D = mc.size if c == 0 else mu[0].size
        if mc.size != D or not (mc.ndim <= 1 or (mc.ndim == 2 and 1 in mc.shape)):
            raise ValueError(f"gmm[{c}] mean has shape {mc.shape}, expected ({D},) or ({D}, 1)")
        Cc = Cc.reshape(1, 1) if Cc.size == 1 and D == 1 else Cc
        if Cc.shape != (D, D):
            raise ValueError(f"gmm[{c}] covariance has shape {Cc.shape}, expected ({D}, {D})")
        w.append(wc.reshape(1)), mu.append(mc.reshape(D)), C.append(Cc)
    return w, mu, C


def _check_shapes(w, mu, C) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """w (M,), mu (D, M), C (M, D, D) as float64 copies; a single Gaussian's (D,) mean and (D, D)
    covariance are accepted for M = 1."""
    if np.ndim(w) > 1:
        raise ValueError(f"w must be a 1-D array of M weights, got shape {np.shape(w)}")
    w = check_data(np.atleast_1d(w)[None, :], "w")[0].copy()
    M = w.size
    if np.ndim(mu) == 1 and M == 1:  # the mean of a single Gaussian
        mu = np.reshape(mu, (-1, 1))
    mu = check_data(mu, "mu").copy()
    D = mu.shape[0]
    if mu.shape[1] != M:
        hint = "; mlpr expects mu as (D, M), one column per component" if D == M else ""
        raise ValueError(
            f"mu has shape {mu.shape} but w has {M} weights: expected ({D}, {M}){hint}"
        )
    C = np.array(C, dtype=float)
    if C.ndim == 2 and M == 1:
        C = C[None]
    if C.shape != (M, D, D):
        raise ValueError(f"C has shape {C.shape}, expected (M, D, D) = ({M}, {D}, {D})")
    return w, mu, C


def _check_values(w: np.ndarray, C: np.ndarray) -> None:
    """Weights on the simplex, every covariance symmetric positive definite (eq. 185)."""
    if np.any(w < 0):
        raise ValueError(
            f"w must hold non-negative weights, got w[{int(np.argmin(w))}] = {w.min():g}"
        )
    if abs(w.sum() - 1.0) > _WEIGHT_TOL:
        raise ValueError(f"w must sum to 1 (within {_WEIGHT_TOL:g}), got sum {w.sum():.12g}")
    for c in range(w.size):  # symmetric, finite, positive definite: the Gaussian's own checks
        cholesky_factor(C[c], f"C[{c}]")


def _as_gmm(gmm) -> GMM:
    return gmm if isinstance(gmm, GMM) else GMM.from_list(gmm)


def _check_cov_type(cov_type) -> str:
    lowered = cov_type.lower() if isinstance(cov_type, str) else cov_type
    return check_choice(lowered, "cov_type", _COV_TYPES)


def _check_power_of_two(n, name: str) -> int:
    n = check_int(n, name, low=1)
    if n & (n - 1):
        raise ValueError(f"{name} must be a power of two (LBG doubles the components), got {n}")
    return n


def _checked_input(D, gmm) -> tuple[np.ndarray, GMM]:
    gmm = _as_gmm(gmm)
    X = check_data(D, "D", n_features=gmm.n_features, allow_1d=True)
    return X, gmm


# ------------------------------------------------------------------------------------------------
# covariances as the notes store them: full (M, D, D), diagonal (M, D) variances, tied (D, D)


def _stored(C: np.ndarray) -> tuple[np.ndarray, str]:
    """The (M, D, D) covariances of a GMM in the form of their family: (M, D) variances when
    every matrix is diagonal, the one matrix when all M > 1 are equal, else themselves."""
    if not np.any(C * (1.0 - np.eye(C.shape[1]))):
        return np.diagonal(C, axis1=1, axis2=2).copy(), "diagonal"
    if C.shape[0] > 1 and np.all(C == C[0]):
        return C[0], "tied"
    return C, "full"


def _full(C: np.ndarray, cov_type: str, M: int) -> np.ndarray:
    """The (M, D, D) matrices of covariances stored as `_stored` gives them."""
    if cov_type == "diagonal":
        return C[:, :, None] * np.eye(C.shape[1])
    if cov_type == "tied":
        return np.broadcast_to(C, (M,) + C.shape).copy()
    return C


def _gmm(w, mu, C, cov_type, solver: str | None = None) -> GMM:
    return GMM(w=w, mu=mu, C=_full(C, cov_type, w.size), solver=solver)


def _variances(C: np.ndarray, cov_type: str) -> np.ndarray:
    """The (M, D) (or (1, D), tied) variances on the diagonals."""
    if cov_type == "diagonal":
        return C
    return np.diagonal(C, axis1=-2, axis2=-1).reshape(-1, C.shape[-1])


# ------------------------------------------------------------------------------------------------
# log-densities (eq. 185-192)


def _log_joint(X: np.ndarray, w: np.ndarray, mu: np.ndarray, C: np.ndarray,
               cov_type: str) -> np.ndarray:
    """(M, N) joint log-densities ``log w_c + log N(x | mu_c, C_c)`` (eq. 190).

    The component log-densities are those of a Gaussian classifier with one "class" per
    component (section 5.1): full, naive (diagonal) or tied, each with its own scorer."""
    components = GaussianClassifier(mu=mu, C=C, kind=_KIND[cov_type])
    try:
        S = components.scores(X)  # log N(x | mu_c, C_c)
    except ValueError:  # a covariance that does not factor: name its component
        _check_factors(C, cov_type)
        raise
    with np.errstate(divide="ignore"):  # a weight of 0 is a component that never fires
        return np.log(w)[:, None] + S  # eq. (190)


def _joint(X: np.ndarray, g: GMM) -> np.ndarray:
    """`_log_joint` of a GMM, each covariance family evaluated in its own form."""
    return _log_joint(X, g.w, g.mu, *_stored(g.C))


def _e_step(S: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The E-step as the notes write it: responsibilities (eq. 191) and log-densities (eq. 188)
    of the (M, N) joint log-densities ``S`` (eq. 190)."""
    logf = logsumexp(S, axis=0)  # eq. (188): log f(x_i) = log sum_c w_c N(x_i | mu_c, C_c)
    return np.exp(S - logf), logf  # eq. (191): gamma_c,i = w_c N(x_i | mu_c, C_c) / f(x_i)


def log_joint_GMM(D, gmm) -> np.ndarray:
    r"""Compute the joint log-densities of samples and components, shape (M, N).

    Parameters
    ----------
    D : array_like, shape (D, N)
        One sample per column (a 1-D array of length D is one sample).
    gmm : GMM or list of (w, mu, C)
        The mixture.

    Returns
    -------
    S : ndarray, shape (M, N)
        ``S[c, n] = log w_c + log N(x_n | mu_c, C_c)`` (``-inf`` for a zero weight).

    Notes
    -----
    Eq. (190), section 9.2 of the MLPR notes:

    .. math:: S_{c,n} = \log f_{X,G}(x_n, c) = \log w_c + \log \mathcal{N}(x_n \mid \mu_c, C_c)
    """
    return _joint(*_checked_input(D, gmm))


def logpdf_GMM(D, gmm) -> np.ndarray:
    r"""Compute the GMM log-density at each column of D, shape (N,).

    Parameters
    ----------
    D : array_like, shape (D, N)
        One sample per column.
    gmm : GMM or list of (w, mu, C)
        The mixture, e.g. the course's ``[(w, mu, C), ...]``.

    Returns
    -------
    ndarray, shape (N,)
        ``log f(x_n) = log sum_c w_c N(x_n | mu_c, C_c)``.

    Notes
    -----
    Eq. (185) and (188), sections 9.1-9.2: the marginal of the joint densities `log_joint_GMM`
    (eq. 190) over the components, through ``logsumexp`` so that no density underflows,

    .. math:: \log f(x) = \log \sum_{c=1}^M \exp S_{c}(x), \qquad
              S_c(x) = \log w_c + \log \mathcal{N}(x \mid \mu_c, C_c) .
    """
    return logsumexp(_joint(*_checked_input(D, gmm)), axis=0)  # eq. (188)


def responsibilities(D, gmm) -> np.ndarray:
    r"""Compute the responsibilities (component posteriors) of each sample, shape (M, N).

    Parameters
    ----------
    D : array_like, shape (D, N)
    gmm : GMM or list of (w, mu, C)

    Returns
    -------
    gamma : ndarray, shape (M, N)
        ``gamma[c, n] = P(G = c | x_n)``; every column sums to one.

    Notes
    -----
    Eq. (191), section 9.2:

    .. math:: \gamma_c(x) = \frac{w_c \mathcal{N}(x \mid \mu_c, C_c)}
              {\sum_{c'} w_{c'} \mathcal{N}(x \mid \mu_{c'}, C_{c'})}
              = \exp\left(S_c(x) - \log f(x)\right)
    """
    return _gmm_fast.posterior(_joint(*_checked_input(D, gmm)))[0]  # eq. (191)


def hard_assignments(D, gmm) -> np.ndarray:
    r"""Assign each sample to its most responsible component, shape (N,).

    Parameters
    ----------
    D : array_like, shape (D, N)
    gmm : GMM or list of (w, mu, C)

    Returns
    -------
    ndarray of int, shape (N,)
        ``argmax_c gamma_c(x_n)`` (ties go to the smallest index).

    Notes
    -----
    Eq. (192), section 9.2: :math:`c^*(x) = \arg\max_c \gamma_c(x) = \arg\max_c [\log w_c + \log
    \mathcal{N}(x \mid \mu_c, C_c)]`, the marginal being common to all components.
    """
    return np.argmax(_joint(*_checked_input(D, gmm)), axis=0)  # eq. (192)


def sample_GMM(gmm, n: int, rng: np.random.Generator, return_components: bool = False):
    r"""Draw n samples of a GMM, one per column.

    Parameters
    ----------
    gmm : GMM or list of (w, mu, C)
    n : int
        Number of samples, >= 0.
    rng : numpy.random.Generator
        E.g. ``numpy.random.default_rng(0)``.
    return_components : bool
        Also return the component that generated each sample.

    Returns
    -------
    X : ndarray, shape (D, n)
    G : ndarray of int, shape (n,)
        Only with ``return_components=True``.

    Notes
    -----
    Ancestral sampling of the latent-variable model of section 9.1 (eq. 185): :math:`G \sim
    \mathrm{Cat}(w)`, then :math:`x = \mu_G + L_G z` with :math:`z \sim \mathcal{N}(0, I)` and
    :math:`C_G = L_G L_G^T`.
    """
    g = _as_gmm(gmm)
    n = check_int(n, "n", low=0)
    rng = check_rng(rng)
    return_components = check_bool(return_components, "return_components")
    G = rng.choice(g.n_components, size=n, p=g.w / g.w.sum())
    Z = rng.standard_normal((g.n_features, n))
    X = np.empty((g.n_features, n))
    for c in range(g.n_components):
        idx = G == c
        X[:, idx] = g.mu[:, [c]] + cholesky_factor(g.C[c]) @ Z[:, idx]  # x = mu_c + L_c z
    return (X, G) if return_components else X


# ------------------------------------------------------------------------------------------------
# EM (section 9.3): the E-step is `_e_step` above; the M-step as the notes write it, then the
# checks. The same step arranged for speed (BLAS syrk, statistics reused across iterations) is in
# `mlpr._gmm_fast`; `_SOLVERS` is the one table that chooses.


def _statistics(X: np.ndarray, gamma: np.ndarray):
    """Zero, first and second order statistics N_c (M,), F_c (D, M), S_c (M, D, D) (section 9.3),
    as written, vectorised over the samples."""
    Nc = gamma.sum(axis=1)  # N_c = sum_i gamma_c,i
    F = X @ gamma.T  # F_c = sum_i gamma_c,i x_i
    S = np.stack([(X * g) @ X.T for g in gamma])  # S_c = sum_i gamma_c,i x_i x_i^T
    return Nc, F, S


def _m_step_reference(X: np.ndarray, gamma: np.ndarray, Nc: np.ndarray, cov_type: str,
                      cache: dict | None = None):
    """The M-step of eq. (199)-(201) from the statistics N_c (given), F_c and S_c, then the
    constraint of ``cov_type`` (9.4); covariances in the stored form (`_stored`). ``cache`` is
    unused (the fast M-step's)."""
    _, F, S = _statistics(X, gamma)  # F_c (D, M), S_c (M, D, D); N_c is given
    w = Nc / X.shape[1]  # eq. (201): w_c = N_c / N
    mu = F / Nc  # eq. (199): mu_c = F_c / N_c
    C = S / Nc[:, None, None] - np.einsum("ic,jc->cij", mu, mu)  # eq. (200): S_c/N_c - mu_c mu_c^T
    C = 0.5 * (C + C.transpose(0, 2, 1))  # the product rounds its two triangles differently
    if cov_type == "diagonal":  # 9.4: the diagonals of eq. (200)
        return w, mu, np.diagonal(C, axis1=1, axis2=2).copy()
    if cov_type == "tied":  # 9.4: one covariance for all components, sum_c N_c C_c / N
        return w, mu, np.tensordot(w, C, axes=1)
    return w, mu, C


def _log_joint_fast(X: np.ndarray, w: np.ndarray, mu: np.ndarray, C: np.ndarray,
                    cov_type: str) -> np.ndarray:
    """`_log_joint` by `mlpr._gmm_fast` for full covariances, the same numbers without the
    public path's per-call validation (diagonal and tied covariances already use the fast
    scorers of `mlpr._generative_fast`)."""
    if cov_type != "full":
        return _log_joint(X, w, mu, C, cov_type)
    try:
        return _gmm_fast.log_joint_full(X, w, mu, C, _SINGULAR_TOL)
    except np.linalg.LinAlgError:
        _check_factors(C, cov_type)  # raises `_Singular`, naming the component
        raise


class _Steps(NamedTuple):
    """What one EM iteration runs: joint log-densities (eq. 190), E-step (eq. 188, 191),
    M-step (eq. 199-201)."""

    log_joint: Callable
    e_step: Callable
    m_step: Callable


# solver -> the steps: the documented choice of `em_step`, `train_gmm_em`, `train_gmm_lbg`
_SOLVERS = {
    "reference": _Steps(_log_joint, _e_step, _m_step_reference),
    "auto": _Steps(_log_joint_fast, _gmm_fast.posterior, _gmm_fast.m_step),
}


def _floor_each(C, psi):
    return np.stack([floor_covariance(Cc, psi) for Cc in C])


# the eigenvalue floor of 9.4 (the eigenvalues of a diagonal matrix are its diagonal)
_FLOOR = {"full": _floor_each, "diagonal": np.maximum, "tied": floor_covariance}


def _check_responsible(Nc: np.ndarray) -> None:
    """Raise `_Singular` for the first component with no responsibility (N_c = 0)."""
    empty = np.flatnonzero(Nc <= 0.0)
    if empty.size:
        raise _Singular(int(empty[0]), "it is responsible for no sample (N_c = 0)", empty=True)


def _m_step(X, gamma, cov_type, psi, solver="auto", cache=None):
    """One M-step (eq. 199-201) on the samples X by ``solver``: weights, means, covariances
    (stored for ``cov_type``), floored after the diagonal or tied step (9.4)."""
    Nc = gamma.sum(axis=1)  # N_c
    _check_responsible(Nc)
    w, mu, C = _SOLVERS[solver].m_step(X, gamma, Nc, cov_type, {} if cache is None else cache)
    return w, mu, (C if psi is None else _FLOOR[cov_type](C, psi))


def _check_components(C: np.ndarray, cov_type: str, data_var: np.ndarray) -> None:
    """Raise `_Singular` for the first component whose variance is at rounding level of the
    data's: the one-pass ``S_c/N_c - mu mu^T`` cannot resolve it (a collapse)."""
    v = _variances(C, cov_type)
    bad = v <= _SINGULAR_TOL * v.shape[1] * data_var
    if bad.any():
        c = int(np.argwhere(bad)[0, 0])
        raise _Singular(c, f"variance {v[c].min():.3g}, at rounding level of the data's")


def _check_factors(C: np.ndarray, cov_type: str) -> None:
    """Raise `_Singular` for the first covariance without a Cholesky factor (9.2: singular)."""
    for c, Cc in enumerate([] if cov_type == "diagonal" else C if cov_type == "full" else [C]):
        try:
            cholesky_factor(Cc)
        except ValueError:
            raise _Singular(c, f"smallest eigenvalue {np.linalg.eigvalsh(Cc)[0]:.3g}") from None


def _degenerate(exc: _Singular, history, gmm) -> DegenerateComponentError:
    if exc.empty:
        remedy = ("its mean is far from every sample; start from another model (e.g. LBG, or "
                  "K-means clusters) or use fewer components")
    else:
        remedy = ("without a constraint the GMM likelihood is unbounded (a component collapses "
                  "onto a few samples); train with an eigenvalue floor psi (e.g. psi=0.01 on "
                  "data of unit scale) or fewer components")
    return DegenerateComponentError(f"GMM component {exc.c} degenerated ({exc.detail}): {remedy}",
                                    exc.c, history, gmm)


def _check_sizes(M: int, X: np.ndarray, name: str = "D", what: str = "") -> None:
    """Refuse more components than samples: EM cannot give each component a sample of its own,
    so at least one is empty or collapses (section 9.4)."""
    N = X.shape[1]
    if M > N:
        raise ValueError(
            f"{M} components for the {N} samples of {name}{what}: a GMM needs at least one sample "
            f"per component (each estimates its mean and covariance from its samples); use at "
            f"most {N} components, or more data"
            + (f" (if {name} is (samples x features), pass {name}.T)"
               if X.shape[0] > N else "")
        )


def _user_stacklevel() -> int:
    """The ``stacklevel``, for a warning issued by the caller of this function, of the first frame
    outside the mlpr package (the user's call), whatever the depth inside mlpr."""
    level, frame = 1, sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__", "").startswith("mlpr."):
        frame, level = frame.f_back, level + 1
    return level


def _warn_if_psi_dominates(X: np.ndarray, psi: float | None, name: str = "D") -> None:
    """Warn when the floor exceeds the data's largest variance: every floored covariance is then
    wider than the data in every direction, and the components coincide (9.4)."""
    if psi is None or X.shape[1] < 2:
        return
    Xc = X - X.mean(axis=1, keepdims=True)
    top = float(np.linalg.eigvalsh(Xc @ Xc.T / X.shape[1])[-1])  # largest variance of the data
    if psi > top:
        warnings.warn(
            f"psi={psi:g} is above every variance of {name} (the largest eigenvalue of its "
            f"covariance is {top:.3g}): each covariance is floored to at least psi I, wider than "
            f"the data in every direction, so the components coincide; choose psi well below the "
            f"data's variances (e.g. psi=0.01 on data of unit scale) or rescale {name}",
            UserWarning, stacklevel=_user_stacklevel())


def gmm_statistics(D, gamma) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Compute the zero, first and second order statistics of the EM M-step.

    Parameters
    ----------
    D : array_like, shape (D, N)
    gamma : array_like, shape (M, N)
        Responsibilities (or any non-negative weights of each sample for each component).

    Returns
    -------
    Z : ndarray, shape (M,)
        :math:`N_c = \sum_i \gamma_{c,i}`.
    F : ndarray, shape (D, M)
        :math:`F_c = \sum_i \gamma_{c,i} x_i`, one column per component.
    S : ndarray, shape (M, D, D)
        :math:`S_c = \sum_i \gamma_{c,i} x_i x_i^T`.

    Notes
    -----
    Section 9.3 names them in eq. (199) (:math:`N_c`, :math:`F_c`) and eq. (200) (:math:`S_c`);
    the M-step is then :math:`\mu_c = F_c / N_c` (eq. 199), :math:`C_c = S_c / N_c - \mu_c
    \mu_c^T` (eq. 200), :math:`w_c = N_c / N` (eq. 201). Computed as written (`_statistics`);
    the fast EM computes :math:`S_c` by a BLAS syrk instead (`mlpr._gmm_fast`), equal to 1e-10.
    """
    X = check_data(D, "D")
    G = check_data(gamma, "gamma")
    if G.shape[1] != X.shape[1]:
        raise ValueError(f"gamma has shape {G.shape} but D has {X.shape[1]} samples: expected "
                         f"(M, {X.shape[1]}), one row per component")
    if np.any(G < 0):
        raise ValueError("gamma must be non-negative (responsibilities)")
    return _statistics(X, G)  # N_c, F_c, S_c (eq. 199, 200)


def em_step(D, gmm, cov_type: str = "full", psi: float | None = None,
            *, solver: str = "auto") -> GMM:
    r"""One EM iteration from ``gmm``: E-step responsibilities, M-step re-estimation.

    Parameters
    ----------
    D : array_like, shape (D, N)
        Training samples.
    gmm : GMM or list of (w, mu, C)
        The current model (at most N components).
    cov_type : {"full", "diagonal", "tied"}
        Constraint on the re-estimated covariances.
    psi : float or None, default None
        Eigenvalue floor applied to every re-estimated covariance (after the diagonal or tied
        step). ``None`` (the default): no floor. The course's labs pass ``psi=0.01``
        explicitly.
    solver : {"auto", "reference"}, default "auto"
        ``"reference"``: the E-step and the M-step statistics as the notes write them
        (`_e_step`, `_statistics`, `_m_step_reference`, beside this function). ``"auto"``: the
        same numbers (equal to 1e-10 relatively, tested) with the scatter matrices by BLAS syrk
        and the statistics that do not depend on the responsibilities reused
        (`mlpr._gmm_fast`). The returned model records it (``GMM.solver``).

    Returns
    -------
    GMM
        The updated model.

    Raises
    ------
    ValueError
        More components than samples.
    DegenerateComponentError
        A component that receives no responsibility or whose covariance becomes singular.

    Warns
    -----
    UserWarning
        ``psi`` above the largest variance of D (the floored components would coincide).

    Notes
    -----
    Section 9.3: the E-step, eq. (191), then the M-step, eq. (199)-(201), from the statistics
    :math:`N_c = \sum_i \gamma_{c,i}`, :math:`F_c = \sum_i \gamma_{c,i} x_i`,
    :math:`S_c = \sum_i \gamma_{c,i} x_i x_i^T`:

    .. math::

        \gamma_{c,i} = \frac{w_c \mathcal{N}(x_i \mid \mu_c, C_c)}
                            {\sum_{c'} w_{c'} \mathcal{N}(x_i \mid \mu_{c'}, C_{c'})}, \quad
        \mu_c = \frac{F_c}{N_c}, \quad C_c = \frac{S_c}{N_c} - \mu_c \mu_c^T, \quad
        w_c = \frac{N_c}{N} ;

    diagonal: :math:`\mathrm{diag}(C_c)`; tied: :math:`C = \sum_c N_c C_c / N`; then
    :math:`C \to U \max(\Sigma, \psi I) U^T` (9.4).
    """
    X, g = _checked_input(D, gmm)
    cov_type = _check_cov_type(cov_type)
    psi = check_psi(psi, allow_none=True)
    solver = check_solver(solver)
    _check_sizes(g.n_components, X)
    _warn_if_psi_dominates(X, psi)
    log_joint, e_step, m_step = _SOLVERS[solver]  # "reference": `_log_joint`, `_e_step`, ...
    try:
        gamma = e_step(log_joint(X, g.w, g.mu, *_stored(g.C)))[0]  # eq. (191): P(c | x_i)
        Nc = gamma.sum(axis=1)  # N_c = sum_i gamma_c,i
        _check_responsible(Nc)
        w, mu, C = m_step(X, gamma, Nc, cov_type, {})  # F_c, S_c, then eq. (199)-(201)
        C = C if psi is None else _FLOOR[cov_type](C, psi)  # the eigenvalue floor (9.4)
        _check_components(C, cov_type, X.var(axis=1))
        _check_factors(C, cov_type)
    except _Singular as exc:
        raise _degenerate(exc, [], g) from None
    return _gmm(w, mu, C, cov_type, solver)


def _em(X, g: GMM, *, cov_type: str, psi: float | None, tol: float, max_iter: int,
        solver: str = "auto"):
    """EM from ``g`` until the average log-likelihood gains less than ``tol`` (9.3).

    Works on data centred at their mean (the likelihood is translation invariant), which keeps
    the one-pass second-order statistics free of cancellation. Each iteration evaluates the joint
    log-densities once: they give both the average log-likelihood of the new model and its
    responsibilities. Returns the model and the average log-likelihood of the start and of every
    update.
    """
    x0 = X.mean(axis=1, keepdims=True)
    Xc = X - x0
    data_var, cache, (log_joint, e_step, _) = Xc.var(axis=1), {}, _SOLVERS[solver]
    (C, kind), w, mu = _stored(g.C), g.w, g.mu - x0
    gamma, logf = e_step(log_joint(Xc, w, mu, C, kind))
    history = [float(logf.mean())]
    for _ in range(max_iter):
        try:
            w1, mu1, C1 = _m_step(Xc, gamma, cov_type, psi, solver, cache)  # eq. (199)-(201)
            _check_components(C1, cov_type, data_var)  # singular C1: `log_joint` names it
            gamma, logf = e_step(log_joint(Xc, w1, mu1, C1, cov_type))  # eq. (191), (188)
        except _Singular as exc:
            raise _degenerate(exc, history, _gmm(w, mu + x0, C, kind)) from None
        w, mu, C, kind = w1, mu1, C1, cov_type
        history.append(float(logf.mean()))
        if history[-1] - history[-2] < tol:  # the course's criterion on the average ll
            return _gmm(w, mu + x0, C, kind, solver), history
    warnings.warn(f"EM did not converge in max_iter={max_iter} iterations (last gain of the "
                  f"average log-likelihood {history[-1] - history[-2]:.3g} >= tol={tol:g})",
                  ConvergenceWarning, stacklevel=3)
    return _gmm(w, mu + x0, C, kind, solver), history


def train_gmm_em(D, gmm, cov_type: str = "full", psi: float | None = None, tol: float = 1e-6,
                 max_iter: int = 10_000, *, solver: str = "auto") -> tuple[GMM, list[float]]:
    r"""Train a GMM by EM from the initial model ``gmm``.

    Parameters
    ----------
    D : array_like, shape (D, N)
        Training samples.
    gmm : GMM or list of (w, mu, C)
        Initial model (used as given: ``psi`` applies to the re-estimated covariances), at most
        N components.
    cov_type : {"full", "diagonal", "tied"}
        Constraint of the M-step (see `em_step`).
    psi : float or None, default None
        Eigenvalue floor of every re-estimated covariance (9.4). ``None`` (the default): no
        floor, and a collapsing component raises `DegenerateComponentError`. The course's labs
        pass ``psi=0.01`` explicitly.
    tol : float
        Stop when an iteration raises the average log-likelihood :math:`\frac{1}{N}\sum_i \log
        f(x_i)` by less than ``tol`` (the course's criterion); at least one iteration is run.
    max_iter : int
        Iteration cap; reaching it warns (`mlpr.utils.ConvergenceWarning`).
    solver : {"auto", "reference"}, default "auto"
        The E- and M-step of each iteration (see `em_step`); the model records it.

    Returns
    -------
    gmm : GMM
        The trained model.
    history : list of float
        Average log-likelihood of the initial model and after every iteration; EM never lets it
        decrease (the floor keeps this property: it is the constrained maximiser of the M-step).

    Raises
    ------
    ValueError
        More components than samples.
    DegenerateComponentError
        A component collapsed or lost every sample; ``history`` and the last valid model travel
        with the error.

    Warns
    -----
    UserWarning
        ``psi`` above the largest variance of D (the floored components would coincide).

    Notes
    -----
    Section 9.3, eq. (191) and (199)-(201): alternate responsibilities and re-estimation
    (`em_step`); the average log-likelihood is eq. (198) divided by N.
    """
    X, g = _checked_input(D, gmm)
    cov_type = _check_cov_type(cov_type)
    psi = check_psi(psi, allow_none=True)
    tol = check_positive(tol, "tol", "the stopping gain of the average log-likelihood")
    max_iter = check_int(max_iter, "max_iter", low=1)
    solver = check_solver(solver)
    _check_sizes(g.n_components, X)
    _warn_if_psi_dominates(X, psi)
    return _em(X, g, cov_type=cov_type, psi=psi, tol=tol, max_iter=max_iter, solver=solver)


# ------------------------------------------------------------------------------------------------
# LBG (section 9.4)


def _split(w, mu, C, alpha):
    """Replace every component by two, at mu -+ alpha sqrt(lambda_1) u_1, with half the weight."""
    w2, mu2, C2 = [], [], []
    for c in range(w.size):
        # u_1 and lambda_1 from the SVD, as the course's split takes them: where the largest
        # eigenvalue is tied (variances floored at psi), eigh's last column is another of the
        # tied directions, and LBG then reaches another model than the course's code
        U, s, _ = np.linalg.svd(C[c])
        d = U[:, 0] * np.sqrt(s[0]) * alpha  # d = alpha sqrt(lambda_1) u_1
        w2 += [w[c] / 2, w[c] / 2]
        mu2 += [mu[:, c] - d, mu[:, c] + d]  # the course's order: mu - d, then mu + d
        C2 += [C[c], C[c]]
    return GMM(w=np.array(w2), mu=np.column_stack(mu2), C=np.stack(C2))


def split_gmm(gmm, alpha: float = 0.1) -> GMM:
    r"""Split every component in two (LBG), doubling M.

    Parameters
    ----------
    gmm : GMM or list of (w, mu, C)
    alpha : float
        Displacement, in standard deviations along the leading eigenvector, > 0.

    Returns
    -------
    GMM
        2M components: component c becomes components 2c and 2c + 1 with weight ``w_c / 2``,
        means ``mu_c - d`` and ``mu_c + d``, and covariance ``C_c``.

    Notes
    -----
    Section 9.4 (LBG): :math:`d = \alpha \sqrt{\lambda_1} u_1`, with :math:`\lambda_1, u_1` the
    largest eigenvalue of :math:`C_c` and its eigenvector; the sign of :math:`u_1` only swaps the
    two new components. The split model is the start of the next EM run (eq. 191, 199-201).
    """
    g = _as_gmm(gmm)
    alpha = check_positive(alpha, "alpha", "the split displacement")
    return _split(g.w, g.mu, g.C, alpha)


def _ml_start(X, cov_type, psi, name="D") -> GMM:
    """The one-component start of LBG: the ML Gaussian (its diagonal for diagonal models),
    floored at ``psi``."""
    with warnings.catch_warnings():  # the caller validated X under its own name (``name``)
        warnings.filterwarnings("ignore", message=r"D has shape .* fewer samples",
                                category=UserWarning)
        mu, C = compute_mu_C(X)
    C = {"full": C[None], "diagonal": np.diag(C)[None], "tied": C}[cov_type]  # stored form
    C = C if psi is None else _FLOOR[cov_type](C, psi)  # the floor applies to the start too
    try:
        return _gmm(np.ones(1), mu, C, cov_type)
    except ValueError:
        raise DegenerateComponentError(
            f"the ML Gaussian of {name} has a singular covariance: train with an eigenvalue "
            f"floor psi or reduce the dimension with PCA first", 0) from None


class _LBGSettings(NamedTuple):
    """The validated settings of an LBG run (`train_gmm_lbg`), shared by the classifiers."""

    cov_type: str
    psi: float | None
    alpha: float
    tol: float
    max_iter: int
    solver: str


def _lbg(X, n_components: int, settings: _LBGSettings, name: str = "D"):
    """LBG on validated samples X: the ML Gaussian, then split and EM up to ``n_components``;
    the models and their EM histories."""
    cov_type, psi, alpha, tol, max_iter, solver = settings
    start = _ml_start(X, cov_type, psi, name)
    models = [GMM(w=start.w, mu=start.mu, C=start.C, solver=solver)]
    histories = [[float(logsumexp(_joint(X, models[0]), axis=0).mean())]]
    while models[-1].n_components < n_components:
        g, history = _em(X, split_gmm(models[-1], alpha), cov_type=cov_type, psi=psi, tol=tol,
                         max_iter=max_iter, solver=solver)
        models.append(g)
        histories.append(history)
    return models, histories


def train_gmm_lbg(D, n_components: int, cov_type: str = "full", psi: float | None = None,
                  alpha: float = 0.1, tol: float = 1e-6, max_iter: int = 10_000,
                  return_history: bool = False, *, solver: str = "auto"):
    r"""Train GMMs of 1, 2, 4, ..., ``n_components`` components by LBG splitting and EM.

    Parameters
    ----------
    D : array_like, shape (D, N)
        Training samples.
    n_components : int
        Final number of components, a power of two, at most N.
    cov_type : {"full", "diagonal", "tied"}
    psi : float or None, default None
        Eigenvalue floor (9.4), applied to the starting Gaussian too. ``None`` (the default): no
        floor. The course's labs pass ``psi=0.01`` explicitly.
    alpha : float
        Split displacement (`split_gmm`).
    tol, max_iter
        EM stopping rule after each split (`train_gmm_em`).
    return_history : bool
        Also return, for every model, its EM history of average log-likelihoods.
    solver : {"auto", "reference"}, default "auto"
        The E- and M-step of each EM iteration (see `em_step`); the models record it.

    Returns
    -------
    models : list of GMM
        ``models[k]`` has ``2**k`` components; ``models[-1]`` has ``n_components``.
    histories : list of list of float
        Only with ``return_history=True``: ``histories[0] = [ll of the ML Gaussian]``, then the
        EM history after each split (its first value is the split model's).

    Raises
    ------
    ValueError
        ``n_components`` not a power of two, or more components than samples.

    Warns
    -----
    UserWarning
        ``psi`` above the largest variance of D (the floored components would coincide).

    Notes
    -----
    Section 9.4: start from the ML Gaussian (`compute_mu_C`, its diagonal for ``"diagonal"``,
    floored at ``psi``), which is already the 1-component optimum; then split (`split_gmm`) and
    run EM (eq. 191, 199-201) until ``n_components``.
    """
    X = check_data(D, "D")
    n_components = _check_power_of_two(n_components, "n_components")
    cov_type = _check_cov_type(cov_type)
    psi = check_psi(psi, allow_none=True)
    alpha = check_positive(alpha, "alpha", "the split displacement")
    tol = check_positive(tol, "tol", "the stopping gain of the average log-likelihood")
    max_iter = check_int(max_iter, "max_iter", low=1)
    return_history = check_bool(return_history, "return_history")
    solver = check_solver(solver)
    _check_sizes(n_components, X)
    _warn_if_psi_dominates(X, psi)
    models, histories = _lbg(X, n_components,
                             _LBGSettings(cov_type, psi, alpha, tol, max_iter, solver))
    return (models, histories) if return_history else models


# ------------------------------------------------------------------------------------------------
# hard EM and K-means (section 9.2)


def _reseed_empty(z: np.ndarray, best: np.ndarray, M: int) -> np.ndarray:
    """Give each empty component the sample worst explained (lowest joint log-density) by its
    own component among those with two samples or more (the documented rule of 9.2 here)."""
    for c in np.flatnonzero(np.bincount(z, minlength=M) == 0):
        worst = int(np.argmin(np.where(np.bincount(z, minlength=M)[z] > 1, best, np.inf)))
        z[worst] = c
        best[worst] = np.inf
    return z


def _hard_em(X, start, cov_type, m_step, max_iter):
    """Hard-assignment EM (eq. 193-197) from ``start = (w, mu, C, its cov_type)``: assign each
    sample to its best component, re-estimate from the hard assignments (``m_step``, giving
    covariances of ``cov_type``), until the assignments stop changing."""
    (w, mu, C, kind), prev, history = start, None, []
    for _ in range(max_iter):
        S = _log_joint(X, w, mu, C, kind)
        z = np.argmax(S, axis=0)  # eq. (192): hard assignment
        best = S[z, np.arange(z.size)]
        history.append(float(best.mean()))  # eq. (194): complete-data average log-likelihood
        if prev is not None and np.array_equal(z, prev):
            return w, mu, C, z, history
        prev = _reseed_empty(z, best, w.size)
        w, mu, C = m_step(X, np.eye(w.size)[:, prev])  # eq. (196), ML per cluster: 0/1 gammas
        kind = cov_type
    warnings.warn(f"hard EM did not converge in max_iter={max_iter} iterations (assignments "
                  f"still changing)", ConvergenceWarning, stacklevel=3)
    return w, mu, C, z, history


def kmeans(D, init, rng: np.random.Generator | None = None, max_iter: int = 300):
    r"""Cluster the columns of D with K-means (Lloyd's algorithm).

    Parameters
    ----------
    D : array_like, shape (D, N)
    init : int or array_like, shape (D, M)
        Initial centroids, or their number M (an int, at most the number of distinct samples):
        then M distinct samples drawn with ``rng``. A float is refused (not read as centroids).
    rng : numpy.random.Generator, optional
        Required when ``init`` is a number.
    max_iter : int
        Iteration cap (a `mlpr.utils.ConvergenceWarning` if reached).

    Returns
    -------
    mu : ndarray, shape (D, M)
        Centroids.
    assignment : ndarray of int, shape (N,)
        Cluster of each sample (nearest centroid; ties to the smallest index).
    history : list of float
        Minus half the mean squared distance to the assigned centroid, up to a constant (the
        hard-EM objective of identity covariances), one per iteration; non-decreasing (unless an
        empty cluster is re-seeded).

    Notes
    -----
    Section 9.2, eq. (193)-(197): hard EM with identity covariances and equal weights, so that
    the hard assignment is the nearest centroid and the M-step re-estimates the means only,
    :math:`\mu_c = \frac{1}{|X_c|} \sum_{x \in X_c} x`. Stops when no assignment changes. An
    empty cluster is re-seeded with the sample farthest from its centroid (of a cluster with at
    least two samples), so no centroid is ever NaN.
    """
    X = check_data(D, "D")
    max_iter = check_int(max_iter, "max_iter", low=1)
    if np.ndim(init) == 0 and not (isinstance(init, Integral) and not isinstance(init, bool)):
        raise TypeError(
            f"init must be a number of clusters (an int) or the (D, M) initial centroids, got "
            f"{type(init).__name__} {init!r}; for {init!r} clusters pass int({init!r})"
        )
    if isinstance(init, Integral) and not isinstance(init, bool):
        M = check_int(init, "init", low=1, high=X.shape[1])
        if rng is None:
            raise TypeError("rng is required when init is a number of clusters: pass "
                            "numpy.random.default_rng(seed)")
        mu = X[:, np.sort(check_rng(rng).choice(X.shape[1], M, replace=False))]
    else:
        mu = check_data(init, "init", n_features=X.shape[0])
        M = mu.shape[1]
    distinct = np.unique(X, axis=1).shape[1]
    if distinct < M:
        raise ValueError(
            f"D has {distinct} distinct sample{'s' if distinct != 1 else ''} for {M} clusters: "
            f"equal samples always fall in the same cluster, so at most {distinct} clusters can "
            f"be non-empty; use at most {distinct} clusters"
        )
    w, var = np.full(M, 1.0 / M), np.ones((M, X.shape[0]))  # equal weights, C_c = I

    def means_only(X, Z01):
        return w, (X @ Z01.T) / Z01.sum(axis=1), var  # mu_c = mean of cluster c

    _, mu, _, z, history = _hard_em(X, (w, mu, var, "diagonal"), "diagonal", means_only, max_iter)
    return mu, z, history


def gmm_from_clusters(D, assignment, n_components: int | None = None, cov_type: str = "full",
                      psi: float | None = None) -> GMM:
    r"""The ML GMM of a hard clustering: each cluster's weight, mean and covariance.

    Parameters
    ----------
    D : array_like, shape (D, N)
    assignment : array_like of int, shape (N,)
        Cluster of each sample, 0..M-1, every cluster non-empty (e.g. from `kmeans`).
    n_components : int, optional
        M; by default ``max(assignment) + 1``.
    cov_type : {"full", "diagonal", "tied"}
    psi : float, optional
        Eigenvalue floor of the covariances.

    Returns
    -------
    GMM
        ``w_c = |X_c| / N``, ``mu_c`` and ``C_c`` the ML estimates of cluster c.

    Warns
    -----
    UserWarning
        ``psi`` above the largest variance of D (the floored components would coincide).

    Notes
    -----
    The M-step of hard EM (section 9.2: eq. 196 for the weights, each cluster's ML mean and
    covariance), i.e. eq. (199)-(201) with 0/1 responsibilities; with `kmeans` the alternative
    initialisation of EM named in section 9.4.
    """
    X, z = check_data_labels(D, assignment, require_all=True, n_classes=n_components)
    M = int(z.max()) + 1 if n_components is None else check_int(n_components, "n_components",
                                                                 low=1)
    cov_type = _check_cov_type(cov_type)
    psi = check_psi(psi, allow_none=True)
    _warn_if_psi_dominates(X, psi)
    try:
        w, mu, C = _m_step(X, np.eye(M)[:, z], cov_type, psi)  # eq. (199)-(201), 0/1 gammas
        _check_components(C, cov_type, X.var(axis=1))
        _check_factors(C, cov_type)
    except _Singular as exc:
        raise _degenerate(exc, [], None) from None
    return _gmm(w, mu, C, cov_type)


def train_gmm_hard_em(D, gmm, cov_type: str = "full", psi: float | None = None,
                      max_iter: int = 300) -> tuple[GMM, np.ndarray, list[float]]:
    r"""Train a GMM by hard-assignment EM from ``gmm``.

    Parameters
    ----------
    D : array_like, shape (D, N)
    gmm : GMM or list of (w, mu, C)
        Initial model.
    cov_type : {"full", "diagonal", "tied"}
    psi : float, optional
        Eigenvalue floor of the re-estimated covariances; without it a cluster of fewer than D + 1
        samples raises `DegenerateComponentError`.
    max_iter : int

    Returns
    -------
    gmm : GMM
    assignment : ndarray of int, shape (N,)
    history : list of float
        Complete-data average log-likelihood :math:`\frac{1}{N}\sum_i \max_c [\log w_c + \log
        \mathcal{N}(x_i \mid \mu_c, C_c)]`, one per iteration.

    Raises
    ------
    ValueError
        More components than samples.
    DegenerateComponentError
        A cluster too small for its covariance without the floor ``psi``.

    Warns
    -----
    UserWarning
        ``psi`` above the largest variance of D (the floored components would coincide).

    Notes
    -----
    Section 9.2, eq. (193)-(197): E-step hard assignment :math:`c_i = \arg\max_c \gamma_c(x_i)`,
    M-step the ML estimates of each cluster (weights :math:`|X_c| / N`). Stops when no assignment
    changes. Empty components are re-seeded with the worst-explained sample (see `kmeans`).
    """
    X, g = _checked_input(D, gmm)
    cov_type = _check_cov_type(cov_type)
    psi = check_psi(psi, allow_none=True)
    max_iter = check_int(max_iter, "max_iter", low=1)
    _check_sizes(g.n_components, X)
    _warn_if_psi_dominates(X, psi)
    cache, data_var = {}, X.var(axis=1)

    def m_step(X, Z01):
        w, mu, C = _m_step(X, Z01, cov_type, psi, "auto", cache)  # eq. (199)-(201), 0/1 gammas
        _check_components(C, cov_type, data_var)
        _check_factors(C, cov_type)
        return w, mu, C

    try:
        w, mu, C, z, history = _hard_em(X, (g.w, g.mu, *_stored(g.C)), cov_type, m_step,
                                        max_iter)
    except _Singular as exc:
        raise _degenerate(exc, [], g) from None
    return _gmm(w, mu, C, cov_type), z, history  # at least one M-step has run


# ------------------------------------------------------------------------------------------------
# classification (section 9.5)


@model
class GMMClassifier:
    r"""One GMM per class; ``scores`` are the class log-likelihoods (eq. 202).

    Attributes
    ----------
    gmms : tuple of GMM
        ``gmms[k]`` models class k (the numbers of components may differ).
    """

    gmms: tuple

    def __post_init__(self):
        if isinstance(self.gmms, (GMM, str)) or not isinstance(self.gmms, Sequence) or \
                len(self.gmms) == 0:
            raise TypeError("gmms must be a non-empty sequence of GMMs (one per class)")
        gmms = tuple(_as_gmm(g) for g in self.gmms)  # the course's list form is accepted too
        dims = {g.n_features for g in gmms}
        if len(dims) > 1:
            raise ValueError(f"the class GMMs have different dimensions {sorted(dims)}")
        object.__setattr__(self, "gmms", gmms)

    @property
    def n_classes(self) -> int:
        """K, the number of classes."""
        return len(self.gmms)

    def scores(self, D) -> np.ndarray:
        r"""Class-conditional log-densities ``S[k, n] = log f(x_n | k)``, shape (K, N) (eq. 202),
        for `mlpr.generative.log_posteriors` / `map_decisions`."""
        X = check_data(D, "D", n_features=self.gmms[0].n_features, allow_1d=True)
        return np.vstack([logsumexp(_joint(X, g), axis=0) for g in self.gmms])  # eq. (202)

    def llr(self, D) -> np.ndarray:
        r"""Log-likelihood ratio of a binary task, ``log f(x|1) - log f(x|0)``, shape (N,).

        Eq. (203) of the notes, as a log-ratio (the notes drop the log by mistake); class 1 is
        decided when ``llr > t`` (strictly)."""
        if self.n_classes != 2:
            raise ValueError(
                f"llr needs a binary classifier, this one has {self.n_classes} classes"
            )
        S = self.scores(D)
        return S[1] - S[0]  # eq. (203)


def _check_components_per_class(n_components, K: int) -> list[int]:
    if isinstance(n_components, Integral) and not isinstance(n_components, bool):
        return [_check_power_of_two(n_components, "n_components")] * K
    n = list(n_components)
    if len(n) != K:
        raise ValueError(f"n_components has {len(n)} entries for K = {K} classes: give one number "
                         f"per class or a single number")
    return [_check_power_of_two(v, f"n_components[{k}]") for k, v in enumerate(n)]


def _class_lbg(X, L, n_per_class: list[int], settings: _LBGSettings):
    """LBG for the samples of each class k = 0..K-1, K = len(n_per_class) (validated X, L and
    settings)."""
    out = []
    for k in range(len(n_per_class)):
        Xk = X[:, L == k]
        _check_sizes(n_per_class[k], Xk, "D", f" in class {k}")
        _warn_if_psi_dominates(Xk, settings.psi, f"D (class {k})")
        try:
            out.append(_lbg(Xk, n_per_class[k], settings)[0])
        except DegenerateComponentError as exc:
            raise DegenerateComponentError(f"class {k}: {exc}", exc.component, exc.history,
                                           exc.gmm) from None
    return out


def _check_lbg_settings(cov_type, psi, alpha, tol, max_iter, *, solver) -> _LBGSettings:
    return _LBGSettings(
        _check_cov_type(cov_type), check_psi(psi, allow_none=True),
        check_positive(alpha, "alpha", "the split displacement"),
        check_positive(tol, "tol", "the stopping gain of the average log-likelihood"),
        check_int(max_iter, "max_iter", low=1), check_solver(solver))


_ONE_CLASS = "; to model the density of one class, use train_gmm_lbg(D, n_components)"


def _train_classifier(X, L, K, n_components, settings: _LBGSettings) -> GMMClassifier:
    n = _check_components_per_class(n_components, K)
    models = _class_lbg(X, L, n, settings)
    return GMMClassifier(gmms=tuple(m[-1] for m in models))


def train_gmm_classifier(D, L, n_components, cov_type: str = "full", psi: float | None = None,
                         alpha: float = 0.1, tol: float = 1e-6, max_iter: int = 10_000,
                         *, solver: str = "auto") -> GMMClassifier:
    r"""Train a GMM classifier: one LBG-trained GMM per class.

    Parameters
    ----------
    D : array_like, shape (D, N)
    L : array_like, shape (N,)
        Labels 0..K-1, K >= 2, every class present.
    n_components : int or sequence of K ints
        Components of each class's GMM (powers of two, at most the class's samples).
    cov_type, alpha, tol, max_iter, solver
        As in `train_gmm_lbg`.
    psi : float or None, default None
        Eigenvalue floor of every class's GMM, as in `train_gmm_lbg`. ``None`` (the default): no
        floor. The course's labs pass ``psi=0.01`` explicitly.

    Returns
    -------
    GMMClassifier

    Raises
    ------
    ValueError
        A single class, or more components than samples in a class.

    Notes
    -----
    Section 9.5, eq. (202): :math:`f(x \mid k)` is the GMM of class k; decisions combine it with
    the application's priors (`mlpr.generative.log_posteriors`), binary tasks through the llr
    (eq. 203).
    """
    X, L, K = check_multiclass(D, L, "a GMM classifier", require_all=False, remedy=_ONE_CLASS)
    settings = _check_lbg_settings(cov_type, psi, alpha, tol, max_iter, solver=solver)
    return _train_classifier(X, L, K, n_components, settings)


def lbg_gmm_classifiers(D, L, n_components: int, cov_type: str = "full",
                        psi: float | None = None, alpha: float = 0.1, tol: float = 1e-6,
                        max_iter: int = 10_000, *,
                        solver: str = "auto") -> dict[int, GMMClassifier]:
    r"""The GMM classifiers of every LBG size 1, 2, 4, ..., ``n_components`` from one LBG run per
    class (the course's tables), as ``{M: GMMClassifier}``.

    Parameters and Notes as in `train_gmm_classifier` (section 9.5, eq. 202), ``psi`` included
    (default ``None``: no floor; the course's labs pass ``psi=0.01``); ``result[M]`` equals
    ``train_gmm_classifier(D, L, M, ...)``.
    """
    X, L, K = check_multiclass(D, L, "a GMM classifier", require_all=False, remedy=_ONE_CLASS)
    settings = _check_lbg_settings(cov_type, psi, alpha, tol, max_iter, solver=solver)
    n = _check_power_of_two(n_components, "n_components")
    models = _class_lbg(X, L, [n] * K, settings)
    return {2**i: GMMClassifier(gmms=tuple(m[i] for m in models)) for i in range(len(models[0]))}


@model
class OpenSetClassifier:
    r"""K known classes plus a "none of the others" class (section 9.5): K + 1 class
    log-likelihoods of eq. (202), the last one a GMM of unlabelled data.

    Attributes
    ----------
    known : GMMClassifier
        The K known classes.
    other : GMM
        Density of the "none of the others" hypothesis, trained on an unlabelled pool.
    """

    known: GMMClassifier
    other: GMM

    def __post_init__(self):
        if not isinstance(self.known, GMMClassifier):
            raise TypeError(f"known must be a GMMClassifier, got {type(self.known).__name__}")
        other = _as_gmm(self.other)
        if other.n_features != self.known.gmms[0].n_features:
            raise ValueError(f"other has {other.n_features} features but the known classes "
                             f"{self.known.gmms[0].n_features}")
        object.__setattr__(self, "other", other)

    def scores(self, D) -> np.ndarray:
        """(K + 1, N) class log-likelihoods: rows 0..K-1 the known classes, row K "none of the
        others"; decisions among the K + 1 hypotheses with `map_decisions` and K + 1 priors."""
        S = self.known.scores(D)
        X = check_data(D, "D", n_features=self.other.n_features, allow_1d=True)
        return np.vstack([S, logpdf_GMM(X, self.other)])


def train_open_set_classifier(D, L, D_pool, n_components=1, n_other: int = 8,
                              cov_type: str = "full", psi: float | None = None,
                              alpha: float = 0.1, tol: float = 1e-6,
                              max_iter: int = 10_000, *,
                              solver: str = "auto") -> OpenSetClassifier:
    r"""Train an open-set classifier: GMMs of the K known classes and a GMM of an unlabelled pool.

    Parameters
    ----------
    D : array_like, shape (D, N)
        Labelled samples of the known classes.
    L : array_like, shape (N,)
        Labels 0..K-1.
    D_pool : array_like, shape (D, N_pool)
        Unlabelled samples (of any class, known or not), modelling "none of the others".
    n_components : int or sequence of K ints
        Components of each known class (1 = a Gaussian).
    n_other : int
        Components of the pool's GMM (a power of two).
    cov_type, alpha, tol, max_iter, solver
        As in `train_gmm_lbg`, for every GMM.
    psi : float or None, default None
        Eigenvalue floor of every GMM, as in `train_gmm_lbg`. ``None`` (the default): no floor.
        The course's labs pass ``psi=0.01`` explicitly.

    Returns
    -------
    OpenSetClassifier

    Warns
    -----
    UserWarning
        ``D_pool`` with fewer samples (columns) than features (rows): transposed?

    Notes
    -----
    Section 9.5: a class that has no training labels is modelled by a broad density, a GMM of
    generic data, beside the class GMMs of eq. (202); a sample is "none of the others" when its
    posterior, under K + 1 priors, is the largest. These likelihoods are not calibrated: the
    decisions are only as good as the models.
    """
    X, L = check_data_labels(D, L)
    settings = _check_lbg_settings(cov_type, psi, alpha, tol, max_iter, solver=solver)
    known = _train_classifier(X, L, int(L.max()) + 1, n_components, settings)  # K = 1 allowed
    P = check_data(D_pool, "D_pool", n_features=X.shape[0], unlabelled=True)
    n_other = _check_power_of_two(n_other, "n_other")
    _check_sizes(n_other, P, "D_pool")
    _warn_if_psi_dominates(P, settings.psi, "D_pool")
    other = _lbg(P, n_other, settings, name="D_pool")[0][-1]
    return OpenSetClassifier(known=known, other=other)
