r"""Generative classifiers: Gaussian (MVG, naive Bayes, tied, tied naive) and discrete naive Bayes
(categorical, multinomial, Bernoulli), with posteriors and Bayes decisions (notes ch. 5).

A generative classifier models the class-conditional densities :math:`f(x \mid c)` and combines
them with the *application's* prior :math:`P(c)` through Bayes' rule:

.. math::

    P(c \mid x) = \frac{f(x \mid c) P(c)}{\sum_{c'} f(x \mid c') P(c')} .

Every model here has ``scores(D)`` returning the (K, N) matrix ``S`` of class-conditional
log-likelihoods, ``S[k, n] = log f(x_n | k)``. Priors never enter a model: they are passed to
`log_joint`, `log_posteriors` and `map_decisions` (`uniform_priors` builds the uniform one).

Gaussian models (section 5.1 of the notes), all ``GaussianClassifier`` with ``mu`` of shape (D, K):

=====================  ======================  ==========  ==================================
model                  trainer                 ``C``       covariance of class k
=====================  ======================  ==========  ==================================
MVG                    `train_mvg`             (K, D, D)   ``C[k]``, full
naive Bayes            `train_naive_bayes`     (K, D, D)   ``C[k]``, diagonal
tied                   `train_tied`            (D, D)      ``C``, full, shared (Sw)
tied naive             `train_tied_naive`      (D, D)      ``C``, diagonal, shared (diag Sw)
=====================  ======================  ==========  ==================================

Naive models store their diagonal covariances as full matrices so that ``C`` always means the
covariance of the notes (``logpdf_GAU_ND(x, mu[:, k], C[k])`` works for every per-class model);
their scores only read the diagonal. Estimates are ML (1/N_c per class, 1/N for the within-class
covariance); ``unbiased=True`` uses 1/(N_c - 1) and the pooled 1/(N - K) instead. Every
(co)variance is computed from the samples centred on their class mean, as the formula is written,
so it is accurate to rounding (about 1e-15 of its largest entry) on data far from the origin too.

Singular covariances (constant pixels of MNIST, fewer samples than features) are an error naming
the class; the remedies are PCA first, or the explicit eigenvalue floor ``psi``
(`floor_covariance`).

Discrete models (section 5.2 of the notes): `train_categorical_nb` (integer-coded features),
`train_multinomial_nb` (count vectors, e.g. word counts), `train_bernoulli_nb` (binary
features), each estimated from counts smoothed by pseudo-counts ``eps``. Independent groups of
features modelled differently are combined, under the naive assumption, by summing their score
matrices (`combine_naive_scores`).
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
import scipy.linalg
from scipy.special import gammaln, logsumexp

from .gaussian import (
    _as_real_array,
    _check_binary,
    _check_counts,
    _chol,
    _finite_result,
)
from .utils import (
    check_bool,
    check_covariance,
    check_data,
    check_data_labels,
    check_int,
    check_labels,
    model,
    vcol,
)

__all__ = [
    "GaussianClassifier",
    "train_mvg",
    "train_naive_bayes",
    "train_tied",
    "train_tied_naive",
    "floor_covariance",
    "uniform_priors",
    "log_joint",
    "log_posteriors",
    "llr",
    "map_decisions",
    "tied_linear_discriminants",
    "tied_binary_llr_coefficients",
    "mvg_binary_llr_coefficients",
    "CategoricalNaiveBayes",
    "train_categorical_nb",
    "MultinomialNaiveBayes",
    "train_multinomial_nb",
    "multinomial_binary_llr_weights",
    "BernoulliNaiveBayes",
    "train_bernoulli_nb",
    "combine_naive_scores",
]

_LOG_2PI = np.log(2.0 * np.pi)
_PRIOR_TOL = 1e-9  # tolerance on sum(priors) == 1

# Scores are computed on blocks of columns, in buffers allocated once per call: each block's
# intermediate (K*D rows for the MVG, D otherwise) stays within about _BLOCK_BYTES, and a block
# never has fewer than _MIN_BLOCK columns, so that every product remains a large matrix-matrix
# multiplication (for raw MNIST, K*D = 7840 rows, the floor wins).
_BLOCK_BYTES = 1 << 23
_MIN_BLOCK = 512

# A feature whose values spread over less than this has a variance (~ spread^2) below the normal
# range of float64: only used to explain a singular covariance (error path).
_MIN_SPREAD = 1e-150

# Categorical naive Bayes stores one (M_j, K) table per feature: codes must be consecutive
# integers 0..M_j-1, and a code of a billion is a data error (or an uncoded value), not a table.
_MAX_CODES = 1 << 20


# ------------------------------------------------------------------------------------------------
# private helpers


def _blocks(N: int, rows: int):
    """Yield column slices of at most m columns, m set by the memory budget of ``rows`` rows."""
    m = min(N, max(_MIN_BLOCK, _BLOCK_BYTES // (8 * max(rows, 1))))
    for a in range(0, N, max(m, 1)):
        yield slice(a, min(a + m, N))


def _check_psi(psi) -> float | None:
    if psi is None:
        return None
    if isinstance(psi, bool) or not isinstance(psi, Real):
        raise TypeError(f"psi must be a positive real number (an eigenvalue floor), got {psi!r}")
    psi = float(psi)
    if not (np.isfinite(psi) and psi > 0.0):
        raise ValueError(f"psi must be a finite eigenvalue floor > 0, got {psi!r}")
    return psi


def _check_eps(eps) -> float:
    if isinstance(eps, bool) or not isinstance(eps, Real):
        raise TypeError(f"eps must be a real number (a pseudo-count), got {eps!r}")
    eps = float(eps)
    if not (np.isfinite(eps) and eps >= 0.0):
        raise ValueError(f"eps must be a finite pseudo-count >= 0, got {eps!r}")
    return eps


def _class_counts(L: np.ndarray) -> np.ndarray:
    return np.bincount(L, minlength=int(L.max()) + 1)


def _onehot(L: np.ndarray, K: int) -> np.ndarray:
    """(N, K) indicator matrix of the labels, so that ``D @ Z`` sums the samples of each class."""
    Z = np.zeros((L.size, K))
    Z[np.arange(L.size), L] = 1.0
    return Z


def _log(p: np.ndarray) -> np.ndarray:
    """Elementwise log with log 0 = -inf and no divide-by-zero warning."""
    out = np.full(p.shape, -np.inf)
    np.log(p, out=out, where=p > 0.0)
    return out


def _xlogy_matmul(logP: np.ndarray, X: np.ndarray) -> np.ndarray:
    """``sum_m X[m, n] * logP[m, k]`` as a (K, N) matrix, with the convention 0 * log 0 = 0.

    ``logP`` (M, K) may hold -inf (probability 0); ``X`` (M, N) is non-negative. A positive count
    of a value of probability 0 gives -inf, without warnings or NaN.
    """
    zero = np.isneginf(logP)
    if not zero.any():
        return logP.T @ X
    S = np.where(zero, 0.0, logP).T @ X
    hits = zero.T.astype(np.float64) @ (X > 0.0)  # >0 where an impossible value was observed
    S[hits > 0.0] = -np.inf
    return S


def _singular_message(what: str, detail: str) -> str:
    return (
        f"{what} is singular{detail}, so its Gaussian density is undefined; reduce the dimension "
        f"first (e.g. fit_pca(D, m) and train on the projected data), or pass psi > 0 (e.g. "
        f"psi=1e-3) to floor its eigenvalues with floor_covariance"
    )


def _rank_detail(D: np.ndarray, L: np.ndarray, classes, where: str, dof: int, who: str) -> str:
    """Why a covariance estimated from the samples of ``classes`` is singular (error path only).

    ``dof`` is the largest rank the deviations from the class means can have (N_k - 1 for one
    class, N - K for the pooled covariance), ``who`` names those samples.
    """
    nfeat = D.shape[0]
    spread = _spread(D, L, classes)
    const = spread == 0.0
    if const.any():
        j = np.flatnonzero(const)
        return (f": {j.size} of its {nfeat} features are constant{where} (e.g. feature "
                f"{int(j[0])})")
    under = _underflow_detail(spread, np.arange(nfeat), where)
    if under:
        return under
    if dof < nfeat:
        return f": {who} span at most {dof} dimensions, fewer than its {nfeat} features"
    return " (linearly dependent features)"


def _spread(D: np.ndarray, L: np.ndarray, classes) -> np.ndarray:
    """(D,) largest range (max - min) of each feature within any of ``classes``."""
    spread = np.zeros(D.shape[0])
    for k in classes:
        spread = np.maximum(spread, np.ptp(D[:, L == k], axis=1))
    return spread


def _underflow_detail(spread: np.ndarray, j: np.ndarray, where: str) -> str:
    """Explain variances of features ``j`` that vanish because the data are too small in scale
    for float64 (error path only); empty if no feature of ``j`` is in that case."""
    under = j[(spread[j] > 0.0) & (spread[j] < _MIN_SPREAD)]
    if not under.size:
        return ""
    u = int(under[0])
    return (f": feature {u} varies by only {spread[u]:.3g}{where}, too little for its variance "
            f"to be represented in float64 (rescale the data, e.g. z-normalise with fit_znorm)")


def _check_finite_stats(D: np.ndarray, *stats: np.ndarray) -> None:
    """Refuse class means or (co)variances that overflow float64 (|x| beyond about 1e154)."""
    if not all(np.all(np.isfinite(s)) for s in stats):
        raise ValueError(
            f"the class means or covariances of D overflow float64 (largest |value| in D: "
            f"{float(np.abs(D).max()):.3g}); rescale the data first, e.g. divide by a constant or "
            f"z-normalise with fit_znorm"
        )


def _is_constant(var: np.ndarray, mu: np.ndarray) -> np.ndarray:
    """Mask of the variances of a diagonal covariance that are zero up to rounding.

    A feature whose standard deviation is at the rounding level of its own root mean square,
    ``8 eps sqrt(mu_j^2 + var_j)``, is constant as far as float64 can tell. The test is feature
    by feature, as the diagonal model is: rescaling one feature rescales its variance and leaves
    the others alone, so features of very different scales are accepted.
    """
    return var <= (8.0 * np.finfo(float).eps) ** 2 * (mu * mu + var)


# ------------------------------------------------------------------------------------------------
# covariance floor


def floor_covariance(C, psi: float) -> np.ndarray:
    r"""Clip the eigenvalues of a covariance matrix from below at ``psi``.

    Parameters
    ----------
    C : array_like, shape (D, D)
        Symmetric (positive semi-definite) covariance matrix.
    psi : float
        Floor, > 0.

    Returns
    -------
    ndarray, shape (D, D)
        ``U diag(max(s, psi)) U^T`` where ``C = U diag(s) U^T``; positive definite with smallest
        eigenvalue ``psi`` or more. When every eigenvalue of ``C`` is already at least ``psi`` a
        copy of ``C`` is returned unchanged (not a rounded reconstruction).

    Notes
    -----
    The constraint on the covariance eigenvalues the notes use for GMMs (ch. 9), here for any
    covariance that would otherwise be singular:

    .. math:: C = U \Sigma U^T \;\to\; U \max(\Sigma, \psi I) U^T .

    The floor changes ``C`` only along the directions whose variance is below ``psi``.
    """
    psi = _check_psi(psi)
    if psi is None:
        raise TypeError("psi must be a positive real number (an eigenvalue floor), got None")
    C = check_covariance(C)
    s, U = np.linalg.eigh(C)
    if s[0] >= psi:
        return C.copy()
    Cf = (U * np.maximum(s, psi)) @ U.T  # eq. C = U diag(max(s, psi)) U^T
    return 0.5 * (Cf + Cf.T)


# ------------------------------------------------------------------------------------------------
# Gaussian classifiers


@model
class GaussianClassifier:
    r"""A Gaussian generative classifier: one Gaussian class-conditional density per class.

    Attributes
    ----------
    mu : ndarray, shape (D, K)
        Class means, one column per class (``mu[:, [k]]`` is the (D, 1) mean of class k).
    C : ndarray, shape (K, D, D) or (D, D)
        Covariances: ``C[k]`` of class k for ``kind`` "mvg" and "naive", or the single covariance
        shared by all classes for "tied" and "tied_naive". Naive models hold diagonal matrices.
    Lchol : ndarray, same shape as ``C``
        Lower Cholesky factors, ``C[k] = Lchol[k] @ Lchol[k].T`` (or ``C = Lchol @ Lchol.T``),
        computed once at training so that `scores` never refactors.
    kind : {"mvg", "naive", "tied", "tied_naive"}
        The model, see the module docstring.
    """

    mu: np.ndarray
    C: np.ndarray
    Lchol: np.ndarray
    kind: str

    @property
    def n_classes(self) -> int:
        """K, the number of classes."""
        return self.mu.shape[1]

    @property
    def n_features(self) -> int:
        """D, the dimension of the samples."""
        return self.mu.shape[0]

    @property
    def tied(self) -> bool:
        """True when all classes share the covariance ``C``."""
        return self.kind in ("tied", "tied_naive")

    def covariance(self, k: int) -> np.ndarray:
        """The (D, D) covariance of class k."""
        k = check_int(k, "k", low=0, high=self.n_classes - 1)
        return self.C if self.tied else self.C[k]

    def scores(self, D) -> np.ndarray:
        r"""Class-conditional log-densities of the columns of ``D``, shape (K, N).

        Parameters
        ----------
        D : array_like, shape (D, N)
            One sample per column (a 1-D array of length D is a single sample).

        Returns
        -------
        S : ndarray, shape (K, N)
            ``S[k, n] = log N(x_n | mu_k, C_k)``.

        Notes
        -----
        .. math::

            \log \mathcal{N}(x \mid \mu_k, C_k) = -\frac{D}{2}\log 2\pi
                - \frac{1}{2}\log|C_k| - \frac{1}{2}(x - \mu_k)^T C_k^{-1} (x - \mu_k)

        Samples and means are first shifted by the mean of the class means, which leaves the
        distances unchanged and keeps the expansions below free of cancellation. Then

        * MVG: with :math:`W_k = L_k^{-1}` the distance is :math:`\|W_k x - W_k \mu_k\|^2`;
          the K blocks :math:`[W_k, -W_k\mu_k]` are stacked into one (K D, D + 1) matrix and
          multiply the block of samples with a row of ones appended, so that one product
          whitens and centres every sample for all classes.
        * tied: the data are whitened once, :math:`y = L^{-1} x`, :math:`m_k = L^{-1}\mu_k`, and
          :math:`\|y - m_k\|^2 = \|y\|^2 - 2 m_k^T y + \|m_k\|^2` needs one (K, D) x (D, N)
          product.
        * naive and tied naive: with :math:`\lambda_{kj} = 1/\sigma^2_{kj}`,
          :math:`\sum_j \lambda_{kj}(x_j - \mu_{kj})^2 = \lambda_k^T (x \odot x)
          - 2 (\mu_k \odot \lambda_k)^T x + \mu_k^T (\mu_k \odot \lambda_k)`: two (K, D) x
          (D, N) products.
        """
        # NaN or inf in D shows in the (K, N) scores, which are checked instead of D itself
        X = check_data(D, n_features=self.n_features, allow_1d=True, check_finite=False)
        x0 = vcol(self.mu.mean(axis=1))  # reference point: distances do not depend on it
        M = self.mu - x0
        with np.errstate(invalid="ignore", over="ignore"):
            if self.kind in ("naive", "tied_naive"):
                var = np.diagonal(self.C, axis1=-2, axis2=-1)
                var = np.broadcast_to(var.T if var.ndim == 2 else vcol(var), M.shape)  # (D, K)
                S = _scores_diag(X, x0, M, var)
            elif self.kind == "tied":
                S = _scores_tied(X, x0, M, self.Lchol)
            else:
                S = _scores_full(X, x0, M, self.Lchol)
        return _finite_result(S, X, "D")


def _centred_block(
    X: np.ndarray, x0: np.ndarray, sl: slice, buf: np.ndarray, ones_row: bool = False
) -> np.ndarray:
    """``X[:, sl] - x0`` written into ``buf``, laid out like X (a contiguous copy).

    With ``ones_row`` a last row of ones is appended, shape (D + 1, m), so that a product with
    ``[W, -c]`` computes ``W z - c`` in the same pass.
    """
    nfeat = X.shape[0]
    rows = nfeat + 1 if ones_row else nfeat
    k = sl.stop - sl.start
    order = "F" if X.flags.f_contiguous and not X.flags.c_contiguous else "C"
    Z = buf[: rows * k].reshape((rows, k), order=order)
    np.subtract(X[:, sl], x0, out=Z[:nfeat])
    if ones_row:
        Z[nfeat] = 1.0
    return Z


def _tri_inv(Lk: np.ndarray) -> np.ndarray:
    """Inverse of a lower-triangular factor with a positive diagonal (LAPACK trtri, D^3/3 flops)."""
    W, info = scipy.linalg.lapack.dtrtri(Lk, lower=1)
    if info != 0:  # cannot happen for the factors _chol validates
        raise np.linalg.LinAlgError(f"triangular factor is singular (trtri info {info})")
    return W


def _scores_full(X, x0, M, Lchol) -> np.ndarray:
    """MVG scores: one (K D, D + 1) x (D + 1, m) product per block of m samples, all classes."""
    nfeat, N = X.shape
    K = M.shape[1]
    # inverse triangular factors (not inverse covariances): a product with them is faster than a
    # triangular solve with many right-hand sides and as accurate; their cost, K D^3/3, is
    # negligible next to the K D^2 N of the scores
    Wc = np.empty((K * nfeat, nfeat + 1))
    for k in range(K):
        Wk = _tri_inv(Lchol[k])
        Wc[k * nfeat : (k + 1) * nfeat, :nfeat] = Wk  # L_k^{-1}
        Wc[k * nfeat : (k + 1) * nfeat, nfeat] = -(Wk @ M[:, k])  # -L_k^{-1} mu_k
    logdet = 2.0 * np.log(np.diagonal(Lchol, axis1=1, axis2=2)).sum(axis=1)  # log|C_k|
    const = vcol(-0.5 * (nfeat * _LOG_2PI + logdet))
    S = np.empty((K, N))
    blocks = list(_blocks(N, K * nfeat))
    m = blocks[0].stop - blocks[0].start
    zbuf, ybuf = np.empty((nfeat + 1) * m), np.empty(K * nfeat * m)
    for sl in blocks:
        k = sl.stop - sl.start
        Z = _centred_block(X, x0, sl, zbuf, ones_row=True)
        Y = ybuf[: K * nfeat * k].reshape(K * nfeat, k)
        np.matmul(Wc, Z, out=Y)  # eq. y = L_k^{-1} x - L_k^{-1} mu_k, all classes at once
        Y3 = Y.reshape(K, nfeat, k)
        np.einsum("kdn,kdn->kn", Y3, Y3, out=S[:, sl])  # eq. (x-mu_k)^T C_k^-1 (x-mu_k) = |y|^2
    S *= -0.5
    S += const  # eq. log N = -D/2 log 2pi - 1/2 log|C_k| - 1/2 distance
    return S


def _scores_tied(X, x0, M, Lchol) -> np.ndarray:
    """Tied scores: whiten the data once, then one (K, D) x (D, m) product per block."""
    nfeat, N = X.shape
    K = M.shape[1]
    W = _tri_inv(Lchol)
    Mw = W @ M  # eq. m_k = L^{-1} mu_k
    logdet = 2.0 * np.log(np.diag(Lchol)).sum()
    const = vcol(-0.5 * (nfeat * _LOG_2PI + logdet) - 0.5 * np.sum(Mw * Mw, axis=0))
    S = np.empty((K, N))
    blocks = list(_blocks(N, nfeat))
    m = blocks[0].stop - blocks[0].start
    zbuf, ybuf = np.empty(nfeat * m), np.empty(nfeat * m)
    for sl in blocks:
        k = sl.stop - sl.start
        Z = _centred_block(X, x0, sl, zbuf)
        Y = ybuf[: nfeat * k].reshape(nfeat, k)
        np.matmul(W, Z, out=Y)  # eq. y = L^{-1} x
        np.matmul(Mw.T, Y, out=S[:, sl])  # eq. m_k^T y
        S[:, sl] -= 0.5 * np.einsum("dn,dn->n", Y, Y)  # eq. -1/2 ||y||^2
    S += const  # eq. -1/2 ||y - m_k||^2 = m_k^T y - 1/2 ||y||^2 - 1/2 ||m_k||^2
    return S


def _scores_diag(X, x0, M, var) -> np.ndarray:
    """Naive Bayes scores: two (K, D) x (D, m) products per block, no loop over classes."""
    nfeat, N = X.shape
    K = M.shape[1]
    lam = 1.0 / var  # (D, K) precisions
    lam_mu = M * lam
    const = vcol(
        -0.5 * (nfeat * _LOG_2PI + np.log(var).sum(axis=0)) - 0.5 * np.sum(M * lam_mu, axis=0)
    )  # eq. -1/2 sum_j log(2 pi var_kj) - 1/2 sum_j mu_kj^2 / var_kj
    S = np.empty((K, N))
    blocks = list(_blocks(N, nfeat))
    m = blocks[0].stop - blocks[0].start
    zbuf, sqbuf = np.empty(nfeat * m), np.empty(nfeat * m)
    for sl in blocks:
        Z = _centred_block(X, x0, sl, zbuf)
        Z2 = sqbuf[: Z.size].reshape(Z.shape)
        np.multiply(Z, Z, out=Z2)
        np.matmul(lam_mu.T, Z, out=S[:, sl])  # eq. sum_j mu_kj x_j / var_kj
        S[:, sl] -= 0.5 * (lam.T @ Z2)  # eq. -1/2 sum_j x_j^2 / var_kj
    S += const
    return S


# One ML estimator per covariance kind (section 5.1 of the notes). Each takes Z, the (D, N_c)
# samples of one class, as a copy of its own that it centres in place, and returns the class
# mean and its covariance (full) or variances (diagonal). Centring before any product keeps the
# estimates accurate to rounding on data far from the origin.


def _ml_full(Z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """mu_c (D,) and C_c = 1/N_c sum_i (x_i - mu_c)(x_i - mu_c)^T, (D, D)."""
    mu = Z.mean(axis=1)  # eq. mu_c = 1/N_c sum_{i in c} x_i
    Z -= mu[:, None]
    return mu, (Z @ Z.T) / Z.shape[1]  # eq. C_c = 1/N_c sum_{i in c} (x_i - mu_c)(x_i - mu_c)^T


def _ml_diagonal(Z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """mu_c (D,) and the variances sigma^2_cj = 1/N_c sum_i (x_ij - mu_cj)^2, (D,)."""
    mu = Z.mean(axis=1)  # eq. mu_c = 1/N_c sum_{i in c} x_i
    Z -= mu[:, None]
    return mu, np.einsum("dn,dn->d", Z, Z) / Z.shape[1]  # eq. diag(C_c)


def _class_stats(D: np.ndarray, L: np.ndarray, diagonal: bool):
    """Per-class means (D, K), ML covariances (K, D, D) or variances (K, D), and counts (K,)."""
    K = int(L.max()) + 1
    nfeat = D.shape[0]
    n = _class_counts(L)
    mu = np.empty((nfeat, K))
    second = np.empty((K, nfeat)) if diagonal else np.empty((K, nfeat, nfeat))
    estimate = _ml_diagonal if diagonal else _ml_full
    for k in range(K):
        mu[:, k], second[k] = estimate(D[:, L == k])  # boolean indexing: a copy of class k
    return mu, second, n


def _check_per_class_counts(n: np.ndarray, model: str) -> None:
    bad = np.flatnonzero(n < 2)
    if bad.size:
        k = int(bad[0])
        raise ValueError(
            f"class {k} has {int(n[k])} sample{'s' if n[k] != 1 else ''}: the {model} estimates "
            f"a covariance for each class, which needs at least 2 samples per class (with one "
            f"sample it is zero); collect more data for class {k} or use a tied model"
        )


def _train_gaussian(D, L, kind: str, unbiased, psi) -> GaussianClassifier:
    D, L = check_data_labels(D, L)
    unbiased = check_bool(unbiased, "unbiased")
    psi = _check_psi(psi)
    nfeat, N = D.shape
    names = {"mvg": "MVG model", "naive": "naive Bayes Gaussian model"}
    diagonal = kind in ("naive", "tied_naive")
    n = _class_counts(L)
    K = n.size
    if kind in names:
        _check_per_class_counts(n, names[kind])
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is reported just below
        mu, second, n = _class_stats(D, L, diagonal)
    _check_finite_stats(D, mu, second)

    if kind in ("tied", "tied_naive"):
        if unbiased and N <= K:
            raise ValueError(
                f"the unbiased pooled covariance divides by N - K, but D has N = {N} samples for "
                f"K = {K} classes; use unbiased=False"
            )
        w = n / N if not unbiased else n / (N - K)
        with np.errstate(over="ignore", invalid="ignore"):
            Sw = np.tensordot(w, second, axes=1)  # eq. Sw = 1/N sum_k N_k C_k (or 1/(N-K))
        _check_finite_stats(D, Sw)
        if diagonal:
            var = np.maximum(Sw, psi) if psi is not None else Sw
            tiny = _is_constant(var, np.abs(mu).max(axis=1))
            if tiny.any():
                j = np.flatnonzero(tiny)
                spread = _spread(D, L, range(K))
                detail = _underflow_detail(spread, j, " within every class") or (
                    f": feature {int(j[0])} has zero within-class variance (constant within every "
                    f"class{'' if spread[j[0]] == 0.0 else ', up to rounding'})"
                )
                raise ValueError(_singular_message(
                    "the within-class covariance C (shared by all classes)", detail
                ))
            return GaussianClassifier(mu=mu, C=np.diag(var), Lchol=np.diag(np.sqrt(var)),
                                      kind=kind)
        C = floor_covariance(Sw, psi) if psi is not None else 0.5 * (Sw + Sw.T)
        try:
            Lc = _chol(C, "C")
        except ValueError:
            raise ValueError(_singular_message(
                "the within-class covariance C (shared by all classes)",
                _rank_detail(D, L, range(K), " within every class", N - K,
                             f"{N} samples in {K} classes"),
            )) from None
        return GaussianClassifier(mu=mu, C=C, Lchol=Lc, kind=kind)

    scale = n / (n - 1.0) if unbiased else np.ones(K)
    if diagonal:
        var = second * vcol(scale)  # (K, D)
        if psi is not None:
            var = np.maximum(var, psi)  # floor_covariance of a diagonal matrix
        for k in range(K):
            tiny = _is_constant(var[k], mu[:, k])
            if tiny.any():
                j = np.flatnonzero(tiny)
                detail = _underflow_detail(_spread(D, L, [k]), j, f" in class {k}") or (
                    f": {j.size} of its {nfeat} features have zero variance (constant, up to "
                    f"rounding) in class {k} (e.g. feature {int(j[0])})"
                )
                raise ValueError(_singular_message(f"the covariance of class {k} (C[{k}])", detail))
        C = np.zeros((K, nfeat, nfeat))
        idx = np.arange(nfeat)
        C[:, idx, idx] = var
        Lc = np.zeros_like(C)
        Lc[:, idx, idx] = np.sqrt(var)
        return GaussianClassifier(mu=mu, C=C, Lchol=Lc, kind=kind)

    C = second * scale[:, None, None]
    Lc = np.empty_like(C)
    for k in range(K):
        if psi is not None:
            C[k] = floor_covariance(C[k], psi)
        try:
            Lc[k] = _chol(C[k], f"C[{k}]")  # one Cholesky per class, reused by every scores()
        except ValueError:
            raise ValueError(_singular_message(
                f"the covariance of class {k} (C[{k}], from {int(n[k])} samples)",
                _rank_detail(D, L, [k], f" in class {k}", int(n[k]) - 1,
                             f"its {int(n[k])} samples"),
            )) from None
    return GaussianClassifier(mu=mu, C=C, Lchol=Lc, kind=kind)


# the four Gaussian trainers share their parameters, return value and errors
_TRAINER_DOC = """Parameters
    ----------
    D : array_like, shape (D, N)
        Training data, one sample per column.
    L : array_like, shape (N,)
        Labels 0..K-1, every class present.
    unbiased : bool, default False
        False: ML estimates (1/N_c, or 1/N for the pooled within-class covariance). True: the
        unbiased 1/(N_c - 1), or 1/(N - K) for the pooled covariance.
    psi : float, optional
        Eigenvalue floor, applied after the estimate (`floor_covariance`; for a diagonal
        covariance, ``max(var, psi)``). Off by default: a singular covariance is an error.

    Returns
    -------
    GaussianClassifier

    Raises
    ------
    ValueError
        Transposed data ("did you mean D.T?"), a class without samples, a singular covariance
        (the message names the class and suggests PCA or ``psi``).%s"""


def _trainer_doc(also: str = ""):
    """Fill the shared ``%(trainer)s`` section of a Gaussian trainer's docstring."""
    extra = f"\n        Also: {also}." if also else ""

    def fill(fn):
        if fn.__doc__:  # None under python -OO
            fn.__doc__ = fn.__doc__.replace("%(trainer)s", _TRAINER_DOC % extra)
        return fn

    return fill


