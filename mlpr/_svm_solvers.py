r"""The fast solvers behind `mlpr.svm`: kernel-column cache, SMO with shrinking and Newton steps
on faces, SMO on slices, greedy coordinate descent, the interior point method.

Private: `mlpr.svm` is the chapter (the notes' formulas and the plain reference solvers); this
module is the engineering that makes the same optimum fast. `mlpr.svm` validates every input
and calls `choose_solver` and `solve`; everything here assumes valid input and never imports
`mlpr.svm` (the kernel arrives as a function ``gram(X1, X2)``). Each path is held equal to the
reference solvers of `mlpr.svm` by ``tests/test_svm_solvers.py``.

Every solver minimises :math:`f(\alpha) = \frac12\alpha^TH\alpha - \mathbf1^T\alpha`, minus the
dual of eq. (165), with :math:`H_{ij} = z_iz_j(k(x_i, x_j) + \xi)` (eq. 173), over the box
:math:`0 \le \alpha_i \le C_i` and, for the notes' free bias, :math:`\sum_i\alpha_iz_i = 0`.

Memory. The solvers need the kernel (Gram) matrix of the training set one column at a time. If
all of it fits in ``cache_mb`` in double precision (``8 N^2`` bytes: N = 5,000 samples fit the
default 200 MB) it is computed once, in blocks; otherwise columns are computed on demand and the
most recently used ones are kept up to ``cache_mb`` (libsvm's strategy and default size), in
single precision (libsvm's choice too): twice the columns in the same bytes. The kernel values are
computed in double and rounded to float32 (6e-8 relative) only when stored; the gradient is
updated in double. The solvers then solve the problem of the rounded matrix; at the end
`solve` bounds what the rounding can hide (`_rounding_may_violate`) and, if the KKT conditions
could be violated by more than tol in double, goes on with a double-precision cache from the
solver's alpha (on MNIST 3 v 8 at tol = 1e-3 it does not have to; on badly scaled kernels at
tol = 1e-6 it does). On a cache miss the other kernels compute 64 columns at once (one matrix
product: SMO is likely to ask for them); the linear kernel computes one (a matrix-vector
product, half the time of a product with 2-8 columns, and prefetched columns would fill the cache
with columns needed late or never: on MNIST 3 v 8, 6,100 columns computed for 2,300 used).
Besides the cache a run needs the (D, N) data, a few (N,) vectors, a (64, N) block of new columns,
a (256, N) block when the gradient is recomputed and, for the Newton steps on a face of at most
1,500 free variables, a few (1500, 1500) matrices: at most about 200 MB + 8 (320 N + 10^7) bytes
with the default cache. Measured on a 12,000-image MNIST pair (``benchmarks/bench_svm.py``,
growth of the resident set during training): 112-118 MB, against libsvm's 94-157 MB (its
single-precision columns restricted to the active set, and its own copy of the data); the cache
held 2,300 columns (107 MB) for the linear kernel, 2,000 (92 MB) for the polynomial and RBF.
``solver="lbfgsb"`` always builds the full matrix. The interior point method of the linear model
needs the (D', N) matrix of the samples times their labels (D' = the features not zero on every
sample, plus one for ``K``), a scaled copy of it and a (D', D') matrix: about 16 D' N + 8 D'^2
bytes (120 MB on the MNIST pair), plus the cache of the SMO or coordinate-descent steps that finish
its solution, which compute few columns; for a polynomial kernel, the same with its (m, N) factor
in place of the data (m kernel columns computed to build it).
"""

from __future__ import annotations

from functools import partial

import numpy as np
import scipy.linalg

__all__ = ["SOLVERS", "CURVATURE_FLOOR", "GramColumns", "choose_solver", "solve", "dual_cd"]

CURVATURE_FLOOR = 1e-12  # libsvm's floor (its TAU) for a non-positive curvature a_ij of a pair
_MAX_FACE = 1500  # no Newton step on faces with more free variables than this
_PREFETCH = 64  # kernel columns computed together on a cache miss
_SHRINK_EVERY = 1000  # SMO iterations between two shrinking steps
_FACE_PERIOD = 100  # fewest iterations between two Newton steps on the current face
_IPM_MAX_STEPS = 100  # interior point steps (20-40 are usual) before SMO / CD take over anyway
_CACHE_DTYPE = np.float32  # the column cache's precision when the matrix does not fit in double

SOLVERS = ("smo", "cd", "ipm")  # the fast paths `solve` runs ("auto" picks one by the table)


# ------------------------------------------------------------------------------------------------
# the one dispatch table


def choose_solver(free_bias: bool, finite_C: bool, rank: int | None, N: int, xi: float) -> str:
    r"""The solver ``solver="auto"`` runs: the first row of this table whose condition holds.

    ======================================  ==============================  ======================
    condition                               solver                          why
    ======================================  ==============================  ======================
    C finite, the kernel's feature space    ``"ipm"``: interior point,      H = V'V has rank
    has a known dimension m (``rank``:      then SMO (free bias) or         <= m: 20-40 Newton
    linear D', polynomial binom(D' + d,     coordinate descent (box only)   steps, each one
    d), their sums) and 4 (m + [xi > 0])    from its vertex                 (m, m) Cholesky
    <= N                                                                    factorisation, no
                                                                            Gram matrix; SMO
                                                                            needs millions of
                                                                            pair steps at large C
    free bias (K / eps None)                ``"smo"``: SMO with shrinking   libsvm's method: pair
                                            and Newton steps on faces       steps keep sum a z =
                                                                            0; shrinking skips
                                                                            settled bounds
    box only (K / eps set), C finite        ``"smo"``: SMO on slices of     pairs move across z,
                                            fixed sum_i alpha_i z_i         along which coordinate
                                                                            descent zig-zags: 4-7x
                                                                            fewer steps
    box only, C = inf (hard margin)         ``"cd"``: greedy coordinate     slices need the finite
                                            descent, second-order choice    range of sum a z
    ======================================  ==============================  ======================

    D' counts the features not zero on every sample; [xi > 0] the constant feature of the labs'
    formulation. The timings behind the rows are in ``benchmarks/README.md`` (MNIST 3 v 8: the
    interior point 0.14-0.38x libsvm's time on the linear model; SMO on slices 0.06-1.02x
    coordinate descent's on the labs' RBF problem).
    """
    if finite_C and rank is not None and 4 * (rank + (xi > 0)) <= N:
        return "ipm"
    if free_bias or finite_C:
        return "smo"
    return "cd"


