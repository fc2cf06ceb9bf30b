"""Variant of base.py: the triangular solve is told the factor is upper triangular (lower=False)
while np.linalg.cholesky returns the lower one: only its diagonal is used, and the quadratic
form (x - mu)^T C^-1 (x - mu) of eq. 41 is wrong

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np
import scipy.linalg


def logpdf_GAU_ND(X, mu, C):
    """The log-density of each column of X (eq. 41), through the Cholesky factor of C."""
    M = X.shape[0]
    Lc, logdet = _cholesky_logdet(C)
    # MISTAKE: lower=False reads the upper triangle of a lower factor
    Z = scipy.linalg.solve_triangular(Lc, X - mu, lower=False)
    maha = np.sum(Z * Z, axis=0)  # (x - mu)^T C^-1 (x - mu)
    return -0.5 * (M * np.log(2 * np.pi) + logdet + maha)
