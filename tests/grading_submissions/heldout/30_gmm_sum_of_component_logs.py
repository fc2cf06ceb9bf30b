"""Variant of course_style.py: the GMM log-density adds the components' weighted log-densities,
log prod_c w_c N(x | mu_c, C_c), instead of taking the log of their sum, a logsumexp over the
components (eq. 185)

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import numpy as np


def logpdf_GMM(X, gmm):
    S = np.vstack([logpdf_GAU_ND(X, mu, C) + np.log(w) for w, mu, C in gmm])
    return S.sum(0)  # MISTAKE: the sum of the components' logs, not the log of their sum
