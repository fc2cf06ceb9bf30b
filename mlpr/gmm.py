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
* Section 9.3, eq. 198-201: `gmm_statistics` (N_c, F_c, S_c), `em_step`, `train_gmm_em`.
* Section 9.4: `split_gmm` and `train_gmm_lbg` (LBG: 1, 2, 4, ... components).
* Section 9.5, eq. 202-203: `train_gmm_classifier` / `lbg_gmm_classifiers` (one GMM per class,
  `GMMClassifier.scores` and ``llr``) and `train_open_set_classifier` (K known classes and a
  "none of the others" GMM).

Covariance types (``cov_type``): ``"full"``; ``"diagonal"``, the diagonal of the full estimate
(each component is a naive-Bayes Gaussian, but the mixture is not: 9.4); ``"tied"``, one covariance
shared by the components of one GMM, ``sum_c N_c C_c / N``. Every model stores full (D, D)
matrices, so that the course's list form and `logpdf_GMM` need no type: a diagonal model holds
diagonal matrices (evaluated in O(D) per sample), a tied one M equal matrices.

Degeneracy. Without a constraint the GMM likelihood is unbounded: a component can collapse onto a
sample, its covariance going to zero and the likelihood to infinity (9.2, 9.4). The eigenvalue
floor ``psi`` (`mlpr.generative.floor_covariance`, eigenvalues clipped at ``psi``) prevents it; a
collapse without it raises `DegenerateComponentError`, naming the component and carrying the
average log-likelihoods up to the collapse, never a NaN or an infinite log-likelihood.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from numbers import Integral, Real

import numpy as np
import scipy.linalg
import scipy.linalg.blas
from scipy.special import logsumexp

from .gaussian import compute_mu_C
from .generative import floor_covariance
from .utils import (
    check_bool,
    check_data,
    check_data_labels,
    check_int,
    check_rng,
    model,
)

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

_LOG_2PI = np.log(2.0 * np.pi)
_EPS = np.finfo(float).eps
_WEIGHT_TOL = 1e-6  # tolerance on sum(w) == 1 (saved models may be rounded)
_SINGULAR_TOL = 10 * _EPS  # per feature, as in mlpr.gaussian: rounding-level variance
_COV_TYPES = ("full", "diagonal", "tied")
# largest rounding error accepted in a Mahalanobis distance computed by expansion (the shortcuts
# of diagonal and tied models); beyond it the distance is computed from x - mu directly
_EXPANSION_TOL = 1e-8


class DegenerateComponentError(ValueError):
    """A GMM component collapsed (singular covariance) or lost every sample during training.

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

    Construction validates every field: a negative weight, weights not summing to one, shapes that
    disagree or a covariance that is not symmetric positive definite raise ``ValueError``.
    """

    w: np.ndarray
    mu: np.ndarray
    C: np.ndarray

    def __post_init__(self):
        w, mu, C = _check_gmm_arrays(self.w, self.mu, self.C)
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
                w.append(np.asarray(comp[0], dtype=float).reshape(-1))
                mu.append(np.asarray(comp[1], dtype=float))
                C.append(np.asarray(comp[2], dtype=float))
            except (TypeError, ValueError) as exc:
                raise TypeError(f"gmm[{c}] must hold a numeric (w, mu, C): {exc}") from None
        for c, wc in enumerate(w):
            if wc.size != 1:
                raise ValueError(f"gmm[{c}] weight must be a scalar, got shape {wc.shape}")
        D = mu[0].size
        for c in range(len(mu)):
            if mu[c].size != D or not (mu[c].ndim <= 1 or (mu[c].ndim == 2 and 1 in mu[c].shape)):
                raise ValueError(
                    f"gmm[{c}] mean has shape {mu[c].shape}, expected ({D},) or ({D}, 1)"
                )
            if C[c].size == 1 and D == 1:
                C[c] = C[c].reshape(1, 1)
            if C[c].shape != (D, D):
                raise ValueError(f"gmm[{c}] covariance has shape {C[c].shape}, expected ({D}, {D})")
        return cls(w=np.concatenate(w), mu=np.column_stack([m.reshape(D) for m in mu]),
                   C=np.stack(C))

    def to_list(self) -> list:
        """The course's list form ``[(w, mu, C), ...]``: float weights, (D, 1) means, (D, D)
        covariances (writeable copies)."""
        return [(float(self.w[c]), self.mu[:, [c]].copy(), self.C[c].copy())
                for c in range(self.n_components)]


