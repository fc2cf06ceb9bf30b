r"""Lab 11 of the course: K-fold, score calibration and fusion.

One `CourseFunction` record per function of the lab (``FUNCTIONS``, at the end): its course name
and signature, the mlpr function that is its reference, its cases with their known mistakes and
hints, and the mlpr functions student mode computes with it. The kit's tasks, student mode's
adapters, ``--list`` and the concordance of ``docs/grading/course_functions.md`` are generated
from them (`mlpr.grading.course`).
"""

from __future__ import annotations

import numpy as np

from mlpr.grading.course import forms, optim, shared
from mlpr.grading.course.records import CourseFunction
from mlpr.grading.framework import (
    Case,
    Mistake,
    as_array,
    exact,
)
from mlpr.grading.mutants import Formula
from mlpr.logreg import logreg_obj_wrap, train_logreg_binary

__all__ = ["LAB", "FUNCTIONS"]

#: The lab's number in the course's 2024 edition
LAB = 11
#: its number in the years numbered otherwise (`mlpr.grading.course.lab_numbers`)
YEARS = {"2024/25": 10}


def folds_formula(X, idx):
    K = 5
    train = np.hstack([X[j::K] for j in range(K) if j != idx])  # section 7.3: the K - 1 other folds
    val = X[idx::K]                       # section 7.3: the validation fold idx
    return train, val


FOLDS = Formula(folds_formula, glossary={"idx": "the validation fold"})


def _folds(run):
    X = np.arange(23, dtype=float) * 1.5
    cases = []
    for idx in (0, 3):
        val = X[idx::5]
        train = np.hstack([X[j::5] for j in range(5) if j != idx])

        def post(out):
            tr, va = forms.pair(out, 2, "(train, val)")
            return np.concatenate([as_array(tr).reshape(-1), as_array(va).reshape(-1)])

        cases.append(Case(f"23 values, fold {idx} of 5", (X, idx), np.concatenate([train, val]),
                          post=post, compare=exact()))
    return cases


def _calibration_cases(run, fused: bool):
    S, L = shared.calibration_scores(run)
    X = S if fused else S[:1]
    cases = []
    for pT in (0.2, 0.5):
        f = logreg_obj_wrap(X, L, 0.0, prior=pT)
        opt = f(forms.w_and_b(train_logreg_binary(X, L, 0.0, prior=pT)))[0]
        what = ("two systems' scores, fusion" if fused else "one system's scores") + \
            f", lambda = 0, pi_T = {pT:g}"
        mistakes = [
            Mistake("1/N", "each class's loss is averaged over its own samples: pi_T / n_T and "
                           "(1 - pi_T) / n_F (eq. 101), not pi_T / N and (1 - pi_T) / N",
                    lambda: None, optim.one_over_N(X, L, 0.0, pT)),
            Mistake("swapped", "pi_T weighs the class-1 (target) samples, pi_T / n_T, and "
                               "1 - pi_T the others (eq. 101)",
                    lambda pT=pT: forms.w_and_b(train_logreg_binary(X, L, 0.0, 1 - pT)),
                    optim.near(1e-4)),
            Mistake("unweighted", "calibration and fusion use the prior-weighted objective, "
                                  "class 1 weighed by pi_T / n_T and class 0 by (1 - pi_T) / n_F "
                                  "(eq. 101); this point minimises the unweighted eq. 100",
                    lambda: forms.w_and_b(train_logreg_binary(X, L, 0.0)), optim.near(1e-4)),
            optim.early_stop(f, opt, objective_eq="eq. 101"),
        ]
        cases.append(Case(what, (X, L, 0.0, pT), None, post=forms.wb(X.shape[0], vector=True),
                          compare=optim.objective(f, opt, grad_tol=optim.GRAD_TOL),
                          mistakes=mistakes))
    return cases


def _calibration(run):
    return _calibration_cases(run, False)


def _fusion(run):
    return _calibration_cases(run, True)


FUNCTIONS = (
    CourseFunction(
        name="extract_train_val_folds_from_ary", formula=FOLDS,
        signature="(X, idx)",
        topic="the labs' K-fold split of score arrays (K = 5)",
        reference="numpy: X[idx::K] against the other folds", forms="returns (train, val)",
        cases=_folds),
    CourseFunction(
        name="trainWeightedLogRegBinary (calibration)", signature="(vrow(scores), LCAL, 0, pT)",
        topic="score calibration: prior-weighted LR on scores (section 7.3)",
        reference="calibration.train_linear_calibration",
        forms="returns (w, b): llr = w s + b - log(pT / (1 - pT))", cases=_calibration,
        function="trainWeightedLogRegBinary"),
    CourseFunction(
        name="trainWeightedLogRegBinary (fusion)",
        signature="(numpy.vstack([s1, s2]), LCAL, 0, pT)",
        topic="fusion: prior-weighted LR on stacked scores (section 7.4)",
        reference="calibration.train_fusion", forms="returns (w, b)", cases=_fusion,
        function="trainWeightedLogRegBinary"),
)
