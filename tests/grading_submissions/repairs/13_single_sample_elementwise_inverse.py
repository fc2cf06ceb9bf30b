"""Variant of base.py: the precision matrix is taken as C ** -1, the entry-by-entry reciprocal,
instead of the matrix inverse C^-1 of eq. 41

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def logpdf_GAU_ND_singleSample(x, mu, C):
    """log N(x | mu, C) of one sample x (D, 1), as a 1-element array (eq. 41)."""
    M = x.shape[0]
    # MISTAKE: C ** -1 inverts each entry, not the matrix
    Cinv = C ** -1
    d = x - mu
    quad = (d.T @ Cinv @ d).ravel()
    sign, logdet = np.linalg.slogdet(C)
    return -0.5 * M * np.log(2 * np.pi) - 0.5 * logdet - 0.5 * quad