def _check_gmm_arrays(w, mu, C) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
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
    if not np.all(np.isfinite(C)):
        raise ValueError("C contains NaN or infinite values")
    if np.any(w < 0):
        raise ValueError(
            f"w must hold non-negative weights, got w[{int(np.argmin(w))}] = {w.min():g}"
        )
    if abs(w.sum() - 1.0) > _WEIGHT_TOL:
        raise ValueError(f"w must sum to 1 (within {_WEIGHT_TOL:g}), got sum {w.sum():.12g}")
    asym = np.abs(C - C.transpose(0, 2, 1)).max(axis=(1, 2))
    scale = np.maximum(np.abs(C).max(axis=(1, 2)), np.finfo(float).tiny)
    if np.any(asym > 1e-8 * scale):
        c = int(np.argmax(asym / scale))
        raise ValueError(f"C[{c}] is not symmetric (max |C - C.T| = {asym[c]:.3g})")
    try:
        _factors(C)
    except _Singular as exc:
        raise ValueError(f"C[{exc.c}] is not positive definite ({exc.detail}): every "
                         f"component needs an invertible covariance; floor its eigenvalues "
                         f"(floor_covariance) or use psi when training") from None
    return w, mu, C


def _as_gmm(gmm) -> GMM:
    return gmm if isinstance(gmm, GMM) else GMM.from_list(gmm)


def _check_cov_type(cov_type) -> str:
    if not isinstance(cov_type, str) or cov_type.lower() not in _COV_TYPES:
        raise ValueError(f"cov_type must be one of {_COV_TYPES}, got {cov_type!r}")
    return cov_type.lower()


def _check_positive(value, name: str, allow_none: bool = False):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, Real):
        raise TypeError(f"{name} must be a positive real number, got {value!r}")
    value = float(value)
    if not (np.isfinite(value) and value > 0.0):
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return value


def _check_power_of_two(n, name: str) -> int:
    n = check_int(n, name, low=1)
    if n & (n - 1):
        raise ValueError(f"{name} must be a power of two (LBG doubles the components), got {n}")
    return n


# ------------------------------------------------------------------------------------------------
# log-densities (eq. 185-192)


def _factors(C: np.ndarray) -> np.ndarray:
    """Lower Cholesky factors (M, D, D) of the covariances, or `_Singular` naming the component.

    A covariance is singular when the factorisation fails or when, for some feature, the fraction
    of its variance not explained by the previous features is at rounding level (as in
    `mlpr.gaussian`)."""
    M, D, _ = C.shape
    out = np.empty_like(C)
    for c in range(M):
        try:
            out[c] = scipy.linalg.cholesky(C[c], lower=True, check_finite=False)  # C = L L^T
        except np.linalg.LinAlgError:
            raise _Singular(c, f"smallest eigenvalue {np.linalg.eigvalsh(C[c])[0]:.3g}") from None
        if np.any(np.diag(out[c]) ** 2 <= _SINGULAR_TOL * D * np.diag(C[c])):
            raise _Singular(c, "singular up to rounding")
    return out


def _is_diagonal(C: np.ndarray) -> bool:
    D = C.shape[1]
    return bool(np.array_equal(C, np.diagonal(C, axis1=1, axis2=2)[:, :, None] * np.eye(D)))


def _log_gaussians(X: np.ndarray, mu: np.ndarray, C: np.ndarray) -> np.ndarray:
    r"""(M, N) component log-densities ``log N(x_n | mu_c, C_c)`` (eq. 185), validated inputs.

    ``log|C| = 2 sum log L_ii`` and ``(x - mu)^T C^{-1} (x - mu) = ||L^{-1} (x - mu)||^2`` with
    ``C = L L^T``; diagonal covariances (every off-diagonal entry zero) and tied ones (all equal)
    take the shortcuts of `_quad_diagonal` and `_quad_tied`, which give the same numbers.
    """
    M, D, _ = C.shape
    if _is_diagonal(C):
        var = np.diagonal(C, axis1=1, axis2=2)  # (M, D)
        if np.any(var <= 0.0):
            c = int(np.argmin(var.min(axis=1)))
            raise _Singular(c, f"a zero or negative variance {var[c].min():.3g}")
        logdet, Q = np.log(var).sum(axis=1), _quad_diagonal(X, mu, var)
    else:
        tied = bool(np.all(C == C[0]))
        L = _factors(C[:1] if tied else C)
        logdet = np.broadcast_to(2.0 * np.log(np.diagonal(L, axis1=1, axis2=2)).sum(axis=1), M)
        Q = _quad_tied(X, mu, L[0]) if tied else _quad_full(X, mu, L)
    return -0.5 * (D * _LOG_2PI + logdet)[:, None] - 0.5 * Q  # eq. (185), per component


