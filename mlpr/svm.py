r"""Support vector machines: primal and dual, kernels, class re-balancing (notes ch. 8).

Labels :math:`c_i \in \{0, 1\}` enter as :math:`z_i = 2 c_i - 1 \in \{-1, +1\}`; class 1 when the
score is strictly positive, :math:`s(x) > 0` (eq. 128, the library's one rule).

Two formulations, both solved to the KKT conditions (not to a fixed iteration count):

1. **The notes' SVM**, with a free (unregularised) bias (``K=None`` / ``eps=None``): the primal
   eq. (162), or eq. (168) with the hinge loss, and its dual eq. (165),

   .. math::

       \min_{w, b}\ \frac12\|w\|^2 + \sum_i C_i \max(0, 1 - z_i (w^T x_i + b))
       \qquad
       \max_\alpha\ \mathbf 1^T\alpha - \frac12 \alpha^T H \alpha,\quad
       0 \le \alpha_i \le C_i,\ \sum_i \alpha_i z_i = 0,

   :math:`H_{ij} = z_i z_j k(x_i, x_j)` (eq. 173), b from the KKT conditions (eq. 159, 164),
   :math:`C = \infty` on separable data the hard margin (eq. 154). libsvm (scikit-learn's
   ``SVC``) solves the same problem.
2. **The course labs' variant**: a constant feature ``K`` appended to every sample (the bias is
   then regularised, :math:`\frac12(\|w\|^2 + b^2 / K^2)`), or a constant :math:`\xi` = ``eps``
   (:math:`= K^2`) added to the kernel. The dual keeps the box :math:`0 \le \alpha_i \le C_i`
   and loses the equality.

Which solver runs. Every trainer takes ``solver=``; all solvers reach the same optimum to ``tol``
(``tests/test_svm_solvers.py`` holds each fast path equal to the reference):

==========================================  ===================================  ==================
call (C finite unless said)                 ``solver="auto"`` (default) runs     the plain one
==========================================  ===================================  ==================
``train_svm_linear(D, L, C, K=None)``       interior point, then SMO, when       ``"reference"``:
                                            4 D' <= N (D' = non-zero features);  `_smo_reference`
                                            else SMO with shrinking
``train_svm_linear(D, L, C, K=1.0)``        interior point, then coordinate      ``"reference"``:
                                            descent, when 4 (D' + 1) <= N; else  `_cd_reference`;
                                            SMO on slices of fixed sum a_i z_i;  the labs' own:
                                            C = inf: coordinate descent          ``"lbfgsb"``
``train_svm_kernel(..., eps=None)``         as ``K=None``, with m = the poly /   ``"reference"``
                                            linear feature-space dimension in
                                            place of D'; RBF: SMO with
                                            shrinking
``train_svm_kernel(..., eps=1.0)``          as ``K=1.0``, m in place of D'       ``"reference"``,
                                                                                 ``"lbfgsb"``
==========================================  ===================================  ==================

The fast paths (a kernel-column cache, shrinking, Newton steps on faces, SMO on slices, greedy
coordinate descent, the interior point method) live in the private `mlpr._svm_solvers`; its
``choose_solver`` is the table above, row by row with the reasons, and ``"ipm"``, ``"smo"``,
``"cd"`` ask for one of them by name. ``model.solver`` names the one that ran. The reference
solvers below build H (``8 N^2`` bytes) and suit problems of a few thousand samples.

==========================================  ==========================  ===========================
what                                        function                    result
==========================================  ==========================  ===========================
kernels, eq. (179)-(180), and their sums    `linear_kernel`,            callable ``k(D1, D2)``
                                            `poly_kernel`,              (N1, N2)
                                            `rbf_kernel`
hinge loss, eq. (169)                       `hinge_loss`                (N,)
primal objective of any (w, b), eq. (168)   `svm_primal_objective`      float
dual objective of any alpha, eq. (165)      `svm_dual_objective`        float
per-sample bounds C_i, eq. (181)-(182)      `rebalanced_C`              (N,)
linear SVM (both formulations)              `train_svm_linear`          `LinearSVM`
kernel SVM (both formulations)              `train_svm_kernel`          `KernelSVM`
==========================================  ==========================  ===========================
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from functools import partial
from numbers import Real
from typing import NamedTuple

import numpy as np
import scipy.optimize

from ._svm_solvers import CURVATURE_FLOOR, GramColumns, choose_solver, dual_cd, solve
from ._validation import (
    check_array,
    check_binary,
    check_bool,
    check_data,
    check_finite,
    check_int,
    check_labels,
    check_prior,
    check_real,
    check_scale,
)
from .utils import ConvergenceWarning, model

__all__ = [
    "linear_kernel", "poly_kernel", "rbf_kernel", "LinearKernel", "PolyKernel", "RBFKernel",
    "SumKernel", "hinge_loss", "svm_primal_objective", "svm_dual_objective", "rebalanced_C",
    "LinearSVM", "KernelSVM", "train_svm_linear", "train_svm_kernel",
]

_SCORE_BLOCK = 2048  # test samples per block when scoring a kernel model
_DEFAULT_TOL = 1e-6
_HARD_SLACK = 1e-9  # rounding allowed on z_i s_i >= 1 when C_i = inf
_DEFAULT_CACHE_MB = 200.0


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
    r"""The polynomial kernel :math:`k(x_1, x_2) = (x_1^T x_2 + c)^d`, eq. (179) (there c = 1)."""

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
    r"""The polynomial kernel :math:`k(x_1, x_2) = (x_1^T x_2 + c)^d`, eq. (179) with c for 1.

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


