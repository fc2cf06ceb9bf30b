"""Variant of base.py: eps, the regularised bias of the kernel, is added when scoring but not in
the training matrix H: the model trained and the model scored differ

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def train_dual_SVM_kernel(DTR, LTR, C, kernelFunc, eps=1.0):
    """Kernel SVM (kernel + eps for the bias) through the dual; returns a scoring function."""
    z = 2.0 * LTR - 1.0
    # MISTAKE: eps left out of the training kernel (it stays in the scores)
    H = np.outer(z, z) * kernelFunc(DTR, DTR)
    alpha = _solve_svm_dual(H, C)
    az = alpha * z

    def score(DTE):
        return az @ (kernelFunc(DTR, DTE) + eps)  # eq. 174
    return score
