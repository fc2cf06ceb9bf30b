"""Variant of course_style.py: the analytic gradient of the dual objective 1/2 a^T H a - 1^T a
keeps the 1/2: 0.5 H a - 1 instead of H a - 1 (the derivative of 1/2 a^T H a is H a for a
symmetric H; eq. 158): the gradient is not the objective's, L-BFGS-B stops at a wrong point

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import numpy as np
import scipy.optimize


def _train_dual_SVM(H, C):
    """Minimise 1/2 a^T H a - 1^T a over the box 0 <= a <= C; returns alpha."""
    def fOpt(alpha):
        Ha = H @ alpha
        return 0.5 * (alpha @ Ha) - alpha.sum(), 0.5 * Ha - 1.0  # MISTAKE: 1/2 kept in grad

    N = H.shape[0]
    alpha = np.zeros(N)
    fBest = np.inf
    # L-BFGS-B can stop short of the optimum on badly scaled data (features far from the
    # origin); restarting it from where it stopped resets its memory and finishes the job
    for _restart in range(20):
        alpha, f, _info = scipy.optimize.fmin_l_bfgs_b(fOpt, alpha, bounds=[(0, C)] * N,
                                                       factr=1.0)
        if f >= fBest - 1e-15 * abs(fBest):
            break
        fBest = f
    return alpha
