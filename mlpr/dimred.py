"""Dimensionality reduction: PCA, LDA, whitening and LDA as a binary classifier (notes ch. 3).

Beside LDA, the pieces of the short notes 003 on linear discriminants: Fisher's criterion as a
value (`fisher_criterion`, eq. 6.5, with the main notes' normalisation as an option) and the
geometry of a hyperplane w^T x + b = 0 (section 6.2.1: `signed_distance`, `hyperplane_offset`,
`project_on_hyperplane`).

Every projection is learned on training data and returned as a small frozen model whose
``transform(D)`` applies it unchanged to any (D, N) matrix. ``PCA(D, m)`` and ``LDA(D, L, m)``
keep the notes' names and return the projected training data directly.

Centring convention. As in the notes and the labs, ``transform`` multiplies the data by the
projection matrix *without* subtracting the training mean: ``y = P^T x`` (PCA), ``y = W^T x``
(LDA, whitening). The mean only shifts every projected sample by the same vector, so covariances,
class separations and any classifier trained on the projected data are unaffected. Each model
still stores the training mean ``mu``: ``model.transform(D - model.mu)`` gives the centred
projection.

Sign convention. Eigenvectors are defined up to sign; every direction returned here is flipped so
that its entry of largest absolute value is positive (the binary LDA classifier instead orients
its direction so that class 1 projects to the right of class 0). The two algorithms offered for
PCA (``eigh``/``svd``) and for LDA (``geig``/``jointdiag``) therefore return the same matrix.
"""

from __future__ import annotations

import warnings

import numpy as np
import scipy.linalg

from . import _dimred_fast
from ._validation import (
    check_array,
    check_choice,
    check_data,
    check_data_labels,
    check_finite,
    check_finite_statistic,
    check_int,
    check_real,
    check_solver,
    check_vector,
    warn_if_transposed,
)
from .gaussian import compute_mu_C
from .utils import model, vcol, vrow

__all__ = [
    "PCA",
    "PCAModel",
    "fit_pca",
    "n_components_for_variance",
    "compute_Sw_Sb",
    "LDA",
    "LDAModel",
    "fit_lda",
    "fisher_criterion",
    "signed_distance",
    "hyperplane_offset",
    "project_on_hyperplane",
    "WhiteningModel",
    "fit_whitening",
    "LDABinaryClassifier",
    "train_lda_binary",
]

_PCA_METHODS = ("eigh", "svd")
_LDA_METHODS = ("geig", "jointdiag")
_LDA_BASES = ("sw", "orthonormal")
_THRESHOLDS = ("midpoint", "min_error")
_FISHER_SCALINGS = ("sums", "covariances")


# ------------------------------------------------------------------------------------------------
# private helpers


def _fix_signs(V: np.ndarray) -> np.ndarray:
    """Flip each column of ``V`` so that its entry of largest absolute value is positive."""
    if V.shape[1] == 0:
        return V
    idx = np.argmax(np.abs(V), axis=0)
    signs = np.sign(V[idx, np.arange(V.shape[1])])
    signs[signs == 0] = 1.0
    return V * signs


def _whitening_matrix(
    S: np.ndarray, what: str, data_shape: tuple[int, int] | None = None
) -> np.ndarray:
    """Return the symmetric inverse square root ``U diag(1/sqrt(s)) U^T`` of a covariance ``S``.

    A (numerically) singular ``S`` is a ValueError that gives its rank and suggests PCA (or, at
    rank 0, more samples). ``data_shape``, the shape of unlabelled data, adds "did you mean
    D.T?" when it has fewer samples than features.
    """
    s, U = np.linalg.eigh(S)
    tol = S.shape[0] * np.finfo(float).eps * max(s.max(), 0.0)
    rank = int(np.sum(s > tol))
    if rank < S.shape[0] or s.max() <= 0.0:
        if rank == 0:
            remedy = (
                "it is zero, with no variation along any direction (e.g. a single "
                "sample, or a single sample per class): more samples are needed"
            )
        else:
            remedy = (
                f"reduce the dimension first with PCA, e.g. fit_pca(D, m) with m <= {rank}, "
                f"and work on the projected data"
            )
        if data_shape is not None and data_shape[1] < data_shape[0]:
            remedy += (
                f"; D has shape {tuple(data_shape)}, fewer samples (columns) than features "
                f"(rows): mlpr expects D as (features x samples), one column per sample; if it "
                f"is (samples x features), did you mean D.T?"
            )
        raise ValueError(
            f"{what} is singular: its rank is {rank} but D has {S.shape[0]} features (constant "
            f"features, linearly dependent features, or too few samples per dimension); "
            f"{remedy}"
        )
    return (U * vrow(1.0 / np.sqrt(s))) @ U.T  # P1 = U diag(1/sqrt(s)) U^T


# ------------------------------------------------------------------------------------------------
# PCA


