"""The fast EM step of `mlpr.gmm`: the same E-step and M-step statistics, arranged for speed.

`mlpr.gmm.em_step` shows the E-step (eq. 191) and the statistics N_c, F_c, S_c of the M-step
(eq. 199-201) as the notes write them (``solver="reference"``); this module computes the same
numbers (``solver="auto"``, the default of `em_step`, `train_gmm_em` and `train_gmm_lbg`), and
`tests/test_gmm.py` holds the two equal to 1e-10 relatively. What differs, and why:

* E-step (`posterior`): one exponential serves both the responsibilities and the log-density
  (the logsumexp written out around the per-sample maximum) instead of a logsumexp followed by a
  second exponential.
* Joint log-densities of full covariances (`log_joint_full`): the same operations as
  `mlpr.gaussian.logpdf_GAU_ND_chol` (Cholesky factor, its inverse, the centred data whitened
  in place by BLAS ``trmm``, the squared norms), hence the same numbers, without what the public
  path adds around them on every EM iteration: a model per iteration, the validation of every
  covariance (symmetry, finiteness), of the data and of the result, and a new work buffer per
  component (one (D, N) buffer here serves all M). EM's own checks (`mlpr.gmm._check_components`
  before, `mlpr.gmm._check_factors` on a failed factor) stay with the caller.
* Full covariances (`_cov_full`): ``S_c = (X sqrt(gamma_c)) (X sqrt(gamma_c))^T`` as one BLAS
  ``dsyrk`` (a symmetric rank-N update: half the flops of the product ``(X * gamma_c) @ X.T``,
  and exactly symmetric), with one (D, N) work buffer reused by the M components.
* Diagonal covariances: ``X * X`` computed once per EM run (it does not depend on the
  responsibilities), then one (M, N) x (N, D) product for all components.
* Tied covariances: ``sum_c S_c = X X^T`` computed once per EM run (``sum_c gamma_c,i = 1``),
  so the tied step needs no per-component scatter at all.

The statistics that do not depend on the responsibilities are kept in ``cache``, a dict the
caller creates once per EM run on one data matrix.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.linalg.blas
import scipy.linalg.lapack

_LOG_2PI = np.log(2.0 * np.pi)


def log_joint_full(X: np.ndarray, w: np.ndarray, mu: np.ndarray, C: np.ndarray,
                   singular_tol: float) -> np.ndarray:
    """(M, N) joint log-densities ``log w_c + log N(x | mu_c, C_c)`` (eq. 190) of X (D, N) for
    full covariances C (M, D, D), as `mlpr.gaussian.logpdf_GAU_ND_chol` computes each density.

    Raises ``numpy.linalg.LinAlgError`` for a covariance that `mlpr.gaussian.cholesky_factor`
    would refuse (no factor, or a pivot ``L_ii^2 / C_ii <= singular_tol * D``): the caller
    names the component."""
    D, N = X.shape
    S = np.empty((w.size, N))
    buf = np.empty_like(X)  # x - mu_c, then L_c^{-1} (x - mu_c), for every component in turn
    with np.errstate(divide="ignore"):  # a weight of 0 is a component that never fires
        log_w = np.log(w)
    for c in range(w.size):
        L = scipy.linalg.cholesky(C[c], lower=True, check_finite=False)  # C_c = L L^T
        if (np.diag(L) ** 2 / np.diag(C[c])).min() <= singular_tol * D:
            raise np.linalg.LinAlgError(f"component {c}: singular covariance")
        Winv, _ = scipy.linalg.lapack.dtrtri(L, lower=1)  # L^{-1}
        np.subtract(X, mu[:, c : c + 1], out=buf)  # z = x - mu_c
        Y = _times_lower_in_place(Winv, buf)  # y = L^{-1} z
        np.einsum("ij,ij->j", Y, Y, out=S[c])  # ||y||^2, the Mahalanobis distance
        logdet = 2.0 * np.log(np.diag(L)).sum()  # log|C_c| = 2 sum_i log L_ii
        S[c] = -0.5 * D * _LOG_2PI - 0.5 * logdet - 0.5 * S[c]  # log N(x | mu_c, C_c)
    return log_w[:, None] + S  # eq. (190)


def _times_lower_in_place(W: np.ndarray, Z: np.ndarray) -> np.ndarray:
    """W @ Z for a lower-triangular W (D, D), written over the contiguous Z (D, N) (BLAS trmm;
    a C-ordered Z is the column-major Z^T, hence the product from the right, Z^T W^T)."""
    if Z.flags.f_contiguous:
        return scipy.linalg.blas.dtrmm(1.0, W, Z, lower=1, overwrite_b=1)
    return scipy.linalg.blas.dtrmm(1.0, W, Z.T, side=1, lower=1, trans_a=1, overwrite_b=1).T


def posterior(S: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Responsibilities (eq. 191) and log-densities (eq. 188) of the (M, N) joint log-densities.

    With ``m = max_c S_c``: ``f(x) = e^m sum_c e^(S_c - m)`` and ``gamma_c = e^(S_c - m) /
    sum_c' e^(S_c' - m)``, one exponential for both."""
    m = S.max(axis=0)
    E = np.exp(S - m)
    total = E.sum(axis=0)
    return E / total, m + np.log(total)


