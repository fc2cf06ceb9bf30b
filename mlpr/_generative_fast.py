"""The fast scorers of the tied and naive Gaussian classifiers of `mlpr.generative`.

`mlpr.generative.GaussianClassifier.scores` evaluates, for each class, the Gaussian
log-density the notes write (eq. 54 with the shared covariance of eq. 69 for the tied model, the
product of 1-D Gaussians of eq. 66 for naive Bayes) with ``solver="reference"``; the functions
here compute the same (K, N) scores for all classes at once (``solver="auto"``, the default), and
`tests/test_generative.py` holds the two equal to 1e-10 relatively. What differs, and why:

* Tied (`scores_tied`): with a shared covariance the quadratic term of the log-density is the
  same for every class, so the (D, D) whitening is done once and each class adds a linear term:
  ``log N(x | mu_k, C) = log N(x | x0, C) + a_k^T (x - x0) + b_k``, ``a_k = C^{-1} (mu_k -
  x0)``, ``b_k = -1/2 (mu_k - x0)^T a_k`` (the linear discriminants of section 5.1.3).
* Diagonal (`scores_diagonal`): the sum over features of 1-D log-densities, with the squares
  expanded, ``sum_j lam_kj (z_j - m_kj)^2 = lam_k^T z^2 - 2 (lam_k m_k)^T z + m_k^T (lam_k
  m_k)``, becomes two (K, D) x (D, N) matrix products for all classes, instead of K passes
  over the (D, N) data.

Both expand around ``x0``, the mean of the class means, which keeps the numbers small, and work
one block of columns at a time (`mlpr.utils.centred_blocks`), so no (D, N) temporary is made.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg

from .gaussian import cholesky_factor, logpdf_GAU_ND_chol
from .utils import centred_blocks, vcol

_LOG_2PI = np.log(2.0 * np.pi)


def scores_tied(X: np.ndarray, mu: np.ndarray, C: np.ndarray) -> np.ndarray:
    """Tied: one Gaussian log-density plus a linear term per class, C (D, D)."""
    x0 = mu.mean(axis=1, keepdims=True)
    Lchol = cholesky_factor(C)
    A = scipy.linalg.cho_solve((Lchol, True), mu - x0)  # a_k = C^{-1} (mu_k - x0)
    b = -0.5 * np.sum((mu - x0) * A, axis=0)  # b_k = -1/2 (mu_k - x0)^T a_k
    S = np.empty((mu.shape[1], X.shape[1]))
    for sl, Z in centred_blocks(X, x0):
        np.matmul(A.T, Z, out=S[:, sl])  # a_k^T (x - x0)
    S += vcol(b)  # + b_k
    S += logpdf_GAU_ND_chol(X, x0, Lchol)  # + log N(x | x0, C)
    return S


def scores_diagonal(X: np.ndarray, mu: np.ndarray, var: np.ndarray) -> np.ndarray:
    """Naive kinds: sum over features of 1-D Gaussian log-densities, var (K, D) or (D,).

    sum_j log N(x_j | mu_kj, var_kj) = -1/2 sum_j [log(2 pi var_kj) + lam_kj (x_j - mu_kj)^2]
    with lam = 1 / var; z = x - x0, m_k = mu_k - x0."""
    x0 = mu.mean(axis=1, keepdims=True)
    M = mu - x0  # m_k, (D, K)
    var = np.broadcast_to(var.T if var.ndim == 2 else vcol(var), M.shape)  # (D, K)
    lam = 1.0 / var
    S = np.empty((mu.shape[1], X.shape[1]))
    for sl, Z in centred_blocks(X, x0):  # z = x - x0
        np.matmul((lam * M).T, Z, out=S[:, sl])  # (lam_k m_k)^T z
        np.square(Z, out=Z)  # z^2, in the block's own buffer
        S[:, sl] -= (0.5 * lam).T @ Z  # - 1/2 lam_k^T z^2
    S += vcol(-0.5 * np.sum(_LOG_2PI + np.log(var) + M * M * lam, axis=0))
    return S  # - 1/2 sum_j [log(2 pi var_kj) + lam_kj m_kj^2]
