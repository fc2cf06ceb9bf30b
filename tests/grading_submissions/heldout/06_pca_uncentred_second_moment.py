"""Variant of course_style.py: PCA diagonalises the uncentred second-moment matrix D D^T / N
instead of the covariance C of the centred data (section 3.2, eq. 3): the statistic of the
wrong matrix, the dataset mean is not removed, so the leading direction points towards the mean

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import numpy as np


def compute_pca(D, m):
    """PCA projection matrix P (D, m): the m leading eigenvectors of the covariance."""
    mu, C = compute_mu_C(D)
    s, U = np.linalg.eigh(D @ D.T / D.shape[1])  # MISTAKE: the uncentred second moment, not C
    P = U[:, ::-1][:, 0:m]
    return P