def scatter(X: np.ndarray, g: np.ndarray | None = None, buf: np.ndarray | None = None):
    """``sum_i g_i x_i x_i^T = (X * g) @ X.T`` (``X @ X.T`` without ``g``), as one symmetric
    rank-N update ``(X sqrt(g)) (X sqrt(g))^T`` (BLAS syrk, upper triangle mirrored);
    ``buf``, shaped like X, holds ``X sqrt(g)``."""
    Xg = X if g is None else np.multiply(X, np.sqrt(g), out=buf)
    R = scipy.linalg.blas.dsyrk(1.0, Xg.T, trans=1)  # upper triangle
    return np.triu(R) + np.triu(R, 1).T


def statistics(X: np.ndarray, gamma: np.ndarray):
    """N_c (M,), F_c (D, M) and S_c (M, D, D) of `mlpr.gmm.gmm_statistics`, S_c by syrk."""
    buf = np.empty_like(X)
    return gamma.sum(axis=1), X @ gamma.T, np.stack([scatter(X, g, buf) for g in gamma])


def _cov_full(X, gamma, Nc, mu, cache):
    buf = np.empty_like(X)  # one work array for the M weighted copies of X
    S = np.stack([scatter(X, g, buf) for g in gamma])  # S_c
    return S / Nc[:, None, None] - np.einsum("ic,jc->cij", mu, mu)  # S_c / N_c - mu_c mu_c^T


def _cov_diagonal(X, gamma, Nc, mu, cache):
    if "squares" not in cache:
        cache["squares"] = X * X
    return (cache["squares"] @ gamma.T / Nc - mu * mu).T  # the diagonal of S_c/N_c - mu mu^T


def _cov_tied(X, gamma, Nc, mu, cache):
    # sum_c N_c C_c / N = (sum_c S_c - sum_c N_c mu_c mu_c^T) / N, with sum_c S_c = X X^T
    if "scatter" not in cache:
        cache["scatter"] = scatter(X)
    return (cache["scatter"] - (mu * Nc) @ mu.T) / X.shape[1]


_COVARIANCE = {"full": _cov_full, "diagonal": _cov_diagonal, "tied": _cov_tied}


def m_step(X: np.ndarray, gamma: np.ndarray, Nc: np.ndarray, cov_type: str, cache: dict):
    """Weights (M,), means (D, M) and covariances in the stored form of ``cov_type`` ((M, D, D),
    (M, D) variances, or the tied (D, D)), from responsibilities with every ``Nc > 0``."""
    w = Nc / X.shape[1]  # w_c = N_c / N
    mu = (X @ gamma.T) / Nc  # mu_c = F_c / N_c
    return w, mu, _COVARIANCE[cov_type](X, gamma, Nc, mu, cache)