@_trainer_doc("a class with fewer than 2 samples")
def train_mvg(D, L, *, unbiased: bool = False, psi: float | None = None) -> GaussianClassifier:
    r"""Train the multivariate Gaussian (MVG) classifier: a full covariance for each class.

    %(trainer)s

    Notes
    -----
    ML estimates of section 5.1 of the notes, one Gaussian per class c with its :math:`N_c`
    samples:

    .. math::

        \mu_c = \frac{1}{N_c}\sum_{i \mid c_i = c} x_i, \qquad
        C_c = \frac{1}{N_c}\sum_{i \mid c_i = c} (x_i - \mu_c)(x_i - \mu_c)^T .
    """
    return _train_gaussian(D, L, "mvg", unbiased, psi)


@_trainer_doc(
    "a class with fewer than 2 samples, a feature constant within a class"
)
def train_naive_bayes(
    D, L, *, unbiased: bool = False, psi: float | None = None
) -> GaussianClassifier:
    r"""Train the naive Bayes Gaussian classifier: a diagonal covariance for each class.

    %(trainer)s

    Notes
    -----
    The features are assumed independent given the class, so the covariance of class c is the
    diagonal of the MVG one, :math:`C_c = \operatorname{diag}(\sigma^2_{c1}, \dots,
    \sigma^2_{cD})`, and the class-conditional density is a product of 1-D Gaussians:

    .. math::

        \log f(x \mid c) = \sum_{j=1}^D \log \mathcal{N}(x_j \mid \mu_{cj}, \sigma^2_{cj}),
        \qquad \sigma^2_{cj} = \frac{1}{N_c}\sum_{i \mid c_i = c} (x_{ij} - \mu_{cj})^2 .
    """
    return _train_gaussian(D, L, "naive", unbiased, psi)


