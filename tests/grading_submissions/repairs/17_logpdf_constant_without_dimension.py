"""Variant of base.py: the constant term is -1/2 log(2 pi) instead of -M/2 log(2 pi), the number of
features M missing (eq. 41)

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
    Z = scipy.linalg.solve_triangular(Lc, X - mu, lower=True)  # Lc^-1 (x - mu)
    maha = np.sum(Z * Z, axis=0)  # (x - mu)^T C^-1 (x - mu)
    # MISTAKE: the constant term lacks the dimension M
    return -0.5 * (np.log(2 * np.pi) + logdet + maha)
