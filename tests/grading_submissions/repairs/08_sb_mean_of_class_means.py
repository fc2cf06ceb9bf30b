"""Variant of base.py: the dataset mean mu of Sb is taken as the unweighted average of the class
means, a statistic of another set (the means, not the samples): it differs from the mean of the
data when the classes have different sizes (eq. 5)

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def compute_Sb_Sw(D, L):
    """Between-class and within-class covariance (eq. 5, 6), returned as (Sb, Sw)."""
    N = D.shape[1]
    # MISTAKE: the global mean is the plain average of the class means
    mu = np.mean([as_col(Dc.mean(axis=1)) for _c, Dc in _class_split(D, L)], axis=0)
    Sb = np.zeros((D.shape[0], D.shape[0]))
    Sw = np.zeros((D.shape[0], D.shape[0]))
    for _c, Dc in _class_split(D, L):
        nc = Dc.shape[1]
        muc, Cc = compute_mu_C(Dc)
        diff = muc - mu
        Sb += nc * (diff @ diff.T)
        Sw += nc * Cc  # n_c times the class covariance = the class scatter
    Sb /= N
    Sw /= N
    return Sb, Sw
