"""The fast k-nearest-neighbour search of `mlpr.neighbors`: the same neighbours, found faster.

`mlpr.neighbors.KNNClassifier.kneighbors` with ``method="reference"`` computes every squared
distance from the differences, ``sum_f (x_f - q_f)^2``, and sorts them (ties by training index).
This module returns the same neighbours and the same distances, bit for bit (``method="fast"``,
the default), and `tests/test_neighbors.py` holds the two equal. For each block of queries:

1. the expansion ``||x - mu||^2 - 2 (q - mu)^T (x - mu)`` of every squared distance (without the
   ``||q - mu||^2`` constant per query), one matrix product of the augmented matrices
   ``[x - mu; ||x - mu||^2]`` (computed once per search) and ``[-2 (q - mu); 1]``, in single
   precision when the data's scale allows it (half the time of the double product and half the
   bytes for the selection that follows);
2. the ``k + max(k, 16)`` smallest values per query, unordered (`smallest_unordered`);
3. the exact distances of these candidates, from the differences in double precision and in
   the order of the reference (hence bit-equal to it), sorted by (distance, index);
4. a certificate: the expansion's round-off is at most ``err = (4D + 16) eps (max_i ||x_i -
   mu||^2 + ||q - mu||^2)`` with ``eps`` the machine epsilon of the product's precision; when
   the smallest value left out minus ``2 err`` does not exceed the k-th exact distance
   (near-ties, duplicates), the query is ranked again on its exact distances to all N samples.

So the single-precision product only chooses candidates; every distance returned, and every
decision between two candidates, is the double-precision one of the reference.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

# the single-precision product is used when every squared norm lies in this range: far from
# float32's overflow (3.4e38) and far above its underflow (1.2e-38), so the relative round-off
# bound of step 4 holds
_FLOAT32_RANGE = (1e-20, 1e30)


def sq_dist(X: np.ndarray, Q: np.ndarray, idx: np.ndarray | None = None) -> np.ndarray:
    """Squared distances summed feature by feature from the differences, in float64.

    ``X`` (d, N) training data, ``Q`` (d, b) queries. With ``idx`` (b, c) of training indices,
    returns ``R[j, i] = ||x_idx[j, i] - q_j||^2``, shape (b, c); without, all distances (b, N).
    The features are summed in order 0, 1, ..., d - 1, as in `mlpr.neighbors`' reference, so the
    distances are bit-equal to it.
    """
    R = None
    for f in range(X.shape[0]):  # a loop over features keeps memory at one (b, c) array
        xf = X[f][idx] if idx is not None else X[f][None, :]
        diff = xf - Q[f][:, None]
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
    b = block_size(N, nfeat, n_cand, block_bytes)
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
    idx_out = np.empty((M, k), dtype=np.int64)
    d2_out = np.empty((M, k))
    # the blocks are independent: each worker thread takes every n-th block with its own
    # expansion buffer (numpy and BLAS release the GIL), so the selection, single-threaded in
    # numpy, runs on every core; the budget is shared between the buffers
    workers = max(1, min(n_workers(), -(-M // max(1, b // 2)) if M else 1))
    b = max(1, b // workers) if workers > 1 else b
    starts = list(range(0, M, b))

    def run(w: int) -> None:
        # one buffer for all the worker's blocks: fresh large arrays cost a page fault per 4 KiB
        G_buf = np.empty((min(b, M), N), dtype=dtype) if n_cand < N else None
        for start in starts[w::workers]:
            sl = slice(start, start + b)
            idx_out[sl], d2_out[sl] = _kneighbors_block(X, Xa, Xa_p, mu, Q[:, sl], k, n_cand,
                                                        G_buf)

    if workers == 1:
        run(0)
    else:
        with ThreadPoolExecutor(workers) as pool:
            list(pool.map(run, range(workers)))  # list(): re-raises a worker's exception
    return idx_out, d2_out


def n_workers() -> int:
    """Threads of the search: the cores this process may run on, at most 4."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(4, cores))


def augmented(X: np.ndarray, mu: np.ndarray) -> np.ndarray:
    """[x - mu; ||x - mu||^2], (d + 1, N): one product with the augmented queries [-2 (q - mu);
    1] gives ||x||^2 - 2 q^T x, the expansion of the squared distance without ||q||^2."""
    nfeat = X.shape[0]
    Xa = np.empty((nfeat + 1, X.shape[1]))
    np.subtract(X, mu, out=Xa[:nfeat])
    Xa[nfeat] = np.sum(Xa[:nfeat] * Xa[:nfeat], axis=0)  # ||x_i - mu||^2
    return Xa


def _kneighbors_block(X, Xa, Xa_p, mu, Qb, k: int, n_cand: int, G_buf):
    """Steps 1-4 of the module docstring for one block of queries Qb (d, b)."""
    if G_buf is None:  # so few training samples that all of them are candidates
        cand = np.broadcast_to(np.arange(X.shape[1]), (Qb.shape[1], X.shape[1]))
    else:
        cand, a_last, q_sq = _candidates(Xa_p, mu, Qb, n_cand, G_buf[: Qb.shape[1]])
    # 3. exact distances of the candidates, sorted by (distance, training index)
    R = sq_dist(X, Qb, cand)
    order = np.lexsort((cand, R), axis=1)[:, :k]
    idx = np.take_along_axis(cand, order, axis=1)
    d2 = np.take_along_axis(R, order, axis=1)
    if G_buf is not None:
        _certify(X, Xa, Qb, idx, d2, a_last, q_sq, G_buf.dtype)
    return idx, d2


def _candidates(Xa_p, mu, Qb, n_cand: int, G: np.ndarray):
    """1-2. The n_cand smallest values of the expansion per query (unordered), the smallest
    value left out (||q||^2 added back, in float64) and ||q - mu||^2."""
    nfeat = Xa_p.shape[0] - 1
    Qc = Qb - mu
    q_sq = np.sum(Qc * Qc, axis=0)  # ||q_j - mu||^2, float64
    Qa = np.empty((nfeat + 1, Qb.shape[1]), dtype=G.dtype)  # [-2 (q - mu); 1]
    np.multiply(Qc, -2.0, out=Qa[:nfeat], casting="same_kind")
    Qa[nfeat] = 1.0
    np.matmul(Qa.T, Xa_p, out=G)  # G = ||x||^2 - 2 q^T x, (b, N)
    cand = smallest_unordered(G, n_cand)
    a_last = np.take_along_axis(G, cand, axis=1).max(axis=1).astype(np.float64) + q_sq
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