@_trainer_doc()
def train_tied(D, L, *, unbiased: bool = False, psi: float | None = None) -> GaussianClassifier:
    r"""Train the tied Gaussian classifier: class means, one covariance shared by all classes.

    %(trainer)s

    Notes
    -----
    The shared covariance is the within-class covariance of LDA (`mlpr.dimred.compute_Sw_Sb`):

    .. math::

        C = \frac{1}{N}\sum_{c=1}^K \sum_{i \mid c_i = c} (x_i - \mu_c)(x_i - \mu_c)^T
          = \frac{1}{N}\sum_{c} N_c C_c ,

    or :math:`\frac{1}{N - K}` times the same sum with ``unbiased=True``. The log-posterior is
    then linear in x (`tied_linear_discriminants`). A class with a single sample is allowed: its
    mean is that sample and it adds nothing to the sum.
    """
    return _train_gaussian(D, L, "tied", unbiased, psi)


@_trainer_doc()
def train_tied_naive(
    D, L, *, unbiased: bool = False, psi: float | None = None
) -> GaussianClassifier:
    r"""Train the tied naive Bayes Gaussian classifier: one diagonal covariance for all classes.

    %(trainer)s

    Notes
    -----
    Both assumptions at once: the shared covariance is the diagonal of the within-class
    covariance of `train_tied`, :math:`C = \operatorname{diag}(S_W)`.
    """
    return _train_gaussian(D, L, "tied_naive", unbiased, psi)


