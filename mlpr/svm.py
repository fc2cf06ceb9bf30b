r"""Support vector machines: primal and dual, kernels, class re-balancing (notes ch. 8).

Labels :math:`c_i \in \{0, 1\}` enter as :math:`z_i = 2 c_i - 1 \in \{-1, +1\}`; class 1 when the
score is strictly positive, :math:`s(x) > 0` (eq. 128, the library's one rule).

Two formulations, both solved to the KKT conditions (not to a fixed iteration count):

1. **The notes' SVM**, with a free (unregularised) bias (``K=None`` / ``eps=None``). The primal,
   eq. (162) with slacks or eq. (168) with the hinge loss, and its dual, eq. (165)-(166):

   .. math::

       \min_{w, b}\ \frac12\|w\|^2 + \sum_i C_i \max(0, 1 - z_i (w^T x_i + b))
       \qquad
       \max_\alpha\ \mathbf 1^T\alpha - \frac12 \alpha^T H \alpha,\quad
       0 \le \alpha_i \le C_i,\ \sum_i \alpha_i z_i = 0,

   :math:`H_{ij} = z_i z_j k(x_i, x_j)` (eq. 173). :math:`b` comes from the KKT conditions
   (eq. 159, 164). :math:`C = \infty` on separable data is the hard margin (eq. 154-160). This is
   the problem libsvm (scikit-learn's ``SVC``) solves; here by SMO with libsvm's second-order
   working-set selection (Fan, Chen and Lin, JMLR 2005). When the kernel's feature space has
   m <= N / 4 dimensions (the linear kernel, m = D; the polynomial kernel on few features, m =
   binom(D + d, d)) an interior point method comes first (``solver="ipm"``, then the default):
   :math:`H = V^TV` has rank at most m, so each of its 20-40 Newton steps costs one (m, m)
   Cholesky factorisation and no Gram matrix (Ferris and Munson 2003; V from the features, or a
   pivoted Cholesky factorisation of the Gram matrix); SMO then finishes from the bounds it
   identified, in a few hundred pair steps at most. At large C, where SMO needs millions of pair
   steps (libsvm too), this is what keeps training to seconds.

2. **The course labs' variant**, bias absorbed by a constant feature ``K`` appended to every
   sample (linear model: the bias is regularised, :math:`\frac12(\|w\|^2 + b^2 / K^2)`), or by a
   constant :math:`\xi` = ``eps`` (:math:`= K^2`) added to the kernel. The dual then has the box
   constraints only, :math:`0 \le \alpha_i \le C_i`, and no equality. Solved by SMO on the
   slices of fixed :math:`\sum_i\alpha_iz_i`, searching the slice whose bias is zero
   (``solver="smo"``, `_smo_slices`, the default for finite C), by dual coordinate descent
   (``"cd"``, greedy, second-order choice of the coordinate) or, as in the labs, by L-BFGS-B
   (``"lbfgsb"``, the teaching reference), which the trainer continues by coordinate descent
   whenever L-BFGS-B stops with the KKT conditions violated by more than ``tol``.

==========================================  ==========================  ===========================
what                                        function                    result
==========================================  ==========================  ===========================
kernels, eq. (179)-(180), and their sums    `linear_kernel`,            callable ``k(D1, D2)``
                                            `poly_kernel`, `rbf_kernel` (N1, N2)
hinge loss, eq. (169)                       `hinge_loss`                (N,)
primal objective of any (w, b), eq. (168)   `svm_primal_objective`      float
dual objective of any alpha, eq. (165)      `svm_dual_objective`        float
per-sample bounds C_i, eq. (181)-(182)      `rebalanced_C`              (N,)
linear SVM (both formulations)              `train_svm_linear`          `LinearSVM`
kernel SVM (both formulations)              `train_svm_kernel`          `KernelSVM`
==========================================  ==========================  ===========================

Memory. The solvers need the kernel (Gram) matrix of the training set one column at a time. If
all of it fits in ``cache_mb`` (``8 N^2`` bytes: N = 5,000 samples fit the default 200 MB) it is
computed once, in blocks; otherwise columns are computed on demand, 64 at a time (one matrix
product), and the most recently used ones are kept up to ``cache_mb`` (libsvm's strategy and
default size). Besides the cache a run needs the (D, N) data, a few (N,) vectors, a (64, N)
block of new columns, a (256, N) block when the final gradient is recomputed and, for the Newton
steps on a face of at most 1,500 free variables, a few (1500, 1500) matrices: at most about
200 MB + 8 (320 N + 10^7) bytes with the default cache. Measured on a 12,000-image MNIST pair
(``benchmarks/bench_svm.py``): 160-190 MB above the data, against libsvm's 40-100 MB (it caches
columns in single precision, restricted to the active set).
``solver="lbfgsb"`` always builds the full matrix. The interior point method of the linear model
needs the (D', N) matrix of the samples times their labels (D' = the features not zero on every
sample, plus one for ``K``), a scaled copy of it and a (D', D') matrix: about 16 D' N + 8 D'^2
bytes (120 MB on the MNIST pair), plus the cache of the SMO or coordinate-descent steps that
finish its solution, which compute few columns; for a polynomial kernel, the same with its
(m, N) factor in place of the data (m kernel columns computed to build it).

SMO uses libsvm's shrinking (``shrinking=True``): variables stuck at a bound are set aside and
brought back, with an exact gradient, before the KKT conditions are checked on every sample;
``shrinking=False`` is the plain reference, tested to give the same solution.
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from functools import partial
from numbers import Real

import numpy as np
import scipy.linalg
import scipy.optimize

from .utils import (
    ConvergenceWarning,
    check_bool,
    check_data,
    check_data_labels,
    check_int,
    check_labels,
    check_prior,
    check_real,
    model,
)

__all__ = [
    "linear_kernel",
    "poly_kernel",
    "rbf_kernel",
    "LinearKernel",
    "PolyKernel",
    "RBFKernel",
    "SumKernel",
    "hinge_loss",
    "svm_primal_objective",
    "svm_dual_objective",
    "rebalanced_C",
    "LinearSVM",
    "KernelSVM",
    "train_svm_linear",
    "train_svm_kernel",
]

_TAU = 1e-12  # libsvm's floor for a non-positive curvature a_ij of a working pair
_SCORE_BLOCK = 2048  # test samples per block when scoring a kernel model
_DEFAULT_TOL = 1e-6
_HARD_SLACK = 1e-9  # rounding allowed on z_i s_i >= 1 when C_i = inf
_MAX_FACE = 1500  # no Newton step on faces with more free variables than this
_PREFETCH = 64  # kernel columns computed together on a cache miss
_SHRINK_EVERY = 1000  # SMO iterations between two shrinking steps
_FACE_PERIOD = 100  # fewest iterations between two Newton steps on the current face
_DEFAULT_CACHE_MB = 200.0
_IPM_MAX_STEPS = 100  # interior point steps (20-40 are usual) before SMO / CD take over anyway


# ------------------------------------------------------------------------------------------------
# kernels (section 8.4)


class _KernelAlgebra:
    """A kernel is called on two (D, N1), (D, N2) blocks; a sum of kernels is a kernel (8.4)."""

    def __call__(self, D1, D2) -> np.ndarray:
        X1 = check_data(D1, "D1")
        X2 = check_data(D2, "D2", n_features=X1.shape[0])
        return self._k(X1, X2)

    def __add__(self, other):
        if not isinstance(other, _KernelAlgebra):
            return NotImplemented
        return SumKernel(_terms(self) + _terms(other))

    def _diag(self, X: np.ndarray) -> np.ndarray:
        """k(x_i, x_i) for every column of X, shape (N,)."""
        return _sq_norms(X)


def _sq_norms(X: np.ndarray) -> np.ndarray:
    """||x_i||^2 of every column, without a (D, N) temporary."""
    return np.einsum("ij,ij->j", X, X)


def _terms(k) -> tuple:
    return k.terms if isinstance(k, SumKernel) else (k,)


@model
class LinearKernel(_KernelAlgebra):
    r"""The linear kernel :math:`k(x_1, x_2) = x_1^T x_2`."""

    def _k(self, X1, X2):
        return X1.T @ X2

    def __repr__(self):
        return "linear_kernel()"


@model
class PolyKernel(_KernelAlgebra):
    r"""The polynomial kernel :math:`k(x_1, x_2) = (x_1^T x_2 + c)^d`, eq. (179)."""

    degree: int
    c: float

    def _k(self, X1, X2):
        return (X1.T @ X2 + self.c) ** self.degree  # eq. (179)

    def _diag(self, X):
        return (_sq_norms(X) + self.c) ** self.degree

    def __repr__(self):
        return f"poly_kernel(degree={self.degree}, c={self.c:g})"


@model
class RBFKernel(_KernelAlgebra):
    r"""The radial basis function kernel :math:`k(x_1, x_2) = e^{-\gamma\|x_1 - x_2\|^2}`,
    eq. (180)."""

    gamma: float

    def _k(self, X1, X2):
        # ||a||^2 + ||b||^2 - 2 a'b can come out slightly negative by cancellation: clip at 0
        sq = _sq_norms(X1)[:, None] + _sq_norms(X2)[None, :] - 2 * X1.T @ X2
        return np.exp(-self.gamma * np.maximum(sq, 0.0))  # eq. (180)

    def _diag(self, X):
        return np.ones(X.shape[1])

    def __repr__(self):
        return f"rbf_kernel(gamma={self.gamma:g})"


@model
class SumKernel(_KernelAlgebra):
    """The sum of kernels, itself a kernel (section 8.4): ``k1 + k2`` builds one."""

    terms: tuple

    def _k(self, X1, X2):
        return sum(t._k(X1, X2) for t in self.terms)

    def _diag(self, X):
        return sum(t._diag(X) for t in self.terms)

    def __repr__(self):
        return " + ".join(repr(t) for t in self.terms)


def linear_kernel() -> LinearKernel:
    r"""The linear kernel :math:`k(x_1, x_2) = x_1^T x_2` (section 8.4).

    Returns
    -------
    LinearKernel
        A callable ``k(D1, D2)``: ``D1`` (D, N1), ``D2`` (D, N2) -> (N1, N2) matrix of
        :math:`k(x_i, x_j)`. Kernels add: ``linear_kernel() + rbf_kernel(1.0)``.
    """
    return LinearKernel()


def poly_kernel(degree: int, c: float) -> PolyKernel:
    r"""The polynomial kernel :math:`k(x_1, x_2) = (x_1^T x_2 + c)^d`, eq. (179).

    Parameters
    ----------
    degree : int
        :math:`d \ge 1`.
    c : float
        The constant; :math:`c \ge 0` makes it a valid (positive semi-definite) kernel, and
        :math:`c = 0` keeps only the monomials of degree exactly :math:`d`.

    Returns
    -------
    PolyKernel
        A callable ``k(D1, D2)`` -> (N1, N2) on (D, N1), (D, N2) blocks.
    """
    degree = check_int(degree, "degree", low=1)
    c = check_real(c, "c", low=0.0)
    return PolyKernel(degree=degree, c=c)


def rbf_kernel(gamma: float) -> RBFKernel:
    r"""The radial basis function kernel :math:`k(x_1, x_2) = e^{-\gamma\|x_1 - x_2\|^2}`,
    eq. (180).

    Parameters
    ----------
    gamma : float
        :math:`\gamma > 0`: small values give a wide kernel (smooth boundaries), large ones a
        narrow kernel whose decisions approach the 1-nearest-neighbour rule (section 8.4).

    Returns
    -------
    RBFKernel
        A callable ``k(D1, D2)`` -> (N1, N2). The squared distances are computed as
        :math:`\|x_1\|^2 + \|x_2\|^2 - 2x_1^Tx_2` and clipped at 0, so that cancellation never
        makes them negative (and :math:`k` never exceeds 1).
    """
    return RBFKernel(gamma=check_real(gamma, "gamma", low=0.0, strict=True))


def _check_kernel(kernel):
    if not callable(kernel):
        raise TypeError(
            f"kernel must be a callable k(D1, D2) -> (N1, N2) such as rbf_kernel(1.0), got "
            f"{type(kernel).__name__}"
        )
    return kernel


def _gram(kernel, X1: np.ndarray, X2: np.ndarray) -> np.ndarray:
    """``kernel`` on two validated blocks; a user's kernel gets its result checked."""
    if isinstance(kernel, _KernelAlgebra):
        return kernel._k(X1, X2)
    G = np.asarray(kernel(X1, X2), dtype=np.float64)
    shape = (X1.shape[1], X2.shape[1])
    if G.shape != shape:
        raise ValueError(
            f"kernel returned shape {G.shape} for blocks of {shape[0]} and {shape[1]} samples, "
            f"expected {shape}: k(D1, D2) must return the (N1, N2) matrix of k(x_i, x_j) for "
            f"D1 (D, N1) and D2 (D, N2)"
        )
    if not np.all(np.isfinite(G)):
        raise ValueError("kernel returned NaN or infinite values")
    return G


