"""Independent correct course-style implementation (style D) of the MLPR 2024 labs'
optimiser-based functions: Gaussian densities, logistic regression (plain and
prior-weighted), linear and kernel SVMs (dual, L-BFGS-B) and GMMs (EM, LBG).

Arithmetic style D:
- SVMs go through the kernel trick in both cases: the linear SVM builds the Gram
  matrix of the extended data ``G = Xhat.T @ Xhat``, ``H = G * vcol(z) * vrow(z)``,
  and recovers ``w_hat = (vrow(alpha * z) * Xhat).sum(axis=1)`` afterwards; the dual
  objective uses the row-side product ``aH = alpha @ H`` and returns
  ``(0.5 * aH @ alpha - sum(alpha), aH - 1)``; one ``fmin_l_bfgs_b`` call, factr=1.0.
- Logistic regression treats the bias as an extra parameter on data extended by a row
  of ones, ``s = v @ Xt``, per-sample losses ``np.logaddexp(0, -z*s)`` summed and
  divided by the sample count (``np.sum(...) / N``), regulariser on ``v[:-1]`` only;
  one ``fmin_l_bfgs_b`` call with scipy's default factr and pgtol.
- GMMs: the log-joint is built as a Python list of rows then ``np.array``, normalised
  with ``scipy.special.logsumexp``; the M step loops over components in Python; EM
  stops when ``(llNew - llOld) < epsLLAverage`` with ll = sum of log-densities / N;
  eigenvalue flooring goes through ``np.linalg.svd``.
"""

import numpy as np
import scipy.optimize
import scipy.special


def vcol(x):
    x = np.asarray(x)
    return x.reshape((x.size, 1))


def vrow(x):
    x = np.asarray(x)
    return x.reshape((1, x.size))


# ---------------------------------------------------------------------------
# Gaussian
# ---------------------------------------------------------------------------

def compute_mu_C(D):
    D = np.asarray(D, dtype=float)
    mu = vcol(D.mean(axis=1))
    DC = D - mu
    C = (DC @ DC.T) / float(D.shape[1])
    return mu, C


def logpdf_GAU_ND(X, mu, C):
    X = np.asarray(X, dtype=float)
    mu = vcol(mu)
    C = np.asarray(C, dtype=float)
    M = X.shape[0]
    P = np.linalg.inv(C)
    logdet = np.linalg.slogdet(C)[1]
    XC = X - mu
    quad = (XC * (P @ XC)).sum(axis=0)
    return -0.5 * M * np.log(2 * np.pi) - 0.5 * logdet - 0.5 * quad


# ---------------------------------------------------------------------------
# Logistic regression
# ---------------------------------------------------------------------------

def _extend_ones(DTR):
    DTR = np.asarray(DTR, dtype=float)
    return np.vstack([DTR, np.ones((1, DTR.shape[1]))])


def trainLogRegBinary(DTR, LTR, l):
    LTR = np.asarray(LTR)
    Xt = _extend_ones(DTR)
    z = 2.0 * LTR.astype(float) - 1.0
    N = Xt.shape[1]

    def logreg_obj_with_grad(v):
        s = v @ Xt
        loss = np.logaddexp(0, -z * s)
        w = v[:-1]
        f = l / 2.0 * np.sum(w * w) + np.sum(loss) / N
        G = -z * scipy.special.expit(-z * s)  # d loss_i / d s_i
        grad = (Xt @ G) / N
        grad[:-1] = grad[:-1] + l * w
        return f, grad

    v = scipy.optimize.fmin_l_bfgs_b(logreg_obj_with_grad, x0=np.zeros(Xt.shape[0]))[0]
    return v[:-1], float(v[-1])


