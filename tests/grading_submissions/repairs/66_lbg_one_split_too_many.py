"""Variant of base.py: the loop test is len(gmm) <= numComponents: one split too many, twice the
number of components asked for (an off-by-one)

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def train_GMM_LBG_EM(X, numComponents, covType='Full', psiEig=None, epsLLAverage=1e-6,
                     lbgAlpha=0.1, verbose=False):
    """LBG: start from the ML Gaussian and alternate splits and EM until numComponents."""
    mu, C = compute_mu_C(X)
    if covType.lower() == 'diagonal':
        C = np.diag(np.diag(C))
    if psiEig is not None:
        C = smooth_covariance_matrix(C, psiEig)
    gmm = [(1.0, mu, C)]
    # MISTAKE: <= makes one split too many
    while len(gmm) <= numComponents:
        gmm = split_GMM_LBG(gmm, lbgAlpha, verbose)
        gmm = train_GMM_EM(X, gmm, covType, psiEig, epsLLAverage, verbose)
    return gmm
