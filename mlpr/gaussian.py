r"""Density estimation: Gaussian log-densities, discrete log-pmfs, ML estimates (notes ch. 4).

Continuous models
    ``logpdf_GAU_1D`` (one feature), ``logpdf_GAU_ND`` (D features, full covariance),
    ``loglikelihood``, the ML estimates ``compute_mu_C`` and the sampler ``sample_GAU_ND``.
Discrete models
    Bernoulli, binomial, categorical and multinomial log-pmfs with their ML estimates, optionally
    smoothed by pseudo-counts.

The Gaussian log-density is written once, in `_logpdf`, as the notes write it,

.. math::

    \log \mathcal{N}(x \mid \mu, C) = -\frac{D}{2} \log 2\pi - \frac{1}{2} \log |C|
        - \frac{1}{2} (x - \mu)^T C^{-1} (x - \mu),

and evaluated through the lower Cholesky factor of the covariance, :math:`C = L L^T`: the
log-determinant is :math:`2 \sum_i \log L_{ii}` and the Mahalanobis distance the squared norm
of :math:`y = L^{-1}(x - \mu)`; neither ``inv(C)`` nor ``det(C)`` is ever formed.
`_mahalanobis_sq_plain` is the textbook distance (one triangular solve); `_mahalanobis_sq`, the
one the library runs, computes the same numbers one block of columns at a time
(`mlpr.utils.centred_blocks`), whitening each block of centred samples in place, so that no
(D, N) temporary is created. Every Gaussian of mlpr goes through `logpdf_GAU_ND` or, for a
covariance factored once (`cholesky_factor`) and used on many data sets (the generative
classifiers), `logpdf_GAU_ND_chol`.

Zero counts. The ML estimate of a discrete distribution gives probability 0 to every value that
does not occur in the training data, so one unseen value in a test sample makes its log-likelihood
``-inf``. The log-pmfs return exactly that, ``-inf`` without warnings or NaN, and the ML functions
accept ``pseudo``, a count added to every value before normalising (``pseudo=1`` is Laplace
smoothing), which keeps every probability positive.

Bayesian estimation. `bernoulli_beta_posterior` replaces the point estimate of a Bernoulli
probability by a distribution over it (the notes name the Bayesian approach at the end of
section 4.5.1 and leave it out of the course; the Beta-Bernoulli formulas here are the standard
conjugate ones, not the notes'): a Beta(a, b) prior updated by the
observed outcomes into the posterior Beta(a + n1, b + n0). Its mean, the predictive probability
of the next outcome, is the pseudo-count estimate of `ml_bernoulli` with ``pseudo = a = b``:
pseudo-counts are a Beta prior, and ``pseudo=1`` is Laplace's rule of succession.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.linalg.blas
import scipy.linalg.lapack
from scipy.special import betaln, gammaln, xlog1py, xlogy

from ._validation import (
    check_array,
    check_binary_values,
    check_cholesky_factor,
    check_counts,
    check_covariance,
    check_data,
    check_finite,
    check_finite_result,
    check_finite_statistic,
    check_int,
    check_labels,
    check_mean,
    check_mean_cov,
    check_per_feature,
    check_probabilities,
    check_probability_vector,
    check_pseudo_count,
    check_real,
    check_rng,
)
from .utils import block_width, centred_blocks, model, vcol

__all__ = [
    "logpdf_GAU_1D",
    "logpdf_GAU_ND",
    "logpdf_GAU_ND_chol",
    "cholesky_factor",
    "loglikelihood",
    "compute_mu_C",
    "sample_GAU_ND",
    "logpmf_bernoulli",
    "ml_bernoulli",
    "logpdf_beta",
    "BetaBernoulliPosterior",
    "bernoulli_beta_posterior",
    "logpmf_binomial",
    "ml_binomial",
    "logpmf_categorical",
    "ml_categorical",
    "logpmf_multinomial",
    "ml_multinomial",
]

_LOG_2PI = np.log(2.0 * np.pi)
_SINGULAR_TOL = 10 * np.finfo(float).eps  # per feature; see cholesky_factor
_NAN_DENSITY = (
    "the covariance (or its Cholesky factor) is too close to singular to be evaluated in "
    "float64; add a covariance floor (C + eps * I) or reduce the dimension with PCA first"
)


def _first_bad(a: np.ndarray, bad: np.ndarray) -> float:
    """The first value of ``a`` flagged by the boolean mask ``bad`` (for error messages)."""
    return float(a[bad].ravel()[0])


# ------------------------------------------------------------------------------------------------
# the Gaussian log-density: one core, one fast path


def _logpdf(X: np.ndarray, mu: np.ndarray, Lchol: np.ndarray) -> np.ndarray:
    """log N(x | mu, C) of the columns of X (D, N), C = Lchol Lchol^T; inputs validated."""
    D = X.shape[0]
    logdet = 2.0 * np.log(np.diag(Lchol)).sum()  # log|C| = 2 sum_i log L_ii
    return -0.5 * D * _LOG_2PI - 0.5 * logdet - 0.5 * _mahalanobis_sq(X, mu, Lchol)


def _mahalanobis_sq_plain(X: np.ndarray, mu: np.ndarray, Lchol: np.ndarray) -> np.ndarray:
    """The reference: (x - mu)^T C^{-1} (x - mu) = ||y||^2 with y = L^{-1} (x - mu), (N,)."""
    Y = scipy.linalg.solve_triangular(Lchol, X - mu, lower=True)  # y = L^{-1} (x - mu)
    return np.sum(Y * Y, axis=0)  # ||y||^2


def _mahalanobis_sq(X: np.ndarray, mu: np.ndarray, Lchol: np.ndarray,
                    max_cols: int = 1 << 14) -> np.ndarray:
    """`_mahalanobis_sq_plain` one block of columns at a time, the same numbers to rounding.

    Each block is centred into the one work buffer of `centred_blocks`, z = x - mu, and whitened
    there in place, y = L^{-1} z, by a triangular product with the inverse factor (BLAS trmm,
    D^2 N flops in all, half those of a full product, and faster than a triangular solve with
    many right-hand sides); the inverse of L costs D^3 / 3, negligible next to it. The centring
    comes first: L^{-1} x - L^{-1} mu would cancel on data far from the origin.
    """
    W, info = scipy.linalg.lapack.dtrtri(Lchol, lower=1)  # W = L^{-1}
    if info != 0:  # cannot happen for a factor with a positive diagonal
        raise ValueError("the Cholesky factor is singular (a zero on its diagonal)")
    out = np.empty(X.shape[1])
    for sl, Z in centred_blocks(X, mu, max_cols=max_cols):  # Z = x - mu, the block's columns
        Y = _times_lower_in_place(W, Z)  # y = L^{-1} (x - mu)
        np.einsum("ij,ij->j", Y, Y, out=out[sl])  # ||y||^2
    return out


def _times_lower_in_place(W: np.ndarray, Z: np.ndarray) -> np.ndarray:
    """W @ Z for a lower-triangular W (D, D), written over the contiguous block Z (D, m).

    BLAS sees a C-ordered Z as the column-major (m, D) matrix Z^T, hence the product from
    the right, Z^T W^T, in that case.
    """
    if Z.flags.f_contiguous:
        return scipy.linalg.blas.dtrmm(1.0, W, Z, lower=1, overwrite_b=1)  # W Z
    return scipy.linalg.blas.dtrmm(1.0, W, Z.T, side=1, lower=1, trans_a=1, overwrite_b=1).T


def cholesky_factor(C, name: str = "C", *, n: int | None = None) -> np.ndarray:
    r"""Return the lower Cholesky factor ``L`` of a covariance matrix, ``C = L L^T``.

    Factor a covariance once, then evaluate its density on many data sets with
    `logpdf_GAU_ND_chol` (as the generative classifiers do).

    Parameters
    ----------
    C : array_like, shape (D, D)
        Symmetric positive definite covariance matrix.
    name : str
        The argument's name, used in error messages (e.g. ``"C[2]"`` for the covariance of
        class 2).
    n : int, optional
        Expected dimension D.

    Returns
    -------
    L : ndarray, shape (D, D)
        Lower-triangular factor with a positive diagonal.

    Raises
    ------
    ValueError
        ``C`` is not square, not symmetric, contains NaN, or is not (numerically) positive
        definite. The last message gives the smallest eigenvalue and the remedies: a covariance
        floor (add ``eps * I`` or clip the eigenvalues) or PCA to drop the null directions.

    Notes
    -----
    Ch. 4 of the notes evaluates the Gaussian through :math:`C^{-1}` and :math:`\log|C|`; both
    come from the factor:

    .. math:: C = L L^T, \qquad \log |C| = 2 \sum_{i=1}^D \log L_{ii} .

    Besides failing factorisations, ``C`` is rejected as numerically singular when for some
    feature :math:`L_{ii}^2 / C_{ii}`, the fraction of its variance that the previous features do
    not explain, is below ``10 * D * eps``: its features are then linearly dependent up to
    rounding (as for the ML covariance of fewer samples than features), and the density would
    be dominated by rounding errors. The test is invariant to the scale of each feature.
    """
    C = check_covariance(C, n, name)
    try:
        L = scipy.linalg.cholesky(C, lower=True, check_finite=False)  # C = L L^T
    except np.linalg.LinAlgError:
        L = None
    # L_ii^2 / C_ii is the fraction of the variance of feature i not explained by features
    # 0..i-1; at rounding level the features are linearly dependent and C is singular
    if L is None or (np.diag(L) ** 2 / np.diag(C)).min() <= _SINGULAR_TOL * C.shape[0]:
        lam = np.linalg.eigvalsh(C)  # only to explain the failure
        raise ValueError(
            f"{name} is not positive definite (shape {C.shape}, smallest eigenvalue "
            f"{lam[0]:.3g}, largest {lam[-1]:.3g}): a Gaussian density needs an invertible "
            f"covariance; add a covariance floor ({name} + eps * I, or clip its eigenvalues from "
            f"below) or reduce the dimension with PCA first (e.g. constant features, or fewer "
            f"samples than features)"
        ) from None
    return L


def _checked_logpdf(X: np.ndarray, mu: np.ndarray, Lchol: np.ndarray) -> np.ndarray:
    """`_logpdf` of data validated without the finiteness pass: NaN or inf in X is found in
    the (N,) result instead, which is NaN or inf exactly when a column of X is."""
    with np.errstate(invalid="ignore", over="ignore"):
        out = _logpdf(X, mu, Lchol)
    return check_finite_result(out, X, "X", what="the log-density",
                               nan_reason=_NAN_DENSITY)


def logpdf_GAU_ND(X, mu, C) -> np.ndarray:
    r"""Compute the log-density of the multivariate Gaussian N(mu, C) at each column of X.

    Parameters
    ----------
    X : array_like, shape (D, N)
        One sample per column. A 1-D array of length D is taken as a single sample.
    mu : array_like, shape (D,) or (D, 1)
        Mean (a row (1, D) is accepted too).
    C : array_like, shape (D, D)
        Symmetric positive definite covariance matrix.

    Returns
    -------
    ndarray, shape (N,)
        ``log N(x_i | mu, C)`` for every column ``x_i``.

    Raises
    ------
    ValueError
        ``X`` transposed (N, D) ("did you mean X.T?"), or ``mu`` and ``C`` estimated from a
        transposed matrix (their size is the number of columns of a wide ``X``: "mu and C look
        transposed"), ``mu`` of the wrong size, ``C`` not symmetric or not positive definite, NaN
        or inf anywhere.

    See Also
    --------
    logpdf_GAU_ND_chol : the same density from a precomputed Cholesky factor of C.
    loglikelihood : the sum of these log-densities.

    Notes
    -----
    The multivariate Gaussian log-density of section 4.4 of the MLPR notes, eq. (41) (the log of
    the density of eq. 40),

    .. math::

        \log \mathcal{N}(x \mid \mu, C) = -\frac{D}{2} \log 2\pi - \frac{1}{2} \log |C|
            - \frac{1}{2} (x - \mu)^T C^{-1} (x - \mu),

    evaluated through the Cholesky factor :math:`C = L L^T`: :math:`\log|C| = 2 \sum_i \log
    L_{ii}` and :math:`(x - \mu)^T C^{-1} (x - \mu) = \|y\|^2` with :math:`y = L^{-1}(x -
    \mu)`. The whitening is one triangular product with the inverse factor :math:`L^{-1}` per
    block of columns, about :math:`D^2 N` flops in all, computed in place in the block of
    centred samples: its work memory is one block of at most 16,384 columns (and 128 MiB)
    rather than (D, N) temporaries.

    Examples
    --------
    >>> logpdf_GAU_ND(np.zeros((2, 1)), np.zeros(2), np.eye(2))  # -log(2 pi)
    array([-1.83787707])
    """
    mu, C = check_mean_cov(mu, C)
    X = check_data(X, "X", n_features=C.shape[0], allow_1d=True, check_finite=False,
                   params="mu and C")
    Lchol = cholesky_factor(C)  # C = L L^T
    logdet = 2.0 * np.log(np.diag(Lchol)).sum()  # log|C| = 2 sum_i log L_ii
    with np.errstate(invalid="ignore", over="ignore"):  # NaN or inf in X: named just below
        out = (-0.5 * X.shape[0] * _LOG_2PI - 0.5 * logdet
               - 0.5 * _mahalanobis_sq(X, mu, Lchol))  # eq. (41); (x - mu)^T C^-1 (x - mu)
    return check_finite_result(out, X, "X", what="the log-density", nan_reason=_NAN_DENSITY)


def logpdf_GAU_ND_chol(X, mu, Lchol) -> np.ndarray:
    r"""Compute the Gaussian log-density at each column of X from the Cholesky factor of C.

    For models that evaluate one covariance on many data sets (generative classifiers, GMM
    components): factor ``C`` once with `cholesky_factor`, then call this function.

    Parameters
    ----------
    X : array_like, shape (D, N)
        One sample per column; a 1-D array of length D is a single sample.
    mu : array_like, shape (D,) or (D, 1)
        Mean.
    Lchol : array_like, shape (D, D)
        Lower-triangular Cholesky factor of the covariance, ``C = Lchol Lchol^T``, with a
        positive diagonal (as returned by `cholesky_factor`).

    Returns
    -------
    ndarray, shape (N,)
        ``log N(x_i | mu, Lchol Lchol^T)``.

    Raises
    ------
    ValueError
        Transposed ``X``, ``mu`` of the wrong size, ``Lchol`` not lower triangular or with a
        non-positive diagonal, NaN or inf.

    Notes
    -----
    The density of `logpdf_GAU_ND` (notes eq. 41) written with the factor:

    .. math::

        \log \mathcal{N}(x \mid \mu, L L^T) = -\frac{D}{2} \log 2\pi
            - \sum_{i=1}^D \log L_{ii} - \frac{1}{2} \| L^{-1} (x - \mu) \|^2
    """
    L = check_cholesky_factor(Lchol)
    mu = check_mean(mu, L.shape[0])
    X = check_data(X, "X", n_features=L.shape[0], allow_1d=True, check_finite=False,
                   params="mu and Lchol")
    return _checked_logpdf(X, mu, L)


def logpdf_GAU_1D(x, mu, var) -> np.ndarray:
    r"""Compute the log-density of the 1-D Gaussian N(mu, var) at each value of x.

    Parameters
    ----------
    x : array_like, shape (N,)
        Values (any shape; the density is applied elementwise).
    mu : float or array_like
        Mean, broadcast against ``x``.
    var : float or array_like
        Variance sigma^2 > 0 (not the standard deviation), broadcast against ``x``.

    Returns
    -------
    ndarray
        ``log N(x | mu, var)``, shape of ``x`` broadcast with ``mu`` and ``var``.

    Raises
    ------
    ValueError
        ``var`` not positive, NaN or inf anywhere, shapes that do not broadcast.

    Notes
    -----
    The case D = 1 of `logpdf_GAU_ND`, the log of notes eq. (38):

    .. math::

        \log \mathcal{N}(x \mid \mu, \sigma^2) = -\frac{1}{2} \log 2\pi
            - \frac{1}{2} \log \sigma^2 - \frac{(x - \mu)^2}{2 \sigma^2}
    """
    x = check_finite(check_array(x, "x"), "x")
    mu = check_finite(check_array(mu, "mu"), "mu")
    var = check_finite(check_array(var, "var"), "var")
    check_per_feature(mu, x, "mu", "x")
    check_per_feature(var, x, "var", "x")
    if np.any(var <= 0.0):
        raise ValueError(f"var must be a positive variance, got {_first_bad(var, var <= 0.0)!r}")
    try:
        np.broadcast_shapes(x.shape, mu.shape, var.shape)
    except ValueError:
        raise ValueError(
            f"x, mu and var must broadcast together, got shapes {x.shape}, {mu.shape}, "
            f"{var.shape}"
        ) from None
    return -0.5 * (_LOG_2PI + np.log(var)) - 0.5 * (x - mu) ** 2 / var  # log N(x | mu, var)


def loglikelihood(X, mu, C) -> float:
    r"""Compute the log-likelihood of the columns of X under N(mu, C), a float.

    Parameters
    ----------
    X : array_like, shape (D, N)
        Samples, assumed i.i.d.
    mu : array_like, shape (D,) or (D, 1)
        Mean.
    C : array_like, shape (D, D)
        Symmetric positive definite covariance matrix.

    Returns
    -------
    float
        ``sum_i log N(x_i | mu, C)``.

    Notes
    -----
    The log-likelihood of a Gaussian (notes section 4.5.2: the log of the likelihood of eq. 46,
    with the density of eq. 41), maximised by `compute_mu_C`:

    .. math:: \ell(\mu, C) = \sum_{i=1}^N \log \mathcal{N}(x_i \mid \mu, C)
    """
    return float(logpdf_GAU_ND(X, mu, C).sum())  # l = sum_i log N(x_i | mu, C)


def compute_mu_C(D) -> tuple[np.ndarray, np.ndarray]:
    r"""Compute the ML estimates of a Gaussian's mean and covariance from data D.

    Parameters
    ----------
    D : array_like, shape (D, N)
        One sample per column, N >= 1.

    Returns
    -------
    mu : ndarray, shape (D, 1)
        Sample mean.
    C : ndarray, shape (D, D)
        ML covariance, normalised by N (not N - 1), exactly symmetric. With a single sample it is
        the zero matrix, which `logpdf_GAU_ND` rejects as singular.

    Warns
    -----
    UserWarning
        ``D`` has fewer samples (columns) than features (rows), the usual sign of an (N, D)
        matrix passed for a (D, N) one (`mlpr._validation.warn_if_transposed`).

    Notes
    -----
    The ML estimates of section 4.5.2 of the MLPR notes (eq. 50 in one dimension; eq. 59 for the
    samples of one class in D dimensions), which maximise `loglikelihood`:

    .. math::

        \mu = \frac{1}{N} \sum_{i=1}^N x_i, \qquad
        C = \frac{1}{N} \sum_{i=1}^N (x_i - \mu)(x_i - \mu)^T = \frac{1}{N} D_c D_c^T,
        \quad D_c = D - \mu \mathbf{1}^T .

    The covariance is always computed from the centred data, as written (two passes: the mean,
    then the centred product). The one-pass form :math:`\frac{1}{N} D D^T - \mu \mu^T` is
    algebraically equal but cancels on data far from the origin (on 4 x 500 samples of N(25, 1)
    its small entries are off by up to 2e-8 relative, 7e-13 of the largest entry); the centred
    product is accurate to rounding, about :math:`10^{-15}` of the largest entry, wherever the
    data lie. Large data are centred one block of columns at a time (same formula, same
    accuracy, no (D, N) copy).
    """
    return _mean_cov(check_data(D, "D", unlabelled=True))


def _mean_cov(D: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """ML mean (D, 1) and covariance (D, D) of validated data ``D`` (D, N), centred first.

    Data wider than one block go through `_centred_cov_blocked`, the same sum accumulated one
    block of columns at a time; `_centred_cov` is the plain formula (the reference it equals).
    """
    nfeat, N = D.shape
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is detected below
        mu = check_finite_statistic(vcol(D.mean(axis=1)), D, "D", "the mean")  # 1/N sum x_i
        one_block = N <= block_width(nfeat, N)
        C = _centred_cov(D, mu) if one_block else _centred_cov_blocked(D, mu)
    check_finite_statistic(C, D, "D", "the covariance")
    return mu, 0.5 * (C + C.T)


def _centred_cov(D: np.ndarray, mu: np.ndarray) -> np.ndarray:
    """The reference: ``C = 1/N (D - mu)(D - mu)^T`` with one centred (D, N) copy."""
    Dc = D - mu  # D_c = D - mu 1^T
    return (Dc @ Dc.T) / D.shape[1]  # C = 1/N sum_i (x_i - mu)(x_i - mu)^T


def _centred_cov_blocked(D: np.ndarray, mu: np.ndarray, max_cols: int = 1 << 14) -> np.ndarray:
    """`_centred_cov` summed over blocks of columns: ``C = 1/N sum_b Z_b Z_b^T``, Z_b = D_b - mu.

    Memory stays at one block; each block's product is a full-speed symmetric rank-k update, so
    the centring costs about one extra read of D instead of a (D, N) copy (MNIST, 784 x 60,000:
    0.6 s instead of 1.0 s for the plain version, 0.55 s for the inaccurate one-pass form).
    """
    nfeat, N = D.shape
    C = np.zeros((nfeat, nfeat))
    for _, Z in centred_blocks(D, mu, max_cols=max_cols):
        C += Z @ Z.T  # the block's sum of (x_i - mu)(x_i - mu)^T
    return C / N


def sample_GAU_ND(mu, C, n: int, rng: np.random.Generator) -> np.ndarray:
    r"""Draw n samples of the Gaussian N(mu, C), one per column.

    Parameters
    ----------
    mu : array_like, shape (D,) or (D, 1)
        Mean.
    C : array_like, shape (D, D)
        Symmetric positive semi-definite covariance; singular matrices are allowed.
    n : int
        Number of samples, >= 0.
    rng : numpy.random.Generator
        Source of the standard normal draws, e.g. ``numpy.random.default_rng(0)``.

    Returns
    -------
    ndarray, shape (D, n)

    Raises
    ------
    TypeError
        ``rng`` is not a ``numpy.random.Generator`` (e.g. a seed or a legacy ``RandomState``),
        ``n`` is not an integer.
    ValueError
        ``C`` not symmetric or with a negative eigenvalue, ``mu`` of the wrong size.

    Notes
    -----
    Sampling a Gaussian, notes section 4.4: :math:`X = A Y + \mu` with :math:`Y \sim
    \mathcal{N}(0, I)` (eq. 39) follows the MVG of eq. (40) with :math:`C = A A^T`.

    The construction of the notes: with :math:`Y` a (D, n) matrix of independent standard normal
    draws, taken from ``rng.standard_normal((D, n))``,

    .. math:: X = A Y + \mu \mathbf{1}^T, \qquad A A^T = C,

    so that every column has mean :math:`\mu` and covariance :math:`A I A^T = C`. ``A`` is the
    lower Cholesky factor of ``C`` when ``C`` is positive definite; otherwise (singular ``C``)
    ``A = U diag(sqrt(lambda))`` from the eigendecomposition ``C = U diag(lambda) U^T``, with
    eigenvalues below ``D * eps * max|lambda|`` (and negative ones down to
    ``-1e-10 * max|lambda|``) treated as rounding errors of zero eigenvalues and set to 0. The
    same ``rng`` state therefore gives the same samples.
    """
    rng = check_rng(rng)
    mu, C = check_mean_cov(mu, C)
    n = check_int(n, "n", low=0)
    A = _square_root(C)  # A A^T = C
    Y = rng.standard_normal((C.shape[0], n))
    return A @ Y + mu  # X = A Y + mu 1^T


def _square_root(C: np.ndarray) -> np.ndarray:
    """A with A A^T = C: the Cholesky factor, or U diag(sqrt(lambda)) for a singular C."""
    try:
        return scipy.linalg.cholesky(C, lower=True, check_finite=False)  # A A^T = C
    except np.linalg.LinAlgError:
        pass
    lam, U = np.linalg.eigh(C)
    if lam[0] < -1e-10 * np.abs(lam).max():
        raise ValueError(
            f"C is not positive semi-definite (smallest eigenvalue {lam[0]:.3g}): it is not "
            f"a covariance matrix"
        )
    # eigenvalues at rounding level are zeros of a singular C: dropping them keeps the
    # samples in the range of C instead of sqrt(eps) away from it
    lam[lam <= C.shape[0] * np.finfo(float).eps * np.abs(lam).max()] = 0.0
    return U * np.sqrt(lam)  # A A^T = U diag(lambda) U^T = C


# ------------------------------------------------------------------------------------------------
# discrete models


def logpmf_bernoulli(x, p) -> np.ndarray:
    r"""Compute the log-probability of binary outcomes x under a Bernoulli(p) distribution.

    Parameters
    ----------
    x : array_like, shape (N,) (or any shape)
        Outcomes, each 0 or 1 (booleans accepted).
    p : float or array_like
        Probability of the outcome 1, in [0, 1]; an array is broadcast against ``x`` (e.g. one
        probability per feature, shape (D, 1), for x of shape (D, N)).

    Returns
    -------
    ndarray
        ``log P(x | p)``, shape of ``x`` broadcast with ``p``. An outcome of probability 0 (x = 1
        with p = 0, or x = 0 with p = 1) gives ``-inf``, without warning.

    Notes
    -----
    The Bernoulli distribution of notes section 4.3.1, eq. (34):

    .. math:: \log P(x \mid p) = x \log p + (1 - x) \log (1 - p), \qquad x \in \{0, 1\}

    with the convention :math:`0 \log 0 = 0` (``scipy.special.xlogy`` / ``xlog1py``).
    """
    x = check_binary_values(x, "x")
    p = check_probabilities(p, "p")
    check_per_feature(p, x, "p", "x")
    try:
        np.broadcast_shapes(x.shape, p.shape)
    except ValueError:
        raise ValueError(
            f"x and p must broadcast together, got shapes {x.shape} and {p.shape}; one "
            f"probability per feature of x (D, N) is a column of shape (D, 1)"
        ) from None
    return xlogy(x, p) + xlog1py(1.0 - x, -p)  # x log p + (1-x) log(1-p)


def ml_bernoulli(x, pseudo: float = 0.0):
    r"""Compute the ML (or pseudo-count smoothed) estimate of a Bernoulli probability p.

    Parameters
    ----------
    x : array_like, shape (N,) or (D, N)
        Binary outcomes 0/1; a (D, N) matrix holds N samples of D binary features.
    pseudo : float, default 0
        Pseudo-count added to each of the two outcomes (1 gives Laplace smoothing).

    Returns
    -------
    float or ndarray of shape (D, 1)
        The estimate of p = P(x = 1): a float for 1-D ``x``, one value per row for 2-D ``x``.

    Raises
    ------
    ValueError
        Non-binary outcomes, negative ``pseudo``, no data and no pseudo-count.

    Notes
    -----
    The ML estimate of notes section 4.5.1, eq. (44), smoothed by pseudo-counts:

    .. math:: p = \frac{\sum_{i=1}^N x_i + a}{N + 2a}

    with :math:`a` = ``pseudo``; :math:`a = 0` is the ML estimate, the fraction of ones. With
    :math:`a = 0`, data without any 1 (or without any 0) give p = 0 (p = 1), and
    `logpmf_bernoulli` then returns ``-inf`` for a test sample with the unseen outcome.
    """
    x = check_binary_values(x, "x")
    pseudo = check_pseudo_count(pseudo, "pseudo")
    if x.ndim not in (1, 2):
        raise ValueError(f"x must have shape (N,) or (D, N), got {x.shape}")
    N = x.shape[-1]
    if N + 2 * pseudo == 0:
        raise ValueError("x has no samples and pseudo is 0: the estimate is undefined")
    p = (x.sum(axis=-1) + pseudo) / (N + 2 * pseudo)  # p = (sum_i x_i + a) / (N + 2a)
    return float(p) if x.ndim == 1 else vcol(p)


def logpdf_beta(p, a, b) -> np.ndarray:
    r"""Compute the log-density of the Beta(a, b) distribution at each probability p.

    Parameters
    ----------
    p : array_like
        Values in [0, 1] (any shape).
    a, b : float
        Shape parameters, > 0.

    Returns
    -------
    ndarray
        ``log Beta(p | a, b)``, shape of ``p``. At p = 0 (p = 1) the density is 0 (``-inf``) for
        a > 1 (b > 1) and unbounded (``inf``) for a < 1 (b < 1), without warnings.

    Notes
    -----
    The prior (and posterior) of a Bernoulli probability (the Bayesian approach that the notes'
    section 4.5.1 names and leaves out of the course; standard conjugate formulas):

    .. math::

        \log \mathrm{Beta}(p \mid a, b) = (a - 1) \log p + (b - 1) \log(1 - p) - \log B(a, b),
        \qquad B(a, b) = \frac{\Gamma(a)\Gamma(b)}{\Gamma(a + b)},

    with :math:`0 \log 0 = 0` (``xlogy`` / ``xlog1py``), so that Beta(1, 1) is the uniform
    density on all of [0, 1].
    """
    p = check_probabilities(p, "p")
    a = check_real(a, "a", low=0.0, strict=True, what="a Beta shape parameter")
    b = check_real(b, "b", low=0.0, strict=True, what="a Beta shape parameter")
    return _logpdf_beta(p, a, b)


def _logpdf_beta(p: np.ndarray, a: float, b: float) -> np.ndarray:
    with np.errstate(divide="ignore"):  # the unbounded density of a < 1 or b < 1 at an end
        return xlogy(a - 1.0, p) + xlog1py(b - 1.0, -p) - betaln(a, b)


def _ratio(a: float, b: float) -> float:
    """``a / (a + b)`` for a, b >= 0 not both 0, computed as ``1 / (1 + b / a)`` when ``a + b``
    overflows float64 (it would give 0)."""
    total = a + b
    if np.isfinite(total):
        return a / total
    return 1.0 / (1.0 + b / a)  # a, b finite and a + b > 1.7e308: one of them is above 8e307


@model
class BetaBernoulliPosterior:
    r"""The posterior Beta(a, b) of a Bernoulli probability p = P(x = 1) given observed data.

    Attributes
    ----------
    a, b : float
        Posterior shape parameters: the prior's plus the counts of ones and zeros,
        ``a = a0 + n1``, ``b = b0 + n0``.

    Notes
    -----
    Bayesian estimation of a Bernoulli parameter (named, not covered, in the notes' section
    4.5.1; `bernoulli_beta_posterior` gives the update).
    """

    a: float
    b: float

    def __post_init__(self):
        for name in ("a", "b"):  # a Beta distribution needs positive shape parameters
            check_real(getattr(self, name), name, low=0.0, strict=True,
                       what="a Beta shape parameter")

    def mean(self) -> float:
        r"""Posterior mean :math:`E[p \mid X] = a / (a + b)`, also when a + b overflows."""
        return _ratio(self.a, self.b)  # E[p | X] = a / (a + b)

    def predictive(self) -> float:
        r"""Probability that the next outcome is 1, :math:`P(x_{N+1} = 1 \mid X)`.

        Notes
        -----
        Averaging the likelihood over the posterior (beyond the notes, section 4.5.1):

        .. math:: P(x = 1 \mid X) = \int_0^1 p \, \mathrm{Beta}(p \mid a, b) \, dp
                  = \frac{a}{a + b},

        the posterior mean.
        """
        return self.mean()  # int p Beta(p | a, b) dp = a / (a + b)

    def mode(self) -> float:
        r"""The MAP estimate :math:`(a - 1) / (a + b - 2)`, for a, b >= 1 not both 1.

        With the uniform prior Beta(1, 1) it is the ML estimate n1 / N. Raises a ValueError
        when the density has no single maximum in [0, 1] (a = b = 1: flat; a < 1 or b < 1:
        unbounded at an end).
        """
        if self.a < 1.0 or self.b < 1.0 or (self.a == 1.0 and self.b == 1.0):
            raise ValueError(
                f"Beta(a={self.a:g}, b={self.b:g}) has no single mode in [0, 1] (it needs a >= 1 "
                f"and b >= 1, not both 1): its density is flat or unbounded at an end"
            )
        return _ratio(self.a - 1.0, self.b - 1.0)  # argmax_p Beta(p | a, b) = (a-1)/(a+b-2)

    def logpdf(self, p) -> np.ndarray:
        """Posterior log-density at the probabilities ``p`` (any shape), see `logpdf_beta`."""
        return _logpdf_beta(check_probabilities(p, "p"), self.a, self.b)


def bernoulli_beta_posterior(x, a: float = 1.0, b: float = 1.0) -> BetaBernoulliPosterior:
    r"""Update a Beta(a, b) prior on a Bernoulli probability with observed binary outcomes.

    Parameters
    ----------
    x : array_like, shape (N,)
        Outcomes 0/1 (booleans accepted), N >= 0 (no data leaves the prior unchanged).
    a, b : float, default 1
        Prior shape parameters, > 0: prior pseudo-counts of ones and zeros. The default
        Beta(1, 1) is the uniform prior.

    Returns
    -------
    BetaBernoulliPosterior
        Beta(a + n1, b + n0), with ``mean()``, ``predictive()``, ``mode()`` and ``logpdf(p)``.

    Raises
    ------
    ValueError
        Non-binary outcomes, ``x`` not 1-D, ``a`` or ``b`` not positive.

    Notes
    -----
    The notes' section 4.5.1 motivates it ("if we observe just 3 coin tosses which give H,
    pi_ML = 1") and leaves the Bayesian approach out of the course; the update is the standard
    conjugate one. Bayes'
    rule with the Bernoulli likelihood :math:`p^{n_1}(1 - p)^{n_0}` and the conjugate prior

    .. math::

        f(p \mid X) \propto p^{n_1}(1 - p)^{n_0} \, p^{a - 1}(1 - p)^{b - 1}
        \quad\Rightarrow\quad p \mid X \sim \mathrm{Beta}(a + n_1, \; b + n_0).

    Its mean, the predictive probability of a 1,

    .. math:: P(x_{N+1} = 1 \mid X) = \frac{n_1 + a}{N + a + b},

    is `ml_bernoulli` with ``pseudo = a = b``: pseudo-counts are a symmetric Beta prior, and
    ``pseudo=1`` (Beta(1, 1), the uniform prior) is Laplace's rule of succession. The ML
    estimate :math:`n_1 / N` is the mode of the posterior under the uniform prior.
    """
    x = check_binary_values(x, "x")
    if x.ndim != 1:
        raise ValueError(f"x must be a 1-D array of N binary outcomes, got shape {x.shape}")
    a = check_real(a, "a", low=0.0, strict=True, what="a Beta prior parameter")
    b = check_real(b, "b", low=0.0, strict=True, what="a Beta prior parameter")
    n1 = float(x.sum())
    return BetaBernoulliPosterior(a=a + n1, b=b + (x.size - n1))  # Beta(a + n1, b + n0)


def logpmf_binomial(k, n, p) -> np.ndarray:
    r"""Compute the log-probability of k successes in n Bernoulli(p) trials.

    Parameters
    ----------
    k : array_like, shape (N,)
        Numbers of successes, integers 0..n.
    n : int or array_like
        Numbers of trials, broadcast against ``k``.
    p : float or array_like
        Success probability in [0, 1], broadcast against ``k``.

    Returns
    -------
    ndarray
        ``log P(k | n, p)``; ``-inf`` (without warning) when the outcome has probability 0.

    Raises
    ------
    ValueError
        Counts not non-negative integers, ``k > n``, ``p`` outside [0, 1].

    Notes
    -----
    The binomial distribution of notes section 4.3.2, eq. (35):

    .. math::

        \log P(k \mid n, p) = \log \binom{n}{k} + k \log p + (n - k) \log(1 - p),
        \qquad \log \binom{n}{k} = \log\Gamma(n + 1) - \log\Gamma(k + 1)
            - \log\Gamma(n - k + 1)
    """
    k = check_counts(k, "k")
    n = check_counts(n, "n")
    p = check_probabilities(p, "p")
    try:
        k, n, p = np.broadcast_arrays(k, n, p)
    except ValueError:
        raise ValueError(
            f"k, n and p must broadcast together, got shapes {np.shape(k)}, {np.shape(n)}, "
            f"{np.shape(p)}"
        ) from None
    if np.any(k > n):
        bad = k > n
        raise ValueError(
            f"k must not exceed the number of trials n, got k = {_first_bad(k, bad):g} with "
            f"n = {_first_bad(n, bad):g}"
        )
    logbinom = gammaln(n + 1) - gammaln(k + 1) - gammaln(n - k + 1)  # log (n choose k)
    return logbinom + xlogy(k, p) + xlog1py(n - k, -p)  # + k log p + (n-k) log(1-p)


def ml_binomial(k, n) -> float:
    r"""Compute the ML estimate of the success probability p from binomial counts.

    Parameters
    ----------
    k : array_like, shape (N,)
        Successes of each of N experiments.
    n : int or array_like, shape (N,)
        Trials of each experiment (one number for all of them, or one per experiment).

    Returns
    -------
    float
        ``p = sum_i k_i / sum_i n_i``.

    Raises
    ------
    ValueError
        Counts not non-negative integers, ``k > n``, no trials at all.

    Notes
    -----
    The ML estimate (notes eq. 44, with n trials per observation):

    .. math:: p = \frac{\sum_{i=1}^N k_i}{\sum_{i=1}^N n_i}

    A zero count of successes (or of failures) gives p = 0 (p = 1) and log-probability ``-inf``
    for any later outcome with a success (a failure).
    """
    k = check_counts(k, "k")
    n = check_counts(n, "n")
    try:
        k, n = np.broadcast_arrays(k, n)
    except ValueError:
        raise ValueError(
            f"k and n must broadcast together, got shapes {np.shape(k)}, {np.shape(n)}"
        ) from None
    if np.any(k > n):
        raise ValueError("k must not exceed the number of trials n")
    total = n.sum()
    if total == 0:
        raise ValueError("n sums to 0: without trials the estimate is undefined")
    return float(k.sum() / total)  # p = sum_i k_i / sum_i n_i


def logpmf_categorical(x, pi) -> np.ndarray:
    r"""Compute the log-probability of integer-coded values x under a categorical distribution.

    Parameters
    ----------
    x : array_like, shape (N,)
        Observed values coded 0..M-1.
    pi : array_like, shape (M,)
        Probabilities of the M values, each in [0, 1], summing to 1 (within 1e-8).

    Returns
    -------
    ndarray, shape (N,)
        ``log pi[x_i]``; ``-inf`` (without warning) for a value of probability 0.

    Raises
    ------
    ValueError
        ``pi`` outside [0, 1] or not summing to one, ``x`` outside 0..M-1 or not integers.

    Notes
    -----
    The categorical distribution of notes section 4.3.3, eq. (36):

    .. math:: \log P(x \mid \pi) = \log \pi_x = \sum_{m=0}^{M-1} [x = m] \log \pi_m
    """
    pi = check_probability_vector(pi)
    x = check_labels(x, name="x", n_classes=pi.size)
    logpi = np.full(pi.size, -np.inf)
    np.log(pi, out=logpi, where=pi > 0.0)  # log 0 = -inf, without a divide-by-zero warning
    return logpi[x]  # log pi_x


def ml_categorical(x, M: int, pseudo: float = 0.0) -> np.ndarray:
    r"""Compute the ML (or pseudo-count smoothed) estimate of categorical probabilities.

    Parameters
    ----------
    x : array_like, shape (N,)
        Observed values coded 0..M-1.
    M : int
        Number of possible values (values that never occur get probability 0, or a smoothed
        positive probability if ``pseudo > 0``).
    pseudo : float, default 0
        Pseudo-count added to the count of every value.

    Returns
    -------
    ndarray, shape (M,)
        ``pi``, summing to one.

    Raises
    ------
    ValueError
        ``x`` outside 0..M-1, negative ``pseudo``, no data and no pseudo-count.

    Notes
    -----
    The ML estimate of notes eq. (79) (section 5.2.1, the frequencies of each value), smoothed by
    pseudo-counts:

    .. math:: \pi_m = \frac{N_m + a}{N + M a}, \qquad N_m = \#\{i : x_i = m\}

    with :math:`a` = ``pseudo``. The ML estimate (:math:`a = 0`) gives probability 0 to every
    value absent from the data, so one such value in a test sample makes its log-likelihood
    ``-inf``; any :math:`a > 0` avoids it.
    """
    M = check_int(M, "M", low=1)
    pseudo = check_pseudo_count(pseudo, "pseudo")
    x = check_labels(x, name="x", n_classes=M)
    N = x.size
    if N + M * pseudo == 0:
        raise ValueError("x has no samples and pseudo is 0: the estimate is undefined")
    counts = np.bincount(x, minlength=M)  # N_m
    return (counts + pseudo) / (N + M * pseudo)  # pi_m = (N_m + a) / (N + M a)


def logpmf_multinomial(counts, pi) -> np.ndarray:
    r"""Compute the log-probability of count vectors under a multinomial distribution.

    Parameters
    ----------
    counts : array_like, shape (M, N)
        One column per sample: how many of the n_i = sum_m counts[m, i] draws took each of the M
        values. A 1-D array of length M is a single sample.
    pi : array_like, shape (M,)
        Probabilities of the M values, summing to 1.

    Returns
    -------
    ndarray, shape (N,)
        ``log P(counts[:, i] | n_i, pi)``, including the multinomial coefficient; ``-inf``
        (without warning) when a value of probability 0 has a positive count.

    Raises
    ------
    ValueError
        Transposed ``counts`` ("did you mean counts.T?"), counts not non-negative integers,
        ``pi`` invalid.

    Notes
    -----
    The multinomial distribution of notes section 4.3.4, eq. (37):

    .. math::

        \log P(x \mid \pi) = \log \Gamma(n + 1) - \sum_{m=1}^M \log \Gamma(x_m + 1)
            + \sum_{m=1}^M x_m \log \pi_m, \qquad n = \sum_{m=1}^M x_m

    with :math:`0 \log 0 = 0`: a value of probability 0 that is never observed does not matter.
    """
    pi = check_probability_vector(pi)
    M = pi.size
    counts = check_counts(check_data(counts, "counts", n_features=M, allow_1d=True), "counts")
    n = counts.sum(axis=0)
    logcoef = gammaln(n + 1) - gammaln(counts + 1).sum(axis=0)  # log n! / prod_m x_m!
    return logcoef + xlogy(counts, vcol(pi)).sum(axis=0)  # + sum_m x_m log pi_m


def ml_multinomial(counts, pseudo: float = 0.0) -> np.ndarray:
    r"""Compute the ML (or pseudo-count smoothed) estimate of multinomial probabilities.

    Parameters
    ----------
    counts : array_like, shape (M, N)
        Count vectors, one column per sample (a 1-D array of length M is a single sample).
    pseudo : float, default 0
        Pseudo-count added to the total count of every value.

    Returns
    -------
    ndarray, shape (M,)
        ``pi``, summing to one.

    Raises
    ------
    ValueError
        Counts not non-negative integers, negative ``pseudo``, all counts zero and no
        pseudo-count.

    Notes
    -----
    The ML estimate of notes eq. (84) (section 5.2.2, the share of each event in the total
    count), smoothed by pseudo-counts:

    .. math::

        \pi_m = \frac{\sum_{i=1}^N x_{m,i} + a}{\sum_{m'=1}^M \sum_{i=1}^N x_{m',i} + M a}

    with :math:`a` = ``pseudo``. As for the categorical model, a value never counted gets
    :math:`\pi_m = 0` without pseudo-counts, and any later sample counting it gets ``-inf``.
    """
    pseudo = check_pseudo_count(pseudo, "pseudo")
    a = check_array(counts, "counts")
    counts = check_counts(
        check_data(a, "counts", n_features=a.size if a.ndim == 1 else None, allow_1d=True),
        "counts",
    )
    M = counts.shape[0]
    totals = counts.sum(axis=1)  # sum over samples of each value's count
    denom = totals.sum() + M * pseudo
    if denom == 0:
        raise ValueError("counts are all zero and pseudo is 0: the estimate is undefined")
    return (totals + pseudo) / denom  # pi_m = (sum_i x_mi + a) / (sum x + M a)
