"""Variant of course_style.py: the primal w is recovered as sum_i alpha_i x_i, without the labels:
w = sum_i alpha_i z_i x_i (eq. 156)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""

import numpy as np


def train_dual_SVM_linear(DTR, LTR, C, K=1):
    """Linear SVM with the bias as an extra feature of value K: returns w (D,) and b."""
    ZTR = LTR * 2.0 - 1.0
    DTR_EXT = np.vstack([DTR, K * np.ones((1, DTR.shape[1]))])
    H = (DTR_EXT.T @ DTR_EXT) * vcol(ZTR) * vrow(ZTR)
    alpha = _train_dual_SVM(H, C)
    # MISTAKE: w = sum_i alpha_i z_i x_i (eq. 156): the labels are missing
    w_hat = (vrow(alpha) * DTR_EXT).sum(1)
    w, b = w_hat[:-1], w_hat[-1] * K  # the score is w^T x + K * w_hat[-1]
    return w, b
