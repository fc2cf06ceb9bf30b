"""Variant of course_style.py: the matrix holds the class-conditional densities exp(log N(x |
mu_c, C_c)) instead of their logarithms, the log-likelihoods the function returns (eq. 41, 63):
an exponential too many

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import numpy as np


def compute_log_likelihood_Gau(D, hParams):
    """S (K, N): row k holds the log-densities of class k (labels 0..K-1)."""
    S = np.zeros((len(hParams), D.shape[1]))
    for lab in range(S.shape[0]):
        mu, C = hParams[lab]
        S[lab, :] = np.exp(logpdf_GAU_ND(D, mu, C))  # MISTAKE: the densities, not their logs
    return S
