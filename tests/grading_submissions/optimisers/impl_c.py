"""Independent correct course-style implementation (style C) of the MLPR labs.

Functions of the labs on Gaussian densities, logistic regression (plain and
prior-weighted), support vector machines (linear and kernel duals) and Gaussian
mixture models (EM, LBG), written from the course's formulas.

Arithmetic style C:
  * the optimiser gets separate objective and gradient functions,
    ``fmin_l_bfgs_b(f, x0, fprime=g, ...)`` (logistic regression and the SVM duals);
  * the SVM matrix H is built with ``np.einsum`` (kernel case) or as ``Zx.T @ Zx``
    from the label-scaled extended data (linear case); the dual objective is
    ``0.5 * einsum('i,ij,j->', a, H, a) - a.sum()`` with gradient ``H.dot(a) - 1``;
  * the logistic loss is ``log1p(exp(.))`` made numerically safe with ``np.where``
    on the sign of the argument, its gradient uses ``scipy.special.expit``;
  * Gaussian log-densities go through a Cholesky factor
    (``np.linalg.cholesky`` + ``scipy.linalg.solve_triangular``), the log-det from the
    factor's diagonal;
  * GMM log-sum-exp with a manual max shift; covariances with ``np.einsum``;
  * EM is a ``for`` loop with a generous iteration cap that breaks on the labs'
    rule ``llNew - llOld < epsLLAverage``; eigenvalues are floored with
    ``scipy.linalg.eigh``.

Conventions: data D x N (one column per sample), labels 1-D int arrays, means
(D, 1) columns, GMMs as lists [(w, mu, C), ...].
"""

import numpy as np
import scipy.linalg
import scipy.optimize
import scipy.special


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------

def vcol(x):
    return np.asarray(x).reshape((-1, 1))


def vrow(x):
    return np.asarray(x).reshape((1, -1))


def compute_mu_C(D):
    D = np.asarray(D, dtype=float)
    mu = vcol(D.mean(1))
    Dc = D - mu
    C = np.einsum('in,jn->ij', Dc, Dc) / D.shape[1]
    return mu, C


def logpdf_GAU_ND(X, mu, C):
    X = np.asarray(X, dtype=float)
    mu = vcol(mu)
    C = np.asarray(C, dtype=float)
    M = X.shape[0]
    Lc = np.linalg.cholesky(C)
    Y = scipy.linalg.solve_triangular(Lc, X - mu, lower=True)
    quad = np.einsum('in,in->n', Y, Y)
    logdet = 2.0 * np.log(np.diag(Lc)).sum()
    return -0.5 * M * np.log(2 * np.pi) - 0.5 * logdet - 0.5 * quad


def _log1pexp(t):
    """log(1 + exp(t)), safe for large |t|: t + log1p(exp(-t)) when t > 0."""
    t = np.asarray(t, dtype=float)
    return np.where(t > 0, t, 0.0) + np.log1p(np.exp(-np.abs(t)))


# ---------------------------------------------------------------------------
# logistic regression
# ---------------------------------------------------------------------------

def _train_lr(DTR, LTR, l, sample_weights):
    DTR = np.asarray(DTR, dtype=float)
    LTR = np.asarray(LTR)
    z = 2.0 * LTR - 1.0
    wts = np.asarray(sample_weights, dtype=float)

    def f(v):
        w, b = v[:-1], v[-1]
        s = w @ DTR + b
        return 0.5 * l * (w @ w) + (wts * _log1pexp(-z * s)).sum()

    def g(v):
        w, b = v[:-1], v[-1]
        s = w @ DTR + b
        G = -z * scipy.special.expit(-z * s) * wts      # d loss_i / d s_i, weighted
        return np.hstack([l * w + DTR @ G, G.sum()])

    x, _, _ = scipy.optimize.fmin_l_bfgs_b(f, np.zeros(DTR.shape[0] + 1), fprime=g)
    return x[:-1], float(x[-1])


def trainLogRegBinary(DTR, LTR, l):
    N = np.asarray(LTR).size
    return _train_lr(DTR, LTR, l, np.full(N, 1.0 / N))


def trainWeightedLogRegBinary(DTR, LTR, l, pT):
    LTR = np.asarray(LTR)
    nT = (LTR == 1).sum()
    nF = (LTR == 0).sum()
    wts = np.where(LTR == 1, pT / nT, (1.0 - pT) / nF)
    return _train_lr(DTR, LTR, l, wts)


# ---------------------------------------------------------------------------
# support vector machines
# ---------------------------------------------------------------------------

def _solve_dual(H, C):
    N = H.shape[0]

    def f(a):
        return 0.5 * np.einsum('i,ij,j->', a, H, a) - a.sum()

    def g(a):
        return H.dot(a) - 1.0

    a, _, _ = scipy.optimize.fmin_l_bfgs_b(f, np.zeros(N), fprime=g,
                                           bounds=[(0, C)] * N, factr=1.0)
    return a


