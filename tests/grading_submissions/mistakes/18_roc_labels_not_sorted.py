"""A course-style solution of the labs, written for the grading-kit tests.

This module plays the part of a student's submission. It was written independently of mlpr's code
and of the course's published lab solutions, following the course's function names, signatures
and return conventions: data as (features x samples) matrices, means as (D, 1) columns built with
``vcol``, ML covariances with 1/N from centred data, Gaussian models as dicts
``{label: (mu, C)}``, GMMs as lists ``[(w, mu, C), ...]``, ``scipy.optimize.fmin_l_bfgs_b`` with
analytic gradients and ``factr=1.0``, Python loops over classes, components and (in the ``_slow``
functions) thresholds. Only numpy and scipy are used; ``load_iris`` parses the course's
``iris.csv`` from the working folder, where the grading kit puts it (a submission may not import
mlpr).

Where the course's conventions differ from mlpr's (``compute_Sb_Sw`` returns ``(Sb, Sw)``, PCA and
LDA return the projection matrix, eigenvector signs are whatever ``eigh`` gives), this module keeps
the course's. Importing it has no side effects.
"""

import numpy as np
import scipy.linalg
import scipy.optimize
import scipy.special

KFOLD = 5  # number of folds of extract_train_val_folds_from_ary, as in the calibration lab


# ------------------------------------------------------------------------------------------------
# Shapes, data, split


def vcol(x):
    return x.reshape((x.size, 1))


def vrow(x):
    return x.reshape((1, x.size))


def load_iris():
    """Iris as the course loads it: D (4, 150), L (150,): 0 setosa, 1 versicolor, 2 virginica."""
    names = {"Iris-setosa": 0, "Iris-versicolor": 1, "Iris-virginica": 2}
    columns, labels = [], []
    with open("iris.csv") as f:
        for line in f:
            fields = line.strip().split(",")
            if len(fields) == 5:
                columns.append(vcol(np.array([float(v) for v in fields[:4]])))
                labels.append(names[fields[4]])
    return np.hstack(columns), np.array(labels, dtype=np.int32)


def load_iris_binary():
    """Versicolor (label 1) against virginica (label 0); setosa is dropped."""
    D, L = load_iris()
    D = D[:, L != 0]
    L = L[L != 0]  # a copy: relabelling below leaves load_iris' array alone
    L[L == 2] = 0
    return D, L


def split_db_2to1(D, L, seed=0):
    """2/3 of the samples for training, the rest for validation, in a seeded random order."""
    nTrain = int(D.shape[1] * 2.0 / 3.0)
    # the same permutation as numpy.random.seed(seed); numpy.random.permutation(N), without
    # changing numpy's global random state
    idx = np.random.RandomState(seed).permutation(D.shape[1])
    idxTrain = idx[0:nTrain]
    idxVal = idx[nTrain:]
    return (D[:, idxTrain], L[idxTrain]), (D[:, idxVal], L[idxVal])


# ------------------------------------------------------------------------------------------------
# PCA, LDA, k-means


def compute_mu_C(D):
    mu = vcol(D.mean(1))
    DC = D - mu
    C = (DC @ DC.T) / float(D.shape[1])
    return mu, C


def compute_pca(D, m):
    """PCA projection matrix P (D, m): the m leading eigenvectors of the covariance."""
    mu, C = compute_mu_C(D)
    s, U = np.linalg.eigh(C)  # ascending eigenvalues
    P = U[:, ::-1][:, 0:m]
    return P


def apply_pca(P, D):
    return P.T @ D


def compute_Sb_Sw(D, L):
    """Between- and within-class covariance matrices, in that order, both scaled by 1/N."""
    mu = vcol(D.mean(1))
    Sb = np.zeros((D.shape[0], D.shape[0]))
    Sw = np.zeros((D.shape[0], D.shape[0]))
    for c in np.unique(L):
        Dc = D[:, L == c]
        mu_c = vcol(Dc.mean(1))
        Sb += Dc.shape[1] * ((mu_c - mu) @ (mu_c - mu).T)
        Sw += (Dc - mu_c) @ (Dc - mu_c).T
    return Sb / D.shape[1], Sw / D.shape[1]


def compute_lda_geig(D, L, m):
    """LDA directions W (D, m) from the generalised eigenproblem Sb w = lambda Sw w."""
    Sb, Sw = compute_Sb_Sw(D, L)
    s, U = scipy.linalg.eigh(Sb, Sw)
    return U[:, ::-1][:, 0:m]


