r"""Logistic regression (binary, prior-weighted, multiclass), quadratic feature expansion, teaching
solvers and the perceptron (notes ch. 6 and the linear-methods notes).

Binary logistic regression (section 6.1 of the notes) models the class-1 posterior as
:math:`P(1 \mid x) = \sigma(w^T x + b)` and minimises the regularised average logistic loss,
eq. (100), with :math:`z_i = 2 c_i - 1 \in \{-1, +1\}` and the bias **not** regularised:

.. math::

    R(w, b) = \frac{\lambda}{2}\|w\|^2
              + \frac{1}{n}\sum_{i=1}^n \log\left(1 + e^{-z_i (w^T x_i + b)}\right) .

The prior-weighted version, eq. (101), weighs each class by the target prior :math:`\pi_T` of
the application instead of by its share of the training set:

.. math::

    R(w, b) = \frac{\lambda}{2}\|w\|^2
              + \frac{\pi_T}{n_T}\sum_{i \mid c_i = 1} \log\left(1 + e^{-(w^T x_i + b)}\right)
              + \frac{1 - \pi_T}{n_F}\sum_{i \mid c_i = 0} \log\left(1 + e^{w^T x_i + b}\right) .

The score :math:`s = w^T x + b` is a log posterior ratio under the training prior (the empirical
one, :math:`n_T / n_F`, or :math:`\pi_T`); subtracting the training prior log-odds gives an
LLR-like score, eq. (102), for Bayes decisions under any other application
(`BinaryLogReg.llr`).

==============================  =============================  ====================================
what                            function                       model / result
==============================  =============================  ====================================
objective of eq. (100)/(101)    `logreg_obj_wrap`              callable ``v -> (R(v), grad R(v))``
Hessian of that objective       `logreg_hessian`               (D + 1, D + 1) matrix
binary / prior-weighted LR      `train_logreg_binary`          `BinaryLogReg` (``w``, ``b``)
objective of multiclass LR      `logreg_multiclass_obj_wrap`   callable ``v -> (J(v), grad J(v))``
multiclass (softmax) LR         `train_logreg_multiclass`      `MulticlassLogReg` (``W``, ``b``)
quadratic features, eq. (121)   `expand_quadratic`             (D^2 + D, N) features
gradient descent                `minimize_gradient_descent`    ``scipy.optimize.OptimizeResult``
Newton's method                 `minimize_newton`              ``scipy.optimize.OptimizeResult``
the perceptron                  `train_perceptron`             `Perceptron` (``w``, ``b``)
==============================  =============================  ====================================

Solvers. The models are trained by L-BFGS (``scipy.optimize.minimize(method="L-BFGS-B")``)
from zeros with the analytic gradient and tight tolerances: ``ftol = factr * eps`` with
``factr = 1`` (the relative decrease of the objective between iterations can be as small as the
machine epsilon) and ``gtol = tol`` on the largest gradient component. `train_logreg_binary` can
also use the two teaching solvers of the recitation notes, gradient descent and Newton's method,
which reach the same optimum.

No minimiser. With :math:`\lambda = 0` and linearly separable training data (or data separable
on a subset of the samples) the objective keeps decreasing as :math:`\|w\| \to \infty` and has no
minimiser. The solvers still stop (gradient tolerance, no further decrease in floating point, or
the iteration limit) and the trainers then warn with a `ConvergenceWarning`; the returned model
is the point where the solver stopped. Use :math:`\lambda > 0` to get a unique solution.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from numbers import Real

import numpy as np
import scipy.linalg
import scipy.optimize
from scipy.special import expit, logsumexp

from .utils import _as_float_array, check_bool, check_data, check_data_labels, check_int, check_rng

__all__ = [
    "ConvergenceWarning",
    "logreg_obj_wrap",
    "logreg_hessian",
    "BinaryLogReg",
    "train_logreg_binary",
    "logreg_multiclass_obj_wrap",
    "MulticlassLogReg",
    "train_logreg_multiclass",
    "expand_quadratic",
    "expand_quadratic_symmetric",
    "minimize_gradient_descent",
    "minimize_newton",
    "Perceptron",
    "train_perceptron",
]

_EPS = np.finfo(np.float64).eps
_FACTR = 1.0  # L-BFGS-B stops when the relative decrease of the objective is <= _FACTR * eps
_LBFGS_TOL = 1e-10  # default tolerance on the largest gradient component (L-BFGS, Newton, GD)
_LBFGS_MAXITER = 15000
_GD_MAXITER = 100000
_NEWTON_MAXITER = 100
_ARMIJO = 1e-4  # sufficient-decrease constant of the backtracking line searches
_SOLVERS = ("lbfgs", "gd", "newton")
# L-BFGS stopped (line search) with a gradient component larger than this (or than tol) in the
# units of features scaled to [-1, 1] is far from the optimum: typically features of very
# different or extreme scales
_STALL_RTOL = 1e-4


class ConvergenceWarning(UserWarning):
    """A solver stopped without reaching a minimiser: iteration limit, or no minimiser exists
    (separable data with lambda = 0), or the perceptron did not separate the data."""


# ------------------------------------------------------------------------------------------------
# validation


def _check_lambda(l) -> float:
    if isinstance(l, (bool, np.bool_)) or not isinstance(l, Real):
        raise TypeError(f"l (lambda, the regularisation weight) must be a real number, got {l!r}")
    l = float(l)
    if not (np.isfinite(l) and l >= 0.0):
        raise ValueError(
            f"l (lambda, the regularisation weight) must be finite and >= 0, got {l!r}"
        )
    return l


def _check_prior(prior) -> float | None:
    if prior is None:
        return None
    if isinstance(prior, (bool, np.bool_)) or not isinstance(prior, Real):
        raise TypeError(f"prior (pi_T) must be None or a real number in (0, 1), got {prior!r}")
    prior = float(prior)
    if not (0.0 < prior < 1.0):  # False for NaN too
        raise ValueError(
            f"prior (pi_T) must lie in the open interval (0, 1), got {prior!r}: with a prior of 0 "
            f"or 1 one class gets no weight at all"
        )
    return prior


def _check_positive(x, name: str) -> float:
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, Real):
        raise TypeError(f"{name} must be a positive real number, got {x!r}")
    x = float(x)
    if not (np.isfinite(x) and x > 0.0):
        raise ValueError(f"{name} must be finite and > 0, got {x!r}")
    return x


def _check_tol(tol) -> float:
    return _check_positive(tol, "tol")


def _check_scale(X: np.ndarray, name: str = "D", n_terms: int | None = None) -> np.ndarray:
    """Refuse data whose products overflow float64: sums of ``n_terms`` products x_i x_j (the
    curvature of the objective, the Hessian, the step of gradient descent; default one term per
    feature and the bias) would be infinite."""
    amax = float(np.abs(X).max()) if X.size else 0.0
    n = X.shape[0] + 1 if n_terms is None else n_terms
    with np.errstate(over="ignore"):
        big = not np.isfinite(amax * amax * n)
    if big:
        raise ValueError(
            f"{name} has values up to {amax:.3g} in magnitude: products of its values overflow "
            f"float64; rescale them first, e.g. divide by a constant or z-normalise the features "
            f"with mlpr.utils.fit_znorm"
        )
    return X


def _check_binary(D, L, who: str, *, both: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """(D, N) data and 0/1 labels; ``both`` requires a sample of each class."""
    X, L = check_data_labels(D, L, require_all=False)
    _check_scale(X)
    if L.max() > 1:
        raise ValueError(
            f"L holds label {int(L.max())} but {who} is binary: labels must be 0 (non-target, "
            f"H_F) or 1 (target, H_T); for K > 2 classes use train_logreg_multiclass, or build a "
            f"binary task first (mlpr.datasets.binary_task)"
        )
    if both:
        n1 = int(np.count_nonzero(L))
        if n1 == 0 or n1 == L.size:
            missing = 1 if n1 == 0 else 0
            raise ValueError(
                f"L has no sample of class {missing}: {who} needs both classes (0 and 1) in the "
                f"training data, got only class {1 - missing}"
            )
    return X, L


def _check_v(v, n: int, what: str) -> np.ndarray:
    a = _as_float_array(v, "v")
    if a.shape != (n,):
        raise ValueError(f"v has shape {a.shape}, expected ({n},) = {what}")
    if not np.all(np.isfinite(a)):
        i = int(np.flatnonzero(~np.isfinite(a))[0])
        raise ValueError(f"v contains NaN or infinite values (first at index {i}: {a[i]})")
    return a


def _check_solver(solver) -> str:
    if not isinstance(solver, str) or solver not in _SOLVERS:
        raise ValueError(f"solver must be one of {_SOLVERS}, got {solver!r}")
    return solver


# ------------------------------------------------------------------------------------------------
# binary objective: private core on validated arrays


def _sample_weights(L: np.ndarray, prior: float | None) -> np.ndarray:
    """The weight xi_i of each sample's loss: 1/n, or pi_T/n_T and (1 - pi_T)/n_F (eq. 101)."""
    n = L.size
    if prior is None:
        return np.full(n, 1.0 / n)  # eq. (100)
    nT = np.count_nonzero(L)
    return np.where(L == 1, prior / nT, (1.0 - prior) / (n - nT))  # eq. (101)


