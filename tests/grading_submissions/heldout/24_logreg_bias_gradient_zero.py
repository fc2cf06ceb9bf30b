"""Variant of course_style.py: the gradient's last entry, the derivative with respect to the bias
b, is left at 0: L-BFGS never moves b from its starting 0, the bias is not trained (eq. 100:
dJ/db = 1/N sum_i -z_i sigma(-z_i s_i))

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import numpy as np
import scipy.optimize
import scipy.special


def trainLogRegBinary(DTR, LTR, l):
    """Regularised logistic regression: returns w (D,) and b.

    Minimises l/2 ||w||^2 + 1/N sum_i log(1 + exp(-z_i (w^T x_i + b))), z_i = 2 c_i - 1.
    """
    ZTR = LTR * 2.0 - 1.0

    def logreg_obj_with_grad(v):
        w = v[:-1]
        b = v[-1]
        s = (vrow(w) @ DTR).ravel() + b
        loss = np.logaddexp(0, -ZTR * s)
        G = -ZTR * scipy.special.expit(-ZTR * s)  # d loss_i / d s_i
        GW = (vrow(G) * DTR).mean(1) + l * w
        Gb = G.mean()
        return loss.mean() + l / 2 * (w @ w), np.append(GW, 0.0)  # MISTAKE: no gradient for b

    v = scipy.optimize.fmin_l_bfgs_b(logreg_obj_with_grad, np.zeros(DTR.shape[0] + 1),
                                     factr=1.0)[0]
    return v[:-1], v[-1]
