"""Variant of base.py: the analytic gradient has the wrong sign in the sigmoid's argument, sigma(z
s) instead of sigma(-z s): L-BFGS follows a gradient that is not the objective's and stops at a
wrong point (eq. 100)

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
        penalty, penalty_grad = 0.5 * l * np.dot(w, w), l * w
        J = penalty + np.logaddexp(0.0, -z * s).sum() / N
        # MISTAKE: the sign in the exponent of the derivative is lost
        g = -z * scipy.special.expit(z * s) / N
        grad_w = DTR @ g + penalty_grad
        grad_b = g.sum()
        return J, np.concatenate([grad_w, [grad_b]])

    x0 = np.zeros(DTR.shape[0] + 1)
    xOpt, _, _ = scipy.optimize.fmin_l_bfgs_b(objective, x0, factr=1.0, pgtol=1e-12,
                                              maxfun=100000)
    return xOpt[:-1], xOpt[-1]
