"""Variant of course_style.py: the floored covariance is rebuilt as U diag(s) U instead of U
diag(s) U^T (section 9.4)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""

import numpy as np


def smooth_covariance_matrix(C, psi):
    """C with its eigenvalues floored at psi."""
    s, U = np.linalg.eigh(C)
    s = np.maximum(s, psi)
    # MISTAKE: the floored covariance is U diag(s) U^T
    return U @ (vcol(s) * U)
