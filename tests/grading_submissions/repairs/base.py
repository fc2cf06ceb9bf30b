"""Another student's solution of the labs, the base of the single-mistake variants of this folder.

Written for the grading kit's bench of repairs, independently of ``../course_style.py``, of mlpr
and of the course's published solutions: the course's function names, signatures and return
forms (data as features x samples, means as (D, 1) columns, ML covariances with 1/N, Gaussian
models as dicts ``{label: (mu, C)}``, GMMs as lists ``[(w, mu, C), ...]``), in another hand:
helpers of its own (``as_col``, ``as_row``, ``_class_split``, ``_cholesky_logdet``, ...), SVDs
where the other solution calls ``eigh``, a Cholesky factor for the Gaussian density, explicit
loops where the other vectorises (the covariance, the confusion matrix, the cost matrix, the
Bayes risk) and ``searchsorted`` for the error rates. Only numpy and scipy; importing it has no
side effects. ``load_iris`` reads ``iris.csv`` from the working folder, where the kit puts it.
"""

import csv

import numpy as np
import scipy.linalg
import scipy.optimize
import scipy.special

KFOLD = 5  # the calibration lab's number of folds
IRIS_CLASSES = ("Iris-setosa", "Iris-versicolor", "Iris-virginica")


# ------------------------------------------------------------------------------------------------
# small helpers


def as_col(v):
    """A 1-D array (or anything with .size) as a column vector (n, 1)."""
    return np.asarray(v).reshape(-1, 1)


def as_row(v):
    """A 1-D array as a row vector (1, n)."""
    return np.asarray(v).reshape(1, -1)


def _class_split(D, L):
    """The samples of each class, in the order of the sorted labels: [(label, D_c), ...]."""
    return [(c, D[:, L == c]) for c in np.unique(L)]


def _leading_directions(S, m):
    """The m leading eigenvectors of the symmetric PSD matrix S, from its SVD (U is sorted by
    decreasing singular value, which for a PSD matrix are its eigenvalues)."""
    U, sv, Vt = np.linalg.svd(S)
    return U[:, :m]


def _cholesky_logdet(C):
    """The lower Cholesky factor of C and log|C| = 2 sum(log(diag(Lc)))."""
    Lc = np.linalg.cholesky(C)
    return Lc, 2.0 * np.sum(np.log(np.diag(Lc)))


def _binary_rates(pred, labels):
    """(Pfn, Pfp) of binary decisions: the fraction of targets rejected, of non-targets accepted."""
    M = compute_confusion_matrix(pred, labels)
    n_targets = M[0, 1] + M[1, 1]
    n_nontargets = M[0, 0] + M[1, 0]
    return M[0, 1] / n_targets, M[1, 0] / n_nontargets


# ------------------------------------------------------------------------------------------------
# lab 2-3: data, split


def load_iris():
    """Iris from iris.csv: D (4, 150) float, L (150,) with 0 setosa, 1 versicolor, 2 virginica."""
    samples = []
    labels = []
    with open("iris.csv", newline="") as f:
        for record in csv.reader(f):
            if len(record) < 5:
                continue  # blank line at the end of the file
            samples.append([float(v) for v in record[:4]])
            labels.append(IRIS_CLASSES.index(record[4].strip()))
    D = np.array(samples, dtype=float).T
    L = np.array(labels, dtype=np.int32)
    return D, L


def load_iris_binary():
    """Versicolor (1) against virginica (0): setosa is removed."""
    D, L = load_iris()
    keep = L > 0
    Dbin = D[:, keep]
    Lbin = (L[keep] == 1).astype(np.int32)
    return Dbin, Lbin


def split_db_2to1(D, L, seed=0):
    """Two thirds of the samples (in a seeded random order) for training, the rest for
    validation."""
    n = D.shape[1]
    nTrain = int(n * 2.0 / 3.0)
    np.random.seed(seed)  # noqa: NPY002 (the course's seeding)
    perm = np.random.permutation(n)  # noqa: NPY002
    tr = perm[:nTrain]
    va = perm[nTrain:]
    return (D[:, tr], L[tr]), (D[:, va], L[va])


