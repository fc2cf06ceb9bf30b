r"""Comparing an optimiser's answer: by the objective at the student's point, never first by its
parameters, and drawing only the cases the labs' own optimiser solves.

A student's L-BFGS-B point may differ from the minimiser in flat directions while being optimal to
the tolerance: logistic regression, the SVMs and EM to convergence are judged by the objective
there (and the optimality condition), and an early stop is named with what was measured.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.optimize

from mlpr.grading.course.forms import w_and_b
from mlpr.grading.course.records import Run
from mlpr.grading.course.shared import binary
from mlpr.grading.framework import Comparison, Fail, KitError, Mistake, as_array, binary_split
from mlpr.logreg import logreg_obj_wrap, train_logreg_binary

__all__ = ["RTOL_OBJECTIVE", "RTOL_SVM_LINEAR", "GRAD_TOL", "RTOL_EM", "NEAR_OPTIMUM",
           "LIKELY_EARLY", "SVM_STOP", "LR_STOP", "FAIR_MARGIN", "MAX_DRAWS", "objective",
           "near", "early_stop", "one_over_N", "labs_dual", "labs_ensemble", "conditioned",
           "fair_draws", "ENSEMBLE"]

#: Relative objective tolerance of logistic regression: a course-style L-BFGS-B (analytic gradient,
#: ``factr=1.0``, the default ``pgtol=1e-5``) stops 3e-11 to 4e-10 above mlpr's minimum on the
#: fixed cases, but up to 2.8e-7 on the seeded ones at lambda = 1e-3 (20 seeds: its gradient
#: reaches pgtol first on these ill-conditioned problems); the known mistakes of the objective sit
#: 0.04 and more above it. The optimality condition (`GRAD_TOL`) is checked as well.
RTOL_OBJECTIVE = 1e-5
#: Relative primal objective tolerance of the labs' linear SVM: a course-style L-BFGS-B on the dual
#: (``factr=1.0``) stops up to 2.8e-6 above the minimum over 60 seeded cases (10 times below); the
#: default ``factr=1e7`` stops 1.3e-4 and more above it.
RTOL_SVM_LINEAR = 3e-5
#: Largest gradient entry accepted at a student's LR point. The labs' own LR code (one
#: fmin_l_bfgs_b call with scipy's default factr = 1e7, which stops on the objective's relative
#: decrease, not on pgtol) leaves gradients up to 1.3e-4 on the kit's cases (800 cases of 200
#: seeds: median 3.8e-6, 99th percentile 4.8e-5): 7.5 times below.
GRAD_TOL = 1e-3
#: GMM log-densities after EM to convergence (the stopping rule leaves ~1e-8 differences).
RTOL_EM = 1e-6



def objective(f, opt: float, rtol: float = RTOL_OBJECTIVE, grad_tol: float | None = None):
    r"""Compare an optimiser's point by its objective: ``(f(v) - f*) / |f*| <= rtol``.

    ``f(v)`` returns the objective, or ``(objective, gradient)``; ``opt`` is mlpr's minimum. The
    measured error is the relative excess of the student's objective (a point below mlpr's
    minimum passes). With ``grad_tol``, the optimality condition at the student's point is
    checked too: the largest gradient entry at most ``grad_tol``.
    """

    def compare(got, expected) -> Comparison:
        v = as_array(got)
        out = f(v)
        val = float(out[0] if isinstance(out, tuple) else out)
        if not np.isfinite(val):
            raise Fail("the objective at the student's point is not finite")
        err = max(0.0, (val - opt) / max(abs(opt), 1e-300))
        if err > rtol:
            return Comparison(False, err, rtol, "objective above the minimum, relative:")
        if grad_tol is not None and isinstance(out, tuple):
            g = float(np.abs(out[1]).max())
            if g > grad_tol:
                return Comparison(False, g, grad_tol, "gradient at the student's point (the "
                                  "optimality condition), largest entry:")
        return Comparison(True, err, rtol, "objective above the minimum, relative:")

    return compare


def near(rtol: float):
    """Parameters or scores close to a mistake's answer (an optimiser's point, not a formula)."""

    def compare(got, expected) -> Comparison:
        s, r = as_array(got).reshape(-1), as_array(expected).reshape(-1)
        if s.size != r.size:
            return Comparison(False, math.inf, rtol)
        err = float(np.max(np.abs(s - r)) / max(np.abs(r).max(), 1e-300))
        return Comparison(err <= rtol, err, rtol)

    return compare


#: The band of an optimiser that stopped early: the student's objective is above the tolerance
#: but within this relative distance of the minimum (a nearly solved problem). The course-style
#: solutions with scipy's default factr = 1e7 stop 1e-4 to 1e-2 above it on the kit's cases, a
#: hundred times inside the band; a wrong objective whose minimiser the catalogue knows is named
#: before this hint is tried, and the hint says what it measured, not which it was.
NEAR_OPTIMUM = 1.0
#: Below this relative gap an early stop is the likely cause (the default factr's range); above
#: it, a different objective is as likely, and the hint says both.
LIKELY_EARLY = 1e-2


#: What ends an SVM dual's L-BFGS-B too soon, as the labs' SVM code calls it
SVM_STOP = ("the labs' SVM calls scipy.optimize.fmin_l_bfgs_b(..., factr=1.0); the default "
            "factr=1e7 stops too soon")
#: What ends a logistic regression's L-BFGS-B too soon (the labs' own LR code keeps the default
#: factr, which meets the kit's tolerance on its cases)
LR_STOP = ("stop L-BFGS-B later: scipy.optimize.fmin_l_bfgs_b with the default factr=1e7 and "
           "pgtol=1e-5 meets the tolerance here, a larger factr or pgtol, a maxiter or an "
           "approximate gradient may not")


def early_stop(f, opt: float, rtol: float = RTOL_OBJECTIVE, objective_eq: str = "",
               advice: str = LR_STOP) -> Mistake:
    """The point is nearly optimal but above the tolerance, or its objective is within the
    tolerance while the gradient is not: the hint states the measured gap and gradient and the
    causes that fit them (L-BFGS-B stopped early; a different objective)."""

    def measure(got) -> tuple:
        out = f(as_array(got))
        val = float(out[0] if isinstance(out, tuple) else out)
        grad = float(np.abs(out[1]).max()) if isinstance(out, tuple) else None
        return (val - opt) / max(abs(opt), 1e-300), grad

    def matches(got, expected=None) -> Comparison:
        gap, grad = measure(got)
        near = gap <= NEAR_OPTIMUM if gap > rtol else (grad is not None and grad > GRAD_TOL)
        return Comparison(bool(near), gap, NEAR_OPTIMUM)

    def hint(got) -> str:
        gap, grad = measure(got)
        at = f"; the largest gradient entry at your point is {grad:.2g}" if grad is not None \
            else ""
        measured = f"your objective is {gap:.2g} (relative) above the minimum{at}"
        early = f"the optimiser stopped early ({advice})"
        other = (f"an objective that differs from {objective_eq or 'the notes'} (none of the "
                 f"kit's known mistakes and mutants of it has its minimiser at your point)")
        gradient = ("a gradient that does not match the objective (if you pass an analytic "
                    "gradient, check it against finite differences: "
                    "scipy.optimize.check_grad)")
        if gap <= rtol:
            return (f"{measured}: the point is not stationary: either {early}, or {gradient}")
        return f"{measured}: either {early}, or {other}, or {gradient}"

    return Mistake("factr", hint, lambda: None, matches, after_search=True)


def one_over_N(D, L, l, pT):
    """Whether a point minimises lambda/2 ||w||^2 + (1/N) [pi_T sum_T loss + (1 - pi_T) sum_F
    loss], compared by that objective: it is N / m times eq. 101's with prior p = pi_T n_T / m
    and lambda' = N lambda / m, m = pi_T n_T + (1 - pi_T) n_F, so both have one minimiser."""
    nT, nF = int(np.sum(L == 1)), int(np.sum(L == 0))
    m = pT * nT + (1 - pT) * nF
    l1, p1 = l * L.size / m, pT * nT / m
    f = logreg_obj_wrap(D, L, l1, prior=p1)
    return objective(f, float(f(w_and_b(train_logreg_binary(D, L, l1, prior=p1)))[0]))