# ------------------------------------------------------------------------------------------------
# posteriors and decisions


def uniform_priors(K: int) -> np.ndarray:
    """The uniform prior over K classes, ``np.full(K, 1 / K)``."""
    K = check_int(K, "K", low=1)
    return np.full(K, 1.0 / K)


def _check_scores(S, name: str = "S") -> np.ndarray:
    """A (K, N) score matrix: real, no NaN or +inf (-inf = probability 0 is allowed)."""
    a = _as_real_array(S, name)
    if a.ndim != 2:
        raise ValueError(
            f"{name} must be a (K, N) matrix of class scores, one row per class and one column "
            f"per sample, got shape {a.shape}"
            + ("; use vcol(s) for a single sample" if a.ndim == 1 else "")
        )
    if a.shape[0] == 0:
        raise ValueError(f"{name} has no rows (classes), shape {a.shape}")
    if np.isnan(a).any() or np.isposinf(a).any():
        raise ValueError(f"{name} contains NaN or +inf values")
    return a


def _check_priors(priors, K: int, n_samples: int | None = None) -> np.ndarray:
    """K class priors; ``n_samples`` (the columns of S) only explains a transposed S."""
    if priors is None:
        raise TypeError(
            "priors is required: the prior belongs to the application, not to the model; pass "
            "e.g. uniform_priors(K) for equal class priors"
        )
    p = _as_real_array(priors, "priors")
    if p.ndim != 1:
        raise ValueError(f"priors must be a 1-D array of K = {K} class priors, got shape {p.shape}")
    if p.size != K:
        if p.size == n_samples:
            raise ValueError(
                f"S has shape ({K}, {n_samples}) but priors has {p.size} entries: mlpr expects S "
                f"as (K, N), one row per class and one column per sample; did you mean S.T?"
            )
        raise ValueError(
            f"priors has length {p.size} but the scores have K = {K} classes (rows); pass one "
            f"prior per class"
        )
    if not np.all(np.isfinite(p)):
        raise ValueError("priors contains NaN or infinite values")
    if np.any(p < 0.0):
        raise ValueError(f"priors must be non-negative probabilities, got {p.min()!r}")
    total = p.sum()
    if abs(total - 1.0) > _PRIOR_TOL:
        raise ValueError(
            f"priors must sum to 1 (within {_PRIOR_TOL:g}), got sum {total:.12g}"
        )
    return p


