"""Variant of course_style.py: the PCA directions are taken from the wrong factor of the SVD of C:
the columns of Vh (rows of U) instead of the columns of U, the eigenvectors of the covariance
(section 3.2, eq. 3)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""

import numpy as np


def compute_pca(D, m):
    """PCA projection matrix P (D, m): the m leading eigenvectors of the covariance."""
    mu, C = compute_mu_C(D)
    U, s, Vh = np.linalg.svd(C)  # decreasing singular values
    # MISTAKE: the directions are the columns of U (the rows of Vh); Vh's columns are not
    # eigenvectors of C
    P = Vh[:, 0:m]
    return P