def _binary_fg(v: np.ndarray, X: np.ndarray, z: np.ndarray, xi: np.ndarray, l: float):
    """Objective and gradient of eq. (100)/(101) at v = [w, b]."""
    w, b = v[:-1], v[-1]
    s = w @ X + b
    zs = z * s
    f = 0.5 * l * (w @ w) + xi @ np.logaddexp(0.0, -zs)  # eq. (100): l/2 |w|^2 + mean loss
    gs = -(xi * z) * expit(-zs)  # dR/ds_i = -xi_i z_i sigma(-z_i s_i)
    grad = np.empty_like(v)
    grad[:-1] = X @ gs + l * w  # the bias is not regularised
    grad[-1] = gs.sum()
    return float(f), grad


def _binary_hessian(v: np.ndarray, X: np.ndarray, xi: np.ndarray, l: float) -> np.ndarray:
    """Hessian of eq. (100)/(101): sum_i xi_i sigma(s_i) sigma(-s_i) x~ x~^T + l diag(1,..,1,0)."""
    nf = X.shape[0]
    s = v[:-1] @ X + v[-1]
    h = xi * expit(s) * expit(-s)
    H = np.empty((nf + 1, nf + 1))
    Xh = X * h
    H[:nf, :nf] = Xh @ X.T
    H[:nf, nf] = H[nf, :nf] = Xh.sum(axis=1)
    H[nf, nf] = h.sum()
    H[np.arange(nf), np.arange(nf)] += l
    return H


def logreg_obj_wrap(D, c, l, prior=None):
    r"""Build the binary logistic-regression objective of v = [w, b] and its gradient.

    Parameters
    ----------
    D : array_like, shape (D, N)
        Training samples, one per column.
    c : array_like, shape (N,)
        Labels 0 (non-target) or 1 (target).
    l : float
        lambda >= 0, the weight of :math:`\frac{\lambda}{2}\|w\|^2`; the bias is not regularised.
    prior : float, optional
        pi_T in (0, 1) for the prior-weighted objective of eq. (101) (both classes must then be
        present); ``None`` (default) for eq. (100), every sample weighted 1/N.

    Returns
    -------
    logreg_obj : callable
        ``logreg_obj(v) -> (f, grad)`` with ``v`` of shape (D + 1,) holding ``w = v[:-1]`` and
        ``b = v[-1]``, ``f`` the objective (a float) and ``grad`` its gradient, shape (D + 1,).
        Pass it to ``scipy.optimize.fmin_l_bfgs_b(logreg_obj, numpy.zeros(D + 1))`` with the
        default ``approx_grad=False`` (the notes' ``approx_grad=True`` expects the objective
        alone), or to ``scipy.optimize.minimize(..., jac=True)``.

    Notes
    -----
    Implements eq. (100), section 6.1 of the MLPR notes, with :math:`z_i = 2c_i - 1` and
    :math:`s_i = w^T x_i + b`:

    .. math::

        R(w, b) = \frac{\lambda}{2}\|w\|^2 + \sum_{i=1}^n \xi_i \log(1 + e^{-z_i s_i}), \qquad
        \nabla_w R = \lambda w + \sum_i \xi_i G_i x_i, \quad
        \frac{\partial R}{\partial b} = \sum_i \xi_i G_i,

    with :math:`G_i = -z_i\,\sigma(-z_i s_i)`, :math:`\xi_i = 1/n` (eq. 100) or
    :math:`\xi_i = \pi_T / n_T` for class 1 and :math:`(1 - \pi_T) / n_F` for class 0 (eq. 101).
    The loss is ``np.logaddexp(0, -z s)`` and :math:`\sigma` is ``scipy.special.expit``, both
    free of overflow for any score.
    """
    l = _check_lambda(l)
    prior = _check_prior(prior)
    X, L = _check_binary(D, c, "logistic regression", both=prior is not None)
    z = 2.0 * L - 1.0  # eq. z = 2c - 1
    xi = _sample_weights(L, prior)
    n = X.shape[0] + 1

    def logreg_obj(v):
        return _binary_fg(_check_v(v, n, "[w, b]"), X, z, xi, l)

    return logreg_obj


