r"""Logistic regression (binary, prior-weighted, multiclass), quadratic feature expansion, teaching
solvers and the perceptron (notes ch. 6; the perceptron of the short notes 003, section 6.2.4).

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

Reading the code. Each public function validates its input (the validators of `mlpr._validation`)
and calls a private core of a few lines that mirrors the formula and cites it: ``_binary_fg``
(objective and gradient of eq. 100 / 101), ``_sample_weights`` (the weights of eq. 101),
``_binary_hessian``, ``_prior_log_odds`` (the term of eq. 102), ``_multi_fg`` and
``_multi_hessian`` (multiclass), ``_quadratic_features`` (eq. 121), ``_perceptron_epoch`` (the
update rule). The optimisers (gradient descent, damped Newton, L-BFGS, the Newton finish) and
the diagnosis behind the ConvergenceWarning's message live in the private
`mlpr._logreg_solvers`; the trainers hand them an objective and read where they stopped.

Solvers. The models are trained by L-BFGS (``scipy.optimize.minimize(method="L-BFGS-B")``)
from zeros with the analytic gradient, stopped by the gradient tolerance alone (``gtol = tol``
on the largest gradient component, ``ftol = 0``), then, when the Hessian is cheap to form
(every problem of iris size), finished by Newton steps to the minimiser in floating point: a
reference answer, on iris within 1e-13 of the exact optimum, where a gradient of 1e-10 alone can
leave w 1e-6 away when lambda is small (the Hessian's small eigenvalues). Larger problems (raw
MNIST) stop at the tolerance, or where the objective no longer decreases in floating point, or
at the iteration limit, and say so with a `ConvergenceWarning` when that is above the
tolerance. `train_logreg_binary` can also use the two teaching solvers of the recitation notes,
gradient descent and Newton's method.

No minimiser. With :math:`\lambda = 0` and linearly separable training data (or data separable
on a subset of the samples) the objective keeps decreasing as :math:`\|w\| \to \infty` and has no
minimiser. The solvers still stop (gradient tolerance, no further decrease in floating point, or
the iteration limit) and the trainers then warn with a `ConvergenceWarning`; the returned model
is the point where the solver stopped. Use :math:`\lambda > 0` to get a unique solution.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.optimize
from scipy.special import expit, logsumexp

from . import _logreg_fast
from ._logreg_solvers import (
    NEWTON_MAXITER,
    Objective,
    diagnosis,
    gradient_descent,
    newton,
    newton_cost,
    newton_direction,
    solve,
    warn_convergence,
)
from ._validation import (
    SOLVERS,
    check_array,
    check_binary,
    check_bool,
    check_choice,
    check_class_priors,
    check_data,
    check_finite,
    check_int,
    check_lambda,
    check_multiclass,
    check_positive,
    check_prior,
    check_rng,
    check_scale,
)
from .utils import ConvergenceWarning, model

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

_LBFGS_TOL = 1e-10  # default tolerance on the largest gradient component (L-BFGS, Newton, GD)
# about 3 minutes of multiclass L-BFGS on raw MNIST (60,000 x 784, K = 10) on one core; problems
# of iris size need tens of iterations
_LBFGS_MAXITER = 1000
_GD_MAXITER = 100000
_OPTIMIZERS = ("lbfgs", "gd", "newton")
_DEFAULT_MAXITER = {"lbfgs": _LBFGS_MAXITER, "gd": _GD_MAXITER, "newton": NEWTON_MAXITER}
# newton_finish=None finishes L-BFGS with Newton steps when forming and solving with the Hessian
# costs at most this many multiply-adds (a fraction of a second): every iris-size problem, a
# digit pair on 50 PCA features, not raw MNIST (785 x 785 Hessian over 12,000 images)
_NEWTON_FINISH_COST = 1e9


# ------------------------------------------------------------------------------------------------
# validation: the public boundary (the cores below assume valid input)


def _check_v(v, P: int, what: str) -> np.ndarray:
    """The parameter vector of an objective callable: (P,), finite."""
    a = check_array(v, "v")
    if a.shape != (P,):
        raise ValueError(f"v has shape {a.shape}, expected ({P},) = {what}")
    return check_finite(a, "v")


def _check_newton_finish(newton_finish, optimizer: str = "lbfgs") -> bool | None:
    if newton_finish is None:
        return None
    newton_finish = check_bool(newton_finish, "newton_finish")
    if newton_finish and optimizer != "lbfgs":
        raise ValueError(f"newton_finish applies to optimizer='lbfgs' only, got "
                         f"optimizer={optimizer!r}")
    return newton_finish


def _check_switches(optimizer, solver) -> tuple[str, str]:
    """The optimiser and the reference/fast switch of `train_logreg_binary`; an optimiser's
    name passed as ``solver`` is refused with the remedy (``optimizer=``)."""
    if not (isinstance(solver, str) and solver in SOLVERS):
        raise ValueError(f"solver must be one of 'auto', 'reference' (the optimiser is "
                         f"optimizer=: {', '.join(map(repr, _OPTIMIZERS))}), got {solver!r}")
    return check_choice(optimizer, "optimizer", _OPTIMIZERS), solver


def _check_binary_training(D, L, l, prior, *, optimizer: str, tol, max_iter, newton_finish):
    """Validate the arguments of `train_logreg_binary`; max_iter gets the optimiser's default."""
    l = check_lambda(l)
    prior = check_prior(prior, allow_none=True)
    tol = check_positive(tol, "tol")
    X, L = check_binary(D, L, "train_logreg_binary", scale=True)
    max_iter = check_int(_DEFAULT_MAXITER[optimizer] if max_iter is None else max_iter,
                         "max_iter", low=1)
    return X, L, l, prior, tol, max_iter, _check_newton_finish(newton_finish, optimizer)


