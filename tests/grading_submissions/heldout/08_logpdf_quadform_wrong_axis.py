"""Variant of course_style.py: the per-sample quadratic forms are summed over the wrong axis,
.sum(1) (over the samples) instead of .sum(0) (over the features): the result has one value per
feature, not one log-density per sample (eq. 41)

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import numpy as np


def logpdf_GAU_ND_fast(X, mu, C):
    M = X.shape[0]
    P = np.linalg.inv(C)
    XC = X - mu
    return (-0.5 * M * np.log(2 * np.pi) - 0.5 * np.linalg.slogdet(C)[1]
            - 0.5 * (XC * (P @ XC)).sum(1))  # MISTAKE: summed over the samples (axis 1)