def compute_lda_JointDiag(D, L, m):
    """LDA directions W (D, m) by whitening Sw, then PCA of the transformed Sb."""
    Sb, Sw = compute_Sb_Sw(D, L)
    s, U = np.linalg.eigh(Sw)
    P1 = U @ np.diag(1.0 / np.sqrt(s)) @ U.T  # P1 Sw P1^T = I
    SbT = P1 @ Sb @ P1.T
    s2, U2 = np.linalg.eigh(SbT)
    P2 = U2[:, ::-1][:, 0:m]
    return P1.T @ P2


def apply_lda(U, D):
    return U.T @ D


def k_means(D, n, seed=0):
    """K-means (Lloyd): returns the centroids (D, n) and the cluster of each sample (N,)."""
    rng = np.random.RandomState(seed)
    centroids = D[:, rng.choice(D.shape[1], n, replace=False)]
    clusterLabels = None
    for _ in range(100):
        dist = ((D[:, None, :] - centroids[:, :, None]) ** 2).sum(0)  # (n, N)
        newLabels = np.argmin(dist, 0)
        if clusterLabels is not None and (newLabels == clusterLabels).all():
            break
        clusterLabels = newLabels
        for c in range(n):
            if (clusterLabels == c).any():
                centroids[:, c] = D[:, clusterLabels == c].mean(1)
    return centroids, clusterLabels


# ------------------------------------------------------------------------------------------------
# Gaussian density


def logpdf_GAU_ND_singleSample(x, mu, C):
    """Log-density of one sample x (D, 1): a 1-D array with one element."""
    M = x.shape[0]
    P = np.linalg.inv(C)
    xc = x - mu
    return (-0.5 * M * np.log(2 * np.pi) - 0.5 * np.linalg.slogdet(C)[1]
            - 0.5 * (xc.T @ P @ xc).ravel())


def logpdf_GAU_ND_slow(X, mu, C):
    ll = [logpdf_GAU_ND_singleSample(X[:, i:i + 1], mu, C) for i in range(X.shape[1])]
    return np.array(ll).ravel()


def logpdf_GAU_ND_fast(X, mu, C):
    M = X.shape[0]
    P = np.linalg.inv(C)
    XC = X - mu
    return (-0.5 * M * np.log(2 * np.pi) - 0.5 * np.linalg.slogdet(C)[1]
            - 0.5 * (XC * (P @ XC)).sum(0))


logpdf_GAU_ND = logpdf_GAU_ND_fast


def compute_ll(X, mu, C):
    return logpdf_GAU_ND(X, mu, C).sum()


# ------------------------------------------------------------------------------------------------
# Gaussian classifiers


def Gau_MVG_ML_estimates(D, L):
    hParams = {}
    for lab in np.unique(L):
        hParams[int(lab)] = compute_mu_C(D[:, L == lab])
    return hParams


def Gau_Naive_ML_estimates(D, L):
    hParams = {}
    for lab in np.unique(L):
        mu, C = compute_mu_C(D[:, L == lab])
        hParams[int(lab)] = (mu, C * np.eye(D.shape[0]))
    return hParams


def Gau_Tied_ML_estimates(D, L):
    means = {}
    CTied = 0
    for lab in np.unique(L):
        Dc = D[:, L == lab]
        mu, C = compute_mu_C(Dc)
        means[int(lab)] = mu
        CTied = CTied + C * Dc.shape[1]
    CTied = CTied / D.shape[1]
    return {lab: (mu, CTied) for lab, mu in means.items()}


def compute_log_likelihood_Gau(D, hParams):
    """S (K, N): row k holds the log-densities of class k (labels 0..K-1)."""
    S = np.zeros((len(hParams), D.shape[1]))
    for lab in range(S.shape[0]):
        mu, C = hParams[lab]
        S[lab, :] = logpdf_GAU_ND(D, mu, C)
    return S


def compute_logPosterior(S_logLikelihood, v_prior):
    logJoint = S_logLikelihood + vcol(np.log(np.asarray(v_prior, dtype=float)))
    logMarginal = vrow(scipy.special.logsumexp(logJoint, axis=0))
    return logJoint - logMarginal


# ------------------------------------------------------------------------------------------------
# Bayes decisions and detection costs


def compute_posteriors(log_clas_conditional_ll, prior_array):
    """Class posteriors (K, N), not their logarithms."""
    return np.exp(compute_logPosterior(log_clas_conditional_ll, prior_array))


def compute_optimal_Bayes(posterior, costMatrix):
    """Decision of minimum expected cost; costMatrix[i, j] = cost of deciding i for class j."""
    expectedCosts = costMatrix @ posterior
    return np.argmin(expectedCosts, 0)


def uniform_cost_matrix(nClasses):
    return np.ones((nClasses, nClasses)) - np.eye(nClasses)