@model
class PCAModel:
    """Principal component analysis learned on training data.

    Attributes
    ----------
    P : ndarray, shape (D, m)
        Orthonormal principal directions, ordered by decreasing variance, each with its
        largest-magnitude entry positive.
    mu : ndarray, shape (D, 1)
        Training mean (not subtracted by `transform`, see the module docstring).
    eigenvalues : ndarray, shape (m,)
        Variance of the training data along each direction: the m largest eigenvalues of the ML
        (1/N) covariance matrix, in decreasing order.
    total_variance : float
        Trace of the ML covariance matrix, the sum of all D eigenvalues.
    solver : str
        How C was formed (`fit_pca`): ``"auto"`` (the private fast path) or ``"reference"``
        (eq. 3 as written; also for ``method="svd"``, which has one form).

    Notes
    -----
    PCA of notes section 3.2 (eq. 1-3); `fit_pca` gives the formulas.
    """

    P: np.ndarray
    mu: np.ndarray
    eigenvalues: np.ndarray
    total_variance: float
    solver: str = "auto"

    def transform(self, D) -> np.ndarray:
        """Project ``D`` (D, N) onto the principal directions: ``P^T D``, shape (m, N).

        As in the notes the data are not centred; use ``transform(D - mu)`` for centred scores.
        """
        D = check_data(D, n_features=self.P.shape[0], allow_1d=True,
                       params="the PCA parameters (P, mu)")
        return self.P.T @ D  # y = P^T x

    def reconstruct(self, Y) -> np.ndarray:
        """Map projected data ``Y`` (m, N) back to the original space: ``P Y``, shape (D, N).

        ``reconstruct(transform(x))`` is the orthogonal projection ``P P^T x`` of ``x`` onto the
        span of the principal directions (``x`` itself when m = D).
        """
        Y = check_data(Y, "Y", n_features=self.P.shape[1], allow_1d=True)
        return self.P @ Y

    @property
    def explained_variance_ratio(self) -> np.ndarray:
        """Fraction of the total variance along each direction, shape (m,); sums to 1 when m = D.

        All zeros for constant training data (zero total variance)."""
        if self.total_variance <= 0.0:
            return np.zeros_like(self.eigenvalues)
        return self.eigenvalues / self.total_variance

    def n_components_for_variance(self, fraction: float) -> int:
        """Smallest number of leading directions that retain ``fraction`` of the total variance.

        Raises a ValueError when the m directions of this model do not reach it: fit with
        ``m = D`` (all directions) to choose m, then refit.
        """
        fraction = _check_fraction(fraction)
        m = _n_for_fraction(self.eigenvalues, self.total_variance, fraction)
        if m is None:
            kept = float(self.eigenvalues.sum() / self.total_variance)
            raise ValueError(
                f"the {self.P.shape[1]} directions of this model retain only {kept:.4g} of the "
                f"variance, less than fraction={fraction}; fit the model with m = "
                f"{self.P.shape[0]} (all directions) to choose m"
            )
        return m


def _check_fraction(fraction) -> float:
    if isinstance(fraction, (str, bytes, bool, np.bool_)):
        raise TypeError(f"fraction must be a number in (0, 1], got {fraction!r}")
    try:
        f = float(fraction)
    except (TypeError, ValueError):
        raise TypeError(f"fraction must be a number in (0, 1], got {fraction!r}") from None
    if not 0.0 < f <= 1.0:
        raise ValueError(f"fraction must be in (0, 1], got {fraction!r}")
    return f


def _n_for_fraction(eigs_desc: np.ndarray, total: float, fraction: float) -> int | None:
    """Smallest m with sum(eigs_desc[:m]) >= fraction * total (up to rounding), or None."""
    if total <= 0.0:
        return 1
    cum = np.cumsum(eigs_desc)
    ok = np.flatnonzero(cum >= (fraction - 1e-12) * total)
    return int(ok[0]) + 1 if ok.size else None


def n_components_for_variance(eigenvalues, fraction: float) -> int:
    r"""Smallest number m of principal components that retain ``fraction`` of the variance.

    Parameters
    ----------
    eigenvalues : array_like, shape (D,)
        *All* eigenvalues of the covariance matrix, in any order, e.g.
        ``fit_pca(D, D.shape[0]).eigenvalues``.
    fraction : float
        Fraction of the total variance to retain, in (0, 1].

    Returns
    -------
    int
        The smallest m such that the m largest eigenvalues sum to at least ``fraction`` of their
        total (comparison tolerant to rounding at the 1e-12 level).

    Notes
    -----
    Choosing m for PCA, notes section 3.2 (the share t of the variance retained).

    .. math:: m^* = \min \Big\{ m : \sum_{i=1}^m \lambda_i \ge f \sum_{i=1}^D \lambda_i \Big\}

    with :math:`\lambda_1 \ge \dots \ge \lambda_D`.
    """
    eigs = check_array(eigenvalues, "eigenvalues")
    if eigs.ndim != 1 or eigs.size == 0:
        raise ValueError(
            f"eigenvalues must be a non-empty 1-D array of all covariance eigenvalues, got shape "
            f"{eigs.shape}"
        )
    check_finite(eigs, "eigenvalues")
    if eigs.min() < -1e-10 * max(abs(eigs.max()), 1.0):
        raise ValueError(
            f"eigenvalues must be non-negative (variances), got minimum {eigs.min():.3g}"
        )
    fraction = _check_fraction(fraction)
    eigs = np.sort(np.maximum(eigs, 0.0))[::-1]
    with np.errstate(over="ignore"):
        total = float(eigs.sum())
    if not np.isfinite(total):  # the sum overflows: scale by a power of two, exactly
        eigs = np.ldexp(eigs, -np.frexp(eigs[0])[1])
        total = float(eigs.sum())
    m = _n_for_fraction(eigs, total, fraction)
    return eigs.size if m is None else m


