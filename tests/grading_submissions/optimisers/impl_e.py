"""Style E: an independent, correct course-style solution of the MLPR 2024 labs.

This file stands in for a correct student's submission. It covers Gaussian densities, binary
and prior-weighted logistic regression, the linear and kernel SVM duals, and GMMs trained by
EM and LBG. It was written from the formulas in the course notes and uses only numpy, scipy
and the standard library.

Arithmetic style E: explicit Python loops where students often write them.

- The SVM matrix H is filled by a double loop over the training samples.
- The SVM dual is ``0.5 * alpha.dot(H.dot(alpha)) - alpha.dot(ones)``.
- Logistic regression uses ``np.dot(w.T, DTR) + b`` and ``np.logaddexp``.
- The GMM log-densities are computed one component at a time and combined with
  ``scipy.special.logsumexp``.
- The EM statistics are matrix products (``X @ gamma``, ``(X * gamma) @ X.T``).
- EM stops when the average log-likelihood rises by less than ``epsLLAverage`` (the labs'
  ``while`` loop).
- Eigenvalues are floored with ``np.linalg.eigh``.

The optimisers are called as the labs call them: one ``scipy.optimize.fmin_l_bfgs_b`` run from
zeros, with default settings for logistic regression and ``factr=1.0`` for the SVM duals.
Importing this module has no side effects.
"""

import numpy as np
import scipy.optimize
import scipy.special


def vcol(x):
    return x.reshape((x.size, 1))


def vrow(x):
    return x.reshape((1, x.size))


# ---------------------------------------------------------------- Gaussian densities

def compute_mu_C(D):
    mu = vcol(D.mean(1))
    DC = D - mu
    C = np.dot(DC, DC.T) / float(D.shape[1])
    return mu, C


def logpdf_GAU_ND(X, mu, C):
    M = X.shape[0]
    XC = X - mu
    logdet = np.linalg.slogdet(C)[1]
    P = np.linalg.inv(C)
    return (-0.5 * M * np.log(2 * np.pi) - 0.5 * logdet
            - 0.5 * np.sum(XC * np.dot(P, XC), 0))


# ---------------------------------------------------------------- logistic regression

def trainLogRegBinary(DTR, LTR, l):
    z = 2.0 * LTR - 1.0

    def logreg_obj_with_grad(v):
        w = v[:-1]
        b = v[-1]
        s = np.dot(w.T, DTR).ravel() + b
        loss = np.mean(np.logaddexp(0, -z * s))
        G = -z / (1.0 + np.exp(z * s))
        GW = (vrow(G) * DTR).mean(1) + l * w.ravel()
        Gb = G.mean()
        f = loss + l / 2.0 * np.linalg.norm(w) ** 2
        return f, np.hstack([GW, np.array(Gb)])

    vf = scipy.optimize.fmin_l_bfgs_b(logreg_obj_with_grad,
                                      x0=np.zeros(DTR.shape[0] + 1))[0]
    return vf[:-1], float(vf[-1])


def trainWeightedLogRegBinary(DTR, LTR, l, pT):
    z = 2.0 * LTR - 1.0
    nT = float((LTR == 1).sum())
    nF = float((LTR == 0).sum())
    wTrue = pT / nT
    wFalse = (1.0 - pT) / nF

    def logreg_obj_with_grad(v):
        w = v[:-1]
        b = v[-1]
        s = np.dot(w.T, DTR).ravel() + b
        loss = np.logaddexp(0, -z * s)
        loss[z > 0] *= wTrue
        loss[z < 0] *= wFalse
        G = -z / (1.0 + np.exp(z * s))
        G[z > 0] *= wTrue
        G[z < 0] *= wFalse
        GW = (vrow(G) * DTR).sum(1) + l * w.ravel()
        Gb = G.sum()
        f = loss.sum() + l / 2.0 * np.linalg.norm(w) ** 2
        return f, np.hstack([GW, np.array(Gb)])

    vf = scipy.optimize.fmin_l_bfgs_b(logreg_obj_with_grad,
                                      x0=np.zeros(DTR.shape[0] + 1))[0]
    return vf[:-1], float(vf[-1])


# ---------------------------------------------------------------- support vector machines

def train_dual_SVM_linear(DTR, LTR, C, K=1):
    z = 2.0 * LTR - 1.0
    N = DTR.shape[1]
    DTR_EXT = np.vstack([DTR, np.ones((1, N)) * K])

    H = np.zeros((N, N))
    for i in range(N):
        xi = DTR_EXT[:, i]
        for j in range(N):
            xj = DTR_EXT[:, j]
            H[i, j] = z[i] * z[j] * (xi @ xj)

    def fOpt(alpha):
        Ha = H.dot(alpha)
        loss = 0.5 * alpha.dot(Ha) - alpha.dot(np.ones(N))
        grad = Ha - np.ones(N)
        return loss, grad

    alphaStar, _, _ = scipy.optimize.fmin_l_bfgs_b(fOpt, np.zeros(N),
                                                   bounds=[(0, C) for _ in range(N)],
                                                   factr=1.0)

    w_hat = np.zeros(DTR_EXT.shape[0])
    for i in range(N):
        w_hat = w_hat + alphaStar[i] * z[i] * DTR_EXT[:, i]
    w = w_hat[0:DTR.shape[0]]
    b = w_hat[-1] * K
    return w, float(b)


