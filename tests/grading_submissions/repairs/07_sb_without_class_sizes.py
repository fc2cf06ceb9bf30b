"""Variant of base.py: the between-class term of each class is not weighted by its number of
samples n_c (eq. 5: Sb = 1/N sum_c n_c (mu_c - mu)(mu_c - mu)^T)

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def compute_Sb_Sw(D, L):
    """Between-class and within-class covariance (eq. 5, 6), returned as (Sb, Sw)."""
    N = D.shape[1]
    mu, _ = compute_mu_C(D)
    Sb = np.zeros((D.shape[0], D.shape[0]))
    Sw = np.zeros((D.shape[0], D.shape[0]))
    for _c, Dc in _class_split(D, L):
        nc = Dc.shape[1]
        muc, Cc = compute_mu_C(Dc)
        diff = muc - mu
        # MISTAKE: each class mean difference is not weighted by n_c
        Sb += diff @ diff.T
        Sw += nc * Cc  # n_c times the class covariance = the class scatter
    Sb /= N
    Sw /= N
    return Sb, Sw
