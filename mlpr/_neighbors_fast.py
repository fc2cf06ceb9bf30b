"""The fast k-nearest-neighbour search of `mlpr.neighbors`: the same neighbours, found faster.

`mlpr.neighbors.KNNClassifier.kneighbors` with ``solver="reference"`` computes every squared
distance from the differences, ``sum_f (x_f - q_f)^2``, and sorts them (ties by training index).
This module returns the same neighbours and the same distances, bit for bit (``solver="auto"``,
the default), and `tests/test_neighbors.py` holds the two equal. For each block of queries:

1. the expansion ``||x - mu||^2 - 2 (q - mu)^T (x - mu)`` of every squared distance (without the
   ``||q - mu||^2`` constant per query), by matrix products of the augmented matrices
   ``[x - mu; ||x - mu||^2]`` (computed once per search) and ``[-2 (q - mu); 1]``, in single
   precision when the data's scale allows it, CHUNK_COLUMNS training columns at a time;
2. the ``k + max(k, 16)`` smallest values per query, unordered: a threshold per query from the
   product with every 8th training column, and of each chunk of step 1, while it is in cache,
   only the values <= the threshold are kept (`_candidates`); one thread of Python, the
   product's BLAS using the cores;
3. the exact distances of these candidates, from the differences in double precision and in
   the order of the reference, hence bit-equal to it (the candidates gathered at once,
   `candidate_sq_dist`), sorted by (distance, index);
4. a certificate: the expansion's round-off is at most ``err = (4D + 16) eps (max_i ||x_i -
   mu||^2 + ||q - mu||^2)`` with ``eps`` the machine epsilon of the product's precision; when
   the smallest value left out minus ``2 err`` does not exceed the k-th exact distance
   (near-ties, duplicates), the query is ranked again on its exact distances to all N samples.

So the single-precision product only chooses candidates; every distance returned, and every
decision between two candidates, is the double-precision one of the reference.
"""

from __future__ import annotations

import numpy as np

# the single-precision product is used when every squared norm lies in this range: far from
# float32's overflow (3.4e38) and far above its underflow (1.2e-38), so the relative round-off
# bound of step 4 holds
_FLOAT32_RANGE = (1e-20, 1e30)

BLOCK_QUERIES = 256
"""At most this many queries per block (fewer when ``block_bytes`` says so)."""

CHUNK_COLUMNS = 4096
"""Training columns per product chunk: a (BLOCK_QUERIES, CHUNK_COLUMNS) chunk of the expansion
and its mask stay in cache while the chunk is thresholded."""


def sq_dist(X: np.ndarray, Q: np.ndarray) -> np.ndarray:
    """All squared distances (b, N) of the queries ``Q`` (d, b) to the training data ``X`` (d, N),
    summed feature by feature from the differences in float64, in order 0, 1, ..., d - 1, as in
    `mlpr.neighbors`' reference, so the distances are bit-equal to it (`candidate_sq_dist` does
    the same for a few candidates per query)."""
    R = None
    for f in range(X.shape[0]):  # a loop over features keeps memory at one (b, N) array
        diff = X[f][None, :] - Q[f][:, None]
        R = diff * diff if R is None else R + diff * diff
    return R


def candidate_margin(k: int) -> int:
    """Extra candidates kept by the approximate selection beyond the k needed."""
    return max(k, 16)


