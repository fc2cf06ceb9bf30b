"""The fast minDCF and actDCF of `mlpr.evaluation`: every operating point from one sort.

`mlpr.evaluation.min_dcf` with ``solver="reference"`` is the notes' procedure as written (section
7.3): for every threshold t (-inf and each distinct score), take the decisions ``s > t``
(eq. 128), count the errors, compute the normalised DCF (eq. 136-137) and keep the smallest, an
O(N) pass per threshold, O(N^2) in all. `mlpr.evaluation.act_dcf` with ``solver="reference"``
takes the Bayes decisions ``s > t`` of each prior in one O(N) pass each. This module gives the
same error counts, hence the same numbers through the same formula (``solver="auto"``, the
default of `min_dcf`, `act_dcf` and `bayes_error_curve`), and `tests/test_evaluation.py` holds
the two exactly equal, values and thresholds. What differs, and why:

* One sort (`rank`): the scores are sorted once, and the numbers of targets and non-targets
  below every split of the sorted scores come from cumulative counts. A split j rejects the j
  lowest scores; only the splits between distinct values (`splits`) are decisions of a
  threshold, so tied scores are never separated. The errors at every threshold then cost O(1)
  each (`errors`): O(N log N) in all instead of O(N^2).
* Only the corners of the ROC staircase (`candidates`): a split whose group of tied scores just
  below holds only targets (accepting it lowers Pfn, leaves Pfp) or whose group just above holds
  only non-targets is strictly worse than a neighbour for every prior, so minDCF compares the
  others only (about 1/9 of 10^6 untied Gaussian scores).
* Many priors at once (`min_dcf_counts`): the un-normalised DCF of every (prior, operating point)
  pair (normalising moves no argmin) in blocks of priors of about ``_CHUNK`` elements, which fit
  in cache; the Bayes error curve evaluates all its priors on one sort.
* actDCF of many priors (`act_dcf_counts`): the decisions ``s > t`` of each Bayes threshold are a
  binary search in the sorted scores.

The ROC and DET points and the EER (``solver="auto"``; the reference counts the decisions of
each threshold one by one) read their operating points from the same sort (`rank`, `splits`,
`errors`, `split_thresholds`), and so do the convex hull and minCllr, whose pooling (PAV) runs
in score order. The functions here trust their caller: scores without NaN (+-inf allowed),
labels 0/1 with both classes present.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

_CHUNK = 1 << 16  # elements of one (priors x operating points) block of min_dcf: fits in cache


class Ranked(NamedTuple):
    """Scores sorted in ascending order with cumulative class counts.

    ``cum_tar[j]`` / ``cum_non[j]`` = targets / non-targets among the j lowest scores, j = 0..N.
    A *split* j rejects the j lowest scores and accepts the others; only splits between distinct
    score values (`splits`) are thresholds.
    """

    s: np.ndarray
    cum_tar: np.ndarray
    cum_non: np.ndarray
    nT: int
    nF: int


def rank(s: np.ndarray, L: np.ndarray) -> Ranked:
    """Sort the scores s (N,) once and count the targets (L == 1) below every split."""
    order = np.argsort(s)  # the single O(N log N) step
    N = s.size
    cum_tar = np.zeros(N + 1, dtype=np.int64)
    np.cumsum(L[order] == 1, out=cum_tar[1:])
    cum_non = np.arange(N + 1, dtype=np.int64) - cum_tar
    nT = int(cum_tar[-1])
    return Ranked(s[order], cum_tar, cum_non, nT, N - nT)


def splits(R: Ranked) -> np.ndarray:
    """Every split that a threshold realises, ascending: 0 (accept all), N (reject all), and
    each j where the sorted scores change value, so tied scores are never separated."""
    ss = R.s
    inner = np.flatnonzero(ss[1:] != ss[:-1]) + 1
    return np.concatenate(([0], inner, [ss.size]))


def candidates(R: Ranked, j: np.ndarray) -> np.ndarray:
    """The splits among j (ascending) that can minimise a DCF: the corners of the ROC staircase.

    If the tie group just below split j holds only targets, accepting it lowers Pfn and leaves
    Pfp unchanged; if the group just above holds only non-targets, rejecting it lowers Pfp. Such
    splits are strictly worse than a neighbour for every prior in (0, 1) and never lie on the ROC
    convex hull, so minDCF and the rocch EER only need the others.
    """
    non_below = np.diff(R.cum_non[j])  # non-targets in the group between consecutive splits
    tar_above = np.diff(R.cum_tar[j])
    keep = np.ones(j.size, dtype=bool)
    keep[1:] &= non_below > 0
    keep[:-1] &= tar_above > 0
    keep[0] = keep[-1] = True  # the two data-independent systems
    return j[keep]


def errors(R: Ranked, j: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Numbers of false negatives (targets rejected) and false positives (non-targets accepted)
    at splits j."""
    return R.cum_tar[j], R.nF - R.cum_non[j]


def split_thresholds(R: Ranked, j: np.ndarray) -> np.ndarray:
    """The lowest threshold t whose decisions ``s > t`` realise split j: the highest rejected
    score s[j - 1], or -inf for j = 0 (accept all; not realised by any t if a score is -inf)."""
    t = R.s[np.maximum(j - 1, 0)].copy()
    t[j == 0] = -np.inf
    return t


def _argmin_dcf(Pfn: np.ndarray, Pfp: np.ndarray, p: np.ndarray, Cfn: float,
                Cfp: float) -> np.ndarray:
    """For each prior of p (P,), the index of the first operating point of least DCF.

    The un-normalised DCF (eq. 136; normalising does not move the argmin) of every (prior,
    operating point) pair, in blocks of priors that keep the matrix near ``_CHUNK`` elements.
    """
    a, b = p * Cfn, (1.0 - p) * Cfp
    rows = max(1, _CHUNK // Pfn.size)  # priors per block
    blocks = [np.argmin(a[i:i + rows, None] * Pfn + b[i:i + rows, None] * Pfp, axis=1)
              for i in range(0, p.size, rows)]
    return np.concatenate(blocks) if blocks else np.empty(0, dtype=np.intp)


def min_dcf_counts(R: Ranked, p: np.ndarray, Cfn: float, Cfp: float):
    """For each prior of p (P,): the error counts (n_fn, n_fp), each (P,), of the operating
    point of least DCF, and its lowest threshold (P,), on one sort.

    The first minimum in ascending split order has the lowest threshold, as the reference's
    strict comparison keeps. With -inf scores the accept-all split is no threshold's decision:
    it goes last, chosen only if strictly best (as the reference adds it after every threshold).
    """
    j = candidates(R, splits(R))  # ascending: the first minimum has the lowest threshold
    if R.s[0] == -np.inf:  # accept-all is no threshold's decision: last, chosen only if best
        j = np.roll(j, -1)
    n_fn, n_fp = errors(R, j)
    k = _argmin_dcf(n_fn / R.nT, n_fp / R.nF, p, Cfn, Cfp)
    return n_fn[k], n_fp[k], split_thresholds(R, j[k])


def act_dcf_counts(R: Ranked, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The error counts (n_fn, n_fp), each (P,), of the decisions ``s > t`` (eq. 128) for each
    threshold of t (P,), read off the sorted scores by binary search."""
    k = np.searchsorted(R.s, t, side="right")  # the scores <= t are rejected (s > t accepted)
    return errors(R, k)
