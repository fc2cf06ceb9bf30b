"""An independent, correct, course-style solution of the MLPR labs (2024 edition).

Logistic regression (labs 8-10), support vector machines (lab 9) and Gaussian mixture
models (lab 10), plus the Gaussian helpers they need; written from the math, the way a
careful student of the course would write them.

Arithmetic style ("style A"): 1-D numpy arrays wherever possible.

* logistic regression: the loss is ``np.logaddexp(0, -z * s)`` and its derivative with
  respect to the scores ``-z * scipy.special.expit(-z * s)``; one call of
  ``scipy.optimize.fmin_l_bfgs_b`` from zeros with scipy's default ``factr`` and ``pgtol``;
* SVMs: ``H = (z[:, None] * z[None, :]) * G`` and the dual (to minimise) as
  ``Ha = H @ alpha``, ``(0.5 * alpha @ Ha - alpha.sum(), Ha - 1)``, one call of
  ``fmin_l_bfgs_b`` from zeros with box constraints [0, C] and ``factr=1.0``;
* GMMs: responsibilities through ``scipy.special.logsumexp``; eigenvalues floored with
  ``np.linalg.eigh``; EM stops when ``llNew - llOld < epsLLAverage`` (average
  log-likelihood, tested after each iteration, as in the labs).

Importing this module computes and prints nothing.
"""

import numpy as np
import scipy.optimize
import scipy.special


# ----------------------------------------------------------------------------------------
# helpers and Gaussian densities
# ----------------------------------------------------------------------------------------

def vcol(x):
    x = np.asarray(x)
    return x.reshape((x.size, 1))


def vrow(x):
    x = np.asarray(x)
    return x.reshape((1, x.size))


def compute_mu_C(D):
    D = np.asarray(D, dtype=float)
    mu = vcol(D.mean(axis=1))
    DC = D - mu
    C = (DC @ DC.T) / D.shape[1]
    return mu, C


def logpdf_GAU_ND(X, mu, C):
    X = np.asarray(X, dtype=float)
    mu = vcol(mu)
    C = np.asarray(C, dtype=float)
    M = X.shape[0]
    XC = X - mu
    logdet = np.linalg.slogdet(C)[1]
    P = np.linalg.inv(C)
    quad = (XC * (P @ XC)).sum(axis=0)
    return -0.5 * M * np.log(2 * np.pi) - 0.5 * logdet - 0.5 * quad


# ----------------------------------------------------------------------------------------
# logistic regression
# ----------------------------------------------------------------------------------------

def trainLogRegBinary(DTR, LTR, l):
    DTR = np.asarray(DTR, dtype=float)
    LTR = np.asarray(LTR)
    z = 2.0 * LTR - 1.0
    N = DTR.shape[1]

    def logreg_obj_with_grad(v):
        w, b = v[:-1], v[-1]
        s = w @ DTR + b
        loss = np.logaddexp(0, -z * s)
        G = -z * scipy.special.expit(-z * s)
        f = loss.sum() / N + 0.5 * l * (w @ w)
        gw = DTR @ G / N + l * w
        gb = G.sum() / N
        return f, np.append(gw, gb)

    vf = scipy.optimize.fmin_l_bfgs_b(logreg_obj_with_grad, x0=np.zeros(DTR.shape[0] + 1))[0]
    return vf[:-1], float(vf[-1])


def trainWeightedLogRegBinary(DTR, LTR, l, pT):
    DTR = np.asarray(DTR, dtype=float)
    LTR = np.asarray(LTR)
    z = 2.0 * LTR - 1.0
    nT = (LTR == 1).sum()
    nF = (LTR == 0).sum()
    wTrue = pT / nT
    wFalse = (1 - pT) / nF
    xi = np.where(LTR == 1, wTrue, wFalse)

    def logreg_obj_with_grad(v):
        w, b = v[:-1], v[-1]
        s = w @ DTR + b
        loss = np.logaddexp(0, -z * s)
        G = -z * scipy.special.expit(-z * s)
        f = (xi * loss).sum() + 0.5 * l * (w @ w)
        gw = DTR @ (xi * G) + l * w
        gb = (xi * G).sum()
        return f, np.append(gw, gb)

    vf = scipy.optimize.fmin_l_bfgs_b(logreg_obj_with_grad, x0=np.zeros(DTR.shape[0] + 1))[0]
    return vf[:-1], float(vf[-1])


# ----------------------------------------------------------------------------------------
# support vector machines
# ----------------------------------------------------------------------------------------

