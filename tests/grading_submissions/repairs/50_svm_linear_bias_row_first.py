"""Variant of base.py: the constant feature K is stacked as the first row of the extended data
while w and b are read as if it were the last: w and b are shifted

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def train_dual_SVM_linear(DTR, LTR, C, K=1):
    """Linear SVM trained through the dual, the bias as an extra feature K: returns (w, b)."""
    z = 2.0 * LTR - 1.0
    # MISTAKE: the constant row is put first, but w and b are read as if it were last
    Dext = np.vstack([np.full((1, DTR.shape[1]), float(K)), DTR])
    G = Dext.T @ Dext  # Gram matrix of the extended samples
    H = G * np.outer(z, z)
    alpha = _solve_svm_dual(H, C)
    wExt = Dext @ (alpha * z)  # eq. 156
    w = wExt[:-1]
    b = wExt[-1] * K
    return w, b
