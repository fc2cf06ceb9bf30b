"""Variant of course_style.py: the gradient leaves out the regulariser's lambda w: objective and
gradient disagree, so L-BFGS-B follows a wrong gradient (eq. 100; check the gradient by finite
differences)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""

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
        # MISTAKE: the gradient of lambda/2 ||w||^2 is lambda w: the gradient does not match
        # the objective
        GW = (vrow(G) * DTR).mean(1)
        Gb = G.mean()
        return loss.mean() + l / 2 * (w @ w), np.append(GW, Gb)

    v = scipy.optimize.fmin_l_bfgs_b(logreg_obj_with_grad, np.zeros(DTR.shape[0] + 1),
                                     factr=1.0)[0]
    return v[:-1], v[-1]
