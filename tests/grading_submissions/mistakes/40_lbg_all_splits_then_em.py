"""Variant of course_style.py: all the LBG splits come first and EM runs once at the end, instead
of EM after every split (section 9.4)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""

import numpy as np


def train_GMM_LBG_EM(X, numComponents, covType='Full', psiEig=None, epsLLAverage=1e-6,
                     lbgAlpha=0.1, verbose=False):
    """LBG from the ML Gaussian, doubling and running EM until numComponents components."""
    mu, C = compute_mu_C(X)
    if covType.lower() == 'diagonal':
        C = C * np.eye(X.shape[0])
    if psiEig is not None:
        C = smooth_covariance_matrix(C, psiEig)
    gmm = [(1.0, mu, C)]
    while len(gmm) < numComponents:
        gmm = split_GMM_LBG(gmm, lbgAlpha, verbose=verbose)
    # MISTAKE: LBG runs EM after every split (9.4); here the splits come first, EM once at the end
    gmm = train_GMM_EM(X, gmm, covType=covType, psiEig=psiEig, epsLLAverage=epsLLAverage,
                       verbose=verbose)
    return gmm