def polyKernel(degree, c):

    def polyKernelFunc(D1, D2):
        return (np.dot(D1.T, D2) + c) ** degree

    return polyKernelFunc


def rbfKernel(gamma):

    def rbfKernelFunc(D1, D2):
        # squared distances ||x1 - x2||^2 = ||x1||^2 + ||x2||^2 - 2 x1^T x2
        D1Norms = (D1 ** 2).sum(0)
        D2Norms = (D2 ** 2).sum(0)
        Z = vcol(D1Norms) + vrow(D2Norms) - 2 * np.dot(D1.T, D2)
        return np.exp(-gamma * Z)

    return rbfKernelFunc


def train_dual_SVM_kernel(DTR, LTR, C, kernelFunc, eps=1.0):
    z = 2.0 * LTR - 1.0
    N = DTR.shape[1]
    Kmat = kernelFunc(DTR, DTR) + eps

    H = np.zeros((N, N))
    for i in range(N):
        for j in range(N):
            H[i, j] = z[i] * z[j] * Kmat[i, j]

    def fOpt(alpha):
        Ha = H.dot(alpha)
        loss = 0.5 * alpha.dot(Ha) - alpha.dot(np.ones(N))
        grad = Ha - np.ones(N)
        return loss, grad

    alphaStar, _, _ = scipy.optimize.fmin_l_bfgs_b(fOpt, np.zeros(N),
                                                   bounds=[(0, C) for _ in range(N)],
                                                   factr=1.0)
    az = alphaStar * z

    def fScore(DTE):
        scores = np.zeros(DTE.shape[1])
        for t in range(DTE.shape[1]):
            k = kernelFunc(DTR, DTE[:, t:t + 1]).ravel() + eps
            scores[t] = np.dot(az, k)
        return scores

    return fScore


# ---------------------------------------------------------------- Gaussian mixture models

def logpdf_GMM(X, gmm):
    S = []
    for w, mu, C in gmm:
        logpdf_conditional = logpdf_GAU_ND(X, mu, C)
        logpdf_joint = logpdf_conditional + np.log(w)
        S.append(logpdf_joint)
    S = np.vstack(S)
    return scipy.special.logsumexp(S, axis=0)


def smooth_covariance_matrix(C, psi):
    s, U = np.linalg.eigh(C)
    s[s < psi] = psi
    return np.dot(U, vcol(s) * U.T)


def train_GMM_EM_Iteration(X, gmm, covType='Full', psiEig=None):
    assert covType.lower() in ['full', 'diagonal', 'tied']
    N = X.shape[1]

    # E step
    S = []
    for w, mu, C in gmm:
        S.append(logpdf_GAU_ND(X, mu, C) + np.log(w))
    S = np.vstack(S)
    logdens = scipy.special.logsumexp(S, axis=0)
    gammaAll = np.exp(S - logdens)

    # M step
    gmmUpd = []
    for gIdx in range(len(gmm)):
        gamma = gammaAll[gIdx]
        Z = gamma.sum()
        F = vcol(X @ gamma)
        Smat = (X * vrow(gamma)) @ X.T
        muUpd = F / Z
        CUpd = Smat / Z - muUpd @ muUpd.T
        wUpd = Z / N
        if covType.lower() == 'diagonal':
            CUpd = CUpd * np.eye(X.shape[0])
        gmmUpd.append((wUpd, muUpd, CUpd))

    if covType.lower() == 'tied':
        CTied = 0
        for w, mu, C in gmmUpd:
            CTied = CTied + w * C  # w = Z / N
        gmmUpd = [(w, mu, CTied) for w, mu, C in gmmUpd]

    if psiEig is not None:
        gmmUpd = [(w, mu, smooth_covariance_matrix(C, psiEig)) for w, mu, C in gmmUpd]

    return gmmUpd


def train_GMM_EM(X, gmm, covType='Full', psiEig=None, epsLLAverage=1e-6, verbose=True):
    llOld = logpdf_GMM(X, gmm).mean()
    if verbose:
        print('GMM - it %3d - average ll %.8e' % (0, llOld))
    it = 1
    while True:
        gmm = train_GMM_EM_Iteration(X, gmm, covType=covType, psiEig=psiEig)
        llNew = logpdf_GMM(X, gmm).mean()
        if verbose:
            print('GMM - it %3d - average ll %.8e (delta %.4e)' % (it, llNew, llNew - llOld))
        if llNew - llOld < epsLLAverage:
            break
        llOld = llNew
        it += 1
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
