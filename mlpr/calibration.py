r"""Score calibration and fusion: prior-weighted logistic regression on scores, the K-fold
calibration protocol, fusion of several systems, and isotonic (PAV) calibration
(notes ch. 7.3-7.4).

A classifier's binary scores :math:`s` (llrs of a generative model, LR or SVM scores) separate the
classes but are rarely *calibrated*: the Bayes decision ``s > -log(pi / (1 - pi))`` of an
application (eq. 130; `mlpr.evaluation` states the decision rule) is not the best threshold on
them (actDCF > minDCF, section 7.3). A calibration transformation
:math:`f(s)` learned on labelled scores turns them into log-likelihood ratios.

Linear calibration (section 7.3 of the notes). Model the calibrated llr as an affine function of
the score and interpret it as a log posterior ratio under a chosen target prior
:math:`\tilde\pi` (eq. 140-141):

.. math::

    \log\frac{P(H_T \mid s)}{P(H_F \mid s)} = \alpha s + \beta
        = f(s) + \log\frac{\tilde\pi}{1 - \tilde\pi}, \qquad
    f(s) = \alpha s + \gamma, \quad \gamma = \beta - \log\frac{\tilde\pi}{1 - \tilde\pi} .

:math:`(\alpha, \beta)` are learned by prior-weighted logistic regression (eq. 101 of ch. 6,
`mlpr.logreg.train_logreg_binary` with ``prior`` = :math:`\tilde\pi`) with the scores as the only
feature (eq. 142-143). :math:`\tilde\pi` is the application the calibrator is optimised for; the
result is a good llr for nearby applications too.

Fusion (section 7.4, eq. 144-145). With M systems, stack their scores into an (M, N) matrix and
learn :math:`f(s) = \alpha^T s + \gamma` the same way: the fused score is itself calibrated, and
the weights :math:`\alpha_m` are the logistic-regression weights. `train_linear_calibration` with
an (M, N) matrix *is* the fusion; `train_fusion` stacks a list of score vectors for it.

K-fold protocol (section 7.3). Calibration must be learned on scores that the classifier did not
train on, and evaluated on scores that the calibrator did not train on:

1. out-of-fold scores of the classifier on the training set, `mlpr.evaluation.kfold_scores`;
2. `kfold_calibrate` on these scores: K folds of a seeded shuffle, a calibrator trained on K - 1
   folds calibrates the held-out fold, so the pooled calibrated scores measure the calibration on
   the training set; and a final calibrator trained on all of them;
3. the final calibrator applied to the evaluation scores of the classifier trained on the whole
   training set.

Multiclass calibration (end of section 7.3: miscalibrated multiclass scores are "addressable with
multiclass logistic regression"): an affine map :math:`S_{cal} = A S + \gamma 1^T` of K class
log-likelihoods (A full, diagonal or :math:`\alpha I`), learned by prior-weighted multiclass LR on
a calibration set, `train_multiclass_calibration`; evaluate it with the multiclass empirical Bayes
risk (`mlpr.evaluation.empirical_bayes_risk` of the Bayes decisions for K-class priors and costs).

Voting (section 7.4): `majority_vote` combines the *decisions* of several systems, which the notes
set against fusion of their *scores*: a vote ignores how sure each system is.

Isotonic calibration (beyond the notes, which call it too complex to cover;
`train_isotonic_calibration`): the best monotone non-decreasing map from scores to target
posteriors, found by the pool-adjacent-violators algorithm (`mlpr.evaluation.pav`), turned into
llrs by removing the calibration set's prior log-odds. Non-parametric, so it also corrects
non-linear miscalibration, but on the calibration set it is optimistic (it fits the labels
exactly where the classes do not overlap) and its end bins would give infinite llrs; see the
function for how they are clipped.

============================  ==============================  ====================================
what                          function                        model / result
============================  ==============================  ====================================
linear calibration, fusion    `train_linear_calibration`      `LinearCalibration` (alpha, gamma)
fusion of a list of systems   `train_fusion`                  `LinearCalibration`
isotonic (PAV) calibration    `train_isotonic_calibration`    `IsotonicCalibration`
K-fold protocol               `kfold_calibrate`               (calibrated scores, final model)
multiclass calibration        `train_multiclass_calibration`  `MulticlassCalibration` (A, gamma)
majority vote of M systems    `majority_vote`                 (N,) decisions
============================  ==============================  ====================================
"""

from __future__ import annotations

import warnings

import numpy as np
import scipy.optimize
from scipy.special import logsumexp

from ._validation import (
    check_array,
    check_binary_labels,
    check_choice,
    check_class_priors,
    check_class_scores,
    check_finite,
    check_int,
    check_labels,
    check_lambda,
    check_prior,
    check_real,
    check_scale,
)
from .evaluation import pav
from .logreg import train_logreg_binary
from .utils import ConvergenceWarning, kfold_shuffled_indices, model

__all__ = [
    "LinearCalibration",
    "train_linear_calibration",
    "train_fusion",
    "IsotonicCalibration",
    "train_isotonic_calibration",
    "kfold_calibrate",
    "MulticlassCalibration",
    "train_multiclass_calibration",
    "multiclass_calibration_obj_wrap",
    "majority_vote",
]

_METHODS = ("linear", "isotonic")


# ------------------------------------------------------------------------------------------------
# validation (the validators of mlpr._validation, with the hints for transposed or swapped scores)