def _quad_full(X, mu, L):
    """(M, N) Mahalanobis distances ``||L_c^{-1} (x - mu_c)||^2``, one product per component."""
    Q = np.empty((mu.shape[1], X.shape[1]))
    I = np.eye(X.shape[0])
    for c in range(mu.shape[1]):
        W = scipy.linalg.solve_triangular(L[c], I, lower=True, check_finite=False)  # L_c^{-1}
        Y = W @ X
        Y -= W @ mu[:, [c]]  # y = L_c^{-1} (x - mu_c), without a centred copy of X
        Q[c] = np.einsum("ij,ij->j", Y, Y)
    return Q


def _quad_tied(X, mu, L):
    """Shared covariance: whiten once, ``||y - m_c||^2`` with ``y = L^{-1} x``, ``m_c = L^{-1}
    mu_c``, expanded as ``||y||^2 - 2 m_c^T y + ||m_c||^2`` (one (M, D) x (D, N) product)."""
    Y = scipy.linalg.solve_triangular(L, X, lower=True, check_finite=False)
    Mw = scipy.linalg.solve_triangular(L, mu, lower=True, check_finite=False)
    y2, m2 = np.einsum("ij,ij->j", Y, Y), (Mw * Mw).sum(axis=0)
    if 2.0 * _EPS * (y2.max() + m2.max()) > _EXPANSION_TOL:  # |2 m^T y| <= ||y||^2 + ||m||^2
        return _quad_full(X, mu, np.broadcast_to(L, (mu.shape[1],) + L.shape))
    return np.maximum(y2[None, :] - 2.0 * (Mw.T @ Y) + m2[:, None], 0.0)


def _quad_diagonal(X, mu, var):
    """Diagonal covariances: ``sum_j (x_j - mu_cj)^2 / var_cj`` expanded as two (M, D) x (D, N)
    products, ``(1/var)^T (x * x) - 2 (mu/var)^T x + sum_j mu_cj^2 / var_cj``; per component
    when the expansion would lose accuracy (samples far from a narrow component)."""
    P = 1.0 / var  # (M, D) precisions
    X2 = X * X
    big = P @ X2.max(axis=1) + (mu.T**2 * P).sum(axis=1)  # bound of the terms, per component
    if _EPS * 4.0 * big.max() > _EXPANSION_TOL:
        return np.stack([((X - mu[:, [c]]) ** 2 * P[c][:, None]).sum(axis=0)
                         for c in range(var.shape[0])])
    Q = P @ X2 - 2.0 * ((mu.T * P) @ X) + (mu.T**2 * P).sum(axis=1)[:, None]
    return np.maximum(Q, 0.0)


def _log_joint(X: np.ndarray, w: np.ndarray, mu: np.ndarray, C: np.ndarray) -> np.ndarray:
    """(M, N) ``log w_c + log N(x | mu_c, C_c)`` (eq. 190). Samples and means are first shifted
    by the mean of the means, which leaves every distance unchanged and bounds the cancellation
    of the expanded distances by the model's own spread, wherever the data lie."""
    x0 = mu.mean(axis=1, keepdims=True)
    with np.errstate(divide="ignore"):  # a weight of 0 is a component that never fires
        return np.log(w)[:, None] + _log_gaussians(X - x0, mu - x0, C)  # eq. (190)


