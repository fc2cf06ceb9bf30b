r"""Lab 8 of the course: logistic regression.

One `CourseFunction` record per function of the lab (``FUNCTIONS``, at the end): its course name
and signature, the mlpr function that is its reference, its cases with their known mistakes and
hints, and the mlpr functions student mode computes with it. The kit's tasks, student mode's
adapters, ``--list`` and the concordance of ``docs/grading/course_functions.md`` are generated
from them (`mlpr.grading.course`).
"""

from __future__ import annotations

import inspect
import math

import numpy as np
import scipy.optimize
import scipy.special

from mlpr.grading.course import adapt, forms, optim, shared
from mlpr.grading.course.records import Adapter, CourseFunction
from mlpr.grading.framework import (
    Case,
    Mistake,
)
from mlpr.grading.mutants import Formula
from mlpr.logreg import BinaryLogReg, logreg_obj_wrap, train_logreg_binary

__all__ = ["LAB", "FUNCTIONS"]

#: The lab's number in the course's 2024 edition
LAB = 8
#: its number in the years numbered otherwise (`mlpr.grading.course.lab_numbers`)
YEARS = {"2024/25": 7}


def logreg_formula(DTR, LTR, l):
    z = 2 * LTR - 1                       # eq. 100: the labels z_i = 2 c_i - 1, in {-1, +1}

    def J(v):
        w = v[:-1]
        b = v[-1]
        s = w @ DTR + b                   # eq. 100: the scores s_i = w^T x_i + b
        return l / 2 * np.sum(w ** 2) + np.mean(np.logaddexp(0, -z * s))  # eq. 100
    return J


def weighted_logreg_formula(DTR, LTR, l, pT):
    z = 2 * LTR - 1                       # eq. 101: the labels z_i = 2 c_i - 1, in {-1, +1}
    n_T = np.sum(LTR == 1)                # eq. 101: n_T, the number of class-1 samples
    n_F = np.sum(LTR == 0)                # eq. 101: n_F, the number of class-0 samples

    def J(v):
        w = v[:-1]
        b = v[-1]
        s = w @ DTR + b                   # eq. 101: the scores s_i = w^T x_i + b
        loss = np.logaddexp(0, -z * s)    # eq. 101: the logistic loss of each sample
        return l / 2 * np.sum(w ** 2) + pT / n_T * np.sum(loss[LTR == 1]) + (1 - pT) / n_F * np.sum(loss[LTR == 0])  # noqa: E501 (eq. 101)
    return J


_LR_GLOSSARY = {"v": "(w, b), the bias b included", "w": "the weights, without the bias b",
                "z": "the labels z_i = 2 c_i - 1, in {-1, +1}",
                "n_T": "the number of class-1 samples", "n_F": "the number of class-0 samples"}
LOGREG = Formula(logreg_formula, glossary=_LR_GLOSSARY, replace={"w": ("v",)}, objective=True)
WEIGHTED_LOGREG = Formula(weighted_logreg_formula, glossary=_LR_GLOSSARY, replace={"w": ("v",)},
                          exchange=(("n_T", "n_F"),), objective=True)


