"""Variant of course_style.py: the E-step leaves out the component weights: the responsibilities
are computed from N(x_i | mu_c, C_c) alone instead of w_c N(x_i | mu_c, C_c) (eq. 191), the
prior of each component is not applied

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import numpy as np
import scipy.special


def train_GMM_EM_Iteration(X, gmm, covType='Full', psiEig=None):
    """One EM step; covType 'Full', 'Diagonal' or 'Tied'; psiEig floors the eigenvalues."""
    covType = covType.lower()
    S = np.vstack([logpdf_GAU_ND(X, mu, C) for w, mu, C in gmm])  # MISTAKE: no log w_c
    gamma = np.exp(S - scipy.special.logsumexp(S, axis=0))  # responsibilities (G, N)

    gmmNew = []
    for g in range(len(gmm)):
        Z = gamma[g].sum()
        F = vcol((vrow(gamma[g]) * X).sum(1))
        Sg = (vrow(gamma[g]) * X) @ X.T
        mu = F / Z
        C = Sg / Z - mu @ mu.T
        if covType == 'diagonal':
            C = C * np.eye(X.shape[0])
        gmmNew.append((Z / X.shape[1], mu, C))

    if covType == 'tied':
        CTied = sum(w * C for w, mu, C in gmmNew)
        gmmNew = [(w, mu, CTied) for w, mu, C in gmmNew]
    if psiEig is not None:
        gmmNew = [(w, mu, smooth_covariance_matrix(C, psiEig)) for w, mu, C in gmmNew]
    return gmmNew