# ------------------------------------------------------------------------------------------------
# lab 3: PCA and LDA


def compute_mu_C(D):
    """Sample mean (D, 1) and ML covariance (1/N) (eq. 3, 59)."""
    N = D.shape[1]
    mu = as_col(D.sum(axis=1) / N)
    centred = D - mu
    C = np.zeros((D.shape[0], D.shape[0]))
    for i in range(N):  # sum of the outer products of the centred samples
        xi = centred[:, i:i + 1]
        C += xi @ xi.T
    C = C / N
    return mu, C


def compute_pca(D, m):
    """PCA matrix P (D, m): the m principal directions of the data covariance (section 3.2)."""
    _, C = compute_mu_C(D)
    P = _leading_directions(C, m)
    return P


def apply_pca(P, D):
    return np.dot(P.T, D)


def compute_Sb_Sw(D, L):
    """Between-class and within-class covariance (eq. 5, 6), returned as (Sb, Sw)."""
    N = D.shape[1]
    mu, _ = compute_mu_C(D)
    Sb = np.zeros((D.shape[0], D.shape[0]))
    Sw = np.zeros((D.shape[0], D.shape[0]))
    for _c, Dc in _class_split(D, L):
        nc = Dc.shape[1]
        muc, Cc = compute_mu_C(Dc)
        diff = muc - mu
        Sb += nc * (diff @ diff.T)
        Sw += nc * Cc  # n_c times the class covariance = the class scatter
    Sb /= N
    Sw /= N
    return Sb, Sw


def compute_lda_geig(D, L, m):
    """LDA directions W (D, m): the generalised eigenvectors of Sb w = lambda Sw w (eq. 7)."""
    Sb, Sw = compute_Sb_Sw(D, L)
    vals, vecs = scipy.linalg.eigh(Sb, Sw)  # eigenvalues in ascending order
    W = vecs[:, ::-1][:, :m]
    return W


def compute_lda_JointDiag(D, L, m):
    """LDA directions by joint diagonalisation (eq. 9-11): whiten Sw, then the leading
    directions of the whitened Sb, mapped back with P_W^T."""
    Sb, Sw = compute_Sb_Sw(D, L)
    Uw, sw, _ = np.linalg.svd(Sw)
    Pw = Uw @ np.diag(sw ** -0.5) @ Uw.T  # P_W = U_W Sigma_W^(-1/2) U_W^T
    SbWhite = Pw @ Sb @ Pw.T
    Ub = _leading_directions(SbWhite, m)
    W = Pw.T @ Ub  # eq. 11
    return W


def apply_lda(U, D):
    return np.dot(U.T, D)


# ------------------------------------------------------------------------------------------------
# lab 4: Gaussian density, K-means


def logpdf_GAU_ND_singleSample(x, mu, C):
    """log N(x | mu, C) of one sample x (D, 1), as a 1-element array (eq. 41)."""
    M = x.shape[0]
    Cinv = np.linalg.inv(C)
    d = x - mu
    quad = (d.T @ Cinv @ d).ravel()
    sign, logdet = np.linalg.slogdet(C)
    return -0.5 * M * np.log(2 * np.pi) - 0.5 * logdet - 0.5 * quad


def logpdf_GAU_ND_slow(X, mu, C):
    """The log-density of each column of X, one sample at a time."""
    out = np.zeros(X.shape[1])
    for i in range(X.shape[1]):
        out[i] = logpdf_GAU_ND_singleSample(X[:, i:i + 1], mu, C)[0]
    return out


