"""Variant of base.py: the division of Sb and Sw by N is inside the loop over the classes: the
contribution of the first classes is divided by N several times (eq. 5, 6 divide the whole sums
once)

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
        Sb += nc * (diff @ diff.T)
        Sw += nc * Cc  # n_c times the class covariance = the class scatter
        # MISTAKE: the division by N is inside the class loop
        Sb /= N
        Sw /= N
    return Sb, Sw