def _check_score_matrix(S, n_samples: int | None = None, n_systems: int | None = None,
                        name: str = "S") -> np.ndarray:
    """Scores of one system (N,) or of M systems (M, N), returned as a finite (M, N) array.

    ``n_samples`` (the number of labels) or ``n_systems`` (the M of a trained model) explain a
    transposed (N, M) matrix.
    """
    a = check_array(S, name)
    if a.ndim == 1:
        a = a.reshape(1, -1)
    elif a.ndim != 2:
        raise ValueError(
            f"{name} has shape {a.shape}: expected (N,) scores of one system or an (M, N) matrix, "
            f"one row per system and one column per sample"
        )
    M, N = a.shape
    transposed = (
        f"{name} has shape {a.shape}: mlpr expects the scores of M systems as an (M, N) matrix, "
        f"one row per system and one column per sample; did you mean {name}.T?"
    )
    if n_samples is not None and N != n_samples:
        if M == n_samples:
            raise ValueError(transposed)
        raise ValueError(f"{name} has {N} scores (columns), shape {a.shape}, but L has "
                         f"{n_samples} labels: pass one label per sample")
    if n_systems is not None and M != n_systems:
        if N == n_systems:
            raise ValueError(transposed)
        raise ValueError(
            f"{name} has {M} systems (rows), shape {a.shape}, but the calibrator was trained on "
            f"{n_systems}: pass ({'N,) or (1, N' if n_systems == 1 else f'{n_systems}, N'}) scores"
        )
    if N == 0:
        raise ValueError(f"{name} has no scores (shape {a.shape})")
    return check_finite(a, name)


def _check_scores_labels(S, L, name: str = "S") -> tuple[np.ndarray, np.ndarray]:
    """An (M, N) score matrix and N binary labels with both classes present; ``name`` is the
    caller's name for the scores."""
    a = check_array(S, name)
    try:
        L = check_binary_labels(L, name="L", who="calibration")
    except ValueError as exc:
        # scores that are all 0 or 1 and "labels" that are not: swapped arguments?
        if a.size and np.all((a == 0) | (a == 1)):
            raise ValueError(
                f"{exc}; {name} holds only 0 and 1: did you swap the arguments? pass the scores "
                f"first, then the labels"
            ) from None
        raise
    return _check_score_matrix(a, L.size, name=name), L


# ------------------------------------------------------------------------------------------------
# linear calibration and fusion


@model
class LinearCalibration:
    r"""A linear calibration (or fusion) transformation :math:`f(s) = \alpha^T s + \gamma`.

    A frozen model (`mlpr.utils.model`): two calibrators compare equal, and hash alike, when
    every field is equal, e.g. two trainings on the same scores; ``alpha`` is read-only.

    Attributes
    ----------
    alpha : ndarray, shape (M,)
        Weight of each system's score, always a 1-D array: for one system (M = 1) the notes'
        scalar :math:`\alpha` is ``alpha[0]``.
    beta : float
        Bias of the logistic regression: :math:`\alpha^T s + \beta` is the log posterior ratio
        under the target prior.
    gamma : float
        :math:`\gamma = \beta - \log(\tilde\pi / (1 - \tilde\pi))`, the offset of the calibrated
        llr (eq. 143).
    prior : float
        The target prior :math:`\tilde\pi` the calibrator was trained for.
    l : float
        lambda of the logistic regression (0 in the notes).
    """

    alpha: np.ndarray
    beta: float
    gamma: float
    prior: float
    l: float

    @property
    def n_systems(self) -> int:
        """M, the number of systems (rows of the score matrix)."""
        return self.alpha.shape[0]

    def scores(self, S) -> np.ndarray:
        r"""Calibrated llrs :math:`f(s) = \alpha^T s + \gamma` (eq. 141, 145).

        Parameters
        ----------
        S : array_like, shape (N,) or (M, N)
            Scores of the same M systems, in the same order, as in training; (N,) or (1, N) when
            M = 1.

        Returns
        -------
        ndarray, shape (N,)
            Calibrated llrs: compare with the Bayes threshold of any application, e.g.
            ``mlpr.evaluation.act_dcf(model.scores(S), L, pi)``.
        """
        S = _check_score_matrix(S, n_systems=self.n_systems)
        return self.alpha @ S + self.gamma  # eq. (141) / (145)


