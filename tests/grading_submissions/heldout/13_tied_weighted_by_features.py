"""Variant of course_style.py: each class covariance is weighted by Dc.shape[0], the number of
features, instead of Dc.shape[1], the class's number of samples n_c (eq. 70: Sigma = 1/N sum_c
n_c Sigma_c): rows vs columns

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import numpy as np


def Gau_Tied_ML_estimates(D, L):
    means = {}
    CTied = 0
    for lab in np.unique(L):
        Dc = D[:, L == lab]
        mu, C = compute_mu_C(Dc)
        means[int(lab)] = mu
        CTied = CTied + C * Dc.shape[0]  # MISTAKE: shape[0], the number of features, not n_c
    CTied = CTied / D.shape[1]
    return {lab: (mu, CTied) for lab, mu in means.items()}