def logreg_hessian(D, c, l, v, prior=None) -> np.ndarray:
    r"""Compute the Hessian of the binary logistic-regression objective at v = [w, b].

    Parameters
    ----------
    D, c, l, prior
        As in `logreg_obj_wrap`.
    v : array_like, shape (D + 1,)
        ``[w, b]``.

    Returns
    -------
    ndarray, shape (D + 1, D + 1)
        Symmetric positive semi-definite (definite when lambda > 0 and the samples with a row of
        ones appended span D + 1 dimensions).

    Notes
    -----
    With :math:`\tilde x_i = [x_i; 1]` and :math:`s_i = w^T x_i + b`,

    .. math::

        \nabla^2 R = \sum_i \xi_i\, \sigma(s_i)\sigma(-s_i)\, \tilde x_i \tilde x_i^T
                     + \lambda \begin{bmatrix} I_D & 0 \\ 0 & 0 \end{bmatrix},

    the bias row and column carrying no regularisation. The sample weights :math:`\xi_i` are
    those of eq. (100) or (101).
    """
    l = _check_lambda(l)
    prior = _check_prior(prior)
    X, L = _check_binary(D, c, "logistic regression", both=prior is not None)
    v = _check_v(v, X.shape[0] + 1, "[w, b]")
    return _binary_hessian(v, X, _sample_weights(L, prior), l)


# ------------------------------------------------------------------------------------------------
# teaching solvers


def _grad_norm(g: np.ndarray) -> float:
    return float(np.max(np.abs(g))) if g.size else 0.0


def _result(x, f, g, nit, nfev, converged, message):
    return scipy.optimize.OptimizeResult(
        x=x, fun=f, jac=g, nit=nit, nfev=nfev, success=converged, message=message
    )


def _call_fg(f_grad, x, who: str, n_out: int = 2):
    out = f_grad(x)
    if not (isinstance(out, tuple) and len(out) == n_out):
        raise TypeError(f"{who} must return a tuple (f, grad{', hess' if n_out == 3 else ''})")
    f = _as_float_array(out[0], f"the objective returned by {who}")
    if f.shape not in ((), (1,)):
        raise ValueError(f"{who} returned an objective of shape {f.shape}, expected a number")
    g = _as_float_array(out[1], f"the gradient returned by {who}")
    if g.shape != x.shape:
        raise ValueError(f"{who} returned a gradient of shape {g.shape}, expected {x.shape}")
    return (float(f.reshape(())), g) + tuple(out[2:])


def _check_start(f: float, g: np.ndarray, who: str) -> None:
    """The objective and gradient at x0 must be finite: no descent can start from NaN."""
    if not (np.isfinite(f) and np.all(np.isfinite(g))):
        what = "objective" if not np.isfinite(f) else "gradient"
        raise ValueError(
            f"{who} returned a non-finite {what} at x0 (f = {f!r}); start from a point where the "
            f"function is defined"
        )


def _check_x0(x0) -> np.ndarray:
    x = np.array(_as_float_array(x0, "x0"))  # a copy: the solvers never modify the caller's x0
    if x.ndim != 1 or x.size == 0:
        raise ValueError(f"x0 must be a non-empty 1-D array, got shape {x.shape}")
    if not np.all(np.isfinite(x)):
        raise ValueError("x0 contains NaN or infinite values")
    return x


def _check_callable(f, name: str, signature: str) -> None:
    if not callable(f):
        raise TypeError(f"{name} must be a callable {signature}, got {type(f).__name__}")


def minimize_gradient_descent(f_grad, x0, step=None, backtracking=True, tol=1e-8,
                              max_iter=_GD_MAXITER):
    r"""Minimise a differentiable function by gradient descent.

    Parameters
    ----------
    f_grad : callable
        ``f_grad(x) -> (f, grad)``, e.g. the callable of `logreg_obj_wrap`.
    x0 : array_like, shape (P,)
        Starting point.
    step : float, optional
        With ``backtracking=False``, the fixed step :math:`\alpha` (required; ``1/L`` for an
        L-smooth convex function guarantees convergence). With ``backtracking=True``, the first
        trial step (default 1).
    backtracking : bool, default True
        Armijo backtracking: halve the step until
        :math:`f(x - \alpha g) \le f(x) - 10^{-4} \alpha \|g\|^2`; the next search starts from
        twice the accepted step.
    tol : float, default 1e-8
        Stop when the largest gradient component is at most ``tol``.
    max_iter : int
        Maximum number of iterations.

    Returns
    -------
    scipy.optimize.OptimizeResult
        ``x``, ``fun``, ``jac`` (the gradient at ``x``), ``nit``, ``nfev``, ``success`` (True
        when the gradient tolerance was met) and ``message``. No warning is issued here; the
        trainers warn.

    Notes
    -----
    The iteration :math:`x_{k+1} = x_k - \alpha_k \nabla f(x_k)`. Near the optimum the decrease
    :math:`\alpha\|g\|^2` falls below the rounding error of :math:`f` and the Armijo test can no
    longer be decided; the line search then gives up after 60 halvings and the result reports the
    gradient reached (``success`` False unless it is within ``tol``). A fixed step uses only
    gradients and has no such floor.
    """
    _check_callable(f_grad, "f_grad", "f_grad(x) -> (f, grad)")
    x = _check_x0(x0)
    backtracking = check_bool(backtracking, "backtracking")
    tol = _check_tol(tol)
    max_iter = check_int(max_iter, "max_iter", low=0)
    if step is None:
        if not backtracking:
            raise ValueError("a fixed step (backtracking=False) needs step, e.g. 1 / L")
        alpha = 1.0
    else:
        alpha = _check_positive(step, "step")
    f, g = _call_fg(f_grad, x, "f_grad")
    _check_start(f, g, "f_grad")
    nfev = 1
    for it in range(max_iter):
        if _grad_norm(g) <= tol:
            return _result(x, f, g, it, nfev, True, "gradient tolerance reached")
        gg = float(g @ g)
        if not backtracking:
            x = x - alpha * g
            f, g = _call_fg(f_grad, x, "f_grad")
            nfev += 1
            if not np.isfinite(f):
                return _result(x, f, g, it + 1, nfev, False, "diverged: step too large")
            continue
        a = alpha
        for _ in range(60):
            xn = x - a * g
            fn, gn = _call_fg(f_grad, xn, "f_grad")
            nfev += 1
            if fn <= f - _ARMIJO * a * gg:  # Armijo sufficient decrease
                break
            a *= 0.5
        else:
            return _result(x, f, g, it, nfev, _grad_norm(g) <= tol,
                           "line search failed: no decrease representable in floating point")
        x, f, g = xn, fn, gn
        alpha = 2.0 * a
    ok = _grad_norm(g) <= tol
    return _result(x, f, g, max_iter, nfev, ok,
                   "gradient tolerance reached" if ok else "maximum number of iterations reached")


