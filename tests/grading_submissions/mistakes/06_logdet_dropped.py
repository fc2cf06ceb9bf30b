"""Variant of course_style.py: the -1/2 log|C| term of the Gaussian log-density is missing (eq. 41)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""

import numpy as np


def logpdf_GAU_ND_fast(X, mu, C):
    M = X.shape[0]
    P = np.linalg.inv(C)
    XC = X - mu
    # MISTAKE: the -1/2 log|C| term of eq. 41 is missing
    return (-0.5 * M * np.log(2 * np.pi)
            - 0.5 * (XC * (P @ XC)).sum(0))