def log_joint(S, priors) -> np.ndarray:
    r"""Compute the log joint densities ``log f(x, c) = S[c] + log P(c)``, shape (K, N).

    Parameters
    ----------
    S : array_like, shape (K, N)
        Class-conditional log-likelihoods (``model.scores(D)``).
    priors : array_like, shape (K,)
        Class priors: non-negative, summing to 1 (within 1e-9). A zero prior gives -inf.

    Notes
    -----
    .. math:: \log f_{X,C}(x, c) = \log f_{X \mid C}(x \mid c) + \log P(c)
    """
    S = _check_scores(S)
    p = _check_priors(priors, S.shape[0], S.shape[1])
    return S + vcol(_log(p))  # eq. log f(x, c) = log f(x|c) + log P(c)


def log_posteriors(S, priors) -> np.ndarray:
    r"""Compute the class log-posteriors ``log P(c | x)``, shape (K, N).

    Parameters
    ----------
    S : array_like, shape (K, N)
        Class-conditional log-likelihoods.
    priors : array_like, shape (K,)
        Class priors (see `log_joint`).

    Returns
    -------
    ndarray, shape (K, N)
        Each column exponentiates to a distribution over the K classes (sums to one).

    Raises
    ------
    ValueError
        Bad priors, or a sample whose joint density is zero for every class (all -inf; e.g. a
        discrete model without pseudo-counts meeting an unseen value).

    Notes
    -----
    Bayes' rule in the log domain, with the marginal computed by ``logsumexp``:

    .. math::

        \log P(c \mid x) = \log f(x, c) - \log \sum_{c'} \exp \log f(x, c') .
    """
    SJ = log_joint(S, priors)
    marg = logsumexp(SJ, axis=0, keepdims=True)  # eq. log f(x) = log sum_c f(x, c)
    dead = np.flatnonzero(np.isneginf(marg.ravel()))
    if dead.size:
        raise ValueError(
            f"sample {int(dead[0])} has joint log-density -inf for every class "
            f"({dead.size} such samples): its posterior is undefined; smooth the model (e.g. "
            f"pseudo-counts eps > 0) or check the priors"
        )
    return SJ - marg  # eq. log P(c|x) = log f(x, c) - log f(x)


def llr(S) -> np.ndarray:
    r"""Compute the log-likelihood ratio of a binary task, ``S[1] - S[0]``, shape (N,).

    Parameters
    ----------
    S : array_like, shape (2, N)
        Class-conditional log-likelihoods of class 0 (H_F) and class 1 (H_T).

    Notes
    -----
    .. math:: \mathrm{llr}(x) = \log \frac{f(x \mid 1)}{f(x \mid 0)}
    """
    S = _check_scores(S)
    if S.shape[0] != 2 and S.shape[1] == 2:
        raise ValueError(
            f"S has shape {S.shape}: llr needs the (2, N) scores of the 2 classes, one row per "
            f"class and one column per sample; did you mean S.T?"
        )
    if S.shape[0] != 2:
        raise ValueError(
            f"llr needs the scores of exactly 2 classes, S has shape {S.shape} (K = {S.shape[0]})"
        )
    if np.any(np.isneginf(S[0]) & np.isneginf(S[1])):
        raise ValueError("S has a sample with -inf scores for both classes: its llr is undefined")
    return S[1] - S[0]  # eq. llr = log f(x|1) - log f(x|0)


