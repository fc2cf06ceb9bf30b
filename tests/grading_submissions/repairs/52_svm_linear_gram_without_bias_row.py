"""Variant of base.py: the dual is trained on the Gram matrix of the raw data while w (and b) are
recovered from the extended data with its row K: the training and the recovery use two different
models (the bias feature is missing from H)

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def train_dual_SVM_linear(DTR, LTR, C, K=1):
    """Linear SVM trained through the dual, the bias as an extra feature K: returns (w, b)."""
    z = 2.0 * LTR - 1.0
    Dext = np.vstack([DTR, np.full((1, DTR.shape[1]), float(K))])
    # MISTAKE: H is built from the raw data, w from the extended one
    G = DTR.T @ DTR
    H = G * np.outer(z, z)
    alpha = _solve_svm_dual(H, C)
    wExt = Dext @ (alpha * z)  # eq. 156
    w = wExt[:-1]
    b = wExt[-1] * K
    return w, b
