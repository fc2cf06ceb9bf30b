r"""Lab 8 of the course: logistic regression.

One `CourseFunction` record per function of the lab (``FUNCTIONS``, at the end): its course name
and signature, the mlpr function that is its reference, its cases with their known mistakes and
hints, and the mlpr functions student mode computes with it. The kit's tasks, student mode's
adapters, ``--list`` and the concordance of ``docs/grading.md`` are generated from them
(`mlpr.grading.course`).
"""

from __future__ import annotations

import math

import numpy as np

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
            # it at most
            Adapter("train_logreg_binary", (("trainLogRegBinary",), ("trainWeightedLogRegBinary",)),
            _adapt_train_logreg_binary, ("objective", 1e-05)),
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