def trainWeightedLogRegBinary(DTR, LTR, l, pT):
    LTR = np.asarray(LTR)
    Xt = _extend_ones(DTR)
    z = 2.0 * LTR.astype(float) - 1.0
    isT = LTR == 1
    isF = LTR == 0
    nT = float(np.sum(isT))
    nF = float(np.sum(isF))

    def logreg_obj_with_grad(v):
        s = v @ Xt
        loss = np.logaddexp(0, -z * s)
        w = v[:-1]
        f = (l / 2.0 * np.sum(w * w)
             + pT * np.sum(loss[isT]) / nT
             + (1.0 - pT) * np.sum(loss[isF]) / nF)
        G = -z * scipy.special.expit(-z * s)
        G = np.where(isT, G * pT / nT, G * (1.0 - pT) / nF)
        grad = Xt @ G
        grad[:-1] = grad[:-1] + l * w
        return f, grad

    v = scipy.optimize.fmin_l_bfgs_b(logreg_obj_with_grad, x0=np.zeros(Xt.shape[0]))[0]
    return v[:-1], float(v[-1])


# ---------------------------------------------------------------------------
# Support vector machines
# ---------------------------------------------------------------------------

def _dual_func(H):
    def fOpt(alpha):
        aH = alpha @ H
        return 0.5 * aH @ alpha - np.sum(alpha), aH - 1.0
    return fOpt


def train_dual_SVM_linear(DTR, LTR, C, K=1):
    DTR = np.asarray(DTR, dtype=float)
    LTR = np.asarray(LTR)
    z = 2.0 * LTR.astype(float) - 1.0
    N = DTR.shape[1]
    Xhat = np.vstack([DTR, np.ones((1, N)) * K])
    G = Xhat.T @ Xhat
    H = G * vcol(z) * vrow(z)
    alpha = scipy.optimize.fmin_l_bfgs_b(_dual_func(H), np.zeros(N),
                                         bounds=[(0, C) for _ in range(N)], factr=1.0)[0]
    w_hat = (vrow(alpha * z) * Xhat).sum(axis=1)
    return w_hat[:-1], float(w_hat[-1] * K)


def polyKernel(degree, c):
    def polyKernelFunc(D1, D2):
        return (np.asarray(D1, dtype=float).T @ np.asarray(D2, dtype=float) + c) ** degree
    return polyKernelFunc


def rbfKernel(gamma):
    def rbfKernelFunc(D1, D2):
        D1 = np.asarray(D1, dtype=float)
        D2 = np.asarray(D2, dtype=float)
        d2 = vcol((D1 ** 2).sum(axis=0)) + vrow((D2 ** 2).sum(axis=0)) - 2 * D1.T @ D2
        return np.exp(-gamma * d2)
    return rbfKernelFunc


def train_dual_SVM_kernel(DTR, LTR, C, kernelFunc, eps=1.0):
    DTR = np.asarray(DTR, dtype=float)
    LTR = np.asarray(LTR)
    z = 2.0 * LTR.astype(float) - 1.0
    N = DTR.shape[1]
    K = kernelFunc(DTR, DTR) + eps
    H = K * vcol(z) * vrow(z)
    alpha = scipy.optimize.fmin_l_bfgs_b(_dual_func(H), np.zeros(N),
                                         bounds=[(0, C) for _ in range(N)], factr=1.0)[0]

    def fScore(DTE):
        Kte = kernelFunc(DTR, np.asarray(DTE, dtype=float)) + eps
        return (vcol(alpha * z) * Kte).sum(axis=0)

    return fScore


# ---------------------------------------------------------------------------
# Gaussian mixture models
# ---------------------------------------------------------------------------

def logpdf_GMM(X, gmm):
    S = []
    for w, mu, C in gmm:
        S.append(logpdf_GAU_ND(X, mu, C) + np.log(w))
    S = np.array(S)
    return scipy.special.logsumexp(S, axis=0)


def smooth_covariance_matrix(C, psi):
    U, s, _ = np.linalg.svd(C)
    return U @ np.diag(np.maximum(s, psi)) @ U.T