def train_dual_SVM_linear(DTR, LTR, C, K=1):
    DTR = np.asarray(DTR, dtype=float)
    LTR = np.asarray(LTR)
    z = 2.0 * LTR - 1.0
    N = DTR.shape[1]
    DTR_EXT = np.vstack([DTR, np.ones((1, N)) * K])
    G = DTR_EXT.T @ DTR_EXT
    H = (z[:, None] * z[None, :]) * G

    def fOpt(alpha):
        Ha = H @ alpha
        return 0.5 * alpha @ Ha - alpha.sum(), Ha - 1

    alphaStar = scipy.optimize.fmin_l_bfgs_b(fOpt, np.zeros(N), bounds=[(0, C)] * N,
                                             factr=1.0)[0]
    w_hat = DTR_EXT @ (alphaStar * z)
    w, b = w_hat[:-1], w_hat[-1] * K
    return w, float(b)


def polyKernel(degree, c):

    def polyKernelFunc(D1, D2):
        return (np.asarray(D1, dtype=float).T @ np.asarray(D2, dtype=float) + c) ** degree

    return polyKernelFunc


def rbfKernel(gamma):

    def rbfKernelFunc(D1, D2):
        D1 = np.asarray(D1, dtype=float)
        D2 = np.asarray(D2, dtype=float)
        n1 = (D1 * D1).sum(axis=0)
        n2 = (D2 * D2).sum(axis=0)
        sqDist = n1[:, None] + n2[None, :] - 2 * (D1.T @ D2)
        return np.exp(-gamma * sqDist)

    return rbfKernelFunc


def train_dual_SVM_kernel(DTR, LTR, C, kernelFunc, eps=1.0):
    DTR = np.asarray(DTR, dtype=float)
    LTR = np.asarray(LTR)
    z = 2.0 * LTR - 1.0
    N = DTR.shape[1]
    G = kernelFunc(DTR, DTR) + eps
    H = (z[:, None] * z[None, :]) * G

    def fOpt(alpha):
        Ha = H @ alpha
        return 0.5 * alpha @ Ha - alpha.sum(), Ha - 1

    alphaStar = scipy.optimize.fmin_l_bfgs_b(fOpt, np.zeros(N), bounds=[(0, C)] * N,
                                             factr=1.0)[0]
    az = alphaStar * z

    def fScore(DTE):
        K = kernelFunc(DTR, np.asarray(DTE, dtype=float)) + eps
        return az @ K

    return fScore


# ----------------------------------------------------------------------------------------
# Gaussian mixture models
# ----------------------------------------------------------------------------------------

def _component_log_joints(X, gmm):
    return np.vstack([logpdf_GAU_ND(X, mu, C) + np.log(w) for w, mu, C in gmm])


def logpdf_GMM(X, gmm):
    X = np.asarray(X, dtype=float)
    return scipy.special.logsumexp(_component_log_joints(X, gmm), axis=0)


def smooth_covariance_matrix(C, psi):
    s, U = np.linalg.eigh(C)
    s = np.maximum(s, psi)
    return U @ (s[:, None] * U.T)


def train_GMM_EM_Iteration(X, gmm, covType='Full', psiEig=None):
    X = np.asarray(X, dtype=float)
    N = X.shape[1]
    S = _component_log_joints(X, gmm)
    gammas = np.exp(S - scipy.special.logsumexp(S, axis=0))  # (G, N) responsibilities

    Zs, newGmm = [], []
    for gamma in gammas:
        Z = gamma.sum()
        F = X @ gamma                       # (D,)
        Sg = (X * gamma) @ X.T              # (D, D)
        mu = vcol(F / Z)
        C = Sg / Z - mu @ mu.T
        if covType.lower() == 'diagonal':
            C = np.diag(np.diag(C))
        Zs.append(Z)
        newGmm.append((Z / N, mu, C))

    if covType.lower() == 'tied':
        CTied = sum(Z * C for Z, (w, mu, C) in zip(Zs, newGmm)) / N
        newGmm = [(w, mu, CTied) for w, mu, C in newGmm]

    if psiEig is not None:
        newGmm = [(w, mu, smooth_covariance_matrix(C, psiEig)) for w, mu, C in newGmm]

    return newGmm


def train_GMM_EM(X, gmm, covType='Full', psiEig=None, epsLLAverage=1e-6, verbose=True):
    X = np.asarray(X, dtype=float)
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
        if llNew - llOld < epsLLAverage:
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
    X = np.asarray(X, dtype=float)
    mu, C = compute_mu_C(X)
    if covType.lower() == 'diagonal':
        C = np.diag(np.diag(C))
    if psiEig is not None:
        C = smooth_covariance_matrix(C, psiEig)
    gmm = [(1.0, mu, C)]
    while len(gmm) < numComponents:
        if verbose:
            print('Average ll before LBG: %.8e' % logpdf_GMM(X, gmm).mean())
        gmm = split_GMM_LBG(gmm, lbgAlpha, verbose=verbose)
        if verbose:
            print('Average ll after LBG: %.8e' % logpdf_GMM(X, gmm).mean())
        gmm = train_GMM_EM(X, gmm, covType=covType, psiEig=psiEig,
                           epsLLAverage=epsLLAverage, verbose=verbose)
    return gmm
