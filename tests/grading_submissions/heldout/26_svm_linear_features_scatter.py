"""Variant of course_style.py: the transpose is on the wrong factor: DTR_EXT DTR_EXT^T, the (D+1)
x (D+1) scatter of the features, instead of the N x N Gram matrix DTR_EXT^T DTR_EXT of the
samples' inner products x_i^T x_j (eq. 158)

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import numpy as np


def train_dual_SVM_linear(DTR, LTR, C, K=1):
    """Linear SVM with the bias as an extra feature of value K: returns w (D,) and b."""
    ZTR = LTR * 2.0 - 1.0
    DTR_EXT = np.vstack([DTR, K * np.ones((1, DTR.shape[1]))])
    H = (DTR_EXT @ DTR_EXT.T) * vcol(ZTR) * vrow(ZTR)  # MISTAKE: (D+1) x (D+1), not N x N
    alpha = _train_dual_SVM(H, C)
    w_hat = (vrow(alpha * ZTR) * DTR_EXT).sum(1)
    w, b = w_hat[:-1], w_hat[-1] * K  # the score is w^T x + K * w_hat[-1]
    return w, b