_UNCALLED = {f: call for fs, call in (
    ((linear_kernel, LinearKernel), "linear_kernel()"),
    ((poly_kernel, PolyKernel), "poly_kernel(degree, c), e.g. poly_kernel(2, 1.0)"),
    ((rbf_kernel, RBFKernel), "rbf_kernel(gamma), e.g. rbf_kernel(1.0)")) for f in fs}


def _check_kernel(kernel):
    call = next((c for f, c in _UNCALLED.items() if kernel is f), None)
    if call is not None:  # kernel=rbf_kernel: the factory (or the class), not a kernel
        raise TypeError(f"kernel={kernel.__name__} makes a kernel but is not one: call it with "
                        f"its hyperparameters, kernel={call}")
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
    return np.concatenate([np.diag(_gram(kernel, X[:, s], X[:, s])) for s in _blocks(X, 256)])


def _blocks(X: np.ndarray, size: int):
    return [slice(i, min(i + size, X.shape[1])) for i in range(0, X.shape[1], size)]


def _rank_bound(kernel, X: np.ndarray) -> int | None:
    """The dimension of the kernel's feature space on these samples, a bound on the rank of
    their Gram matrix: D' (the features not zero on every sample) for the linear kernel,
    binom(D' + d, d) monomials of degree <= d for the polynomial kernel (degree exactly d,
    binom(D' + d - 1, d), when c = 0), the sum for a sum; None for RBF or one's own kernel."""
    n = int(np.count_nonzero(np.any(X != 0, axis=1)))
    if isinstance(kernel, LinearKernel):
        return n
    if isinstance(kernel, PolyKernel):
        return math.comb(n + kernel.degree - (kernel.c == 0), kernel.degree)
    if isinstance(kernel, SumKernel):
        bounds = [_rank_bound(k, X) for k in kernel.terms]
        return None if None in bounds else sum(bounds)
    return None