def _posterior(S: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Responsibilities (eq. 191) and log-densities (eq. 188) from the joint log-densities.

    The logsumexp of eq. (188) written out, so that one exponential serves both: with
    ``m = max_c S_c``, ``f(x) = e^m sum_c e^(S_c - m)`` and ``gamma_c = e^(S_c - m) / sum_c'
    e^(S_c' - m)`` (``m`` is finite: every sample has a finite joint density with a component of
    positive weight)."""
    m = S.max(axis=0)
    E = np.exp(S - m)
    total = E.sum(axis=0)
    return E / total, m + np.log(total)  # eq. (191), eq. (188)


def _checked_input(D, gmm) -> tuple[np.ndarray, GMM]:
    gmm = _as_gmm(gmm)
    X = check_data(D, "D", n_features=gmm.n_features, allow_1d=True)
    return X, gmm


def _public_joint(D, gmm) -> np.ndarray:
    X, g = _checked_input(D, gmm)
    return _log_joint(X, g.w, g.mu, g.C)


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
    Eq. (190), section 9.1 of the MLPR notes:

    .. math:: S_{c,n} = \log f_{X,G}(x_n, c) = \log w_c + \log \mathcal{N}(x_n \mid \mu_c, C_c)
    """
    return _public_joint(D, gmm)


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
    Eq. (185) and (188), section 9.1: the marginal of the joint densities `log_joint_GMM`
    (eq. 190) over the components, through ``logsumexp`` so that no density underflows,

    .. math:: \log f(x) = \log \sum_{c=1}^M \exp S_{c}(x), \qquad
              S_c(x) = \log w_c + \log \mathcal{N}(x \mid \mu_c, C_c) .
    """
    return logsumexp(_public_joint(D, gmm), axis=0)  # eq. (188)


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
    Eq. (191), section 9.1:

    .. math:: \gamma_c(x) = \frac{w_c \mathcal{N}(x \mid \mu_c, C_c)}
              {\sum_{c'} w_{c'} \mathcal{N}(x \mid \mu_{c'}, C_{c'})}
              = \exp\left(S_c(x) - \log f(x)\right)
    """
    return _posterior(_public_joint(D, gmm))[0]


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
    return np.argmax(_public_joint(D, gmm), axis=0)  # eq. (192)


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
    Ancestral sampling of the latent-variable model of section 9.1: :math:`G \sim
    \mathrm{Cat}(w)`, then :math:`x = \mu_G + L_G z` with :math:`z \sim \mathcal{N}(0, I)` and
    :math:`C_G = L_G L_G^T`.
    """
    g = _as_gmm(gmm)
    n = check_int(n, "n", low=0)
    rng = check_rng(rng)
    return_components = check_bool(return_components, "return_components")
    G = rng.choice(g.n_components, size=n, p=g.w / g.w.sum())
    Z = rng.standard_normal((g.n_features, n))
    L = _factors(g.C)
    X = np.empty((g.n_features, n))
    for c in range(g.n_components):
        idx = G == c
        X[:, idx] = g.mu[:, [c]] + L[c] @ Z[:, idx]  # x = mu_c + L_c z
    return (X, G) if return_components else X


# ------------------------------------------------------------------------------------------------
# M-step estimators: one small function per covariance type (eq. 198-201)


def _statistics(X: np.ndarray, gamma: np.ndarray):
    """Zero, first and second order statistics (eq. 198)."""
    Z = gamma.sum(axis=1)  # N_c = sum_i gamma_ci
    F = X @ gamma.T  # F_c = sum_i gamma_ci x_i, (D, M)
    S = np.stack([_scatter(X, g) for g in gamma])  # S_c = sum_i gamma_ci x_i x_i^T
    return Z, F, S


def _scatter(X: np.ndarray, g: np.ndarray) -> np.ndarray:
    """``(X * g) @ X.T``, the weighted scatter matrix, as one symmetric rank-N update
    ``(X sqrt(g)) (X sqrt(g))^T`` (BLAS syrk: half the work of the product, exactly symmetric)."""
    R = scipy.linalg.blas.dsyrk(1.0, (X * np.sqrt(g)).T, trans=1)  # upper triangle
    return np.triu(R) + np.triu(R, 1).T


# One estimator per covariance type: (X, gamma, N_c, mu) -> (M, D, D) covariances.


def _cov_full(X, gamma, Z, mu):
    S = np.stack([_scatter(X, g) for g in gamma])  # S_c, eq. (198)
    return S / Z[:, None, None] - np.einsum("ic,jc->cij", mu, mu)  # eq. (201): S_c/N_c - mu mu^T


def _cov_diagonal(X, gamma, Z, mu):
    var = (X * X) @ gamma.T / Z - mu * mu  # 9.4: the diagonal of eq. (201), (D, M)
    return var.T[:, :, None] * np.eye(X.shape[0])


def _cov_tied(X, gamma, Z, mu):
    # 9.4: sum_c N_c C_c / N = (sum_c S_c - sum_c N_c mu_c mu_c^T) / N, with sum_c S_c = X X^T
    C = (_scatter(X, np.ones(X.shape[1])) - (mu * Z) @ mu.T) / X.shape[1]
    return np.broadcast_to(C, (Z.size,) + C.shape).copy()


_COVARIANCE = {"full": _cov_full, "diagonal": _cov_diagonal, "tied": _cov_tied}


def _floor(C: np.ndarray, cov_type: str, psi: float | None) -> np.ndarray:
    """The eigenvalue floor of 9.4, after the diagonal or tied step."""
    if psi is None:
        return C
    if cov_type == "diagonal":  # the eigenvalues of a diagonal matrix are its diagonal
        return np.maximum(C, psi * np.eye(C.shape[1]))
    if cov_type == "tied":
        return np.broadcast_to(floor_covariance(C[0], psi), C.shape).copy()
    return np.stack([floor_covariance(Cc, psi) for Cc in C])


def _m_step(X, gamma, cov_type, psi):
    """One M-step (eq. 199-201): weights, means, covariances from the statistics."""
    Z = gamma.sum(axis=1)  # eq. (198): N_c
    empty = np.flatnonzero(Z <= 0.0)
    if empty.size:
        raise _Singular(int(empty[0]), "it is responsible for no sample (N_c = 0)", empty=True)
    N = X.shape[1]
    w = Z / N  # eq. (199): w_c = N_c / N
    mu = (X @ gamma.T) / Z  # eq. (200): mu_c = F_c / N_c
    C = _floor(_COVARIANCE[cov_type](X, gamma, Z, mu), cov_type, psi)  # eq. (201), 9.4
    return w, mu, C


def _data_scale_check(C: np.ndarray, var: np.ndarray) -> None:
    """A component variance at rounding level of the data's is a collapse (the one-pass formula
    S_c/N_c - mu mu^T cannot resolve it)."""
    v = np.diagonal(C, axis1=1, axis2=2)
    bad = v <= _SINGULAR_TOL * C.shape[1] * var
    if bad.any():
        c = int(np.argwhere(bad)[0, 0])
        raise _Singular(c, f"variance {v[c].min():.3g}, at rounding level of the data's")


# ------------------------------------------------------------------------------------------------
# EM (section 9.3)


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
    Eq. (198), section 9.3; the M-step is then :math:`w_c = N_c / N`, :math:`\mu_c = F_c / N_c`,
    :math:`C_c = S_c / N_c - \mu_c \mu_c^T` (eq. 199-201).
    """
    X = check_data(D, "D")
    G = check_data(gamma, "gamma")
    if G.shape[1] != X.shape[1]:
        raise ValueError(f"gamma has shape {G.shape} but D has {X.shape[1]} samples: expected "
                         f"(M, {X.shape[1]}), one row per component")
    if np.any(G < 0):
        raise ValueError("gamma must be non-negative (responsibilities)")
    return _statistics(X, G)