def map_decisions(S, priors) -> np.ndarray:
    r"""Assign each sample to its maximum a posteriori class, shape (N,).

    Parameters
    ----------
    S : array_like, shape (K, N)
        Class-conditional log-likelihoods.
    priors : array_like, shape (K,)
        Class priors (see `log_joint`).

    Returns
    -------
    ndarray of int, shape (N,)
        ``argmax_c log f(x, c)`` (ties go to the smallest class index), the decision of minimum
        error rate for these priors. For K = 2 this is the library's one rule (notes eq. 128):
        class 1 only when ``llr(x) > log(P(0) / P(1))`` strictly; a sample exactly at the
        threshold (equal joint densities) goes to class 0.

    Notes
    -----
    .. math:: c^*(x) = \arg\max_c P(c \mid x) = \arg\max_c \left[\log f(x \mid c) + \log P(c)\right]

    A sample whose joint density is zero for every class (all -inf, e.g. a discrete model
    without pseudo-counts meeting an unseen value) ties between all classes and is decided 0;
    `log_posteriors` refuses such samples.
    """
    return np.argmax(log_joint(S, priors), axis=0)  # eq. argmax_c log f(x|c) + log P(c)


# ------------------------------------------------------------------------------------------------
# closed forms


def _check_model(model, K: int | None = None, tied: bool = False, fn: str = "") -> None:
    if not isinstance(model, GaussianClassifier):
        raise TypeError(f"{fn} needs a GaussianClassifier (from train_mvg and the like), got "
                        f"{type(model).__name__}")
    if tied and not model.tied:
        raise ValueError(
            f"{fn} needs a tied model (train_tied or train_tied_naive), got kind "
            f"{model.kind!r}: with class-specific covariances the discriminant is quadratic "
            f"(see mvg_binary_llr_coefficients)"
        )
    if K is not None and model.n_classes != K:
        raise ValueError(f"{fn} needs a binary model (K = 2), got K = {model.n_classes} classes")


def tied_linear_discriminants(model: GaussianClassifier, priors) -> tuple[np.ndarray, np.ndarray]:
    r"""Compute the linear discriminants of a tied Gaussian model.

    Parameters
    ----------
    model : GaussianClassifier
        A tied model (`train_tied` or `train_tied_naive`).
    priors : array_like, shape (K,)
        Class priors.

    Returns
    -------
    A : ndarray, shape (D, K)
        ``A[:, k] = C^{-1} mu_k``.
    b : ndarray, shape (K,)
        ``b[k] = log pi_k - mu_k^T C^{-1} mu_k / 2``.

    Notes
    -----
    With a shared covariance the quadratic term of the log joint is common to all classes:

    .. math::

        \log f(x, k) = a_k^T x + b_k
            \underbrace{- \tfrac{1}{2} x^T C^{-1} x - \tfrac{D}{2}\log 2\pi
            - \tfrac{1}{2}\log|C|}_{\text{same for every class}},
        \qquad a_k = C^{-1}\mu_k, \quad b_k = \log\pi_k - \tfrac{1}{2}\mu_k^T C^{-1}\mu_k,

    so ``argmax_k (A.T @ x + b)`` are the MAP decisions and the log-posteriors are
    ``A.T @ X + b`` normalised by ``logsumexp``. ``C^{-1}`` is applied by Cholesky solves.
    """
    _check_model(model, tied=True, fn="tied_linear_discriminants")
    p = _check_priors(priors, model.n_classes)
    A = scipy.linalg.cho_solve((model.Lchol, True), model.mu)  # eq. a_k = C^{-1} mu_k
    b = _log(p) - 0.5 * np.sum(model.mu * A, axis=0)  # eq. b_k = log pi_k - mu_k^T C^-1 mu_k / 2
    return A, b


def tied_binary_llr_coefficients(model: GaussianClassifier) -> tuple[np.ndarray, float]:
    r"""Compute the linear log-likelihood ratio of a binary tied Gaussian model.

    Parameters
    ----------
    model : GaussianClassifier
        A tied model with K = 2 classes.

    Returns
    -------
    w : ndarray, shape (D,)
        ``C^{-1} (mu_1 - mu_0)``.
    c : float
        ``-(mu_1 + mu_0)^T C^{-1} (mu_1 - mu_0) / 2``.

    Notes
    -----
    .. math::

        \mathrm{llr}(x) = \log\frac{\mathcal{N}(x \mid \mu_1, C)}{\mathcal{N}(x \mid \mu_0, C)}
            = w^T x + c, \qquad w = C^{-1}(\mu_1 - \mu_0), \quad
            c = -\tfrac{1}{2}(\mu_1^T C^{-1}\mu_1 - \mu_0^T C^{-1}\mu_0)
              = -\tfrac{1}{2}(\mu_1 + \mu_0)^T w

    (the notes' :math:`x^T b + c` with :math:`b = w`). ``llr(model.scores(X)) = w @ X + c``.
    """
    _check_model(model, K=2, tied=True, fn="tied_binary_llr_coefficients")
    mu0, mu1 = model.mu[:, 0], model.mu[:, 1]
    w = scipy.linalg.cho_solve((model.Lchol, True), mu1 - mu0)  # eq. w = C^{-1}(mu_1 - mu_0)
    c = -0.5 * float((mu1 + mu0) @ w)  # eq. c = -(mu_1 + mu_0)^T w / 2
    return w, c


def mvg_binary_llr_coefficients(model: GaussianClassifier) -> tuple[np.ndarray, np.ndarray, float]:
    r"""Compute the quadratic log-likelihood ratio of a binary Gaussian model.

    Parameters
    ----------
    model : GaussianClassifier
        Any Gaussian model with K = 2 classes (for a tied one, ``A`` is zero).

    Returns
    -------
    A : ndarray, shape (D, D)
        ``-(C_1^{-1} - C_0^{-1}) / 2``, symmetric.
    b : ndarray, shape (D,)
        ``C_1^{-1} mu_1 - C_0^{-1} mu_0``.
    c : float
        ``-(mu_1^T C_1^{-1} mu_1 - mu_0^T C_0^{-1} mu_0) / 2 - (log|C_1| - log|C_0|) / 2``.

    Notes
    -----
    .. math::

        \mathrm{llr}(x) = x^T A x + x^T b + c

    The precision matrices :math:`C_k^{-1}` needed by ``A`` are obtained by Cholesky solves
    against the identity, never by ``inv``.
    """
    _check_model(model, K=2, fn="mvg_binary_llr_coefficients")
    nfeat = model.n_features
    Ls = [model.Lchol, model.Lchol] if model.tied else [model.Lchol[0], model.Lchol[1]]
    P = [scipy.linalg.cho_solve((Lk, True), np.eye(nfeat)) for Lk in Ls]  # C_k^{-1}
    Pmu = [scipy.linalg.cho_solve((Ls[k], True), model.mu[:, k]) for k in range(2)]
    logdet = [2.0 * np.log(np.diag(Lk)).sum() for Lk in Ls]
    A = -0.5 * (P[1] - P[0])  # eq. A = -(C_1^-1 - C_0^-1) / 2
    A = 0.5 * (A + A.T)
    b = Pmu[1] - Pmu[0]  # eq. b = C_1^-1 mu_1 - C_0^-1 mu_0
    c = (-0.5 * (model.mu[:, 1] @ Pmu[1] - model.mu[:, 0] @ Pmu[0])
         - 0.5 * (logdet[1] - logdet[0]))  # eq. c
    return A, b, float(c)