# ------------------------------------------------------------------------------------------------
# losses and objectives (eq. 165, 168-169), class re-balancing (eq. 181-182)


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
    Implements eq. (181)-(182) and the choice of :math:`C_T, C_F` that follows them, section
    8.5: each class's total weight in the hinge term becomes proportional to its prior rather
    than to its share of the training set. With :math:`\pi_T = \pi_T^{emp}` every
    :math:`C_i = C`.
    """
    L = check_labels(L, n_classes=2, require_all=True)
    return _box(L, _check_C(C), check_prior(prior, allow_none=True))


def _primal(w_sq: float, zs: np.ndarray, Ci: np.ndarray, slack: float = _HARD_SLACK) -> float:
    r"""eq. (168): :math:`\frac12\|w\|^2 + \sum_i C_i \max(0, 1 - z_i s_i)`; where
    :math:`C_i = \infty` (hard margin) a constraint, met when its loss is at most ``slack``."""
    h = hinge_loss(zs)
    hard = np.isinf(Ci)
    if np.any(h[hard] > slack):
        return np.inf
    return 0.5 * w_sq + float(np.sum(Ci[~hard] * h[~hard]))  # eq. (168)


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
    Implements eq. (168) (eq. 162 at the optimal slacks :math:`\xi_i = \max(0, 1 - z_i s_i)`,
    eq. 167), section 8.3. Its minimum equals the maximum of the dual, eq. (165) (strong
    duality), which `LinearSVM.duality_gap` measures.
    """
    D, L = check_binary(D, L, "the SVM")
    w = check_finite(check_array(w, "w"), "w").ravel()
    if w.shape != (D.shape[0],):
        raise ValueError(f"w has {w.size} entries, expected {D.shape[0]} (one per feature of D)")
    b = check_real(b, "b")
    Ci = _box(L, _check_C(C), check_prior(prior, allow_none=True))
    bias_sq = 0.0 if K is None else (b / check_real(K, "K", low=0.0, strict=True)) ** 2
    z = 2.0 * L - 1.0
    return _primal(float(w @ w) + bias_sq, z * (w @ D + b), Ci)


def svm_dual_objective(alpha, D, L, kernel=None, eps: float = 0.0) -> float:
    r"""The SVM dual objective :math:`\mathbf 1^T\alpha - \frac12 \alpha^T H \alpha`, eq. (165).

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
    Implements eq. (165) in the matrix form of eq. (158), with :math:`H_{ij} = z_i z_j
    (k(x_i, x_j) + \xi)`, eq. (173). The constraints of eq. (165) are not checked: this is the
    objective of any finite :math:`\alpha`. Builds H: ``8 N^2`` bytes.
    """
    D, L = check_binary(D, L, "the SVM")
    alpha = check_finite(check_array(alpha, "alpha"), "alpha").ravel()
    if alpha.shape != (D.shape[1],):
        raise ValueError(f"alpha has {alpha.size} entries, expected {D.shape[1]} (one per sample)")
    kernel = linear_kernel() if kernel is None else _check_kernel(kernel)
    eps = check_real(eps, "eps", low=0.0)
    z = 2.0 * L - 1.0
    H = np.outer(z, z) * (_gram(kernel, D, D) + eps)  # eq. (173)
    return float(alpha.sum() - 0.5 * alpha @ H @ alpha)  # eq. (165)


# ------------------------------------------------------------------------------------------------
# the reference solvers of the dual, as a minimisation of f(alpha) = 1/2 alpha' H alpha - 1' alpha


def _smo_reference(H, z, C, tol, max_iter):
    r"""Plain SMO for the notes' dual, eq. (165): H explicit, no cache, no shrinking.

    A step moves one pair along :math:`\alpha_i \mathrel{+}= z_i t,\ \alpha_j \mathrel{-}=
    z_j t`, which keeps :math:`\sum_i\alpha_iz_i = 0` (Platt 1998), by the exact minimiser
    :math:`t = (v_i - v_j) / a_{ij}` of f along it, clipped to the box. With :math:`v = -z
    \circ \nabla f`, i is the maximal violator, :math:`\arg\max_{I_{up}} v`; j the partner of
    largest second-order gain :math:`(v_i - v_j)^2 / a_{ij}` (libsvm's choice; :math:`\arg
    \min_{I_{low}} v` would be the maximal violating pair). Stops when the KKT conditions hold,
    :math:`\max_{I_{up}} v - \min_{I_{low}} v \le` tol. Returns alpha and the pair steps.
    """
    alpha, G, dH = np.zeros(z.size), -np.ones(z.size), np.diag(H)  # G = grad f = H alpha - 1
    for it in range(max_iter):
        v = -z * G
        up = np.where(z > 0, alpha < C, alpha > 0)  # alpha_i may move along +z_i
        low = np.where(z > 0, alpha > 0, alpha < C)  # ... along -z_i
        i = int(np.argmax(np.where(up, v, -np.inf)))
        if v[i] - np.min(np.where(low, v, np.inf)) <= tol:
            return alpha, it
        a = np.maximum(dH[i] + dH - 2.0 * z[i] * z * H[i], CURVATURE_FLOOR)  # along each pair
        j = int(np.argmax(np.where(low & (v < v[i]), (v[i] - v) ** 2 / a, -np.inf)))
        room_i = C[i] - alpha[i] if z[i] > 0 else alpha[i]
        room_j = alpha[j] if z[j] > 0 else C[j] - alpha[j]
        t = min((v[i] - v[j]) / a[j], room_i, room_j)  # the SMO step
        alpha[i] = alpha[i] + z[i] * t if t < room_i else (C[i] if z[i] > 0 else 0.0)
        alpha[j] = alpha[j] - z[j] * t if t < room_j else (0.0 if z[j] > 0 else C[j])
        G += t * (z[i] * H[i] - z[j] * H[j])
    return alpha, max_iter


