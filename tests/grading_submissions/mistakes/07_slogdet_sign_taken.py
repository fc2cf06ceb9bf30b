"""Variant of course_style.py: slogdet returns (sign, log|det|): element [0], the sign, is used as
the log-determinant instead of element [1] (eq. 41)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""

import numpy as np


def logpdf_GAU_ND_singleSample(x, mu, C):
    """Log-density of one sample x (D, 1): a 1-D array with one element."""
    M = x.shape[0]
    P = np.linalg.inv(C)
    xc = x - mu
    # MISTAKE: slogdet returns (sign, log|det|): the log-determinant is slogdet(C)[1], not [0]
    return (-0.5 * M * np.log(2 * np.pi) - 0.5 * np.linalg.slogdet(C)[0]
            - 0.5 * (xc.T @ P @ xc).ravel())