# ------------------------------------------------------------------------------------------------
# discrete naive Bayes


def _labels_for(X: np.ndarray, L) -> np.ndarray:
    """Validate the labels of already validated data X (D, N); explains a transposed X."""
    return check_labels(L, X.shape[1], require_all=True, data_shape=X.shape)


def _check_codes(D, name: str = "D", n_features: int | None = None) -> np.ndarray:
    """Integer codes >= 0 in a (F, N) matrix; returned as int64."""
    X = check_data(D, name, n_features=n_features, allow_1d=n_features is not None)
    bad = (X < 0) | (X != np.rint(X))
    if bad.any():
        j, i = np.argwhere(bad)[0]
        raise ValueError(
            f"{name} must hold integer codes 0..M_j-1 of categorical features, got {X[j, i]:g} "
            f"(feature {j}, sample {i})"
        )
    if X.size and X.max() >= _MAX_CODES:
        j, i = np.argwhere(X >= _MAX_CODES)[0]
        raise ValueError(
            f"{name} has code {X[j, i]:.6g} (feature {j}, sample {i}): categorical codes must be "
            f"consecutive integers 0..M_j-1 (M_j at most {_MAX_CODES}), one table row per value; "
            f"re-code the feature, e.g. numpy.unique(x, return_inverse=True)[1]"
        )
    return X.astype(np.int64)


def _check_n_values(n_values, X: np.ndarray) -> np.ndarray:
    F = X.shape[0]
    seen = X.max(axis=1) + 1
    if n_values is None:
        return seen
    if isinstance(n_values, Integral) and not isinstance(n_values, bool):
        M = np.full(F, check_int(n_values, "n_values", low=1, high=_MAX_CODES))
    else:
        M = np.asarray(n_values)
        if M.ndim != 1 or M.size != F or not np.issubdtype(M.dtype, np.integer):
            raise ValueError(
                f"n_values must be an int or a sequence of {F} ints (one per feature), got "
                f"{n_values!r}"
            )
        if np.any(M < 1):
            raise ValueError(f"n_values must be >= 1, got {M.min()}")
        M = M.astype(np.int64)
    if M.max() > _MAX_CODES:
        raise ValueError(
            f"n_values must be at most {_MAX_CODES} (one table row per value), got "
            f"{int(M.max())}: categorical codes must be consecutive integers 0..M_j-1"
        )
    over = np.flatnonzero(seen > M)
    if over.size:
        j = int(over[0])
        raise ValueError(
            f"feature {j} of D has code {int(seen[j] - 1)} but n_values[{j}] = {int(M[j])} (codes "
            f"0..{int(M[j]) - 1})"
        )
    return M


@model
class CategoricalNaiveBayes:
    r"""Naive Bayes over integer-coded categorical features.

    Attributes
    ----------
    pi : tuple of ndarray
        ``pi[j]`` has shape (M_j, K): column k is the distribution of feature j in class k,
        ``pi[j][m, k] = P(x_j = m | k)``.
    """

    pi: tuple

    @property
    def n_classes(self) -> int:
        return self.pi[0].shape[1]

    @property
    def n_values(self) -> np.ndarray:
        """(F,) number of values M_j of each feature."""
        return np.array([p.shape[0] for p in self.pi])

    def scores(self, D) -> np.ndarray:
        r"""Class-conditional log-probabilities of the columns of ``D`` (F, N), shape (K, N).

        Notes
        -----
        .. math:: \log P(x \mid k) = \sum_{j=1}^F \log \pi^{(j)}_{k, x_j}

        ``-inf`` (no warning) for a value of probability 0 (possible only with ``eps = 0``).
        """
        X = _check_codes(D, "D", n_features=len(self.pi))
        M = self.n_values
        over = np.flatnonzero(X.max(axis=1) >= M) if X.shape[1] else np.array([], int)
        if over.size:
            j = int(over[0])
            raise ValueError(
                f"feature {j} of D has code {int(X[j].max())} but the model knows {int(M[j])} "
                f"values 0..{int(M[j]) - 1}; pass n_values to train_categorical_nb"
            )
        S = np.zeros((self.n_classes, X.shape[1]))
        for j, pj in enumerate(self.pi):  # loop over features; vectorised over samples
            S += _log(pj)[X[j]].T  # eq. + log pi^(j)_{k, x_j}
        return S


def train_categorical_nb(D, L, n_values=None, eps: float = 0.0) -> CategoricalNaiveBayes:
    r"""Train naive Bayes on integer-coded categorical features with pseudo-counts.

    Parameters
    ----------
    D : array_like, shape (F, N)
        ``D[j, i]`` is the code 0..M_j-1 of feature j for sample i (M_j at most 2**20).
    L : array_like, shape (N,)
        Labels 0..K-1, every class present.
    n_values : int or sequence of int, optional
        M_j, the number of values of each feature (one int for all), 1 <= M_j <= 2**20.
        Default: the largest code seen in training plus one.
    eps : float, default 0
        Pseudo-count added to the count of every (value, class) pair. ``eps = 0`` is the ML
        estimate: a value never seen in class k has probability 0 and a test sample with it gets
        score -inf for class k.

    Returns
    -------
    CategoricalNaiveBayes

    Notes
    -----
    Section 5.2 of the notes, with :math:`N_{k,j,m}` the number of training samples of class k
    whose feature j equals m and :math:`N_k` the samples of class k:

    .. math:: \pi^{(j)}_{k,m} = \frac{N_{k,j,m} + \varepsilon}{N_k + M_j \varepsilon}
    """
    X = _check_codes(D)
    L = _labels_for(X, L)
    eps = _check_eps(eps)
    M = _check_n_values(n_values, X)
    K = int(L.max()) + 1
    n = _class_counts(L)
    pi = []
    for j in range(X.shape[0]):
        counts = np.bincount(X[j] * K + L, minlength=M[j] * K).reshape(M[j], K)  # N_{k,j,m}
        pi.append((counts + eps) / (n + M[j] * eps))  # eq. (N_kjm + eps) / (N_k + M_j eps)
    return CategoricalNaiveBayes(pi=tuple(pi))


@model
class MultinomialNaiveBayes:
    r"""Multinomial naive Bayes over count vectors (e.g. word counts of documents).

    Attributes
    ----------
    pi : ndarray, shape (M, K)
        Column k is the class pmf over the M values (words), summing to one.
    """

    pi: np.ndarray

    @property
    def n_classes(self) -> int:
        return self.pi.shape[1]

    def scores(self, D, *, include_coefficient: bool = False) -> np.ndarray:
        r"""Class-conditional log-probabilities of the count vectors in ``D`` (M, N), (K, N).

        Parameters
        ----------
        D : array_like, shape (M, N)
            Non-negative integer counts, one column per sample.
        include_coefficient : bool, default False
            Add the log multinomial coefficient ``log n! - sum_m log x_m!``. It is the same for
            every class, so it changes neither posteriors, llrs nor decisions, and is omitted by
            default.

        Notes
        -----
        .. math:: \log P(x \mid k) = \sum_{m=1}^M x_m \log \pi_{k,m}
                  \;\left[ + \log \frac{n!}{\prod_m x_m!} \right]

        One (K, M) x (M, N) product; ``-inf`` where a value of probability 0 has a positive
        count.
        """
        X = _check_counts(check_data(D, n_features=self.pi.shape[0], allow_1d=True), "D")
        S = _xlogy_matmul(_log(self.pi), X)  # eq. sum_m x_m log pi_km
        if check_bool(include_coefficient, "include_coefficient"):
            S += gammaln(X.sum(axis=0) + 1) - gammaln(X + 1).sum(axis=0)  # eq. log n!/prod x_m!
        return S