def _newton_direction(H: np.ndarray, g: np.ndarray) -> np.ndarray:
    try:
        return scipy.linalg.solve(H, g, assume_a="pos")
    except (np.linalg.LinAlgError, ValueError):  # singular (lambda = 0): least-squares step
        return np.linalg.lstsq(H, g, rcond=None)[0]


def minimize_newton(f_grad_hess, x0, tol=1e-10, max_iter=_NEWTON_MAXITER):
    r"""Minimise a twice-differentiable convex function by damped Newton's method.

    Parameters
    ----------
    f_grad_hess : callable
        ``f_grad_hess(x) -> (f, grad, hess)`` with ``hess`` of shape (P, P).
    x0 : array_like, shape (P,)
        Starting point.
    tol : float, default 1e-10
        Stop when the largest gradient component is at most ``tol``.
    max_iter : int, default 100
        Maximum number of Newton steps.

    Returns
    -------
    scipy.optimize.OptimizeResult
        As in `minimize_gradient_descent`.

    Notes
    -----
    The step :math:`d = H^{-1} g` (Cholesky solve; least squares if H is singular) is taken as
    :math:`x \leftarrow x - \alpha d` with :math:`\alpha = 1, 1/2, 1/4, \dots` until the Armijo
    condition :math:`f(x - \alpha d) \le f(x) - 10^{-4}\alpha\, g^T d` holds. Near the optimum
    the full step is accepted and convergence is quadratic. The iteration also stops when the
    Newton decrement :math:`g^T H^{-1} g / 2` is below the rounding error of :math:`f`: no
    further decrease is representable.
    """
    _check_callable(f_grad_hess, "f_grad_hess", "f_grad_hess(x) -> (f, grad, hess)")
    x = _check_x0(x0)
    tol = _check_tol(tol)
    max_iter = check_int(max_iter, "max_iter", low=0)
    f, g, H = _call_fg(f_grad_hess, x, "f_grad_hess", 3)
    _check_start(f, g, "f_grad_hess")
    nfev = 1
    for it in range(max_iter):
        if _grad_norm(g) <= tol:
            return _result(x, f, g, it, nfev, True, "gradient tolerance reached")
        H = _as_float_array(H, "the Hessian returned by f_grad_hess")
        if H.shape != (x.size, x.size):
            raise ValueError(f"f_grad_hess returned a Hessian of shape {H.shape}, expected "
                             f"({x.size}, {x.size})")
        if not np.all(np.isfinite(H)):
            raise ValueError(f"f_grad_hess returned a Hessian with NaN or infinite values at "
                             f"iteration {it} (f = {f!r}); check the function")
        d = _newton_direction(H, g)
        decrement = float(g @ d)
        if decrement <= 0.0:
            d, decrement = g, float(g @ g)  # not a descent direction: fall back to the gradient
        if 0.5 * decrement <= 4.0 * _EPS * max(abs(f), 1.0):
            return _result(x, f, g, it, nfev, True,
                           "Newton decrement below the rounding error of f")
        a = 1.0
        for _ in range(60):
            xn = x - a * d
            fn, gn, Hn = _call_fg(f_grad_hess, xn, "f_grad_hess", 3)
            nfev += 1
            if fn <= f - _ARMIJO * a * decrement:
                break
            a *= 0.5
        else:
            return _result(x, f, g, it, nfev, _grad_norm(g) <= tol,
                           "line search failed: no decrease representable in floating point")
        x, f, g, H = xn, fn, gn, Hn
    ok = _grad_norm(g) <= tol
    return _result(x, f, g, max_iter, nfev, ok,
                   "gradient tolerance reached" if ok else "maximum number of iterations reached")


def _lbfgs(fg, x0: np.ndarray, tol: float, max_iter: int):
    """L-BFGS-B with the analytic gradient: ftol = factr * eps (factr = 1), gtol = tol."""
    res = scipy.optimize.minimize(
        fg, x0, jac=True, method="L-BFGS-B",
        options={"ftol": _FACTR * _EPS, "gtol": tol, "maxiter": max_iter,
                 "maxfun": 10 * max_iter + 20},
    )
    # status 1: iteration or evaluation limit; status 2 (line search could not decrease f any
    # further in floating point) is the usual stop with factr = 1 and is not a failure
    return res.x, float(res.fun), int(res.nit), res.status == 1


def _warn(msg: str) -> None:
    warnings.warn(msg, ConvergenceWarning, stacklevel=3)


def _relative_gradient(g: np.ndarray, X: np.ndarray, K: int = 1) -> float:
    """Largest component of the gradient g = [weights; biases] (weights of K classes stored
    one class after the other, as in `_unpack_multi`) in the units of features scaled to
    [-1, 1]: whatever the units of the features, it is 0 at an optimum."""
    nf = X.shape[0]
    scale = np.abs(X).max(axis=1) if X.shape[1] else np.zeros(nf)  # the feature's own unit
    gw = np.abs(g[: nf * K]).reshape((nf, K), order="F")
    with np.errstate(divide="ignore", invalid="ignore"):
        rw = np.where(gw > 0.0, gw / scale[:, None], 0.0)  # an all-zero feature has g = 0
    return float(max(rw.max(initial=0.0), np.abs(g[nf * K :]).max(initial=0.0)))