def train_linear_calibration(S, L, prior, l=0.0) -> LinearCalibration:
    r"""Learn a linear calibration (M = 1) or fusion (M > 1) of scores by prior-weighted LR.

    Parameters
    ----------
    S : array_like, shape (N,) or (M, N)
        Scores of one system, or of M systems stacked one per row, on a labelled calibration
        set (e.g. out-of-fold training scores, `mlpr.evaluation.kfold_scores`). Finite.
    L : array_like, shape (N,)
        Labels 0 (non-target) and 1 (target), both present.
    prior : float
        The target prior :math:`\tilde\pi` in (0, 1) of the prior-weighted objective.
    l : float, default 0
        lambda of the logistic regression, multiplying :math:`\frac12\|\alpha\|^2` (the bias is
        not regularised). The notes use 0; a small lambda keeps :math:`\alpha` finite when the
        calibration scores separate the classes (the objective then has no minimiser and
        `mlpr.logreg.train_logreg_binary` warns).

    Returns
    -------
    LinearCalibration

    Notes
    -----
    Implements eq. (140)-(143) (one system) and eq. (144)-(145) (fusion) of sections 7.3-7.4 of
    the MLPR notes. :math:`(\alpha, \beta)` minimise the prior-weighted logistic loss of eq. (101)
    with the scores as features,

    .. math::

        \frac{\lambda}{2}\|\alpha\|^2
        + \frac{\tilde\pi}{n_T}\sum_{i \mid c_i = 1} \log(1 + e^{-(\alpha^T s_i + \beta)})
        + \frac{1 - \tilde\pi}{n_F}\sum_{i \mid c_i = 0} \log(1 + e^{\alpha^T s_i + \beta}),

    and the calibrated llr is :math:`f(s) = \alpha^T s + \gamma` with
    :math:`\gamma = \beta - \log\frac{\tilde\pi}{1 - \tilde\pi}`. For one system with
    :math:`\alpha > 0` the transformation is strictly increasing, so minDCF, the EER and minCllr
    are unchanged; only actDCF (and Cllr) move.
    """
    prior = check_prior(prior)
    l = check_lambda(l)
    S, L = _check_scores_labels(S, L)
    check_scale(S, "S")
    return _train_linear(S, L, prior, l)


def _train_linear(S: np.ndarray, L: np.ndarray, prior: float, l: float) -> LinearCalibration:
    """Eq. (142)-(143): prior-weighted LR on the scores, then the offset of the llr."""
    lr = train_logreg_binary(S, L, l, prior=prior)  # eq. (142): LR on the scores
    gamma = lr.b - np.log(prior / (1.0 - prior))  # eq. (143)
    return LinearCalibration(alpha=lr.w.copy(), beta=float(lr.b), gamma=float(gamma),
                             prior=prior, l=l)


def train_fusion(scores, L, prior, l=0.0) -> LinearCalibration:
    r"""Learn the linear fusion of M systems, :math:`f(s) = \sum_m \alpha_m s_m + \gamma`.

    Parameters
    ----------
    scores : sequence of M array_like, each shape (N,)
        The systems' scores on the same N labelled samples, in the same order.
    L, prior, l
        As in `train_linear_calibration`.

    Returns
    -------
    LinearCalibration
        ``alpha[m]`` weighs system m; apply it with ``model.scores(numpy.vstack(test_scores))``.

    Notes
    -----
    Eq. (144)-(145) of section 7.4 of the MLPR notes: `train_linear_calibration` on
    ``numpy.vstack(scores)``.
    """
    if isinstance(scores, np.ndarray) or not isinstance(scores, (list, tuple)):
        raise TypeError(
            f"scores must be a list or tuple of M score vectors of shape (N,), got "
            f"{type(scores).__name__}; for an (M, N) matrix call train_linear_calibration"
        )
    if len(scores) == 0:
        raise ValueError("scores is empty: fusion needs at least one system")
    rows = [check_array(s, f"scores[{m}]") for m, s in enumerate(scores)]
    for m, s in enumerate(rows):
        if s.ndim != 1:
            raise ValueError(
                f"scores[{m}] has shape {s.shape}: each system's scores must be a 1-D vector of "
                f"shape (N,); for an (M, N) matrix call train_linear_calibration"
            )
        if s.size != rows[0].size:
            raise ValueError(
                f"scores[{m}] has shape {s.shape}, expected ({rows[0].size},) like scores[0]: "
                f"every system must score the same N samples"
            )
        check_finite(s, f"scores[{m}]")
    return train_linear_calibration(np.vstack(rows), L, prior, l)


# ------------------------------------------------------------------------------------------------
# isotonic calibration


@model
class IsotonicCalibration:
    r"""An isotonic (monotone non-decreasing, piecewise-constant) calibration of one system.

    Beyond the notes (section 7.3 calls it too complex to cover); `train_isotonic_calibration`
    learns it. A frozen model (`mlpr.utils.model`) that compares and hashes by value; its arrays
    are read-only.

    Attributes
    ----------
    knots : ndarray, shape (G,)
        Increasing training scores: the lowest and the highest score of each PAV block.
    llr_knots : ndarray, shape (G,)
        Non-decreasing calibrated llr at each knot, finite (end bins clipped).
    posterior_knots : ndarray, shape (G,)
        The PAV target posterior at each knot, at the calibration set's empirical prior, before
        clipping (0 and 1 allowed).
    prior_log_odds : float
        :math:`\log(n_T / n_F)` of the calibration set, removed from the posterior log-odds.
    n : int
        Size N of the calibration set; the posteriors were clipped to
        :math:`[1/(N+1), N/(N+1)]`.
    """

    knots: np.ndarray
    llr_knots: np.ndarray
    posterior_knots: np.ndarray
    prior_log_odds: float
    n: int

    def scores(self, s) -> np.ndarray:
        """Calibrated llrs of new scores ``s`` (N,), shape (N,).

        Linear interpolation between the knots (so a training score gets its block's llr, and a
        score between two blocks a value between theirs), constant beyond the lowest and the
        highest training score: a monotone non-decreasing, continuous map.
        """
        S = _check_score_matrix(s, n_systems=1, name="s")
        return np.interp(S[0], self.knots, self.llr_knots)


