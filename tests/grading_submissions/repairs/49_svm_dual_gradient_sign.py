"""Variant of base.py: the analytic gradient of the (negated) dual has the wrong sign on its linear
term, H a + 1 instead of H a - 1 (eq. 158): L-BFGS-B stops at a wrong point

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np
import scipy.optimize


def _solve_svm_dual(H, C):
    """Minimise the negated dual 1/2 a^T H a - 1^T a over the box [0, C]^N (eq. 158, 182),
    restarting L-BFGS-B while a restart still lowers the objective."""
    N = H.shape[0]

    def negDual(a):
        Ha = H @ a
        # MISTAKE: the gradient of -1^T a is -1, not +1
        return 0.5 * a @ Ha - a.sum(), Ha + 1.0

    alpha = np.zeros(N)
    prev = None
    for _ in range(30):
        alpha, f, _ = scipy.optimize.fmin_l_bfgs_b(negDual, alpha, bounds=[(0.0, C)] * N,
                                                   factr=1.0, pgtol=1e-12, maxfun=100000)
        if prev is not None and f >= prev - 1e-14 * abs(prev):
            break
        prev = f
    return alpha