def logpdf_GAU_ND(X, mu, C):
    """The log-density of each column of X (eq. 41), through the Cholesky factor of C."""
    M = X.shape[0]
    Lc, logdet = _cholesky_logdet(C)
    Z = scipy.linalg.solve_triangular(Lc, X - mu, lower=True)  # Lc^-1 (x - mu)
    maha = np.sum(Z * Z, axis=0)  # (x - mu)^T C^-1 (x - mu)
    return -0.5 * (M * np.log(2 * np.pi) + logdet + maha)


def logpdf_GAU_ND_fast(X, mu, C):
    return logpdf_GAU_ND(X, mu, C)


def compute_ll(X, mu, C):
    """Log-likelihood of the samples: the sum of their log-densities."""
    return float(np.sum(logpdf_GAU_ND(X, mu, C)))


def k_means(D, n, seed=0):
    """Lloyd's K-means from n samples drawn at random: (centroids (D, n), labels (N,))."""
    rng = np.random.default_rng(seed)
    start = rng.permutation(D.shape[1])[:n]
    centroids = D[:, start].copy()
    labels = np.full(D.shape[1], -1)
    while True:
        dist2 = np.zeros((n, D.shape[1]))
        for k in range(n):  # squared distance of every sample from centroid k (eq. 197)
            dist2[k] = np.sum((D - centroids[:, k:k + 1]) ** 2, axis=0)
        newLabels = np.argmin(dist2, axis=0)
        if np.array_equal(newLabels, labels):
            break  # the assignment did not change: a fixed point
        for k in range(n):  # each centroid moves to the mean of its new cluster (eq. 196)
            members = D[:, newLabels == k]
            if members.shape[1] > 0:
                centroids[:, k] = members.mean(axis=1)
        labels = newLabels
    return centroids, labels


# ------------------------------------------------------------------------------------------------
# lab 5: Gaussian classifiers


def Gau_MVG_ML_estimates(D, L):
    """{label: (mu_c, C_c)}: ML mean and covariance of each class (eq. 59)."""
    return {int(c): compute_mu_C(Dc) for c, Dc in _class_split(D, L)}


def Gau_Naive_ML_estimates(D, L):
    """{label: (mu_c, diag C_c)}: each class's variances only (eq. 68)."""
    params = {}
    for c, Dc in _class_split(D, L):
        mu, C = compute_mu_C(Dc)
        params[int(c)] = (mu, np.diag(np.diag(C)))
    return params


def Gau_Tied_ML_estimates(D, L):
    """{label: (mu_c, Sw)}: class means and one within-class covariance (eq. 70)."""
    Sb, Sw = compute_Sb_Sw(D, L)
    params = {}
    for c, Dc in _class_split(D, L):
        params[int(c)] = (as_col(Dc.mean(axis=1)), Sw)
    return params


def compute_log_likelihood_Gau(D, hParams):
    """S (K, N): row c is log N(x | mu_c, C_c) for each sample."""
    rows = []
    for c in sorted(hParams):
        mu, C = hParams[c]
        rows.append(logpdf_GAU_ND(D, mu, C))
    return np.vstack(rows)


def compute_logPosterior(S_logLikelihood, v_prior):
    """log P(c | x) (K, N) from the class log-likelihoods and the priors (eq. 64)."""
    logPrior = np.log(np.asarray(v_prior, dtype=float).ravel())
    logJoint = S_logLikelihood + logPrior[:, None]
    logMarginal = scipy.special.logsumexp(logJoint, axis=0)
    return logJoint - logMarginal[None, :]


# ------------------------------------------------------------------------------------------------
# lab 7: Bayes decisions and detection costs


def compute_posteriors(log_clas_conditional_ll, prior_array):
    """P(c | x) (K, N), computed in the log domain and exponentiated at the end."""
    logPrior = np.log(as_col(np.asarray(prior_array, dtype=float)))
    logJoint = log_clas_conditional_ll + logPrior
    return np.exp(logJoint - scipy.special.logsumexp(logJoint, axis=0, keepdims=True))