def train_isotonic_calibration(s, L) -> IsotonicCalibration:
    r"""Learn the isotonic calibration of one system's scores by pool-adjacent-violators.

    Parameters
    ----------
    s : array_like, shape (N,)
        Finite scores of one system on a labelled calibration set.
    L : array_like, shape (N,)
        Labels 0 and 1, both present.

    Returns
    -------
    IsotonicCalibration

    Notes
    -----
    Beyond the notes. Sort the scores; tied scores form one group (they must get the same llr).
    `mlpr.evaluation.pav` on the target fraction :math:`t_g / n_g` of each group, weighted by
    its size :math:`n_g`, gives the non-decreasing target posterior :math:`P_b` of each block
    b of groups that maximises the likelihood of the labels (and is optimal for every proper
    scoring rule) at the calibration set's empirical prior :math:`n_T / N`. Removing that prior,

    .. math::

        \mathrm{llr}_b = \log\frac{P_b}{1 - P_b} - \log\frac{n_T}{n_F} .

    The end blocks are usually pure (all non-targets at the bottom, all targets at the top), with
    :math:`P_b = 0` or 1 and an infinite llr, which would give a -inf llr to a target scored there
    later. The posteriors are clipped to :math:`[1/(N+1), N/(N+1)]`: the posterior of the block
    as if it held one more sample of the missing class among N + 1, no more confident than N
    samples can show. A mixed block has :math:`1/N \le P_b \le 1 - 1/N`, so only the pure
    blocks move and the llrs stay strictly increasing across blocks; with N = 10^4 balanced
    scores the clipped end llrs are :math:`\pm\log N \approx \pm 9.2`. Without pure blocks, the
    Cllr of the calibrated training scores equals `mlpr.evaluation.min_cllr` of the raw ones.
    """
    S, L = _check_scores_labels(s, L, "s")
    _check_one_system(S, "s", "fuse several systems with train_linear_calibration")
    return _train_isotonic(S[0], L)


def _check_one_system(S: np.ndarray, name: str, remedy: str) -> None:
    if S.shape[0] != 1:
        raise ValueError(f"{name} has shape {S.shape}: isotonic calibration takes the (N,) scores "
                         f"of one system; {remedy}")


def _train_isotonic(s: np.ndarray, L: np.ndarray) -> IsotonicCalibration:
    """PAV posteriors of the tie groups, clipped to [1/(N+1), N/(N+1)], minus the prior
    log-odds (see `train_isotonic_calibration`)."""
    x, n_g, t_g = _tie_groups(s, L)
    P = pav(t_g / n_g, n_g)  # the monotone target posterior of each tie group
    N = s.size
    nT = float(np.count_nonzero(L))
    prior_log_odds = float(np.log(nT) - np.log(N - nT))  # log(n_T / n_F)
    Pc = np.clip(P, 1.0 / (N + 1), N / (N + 1.0))
    llr = np.log(Pc) - np.log1p(-Pc) - prior_log_odds  # log(P / (1 - P)) - log(n_T / n_F)
    keep = _block_ends(P)  # np.interp is exact between the two ends of a block
    return IsotonicCalibration(knots=x[keep], llr_knots=llr[keep], posterior_knots=P[keep],
                               prior_log_odds=prior_log_odds, n=int(N))


