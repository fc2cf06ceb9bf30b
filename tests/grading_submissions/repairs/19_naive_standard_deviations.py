"""Variant of base.py: the diagonal holds the standard deviations sigma_j instead of the variances
sigma_j^2 (eq. 68): a missing square

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def Gau_Naive_ML_estimates(D, L):
    """{label: (mu_c, diag C_c)}: each class's variances only (eq. 68)."""
    params = {}
    for c, Dc in _class_split(D, L):
        mu, C = compute_mu_C(Dc)
        # MISTAKE: the standard deviations on the diagonal, not the variances
        params[int(c)] = (mu, np.diag(np.sqrt(np.diag(C))))
    return params
