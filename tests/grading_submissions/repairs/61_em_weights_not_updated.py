"""Variant of base.py: the M-step re-estimates the means and covariances but keeps the previous
weights instead of N_g / N (eq. 201)

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np
import scipy.special


def train_GMM_EM_Iteration(X, gmm, covType='Full', psiEig=None):
    """One EM step (eq. 191, 199-201) for 'Full', 'Diagonal' or 'Tied' covariances."""
    kind = covType.lower()
    N = X.shape[1]
    joint = _gmm_joint(X, gmm)
    resp = np.exp(joint - scipy.special.logsumexp(joint, axis=0))  # responsibilities (eq. 191)
    updated = []
    for g in range(len(gmm)):
        gam = resp[g]
        Ng = gam.sum()                      # zero-order statistic
        Fg = as_col(X @ gam)                # first-order statistic
        Sg = (X * gam) @ X.T                # second-order statistic
        mu = Fg / Ng                        # eq. 199
        C = Sg / Ng - mu @ mu.T             # eq. 200
        if kind == 'diagonal':
            C = np.diag(np.diag(C))
        # MISTAKE: the M-step keeps the previous weight
        updated.append((gmm[g][0], mu, C))
    if kind == 'tied':
        Ctied = np.zeros_like(updated[0][2])
        for w, _mu, C in updated:
            Ctied = Ctied + w * C
        updated = [(w, mu, Ctied) for (w, mu, C) in updated]
    if psiEig is not None:
        updated = [(w, mu, smooth_covariance_matrix(C, psiEig)) for (w, mu, C) in updated]
    return updated