def _warn_stalled(r: float, nit: int, X: np.ndarray) -> None:
    _warn(f"L-BFGS stopped after {nit} iterations away from the optimum (largest gradient "
          f"component {r:.3g}, for features scaled to [-1, 1]): the features are probably "
          f"badly scaled (largest |value| {float(np.abs(X).max()):.3g}); z-normalise them "
          f"(mlpr.utils.fit_znorm) and train again")


# ------------------------------------------------------------------------------------------------
# binary logistic regression


class _LinearScores:
    """``n_features`` and ``scores`` of the binary linear models (fields ``w`` (D,) and ``b``)."""

    w: np.ndarray
    b: float

    @property
    def n_features(self) -> int:
        return self.w.shape[0]

    def scores(self, D) -> np.ndarray:
        r"""Linear scores :math:`s = w^T x + b` of the columns of ``D`` (D, N), shape (N,); class 1
        when :math:`s > 0` (for logistic regression, :math:`s = \log P(1 \mid x) / P(0 \mid x)`
        under the training prior)."""
        X = check_data(D, n_features=self.n_features, allow_1d=True)
        return self.w @ X + self.b


@dataclass(frozen=True)
class BinaryLogReg(_LinearScores):
    r"""A trained binary (optionally prior-weighted) logistic-regression model.

    Attributes
    ----------
    w : ndarray, shape (D,)
        Weights.
    b : float
        Bias.
    l : float
        lambda, the regularisation weight it was trained with.
    prior : float or None
        pi_T of the prior-weighted objective (eq. 101), None for eq. (100).
    prior_log_odds : float
        Log-odds of the training prior, :math:`\log(n_T / n_F)` when ``prior`` is None, else
        :math:`\log(\pi_T / (1 - \pi_T))`; `llr` subtracts it.
    objective : float
        :math:`R(w^*, b^*)`, the objective at the returned solution.
    n_iter : int
        Iterations of the solver.
    """

    w: np.ndarray
    b: float
    l: float
    prior: float | None
    prior_log_odds: float
    objective: float
    n_iter: int

    def llr(self, D) -> np.ndarray:
        r"""LLR-like scores of the columns of ``D`` (D, N), shape (N,): the training prior
        log-odds removed from the linear scores.

        Notes
        -----
        Eq. (102) of the notes:

        .. math:: s_{llr}(x) = w^T x + b - \log\frac{\pi}{1 - \pi}

        with :math:`\pi` the training prior (`prior_log_odds`). Compare with the Bayes
        threshold of the application, e.g. ``mlpr.evaluation.act_dcf(model.llr(D), L, p)``.
        """
        return self.scores(D) - self.prior_log_odds  # eq. (102)


def train_logreg_binary(D, L, l, prior=None, *, solver="lbfgs", tol=_LBFGS_TOL,
                        max_iter=None) -> BinaryLogReg:
    r"""Train binary logistic regression, optionally prior-weighted.

    Parameters
    ----------
    D : array_like, shape (D, N)
        Training samples.
    L : array_like, shape (N,)
        Labels 0 (non-target) and 1 (target), both present.
    l : float
        lambda >= 0, multiplying :math:`\frac{1}{2}\|w\|^2`; the bias is not regularised.
    prior : float, optional
        pi_T in (0, 1): minimise the prior-weighted objective of eq. (101). Default: eq. (100).
    solver : {"lbfgs", "gd", "newton"}
        ``"lbfgs"`` (default): L-BFGS-B from zeros, ``ftol = eps`` (factr = 1) and
        ``gtol = tol``. ``"gd"``: `minimize_gradient_descent` with the fixed step
        :math:`1/L_f`, :math:`L_f = \frac14 \lambda_{max}(\sum_i \xi_i \tilde x_i \tilde x_i^T)
        + \lambda` (the gradient's Lipschitz constant); slow when the problem is ill conditioned
        (small lambda, unnormalised features). ``"newton"``: `minimize_newton` with
        `logreg_hessian`.
    tol : float, default 1e-10
        Tolerance on the largest component of the gradient.
    max_iter : int, optional
        Iteration limit: default 15000 (lbfgs), 100000 (gd), 100 (newton).

    Returns
    -------
    BinaryLogReg

    Warns
    -----
    ConvergenceWarning
        The iteration limit was reached, or lambda = 0 and the objective still decreases along
        the returned w (the training data are separable: there is no minimiser, the weights
        would grow without bound), or L-BFGS stopped (its line search failed) with a gradient
        component above max(1e-4, tol) for features scaled to [-1, 1] (badly scaled features).

    Raises
    ------
    ValueError
        Besides bad labels and hyperparameters: data so large (about 1e154) that products of
        features overflow float64.

    Notes
    -----
    Implements eq. (100) (``prior=None``) and eq. (101) of section 6.1 of the MLPR notes, see
    `logreg_obj_wrap`:

    .. math::

        (w^*, b^*) = \arg\min_{w, b}\; \frac{\lambda}{2}\|w\|^2
            + \sum_i \xi_i \log\left(1 + e^{-z_i(w^T x_i + b)}\right) .
    """
    l = _check_lambda(l)
    prior = _check_prior(prior)
    solver = _check_solver(solver)
    tol = _check_tol(tol)
    X, L = _check_binary(D, L, "train_logreg_binary")
    if max_iter is None:
        max_iter = {"lbfgs": _LBFGS_MAXITER, "gd": _GD_MAXITER, "newton": _NEWTON_MAXITER}[solver]
    max_iter = check_int(max_iter, "max_iter", low=1)
    z = 2.0 * L - 1.0  # eq. z = 2c - 1
    xi = _sample_weights(L, prior)
    nf = X.shape[0]

    def fg(v):
        return _binary_fg(v, X, z, xi, l)

    v0 = np.zeros(nf + 1)
    if solver == "lbfgs":
        v, f, nit, limit = _lbfgs(fg, v0, tol, max_iter)
    else:
        if solver == "gd":
            Xa = np.vstack([X, np.ones((1, X.shape[1]))])
            Lf = 0.25 * scipy.linalg.eigvalsh((Xa * xi) @ Xa.T)[-1] + l  # Lipschitz constant
            res = minimize_gradient_descent(fg, v0, step=1.0 / Lf, backtracking=False, tol=tol,
                                            max_iter=max_iter)
        else:
            res = minimize_newton(lambda v: fg(v) + (_binary_hessian(v, X, xi, l),), v0,
                                  tol=tol, max_iter=max_iter)
        v, f, nit = res.x, float(res.fun), int(res.nit)
        limit = not res.success and res.message.startswith("maximum")
    w, b = v[:-1].copy(), float(v[-1])
    stalled = 0.0
    if solver == "lbfgs" and not limit:  # L-BFGS-B also stops when its line search fails
        stalled = _relative_gradient(fg(v)[1], X)
    if stalled > max(_STALL_RTOL, tol):
        _warn_stalled(stalled, nit, X)
    elif l == 0.0:
        margins = z * (w @ X + b)
        f2 = fg(2.0 * v)[0]
        if margins.min() > 0.0 or f2 < f * (1.0 - 1e-6):
            what = ("the training data are linearly separable (every sample is classified "
                    "correctly)" if margins.min() > 0.0 else
                    "the objective keeps decreasing along the direction of w (the data are "
                    "separable on part of the samples)")
            _warn(f"lambda = 0 and {what}: the objective has no minimiser and the weights grow "
                  f"without bound; the solver stopped at |w| = {np.linalg.norm(w):.3g} after "
                  f"{nit} iterations. Use l > 0 for a unique solution")
            limit = False
    if limit:
        _warn(f"{solver} reached the iteration limit max_iter = {max_iter} before the gradient "
              f"tolerance {tol:g}; increase max_iter or tol, or normalise the features")
    if prior is None:
        nT = int(np.count_nonzero(L))
        plo = float(np.log(nT / (L.size - nT)))
    else:
        plo = float(np.log(prior / (1.0 - prior)))
    return BinaryLogReg(w=w, b=b, l=l, prior=prior, prior_log_odds=plo, objective=f,
                        n_iter=nit)


