"""Variant of course_style.py: the leading eigenvector is taken as U[:, -1], a 1-D array, instead
of the column U[:, -1:] of shape (D, 1): mu - d and mu + d broadcast into (D, D) matrices
instead of the displaced means (section 9.4)

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import numpy as np


def split_GMM_LBG(gmm, alpha=0.1, verbose=False):
    """Each component becomes two, displaced by -+ alpha sqrt(lambda_1) u_1 (leading eigenpair)."""
    gmmOut = []
    if verbose:
        print('LBG - from %d to %d components' % (len(gmm), 2 * len(gmm)))
    for w, mu, C in gmm:
        s, U = np.linalg.eigh(C)
        d = U[:, -1] * np.sqrt(s[-1]) * alpha  # MISTAKE: a 1-D vector, mu +- d is (D, D)
        gmmOut.append((0.5 * w, mu - d, C))
        gmmOut.append((0.5 * w, mu + d, C))
    return gmmOut
