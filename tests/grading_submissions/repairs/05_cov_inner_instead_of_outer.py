"""Variant of base.py: the outer product x x^T of each centred sample is written x^T x, the inner
product (a scalar added to every entry): every entry of C is the mean squared norm (eq. 3, 59)

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def compute_mu_C(D):
    """Sample mean (D, 1) and ML covariance (1/N) (eq. 3, 59)."""
    N = D.shape[1]
    mu = as_col(D.sum(axis=1) / N)
    centred = D - mu
    C = np.zeros((D.shape[0], D.shape[0]))
    for i in range(N):  # sum of the outer products of the centred samples
        xi = centred[:, i:i + 1]
        # MISTAKE: the transpose on the wrong factor, x^T x (a scalar) instead of x x^T
        C += xi.T @ xi
    C = C / N
    return mu, C