def fit_pca(D, m: int, method: str = "eigh", solver: str = "auto") -> PCAModel:
    r"""Learn the m leading principal directions of ``D``.

    Parameters
    ----------
    D : ndarray, shape (D, N)
        Training data, one column per sample.
    m : int
        Number of directions, 1 <= m <= D.
    method : {"eigh", "svd"}
        ``"eigh"`` (default): eigen-decomposition of the ML covariance matrix, computed with one
        (D, N) x (N, D) matrix product; fastest when N >> D (MNIST: about 20x faster than SVD).
        ``"svd"``: singular value decomposition of the centred data matrix, ``U`` of
        ``D - mu = U Sigma V^T`` and eigenvalues ``sigma^2 / N``; avoids forming C.
    solver : {"auto", "reference"}, default "auto"
        How ``"eigh"`` forms C (``"svd"`` has one solver). ``"reference"``: C as eq. (3) writes
        it, the mean then the centred product (`mlpr.gaussian.compute_mu_C`), in `_pca_eigh`.
        ``"auto"``: the same two-pass covariance accumulated block by block with BLAS ``dsyrk``
        (one triangle) in the private module ``mlpr._dimred_fast``; equal to the reference to
        rounding (tested). The model records the one that ran.

    Returns
    -------
    PCAModel
        ``P`` (D, m), ``mu`` (D, 1), ``eigenvalues`` (m,), ``total_variance``.

    Warns
    -----
    UserWarning
        ``D`` has fewer samples (columns) than features (rows), the usual sign of an (N, D)
        matrix passed for a (D, N) one (`mlpr._validation.warn_if_transposed`).

    Notes
    -----
    Implements PCA of the notes, section 3.2, eq. (1)-(3). With the ML covariance (eq. 3)

    .. math:: C = \frac{1}{N} \sum_{i=1}^N (x_i - \mu)(x_i - \mu)^T = U \Sigma U^T,

    ``P`` holds the eigenvectors of the m largest eigenvalues and the projection is
    :math:`y = P^T x`. Both methods give the same ``P`` (sign convention of the module
    docstring) up to rounding, provided the m-th and (m+1)-th eigenvalues differ. Both centre
    the data before any product (`mlpr.gaussian.compute_mu_C`), so eigenvalues and directions
    are as accurate on data far from the origin as near it.
    """
    check_choice(method, "method", _PCA_METHODS)
    solver = check_solver(solver)
    fast = method == "eigh" and solver == "auto"  # it finds NaN and inf through the mean
    D = check_data(D, check_finite=not fast)  # the solvers warn when D looks transposed
    m = check_int(m, "m", low=1)
    if m > D.shape[0]:
        raise ValueError(
            f"m = {m} exceeds the dimension of D, shape {D.shape}: PCA keeps at most D = "
            f"{D.shape[0]} directions (1 <= m <= {D.shape[0]})"
        )
    if fast:
        P, eigs, mu, total = _pca_eigh_fast(D, m)
    else:
        P, eigs, mu, total = _PCA_SOLVERS[method](D, m)
    P = np.ascontiguousarray(_fix_signs(P))
    return PCAModel(P=P, mu=mu, eigenvalues=np.maximum(eigs, 0.0), total_variance=total,
                    solver="auto" if fast else "reference")


def _pca_eigh_fast(D: np.ndarray, m: int):
    """`_pca_eigh` by `mlpr._dimred_fast`, with the checks of the public boundary between its
    steps: D has not been scanned for NaN or inf (a non-finite value shows in the mean, and
    only then is D scanned to name it); an overflow shows in the mean or the covariance."""
    warn_if_transposed(D)
    mu = _dimred_fast.mean(D)
    if not np.isfinite(mu).all():
        check_data(D, "D")  # names the first NaN or inf of D, if any
    check_finite_statistic(mu, D, "D", "the mean")
    C = _dimred_fast.covariance_upper(D, mu)
    check_finite_statistic(C, D, "D", "the covariance")
    P, eigs, total = _dimred_fast.pca_eigh(C, m)
    return P, eigs, mu, total


def _pca_eigh(D: np.ndarray, m: int):
    """P, the m leading eigenvectors of the ML covariance C = U diag(s) U^T, and their
    eigenvalues, decreasing; mu and trace(C)."""
    mu, C = compute_mu_C(D)  # C = 1/N sum_i (x_i - mu)(x_i - mu)^T
    nfeat = C.shape[0]
    s, U = scipy.linalg.eigh(C, subset_by_index=[nfeat - m, nfeat - 1])  # ascending
    return U[:, ::-1], s[::-1], mu, float(np.trace(C))  # P = m leading eigenvectors of C


def _pca_svd(D: np.ndarray, m: int):
    """The same from the SVD of the centred data, D - mu = U Sigma V^T: P = U[:, :m],
    lambda_i = sigma_i^2 / N; C is never formed."""
    warn_if_transposed(D)
    nfeat, N = D.shape
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is detected below
        mu = vcol(D.mean(axis=1))
        DC = D - mu
        total = float(np.sum(DC * DC) / N)  # trace(C)
    check_finite_statistic(np.append(mu, total), D, "D", "the covariance")
    U, sv, _ = np.linalg.svd(DC, full_matrices=m > min(nfeat, N))
    eigs = np.zeros(m)
    k = min(m, sv.size)
    eigs[:k] = sv[:k] ** 2 / N  # lambda_i = sigma_i^2 / N
    return U[:, :m], eigs, mu, total


_PCA_SOLVERS = {"eigh": _pca_eigh, "svd": _pca_svd}


def PCA(D, m: int, method: str = "eigh", solver: str = "auto") -> np.ndarray:
    """Project ``D`` (D, N) onto its m leading principal directions, shape (m, N).

    Same as ``fit_pca(D, m, method, solver).transform(D)``: ``P^T D`` with the uncentred data,
    as in the notes. See `fit_pca`.

    Notes
    -----
    PCA of notes section 3.2, the notes' function: :math:`y = P^T x`.
    """
    return fit_pca(D, m, method, solver).transform(D)


# ------------------------------------------------------------------------------------------------
# LDA


