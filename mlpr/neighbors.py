"""Prototype classifiers: nearest class mean and k-nearest neighbours.

Nearest class mean. A sample is assigned to the class whose training mean is closest, in
Euclidean distance or in the Mahalanobis distance of the within-class covariance Sw shared by all
classes. The score of class k is minus the squared distance to its mean; it expands into a linear
function of x plus a term common to all classes, so both variants are linear classifiers (the
Mahalanobis one is the Euclidean one after whitening Sw, and ranks classes like the tied Gaussian
classifier with uniform priors).

k-nearest neighbours. A sample receives the fraction of each class among its k closest training
samples (squared Euclidean distance) as posterior estimate, and the majority class as label.
Distances to all training samples are computed one block of queries at a time, so memory stays
bounded whatever the number of queries.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg

from . import _neighbors_fast
from ._validation import (
    check_choice,
    check_data,
    check_data_labels,
    check_finite_statistic,
    check_int,
    check_real,
    check_solver,
)
from .utils import model

__all__ = [
    "NearestMeanClassifier",
    "train_nearest_mean",
    "KNNClassifier",
    "train_knn",
    "BLOCK_BYTES",
]

_METRICS = ("euclidean", "mahalanobis")

BLOCK_BYTES = 256 * 2**20
"""Default memory budget, in bytes, of one block of k-NN queries (`KNNClassifier.kneighbors`)."""


# ------------------------------------------------------------------------------------------------
# nearest class mean


def _neg_sq_dist(M: np.ndarray, X: np.ndarray) -> np.ndarray:
    """``-||x_n - m_k||^2`` for the columns of M (d, K) and X (d, N), shape (K, N), by one
    matrix product: ``2 m^T x - ||m||^2 - ||x||^2``."""
    m_sq = np.sum(M * M, axis=0)[:, None]  # ||m_k||^2, (K, 1)
    x_sq = np.sum(X * X, axis=0)[None, :]  # ||x_n||^2, (1, N)
    return 2.0 * (M.T @ X) - m_sq - x_sq


@model
class NearestMeanClassifier:
    """Nearest class mean classifier (Euclidean or Mahalanobis distance).

    Attributes
    ----------
    mu : ndarray, shape (D, K)
        Training mean of each class, one column per class.
    metric : {"euclidean", "mahalanobis"}
        Distance to the class means.
    Sw : ndarray, shape (D, D), or None
        Within-class covariance (1/N) of the training data; None for the Euclidean metric.
    Sw_chol : ndarray, shape (D, D), or None
        Lower-triangular Cholesky factor of ``Sw``, ``Sw = Sw_chol @ Sw_chol.T``; None for the
        Euclidean metric.

    Notes
    -----
    A prototype method (not a chapter of the notes); the Mahalanobis metric uses the
    within-class covariance Sw of LDA, notes eq. (6).
    """

    mu: np.ndarray
    metric: str = "euclidean"
    Sw: np.ndarray | None = None
    Sw_chol: np.ndarray | None = None

    def scores(self, D) -> np.ndarray:
        r"""Minus the squared distance of each sample to each class mean, shape (K, N).

        Parameters
        ----------
        D : ndarray, shape (D, N)

        Notes
        -----
        Euclidean: computed with one matrix product rather than by broadcasting a (D, K, N)
        array,

        .. math:: S_{kn} = -\lVert x_n - \mu_k \rVert^2
                  = 2 \mu_k^T x_n - \lVert \mu_k \rVert^2 - \lVert x_n \rVert^2 .

        The last term is the same for every class, so ranking the classes only needs the linear
        discriminant :math:`2 \mu_k^T x - \lVert \mu_k \rVert^2`.

        Mahalanobis: with :math:`S_W = L_W L_W^T` (``Sw_chol``), the data and the means are
        whitened once by triangular solves, :math:`y = L_W^{-1} x`, :math:`m_k = L_W^{-1}\mu_k`,
        and the Euclidean formula is applied to them:

        .. math:: S_{kn} = -(x_n - \mu_k)^T S_W^{-1} (x_n - \mu_k)
                  = -\lVert y_n - m_k \rVert^2 .

        Rounding may leave scores of order 1e-16 times the squared norms above zero.
        """
        D = check_data(D, n_features=self.mu.shape[0], allow_1d=True)
        with np.errstate(over="ignore", invalid="ignore"):  # overflow is detected below
            if self.metric == "mahalanobis":
                Y = scipy.linalg.solve_triangular(self.Sw_chol, D, lower=True)  # y = Lw^-1 x
                M = scipy.linalg.solve_triangular(self.Sw_chol, self.mu, lower=True)
                S = _neg_sq_dist(M, Y)  # -(x - mu_k)^T Sw^-1 (x - mu_k) = -||y - m_k||^2
            else:
                S = _neg_sq_dist(self.mu, D)  # -||x - mu_k||^2
        return check_finite_statistic(S, D, "D", "the squared distances to the class means")

    def predict(self, D) -> np.ndarray:
        """Index of the nearest class mean for each sample of ``D`` (D, N), shape (N,)."""
        return np.argmax(self.scores(D), axis=0)


def _within_class_cholesky(D: np.ndarray, L: np.ndarray, mu: np.ndarray):
    """Within-class covariance Sw (1/N) of validated data and its lower Cholesky factor.

    A (numerically) singular Sw is a ValueError that gives its rank and suggests PCA.
    """
    nfeat, N = D.shape
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is detected below
        DC = D - mu[:, L]  # every sample minus the mean of its class
        Sw = (DC @ DC.T) / N  # Sw = 1/N sum_c sum_{i in c} (x_i - mu_c)(x_i - mu_c)^T
    check_finite_statistic(Sw, D, "D", "the within-class covariance Sw")
    s = np.linalg.eigvalsh(Sw)
    tol = nfeat * np.finfo(float).eps * max(s.max(), 0.0)
    rank = int(np.sum(s > tol))
    if rank < nfeat or s.max() <= 0.0:
        remedy = (
            f"reduce the dimension first with PCA, e.g. fit_pca(D, m) with m <= {rank}, or use "
            f"metric='euclidean'"
            if rank
            else "it is zero (e.g. a single sample per class): use metric='euclidean'"
        )
        raise ValueError(
            f"the within-class covariance Sw is singular: its rank is {rank} but D has {nfeat} "
            f"features (constant features, linearly dependent features, or fewer than "
            f"K + {nfeat} samples), so the Mahalanobis distance is undefined; {remedy}"
        )
    return Sw, scipy.linalg.cholesky(Sw, lower=True)


def train_nearest_mean(D, L, metric: str = "euclidean") -> NearestMeanClassifier:
    r"""Learn the class means (and, for Mahalanobis, Sw) for nearest-mean classification.

    Parameters
    ----------
    D : ndarray, shape (D, N)
        Training data.
    L : ndarray, shape (N,)
        Labels 0..K-1, every class present.
    metric : {"euclidean", "mahalanobis"}
        ``"mahalanobis"`` measures distances with the inverse of the within-class covariance
        Sw shared by all classes (the tied covariance, scaled by 1/N as in `compute_Sw_Sb`).

    Returns
    -------
    NearestMeanClassifier
        ``mu`` (D, K), column k the sample mean of class k; for Mahalanobis also ``Sw`` and its
        Cholesky factor ``Sw_chol``.

    Raises
    ------
    ValueError
        Unknown metric; for Mahalanobis, a singular Sw (apply PCA first).

    Notes
    -----
    Prototype method; Sw is the within-class covariance of notes eq. (6)
    (`mlpr.dimred.compute_Sw_Sb`).

    .. math:: \mu_k = \frac{1}{n_k} \sum_{i : l_i = k} x_i, \qquad
              S_W = \frac{1}{N} \sum_{k} \sum_{i : l_i = k} (x_i - \mu_k)(x_i - \mu_k)^T,

    .. math:: \hat{k}(x) = \arg\min_k \lVert x - \mu_k \rVert^2 \quad \text{or} \quad
              \arg\min_k (x - \mu_k)^T S_W^{-1} (x - \mu_k).
    """
    check_choice(metric, "metric", _METRICS)
    D, L = check_data_labels(D, L)
    K = int(L.max()) + 1
    # each class mean from a (C-ordered) copy of its samples: the same numbers, to the last bit,
    # whatever the memory layout of D, and the same as the means of the Gaussian classifiers
    mu = np.stack([D[:, L == k].mean(axis=1) for k in range(K)], axis=1)  # mu_k = 1/n_k sum x_i
    if metric == "euclidean":
        return NearestMeanClassifier(mu=mu)
    Sw, Sw_chol = _within_class_cholesky(D, L, mu)
    return NearestMeanClassifier(mu=mu, metric="mahalanobis", Sw=Sw, Sw_chol=Sw_chol)


# ------------------------------------------------------------------------------------------------
# k-nearest neighbours


def _sq_dist(X: np.ndarray, Q: np.ndarray) -> np.ndarray:
    """Squared distances ``R[j, i] = ||x_i - q_j||^2`` of the columns of X (d, N) and Q (d, b),
    shape (b, N), summed feature by feature from the differences (never negative, exactly 0
    for a duplicate of the query)."""
    R = np.zeros((Q.shape[1], X.shape[1]))
    for f in range(X.shape[0]):  # one (b, N) array in memory, whatever d
        diff = X[f][None, :] - Q[f][:, None]  # x_fi - q_fj
        R += diff * diff
    return R


def _kneighbors_reference(X: np.ndarray, Q: np.ndarray, k: int,
                          block_bytes: int) -> tuple[np.ndarray, np.ndarray]:
    """The plain search: all N squared distances of each query, sorted by (distance, index).

    Returns indices and squared distances, both (M, k). Queries go one block at a time, about
    ``block_bytes`` for the block's distances and their sort order.
    """
    N, M = X.shape[1], Q.shape[1]
    b = max(1, block_bytes // (16 * N))
    idx, d2 = np.empty((M, k), dtype=np.int64), np.empty((M, k))
    for start in range(0, M, b):
        R = _sq_dist(X, Q[:, start : start + b])  # (b, N)
        order = np.argsort(R, axis=1, kind="stable")[:, :k]  # stable: ties by training index
        idx[start : start + b] = order
        d2[start : start + b] = np.take_along_axis(R, order, axis=1)
    return idx, d2


_KNN_SOLVERS = {"auto": _neighbors_fast.kneighbors, "reference": _kneighbors_reference}


def _votes(nn_labels: np.ndarray, K: int, within: np.ndarray | None = None) -> np.ndarray:
    """Counts of each class among the neighbours' labels (k, M), shape (K, M); with ``within``
    (k, M) booleans, only the neighbours it marks count (the neighbourhood N_h of notes 004)."""
    k, M = nn_labels.shape
    flat = (nn_labels + K * np.arange(M)[None, :]).ravel()
    weights = None if within is None else within.ravel().astype(np.float64)
    counts = np.bincount(flat, weights=weights, minlength=K * M).reshape(M, K).T
    return counts if within is None else counts.astype(np.int64)


def _vote_decisions(nn_labels: np.ndarray, K: int,
                    within: np.ndarray | None = None) -> np.ndarray:
    """Majority class of each column of sorted neighbour labels (k, M), ties broken toward the
    tied class that owns the highest-ranked (nearest) neighbour; with ``within``, the votes of
    the marked neighbours only (an empty neighbourhood ties every class: the nearest
    neighbour's class)."""
    counts = _votes(nn_labels, K, within)
    cols = np.arange(nn_labels.shape[1])
    tied = counts == counts.max(axis=0, keepdims=True)  # (K, M)
    in_tied = tied[nn_labels, cols[None, :]]  # (k, M): neighbour j belongs to a tied class
    first = np.argmax(in_tied, axis=0)  # rank of the nearest such neighbour
    return nn_labels[first, cols]


def _check_k(k, N: int, name: str = "k") -> int:
    k = check_int(k, name, low=1)
    if k > N:
        raise ValueError(f"{name} must be <= the number of training samples N = {N}, got {k}")
    return k


@model
class KNNClassifier:
    r"""k-nearest neighbours classifier (squared Euclidean distance; notes 004).

    Attributes
    ----------
    D : ndarray, shape (D, N)
        Training data (a read-only copy), one column per sample.
    L : ndarray, shape (N,)
        Training labels 0..K-1.
    k : int
        Number of neighbours, 1 <= k <= N.
    K : int
        Number of classes.
    h : float or None
        The radius of notes 004's neighbourhood, or None (no radius: N_h is the k nearest).

    Notes
    -----
    A prototype method (not a chapter of the notes; notes 004 give the posterior estimate
    :math:`p(c \mid x) = \frac{1}{|N_h(x)|} \sum_{x_n \in N_h(x)} [y_n = c]` over the
    neighbourhood :math:`N_h(x) = \text{top-}k\{x_n : d(x_n, x) \le h\}`, the k nearest of the
    training points within distance h of x).

    Radius. With ``h`` set, only the k nearest neighbours within distance h vote. A query with
    no training point within h has an empty neighbourhood: its posterior estimate is the uniform
    1/K (no evidence for any class), and its prediction, every class being tied at zero votes, is
    by the tie rule below the class of its nearest training sample (as 1-NN). `n_within` tells
    how many neighbours each query has within h.

    Neighbour order. The neighbours of a query are sorted by squared distance and, among training
    samples at exactly the same distance (duplicates, symmetric configurations), by increasing
    training index. This order is total, so the k nearest are a well-defined set and the first
    k' <= k of them are the k' nearest.

    Decision rule. The prediction is the class with most votes among the k neighbours. Among
    classes tied for the most votes, it is the one whose nearest member among the k neighbours
    comes first in the neighbour order (closest, then lowest training index); equivalently, the
    label of the highest-ranked neighbour that belongs to a most-voted class. With k = 1 it is the
    label of the nearest neighbour.

    The training set is kept as is: scoring training samples finds each sample among its own
    neighbours, at distance 0 (no leave-one-out).
    """

    D: np.ndarray
    L: np.ndarray
    k: int
    K: int
    h: float | None = None

    def _queries(self, D) -> np.ndarray:
        return check_data(D, n_features=self.D.shape[0], allow_1d=True)

    def kneighbors(
        self, D, k: int | None = None, *, block_bytes: int = BLOCK_BYTES, solver: str = "auto"
    ) -> tuple[np.ndarray, np.ndarray]:
        r"""Indices and squared distances of the k nearest training samples of each query.

        Parameters
        ----------
        D : ndarray, shape (D, M)
            Queries, one column per sample.
        k : int, optional
            Number of neighbours, 1 <= k <= N; default the model's ``k``.
        block_bytes : int
            Memory budget of one block of queries, default `BLOCK_BYTES` (256 MiB): a block
            holds as many queries as fit three (N,) float64 arrays each (in the worst case; one
            usually), at least one query. Results do not depend on it.
        solver : {"auto", "reference"}, default "auto"
            ``"reference"``: every squared distance from the differences, sorted
            (`_kneighbors_reference`, plain and slow). ``"auto"``: the steps below, in the
            private module ``mlpr._neighbors_fast``; the same neighbours and the same distances,
            bit for bit (tested).

        Returns
        -------
        idx : ndarray, shape (k, M), int64
            Column j lists the training indices of the neighbours of query j, nearest first
            (ties by training index).
        d2 : ndarray, shape (k, M)
            Their squared Euclidean distances, non-decreasing down each column.

        Notes
        -----
        The neighbours are the k smallest squared distances
        :math:`\sum_f (x_{fi} - q_{fj})^2`, summed feature by feature from the differences, ties
        by training index. The fast method finds them, for each block of queries (centred, with
        the training data, by the training mean, which leaves distances unchanged and reduces
        the cancellation in the expansion; the blocks shared between threads):

        1. the expansion of all squared distances, one matrix product per block,

           .. math:: d^2(x_i, q_j) = \lVert x_i \rVert^2 - 2 x_i^T q_j + \lVert q_j \rVert^2,

           without the last term, constant per query (the product of the augmented matrices
           :math:`[x_i; \lVert x_i \rVert^2]` and :math:`[-2 q_j; 1]`, in single precision
           when the scale of the data allows it);
        2. the ``k + max(k, 16)`` smallest values per query, unordered (``np.argpartition``
           applied to the entries below a threshold taken from a strided subset of each row);
        3. the distances of these candidates recomputed from the differences,
           :math:`\sum_f (x_{fi} - q_{fj})^2`: never negative, and exactly 0 for a training
           sample equal to the query; the candidates are sorted by (distance, index);
        4. a certificate: the expansion's round-off is bounded by
           :math:`\epsilon_j = (4D + 16)\,\varepsilon\,(\max_i \lVert x_i \rVert^2 +
           \lVert q_j \rVert^2)`, :math:`\varepsilon` the machine epsilon of the product; if
           the smallest discarded value minus :math:`2\epsilon_j` does not exceed the k-th
           recomputed distance (near-ties, many duplicates), the query is ranked again on the
           recomputed distances to all N training samples.

        So the returned neighbours are the k nearest by the recomputed distances whatever the
        round-off of the expansion, and a query equal to a training sample finds it at distance
        0 (k = 1 makes no error on a training set without conflicting duplicates). Time is
        dominated by the (M, D+1) x (D+1, N) product and the selection; on MNIST after PCA to 50
        dimensions (60,000 training, 10,000 test samples) both take about a second on two cores.
        """
        Q = self._queries(D)
        k = self.k if k is None else _check_k(k, self.D.shape[1])
        block_bytes = check_int(block_bytes, "block_bytes", low=1)
        search = _KNN_SOLVERS[check_solver(solver, tuple(_KNN_SOLVERS))]
        # an overflowing expansion is caught by the exact fallback; only the exact distances
        # (step 3) decide, and they must be finite
        with np.errstate(over="ignore", invalid="ignore"):
            idx, d2 = search(self.D, Q, k, block_bytes)
        if not np.all(np.isfinite(d2)):
            raise ValueError(
                f"the squared distances between D and the training samples overflow float64 "
                f"(largest |value|: {float(np.abs(Q).max()):.3g} in D, "
                f"{float(np.abs(self.D).max()):.3g} in the training data); rescale both first, "
                f"e.g. divide them by the same constant"
            )
        return idx.T, d2.T

    def _within(self, d2: np.ndarray) -> np.ndarray | None:
        """The neighbours within distance h (d^2 <= h^2), or None without a radius."""
        return None if self.h is None else d2 <= self.h * self.h

    def n_within(self, D, *, block_bytes: int = BLOCK_BYTES) -> np.ndarray:
        """:math:`|N_h(q)|`: how many of the k nearest training samples of each query lie within
        distance h, shape (M,) (k without a radius)."""
        _, d2 = self.kneighbors(D, block_bytes=block_bytes)
        within = self._within(d2)
        return np.full(d2.shape[1], self.k) if within is None else within.sum(axis=0)

    def scores(self, D, *, block_bytes: int = BLOCK_BYTES, solver: str = "auto") -> np.ndarray:
        r"""Posterior estimates: fraction of each class in the neighbourhood, (K, M).

        .. math:: S_{cj} = P(c \mid q_j) \approx \frac{k_c(q_j)}{|N_h(q_j)|},

        with :math:`k_c(q_j)` the number of the neighbours of :math:`q_j` (the k nearest, within
        h when the model has a radius) that belong to class c. Each column sums to 1; a query
        without any training point within h gets 1/K for every class (see the class Notes).
        ``solver`` chooses the neighbour search (`kneighbors`); both give the same numbers.
        """
        idx, d2 = self.kneighbors(D, block_bytes=block_bytes, solver=solver)
        within = self._within(d2)
        counts = _votes(self.L[idx], self.K, within)
        n = self.k if within is None else within.sum(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            S = counts / n
        if within is not None:
            S[:, n == 0] = 1.0 / self.K
        return S

    def predict(self, D, *, block_bytes: int = BLOCK_BYTES, solver: str = "auto") -> np.ndarray:
        """Majority class among the neighbours (the k nearest, within h with a radius), shape
        (M,); among classes tied for the most votes, the one with the nearest neighbour (see the
        class Notes). ``solver`` chooses the neighbour search (`kneighbors`); both give the
        same predictions."""
        idx, d2 = self.kneighbors(D, block_bytes=block_bytes, solver=solver)
        return _vote_decisions(self.L[idx], self.K, self._within(d2))

    def predict_for_ks(self, D, ks, *, block_bytes: int = BLOCK_BYTES) -> np.ndarray:
        """Predictions for several numbers of neighbours from one neighbour search.

        Parameters
        ----------
        D : ndarray, shape (D, M)
        ks : sequence of int
            Each 1 <= k <= N (the model's ``k`` is not used).

        Returns
        -------
        ndarray, shape (len(ks), M)
            Row i equals ``train_knn(DTR, LTR, ks[i]).predict(D)``: the neighbours are searched
            once for ``max(ks)`` and, the order being total, the first k of them are the k
            nearest.
        """
        if isinstance(ks, (str, bytes)) or not np.iterable(ks):
            raise TypeError(f"ks must be a sequence of integers, got {ks!r}")
        ks = [_check_k(k, self.D.shape[1], f"ks[{i}]") for i, k in enumerate(ks)]
        if not ks:
            raise ValueError("ks must hold at least one number of neighbours")
        idx, d2 = self.kneighbors(D, max(ks), block_bytes=block_bytes)
        nn_labels, within = self.L[idx], self._within(d2)
        return np.stack([_vote_decisions(nn_labels[:k], self.K,
                                         None if within is None else within[:k]) for k in ks])


def train_knn(D, L, k: int, h: float | None = None) -> KNNClassifier:
    """Store labelled training data for k-nearest-neighbour classification (notes 004).

    Parameters
    ----------
    D : ndarray, shape (D, N)
        Training data.
    L : ndarray, shape (N,)
        Labels 0..K-1, every class present.
    k : int
        Number of neighbours, 1 <= k <= N.
    h : float, optional
        Radius of the neighbourhood of notes 004, > 0: only the k nearest training points
        within Euclidean distance h vote (`KNNClassifier` Notes give the rule for a query with
        none). None (default): the k nearest, whatever their distance.

    Returns
    -------
    KNNClassifier
        ``D`` and ``L`` (read-only copies), ``k``, ``K = max(L) + 1``.

    Notes
    -----
    Prototype method (recitation notes).

    Learning is memorising: all the work happens in `KNNClassifier.kneighbors`. The class
    posterior estimate :math:`k_c / k` (`KNNClassifier.scores`) is the one of the recitation
    notes; the tie-breaking rule of `KNNClassifier.predict` is given in the class Notes.
    """
    D, L = check_data_labels(D, L)
    k = _check_k(k, D.shape[1])
    if h is not None:
        h = check_real(h, "h", low=0.0, strict=True)
    D = np.array(D, dtype=np.float64, order="C")  # own, C-ordered copy: rows are read per feature
    L = L.copy()
    D.flags.writeable = False
    L.flags.writeable = False
    return KNNClassifier(D=D, L=L, k=k, K=int(L.max()) + 1, h=h)
