"""Independent correct course-style implementation (style B) of the MLPR labs' optimiser
functions: binary and prior-weighted logistic regression, the labs' dual SVM (linear and
kernel) and Gaussian mixture models trained by EM and LBG.

Arithmetic style B: 2-D column/row vectors throughout (the labs' vcol / vrow), products with
``np.dot``; the SVM matrix H is built as ``np.outer(z, z) * G`` and the dual works on a column
alpha; logistic regression scores are a 1 x N row ``np.dot(vrow(w), D) + b``, the loss
``log(1 + exp(-z s))`` via ``np.logaddexp`` and the gradient from ``G = -z / (1 + exp(z s))``;
GMM log-densities are stacked in an M x N matrix and log-summed with
``scipy.special.logsumexp(..., axis=0)``; covariances via ``(vrow(gamma) * X) @ X.T / Z -
mu @ mu.T``; EM stops when ``abs(llNew - llOld) < epsLLAverage``; eigenvalues are floored
through ``np.linalg.svd``.

Importing this module has no side effects.
"""

import numpy as np
import scipy.optimize
import scipy.special


def vcol(x):
    return np.asarray(x).reshape((-1, 1))


def vrow(x):
    return np.asarray(x).reshape((1, -1))


# ---------------------------------------------------------------------------------------------
# Gaussian densities


def compute_mu_C(D):
    mu = vcol(D.mean(1))
    DC = D - mu
    C = np.dot(DC, DC.T) / float(D.shape[1])
    return mu, C


def logpdf_GAU_ND(X, mu, C):
    M = X.shape[0]
    P = np.linalg.inv(C)
    logdet = np.linalg.slogdet(C)[1]
    XC = X - vcol(mu)
    quad = (XC * np.dot(P, XC)).sum(0)
    return -0.5 * M * np.log(2 * np.pi) - 0.5 * logdet - 0.5 * quad


# ---------------------------------------------------------------------------------------------
# Logistic regression


def _logreg_obj_wrap(DTR, LTR, l, pT=None):
    Z = vrow(2.0 * LTR - 1.0)
    N = DTR.shape[1]
    if pT is None:
        xi = vrow(np.ones(N) / float(N))
    else:
        nT = float((LTR == 1).sum())
        nF = float((LTR == 0).sum())
        xi = vrow(np.where(LTR == 1, pT / nT, (1.0 - pT) / nF))

    def logreg_obj(v):
        w, b = v[:-1], v[-1]
        S = np.dot(vrow(w), DTR) + b                     # 1 x N
        ZS = Z * S
        loss = np.logaddexp(0, -ZS)                      # log1p(exp(-ZS)) without overflow
        with np.errstate(over='ignore'):
            G = -Z / (1.0 + np.exp(ZS))
        f = (xi * loss).sum() + 0.5 * l * np.dot(w, w)
        GW = (xi * G)
        gw = vcol((GW * DTR).sum(1)) + l * vcol(w)
        gb = GW.sum()
        return f, np.hstack([gw.ravel(), np.array([gb])])

    return logreg_obj


def trainLogRegBinary(DTR, LTR, l):
    f = _logreg_obj_wrap(DTR, LTR, l)
    vf = scipy.optimize.fmin_l_bfgs_b(f, x0=np.zeros(DTR.shape[0] + 1))[0]
    return vf[:-1], float(vf[-1])


def trainWeightedLogRegBinary(DTR, LTR, l, pT):
    f = _logreg_obj_wrap(DTR, LTR, l, pT)
    vf = scipy.optimize.fmin_l_bfgs_b(f, x0=np.zeros(DTR.shape[0] + 1))[0]
    return vf[:-1], float(vf[-1])


# ---------------------------------------------------------------------------------------------
# Support vector machines


def _svm_dual_wrap(H):
    def fOpt(alpha):
        Ha = np.dot(H, vcol(alpha))
        loss = 0.5 * np.dot(vrow(alpha), Ha).item() - alpha.sum()
        grad = Ha.ravel() - 1
        return loss, grad

    return fOpt


def train_dual_SVM_linear(DTR, LTR, C, K=1):
    ZTR = 2.0 * LTR - 1.0
    DTR_EXT = np.vstack([DTR, np.ones((1, DTR.shape[1])) * K])
    H = np.outer(ZTR, ZTR) * np.dot(DTR_EXT.T, DTR_EXT)
    N = DTR_EXT.shape[1]
    alphaStar, _, _ = scipy.optimize.fmin_l_bfgs_b(
        _svm_dual_wrap(H), np.zeros(N), bounds=[(0, C) for _ in range(N)], factr=1.0)
    w_hat = (vrow(alphaStar) * vrow(ZTR) * DTR_EXT).sum(1)
    w, b = w_hat[0:DTR.shape[0]], float(w_hat[-1] * K)
    return w, b


def polyKernel(degree, c):
    def polyKernelFunc(D1, D2):
        return (np.dot(D1.T, D2) + c) ** degree

    return polyKernelFunc