def compute_Sw_Sb(D, L) -> tuple[np.ndarray, np.ndarray]:
    r"""Compute the within-class and between-class covariance matrices, both scaled by 1/N.

    Parameters
    ----------
    D : ndarray, shape (D, N)
    L : ndarray, shape (N,)
        Labels 0..K-1, every class present.

    Returns
    -------
    Sw : ndarray, shape (D, D)
        Within-class covariance.
    Sb : ndarray, shape (D, D)
        Between-class covariance.

    Notes
    -----
    As in the notes, section 3.3, eq. (5) and (6), with :math:`n_c` samples and mean
    :math:`\mu_c` in class c and the global mean :math:`\mu`:

    .. math::

        S_B = \frac{1}{N} \sum_{c=1}^K n_c (\mu_c - \mu)(\mu_c - \mu)^T, \qquad
        S_W = \frac{1}{N} \sum_{c=1}^K \sum_{i \in c} (x_i - \mu_c)(x_i - \mu_c)^T

    so that :math:`S_B + S_W` is the ML covariance of ``D``. Note the order of the returned
    pair, ``(Sw, Sb)``, as the name says.

    Both are computed from centred data (each class centred on the global mean, then on its own
    mean), never as differences of uncentred products or of large means, so they are accurate to
    rounding (about :math:`10^{-15}` of their largest entry) on data far from the origin too.
    """
    D, L = check_data_labels(D, L)
    return _Sw_Sb(D, L)