def _cd_reference(H, z, C, tol, max_iter):
    r"""Plain exact dual coordinate descent for the labs' dual (box only): each step minimises f
    exactly along the coordinate whose projected gradient is largest, clipped to
    :math:`[0, C_i]`, until no projected gradient exceeds tol. Returns alpha and the steps."""
    alpha, G, dH = np.zeros(z.size), -np.ones(z.size), np.diag(H)  # G = grad f = H alpha - 1
    for it in range(max_iter):
        pg = np.where(alpha <= 0, np.minimum(G, 0.0), np.where(alpha >= C, np.maximum(G, 0.0), G))
        i = int(np.argmax(np.abs(pg)))
        if abs(pg[i]) <= tol:
            return alpha, it
        new = alpha[i] - G[i] / dH[i] if dH[i] > 0 else (np.inf if G[i] < 0 else 0.0)
        new = min(max(new, 0.0), C[i])  # the exact minimiser along coordinate i, in the box
        G += (new - alpha[i]) * H[i]
        alpha[i] = new
    return alpha, max_iter


def _lbfgsb(Gram: np.ndarray, z, C, max_iter):
    """The labs' solver: L-BFGS-B on the box-only dual with factr = 1."""
    H = Gram * np.outer(z, z)

    def f_grad(alpha):
        Ha = H @ alpha
        return 0.5 * alpha @ Ha - alpha.sum(), Ha - 1.0

    bounds = [(0.0, None if np.isinf(c) else c) for c in C]
    alpha, _, info = scipy.optimize.fmin_l_bfgs_b(f_grad, np.zeros(z.size), bounds=bounds,
                                                   factr=1.0, maxiter=max_iter)
    return alpha, int(info["nit"])


