"""Variant of course_style.py: the eigenvectors' columns are not reversed: eigh sorts the
eigenvalues in ascending order, so U[:, 0:m] holds the m directions of least variance instead
of the m leading ones (section 3.2)

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import numpy as np


def compute_pca(D, m):
    """PCA projection matrix P (D, m): the m leading eigenvectors of the covariance."""
    mu, C = compute_mu_C(D)
    s, U = np.linalg.eigh(C)  # ascending eigenvalues
    P = U[:, 0:m]  # MISTAKE: eigh sorts ascending: these are the m smallest eigenvectors
    return P