def compute_confusion_matrix(predictedLabels, classLabels):
    """M[i, j] = number of samples of class j predicted as i (rows = predictions)."""
    nClasses = int(classLabels.max()) + 1
    M = np.zeros((nClasses, nClasses), dtype=np.int32)
    np.add.at(M, (predictedLabels, classLabels), 1)
    return M


def compute_optimal_Bayes_binary_llr(llr, prior, Cfn, Cfp):
    th = -np.log((prior * Cfn) / ((1 - prior) * Cfp))
    return np.int32(llr > th)


def compute_empirical_Bayes_risk(predictedLabels, classLabels, prior_array, costMatrix,
                                 normalize=True):
    """Multiclass empirical Bayes risk; normalised by the risk of the best dummy system."""
    M = compute_confusion_matrix(predictedLabels, classLabels)
    prior_array = np.asarray(prior_array, dtype=float).ravel()
    R = M / vrow(M.sum(0))  # R[i, j] = P(decide i | class j)
    risk = 0.0
    for j in range(M.shape[1]):
        risk += prior_array[j] * (costMatrix[:, j] * R[:, j]).sum()
    if normalize:
        return risk / np.min(costMatrix @ vcol(prior_array))
    return risk


def compute_empirical_Bayes_risk_binary(predictedLabels, classLabels, prior, Cfn, Cfp,
                                        normalize=True):
    """DCF of binary decisions; normalised by min(prior Cfn, (1 - prior) Cfp)."""
    M = compute_confusion_matrix(predictedLabels, classLabels)
    Pfn = M[0, 1] / (M[0, 1] + M[1, 1])
    Pfp = M[1, 0] / (M[0, 0] + M[1, 0])
    dcf = prior * Cfn * Pfn + (1 - prior) * Cfp * Pfp
    if normalize:
        return dcf / min(prior * Cfn, (1 - prior) * Cfp)
    return dcf


def compute_empirical_Bayes_risk_binary_llr_optimal_decisions(llr, classLabels, prior, Cfn, Cfp,
                                                              normalize=True):
    """actDCF: the DCF of the Bayes decisions taken with the theoretical threshold."""
    predictedLabels = compute_optimal_Bayes_binary_llr(llr, prior, Cfn, Cfp)
    return compute_empirical_Bayes_risk_binary(predictedLabels, classLabels, prior, Cfn, Cfp,
                                               normalize=normalize)


compute_actDCF_binary_fast = compute_empirical_Bayes_risk_binary_llr_optimal_decisions


def compute_Pfn_Pfp_allThresholds_slow(llr, classLabels):
    """Pfn and Pfp (lists) at thresholds -inf, every sorted score, +inf (decisions llr > t)."""
    thresholds = np.concatenate([np.array([-np.inf]), np.sort(llr), np.array([np.inf])])
    Pfn = []
    Pfp = []
    for th in thresholds:
        M = compute_confusion_matrix(np.int32(llr > th), classLabels)
        Pfn.append(M[0, 1] / (M[0, 1] + M[1, 1]))
        Pfp.append(M[1, 0] / (M[0, 0] + M[1, 0]))
    return Pfn, Pfp, thresholds


def compute_Pfn_Pfp_allThresholds_fast(llr, classLabels):
    """Pfn, Pfp and thresholds (arrays), one point per distinct threshold, increasing.

    The first threshold is -inf (everything accepted: Pfn 0, Pfp 1), then each distinct score
    in increasing order (decisions llr > t); the last one, the largest score, rejects all.
    """
    order = np.argsort(llr, kind="stable")
    s = llr[order]
    # MISTAKE: the labels must follow the scores' sort, classLabels[order]
    lab = classLabels
    nT = (lab == 1).sum()
    nF = (lab == 0).sum()
    # after raising the threshold to s[i], samples 0..i are rejected
    nFN = np.concatenate([[0], np.cumsum(lab == 1)])
    nFP = nF - np.concatenate([[0], np.cumsum(lab == 0)])
    th = np.concatenate([[-np.inf], s])
    # keep the last entry of each run of equal scores: there the threshold has passed them all
    keep = np.concatenate([th[1:] != th[:-1], [True]])
    return nFN[keep] / nT, nFP[keep] / nF, th[keep]


def compute_minDCF_binary_slow(llr, classLabels, prior, Cfn, Cfp, returnThreshold=False):
    thresholds = np.concatenate([np.array([-np.inf]), llr, np.array([np.inf])])
    dcfMin = None
    dcfTh = None
    for th in thresholds:
        dcf = compute_empirical_Bayes_risk_binary(np.int32(llr > th), classLabels, prior, Cfn, Cfp)
        if dcfMin is None or dcf < dcfMin:
            dcfMin = dcf
            dcfTh = th
    if returnThreshold:
        return dcfMin, dcfTh
    return dcfMin


