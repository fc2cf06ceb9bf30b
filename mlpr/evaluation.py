r"""Measuring predictions: error rates, confusion matrices, Bayes decisions, DCF, minDCF, actDCF,
ROC / DET curves, EER, Bayes error curves, Cllr and k-fold scoring (notes ch. 7.1-7.3).

The decision rule
-----------------
A binary score ``s`` (an LLR when the metric says so) is compared with a threshold ``t``, and
**s > t decides class 1** (the target, H_T); a score exactly at the threshold goes to class 0.
This is the notes' rule (eq. 130: assign H_T if the llr is greater than the threshold) and the
course labs', and it is the one rule of this module: `optimal_bayes_decisions`, `act_dcf`,
`bayes_error_curve`, the threshold sweep of `min_dcf` / `min_dcf_sweep`, and the points of
`roc_points` / `det_points` all count a score as accepted when it is strictly above ``t``. The
other functions below refer to this paragraph.

An *operating point* splits the sorted scores into rejected (low) and accepted (high) ones; tied
scores are always on the same side. Its threshold, where one is reported, is the lowest ``t``
that realises it: the highest rejected score (the largest score when every score is rejected),
or -inf when every score is accepted. No threshold accepts a score of -inf (no ``t`` has
``-inf > t``): with such scores the accept-all system (Pfn = 0, Pfp = 1) is not the decision of
any threshold, but it stays available as the data-independent reference of the normalised DCF,
reported with threshold -inf (see `min_dcf`). A score of +inf is accepted by every finite
threshold and rejected by ``t = +inf``.

Conventions
-----------
* Predictions ``pred`` and true labels ``L`` are 1-D integer arrays of the same length N with
  values 0..K-1. Confusion matrices follow the course: ``M[i, j]`` is the number of samples
  **predicted as class i whose true class is j** (rows = predictions, columns = true classes).
* Binary tasks: class 1 is the target hypothesis H_T, class 0 the non-target H_F; labels are
  0/1 (map -1/+1 labels with ``(L + 1) // 2``). Binary metrics take the scores first, then the
  labels, then the application ``(prior, Cfn, Cfp)``: ``min_dcf(llr, L, prior, Cfn, Cfp)``.
* Pfn (miss rate, false negative rate) is the fraction of targets decided 0; Pfp (false alarm
  rate, false positive rate) the fraction of non-targets decided 1; TPR = 1 - Pfn,
  TNR = 1 - Pfp (`binary_rates`, `fn_fp_rates`).
* Functions that read the scores as LLRs (`optimal_bayes_decisions`, `act_dcf`,
  `bayes_error_curve`, `cllr`) warn when every score lies in [0, 1]: those look like
  probabilities, whose Bayes threshold is not the LLR's. Functions that only use the order of
  the scores (`min_dcf`, `roc_points`, `eer`, ...) accept any scores.

Definitions (sections 7.1-7.3 of the MLPR notes)
------------------------------------------------
Bayes threshold and effective prior of the application :math:`(\pi, C_{fn}, C_{fp})`
(section 7.2):

.. math::

    t = -\log\frac{\pi C_{fn}}{(1 - \pi) C_{fp}}, \qquad
    \tilde\pi = \frac{\pi C_{fn}}{\pi C_{fn} + (1 - \pi) C_{fp}} .

Detection cost function, un-normalised and normalised by the cost of the best system that
ignores the data (accept everything or reject everything) (section 7.2):

.. math::

    \mathrm{DCF}_u = \pi C_{fn} P_{fn} + (1 - \pi) C_{fp} P_{fp}, \qquad
    \mathrm{DCF} = \frac{\mathrm{DCF}_u}{\min(\pi C_{fn}, (1 - \pi) C_{fp})} .

The normalised DCF depends on the application only through :math:`\tilde\pi`, so (0.5, 1, 9)
and (0.1, 1, 1) give the same value. Multiclass: the empirical Bayes risk
:math:`\sum_c \pi_c / N_c \sum_{i \in c} C(a_i \mid c)`, normalised by
:math:`\min_a \sum_c \pi_c C(a \mid c)` (`empirical_bayes_risk`).

* **actDCF** (`act_dcf`, section 7.3): the normalised DCF of the Bayes decisions ``llr > t``
  taken with the Bayes threshold, the scores being treated as calibrated log-likelihood ratios.
* **minDCF** (`min_dcf`, section 7.3): the minimum normalised DCF over every threshold that
  changes a decision (each distinct score value, and -inf), together with the two
  data-independent systems (accept all, reject all), so it never exceeds 1. Tied scores are
  always decided together, so the result does not depend on the order of the input and is
  invariant to any strictly increasing transform of the scores.
* **ROC / DET** (`roc_points`, `det_points`, section 7.1): the operating points (Pfp, Ptp) or
  (Pfp, Pfn) at the same set of thresholds, ordered by increasing Pfp (decreasing threshold).
* **EER** (`eer`, section 7.1): the notes' definition, the error rate at the threshold where
  Pfn = Pfp on the empirical ROC (``method="threshold"``, the default). The empirical ROC is a
  staircase that need not cross Pfn = Pfp at any threshold: the threshold where ``|Pfn - Pfp|`` is
  smallest is taken and the mean of Pfn and Pfp there reported.

Reference and fast path
-----------------------
`min_dcf`, `act_dcf` (for an array of priors), `bayes_error_curve`, `roc_points`, `det_points`
and `eer` take the switch of every module with a fast path, ``solver=``: ``"reference"`` runs
the notes' procedure as written here (`_min_dcf_by_sweep`: for each threshold the decisions
``s > t``, their errors and their DCF; `_act_dcf_reference`: one pass over the scores per prior;
`_operating_points_reference`: the errors of each threshold counted one by one); ``"auto"``
(the default) computes the same error counts from one sort and cumulative counts in
O(N log N), for all priors at once (the private module ``mlpr._evaluation_fast``, which says
what it does differently), and both go through the same formulas, so a test holds them equal
bit for bit, values and thresholds (the rocch EER to rounding). `min_dcf_sweep` is the
reference of one prior under the course labs' name. `roc_convex_hull` and `min_cllr` pool the
scores in score order (PAV), so they always read the sorted scores.

EER variants
------------
Tools disagree on the EER of a finite score set, because the raw ROC is a staircase that need not
cross Pfn = Pfp at any threshold (and with tied scores it jumps over the crossing in one step).
The notes and the course's published EERs take the threshold where ``|Pfn - Pfp|`` is smallest
(``method="threshold"``, the default). BOSARIS and its descendants report where the ROC convex
hull (ROCCH) crosses Pfn = Pfp (``method="rocch"``); by LP duality this is also the maximum over
priors :math:`p` of the minimum Bayes error :math:`\min_t [p P_{fn}(t) + (1 - p) P_{fp}(t)]`,
computed here exactly from the hull's vertices. Still others interpolate linearly along the raw
ROC. Either of the first two can be the larger: on tied data (integer or rounded scores) they
can differ by the size of a whole tie group, e.g. 1/4 at a threshold against 1/3 on the hull for
targets {1, 1} and non-targets {0, 1}; on untied data the gap shrinks with the number of scores
(about 2e-4 for 2 x 10^5 Gaussian scores per class, 6e-4 to 9e-4 on the MNIST digit pairs of
lecture 07 with about 2,000 test scores each, enough to move their average EER by 0.06-0.09
points). ``eer(s, L) - eer(s, L, "rocch")`` measures the difference on given data.

Beyond the notes
----------------
* **Cllr** (`cllr`): :math:`\frac12 [\mathrm{mean}_{tar} \log_2(1 + e^{-s}) +
  \mathrm{mean}_{non} \log_2(1 + e^{s})]`, computed with ``np.logaddexp``; 1 for the
  uninformative all-zero LLRs.
* **minCllr** (`min_cllr`): Cllr after the best monotone recalibration of the scores, found by the
  pool-adjacent-violators algorithm (`pav`); the PAV blocks are also the vertices of the ROC
  convex hull (`roc_convex_hull`). The calibration chapter reuses `pav`.
* **k-fold scoring** (`kfold_scores`): pooled out-of-fold scores of any ``train(D, L) -> model``.
"""

from __future__ import annotations

import dataclasses
import itertools
import warnings

import numpy as np

from . import _evaluation_fast
from ._evaluation_fast import Ranked as _Ranked
from ._evaluation_fast import candidates as _candidates
from ._evaluation_fast import errors as _errors
from ._evaluation_fast import rank as _rank
from ._evaluation_fast import split_thresholds as _split_thresholds
from ._evaluation_fast import splits as _splits
from ._validation import (
    check_array,
    check_binary_labels,
    check_bool,
    check_choice,
    check_class_priors,
    check_class_scores,
    check_data_labels,
    check_finite,
    check_int,
    check_labels,
    check_prior,
    check_real,
    check_solver,
)
from .utils import kfold_indices, kfold_shuffled_indices

__all__ = [
    "error_rate",
    "accuracy",
    "confusion_matrix",
    "binary_rates",
    "fn_fp_rates",
    "effective_prior",
    "bayes_threshold",
    "optimal_bayes_decisions",
    "uniform_cost_matrix",
    "expected_costs",
    "bayes_decisions",
    "dcf",
    "empirical_bayes_risk",
    "min_dcf",
    "min_dcf_sweep",
    "act_dcf",
    "bayes_error_curve",
    "roc_points",
    "det_points",
    "roc_convex_hull",
    "eer",
    "cllr",
    "min_cllr",
    "pav",
    "kfold_scores",
    "GridSearch",
    "kfold_grid_search",
]

_LN2 = np.log(2.0)
_POSTERIOR_TOL = 1e-6  # tolerance on posterior columns summing to 1
# a (K, K) confusion matrix of more classes than this is a mistake (labels that are not class
# indices 0..K-1), not a table: 2**14 classes already need 2 GB
_MAX_CLASSES = 1 << 14


# ------------------------------------------------------------------------------------------------
# validation: the validators of mlpr._validation, with hints for this module's usual mistakes