#: A drawn SVM case is kept only when every run of the labs' own algorithm in `labs_ensemble`
#: reaches this fraction of the task's tolerance on it (`fair_draws`): a margin for a student's
#: other arithmetic (another order of the products in H changes where L-BFGS-B stops).
FAIR_MARGIN = 0.1
#: Draws tried before the kit gives up (and says so, as its own failure).
MAX_DRAWS = 30
#: Runs of the labs' solver on each drawn SVM case (`labs_ensemble`): its own arithmetic and
#: ENSEMBLE - 1 others.
ENSEMBLE = 5


def labs_dual(H: np.ndarray, C: float) -> np.ndarray:
    """The labs' SVM solver, as the course's solution writes it: one
    ``scipy.optimize.fmin_l_bfgs_b`` call on the dual (eq. 167 with the bias as a constant
    feature), from alpha = 0, bounds [0, C], ``factr=1.0``, no restart."""

    def fOpt(alpha):
        Ha = H @ alpha
        return 0.5 * alpha @ Ha - alpha.sum(), Ha - 1.0

    alpha, _, _ = scipy.optimize.fmin_l_bfgs_b(fOpt, np.zeros(H.shape[0]),
                                               bounds=[(0.0, C)] * H.shape[0], factr=1.0)
    return alpha