def _kernel_diag(kernel, X: np.ndarray) -> np.ndarray:
    if isinstance(kernel, _KernelAlgebra):
        return kernel._diag(X)
    return np.concatenate([np.diag(_gram(kernel, X[:, s], X[:, s]))
                           for s in _blocks(X.shape[1], 256)])


def _blocks(N: int, size: int):
    return [slice(i, min(i + size, N)) for i in range(0, N, size)]


# ------------------------------------------------------------------------------------------------
# losses and objectives (eq. 165, 168-171)


def hinge_loss(zs) -> np.ndarray:
    r"""The hinge loss :math:`\max(0, 1 - z s)`, eq. (169), elementwise.

    Parameters
    ----------
    zs : array_like
        Products :math:`z_i s_i` of the label :math:`z_i = \pm 1` and the score.

    Returns
    -------
    ndarray
        Same shape as ``zs``. Zero beyond the margin (:math:`z s \ge 1`), linear inside it.
    """
    zs = np.asarray(zs, dtype=np.float64)
    if np.any(np.isnan(zs)):
        raise ValueError("zs contains NaN values")
    return np.maximum(0.0, 1.0 - zs)  # eq. (169)


def _check_binary(D, L) -> tuple[np.ndarray, np.ndarray]:
    D, L = check_data_labels(D, L, min_samples=2, require_all=True, n_classes=2)
    return D, L