def _logreg_cases(run, weighted: bool):
    (DTR, LTR), _ = shared.binary(run)
    if weighted:
        # classes of different sizes on every seed (n_T != n_F), so that pi_T / n_T and
        # pi_T / n_F differ: 8 class-0 samples left out
        keep = np.ones(LTR.size, dtype=bool)
        keep[np.flatnonzero(LTR == 0)[:8]] = False
        DTR, LTR = DTR[:, keep], LTR[keep]
    cases = []
    settings = [(1e-3, 0.8), (0.1, 0.2)] if weighted else [(1e-3, None), (0.1, None)]
    for l, pT in settings:
        f = logreg_obj_wrap(DTR, LTR, l, prior=pT)
        model = train_logreg_binary(DTR, LTR, l, prior=pT)
        opt = f(np.concatenate([model.w, [model.b]]))[0]
        args = (DTR, LTR, l) + ((pT,) if weighted else ())
        mistakes = [
            Mistake("lambda", "the regulariser is lambda/2 ||w||^2 (eq. 100): this point "
                                  "minimises lambda ||w||^2",
                    lambda l=l, pT=pT: forms.w_and_b(
                            train_logreg_binary(DTR, LTR, 2 * l, prior=pT)),
                    optim.near(1e-4)),
            Mistake("sum", "the loss term is the mean over the samples, (1/n) sum_i (eq. 100)"
                               ": this point minimises the sum",
                    lambda l=l: forms.w_and_b(train_logreg_binary(DTR, LTR, l / DTR.shape[1])),
                    optim.near(1e-4)),
        ]
        if weighted:
            mistakes += [
                Mistake("swapped", "pi_T weighs the class-1 (target) samples, "
                                       "pi_T / n_T, and 1 - pi_T the others (eq. 101)",
                        lambda l=l, pT=pT: forms.w_and_b(
                                train_logreg_binary(DTR, LTR, l, 1 - pT)),
                        optim.near(1e-4)),
                Mistake("1/N", "each class's loss is averaged over its own samples: pi_T / n_T "
                               "and (1 - pi_T) / n_F (eq. 101), not pi_T / N and (1 - pi_T) / N",
                        lambda: None, optim.one_over_N(DTR, LTR, l, pT)),
                Mistake("unweighted", "the prior-weighted objective weighs class 1 by "
                                          "pi_T / n_T and class 0 by (1 - pi_T) / n_F (eq. 101); "
                                          "this point minimises the unweighted eq. 100",
                        lambda l=l: forms.w_and_b(train_logreg_binary(DTR, LTR, l)),
                        optim.near(1e-4)),
            ]
        mistakes.append(optim.early_stop(f, opt, objective_eq="eq. 101" if weighted else "eq. 100"))
        what = f"binary iris, lambda = {l:g}" + (f", pi_T = {pT:g}" if weighted else "")
        cases.append(Case(what, args, None, post=forms.wb(DTR.shape[0], vector=True),
                          compare=optim.objective(f, opt, grad_tol=optim.GRAD_TOL),
                          context={"minimiser": forms.w_and_b(model)},
                          mistakes=mistakes))
    return cases


def _lr(run):
    return _logreg_cases(run, False)


def _wlr(run):
    return _logreg_cases(run, True)


def _lr_llr(run):
    rng = run.rng(2)
    s = rng.normal(size=50) * 2
    cases = []
    for pT in (0.8, 0.1):
        lo = np.log(pT / (1 - pT))
        cases.append(Case(f"50 scores, training prior pi_T = {pT:g}", (s, pT), s - lo,
                          context={"prior": pT}, mistakes=[
            Mistake("missing", "the LR scores are posterior log-odds under the training prior: "
                               "the llr subtracts log(pi_T / (1 - pi_T)) (eq. 102)",
                    lambda: s),
            Mistake("sign", "the llr subtracts the prior log-odds, s - log(pi_T / (1 - pi_T)) "
                            "(eq. 102); it was added", lambda lo=lo: s + lo),
            Mistake("log10", "the prior log-odds use log10: the scores are natural logs "
                             "(eq. 102)", lambda pT=pT: s - np.log10(pT / (1 - pT))),
        ]))
    return cases


def labs_logreg(D, L, l, prior=None, rounding: np.random.Generator | None = None) -> tuple:
    """The labs' logistic regression, as the course's solution trains it: one
    ``scipy.optimize.fmin_l_bfgs_b`` call at scipy's defaults (``factr=1e7``, ``pgtol=1e-5``)
    on eq. 100 (eq. 101 with ``prior``) with its analytic gradient, from zeros. With
    ``rounding``, on the data moved by up to two units in the last place (another arithmetic's
    path). Returns ``(w, b, J)``, J the objective at the point, on the data as given."""
    f = logreg_obj_wrap(D, L, l, prior)
    X = D if rounding is None else D * (1.0 + rounding.integers(-2, 3, D.shape) * np.finfo(
        np.float64).eps)
    v = scipy.optimize.fmin_l_bfgs_b(logreg_obj_wrap(X, L, l, prior), np.zeros(D.shape[0] + 1))[0]
    return v[:-1], float(v[-1]), float(f(v)[0])


def excess_bound(D, L, l, w, b, prior=None) -> float:
    """An upper bound on how far the objective at ``(w, b)`` is above its minimum, from the
    gradient there and the curvature: ``||g||^2 / (2 mu)``, mu the smallest eigenvalue of the
    Hessian at the point (eq. 100; eq. 101 with ``prior``): the strong-convexity bound, for a
    point near the minimum. Any correct trainer whose optimiser stopped at that gradient lies
    within it, whatever its arithmetic; a wrong objective leaves a gradient of the right one
    that no stop explains (`optim.GRAD_TOL`)."""
    D, L = np.asarray(D, dtype=np.float64), np.asarray(L)
    v = np.append(np.asarray(w, dtype=np.float64), b)
    g = logreg_obj_wrap(D, L, l, prior)(v)[1]
    X = np.vstack([D, np.ones((1, D.shape[1]))])
    z = 2.0 * L - 1.0
    if prior is None:
        c = np.full(L.size, 1.0 / L.size)
    else:
        c = np.where(L == 1, prior / np.sum(L == 1), (1 - prior) / np.sum(L == 0))
    s = z * (v @ X)
    sig = scipy.special.expit(s)
    H = (X * (c * sig * (1 - sig))) @ X.T  # eq. 100's Hessian: sum_i c_i s'' x_i x_i^T
    H[np.arange(D.shape[0]), np.arange(D.shape[0])] += l  # lambda on w, not on b
    mu = float(np.linalg.eigvalsh(H)[0])
    return float(g @ g) / (2 * mu) if mu > 0 else math.inf