def _check_fg(f_grad, name: str, n_out: int = 2):
    """``f_grad`` wrapped so that every call checks what it returns: (f, grad[, hess]), a
    number, a gradient of the shape of x[, a finite (P, P) Hessian]; the first call must be
    finite (no descent starts from NaN)."""
    if not callable(f_grad):
        signature = "(f, grad, hess)" if n_out == 3 else "(f, grad)"
        raise TypeError(f"{name} must be a callable {name}(x) -> {signature}, got "
                        f"{type(f_grad).__name__}")
    n_calls = 0

    def checked(x):
        nonlocal n_calls
        out = _checked_output(f_grad(x), x, name, n_out, n_calls)
        n_calls += 1
        return out

    return checked


def _checked_output(out, x: np.ndarray, who: str, n_out: int, call: int) -> tuple:
    if not (isinstance(out, tuple) and len(out) == n_out):
        raise TypeError(f"{who} must return a tuple (f, grad{', hess' if n_out == 3 else ''})")
    f = check_array(out[0], f"the objective returned by {who}")
    if f.shape not in ((), (1,)):
        raise ValueError(f"{who} returned an objective of shape {f.shape}, expected a number")
    f = float(f.reshape(()))
    g = check_array(out[1], f"the gradient returned by {who}")
    if g.shape != x.shape:
        raise ValueError(f"{who} returned a gradient of shape {g.shape}, expected {x.shape}")
    if call == 0 and not (np.isfinite(f) and np.all(np.isfinite(g))):
        raise ValueError(
            f"{who} returned a non-finite {'objective' if not np.isfinite(f) else 'gradient'} at "
            f"x0 (f = {f!r}); start from a point where the function is defined")
    if n_out == 2:
        return f, g
    return f, g, _checked_hessian(out[2], x.size, who, call, f)


def _checked_hessian(H, P: int, who: str, call: int, f: float) -> np.ndarray:
    H = check_array(H, f"the Hessian returned by {who}")
    if H.shape != (P, P):
        raise ValueError(f"{who} returned a Hessian of shape {H.shape}, expected ({P}, {P})")
    if not np.all(np.isfinite(H)):
        raise ValueError(f"{who} returned a Hessian with NaN or infinite values at call {call} "
                         f"(f = {f!r}); check the function")
    return H


def _check_x0(x0) -> np.ndarray:
    x = np.array(check_array(x0, "x0"))  # a copy: the solvers never modify the caller's x0
    if x.ndim != 1 or x.size == 0:
        raise ValueError(f"x0 must be a non-empty 1-D array, got shape {x.shape}")
    if not np.all(np.isfinite(x)):
        raise ValueError("x0 contains NaN or infinite values")
    return x


# ------------------------------------------------------------------------------------------------
# binary logistic regression: eq. (100), (101), (102) on validated arrays


def _with_ones(X: np.ndarray) -> np.ndarray:
    """x~_i = [x_i; 1] for every column: the bias as a weight on a constant feature."""
    return np.vstack([X, np.ones((1, X.shape[1]))])


def _sample_weights(L: np.ndarray, prior: float | None) -> np.ndarray:
    """The weight xi_i of each sample's loss: 1/n, or pi_T/n_T and (1 - pi_T)/n_F (eq. 101)."""
    n = L.size
    if prior is None:
        return np.full(n, 1.0 / n)  # eq. (100)
    nT = np.count_nonzero(L)
    nF = n - nT
    return np.where(L == 1, prior / nT, (1.0 - prior) / nF)  # eq. (101)


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
    dim = X.shape[0]
    s = v[:-1] @ X + v[-1]
    h = xi * expit(s) * expit(-s)  # d^2 R / ds_i^2
    H = np.empty((dim + 1, dim + 1))
    Xh = X * h
    H[:dim, :dim] = Xh @ X.T  # the blocks of sum_i h_i x~_i x~_i^T, x~_i = [x_i; 1]
    H[:dim, dim] = H[dim, :dim] = Xh.sum(axis=1)
    H[dim, dim] = h.sum()
    H[np.arange(dim), np.arange(dim)] += l  # the bias is not regularised
    return H


def _prior_log_odds(L: np.ndarray, prior: float | None) -> float:
    """log(pi / (1 - pi)) of the training prior: n_T / n_F, or pi_T (the term of eq. 102)."""
    if prior is None:
        nT = int(np.count_nonzero(L))
        nF = L.size - nT
        return float(np.log(nT / nF))
    return float(np.log(prior / (1.0 - prior)))