def compute_optimal_Bayes(posterior, costMatrix):
    """The action of least expected cost for each sample (eq. 123, 124)."""
    expected = np.asarray(costMatrix) @ posterior  # row a: expected cost of action a
    return np.argmin(expected, axis=0)


def uniform_cost_matrix(nClasses):
    C = np.zeros((nClasses, nClasses))
    for i in range(nClasses):
        for j in range(nClasses):
            if i != j:
                C[i, j] = 1.0
    return C


def compute_confusion_matrix(predictedLabels, classLabels):
    """M[i, j]: how many samples of class j were predicted as i."""
    K = int(np.max(classLabels)) + 1
    M = np.zeros((K, K), dtype=int)
    for p, t in zip(np.asarray(predictedLabels).ravel(), np.asarray(classLabels).ravel()):
        M[int(p), int(t)] += 1
    return M


def compute_optimal_Bayes_binary_llr(llr, prior, Cfn, Cfp):
    """Decide 1 where llr > -log(pi Cfn / ((1 - pi) Cfp)) (eq. 130)."""
    threshold = -np.log(prior * Cfn) + np.log((1 - prior) * Cfp)
    return (llr > threshold).astype(np.int32)


def compute_empirical_Bayes_risk_binary(predictedLabels, classLabels, prior, Cfn, Cfp,
                                        normalize=True):
    """DCF = pi Cfn Pfn + (1 - pi) Cfp Pfp (eq. 136), divided by the best dummy system's cost
    (eq. 137) when normalize."""
    Pfn, Pfp = _binary_rates(predictedLabels, classLabels)
    dcfU = prior * Cfn * Pfn + (1 - prior) * Cfp * Pfp
    if not normalize:
        return dcfU
    return dcfU / min(prior * Cfn, (1 - prior) * Cfp)


def compute_empirical_Bayes_risk(predictedLabels, classLabels, prior_array, costMatrix,
                                 normalize=True):
    """Empirical Bayes risk (eq. 135) of multiclass decisions, normalised by the risk of the
    best decision taken from the priors alone."""
    prior_array = np.asarray(prior_array, dtype=float).ravel()
    costMatrix = np.asarray(costMatrix, dtype=float)
    M = compute_confusion_matrix(predictedLabels, classLabels)
    K = M.shape[0]
    risk = 0.0
    for j in range(K):
        nj = M[:, j].sum()
        for i in range(K):
            risk += prior_array[j] * costMatrix[i, j] * M[i, j] / nj
    if normalize:
        dummy = costMatrix @ prior_array  # expected cost of always deciding each class
        risk = risk / dummy.min()
    return risk


def compute_empirical_Bayes_risk_binary_llr_optimal_decisions(llr, classLabels, prior, Cfn, Cfp,
                                                              normalize=True):
    """actDCF: the DCF of the Bayes decisions with the theoretical threshold."""
    decisions = compute_optimal_Bayes_binary_llr(llr, prior, Cfn, Cfp)
    return compute_empirical_Bayes_risk_binary(decisions, classLabels, prior, Cfn, Cfp,
                                               normalize=normalize)


def compute_actDCF_binary_fast(llr, classLabels, prior, Cfn, Cfp, normalize=True):
    return compute_empirical_Bayes_risk_binary_llr_optimal_decisions(llr, classLabels, prior,
                                                                     Cfn, Cfp, normalize)


def compute_Pfn_Pfp_allThresholds_slow(llr, classLabels):
    """Pfn and Pfp at -inf, at every score in increasing order and at +inf (decide 1 if s > t)."""
    thresholds = np.concatenate([[-np.inf], np.sort(llr), [np.inf]])
    Pfn, Pfp = [], []
    for t in thresholds:
        fn, fp = _binary_rates((llr > t).astype(int), classLabels)
        Pfn.append(fn)
        Pfp.append(fp)
    return Pfn, Pfp, thresholds


