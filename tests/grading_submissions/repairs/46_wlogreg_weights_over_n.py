"""Variant of base.py: the class weights are pT / N and (1 - pT) / N instead of pT / nT and (1 -
pT) / nF (eq. 101): the wrong normaliser

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np
import scipy.optimize
import scipy.special


def trainWeightedLogRegBinary(DTR, LTR, l, pT):
    """Minimise eq. (101): the loss of each class weighted by pT / nT and (1 - pT) / nF."""
    z = 2.0 * LTR - 1.0
    nT = np.sum(LTR == 1)
    nF = np.sum(LTR == 0)
    # MISTAKE: both weights divided by the number of samples N, not nT and nF
    xi = np.where(LTR == 1, pT / LTR.size, (1.0 - pT) / LTR.size)

    def objective(x):
        w, b = x[:-1], x[-1]
        s = w @ DTR + b
        J = 0.5 * l * np.dot(w, w) + np.sum(xi * np.logaddexp(0.0, -z * s))
        g = -xi * z * scipy.special.expit(-z * s)
        return J, np.concatenate([DTR @ g + l * w, [g.sum()]])

    x0 = np.zeros(DTR.shape[0] + 1)
    xOpt, _, _ = scipy.optimize.fmin_l_bfgs_b(objective, x0, factr=1.0, pgtol=1e-12,
                                              maxfun=100000)
    return xOpt[:-1], xOpt[-1]