def train_dual_SVM_linear(DTR, LTR, C, K=1):
    DTR = np.asarray(DTR, dtype=float)
    z = 2.0 * np.asarray(LTR) - 1.0
    Xhat = np.vstack([DTR, np.full((1, DTR.shape[1]), float(K))])
    Zx = Xhat * z
    H = Zx.T @ Zx
    a = _solve_dual(H, C)
    w_hat = Zx @ a
    return w_hat[:-1], float(w_hat[-1] * K)


def polyKernel(degree, c):
    def kernelFunc(D1, D2):
        return (np.asarray(D1, dtype=float).T @ np.asarray(D2, dtype=float) + c) ** degree
    return kernelFunc


def rbfKernel(gamma):
    def kernelFunc(D1, D2):
        D1 = np.asarray(D1, dtype=float)
        D2 = np.asarray(D2, dtype=float)
        sq = (np.einsum('in,in->n', D1, D1)[:, None]
              + np.einsum('in,in->n', D2, D2)[None, :]
              - 2.0 * D1.T @ D2)
        return np.exp(-gamma * sq)
    return kernelFunc


def train_dual_SVM_kernel(DTR, LTR, C, kernelFunc, eps=1.0):
    DTR = np.asarray(DTR, dtype=float)
    z = 2.0 * np.asarray(LTR) - 1.0
    H = np.einsum('i,j,ij->ij', z, z, kernelFunc(DTR, DTR) + eps)
    a = _solve_dual(H, C)
    az = a * z

    def fScore(DTE):
        return np.einsum('i,ij->j', az, kernelFunc(DTR, np.asarray(DTE, dtype=float)) + eps)

    return fScore


# ---------------------------------------------------------------------------
# Gaussian mixture models
# ---------------------------------------------------------------------------

def _logsumexp_cols(S):
    m = S.max(0)
    return m + np.log(np.exp(S - m).sum(0))


def _joint_log_densities(X, gmm):
    return np.vstack([logpdf_GAU_ND(X, mu, C) + np.log(w) for w, mu, C in gmm])


def logpdf_GMM(X, gmm):
    X = np.asarray(X, dtype=float)
    return _logsumexp_cols(_joint_log_densities(X, gmm))


def smooth_covariance_matrix(C, psi):
    s, U = scipy.linalg.eigh(C)
    s = np.maximum(s, psi)
    return np.einsum('ik,k,jk->ij', U, s, U)


def train_GMM_EM_Iteration(X, gmm, covType='Full', psiEig=None):
    X = np.asarray(X, dtype=float)
    N = X.shape[1]
    S = _joint_log_densities(X, gmm)
    gamma = np.exp(S - _logsumexp_cols(S))                 # (M, N) responsibilities

    Z = gamma.sum(1)                                       # (M,)
    F = np.einsum('gn,in->gi', gamma, X)                   # (M, D)
    Sg = np.einsum('gn,in,jn->gij', gamma, X, X)           # (M, D, D)
    mus = F / Z[:, None]
    Cs = Sg / Z[:, None, None] - np.einsum('gi,gj->gij', mus, mus)
    ws = Z / N

    if covType.lower() == 'diagonal':
        Cs = Cs * np.eye(X.shape[0])[None, :, :]
    elif covType.lower() == 'tied':
        Ct = np.einsum('g,gij->ij', Z, Cs) / N
        Cs = np.array([Ct for _ in range(len(gmm))])

    newGmm = []
    for g in range(len(gmm)):
        Cg = Cs[g]
        if psiEig is not None:
            Cg = smooth_covariance_matrix(Cg, psiEig)
        newGmm.append((float(ws[g]), vcol(mus[g]), Cg))
    return newGmm


def train_GMM_EM(X, gmm, covType='Full', psiEig=None, epsLLAverage=1e-6, verbose=True):
    X = np.asarray(X, dtype=float)
    llOld = logpdf_GMM(X, gmm).mean()
    if verbose:
        print('GMM - it %3d - average ll %.8e' % (0, llOld))
    for it in range(1, 10001):
        gmm = train_GMM_EM_Iteration(X, gmm, covType=covType, psiEig=psiEig)
        llNew = logpdf_GMM(X, gmm).mean()
        if verbose:
            print('GMM - it %3d - average ll %.8e' % (it, llNew))
        if llNew - llOld < epsLLAverage:
            break
        llOld = llNew
    return gmm


def split_GMM_LBG(gmm, alpha=0.1, verbose=True):
    out = []
    if verbose:
        print('LBG - going from %d to %d components' % (len(gmm), 2 * len(gmm)))
    for w, mu, C in gmm:
        U, s, _ = np.linalg.svd(C)
        d = U[:, 0:1] * s[0] ** 0.5 * alpha
        out.append((0.5 * w, mu - d, C))
        out.append((0.5 * w, mu + d, C))
    return out


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
        gmm = split_GMM_LBG(gmm, lbgAlpha, verbose=verbose)
        gmm = train_GMM_EM(X, gmm, covType=covType, psiEig=psiEig,
                           epsLLAverage=epsLLAverage, verbose=verbose)
    return gmm
