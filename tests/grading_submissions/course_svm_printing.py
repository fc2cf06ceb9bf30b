"""The labs' SVMs as the course's solution writes them, printing as it does: the primal loss, a
1-element array, formatted with '%e' (numpy >= 2.4 refuses that conversion; the submissions'
environment of the autograder pins the numpy the course's code runs on)."""

import numpy as np
import scipy.optimize


def vcol(x):
    return x.reshape((x.size, 1))


def vrow(x):
    return x.reshape((1, x.size))


def train_dual_SVM_linear(DTR, LTR, C, K=1):
    ZTR = LTR * 2.0 - 1.0
    DTR_EXT = np.vstack([DTR, np.ones((1, DTR.shape[1])) * K])
    H = np.dot(DTR_EXT.T, DTR_EXT) * vcol(ZTR) * vrow(ZTR)

    def fOpt(alpha):
        Ha = H @ vcol(alpha)
        loss = 0.5 * (vrow(alpha) @ Ha).ravel() - alpha.sum()
        grad = Ha.ravel() - np.ones(alpha.size)
        return loss, grad

    alphaStar, _, _ = scipy.optimize.fmin_l_bfgs_b(fOpt, np.zeros(DTR_EXT.shape[1]),
                                                   bounds=[(0, C) for i in LTR], factr=1.0)
    w_hat = (vrow(alphaStar) * vrow(ZTR) * DTR_EXT).sum(1)
    primalLoss = 0.5 * (w_hat * w_hat).sum() + C * np.maximum(
        0, 1 - ZTR * (vrow(w_hat) @ DTR_EXT)).sum(1)
    dualLoss = -fOpt(alphaStar)[0]
    print('SVM - C %e - K %e - primal loss %e - dual loss %e' % (C, K, primalLoss, dualLoss))
    w, b = w_hat[0:DTR.shape[0]], w_hat[-1] * K
    return w, b