def _check_pred_labels(pred, L, K: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Predictions and true labels of the same non-zero length, both below K if K is given."""
    L = check_labels(L, name="L", n_classes=K, allow_empty=False)
    return check_labels(pred, L.size, name="pred", n_classes=K), L


def _check_scores_1d(scores, name: str, *, allow_inf: bool = True) -> np.ndarray:
    """A 1-D float64 array of N scores; NaN is always an error, +-inf only if not allowed."""
    a = check_array(scores, name)
    if a.ndim != 1:
        hint = ""
        if a.ndim == 2 and 1 in a.shape:
            hint = f"; use {name}.ravel()"
        elif a.ndim == 2 and a.shape[0] == 2:
            hint = "; for a (2, N) matrix of class log-likelihoods S pass llr = S[1] - S[0]"
        elif a.ndim == 2 and a.shape[1] == 2:
            hint = ("; for class log-likelihoods S, mlpr's scores are (K, N) = (2, N), one row "
                    "per class: did you mean S.T? then pass llr = S[1] - S[0]")
        raise ValueError(f"{name} must be a 1-D array of N scores, got shape {a.shape}{hint}")
    bad = np.isnan(a) if allow_inf else ~np.isfinite(a)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        what = "NaN" if allow_inf else "NaN or infinite"
        raise ValueError(
            f"{name} contains {what} values (first at index {i}: {a[i]}, {int(bad.sum())} in "
            f"all); remove them or fix the model that produced them"
        )
    return a


def _check_binary_scores(scores, L, name: str = "llr") -> tuple[np.ndarray, np.ndarray]:
    """N scores and their N labels 0/1, both classes present."""
    s = _check_scores_1d(scores, name)
    try:
        return s, check_binary_labels(L, s.size, who="this metric")
    except ValueError as exc:
        # the labels are refused: were they swapped with the scores?
        if s.size and np.all((s == 0) | (s == 1)) and not np.all(_labels_like(L)):
            raise ValueError(
                f"{exc}; {name} holds only 0 and 1 but L does not: did you swap the arguments? "
                f"pass the scores first, then the labels"
            ) from None
        raise


def _check_binary_pred(pred, L) -> tuple[np.ndarray, np.ndarray]:
    """Binary decisions 0/1 and their labels 0/1, both classes present."""
    try:
        pred = check_labels(pred, name="pred")
    except ValueError as exc:
        if not np.all(_labels_like(pred)):  # scores where decisions are expected
            raise ValueError(
                f"{exc}; these look like scores, not binary decisions 0/1: for scores use "
                f"act_dcf / min_dcf, or take decisions first with optimal_bayes_decisions(llr, "
                f"prior, Cfn, Cfp)"
            ) from None
        raise
    L = check_binary_labels(L, pred.size, who="this metric")
    if pred.max() > 1:
        raise ValueError(
            f"pred holds label {int(pred.max())}: binary decisions must be 0 (H_F) or 1 (H_T)"
        )
    return pred, L


def _labels_like(L) -> np.ndarray:
    """Mask of the entries of L that could be class labels (non-negative integers)."""
    try:
        a = np.asarray(L, dtype=np.float64)
    except (TypeError, ValueError):
        return np.zeros(1, dtype=bool)
    return np.isfinite(a) & (a >= 0) & (a == np.round(a))


def _warn_if_probabilities(s: np.ndarray, name: str, caller: str) -> None:
    """Warn when LLRs look like probabilities: every score in [0, 1], not all equal."""
    if s.size > 1 and s.min() >= 0.0 and s.max() <= 1.0 and s.max() > s.min():
        warnings.warn(
            f"{caller}: every value of {name} lies in [0, 1]; these look like probabilities, "
            f"not log-likelihood ratios, and the Bayes threshold of an LLR does not apply to "
            f"them; pass llrs, e.g. log(p / (1 - p)) - log(pi / (1 - pi)) for target "
            f"posteriors p computed under the prior pi",
            UserWarning,
            stacklevel=3,
        )


def _check_application(prior, Cfn, Cfp) -> tuple[np.ndarray, float, float]:
    """The application (prior, Cfn, Cfp) of section 7.2: the prior(s) in (0, 1) as an array,
    positive finite costs."""
    p = np.asarray(check_prior(prior, allow_array=True))
    cost = "the cost of an error"
    return (p, check_real(Cfn, "Cfn", low=0.0, strict=True, what=cost),
            check_real(Cfp, "Cfp", low=0.0, strict=True, what=cost))


def _check_one_prior(p: np.ndarray) -> None:
    if p.ndim != 0:
        raise ValueError(f"prior must be a single number here (one application at a time), got "
                         f"shape {p.shape}")


def _check_cost_matrix(costs, *, binary_hint: bool = False) -> np.ndarray:
    """A square (K, K) matrix of finite non-negative costs ``costs[a, c]``."""
    C = check_array(costs, "costs")
    if C.ndim != 2 or C.shape[0] != C.shape[1]:
        hint = ("; for a binary task pass three numbers, empirical_bayes_risk(pred, L, prior, "
                "Cfn, Cfp), or call dcf(pred, L, prior, Cfn, Cfp)") if binary_hint else ""
        raise ValueError(
            f"costs must be a square (K, K) matrix with costs[a, c] = cost of deciding a when "
            f"the true class is c, got shape {C.shape}{hint}"
        )
    check_finite(C, "costs")
    if np.any(C < 0):
        a, c = np.argwhere(C < 0)[0]
        raise ValueError(
            f"costs has a negative entry costs[{a}, {c}] = {C[a, c]!r}: costs must be >= 0"
        )
    return C


def _check_log_posteriors(log_posteriors, K: int) -> np.ndarray:
    """Class posteriors (K, N) from their logs; ``K`` (the size of the cost matrix) only
    explains a transposed (N, K) matrix."""
    lp = check_class_scores(log_posteriors, "log_posteriors")
    P = np.exp(lp)
    dev = np.abs(P.sum(axis=0) - 1.0)
    if dev.size and dev.max() > _POSTERIOR_TOL:
        n = int(dev.argmax())
        if (lp.shape[0] != K and lp.shape[1] == K
                and np.abs(P.sum(axis=1) - 1.0).max() <= _POSTERIOR_TOL):
            raise ValueError(
                f"log_posteriors has shape {lp.shape}, its rows (not its columns) are "
                f"distributions, and costs is ({K}, {K}): mlpr expects log_posteriors as (K, N), "
                f"one row per class and one column per sample; did you mean log_posteriors.T?"
            )
        raise ValueError(
            f"column {n} of log_posteriors exponentiates to a sum of {P[:, n].sum():.6g}, not 1: "
            f"pass class log-posteriors log P(c | x) (e.g. mlpr.generative.log_posteriors(S, "
            f"priors)), not log-likelihoods"
        )
    return P


# ------------------------------------------------------------------------------------------------
# error rates and confusion matrices


def error_rate(pred, L) -> float:
    r"""Fraction of samples whose predicted class differs from the true one.

    Parameters
    ----------
    pred : ndarray, shape (N,)
        Predicted labels 0..K-1.
    L : ndarray, shape (N,)
        True labels 0..K-1.

    Returns
    -------
    float
        ``mean(pred != L)``, in [0, 1] (multiply by 100 for the notes' percentages).

    Notes
    -----
    The off-diagonal mass of the confusion matrix (section 7.1 of the MLPR notes),
    :math:`1 - \mathrm{tr}(M) / N`.
    """
    pred, L = _check_pred_labels(pred, L)
    return float(np.mean(pred != L))


def accuracy(pred, L) -> float:
    r"""Fraction of samples classified correctly, ``1 - error_rate(pred, L)``: the diagonal mass
    :math:`\mathrm{tr}(M) / N` of the confusion matrix (section 7.1 of the MLPR notes)."""
    pred, L = _check_pred_labels(pred, L)
    return float(np.mean(pred == L))


def confusion_matrix(pred, L, K: int | None = None) -> np.ndarray:
    r"""Confusion matrix with rows = predicted class, columns = true class.

    Parameters
    ----------
    pred : ndarray, shape (N,)
        Predicted labels 0..K-1.
    L : ndarray, shape (N,)
        True labels 0..K-1.
    K : int, optional
        Number of classes. Default ``L.max() + 1``, the classes of the true labels; a predicted
        label outside them is an error unless K is given (a classifier of K classes evaluated
        on a test set that lacks the last ones: pass K).

    Returns
    -------
    M : ndarray of int64, shape (K, K)
        ``M[i, j] = #{n : pred[n] = i and L[n] = j}``; column j sums to the number of samples of
        class j, the diagonal holds the correct decisions.

    Notes
    -----
    Section 7.1 of the MLPR notes:

    .. math:: M_{ij} = \#\{n : \hat c_n = i, \; c_n = j\}
    """
    if K is not None:
        K = check_int(K, "K", low=1, high=_MAX_CLASSES)
        pred, L = _check_pred_labels(pred, L, K)
    else:
        pred, L = _check_pred_labels(pred, L)
        K = _classes_of_true_labels(pred, L)
    return _confusion_counts(pred, L, K)


def _classes_of_true_labels(pred: np.ndarray, L: np.ndarray) -> int:
    """K = L.max() + 1, refusing labels that are not class indices and stray predictions."""
    K = int(L.max()) + 1
    if K > _MAX_CLASSES:
        raise ValueError(
            f"L holds label {K - 1}: a confusion matrix of {K} classes would need {K}^2 "
            f"entries; labels must be class indices 0..K-1 (at most {_MAX_CLASSES} "
            f"classes), re-code them with numpy.unique(L, return_inverse=True)"
        )
    if pred.max() >= K:
        raise ValueError(
            f"pred holds label {int(pred.max())} but the true labels L are 0..{K - 1}: pass "
            f"the number of classes K explicitly (confusion_matrix(pred, L, K)) if class "
            f"{int(pred.max())} exists, otherwise check pred"
        )
    return K


def _confusion_counts(pred: np.ndarray, L: np.ndarray, K: int) -> np.ndarray:
    """Section 7.1: M[i, j] = number of samples predicted i whose true class is j."""
    return np.bincount(pred * K + L, minlength=K * K).reshape(K, K)


def binary_rates(M) -> dict:
    """Error and success rates of a binary confusion matrix.

    Parameters
    ----------
    M : array_like, shape (2, 2)
        Confusion matrix with rows = predicted class, columns = true class (`confusion_matrix`);
        class 1 is the target.

    Returns
    -------
    dict
        ``Pfn`` (false negative / miss rate) ``= M[0, 1] / (M[0, 1] + M[1, 1])``,
        ``Pfp`` (false positive / false alarm rate) ``= M[1, 0] / (M[0, 0] + M[1, 0])``,
        ``TPR = 1 - Pfn = M[1, 1] / (M[0, 1] + M[1, 1])`` and
        ``TNR = 1 - Pfp = M[0, 0] / (M[0, 0] + M[1, 0])``, each a float.

    Notes
    -----
    Sections 7.1-7.2 of the MLPR notes: the rates of the two errors, per true class, that the
    ROC curve and the DCF are made of.
    """
    M = _check_binary_confusion(M)
    n = M.sum(axis=0)  # samples of each true class
    return {
        "Pfn": float(M[0, 1] / n[1]),  # targets decided 0
        "Pfp": float(M[1, 0] / n[0]),  # non-targets decided 1
        "TPR": float(M[1, 1] / n[1]),
        "TNR": float(M[0, 0] / n[0]),
    }


def _check_binary_confusion(M) -> np.ndarray:
    """A (2, 2) matrix of non-negative counts with a sample of each true class."""
    M = check_array(M, "M")
    if M.shape != (2, 2):
        raise ValueError(
            f"M must be a (2, 2) binary confusion matrix (rows = predicted, columns = true "
            f"class), got shape {M.shape}"
        )
    if not np.all(np.isfinite(M)) or np.any(M < 0):
        raise ValueError("M must hold non-negative finite counts")
    for c, who in ((0, "non-target (class 0)"), (1, "target (class 1)")):
        if M[:, c].sum() == 0:
            raise ValueError(
                f"M has no true {who} sample (column {c} sums to 0): its rates are undefined"
            )
    return M


def fn_fp_rates(pred, L) -> tuple[float, float]:
    """False negative and false positive rates ``(Pfn, Pfp)`` of binary decisions.

    Parameters
    ----------
    pred : ndarray, shape (N,)
        Decisions 0 (non-target) or 1 (target).
    L : ndarray, shape (N,)
        True labels 0/1, both classes present.

    Returns
    -------
    (Pfn, Pfp) : tuple of float
        Fraction of targets decided 0, fraction of non-targets decided 1 (see `binary_rates`
        for TPR and TNR), sections 7.1-7.2 of the MLPR notes.
    """
    pred, L = _check_binary_pred(pred, L)
    n_fn, n_fp, nT, nF = _error_counts(pred == 1, L)
    return n_fn / nT, n_fp / nF  # section 7.1


def _error_counts(accept: np.ndarray, L: np.ndarray) -> tuple[int, int, int, int]:
    """Numbers of false negatives and false positives of the decisions ``accept`` (True =
    class 1), and the numbers of targets and non-targets."""
    tar = L == 1
    nT = int(np.count_nonzero(tar))
    n_fn = int(np.count_nonzero(tar & ~accept))  # targets decided 0
    n_fp = int(np.count_nonzero(accept & ~tar))  # non-targets decided 1
    return n_fn, n_fp, nT, L.size - nT


# ------------------------------------------------------------------------------------------------
# Bayes decisions


def _as_result(x: np.ndarray, scalar: bool):
    return float(x.reshape(())) if scalar else x


def effective_prior(prior, Cfn=1.0, Cfp=1.0):
    r"""Effective prior of the application (prior, Cfn, Cfp).

    Parameters
    ----------
    prior : float or array_like, shape (P,)
        Target prior :math:`\pi` in (0, 1).
    Cfn, Cfp : float
        Positive costs of a false negative (missed target) and a false positive.

    Returns
    -------
    float or ndarray, shape (P,)

    Notes
    -----
    Section 7.2 of the MLPR notes, eq. (131): the application (:math:`\tilde\pi`, 1, 1) has the
    same Bayes decisions and the same normalised DCF as (:math:`\pi`, :math:`C_{fn}`,
    :math:`C_{fp}`).

    .. math:: \tilde\pi = \frac{\pi C_{fn}}{\pi C_{fn} + (1 - \pi) C_{fp}}
    """
    p, Cfn, Cfp = _check_application(prior, Cfn, Cfp)
    return _as_result(_effective_prior(p, Cfn, Cfp), p.ndim == 0)


def _effective_prior(p: np.ndarray, Cfn: float, Cfp: float) -> np.ndarray:
    # eq. (131): pi~ = pi Cfn / (pi Cfn + (1 - pi) Cfp)
    return p * Cfn / (p * Cfn + (1.0 - p) * Cfp)


def _threshold(p: np.ndarray, Cfn: float, Cfp: float) -> np.ndarray:
    # eq. (130): t = -log(pi Cfn / ((1 - pi) Cfp)), with log1p for priors close to 0
    return np.log1p(-p) + np.log(Cfp) - np.log(p) - np.log(Cfn)


def _accept(s: np.ndarray, t) -> np.ndarray:
    """The decisions of the threshold t: True (class 1) where s > t (eq. 128)."""
    return s > t  # eq. (128): strictly greater; s == t decides class 0


def bayes_threshold(prior, Cfn=1.0, Cfp=1.0):
    r"""Bayes-optimal threshold on calibrated LLRs for the application (prior, Cfn, Cfp).

    Returns ``t`` (float, or an array for an array of priors) such that deciding class 1 when
    ``llr > t`` (the module's decision rule) minimises the expected cost.

    Notes
    -----
    Section 7.2 of the MLPR notes:

    .. math:: t = -\log \frac{\pi C_{fn}}{(1 - \pi) C_{fp}}

    the threshold of the Bayes decision rule, eq. (128).
    """
    p, Cfn, Cfp = _check_application(prior, Cfn, Cfp)
    return _as_result(_threshold(p, Cfn, Cfp), p.ndim == 0)


def optimal_bayes_decisions(llr, prior, Cfn=1.0, Cfp=1.0) -> np.ndarray:
    r"""Bayes decisions from log-likelihood ratios for the application (prior, Cfn, Cfp).

    Parameters
    ----------
    llr : ndarray, shape (N,)
        Log-likelihood ratios ``log f(x|1) - log f(x|0)``; +-inf allowed, NaN not. A warning is
        issued when every value lies in [0, 1] (probabilities, not llrs).
    prior : float
        Target prior in (0, 1).
    Cfn, Cfp : float
        Positive costs of a false negative and of a false positive.

    Returns
    -------
    ndarray of int64, shape (N,)
        1 where ``llr > t`` (`bayes_threshold`), else 0: an llr exactly at the threshold is
        decided 0 (the module's decision rule).

    Notes
    -----
    Section 7.2 of the MLPR notes, eq. (128): decide :math:`H_T` when
    :math:`\pi C_{fn} f(x|H_T) > (1 - \pi) C_{fp} f(x|H_F)`, i.e.

    .. math:: \mathrm{llr}(x) > t = -\log \frac{\pi C_{fn}}{(1 - \pi) C_{fp}} .

    At equality both decisions have the same expected cost; the notes (and mlpr) decide
    :math:`H_F`.
    """
    s = _check_scores_1d(llr, "llr")
    p, Cfn, Cfp = _check_application(prior, Cfn, Cfp)
    _check_one_prior(p)
    _warn_if_probabilities(s, "llr", "optimal_bayes_decisions")
    return _accept(s, _threshold(p, Cfn, Cfp)).astype(np.int64)


def uniform_cost_matrix(K: int) -> np.ndarray:
    """The 0-1 cost matrix ``1 - I`` of K classes: every error costs 1, MAP decisions are
    Bayes-optimal for it (section 7.2 of the MLPR notes)."""
    K = check_int(K, "K", low=2)
    return 1.0 - np.eye(K)


def expected_costs(log_posteriors, costs) -> np.ndarray:
    r"""Expected cost of each decision for each sample, shape (K, N).

    Parameters
    ----------
    log_posteriors : array_like, shape (K, N)
        Class log-posteriors :math:`\log P(c \mid x_n)`; each column must exponentiate to a
        distribution (within 1e-6).
    costs : array_like, shape (K, K)
        ``costs[a, c]`` = cost of deciding class a when the true class is c (>= 0).

    Returns
    -------
    ndarray, shape (K, N)
        ``R[a, n] = sum_c costs[a, c] P(c | x_n)``.

    Notes
    -----
    Section 7.2 of the MLPR notes, eq. (123) (the expected cost of each action):

    .. math:: \mathcal{C}(a \mid x) = \sum_c C(a \mid c) P(c \mid x)
    """
    return _expected_costs(*_check_posteriors_costs(log_posteriors, costs))


def _check_posteriors_costs(log_posteriors, costs) -> tuple[np.ndarray, np.ndarray]:
    """Posteriors P (K, N) from their logs, and a (K, K) cost matrix of the same K."""
    C = _check_cost_matrix(costs)
    P = _check_log_posteriors(log_posteriors, C.shape[0])
    if C.shape[0] != P.shape[0]:
        K = P.shape[0]
        raise ValueError(
            f"costs has shape {C.shape} but the log-posteriors have K = {K} classes: expected "
            f"({K}, {K})"
        )
    return P, C


def _expected_costs(P: np.ndarray, C: np.ndarray) -> np.ndarray:
    return C @ P  # eq. (123): C(a | x_n) = sum_c C(a | c) P(c | x_n)


def bayes_decisions(log_posteriors, costs) -> np.ndarray:
    r"""Bayes decisions of a multiclass task: for each sample the decision of least expected cost.

    Parameters
    ----------
    log_posteriors : array_like, shape (K, N)
        Class log-posteriors (columns exponentiate to distributions).
    costs : array_like, shape (K, K)
        ``costs[a, c]`` = cost of deciding a when the true class is c.

    Returns
    -------
    ndarray of int64, shape (N,)
        ``argmin_a sum_c costs[a, c] P(c | x)`` (the lowest index on ties). With
        ``uniform_cost_matrix(K)`` these are the MAP decisions.

    Notes
    -----
    Section 7.2 of the MLPR notes, eq. (124). Classes are numbered from 0 here and from 1 in the
    notes: the notes' worked example (eq. 125-126: costs
    [[0, 1, 2], [1, 0, 1], [2, 1, 0]], posteriors (0.40, 0.25, 0.35), expected costs
    (0.95, 0.75, 1.05)) decides the notes' "class 2", which is index 1 here.
    """
    P, C = _check_posteriors_costs(log_posteriors, costs)
    return np.argmin(_expected_costs(P, C), axis=0).astype(np.int64)  # eq. (124)


# ------------------------------------------------------------------------------------------------
# DCF


def _dcf_from_counts(n_fn, n_fp, nT: int, nF: int, p: np.ndarray, Cfn: float, Cfp: float,
                     normalize: bool) -> np.ndarray:
    """Section 7.2: the DCF from error counts; the one formula every DCF of this module goes
    through, so that `dcf`, `act_dcf`, `min_dcf` and `bayes_error_curve` agree to the last bit."""
    a = p * Cfn
    b = (1.0 - p) * Cfp
    Pfn = np.asarray(n_fn) / nT
    Pfp = np.asarray(n_fp) / nF
    out = a * Pfn + b * Pfp  # eq. (136): DCF_u = pi Cfn Pfn + (1 - pi) Cfp Pfp
    if normalize:
        out = out / np.minimum(a, b)  # the cost of the best data-independent system
    return out


def dcf(pred, L, prior, Cfn=1.0, Cfp=1.0, normalize: bool = True):
    r"""Detection cost function of binary decisions for the application (prior, Cfn, Cfp).

    Parameters
    ----------
    pred : ndarray, shape (N,)
        Decisions 0 or 1 (e.g. `optimal_bayes_decisions`).
    L : ndarray, shape (N,)
        True labels 0/1, both classes present.
    prior : float or array_like, shape (P,)
        Target prior(s) in (0, 1).
    Cfn, Cfp : float
        Positive error costs.
    normalize : bool
        Divide by ``min(prior Cfn, (1 - prior) Cfp)``, the cost of the best system that does not
        look at the data (default).

    Returns
    -------
    float, or ndarray of shape (P,) for an array of priors.

    Notes
    -----
    Section 7.2 of the MLPR notes, eq. (136)-(137) (the course's empirical Bayes risk of binary
    decisions and its normalised form):

    .. math::

        \mathrm{DCF}_u = \pi C_{fn} P_{fn} + (1 - \pi) C_{fp} P_{fp}, \quad
        \mathrm{DCF} = \frac{\mathrm{DCF}_u}{\min(\pi C_{fn}, (1 - \pi) C_{fp})}
    """
    pred, L = _check_binary_pred(pred, L)
    p, Cfn, Cfp = _check_application(prior, Cfn, Cfp)
    normalize = check_bool(normalize, "normalize")
    n_fn, n_fp, nT, nF = _error_counts(pred == 1, L)  # Pfn = n_fn / nT, Pfp = n_fp / nF
    out = _dcf_from_counts(n_fn, n_fp, nT, nF, p, Cfn, Cfp, normalize)  # eq. (136)-(137)
    return _as_result(out, p.ndim == 0)


def _dcf_of_decisions(accept: np.ndarray, L: np.ndarray, p: np.ndarray, Cfn: float, Cfp: float,
                      normalize: bool = True) -> np.ndarray:
    """Section 7.2: the DCF of the decisions ``accept`` (True = class 1)."""
    n_fn, n_fp, nT, nF = _error_counts(accept, L)
    return _dcf_from_counts(n_fn, n_fp, nT, nF, p, Cfn, Cfp, normalize)


def empirical_bayes_risk(pred, L, priors, costs, Cfp=None, normalize: bool = True):
    r"""Empirical Bayes risk (multiclass DCF) of decisions for the application (priors, costs).

    Two forms: ``empirical_bayes_risk(pred, L, priors, costs)`` for K classes, and the binary
    form of the course's labs, ``empirical_bayes_risk(pred, L, prior, Cfn, Cfp)`` with three
    numbers, equal to ``dcf(pred, L, prior, Cfn, Cfp)``.

    Parameters
    ----------
    pred : ndarray, shape (N,)
        Decisions 0..K-1.
    L : ndarray, shape (N,)
        True labels 0..K-1; every class with a positive prior must have a sample.
    priors : array_like, shape (K,), or float
        Class priors in [0, 1] summing to 1; or, in the binary form, the target prior
        :math:`\pi` in (0, 1).
    costs : array_like, shape (K, K), or float
        ``costs[a, c]`` = cost of deciding a when the true class is c (>= 0); K is its size. In
        the binary form, the cost Cfn of a false negative.
    Cfp : float, optional
        The binary form only: the cost of a false positive (default 1 there).
    normalize : bool
        Divide by the risk of the best data-independent system, ``min_a sum_c pi_c C(a|c)``.

    Returns
    -------
    float

    Notes
    -----
    Section 7.2 of the MLPR notes, eq. (135), with :math:`R_{ac} = M_{ac} / N_c` the confusion
    matrix normalised per true class:

    .. math::

        \mathcal{B} = \sum_c \frac{\pi_c}{N_c} \sum_{i \mid c_i = c} C(a_i \mid c)
                    = \sum_c \pi_c \sum_a R_{ac} C(a \mid c),
        \qquad \mathcal{B}_{norm} = \frac{\mathcal{B}}{\min_a \sum_c \pi_c C(a \mid c)}

    With K = 2, ``priors = (1 - pi, pi)`` and ``costs = [[0, Cfn], [Cfp, 0]]`` this is `dcf`,
    which the binary form calls.

    The normalised risk needs correct decisions to cost nothing (a zero diagonal), so that
    perfect decisions score 0 and the best data-independent system 1; subtracting the diagonal
    from each column, ``costs - numpy.diag(costs)``, changes no decision.
    """
    if np.ndim(priors) == 0 and np.ndim(costs) == 0 and not isinstance(priors, (str, bytes)):
        # the binary form (pred, L, prior, Cfn, Cfp)
        return dcf(pred, L, priors, costs, 1.0 if Cfp is None else Cfp, normalize)
    normalize = check_bool(normalize, "normalize")
    if Cfp is not None:
        raise TypeError(
            f"Cfp (the fifth argument, {Cfp!r}) belongs to the binary form "
            f"empirical_bayes_risk(pred, L, prior, Cfn, Cfp) with three numbers; with priors of "
            f"K classes and a (K, K) costs matrix pass normalize by keyword, normalize=..."
        )
    C = _check_cost_matrix(costs, binary_hint=True)
    K = C.shape[0]
    pi = check_class_priors(priors, K)
    pred, L = _check_pred_labels(pred, L, K)
    _check_classes_with_prior(L, pi)
    if normalize:
        _check_normalisable(C, pi)
    return _bayes_risk(_confusion_counts(pred, L, K), pi, C, normalize)


def _check_classes_with_prior(L: np.ndarray, pi: np.ndarray) -> None:
    """Every class of positive prior has a sample (its error rate is defined)."""
    missing = np.flatnonzero((pi > 0) & (np.bincount(L, minlength=pi.size) == 0))
    if missing.size:
        c = int(missing[0])
        raise ValueError(
            f"class {c} has prior {pi[c]:g} but no sample in L: its error rates are undefined"
        )


def _check_normalisable(C: np.ndarray, pi: np.ndarray) -> None:
    """The normalised risk needs a best dummy system of positive cost and free correct
    decisions (a zero diagonal)."""
    if float(np.min(C @ pi)) == 0.0:
        raise ValueError(
            "the best data-independent decision has zero expected cost for these priors "
            "and costs: the normalised risk is undefined; use normalize=False"
        )
    if np.any(np.diag(C) != 0):
        c = int(np.flatnonzero(np.diag(C))[0])
        raise ValueError(
            f"costs has a non-zero diagonal (costs[{c}, {c}] = {C[c, c]:g}): the normalised "
            f"risk assumes that correct decisions cost nothing; subtract the diagonal from "
            f"each column, costs - numpy.diag(costs) (no decision changes), or pass "
            f"normalize=False"
        )


def _bayes_risk(M: np.ndarray, pi: np.ndarray, C: np.ndarray, normalize: bool) -> float:
    """Section 7.2: the empirical Bayes risk of the confusion matrix M, and its normalised form."""
    R = M / np.maximum(M.sum(axis=0), 1)  # R[a, c] = fraction of class c decided a
    risk = float(np.sum(pi * np.sum(C * R, axis=0)))  # sum_c pi_c sum_a R_ac C(a|c)
    if normalize:
        risk /= float(np.min(C @ pi))  # min_a sum_c pi_c C(a|c): the best dummy system
    return risk


# ------------------------------------------------------------------------------------------------
# minDCF and actDCF: the notes' loop over thresholds (reference), one sort (mlpr._evaluation_fast)


def _min_dcf_by_sweep(s: np.ndarray, L: np.ndarray, p: float, Cfn: float,
                      Cfp: float) -> tuple[float, float]:
    """Section 7.3, the textbook way: one DCF per threshold, the lowest threshold on ties.

    The thresholds t are -inf and every distinct score, ascending; the decisions are s > t
    (eq. 128) and their cost the normalised DCF (eq. 136-137). The accept-all system comes last,
    chosen only if strictly best: it is a threshold's decision unless some score is -inf."""
    best, best_t = np.inf, np.nan
    for t in [-np.inf, *np.unique(s)]:  # ascending thresholds
        d = float(_dcf_of_decisions(_accept(s, t), L, p, Cfn, Cfp))  # eq. (128), (136)-(137)
        if d < best:  # strictly: the first (lowest) threshold wins ties
            best, best_t = d, float(t)
    accept_all = float(_dcf_of_decisions(np.ones(s.size, dtype=bool), L, p, Cfn, Cfp))
    if accept_all < best:  # accept all, even -inf scores: the data-independent system
        best, best_t = accept_all, -np.inf
    return best, best_t


def _min_dcf_reference(s: np.ndarray, L: np.ndarray, p: np.ndarray, Cfn: float,
                       Cfp: float) -> tuple[np.ndarray, np.ndarray]:
    """minDCF and its lowest threshold for each prior of p (P,), one sweep per prior."""
    out = [_min_dcf_by_sweep(s, L, float(pk), Cfn, Cfp) for pk in p]
    return np.array([v for v, _ in out]), np.array([t for _, t in out])


def _min_dcf_fast(s: np.ndarray, L: np.ndarray, p: np.ndarray, Cfn: float,
                  Cfp: float) -> tuple[np.ndarray, np.ndarray]:
    """`_min_dcf_reference` from one sort (`mlpr._evaluation_fast`): the same error counts, the
    same formula, eq. (136)-(137)."""
    R = _rank(s, L)
    n_fn, n_fp, thr = _evaluation_fast.min_dcf_counts(R, p, Cfn, Cfp)
    return _dcf_from_counts(n_fn, n_fp, R.nT, R.nF, p, Cfn, Cfp, True), thr


def _act_dcf_reference(s: np.ndarray, L: np.ndarray, p: np.ndarray, Cfn: float,
                       Cfp: float) -> np.ndarray:
    """actDCF for each prior of p (P,): the decisions s > t of its Bayes threshold (eq. 128,
    130), one pass over the scores per prior."""
    return np.array([_dcf_of_decisions(_accept(s, _threshold(pk, Cfn, Cfp)), L, pk, Cfn, Cfp)
                     for pk in p])


def _act_dcf_fast(s: np.ndarray, L: np.ndarray, p: np.ndarray, Cfn: float,
                  Cfp: float) -> np.ndarray:
    """`_act_dcf_reference` from one sort (`mlpr._evaluation_fast`): the same error counts."""
    R = _rank(s, L)
    n_fn, n_fp = _evaluation_fast.act_dcf_counts(R, _threshold(p, Cfn, Cfp))  # eq. (130)
    return _dcf_from_counts(n_fn, n_fp, R.nT, R.nF, p, Cfn, Cfp, True)  # eq. (136)-(137)


# the one table that chooses: "reference" beside this comment, "auto" in mlpr._evaluation_fast
_MIN_DCF = {"auto": _min_dcf_fast, "reference": _min_dcf_reference}
_ACT_DCF = {"auto": _act_dcf_fast, "reference": _act_dcf_reference}


def min_dcf(llr, L, prior, Cfn=1.0, Cfp=1.0, return_threshold: bool = False, *,
            solver: str = "auto"):
    r"""Minimum normalised DCF over all thresholds on the scores.

    Parameters
    ----------
    llr : ndarray, shape (N,)
        Scores (need not be calibrated: only their order matters); +-inf allowed, NaN not.
    L : ndarray, shape (N,)
        Labels 0/1, both classes present.
    prior : float or array_like, shape (P,)
        Target prior(s) in (0, 1).
    Cfn, Cfp : float
        Positive error costs.
    return_threshold : bool
        Also return the lowest threshold ``t`` whose decisions ``llr > t`` (the module's rule)
        attain the minimum: ``dcf((llr > t).astype(int), L, prior, Cfn, Cfp)`` equals the
        returned minDCF exactly. ``t`` is the highest rejected score (the largest score when
        rejecting everything is best), or -inf when accepting everything is best.
    solver : {"auto", "reference"}, default "auto"
        ``"reference"``: the notes' procedure as written, one DCF per threshold for each prior
        (`_min_dcf_by_sweep`, beside this function; O(N) per threshold, O(N^2) in all).
        ``"auto"``: the same error counts from one sort for all priors, O(N log N + P N')
        (private module ``mlpr._evaluation_fast``); the same values and thresholds, bit for bit
        (tested).

    Returns
    -------
    minDCF : float, or ndarray of shape (P,)
        In [0, 1].
    threshold : float or ndarray of shape (P,), only if ``return_threshold``

    Notes
    -----
    Section 7.3 of the MLPR notes: the normalised DCF (eq. 136-137, `dcf`) of the decisions
    ``llr > t`` (eq. 128),

    .. math::

        \mathrm{DCF}_{min} = \min_t \frac{\pi C_{fn} P_{fn}(t) + (1 - \pi) C_{fp} P_{fp}(t)}
                                       {\min(\pi C_{fn}, (1 - \pi) C_{fp})},

    minimised over every ``t`` that changes a decision, i.e. -inf and every distinct score
    value, and over the two data-independent systems (accept all, reject all), whose better one
    costs exactly 1, so minDCF <= 1. Tied scores are decided together, so the result is
    independent of the input order and of any strictly increasing transform of the scores.

    Corner cases:

    * all scores equal: only the data-independent systems remain, minDCF = 1;
    * +inf scores: ``t = +inf`` (or the largest score) rejects everything, a finite ``t`` accepts
      them;
    * -inf scores: no threshold accepts them (``-inf > t`` is false for every ``t``), so the
      accept-all system is not the decision of any threshold; it still counts as a
      data-independent system. If a *target* is scored -inf and accepting everything is
      strictly best (an effective prior above 1/2 and scores that rank badly), minDCF is 1,
      reported with threshold -inf, whose decisions ``llr > -inf`` reject the -inf scores and
      cost more: the only case where the returned threshold does not attain the minimum.
    """
    s, L = _check_binary_scores(llr, L)
    p, Cfn, Cfp = _check_application(prior, Cfn, Cfp)
    return_threshold = check_bool(return_threshold, "return_threshold")
    val, thr = _MIN_DCF[check_solver(solver)](s, L, p.ravel(), Cfn, Cfp)
    scalar = p.ndim == 0
    if return_threshold:
        return _as_result(val, scalar), _as_result(thr, scalar)
    return _as_result(val, scalar)


def min_dcf_sweep(llr, L, prior, Cfn=1.0, Cfp=1.0, return_threshold: bool = False):
    r"""Minimum normalised DCF by the textbook sweep: one DCF per threshold.

    The same as ``min_dcf(llr, L, prior, Cfn, Cfp, return_threshold, solver="reference")`` for
    one prior: written as the course's labs do it (O(N) per threshold, O(N^2) in all), so that
    a reader can check `min_dcf` against it.

    Parameters
    ----------
    llr : ndarray, shape (N,)
        Scores; +-inf allowed, NaN not.
    L : ndarray, shape (N,)
        Labels 0/1, both classes present.
    prior : float
        Target prior in (0, 1).
    Cfn, Cfp : float
        Positive error costs.
    return_threshold : bool
        Also return the lowest threshold attaining the minimum (as `min_dcf`).

    Returns
    -------
    minDCF : float
    threshold : float, only if ``return_threshold``

    Notes
    -----
    Section 7.3 of the MLPR notes: for every threshold t in -inf and the sorted distinct scores,
    take the decisions ``llr > t`` (eq. 128), count the errors, compute the normalised DCF
    (eq. 136-137, `dcf`), and keep the smallest; the accept-all system is added as a
    data-independent reference (threshold -inf), so that the result never exceeds 1 even when
    some scores are -inf (reject-all is the threshold at the largest score).
    """
    s, L = _check_binary_scores(llr, L)
    p, Cfn, Cfp = _check_application(prior, Cfn, Cfp)
    _check_one_prior(p)
    return_threshold = check_bool(return_threshold, "return_threshold")
    best, best_t = _min_dcf_by_sweep(s, L, float(p), Cfn, Cfp)
    return (best, best_t) if return_threshold else best


def act_dcf(llr, L, prior, Cfn=1.0, Cfp=1.0, *, solver: str = "auto"):
    r"""Actual normalised DCF: the DCF of the Bayes decisions taken on the scores as LLRs.

    Parameters
    ----------
    llr : ndarray, shape (N,)
        Log-likelihood ratios; +-inf allowed, NaN not. A warning is issued when every value lies
        in [0, 1] (probabilities, not llrs).
    L : ndarray, shape (N,)
        Labels 0/1, both classes present.
    prior : float or array_like, shape (P,)
        Target prior(s) in (0, 1).
    Cfn, Cfp : float
        Positive error costs.
    solver : {"auto", "reference"}, default "auto"
        For an array of priors: ``"reference"`` takes the decisions of each prior in one pass
        over the scores (`_act_dcf_reference`, O(P N)); ``"auto"`` reads them all off one sort
        (``mlpr._evaluation_fast``, O(N log N + P log N)); the same numbers, bit for bit
        (tested). One prior is always one O(N) pass, without a sort.

    Returns
    -------
    float, or ndarray of shape (P,)

    Notes
    -----
    Section 7.3 of the MLPR notes: ``dcf(optimal_bayes_decisions(llr, prior, Cfn, Cfp), L,
    prior, Cfn, Cfp)``, with decisions ``llr > t`` (eq. 128, the module's rule; an llr equal
    to t is decided 0), :math:`t = -\log \frac{\pi C_{fn}}{(1 - \pi) C_{fp}}` (eq. 130), and the
    normalised DCF of eq. (136)-(137). ``act_dcf - min_dcf >= 0`` is the calibration loss.
    """
    s, L = _check_binary_scores(llr, L)
    p, Cfn, Cfp = _check_application(prior, Cfn, Cfp)
    solver = check_solver(solver)
    _warn_if_probabilities(s, "llr", "act_dcf")
    if p.ndim == 0:  # one application: O(N), no sort
        accept = s > _threshold(p, Cfn, Cfp)  # eq. (128)-(130): llr > -log(pi Cfn / (1-pi) Cfp)
        n_fn, n_fp, nT, nF = _error_counts(accept, L)
        return float(_dcf_from_counts(n_fn, n_fp, nT, nF, p, Cfn, Cfp, True))  # eq. (136)-(137)
    return _ACT_DCF[solver](s, L, p, Cfn, Cfp)


def bayes_error_curve(llr, L, prior_log_odds, *, solver: str = "auto"):
    r"""Actual and minimum normalised DCF over a range of effective priors (Bayes error plot).

    Parameters
    ----------
    llr : ndarray, shape (N,)
        Log-likelihood ratios; +-inf allowed, NaN not. A warning is issued when every value lies
        in [0, 1] (probabilities, not llrs).
    L : ndarray, shape (N,)
        Labels 0/1, both classes present.
    prior_log_odds : array_like, shape (P,)
        Effective prior log-odds :math:`\log \frac{\tilde\pi}{1 - \tilde\pi}`, e.g.
        ``numpy.linspace(-3, 3, 21)``; the priors :math:`\tilde\pi = 1 / (1 + e^{-x})` must be
        in (0, 1) in float64, i.e. about :math:`|x|` < 36.
    solver : {"auto", "reference"}, default "auto"
        As in `min_dcf` and `act_dcf`: ``"reference"`` sweeps the thresholds for each prior,
        ``"auto"`` sorts the scores once for all priors; the same numbers, bit for bit.

    Returns
    -------
    prior_log_odds : ndarray, shape (P,)
    act : ndarray, shape (P,)
        ``act_dcf(llr, L, pi)`` at each effective prior, with Cfn = Cfp = 1 (decisions
        ``llr > -x``, the module's rule).
    minimum : ndarray, shape (P,)
        ``min_dcf(llr, L, pi)`` at each effective prior.

    Notes
    -----
    Section 7.3 of the MLPR notes: at each effective prior :math:`\tilde\pi = 1 / (1 + e^{-x})`,
    the actDCF of the decisions :math:`\mathrm{llr} > -x` (eq. 128) and the minDCF, with the
    normalised DCF of the application :math:`(\tilde\pi, 1, 1)` (eq. 137-138).
    """
    s, L = _check_binary_scores(llr, L)
    x, pi = _check_prior_log_odds(prior_log_odds)
    solver = check_solver(solver)
    _warn_if_probabilities(s, "llr", "bayes_error_curve")
    minimum, _ = _MIN_DCF[solver](s, L, pi, 1.0, 1.0)
    return x, _ACT_DCF[solver](s, L, pi, 1.0, 1.0), minimum


def _check_prior_log_odds(prior_log_odds) -> tuple[np.ndarray, np.ndarray]:
    """Finite 1-D log-odds x, and their effective priors 1 / (1 + e^-x), all in (0, 1)."""
    x = check_array(prior_log_odds, "prior_log_odds")
    if x.ndim != 1:
        raise ValueError(f"prior_log_odds must be a 1-D array, got shape {x.shape}")
    if not np.all(np.isfinite(x)):
        raise ValueError("prior_log_odds contains NaN or infinite values")
    pi = 1.0 / (1.0 + np.exp(-x))  # the effective prior of the log-odds x
    if np.any((pi <= 0.0) | (pi >= 1.0)):
        bad = x[(pi <= 0.0) | (pi >= 1.0)][0]
        raise ValueError(
            f"prior_log_odds = {bad!r} gives an effective prior of 0 or 1 in float64: keep "
            f"|prior_log_odds| below about 36"
        )
    return x, pi


# ------------------------------------------------------------------------------------------------
# ROC, DET, convex hull, EER


def _operating_points_reference(s: np.ndarray, L: np.ndarray):
    """Section 7.1, the textbook way: the numbers of false negatives and false positives
    (n_fn, n_fp) of the decisions ``s > t`` (eq. 128) at every threshold t that changes a
    decision, one pass over the scores per threshold, in ascending order of t: accept all
    (t = -inf; with -inf scores, the data-independent system), then each distinct score (the
    largest rejects all). Returns n_fn, n_fp, t, each (M,)."""
    t = np.concatenate(([-np.inf], np.unique(s)))
    decisions = [np.ones(s.size, dtype=bool)] + [_accept(s, tk) for tk in t[1:]]
    counts = np.array([_error_counts(accept, L)[:2] for accept in decisions], dtype=np.int64)
    return counts[:, 0], counts[:, 1], t


def _operating_points_fast(s: np.ndarray, L: np.ndarray):
    """`_operating_points_reference` from one sort and cumulative counts
    (`mlpr._evaluation_fast`): the same counts and thresholds."""
    R = _rank(s, L)
    j = _splits(R)
    n_fn, n_fp = _errors(R, j)
    return n_fn, n_fp, _split_thresholds(R, j)


_OPERATING_POINTS = {"auto": _operating_points_fast, "reference": _operating_points_reference}


def roc_points(scores, L, return_thresholds: bool = False, *, solver: str = "auto"):
    """ROC operating points (Pfp, Ptp) at every threshold that changes a decision.

    Parameters
    ----------
    scores : ndarray, shape (N,)
        Scores, larger = more target-like; +-inf allowed, NaN not.
    L : ndarray, shape (N,)
        Labels 0/1, both classes present.
    return_thresholds : bool
        Also return the thresholds (decisions ``scores > t``, the module's rule).
    solver : {"auto", "reference"}, default "auto"
        ``"reference"``: the decisions of each threshold counted in one pass over the scores
        (`_operating_points_reference`, O(N) per threshold, O(N^2) in all). ``"auto"``: all the
        counts from one sort and cumulative counts, O(N log N) (private module
        ``mlpr._evaluation_fast``); the same points and thresholds, bit for bit (tested).

    Returns
    -------
    Pfp : ndarray, shape (M,)
        False positive rate (1 - specificity), non-decreasing from 0 to 1.
    Ptp : ndarray, shape (M,)
        True positive rate = 1 - Pfn, non-decreasing from 0 to 1.
    thresholds : ndarray, shape (M,), only if ``return_thresholds``
        Decreasing: the distinct score values from the largest (``scores > max`` rejects all,
        the point (0, 0)) to the smallest, then -inf (accept all, the point (1, 1)). Point m is
        the decisions ``scores > thresholds[m]``. M = number of distinct scores + 1.

    Notes
    -----
    Section 7.1 of the MLPR notes, with the decisions ``scores > t`` of eq. (128). If some
    scores are -inf, no threshold accepts them: the last
    point (1, 1) is then the data-independent accept-all system, listed with threshold -inf like
    the point before it (which rejects exactly the -inf scores).
    """
    s, L = _check_binary_scores(scores, L, "scores")
    return_thresholds = check_bool(return_thresholds, "return_thresholds")
    n_fn, n_fp, t = _OPERATING_POINTS[check_solver(solver)](s, L)  # ascending thresholds
    nT = int(np.count_nonzero(L))
    Pfp = n_fp[::-1] / (L.size - nT)  # decreasing thresholds: from reject all to accept all
    Ptp = (nT - n_fn[::-1]) / nT
    if return_thresholds:
        return Pfp, Ptp, t[::-1]
    return Pfp, Ptp


def det_points(scores, L, return_thresholds: bool = False, *, solver: str = "auto"):
    """DET operating points (Pfp, Pfn) at every threshold that changes a decision.

    Same points, thresholds and order as `roc_points` (Pfp non-decreasing, Pfn non-increasing),
    with the miss rate ``Pfn = 1 - Ptp`` instead of the true positive rate; `mlpr.plots.plot_det`
    draws them on normal-deviate (probit) axes; ``solver`` as in `roc_points`. Section 7.1 of
    the MLPR notes (decisions ``scores > t``, eq. 128).
    """
    out = roc_points(scores, L, return_thresholds, solver=solver)
    return (out[0], 1.0 - out[1]) + tuple(out[2:])


def _pav_blocks(y: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Stack-based pool-adjacent-violators: block values and block lengths (in entries of y).

    Runs of equal consecutive values are pooled first (an isotonic fit never separates them),
    then every run is pushed on a stack and merged with the block below while that block's mean
    is larger, so each run is pushed and popped at most once: O(N).
    """
    N = y.size
    starts = np.flatnonzero(np.concatenate(([True], y[1:] != y[:-1])))
    run_len = np.diff(np.append(starts, N))
    run_w = np.add.reduceat(w, starts)
    run_wy = np.add.reduceat(w * y, starts)
    sw: list[float] = []  # per block: sum of weights, sum of weighted values, number of runs
    swy: list[float] = []
    nrun: list[int] = []
    for w_run, wy_run in zip(run_w.tolist(), run_wy.tolist()):
        w_b, wy_b, n_b = w_run, wy_run, 1  # a new block: this run
        # pool while the block below has a larger mean: swy[-1] / sw[-1] > wy_b / w_b
        while sw and swy[-1] * w_b > wy_b * sw[-1]:
            w_b += sw.pop()
            wy_b += swy.pop()
            n_b += nrun.pop()
        sw.append(w_b)
        swy.append(wy_b)
        nrun.append(n_b)
    values = np.array(swy) / np.array(sw)
    run_block_end = np.cumsum(nrun)  # in runs
    single = np.array(nrun) == 1
    values[single] = y[starts[run_block_end[single] - 1]]  # an unpooled run keeps its exact value
    sizes = np.diff(np.concatenate(([0], np.cumsum(run_len)[run_block_end - 1])))
    return values, sizes


def pav(y, w=None) -> np.ndarray:
    r"""Weighted isotonic (non-decreasing) regression by pool-adjacent-violators.

    The tool behind the ROC convex hull (section 7.1), isotonic calibration and minCllr
    (sections 7.3-7.4 of the MLPR notes).

    Parameters
    ----------
    y : array_like, shape (N,)
        Finite values, in the order along which the fit must be non-decreasing (e.g. 0/1 labels
        sorted by score).
    w : array_like, shape (N,), optional
        Positive finite weights; default all ones.

    Returns
    -------
    ndarray, shape (N,)
        The fitted values :math:`f`, non-decreasing, piecewise constant on blocks of
        consecutive entries, each block's value being the weighted mean of its ``y``.

    Notes
    -----
    Solves

    .. math:: \min_f \sum_i w_i (y_i - f_i)^2 \quad \text{s.t.} \quad f_1 \le f_2 \le \dots \le f_N

    in O(N) with a stack of blocks (Ayer et al. 1955; the isotonic step of BOSARIS). Applied to
    0/1 target labels sorted by score, the fit is the monotone posterior of the target class
    that is optimal for every proper scoring rule; its blocks are the vertices of the ROC convex
    hull (`roc_convex_hull`, `min_cllr`).
    """
    y = _check_scores_1d(y, "y", allow_inf=False)
    if w is None:
        w = np.ones_like(y)
    else:
        w = _check_scores_1d(w, "w", allow_inf=False)
        if w.size != y.size:
            raise ValueError(f"w has {w.size} weights but y has {y.size} values")
        if np.any(w <= 0):
            raise ValueError(f"w must hold positive weights, got {float(w[w <= 0][0])!r}")
    if y.size == 0:
        return y.copy()
    return _pav_scaled(y, w)


def _pav_scaled(y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """`_pav_blocks` on y and w scaled by powers of two, the fit expanded to one value per y.

    The fit is unchanged when the weights are scaled and scales with y: powers of two bring
    them (exactly) near 1 where sums of products w * y would otherwise overflow float64, e.g.
    weights of 1e308, or underflow, weights of 1e-320.
    """
    w = np.ldexp(w, -np.frexp(w.max())[1])
    ey = 0
    with np.errstate(over="ignore"):
        if not np.isfinite(np.abs(y).max() * 4.0 * y.size):
            ey = int(np.frexp(np.abs(y).max())[1]) + int(np.ceil(np.log2(4.0 * y.size)))
    values, sizes = _pav_blocks(np.ldexp(y, -ey), w)
    return np.repeat(np.ldexp(values, ey), sizes)


def _hull_indices(rejected: np.ndarray, tar_rejected: np.ndarray) -> np.ndarray:
    """The indices of the vertices of the convex hull of operating points given in ascending
    threshold order by the numbers of rejected scores and of rejected targets (from 0 to N):
    PAV on the target fraction of the groups of scores between consecutive points, each block
    of groups being one segment of the hull."""
    n_g = np.diff(rejected)  # scores per group
    t_g = np.diff(tar_rejected)  # targets per group
    _, sizes = _pav_blocks(t_g / n_g, n_g.astype(np.float64))
    return np.concatenate(([0], np.cumsum(sizes)))


def _hull_splits(R: _Ranked, j: np.ndarray) -> np.ndarray:
    """The splits among j (ascending, from 0 to N) at the vertices of the convex hull of their
    operating points (`_hull_indices`)."""
    return j[_hull_indices(j, R.cum_tar[j])]


def roc_convex_hull(scores, L) -> tuple[np.ndarray, np.ndarray]:
    """Vertices (Pfp, Pfn) of the ROC convex hull (ROCCH), in the order of `det_points`.

    The lower-left convex hull of the (Pfp, Pfn) operating points of section 7.1 (decisions
    ``scores > t``, eq. 128): every DCF is minimised at one of its vertices, and it crosses
    Pfn = Pfp at the rocch EER. Computed with `pav` on the target fraction of each tie group in
    score order: the PAV blocks are the hull's segments. Collinear points between blocks of
    equal value may appear as vertices. Beyond the notes (BOSARIS's ROCCH); `eer` with
    ``method="rocch"`` computes the same hull from the corners of the ROC staircase only.

    Returns
    -------
    Pfp : ndarray, shape (H,)
        Non-decreasing, from 0 (reject all) to 1 (accept all).
    Pfn : ndarray, shape (H,)
        Non-increasing, from 1 to 0.
    """
    s, L = _check_binary_scores(scores, L, "scores")
    R = _rank(s, L)
    j = _hull_splits(R, _splits(R))[::-1]
    n_fn, n_fp = _errors(R, j)
    return n_fp / R.nF, n_fn / R.nT


def _eer_threshold(n_fn: np.ndarray, n_fp: np.ndarray, nT: int, nF: int) -> float:
    """Section 7.1: the mean of Pfn and Pfp at the first (lowest-threshold) operating point
    where |Pfn - Pfp| is smallest; the error counts of the points in ascending threshold order."""
    Pfn, Pfp = n_fn / nT, n_fp / nF
    k = int(np.argmin(np.abs(Pfn - Pfp)))
    return float(0.5 * (Pfn[k] + Pfp[k]))


def _eer_rocch(n_fn: np.ndarray, n_fp: np.ndarray, nT: int, nF: int) -> float:
    """Where the convex hull of the operating points (error counts in ascending threshold
    order) crosses Pfn = Pfp: on the hull's vertices (Pfn rising and Pfp falling), the segment
    on which Pfn - Pfp changes sign."""
    k = _hull_indices(n_fn + (nF - n_fp), n_fn)  # rejected scores, rejected targets
    Pfn, Pfp = n_fn[k] / nT, n_fp[k] / nF
    d = Pfn - Pfp  # non-decreasing from -1 (accept all) to +1 (reject all)
    k = int(np.argmax(d >= 0))
    if d[k] == 0:
        return float(Pfn[k])
    u = -d[k - 1] / (d[k] - d[k - 1])  # the fraction of the segment where Pfn = Pfp
    return float(Pfn[k - 1] + u * (Pfn[k] - Pfn[k - 1]))


_EER_METHODS = {"threshold": _eer_threshold, "rocch": _eer_rocch}


def eer(scores, L, method: str = "threshold", *, solver: str = "auto") -> float:
    r"""Equal error rate of binary scores.

    Parameters
    ----------
    scores : ndarray, shape (N,)
        Scores, larger = more target-like; +-inf allowed, NaN not.
    L : ndarray, shape (N,)
        Labels 0/1, both classes present.
    method : {"threshold", "rocch"}
        ``"threshold"`` (default): the notes' EER, the
        error rate at the threshold where Pfn = Pfp on the empirical ROC. As the empirical ROC
        is a staircase, the threshold (operating point of `roc_points`) where ``|Pfn - Pfp|`` is
        smallest is taken (the lowest one on ties) and the mean of Pfn and Pfp there returned;
        the course's published EERs are computed so. ``"rocch"``: where the ROC convex hull
        crosses Pfn = Pfp, equal to the maximum over priors of the minimum Bayes error
        (BOSARIS's definition; the default of earlier mlpr versions).
    solver : {"auto", "reference"}, default "auto"
        How the operating points are counted, as in `roc_points`. ``"auto"`` takes for
        ``"rocch"`` only the corners of the ROC staircase (`mlpr._evaluation_fast.candidates`),
        which have the same hull. ``"threshold"``: the same number, bit for bit; ``"rocch"``:
        the same to rounding (tested).

    Returns
    -------
    float
        In [0, 0.5] for ``"rocch"`` (the hull contains the accept-all and reject-all points);
        ``"threshold"`` can exceed 0.5 for scores that rank the classes the wrong way.

    Notes
    -----
    Section 7.1 of the MLPR notes. ``"threshold"``: with the operating points (decisions
    ``scores > t``, eq. 128)
    :math:`(P_{fn}(t), P_{fp}(t))` of the thresholds t,

    .. math::

        t^* = \arg\min_t |P_{fn}(t) - P_{fp}(t)|, \qquad
        \mathrm{EER} = \tfrac12 \left[ P_{fn}(t^*) + P_{fp}(t^*) \right] .

    ``"rocch"`` (beyond the notes):

    .. math::

        \mathrm{EER}_{rocch} = \max_{p \in [0, 1]} \min_t \left[ p P_{fn}(t) + (1 - p)
        P_{fp}(t) \right] = \max_p \; \mathrm{minDCF}(p) \min(p, 1 - p)

    (the minimum of a linear function over the hull, by LP duality), computed exactly where
    the hull (`roc_convex_hull`) crosses the diagonal. Both are invariant to the order of the
    input and to strictly increasing transforms of the scores; they can differ by up to the
    size of a tie group divided by the class count (see the module docstring):
    ``eer(s, L) - eer(s, L, "rocch")`` shows by how much on given data.
    """
    if not isinstance(method, str) or method not in _EER_METHODS:
        raise ValueError(f"method must be 'threshold' or 'rocch', got {method!r}")
    s, L = _check_binary_scores(scores, L, "scores")
    if check_solver(solver) == "reference":
        n_fn, n_fp, _ = _operating_points_reference(s, L)
        nT = int(np.count_nonzero(L))
        return _EER_METHODS[method](n_fn, n_fp, nT, L.size - nT)
    R = _rank(s, L)
    j = _splits(R)
    if method == "rocch":  # the corners of the staircase have the same hull as every point
        j = _candidates(R, j)
    n_fn, n_fp = _errors(R, j)
    return _EER_METHODS[method](n_fn, n_fp, R.nT, R.nF)


# ------------------------------------------------------------------------------------------------
# Cllr


def cllr(llr, L) -> float:
    r"""Log-likelihood-ratio cost (in bits) of calibrated LLRs.

    An application-independent summary of calibration (section 7.3 of the MLPR notes discusses
    calibration; Cllr is the measure of the BOSARIS toolkit).

    Parameters
    ----------
    llr : ndarray, shape (N,)
        Log-likelihood ratios (natural log); +-inf allowed (a target at -inf or a non-target at
        +inf costs +inf), NaN not. A warning is issued when every value lies in [0, 1].
    L : ndarray, shape (N,)
        Labels 0/1, both classes present.

    Returns
    -------
    float
        0 for perfect, confident LLRs; exactly 1 for the uninformative all-zero LLRs.

    Notes
    -----
    Beyond the notes (Brummer and du Preez, 2006): the average of the logistic losses at the
    prior 1/2, in bits,

    .. math::

        C_{llr} = \frac12 \left[ \frac{1}{N_t} \sum_{tar} \log_2(1 + e^{-s_i})
                  + \frac{1}{N_n} \sum_{non} \log_2(1 + e^{s_i}) \right],

    with :math:`\log(1 + e^{z})` = ``np.logaddexp(0, z)`` so that large :math:`|s|` neither
    overflows nor loses precision.
    """
    s, L = _check_binary_scores(llr, L)
    _warn_if_probabilities(s, "llr", "cllr")
    tar = L == 1
    c_tar = np.mean(np.logaddexp(0.0, -s[tar]) / _LN2)
    c_non = np.mean(np.logaddexp(0.0, s[~tar]) / _LN2)
    return float(0.5 * (c_tar + c_non))


def min_cllr(llr, L) -> float:
    r"""Cllr after the best monotone recalibration of the scores (the discrimination loss).

    The calibration-independent part of `cllr`, as minDCF is of actDCF (section 7.3 of the
    MLPR notes).

    Parameters
    ----------
    llr : ndarray, shape (N,)
        Scores; only their order matters. +-inf allowed, NaN not.
    L : ndarray, shape (N,)
        Labels 0/1, both classes present.

    Returns
    -------
    float
        ``min_cllr(llr, L) <= cllr(llr, L)``; ``cllr - min_cllr`` is the calibration loss.

    Notes
    -----
    BOSARIS's minCllr: `pav` on the 0/1 labels in score order (tied scores pooled) gives the
    monotone target posterior :math:`P_b` of each block b that is optimal at the empirical prior
    :math:`N_t / N`; removing the prior log-odds turns it into an LLR,

    .. math:: \mathrm{llr}_b = \log \frac{P_b}{1 - P_b} - \log \frac{N_t}{N_n},

    computed from the block counts as :math:`\log T_b - \log(N_b - T_b) - \log N_t + \log N_n`.
    Blocks without targets get -inf and blocks without non-targets +inf, which cost nothing
    (:math:`\log_2(1 + e^{-\infty}) = 0`); then `cllr` of these LLRs.
    """
    s, L = _check_binary_scores(llr, L)
    R = _rank(s, L)
    edges = _hull_splits(R, _splits(R))  # the PAV blocks of tie groups
    T_b = np.diff(R.cum_tar[edges]).astype(np.float64)  # targets per block
    F_b = np.diff(R.cum_non[edges]).astype(np.float64)  # non-targets per block
    with np.errstate(divide="ignore"):
        llr_b = np.log(T_b) - np.log(F_b) - np.log(R.nT) + np.log(R.nF)
    # a block without targets (llr = -inf) adds nothing to the target term, not 0 * inf
    tar, non = T_b > 0, F_b > 0
    c_tar = np.sum(T_b[tar] * np.logaddexp(0.0, -llr_b[tar])) / (_LN2 * R.nT)
    c_non = np.sum(F_b[non] * np.logaddexp(0.0, llr_b[non])) / (_LN2 * R.nF)
    return float(0.5 * (c_tar + c_non))


# ------------------------------------------------------------------------------------------------
# k-fold scoring


def kfold_scores(train, D, L, k: int, seed: int | None = None,
                 method: str = "scores") -> np.ndarray:
    """Pooled out-of-fold scores of a learner, in the original sample order.

    Parameters
    ----------
    train : callable
        ``train(D, L) -> model`` with ``model.scores(D)`` returning (N,) binary scores or a
        (K, N) score matrix.
    D : ndarray, shape (D, N)
    L : ndarray, shape (N,)
    k : int
        Number of folds, 2 <= k <= N.
    seed : int, optional
        None: the course's interleaved folds, fold i validating samples ``i, i + k, ...``
        (`mlpr.utils.kfold_indices`). An int: folds of a random permutation drawn from
        ``numpy.random.default_rng(seed)`` (`mlpr.utils.kfold_shuffled_indices`).
    method : {"scores", "llr"}
        Which method of each fold's model scores its validation samples: ``scores(D)``, or
        ``llr(D)``, the (N,) log-likelihood ratio of the binary models that have one (the
        generative models, and logistic regression, whose ``llr`` removes the log-odds of the
        fold's training prior, eq. 102).

    Returns
    -------
    ndarray, shape (N,) or (K, N)
        Column n holds the score of sample n from the model trained on the folds that do not
        contain it; every sample is scored exactly once.

    Notes
    -----
    The first level of the K-fold protocol of section 7.3 of the MLPR notes: scores that no
    model saw in training, on which minDCF / actDCF (and a calibrator, `mlpr.calibration`) are
    computed honestly.
    """
    if not callable(train):
        raise TypeError(
            f"train must be a callable train(D, L) -> model, got {type(train).__name__}"
        )
    D, L = check_data_labels(D, L, require_all=False)
    N = D.shape[1]
    k = check_int(k, "k", low=2, high=N)
    method = check_choice(method, "method", ("scores", "llr"))
    if seed is None:
        folds = kfold_indices(N, k)
    else:
        rng = np.random.default_rng(check_int(seed, "seed", low=0))
        folds = kfold_shuffled_indices(N, k, rng)
    out = None
    for i, (tr, va) in enumerate(folds):
        S = _fold_scores(_train_fold(train, D, L, tr, i, k, method), D[:, va], i, method)
        if out is None:
            out = np.empty(S.shape[:-1] + (N,))
        elif S.shape[:-1] != out.shape[:-1]:
            raise ValueError(
                f"fold {i}: model.scores returned shape {S.shape}, inconsistent with the "
                f"previous folds ({out.shape[:-1]} rows)"
            )
        out[..., va] = S  # each sample is scored by the model that did not train on it
    return out


@dataclasses.dataclass(frozen=True)
class GridSearch:
    """A grid of hyper-parameters scored by out-of-fold minDCF (`kfold_grid_search`).

    Attributes
    ----------
    params : tuple of dict
        The settings, in the grid's order (``{"C": 1.0, "gamma": 0.1}``).
    min_dcf, act_dcf : ndarray, shape (P,)
        Normalised minDCF and actDCF of each setting's pooled out-of-fold scores at the
        application ``(prior, Cfn, Cfp)`` (actDCF reads the scores as llrs).
    prior, Cfn, Cfp : float
        The application.
    k : int
        Number of folds.
    """

    params: tuple
    min_dcf: np.ndarray
    act_dcf: np.ndarray
    prior: float
    Cfn: float
    Cfp: float
    k: int

    @property
    def best_index(self) -> int:
        """The setting of lowest minDCF (the first one on ties)."""
        return int(np.argmin(self.min_dcf))

    @property
    def best(self) -> dict:
        """The chosen hyper-parameters: those of lowest out-of-fold minDCF."""
        return dict(self.params[self.best_index])

    def rows(self) -> list:
        """The table: one row per setting, its values then minDCF and actDCF."""
        return [list(p.values()) + [float(m), float(a)]
                for p, m, a in zip(self.params, self.min_dcf, self.act_dcf)]


def kfold_grid_search(train, grid, D, L, k: int, prior, Cfn=1.0, Cfp=1.0,
                      seed: int | None = None, method: str = "scores") -> GridSearch:
    r"""Score every setting of a grid of hyper-parameters by its K-fold minDCF.

    The course's model selection (the notes choose C, gamma, lambda or the number of components
    "by cross-validation", 8.4-8.5, 9.4): for each setting, the pooled out-of-fold scores of
    `kfold_scores` (every training sample scored once, by the model of the folds that do not
    contain it), and their minDCF and actDCF at the application. The chosen setting is then
    trained on the whole training set and evaluated once on held-out data.

    Parameters
    ----------
    train : callable
        ``train(D, L, **params) -> model`` with ``model.scores(D)`` (N,), e.g.
        ``lambda D, L, C, gamma: train_svm_kernel(D, L, C, rbf_kernel(gamma), 1.0)``.
    grid : dict of sequences, or sequence of dicts
        ``{"C": [0.1, 1, 10], "gamma": [1e-2, 1e-1]}`` (every combination, the last name
        varying fastest) or an explicit list of settings.
    D : ndarray, shape (D, N)
    L : ndarray, shape (N,)
        Binary labels.
    k : int
        Number of folds.
    prior, Cfn, Cfp : float
        The application of the minDCF.
    seed, method
        As in `kfold_scores`.

    Returns
    -------
    GridSearch
        The table (``rows()``), and ``best``, the setting of lowest minDCF.
    """
    if isinstance(grid, dict):
        names = list(grid)
        values = [list(grid[n]) if np.ndim(grid[n]) else [grid[n]] for n in names]
        params = [dict(zip(names, combo)) for combo in itertools.product(*values)]
    else:
        params = [dict(p) for p in grid]
    if not params or not all(isinstance(p, dict) for p in params):
        raise ValueError("grid must be a dict of sequences or a non-empty sequence of dicts")
    mins, acts = [], []
    for p in params:
        s = kfold_scores(lambda X, Y, p=p: train(X, Y, **p), D, L, k, seed=seed, method=method)
        mins.append(min_dcf(s, L, prior, Cfn, Cfp))
        acts.append(act_dcf(s, L, prior, Cfn, Cfp))
    return GridSearch(params=tuple(params), min_dcf=np.array(mins), act_dcf=np.array(acts),
                      prior=float(prior), Cfn=float(Cfn), Cfp=float(Cfp), k=int(k))


def _train_fold(train, D: np.ndarray, L: np.ndarray, tr: np.ndarray, i: int, k: int,
                method: str = "scores"):
    """``train`` on the training set of fold i; an error says which fold it came from."""
    try:
        model = train(D[:, tr], L[tr])
    except Exception as exc:  # the training set of one fold may lack what train needs
        if hasattr(exc, "add_note"):  # Python >= 3.11
            exc.add_note(f"(raised by train on the training set of fold {i} of {k}, "
                         f"{tr.size} samples, classes {np.unique(L[tr]).tolist()[:10]})")
        raise
    if not callable(getattr(model, method, None)):
        raise TypeError(f"train returned a {type(model).__name__} without a {method}(D) method")
    return model


def _fold_scores(model, D_va: np.ndarray, i: int, method: str = "scores") -> np.ndarray:
    """The scores (n,) or (K, n) of the n validation samples of fold i, without NaN."""
    n = D_va.shape[1]
    S = check_array(getattr(model, method)(D_va), f"fold {i}: model.{method}(D)")
    if S.ndim not in (1, 2) or S.shape[-1] != n:
        raise ValueError(
            f"fold {i}: model.{method} returned shape {S.shape} for {n} samples; expected ({n},) "
            f"or (K, {n})"
        )
    if np.isnan(S).any():
        raise ValueError(
            f"fold {i}: model.{method} returned NaN for "
            f"{int(np.isnan(S).reshape(-1, n).any(axis=0).sum())} of its {n} validation "
            f"samples; check the model trained on that fold"
        )
    return S