def block_size(N: int, nfeat: int, n_cand: int, block_bytes: int) -> int:
    """Queries per block such that its working arrays fit in ``block_bytes``: at most three
    (b, N) 8-byte arrays (the expansion, and the exact fallback's distances and sort order) and
    a few (b, n_cand) candidate arrays."""
    per_query = 8 * (3 * N + 4 * n_cand + nfeat)
    return max(1, block_bytes // per_query)


def smallest_unordered(G: np.ndarray, n: int) -> np.ndarray:
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
            P = np.full((b, width), np.inf, dtype=G.dtype)  # +inf pads: never among the n smallest
            P[rows, pos] = G.ravel()[flat]
            C = np.zeros((b, width), dtype=np.int64)
            C[rows, pos] = flat - rows * N
            return np.take_along_axis(C, np.argpartition(P, n - 1, axis=1)[:, :n], axis=1)
    # plain argpartition, a few rows at a time so that its (rows, N) index output stays small
    out = np.empty((b, n), dtype=np.int64)
    for s in range(0, b, 32):
        out[s : s + 32] = np.argpartition(G[s : s + 32], n - 1, axis=1)[:, :n]
    return out


def kneighbors(X: np.ndarray, Q: np.ndarray, k: int, block_bytes: int,
               single: bool | None = None) -> tuple[np.ndarray, np.ndarray]:
    """k nearest training columns of X (d, N) for each query column of Q (d, M), validated.

    Returns indices and squared distances, both (M, k), each row sorted by (distance, index).
    ``single`` forces (True) or forbids (False) the single-precision product; None decides from
    the scale of the data.
    """
    nfeat, N = X.shape
    M = Q.shape[1]
    n_cand = min(N, k + candidate_margin(k))
    b = min(block_size(N, nfeat, n_cand, block_bytes), BLOCK_QUERIES)
    # Centring by the training mean leaves distances unchanged and shrinks the norms that
    # cancel in the expansion, hence its round-off.
    mu = X.mean(axis=1, keepdims=True)
    Xa = augmented(X, mu)
    if single is None:
        lo, hi = _FLOAT32_RANGE
        q_max = float(np.max(np.abs(Q - mu))) if M else 0.0  # ||q - mu||^2 <= d q_max^2
        scale = max(float(Xa[-1].max()), q_max * q_max * nfeat)  # inf on overflow
        single = lo < scale < hi
    dtype = np.float32 if single else np.float64
    Xa_p = Xa.astype(dtype)  # the product's copy
    stride = min(N // (8 * n_cand), 8)  # the threshold's subset keeps >= 8 n_cand columns
    Xa_s = np.ascontiguousarray(Xa_p[:, ::stride]) if stride >= 4 else None
    XT = np.ascontiguousarray(X.T)  # (N, d): a candidate's features are one contiguous row
    idx_out = np.empty((M, k), dtype=np.int64)
    d2_out = np.empty((M, k))
    # one thread of Python: the product's BLAS already uses every core, and worker threads
    # each calling a multi-threaded BLAS would oversubscribe them (slower, measured)
    bufs = None
    if n_cand < N:  # one buffer for all blocks: fresh arrays cost a page fault per 4 KiB
        size = min(b, M) * min(CHUNK_COLUMNS, N)
        bufs = (np.empty(size, dtype=dtype), np.empty(size, dtype=bool))
    for start in range(0, M, b):
        sl = slice(start, start + b)
        idx_out[sl], d2_out[sl] = _kneighbors_block(X, XT, Xa, Xa_p, Xa_s, mu, Q[:, sl], k,
                                                    n_cand, bufs)
    return idx_out, d2_out


def augmented(X: np.ndarray, mu: np.ndarray) -> np.ndarray:
    """[x - mu; ||x - mu||^2], (d + 1, N): one product with the augmented queries [-2 (q - mu);
    1] gives ||x||^2 - 2 q^T x, the expansion of the squared distance without ||q||^2."""
    nfeat = X.shape[0]
    Xa = np.empty((nfeat + 1, X.shape[1]))
    np.subtract(X, mu, out=Xa[:nfeat])
    Xa[nfeat] = np.sum(Xa[:nfeat] * Xa[:nfeat], axis=0)  # ||x_i - mu||^2
    return Xa


def _kneighbors_block(X, XT, Xa, Xa_p, Xa_s, mu, Qb, k: int, n_cand: int, bufs):
    """Steps 1-4 of the module docstring for one block of queries Qb (d, b)."""
    if bufs is None:  # so few training samples that all of them are candidates
        cand = np.broadcast_to(np.arange(X.shape[1]), (Qb.shape[1], X.shape[1]))
    else:
        cand, a_last, q_sq = _candidates(Xa_p, Xa_s, mu, Qb, n_cand, bufs)
    # 3. exact distances of the candidates, sorted by (distance, training index)
    R = candidate_sq_dist(XT, Qb, cand)
    order = np.lexsort((cand, R), axis=1)[:, :k]
    idx = np.take_along_axis(cand, order, axis=1)
    d2 = np.take_along_axis(R, order, axis=1)
    if bufs is not None:
        _certify(X, Xa, Qb, idx, d2, a_last, q_sq, Xa_p.dtype)
    return idx, d2


def candidate_sq_dist(XT: np.ndarray, Q: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """`sq_dist` of the candidates ``idx`` (b, c), from the training data transposed, ``XT``
    (N, d): ``R[j, i] = ||x_idx[j, i] - q_j||^2``, (b, c), bit-equal to `sq_dist`.

    The candidates' features are gathered at once, (d, b, c) (a row of XT per candidate), and
    the squared differences summed over the features in order 0, 1, ..., d - 1 by an explicit
    loop (``np.sum`` over that axis could sum pairwise, in another order).
    """
    nfeat = XT.shape[1]
    diff = np.moveaxis(XT[idx], 2, 0) - Q[:, :, None]  # (d, b, c), C-ordered: x_f - q_f
    diff *= diff
    R = diff[0].copy()
    for f in range(1, nfeat):
        R += diff[f]
    return R


def _candidates(Xa_p, Xa_s, mu, Qb, n_cand: int, bufs):
    """1-2. The n_cand smallest values of the expansion per query (unordered), the smallest
    value left out (||q||^2 added back, in float64) and ||q - mu||^2.

    The threshold t of a query is the n_cand-th smallest value of its expansion on the strided
    subset ``Xa_s`` of the training columns (+inf without a subset); the product with all the
    training columns goes CHUNK_COLUMNS columns at a time, and only the values <= t of each
    chunk, a few per cent, are kept, while the chunk is in cache. The n_cand smallest kept
    values are the n_cand smallest of the row as soon as at least n_cand are kept (every value
    left out is > t >= each of them); a row with fewer (the subset's product rounded
    differently, NaN) is selected again from its full row by `smallest_unordered`.
    """
    nfeat, N = Xa_p.shape[0] - 1, Xa_p.shape[1]
    b = Qb.shape[1]
    dtype = Xa_p.dtype
    Qc = Qb - mu
    q_sq = np.sum(Qc * Qc, axis=0)  # ||q_j - mu||^2, float64
    Qa = np.empty((nfeat + 1, b), dtype=dtype)  # [-2 (q - mu); 1]
    np.multiply(Qc, -2.0, out=Qa[:nfeat], casting="same_kind")
    Qa[nfeat] = 1.0
    QaT = Qa.T
    if Xa_s is not None:
        t = np.partition(QaT @ Xa_s, n_cand - 1, axis=1)[:, n_cand - 1 : n_cand]
    else:
        t = np.full((b, 1), np.inf, dtype=dtype)
    G_buf, mask_buf = bufs
    rows, cols, vals = [], [], []
    for c0 in range(0, N, CHUNK_COLUMNS):
        w = min(CHUNK_COLUMNS, N - c0)
        G = G_buf[: b * w].reshape(b, w)
        np.matmul(QaT, Xa_p[:, c0 : c0 + w], out=G)  # ||x||^2 - 2 q^T x, (b, w)
        mask = mask_buf[: b * w].reshape(b, w)
        np.less_equal(G, t, out=mask)
        flat = np.flatnonzero(mask)
        r = flat // w
        rows.append(r)
        cols.append(flat - r * w + c0)
        vals.append(G_buf[flat])
    rows, cols, vals = np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)
    counts = np.bincount(rows, minlength=b)
    order = np.argsort(rows, kind="stable")
    pos = np.arange(rows.size) - np.repeat(np.cumsum(counts) - counts, counts)
    width = max(int(counts.max()), n_cand)
    P = np.full((b, width), np.inf, dtype=dtype)  # +inf pads: never among the n smallest
    C = np.zeros((b, width), dtype=np.int64)
    P[rows[order], pos] = vals[order]
    C[rows[order], pos] = cols[order]
    sel = np.argpartition(P, n_cand - 1, axis=1)[:, :n_cand]
    cand = np.take_along_axis(C, sel, axis=1)
    cvals = np.take_along_axis(P, sel, axis=1)
    short = np.flatnonzero(counts < n_cand)
    if short.size:
        G_rows = QaT[short] @ Xa_p
        cand[short] = smallest_unordered(G_rows, n_cand)
        cvals[short] = np.take_along_axis(G_rows, cand[short], axis=1)
    top = cvals.max(axis=1).astype(np.float64)
    # an infinite or NaN expansion certifies nothing: rank such queries exactly (step 4)
    a_last = np.where(np.isfinite(top), top + q_sq, -np.inf)
    return cand, a_last, q_sq


def _certify(X, Xa, Qb, idx: np.ndarray, d2: np.ndarray, a_last, q_sq, dtype) -> None:
    """4. Every non-candidate has expansion >= a_last, hence an exact distance >= a_last -
    err; where that does not exceed the k-th exact distance (near-ties, duplicates), rank all N
    training samples exactly, in place in ``idx`` and ``d2``."""
    err_coef = (4 * X.shape[0] + 16) * np.finfo(dtype).eps  # c eps (max ||x||^2 + ||q||^2)
    err = err_coef * (float(Xa[-1].max()) + q_sq)
    bad = np.flatnonzero(~(a_last - 2.0 * err > d2[:, -1]))
    if bad.size:
        R_all = sq_dist(X, Qb[:, bad])  # (n_bad, N)
        order = np.argsort(R_all, axis=1, kind="stable")[:, : idx.shape[1]]  # ties: lower index
        idx[bad] = order
        d2[bad] = np.take_along_axis(R_all, order, axis=1)
