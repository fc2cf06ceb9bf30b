r"""Generative classifiers: Gaussian (MVG, naive Bayes, tied, tied naive) and discrete naive Bayes
(categorical, multinomial, Bernoulli), with posteriors and Bayes decisions (notes ch. 5).

A generative classifier models the class-conditional densities :math:`f(x \mid c)` and combines
them with the *application's* prior :math:`P(c)` through Bayes' rule:

.. math::

    P(c \mid x) = \frac{f(x \mid c) P(c)}{\sum_{c'} f(x \mid c') P(c')} .

The model protocol
------------------
Every trained model of mlpr is a frozen value (`mlpr.utils.model`) with a ``scores(D)`` method;
the protocol says what the scores are and how decisions are taken.

* Generative models (this module: `GaussianClassifier`, `CategoricalNaiveBayes`,
  `MultinomialNaiveBayes`, `BernoulliNaiveBayes`; the GMM classifiers of `mlpr.gmm`):
  ``scores(D)`` is the (K, N) matrix ``S`` of class-conditional log-likelihoods,
  ``S[k, n] = log f(x_n | k)``. For K = 2, ``llr(D)`` is the (N,) log-likelihood ratio
  ``log f(x|1) - log f(x|0) = S[1] - S[0]``.
* Priors never enter a model: they belong to the application and are passed to `log_joint`,
  `log_posteriors` and `map_decisions` (`uniform_priors` builds the uniform one,
  `ml_class_priors` the one the short notes learn from the training labels, n_k / N); for a
  binary application, to `mlpr.evaluation.optimal_bayes_decisions(llr, prior, Cfn, Cfp)`.
* Decisions: MAP over the K classes, ``argmax_k S[k] + log P(k)``; for binary scores, class 1
  exactly when the score is strictly greater than the threshold, ``s > t`` (notes eq. 128), so a
  score at the threshold goes to class 0.
* Discriminative binary models (`mlpr.logreg`, `mlpr.svm`, `mlpr.dimred.LDABinaryClassifier`)
  give (N,) scores (an llr plus a constant for logistic regression, a margin for the SVM);
  prototype models (`mlpr.neighbors`) give (K, N) scores (minus squared distances, neighbour
  fractions) and ``predict``.

Gaussian models (section 5.1 of the notes), all ``GaussianClassifier`` with ``mu`` of shape
(D, K) and the covariance the notes estimate for each model, stored as the notes store it:

=====================  ======================  ==========  ==================================
model (``kind``)       trainer                 ``C``       covariance of class k
=====================  ======================  ==========  ==================================
MVG (``"mvg"``)        `train_mvg`             (K, D, D)   ``C[k]``, full
naive Bayes            `train_naive_bayes`     (K, D)      ``diag(C[k])``: variances
(``"naive"``)
tied (``"tied"``)      `train_tied`            (D, D)      ``C``, full, shared (Sw)
tied naive             `train_tied_naive`      (D,)        ``diag(C)``, shared (diag Sw)
(``"tied_naive"``)
=====================  ======================  ==========  ==================================

``covariance(k)`` returns the (D, D) covariance of class k for every kind. Each trainer writes
its estimate (eq. 59, 68, 70) in its own body, from the class means and covariances of
`_class_estimates`. Estimates are ML (1/N_c per class, 1/N for the within-class covariance);
``unbiased=True`` uses 1/(N_c - 1) and the pooled 1/(N - K) instead. Every (co)variance is
computed from the samples centred on their class mean, as the formula is written, so it is
accurate to rounding (about 1e-15 of its largest entry) on data far from the origin too.

Scores: each kind has a scorer written as the notes write the density (``solver="reference"``
of `GaussianClassifier.scores`: the Gaussian log-density of `mlpr.gaussian.logpdf_GAU_ND_chol`,
the library's one implementation of it, for the full and tied kinds; a sum of 1-D Gaussian
log-densities for the naive kinds) and a fast form that computes the same scores for all classes
at once (``solver="auto"``, the default; `mlpr._generative_fast`), tested equal to 1e-10.

Singular covariances (constant pixels of MNIST, fewer samples than features) are an error naming
the class; the remedies are PCA first, or the explicit eigenvalue floor ``psi``
(`floor_covariance`).

Discrete models (section 5.2 of the notes): `train_categorical_nb` (integer-coded features),
`train_multinomial_nb` (count vectors, e.g. word counts), `train_bernoulli_nb` (binary
features), each estimated from counts smoothed by pseudo-counts ``eps``. Independent groups of
features modelled differently are combined, under the naive assumption, by summing their score
matrices (`combine_naive_scores`).
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
import scipy.linalg
from scipy.special import gammaln, logsumexp

from . import _generative_fast
from ._validation import (
    check_binary_values,
    check_bool,
    check_choice,
    check_class_priors,
    check_class_scores,
    check_counts,
    check_covariance,
    check_data,
    check_data_labels,
    check_finite_result,
    check_finite_statistic,
    check_int,
    check_labels,
    check_pseudo_count,
    check_psi,
    check_solver,
)
from .gaussian import cholesky_factor, logpdf_GAU_ND_chol
from .utils import model, vcol

__all__ = [
    "GaussianClassifier",
    "train_mvg",
    "train_naive_bayes",
    "train_tied",
    "train_tied_naive",
    "floor_covariance",
    "uniform_priors",
    "ml_class_priors",
    "log_joint",
    "log_posteriors",
    "llr",
    "map_decisions",
    "tied_linear_discriminants",
    "tied_binary_llr_coefficients",
    "mvg_binary_llr_coefficients",
    "CategoricalNaiveBayes",
    "train_categorical_nb",
    "MultinomialNaiveBayes",
    "train_multinomial_nb",
    "multinomial_binary_llr_weights",
    "BernoulliNaiveBayes",
    "train_bernoulli_nb",
    "combine_naive_scores",
]

_LOG_2PI = np.log(2.0 * np.pi)
_DIAGONAL_KINDS = ("naive", "tied_naive")
_TIED_KINDS = ("tied", "tied_naive")

# A feature whose values spread over less than this has a variance (~ spread^2) below the normal
# range of float64: only used to explain a singular covariance (error path).
_MIN_SPREAD = 1e-150

# Categorical naive Bayes stores one (M_j, K) table per feature: codes must be consecutive
# integers 0..M_j-1, and a code of a billion is a data error (or an uncoded value), not a table.
_MAX_CODES = 1 << 20


# ------------------------------------------------------------------------------------------------
# private helpers


def _class_counts(L: np.ndarray) -> np.ndarray:
    return np.bincount(L, minlength=int(L.max()) + 1)


def _onehot(L: np.ndarray, K: int) -> np.ndarray:
    """(N, K) indicator matrix of the labels, so that ``D @ Z`` sums the samples of each class."""
    Z = np.zeros((L.size, K))
    Z[np.arange(L.size), L] = 1.0
    return Z


def _log(p: np.ndarray) -> np.ndarray:
    """Elementwise log with log 0 = -inf and no divide-by-zero warning."""
    out = np.full(p.shape, -np.inf)
    np.log(p, out=out, where=p > 0.0)
    return out


def _xlogy_matmul(logP: np.ndarray, X: np.ndarray) -> np.ndarray:
    """``sum_m X[m, n] * logP[m, k]`` as a (K, N) matrix, with the convention 0 * log 0 = 0.

    ``logP`` (M, K) may hold -inf (probability 0); ``X`` (M, N) is non-negative. A positive count
    of a value of probability 0 gives -inf, without warnings or NaN.
    """
    zero = np.isneginf(logP)
    if not zero.any():
        return logP.T @ X
    S = np.where(zero, 0.0, logP).T @ X
    hits = zero.T.astype(np.float64) @ (X > 0.0)  # >0 where an impossible value was observed
    S[hits > 0.0] = -np.inf
    return S


class _Generative:
    """The protocol of a generative model (module docstring): ``scores(D)``, the (K, N) class
    log-likelihoods, and for K = 2 their difference ``llr(D)``."""

    def llr(self, D) -> np.ndarray:
        r"""Log-likelihood ratio of a binary model (K = 2), shape (N,).

        Notes
        -----
        .. math:: \mathrm{llr}(x) = \log f(x \mid 1) - \log f(x \mid 0) = S_1(x) - S_0(x)

        the score compared with a threshold by the binary decisions of section 7.2 of the notes
        (class 1 when ``llr > t``, strictly, eq. 128).
        """
        if self.n_classes != 2:
            raise ValueError(f"llr needs a binary model (K = 2), this one has K = "
                             f"{self.n_classes} classes; use scores(D) and log_posteriors")
        return llr(self.scores(D))  # log f(x|1) - log f(x|0)


# ------------------------------------------------------------------------------------------------
# covariance floor


def floor_covariance(C, psi: float) -> np.ndarray:
    r"""Clip the eigenvalues of a covariance matrix from below at ``psi``.

    Parameters
    ----------
    C : array_like, shape (D, D)
        Symmetric (positive semi-definite) covariance matrix.
    psi : float
        Floor, > 0.

    Returns
    -------
    ndarray, shape (D, D)
        ``U diag(max(s, psi)) U^T`` where ``C = U diag(s) U^T``; positive definite with smallest
        eigenvalue ``psi`` or more. When every eigenvalue of ``C`` is already at least ``psi`` a
        copy of ``C`` is returned unchanged (not a rounded reconstruction).

    Notes
    -----
    The constraint on the covariance eigenvalues the notes use for GMMs (ch. 9), here for any
    covariance that would otherwise be singular:

    .. math:: C = U \Sigma U^T \;\to\; U \max(\Sigma, \psi I) U^T .

    The floor changes ``C`` only along the directions whose variance is below ``psi``.
    """
    psi = check_psi(psi)
    return _floor_full(check_covariance(C), psi)


def _floor_full(C: np.ndarray, psi: float) -> np.ndarray:
    """U diag(max(s, psi)) U^T of a symmetric C = U diag(s) U^T (a copy of C if s >= psi)."""
    s, U = np.linalg.eigh(C)
    if s[0] >= psi:
        return C.copy()
    Cf = (U * np.maximum(s, psi)) @ U.T  # C = U diag(max(s, psi)) U^T
    return 0.5 * (Cf + Cf.T)


# ------------------------------------------------------------------------------------------------
# Gaussian classifiers


@model
class GaussianClassifier(_Generative):
    r"""A Gaussian generative classifier: one Gaussian class-conditional density per class.

    Attributes
    ----------
    mu : ndarray, shape (D, K)
        Class means, one column per class (``mu[:, [k]]`` is the (D, 1) mean of class k).
    C : ndarray
        The covariances as the notes store them for ``kind`` (see the module docstring):
        (K, D, D) full matrices for "mvg", (K, D) variances for "naive", one (D, D) matrix for
        "tied", (D,) variances for "tied_naive". `covariance` gives the (D, D) matrix of a
        class for every kind.
    kind : {"mvg", "naive", "tied", "tied_naive"}
        The model, which picks its scorer in `_SCORERS` (the notes' formula, or its fast form).

    Notes
    -----
    The Gaussian classifiers of section 5.1 of the notes; the density of each class is the
    Gaussian of ch. 4.
    """

    mu: np.ndarray
    C: np.ndarray
    kind: str

    def __post_init__(self):
        check_choice(self.kind, "kind", _KINDS)

    @property
    def n_classes(self) -> int:
        """K, the number of classes."""
        return self.mu.shape[1]

    @property
    def n_features(self) -> int:
        """D, the dimension of the samples."""
        return self.mu.shape[0]

    @property
    def tied(self) -> bool:
        """True when all classes share one covariance."""
        return self.kind in _TIED_KINDS

    def covariance(self, k: int) -> np.ndarray:
        """The (D, D) covariance of class k (a diagonal matrix for the naive kinds)."""
        k = check_int(k, "k", low=0, high=self.n_classes - 1)
        C = self.C if self.tied else self.C[k]
        return np.diag(C) if self.kind in _DIAGONAL_KINDS else C

    def scores(self, D, solver: str = "auto") -> np.ndarray:
        r"""Class-conditional log-densities of the columns of ``D``, shape (K, N).

        Parameters
        ----------
        D : array_like, shape (D, N)
            One sample per column (a 1-D array of length D is a single sample).
        solver : {"auto", "reference"}, default "auto"
            ``"reference"``: each class's log-density as the notes write it (`_scores_full`,
            `_scores_tied_reference`, `_scores_naive_reference`). ``"auto"``: the same scores
            (equal to 1e-10 relatively, tested) for all classes at once, the tied and naive
            kinds by matrix products (`mlpr._generative_fast`); the MVG has one form.

        Returns
        -------
        S : ndarray, shape (K, N)
            ``S[k, n] = log N(x_n | mu_k, C_k)``.

        Notes
        -----
        The Gaussian log-density of ch. 4 for each class (section 5.1):

        .. math::

            \log \mathcal{N}(x \mid \mu_k, C_k) = -\frac{D}{2}\log 2\pi
                - \frac{1}{2}\log|C_k| - \frac{1}{2}(x - \mu_k)^T C_k^{-1} (x - \mu_k)

        (eq. 54 for the MVG, the shared covariance of eq. 69 for the tied model, the product of
        1-D Gaussians of eq. 66 for the naive kinds), computed by the scorer of the model's kind
        and ``solver`` (`_SCORERS`).
        """
        # NaN or inf in D make the scores of their columns NaN or inf, so the diagonal kinds
        # check their (K, N) scores below instead of making a pass over the (D, N) data; the
        # full kinds check D first, as logpdf_GAU_ND_chol would name it X
        diagonal = self.kind in _DIAGONAL_KINDS
        X = check_data(D, n_features=self.n_features, allow_1d=True, check_finite=not diagonal)
        solver = check_solver(solver, tuple(_SCORERS))
        scorer = _SCORERS[solver][self.kind]
        with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
            S = scorer(X, self.mu, self.C)  # log N(x | mu_k, C_k), eq. (54), (66), (69)
        return check_finite_result(S, X, "D", what="the class log-likelihoods",
                                   nan_reason="a covariance is too close to singular")


# The scorers: S[k, n] = log N(x_n | mu_k, C_k) of validated X (D, N) for each kind's C, as the
# notes write them; `mlpr._generative_fast` computes the same scores for all classes at once.


def _scores_full(X: np.ndarray, mu: np.ndarray, C: np.ndarray) -> np.ndarray:
    """MVG: the Gaussian log-density of each class (eq. 54), C (K, D, D)."""
    return np.stack([logpdf_GAU_ND_chol(X, mu[:, k], cholesky_factor(C[k], f"C[{k}]"))
                     for k in range(mu.shape[1])])  # eq. (54): log N(x | mu_k, C_k)


def _scores_tied_reference(X: np.ndarray, mu: np.ndarray, C: np.ndarray) -> np.ndarray:
    """Tied: the Gaussian log-density of each class with the shared covariance (eq. 69)."""
    Lchol = cholesky_factor(C)  # C = L L^T, one factor for all classes
    return np.stack([logpdf_GAU_ND_chol(X, mu[:, k], Lchol)
                     for k in range(mu.shape[1])])  # eq. (69): log N(x | mu_k, C)


def _scores_naive_reference(X: np.ndarray, mu: np.ndarray, var: np.ndarray) -> np.ndarray:
    """Naive kinds: the sum over features of 1-D Gaussian log-densities (eq. 66), var (K, D)
    or, tied, (D,)."""
    var = np.broadcast_to(var, (mu.shape[1], mu.shape[0]))  # sigma^2_kj, (K, D)
    return np.stack([
        np.sum(-0.5 * (_LOG_2PI + np.log(v[:, None]) + (X - m[:, None]) ** 2 / v[:, None]),
               axis=0)  # eq. (66): sum_j log N(x_j | mu_kj, sigma^2_kj)
        for m, v in zip(mu.T, var)])


# solver -> kind -> scorer: the documented choice of `GaussianClassifier.scores`
_SCORERS = {
    "reference": {"mvg": _scores_full, "naive": _scores_naive_reference,
                  "tied": _scores_tied_reference, "tied_naive": _scores_naive_reference},
    "auto": {"mvg": _scores_full, "naive": _generative_fast.scores_diagonal,
             "tied": _generative_fast.scores_tied,
             "tied_naive": _generative_fast.scores_diagonal},
}
_KINDS = ("mvg", "naive", "tied", "tied_naive")


# The estimators (section 5.1) are written in the trainers; each class is centred on its own
# mean before any product, so the estimates are accurate to rounding on data far from the origin.


def _class_estimates(D: np.ndarray, L: np.ndarray, K: int, diagonal: bool = False):
    """The ML mean (D, K) and covariance (K, D, D) of each class (eq. 59), or with ``diagonal``
    its variances (K, D) (eq. 68), from validated (D, L)."""
    mu, C = [], []
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is reported by `_finish`
        for c in range(K):
            Z = D[:, L == c]  # the N_c samples of class c (boolean indexing: a copy)
            mu.append(Z.mean(axis=1))  # mu_c = 1/N_c sum_{i | c_i = c} x_i
            Z -= mu[-1][:, None]  # x_i - mu_c
            C.append(np.einsum("dn,dn->d", Z, Z) / Z.shape[1] if diagonal  # sigma^2_cj
                     else (Z @ Z.T) / Z.shape[1])  # 1/N_c sum (x_i - mu_c)(x_i - mu_c)^T
    return np.stack(mu, axis=1), np.stack(C)


def _unbiased_scale(n: np.ndarray, unbiased: bool) -> np.ndarray:
    """N_c / (N_c - 1) per class with ``unbiased`` (1/(N_c - 1) instead of 1/N_c), else 1."""
    return n / (n - 1.0) if unbiased else np.ones(n.size)


def _pooling_weights(n: np.ndarray, unbiased: bool) -> np.ndarray:
    """N_c / N (or N_c / (N - K) with ``unbiased``): Sw = sum_c w_c C_c."""
    return n / (n.sum() - n.size) if unbiased else n / n.sum()


def _check_training(D, L, kind: str, unbiased, psi):
    """Validated D, L, the class sizes, ``unbiased`` and ``psi`` of a Gaussian trainer."""
    D, L = check_data_labels(D, L)
    unbiased = check_bool(unbiased, "unbiased")
    psi = None if psi is None else check_psi(psi)
    n = _class_counts(L)
    _check_class_sizes(n, kind, unbiased)
    return D, L, n, unbiased, psi


def _finish(D, L, mu, C, kind: str, psi) -> GaussianClassifier:
    """Check the estimates are finite, floor them at ``psi``, check invertibility: the model."""
    check_finite_statistic(mu, D, "D", "the class means")
    check_finite_statistic(C, D, "D", "the class covariances")
    if psi is not None:
        C = _floor(C, psi, kind)
    _check_invertible(C, kind, D, L, mu)
    return GaussianClassifier(mu=mu, C=C, kind=kind)


def _floor(C: np.ndarray, psi: float, kind: str) -> np.ndarray:
    """`floor_covariance` of each covariance; for variances, max(var, psi)."""
    if kind in _DIAGONAL_KINDS:
        return np.maximum(C, psi)  # the floor of a diagonal matrix
    if kind == "tied":
        return _floor_full(C, psi)
    return np.stack([_floor_full(Ck, psi) for Ck in C])


def _check_class_sizes(n: np.ndarray, kind: str, unbiased: bool) -> None:
    """Per-class covariances need 2 samples per class; the unbiased pooled one N > K."""
    K, N = n.size, int(n.sum())
    if kind in _TIED_KINDS:
        if unbiased and N <= K:
            raise ValueError(
                f"the unbiased pooled covariance divides by N - K, but D has N = {N} samples for "
                f"K = {K} classes; use unbiased=False"
            )
        return
    bad = np.flatnonzero(n < 2)
    if bad.size:
        k = int(bad[0])
        model_name = "MVG model" if kind == "mvg" else "naive Bayes Gaussian model"
        raise ValueError(
            f"class {k} has {int(n[k])} sample{'s' if n[k] != 1 else ''}: the {model_name} "
            f"estimates a covariance for each class, which needs at least 2 samples per class "
            f"(with one sample it is zero); collect more data for class {k} or use a tied model"
        )


# Singular covariances (error path only): the message names the class and the remedies.


def _check_invertible(C: np.ndarray, kind: str, D: np.ndarray, L: np.ndarray,
                      mu: np.ndarray) -> None:
    """Refuse a singular covariance of a trained model, explaining why it is singular."""
    n = _class_counts(L)
    K, N = n.size, L.size
    shared = ("the within-class covariance C (shared by all classes)", range(K),
              " within every class")
    if kind == "tied":
        _check_factorable(C, *shared, D, L, N - K, f"{N} samples in {K} classes")
    elif kind == "tied_naive":
        _check_variances(C, np.abs(mu).max(axis=1), *shared, D, L)
    for k in range(K) if kind in ("mvg", "naive") else ():
        if kind == "mvg":
            _check_factorable(C[k], f"the covariance of class {k} (C[{k}], from {int(n[k])} "
                              f"samples)", [k], f" in class {k}", D, L, int(n[k]) - 1,
                              f"its {int(n[k])} samples")
        else:
            _check_variances(C[k], mu[:, k], f"the covariance of class {k} (C[{k}])", [k],
                             f" in class {k}", D, L)


def _check_factorable(C, what, classes, where, D, L, dof: int, who: str) -> None:
    """A full covariance must have a Cholesky factor; ``dof`` is the largest rank the
    deviations of ``who`` from their class means can have (N_k - 1, or N - K pooled)."""
    try:
        cholesky_factor(C)
    except ValueError:
        spread = _spread(D, L, classes)
        const = np.flatnonzero(spread == 0.0)
        if const.size:
            detail = (f": {const.size} of its {D.shape[0]} features are constant{where} (e.g. "
                      f"feature {int(const[0])})")
        elif dof < D.shape[0]:
            detail = f": {who} span at most {dof} dimensions, fewer than its {D.shape[0]} features"
        else:
            detail = " (linearly dependent features)"
        if not const.size:  # features too small in scale for float64 explain it better
            detail = _underflow_detail(spread, np.arange(D.shape[0]), where) or detail
        raise ValueError(_singular_message(what, detail)) from None


def _check_variances(var, mu, what, classes, where, D, L) -> None:
    """A diagonal covariance must have no variance that is zero up to rounding.

    A feature whose standard deviation is at the rounding level of its own root mean square,
    ``8 eps sqrt(mu_j^2 + var_j)``, is constant as far as float64 can tell. The test is feature
    by feature, as the diagonal model is: rescaling one feature rescales its variance and leaves
    the others alone, so features of very different scales are accepted.
    """
    j = np.flatnonzero(var <= (8.0 * np.finfo(float).eps) ** 2 * (mu * mu + var))
    if j.size:
        detail = _underflow_detail(_spread(D, L, classes), j, where) or (
            f": {j.size} of its {D.shape[0]} features have zero variance (constant, up to "
            f"rounding){where} (e.g. feature {int(j[0])})"
        )
        raise ValueError(_singular_message(what, detail))


def _singular_message(what: str, detail: str) -> str:
    return (
        f"{what} is singular{detail}, so its Gaussian density is undefined; reduce the dimension "
        f"first (e.g. fit_pca(D, m) and train on the projected data), or pass psi > 0 (e.g. "
        f"psi=1e-3) to floor its eigenvalues with floor_covariance"
    )


def _spread(D: np.ndarray, L: np.ndarray, classes) -> np.ndarray:
    """(D,) largest range (max - min) of each feature within any of ``classes``."""
    spread = np.zeros(D.shape[0])
    for k in classes:
        spread = np.maximum(spread, np.ptp(D[:, L == k], axis=1))
    return spread


def _underflow_detail(spread: np.ndarray, j: np.ndarray, where: str) -> str:
    """Explain variances of features ``j`` that vanish because the data are too small in scale
    for float64; empty if no feature of ``j`` is in that case."""
    under = j[(spread[j] > 0.0) & (spread[j] < _MIN_SPREAD)]
    if not under.size:
        return ""
    u = int(under[0])
    return (f": feature {u} varies by only {spread[u]:.3g}{where}, too little for its variance "
            f"to be represented in float64 (rescale the data, e.g. z-normalise with fit_znorm)")


def train_mvg(D, L, *, unbiased: bool = False, psi: float | None = None) -> GaussianClassifier:
    r"""Train the multivariate Gaussian (MVG) classifier: a full covariance for each class.

    Parameters
    ----------
    D : array_like, shape (D, N)
        Training data, one sample per column.
    L : array_like, shape (N,)
        Labels 0..K-1, every class present, at least 2 samples per class.
    unbiased : bool, default False
        False: the ML estimate, 1/N_c. True: the unbiased 1/(N_c - 1).
    psi : float, optional
        Eigenvalue floor, applied after the estimate (`floor_covariance`). Off by default: a
        singular covariance is an error.

    Returns
    -------
    GaussianClassifier
        ``kind="mvg"``, ``mu`` (D, K), ``C`` (K, D, D).

    Raises
    ------
    ValueError
        Transposed data ("did you mean D.T?"), a class without samples or with fewer than 2, a
        singular covariance (the message names the class and suggests PCA or ``psi``).

    Notes
    -----
    ML estimates of section 5.1 of the notes, one Gaussian per class c with its :math:`N_c`
    samples:

    .. math::

        \mu_c = \frac{1}{N_c}\sum_{i \mid c_i = c} x_i, \qquad
        C_c = \frac{1}{N_c}\sum_{i \mid c_i = c} (x_i - \mu_c)(x_i - \mu_c)^T .
    """
    D, L, n, unbiased, psi = _check_training(D, L, "mvg", unbiased, psi)
    mu, C = _class_estimates(D, L, n.size)  # eq. (59): mu_c and C_c of each class
    C = C * _unbiased_scale(n, unbiased)[:, None, None]  # 1/(N_c - 1) with unbiased=True
    return _finish(D, L, mu, C, "mvg", psi)


def train_naive_bayes(
    D, L, *, unbiased: bool = False, psi: float | None = None
) -> GaussianClassifier:
    r"""Train the naive Bayes Gaussian classifier: a diagonal covariance for each class.

    Parameters
    ----------
    D : array_like, shape (D, N)
        Training data, one sample per column.
    L : array_like, shape (N,)
        Labels 0..K-1, every class present, at least 2 samples per class.
    unbiased : bool, default False
        False: the ML variances, 1/N_c. True: the unbiased 1/(N_c - 1).
    psi : float, optional
        Variance floor, ``max(var, psi)`` (the eigenvalue floor of a diagonal matrix). Off by
        default: a zero variance is an error.

    Returns
    -------
    GaussianClassifier
        ``kind="naive"``, ``mu`` (D, K), ``C`` (K, D): the variances of each class.

    Raises
    ------
    ValueError
        Transposed data, a class without samples or with fewer than 2, a feature constant
        within a class (the message names the class and feature and suggests PCA or ``psi``).

    Notes
    -----
    Section 5.1 of the notes: the features are assumed independent given the class, so the
    covariance of class c is the diagonal of the MVG one, :math:`C_c = \operatorname{diag}
    (\sigma^2_{c1}, \dots, \sigma^2_{cD})`, and the class-conditional density is a product of
    1-D Gaussians:

    .. math::

        \log f(x \mid c) = \sum_{j=1}^D \log \mathcal{N}(x_j \mid \mu_{cj}, \sigma^2_{cj}),
        \qquad \sigma^2_{cj} = \frac{1}{N_c}\sum_{i \mid c_i = c} (x_{ij} - \mu_{cj})^2 .
    """
    D, L, n, unbiased, psi = _check_training(D, L, "naive", unbiased, psi)
    mu, var = _class_estimates(D, L, n.size, diagonal=True)  # eq. (68): mu_cj, sigma^2_cj
    var = var * vcol(_unbiased_scale(n, unbiased))  # 1/(N_c - 1) with unbiased=True
    return _finish(D, L, mu, var, "naive", psi)


def train_tied(D, L, *, unbiased: bool = False, psi: float | None = None) -> GaussianClassifier:
    r"""Train the tied Gaussian classifier: class means, one covariance shared by all classes.

    Parameters
    ----------
    D : array_like, shape (D, N)
        Training data, one sample per column.
    L : array_like, shape (N,)
        Labels 0..K-1, every class present (a class may have a single sample).
    unbiased : bool, default False
        False: the ML within-class covariance, 1/N. True: the pooled 1/(N - K).
    psi : float, optional
        Eigenvalue floor, applied after the estimate (`floor_covariance`). Off by default.

    Returns
    -------
    GaussianClassifier
        ``kind="tied"``, ``mu`` (D, K), ``C`` (D, D).

    Raises
    ------
    ValueError
        Transposed data, a class without samples, a singular within-class covariance (the
        message says why and suggests PCA or ``psi``).

    Notes
    -----
    Section 5.1 of the notes: the shared covariance is the within-class covariance of LDA
    (`mlpr.dimred.compute_Sw_Sb`),

    .. math::

        C = \frac{1}{N}\sum_{c=1}^K \sum_{i \mid c_i = c} (x_i - \mu_c)(x_i - \mu_c)^T
          = \frac{1}{N}\sum_{c} N_c C_c ,

    or :math:`\frac{1}{N - K}` times the same sum with ``unbiased=True``. The log-posterior is
    then linear in x (`tied_linear_discriminants`). A class with a single sample is allowed: its
    mean is that sample and it adds nothing to the sum.
    """
    D, L, n, unbiased, psi = _check_training(D, L, "tied", unbiased, psi)
    mu, C = _class_estimates(D, L, n.size)  # mu_c and C_c of each class (eq. 59)
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is reported by `_finish`
        Sw = np.tensordot(_pooling_weights(n, unbiased), C, axes=1)  # eq. (70): 1/N sum N_c C_c
    return _finish(D, L, mu, 0.5 * (Sw + Sw.T), "tied", psi)


def train_tied_naive(
    D, L, *, unbiased: bool = False, psi: float | None = None
) -> GaussianClassifier:
    r"""Train the tied naive Bayes Gaussian classifier: one diagonal covariance for all classes.

    Parameters
    ----------
    D : array_like, shape (D, N)
        Training data, one sample per column.
    L : array_like, shape (N,)
        Labels 0..K-1, every class present.
    unbiased : bool, default False
        False: 1/N. True: the pooled 1/(N - K).
    psi : float, optional
        Variance floor, ``max(var, psi)``. Off by default.

    Returns
    -------
    GaussianClassifier
        ``kind="tied_naive"``, ``mu`` (D, K), ``C`` (D,): the shared variances.

    Raises
    ------
    ValueError
        Transposed data, a class without samples, a feature constant within every class.

    Notes
    -----
    Section 5.1 of the notes, both assumptions at once: the shared covariance is the diagonal
    of the within-class covariance of `train_tied`,

    .. math:: C = \operatorname{diag}(S_W), \qquad
              \sigma^2_j = \frac{1}{N}\sum_{c} \sum_{i \mid c_i = c} (x_{ij} - \mu_{cj})^2 .
    """
    D, L, n, unbiased, psi = _check_training(D, L, "tied_naive", unbiased, psi)
    mu, var = _class_estimates(D, L, n.size, diagonal=True)  # mu_cj, sigma^2_cj (eq. 68)
    return _finish(D, L, mu, _pooling_weights(n, unbiased) @ var, "tied_naive", psi)  # diag Sw


# ------------------------------------------------------------------------------------------------
# posteriors and decisions


def uniform_priors(K: int) -> np.ndarray:
    """The uniform prior over K classes, ``np.full(K, 1 / K)``.

    Notes
    -----
    The prior of an application with equal classes (notes ch. 5, Bayes' rule, eq. 64).
    """
    K = check_int(K, "K", low=1)
    return np.full(K, 1.0 / K)


def ml_class_priors(L, K: int | None = None) -> np.ndarray:
    r"""The ML estimate of the class priors from training labels, pi_k = n_k / N, shape (K,).

    Parameters
    ----------
    L : array_like, shape (N,)
        Training labels 0..K-1, at least one.
    K : int, optional
        Number of classes (default ``max(L) + 1``); a class without samples gets prior 0.

    Returns
    -------
    ndarray, shape (K,)
        The fraction of training samples in each class, summing to 1.

    Notes
    -----
    Notes 000, eq. (14), and notes 003, section 6.3.1: maximising the likelihood of the
    labels, :math:`\prod_k \pi_k^{n_k}` subject to :math:`\sum_k \pi_k = 1`, gives

    .. math:: \pi_k = \frac{n_k}{N}, \qquad n_k = \#\{i : c_i = k\}.

    The main notes keep priors with the application (`uniform_priors`, `log_joint`); the short
    notes' "LDA" and "QDA" are the tied and MVG models with these learned priors::

        log_posteriors(train_tied(DTR, LTR).scores(DTE), ml_class_priors(LTR))  # "LDA"
        log_posteriors(train_mvg(DTR, LTR).scores(DTE), ml_class_priors(LTR))   # "QDA"
    """
    K = None if K is None else check_int(K, "K", low=1)
    L = check_labels(L, n_classes=K, allow_empty=False)
    n = np.bincount(L, minlength=K or 0)  # n_k
    return n / L.size  # pi_k = n_k / N


def log_joint(S, priors) -> np.ndarray:
    r"""Compute the log joint densities ``log f(x, c) = S[c] + log P(c)``, shape (K, N).

    Parameters
    ----------
    S : array_like, shape (K, N)
        Class-conditional log-likelihoods (``model.scores(D)``).
    priors : array_like, shape (K,)
        Class priors: non-negative, summing to 1 (within 1e-9). A zero prior gives -inf.

    Notes
    -----
    Bayes' rule of notes ch. 5 (eq. 51, 64) in the log domain, numerator:

    .. math:: \log f_{X,C}(x, c) = \log f_{X \mid C}(x \mid c) + \log P(c)
    """
    S = check_class_scores(S)
    p = check_class_priors(priors, S.shape[0], n_samples=S.shape[1])
    return S + vcol(_log(p))  # log f(x, c) = log f(x|c) + log P(c)


def log_posteriors(S, priors) -> np.ndarray:
    r"""Compute the class log-posteriors ``log P(c | x)``, shape (K, N).

    Parameters
    ----------
    S : array_like, shape (K, N)
        Class-conditional log-likelihoods.
    priors : array_like, shape (K,)
        Class priors (see `log_joint`).

    Returns
    -------
    ndarray, shape (K, N)
        Each column exponentiates to a distribution over the K classes (sums to one).

    Raises
    ------
    ValueError
        Bad priors, or a sample whose joint density is zero for every class (all -inf; e.g. a
        discrete model without pseudo-counts meeting an unseen value).

    Notes
    -----
    Notes ch. 5, eq. (64) (the posterior of a generative model).

    Bayes' rule in the log domain, with the marginal computed by ``logsumexp``:

    .. math::

        \log P(c \mid x) = \log f(x, c) - \log \sum_{c'} \exp \log f(x, c') .
    """
    SJ = log_joint(S, priors)
    marg = logsumexp(SJ, axis=0, keepdims=True)  # log f(x) = log sum_c f(x, c)
    dead = np.flatnonzero(np.isneginf(marg.ravel()))
    if dead.size:
        raise ValueError(
            f"sample {int(dead[0])} has joint log-density -inf for every class "
            f"({dead.size} such samples): its posterior is undefined; smooth the model (e.g. "
            f"pseudo-counts eps > 0) or check the priors"
        )
    return SJ - marg  # log P(c|x) = log f(x, c) - log f(x)


def llr(S) -> np.ndarray:
    r"""Compute the log-likelihood ratio of a binary task, ``S[1] - S[0]``, shape (N,).

    Parameters
    ----------
    S : array_like, shape (2, N)
        Class-conditional log-likelihoods of class 0 (H_F) and class 1 (H_T).

    Notes
    -----
    The log-likelihood ratio of a binary generative model (notes eq. 60-61), the score of the binary
    decisions of section 7.2 (class 1 when llr > t, eq. 128):

    .. math:: \mathrm{llr}(x) = \log \frac{f(x \mid 1)}{f(x \mid 0)}
    """
    S = check_class_scores(S)
    if S.shape[0] != 2 and S.shape[1] == 2:
        raise ValueError(
            f"S has shape {S.shape}: llr needs the (2, N) scores of the 2 classes, one row per "
            f"class and one column per sample; did you mean S.T?"
        )
    if S.shape[0] != 2:
        raise ValueError(
            f"llr needs the scores of exactly 2 classes, S has shape {S.shape} (K = {S.shape[0]})"
        )
    if np.any(np.isneginf(S[0]) & np.isneginf(S[1])):
        raise ValueError("S has a sample with -inf scores for both classes: its llr is undefined")
    return S[1] - S[0]  # llr = log f(x|1) - log f(x|0)


def map_decisions(S, priors) -> np.ndarray:
    r"""Assign each sample to its maximum a posteriori class, shape (N,).

    Parameters
    ----------
    S : array_like, shape (K, N)
        Class-conditional log-likelihoods.
    priors : array_like, shape (K,)
        Class priors (see `log_joint`).

    Returns
    -------
    ndarray of int, shape (N,)
        ``argmax_c log f(x, c)`` (ties go to the smallest class index), the decision of minimum
        error rate for these priors. For K = 2 this is the library's one rule (notes eq. 128):
        class 1 only when ``llr(x) > log(P(0) / P(1))`` strictly; a sample exactly at the
        threshold (equal joint densities) goes to class 0.

    Notes
    -----
    .. math:: c^*(x) = \arg\max_c P(c \mid x) = \arg\max_c \left[\log f(x \mid c) + \log P(c)\right]

    A sample whose joint density is zero for every class (all -inf, e.g. a discrete model
    without pseudo-counts meeting an unseen value) ties between all classes and is decided 0;
    `log_posteriors` refuses such samples.
    """
    return np.argmax(log_joint(S, priors), axis=0)  # argmax_c log f(x|c) + log P(c)


# ------------------------------------------------------------------------------------------------
# closed forms


def _check_model(model, K: int | None = None, tied: bool = False, fn: str = "") -> None:
    if not isinstance(model, GaussianClassifier):
        raise TypeError(f"{fn} needs a GaussianClassifier (from train_mvg and the like), got "
                        f"{type(model).__name__}")
    if tied and not model.tied:
        raise ValueError(
            f"{fn} needs a tied model (train_tied or train_tied_naive), got kind "
            f"{model.kind!r}: with class-specific covariances the discriminant is quadratic "
            f"(see mvg_binary_llr_coefficients)"
        )
    if K is not None and model.n_classes != K:
        raise ValueError(f"{fn} needs a binary model (K = 2), got K = {model.n_classes} classes")


def tied_linear_discriminants(model: GaussianClassifier, priors) -> tuple[np.ndarray, np.ndarray]:
    r"""Compute the linear discriminants of a tied Gaussian model.

    Parameters
    ----------
    model : GaussianClassifier
        A tied model (`train_tied` or `train_tied_naive`).
    priors : array_like, shape (K,)
        Class priors.

    Returns
    -------
    A : ndarray, shape (D, K)
        ``A[:, k] = C^{-1} mu_k``.
    b : ndarray, shape (K,)
        ``b[k] = log pi_k - mu_k^T C^{-1} mu_k / 2``.

    Notes
    -----
    Section 5.1.3 of the notes (the tied model is a linear classifier; eq. 71 for K = 2).

    With a shared covariance the quadratic term of the log joint is common to all classes:

    .. math::

        \log f(x, k) = a_k^T x + b_k
            \underbrace{- \tfrac{1}{2} x^T C^{-1} x - \tfrac{D}{2}\log 2\pi
            - \tfrac{1}{2}\log|C|}_{\text{same for every class}},
        \qquad a_k = C^{-1}\mu_k, \quad b_k = \log\pi_k - \tfrac{1}{2}\mu_k^T C^{-1}\mu_k,

    so ``argmax_k (A.T @ x + b)`` are the MAP decisions and the log-posteriors are
    ``A.T @ X + b`` normalised by ``logsumexp``. ``C^{-1}`` is applied by Cholesky solves.
    """
    _check_model(model, tied=True, fn="tied_linear_discriminants")
    p = check_class_priors(priors, model.n_classes)
    Lchol = cholesky_factor(model.covariance(0))  # the shared C
    A = scipy.linalg.cho_solve((Lchol, True), model.mu)  # a_k = C^{-1} mu_k
    b = _log(p) - 0.5 * np.sum(model.mu * A, axis=0)  # b_k = log pi_k - mu_k^T C^-1 mu_k / 2
    return A, b


def tied_binary_llr_coefficients(model: GaussianClassifier) -> tuple[np.ndarray, float]:
    r"""Compute the linear log-likelihood ratio of a binary tied Gaussian model.

    Parameters
    ----------
    model : GaussianClassifier
        A tied model with K = 2 classes.

    Returns
    -------
    w : ndarray, shape (D,)
        ``C^{-1} (mu_1 - mu_0)``.
    c : float
        ``-(mu_1 + mu_0)^T C^{-1} (mu_1 - mu_0) / 2``.

    Notes
    -----
    Section 5.1.3 of the notes, eq. (71) (the binary tied model's llr is linear).

    .. math::

        \mathrm{llr}(x) = \log\frac{\mathcal{N}(x \mid \mu_1, C)}{\mathcal{N}(x \mid \mu_0, C)}
            = w^T x + c, \qquad w = C^{-1}(\mu_1 - \mu_0), \quad
            c = -\tfrac{1}{2}(\mu_1^T C^{-1}\mu_1 - \mu_0^T C^{-1}\mu_0)
              = -\tfrac{1}{2}(\mu_1 + \mu_0)^T w

    (the notes' :math:`x^T b + c` with :math:`b = w`). ``llr(model.scores(X)) = w @ X + c``.
    """
    _check_model(model, K=2, tied=True, fn="tied_binary_llr_coefficients")
    mu0, mu1 = model.mu[:, 0], model.mu[:, 1]
    Lchol = cholesky_factor(model.covariance(0))  # the shared C
    w = scipy.linalg.cho_solve((Lchol, True), mu1 - mu0)  # w = C^{-1}(mu_1 - mu_0)
    c = -0.5 * float((mu1 + mu0) @ w)  # c = -(mu_1 + mu_0)^T w / 2
    return w, c


def mvg_binary_llr_coefficients(model: GaussianClassifier) -> tuple[np.ndarray, np.ndarray, float]:
    r"""Compute the quadratic log-likelihood ratio of a binary Gaussian model.

    Parameters
    ----------
    model : GaussianClassifier
        Any Gaussian model with K = 2 classes (for a tied one, ``A`` is zero).

    Returns
    -------
    A : ndarray, shape (D, D)
        ``-(C_1^{-1} - C_0^{-1}) / 2``, symmetric.
    b : ndarray, shape (D,)
        ``C_1^{-1} mu_1 - C_0^{-1} mu_0``.
    c : float
        ``-(mu_1^T C_1^{-1} mu_1 - mu_0^T C_0^{-1} mu_0) / 2 - (log|C_1| - log|C_0|) / 2``.

    Notes
    -----
    Section 5.1.1 of the notes, eq. (63) (the binary MVG's llr is quadratic).

    .. math::

        \mathrm{llr}(x) = x^T A x + x^T b + c

    The precision matrices :math:`C_k^{-1}` needed by ``A`` are obtained by Cholesky solves
    against the identity, never by ``inv``.
    """
    _check_model(model, K=2, fn="mvg_binary_llr_coefficients")
    nfeat = model.n_features
    Ls = [cholesky_factor(model.covariance(k), f"C[{k}]") for k in range(2)]
    P = [scipy.linalg.cho_solve((Lk, True), np.eye(nfeat)) for Lk in Ls]  # C_k^{-1}
    Pmu = [scipy.linalg.cho_solve((Ls[k], True), model.mu[:, k]) for k in range(2)]
    logdet = [2.0 * np.log(np.diag(Lk)).sum() for Lk in Ls]
    A = -0.5 * (P[1] - P[0])  # A = -(C_1^-1 - C_0^-1) / 2
    A = 0.5 * (A + A.T)
    b = Pmu[1] - Pmu[0]  # b = C_1^-1 mu_1 - C_0^-1 mu_0
    c = (-0.5 * (model.mu[:, 1] @ Pmu[1] - model.mu[:, 0] @ Pmu[0])
         - 0.5 * (logdet[1] - logdet[0]))  # c
    return A, b, float(c)


# ------------------------------------------------------------------------------------------------
# discrete naive Bayes


def _labels_for(X: np.ndarray, L) -> np.ndarray:
    """Validate the labels of already validated data X (D, N); explains a transposed X."""
    return check_labels(L, X.shape[1], require_all=True, data_shape=X.shape)


def _check_codes(D, name: str = "D", n_features: int | None = None) -> np.ndarray:
    """Integer codes >= 0 in a (F, N) matrix; returned as int64."""
    X = check_data(D, name, n_features=n_features, allow_1d=n_features is not None)
    bad = (X < 0) | (X != np.rint(X))
    if bad.any():
        j, i = np.argwhere(bad)[0]
        raise ValueError(
            f"{name} must hold integer codes 0..M_j-1 of categorical features, got {X[j, i]:g} "
            f"(feature {j}, sample {i})"
        )
    if X.size and X.max() >= _MAX_CODES:
        j, i = np.argwhere(X >= _MAX_CODES)[0]
        raise ValueError(
            f"{name} has code {X[j, i]:.6g} (feature {j}, sample {i}): categorical codes must be "
            f"consecutive integers 0..M_j-1 (M_j at most {_MAX_CODES}), one table row per value; "
            f"re-code the feature, e.g. numpy.unique(x, return_inverse=True)[1]"
        )
    return X.astype(np.int64)


def _check_n_values(n_values, X: np.ndarray) -> np.ndarray:
    F = X.shape[0]
    seen = X.max(axis=1) + 1
    if n_values is None:
        return seen
    if isinstance(n_values, Integral) and not isinstance(n_values, bool):
        M = np.full(F, check_int(n_values, "n_values", low=1, high=_MAX_CODES))
    else:
        M = np.asarray(n_values)
        if M.ndim != 1 or M.size != F or not np.issubdtype(M.dtype, np.integer):
            raise ValueError(
                f"n_values must be an int or a sequence of {F} ints (one per feature), got "
                f"{n_values!r}"
            )
        if np.any(M < 1):
            raise ValueError(f"n_values must be >= 1, got {M.min()}")
        M = M.astype(np.int64)
    if M.max() > _MAX_CODES:
        raise ValueError(
            f"n_values must be at most {_MAX_CODES} (one table row per value), got "
            f"{int(M.max())}: categorical codes must be consecutive integers 0..M_j-1"
        )
    over = np.flatnonzero(seen > M)
    if over.size:
        j = int(over[0])
        raise ValueError(
            f"feature {j} of D has code {int(seen[j] - 1)} but n_values[{j}] = {int(M[j])} (codes "
            f"0..{int(M[j]) - 1})"
        )
    return M


@model
class CategoricalNaiveBayes(_Generative):
    r"""Naive Bayes over integer-coded categorical features.

    Attributes
    ----------
    pi : tuple of ndarray
        ``pi[j]`` has shape (M_j, K): column k is the distribution of feature j in class k,
        ``pi[j][m, k] = P(x_j = m | k)``.

    Notes
    -----
    Naive Bayes over categorical features, section 5.2.1 of the notes (eq. 80).
    """

    pi: tuple

    @property
    def n_classes(self) -> int:
        return self.pi[0].shape[1]

    @property
    def n_values(self) -> np.ndarray:
        """(F,) number of values M_j of each feature."""
        return np.array([p.shape[0] for p in self.pi])

    def scores(self, D) -> np.ndarray:
        r"""Class-conditional log-probabilities of the columns of ``D`` (F, N), shape (K, N).

        Notes
        -----
        .. math:: \log P(x \mid k) = \sum_{j=1}^F \log \pi^{(j)}_{k, x_j}

        ``-inf`` (no warning) for a value of probability 0 (possible only with ``eps = 0``).
        """
        X = _check_codes(D, "D", n_features=len(self.pi))
        M = self.n_values
        over = np.flatnonzero(X.max(axis=1) >= M) if X.shape[1] else np.array([], int)
        if over.size:
            j = int(over[0])
            raise ValueError(
                f"feature {j} of D has code {int(X[j].max())} but the model knows {int(M[j])} "
                f"values 0..{int(M[j]) - 1}; pass n_values to train_categorical_nb"
            )
        S = np.zeros((self.n_classes, X.shape[1]))
        for j, pj in enumerate(self.pi):  # loop over features; vectorised over samples
            S += _log(pj)[X[j]].T  # + log pi^(j)_{k, x_j}
        return S


def train_categorical_nb(D, L, n_values=None, eps: float = 0.0) -> CategoricalNaiveBayes:
    r"""Train naive Bayes on integer-coded categorical features with pseudo-counts.

    Parameters
    ----------
    D : array_like, shape (F, N)
        ``D[j, i]`` is the code 0..M_j-1 of feature j for sample i (M_j at most 2**20).
    L : array_like, shape (N,)
        Labels 0..K-1, every class present.
    n_values : int or sequence of int, optional
        M_j, the number of values of each feature (one int for all), 1 <= M_j <= 2**20.
        Default: the largest code seen in training plus one.
    eps : float, default 0
        Pseudo-count added to the count of every (value, class) pair. ``eps = 0`` is the ML
        estimate: a value never seen in class k has probability 0 and a test sample with it gets
        score -inf for class k.

    Returns
    -------
    CategoricalNaiveBayes

    Notes
    -----
    Section 5.2.1 of the notes, eq. (79), with :math:`N_{k,j,m}` the number of training samples
    of class k whose feature j equals m and :math:`N_k` the samples of class k:

    .. math:: \pi^{(j)}_{k,m} = \frac{N_{k,j,m} + \varepsilon}{N_k + M_j \varepsilon}
    """
    X = _check_codes(D)
    L = _labels_for(X, L)
    eps = check_pseudo_count(eps, "eps")
    M = _check_n_values(n_values, X)
    K = int(L.max()) + 1
    n = _class_counts(L)
    pi = []
    for j in range(X.shape[0]):
        counts = np.bincount(X[j] * K + L, minlength=M[j] * K).reshape(M[j], K)  # N_{k,j,m}
        pi.append((counts + eps) / (n + M[j] * eps))  # (N_kjm + eps) / (N_k + M_j eps)
    return CategoricalNaiveBayes(pi=tuple(pi))


@model
class MultinomialNaiveBayes(_Generative):
    r"""Multinomial naive Bayes over count vectors (e.g. word counts of documents).

    Attributes
    ----------
    pi : ndarray, shape (M, K)
        Column k is the class pmf over the M values (words), summing to one.

    Notes
    -----
    Multinomial naive Bayes, section 5.2.2 of the notes (eq. 81).
    """

    pi: np.ndarray

    @property
    def n_classes(self) -> int:
        return self.pi.shape[1]

    def scores(self, D, *, include_coefficient: bool = False) -> np.ndarray:
        r"""Class-conditional log-probabilities of the count vectors in ``D`` (M, N), (K, N).

        Parameters
        ----------
        D : array_like, shape (M, N)
            Non-negative integer counts, one column per sample.
        include_coefficient : bool, default False
            Add the log multinomial coefficient ``log n! - sum_m log x_m!``. It is the same for
            every class, so it changes neither posteriors, llrs nor decisions, and is omitted by
            default.

        Notes
        -----
        .. math:: \log P(x \mid k) = \sum_{m=1}^M x_m \log \pi_{k,m}
                  \;\left[ + \log \frac{n!}{\prod_m x_m!} \right]

        One (K, M) x (M, N) product; ``-inf`` where a value of probability 0 has a positive
        count.
        """
        X = check_counts(check_data(D, n_features=self.pi.shape[0], allow_1d=True), "D")
        S = _xlogy_matmul(_log(self.pi), X)  # sum_m x_m log pi_km
        if check_bool(include_coefficient, "include_coefficient"):
            S += gammaln(X.sum(axis=0) + 1) - gammaln(X + 1).sum(axis=0)  # log n!/prod x_m!
        return S


def train_multinomial_nb(D, L, eps: float = 0.0) -> MultinomialNaiveBayes:
    r"""Train multinomial naive Bayes on count vectors with pseudo-counts.

    Parameters
    ----------
    D : array_like, shape (M, N)
        ``D[m, i]``: how many times value (word) m occurs in sample i; non-negative integers.
    L : array_like, shape (N,)
        Labels 0..K-1, every class present.
    eps : float, default 0
        Pseudo-count added to the total count of every (value, class) pair; without it a word
        absent from the training samples of class k gives score -inf to any text containing it.

    Returns
    -------
    MultinomialNaiveBayes

    Raises
    ------
    ValueError
        Transposed data, counts that are not non-negative integers, a class whose samples have
        no counts at all (with ``eps = 0``).

    Notes
    -----
    Section 5.2.2 of the notes, eq. (84): with :math:`N_{k,m}` the total count of value m over
    the samples of class k,

    .. math:: \pi_{k,m} = \frac{N_{k,m} + \varepsilon}{\sum_{m'} N_{k,m'} + M\varepsilon}
    """
    X = check_counts(check_data(D), "D")
    L = _labels_for(X, L)
    eps = check_pseudo_count(eps, "eps")
    K = int(L.max()) + 1
    T = X @ _onehot(L, K)  # N_km, total count of value m in class k, (M, K)
    denom = T.sum(axis=0) + X.shape[0] * eps
    empty = np.flatnonzero(denom == 0)
    if empty.size:
        raise ValueError(
            f"the samples of class {int(empty[0])} have no counts at all and eps is 0: its pmf is "
            f"undefined; use eps > 0"
        )
    return MultinomialNaiveBayes(pi=(T + eps) / denom)  # (N_km + eps) / (sum N_k + M eps)


def multinomial_binary_llr_weights(model: MultinomialNaiveBayes) -> np.ndarray:
    r"""Compute the per-value weights of a binary multinomial model's llr, shape (M,).

    Returns
    -------
    b : ndarray, shape (M,)
        ``log pi_1 - log pi_0``; ``llr(model.scores(X)) = b @ X``. The values (words) with the
        largest entries are the strongest evidence for class 1, the most negative for class 0.

    Notes
    -----
    Section 5.2.2 of the notes, eq. (85).

    The llr is linear in the counts (the multinomial coefficient cancels):

    .. math:: \mathrm{llr}(x) = \sum_m x_m (\log\pi_{1,m} - \log\pi_{0,m}) = x^T b
    """
    if not isinstance(model, MultinomialNaiveBayes):
        raise TypeError(f"model must be a MultinomialNaiveBayes, got {type(model).__name__}")
    if model.n_classes != 2:
        raise ValueError(f"the llr needs a binary model (K = 2), got K = {model.n_classes}")
    if np.any(model.pi == 0.0):
        m = int(np.flatnonzero((model.pi == 0.0).any(axis=1))[0])
        raise ValueError(
            f"value {m} has probability 0 in a class, so its llr weight is infinite; train with "
            f"pseudo-counts eps > 0"
        )
    return np.log(model.pi[:, 1]) - np.log(model.pi[:, 0])  # b = log pi_1 - log pi_0


@model
class BernoulliNaiveBayes(_Generative):
    r"""Naive Bayes over binary features.

    Attributes
    ----------
    p : ndarray, shape (F, K)
        ``p[j, k] = P(x_j = 1 | k)``.

    Notes
    -----
    Naive Bayes over binary features, section 5.2 of the notes (the Bernoulli pmf of eq. 34 for each
    feature, multiplied under the naive assumption of eq. 66).
    """

    p: np.ndarray

    @property
    def n_classes(self) -> int:
        return self.p.shape[1]

    def scores(self, D) -> np.ndarray:
        r"""Class-conditional log-probabilities of the binary columns of ``D`` (F, N), (K, N).

        Notes
        -----
        .. math::

            \log P(x \mid k) = \sum_{j=1}^F x_j \log p_{kj} + (1 - x_j) \log(1 - p_{kj})

        Two (K, F) x (F, N) products, with :math:`0 \log 0 = 0`; ``-inf`` where an outcome of
        probability 0 occurs (possible only with ``eps = 0``).
        """
        X = check_binary_values(check_data(D, n_features=self.p.shape[0], allow_1d=True), "D")
        return (_xlogy_matmul(_log(self.p), X)  # sum_j x_j log p_kj
                + _xlogy_matmul(_log(1.0 - self.p), 1.0 - X))  # + (1 - x_j) log(1 - p_kj)


def train_bernoulli_nb(D, L, eps: float = 0.0) -> BernoulliNaiveBayes:
    r"""Train Bernoulli naive Bayes on binary features with pseudo-counts.

    Parameters
    ----------
    D : array_like, shape (F, N)
        Binary features, each 0 or 1 (booleans accepted).
    L : array_like, shape (N,)
        Labels 0..K-1, every class present.
    eps : float, default 0
        Pseudo-count added to each of the two outcomes of every feature in every class.

    Returns
    -------
    BernoulliNaiveBayes

    Notes
    -----
    Section 5.2 of the notes: eq. (44) for each feature within each class, smoothed.

    With :math:`N_{k,j}` the number of samples of class k whose feature j is 1:

    .. math:: p_{kj} = \frac{N_{k,j} + \varepsilon}{N_k + 2\varepsilon}
    """
    X = check_binary_values(check_data(D), "D")
    L = _labels_for(X, L)
    eps = check_pseudo_count(eps, "eps")
    K = int(L.max()) + 1
    n = _class_counts(L)
    ones = X @ _onehot(L, K)  # N_kj, (F, K)
    return BernoulliNaiveBayes(p=(ones + eps) / (n + 2.0 * eps))  # (N_kj + eps)/(N_k + 2 eps)


def combine_naive_scores(*S) -> np.ndarray:
    r"""Sum the score matrices of independent groups of features, shape (K, N).

    Parameters
    ----------
    *S : array_like, each of shape (K, N)
        Class-conditional log-likelihoods of the same samples, each from a model of a different
        group of features (e.g. Gaussian for the continuous ones, categorical for the coded
        ones).

    Notes
    -----
    The naive Bayes assumption (notes eq. 66): independent groups of features multiply their
    densities, so their log-likelihoods add.

    Under the naive assumption the groups are independent given the class:

    .. math:: \log f(x \mid k) = \sum_g \log f_g(x^{(g)} \mid k)
    """
    if not S:
        raise ValueError("combine_naive_scores needs at least one score matrix")
    packed = S[0] if len(S) == 1 else None
    if (isinstance(packed, np.ndarray) and packed.ndim == 3) or (
            isinstance(packed, (list, tuple)) and packed
            and all(isinstance(s, np.ndarray) and s.ndim == 2 for s in packed)):
        raise ValueError(
            f"S[0] holds {len(packed)} score matrices: combine_naive_scores takes the (K, N) "
            f"matrices as separate arguments; unpack them, combine_naive_scores(*S)"
        )
    mats = [check_class_scores(s, f"S[{i}]") for i, s in enumerate(S)]
    for i, s in enumerate(mats[1:], start=1):
        if s.shape != mats[0].shape and s.shape == mats[0].shape[::-1]:
            raise ValueError(
                f"S[{i}] has shape {s.shape} but S[0] has shape {mats[0].shape}: every score "
                f"matrix must be (K, N), one row per class; did you mean S[{i}].T?"
            )
        if s.shape != mats[0].shape:
            raise ValueError(
                f"S[{i}] has shape {s.shape} but S[0] has shape {mats[0].shape}: every score "
                f"matrix must be (K, N) for the same classes and samples"
            )
    return np.sum(mats, axis=0)  # log f(x|k) = sum_g log f_g(x_g|k)