def compute_Pfn_Pfp_allThresholds_fast(llr, classLabels):
    """Pfn, Pfp at -inf and at each distinct score (increasing), counted with searchsorted:
    at threshold t the samples with s <= t are rejected."""
    targetScores = np.sort(llr[classLabels == 1])
    nontargetScores = np.sort(llr[classLabels == 0])
    thresholds = np.concatenate([[-np.inf], np.unique(llr)])
    missed = np.searchsorted(targetScores, thresholds, side="right")  # targets with s <= t
    rejected = np.searchsorted(nontargetScores, thresholds, side="right")
    Pfn = missed / targetScores.size
    Pfp = (nontargetScores.size - rejected) / nontargetScores.size
    return Pfn, Pfp, thresholds


def compute_minDCF_binary_slow(llr, classLabels, prior, Cfn, Cfp, returnThreshold=False):
    """The least normalised DCF over the thresholds -inf, every score, +inf."""
    best, bestT = np.inf, None
    for t in np.concatenate([[-np.inf], np.sort(llr), [np.inf]]):
        dcf = compute_empirical_Bayes_risk_binary((llr > t).astype(int), classLabels, prior,
                                                  Cfn, Cfp)
        if dcf < best:
            best, bestT = dcf, t
    if returnThreshold:
        return best, bestT
    return best


def compute_minDCF_binary_fast(llr, classLabels, prior, Cfn, Cfp, returnThreshold=False):
    """minDCF from the error rates at every threshold."""
    Pfn, Pfp, thresholds = compute_Pfn_Pfp_allThresholds_fast(llr, classLabels)
    normaliser = min(prior * Cfn, (1 - prior) * Cfp)
    dcf = (prior * Cfn * Pfn + (1 - prior) * Cfp * Pfp) / normaliser
    i = int(np.argmin(dcf))
    if returnThreshold:
        return dcf[i], thresholds[i]
    return dcf[i]


def bayesPlot(S, L, left=-3, right=3, npts=21):
    """Prior log-odds, actDCF and minDCF (Cfn = Cfp = 1) of the Bayes error plot."""
    logOdds = np.linspace(left, right, npts)
    actDCF, minDCF = [], []
    for p in logOdds:
        effPrior = 1.0 / (1.0 + np.exp(-p))
        actDCF.append(compute_actDCF_binary_fast(S, L, effPrior, 1.0, 1.0))
        minDCF.append(compute_minDCF_binary_fast(S, L, effPrior, 1.0, 1.0))
    return logOdds, actDCF, minDCF


# ------------------------------------------------------------------------------------------------
# lab 8: logistic regression


def trainLogRegBinary(DTR, LTR, l):
    """Minimise eq. (100): l/2 |w|^2 + 1/N sum log(1 + exp(-z_i (w^T x_i + b))); returns (w, b)."""
    z = 2.0 * LTR - 1.0
    N = DTR.shape[1]

    def objective(x):
        w, b = x[:-1], x[-1]
        s = w @ DTR + b
        penalty, penalty_grad = 0.5 * l * np.dot(w, w), l * w
        J = penalty + np.logaddexp(0.0, -z * s).sum() / N
        g = -z * scipy.special.expit(-z * s) / N  # dJ/ds_i
        grad_w = DTR @ g + penalty_grad
        grad_b = g.sum()
        return J, np.concatenate([grad_w, [grad_b]])

    x0 = np.zeros(DTR.shape[0] + 1)
    xOpt, _, _ = scipy.optimize.fmin_l_bfgs_b(objective, x0, factr=1.0, pgtol=1e-12,
                                              maxfun=100000)
    return xOpt[:-1], xOpt[-1]