def train_GMM_EM_Iteration(X, gmm, covType='Full', psiEig=None):
    X = np.asarray(X, dtype=float)
    N = X.shape[1]
    covType = covType.lower()

    # E step
    S = []
    for w, mu, C in gmm:
        S.append(logpdf_GAU_ND(X, mu, C) + np.log(w))
    S = np.array(S)
    logdens = scipy.special.logsumexp(S, axis=0)
    gammaAll = np.exp(S - logdens)

    # M step
    gmmUpd = []
    for gIdx in range(len(gmm)):
        gamma = gammaAll[gIdx]
        Z = gamma.sum()
        F = vcol((vrow(gamma) * X).sum(axis=1))
        Sg = (vrow(gamma) * X) @ X.T
        muUpd = F / Z
        CUpd = Sg / Z - muUpd @ muUpd.T
        wUpd = Z / N
        if covType == 'diagonal':
            CUpd = CUpd * np.eye(X.shape[0])
        gmmUpd.append((wUpd, muUpd, CUpd))

    if covType == 'tied':
        CTied = 0
        for w, mu, C in gmmUpd:
            CTied = CTied + w * C  # w = Z_g / N
        gmmUpd = [(w, mu, CTied) for w, mu, C in gmmUpd]

    if psiEig is not None:
        gmmUpd = [(w, mu, smooth_covariance_matrix(C, psiEig)) for w, mu, C in gmmUpd]

    return gmmUpd


def train_GMM_EM(X, gmm, covType='Full', psiEig=None, epsLLAverage=1e-6, verbose=True):
    X = np.asarray(X, dtype=float)
    N = X.shape[1]
    llOld = np.sum(logpdf_GMM(X, gmm)) / N
    if verbose:
        print('GMM - it %3d - average ll %.8e' % (0, llOld))
    it = 1
    while True:
        gmmUpd = train_GMM_EM_Iteration(X, gmm, covType=covType, psiEig=psiEig)
        llNew = np.sum(logpdf_GMM(X, gmmUpd)) / N
        if verbose:
            print('GMM - it %3d - average ll %.8e' % (it, llNew))
        gmm = gmmUpd
        if (llNew - llOld) < epsLLAverage:
            break
        llOld = llNew
        it += 1
    if verbose:
        print('GMM - it %3d - average ll %.8e (eps = %e)' % (it, llNew, epsLLAverage))
    return gmm


def split_GMM_LBG(gmm, alpha=0.1, verbose=True):
    gmmOut = []
    if verbose:
        print('LBG - going from %d to %d components' % (len(gmm), len(gmm) * 2))
    for w, mu, C in gmm:
        U, s, _ = np.linalg.svd(C)
        d = U[:, 0:1] * s[0] ** 0.5 * alpha
        gmmOut.append((0.5 * w, mu - d, C))
        gmmOut.append((0.5 * w, mu + d, C))
    return gmmOut


def train_GMM_LBG_EM(X, numComponents, covType='Full', psiEig=None, epsLLAverage=1e-6,
                     lbgAlpha=0.1, verbose=True):
    X = np.asarray(X, dtype=float)
    mu, C = compute_mu_C(X)
    if covType.lower() == 'diagonal':
        C = C * np.eye(X.shape[0])
    if psiEig is not None:
        C = smooth_covariance_matrix(C, psiEig)
    gmm = [(1.0, mu, C)]
    while len(gmm) < numComponents:
        if verbose:
            print('Average ll before LBG: %.8e' % (np.sum(logpdf_GMM(X, gmm)) / X.shape[1]))
        gmm = split_GMM_LBG(gmm, lbgAlpha, verbose=verbose)
        if verbose:
            print('Average ll after LBG: %.8e' % (np.sum(logpdf_GMM(X, gmm)) / X.shape[1]))
        gmm = train_GMM_EM(X, gmm, covType=covType, psiEig=psiEig,
                           epsLLAverage=epsLLAverage, verbose=verbose)
    return gmm