def _binary_objective(X: np.ndarray, L: np.ndarray, l: float, prior,
                      solver: str = "reference") -> Objective:
    """Eq. (100) (``prior`` None) or (101) on the training data, for the optimisers; ``solver``
    "auto" evaluates it with `mlpr._logreg_fast`."""
    z = 2.0 * L - 1.0  # z_i = 2 c_i - 1
    xi = _sample_weights(L, prior)
    fast_fg = _logreg_fast.binary_fg(X, z, xi, l) if solver == "auto" else None

    def fg(v):
        return fast_fg(v) if fast_fg is not None else _binary_fg(v, X, z, xi, l)

    def fgh(v):
        return fg(v) + (_binary_hessian(v, X, xi, l),)

    def separated(v):  # z_i s_i > 0 for every sample, none on the boundary
        return bool(np.min(z * (v[:-1] @ X + v[-1])) > 0.0)

    return Objective(fg, fgh, newton_direction, separated, X, 1, l)


def _gd_step(X: np.ndarray, L: np.ndarray, l: float, prior) -> float:
    """1 / L_f, L_f = lambda_max(sum_i xi_i x~_i x~_i^T) / 4 + lambda: the Lipschitz constant of
    the gradient of eq. (100)/(101) (sigma' <= 1/4), the step of gradient descent."""
    Xa = _with_ones(X)
    return 1.0 / (0.25 * scipy.linalg.eigvalsh((Xa * _sample_weights(L, prior)) @ Xa.T)[-1] + l)


def logreg_obj_wrap(D, c, l, prior=None):
    r"""Build the binary logistic-regression objective of v = [w, b] and its gradient.

    The course's name and signature (the labs call ``logreg_obj_wrap(DTR, LTR, l)``).

    Parameters
    ----------
    D : array_like, shape (D, N)
        Training samples, one per column.
    c : array_like, shape (N,)
        The labels (the notes' :math:`c_i`, called ``L`` everywhere else in mlpr): 0
        (non-target) or 1 (target).
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
    free of overflow for any score. The private core is ``_binary_fg``.
    """
    l = check_lambda(l)
    prior = check_prior(prior, allow_none=True)
    X, L = check_binary(D, c, "logistic regression", both=prior is not None, scale=True)
    fg = _binary_objective(X, L, l, prior).fg
    P = X.shape[0] + 1

    def logreg_obj(v):
        return fg(_check_v(v, P, "[w, b]"))

    return logreg_obj


def logreg_hessian(D, c, l, v, prior=None) -> np.ndarray:
    r"""Compute the Hessian of the binary logistic-regression objective at v = [w, b].

    Parameters
    ----------
    D, c, l, prior
        As in `logreg_obj_wrap` (``c``: the labels, 0/1).
    v : array_like, shape (D + 1,)
        ``[w, b]``.

    Returns
    -------
    ndarray, shape (D + 1, D + 1)
        Symmetric positive semi-definite (definite when lambda > 0 and the samples with a row of
        ones appended span D + 1 dimensions).

    Notes
    -----
    The second derivative of eq. (100) / (101), section 6.1 of the MLPR notes. With
    :math:`\tilde x_i = [x_i; 1]` and :math:`s_i = w^T x_i + b`,

    .. math::

        \nabla^2 R = \sum_i \xi_i\, \sigma(s_i)\sigma(-s_i)\, \tilde x_i \tilde x_i^T
                     + \lambda \begin{bmatrix} I_D & 0 \\ 0 & 0 \end{bmatrix},

    the bias row and column carrying no regularisation. The sample weights :math:`\xi_i` are
    those of eq. (100) or (101). The private core is ``_binary_hessian``.
    """
    l = check_lambda(l)
    prior = check_prior(prior, allow_none=True)
    X, L = check_binary(D, c, "logistic regression", both=prior is not None, scale=True)
    v = _check_v(v, X.shape[0] + 1, "[w, b]")
    return _binary_hessian(v, X, _sample_weights(L, prior), l)


# ------------------------------------------------------------------------------------------------
# teaching solvers (recitation notes): gradient descent and damped Newton, validated here and run
# by `mlpr._logreg_solvers`


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
    The teaching solver of the recitation notes, there applied to the logistic-regression
    objective of eq. (100) (`logreg_obj_wrap`). The iteration
    :math:`x_{k+1} = x_k - \alpha_k \nabla f(x_k)`. Near the optimum the decrease
    :math:`\alpha\|g\|^2` falls below the rounding error of :math:`f` and the Armijo test can no
    longer be decided; the line search then gives up after 60 halvings and the result reports the
    gradient reached (``success`` False unless it is within ``tol``). A fixed step uses only
    gradients and has no such floor.
    """
    fg = _check_fg(f_grad, "f_grad")
    x = _check_x0(x0)
    backtracking = check_bool(backtracking, "backtracking")
    tol = check_positive(tol, "tol")
    max_iter = check_int(max_iter, "max_iter", low=0)
    if step is None and not backtracking:
        raise ValueError("a fixed step (backtracking=False) needs step, e.g. 1 / L")
    alpha = 1.0 if step is None else check_positive(step, "step")
    return gradient_descent(fg, x, alpha=alpha, backtracking=backtracking, tol=tol,
                            max_iter=max_iter)


def minimize_newton(f_grad_hess, x0, tol=1e-10, max_iter=NEWTON_MAXITER):
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
        As in `minimize_gradient_descent`; ``success`` is also True when the iteration stops at
        the floating-point minimiser (see Notes) with the gradient above ``tol``.

    Notes
    -----
    The teaching solver of the recitation notes, there applied to the logistic-regression
    objective of eq. (100) with the Hessian of `logreg_hessian`. The step
    :math:`d = H^{-1} g` (Cholesky solve; least squares if H is singular) is taken as
    :math:`x \leftarrow x - \alpha d` with :math:`\alpha = 1, 1/2, 1/4, \dots` until the Armijo
    condition :math:`f(x - \alpha d) \le f(x) - 10^{-4}\alpha\, g^T d` holds. Near the optimum
    the full step is accepted and convergence is quadratic. There the predicted decrease, the
    Newton decrement :math:`g^T H^{-1} g / 2`, falls below :math:`\sqrt{\epsilon}\,|f|`
    (:math:`\epsilon` the machine epsilon), which the computed :math:`f` no longer resolves
    reliably: the full step is then judged on the gradient, taken as long as it at least halves
    :math:`\|g\|`, and the iteration stops (``success``) at the first step that does not: the
    minimiser to the precision of floating point.
    """
    fgh = _check_fg(f_grad_hess, "f_grad_hess", 3)
    x = _check_x0(x0)
    tol = check_positive(tol, "tol")
    max_iter = check_int(max_iter, "max_iter", low=0)
    return newton(fgh, x, tol, max_iter)