def trainWeightedLogRegBinary(DTR, LTR, l, pT):
    """Minimise eq. (101): the loss of each class weighted by pT / nT and (1 - pT) / nF."""
    z = 2.0 * LTR - 1.0
    nT = np.sum(LTR == 1)
    nF = np.sum(LTR == 0)
    xi = np.where(LTR == 1, pT / nT, (1.0 - pT) / nF)  # the weight of each sample

    def objective(x):
        w, b = x[:-1], x[-1]
        s = w @ DTR + b
        J = 0.5 * l * np.dot(w, w) + np.sum(xi * np.logaddexp(0.0, -z * s))
        g = -xi * z * scipy.special.expit(-z * s)
        return J, np.concatenate([DTR @ g + l * w, [g.sum()]])

    x0 = np.zeros(DTR.shape[0] + 1)
    xOpt, _, _ = scipy.optimize.fmin_l_bfgs_b(objective, x0, factr=1.0, pgtol=1e-12,
                                              maxfun=100000)
    return xOpt[:-1], xOpt[-1]


# ------------------------------------------------------------------------------------------------
# lab 9: support vector machines


def _solve_svm_dual(H, C):
    """Minimise the negated dual 1/2 a^T H a - 1^T a over the box [0, C]^N (eq. 158, 182),
    restarting L-BFGS-B while a restart still lowers the objective."""
    N = H.shape[0]

    def negDual(a):
        Ha = H @ a
        return 0.5 * a @ Ha - a.sum(), Ha - 1.0

    alpha = np.zeros(N)
    prev = None
    for _ in range(30):
        alpha, f, _ = scipy.optimize.fmin_l_bfgs_b(negDual, alpha, bounds=[(0.0, C)] * N,
                                                   factr=1.0, pgtol=1e-12, maxfun=100000)
        if prev is not None and f >= prev - 1e-14 * abs(prev):
            break
        prev = f
    return alpha


def train_dual_SVM_linear(DTR, LTR, C, K=1):
    """Linear SVM trained through the dual, the bias as an extra feature K: returns (w, b)."""
    z = 2.0 * LTR - 1.0
    Dext = np.vstack([DTR, np.full((1, DTR.shape[1]), float(K))])
    G = Dext.T @ Dext  # Gram matrix of the extended samples
    H = G * np.outer(z, z)
    alpha = _solve_svm_dual(H, C)
    wExt = Dext @ (alpha * z)  # eq. 156
    w = wExt[:-1]
    b = wExt[-1] * K
    return w, b


def polyKernel(degree, c):
    """k(x1, x2) = (x1^T x2 + c)^d (eq. 179)."""
    def kernel(D1, D2):
        return (np.dot(D1.T, D2) + c) ** degree
    return kernel


def rbfKernel(gamma):
    """k(x1, x2) = exp(-gamma |x1 - x2|^2) (eq. 180)."""
    def kernel(D1, D2):
        sq = np.sum(D1 ** 2, axis=0)[:, None] + np.sum(D2 ** 2, axis=0)[None, :] \
            - 2.0 * np.dot(D1.T, D2)
        return np.exp(-gamma * sq)
    return kernel


def train_dual_SVM_kernel(DTR, LTR, C, kernelFunc, eps=1.0):
    """Kernel SVM (kernel + eps for the bias) through the dual; returns a scoring function."""
    z = 2.0 * LTR - 1.0
    H = np.outer(z, z) * (kernelFunc(DTR, DTR) + eps)  # eq. 173
    alpha = _solve_svm_dual(H, C)
    az = alpha * z

    def score(DTE):
        return az @ (kernelFunc(DTR, DTE) + eps)  # eq. 174
    return score


# ------------------------------------------------------------------------------------------------
# lab 10: Gaussian mixture models


def _gmm_joint(X, gmm):
    """log w_g + log N(x | mu_g, C_g), one row per component (G, N) (eq. 190)."""
    return np.vstack([np.log(w) + logpdf_GAU_ND(X, mu, C) for (w, mu, C) in gmm])


def logpdf_GMM(X, gmm):
    """log of sum_g w_g N(x | mu_g, C_g) for each sample (eq. 185)."""
    return scipy.special.logsumexp(_gmm_joint(X, gmm), axis=0)