def compute_minDCF_binary_fast(llr, classLabels, prior, Cfn, Cfp, returnThreshold=False):
    Pfn, Pfp, th = compute_Pfn_Pfp_allThresholds_fast(llr, classLabels)
    dcf = (prior * Cfn * Pfn + (1 - prior) * Cfp * Pfp) / min(prior * Cfn, (1 - prior) * Cfp)
    idx = np.argmin(dcf)
    if returnThreshold:
        return dcf[idx], th[idx]
    return dcf[idx]


compute_minDCF_binary = compute_minDCF_binary_fast


def bayesPlot(S, L, left=-3, right=3, npts=21):
    """Bayes error plot data: prior log-odds, actDCF and minDCF (Cfn = Cfp = 1)."""
    effPriorLogOdds = np.linspace(left, right, npts)
    effPriors = 1.0 / (1.0 + np.exp(-effPriorLogOdds))
    actDCF = [compute_actDCF_binary_fast(S, L, p, 1.0, 1.0) for p in effPriors]
    minDCF = [compute_minDCF_binary_fast(S, L, p, 1.0, 1.0) for p in effPriors]
    return effPriorLogOdds, actDCF, minDCF


# ------------------------------------------------------------------------------------------------
# Logistic regression


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
        return loss.mean() + l / 2 * (w @ w), np.append(GW, Gb)

    v = scipy.optimize.fmin_l_bfgs_b(logreg_obj_with_grad, np.zeros(DTR.shape[0] + 1),
                                     factr=1.0)[0]
    return v[:-1], v[-1]


def trainWeightedLogRegBinary(DTR, LTR, l, pT):
    """Prior-weighted logistic regression: returns w (D,) and b.

    Minimises l/2 ||w||^2 + pT/nT sum_{c_i=1} log(1 + e^{-s_i})
    + (1-pT)/nF sum_{c_i=0} log(1 + e^{s_i}), s_i = w^T x_i + b.
    """
    ZTR = LTR * 2.0 - 1.0
    weights = np.where(ZTR > 0, pT / (ZTR > 0).sum(), (1 - pT) / (ZTR < 0).sum())

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


# ------------------------------------------------------------------------------------------------
# Support vector machines


def _train_dual_SVM(H, C):
    """Minimise 1/2 a^T H a - 1^T a over the box 0 <= a <= C; returns alpha."""
    def fOpt(alpha):
        Ha = H @ alpha
        return 0.5 * (alpha @ Ha) - alpha.sum(), Ha - 1.0

    N = H.shape[0]
    alpha = np.zeros(N)
    fBest = np.inf
    # L-BFGS-B can stop short of the optimum on badly scaled data (features far from the
    # origin); restarting it from where it stopped resets its memory and finishes the job
    for _restart in range(20):
        alpha, f, _info = scipy.optimize.fmin_l_bfgs_b(fOpt, alpha, bounds=[(0, C)] * N,
                                                       factr=1.0)
        if f >= fBest - 1e-15 * abs(fBest):
            break
        fBest = f
    return alpha


def train_dual_SVM_linear(DTR, LTR, C, K=1):
    """Linear SVM with the bias as an extra feature of value K: returns w (D,) and b."""
    ZTR = LTR * 2.0 - 1.0
    DTR_EXT = np.vstack([DTR, K * np.ones((1, DTR.shape[1]))])
    H = (DTR_EXT.T @ DTR_EXT) * vcol(ZTR) * vrow(ZTR)
    alpha = _train_dual_SVM(H, C)
    w_hat = (vrow(alpha * ZTR) * DTR_EXT).sum(1)
    w, b = w_hat[:-1], w_hat[-1] * K  # the score is w^T x + K * w_hat[-1]
    return w, b


def polyKernel(degree, c):
    def polyKernelFunc(D1, D2):
        return (D1.T @ D2 + c) ** degree
    return polyKernelFunc


def rbfKernel(gamma):
    def rbfKernelFunc(D1, D2):
        dist2 = vcol((D1 ** 2).sum(0)) + vrow((D2 ** 2).sum(0)) - 2 * (D1.T @ D2)
        return np.exp(-gamma * dist2)
    return rbfKernelFunc


