"""Variant of course_style.py: pi_T is divided by n_F and 1 - pi_T by n_T: the class counts are
swapped (eq. 101: pi_T / n_T for class 1, (1 - pi_T) / n_F for class 0)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""

import numpy as np
import scipy.optimize
import scipy.special


def trainWeightedLogRegBinary(DTR, LTR, l, pT):
    """Prior-weighted logistic regression: returns w (D,) and b.

    Minimises l/2 ||w||^2 + pT/nT sum_{c_i=1} log(1 + e^{-s_i})
    + (1-pT)/nF sum_{c_i=0} log(1 + e^{s_i}), s_i = w^T x_i + b.
    """
    ZTR = LTR * 2.0 - 1.0
    # MISTAKE: pi_T / n_T for class 1 and (1 - pi_T) / n_F for class 0 (eq. 101): the
    # counts are swapped
    weights = np.where(ZTR > 0, pT / (ZTR < 0).sum(), (1 - pT) / (ZTR > 0).sum())

    def logreg_obj_with_grad(v):
        w = v[:-1]
        b = v[-1]
        s = (vrow(w) @ DTR).ravel() + b
        loss = weights * np.logaddexp(0, -ZTR * s)
        G = -weights * ZTR * scipy.special.expit(-ZTR * s)
        GW = (vrow(G) * DTR).sum(1) + l * w
        Gb = G.sum()
        return loss.sum() + l / 2 * (w @ w), np.append(GW, Gb)

    v = scipy.optimize.fmin_l_bfgs_b(logreg_obj_with_grad, np.zeros(DTR.shape[0] + 1),
                                     factr=1.0)[0]
    return v[:-1], v[-1]
