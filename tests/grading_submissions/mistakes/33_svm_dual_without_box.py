"""Variant of course_style.py: the dual's box constraint is missing: 0 <= alpha_i without the upper
bound C, the hard-margin dual (eq. 157) instead of the soft-margin one (0 <= alpha_i <= C, eq.
164-165)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""

import numpy as np
import scipy.optimize


def _train_dual_SVM(H, C):
    """Minimise 1/2 a^T H a - 1^T a over the box 0 <= a <= C; returns alpha."""
    def fOpt(alpha):
        Ha = H @ alpha
        return 0.5 * (alpha @ Ha) - alpha.sum(), Ha - 1.0

    N = H.shape[0]
    alpha = np.zeros(N)
    fBest = np.inf
    # L-BFGS-B can stop short of the optimum on badly scaled data (features far from the
    # origin); restarting it from where it stopped resets its memory and finishes the job
    for _restart in range(20):
        # MISTAKE: the soft-margin dual bounds every alpha_i by C, 0 <= alpha_i <= C (eq. 165)
        alpha, f, _info = scipy.optimize.fmin_l_bfgs_b(fOpt, alpha, bounds=[(0, None)] * N,
                                                       factr=1.0)
        if f >= fBest - 1e-15 * abs(fBest):
            break
        fBest = f
    return alpha
