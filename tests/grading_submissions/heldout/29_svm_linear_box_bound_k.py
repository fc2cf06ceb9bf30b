"""Variant of course_style.py: the dual is solved in the box 0 <= alpha_i <= K, the value of the
bias feature, instead of C (eq. 164-165): the wrong argument passed along, the model is trained
for another regularisation

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import numpy as np


def train_dual_SVM_linear(DTR, LTR, C, K=1):
    """Linear SVM with the bias as an extra feature of value K: returns w (D,) and b."""
    ZTR = LTR * 2.0 - 1.0
    DTR_EXT = np.vstack([DTR, K * np.ones((1, DTR.shape[1]))])
    H = (DTR_EXT.T @ DTR_EXT) * vcol(ZTR) * vrow(ZTR)
    alpha = _train_dual_SVM(H, K)  # MISTAKE: the box bound is K, the bias feature, not C
    w_hat = (vrow(alpha * ZTR) * DTR_EXT).sum(1)
    w, b = w_hat[:-1], w_hat[-1] * K  # the score is w^T x + K * w_hat[-1]
    return w, b
