"""Variant of base.py: psi is added to every eigenvalue instead of raising only those below psi to
psi (the eigenvalue floor of section 9.4)

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def smooth_covariance_matrix(C, psi):
    """C with every eigenvalue below psi raised to psi."""
    U, s, _ = np.linalg.svd(C)
    # MISTAKE: psi added to every eigenvalue instead of a floor
    s = s + psi
    return U @ np.diag(s) @ U.T