def _Sw_Sb(D: np.ndarray, L: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sw and Sb (1/N) of validated data, every product taken on centred data.

    The samples of each class are centred on the global mean first, so that the class-mean
    differences mu_c - mu are computed from small numbers instead of as the difference of two
    large means (which cancels on data far from the origin).
    """
    nfeat, N = D.shape
    K = int(L.max()) + 1
    n = np.bincount(L, minlength=K).astype(np.float64)
    M = np.empty((nfeat, K))  # column c: mu_c - mu
    Sw = np.zeros((nfeat, nfeat))
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is detected below
        mu = vcol(D.mean(axis=1))
        for c in range(K):
            Z = D[:, L == c]  # a copy of the class, centred in place
            Z -= mu  # x_i - mu
            M[:, c] = Z.mean(axis=1)  # mu_c - mu
            Z -= M[:, [c]]  # x_i - mu_c
            Sw += Z @ Z.T  # sum_{i in c} (x_i - mu_c)(x_i - mu_c)^T
        # sum_c n_c (mu_c - mu) = 0 exactly; what the computed M gives instead is the rounding
        # of mu, removed here
        M -= vcol(M @ n) / N
        Sb = (M * n) @ M.T  # sum_c n_c (mu_c - mu)(mu_c - mu)^T
        Sw, Sb = Sw / N, 0.5 * (Sb + Sb.T) / N
    check_finite_statistic(np.stack([Sw, Sb]), D, "D", "the within- or between-class covariance")
    return Sw, Sb


@model
class LDAModel:
    """Linear discriminant analysis learned on training data.

    Attributes
    ----------
    W : ndarray, shape (D, m)
        Discriminant directions, ordered by decreasing generalised eigenvalue, normalised so that
        ``W^T Sw W = I``, each with its largest-magnitude entry positive (not orthogonal in
        general, notes section 3.3); or, when fitted with ``basis="orthonormal"``, an
        orthonormal basis of the same subspace (``W^T W = I``), the one that reproduces the
        course's logistic-regression results after LDA.
    mu : ndarray, shape (D, 1)
        Training mean (not subtracted by `transform`).
    eigenvalues : ndarray, shape (m,)
        Generalised eigenvalues ``lambda`` of ``Sb w = lambda Sw w`` (the between/within variance
        ratio along each discriminant direction), decreasing.
    """

    W: np.ndarray
    mu: np.ndarray
    eigenvalues: np.ndarray

    def transform(self, D) -> np.ndarray:
        """Project ``D`` (D, N) onto the discriminant directions: ``W^T D``, shape (m, N)."""
        D = check_data(D, n_features=self.W.shape[0], allow_1d=True,
                       params="the LDA parameters (W, mu)")
        return self.W.T @ D  # y = W^T x


def _lda_directions(Sw, Sb, m: int, method: str) -> tuple[np.ndarray, np.ndarray]:
    """Top-m generalised eigenpairs of (Sb, Sw), normalised to W^T Sw W = I, raw signs."""
    P1 = _whitening_matrix(Sw, "the within-class covariance Sw")
    if method == "geig":
        s, U = scipy.linalg.eigh(Sb, Sw)  # Sb w = lambda Sw w
        return U[:, ::-1][:, :m], s[::-1][:m]
    SbT = P1 @ Sb @ P1.T  # Sb_T = P1 Sb P1^T (Sw whitened to I)
    SbT = 0.5 * (SbT + SbT.T)
    s, U = np.linalg.eigh(SbT)
    P2 = U[:, ::-1][:, :m]
    return P1.T @ P2, s[::-1][:m]  # W = P1^T P2


def _check_between_class_rank(s: np.ndarray, m: int) -> None:
    """Refuse identical class means; warn when some of the m directions see no class separation.

    ``s`` are the m largest generalised eigenvalues, decreasing. Those below sqrt(eps) times the
    largest are rounding noise of a rank-deficient Sb (e.g. collinear class means): their
    directions are an arbitrary basis of part of the null space of Sb.
    """
    if not s[0] > 0.0:
        raise ValueError(
            "the class means are identical (Sb = 0): LDA has no discriminant direction"
        )
    r = int(np.sum(s > np.sqrt(np.finfo(float).eps) * s[0]))
    if r < m:
        warnings.warn(
            f"only {r} of the m = {m} LDA directions separate the class means (Sb has rank "
            f"{r}, e.g. collinear class means): the other {m - r} are arbitrary; use m <= {r}",
            UserWarning,
            stacklevel=3,
        )


def fit_lda(D, L, m: int, method: str = "geig", basis: str = "sw") -> LDAModel:
    r"""Learn the m most discriminant LDA directions of labelled data.

    Parameters
    ----------
    D : ndarray, shape (D, N)
        Training data.
    L : ndarray, shape (N,)
        Labels 0..K-1, every class present.
    m : int
        Number of directions, 1 <= m <= min(K - 1, D): the between-class covariance has rank at
        most K - 1, so further directions carry no class information.
    method : {"geig", "jointdiag"}
        ``"geig"``: generalised eigenproblem ``scipy.linalg.eigh(Sb, Sw)``. ``"jointdiag"``:
        whiten Sw with ``P1 = U diag(1/sqrt(s)) U^T``, diagonalise ``P1 Sb P1^T``, ``W = P1^T P2``.
    basis : {"sw", "orthonormal"}
        ``"sw"`` (default): the discriminant directions themselves, ``W^T Sw W = I``; as the
        notes point out (section 3.3), W need not be orthogonal. ``"orthonormal"``: the left
        singular vectors of those directions, ``W = U`` with ``W_sw = U Sigma V^T``
        (``np.linalg.svd``): the same subspace with ``W^T W = I``. The notes do not ask for it;
        it is offered because it is the basis that reproduces the course's published
        logistic-regression table after LDA (lecture 06). Classifiers
        invariant to an invertible linear map of the features (Gaussian models) give the same
        decisions on both; regularised ones (logistic regression, SVM) do not.

    Returns
    -------
    LDAModel
        ``W`` (D, m), ``mu`` (D, 1), ``eigenvalues`` (m,).

    Raises
    ------
    ValueError
        ``m > K - 1``, ``m > D``, or a singular Sw (apply PCA first).

    Notes
    -----
    Implements LDA of the notes, section 3.3: maximise the Rayleigh quotient of eq. (4), whose
    maximisers solve the generalised eigenproblem of eq. (7),

    .. math:: J(w) = \frac{w^T S_B w}{w^T S_W w}
              \quad\Rightarrow\quad S_B w = \lambda S_W w,

    keeping the eigenvectors of the m largest :math:`\lambda`. Both methods return directions
    with :math:`W^T S_W W = I`, so they agree exactly (up to rounding) when the m largest
    eigenvalues are distinct, and always span the same subspace.
    """
    D, L = check_data_labels(D, L)
    check_choice(method, "method", _LDA_METHODS)
    check_choice(basis, "basis", _LDA_BASES)
    m = check_int(m, "m", low=1)
    nfeat = D.shape[0]
    K = int(L.max()) + 1
    if m > K - 1:
        raise ValueError(
            f"m = {m} but L has K = {K} classes: LDA finds at most K - 1 = {K - 1} directions, "
            f"because the between-class covariance Sb has rank at most K - 1"
        )
    if m > nfeat:
        raise ValueError(
            f"m = {m} exceeds the dimension of D, shape {D.shape}: at most D = {nfeat} directions"
        )
    Sw, Sb = _Sw_Sb(D, L)
    W, s = _lda_directions(Sw, Sb, m, method)
    _check_between_class_rank(s, m)
    if basis == "orthonormal":
        W = np.linalg.svd(W, full_matrices=False)[0]  # W_sw = U Sigma V^T, same span
    return LDAModel(W=np.ascontiguousarray(_fix_signs(W)), mu=vcol(D.mean(axis=1)), eigenvalues=s)


def LDA(D, L, m: int, method: str = "geig", basis: str = "sw") -> np.ndarray:
    """Project ``D`` (D, N) onto its m LDA directions, shape (m, N).

    Same as ``fit_lda(D, L, m, method, basis).transform(D)``; see `fit_lda`.

    Notes
    -----
    LDA of notes section 3.3, the notes' function: :math:`y = W^T x`.
    """
    return fit_lda(D, L, m, method, basis).transform(D)


# ------------------------------------------------------------------------------------------------
# Fisher's criterion and the geometry of a linear discriminant (short notes 003, section 6.2)


def fisher_criterion(w, D, L, scaling: str = "sums") -> float:
    r"""Fisher's criterion J(w): between-class over within-class scatter of the projection w^T x.

    Parameters
    ----------
    w : array_like, shape (D,) or (D, 1)
        A direction, not zero; J depends only on its direction (J(c w) = J(w) for c != 0).
    D : array_like, shape (D, N)
        Data, one column per sample.
    L : array_like, shape (N,)
        Labels 0..K-1, every class present; ``scaling="sums"`` needs K = 2.
    scaling : {"sums", "covariances"}
        ``"sums"`` (default): the two-class criterion of the short notes 003 (eq. 6.5), with
        unnormalised scatter sums. ``"covariances"``: the main notes' LDA criterion (eq. 4), the
        ratio of the 1/N between- and within-class covariances of `compute_Sw_Sb`, for any K.

    Returns
    -------
    float
        J(w) >= 0; ``inf`` when every class projects to a single point and the class means
        differ.

    Raises
    ------
    ValueError
        ``w`` of the wrong size or zero, transposed ``D``, a single class, ``scaling="sums"``
        with K > 2, or a direction along which both scatters vanish (J = 0 / 0).

    Notes
    -----
    Notes 003, eq. (6.5), with :math:`m_k = w^T \mu_k` the projected mean of class k and
    :math:`s_k^2 = \sum_{n \in C_k} (w^T x_n - m_k)^2` its scatter:

    .. math::

        J(w) = \frac{(m_1 - m_0)^2}{s_0^2 + s_1^2}
             = \frac{w^T S_B w}{w^T S_W w}, \qquad
        S_B = (\mu_1 - \mu_0)(\mu_1 - \mu_0)^T, \quad
        S_W = \sum_k \sum_{n \in C_k} (x_n - \mu_k)(x_n - \mu_k)^T .

    The main notes (eq. 5-6) divide both matrices by N and weight the between-class term by the
    class sizes, :math:`S_B = \frac{1}{N}\sum_k n_k (\mu_k - \mu)(\mu_k - \mu)^T`. For two
    classes :math:`\sum_k n_k (\mu_k - \mu)(\mu_k - \mu)^T = \frac{n_0 n_1}{N}(\mu_1 -
    \mu_0)(\mu_1 - \mu_0)^T`, so

    .. math:: J_{\text{covariances}}(w) = \frac{n_0 n_1}{N} \, J_{\text{sums}}(w),

    a constant that does not depend on w: both criteria have the same maximiser, the LDA
    direction :math:`w \propto S_W^{-1}(\mu_1 - \mu_0)` (`fit_lda`), where the main notes'
    J equals the largest generalised eigenvalue of :math:`S_B w = \lambda S_W w`.
    """
    D, L = check_data_labels(D, L)
    w = check_vector(w, D.shape[0], "w")
    check_choice(scaling, "scaling", _FISHER_SCALINGS)
    if not np.any(w):
        raise ValueError("w is the zero vector: Fisher's criterion needs a direction")
    K = int(L.max()) + 1
    if K < 2:
        raise ValueError(
            "L holds a single class (0): Fisher's criterion compares the scatter between classes "
            "with the scatter within them, so it needs at least 2 classes, with either scaling"
        )
    if scaling == "sums" and K != 2:
        raise ValueError(
            f"L has K = {K} classes but scaling='sums' is the two-class criterion of notes 003 "
            f"(eq. 6.5); use scaling='covariances' (the main notes' LDA criterion) for K classes"
        )
    y = _projections(w, D)  # y_n = w^T x_n, up to a positive factor
    between, within = _FISHER_SCATTERS[scaling](y, L, K)
    if within == 0.0:
        if between == 0.0:
            raise ValueError("along w both the between- and the within-class scatter are zero: "
                             "J(w) = 0 / 0 is undefined")
        return float("inf")
    return float(between / within)


def _projections(w: np.ndarray, D: np.ndarray) -> np.ndarray:
    """The projections ``w^T x_n``, divided by their largest magnitude when their squares would
    overflow or underflow: J is a ratio of squares of y, unchanged by the scale of y."""
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        y = (w.T @ D).ravel()  # y_n = w^T x_n
        top = float(np.abs(y).max())
        if not _SAFE_NORM[0] <= top <= _SAFE_NORM[1]:  # squares out of range: rescale
            scale = np.abs(D).max()
            if scale > 0:  # w^T x may itself overflow or underflow: scale w and D first
                y = ((w / np.abs(w).max()).T @ (D / scale)).ravel()
            top = float(np.abs(y).max())
            y = y / top if top > 0 else y
    return y


def _fisher_sums(y: np.ndarray, L: np.ndarray, K: int) -> tuple[float, float]:
    """(m_1 - m_0)^2 and s_0^2 + s_1^2 of the projections y (notes 003, eq. 6.5)."""
    m = [y[L == k].mean() for k in range(2)]  # m_k = w^T mu_k
    s2 = sum(float(np.sum((y[L == k] - m[k]) ** 2)) for k in range(2))  # s_0^2 + s_1^2
    return float((m[1] - m[0]) ** 2), s2


def _fisher_covariances(y: np.ndarray, L: np.ndarray, K: int) -> tuple[float, float]:
    """w^T Sb w and w^T Sw w with the 1/N matrices of `compute_Sw_Sb` (notes eq. 4-6)."""
    Sw, Sb = _Sw_Sb(vrow(y), L)  # the 1 x 1 covariances of the projections: w^T S w
    return float(Sb[0, 0]), float(Sw[0, 0])


_FISHER_SCATTERS = {"sums": _fisher_sums, "covariances": _fisher_covariances}


def _check_hyperplane(w, b, n: int | None = None) -> tuple[np.ndarray, float]:
    """w as a non-zero (D, 1) column and b as a float; a w so large or small that ||w|| would
    overflow or underflow is scaled, with b, by max |w_j|: (w / s, b / s) is the same hyperplane
    and gives the same distances."""
    a = check_array(w, "w")
    w = check_vector(a, a.size if n is None else n, "w")
    if not np.any(w):
        raise ValueError("w is the zero vector: w^T x + b = 0 is not a hyperplane")
    b = check_real(b, "b", what="the bias of w^T x + b")
    scale = float(np.abs(w).max())
    if not _SAFE_NORM[0] <= scale <= _SAFE_NORM[1]:
        w, b = w / scale, b / scale  # max |w_j| = 1: ||w|| between 1 and sqrt(D)
    return w, b


# max |w_j| within which ||w|| = sqrt(sum w_j^2) neither overflows nor underflows
_SAFE_NORM = (1e-150, 1e150)


def _check_points(D, w) -> np.ndarray:
    """The points D as a (D, N) matrix, their number of features checked against the size of
    the normal w, the message naming the argument that disagrees."""
    a = check_array(D, "D")
    n, size = (a.shape[0] if a.ndim == 2 else a.size), np.size(w)
    if a.ndim <= 2 and size != n:
        hint = ("; if D is (samples x features), pass D.T"
                if a.ndim == 2 and a.shape[1] == size else "")
        raise ValueError(
            f"w has {size} entries but the points D have {n} features (rows), shape {a.shape}: "
            f"w is the normal of a hyperplane in the space of D, expected shape ({n},) or "
            f"({n}, 1){hint}"
        )
    return check_data(a, n_features=n, allow_1d=True)


def signed_distance(D, w, b) -> np.ndarray:
    r"""Signed distance of each column of D from the hyperplane w^T x + b = 0, shape (N,).

    Parameters
    ----------
    D : array_like, shape (D, N)
        Points, one per column (a 1-D array of length D is one point).
    w : array_like, shape (D,) or (D, 1)
        Normal of the hyperplane, not zero.
    b : float
        Bias.

    Returns
    -------
    r : ndarray, shape (N,)
        Positive on the side w points to (where the discriminant y(x) = w^T x + b > 0 decides
        class 1), negative on the other, 0 on the hyperplane.

    Notes
    -----
    Notes 003, section 6.2.1: writing :math:`x = x_\perp + r \frac{w}{\|w\|}` with
    :math:`x_\perp` on the hyperplane (`project_on_hyperplane`) and multiplying by
    :math:`w^T` gives

    .. math:: r = \frac{y(x)}{\|w\|} = \frac{w^T x + b}{\|w\|}.
    """
    X = _check_points(D, w)
    w, b = _check_hyperplane(w, b, X.shape[0])
    return _signed_distance(X, w, b)


def _signed_distance(X: np.ndarray, w: np.ndarray, b: float) -> np.ndarray:
    return ((w.T @ X).ravel() + b) / np.linalg.norm(w)  # r = y(x) / ||w||


def hyperplane_offset(w, b) -> float:
    r"""Signed distance of the hyperplane w^T x + b = 0 from the origin, along w: -b / ||w||.

    Parameters
    ----------
    w : array_like, shape (D,) or (D, 1)
        Normal of the hyperplane, not zero.
    b : float
        Bias.

    Returns
    -------
    float
        The hyperplane's point nearest the origin is ``-b / ||w|| * w / ||w||``. The origin's
        own signed distance from the hyperplane (`signed_distance` at x = 0) is its opposite,
        ``b / ||w||``.

    Notes
    -----
    Notes 003, section 6.2.1: for x on the hyperplane, :math:`w^T x = -b`, so its component
    along the unit normal is

    .. math:: \frac{w^T x}{\|w\|} = -\frac{b}{\|w\|}:

    the bias sets the position of the hyperplane, w its orientation.
    """
    w, b = _check_hyperplane(w, b)
    return -b / float(np.linalg.norm(w))  # w^T x / ||w|| = -b / ||w||


def project_on_hyperplane(D, w, b) -> np.ndarray:
    r"""Orthogonal projection of each column of D on the hyperplane w^T x + b = 0, (D, N).

    Parameters
    ----------
    D : array_like, shape (D, N)
        Points, one per column (a 1-D array of length D is one point).
    w : array_like, shape (D,) or (D, 1)
        Normal of the hyperplane, not zero.
    b : float
        Bias.

    Returns
    -------
    ndarray, shape (D, N)
        :math:`x_\perp`, with :math:`w^T x_\perp + b = 0` up to rounding.

    Notes
    -----
    Notes 003, section 6.2.1: :math:`x = x_\perp + r \frac{w}{\|w\|}`, so

    .. math:: x_\perp = x - r \frac{w}{\|w\|}, \qquad r = \frac{w^T x + b}{\|w\|}.
    """
    X = _check_points(D, w)
    w, b = _check_hyperplane(w, b, X.shape[0])
    r = _signed_distance(X, w, b)
    return X - (w / np.linalg.norm(w)) * vrow(r)  # x_perp = x - r w / ||w||


# ------------------------------------------------------------------------------------------------
# whitening


@model
class WhiteningModel:
    """A whitening transform learned on training data.

    Attributes
    ----------
    W : ndarray, shape (D, D)
        Symmetric inverse square root of the whitened covariance S: ``W = U diag(1/sqrt(s)) U^T``
        with ``S = U diag(s) U^T``, so ``W^T S W = I``.
    mu : ndarray, shape (D, 1)
        Training mean (not subtracted by `transform`; covariances do not depend on it).

    Notes
    -----
    The whitening step of LDA by joint diagonalisation, notes section 3.3, eq. (9).
    """

    W: np.ndarray
    mu: np.ndarray

    def transform(self, D) -> np.ndarray:
        """Whiten ``D`` (D, N): ``W^T D``, shape (D, N)."""
        D = check_data(D, n_features=self.W.shape[0], allow_1d=True,
                       params="the whitening parameters (W, mu)")
        return self.W.T @ D  # y = P_1^T x


def fit_whitening(D, L=None) -> WhiteningModel:
    r"""Learn the transform that whitens the within-class (``L`` given) or total covariance.

    Parameters
    ----------
    D : ndarray, shape (D, N)
        Training data.
    L : ndarray, shape (N,), optional
        Labels 0..K-1. If given, the within-class covariance Sw of `compute_Sw_Sb` is whitened;
        otherwise the ML (1/N) covariance of ``D``.

    Returns
    -------
    WhiteningModel
        After ``Y = model.transform(D)``, ``compute_Sw_Sb(Y, L)[0]`` (or the covariance of Y) is
        the identity.

    Raises
    ------
    ValueError
        Singular covariance (apply PCA first).

    Warns
    -----
    UserWarning
        Without labels, ``D`` has fewer samples (columns) than features (rows), the usual sign of
        an (N, D) matrix passed for a (D, N) one (`mlpr._validation.warn_if_transposed`).

    Notes
    -----
    The first step of LDA by joint diagonalisation (notes section 3.3, eq. 9 and the whitening
    :math:`P_W = U_W \Sigma_W^{-1/2} U_W^T` after it):

    .. math:: S = U \operatorname{diag}(s) U^T, \qquad
              P_1 = U \operatorname{diag}(s^{-1/2}) U^T, \qquad P_1 S P_1^T = I.
    """
    if L is None:
        D = check_data(D)
        mu, S = compute_mu_C(D)  # C = 1/N sum_i (x_i - mu)(x_i - mu)^T; warns on (N, D) data
        return WhiteningModel(W=_whitening_matrix(S, "the covariance of D", D.shape), mu=mu)
    D, L = check_data_labels(D, L)
    mu = vcol(D.mean(axis=1))
    S = _Sw_Sb(D, L)[0]
    return WhiteningModel(W=_whitening_matrix(S, "the within-class covariance Sw"), mu=mu)


# ------------------------------------------------------------------------------------------------
# LDA as a binary classifier


@model
class LDABinaryClassifier:
    """Binary classifier: LDA projection followed by a threshold.

    Attributes
    ----------
    w : ndarray, shape (D, 1)
        LDA direction (``w^T Sw w = 1``), oriented so that the projected mean of class 1 is larger
        than that of class 0.
    t : float
        Threshold: a sample is assigned to class 1 when ``w^T x > t``, strictly; a score exactly
        at the threshold goes to class 0 (the library's one decision rule, notes eq. 128).
    """

    w: np.ndarray
    t: float

    def scores(self, D) -> np.ndarray:
        """Projections ``w^T x`` of the samples of ``D`` (D, N), shape (N,); larger is class 1."""
        D = check_data(D, n_features=self.w.shape[0], allow_1d=True)
        return (self.w.T @ D).ravel()

    def predict(self, D) -> np.ndarray:
        """Predicted labels (N,): 1 where ``w^T x > t``, 0 elsewhere (also at ``w^T x == t``)."""
        return (self.scores(D) > self.t).astype(int)  # class 1 iff w^T x > t (eq. 128)


def _min_error_threshold(s: np.ndarray, L: np.ndarray, t_ref: float) -> float:
    """Threshold minimising training errors of ``s > t``; ties go to the one closest to t_ref.

    Candidates: one threshold inside every gap between consecutive distinct sorted scores (its
    midpoint, or the lower score if the midpoint rounds onto the upper one), plus -inf
    (everything class 1) and +inf (everything class 0); under the strict rule, where a score
    equal to t goes to class 0, together they realise every possible partition of the scores.
    """
    order = np.argsort(s, kind="stable")
    ss, ls = s[order], L[order]
    N = ss.size
    # errors when the i lowest scores are assigned to class 0 (i = 0..N):
    # class-1 samples among them plus class-0 samples among the others
    ones_below = np.concatenate(([0], np.cumsum(ls == 1)))
    zeros_below = np.concatenate(([0], np.cumsum(ls == 0)))
    errors = ones_below + (zeros_below[-1] - zeros_below)
    # only split positions between distinct scores are realisable by a threshold
    valid = np.ones(N + 1, dtype=bool)
    valid[1:N] = ss[1:] > ss[:-1]
    t = np.empty(N + 1)
    t[0], t[N] = -np.inf, np.inf
    mid = 0.5 * (ss[:-1] + ss[1:])
    # t must satisfy ss[i-1] <= t < ss[i]; the midpoint of two adjacent floats may round onto
    # the upper one: use the lower one then (it goes to class 0, as the rule says)
    t[1:N] = np.where(mid < ss[1:], mid, ss[:-1])
    cand = np.flatnonzero(valid & (errors == errors[valid].min()))
    return float(t[cand[np.argmin(np.abs(t[cand] - t_ref))]])


def train_lda_binary(D, L, threshold: str = "midpoint") -> LDABinaryClassifier:
    r"""Train a binary LDA classifier: project on the LDA direction, then threshold.

    Parameters
    ----------
    D : ndarray, shape (D, N)
        Training data.
    L : ndarray, shape (N,)
        Binary labels {0, 1}, both present.
    threshold : {"midpoint", "min_error"}
        ``"midpoint"``: halfway between the projected class means, as in the notes.
        ``"min_error"``: the threshold with the fewest training errors under the rule
        ``w^T x > t``, searched over one candidate in every gap between consecutive sorted
        training scores (their midpoint) and the two trivial ones (-inf, +inf); among equally
        good candidates the one closest to the midpoint threshold. Vectorised with one sort and
        cumulative sums.

    Returns
    -------
    LDABinaryClassifier
        ``w`` (D, 1) and ``t``; ``predict(D) = (w^T x > t)``: a score exactly at ``t`` is class
        0 (notes eq. 128, the library's one decision rule).

    Notes
    -----
    For two classes the LDA direction is proportional to :math:`S_W^{-1}(\mu_1 - \mu_0)`; it
    is oriented so that :math:`w^T \mu_1 > w^T \mu_0` and

    .. math:: t_{\mathrm{midpoint}} = \frac{w^T \mu_0 + w^T \mu_1}{2}.
    """
    D, L = check_data_labels(D, L, n_classes=2)  # labels in {0, 1}, both present
    check_choice(threshold, "threshold", _THRESHOLDS)
    Sw, Sb = _Sw_Sb(D, L)
    W, _ = _lda_directions(Sw, Sb, 1, "geig")
    w = W[:, :1]
    s = (w.T @ D).ravel()
    m0, m1 = s[L == 0].mean(), s[L == 1].mean()
    if m1 == m0:
        raise ValueError(
            "the two classes have the same mean: LDA has no discriminant direction "
            "(Sb = 0); use a classifier that models covariances instead"
        )
    if m1 < m0:  # orient class 1 to the right
        w, s, m0, m1 = -w, -s, -m0, -m1
    t = 0.5 * (m0 + m1)  # t = (w^T mu_0 + w^T mu_1) / 2
    if threshold == "min_error":
        t = _min_error_threshold(s, L, t)
    return LDABinaryClassifier(w=np.ascontiguousarray(w), t=float(t))