def _kkt(alpha, G, z, C, free_bias: bool) -> tuple[float, float]:
    r"""The largest violation of the KKT conditions (eq. 159, 164) at alpha, and the bias.

    ``G`` is :math:`H\alpha - \mathbf1`. Box only: the projected gradient (0 inside the box, no
    pull outwards at a bound). Free bias: :math:`v_i = -z_iG_i` is the b that puts :math:`x_i`
    on the margin; the conditions hold when no :math:`v` of :math:`I_{up}` exceeds one of
    :math:`I_{low}`, and b is the mean of v on the free vectors (:math:`0 < \alpha_i < C_i`),
    or the middle of the interval left when there are none (libsvm).
    """
    if not free_bias:
        pg = np.where(alpha <= 0, np.minimum(G, 0.0), np.where(alpha >= C, np.maximum(G, 0.0), G))
        return float(np.max(np.abs(pg))), 0.0
    v = -z * G
    up, low = np.where(z > 0, alpha < C, alpha > 0), np.where(z > 0, alpha > 0, alpha < C)
    violation = max(np.max(v[up], initial=-np.inf) - np.min(v[low], initial=np.inf), 0.0)
    free = (alpha > 0) & (alpha < C)
    b = np.mean(v[free]) if np.any(free) else 0.5 * (np.max(v[up]) + np.min(v[low]))
    return float(violation), float(b)


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
        Solver iterations (pair steps for SMO, coordinate steps for coordinate descent,
        L-BFGS-B iterations plus the coordinate steps that continued them, interior point steps
        plus the SMO or coordinate steps that finished them).
    solver : str
        The solver that ran ("auto" resolved: "reference", "ipm", "smo", "cd" or "lbfgsb").
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
    solver: str

    @property
    def n_features(self) -> int:
        return self.w.shape[0]

    @property
    def margin(self) -> float:
        r"""The geometric margin :math:`1 / \|w\|` (eq. 150-154): the distance from the
        hyperplane to the samples with :math:`z s = 1`, in the space where the bias is free.

        With the labs' constant feature K the norm is that of :math:`\hat w = [w; b/K]`, the one
        training minimised: :math:`1 / \sqrt{\|w\|^2 + b^2/K^2}`, the margin of
        :math:`\hat w^T\hat x = 0` among the samples :math:`\hat x = [x; K]` (equal to
        `KernelSVM.margin` with the linear kernel and eps = K^2). ``inf`` when that norm is 0:
        the score is constant and no hyperplane exists.
        """
        sq = float(self.w @ self.w) + (0.0 if self.K is None else (self.b / self.K) ** 2)
        return math.inf if sq == 0.0 else 1.0 / math.sqrt(sq)

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
        The bias, eq. (159), (164) (0 for the labs' formulation, whose bias is in the kernel).
    kernel : callable
    eps : float or None
        :math:`\xi` added to the kernel (labs' formulation), None for the notes' free bias.
    primal_objective, dual_objective, duality_gap, kkt_violation, n_iter, solver
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
    solver: str

    @property
    def n_features(self) -> int:
        return self.support_vectors.shape[0]

    @property
    def margin(self) -> float:
        r""":math:`1 / \|w\|` in the kernel's feature space, :math:`\|w\|^2 = \alpha^T H\alpha`
        (with :math:`\xi` in H); ``inf`` when it is 0."""
        za = self.alpha * self.z
        xi = 0.0 if self.eps is None else self.eps
        sq = float(za @ (_gram(self.kernel, self.support_vectors, self.support_vectors) + xi) @ za)
        return math.inf if sq <= 0.0 else 1.0 / math.sqrt(sq)

    def scores(self, D) -> np.ndarray:
        r"""Scores :math:`s(x) = \sum_i \alpha_i z_i (k(x_i, x) + \xi) + b` (eq. 174) of the
        columns of ``D`` (D, N), shape (N,), in blocks of test samples (memory M x block)."""
        X = check_data(D, n_features=self.n_features, allow_1d=True)
        za, xi = self.alpha * self.z, 0.0 if self.eps is None else self.eps
        out = np.empty(X.shape[1])
        for s in _blocks(X, _SCORE_BLOCK):  # eq. (174)
            out[s] = za @ _gram(self.kernel, self.support_vectors, X[:, s]) + xi * za.sum() + self.b
        return out


# ------------------------------------------------------------------------------------------------
# trainers


def _resolve_solver(solver, *, free_bias: bool, finite: bool, rank, N: int, xi: float,
                    kernel) -> str:
    """The validated solver name, "auto" (or None) resolved by `choose_solver`."""
    fast = ("smo", "ipm") if free_bias else (("smo",) if finite else ()) + ("cd", "lbfgsb", "ipm")
    choices = ("auto", "reference") + fast
    if solver is None or solver == "auto":
        return choose_solver(free_bias, finite, rank, N, xi)
    if solver not in choices:
        what = ("the notes' free-bias dual (K=None / eps=None) has an equality constraint"
                if free_bias else "the labs' box-only dual (K or eps set)")
        raise ValueError(f"solver must be one of {choices} for {what}, got {solver!r}")
    if solver == "ipm" and not finite:
        raise ValueError("solver='ipm' needs a finite C; the hard margin (C = inf) is solved by "
                         "solver='smo' (free bias) or 'cd' (K or eps set)")
    if solver == "ipm" and rank is None:
        raise ValueError(
            f"solver='ipm' needs a kernel whose feature space has a known dimension (linear, "
            f"polynomial, their sums), got {kernel!r}; use solver='smo' (eps=None) or 'cd'")
    return solver


def _check_kernel_scale(diag: np.ndarray, Ci: np.ndarray, D: np.ndarray, tol: float) -> None:
    """Refuse a kernel that overflows; warn, before solving, when C_i k(x_i, x_i) is so large
    that the dual's gradient (a sum of N terms up to that size, rounding by about sqrt(N)
    machine epsilons of it) cannot reach tol."""
    if not np.all(np.isfinite(diag)):
        i = int(np.argmin(np.isfinite(diag)))
        raise ValueError(
            f"the kernel overflows float64: k(x_i, x_i) is {diag[i]} for sample {i} (largest "
            f"|value| in D: {float(np.abs(D).max()):.3g}); rescale the features first, e.g. "
            f"z-normalise them with mlpr.utils.fit_znorm")
    finite = np.isfinite(Ci)
    scale = float(np.max(Ci[finite] * diag[finite], initial=0.0))
    rounding = scale * math.sqrt(D.shape[1]) * np.finfo(np.float64).eps
    if rounding > tol:
        warnings.warn(
            f"C_i k(x_i, x_i) reaches {scale:.3g}: the dual's gradient, a sum of {D.shape[1]} "
            f"terms this large, rounds by about {rounding:.1g} > tol = {tol:g}, and its solvers "
            f"need very many steps; standardise the features or lower C (e.g. z-normalise them "
            f"with mlpr.utils.fit_znorm)", ConvergenceWarning, stacklevel=4)


def _check_separable(Gram: np.ndarray, z: np.ndarray, free_bias: bool) -> None:
    """A hard margin (C = inf) exists iff some f = Gram beta (+ b) has z_i f_i >= 1: an LP."""
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


class _DualSolution(NamedTuple):
    """What `_fit` returns: the solved dual of either formulation."""

    z: np.ndarray  # labels as -1 / +1, (N,)
    Ci: np.ndarray  # the box of each alpha_i, (N,) (eq. 181-182)
    alpha: np.ndarray  # the dual solution, (N,)
    G: np.ndarray  # the dual's gradient H alpha - 1, (N,)
    b: float  # the bias from the KKT conditions (free bias), else 0
    violation: float  # the largest KKT violation at alpha
    n_iter: int
    solver: str  # the solver that ran ("auto" resolved)


def _fit(kernel, D, L, C, *, xi: float, free_bias: bool, prior, solver: str, tol: float,
         max_iter: int, cache_mb: float, shrinking: bool) -> _DualSolution:
    """Solve the dual of either formulation (``xi`` the constant added to the kernel, eq. 173;
    ``free_bias`` the notes' equality constraint)."""
    check_scale(D, "D")
    max_iter = check_int(max_iter, "max_iter", low=1)
    cache = check_real(cache_mb, "cache_mb", low=0.0, strict=True) * 2.0**20
    shrinking = check_bool(shrinking, "shrinking")
    z, Ci = 2.0 * L - 1.0, _box(L, C, prior)
    finite, rank = bool(np.all(np.isfinite(Ci))), _rank_bound(kernel, D)
    solver = _resolve_solver(solver, free_bias=free_bias, finite=finite, rank=rank, N=D.shape[1],
                             xi=xi, kernel=kernel)
    with np.errstate(over="ignore"):  # an overflow is reported by _check_kernel_scale
        diag = _kernel_diag(kernel, D) + xi
    _check_kernel_scale(diag, Ci, D, tol)
    if solver == "reference":
        Gram = _gram(kernel, D, D) + xi
        if not finite:
            _check_separable(Gram, z, free_bias)
        H = np.outer(z, z) * Gram  # eq. (173)
        alpha, n_iter = (_smo_reference if free_bias else _cd_reference)(H, z, Ci, tol, max_iter)
        G = H @ alpha - 1.0
    else:
        cols = GramColumns(partial(_gram, kernel), D, xi, diag, cache, eager=solver != "ipm",
                           linear=isinstance(kernel, LinearKernel))
        if not finite:
            _check_separable(cols.matrix(), z, free_bias)
        if solver == "lbfgsb":  # L-BFGS-B may stop short of the optimum: go on until KKT holds
            alpha, n_iter = _lbfgsb(cols.matrix(), z, Ci, max_iter)
            alpha, more = dual_cd(cols, cols.diag, z, Ci, tol, max_iter, alpha0=alpha)
            n_iter += more
        else:
            alpha, n_iter = solve(cols, z, Ci, free_bias=free_bias, solver=solver, tol=tol,
                                  max_iter=max_iter, shrinking=shrinking, rank=rank)
        G = z * cols.times(alpha * z) - 1.0  # recomputed, not the solver's running update
    violation, b = _kkt(alpha, G, z, Ci, free_bias)
    if n_iter >= max_iter and violation > tol:
        scale = float(np.max(Ci * diag))
        hint = (f", or standardise the features or lower C: C_i k(x_i, x_i) reaches {scale:.3g}, "
                f"and the dual needs very many steps when it is large" if scale > 1e4 else "")
        warnings.warn(
            f"the SVM solver stopped after max_iter = {max_iter} iterations with the KKT "
            f"conditions violated by {violation:.3g} > tol = {tol:g}; raise max_iter{hint}",
            ConvergenceWarning, stacklevel=3,
        )
    return _DualSolution(z=z, Ci=Ci, alpha=alpha, G=G, b=b, violation=violation, n_iter=n_iter,
                         solver=solver)


def train_svm_linear(D, L, C, K=1.0, prior=None, *, solver="auto", tol=_DEFAULT_TOL,
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
        None: the notes' SVM with a free bias (eq. 162, 165).
    prior : float, optional
        Re-balance the classes for the target prior :math:`\pi_T` (eq. 181-182).
    solver : {"auto", "reference", "lbfgsb", "ipm", "smo", "cd"}
        "auto" (default; None means the same): the fast path of the module's table.
        "reference": the plain solver of this module on the explicit H, `_smo_reference`
        (``K=None``) or `_cd_reference` (K set). "lbfgsb" (K set): the labs' L-BFGS-B,
        continued by coordinate descent until the KKT conditions hold. "ipm" (finite C),
        "smo" (for a number K: SMO on slices, finite C), "cd" (K set): one fast path by name.
        All reach the same optimum to ``tol``; alpha itself is unique only when no two
        training samples coincide (w and b are always unique).
    tol : float
        KKT tolerance: free bias, :math:`\max_{up}(-z_i\nabla_i) - \min_{low}(-z_i\nabla_i)`
        (libsvm's criterion); box only, the largest projected gradient.
    max_iter : int
        Iteration limit (a `ConvergenceWarning` if reached before ``tol``).
    cache_mb : float
        Memory for kernel columns of the fast paths (`mlpr._svm_solvers`).
    shrinking : bool
        ``solver="smo"`` with a free bias only: libsvm's shrinking heuristic (True, the default)
        or SMO on every sample at every step (same solution; still the fast path's cache and
        Newton steps: the plain SMO is ``solver="reference"``).

    Returns
    -------
    LinearSVM
        :math:`w = \sum_i \alpha_i z_i x_i` (eq. 156), b, alpha and the objectives.

    Raises
    ------
    ValueError
        Labels not 0/1 or one class only, C <= 0, K <= 0, prior outside (0, 1), non-finite,
        overflowing or transposed data, C = inf on non-separable data.

    Warns
    -----
    ConvergenceWarning
        ``max_iter`` reached; or, before solving, :math:`C_ix_i^Tx_i` so large that ``tol`` is
        below the rounding of the dual's gradient (standardise the features or lower C).

    Notes
    -----
    Implements section 8.3: the dual eq. (165) with :math:`H_{ij} = z_iz_jx_i^Tx_j` (eq. 158;
    plus :math:`K^2` for the labs' formulation, which drops the equality constraint),
    :math:`w = \sum_i\alpha_iz_ix_i` (eq. 156) and, for the free bias, b from the KKT conditions
    (eq. 159, 164):

    .. math::

        \max_\alpha\ \mathbf 1^T\alpha - \frac12\alpha^TH\alpha \quad
        \text{s.t. } 0 \le \alpha_i \le C_i,\ \sum_i\alpha_iz_i = 0 .

    ``primal_objective`` is eq. (168) evaluated at the returned (w, b), independently of the
    solver, so ``duality_gap`` certifies the solution.
    """
    D, L = check_binary(D, L, "the SVM")
    C = _check_C(C)
    if K is not None:
        K = check_real(K, "K", low=0.0, strict=True)
    prior = check_prior(prior, allow_none=True)
    tol = check_real(tol, "tol", low=0.0, strict=True)
    fit = _fit(LinearKernel(), D, L, C, xi=0.0 if K is None else K * K, free_bias=K is None,
               prior=prior, solver=solver, tol=tol, max_iter=max_iter, cache_mb=cache_mb,
               shrinking=shrinking)
    alpha, z = fit.alpha, fit.z
    w = D @ (alpha * z)  # eq. (156)
    b = fit.b if K is None else K * K * float(np.sum(alpha * z))  # w_hat's last entry: b / K
    w_sq = float(w @ w) + (0.0 if K is None else (b / K) ** 2)
    primal = _primal(w_sq, z * (w @ D + b), fit.Ci, max(tol, _HARD_SLACK))  # eq. (168)
    dual = float(alpha.sum() - 0.5 * alpha @ (fit.G + 1.0))  # eq. (165)
    return LinearSVM(w=w, b=float(b), alpha=alpha, C=fit.Ci, K=K, primal_objective=primal,
                     dual_objective=dual, duality_gap=primal - dual, kkt_violation=fit.violation,
                     n_iter=int(fit.n_iter), solver=fit.solver)


def train_svm_kernel(D, L, C, kernel, eps=1.0, prior=None, *, solver="auto", tol=_DEFAULT_TOL,
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
        `rbf_kernel` called with their hyperparameters (``rbf_kernel(1.0)``, not
        ``rbf_kernel``), their sums, or a function of one's own (its output is checked).
    eps : float or None
        The labs' formulation when a number :math:`\xi \ge 0`: the kernel becomes
        :math:`k(x_1, x_2) + \xi` (a constant feature :math:`\sqrt\xi`, regularised bias) and
        the dual loses its equality constraint; ``eps = 0`` means no bias at all. None: the
        notes' free bias (eq. 173-174).
    prior : float, optional
        Re-balancing target prior (eq. 181-182).
    solver, tol, max_iter, cache_mb, shrinking
        As in `train_svm_linear`. "ipm" needs a kernel whose feature space has a known finite
        dimension m (linear, polynomial, their sums); "auto" runs it when 4 m <= N (m counting
        the constant of ``eps``), as the module's table says.

    Returns
    -------
    KernelSVM
        The support vectors, their alpha and labels, b, the kernel and the objectives.

    Raises
    ------
    ValueError
        As `train_svm_linear`, and a kernel that returns the wrong shape, non-finite values or
        overflows float64.
    TypeError
        A kernel that is not callable, or a kernel factory passed uncalled.

    Notes
    -----
    Implements section 8.4: the dual eq. (165) with :math:`H_{ij} = z_iz_j(k(x_i, x_j) + \xi)`
    (eq. 173; no equality constraint when :math:`\xi` is set) and the scores eq. (174),
    :math:`s(x) = \sum_i\alpha_iz_i(k(x_i, x) + \xi) + b`. The primal objective is eq. (168) in
    the kernel's feature space, :math:`\frac12\alpha^TH\alpha + \sum_iC_i\max(0, 1 - z_is(x_i))`,
    with the training scores computed by the returned model itself.
    """
    D, L = check_binary(D, L, "the SVM")
    C = _check_C(C)
    kernel = _check_kernel(kernel)
    if eps is not None:
        eps = check_real(eps, "eps", low=0.0)
    prior = check_prior(prior, allow_none=True)
    tol = check_real(tol, "tol", low=0.0, strict=True)
    fit = _fit(kernel, D, L, C, xi=0.0 if eps is None else eps, free_bias=eps is None,
               prior=prior, solver=solver, tol=tol, max_iter=max_iter, cache_mb=cache_mb,
               shrinking=shrinking)
    alpha = fit.alpha
    sv = np.flatnonzero(alpha > 0)
    w_sq = float(alpha @ (fit.G + 1.0))  # alpha' H alpha
    dual = float(alpha.sum() - 0.5 * w_sq)  # eq. (165)
    svm = KernelSVM(support_vectors=D[:, sv], alpha=alpha[sv], z=fit.z[sv], support=sv,
                    b=float(fit.b), kernel=kernel, eps=eps, primal_objective=np.nan,
                    dual_objective=dual, duality_gap=np.nan, kkt_violation=fit.violation,
                    n_iter=int(fit.n_iter), solver=fit.solver)
    primal = _primal(w_sq, fit.z * svm.scores(D), fit.Ci, max(tol, _HARD_SLACK))  # eq. (168)
    return dataclasses.replace(svm, primal_objective=primal, duality_gap=primal - dual)
