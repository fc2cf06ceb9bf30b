"""Every optimiser task of the labs as the course's published solutions write them, and nothing
more: one L-BFGS-B call for the logistic regressions (scipy's default factr, as the published
lab code has it) and for the SVM duals (factr=1.0), no restart; EM and LBG as plain loops over
the components. Written apart from course_style.py (its
own arithmetic and data layouts); the kit's fairness test grades both under many seeds."""

import numpy as np
import scipy.optimize
import scipy.special


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
    w, b = w_hat[0:DTR.shape[0]], w_hat[-1] * K
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
    ZTR = LTR * 2.0 - 1.0
    K = kernelFunc(DTR, DTR) + eps
    H = vcol(ZTR) * vrow(ZTR) * K

    def fOpt(alpha):
        Ha = H @ vcol(alpha)
        loss = 0.5 * (vrow(alpha) @ Ha).ravel() - alpha.sum()
        grad = Ha.ravel() - np.ones(alpha.size)
        return loss, grad

    alphaStar, _, _ = scipy.optimize.fmin_l_bfgs_b(fOpt, np.zeros(DTR.shape[1]),
                                                   bounds=[(0, C) for i in LTR], factr=1.0)

    def fScore(DTE):
        K = kernelFunc(DTR, DTE) + eps
        H = vcol(alphaStar) * vcol(ZTR) * K
        return H.sum(0)

    return fScore


# ------------------------------------------------------------------------------------------------
# logistic regression: one call with scipy's default stopping rule, the loss with logaddexp


def trainLogRegBinary(DTR, LTR, l):
    ZTR = 2.0 * LTR - 1.0
    n = DTR.shape[1]

    def logreg_obj(v):
        w, b = v[:-1], v[-1]
        S = np.dot(vcol(w).T, DTR).ravel() + b
        G = -ZTR / (1.0 + np.exp(ZTR * S))
        J = l / 2 * np.linalg.norm(w) ** 2 + np.logaddexp(0, -ZTR * S).sum() / n
        grad = np.hstack([l * w + (vrow(G) * DTR).sum(1) / n, G.sum() / n])
        return J, grad

    xf = scipy.optimize.fmin_l_bfgs_b(logreg_obj, x0=np.zeros(DTR.shape[0] + 1))[0]
    return xf[:-1], xf[-1]


def trainWeightedLogRegBinary(DTR, LTR, l, pT):
    ZTR = 2.0 * LTR - 1.0
    wTar = pT / (ZTR > 0).sum()
    wNon = (1 - pT) / (ZTR < 0).sum()

    def logreg_obj(v):
        w, b = v[:-1], v[-1]
        S = np.dot(vcol(w).T, DTR).ravel() + b
        loss = np.logaddexp(0, -ZTR * S)
        loss[ZTR > 0] *= wTar
        loss[ZTR < 0] *= wNon
        G = -ZTR / (1.0 + np.exp(ZTR * S))
        G[ZTR > 0] *= wTar
        G[ZTR < 0] *= wNon
        J = l / 2 * np.linalg.norm(w) ** 2 + loss.sum()
        grad = np.hstack([l * w + (vrow(G) * DTR).sum(1), G.sum()])
        return J, grad

    xf = scipy.optimize.fmin_l_bfgs_b(logreg_obj, x0=np.zeros(DTR.shape[0] + 1))[0]
    return xf[:-1], xf[-1]


# ------------------------------------------------------------------------------------------------
# Gaussian mixtures: responsibilities from the joint log-densities, statistics Z, F, S


def logpdf_GAU_ND(x, mu, C):
    P = np.linalg.inv(C)
    xc = x - mu
    return (-0.5 * x.shape[0] * np.log(np.pi * 2) - 0.5 * np.linalg.slogdet(C)[1]
            - 0.5 * (xc * (P @ xc)).sum(0))


def logpdf_GMM(X, gmm):
    S = [logpdf_GAU_ND(X, mu, C) + np.log(w) for w, mu, C in gmm]
    return scipy.special.logsumexp(np.vstack(S), axis=0)


def smooth_covariance_matrix(C, psi):
    U, s, Vh = np.linalg.svd(C)
    s[s < psi] = psi
    return U @ (vcol(s) * U.T)


def train_GMM_EM_Iteration(X, gmm, covType='Full', psiEig=None):
    S = np.vstack([logpdf_GAU_ND(X, mu, C) + np.log(w) for w, mu, C in gmm])
    post = np.exp(S - scipy.special.logsumexp(S, axis=0))
    newGmm = []
    for gIdx in range(len(gmm)):
        gamma = post[gIdx]
        Z = gamma.sum()
        F = vcol((vrow(gamma) * X).sum(1))
        Sm = (vrow(gamma) * X) @ X.T
        muUpd = F / Z
        CUpd = Sm / Z - muUpd @ muUpd.T
        if covType.lower() == 'diagonal':
            CUpd = np.diag(np.diag(CUpd))
        newGmm.append((Z / X.shape[1], muUpd, CUpd))
    if covType.lower() == 'tied':
        CTied = 0
        for w, _mu, C in newGmm:
            CTied = CTied + w * C
        newGmm = [(w, mu, CTied) for w, mu, C in newGmm]
    if psiEig is not None:
        newGmm = [(w, mu, smooth_covariance_matrix(C, psiEig)) for w, mu, C in newGmm]
    return newGmm


def train_GMM_EM(X, gmm, covType='Full', psiEig=None, epsLLAverage=1e-6, verbose=False):
    llOld = logpdf_GMM(X, gmm).mean()
    llDelta = None
    while llDelta is None or llDelta > epsLLAverage:
        gmm = train_GMM_EM_Iteration(X, gmm, covType=covType, psiEig=psiEig)
        llUpd = logpdf_GMM(X, gmm).mean()
        llDelta = llUpd - llOld
        llOld = llUpd
    return gmm


def split_GMM_LBG(gmm, alpha=0.1, verbose=False):
    gmmOut = []
    for w, mu, C in gmm:
        U, s, Vh = np.linalg.svd(C)
        d = U[:, 0:1] * s[0] ** 0.5 * alpha
        gmmOut.append((0.5 * w, mu - d, C))
        gmmOut.append((0.5 * w, mu + d, C))
    return gmmOut


def train_GMM_LBG_EM(X, numComponents, covType='Full', psiEig=None, epsLLAverage=1e-6,
                     lbgAlpha=0.1, verbose=False):
    mu = vcol(X.mean(1))
    C = ((X - mu) @ (X - mu).T) / X.shape[1]
    if covType.lower() == 'diagonal':
        C = C * np.eye(X.shape[0])
    if psiEig is not None:
        gmm = [(1.0, mu, smooth_covariance_matrix(C, psiEig))]
    else:
        gmm = [(1.0, mu, C)]
    while len(gmm) < numComponents:
        gmm = split_GMM_LBG(gmm, lbgAlpha, verbose=verbose)
        gmm = train_GMM_EM(X, gmm, covType=covType, psiEig=psiEig, epsLLAverage=epsLLAverage,
                           verbose=verbose)
    return gmm