def solve(cols: GramColumns, z, C, *, free_bias: bool, solver: str, tol: float, max_iter: int,
          shrinking: bool = True, rank: int | None = None):
    """alpha and the iteration count of the fast path ``solver`` ("smo", "cd" or "ipm"; "ipm"
    needs ``rank``, the kernel's feature-space dimension, and a finite C).

    With a single-precision cache the solver solves the problem of the Gram matrix rounded to
    float32; if the rounding could hide a KKT violation above tol (`_rounding_may_violate`), the
    cache turns to double precision and the same solver goes on from its alpha."""
    alpha, n_iter = _solve(cols, z, C, free_bias=free_bias, solver=solver, tol=tol,
                           max_iter=max_iter, shrinking=shrinking, rank=rank)
    if cols.rounded() and _rounding_may_violate(cols, alpha, z, C, free_bias, tol):
        cols.to_double()
        more_iter = max(max_iter - n_iter, 1)
        if free_bias:
            alpha, more = _smo_shrinking(cols, cols.diag, z, C, tol, more_iter, alpha0=alpha)
        else:
            alpha, more = dual_cd(cols, cols.diag, z, C, tol, more_iter, alpha0=alpha)
        n_iter += more
    return alpha, n_iter


def _solve(cols: GramColumns, z, C, *, free_bias: bool, solver: str, tol: float, max_iter: int,
           shrinking: bool, rank: int | None):
    if solver == "ipm":  # the interior point's solution, finished by SMO / coordinate descent
        alpha, s, t, n_iter = _ipm(_low_rank_factor(cols, z, rank), z, C, free_bias,
                                   min(max_iter, _IPM_MAX_STEPS))
        alpha, rest = _ipm_to_vertex(alpha, s, t, z, C, free_bias), max_iter - n_iter
        if free_bias:
            alpha, more = _smo_shrinking(cols, cols.diag, z, C, tol, rest, alpha0=alpha)
        else:
            alpha, more = dual_cd(cols, cols.diag, z, C, tol, rest, alpha0=alpha)
        return alpha, n_iter + more
    if free_bias and shrinking:
        return _smo_shrinking(cols, cols.diag, z, C, tol, max_iter)
    if free_bias:
        alpha, _, n_iter, _ = _smo(cols, cols.diag, z, C, tol, max_iter)
        return alpha, n_iter
    if solver == "smo":  # the box-only dual by SMO on slices of fixed sum_i alpha_i z_i
        return _smo_slices(cols, cols.diag, z, C, tol, max_iter)
    return dual_cd(cols, cols.diag, z, C, tol, max_iter)


def _rounding_may_violate(cols: GramColumns, alpha, z, C, free_bias: bool, tol: float) -> bool:
    """Whether the KKT conditions may be violated by more than tol in double precision at the
    alpha a solver found with the float32 columns: the violation on those columns plus twice
    the bound on the rounding of each gradient entry, sum_j alpha_j |K_ij| 2^-23."""
    g, err = cols.times(alpha * z, rounding=True)
    G = z * g - 1.0
    violation = (_smo_violation(alpha, G, z, C) if free_bias
                 else float(np.max(np.abs(_projected_gradient(alpha, G, C)))))
    return violation + 2.0 * float(np.max(err)) > tol


def _blocks(N: int, size: int):
    return [slice(i, min(i + size, N)) for i in range(0, N, size)]


# ------------------------------------------------------------------------------------------------
# the Gram matrix, one column at a time