def _tie_groups(s: np.ndarray, L: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct scores in increasing order, and the number of scores and of targets
    (as floats) that share each of them."""
    order = np.argsort(s, kind="stable")
    ss, ls = s[order], L[order]
    starts = np.flatnonzero(np.concatenate(([True], ss[1:] != ss[:-1])))
    n_g = np.diff(np.append(starts, s.size)).astype(np.float64)
    t_g = np.add.reduceat(ls, starts).astype(np.float64)
    return ss[starts], n_g, t_g


def _block_ends(P: np.ndarray) -> np.ndarray:
    """Mask of the first and the last group of each block of equal posteriors."""
    new_block = np.concatenate(([True], P[1:] != P[:-1]))
    return new_block | np.append(new_block[1:], True)


# ------------------------------------------------------------------------------------------------
# K-fold protocol


def kfold_calibrate(scores, L, prior=0.5, k=5, seed=0, method="linear", l=0.0):
    r"""K-fold calibration of training scores, and the final calibrator for evaluation scores.

    Parameters
    ----------
    scores : array_like, shape (N,) or (M, N)
        Out-of-fold scores of a classifier (`mlpr.evaluation.kfold_scores`) on the training set,
        or of M systems for their fusion (``method="linear"`` only).
    L : array_like, shape (N,)
        Labels 0 and 1, both present (in every set of K - 1 folds too).
    prior : float, default 0.5
        Target prior :math:`\tilde\pi` of linear calibration (ignored by ``"isotonic"``).
    k : int, default 5
        Number of folds, 2 <= k <= N.
    seed : int, default 0
        The folds are those of ``mlpr.utils.kfold_shuffled_indices(N, k,
        numpy.random.default_rng(seed))``.
    method : {"linear", "isotonic"}
        `train_linear_calibration` (calibration, or fusion for M > 1) or
        `train_isotonic_calibration`.
    l : float, default 0
        lambda of linear calibration.

    Returns
    -------
    calibrated : ndarray, shape (N,)
        In the original sample order: sample n's calibrated llr from the calibrator trained on
        the folds that do not contain it. Evaluate the calibration on the training set with it.
    model : LinearCalibration or IsotonicCalibration
        The calibrator trained on all N scores, for the evaluation scores of the classifier
        trained on the whole training set: ``model.scores(test_scores)``.

    Notes
    -----
    The K-fold protocol of section 7.3 of the MLPR notes. The scores must not come from a model
    trained on the same samples (the first level of K folds, `mlpr.evaluation.kfold_scores`):
    training scores are better separated than new ones, and a calibrator learned on them would
    be over-confident. This is the second level: calibrating sample n with a transformation
    that did not see it gives an honest estimate of actDCF after calibration on the training
    set; the final calibrator uses every score.
    """
    method = check_choice(method, "method", _METHODS)
    S, L = _check_scores_labels(scores, L, "scores")
    prior = check_prior(prior)
    l = check_lambda(l)
    if method == "isotonic":
        _check_one_system(S, "scores", "use method='linear' for the fusion of M systems")
    else:
        check_scale(S, "scores")
    N = S.shape[1]
    k = check_int(k, "k", low=2, high=N)
    rng = np.random.default_rng(check_int(seed, "seed", low=0))
    folds = list(kfold_shuffled_indices(N, k, rng))
    _check_folds_hold_both_classes(folds, L)

    def train(idx):
        if method == "linear":
            return _train_linear(S[:, idx], L[idx], prior, l)  # eq. (140)-(145)
        return _train_isotonic(S[0, idx], L[idx])

    out = np.empty(N)
    for tr, va in folds:
        out[va] = train(tr).scores(S[:, va])  # calibrated by a model that did not see them
    return out, train(slice(None))


def _check_folds_hold_both_classes(folds: list, L: np.ndarray) -> None:
    """Each training set of K - 1 folds must hold both classes to train a calibrator."""
    k = len(folds)
    for i, (tr, _) in enumerate(folds):
        nT = int(np.count_nonzero(L[tr]))
        if 0 < nT < tr.size:
            continue
        missing = 1 if nT == 0 else 0
        n_missing = int(np.count_nonzero(L == missing))
        remedy = (f"K-fold calibration needs at least 2 samples of each class, L has only 1 "
                  f"of class {missing}" if n_missing < 2 else
                  f"L has only {n_missing} of class {missing}: use fewer folds k, or another "
                  f"seed")
        raise ValueError(
            f"fold {i}: the scores of the other {k - 1} fold{'s' if k > 2 else ''} "
            f"({tr.size} scores) have no sample of class {missing} to train the calibrator "
            f"on; {remedy}"
        )


# ------------------------------------------------------------------------------------------------
# multiclass calibration (end of section 7.3)


@model
class MulticlassCalibration:
    r"""An affine calibration of K class log-likelihoods, :math:`S_{cal} = A S + \gamma 1^T`.

    Learned by `train_multiclass_calibration`. A frozen model (`mlpr.utils.model`) that compares
    and hashes by value; its arrays are read-only.

    Attributes
    ----------
    A : ndarray, shape (K, K)
        The map: :math:`\alpha I` (``kind="scalar"``), :math:`\mathrm{diag}(a)`
        (``"diagonal"``) or a full matrix (``"full"``, returned with every column summing to 1,
        as the identity's do: adding one row vector to every row of A changes no posterior).
    b : ndarray, shape (K,)
        Biases of the multiclass logistic regression: :math:`A s + b` are the class
        log-posteriors under ``priors``, up to a constant per sample.
    gamma : ndarray, shape (K,)
        :math:`\gamma = b - \log\pi`, the offsets of the calibrated log-likelihoods (the
        multiclass eq. 143), shifted to sum to 0.
    priors : ndarray, shape (K,)
        The class priors :math:`\pi` of the objective (the empirical proportions of the
        calibration set when trained with ``priors=None``).
    kind : str
        "scalar", "diagonal" or "full".
    l : float
        lambda of the objective.
    objective : float
        The objective at the returned parameters.
    """

    A: np.ndarray
    b: np.ndarray
    gamma: np.ndarray
    priors: np.ndarray
    kind: str
    l: float
    objective: float

    @property
    def n_classes(self) -> int:
        """K, the number of classes."""
        return self.A.shape[0]

    def transform(self, S) -> np.ndarray:
        r"""Calibrated class log-likelihoods :math:`A S + \gamma 1^T`, shape (K, N).

        Parameters
        ----------
        S : array_like, shape (K, N)
            Class scores of the same kind as in training (e.g. a model's class
            log-likelihoods), finite.

        Returns
        -------
        ndarray, shape (K, N)
            Use them as any class log-likelihoods: ``log_posteriors(S_cal, priors)`` and
            ``bayes_decisions`` for the application's priors and costs. They are defined up to
            a constant per sample (column), like every score matrix of a generative model.
        """
        S = _check_class_score_matrix(S, n_classes=self.n_classes)
        return self.A @ S + self.gamma[:, None]  # S_cal = A S + gamma 1^T

    def scores(self, S) -> np.ndarray:
        """The same as `transform`: the (K, N) calibrated scores, under the name every model
        of mlpr gives its scores."""
        return self.transform(S)


_KINDS = ("full", "diagonal", "scalar")
_FLOOR_TOL = 1e-6  # L-BFGS stopping between tol and this gradient: the floating-point floor


def _check_class_score_matrix(S, n_classes: int | None = None, n_samples: int | None = None,
                              name: str = "S") -> np.ndarray:
    """A finite (K, N) matrix of class scores; ``n_classes`` (of a model) and ``n_samples``
    (the number of labels) explain a transposed (N, K) matrix."""
    a = check_finite(check_class_scores(S, name), name)
    K, N = a.shape
    transposed = (f"{name} has shape {a.shape}: mlpr expects class scores as (K, N), one row "
                  f"per class and one column per sample; did you mean {name}.T?")
    if n_samples is not None and N != n_samples:
        if K == n_samples:
            raise ValueError(transposed)
        raise ValueError(f"{name} has {N} samples (columns), shape {a.shape}, but L has "
                         f"{n_samples} labels: pass one label per sample")
    if n_classes is not None and K != n_classes:
        if N == n_classes:
            raise ValueError(transposed)
        raise ValueError(f"{name} has {K} classes (rows), shape {a.shape}, but the calibration "
                         f"was trained on K = {n_classes}: pass ({n_classes}, N) scores")
    return a


def _check_multiclass_task(S, L, priors, kind, l):
    """Validated (S, L, weights xi, priors, kind, l) of a multiclass calibration."""
    kind = check_choice(kind, "kind", _KINDS)
    l = check_lambda(l)
    L = check_labels(L, allow_empty=False)
    S = _check_class_score_matrix(S, n_samples=L.size)
    K = S.shape[0]
    if K < 2:
        raise ValueError(f"S has shape {S.shape}: calibration needs K >= 2 classes (rows)")
    L = check_labels(L, n_classes=K, require_all=True)
    check_scale(S, "S")
    n_k = np.bincount(L, minlength=K).astype(np.float64)
    if priors is None:
        pi = n_k / L.size
    else:
        pi = check_class_priors(priors, K, n_samples=L.size)
        if np.any(pi <= 0.0):
            raise ValueError(f"priors must be positive to weigh every class, got prior 0 for "
                             f"class {int(np.argmin(pi))}")
    xi = (pi / n_k)[L]  # eq. (101): each class weighs pi_k, shared by its n_k samples
    return S, L, xi, pi, kind, l


def _unpack_map(theta: np.ndarray, K: int, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """A (K, K) and b (K,) of theta = [parameters of A; b]: alpha, a (K,) or A row by row."""
    p, b = theta[:-K], theta[-K:]
    if kind == "scalar":
        return p[0] * np.eye(K), b
    if kind == "diagonal":
        return np.diag(p), b
    return p.reshape(K, K), b


def _map_penalty(p: np.ndarray, A: np.ndarray, kind: str) -> np.ndarray:
    """What lambda / 2 |.|^2 penalises: the parameters alpha or a; for the full map its
    representative of least norm, A - 1 (1^T A) / K (every column centred), so that the
    objective does not depend on the representative either."""
    return A - A.mean(axis=0) if kind == "full" else p


def _map_gradient(G_A: np.ndarray, kind: str) -> np.ndarray:
    """The gradient with respect to the parameters of A from the one w.r.t. the matrix A."""
    if kind == "scalar":
        return np.array([np.trace(G_A)])
    if kind == "diagonal":
        return np.diag(G_A).copy()
    return G_A.ravel()


def _multiclass_fg(theta, S, L, xi, kind, l):
    r"""Prior-weighted multiclass logistic loss of Z = A S + b 1^T and its gradient."""
    K, N = S.shape
    A, b = _unpack_map(theta, K, kind)
    Z = A @ S + b[:, None]  # z_ki = (A s_i)_k + b_k: log posterior under pi, up to a constant
    lse = logsumexp(Z, axis=0)
    own = (L, np.arange(N))
    r = _map_penalty(theta[:-K], A, kind)
    f = xi @ (lse - Z[own]) + 0.5 * l * np.sum(r * r)  # - sum_i xi_i log y_{c_i i}
    G = np.exp(Z - lse)  # posteriors y_ki
    G[own] -= 1.0
    G *= xi  # d f / d z_ki = xi_i (y_ki - [c_i = k])
    grad = np.concatenate([_map_gradient(G @ S.T, kind) + l * r.ravel(), G.sum(axis=1)])
    return float(f), grad


def multiclass_calibration_obj_wrap(S, L, l=0.0, priors=None, kind="full"):
    r"""Build the objective of multiclass calibration and its gradient, as a function of
    theta = [parameters of A; b] (end of section 7.3 of the MLPR notes: multiclass logistic
    regression on the class scores).

    Parameters
    ----------
    S, L, l, priors, kind
        As in `train_multiclass_calibration`.

    Returns
    -------
    callable
        ``f_grad(theta) -> (f, grad)``, theta of shape (P + K,): the P parameters of A (1:
        alpha; K: the diagonal a; K^2: A row by row), then the K biases b.

    Notes
    -----
    See `train_multiclass_calibration` for the objective. The function the trainer minimises;
    public so that its gradient can be checked, e.g. against finite differences.
    """
    S, L, xi, _, kind, l = _check_multiclass_task(S, L, priors, kind, l)
    K = S.shape[0]
    n_params = {"scalar": 1, "diagonal": K, "full": K * K}[kind] + K

    def f_grad(theta):
        t = check_finite(check_array(theta, "theta"), "theta")
        if t.shape != (n_params,):
            raise ValueError(f"theta has shape {t.shape}, expected ({n_params},) for "
                             f"kind={kind!r} and K = {K}: [parameters of A; b]")
        return _multiclass_fg(t, S, L, xi, kind, l)

    return f_grad


def train_multiclass_calibration(S, L, l=0.0, priors=None, kind="full", *,
                                 tol=1e-10, max_iter=1000) -> MulticlassCalibration:
    r"""Learn an affine calibration of K class log-likelihoods by prior-weighted multiclass LR.

    Parameters
    ----------
    S : array_like, shape (K, N)
        Class scores of a labelled calibration set (e.g. the out-of-fold class log-likelihoods
        of a generative model, `mlpr.evaluation.kfold_scores`), finite.
    L : array_like, shape (N,)
        Labels 0..K-1, every class present.
    l : float, default 0
        lambda, multiplying half the squared norm of the parameters of A (alpha; a; for the
        full map :math:`\|A - 1 1^T A / K\|_F^2`); the biases are not regularised.
    priors : array_like, shape (K,), optional
        The target class priors :math:`\pi` of the objective, positive. Default: the
        proportions of the calibration set (the unweighted mean cross-entropy).
    kind : {"full", "diagonal", "scalar"}
        The map :math:`S_{cal} = A S + \gamma 1^T`: a full (K, K) matrix A (multiclass logistic
        regression with the K scores as features, K^2 + K parameters); a diagonal one (one
        scale per class, 2K); or :math:`\alpha I` (one scale and K offsets, K + 1: the binary
        calibration's :math:`\alpha` and :math:`\gamma`, and the most robust on a small
        calibration set).
    tol : float, default 1e-10
        L-BFGS stops when the largest gradient component (of the problem on the scores divided
        by their spread) is below ``tol``, or earlier when the objective no longer decreases in
        floating point (typically at about 1e-9), which is accepted as the minimiser.
    max_iter : int, default 1000
        L-BFGS iteration limit.

    Returns
    -------
    MulticlassCalibration

    Warns
    -----
    ConvergenceWarning
        The iteration limit was reached, or L-BFGS stalled with a gradient above 1e-6; or
        lambda = 0 and the calibrated scores rank every calibration sample's own class first
        (no minimiser: the scale grows without bound).

    Notes
    -----
    Multiclass calibration of the end of section 7.3 of the MLPR notes ("addressable with
    multiclass logistic regression"): the binary calibration of eq. (140)-(143) with K classes.
    The logits :math:`z_i = A s_i + b` are read as class log-posteriors under the target priors
    :math:`\pi`; the parameters minimise the prior-weighted cross-entropy (the multiclass
    eq. 101, each class weighing :math:`\pi_k` whatever its size :math:`n_k`)

    .. math::

        J(A, b) = \frac{\lambda}{2}\|\theta_A\|^2
            - \sum_k \frac{\pi_k}{n_k} \sum_{i \mid c_i = k}
              \log \frac{e^{z_{k i}}}{\sum_{k'} e^{z_{k' i}}},

    and, as :math:`\gamma = \beta - \log\frac{\tilde\pi}{1 - \tilde\pi}` removes the target
    prior in eq. (143), the calibrated log-likelihoods are :math:`A s + \gamma` with
    :math:`\gamma = b - \log\pi` (shifted to sum to 0: only differences between classes
    matter). When S are already the true class log-likelihoods, the minimiser of the expected
    loss is A = I, :math:`\gamma = 0` for every :math:`\pi`, since the prior-weighted
    cross-entropy is a proper scoring rule. With K = 2 the scalar map is the binary linear
    calibration of the llr :math:`s_1 - s_0` (`train_linear_calibration` with prior
    :math:`\pi_1`), and the full map without ``priors`` is `mlpr.logreg.train_logreg_multiclass`
    on S. The scalar map is unchanged by adding a constant per sample to S (log-likelihoods,
    log-joints and log-posteriors calibrate alike); the diagonal and full maps are not, so
    train and apply them on scores of the same kind. Minimised by L-BFGS from the identity map
    (:math:`A = I, b = \log\pi`).
    """
    S, L, xi, pi, kind, l = _check_multiclass_task(S, L, priors, kind, l)
    tol = check_real(tol, "tol", low=0.0, strict=True)
    max_iter = check_int(max_iter, "max_iter", low=1)
    return _train_multiclass(S, L, xi, pi, kind, l, tol, max_iter)


def _train_multiclass(S, L, xi, pi, kind, l, tol, max_iter) -> MulticlassCalibration:
    """L-BFGS on `_multiclass_fg` from the identity map, on the scores divided by their spread
    sigma (A sigma is then the unknown, and lambda / sigma^2 its weight: the same minimiser,
    better conditioned); the representative with sum(gamma) = 0 (full map: the columns of A
    summing to 1)."""
    K = S.shape[0]
    sigma = _spread(S)
    identity = {"scalar": [1.0], "diagonal": np.ones(K), "full": np.eye(K).ravel()}[kind]
    theta0 = np.concatenate([sigma * np.asarray(identity), np.log(pi)])  # trust the scores
    res = scipy.optimize.minimize(
        _multiclass_fg, theta0, args=(S / sigma, L, xi, kind, l / sigma**2), jac=True,
        method="L-BFGS-B",
        options={"ftol": 0.0, "gtol": tol, "maxiter": max_iter, "maxfun": 10 * max_iter + 20})
    theta = np.concatenate([res.x[:-K] / sigma, res.x[-K:]])
    A, b = _unpack_map(theta, K, kind)
    _warn_multiclass(A @ S + b[:, None], L, np.abs(res.jac).max(), l, tol, res)
    if kind == "full":
        A = A - A.mean(axis=0) + 1.0 / K  # the same posteriors; the identity when calibrated
    gamma = b - np.log(pi)  # the multiclass eq. (143): remove the target prior
    gamma = gamma - gamma.mean()
    f = _multiclass_fg(theta, S, L, xi, kind, l)[0]
    return MulticlassCalibration(A=A.copy(), b=gamma + np.log(pi), gamma=gamma, priors=pi.copy(),
                                 kind=kind, l=l, objective=f)


def _spread(S: np.ndarray) -> float:
    """The root mean square deviation of the scores from their class means (1 if 0)."""
    s = float(np.sqrt(np.mean((S - S.mean(axis=1, keepdims=True)) ** 2)))
    return s if s > 0.0 else 1.0


def _warn_multiclass(Z: np.ndarray, L: np.ndarray, gmax: float, l: float, tol: float,
                     res) -> None:
    """ConvergenceWarning when the calibration has no minimiser or was not reached; L-BFGS
    stopping short of ``tol`` at the floating-point floor of the objective (gradient below
    _FLOOR_TOL) is the minimiser to the precision of float64."""
    own = Z[L, np.arange(L.size)]
    Z = Z.copy()
    Z[L, np.arange(L.size)] = -np.inf
    if l == 0.0 and np.all(own > Z.max(axis=0)):
        warnings.warn(
            "l = 0 and the calibrated scores rank every calibration sample's own class first: "
            "the objective has no minimiser and the scale of A grows without bound; use l > 0",
            ConvergenceWarning, stacklevel=3)
    elif gmax > tol and (res.status == 1 or gmax > _FLOOR_TOL):
        why = "reached max_iter" if res.status == 1 else "stalled"
        warnings.warn(
            f"L-BFGS {why} after {res.nit} iterations with the largest gradient component "
            f"{gmax:.3g} (scores divided by their spread) above tol = {tol:g}: the calibration "
            f"is not at the minimiser; pass a larger max_iter or tol",
            ConvergenceWarning, stacklevel=3)


# ------------------------------------------------------------------------------------------------
# voting (section 7.4)


# A vote of more systems than this on fewer samples than systems is taken for a transposed
# matrix; a few systems voting on fewer samples (the notes' example: 3 systems, 2 samples) is not.
_MANY_SYSTEMS = 10


def majority_vote(decisions, K=None) -> np.ndarray:
    r"""Majority vote of M systems' decisions on each sample, ties to the lowest class.

    Parameters
    ----------
    decisions : array_like, shape (M, N)
        Row m holds system m's decisions 0..K-1 on the N samples (booleans accepted), e.g.
        ``numpy.vstack([optimal_bayes_decisions(s, pi) for s in llrs])``.
    K : int, optional
        Number of classes, at least 2 and above every decision. Default: ``max(2, max + 1)``.

    Returns
    -------
    ndarray of int64, shape (N,)
        The class with the most votes; among classes with equally many votes, the lowest.

    Warns
    -----
    UserWarning
        More than 10 systems (rows) and more systems than samples (columns), the usual sign of
        a transposed (samples, systems) matrix.

    Notes
    -----
    Decision-level combination, which section 7.4 of the MLPR notes sets against score-level
    fusion (eq. 144-145): a vote counts a system that is barely sure as much as one that is
    certain. In the notes' example, systems scoring (0.1, 0.1, -99) vote 2 to 1 for the target
    while the sum of the scores, -98.8, says non-target; (-5, -4, 3) gets one vote for the
    target, yet its sum (-6) is far larger than -98.8. With two classes the vote is the library's
    decision rule applied to the vote margin: class 1 when
    :math:`v_1 - v_0 > 0` strictly, so an even split (M even) goes to class 0, as a score at
    the threshold does (eq. 128).
    """
    a = np.asarray(decisions) if not isinstance(decisions, (str, bytes)) else decisions
    if np.ndim(a) != 2:
        raise ValueError(
            f"decisions has shape {np.shape(a)}: expected (M, N), one row per system and one "
            f"column per sample" + ("; for the M decisions on one sample pass decisions[:, None]"
                                    if np.ndim(a) == 1 else ""))
    M, N = a.shape
    if M == 0:
        raise ValueError(f"decisions has shape {a.shape}: voting needs at least one system")
    if M > max(N, _MANY_SYSTEMS):  # more systems than samples, and many: (samples, systems)
        warnings.warn(
            f"decisions has shape {a.shape}: {M} systems voting on {N} sample"
            f"{'s' if N != 1 else ''}? majority_vote expects (M systems, N samples), one row per "
            f"system; if decisions is (samples, systems), pass decisions.T",
            UserWarning, stacklevel=2)
    d = check_labels(a.ravel(), name="decisions").reshape(M, N)
    top = int(d.max()) + 1 if d.size else 0
    K = max(2, top) if K is None else check_int(K, "K", low=max(2, top))
    votes = np.stack([np.count_nonzero(d == k, axis=0) for k in range(K)])  # v_k of each sample
    return np.argmax(votes, axis=0).astype(np.int64)  # the first maximum: ties to the lowest
