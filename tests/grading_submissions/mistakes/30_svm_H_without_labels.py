"""Variant of course_style.py: the dual's H leaves out the labels: H_ij = x_i^T x_j instead of z_i
z_j x_i^T x_j (eq. 158, on the data extended with K)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""

import numpy as np


def train_dual_SVM_linear(DTR, LTR, C, K=1):
    """Linear SVM with the bias as an extra feature of value K: returns w (D,) and b."""
    ZTR = LTR * 2.0 - 1.0
    DTR_EXT = np.vstack([DTR, K * np.ones((1, DTR.shape[1]))])
    # MISTAKE: H_ij = z_i z_j x_i^T x_j (eq. 158): the labels are missing
    H = DTR_EXT.T @ DTR_EXT
    alpha = _train_dual_SVM(H, C)
    w_hat = (vrow(alpha * ZTR) * DTR_EXT).sum(1)
    w, b = w_hat[:-1], w_hat[-1] * K  # the score is w^T x + K * w_hat[-1]
    return w, b