def _check_C(C) -> float:
    if isinstance(C, Real) and not isinstance(C, (bool, np.bool_)) and C == np.inf:
        return np.inf  # the hard margin
    return check_real(C, "C", low=0.0, strict=True, what="the hinge weight; inf: hard margin")


def _box(L: np.ndarray, C: float, prior: float | None) -> np.ndarray:
    """Per-sample bounds C_i, eq. (181)-(182)."""
    if prior is None:
        return np.full(L.size, C)
    pi_emp = np.mean(L == 1)
    return np.where(L == 1, C * prior / pi_emp, C * (1 - prior) / (1 - pi_emp))  # eq. (181)-(182)


def rebalanced_C(L, C: float, prior: float | None = None) -> np.ndarray:
    r"""The per-sample bounds :math:`C_i` of a re-balanced SVM, eq. (181)-(182).

    Parameters
    ----------
    L : array_like, shape (N,)
        Labels 0/1, both present.
    C : float
        :math:`C > 0` (``inf``: hard margin).
    prior : float, optional
        The target prior :math:`\pi_T \in (0, 1)`. None: :math:`C_i = C` for every sample.

    Returns
    -------
    ndarray, shape (N,)
        :math:`C_T = C\pi_T / \pi_T^{emp}` for class-1 samples, :math:`C_F = C\pi_F /
        \pi_F^{emp}` for class 0, with :math:`\pi_T^{emp} = n_T / N`.

    Notes
    -----
    Implements eq. (181)-(182), section 8.5: with these bounds each class's total weight in the
    hinge term is proportional to its prior rather than to its share of the training set. With
    :math:`\pi_T = \pi_T^{emp}` every :math:`C_i = C`.
    """
    L = check_labels(L, n_classes=2, require_all=True)
    return _box(L, _check_C(C), check_prior(prior, allow_none=True))


def _primal(w_sq: float, zs: np.ndarray, Ci: np.ndarray) -> float:
    r"""eq. (168): :math:`\frac12\|w\|^2 + \sum_i C_i \max(0, 1 - z_i s_i)`."""
    h = hinge_loss(zs)
    hard = np.isinf(Ci)  # C_i = inf (hard margin): a constraint, its loss must be 0
    if np.any(h[hard] > _HARD_SLACK):
        return np.inf
    return 0.5 * w_sq + float(np.sum(Ci[~hard] * h[~hard]))


def svm_primal_objective(w, b, D, L, C, K=None, prior=None) -> float:
    r"""The SVM primal objective of any :math:`(w, b)`, eq. (168).

    Parameters
    ----------
    w : array_like, shape (D,)
    b : float
    D : array_like, shape (D, N)
    L : array_like, shape (N,)
        Labels 0/1.
    C : float
        :math:`C > 0`.
    K : float, optional
        None: the notes' free bias, :math:`J = \frac12\|w\|^2 + \sum_i C_i\max(0, 1 - z_i(w^Tx_i
        + b))`. A number: the labs' objective with the bias as the weight of a constant
        feature ``K``, which adds :math:`\frac12 (b / K)^2`.
    prior : float, optional
        Re-balancing target prior, eq. (181)-(182).

    Returns
    -------
    float

    Notes
    -----
    Implements eq. (168) (equivalently eq. 162 at the optimal slacks
    :math:`\xi_i = \max(0, 1 - z_i s_i)`), section 8.3. Its minimum equals the maximum of the
    dual, eq. (165) (strong duality), which `LinearSVM.duality_gap` measures.
    """
    D, L = _check_binary(D, L)
    w = np.asarray(w, dtype=np.float64).ravel()
    if w.shape != (D.shape[0],):
        raise ValueError(f"w has {w.size} entries, expected {D.shape[0]} (one per feature of D)")
    b = check_real(b, "b")
    Ci = _box(L, _check_C(C), check_prior(prior, allow_none=True))
    bias_sq = 0.0 if K is None else (b / check_real(K, "K", low=0.0, strict=True)) ** 2
    z = 2.0 * L - 1.0
    return _primal(float(w @ w) + bias_sq, z * (w @ D + b), Ci)


def svm_dual_objective(alpha, D, L, kernel=None, eps: float = 0.0) -> float:
    r"""The SVM dual objective :math:`\mathbf 1^T\alpha - \frac12\alpha^T H \alpha`, eq. (165).

    Parameters
    ----------
    alpha : array_like, shape (N,)
    D : array_like, shape (D, N)
    L : array_like, shape (N,)
        Labels 0/1.
    kernel : callable, optional
        Default `linear_kernel`.
    eps : float
        :math:`\xi \ge 0` added to the kernel (the labs' bias; :math:`\xi = K^2` for the linear
        model with constant feature K). 0 for the notes' formulation.

    Returns
    -------
    float

    Notes
    -----
    Implements eq. (165) with :math:`H_{ij} = z_i z_j (k(x_i, x_j) + \xi)`, eq. (173). The
    constraints (eq. 166) are not checked: this is the objective of any :math:`\alpha`.
    """
    D, L = _check_binary(D, L)
    alpha = np.asarray(alpha, dtype=np.float64).ravel()
    if alpha.shape != (D.shape[1],):
        raise ValueError(f"alpha has {alpha.size} entries, expected {D.shape[1]} (one per sample)")
    kernel = linear_kernel() if kernel is None else _check_kernel(kernel)
    eps = check_real(eps, "eps", low=0.0)
    za = (2.0 * L - 1.0) * alpha
    Hz = sum(_gram(kernel, D, D[:, s]) @ za[s] for s in _blocks(D.shape[1], 1024)) + eps * za.sum()
    return float(alpha.sum() - 0.5 * za @ Hz)  # eq. (165)


