"""Variant of course_style.py: np.minimum instead of np.maximum: the eigenvalues are capped at psi
(those above it lowered to it) instead of floored (those below it raised to psi; section 9.4)

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import numpy as np


def smooth_covariance_matrix(C, psi):
    """C with its eigenvalues floored at psi."""
    s, U = np.linalg.eigh(C)
    s = np.minimum(s, psi)  # MISTAKE: caps the eigenvalues at psi instead of flooring them
    return U @ (vcol(s) * U.T)
