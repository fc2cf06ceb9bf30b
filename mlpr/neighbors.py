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

from .utils import (
    check_choice,
    check_data,
    check_data_labels,
    check_finite_statistic,
    check_int,
    check_real,
    model,
)

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


def _sq_dist_direct(X: np.ndarray, Q: np.ndarray, idx: np.ndarray | None = None) -> np.ndarray:
    """Squared distances summed feature by feature from the differences, in float64.

    ``X`` (d, N) training data, ``Q`` (d, b) queries. With ``idx`` (b, c) of training indices,
    returns ``R[j, i] = ||x_idx[j, i] - q_j||^2``, shape (b, c); without, all distances (b, N).
    Every entry is accumulated in the same order, so equal difference vectors give bit-equal
    distances and a duplicate of the query gives exactly 0.
    """
    R = None
    for f in range(X.shape[0]):  # a loop over features keeps memory at one (b, c) array
        xf = X[f][idx] if idx is not None else X[f][None, :]
        diff = xf - Q[f][:, None]
        R = diff * diff if R is None else R + diff * diff
    return R


def _candidate_margin(k: int) -> int:
    """Extra candidates kept by the approximate selection beyond the k needed."""
    return max(k, 16)


def _block_size(N: int, nfeat: int, n_cand: int, block_bytes: int) -> int:
    """Queries per block such that its working arrays fit in ``block_bytes``: at most three
    (b, N) 8-byte arrays (the expansion, and the exact fallback's distances and sort order) and
    a few (b, n_cand) candidate arrays."""
    per_query = 8 * (3 * N + 4 * n_cand + nfeat)
    return max(1, block_bytes // per_query)


def _smallest_unordered(G: np.ndarray, n: int) -> np.ndarray:
    """Column indices of the n smallest entries of each row of G (b, N), unordered, (b, n).

    Every entry left out is >= every selected entry of its row. Same contract as
    ``np.argpartition(G, n - 1, axis=1)[:, :n]``, about twice as fast on wide rows: the n-th
    smallest entry of a strided subset of each row is a threshold that at least n entries of the
    full row meet, so one comparison pass leaves a few hundred candidates per row, and only
    those are partitioned.
    """
    b, N = G.shape
    stride = min(N // (8 * n), 32)  # the subset keeps >= 8n entries per row
    if stride >= 4:
        t = np.partition(G[:, ::stride], n - 1, axis=1)[:, n - 1]  # >= n-th smallest of the row
        flat = np.flatnonzero(G <= t[:, None])
        rows = flat // N
        counts = np.bincount(rows, minlength=b)  # each >= n
        width = int(counts.max())
        if 4 * width <= N:
            pos = np.arange(flat.size) - np.repeat(np.cumsum(counts) - counts, counts)
            P = np.full((b, width), np.inf)  # rows padded with +inf, never among the n smallest
            P[rows, pos] = G.ravel()[flat]
            C = np.zeros((b, width), dtype=np.int64)
            C[rows, pos] = flat - rows * N
            return np.take_along_axis(C, np.argpartition(P, n - 1, axis=1)[:, :n], axis=1)
    # plain argpartition, a few rows at a time so that its (rows, N) index output stays small
    out = np.empty((b, n), dtype=np.int64)
    for s in range(0, b, 32):
        out[s : s + 32] = np.argpartition(G[s : s + 32], n - 1, axis=1)[:, :n]
    return out


def _kneighbors(
    X: np.ndarray, Q: np.ndarray, k: int, block_bytes: int
) -> tuple[np.ndarray, np.ndarray]:
    """k nearest training columns of X (d, N) for each query column of Q (d, M), validated.

    Returns indices and squared distances, both (M, k), each row sorted by (distance, index).
    """
    nfeat, N = X.shape
    M = Q.shape[1]
    n_cand = min(N, k + _candidate_margin(k))
    b = _block_size(N, nfeat, n_cand, block_bytes)
    # Centring by the training mean leaves distances unchanged and shrinks the norms that
    # cancel in the expansion, hence its round-off.
    mu = X.mean(axis=1, keepdims=True)
    Xa = _augmented(X, mu)
    # one distance buffer for all blocks: fresh large arrays cost a page fault per 4 KiB
    G_buf = np.empty((min(b, M), N)) if n_cand < N else None
    idx_out = np.empty((M, k), dtype=np.int64)
    d2_out = np.empty((M, k))
    for start in range(0, M, b):
        sl = slice(start, start + b)
        idx_out[sl], d2_out[sl] = _kneighbors_block(X, Xa, mu, Q[:, sl], k, n_cand, G_buf)
    return idx_out, d2_out


def _augmented(X: np.ndarray, mu: np.ndarray) -> np.ndarray:
    """[x - mu; ||x - mu||^2], (d + 1, N): one product with the augmented queries [-2 (q - mu);
    1] gives ||x||^2 - 2 q^T x, the expansion of the squared distance without ||q||^2."""
    nfeat = X.shape[0]
    Xa = np.empty((nfeat + 1, X.shape[1]))
    np.subtract(X, mu, out=Xa[:nfeat])
    Xa[nfeat] = np.sum(Xa[:nfeat] * Xa[:nfeat], axis=0)  # ||x_i - mu||^2
    return Xa


def _kneighbors_block(X, Xa, mu, Qb, k: int, n_cand: int, G_buf):
    """Steps 1-4 of `KNNClassifier.kneighbors` for one block of queries Qb (d, b)."""
    if G_buf is None:  # so few training samples that all of them are candidates
        cand = np.broadcast_to(np.arange(X.shape[1]), (Qb.shape[1], X.shape[1]))
    else:
        cand, a_last, q_sq = _candidates(Xa, mu, Qb, n_cand, G_buf[: Qb.shape[1]])
    # 3. exact distances of the candidates, sorted by (distance, training index)
    R = _sq_dist_direct(X, Qb, cand)
    order = np.lexsort((cand, R), axis=1)[:, :k]
    idx = np.take_along_axis(cand, order, axis=1)
    d2 = np.take_along_axis(R, order, axis=1)
    if G_buf is not None:
        _certify(X, Xa, Qb, idx, d2, a_last, q_sq)
    return idx, d2


def _candidates(Xa, mu, Qb, n_cand: int, G: np.ndarray):
    """1-2. The n_cand smallest values of the expansion per query (unordered), the smallest
    value left out (||q||^2 added back) and ||q - mu||^2."""
    nfeat = Xa.shape[0] - 1
    Qa = np.empty((nfeat + 1, Qb.shape[1]))  # [-2 (q - mu); 1]
    np.subtract(Qb, mu, out=Qa[:nfeat])
    q_sq = np.sum(Qa[:nfeat] * Qa[:nfeat], axis=0)  # ||q_j - mu||^2
    Qa[:nfeat] *= -2.0
    Qa[nfeat] = 1.0
    np.matmul(Qa.T, Xa, out=G)  # G = ||x||^2 - 2 q^T x, (b, N)
    cand = _smallest_unordered(G, n_cand)
    a_last = np.take_along_axis(G, cand, axis=1).max(axis=1) + q_sq
    return cand, a_last, q_sq


def _certify(X, Xa, Qb, idx: np.ndarray, d2: np.ndarray, a_last, q_sq) -> None:
    """4. Every non-candidate has expansion >= a_last, hence an exact distance >= a_last -
    err; where that does not exceed the k-th exact distance (near-ties, duplicates), rank all N
    training samples exactly, in place in ``idx`` and ``d2``."""
    err_coef = (4 * X.shape[0] + 16) * np.finfo(float).eps  # c eps (max ||x||^2 + ||q||^2)
    err = err_coef * (float(Xa[-1].max()) + q_sq)
    bad = np.flatnonzero(~(a_last - 2.0 * err > d2[:, -1]))
    if bad.size:
        R_all = _sq_dist_direct(X, Qb[:, bad])  # (n_bad, N)
        order = np.argsort(R_all, axis=1, kind="stable")[:, : idx.shape[1]]  # ties: lower index
        idx[bad] = order
        d2[bad] = np.take_along_axis(R_all, order, axis=1)


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
        self, D, k: int | None = None, *, block_bytes: int = BLOCK_BYTES
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

        Returns
        -------
        idx : ndarray, shape (k, M), int64
            Column j lists the training indices of the neighbours of query j, nearest first
            (ties by training index).
        d2 : ndarray, shape (k, M)
            Their squared Euclidean distances, non-decreasing down each column.

        Notes
        -----
        For each block of queries (centred, with the training data, by the training mean, which
        leaves distances unchanged and reduces the cancellation in the expansion):

        1. the expansion of all squared distances, one matrix product per block,

           .. math:: d^2(x_i, q_j) = \lVert x_i \rVert^2 - 2 x_i^T q_j + \lVert q_j \rVert^2,

           without the last term, constant per query (the product of the augmented matrices
           :math:`[x_i; \lVert x_i \rVert^2]` and :math:`[-2 q_j; 1]`);
        2. the ``k + max(k, 16)`` smallest values per query, unordered (``np.argpartition``
           applied to the entries below a threshold taken from a strided subset of each row);
        3. the distances of these candidates recomputed from the differences,
           :math:`\sum_f (x_{fi} - q_{fj})^2`: never negative, and exactly 0 for a training
           sample equal to the query; the candidates are sorted by (distance, index);
        4. a certificate: the expansion's round-off is bounded by
           :math:`\epsilon_j = (4D + 16)\,\varepsilon\,(\max_i \lVert x_i \rVert^2 +
           \lVert q_j \rVert^2)`; if the smallest discarded value minus :math:`2\epsilon_j`
           does not exceed the k-th recomputed distance (near-ties, many duplicates), the query
           is ranked again on the recomputed distances to all N training samples.

        So the returned neighbours are the k nearest by the recomputed distances whatever the
        round-off of the expansion, and a query equal to a training sample finds it at distance
        0 (k = 1 makes no error on a training set without conflicting duplicates). Time is
        dominated by the (M, D+1) x (D+1, N) product and the selection; on MNIST after PCA to 50
        dimensions (60,000 training, 10,000 test samples) both take a few seconds on two cores.
        """
        Q = self._queries(D)
        k = self.k if k is None else _check_k(k, self.D.shape[1])
        block_bytes = check_int(block_bytes, "block_bytes", low=1)
        # an overflowing expansion is caught by the exact fallback; only the exact distances
        # (step 3) decide, and they must be finite
        with np.errstate(over="ignore", invalid="ignore"):
            idx, d2 = _kneighbors(self.D, Q, k, block_bytes)
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
        """|N_h(q)|: how many of the k nearest training samples of each query lie within
        distance h, shape (M,) (k without a radius)."""
        _, d2 = self.kneighbors(D, block_bytes=block_bytes)
        within = self._within(d2)
        return np.full(d2.shape[1], self.k) if within is None else within.sum(axis=0)

    def scores(self, D, *, block_bytes: int = BLOCK_BYTES) -> np.ndarray:
        r"""Posterior estimates: fraction of each class in the neighbourhood, (K, M).

        .. math:: S_{cj} = P(c \mid q_j) \approx \frac{k_c(q_j)}{|N_h(q_j)|},

        with :math:`k_c(q_j)` the number of the neighbours of :math:`q_j` (the k nearest, within
        h when the model has a radius) that belong to class c. Each column sums to 1; a query
        without any training point within h gets 1/K for every class (see the class Notes).
        """
        idx, d2 = self.kneighbors(D, block_bytes=block_bytes)
        within = self._within(d2)
        counts = _votes(self.L[idx], self.K, within)
        n = self.k if within is None else within.sum(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            S = counts / n
        if within is not None:
            S[:, n == 0] = 1.0 / self.K
        return S

    def predict(self, D, *, block_bytes: int = BLOCK_BYTES) -> np.ndarray:
        """Majority class among the neighbours (the k nearest, within h with a radius), shape
        (M,); among classes tied for the most votes, the one with the nearest neighbour (see the
        class Notes)."""
        idx, d2 = self.kneighbors(D, block_bytes=block_bytes)
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
