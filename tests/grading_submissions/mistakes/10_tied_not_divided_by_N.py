"""Variant of course_style.py: the tied covariance is the sum over classes of N_c C_c, never
divided by N (eq. 70): N times too large

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""

import numpy as np


def Gau_Tied_ML_estimates(D, L):
    means = {}
    CTied = 0
    for lab in np.unique(L):
        Dc = D[:, L == lab]
        mu, C = compute_mu_C(Dc)
        means[int(lab)] = mu
        CTied = CTied + C * Dc.shape[1]
    # MISTAKE: the tied covariance is sum_c N_c C_c / N (eq. 70): the sum is not divided by N
    return {lab: (mu, CTied) for lab, mu in means.items()}