def smooth_covariance_matrix(C, psi):
    """C with every eigenvalue below psi raised to psi."""
    U, s, _ = np.linalg.svd(C)
    s = np.where(s < psi, psi, s)
    return U @ np.diag(s) @ U.T


def train_GMM_EM_Iteration(X, gmm, covType='Full', psiEig=None):
    """One EM step (eq. 191, 199-201) for 'Full', 'Diagonal' or 'Tied' covariances."""
    kind = covType.lower()
    N = X.shape[1]
    joint = _gmm_joint(X, gmm)
    resp = np.exp(joint - scipy.special.logsumexp(joint, axis=0))  # responsibilities (eq. 191)
    updated = []
    for g in range(len(gmm)):
        gam = resp[g]
        Ng = gam.sum()                      # zero-order statistic
        Fg = as_col(X @ gam)                # first-order statistic
        Sg = (X * gam) @ X.T                # second-order statistic
        mu = Fg / Ng                        # eq. 199
        C = Sg / Ng - mu @ mu.T             # eq. 200
        if kind == 'diagonal':
            C = np.diag(np.diag(C))
        updated.append((Ng / N, mu, C))     # eq. 201
    if kind == 'tied':
        Ctied = np.zeros_like(updated[0][2])
        for w, _mu, C in updated:
            Ctied = Ctied + w * C
        updated = [(w, mu, Ctied) for (w, mu, C) in updated]
    if psiEig is not None:
        updated = [(w, mu, smooth_covariance_matrix(C, psiEig)) for (w, mu, C) in updated]
    return updated


def train_GMM_EM(X, gmm, covType='Full', psiEig=None, epsLLAverage=1e-6, verbose=False):
    """EM iterations until the average log-likelihood gains no more than epsLLAverage."""
    current = logpdf_GMM(X, gmm).mean()
    while True:
        gmm = train_GMM_EM_Iteration(X, gmm, covType, psiEig)
        new = logpdf_GMM(X, gmm).mean()
        gain = new - current
        current = new
        if verbose:
            print(f"EM: average log-likelihood {new:.10f}")
        if gain <= epsLLAverage:
            break
    return gmm


def split_GMM_LBG(gmm, alpha=0.1, verbose=False):
    """Each component into two, at mu -+ alpha sqrt(lambda_1) u_1 (section 9.4)."""
    out = []
    for (w, mu, C) in gmm:
        U, s, _ = np.linalg.svd(C)
        shift = alpha * np.sqrt(s[0]) * U[:, 0:1]  # the leading direction and its eigenvalue
        out.append((w / 2, mu - shift, C))
        out.append((w / 2, mu + shift, C))
    if verbose:
        print(f"LBG: {len(gmm)} -> {len(out)} components")
    return out


def train_GMM_LBG_EM(X, numComponents, covType='Full', psiEig=None, epsLLAverage=1e-6,
                     lbgAlpha=0.1, verbose=False):
    """LBG: start from the ML Gaussian and alternate splits and EM until numComponents."""
    mu, C = compute_mu_C(X)
    if covType.lower() == 'diagonal':
        C = np.diag(np.diag(C))
    if psiEig is not None:
        C = smooth_covariance_matrix(C, psiEig)
    gmm = [(1.0, mu, C)]
    while len(gmm) < numComponents:
        gmm = split_GMM_LBG(gmm, lbgAlpha, verbose)
        gmm = train_GMM_EM(X, gmm, covType, psiEig, epsLLAverage, verbose)
    return gmm


# ------------------------------------------------------------------------------------------------
# lab 11: K-fold over score arrays


def extract_train_val_folds_from_ary(X, idx):
    """Fold idx (every KFOLD-th element from idx) for validation, the other folds for training."""
    trainParts = []
    for j in range(KFOLD):
        if j != idx:
            trainParts.append(X[j::KFOLD])
    return np.hstack(trainParts), X[idx::KFOLD]
