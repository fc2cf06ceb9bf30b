"""Variant of course_style.py: the derivative with respect to the bias is averaged over the
samples (G.mean()) while the weighted loss is summed (its weights pi_T / n_T and (1 - pi_T) /
n_F already normalise it, eq. 101): the gradient of b is N times too small, not the
objective's, and L-BFGS stops at a wrong point

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import numpy as np
import scipy.optimize
import scipy.special


def trainWeightedLogRegBinary(DTR, LTR, l, pT):
    """Prior-weighted logistic regression: returns w (D,) and b.

    Minimises l/2 ||w||^2 + pT/nT sum_{c_i=1} log(1 + e^{-s_i})
    + (1-pT)/nF sum_{c_i=0} log(1 + e^{s_i}), s_i = w^T x_i + b.
    """
    ZTR = LTR * 2.0 - 1.0
    weights = np.where(ZTR > 0, pT / (ZTR > 0).sum(), (1 - pT) / (ZTR < 0).sum())

    def logreg_obj_with_grad(v):
        w = v[:-1]
        b = v[-1]
        s = (vrow(w) @ DTR).ravel() + b
        loss = weights * np.logaddexp(0, -ZTR * s)
        G = -weights * ZTR * scipy.special.expit(-ZTR * s)
        GW = (vrow(G) * DTR).sum(1) + l * w
        Gb = G.mean()  # MISTAKE: averaged, while the weighted loss is summed
        return loss.sum() + l / 2 * (w @ w), np.append(GW, Gb)

    v = scipy.optimize.fmin_l_bfgs_b(logreg_obj_with_grad, np.zeros(DTR.shape[0] + 1),
                                     factr=1.0)[0]
    return v[:-1], v[-1]
