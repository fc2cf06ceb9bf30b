r"""Score calibration and fusion: prior-weighted logistic regression on scores, the K-fold
calibration protocol, fusion of several systems, and isotonic (PAV) calibration
(notes ch. 7.3-7.4).

A classifier's binary scores :math:`s` (llrs of a generative model, LR or SVM scores) separate the
classes but are rarely *calibrated*: the Bayes decision ``s > -log(pi / (1 - pi))`` of an
application (eq. 128; `mlpr.evaluation` states the decision rule) is not the best threshold on
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

Isotonic calibration (beyond the notes, which call it too complex to cover;
`train_isotonic_calibration`): the best monotone non-decreasing map from scores to target
posteriors, found by the pool-adjacent-violators algorithm (`mlpr.evaluation.pav`), turned into
llrs by removing the calibration set's prior log-odds. Non-parametric, so it also corrects
non-linear miscalibration, but on the calibration set it is optimistic (it fits the labels
exactly where the classes do not overlap) and its end bins would give infinite llrs; see the
function for how they are clipped.

==============================  ============================  =====================================
what                            function                      model / result
==============================  ============================  =====================================
linear calibration, fusion      `train_linear_calibration`    `LinearCalibration` (alpha, gamma)
fusion of a list of systems     `train_fusion`                `LinearCalibration`
isotonic (PAV) calibration      `train_isotonic_calibration`  `IsotonicCalibration`
K-fold protocol                 `kfold_calibrate`             (calibrated scores, final model)
==============================  ============================  =====================================
"""

from __future__ import annotations

import numpy as np

from .evaluation import pav
from .logreg import train_logreg_binary
from .utils import (
    check_array,
    check_binary_labels,
    check_choice,
    check_finite,
    check_int,
    check_lambda,
    check_prior,
    check_scale,
    kfold_shuffled_indices,
    model,
)

__all__ = [
    "LinearCalibration",
    "train_linear_calibration",
    "train_fusion",
    "IsotonicCalibration",
    "train_isotonic_calibration",
    "kfold_calibrate",
]

_METHODS = ("linear", "isotonic")


# ------------------------------------------------------------------------------------------------
# validation (the validators of mlpr.utils, with the hints for transposed or swapped scores)


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