# ------------------------------------------------------------------------------------------------
# multiclass logistic regression


def _unpack_multi(v: np.ndarray, nf: int, K: int):
    W = v[: nf * K].reshape((nf, K), order="F")  # v = [w_0; w_1; ...; w_{K-1}; b]
    return W, v[nf * K :]


def _multi_fg(v: np.ndarray, X: np.ndarray, L: np.ndarray, K: int, l: float):
    """Objective and gradient of the multiclass objective at v = [vec(W); b]."""
    nf, n = X.shape
    W, b = _unpack_multi(v, nf, K)
    S = W.T @ X  # (K, n)
    S += b[:, None]
    m = S.max(axis=0)
    Y = np.exp(S - m)
    tot = Y.sum(axis=0)
    lse = m + np.log(tot)  # log sum_k exp(s_k), computed once for f and the posteriors
    idx = np.arange(n)
    f = (lse.sum() - S[L, idx].sum()) / n + 0.5 * l * np.sum(W * W)  # cross-entropy + l/2 |W|^2
    Y /= tot  # posteriors y_ki
    Y[L, idx] -= 1.0  # y_ki - t_ki
    Y /= n
    gW = X @ Y.T  # (1/n) X (Y - T)^T
    gW += l * W
    grad = np.empty_like(v)
    grad[: nf * K] = gW.ravel(order="F")
    grad[nf * K :] = Y.sum(axis=1)  # (1/n) (Y - T) 1
    return float(f), grad


def _check_multi(D, L, who: str) -> tuple[np.ndarray, np.ndarray, int]:
    X, L = check_data_labels(D, L, require_all=True)
    _check_scale(X)
    K = int(L.max()) + 1
    if K < 2:
        raise ValueError(
            f"L holds a single class (0): {who} needs at least two classes 0..K-1"
        )
    return X, L, K


def logreg_multiclass_obj_wrap(D, L, l):
    r"""Build the multiclass (softmax) logistic-regression objective of v = [vec(W); b] and its
    gradient.

    Parameters
    ----------
    D : array_like, shape (D, N)
        Training samples.
    L : array_like, shape (N,)
        Labels 0..K-1, every class present, K >= 2.
    l : float
        lambda >= 0, multiplying :math:`\frac{1}{2}\|W\|_F^2`; the biases are not regularised.

    Returns
    -------
    obj : callable
        ``obj(v) -> (f, grad)`` with ``v`` of shape (D K + K,): the columns
        :math:`w_0, \dots, w_{K-1}` of W one after the other (``W = v[:D*K].reshape((D, K),
        order="F")``), then ``b = v[D*K:]``.

    Notes
    -----
    Multiclass logistic regression of chapter 6 of the notes: with :math:`s_{ki} = w_k^T x_i +
    b_k`, :math:`y_{ki} = e^{s_{ki}} / \sum_{k'} e^{s_{k'i}}` and :math:`t_{ki} = [c_i = k]`,

    .. math::

        J(W, b) = \frac{\lambda}{2}\|W\|^2 - \frac{1}{n}\sum_{i=1}^n \log y_{c_i i}, \qquad
        \nabla_W J = \lambda W + \frac{1}{n} X (Y - T)^T, \quad
        \nabla_b J = \frac{1}{n} (Y - T) \mathbf{1} .

    :math:`\log y` comes from a log-sum-exp, so no score overflows.
    """
    l = _check_lambda(l)
    X, L, K = _check_multi(D, L, "multiclass logistic regression")
    n = X.shape[0] * K + K

    def obj(v):
        return _multi_fg(_check_v(v, n, "[vec(W); b]"), X, L, K, l)

    return obj


