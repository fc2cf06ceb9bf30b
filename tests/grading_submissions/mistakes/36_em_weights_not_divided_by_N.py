"""Variant of course_style.py: the new weights are N_c instead of N_c / N (eq. 201): they sum to N,
not 1

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""

import numpy as np
import scipy.special


def train_GMM_EM_Iteration(X, gmm, covType='Full', psiEig=None):
    """One EM step; covType 'Full', 'Diagonal' or 'Tied'; psiEig floors the eigenvalues."""
    covType = covType.lower()
    S = np.vstack([logpdf_GAU_ND(X, mu, C) + np.log(w) for w, mu, C in gmm])
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
        # MISTAKE: w_c = N_c / N (eq. 201): the weights must sum to 1
        gmmNew.append((Z, mu, C))

    if covType == 'tied':
        CTied = sum(w * C for w, mu, C in gmmNew)
        gmmNew = [(w, mu, CTied) for w, mu, C in gmmNew]
    if psiEig is not None:
        gmmNew = [(w, mu, smooth_covariance_matrix(C, psiEig)) for w, mu, C in gmmNew]
    return gmmNew