def labs_ensemble(H: np.ndarray, C: float, rng: np.random.Generator,
                  runs: int = ENSEMBLE) -> list:
    """The alphas the labs' solver (`labs_dual`) reaches on ``H`` under ``runs`` roundings: ``H``
    itself, then copies of it whose entries moved by up to two units in the last place
    (symmetrically), as another order of the same products rounds them.

    L-BFGS-B's path depends on rounding: where its line search makes no progress, the test on the
    relative reduction of the objective (``factr * eps``) ends it, whatever the projected
    gradient. On the raw iris features, measured over 30 draws with 20 roundings each, one
    rounding in 12 to 70 stalls there (relative primal gaps up to 0.17, against 1e-6 for the
    runs that meet ``pgtol``), and no draw is free of it for every rounding; a case is therefore
    judged by several roundings of the course's method, not by one."""
    out = []
    for r in range(runs):
        if r == 0:
            out.append(labs_dual(H, C))
            continue
        E = rng.integers(-2, 3, H.shape)
        E = np.triu(E) + np.triu(E, 1).T
        out.append(labs_dual(H * (1.0 + E * np.finfo(np.float64).eps), C))
    return out


def conditioned(split, offset: float = 1.0):
    """A binary split whose features are z-normalised on the training set and shifted by
    ``offset``: the conditioning on which the labs' L-BFGS-B meets its ``pgtol`` under every
    rounding tried (600 runs: relative primal gaps at most 2.4e-6), with a mean away from 0 so
    that the bias matters (a free bias or a bias not multiplied by K moves the objective 5e-4
    and more)."""
    (DTR, LTR), (DVAL, LVAL) = split
    mu, sd = DTR.mean(axis=1, keepdims=True), DTR.std(axis=1, keepdims=True)
    return ((DTR - mu) / sd + offset, LTR), ((DVAL - mu) / sd + offset, LVAL)


def fair_draws(run: Run, build):
    """The first of the run's draws of the binary split on which the labs' own algorithm passes
    under every rounding of `labs_ensemble`: ``build(split)`` returns the case, the relative gaps
    of the ensemble's runs on it and the tolerance; a draw whose largest gap is above
    ``FAIR_MARGIN`` times the tolerance is replaced by the next one (deterministic from the
    seed). A correct course-style solution then never fails because the course's own method
    stops short on the drawn data, in its arithmetic or another."""
    for draw in range(MAX_DRAWS):
        split = binary(run) if draw == 0 else run.shuffled(binary_split(), draw=draw)
        case, gaps, tol = build(split)
        if max(gaps) <= FAIR_MARGIN * tol:
            return case
    raise KitError(f"no draw of {MAX_DRAWS} on which the labs' SVM solver reaches the tolerance")