@dataclass(frozen=True)
class MulticlassLogReg:
    r"""A trained multiclass (softmax) logistic-regression model.

    Attributes
    ----------
    W : ndarray, shape (D, K)
        Column k is :math:`w_k`.
    b : ndarray, shape (K,)
        Biases.
    l : float
        lambda it was trained with.
    class_priors : ndarray, shape (K,)
        Empirical class proportions :math:`n_k / n` of the training set: the prior under which
        `log_posteriors` holds.
    objective : float
        :math:`J(W^*, b^*)` at the returned solution.
    n_iter : int
        L-BFGS iterations.
    """

    W: np.ndarray
    b: np.ndarray
    l: float
    class_priors: np.ndarray
    objective: float
    n_iter: int

    @property
    def n_classes(self) -> int:
        return self.W.shape[1]

    @property
    def n_features(self) -> int:
        return self.W.shape[0]

    def scores(self, D) -> np.ndarray:
        r"""Linear class scores :math:`s_k = w_k^T x + b_k` of the columns of ``D``, shape (K, N).

        ``scores(D).argmax(axis=0)`` is the predicted class under the training class proportions.
        """
        X = check_data(D, n_features=self.n_features, allow_1d=True)
        return self.W.T @ X + self.b[:, None]

    def log_posteriors(self, D, priors=None) -> np.ndarray:
        r"""Class log-posteriors of the columns of ``D``, shape (K, N); columns sum to one
        after ``exp``.

        Parameters
        ----------
        D : array_like, shape (D, N)
        priors : array_like, shape (K,), optional
            Class priors of the application. Default: the training proportions
            (`class_priors`), under which the model was fitted.

        Notes
        -----
        .. math::

            \log P(k \mid x) = s_k - \log\pi^{emp}_k + \log\pi_k
                - \log\sum_{k'} \exp\left(s_{k'} - \log\pi^{emp}_{k'} + \log\pi_{k'}\right)

        The softmax of the scores is the posterior under the training proportions
        :math:`\pi^{emp}`; replacing their log by the log of new priors moves it to another
        application (exact only insofar as the model's posteriors are; without ``priors`` the
        correction is zero).
        """
        S = self.scores(D)
        if priors is not None:
            p = _check_class_priors(priors, self.n_classes)
            with np.errstate(divide="ignore"):
                S = S + (np.log(p) - np.log(self.class_priors))[:, None]
        return S - logsumexp(S, axis=0, keepdims=True)


def _check_class_priors(priors, K: int) -> np.ndarray:
    p = _as_float_array(priors, "priors")
    if p.shape != (K,):
        raise ValueError(f"priors has shape {p.shape}, expected ({K},): one prior per class")
    bad = ~(np.isfinite(p) & (p >= 0.0))
    if bad.any():
        raise ValueError(
            f"priors must be finite non-negative probabilities, got {float(p[bad][0])!r}"
        )
    if abs(p.sum() - 1.0) > 1e-9:
        raise ValueError(f"priors must sum to 1 (within 1e-9), got sum {p.sum():.12g}")
    if not np.any(p > 0.0):
        raise ValueError("priors must not all be zero")
    return p


def train_logreg_multiclass(D, L, l, *, tol=_LBFGS_TOL, max_iter=_LBFGS_MAXITER
                            ) -> MulticlassLogReg:
    r"""Train multiclass (softmax) logistic regression by L-BFGS.

    Parameters
    ----------
    D : array_like, shape (D, N)
        Training samples.
    L : array_like, shape (N,)
        Labels 0..K-1, every class present, K >= 2.
    l : float
        lambda >= 0, multiplying :math:`\frac{1}{2}\|W\|_F^2`; the biases are not regularised.
    tol : float, default 1e-10
        Tolerance on the largest gradient component (L-BFGS-B ``gtol``; ``ftol = eps``).
    max_iter : int, default 15000
        Iteration limit.

    Returns
    -------
    MulticlassLogReg

    Warns
    -----
    ConvergenceWarning
        Iteration limit reached, or lambda = 0 and the objective still decreases along the
        returned (W, b) (separable data: no minimiser), or L-BFGS stopped far from the optimum
        (as in `train_logreg_binary`: badly scaled features).

    Notes
    -----
    Minimises the mean cross-entropy plus :math:`\frac{\lambda}{2}\|W\|^2` from W = 0, b = 0
    (see `logreg_multiclass_obj_wrap`):

    .. math::

        J(W, b) = \frac{\lambda}{2}\|W\|^2 - \frac{1}{n}\sum_{i} \left(s_{c_i i}
            - \log\sum_k e^{s_{ki}}\right), \qquad s_{ki} = w_k^T x_i + b_k .

    Only the differences :math:`w_k - w_{k'}` matter to the posteriors (the model is
    over-parametrised); with lambda > 0 the solution is unique and satisfies
    :math:`\sum_k w_k = 0`, and L-BFGS from zeros keeps :math:`\sum_k b_k = 0`. With K = 2,
    :math:`w_1 - w_0` and :math:`b_1 - b_0` are the binary model trained with lambda / 2.
    """
    l = _check_lambda(l)
    tol = _check_tol(tol)
    max_iter = check_int(max_iter, "max_iter", low=1)
    X, L, K = _check_multi(D, L, "train_logreg_multiclass")
    nf = X.shape[0]

    def fg(v):
        return _multi_fg(v, X, L, K, l)

    v, f, nit, limit = _lbfgs(fg, np.zeros(nf * K + K), tol, max_iter)
    W, b = _unpack_multi(v, nf, K)
    W, b = W.copy(), b.copy()
    stalled = 0.0
    if not limit:  # L-BFGS-B also stops when its line search fails
        stalled = _relative_gradient(fg(v)[1], X, K)
    if stalled > max(_STALL_RTOL, tol):
        _warn_stalled(stalled, nit, X)
    elif l == 0.0:
        S = W.T @ X + b[:, None]
        idx = np.arange(L.size)
        own = S[L, idx]
        S[L, idx] = -np.inf
        separated = bool(np.all(own > S.max(axis=0)))
        if separated or fg(2.0 * v)[0] < f * (1.0 - 1e-6):
            what = ("the training data are linearly separable (every sample is classified "
                    "correctly)" if separated else
                    "the objective keeps decreasing along the direction of (W, b) (the data are "
                    "separable on part of the samples)")
            _warn(f"lambda = 0 and {what}: the objective has no minimiser and the weights grow "
                  f"without bound; the solver stopped at |W| = {np.linalg.norm(W):.3g} after "
                  f"{nit} iterations. Use l > 0 for a unique solution")
            limit = False
    if limit:
        _warn(f"L-BFGS reached the iteration limit max_iter = {max_iter} before the gradient "
              f"tolerance {tol:g}; increase max_iter or tol, or normalise the features")
    priors = np.bincount(L, minlength=K) / L.size
    return MulticlassLogReg(W=W, b=b, l=l, class_priors=priors, objective=f, n_iter=nit)


