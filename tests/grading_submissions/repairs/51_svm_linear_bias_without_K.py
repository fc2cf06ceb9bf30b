"""Variant of base.py: the bias is the last weight of the extended model, without the factor K of
the constant feature (the score is w^T x + K w_ext[-1])

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def train_dual_SVM_linear(DTR, LTR, C, K=1):
    """Linear SVM trained through the dual, the bias as an extra feature K: returns (w, b)."""
    z = 2.0 * LTR - 1.0
    Dext = np.vstack([DTR, np.full((1, DTR.shape[1]), float(K))])
    G = Dext.T @ Dext  # Gram matrix of the extended samples
    H = G * np.outer(z, z)
    alpha = _solve_svm_dual(H, C)
    wExt = Dext @ (alpha * z)  # eq. 156
    w = wExt[:-1]
    # MISTAKE: the bias is the last weight times K (the feature value)
    b = wExt[-1]
    return w, b