# ------------------------------------------------------------------------------------------------
# binary logistic regression: the models and the trainer


class _LinearScores:
    """``n_features`` and ``scores`` of the binary linear models (fields ``w`` (D,) and ``b``)."""

    w: np.ndarray
    b: float

    @property
    def n_features(self) -> int:
        return self.w.shape[0]

    def scores(self, D) -> np.ndarray:
        r"""Linear scores :math:`s = w^T x + b` of the columns of ``D`` (D, N), shape (N,); class 1
        when :math:`s > 0` (eq. 128; for logistic regression,
        :math:`s = \log P(1 \mid x) / P(0 \mid x)` under the training prior)."""
        X = check_data(D, n_features=self.n_features, allow_1d=True)
        return self.w @ X + self.b


@model
class BinaryLogReg(_LinearScores):
    r"""A trained binary (optionally prior-weighted) logistic-regression model (eq. 100 / 101).

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
        Iterations of the optimiser (for L-BFGS, with the Newton steps that finish it).
    optimizer : str
        The optimiser that ran: ``"lbfgs"``, ``"gd"`` or ``"newton"``.
    solver : str
        How the objective was evaluated: ``"auto"`` (the fast path) or ``"reference"``.
    """

    w: np.ndarray
    b: float
    l: float
    prior: float | None
    prior_log_odds: float
    objective: float
    n_iter: int
    optimizer: str = "lbfgs"
    solver: str = "auto"

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