# ------------------------------------------------------------------------------------------------
# quadratic features


def expand_quadratic(D) -> np.ndarray:
    r"""Map each sample to the quadratic features :math:`\phi(x) = [\mathrm{vec}(x x^T); x]`.

    Parameters
    ----------
    D : array_like, shape (D, N)

    Returns
    -------
    ndarray, shape (D^2 + D, N)
        Rows ``j*D + i`` (for i, j < D) hold :math:`x_i x_j`, the last D rows hold x.

    Notes
    -----
    Eq. (121) of the notes. ``vec`` stacks the columns of :math:`x x^T` (column-major, as
    ``numpy.outer(x, x).ravel(order="F")``); the matrix is symmetric, so row-major order gives
    the same vector. A linear model on :math:`\phi(x)`, :math:`s = w^T\phi(x) + c
    = x^T A x + b^T x + c`, has quadratic decision boundaries. The off-diagonal products appear
    twice (D^2 rather than D(D+1)/2 features), as in the notes. One einsum, no loop over
    samples.
    """
    X = _check_scale(check_data(D), n_terms=1)
    nf, n = X.shape
    Q = np.einsum("jn,in->jin", X, X).reshape(nf * nf, n)  # eq. (121): row j*D + i is x_i x_j
    return np.vstack([Q, X])


def expand_quadratic_symmetric(D) -> np.ndarray:
    r"""Quadratic features, each product once: ``[x_i x_j (i <= j, sqrt(2) x if i < j); x]``.

    Parameters
    ----------
    D : array_like, shape (D, N)

    Returns
    -------
    ndarray, shape (D (D + 1) / 2 + D, N)
        Rows in the order of ``numpy.triu_indices(D)``, then ``x``.

    Notes
    -----
    :math:`\operatorname{vec}(xx^T)` of eq. (121) holds every off-diagonal product twice. Keeping
    it once, scaled by :math:`\sqrt 2`, preserves every inner product,
    :math:`	ilde\phi(x)^T 	ilde\phi(y) = \phi(x)^T \phi(y)`, so an L2-regularised linear model
    (logistic regression, SVM) reaches the same objective and the same scores with about half
    the features.
    """
    X = _check_scale(check_data(D), n_terms=2)  # sqrt(2) x_i x_j
    i, j = np.triu_indices(X.shape[0])
    scale = np.where(i == j, 1.0, np.sqrt(2.0))[:, None]
    return np.vstack([X[i] * X[j] * scale, X])  # phi~(x)' phi~(y) = phi(x)' phi(y)


# ------------------------------------------------------------------------------------------------
# the perceptron


@dataclass(frozen=True)
class Perceptron(_LinearScores):
    r"""A trained perceptron.

    Attributes
    ----------
    w : ndarray, shape (D,)
    b : float
    epochs : int
        Epochs run; when ``converged``, the last one made no update.
    converged : bool
        True if an epoch classified every training sample correctly (the data are separated).
    n_updates : int
        Total number of updates (mistakes) over all epochs.
    """

    w: np.ndarray
    b: float
    epochs: int
    converged: bool
    n_updates: int


def train_perceptron(D, L, max_epochs, rng, eta=1.0) -> Perceptron:
    r"""Train the perceptron by the notes' sequential update rule.

    Parameters
    ----------
    D : array_like, shape (D, N)
        Training samples.
    L : array_like, shape (N,)
        Labels 0/1, both present.
    max_epochs : int
        Maximum number of passes over the training set (>= 1).
    rng : numpy.random.Generator
        Draws the order in which each epoch visits the samples.
    eta : float, default 1
        Learning rate, > 0. Starting from zero, eta only scales (w, b) and does not change the
        sequence of decisions.

    Returns
    -------
    Perceptron

    Warns
    -----
    ConvergenceWarning
        No epoch within ``max_epochs`` was free of mistakes (the data may not be linearly
        separable; the perceptron then never converges).

    Notes
    -----
    With :math:`\phi_n = [x_n; 1]`, :math:`\tilde w = [w; b]` (zero at the start) and
    :math:`t_n = 2c_n - 1`, each epoch visits the samples in a random order and, for every
    misclassified one (:math:`t_n \tilde w^T \phi_n \le 0`, so a sample on the boundary counts
    as a mistake),

    .. math:: \tilde w \leftarrow \tilde w + \eta\, \phi_n t_n .

    Training stops after the first epoch without updates. The perceptron convergence theorem
    guarantees this happens after finitely many updates when the data are linearly separable.
    The loop over the samples is the algorithm itself (each decision depends on the previous
    updates); each step is one dot product with a precomputed row :math:`t_n \phi_n^T`.
    """
    X, L = _check_binary(D, L, "train_perceptron")
    max_epochs = check_int(max_epochs, "max_epochs", low=1)
    rng = check_rng(rng)
    eta = _check_positive(eta, "eta")
    nf, n = X.shape
    t = 2.0 * L - 1.0
    Y = np.empty((n, nf + 1))  # row n: t_n phi_n^T, contiguous for the per-sample dot products
    Y[:, :nf] = X.T * t[:, None]
    Y[:, nf] = t
    wt = np.zeros(nf + 1)
    updates = 0
    converged = False
    epoch = 0
    for epoch in range(1, max_epochs + 1):  # noqa: B007 (epoch is used after the loop)
        mistakes = 0
        for i in rng.permutation(n):
            yi = Y[i]
            if yi @ wt <= 0.0:  # misclassified (or on the boundary)
                wt += eta * yi  # w <- w + eta phi_n t_n
                mistakes += 1
        updates += mistakes
        if mistakes == 0:
            converged = True
            break
    if not converged:
        err = float(np.mean((Y @ wt) <= 0.0))
        _warn(f"the perceptron did not converge in max_epochs = {max_epochs} epochs (training "
              f"error {100 * err:.2f}% after the last update): the data may not be linearly "
              f"separable; increase max_epochs, or use logistic regression or an SVM")
    return Perceptron(w=wt[:nf].copy(), b=float(wt[nf]), epochs=epoch, converged=converged,
                      n_updates=updates)