class GramColumns:
    """Columns :math:`k(x_t, x_i) + \\xi`, t = 1..N, of the training Gram matrix.

    The whole matrix, computed in blocks, when ``8 N^2`` bytes fit in the cache; otherwise each
    column on demand, the most recently used ones kept (least recently used evicted first) in
    ``dtype``: by default float32 (`_CACHE_DTYPE`), or float64 when the whole matrix would fit.
    ``gram(X1, X2)`` is the kernel on two blocks of columns (without :math:`\\xi`), ``diag`` the
    (N,) diagonal :math:`k(x_i, x_i) + \\xi`, in double; ``linear`` says that the kernel is
    :math:`x_1^Tx_2`, whose products need no column.
    """

    def __init__(self, gram, X: np.ndarray, eps: float, diag: np.ndarray, cache_bytes: float,
                 eager=True, linear=False, dtype=None):
        self.gram, self.X, self.eps, self.linear = gram, X, eps, linear
        self.cache_bytes = cache_bytes
        N = X.shape[1]
        self.diag = diag
        self.full = None
        fits = 8.0 * N * N <= cache_bytes  # the whole matrix in double precision
        if eager and fits:
            self.matrix()
        # the cache: one (capacity, N) store, filled row by row (memory is touched as it fills),
        # and slot[i] = the row of the store holding column i, in recency order; in single
        # precision unless the whole matrix fits in double (libsvm's choice: twice the columns)
        self._new_store(dtype or (np.float64 if fits else _CACHE_DTYPE))
        # a linear kernel's column is one matrix-vector product, and its columns prefetched
        # would fill the cache with columns SMO needs late or never: computed one at a time
        self.prefetch = 1 if linear else _PREFETCH

    def _new_store(self, dtype) -> None:
        N = self.X.shape[1]
        self.dtype = np.dtype(dtype)
        # at most N columns: a larger capacity only lengthens the free list (13 million slots for
        # two samples in 200 MB); below N it is what the cache holds, unchanged
        self.capacity = max(2, min(N, int(self.cache_bytes // (self.dtype.itemsize * N))))
        self.store = None  # the old one freed before the new one is allocated
        self.store = None if self.full is not None else np.empty((self.capacity, N), self.dtype)
        self.slot: dict[int, int] = {}
        self.free_slots = list(range(self.capacity))

    def rounded(self) -> bool:
        """Whether the columns come from a cache in less than double precision."""
        return self.full is None and self.dtype != np.float64

    def to_double(self) -> None:
        """Empty the cache and keep the columns in double precision from now on (half as many)."""
        self._new_store(np.float64)

    def __call__(self, i: int, prefetch=None) -> np.ndarray:
        """Column i. On a cache miss, ``prefetch()`` may name other columns the solver is likely
        to ask for next: they are computed together with i, one matrix product instead of
        many matrix-vector products (each of which reads all of the data)."""
        if self.full is not None:
            return self.full[i]  # a row: contiguous, and the Gram matrix is symmetric
        k = self.slot.pop(i, None)
        if k is not None:
            self.slot[i] = k  # reinserted last: dict order is the recency order
            return self.store[k]
        batch = [i]
        if prefetch is not None and self.prefetch > 1:
            room = min(self.prefetch, self.capacity // 2)
            batch += [j for j in dict.fromkeys(prefetch().tolist())
                      if j != i and j not in self.slot][: room - 1]
        block = self.gram(self.X[:, batch], self.X) + self.eps
        while len(self.free_slots) < len(batch):  # evict the least recently used
            self.free_slots.append(self.slot.pop(next(iter(self.slot))))
        for j, row in zip(batch[::-1], block[::-1]):  # i inserted last: most recent
            k = self.free_slots.pop()
            self.store[k] = row
            self.slot[j] = k
        return self.store[self.slot[i]]

    def exact(self, i: int) -> np.ndarray:
        """Column i in double precision: from the cache if it stores double, else computed."""
        if self.full is not None or self.dtype == np.float64:
            return self(i)
        return self.gram(self.X[:, [i]], self.X)[0] + self.eps

    def times(self, v: np.ndarray, rounding=False):
        """Gram @ v from the columns where v is non-zero (the support vectors), in blocks: the
        cached columns as stored, the others computed in double. With ``rounding``, also a bound
        on the error of each entry that the cache's precision causes, sum_j |v_j K_ij| 2^-23 over
        the cached single-precision columns (0 in double)."""
        nz = np.flatnonzero(v)
        err = np.zeros(self.X.shape[1])
        if self.full is not None:
            out = v[nz] @ self.full[nz]
        elif self.linear:  # X'(X v): two products, no column
            out = self.X.T @ (self.X[:, nz] @ v[nz]) + self.eps * v[nz].sum()
        else:
            out = np.zeros(self.X.shape[1])
            cached = np.array([i in self.slot for i in nz.tolist()], dtype=bool)
            single = self.dtype != np.float64
            for i in nz[cached]:
                row = self.store[self.slot[i]]
                out += v[i] * row
                if rounding and single:
                    err += abs(v[i]) * np.abs(row)
            rest = nz[~cached]
            for s in _blocks(rest.size, 256):
                out += v[rest[s]] @ self.gram(self.X[:, rest[s]], self.X)
            out += self.eps * v[rest].sum()
        return (out, err * 2.0**-23) if rounding else out

    def block(self, idx: np.ndarray) -> np.ndarray:
        """The square sub-matrix Gram[idx][:, idx]."""
        if self.full is not None:
            return self.full[np.ix_(idx, idx)]
        if all(i in self.slot for i in idx.tolist()):
            return self.store[np.ix_([self.slot[i] for i in idx.tolist()], idx)]
        return self.gram(self.X[:, idx], self.X[:, idx]) + self.eps

    def matrix(self) -> np.ndarray:
        if self.full is None:
            N = self.X.shape[1]
            self.full = np.empty((N, N))
            for s in _blocks(N, 1024):
                self.full[s] = self.gram(self.X[:, s], self.X) + self.eps
        return self.full


# ------------------------------------------------------------------------------------------------
# solvers of the dual, written as minimisation of f(alpha) = 1/2 alpha' H alpha - 1' alpha


def _smo(col, diag, z, C, tol, max_iter, alpha=None, v=None):
    r"""SMO for the dual of eq. (165): the free bias adds :math:`\sum_i \alpha_i z_i = 0`.

    Each step moves one pair (i, j) along :math:`\alpha_i \mathrel{+}= z_i t,\ \alpha_j
    \mathrel{-}= z_j t`, which keeps the equality (`_pair_step`), the pair chosen by libsvm's
    second-order working-set selection (`_max_violator`, `_second_order_partner`). With
    :math:`v = -z \circ \nabla f`, the KKT conditions hold when :math:`\max_{up} v - \min_{low} v
    \le` tol, and :math:`b` (eq. 159, 164) is the common value of :math:`v` on the free vectors.
    The loop keeps v and the index sets up / low up to date instead of recomputing them, and
    now and then takes an exact Newton step on the current face (`_face_newton`).
    Starts from alpha = 0 (v = z), or from a feasible ``alpha`` with its ``v``. Returns alpha, v,
    the number of iterations and whether the KKT conditions hold to tol.
    """
    alpha = np.zeros(z.size) if alpha is None else alpha.copy()
    v = z.copy() if v is None else v.copy()  # v = -z (H alpha - 1) = z at alpha = 0
    # SMO called for max_iter = 1000 at a time (`_smo_shrinking`) must still reach its Newton
    # steps on a settled face: the free set at the start counts as the first look, and the
    # second comes within the call
    next_newton = min(_newton_after(0, alpha, C), max_iter // 2)
    polished, converged, free = False, False, (alpha > 0) & (alpha < C)
    pos = z > 0
    up, low = _up_low(alpha, pos, C)
    for it in range(max_iter):
        i, gap = _max_violator(v, up, low)
        if gap <= tol:  # KKT hold to tol: one exact step on the final face, then check again
            if polished or not _newton_on_face(col, z, C, alpha, v):
                converged = True
                break
            polished = True
            up, low = _up_low(alpha, pos, C)
            continue
        prefetch = partial(_likely_pair, v, up, low)
        Ki = col(i, prefetch)
        j = _second_order_partner(i, v, low, Ki, diag)
        Kj = col(j, prefetch)
        t = _pair_step(alpha, v, z, C, diag, i, j, Ki[j])
        v -= t * np.subtract(Ki, Kj, dtype=np.float64)  # grad f changes by z t (K_i - K_j)
        _refresh_up_low(up, low, alpha, pos, C, (i, j))
        if it == next_newton:
            free, last_free = (alpha > 0) & (alpha < C), free
            if np.array_equal(free, last_free):  # the face looks settled: solve on it
                _newton_on_face(col, z, C, alpha, v)
                up, low = _up_low(alpha, pos, C)
            next_newton = _newton_after(it, alpha, C)
    else:
        it = max_iter
    return alpha, v, it, converged


def _max_violator(v, up, low) -> tuple[int, float]:
    r"""First half of the working set (Keerthi et al. 2001; libsvm): :math:`i = \arg\max_{up} v`,
    and the KKT gap :math:`\max_{up} v - \min_{low} v` (the KKT conditions, eq. 159 and 164, hold
    when it is <= 0)."""
    i = int(np.argmax(np.where(up, v, -np.inf)))
    return i, v[i] - np.min(np.where(low, v, np.inf))


def _second_order_partner(i: int, v, low, Ki, diag) -> int:
    r"""Second half of the working set, WSS2 of Fan, Chen and Lin (2005), libsvm: among the
    j in I_low with :math:`v_j < v_i`, the one whose pair step decreases f most by the
    second-order model, :math:`(v_i - v_j)^2 / a_{ij}`, :math:`a_{ij} = K_{ii} + K_{jj} -
    2 K_{ij}` (floored at tau when not positive)."""
    m = v[i]
    a = np.maximum(diag[i] + diag - 2.0 * Ki, CURVATURE_FLOOR)
    gain = np.where(low & (v < m), (m - v) ** 2 / a, -np.inf)
    return int(np.argmax(gain))


def _pair_step(alpha, v, z, C, diag, i: int, j: int, Kij: float) -> float:
    r"""The two-variable update (Platt 1998): the exact minimiser
    :math:`t = (v_i - v_j) / a_{ij}` of f along :math:`\alpha_i \mathrel{+}= z_i t,\
    \alpha_j \mathrel{-}= z_j t`, clipped so that both stay in the box. Updates alpha in place
    and returns t."""
    pos_i, pos_j = z[i] > 0, z[j] > 0
    t = (v[i] - v[j]) / max(diag[i] + diag[j] - 2.0 * Kij, CURVATURE_FLOOR)
    room_i = C[i] - alpha[i] if pos_i else alpha[i]
    room_j = alpha[j] if pos_j else C[j] - alpha[j]
    t = min(t, room_i, room_j)
    alpha[i] += z[i] * t
    alpha[j] -= z[j] * t
    if t == room_i:  # land exactly on the bound, not a rounding error away from it
        alpha[i] = C[i] if pos_i else 0.0
    if t == room_j:
        alpha[j] = 0.0 if pos_j else C[j]
    return t


def _refresh_up_low(up, low, alpha, pos, C, idx) -> None:
    """`_up_low` for the samples idx only (the pair just moved), in place."""
    for k in idx:
        up[k] = alpha[k] < C[k] if pos[k] else alpha[k] > 0
        low[k] = alpha[k] > 0 if pos[k] else alpha[k] < C[k]


def _newton_on_face(col, z, C, alpha, v) -> int:
    """`_face_newton` with the equality constraint, on SMO's v = -z grad f: alpha and v updated
    in place; 1 if a step was taken."""
    G = -z * v
    stepped = _face_newton(col, z, C, alpha, G, equality=True)
    v[:] = -z * G
    return stepped


def _smo_shrinking(cols, diag, z, C, tol, max_iter, alpha0=None):
    """SMO with libsvm's shrinking: the fast path of `_smo`, same solution.

    Every 1000 iterations, the variables at a bound that cannot be part of a violating
    pair at the current iterate (in I_up only with v_i < min_low v, or in I_low only with
    v_i > max_up v) are fixed and SMO goes on with the others, a smaller problem with the same
    equality (the fixed alphas only shift its constant). When the smaller problem satisfies the
    KKT conditions, v is recomputed exactly for every sample and SMO checks (and if needed
    continues) on the whole problem. Starts from alpha = 0 or from a feasible ``alpha0``.
    """
    N = z.size
    alpha, v, act, total = np.zeros(N), z.copy(), np.arange(N), 0
    if alpha0 is not None:
        alpha = alpha0.copy()
        v = -z * (z * cols.times(alpha * z) - 1.0)
    pos = z > 0
    while total < max_iter:
        sub = cols if act.size == N else _SubColumns(cols, act)
        a, va, n, converged = _smo(sub, diag[act], z[act], C[act], tol,
                                   min(_SHRINK_EVERY, max_iter - total), alpha[act], v[act])
        alpha[act], v[act], total = a, va, total + n
        if converged and act.size == N:
            break
        if converged:  # optimal on the active set: back to all samples, with an exact v
            v = -z * (z * cols.times(alpha * z) - 1.0)
            act = np.arange(N)
            continue
        up, low = _up_low(alpha[act], pos[act], C[act])
        va = v[act]
        m, M = np.max(va[up]), np.min(va[low])
        keep = (up & low) | (up & (va >= M)) | (low & (va <= m))
        act = act[keep]
    return alpha, total


class _SubColumns:
    """The Gram columns of a subset ``act`` of the samples, restricted to that subset."""

    def __init__(self, cols: GramColumns, act: np.ndarray):
        self.cols, self.act = cols, act

    def __call__(self, i: int, prefetch=None) -> np.ndarray:
        pf = None if prefetch is None else (lambda: self.act[prefetch()])
        return self.cols(int(self.act[i]), pf)[self.act]

    def block(self, idx: np.ndarray) -> np.ndarray:
        return self.cols.block(self.act[idx])

    def exact(self, i: int) -> np.ndarray:
        """Column i in double precision: from the cache if it stores double, else computed."""
        if self.full is not None or self.dtype == np.float64:
            return self(i)
        return self.gram(self.X[:, [i]], self.X)[0] + self.eps

    def times(self, v: np.ndarray) -> np.ndarray:
        full = np.zeros(self.cols.X.shape[1])
        full[self.act] = v
        return self.cols.times(full)[self.act]


def _newton_after(it: int, alpha, C) -> int:
    """The iteration at which to look again at the free set F (0 < alpha_i < C_i): a Newton step
    on the face is taken there if F has not changed since the last look. Looks are frequent
    enough to shorten the slow end game of the first-order steps, rare enough that a Newton
    step, about |F|^3 operations, costs less than the first-order steps in between (about 300 N
    each, memory bound)."""
    N = alpha.size
    n_free = int(np.count_nonzero((alpha > 0) & (alpha < C)))
    return it + max(min(N, _FACE_PERIOD), n_free**3 // (300 * N))


def _up_low(alpha, pos, C):
    """libsvm's index sets: the samples whose alpha may move up (I_up) or down (I_low) along
    +z_i without leaving the box."""
    return np.where(pos, alpha < C, alpha > 0), np.where(pos, alpha > 0, alpha < C)


def _top(x: np.ndarray, n: int) -> np.ndarray:
    """Indices of the n largest entries of x (unordered)."""
    return np.argpartition(-x, n)[:n] if x.size > n else np.arange(x.size)


def _likely_pair(v, up, low) -> np.ndarray:
    """The samples SMO is likeliest to pick soon: the largest v in up, the smallest in low."""
    h = _PREFETCH // 2
    return np.concatenate([_top(np.where(up, v, -np.inf), h), _top(np.where(low, -v, -np.inf), h)])


def _bias(alpha, G, z, C) -> float:
    """eq. (159), (164): b = z_i - w'x_i on the free support vectors, v_i = -z_i (H alpha - 1)_i;
    without free vectors, the midpoint of the interval the KKT conditions leave (libsvm)."""
    v = -z * G
    free = (alpha > 0) & (alpha < C)
    if np.any(free):
        return float(np.mean(v[free]))
    up, low = _up_low(alpha, z > 0, C)
    return float(0.5 * (np.max(v[up]) + np.min(v[low])))


def _smo_violation(alpha, G, z, C) -> float:
    v = -z * G
    up, low = _up_low(alpha, z > 0, C)
    return float(max(np.max(v[up], initial=-np.inf) - np.min(v[low], initial=np.inf), 0.0))


def _box_step(alpha, G, diag, C):
    """The exact minimiser of f along each coordinate, clipped to [0, C_i]: the step d_i."""
    with np.errstate(divide="ignore", invalid="ignore"):
        newton = np.where(diag > 0, alpha - G / diag, np.where(G < 0, C, 0.0))
    return np.clip(newton, 0.0, C) - alpha


def _projected_gradient(alpha, G, C) -> np.ndarray:
    """KKT of the box-only dual: G_i = 0 inside, >= 0 at alpha_i = 0, <= 0 at alpha_i = C_i."""
    return np.where(alpha <= 0, np.minimum(G, 0.0), np.where(alpha >= C, np.maximum(G, 0.0), G))


def _face_newton(cols, z, C, alpha, G, equality: bool):
    r"""One exact Newton step on the free variables (:math:`0 < \alpha_i < C_i`), the others
    fixed: it reaches the optimum of the face the iterate is on, or stops at the first bound it
    meets (f is a convex quadratic, so any step in (0, 1] decreases it). With the equality
    constraint the step solves the bordered system :math:`[H_{FF}\ z_F; z_F^T\ 0]`. Speeds up the
    end game of SMO and coordinate descent, which is slow when H is badly conditioned.
    """
    free = np.flatnonzero((alpha > 0) & (alpha < C))
    if free.size == 0 or free.size > _MAX_FACE:
        return 0
    zF = z[free]
    H = cols.block(free) * np.outer(zF, zF)
    rhs = -G[free]
    if equality:
        H = np.block([[H, zF[:, None]], [zF[None, :], np.zeros((1, 1))]])
        rhs = np.append(rhs, 0.0)
    step = scipy.linalg.lstsq(H, rhs, lapack_driver="gelsy", check_finite=False)[0][: free.size]
    if not G[free] @ step < 0:  # not a descent direction (already optimal on the face)
        return 0
    a = alpha[free]
    with np.errstate(divide="ignore", invalid="ignore"):
        room = np.where(step > 0, (C[free] - a) / step, np.where(step < 0, -a / step, np.inf))
    k = int(np.argmin(room))
    t = min(1.0, room[k])
    new = np.clip(a + t * step, 0.0, C[free])
    if t < 1.0:  # the variable that stopped the step lands exactly on its bound
        new[k] = C[free][k] if step[k] > 0 else 0.0
    delta = np.zeros(z.size)
    delta[free] = new - a
    alpha[free] = new
    G += z * cols.times(delta * z)
    return 1


def dual_cd(col, diag, z, C, tol, max_iter, alpha0=None):
    r"""Dual coordinate descent for the box-only dual (no equality constraint).

    Each step minimises f exactly along one coordinate, clipped to :math:`[0, C_i]` (liblinear's
    update, Hsieh et al. 2008); the coordinate is the one whose step decreases f most
    (a second-order greedy choice, vectorised over samples instead of a loop over them). Stops
    when the largest projected gradient is at most tol.
    """
    alpha = np.zeros(z.size) if alpha0 is None else alpha0.copy()
    next_newton, polished, free = _newton_after(0, alpha, C), False, None
    G = -np.ones(z.size) if alpha0 is None else z * col.times(alpha * z) - 1.0
    for it in range(max_iter):
        if np.max(np.abs(_projected_gradient(alpha, G, C))) <= tol:
            if polished or not _face_newton(col, z, C, alpha, G, equality=False):
                break
            polished = True  # one exact step on the final face, then check KKT again
            continue
        d = _box_step(alpha, G, diag, C)
        gain = -(G * d + 0.5 * diag * d * d)
        i = int(np.argmax(gain))
        new = alpha[i] + d[i]
        alpha[i] = min(max(new, 0.0), C[i])
        G += (z * z[i] * d[i]) * col(i, partial(_top, gain, _PREFETCH))
        if it == next_newton:
            free, last_free = (alpha > 0) & (alpha < C), free
            if np.array_equal(free, last_free):  # the face looks settled: solve on it
                _face_newton(col, z, C, alpha, G, equality=False)
            next_newton = _newton_after(it, alpha, C)
    else:
        it = max_iter
    return alpha, it


def _smo_slices(cols, diag, z, C, tol, max_iter):
    r"""The labs' box-only dual by SMO, on slices of fixed :math:`\beta = \sum_i\alpha_iz_i`.

    With the constant :math:`\xi` in the kernel, :math:`H = Z(K + \xi)Z` and
    :math:`\alpha^TH\alpha = \alpha^TZKZ\alpha + \xi\beta^2`: on a slice the labs' dual is the
    notes' dual with :math:`\sum_i\alpha_iz_i = \beta` (eq. 165 with a shifted equality),
    which SMO solves (`_smo_shrinking`, warm-started from the previous slice), and the multiplier
    of that equality, b(beta) (eq. 159, 164), is a non-increasing function of beta. The box-only KKT
    conditions are those of the slice on which b = 0: the root is found by Newton steps on beta
    with the exact slope of b on the current face (`_slice_slope`; the secant of the last two
    slices, or -xi, a bound on it, when the face is too large), kept inside a shrinking
    bracket (bisection when a step leaves it); usually one or two slices after the first. b may
    jump where a variable reaches a bound, and the root be that jump: when the bracket has
    shrunk to 1e-9 of the range of beta, coordinate descent (`dual_cd`) finishes, as it
    finishes every run (it stops at once if the KKT conditions already hold). The pairs of SMO
    move across the direction z that coordinate descent alone zig-zags along: 4 to 7 times
    fewer steps, up to 16 times less time, at C = 1 to 100 (`benchmarks/bench_svm.py`). C finite.
    """
    alpha, beta, total, last = np.zeros(z.size), 0.0, 0, None
    lo, hi = -float(C[z < 0].sum()), float(C[z > 0].sum())  # the range of beta
    width = hi - lo
    while total < max_iter and hi - lo > 1e-9 * width:
        alpha, n = _smo_shrinking(cols, diag, z, C, 0.5 * tol, max_iter - total, alpha0=alpha)
        total += n
        b = _bias(alpha, z * cols.times(alpha * z) - 1.0, z, C)
        if abs(b) <= 0.5 * tol:
            break
        lo, hi = (beta, hi) if b > 0 else (lo, beta)  # b decreases: the root is above if b > 0
        slope = _slice_slope(cols, z, C, alpha)
        if not slope < 0 and last is not None and last[1] != b:  # the secant instead
            slope = (b - last[1]) / (beta - last[0])
        if not slope < 0:  # b decreases at least as fast as -xi beta
            slope = -cols.eps
        last, new = (beta, b), (beta - b / slope if slope < 0 else 0.5 * (lo + hi))
        if not lo < new < hi:
            new = 0.5 * (lo + hi)
        alpha = _move_sum(alpha, z, C, new - beta)
        beta = float(z @ alpha)
    alpha, more = dual_cd(cols, diag, z, C, tol, max(max_iter - total, 1), alpha0=alpha)
    return alpha, total + more


def _slice_slope(cols, z, C, alpha) -> float:
    """d b / d beta on the current face (free set F fixed): the last entry of the solution of
    [H_FF z_F; z_F' 0] [d alpha_F; d b] = [0; 1], negative; 0 when it cannot be computed."""
    free = np.flatnonzero((alpha > 0) & (alpha < C))
    if free.size == 0 or free.size > _MAX_FACE:
        return 0.0
    zF = z[free]
    H = cols.block(free) * np.outer(zF, zF)
    H = np.block([[H, zF[:, None]], [zF[None, :], np.zeros((1, 1))]])
    rhs = np.zeros(free.size + 1)
    rhs[-1] = 1.0
    slope = scipy.linalg.lstsq(H, rhs, lapack_driver="gelsy", check_finite=False)[0][-1]
    return float(slope) if np.isfinite(slope) else 0.0


def _move_sum(alpha, z, C, delta: float) -> np.ndarray:
    """alpha with sum_i alpha_i z_i changed by delta, in the box: the free variables move first
    (in proportion to their room), all of them if the free ones lack room."""
    room = np.where((z > 0) == (delta > 0), C - alpha, alpha)
    free = (alpha > 0) & (alpha < C)
    share = np.where(free if room[free].sum() >= abs(delta) else room > 0, room, 0.0)
    if share.sum() == 0.0:
        return alpha
    step = min(1.0, abs(delta) / share.sum())
    return np.clip(alpha + np.sign(delta) * z * share * step, 0.0, C)


def _ipm(V: np.ndarray, z, C, equality: bool, max_iter: int = _IPM_MAX_STEPS):
    r"""Interior point method for an SVM dual whose Hessian has low rank.

    The dual, as a minimisation: :math:`f(\alpha) = \frac12\alpha^TV^TV\alpha - \mathbf1^T\alpha`,
    :math:`0 \le \alpha \le C`, and :math:`z^T\alpha = 0` when ``equality``; V is (m, N),
    :math:`H = V^TV` (eq. 173): column i is :math:`z_i x_i` for the linear kernel (with a last row
    :math:`K z^T` for the labs' constant feature), z times a factor of the Gram matrix for a
    kernel of finite rank m (`_low_rank_factor`). With the multipliers s (of
    :math:`\alpha \ge 0`), t (of :math:`\alpha \le C`) and b (of the equality: it is the bias,
    eq. 159, 164), the KKT conditions are

    .. math::

        H\alpha - \mathbf1 + b z - s + t = 0,\quad z^T\alpha = 0,\quad
        \alpha_i s_i = 0,\quad (C_i - \alpha_i) t_i = 0,\quad s, t \ge 0 .

    Mehrotra's predictor-corrector method follows the central path (products
    :math:`\alpha_i s_i = (C_i - \alpha_i) t_i = \mu`, :math:`\mu \to 0`) with Newton steps on
    these equations. Eliminating s and t leaves one (N, N) system per step,
    :math:`(H + \Theta)\,\Delta\alpha + z\,\Delta b = r`, :math:`\Theta = \mathrm{diag}(s/\alpha +
    t/(C - \alpha))`, solved with the Sherman-Morrison-Woodbury identity

    .. math::

        (\Theta + V^TV)^{-1} = \Theta^{-1} - \Theta^{-1}V^T(I_m + V\Theta^{-1}V^T)^{-1}V\Theta^{-1},

    i.e. by the Cholesky factor of an (m, m) matrix: :math:`O(N m^2)` operations and
    :math:`O(N m)` memory per step, no Gram matrix (Ferris and Munson, SIAM J. Optim. 2003).
    About 20-40 steps bring the duality gap to 1e-9 of the objective and the residual of the
    first equation to 1e-6 of the gradient's scale, :math:`\max_i H_{ii} \max_i C_i`; the
    solution is then interior (no alpha exactly at a bound), and `_ipm_to_vertex` hands it over
    to SMO or coordinate descent, which finish to the KKT tolerance.
    Starts from :math:`\alpha = C/2`, :math:`s = t = 1` (the scale of the linear term), b = 0.
    Returns alpha, the multipliers s and t, and the number of steps.
    """
    N = z.size
    alpha, b = 0.5 * C, 0.0
    s, t = np.ones(N), np.ones(N)
    r_tol = 1e-6 * (1.0 + np.max(np.einsum("ij,ij->j", V, V)) * np.max(C))  # gradient's scale
    steps = 0
    while steps < max_iter:
        u = C - alpha  # the distance to the upper bound
        g = V.T @ (V @ alpha) - 1.0  # grad f = H alpha - 1
        r_dual = g + b * z - s + t if equality else g - s + t
        r_eq = float(z @ alpha) if equality else None
        gap = float(alpha @ s + u @ t)  # the duality gap once the residuals vanish
        f = 0.5 * float(alpha @ (g + 1.0)) - float(alpha.sum())
        if gap <= 1e-9 * (1.0 + abs(f)) and np.max(np.abs(r_dual)) <= r_tol:
            break
        try:
            solve = _woodbury(V, s / alpha + t / u)
        except np.linalg.LinAlgError:  # the last steps lost definiteness to rounding: stop
            break
        hz = solve(z) if equality else None  # (H + Theta)^{-1} z: one solve for both steps
        newton = partial(_ipm_direction, solve, z, alpha, u, s, t, r_dual, r_eq, hz)
        da, db, ds, dt = newton(-alpha * s, -u * t)  # predictor: the affine-scaling step
        step = _longest_step(alpha, u, s, t, da, ds, dt)
        gap_aff = (alpha + step * da) @ (s + step * ds) + (u - step * da) @ (t + step * dt)
        mu = (gap_aff / gap) ** 3 * gap / (2 * N)  # Mehrotra's centring sigma mu
        da, db, ds, dt = newton(mu - alpha * s - da * ds, mu - u * t + da * dt)  # corrector
        step = min(1.0, 0.995 * _longest_step(alpha, u, s, t, da, ds, dt))
        alpha, b, s, t = alpha + step * da, b + step * db, s + step * ds, t + step * dt
        steps += 1
    return alpha, s, t, steps


def _ipm_direction(solve, z, alpha, u, s, t, r_dual, r_eq, hz, r_s, r_t):
    r"""The Newton direction of the KKT equations of `_ipm` with the complementarity targets
    :math:`\alpha_i s_i \to` r_s, :math:`(C_i - \alpha_i) t_i \to` r_t: eliminating
    :math:`\Delta s = (r_s - s\Delta\alpha)/\alpha` and :math:`\Delta t = (r_t +
    t\Delta\alpha)/u` leaves :math:`(H + \Theta)\Delta\alpha + z\Delta b = -r_{dual} +
    r_s/\alpha - r_t/u`, and with the equality (r_eq not None), :math:`z^T\Delta\alpha =
    -z^T\alpha`, solved by the Schur complement :math:`z^T(H + \Theta)^{-1}z` (``hz`` =
    :math:`(H + \Theta)^{-1}z`, the same for the predictor and the corrector)."""
    d_alpha, d_b = solve(-r_dual + r_s / alpha - r_t / u), 0.0
    if r_eq is not None:
        d_b = (z @ d_alpha + r_eq) / (z @ hz)
        d_alpha = d_alpha - d_b * hz
    return d_alpha, d_b, (r_s - s * d_alpha) / alpha, (r_t + t * d_alpha) / u


def _woodbury(V: np.ndarray, theta: np.ndarray):
    r"""The solver :math:`r \mapsto (\mathrm{diag}(\theta) + V^TV)^{-1} r` by the
    Sherman-Morrison-Woodbury identity, from the Cholesky factor of
    :math:`I + V\,\mathrm{diag}(\theta)^{-1}V^T` (m, m); raises LinAlgError if it is not
    numerically positive definite."""
    W = V / np.sqrt(theta)
    # upper triangle of W W' (half the flops of W @ W.T), read from the row-major W as the
    # column-major W' (trans=1): no copy of W, 1.5x faster on an MNIST pair, the same sums
    M = scipy.linalg.blas.dsyrk(1.0, W.T, trans=1)
    M[np.diag_indices_from(M)] += 1.0
    factor = scipy.linalg.cho_factor(M, overwrite_a=True, check_finite=False)

    def solve(r):
        x = r / theta
        return x - (V.T @ scipy.linalg.cho_solve(factor, V @ x, check_finite=False)) / theta

    return solve


def _longest_step(alpha, u, s, t, da, ds, dt) -> float:
    """The largest step in (0, 1] that keeps alpha, C - alpha, s and t non-negative."""
    step = 1.0
    for x, dx in ((alpha, da), (u, -da), (s, ds), (t, dt)):
        neg = dx < 0
        if np.any(neg):
            step = min(step, float(np.min(-x[neg] / dx[neg])))
    return step


def _ipm_to_vertex(alpha, s, t, z, C, equality: bool) -> np.ndarray:
    r"""The interior point's alpha with its bounds made exact, for SMO or coordinate descent.

    :math:`\alpha_i` is set to 0 when :math:`\alpha_i / C_i < s_i` and to :math:`C_i` when
    :math:`(C_i - \alpha_i)/C_i < t_i` (on the central path :math:`\alpha_i s_i = \mu` is tiny,
    so of the two factors the one near zero says which bound is active; s and t have the scale of
    the linear term, 1). The equality :math:`z^T\alpha = 0`, which rounding breaks by about
    N mu, is then restored by `_move_sum` (the free variables move, all of them if they lack
    room).
    """
    a = np.where(alpha / C < s, 0.0, np.where((C - alpha) / C < t, C, alpha))
    r = float(z @ a) if equality else 0.0
    return _move_sum(a, z, C, -r) if r != 0.0 else a

def _low_rank_factor(cols: GramColumns, z, rank: int) -> np.ndarray:
    """V with H = V'V, one column per sample. Linear kernel: z_i x_i, the features that are zero
    on every sample dropped (they add nothing), and a row sqrt(xi) z' for the labs' constant.
    Other kernels: z times the pivoted Cholesky factor of the Gram matrix (`_pivoted_cholesky`),
    of rank at most ``rank``, the dimension of the kernel's feature space."""
    if cols.linear:
        V = cols.X[np.any(cols.X != 0, axis=1)] * z
        return np.vstack([V, np.sqrt(cols.eps) * z]) if cols.eps > 0 else V
    return _pivoted_cholesky(cols, rank + (cols.eps > 0)) * z


def _pivoted_cholesky(cols: GramColumns, rank: int) -> np.ndarray:
    r"""G (r, N), r <= rank, with :math:`G^TG` = the Gram matrix (plus xi) to rounding, for a
    Gram matrix of rank at most ``rank``: the Cholesky factorisation with the largest remaining
    diagonal as pivot, stopped after ``rank`` pivots or when every remaining diagonal entry is
    rounding noise (1e-14 of the largest). The residual diagonal :math:`d_i = K_{ii} - \|G_{:i}
    \|^2` bounds every entry of the error, :math:`|K_{ij} - (G^TG)_{ij}| \le \sqrt{d_id_j}`.
    Costs ``rank`` kernel columns and :math:`O(N\,\text{rank}^2)` operations."""
    d = cols.diag.copy()
    G = np.zeros((rank, d.size))
    floor = 1e-14 * d.max()
    for r in range(rank):
        i = int(np.argmax(d))
        if d[i] <= floor:
            return G[:r]
        G[r] = (cols.exact(i) - G[:r, i] @ G[:r]) / np.sqrt(d[i])
        d -= G[r] ** 2
        d[i] = 0.0
    return G