def train_logreg_binary(D, L, l, prior=None, *, optimizer="lbfgs", tol=_LBFGS_TOL,
                        max_iter=None, newton_finish=None, solver="auto") -> BinaryLogReg:
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
    optimizer : {"lbfgs", "gd", "newton"}
        ``"lbfgs"`` (default): L-BFGS-B from zeros until the largest gradient component is at
        most ``tol`` (``ftol = 0``: no test on the decrease of the objective), then Newton
        steps (see ``newton_finish``). ``"gd"``: `minimize_gradient_descent` with the fixed
        step :math:`1/L_f`, :math:`L_f = \frac14 \lambda_{max}(\sum_i \xi_i \tilde x_i \tilde
        x_i^T) + \lambda` (the gradient's Lipschitz constant); slow when the problem is ill
        conditioned (small lambda, unnormalised features). ``"newton"``: `minimize_newton`
        with `logreg_hessian`. The last two are the teaching solvers of the recitation notes
        and stop at ``tol``.
    tol : float, default 1e-10
        Tolerance on the largest component of the gradient.
    max_iter : int, optional
        Iteration limit: default 1000 (lbfgs), 100000 (gd), 100 (newton).
    newton_finish : bool, optional
        ``"lbfgs"`` only. Refine the L-BFGS solution by Newton steps on the (D + 1, D + 1)
        Hessian until a full step no longer halves the gradient: the minimiser to the precision
        of floating point. Default (None): when forming the Hessian costs at most about 1e9
        multiply-adds (N (D + 1)^2 + (D + 1)^3 / 3; e.g. any iris problem, a digit pair on 50
        PCA features, not raw MNIST).
    solver : {"auto", "reference"}, default "auto"
        How the objective and its gradient are evaluated. ``"reference"``: `_binary_fg`, the
        formula of eq. (100)/(101) on the dense data. ``"auto"``: the same formula (private
        module ``mlpr._logreg_fast``), on data with at most 30% non-zero entries (raw MNIST
        pixels) with the products over the non-zero entries only.
        Both reach the same minimiser (tested); the iterates may differ by rounding. The model
        records it, and the optimiser.

    Returns
    -------
    BinaryLogReg

    Warns
    -----
    ConvergenceWarning
        The returned (w, b) is not the minimiser: the iteration limit was reached with the
        gradient above ``tol``; or L-BFGS stopped without a Newton finish because the objective
        no longer decreased in floating point, with the gradient above ``tol`` (far above for
        badly scaled features); or lambda = 0 and there is no minimiser (the objective still
        decreases along the returned w: the training data, or part of them, are separable; the
        weights would grow without bound). Each message says what to do.

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

    Why a Newton finish: a small gradient does not make a point close to the minimiser when the
    Hessian has small eigenvalues (small lambda): :math:`v - v^* \approx H^{-1} g`, and L-BFGS
    cannot drive :math:`g` much below about 1e-9, where the decrease of the objective falls
    below its rounding error. The Newton step :math:`H^{-1} g` is that distance; one or two of
    them land within about 1e-15 of the minimiser. ``n_iter`` counts the L-BFGS iterations and
    the Newton steps.
    """
    optimizer, solver = _check_switches(optimizer, solver)
    X, L, l, prior, tol, max_iter, finish = _check_binary_training(
        D, L, l, prior, optimizer=optimizer, tol=tol, max_iter=max_iter,
        newton_finish=newton_finish)
    obj = _binary_objective(X, L, l, prior, solver)
    cost = newton_cost(X.shape[1], X.shape[0])
    if finish is None:
        finish = optimizer == "lbfgs" and cost <= _NEWTON_FINISH_COST
    gd_step = _gd_step(X, L, l, prior) if optimizer == "gd" else None
    v, f, nit, stop = solve(obj, np.zeros(X.shape[0] + 1), optimizer=optimizer, tol=tol,
                             max_iter=max_iter, finish=finish, gd_step=gd_step)
    warn_convergence(diagnosis(obj, stop, v, nit, optimizer=optimizer, tol=tol, max_iter=max_iter,
                     newton_cost=cost))
    return BinaryLogReg(w=v[:-1].copy(), b=float(v[-1]), l=l, prior=prior,
                        prior_log_odds=_prior_log_odds(L, prior), objective=f, n_iter=nit,
                        optimizer=optimizer, solver=solver)


# ------------------------------------------------------------------------------------------------
# multiclass (softmax) logistic regression on validated arrays


def _unpack(v: np.ndarray, dim: int, K: int) -> tuple[np.ndarray, np.ndarray]:
    """W (D, K) and b (K,) of v = [w_0; w_1; ...; w_{K-1}; b] (views)."""
    return v[: dim * K].reshape((dim, K), order="F"), v[dim * K :]


def _pack(W: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.concatenate([W.ravel(order="F"), b])


def _lse_and_posteriors(S: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """log sum_k e^{s_ki} and the posteriors y_ki = e^{s_ki} / sum_k e^{s_ki} of the (K, N)
    scores, from one exponential shifted by the column maximum (no overflow)."""
    m = S.max(axis=0)
    E = np.exp(S - m)
    total = E.sum(axis=0)
    return m + np.log(total), E / total


def _multi_fg(v: np.ndarray, X: np.ndarray, L: np.ndarray, K: int, l: float):
    """Objective and gradient of the multiclass objective at v = [vec(W); b]:
    J = l/2 |W|^2 - 1/n sum_i log y_{c_i i}, grad_W = l W + X (Y - T)^T / n,
    grad_b = (Y - T) 1 / n."""
    n = X.shape[1]
    W, b = _unpack(v, X.shape[0], K)
    S = W.T @ X + b[:, None]  # s_ki = w_k^T x_i + b_k
    lse, Y = _lse_and_posteriors(S)
    own = (L, np.arange(n))  # the entries (c_i, i): the true class of each sample
    f = (lse.sum() - S[own].sum()) / n + 0.5 * l * np.sum(W * W)  # log y_ci = s_ci - lse_i
    Y[own] -= 1.0  # Y - T, T the one-hot labels t_ki = [c_i = k]
    Y /= n
    # X (Y - T)^T, computed as ((Y - T) X^T)^T: the same sums, and BLAS runs this orientation up
    # to 4x faster when X is a transposed (column-major) array, as `load_mnist`'s images are
    G = (Y @ X.T).T
    return float(f), _pack(G + l * W, Y.sum(axis=1))  # the biases are not regularised


def _multi_hessian(v: np.ndarray, X: np.ndarray, K: int, l: float) -> np.ndarray:
    """Hessian of the multiclass objective at v = [vec(W); b], in the order of v.

    Block (k, j) over w~_k = [w_k; b_k] is sum_i y_ki ([k = j] - y_ji) x~_i x~_i^T / n, plus
    lambda I on the weights of the diagonal blocks (the biases are not regularised)."""
    dim, n = X.shape
    W, b = _unpack(v, dim, K)
    S = W.T @ X + b[:, None]
    Y = np.exp(S - logsumexp(S, axis=0))  # posteriors y_ki
    Xa = _with_ones(X)  # x~_i = [x_i; 1]
    at = [np.append(np.arange(k * dim, (k + 1) * dim), dim * K + k) for k in range(K)]  # w~_k
    H = np.empty((v.size, v.size))
    for k in range(K):
        for j in range(k, K):
            h = Y[k] * (float(k == j) - Y[j]) / n  # d^2 J / ds_ki ds_ji
            B = (Xa * h) @ Xa.T
            H[np.ix_(at[k], at[j])] = B
            H[np.ix_(at[j], at[k])] = B.T
    weights = np.arange(dim * K)
    H[weights, weights] += l
    return H


def _multinewton_direction(dim: int, K: int, l: float):
    """d = H^{-1} g for the multiclass Hessian, which is singular: adding one vector to every
    b_k (and, with lambda = 0, to every w_k) does not change the posteriors. The gradient is
    orthogonal to these directions, and so is the step: H + E C E' (E an orthonormal basis of
    them, C > 0 diagonal) is positive definite and gives the same step as H on their
    complement."""
    shifts = [dim * K + np.arange(K)]  # the biases
    if l == 0.0:
        shifts += [j + dim * np.arange(K) for j in range(dim)]  # feature j of every w_k
    E = np.zeros((dim * K + K, len(shifts)))
    for col, rows in enumerate(shifts):
        E[rows, col] = 1.0 / np.sqrt(K)

    def direction(H: np.ndarray, g: np.ndarray) -> np.ndarray:
        h = np.diag(H)  # each direction weighted like the curvature of its own parameters
        curv = np.array([max(float(h[rows].mean()), np.finfo(float).tiny) for rows in shifts])
        return newton_direction(H + (E * curv) @ E.T, g)

    return direction


def _multiclass_objective(X: np.ndarray, L: np.ndarray, K: int, l: float) -> Objective:
    """The multiclass objective on the training data, for the solvers."""
    own = (L, np.arange(L.size))

    def fg(v):
        return _multi_fg(v, X, L, K, l)

    def fgh(v):
        return fg(v) + (_multi_hessian(v, X, K, l),)

    def separated(v):  # every sample's own class strictly ahead of all the others
        W, b = _unpack(v, X.shape[0], K)
        S = W.T @ X + b[:, None]
        s_own = S[own]
        S[own] = -np.inf
        return bool(np.all(s_own > S.max(axis=0)))

    return Objective(fg, fgh, _multinewton_direction(X.shape[0], K, l), separated, X, K, l)


def _representative(v: np.ndarray, dim: int, K: int, l: float):
    """W, b of v shifted to sum_k b_k = 0 (and, with lambda = 0, sum_k w_k = 0): a common shift
    changes no posterior, and the solvers keep the zero sum only up to their rounding drift."""
    W, b = _unpack(v.copy(), dim, K)
    b -= b.mean()
    if l == 0.0:
        W -= W.mean(axis=1, keepdims=True)
    return W, b


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
    Multiclass logistic regression of section 6.2 of the MLPR notes, eq. (113) and (116)-(119)
    (the softmax regression of the short notes 004); with K = 2 it is the binary objective of
    eq. (100) in :math:`w_1 - w_0` (see `train_logreg_multiclass`). With :math:`s_{ki} = w_k^T
    x_i + b_k`, :math:`y_{ki} = e^{s_{ki}} / \sum_{k'} e^{s_{k'i}}` and :math:`t_{ki} = [c_i =
    k]`,

    .. math::

        J(W, b) = \frac{\lambda}{2}\|W\|^2 - \frac{1}{n}\sum_{i=1}^n \log y_{c_i i}, \qquad
        \nabla_W J = \lambda W + \frac{1}{n} X (Y - T)^T, \quad
        \nabla_b J = \frac{1}{n} (Y - T) \mathbf{1} .

    :math:`\log y` comes from a log-sum-exp, so no score overflows. The private core is
    ``_multi_fg``.
    """
    l = check_lambda(l)
    X, L, K = check_multiclass(D, L, "multiclass logistic regression", scale=True)
    fg = _multiclass_objective(X, L, K, l).fg
    P = X.shape[0] * K + K

    def obj(v):
        return fg(_check_v(v, P, "[vec(W); b]"))

    return obj


