"""Variant of course_style.py: the M-step covariance divides the second-order statistic by N, the
number of samples, instead of N_c = sum_i gamma_ci, the component's responsibilities (eq. 200)

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
        # MISTAKE: Sigma_c = S_c / N_c - mu_c mu_c^T (eq. 200), N_c = sum_i gamma_ci, not N
        C = Sg / X.shape[1] - mu @ mu.T
        if covType == 'diagonal':
            C = C * np.eye(X.shape[0])
        gmmNew.append((Z / X.shape[1], mu, C))

    if covType == 'tied':
        CTied = sum(w * C for w, mu, C in gmmNew)
        gmmNew = [(w, mu, CTied) for w, mu, C in gmmNew]
    if psiEig is not None:
        gmmNew = [(w, mu, smooth_covariance_matrix(C, psiEig)) for w, mu, C in gmmNew]
    return gmmNew