def em_step(D, gmm, cov_type: str = "full", psi: float | None = None) -> GMM:
    r"""One EM iteration from ``gmm``: E-step responsibilities, M-step re-estimation.

    Parameters
    ----------
    D : array_like, shape (D, N)
        Training samples.
    gmm : GMM or list of (w, mu, C)
        The current model.
    cov_type : {"full", "diagonal", "tied"}
        Constraint on the re-estimated covariances.
    psi : float, optional
        Eigenvalue floor applied to every re-estimated covariance (after the diagonal or tied
        step).

    Returns
    -------
    GMM
        The updated model.

    Raises
    ------
    DegenerateComponentError
        A component that receives no responsibility or whose covariance becomes singular.

    Notes
    -----
    Eq. (191) then (198)-(201), section 9.3:

    .. math::

        \gamma_{c,i} = P(c \mid x_i), \quad w_c = \frac{N_c}{N}, \quad
        \mu_c = \frac{F_c}{N_c}, \quad C_c = \frac{S_c}{N_c} - \mu_c \mu_c^T ;

    diagonal: :math:`\mathrm{diag}(C_c)`; tied: :math:`C = \sum_c N_c C_c / N`; then
    :math:`C \to U \max(\Sigma, \psi I) U^T` (9.4).
    """
    X, g = _checked_input(D, gmm)
    cov_type = _check_cov_type(cov_type)
    psi = _check_positive(psi, "psi", allow_none=True)
    try:
        gamma, _ = _posterior(_log_joint(X, g.w, g.mu, g.C))
        w, mu, C = _m_step(X, gamma, cov_type, psi)
        if psi is None:
            _data_scale_check(C, X.var(axis=1)[None, :])
            _factors(C)
    except _Singular as exc:
        raise _degenerate(exc, [], g) from None
    return GMM(w=w, mu=mu, C=C)


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


def _em(X, w, mu, C, cov_type, psi, tol, max_iter):
    """EM from (w, mu, C) until the average log-likelihood gains less than ``tol`` (9.3).

    Works on data centred at their mean (the likelihood is translation invariant), which keeps
    the one-pass second-order statistics free of cancellation. Returns the model and the average
    log-likelihood of the start and of every update.
    """
    x0 = X.mean(axis=1, keepdims=True)
    Xc = X - x0
    var = Xc.var(axis=1)[None, :]
    mu = mu - x0
    gamma, logf = _posterior(_log_joint(Xc, w, mu, C))
    history = [float(logf.mean())]
    for _ in range(max_iter):
        try:
            w1, mu1, C1 = _m_step(Xc, gamma, cov_type, psi)
            _data_scale_check(C1, var)
            gamma, logf = _posterior(_log_joint(Xc, w1, mu1, C1))
        except _Singular as exc:
            raise _degenerate(exc, history, GMM(w=w, mu=mu + x0, C=C)) from None
        w, mu, C = w1, mu1, C1
        history.append(float(logf.mean()))
        if history[-1] - history[-2] < tol:  # the course's criterion on the average ll
            break
    else:
        warnings.warn(f"EM did not converge in max_iter={max_iter} iterations (last gain of the "
                      f"average log-likelihood {history[-1] - history[-2]:.3g} >= tol={tol:g})",
                      RuntimeWarning, stacklevel=3)
    return GMM(w=w, mu=mu + x0, C=C), history