def rbfKernel(gamma):
    def rbfKernelFunc(D1, D2):
        D1Norms = (D1 ** 2).sum(0)
        D2Norms = (D2 ** 2).sum(0)
        Z = vcol(D1Norms) + vrow(D2Norms) - 2 * np.dot(D1.T, D2)
        return np.exp(-gamma * Z)

    return rbfKernelFunc


def train_dual_SVM_kernel(DTR, LTR, C, kernelFunc, eps=1.0):
    ZTR = 2.0 * LTR - 1.0
    K = kernelFunc(DTR, DTR) + eps
    H = np.outer(ZTR, ZTR) * K
    N = DTR.shape[1]
    alphaStar, _, _ = scipy.optimize.fmin_l_bfgs_b(
        _svm_dual_wrap(H), np.zeros(N), bounds=[(0, C) for _ in range(N)], factr=1.0)

    def fScore(DTE):
        Kte = kernelFunc(DTR, DTE) + eps
        return np.dot(vrow(alphaStar * ZTR), Kte).ravel()

    return fScore


# ---------------------------------------------------------------------------------------------
# Gaussian mixture models


def logpdf_GMM(X, gmm):
    S = np.vstack([vrow(logpdf_GAU_ND(X, mu, C) + np.log(w)) for w, mu, C in gmm])  # M x N
    return scipy.special.logsumexp(S, axis=0)


def smooth_covariance_matrix(C, psi):
    U, s, _ = np.linalg.svd(C)
    s[s < psi] = psi
    return np.dot(U, vcol(s) * U.T)


def train_GMM_EM_Iteration(X, gmm, covType='Full', psiEig=None):
    assert covType.lower() in ['full', 'diagonal', 'tied']
    S = np.vstack([vrow(logpdf_GAU_ND(X, mu, C) + np.log(w)) for w, mu, C in gmm])
    logdens = scipy.special.logsumexp(S, axis=0)
    gammaAll = np.exp(S - vrow(logdens))                  # M x N responsibilities

    N = X.shape[1]
    gmmUpd = []
    for gIdx in range(len(gmm)):
        gamma = gammaAll[gIdx]
        Z = gamma.sum()
        F = vcol((vrow(gamma) * X).sum(1))
        mu = F / Z
        C = np.dot(vrow(gamma) * X, X.T) / Z - np.dot(mu, mu.T)
        if covType.lower() == 'diagonal':
            C = C * np.eye(X.shape[0])
        gmmUpd.append((Z / N, mu, C))

    if covType.lower() == 'tied':
        CTied = 0
        for w, mu, C in gmmUpd:
            CTied = CTied + w * C                         # w = Z / N
        gmmUpd = [(w, mu, CTied) for w, mu, C in gmmUpd]

    if psiEig is not None:
        gmmUpd = [(w, mu, smooth_covariance_matrix(C, psiEig)) for w, mu, C in gmmUpd]

    return gmmUpd


def train_GMM_EM(X, gmm, covType='Full', psiEig=None, epsLLAverage=1e-6, verbose=True):
    llOld = logpdf_GMM(X, gmm).mean()
    it = 0
    if verbose:
        print('GMM - it %3d - average ll %.8e' % (it, llOld))
    while True:
        gmm = train_GMM_EM_Iteration(X, gmm, covType=covType, psiEig=psiEig)
        llNew = logpdf_GMM(X, gmm).mean()
        it += 1
        if verbose:
            print('GMM - it %3d - average ll %.8e' % (it, llNew))
        if abs(llNew - llOld) < epsLLAverage:
            break
        llOld = llNew
    if verbose:
        print('GMM - it %3d - average ll %.8e (eps = %e)' % (it, llNew, epsLLAverage))
    return gmm


def split_GMM_LBG(gmm, alpha=0.1, verbose=True):
    gmmOut = []
    if verbose:
        print('LBG - going from %d to %d components' % (len(gmm), len(gmm) * 2))
    for w, mu, C in gmm:
        U, s, Vh = np.linalg.svd(C)
        d = U[:, 0:1] * s[0] ** 0.5 * alpha
        gmmOut.append((0.5 * w, mu - d, C))
        gmmOut.append((0.5 * w, mu + d, C))
    return gmmOut


def train_GMM_LBG_EM(X, numComponents, covType='Full', psiEig=None, epsLLAverage=1e-6,
                     lbgAlpha=0.1, verbose=True):
    mu, C = compute_mu_C(X)
    if covType.lower() == 'diagonal':
        C = C * np.eye(X.shape[0])
    if psiEig is not None:
        gmm = [(1.0, mu, smooth_covariance_matrix(C, psiEig))]
    else:
        gmm = [(1.0, mu, C)]

    while len(gmm) < numComponents:
        if verbose:
            print('Average ll before LBG: %.8e' % logpdf_GMM(X, gmm).mean())
        gmm = split_GMM_LBG(gmm, lbgAlpha, verbose=verbose)
        if verbose:
            print('Average ll after LBG: %.8e' % logpdf_GMM(X, gmm).mean())
        gmm = train_GMM_EM(X, gmm, covType=covType, psiEig=psiEig, verbose=verbose,
                           epsLLAverage=epsLLAverage)
    return gmm
