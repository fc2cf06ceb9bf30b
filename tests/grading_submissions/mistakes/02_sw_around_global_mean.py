"""Variant of course_style.py: Sw scatters each class around the dataset mean instead of its own
class mean mu_c (eq. 6): the result is the total covariance Sw + Sb

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""

import numpy as np


def compute_Sb_Sw(D, L):
    """Between- and within-class covariance matrices, in that order, both scaled by 1/N."""
    mu = vcol(D.mean(1))
    Sb = np.zeros((D.shape[0], D.shape[0]))
    Sw = np.zeros((D.shape[0], D.shape[0]))
    for c in np.unique(L):
        Dc = D[:, L == c]
        mu_c = vcol(Dc.mean(1))
        Sb += Dc.shape[1] * ((mu_c - mu) @ (mu_c - mu).T)
        # MISTAKE: Sw scatters each class around its own mean mu_c (eq. 6), not the dataset mean
        Sw += (Dc - mu) @ (Dc - mu).T
    return Sb / D.shape[1], Sw / D.shape[1]
