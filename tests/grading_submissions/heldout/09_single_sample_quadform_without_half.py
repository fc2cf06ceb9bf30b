"""Variant of course_style.py: the quadratic form (x - mu)^T C^-1 (x - mu) is not multiplied by
1/2 (eq. 41): a missing factor

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import numpy as np


def logpdf_GAU_ND_singleSample(x, mu, C):
    """Log-density of one sample x (D, 1): a 1-D array with one element."""
    M = x.shape[0]
    P = np.linalg.inv(C)
    xc = x - mu
    return (-0.5 * M * np.log(2 * np.pi) - 0.5 * np.linalg.slogdet(C)[1]
            - (xc.T @ P @ xc).ravel())  # MISTAKE: the 1/2 of the quadratic form is missing
