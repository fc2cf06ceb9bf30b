"""Variant of base.py: the regulariser is lambda ||w||^2, the 1/2 of eq. 100 missing (with the
gradient of that objective): L-BFGS minimises another objective

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np
import scipy.optimize
import scipy.special


def trainLogRegBinary(DTR, LTR, l):
    """Minimise eq. (100): l/2 |w|^2 + 1/N sum log(1 + exp(-z_i (w^T x_i + b))); returns (w, b)."""
    z = 2.0 * LTR - 1.0
    N = DTR.shape[1]

    def objective(x):
        w, b = x[:-1], x[-1]
        s = w @ DTR + b
        # MISTAKE: lambda |w|^2 without the 1/2 of eq. 100 (and its gradient 2 lambda w)
        penalty, penalty_grad = l * np.dot(w, w), 2 * l * w
        J = penalty + np.logaddexp(0.0, -z * s).sum() / N
        g = -z * scipy.special.expit(-z * s) / N  # dJ/ds_i
        grad_w = DTR @ g + penalty_grad
        grad_b = g.sum()
        return J, np.concatenate([grad_w, [grad_b]])

    x0 = np.zeros(DTR.shape[0] + 1)
    xOpt, _, _ = scipy.optimize.fmin_l_bfgs_b(objective, x0, factr=1.0, pgtol=1e-12,
                                              maxfun=100000)
    return xOpt[:-1], xOpt[-1]
