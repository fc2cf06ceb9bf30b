"""Variant of course_style.py: a parenthesis misplaced: the threshold is -log(pi Cfn) / ((1 - pi)
Cfp), the log of the numerator divided by the denominator, instead of -log(pi Cfn / ((1 - pi)
Cfp)), the log of the ratio (eq. 130)

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import numpy as np


def compute_optimal_Bayes_binary_llr(llr, prior, Cfn, Cfp):
    th = -np.log(prior * Cfn) / ((1 - prior) * Cfp)  # MISTAKE: the log closes too early
    return np.int32(llr > th)
