r"""The optimisers behind `mlpr.logreg` and the diagnosis of where they stopped.

Private: `mlpr.logreg` is the chapter (the objectives of section 6 of the notes, their gradients
and Hessians, the models and the trainers); this module holds the numerical engineering that
minimises them: the two teaching solvers of the recitation notes (gradient descent with a fixed or
Armijo step, damped Newton with a Jacobi-scaled Cholesky step), L-BFGS-B stopped by the gradient
tolerance alone, the Newton finish to the floating-point minimiser (`solve`), and the message of
the ``ConvergenceWarning`` when the returned point is not the minimiser (`diagnosis`). Everything
here assumes valid input and never imports `mlpr.logreg`: an objective arrives as an `Objective`,
its callables ``v -> (f, grad)`` and ``v -> (f, grad, H)`` with what the diagnosis needs. The
public entry points `mlpr.logreg.minimize_gradient_descent` and `mlpr.logreg.minimize_newton`
validate their arguments and call `gradient_descent` and `newton`; ``tests/test_logreg.py`` holds
every optimiser to the same minimiser and to a Newton iteration written out in the test.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import scipy.linalg
import scipy.optimize

from .utils import ConvergenceWarning

__all__ = [
    "NEWTON_MAXITER",
    "Objective",
    "grad_norm",
    "gradient_descent",
    "newton_direction",
    "newton",
    "solve",
    "newton_cost",
    "diagnosis",
    "warn_convergence",
]

NEWTON_MAXITER = 100  # Newton steps of the teaching solver and of the finish
_EPS = np.finfo(np.float64).eps
_SQRT_EPS = float(np.sqrt(_EPS))
_ARMIJO = 1e-4  # sufficient-decrease constant of the backtracking line searches
_HALVINGS = 60  # a line search gives up after this many halvings of the step
_OPTIMIZER_NAMES = {"lbfgs": "L-BFGS", "gd": "gradient descent", "newton": "Newton's method"}
_NEWTON_FINISH_AFFORDABLE = 1e11  # about a minute per step: worth suggesting in a warning
# L-BFGS stopped (line search) with a gradient component larger than this (or than tol) in the
# units of features scaled to [-1, 1] is far from the optimum: typically features of very
# different or extreme scales
_STALL_RTOL = 1e-4
_TOL_REACHED = "gradient tolerance reached"
_LIMIT_REACHED = "maximum number of iterations reached"
_NO_DECREASE = "line search failed: no decrease representable in floating point"


class Objective(NamedTuple):
    """What the optimisers need of a training objective of v (binary: [w, b]; multiclass:
    [vec(W); b])."""

    fg: Callable  # v -> (f, grad)
    fgh: Callable  # v -> (f, grad, Hessian)
    direction: Callable  # (H, g) -> the Newton step H^{-1} g
    separated: Callable  # v -> every training sample strictly on its own side
    X: np.ndarray  # the (D, N) training data
    K: int  # weight vectors in v: 1 (binary) or K (multiclass)
    l: float


# ------------------------------------------------------------------------------------------------
# teaching solvers (recitation notes): gradient descent and damped Newton


def grad_norm(g: np.ndarray) -> float:
    return float(np.max(np.abs(g))) if g.size else 0.0


def _result(x, f, g, nit, nfev, converged, message):
    return scipy.optimize.OptimizeResult(
        x=x, fun=f, jac=g, nit=nit, nfev=nfev, success=converged, message=message
    )


def _final(x, f, g, nit: int, nfev: int, tol: float):
    """The result when the iteration limit is reached (met or not, the tolerance decides)."""
    ok = grad_norm(g) <= tol
    return _result(x, f, g, nit, nfev, ok, _TOL_REACHED if ok else _LIMIT_REACHED)


def _armijo(fg, x: np.ndarray, f: float, d: np.ndarray, decrease: float, a: float):
    """Backtracking along -d: the first of the steps a, a/2, a/4, ... with
    f(x - a d) <= f(x) - 1e-4 a decrease (Armijo). Returns ``((a, x - a d, fg(x - a d)), n)``
    after n evaluations, or ``(None, _HALVINGS)`` when no step decreases f in floating point."""
    for k in range(_HALVINGS):
        xn = x - a * d
        out = fg(xn)
        if out[0] <= f - _ARMIJO * a * decrease:  # Armijo sufficient decrease
            return (a, xn, out), k + 1
        a *= 0.5
    return None, _HALVINGS


def gradient_descent(fg, x: np.ndarray, *, alpha: float, backtracking: bool, tol: float,
                     max_iter: int):
    """x <- x - alpha g, with a fixed alpha or the Armijo step (the next search starting from
    twice the accepted one); an OptimizeResult."""
    f, g = fg(x)
    nfev = 1
    for it in range(max_iter):
        if grad_norm(g) <= tol:
            return _result(x, f, g, it, nfev, True, _TOL_REACHED)
        if not backtracking:
            x = x - alpha * g
            f, g = fg(x)
            nfev += 1
            if not np.isfinite(f):
                return _result(x, f, g, it + 1, nfev, False, "diverged: step too large")
            continue
        step, evals = _armijo(fg, x, f, g, float(g @ g), alpha)
        nfev += evals
        if step is None:
            return _result(x, f, g, it, nfev, grad_norm(g) <= tol, _NO_DECREASE)
        a, x, (f, g) = step
        alpha = 2.0 * a
    return _final(x, f, g, max_iter, nfev, tol)


def newton_direction(H: np.ndarray, g: np.ndarray) -> np.ndarray:
    """d = H^{-1} g by Cholesky on the Jacobi-scaled S H S (S = diag(H)^{-1/2}), which takes the
    units of the features out of its conditioning; least squares when H is singular (lambda = 0,
    collinear features)."""
    h = np.diag(H)
    s = np.where(h > 0.0, 1.0 / np.sqrt(np.where(h > 0.0, h, 1.0)), 1.0)
    try:
        with warnings.catch_warnings():  # an inaccurate step is caught by the Newton tests
            warnings.simplefilter("ignore", scipy.linalg.LinAlgWarning)
            return s * scipy.linalg.solve(H * s[:, None] * s, s * g, assume_a="pos")
    except (np.linalg.LinAlgError, ValueError):
        return np.linalg.lstsq(H, g, rcond=None)[0]


def newton(fgh, x: np.ndarray, tol: float, max_iter: int, direction=newton_direction):
    """Damped Newton from x on a trusted ``fgh(x) -> (f, g, H)``; an OptimizeResult.

    Two regimes. Far from the optimum, the step x - a d (d = H^{-1} g) is accepted when it passes
    the Armijo test on f. Close to it, the decrease g'd / 2 that the step promises is below
    sqrt(eps) |f|, which f, a sum of n rounded terms, no longer resolves reliably; convergence
    is quadratic there and the full step is judged on the gradient instead: accepted if it at
    least halves |g|. When it does not, x is the minimiser to the precision of floating point
    (``success``).
    """
    f, g, H = fgh(x)
    nfev = 1
    for it in range(max_iter):
        if grad_norm(g) <= tol:
            return _result(x, f, g, it, nfev, True, _TOL_REACHED)
        d = direction(H, g)
        decrease = float(g @ d)  # twice the Newton decrement
        if not decrease > 0.0:
            d, decrease = g, float(g @ g)  # not a descent direction: fall back to the gradient
        if 0.5 * decrease <= _SQRT_EPS * max(abs(f), 1.0):  # f cannot judge the step
            xn = x - d
            out = fgh(xn)
            nfev += 1
            if not np.linalg.norm(out[1]) <= 0.5 * np.linalg.norm(g):
                return _result(x, f, g, it, nfev, True, "minimiser to floating-point precision: "
                               "a full Newton step no longer halves the gradient")
        else:
            step, evals = _armijo(fgh, x, f, d, decrease, 1.0)
            nfev += evals
            if step is None:
                return _result(x, f, g, it, nfev, grad_norm(g) <= tol, _NO_DECREASE)
            _, xn, out = step
        x, (f, g, H) = xn, out
    return _final(x, f, g, max_iter, nfev, tol)


# ------------------------------------------------------------------------------------------------
# the trainers' solver: L-BFGS, then Newton steps to the minimiser; diagnostics


def _lbfgs(fg, x0: np.ndarray, tol: float, max_iter: int):
    """L-BFGS-B with the analytic gradient, stopped by the gradient tolerance alone (ftol = 0).

    Returns ``(x, f, nit, stop)``; ``stop`` is "tol" (largest gradient component <= tol),
    "limit" (iteration cap first) or "floor" (the line search could not decrease f any further
    in floating point, the gradient still above tol).
    """
    res = scipy.optimize.minimize(
        fg, x0, jac=True, method="L-BFGS-B",
        options={"ftol": 0.0, "gtol": tol, "maxiter": max_iter, "maxfun": 10 * max_iter + 20},
    )
    if grad_norm(res.jac) <= tol:
        stop = "tol"
    else:  # status 1: iteration or evaluation cap; otherwise no decrease of f representable
        stop = "limit" if res.status == 1 else "floor"
    return res.x, float(res.fun), int(res.nit), stop


def _run_optimizer(obj: Objective, v0: np.ndarray, *, optimizer: str, tol: float,
                   max_iter: int, gd_step: float | None):
    """``(v, f, n_iter, stop)`` of one optimiser from v0, ``stop`` as in `_lbfgs`."""
    if optimizer == "lbfgs":
        return _lbfgs(obj.fg, v0, tol, max_iter)
    if optimizer == "gd":
        res = gradient_descent(obj.fg, v0, alpha=gd_step, backtracking=False, tol=tol,
                               max_iter=max_iter)
    else:
        res = newton(obj.fgh, v0, tol, max_iter, obj.direction)
    stop = "tol" if res.success else "limit" if res.message == _LIMIT_REACHED else "floor"
    return res.x, float(res.fun), int(res.nit), stop


def _relative_gradient(g: np.ndarray, X: np.ndarray, K: int = 1) -> float:
    """Largest component of the gradient g = [weights; biases] (weights of K classes stored
    one class after the other, as in `_unpack`) in the units of features scaled to
    [-1, 1]: whatever the units of the features, it is 0 at an optimum."""
    dim = X.shape[0]
    # the feature's own unit, max |x_fi|, without an (D, N) temporary
    scale = np.maximum(X.max(axis=1), -X.min(axis=1)) if X.shape[1] else np.zeros(dim)
    gw = np.abs(g[: dim * K]).reshape((dim, K), order="F")
    with np.errstate(divide="ignore", invalid="ignore"):
        rw = np.where(gw > 0.0, gw / scale[:, None], 0.0)  # an all-zero feature has g = 0
    return float(max(rw.max(initial=0.0), np.abs(g[dim * K :]).max(initial=0.0)))


def _stalled(stop: str, g: np.ndarray, obj: Objective, tol: float) -> bool:
    """The solver stopped short of the tolerance far from the optimum, typically because the
    features have very different or extreme scales."""
    return stop == "floor" and _relative_gradient(g, obj.X, obj.K) > max(_STALL_RTOL, tol)


def _no_minimiser(obj: Objective, v: np.ndarray, f: float, stop: str, tol: float):
    """With lambda = 0: "separable" (every sample on its side of the boundary) or "unbounded"
    (the objective still decreases along the ray through v), else None."""
    if obj.l != 0.0:
        return None
    if obj.separated(v):
        return "separable"
    # along the ray the objective still decreases (unless v is far from the optimum for
    # another reason, a stalled solver)
    if not _stalled(stop, obj.fg(v)[1], obj, tol) and obj.fg(2.0 * v)[0] < f * (1.0 - 1e-6):
        return "unbounded"
    return None


def solve(obj: Objective, v0: np.ndarray, *, optimizer: str, tol: float, max_iter: int,
          finish: bool, gd_step: float | None = None):
    """Minimise from v0 with ``optimizer``, then (``finish``) Newton steps to the floating-point
    minimiser.

    Returns ``(v, f, n_iter, stop)``: ``stop`` as in `_lbfgs`, or "newton" (the finish reached
    the minimiser), "finish-limit" / "finish-stalled" (it did not, within NEWTON_MAXITER
    steps / far from the optimum), or "separable" / "unbounded" (lambda = 0 and no minimiser
    exists: the training data, or part of them, are linearly separable; no finish then).
    """
    v, f, nit, stop = _run_optimizer(obj, v0, optimizer=optimizer, tol=tol, max_iter=max_iter,
                                     gd_step=gd_step)
    unbounded = _no_minimiser(obj, v, f, stop, tol)
    if unbounded:
        return v, f, nit, unbounded
    if finish:
        res = newton(obj.fgh, v, 0.0, NEWTON_MAXITER, obj.direction)
        v, f, nit = res.x, float(res.fun), nit + int(res.nit)
        stop = "newton" if res.success else "finish-limit"
        if stop == "newton" and _stalled("floor", res.jac, obj, tol):
            stop = "finish-stalled"  # the Hessian too ill-conditioned for its steps
    return v, f, nit, stop


def newton_cost(n: int, dim: int, K: int = 1) -> float:
    """Multiply-adds of one Newton step: forming the Hessian (K(K+1)/2 blocks of n (dim + 1)^2)
    and solving with it ((K (dim + 1))^3 / 3)."""
    P = K * (dim + 1)
    return float(n * (dim + 1) ** 2 * (K * (K + 1) // 2) + P**3 / 3)


def diagnosis(obj: Objective, stop: str, v: np.ndarray, nit: int, *, optimizer: str, tol: float,
              max_iter: int, newton_cost: float) -> str | None:
    """Why the parameters v returned after ``stop`` are not the minimiser, and what to do; None
    when they are (``newton_cost``: multiply-adds of a Newton step, to say whether
    newton_finish=True is a sensible remedy)."""
    name = _OPTIMIZER_NAMES[optimizer]
    if stop in ("tol", "newton"):
        return None
    if stop in ("separable", "unbounded"):
        what = ("the training data are linearly separable (every sample is classified "
                "correctly)" if stop == "separable" else
                "the objective keeps decreasing along the direction of the weights (the data "
                "are separable on part of the samples)")
        return (f"lambda = 0 and {what}: the objective has no minimiser and the weights grow "
                f"without bound; {name} stopped at |[w, b]| = {np.linalg.norm(v):.3g} after "
                f"{nit} iterations. Use l > 0 for a unique solution")
    g = obj.fg(v)[1]
    if stop == "limit":
        return (f"{name} reached the iteration limit max_iter = {max_iter} with the largest "
                f"gradient component {grad_norm(g):.3g} above tol = {tol:g}, short of the "
                f"minimiser; increase max_iter or tol, or make the problem better conditioned "
                f"(z-normalise the features with mlpr.utils.fit_znorm, or a larger l)")
    if stop in ("finish-limit", "finish-stalled"):
        why = (f"in {NEWTON_MAXITER} steps" if stop == "finish-limit" else
               "(the Hessian is too ill-conditioned)")
        return (f"the Newton steps after {name} did not reach the minimiser {why}: largest "
                f"gradient component {_relative_gradient(g, obj.X, obj.K):.3g} for features "
                f"scaled to [-1, 1]; z-normalise the features (mlpr.utils.fit_znorm) or use a "
                f"larger l")
    return _short_of_tolerance(obj, g, nit, name=name, tol=tol,
                               hint=_finish_hint(optimizer, v.size, newton_cost))


def _finish_hint(optimizer: str, P: int, newton_cost: float) -> str:
    if optimizer == "lbfgs" and newton_cost <= _NEWTON_FINISH_AFFORDABLE:
        return f"pass newton_finish=True (Newton steps on the {P} x {P} Hessian)"
    return (f"reduce the dimension (e.g. PCA) so that Newton steps on the Hessian become "
            f"affordable (now {P} x {P})")


def _short_of_tolerance(obj: Objective, g: np.ndarray, nit: int, *, name: str, tol: float,
                        hint: str) -> str:
    """The message when the solver stopped with the gradient above tol: far from the optimum
    (badly scaled features) or at the floating-point floor of the objective."""
    if _stalled("floor", g, obj, tol):
        return (f"{name} stopped after {nit} iterations away from the optimum (largest gradient "
                f"component {_relative_gradient(g, obj.X, obj.K):.3g}, for features scaled to "
                f"[-1, 1]): the features are probably badly scaled (largest |value| "
                f"{float(np.abs(obj.X).max()):.3g}); z-normalise them (mlpr.utils.fit_znorm) and "
                f"train again, or {hint}")
    gmax = grad_norm(g)
    return (f"{name} stopped after {nit} iterations with the largest gradient component "
            f"{gmax:.3g} above tol = {tol:g}: the objective no longer decreases in floating "
            f"point, so the result is close to, not at, the minimiser. To accept this "
            f"precision, pass a larger tol (e.g. {10 * gmax:.0e}); for the exact minimiser, "
            f"{hint}")


def warn_convergence(message: str | None) -> None:
    """A ConvergenceWarning (if ``message``), shown at the line that called the trainer."""
    if message:
        warnings.warn(message, ConvergenceWarning, stacklevel=3)