def train_dual_SVM_kernel(DTR, LTR, C, kernelFunc, eps=1.0):
    """Kernel SVM (kernel plus eps, for the bias): returns the function scoring a matrix DTE."""
    ZTR = LTR * 2.0 - 1.0
    H = (kernelFunc(DTR, DTR) + eps) * vcol(ZTR) * vrow(ZTR)
    alpha = _train_dual_SVM(H, C)

    def fScore(DTE):
        K = kernelFunc(DTR, DTE) + eps
        return (vcol(alpha * ZTR) * K).sum(0)

    return fScore


# ------------------------------------------------------------------------------------------------
# Gaussian mixture models


def logpdf_GMM(X, gmm):
    S = np.vstack([logpdf_GAU_ND(X, mu, C) + np.log(w) for w, mu, C in gmm])
    return scipy.special.logsumexp(S, axis=0)


def smooth_covariance_matrix(C, psi):
    """C with its eigenvalues floored at psi."""
    s, U = np.linalg.eigh(C)
    s = np.maximum(s, psi)
    return U @ (vcol(s) * U.T)


def train_GMM_EM_Iteration(X, gmm, covType='Full', psiEig=None):
    """One EM step; covType 'Full', 'Diagonal' or 'Tied'; psiEig floors the eigenvalues."""
    covType = covType.lower()
    S = np.vstack([logpdf_GAU_ND(X, mu, C) + np.log(w) for w, mu, C in gmm])
    gamma = np.exp(S - scipy.special.logsumexp(S, axis=0))  # responsibilities (G, N)

    gmmNew = []
    for g in range(len(gmm)):
        Z = gamma[g].sum()
        F = vcol((vrow(gamma[g]) * X).sum(1))
        Sg = (vrow(gamma[g]) * X) @ X.T
        mu = F / Z
        C = Sg / Z - mu @ mu.T
        if covType == 'diagonal':
            C = C * np.eye(X.shape[0])
        gmmNew.append((Z / X.shape[1], mu, C))

    if covType == 'tied':
        CTied = sum(w * C for w, mu, C in gmmNew)
        gmmNew = [(w, mu, CTied) for w, mu, C in gmmNew]
    if psiEig is not None:
        gmmNew = [(w, mu, smooth_covariance_matrix(C, psiEig)) for w, mu, C in gmmNew]
    return gmmNew


def train_GMM_EM(X, gmm, covType='Full', psiEig=None, epsLLAverage=1e-6, verbose=False):
    """EM until the average log-likelihood increases by at most epsLLAverage."""
    llOld = logpdf_GMM(X, gmm).mean()
    while True:
        gmm = train_GMM_EM_Iteration(X, gmm, covType=covType, psiEig=psiEig)
        llNew = logpdf_GMM(X, gmm).mean()
        if verbose:
            print('GMM - average ll %.8e' % llNew)
        if llNew - llOld <= epsLLAverage:
            return gmm
        llOld = llNew


def split_GMM_LBG(gmm, alpha=0.1, verbose=False):
    """Each component becomes two, displaced by -+ alpha sqrt(lambda_1) u_1 (leading eigenpair)."""
    gmmOut = []
    if verbose:
        print('LBG - from %d to %d components' % (len(gmm), 2 * len(gmm)))
    for w, mu, C in gmm:
        s, U = np.linalg.eigh(C)
        d = U[:, -1:] * np.sqrt(s[-1]) * alpha
        gmmOut.append((0.5 * w, mu - d, C))
        gmmOut.append((0.5 * w, mu + d, C))
    return gmmOut


def train_GMM_LBG_EM(X, numComponents, covType='Full', psiEig=None, epsLLAverage=1e-6,
                     lbgAlpha=0.1, verbose=False):
    """LBG from the ML Gaussian, doubling and running EM until numComponents components."""
    mu, C = compute_mu_C(X)
    if covType.lower() == 'diagonal':
        C = C * np.eye(X.shape[0])
    if psiEig is not None:
        C = smooth_covariance_matrix(C, psiEig)
    gmm = [(1.0, mu, C)]
    while len(gmm) < numComponents:
        gmm = split_GMM_LBG(gmm, lbgAlpha, verbose=verbose)
        gmm = train_GMM_EM(X, gmm, covType=covType, psiEig=psiEig, epsLLAverage=epsLLAverage,
                           verbose=verbose)
    return gmm


# ------------------------------------------------------------------------------------------------
# K-fold calibration


def extract_train_val_folds_from_ary(X, idx, KFOLD=None):
    """Fold idx of a 1-D array (every KFOLD-th element from idx) and the other folds pooled."""
    if KFOLD is None:
        KFOLD = globals()['KFOLD']
    train = np.hstack([X[j::KFOLD] for j in range(KFOLD) if j != idx])
    return train, X[idx::KFOLD]