def logreg_reach(f, args, kwargs, measure, out=None) -> float:
    """How far above mlpr's minimum a correct trainer may stop on a call's inputs, relative:
    `excess_bound` at the student's point, when its gradient is within `optim.GRAD_TOL` (the
    labs' L-BFGS-B at its default factr stops 3e-7 above the minimum on the raw iris features,
    up to 8e-5 on their quadratic expansion at lambda = 1e-3, measured on five independent
    course-style files); 0 otherwise."""
    bound = inspect.signature(f).bind(*args, **kwargs)
    bound.apply_defaults()
    a = bound.arguments
    if out is None or not hasattr(out, "w"):
        return 0.0
    D, L = np.asarray(a["D"], dtype=np.float64), np.asarray(a["L"])
    g = logreg_obj_wrap(D, L, float(a["l"]), a["prior"])(np.append(out.w, out.b))[1]
    if not np.all(np.isfinite(g)) or np.abs(g).max() > optim.GRAD_TOL:
        return 0.0
    return excess_bound(D, L, float(a["l"]), out.w, out.b, a["prior"]) / max(
        abs(out.objective), 1e-300)


def _adapt_train_logreg_binary(code, f):
    def train_logreg_binary(D, L, l, prior=None, **solver_settings):
        # the solver settings (tol, max_iter, ...) are mlpr's: the student's optimiser has its own
        X, Y = np.asarray(D, dtype=np.float64), np.asarray(L)
        if prior is None:
            name = "trainLogRegBinary"
            if not code.has(name):
                raise adapt.Unsupported("the submission has no trainLogRegBinary")
            out = code.call(name, X, Y, l)
            nT, nF = int(np.sum(Y == 1)), int(np.sum(Y == 0))
            lo = math.log(nT / nF)
        else:
            name = "trainWeightedLogRegBinary"
            if not code.has(name):
                raise adapt.Unsupported("the submission has no trainWeightedLogRegBinary")
            out = code.call(name, X, Y, l, prior)
            lo = math.log(prior / (1 - prior))
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise adapt.StudentFailure(name, "did not return (w, b)")
        w = adapt.vector(out[0], X.shape[0], name, "w")
        b = adapt.vector(out[1], 1, name, "b")[0]
        J = float(logreg_obj_wrap(X, Y, l, prior)(np.append(w, b))[0])
        return BinaryLogReg(w=w, b=float(b), l=float(l), prior=prior, prior_log_odds=float(lo),
                            objective=J, n_iter=0)
    return train_logreg_binary


FUNCTIONS = (
    CourseFunction(
        name="trainLogRegBinary", formula=LOGREG,
        signature="(DTR, LTR, l)", topic="logistic regression (eq. 100)",
        reference="logreg.train_logreg_binary", forms="returns (w, b)", cases=_lr,
        adapters=(
            # an optimiser's point by the objective there: the labs' L-BFGS-B stops 3e-7 above
            # it at most on the raw iris features; on worse conditioned inputs the tolerance
            # widens to where it stops under six roundings (logreg_reach)
            Adapter("train_logreg_binary", (("trainLogRegBinary",), ("trainWeightedLogRegBinary",)),
            _adapt_train_logreg_binary, ("objective", 1e-05, logreg_reach)),
        )),
    CourseFunction(
        name="trainWeightedLogRegBinary", formula=WEIGHTED_LOGREG,
        signature="(DTR, LTR, l, pT)",
        topic="prior-weighted logistic regression (eq. 101)",
        reference="logreg.train_logreg_binary (`prior=pT`)", forms="returns (w, b)", cases=_wlr),
    CourseFunction(
        name="logreg_llr", signature="(scores, pT)",
        topic="the LR llr: scores minus the training prior log-odds (eq. 102)",
        reference="logreg.BinaryLogReg.llr", cases=_lr_llr, extra=True),
)