# ------------------------------------------------------------------------------------------------
# the Gram matrix, one column at a time


class _GramColumns:
    """Columns :math:`k(x_t, x_i) + \\xi`, t = 1..N, of the training Gram matrix.

    The whole matrix, computed in blocks, when ``8 N^2`` bytes fit in the cache; otherwise each
    column on demand, the most recently used ones kept (least recently used evicted first).
    """

    def __init__(self, kernel, X: np.ndarray, eps: float, cache_bytes: float, eager=True):
        self.kernel, self.X, self.eps = kernel, X, eps
        N = X.shape[1]
        self.diag = _kernel_diag(kernel, X) + eps
        self.full = None
        if eager and 8.0 * N * N <= cache_bytes:
            self.matrix()
        # the cache: one (capacity, N) store, filled row by row (memory is touched as it fills),
        # and slot[i] = the row of the store holding column i, in recency order
        self.capacity = max(2, int(cache_bytes // (8 * N)))
        self.store = None if self.full is not None else np.empty((self.capacity, N))
        self.slot: dict[int, int] = {}
        self.free_slots = list(range(self.capacity))

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
        if prefetch is not None:
            room = min(_PREFETCH, self.capacity // 2)
            batch += [j for j in dict.fromkeys(prefetch().tolist())
                      if j != i and j not in self.slot][: room - 1]
        block = _gram(self.kernel, self.X[:, batch], self.X) + self.eps
        while len(self.free_slots) < len(batch):  # evict the least recently used
            self.free_slots.append(self.slot.pop(next(iter(self.slot))))
        for j, row in zip(batch[::-1], block[::-1]):  # i inserted last: most recent
            k = self.free_slots.pop()
            self.store[k] = row
            self.slot[j] = k
        return self.store[self.slot[i]]

    def times(self, v: np.ndarray) -> np.ndarray:
        """Gram @ v from the columns where v is non-zero (the support vectors), in blocks."""
        nz = np.flatnonzero(v)
        if self.full is not None:
            return v[nz] @ self.full[nz]
        if isinstance(self.kernel, LinearKernel):  # X'(X v): two products, no column
            return self.X.T @ (self.X[:, nz] @ v[nz]) + self.eps * v[nz].sum()
        out = np.zeros(self.X.shape[1])
        cached = np.array([i in self.slot for i in nz.tolist()], dtype=bool)
        for i in nz[cached]:
            out += v[i] * self.store[self.slot[i]]
        rest = nz[~cached]
        for s in _blocks(rest.size, 256):
            out += v[rest[s]] @ _gram(self.kernel, self.X[:, rest[s]], self.X)
        return out + self.eps * v[rest].sum()

    def block(self, idx: np.ndarray) -> np.ndarray:
        """The square sub-matrix Gram[idx][:, idx]."""
        if self.full is not None:
            return self.full[np.ix_(idx, idx)]
        if all(i in self.slot for i in idx.tolist()):
            return self.store[np.ix_([self.slot[i] for i in idx.tolist()], idx)]
        return _gram(self.kernel, self.X[:, idx], self.X[:, idx]) + self.eps

    def matrix(self) -> np.ndarray:
        if self.full is None:
            N = self.X.shape[1]
            self.full = np.empty((N, N))
            for s in _blocks(N, 1024):
                self.full[s] = _gram(self.kernel, self.X[:, s], self.X) + self.eps
        return self.full


# ------------------------------------------------------------------------------------------------
# solvers of the dual, written as minimisation of f(alpha) = 1/2 alpha' H alpha - 1' alpha


def _smo(col, diag, z, C, tol, max_iter, alpha=None, v=None):
    r"""SMO for eq. (165)-(166): the free bias adds :math:`\sum_i \alpha_i z_i = 0`.

    Each step moves one pair (i, j) along :math:`\alpha_i \mathrel{+}= z_i t,\ \alpha_j
    \mathrel{-}= z_j t`, which keeps the equality (`_pair_step`), the pair chosen by libsvm's
    second-order working-set selection (`_max_violator`, `_second_order_partner`). With
    :math:`v = -z \circ \nabla f`, the KKT conditions hold when :math:`\max_{up} v - \min_{low} v
    \le` tol, and :math:`b` (eq. 164) is the common value of :math:`v` on the free vectors.
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
        v -= t * (Ki - Kj)  # grad f changes by z t (K_i - K_j)
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
    and the KKT gap :math:`\max_{up} v - \min_{low} v` (the KKT conditions of eq. 164-166 hold
    when it is <= 0)."""
    i = int(np.argmax(np.where(up, v, -np.inf)))
    return i, v[i] - np.min(np.where(low, v, np.inf))


def _second_order_partner(i: int, v, low, Ki, diag) -> int:
    r"""Second half of the working set, WSS2 of Fan, Chen and Lin (2005), libsvm: among the
    j in I_low with :math:`v_j < v_i`, the one whose pair step decreases f most by the
    second-order model, :math:`(v_i - v_j)^2 / a_{ij}`, :math:`a_{ij} = K_{ii} + K_{jj} -
    2 K_{ij}` (floored at tau when not positive)."""
    m = v[i]
    a = np.maximum(diag[i] + diag - 2.0 * Ki, _TAU)
    gain = np.where(low & (v < m), (m - v) ** 2 / a, -np.inf)
    return int(np.argmax(gain))


def _pair_step(alpha, v, z, C, diag, i: int, j: int, Kij: float) -> float:
    r"""The two-variable update (Platt 1998): the exact minimiser
    :math:`t = (v_i - v_j) / a_{ij}` of f along :math:`\alpha_i \mathrel{+}= z_i t,\
    \alpha_j \mathrel{-}= z_j t`, clipped so that both stay in the box. Updates alpha in place
    and returns t."""
    pos_i, pos_j = z[i] > 0, z[j] > 0
    t = (v[i] - v[j]) / max(diag[i] + diag[j] - 2.0 * Kij, _TAU)
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

    def __init__(self, cols: _GramColumns, act: np.ndarray):
        self.cols, self.act = cols, act

    def __call__(self, i: int, prefetch=None) -> np.ndarray:
        pf = None if prefetch is None else (lambda: self.act[prefetch()])
        return self.cols(int(self.act[i]), pf)[self.act]

    def block(self, idx: np.ndarray) -> np.ndarray:
        return self.cols.block(self.act[idx])

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
    """eq. (164): b = z_i - w'x_i on the free support vectors, i.e. v_i = -z_i (H alpha - 1)_i;
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


def _dual_cd(col, diag, z, C, tol, max_iter, alpha0=None):
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
    notes' dual with :math:`\sum_i\alpha_iz_i = \beta` (eq. 165-166 with a shifted equality),
    which SMO solves (`_smo_shrinking`, warm-started from the previous slice), and the multiplier
    of that equality, b(beta) (eq. 164), is a non-increasing function of beta. The box-only KKT
    conditions are those of the slice on which b = 0: the root is found by Newton steps on beta
    with the exact slope of b on the current face (`_slice_slope`; the secant of the last two
    slices, or -xi, a bound on it, when the face is too large), kept inside a shrinking
    bracket (bisection when a step leaves it); usually one or two slices after the first. b may
    jump where a variable reaches a bound, and the root be that jump: when the bracket has
    shrunk to 1e-9 of the range of beta, coordinate descent (`_dual_cd`) finishes, as it
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
    alpha, more = _dual_cd(cols, diag, z, C, tol, max(max_iter - total, 1), alpha0=alpha)
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


def _lbfgsb(Gram: np.ndarray, z, C, max_iter):
    """The labs' teaching solver: L-BFGS-B on the box-only dual with factr = 1."""
    H = Gram * np.outer(z, z)

    def f_grad(alpha):
        Ha = H @ alpha
        return 0.5 * alpha @ Ha - alpha.sum(), Ha - 1.0

    bounds = [(0.0, None if np.isinf(c) else c) for c in C]
    alpha, _, info = scipy.optimize.fmin_l_bfgs_b(f_grad, np.zeros(z.size), bounds=bounds,
                                                   factr=1.0, maxiter=max_iter)
    return alpha, int(info["nit"])


def _ipm(V: np.ndarray, z, C, equality: bool, max_iter: int = _IPM_MAX_STEPS):
    r"""Interior point method for an SVM dual whose Hessian has low rank.

    The dual, as a minimisation: :math:`f(\alpha) = \frac12\alpha^TV^TV\alpha - \mathbf1^T\alpha`,
    :math:`0 \le \alpha \le C`, and :math:`z^T\alpha = 0` when ``equality``; V is (m, N),
    :math:`H = V^TV` (eq. 173): column i is :math:`z_i x_i` for the linear kernel (with a last row
    :math:`K z^T` for the labs' constant feature), z times a factor of the Gram matrix for a
    kernel of finite rank m (`_low_rank_factor`). With the multipliers s (of
    :math:`\alpha \ge 0`), t (of :math:`\alpha \le C`) and b (of the equality: it is the bias,
    eq. 164), the KKT conditions are

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
        newton = partial(_ipm_direction, solve, z, alpha, u, s, t, r_dual, r_eq)
        da, db, ds, dt = newton(-alpha * s, -u * t)  # predictor: the affine-scaling step
        step = _longest_step(alpha, u, s, t, da, ds, dt)
        gap_aff = (alpha + step * da) @ (s + step * ds) + (u - step * da) @ (t + step * dt)
        mu = (gap_aff / gap) ** 3 * gap / (2 * N)  # Mehrotra's centring sigma mu
        da, db, ds, dt = newton(mu - alpha * s - da * ds, mu - u * t + da * dt)  # corrector
        step = min(1.0, 0.995 * _longest_step(alpha, u, s, t, da, ds, dt))
        alpha, b, s, t = alpha + step * da, b + step * db, s + step * ds, t + step * dt
        steps += 1
    return alpha, s, t, steps


def _ipm_direction(solve, z, alpha, u, s, t, r_dual, r_eq, r_s, r_t):
    r"""The Newton direction of the KKT equations of `_ipm` with the complementarity targets
    :math:`\alpha_i s_i \to` r_s, :math:`(C_i - \alpha_i) t_i \to` r_t: eliminating
    :math:`\Delta s = (r_s - s\Delta\alpha)/\alpha` and :math:`\Delta t = (r_t +
    t\Delta\alpha)/u` leaves :math:`(H + \Theta)\Delta\alpha + z\Delta b = -r_{dual} +
    r_s/\alpha - r_t/u`, and with the equality (r_eq not None), :math:`z^T\Delta\alpha =
    -z^T\alpha`, solved by the Schur complement :math:`z^T(H + \Theta)^{-1}z`."""
    d_alpha, d_b = solve(-r_dual + r_s / alpha - r_t / u), 0.0
    if r_eq is not None:
        hz = solve(z)
        d_b = (z @ d_alpha + r_eq) / (z @ hz)
        d_alpha = d_alpha - d_b * hz
    return d_alpha, d_b, (r_s - s * d_alpha) / alpha, (r_t + t * d_alpha) / u


def _woodbury(V: np.ndarray, theta: np.ndarray):
    r"""The solver :math:`r \mapsto (\mathrm{diag}(\theta) + V^TV)^{-1} r` by the
    Sherman-Morrison-Woodbury identity, from the Cholesky factor of
    :math:`I + V\,\mathrm{diag}(\theta)^{-1}V^T` (m, m); raises LinAlgError if it is not
    numerically positive definite."""
    W = V / np.sqrt(theta)
    M = scipy.linalg.blas.dsyrk(1.0, W)  # upper triangle of W W' (half the flops of W @ W.T)
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


# ------------------------------------------------------------------------------------------------
# models


@model
class LinearSVM:
    r"""A trained linear SVM.

    Attributes
    ----------
    w : ndarray, shape (D,)
    b : float
        The bias (for ``K`` not None: ``K`` times the weight of the constant feature).
    alpha : ndarray, shape (N,)
        The dual solution, one entry per training sample; the support vectors are
        ``alpha > 0``.
    C : ndarray, shape (N,)
        The per-sample bounds :math:`C_i` (eq. 181-182 when re-balanced).
    K : float or None
        The constant feature of the labs' formulation; None for the notes' free bias.
    primal_objective : float
        eq. (168) at (w, b) on the training set (plus :math:`\frac12 b^2/K^2` when K is set).
    dual_objective : float
        eq. (165) at alpha.
    duality_gap : float
        primal - dual, :math:`\ge 0`; zero at the optimum (strong duality).
    kkt_violation : float
        The largest violation of the KKT conditions at alpha (see `train_svm_linear`).
    n_iter : int
        Solver iterations (pair updates for SMO, coordinate updates for coordinate descent,
        L-BFGS-B iterations plus any coordinate steps that continued them, interior point steps
        plus the SMO or coordinate steps that finished them).
    """

    w: np.ndarray
    b: float
    alpha: np.ndarray
    C: np.ndarray
    K: float | None
    primal_objective: float
    dual_objective: float
    duality_gap: float
    kkt_violation: float
    n_iter: int

    @property
    def n_features(self) -> int:
        return self.w.shape[0]

    @property
    def margin(self) -> float:
        r"""The geometric margin :math:`1 / \|w\|` (eq. 157): the distance from the hyperplane
        to the samples with :math:`z s = 1`."""
        return float(1.0 / np.linalg.norm(self.w))

    def scores(self, D) -> np.ndarray:
        r"""Scores :math:`s = w^T x + b` (eq. 160) of the columns of ``D`` (D, N), shape (N,);
        class 1 when :math:`s > 0`."""
        X = check_data(D, n_features=self.n_features, allow_1d=True)
        return self.w @ X + self.b


@model
class KernelSVM:
    r"""A trained kernel SVM: it keeps the support vectors and nothing else of the training set.

    Attributes
    ----------
    support_vectors : ndarray, shape (D, M)
        The M training samples with :math:`\alpha_i > 0`.
    alpha : ndarray, shape (M,)
        Their dual variables.
    z : ndarray, shape (M,)
        Their labels as :math:`\pm 1`.
    support : ndarray, shape (M,)
        Their column indices in the training matrix.
    b : float
        The bias, eq. (164) (0 for the labs' formulation, whose bias is inside the kernel).
    kernel : callable
    eps : float or None
        :math:`\xi` added to the kernel (labs' formulation), None for the notes' free bias.
    primal_objective, dual_objective, duality_gap, kkt_violation, n_iter
        As for `LinearSVM`, with :math:`\|w\|^2 = \alpha^T H \alpha`.
    """

    support_vectors: np.ndarray
    alpha: np.ndarray
    z: np.ndarray
    support: np.ndarray
    b: float
    kernel: object
    eps: float | None
    primal_objective: float
    dual_objective: float
    duality_gap: float
    kkt_violation: float
    n_iter: int

    @property
    def n_features(self) -> int:
        return self.support_vectors.shape[0]

    @property
    def margin(self) -> float:
        r""":math:`1 / \|w\|` in the kernel's feature space, :math:`\|w\|^2 = \alpha^T H\alpha`."""
        za = self.alpha * self.z
        xi = 0.0 if self.eps is None else self.eps
        H = _gram(self.kernel, self.support_vectors, self.support_vectors) + xi
        return float(1.0 / np.sqrt(za @ H @ za))

    def scores(self, D) -> np.ndarray:
        r"""Scores :math:`s(x) = \sum_i \alpha_i z_i (k(x_i, x) + \xi) + b` (eq. 174) of the
        columns of ``D`` (D, N), shape (N,), computed in blocks of test samples."""
        X = check_data(D, n_features=self.n_features, allow_1d=True)
        return _kernel_scores(self.kernel, self.support_vectors, self.alpha * self.z,
                              0.0 if self.eps is None else self.eps, self.b, X)


def _kernel_scores(kernel, SV, za, xi, b, X) -> np.ndarray:
    """eq. (174) in blocks of test samples: memory M x block."""
    out = np.empty(X.shape[1])
    for s in _blocks(X.shape[1], _SCORE_BLOCK):
        out[s] = za @ _gram(kernel, SV, X[:, s]) + xi * za.sum() + b  # eq. (174)
    return out


# ------------------------------------------------------------------------------------------------
# trainers


def _check_options(solver, free_bias: bool, tol, max_iter, cache_mb, ipm: bool,
                   finite: bool = True):
    """Validated options; ``ipm``: whether the interior point method is the default; ``finite``:
    whether every C_i is (SMO on slices of the box-only dual needs it, so C = inf gets "cd")."""
    choices = ("smo",) if free_bias else ("smo", "cd", "lbfgsb") if finite else ("cd", "lbfgsb")
    choices = ("ipm",) + choices if ipm else choices + ("ipm",)
    if solver is None:
        solver = choices[0]
    if solver not in choices:
        what = ("the notes' free-bias dual (K=None / eps=None) has an equality constraint"
                if free_bias else "the labs' box-only dual (K or eps set)")
        raise ValueError(f"solver must be one of {choices} for {what}, got {solver!r}")
    tol = check_real(tol, "tol", low=0.0, strict=True)
    max_iter = check_int(max_iter, "max_iter", low=1)
    cache_mb = check_real(cache_mb, "cache_mb", low=0.0, strict=True)
    return solver, tol, max_iter, cache_mb * 2.0**20


def _check_ipm(solver, Ci) -> None:
    if solver == "ipm" and not np.all(np.isfinite(Ci)):
        raise ValueError("solver='ipm' needs a finite C; the hard margin (C = inf) is solved by "
                         "solver='smo' (free bias) or 'cd' (K or eps set)")


def _check_separable(cols: _GramColumns, z: np.ndarray, free_bias: bool) -> None:
    """A hard margin (C = inf) exists iff some f = G beta (+ b) has z_i f_i >= 1: an LP."""
    Gram = cols.matrix()
    A = -(z[:, None] * Gram)
    if free_bias:
        A = np.hstack([A, -z[:, None]])
    res = scipy.optimize.linprog(np.zeros(A.shape[1]), A_ub=A, b_ub=-np.ones(z.size),
                                 bounds=(None, None), method="highs")
    if res.status == 2:
        raise ValueError(
            "C = inf (hard margin) but the training data are not separable by this model: the "
            "hard-margin problem (eq. 154) is infeasible and its dual unbounded; use a finite C "
            "(soft margin, eq. 162)"
        )


def _low_rank_factor(cols: _GramColumns, z) -> np.ndarray:
    """V with H = V'V, one column per sample. Linear kernel: z_i x_i, the features that are zero
    on every sample dropped (they add nothing), and a row sqrt(xi) z' for the labs' constant.
    Other kernels: z times the pivoted Cholesky factor of the Gram matrix (`_pivoted_cholesky`),
    of rank at most the kernel's `_rank_bound`."""
    if isinstance(cols.kernel, LinearKernel):
        V = cols.X[np.any(cols.X != 0, axis=1)] * z
        return np.vstack([V, np.sqrt(cols.eps) * z]) if cols.eps > 0 else V
    return _pivoted_cholesky(cols, _rank_bound(cols.kernel, cols.X) + (cols.eps > 0)) * z


def _rank_bound(kernel, X: np.ndarray) -> int | None:
    """The dimension of the kernel's feature space on these samples, an upper bound on the rank
    of their Gram matrix: D' (the features not zero on every sample) for the linear kernel,
    the number of monomials of degree <= d in D' variables, binom(D' + d, d), for the polynomial
    kernel (degree exactly d, binom(D' + d - 1, d), when c = 0), the sum over a sum of kernels;
    None when unbounded (RBF) or unknown (a function of one's own)."""
    n = int(np.count_nonzero(np.any(X != 0, axis=1)))
    if isinstance(kernel, LinearKernel):
        return n
    if isinstance(kernel, PolyKernel):
        return math.comb(n + kernel.degree - (kernel.c == 0), kernel.degree)
    if isinstance(kernel, SumKernel):
        bounds = [_rank_bound(k, X) for k in kernel.terms]
        return None if None in bounds else sum(bounds)
    return None


def _pivoted_cholesky(cols: _GramColumns, rank: int) -> np.ndarray:
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
        G[r] = (cols(i) - G[:r, i] @ G[:r]) / np.sqrt(d[i])
        d -= G[r] ** 2
        d[i] = 0.0
    return G


def _ipm_is_default(kernel, X: np.ndarray, eps: float, Ci: np.ndarray) -> bool:
    """The interior point method is the default when C is finite and the kernel's feature space
    (plus the constant feature of the labs' formulation) has at most N / 4 dimensions: its
    steps then cost O(N m^2) with m <= N / 4, and SMO's many pair steps are what it saves."""
    m = _rank_bound(kernel, X)
    return bool(np.all(np.isfinite(Ci)) and m is not None and 4 * (m + (eps > 0)) <= X.shape[1])


def _solve(cols: _GramColumns, z, Ci, free_bias, solver, tol, max_iter, shrinking=True):
    """alpha, the exact gradient H alpha - 1, the bias and the iteration count."""
    if np.any(np.isinf(Ci)):
        _check_separable(cols, z, free_bias)
    if solver == "ipm":  # the interior point's solution, finished by SMO / coordinate descent
        alpha, s, t, n_iter = _ipm(_low_rank_factor(cols, z), z, Ci, free_bias,
                                   min(max_iter, _IPM_MAX_STEPS))
        alpha, rest = _ipm_to_vertex(alpha, s, t, z, Ci, free_bias), max_iter - n_iter
        if free_bias:
            alpha, more = _smo_shrinking(cols, cols.diag, z, Ci, tol, rest, alpha0=alpha)
        else:
            alpha, more = _dual_cd(cols, cols.diag, z, Ci, tol, rest, alpha0=alpha)
        n_iter += more
    elif free_bias and shrinking:
        alpha, n_iter = _smo_shrinking(cols, cols.diag, z, Ci, tol, max_iter)
    elif free_bias:
        alpha, _, n_iter, _ = _smo(cols, cols.diag, z, Ci, tol, max_iter)
    elif solver == "lbfgsb":
        alpha, n_iter = _lbfgsb(cols.matrix(), z, Ci, max_iter)
        # L-BFGS-B may stop short of the optimum without saying so: go on until KKT holds
        alpha, more = _dual_cd(cols, cols.diag, z, Ci, tol, max_iter, alpha0=alpha)
        n_iter += more
    elif solver == "smo":  # the box-only dual by SMO on slices of fixed sum_i alpha_i z_i
        alpha, n_iter = _smo_slices(cols, cols.diag, z, Ci, tol, max_iter)
    else:
        alpha, n_iter = _dual_cd(cols, cols.diag, z, Ci, tol, max_iter)
    G = z * cols.times(alpha * z) - 1.0  # recomputed, not the solver's running update
    if free_bias:
        violation, b = _smo_violation(alpha, G, z, Ci), _bias(alpha, G, z, Ci)
    else:
        violation, b = float(np.max(np.abs(_projected_gradient(alpha, G, Ci)))), 0.0
    if n_iter >= max_iter and violation > tol:
        scale = float(np.max(Ci * cols.diag))
        hint = (f", or standardise the features or lower C: C_i k(x_i, x_i) reaches {scale:.3g}, "
                f"and the dual needs very many steps when it is large" if scale > 1e4 else "")
        warnings.warn(
            f"the SVM solver stopped after max_iter = {max_iter} iterations with the KKT "
            f"conditions violated by {violation:.3g} > tol = {tol:g}; raise max_iter{hint}",
            ConvergenceWarning, stacklevel=3,
        )
    return alpha, G, b, violation, n_iter


def train_svm_linear(D, L, C, K=1.0, prior=None, *, solver=None, tol=_DEFAULT_TOL,
                     max_iter=1_000_000, cache_mb=_DEFAULT_CACHE_MB,
                     shrinking=True) -> LinearSVM:
    r"""Train a linear SVM by solving its dual exactly (to the KKT conditions).

    Parameters
    ----------
    D : array_like, shape (D, N)
        Training samples, one per column.
    L : array_like, shape (N,)
        Labels 0/1, both present; :math:`z_i = 2 c_i - 1`.
    C : float
        :math:`C > 0`; ``numpy.inf`` gives the hard margin (separable data only, else
        ValueError).
    K : float or None
        The labs' formulation when a number :math:`K > 0`: every sample gets an extra
        constant feature K, so :math:`\hat w = [w; b/K]` and the bias is regularised,
        :math:`\frac12(\|w\|^2 + b^2/K^2) + \sum_i C_i\max(0, 1 - z_i(w^Tx_i + b))`.
        None: the notes' SVM with a free bias (eq. 162-166).
    prior : float, optional
        Re-balance the classes for the target prior :math:`\pi_T` (eq. 181-182).
    solver : {"ipm", "smo", "cd", "lbfgsb"}, optional
        "ipm": an interior point method (`_ipm`; cost per step O(N D^2), no Gram matrix) whose
        solution SMO (``K=None``) or coordinate descent (K set) finishes to ``tol``: the default
        when C is finite and 4 D' <= N (D' = the features not zero on every sample, plus one
        for K). "smo" (the default otherwise): for ``K=None`` SMO, for a number K SMO on the
        slices of fixed sum_i alpha_i z_i (`_smo_slices`; finite C only); for a number K also
        "cd" (dual coordinate descent, the default for C = inf) or "lbfgsb" (the labs' teaching
        solver, continued by coordinate descent until the KKT conditions hold). All
        reach the same optimum to ``tol``; alpha itself is unique only when no two training
        samples coincide (w and b are always unique).
    tol : float
        KKT tolerance: free bias, :math:`\max_{up}(-z_i\nabla_i) - \min_{low}(-z_i\nabla_i)`
        (libsvm's criterion); box only, the largest projected gradient.
    max_iter : int
        Iteration limit (a `ConvergenceWarning` if reached before ``tol``).
    cache_mb : float
        Memory for kernel columns, see the module's docstring.
    shrinking : bool
        SMO only: libsvm's shrinking heuristic (the fast path, same solution); False runs the
        plain SMO on every sample at every iteration (the reference).

    Returns
    -------
    LinearSVM
        :math:`w = \sum_i \alpha_i z_i x_i` (eq. 160), b, alpha and the objectives.

    Raises
    ------
    ValueError
        Labels not 0/1 or one class only, C <= 0, K <= 0, prior outside (0, 1), non-finite or
        transposed data, C = inf on non-separable data.

    Notes
    -----
    Implements section 8.3: the dual eq. (165)-(166) with :math:`H_{ij} = z_iz_jx_i^Tx_j`
    (plus :math:`K^2` for the labs' formulation, for which the equality constraint is gone),
    :math:`w = \sum_i\alpha_iz_ix_i` and, for the free bias, b from the KKT conditions (eq. 164):

    .. math::

        \max_\alpha\ \mathbf 1^T\alpha - \frac12\alpha^TH\alpha \quad
        \text{s.t. } 0 \le \alpha_i \le C_i,\ \sum_i\alpha_iz_i = 0 .

    ``primal_objective`` is eq. (168) evaluated at the returned (w, b), independently of the
    solver, so ``duality_gap`` certifies the solution.
    """
    D, L = _check_binary(D, L)
    C = _check_C(C)
    if K is not None:
        K = check_real(K, "K", low=0.0, strict=True)
    prior = check_prior(prior, allow_none=True)
    z = 2.0 * L - 1.0
    Ci = _box(L, C, prior)
    xi = 0.0 if K is None else K * K
    solver, tol, max_iter, cache = _check_options(
        solver, K is None, tol, max_iter, cache_mb, ipm=_ipm_is_default(LinearKernel(), D, xi, Ci),
        finite=bool(np.all(np.isfinite(Ci))))
    _check_ipm(solver, Ci)
    cols = _GramColumns(LinearKernel(), D, xi, cache,
                        eager=solver != "ipm")  # the interior point needs few columns
    alpha, G, b, violation, n_iter = _solve(cols, z, Ci, K is None, solver, tol, max_iter,
                                            check_bool(shrinking, "shrinking"))
    w = D @ (alpha * z)  # eq. (160)
    if K is not None:
        b = K * K * float(np.sum(alpha * z))  # w_hat's last entry is b / K = K sum_i alpha_i z_i
    w_sq = float(w @ w) + (0.0 if K is None else (b / K) ** 2)
    primal = _primal(w_sq, z * (w @ D + b), Ci)
    dual = float(alpha.sum() - 0.5 * alpha @ (G + 1.0))  # eq. (165)
    return LinearSVM(w=w, b=float(b), alpha=alpha, C=Ci, K=K, primal_objective=primal,
                     dual_objective=dual, duality_gap=primal - dual, kkt_violation=violation,
                     n_iter=int(n_iter))


def train_svm_kernel(D, L, C, kernel, eps=1.0, prior=None, *, solver=None, tol=_DEFAULT_TOL,
                     max_iter=1_000_000, cache_mb=_DEFAULT_CACHE_MB,
                     shrinking=True) -> KernelSVM:
    r"""Train a kernel SVM by solving its dual exactly (to the KKT conditions).

    Parameters
    ----------
    D : array_like, shape (D, N)
    L : array_like, shape (N,)
        Labels 0/1, both present.
    C : float
        :math:`C > 0`; ``numpy.inf`` for the hard margin (separable in feature space only).
    kernel : callable
        ``k(D1, D2)`` -> (N1, N2) on (D, N1), (D, N2) blocks: `linear_kernel`, `poly_kernel`,
        `rbf_kernel`, their sums, or a function of one's own (its output shape is checked).
    eps : float or None
        The labs' formulation when a number :math:`\xi \ge 0`: the kernel becomes
        :math:`k(x_1, x_2) + \xi` (a constant feature :math:`\sqrt\xi`, regularised bias) and
        the dual loses its equality constraint; ``eps = 0`` means no bias at all. None: the
        notes' free bias (eq. 173-174).
    prior : float, optional
        Re-balancing target prior (eq. 181-182).
    solver, tol, max_iter, cache_mb, shrinking
        As in `train_svm_linear`. "ipm" needs a kernel whose feature space has a known finite
        dimension m (linear, polynomial, their sums) and is the default when 4 m <= N (m counts
        the constant of ``eps``); otherwise "smo" is (for ``eps`` set, SMO on slices; "cd"
        when C = inf).

    Returns
    -------
    KernelSVM
        The support vectors, their alpha and labels, b, the kernel and the objectives.

    Raises
    ------
    ValueError
        As `train_svm_linear`, and a kernel that returns the wrong shape or non-finite values.
    TypeError
        A kernel that is not callable.

    Notes
    -----
    Implements section 8.4: the dual eq. (173) with :math:`H_{ij} = z_iz_j(k(x_i, x_j) + \xi)`,
    the constraints of eq. (166) (no equality when :math:`\xi` is set) and the scores eq. (174),
    :math:`s(x) = \sum_i\alpha_iz_i(k(x_i, x) + \xi) + b`. The primal objective is eq. (168) in
    the kernel's feature space, :math:`\frac12\alpha^TH\alpha + \sum_iC_i\max(0, 1 - z_is(x_i))`,
    with the training scores computed by the returned model itself.
    """
    D, L = _check_binary(D, L)
    C = _check_C(C)
    kernel = _check_kernel(kernel)
    if eps is not None:
        eps = check_real(eps, "eps", low=0.0)
    prior = check_prior(prior, allow_none=True)
    z = 2.0 * L - 1.0
    Ci = _box(L, C, prior)
    xi = 0.0 if eps is None else eps
    solver, tol, max_iter, cache = _check_options(
        solver, eps is None, tol, max_iter, cache_mb, ipm=_ipm_is_default(kernel, D, xi, Ci),
        finite=bool(np.all(np.isfinite(Ci))))
    _check_ipm(solver, Ci)
    if solver == "ipm" and _rank_bound(kernel, D) is None:
        raise ValueError(
            f"solver='ipm' needs a kernel whose feature space has a known dimension (linear, "
            f"polynomial, their sums), got {kernel!r}; use solver='smo' (eps=None) or 'cd'")
    cols = _GramColumns(kernel, D, xi, cache, eager=solver != "ipm")
    alpha, G, b, violation, n_iter = _solve(cols, z, Ci, eps is None, solver, tol, max_iter,
                                            check_bool(shrinking, "shrinking"))
    sv = np.flatnonzero(alpha > 0)
    w_sq = float(alpha @ (G + 1.0))  # alpha' H alpha
    dual = float(alpha.sum() - 0.5 * w_sq)  # eq. (165)
    svm = KernelSVM(support_vectors=D[:, sv], alpha=alpha[sv], z=z[sv], support=sv, b=float(b),
                    kernel=kernel, eps=eps, primal_objective=np.nan, dual_objective=dual,
                    duality_gap=np.nan, kkt_violation=violation, n_iter=int(n_iter))
    primal = _primal(w_sq, z * svm.scores(D), Ci)  # eq. (168) with the model's own scores
    return dataclasses.replace(svm, primal_objective=primal, duality_gap=primal - dual)