def train_multinomial_nb(D, L, eps: float = 0.0) -> MultinomialNaiveBayes:
    r"""Train multinomial naive Bayes on count vectors with pseudo-counts.

    Parameters
    ----------
    D : array_like, shape (M, N)
        ``D[m, i]``: how many times value (word) m occurs in sample i; non-negative integers.
    L : array_like, shape (N,)
        Labels 0..K-1, every class present.
    eps : float, default 0
        Pseudo-count added to the total count of every (value, class) pair; without it a word
        absent from the training samples of class k gives score -inf to any text containing it.

    Returns
    -------
    MultinomialNaiveBayes

    Raises
    ------
    ValueError
        Transposed data, counts that are not non-negative integers, a class whose samples have
        no counts at all (with ``eps = 0``).

    Notes
    -----
    Section 5.2 of the notes: with :math:`N_{k,m}` the total count of value m over the samples
    of class k,

    .. math:: \pi_{k,m} = \frac{N_{k,m} + \varepsilon}{\sum_{m'} N_{k,m'} + M\varepsilon}
    """
    X = _check_counts(check_data(D), "D")
    L = _labels_for(X, L)
    eps = _check_eps(eps)
    K = int(L.max()) + 1
    T = X @ _onehot(L, K)  # eq. N_km, total count of value m in class k, (M, K)
    denom = T.sum(axis=0) + X.shape[0] * eps
    empty = np.flatnonzero(denom == 0)
    if empty.size:
        raise ValueError(
            f"the samples of class {int(empty[0])} have no counts at all and eps is 0: its pmf is "
            f"undefined; use eps > 0"
        )
    return MultinomialNaiveBayes(pi=(T + eps) / denom)  # eq. (N_km + eps) / (sum N_k + M eps)


def multinomial_binary_llr_weights(model: MultinomialNaiveBayes) -> np.ndarray:
    r"""Compute the per-value weights of a binary multinomial model's llr, shape (M,).

    Returns
    -------
    b : ndarray, shape (M,)
        ``log pi_1 - log pi_0``; ``llr(model.scores(X)) = b @ X``. The values (words) with the
        largest entries are the strongest evidence for class 1, the most negative for class 0.

    Notes
    -----
    The llr is linear in the counts (the multinomial coefficient cancels):

    .. math:: \mathrm{llr}(x) = \sum_m x_m (\log\pi_{1,m} - \log\pi_{0,m}) = x^T b
    """
    if not isinstance(model, MultinomialNaiveBayes):
        raise TypeError(f"model must be a MultinomialNaiveBayes, got {type(model).__name__}")
    if model.n_classes != 2:
        raise ValueError(f"the llr needs a binary model (K = 2), got K = {model.n_classes}")
    if np.any(model.pi == 0.0):
        m = int(np.flatnonzero((model.pi == 0.0).any(axis=1))[0])
        raise ValueError(
            f"value {m} has probability 0 in a class, so its llr weight is infinite; train with "
            f"pseudo-counts eps > 0"
        )
    return np.log(model.pi[:, 1]) - np.log(model.pi[:, 0])  # eq. b = log pi_1 - log pi_0


@model
class BernoulliNaiveBayes:
    r"""Naive Bayes over binary features.

    Attributes
    ----------
    p : ndarray, shape (F, K)
        ``p[j, k] = P(x_j = 1 | k)``.
    """

    p: np.ndarray

    @property
    def n_classes(self) -> int:
        return self.p.shape[1]

    def scores(self, D) -> np.ndarray:
        r"""Class-conditional log-probabilities of the binary columns of ``D`` (F, N), (K, N).

        Notes
        -----
        .. math::

            \log P(x \mid k) = \sum_{j=1}^F x_j \log p_{kj} + (1 - x_j) \log(1 - p_{kj})

        Two (K, F) x (F, N) products, with :math:`0 \log 0 = 0`; ``-inf`` where an outcome of
        probability 0 occurs (possible only with ``eps = 0``).
        """
        X = _check_binary(check_data(D, n_features=self.p.shape[0], allow_1d=True), "D")
        return (_xlogy_matmul(_log(self.p), X)  # eq. sum_j x_j log p_kj
                + _xlogy_matmul(_log(1.0 - self.p), 1.0 - X))  # + (1 - x_j) log(1 - p_kj)


def train_bernoulli_nb(D, L, eps: float = 0.0) -> BernoulliNaiveBayes:
    r"""Train Bernoulli naive Bayes on binary features with pseudo-counts.

    Parameters
    ----------
    D : array_like, shape (F, N)
        Binary features, each 0 or 1 (booleans accepted).
    L : array_like, shape (N,)
        Labels 0..K-1, every class present.
    eps : float, default 0
        Pseudo-count added to each of the two outcomes of every feature in every class.

    Returns
    -------
    BernoulliNaiveBayes

    Notes
    -----
    With :math:`N_{k,j}` the number of samples of class k whose feature j is 1:

    .. math:: p_{kj} = \frac{N_{k,j} + \varepsilon}{N_k + 2\varepsilon}
    """
    X = _check_binary(check_data(D), "D")
    L = _labels_for(X, L)
    eps = _check_eps(eps)
    K = int(L.max()) + 1
    n = _class_counts(L)
    ones = X @ _onehot(L, K)  # eq. N_kj, (F, K)
    return BernoulliNaiveBayes(p=(ones + eps) / (n + 2.0 * eps))  # eq. (N_kj + eps)/(N_k + 2 eps)


def combine_naive_scores(*S) -> np.ndarray:
    r"""Sum the score matrices of independent groups of features, shape (K, N).

    Parameters
    ----------
    *S : array_like, each of shape (K, N)
        Class-conditional log-likelihoods of the same samples, each from a model of a different
        group of features (e.g. Gaussian for the continuous ones, categorical for the coded
        ones).

    Notes
    -----
    Under the naive assumption the groups are independent given the class:

    .. math:: \log f(x \mid k) = \sum_g \log f_g(x^{(g)} \mid k)
    """
    if not S:
        raise ValueError("combine_naive_scores needs at least one score matrix")
    packed = S[0] if len(S) == 1 else None
    if (isinstance(packed, np.ndarray) and packed.ndim == 3) or (
            isinstance(packed, (list, tuple)) and packed
            and all(isinstance(s, np.ndarray) and s.ndim == 2 for s in packed)):
        raise ValueError(
            f"S[0] holds {len(packed)} score matrices: combine_naive_scores takes the (K, N) "
            f"matrices as separate arguments; unpack them, combine_naive_scores(*S)"
        )
    mats = [_check_scores(s, f"S[{i}]") for i, s in enumerate(S)]
    for i, s in enumerate(mats[1:], start=1):
        if s.shape != mats[0].shape and s.shape == mats[0].shape[::-1]:
            raise ValueError(
                f"S[{i}] has shape {s.shape} but S[0] has shape {mats[0].shape}: every score "
                f"matrix must be (K, N), one row per class; did you mean S[{i}].T?"
            )
        if s.shape != mats[0].shape:
            raise ValueError(
                f"S[{i}] has shape {s.shape} but S[0] has shape {mats[0].shape}: every score "
                f"matrix must be (K, N) for the same classes and samples"
            )
    return np.sum(mats, axis=0)  # eq. log f(x|k) = sum_g log f_g(x_g|k)