def train_gmm_em(D, gmm, cov_type: str = "full", psi: float | None = None, tol: float = 1e-6,
                 max_iter: int = 10_000) -> tuple[GMM, list[float]]:
    r"""Train a GMM by EM from the initial model ``gmm``.

    Parameters
    ----------
    D : array_like, shape (D, N)
        Training samples.
    gmm : GMM or list of (w, mu, C)
        Initial model (used as given: ``psi`` applies to the re-estimated covariances).
    cov_type : {"full", "diagonal", "tied"}
        Constraint of the M-step (see `em_step`).
    psi : float, optional
        Eigenvalue floor of every re-estimated covariance (9.4). ``None``: no floor, and a
        collapsing component raises `DegenerateComponentError`.
    tol : float
        Stop when an iteration raises the average log-likelihood :math:`\frac{1}{N}\sum_i \log
        f(x_i)` by less than ``tol`` (the course's criterion); at least one iteration is run.
    max_iter : int
        Iteration cap; reaching it warns (``RuntimeWarning``).

    Returns
    -------
    gmm : GMM
        The trained model.
    history : list of float
        Average log-likelihood of the initial model and after every iteration; EM never lets it
        decrease (the floor keeps this property: it is the constrained maximiser of the M-step).

    Raises
    ------
    DegenerateComponentError
        A component collapsed or lost every sample; ``history`` and the last valid model travel
        with the error.

    Notes
    -----
    Section 9.3, eq. (191) and (198)-(201): alternate responsibilities and re-estimation
    (`em_step`). Each iteration evaluates the joint log-densities once: they give both the new
    average log-likelihood and the next responsibilities.
    """
    X, g = _checked_input(D, gmm)
    cov_type = _check_cov_type(cov_type)
    psi = _check_positive(psi, "psi", allow_none=True)
    tol = _check_positive(tol, "tol")
    max_iter = check_int(max_iter, "max_iter", low=1)
    return _em(X, g.w, g.mu, g.C, cov_type, psi, tol, max_iter)


# ------------------------------------------------------------------------------------------------
# LBG (section 9.4)