@model
class MulticlassLogReg:
    r"""A trained multiclass (softmax) logistic-regression model (notes section 6.2, eq. 112).

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
        L-BFGS iterations, with the Newton steps that finish them.

    Notes
    -----
    With K = 2, ``scores(D)[1] - scores(D)[0]`` is the score :math:`w^T x + b` of the binary
    model of eq. (100) trained with lambda / 2 (see `train_logreg_multiclass`).
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
            p = check_class_priors(priors, self.n_classes)
            with np.errstate(divide="ignore"):
                S = S + (np.log(p) - np.log(self.class_priors))[:, None]
        return S - logsumexp(S, axis=0, keepdims=True)


def train_logreg_multiclass(D, L, l, *, tol=_LBFGS_TOL, max_iter=_LBFGS_MAXITER,
                            newton_finish=None) -> MulticlassLogReg:
    r"""Train multiclass (softmax) logistic regression by L-BFGS, finished by Newton steps.

    Parameters
    ----------
    D : array_like, shape (D, N)
        Training samples.
    L : array_like, shape (N,)
        Labels 0..K-1, every class present, K >= 2.
    l : float
        lambda >= 0, multiplying :math:`\frac{1}{2}\|W\|_F^2`; the biases are not regularised.
    tol : float, default 1e-10
        Tolerance on the largest gradient component (L-BFGS-B ``gtol``; ``ftol = 0``).
    max_iter : int, default 1000
        L-BFGS iteration limit (about 3 minutes on raw MNIST, 60,000 x 784, on one core).
    newton_finish : bool, optional
        Refine the L-BFGS solution by Newton steps on the (K (D + 1), K (D + 1)) Hessian to the
        minimiser in floating point, as in `train_logreg_binary`. Default (None): when that
        costs at most about 1e9 multiply-adds (N (D + 1)^2 K (K + 1) / 2 + (K (D + 1))^3 / 3;
        e.g. iris, not MNIST).

    Returns
    -------
    MulticlassLogReg

    Warns
    -----
    ConvergenceWarning
        As in `train_logreg_binary`: iteration limit reached with the gradient above ``tol``;
        L-BFGS stopped without a Newton finish with the gradient above ``tol`` (on raw MNIST
        with the defaults: about 1e-9, the objective no longer decreasing in floating point);
        lambda = 0 and no minimiser (separable data).

    Notes
    -----
    Multiclass logistic regression of section 6.2 of the MLPR notes, eq. (119): minimises the
    mean cross-entropy (eq. 117) plus :math:`\frac{\lambda}{2}\|W\|^2` from W = 0, b = 0 (see
    `logreg_multiclass_obj_wrap`):

    .. math::

        J(W, b) = \frac{\lambda}{2}\|W\|^2 - \frac{1}{n}\sum_{i} \left(s_{c_i i}
            - \log\sum_k e^{s_{ki}}\right), \qquad s_{ki} = w_k^T x_i + b_k .

    Only the differences :math:`w_k - w_{k'}` matter to the posteriors (the model is
    over-parametrised): adding the same vector to every :math:`w_k` (when lambda = 0) or the
    same number to every :math:`b_k` changes nothing. The trainer returns the representative
    with :math:`\sum_k b_k = 0` (and :math:`\sum_k w_k = 0`, which holds at the optimum when
    lambda > 0), so that the solution is unique. With K = 2,
    :math:`w_1 - w_0` and :math:`b_1 - b_0` are the binary model of eq. (100) trained with
    lambda / 2. The Hessian, with :math:`\tilde x = [x; 1]`, has the blocks
    :math:`\frac1n \sum_i y_{ki}([k = k'] - y_{k'i})\, \tilde x_i \tilde x_i^T` (plus
    :math:`\lambda I` on the weights of the diagonal blocks).
    """
    l = check_lambda(l)
    tol = check_positive(tol, "tol")
    max_iter = check_int(max_iter, "max_iter", low=1)
    finish = _check_newton_finish(newton_finish)
    X, L, K = check_multiclass(D, L, "train_logreg_multiclass", scale=True)
    dim, n = X.shape
    obj = _multiclass_objective(X, L, K, l)
    cost = newton_cost(n, dim, K)
    if finish is None:
        finish = cost <= _NEWTON_FINISH_COST
    v, f, nit, stop = solve(obj, np.zeros(dim * K + K), optimizer="lbfgs", tol=tol,
                             max_iter=max_iter, finish=finish)
    W, b = _representative(v, dim, K, l)
    v = _pack(W, b)
    f = obj.fg(v)[0]
    warn_convergence(diagnosis(obj, stop, v, nit, optimizer="lbfgs", tol=tol, max_iter=max_iter,
                     newton_cost=cost))
    priors = np.bincount(L, minlength=K) / L.size
    return MulticlassLogReg(W=W.copy(), b=b.copy(), l=l, class_priors=priors, objective=f,
                            n_iter=nit)


# ------------------------------------------------------------------------------------------------
# quadratic features, eq. (121)


def _quadratic_features(X: np.ndarray) -> np.ndarray:
    """phi(x) = [vec(x x^T); x] of every column (eq. 121); row j*D + i of vec is x_i x_j."""
    dim, n = X.shape
    return np.vstack([np.einsum("jn,in->jin", X, X).reshape(dim * dim, n), X])  # eq. (121)


def _quadratic_features_once(X: np.ndarray) -> np.ndarray:
    """[x_i x_j for i <= j, times sqrt(2) when i < j; x]: phi~(x)' phi~(y) = phi(x)' phi(y)."""
    i, j = np.triu_indices(X.shape[0])
    scale = np.where(i == j, 1.0, np.sqrt(2.0))[:, None]
    return np.vstack([X[i] * X[j] * scale, X])


def expand_quadratic(D) -> np.ndarray:
    r"""Map each sample to the quadratic features :math:`\phi(x) = [\mathrm{vec}(x x^T); x]`.

    Parameters
    ----------
    D : array_like, shape (D, N)

    Returns
    -------
    ndarray, shape (D^2 + D, N)
        Rows ``j*D + i`` (for i, j < D) hold :math:`x_i x_j`, the last D rows hold x.

    Warns
    -----
    UserWarning
        ``D`` has fewer samples (columns) than features (rows), the usual sign of an (N, D)
        matrix passed for a (D, N) one (`mlpr._validation.warn_if_transposed`): pass ``D.T``.

    Notes
    -----
    Eq. (121) of the notes. ``vec`` stacks the columns of :math:`x x^T` (column-major, as
    ``numpy.outer(x, x).ravel(order="F")``); the matrix is symmetric, so row-major order gives
    the same vector. A linear model on :math:`\phi(x)`, :math:`s = w^T\phi(x) + c
    = x^T A x + b^T x + c`, has quadratic decision boundaries. The off-diagonal products appear
    twice (D^2 rather than D(D+1)/2 features), as in the notes. One einsum, no loop over
    samples.
    """
    return _quadratic_features(check_scale(check_data(D, unlabelled=True), n_terms=1))


def expand_quadratic_symmetric(D) -> np.ndarray:
    r"""Quadratic features, each product once: ``[x_i x_j (i <= j, sqrt(2) x if i < j); x]``.

    Parameters
    ----------
    D : array_like, shape (D, N)

    Returns
    -------
    ndarray, shape (D (D + 1) / 2 + D, N)
        Rows in the order of ``numpy.triu_indices(D)``, then ``x``.

    Warns
    -----
    UserWarning
        Fewer samples than features, as in `expand_quadratic`.

    Notes
    -----
    :math:`\operatorname{vec}(xx^T)` of eq. (121) holds every off-diagonal product twice. Keeping
    it once, scaled by :math:`\sqrt 2`, preserves every inner product,
    :math:`\tilde\phi(x)^T \tilde\phi(y) = \phi(x)^T \phi(y)`, so an L2-regularised linear model
    (logistic regression, SVM) reaches the same objective and the same scores with about half
    the features.
    """
    # n_terms=2: the product sqrt(2) x_i x_j must not overflow either
    return _quadratic_features_once(check_scale(check_data(D, unlabelled=True), n_terms=2))


# ------------------------------------------------------------------------------------------------
# the perceptron (notes 003, section 6.2.4)


@model
class Perceptron(_LinearScores):
    r"""A trained perceptron (notes 003, section 6.2.4).

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

    Notes
    -----
    ``scores(D)`` gives :math:`s = w^T x + b`; the decision is class 1 when :math:`s > 0`
    (eq. 128), the library's one rule, also for a sample that training left on the boundary.
    """

    w: np.ndarray
    b: float
    epochs: int
    converged: bool
    n_updates: int


def _perceptron_epoch(Y: np.ndarray, wt: np.ndarray, order: np.ndarray, eta: float) -> int:
    """One pass over the rows Y[n] = t_n phi_n^T in ``order``, updating w~ in place; the number
    of mistakes."""
    mistakes = 0
    for i in order:
        if Y[i] @ wt <= 0.0:  # t_n w~^T phi_n <= 0: misclassified (or on the boundary)
            wt += eta * Y[i]  # w~ <- w~ + eta phi_n t_n
            mistakes += 1
    return mistakes


def _perceptron(X: np.ndarray, t: np.ndarray, max_epochs: int, rng, eta: float):
    """The perceptron's epochs from w~ = 0 until one makes no update; ``(w~, epochs, converged,
    updates)`` with w~ = [w; b]."""
    dim, n = X.shape
    Y = np.empty((n, dim + 1))  # row n: t_n phi_n^T, contiguous for the per-sample dot products
    Y[:, :dim] = X.T * t[:, None]
    Y[:, dim] = t
    wt = np.zeros(dim + 1)
    updates = 0
    for epoch in range(1, max_epochs + 1):
        mistakes = _perceptron_epoch(Y, wt, rng.permutation(n), eta)
        updates += mistakes
        if mistakes == 0:
            return wt, epoch, True, updates
    return wt, max_epochs, False, updates


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
    The perceptron of the short notes 003, section 6.2.4. With :math:`\phi_n = [x_n; 1]`,
    :math:`\tilde w = [w; b]` (zero at the start) and :math:`t_n = 2c_n - 1`, each epoch visits
    the samples in a random order and, for every misclassified one
    (:math:`t_n \tilde w^T \phi_n \le 0`, so a sample on the boundary counts as a mistake),

    .. math:: \tilde w \leftarrow \tilde w + \eta\, \phi_n t_n .

    Training stops after the first epoch without updates. The update rule treats a sample on
    the boundary (:math:`\tilde w^T \phi_n = 0`) as a mistake whatever its class, so that
    training moves off it; the model's decisions follow the library's one rule, class 1 when
    :math:`s = w^T x + b > 0` (eq. 128), so such a sample is decided class 0 (the training error
    in the warning counts those decisions). The perceptron convergence theorem
    guarantees this happens after finitely many updates when the data are linearly separable.
    The loop over the samples is the algorithm itself (each decision depends on the previous
    updates); each step is one dot product with a precomputed row :math:`t_n \phi_n^T`. The
    private core is ``_perceptron``.
    """
    X, L = check_binary(D, L, "train_perceptron", scale=True)
    max_epochs = check_int(max_epochs, "max_epochs", low=1)
    rng = check_rng(rng)
    eta = check_positive(eta, "eta")
    wt, epochs, converged, updates = _perceptron(X, 2.0 * L - 1.0, max_epochs, rng, eta)
    w, b = wt[:-1].copy(), float(wt[-1])
    if not converged:
        err = float(np.mean(((X.T @ w + b) > 0.0) != (L == 1)))  # class 1 iff s > 0 (eq. 128)
        warn_convergence(f"the perceptron did not converge in max_epochs = {max_epochs} epochs "
                         f"(training error {100 * err:.2f}% after the last update): the data may "
                         f"not be linearly separable; increase max_epochs, or use logistic "
                         f"regression or an SVM")
    return Perceptron(w=w, b=b, epochs=epochs, converged=converged, n_updates=updates)