def _split(w, mu, C, alpha):
    """Replace every component by two, at mu -+ alpha sqrt(lambda_1) u_1, with half the weight."""
    w2, mu2, C2 = [], [], []
    for c in range(w.size):
        s, U = np.linalg.eigh(C[c])
        d = U[:, -1] * np.sqrt(s[-1]) * alpha  # d = alpha sqrt(lambda_1) u_1
        w2 += [w[c] / 2, w[c] / 2]
        mu2 += [mu[:, c] - d, mu[:, c] + d]  # the course's order: mu - d, then mu + d
        C2 += [C[c], C[c]]
    return np.array(w2), np.column_stack(mu2), np.stack(C2)


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
    two new components.
    """
    g = _as_gmm(gmm)
    alpha = _check_positive(alpha, "alpha")
    w, mu, C = _split(g.w, g.mu, g.C, alpha)
    return GMM(w=w, mu=mu, C=C)


def train_gmm_lbg(D, n_components: int, cov_type: str = "full", psi: float | None = 0.01,
                  alpha: float = 0.1, tol: float = 1e-6, max_iter: int = 10_000,
                  return_history: bool = False):
    r"""Train GMMs of 1, 2, 4, ..., ``n_components`` components by LBG splitting and EM.

    Parameters
    ----------
    D : array_like, shape (D, N)
        Training samples.
    n_components : int
        Final number of components, a power of two.
    cov_type : {"full", "diagonal", "tied"}
    psi : float or None
        Eigenvalue floor (9.4), applied to the starting Gaussian too; ``None`` for none.
    alpha : float
        Split displacement (`split_gmm`).
    tol, max_iter
        EM stopping rule after each split (`train_gmm_em`).
    return_history : bool
        Also return, for every model, its EM history of average log-likelihoods.

    Returns
    -------
    models : list of GMM
        ``models[k]`` has ``2**k`` components; ``models[-1]`` has ``n_components``.
    histories : list of list of float
        Only with ``return_history=True``: ``histories[0] = [ll of the ML Gaussian]``, then the
        EM history after each split (its first value is the split model's).

    Notes
    -----
    Section 9.4: start from the ML Gaussian (`compute_mu_C`, its diagonal for ``"diagonal"``,
    floored at ``psi``), which is already the 1-component optimum; then split (`split_gmm`) and
    run EM (`train_gmm_em`) until ``n_components``.
    """
    X = check_data(D, "D")
    n_components = _check_power_of_two(n_components, "n_components")
    cov_type = _check_cov_type(cov_type)
    psi = _check_positive(psi, "psi", allow_none=True)
    alpha = _check_positive(alpha, "alpha")
    tol = _check_positive(tol, "tol")
    max_iter = check_int(max_iter, "max_iter", low=1)
    return_history = check_bool(return_history, "return_history")
    mu, C = compute_mu_C(X)
    if cov_type == "diagonal":
        C = np.diag(np.diag(C))  # the diagonal ML Gaussian (naive Bayes)
    C = _floor(C[None], cov_type, psi)  # the floor applies to the starting model too
    try:
        g = GMM(w=np.ones(1), mu=mu, C=C)
    except ValueError:
        raise DegenerateComponentError(
            "the ML Gaussian of D has a singular covariance: train with an eigenvalue floor psi "
            "or reduce the dimension with PCA first", 0) from None
    models = [g]
    histories = [[float(logpdf_GMM(X, g).mean())]]
    while g.n_components < n_components:
        w2, mu2, C2 = _split(g.w, g.mu, g.C, alpha)
        g, hist = _em(X, w2, mu2, C2, cov_type, psi, tol, max_iter)
        models.append(g)
        histories.append(hist)
    return (models, histories) if return_history else models


# ------------------------------------------------------------------------------------------------
# hard EM and K-means (section 9.2)


def _hard_em(X, w, mu, C, m_step, max_iter):
    """Hard-assignment EM (eq. 193-197): assign each sample to its best component, re-estimate
    from the hard assignments, until the assignments stop changing.

    An empty component is re-seeded with the sample its current component explains worst
    (lowest joint log-density), which is moved to it."""
    prev, history = None, []
    for _ in range(max_iter):
        S = _log_joint(X, w, mu, C)
        z = np.argmax(S, axis=0)  # eq. (192)/(193): hard assignment
        best = S[z, np.arange(z.size)]
        history.append(float(best.mean()))  # eq. (194): complete-data average log-likelihood
        if prev is not None and np.array_equal(z, prev):
            return w, mu, C, z, history
        for c in np.flatnonzero(np.bincount(z, minlength=w.size) == 0):
            worst = int(np.argmin(np.where(np.bincount(z, minlength=w.size)[z] > 1, best, np.inf)))
            z[worst] = c
            best[worst] = np.inf
        w, mu, C = m_step(X, np.eye(w.size)[:, z])  # eq. (195)-(197) on 0/1 responsibilities
        prev = z
    warnings.warn(f"hard EM did not converge in max_iter={max_iter} iterations (assignments "
                  f"still changing)", RuntimeWarning, stacklevel=3)
    return w, mu, C, z, history


def kmeans(D, init, rng: np.random.Generator | None = None, max_iter: int = 300):
    r"""Cluster the columns of D with K-means (Lloyd's algorithm).

    Parameters
    ----------
    D : array_like, shape (D, N)
    init : int or array_like, shape (D, M)
        Initial centroids, or their number M: then M distinct samples drawn with ``rng``.
    rng : numpy.random.Generator, optional
        Required when ``init`` is a number.
    max_iter : int
        Iteration cap (a ``RuntimeWarning`` if reached).

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
    if isinstance(init, Integral) and not isinstance(init, bool):
        M = check_int(init, "init", low=1, high=X.shape[1])
        if rng is None:
            raise TypeError("rng is required when init is a number of clusters: pass "
                            "numpy.random.default_rng(seed)")
        mu = X[:, np.sort(check_rng(rng).choice(X.shape[1], M, replace=False))]
    else:
        mu = check_data(init, "init", n_features=X.shape[0])
        M = mu.shape[1]
    w, C = np.full(M, 1.0 / M), np.broadcast_to(np.eye(X.shape[0]), (M, X.shape[0], X.shape[0]))

    def means_only(X, Z01):
        return w, (X @ Z01.T) / Z01.sum(axis=1), C  # mu_c = mean of cluster c

    _, mu, _, z, history = _hard_em(X, w, mu, C, means_only, max_iter)
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

    Notes
    -----
    The M-step of hard EM (eq. 195-197, section 9.2), i.e. eq. (199)-(201) with 0/1
    responsibilities; with `kmeans` the alternative initialisation of EM named in section 9.4.
    """
    X, z = check_data_labels(D, assignment, require_all=True, n_classes=n_components)
    M = int(z.max()) + 1 if n_components is None else check_int(n_components, "n_components",
                                                                 low=1)
    cov_type = _check_cov_type(cov_type)
    psi = _check_positive(psi, "psi", allow_none=True)
    try:
        w, mu, C = _m_step(X, np.eye(M)[:, z], cov_type, psi)
        _factors(C)
    except _Singular as exc:
        raise _degenerate(exc, [], None) from None
    return GMM(w=w, mu=mu, C=C)


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

    Notes
    -----
    Section 9.2, eq. (193)-(197): E-step hard assignment :math:`c_i = \arg\max_c \gamma_c(x_i)`,
    M-step the ML estimates of each cluster (weights :math:`|X_c| / N`). Stops when no assignment
    changes. Empty components are re-seeded with the worst-explained sample (see `kmeans`).
    """
    X, g = _checked_input(D, gmm)
    cov_type = _check_cov_type(cov_type)
    psi = _check_positive(psi, "psi", allow_none=True)
    max_iter = check_int(max_iter, "max_iter", low=1)

    def m_step(X, Z01):
        return _m_step(X, Z01, cov_type, psi)

    try:
        w, mu, C, z, history = _hard_em(X, g.w, g.mu, g.C, m_step, max_iter)
    except _Singular as exc:
        raise _degenerate(exc, [], g) from None
    return GMM(w=w, mu=mu, C=C), z, history


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
        return np.vstack([logsumexp(_log_joint(X, g.w, g.mu, g.C), axis=0) for g in self.gmms])

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


def _class_lbg(X, L, K, n_per_class, cov_type, psi, alpha, tol, max_iter):
    out = []
    for k in range(K):
        try:
            out.append(train_gmm_lbg(X[:, L == k], n_per_class[k], cov_type, psi, alpha, tol,
                                     max_iter))
        except DegenerateComponentError as exc:
            raise DegenerateComponentError(f"class {k}: {exc}", exc.component, exc.history,
                                           exc.gmm) from None
    return out


def train_gmm_classifier(D, L, n_components, cov_type: str = "full", psi: float | None = 0.01,
                         alpha: float = 0.1, tol: float = 1e-6,
                         max_iter: int = 10_000) -> GMMClassifier:
    r"""Train a GMM classifier: one LBG-trained GMM per class.

    Parameters
    ----------
    D : array_like, shape (D, N)
    L : array_like, shape (N,)
        Labels 0..K-1, every class present.
    n_components : int or sequence of K ints
        Components of each class's GMM (powers of two).
    cov_type, psi, alpha, tol, max_iter
        As in `train_gmm_lbg`.

    Returns
    -------
    GMMClassifier

    Notes
    -----
    Section 9.5, eq. (202): :math:`f(x \mid k)` is the GMM of class k; decisions combine it with
    the application's priors (`mlpr.generative.log_posteriors`), binary tasks through the llr
    (eq. 203).
    """
    X, L = check_data_labels(D, L)
    K = int(L.max()) + 1
    n = _check_components_per_class(n_components, K)
    models = _class_lbg(X, L, K, n, cov_type, psi, alpha, tol, max_iter)
    return GMMClassifier(gmms=tuple(m[-1] for m in models))


def lbg_gmm_classifiers(D, L, n_components: int, cov_type: str = "full",
                        psi: float | None = 0.01, alpha: float = 0.1, tol: float = 1e-6,
                        max_iter: int = 10_000) -> dict[int, GMMClassifier]:
    r"""The GMM classifiers of every LBG size 1, 2, 4, ..., ``n_components`` from one LBG run per
    class (the course's tables), as ``{M: GMMClassifier}``.

    Parameters and Notes as in `train_gmm_classifier` (section 9.5, eq. 202); ``result[M]`` equals
    ``train_gmm_classifier(D, L, M, ...)``.
    """
    X, L = check_data_labels(D, L)
    K = int(L.max()) + 1
    n = _check_power_of_two(n_components, "n_components")
    models = _class_lbg(X, L, K, [n] * K, cov_type, psi, alpha, tol, max_iter)
    return {2**i: GMMClassifier(gmms=tuple(m[i] for m in models)) for i in range(len(models[0]))}


@model
class OpenSetClassifier:
    r"""K known classes plus a "none of the others" class (section 9.5).

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
                              cov_type: str = "full", psi: float | None = 0.01,
                              alpha: float = 0.1, tol: float = 1e-6,
                              max_iter: int = 10_000) -> OpenSetClassifier:
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
    cov_type, psi, alpha, tol, max_iter
        As in `train_gmm_lbg`, for every GMM.

    Returns
    -------
    OpenSetClassifier

    Notes
    -----
    Section 9.5: a class that has no training labels is modelled by a broad density, a GMM of
    generic data; a sample is "none of the others" when its posterior, under K + 1 priors, is the
    largest. These likelihoods are not calibrated: the decisions are only as good as the models.
    """
    known = train_gmm_classifier(D, L, n_components, cov_type, psi, alpha, tol, max_iter)
    P = check_data(D_pool, "D_pool", n_features=known.gmms[0].n_features)
    other = train_gmm_lbg(P, n_other, cov_type, psi, alpha, tol, max_iter)[-1]
    return OpenSetClassifier(known=known, other=other)
