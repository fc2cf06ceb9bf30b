"""Tests of mlpr.evaluation: every expected value comes from an independent route (hand counts,
brute-force scans over thresholds in Python loops, the min-max formula of isotonic regression,
pairwise intersections of Bayes-error lines, manual k-fold loops)."""

import itertools
import warnings

import numpy as np
import pytest

from mlpr.evaluation import (
    accuracy,
    act_dcf,
    bayes_decisions,
    bayes_error_curve,
    bayes_threshold,
    binary_rates,
    cllr,
    confusion_matrix,
    dcf,
    det_points,
    eer,
    effective_prior,
    empirical_bayes_risk,
    error_rate,
    expected_costs,
    fn_fp_rates,
    kfold_scores,
    min_cllr,
    min_dcf,
    min_dcf_sweep,
    optimal_bayes_decisions,
    pav,
    roc_convex_hull,
    roc_points,
    uniform_cost_matrix,
)
from mlpr.neighbors import train_nearest_mean
from mlpr.utils import kfold_indices, kfold_shuffled_indices, vcol

APPLICATIONS = [(0.5, 1, 1), (0.9, 1, 1), (0.1, 1, 1), (0.5, 1, 9), (0.5, 9, 1)]

# A small hand-made case: 4 targets, 5 non-targets, no ties.
TAR = [-2.5, 0.5, 1.5, 3.0]
NON = [-3.0, -1.5, -0.5, 1.0, 2.5]
S_HAND = np.array(TAR + NON)
L_HAND = np.array([1] * 4 + [0] * 5)


def tied_data(seed, n=300, p_tar=0.4, shift=1.0, scale=1.0):
    """Integer (heavily tied) scores of overlapping classes."""
    rng = np.random.default_rng(seed)
    L = (rng.random(n) < p_tar).astype(int)
    L[:2] = [0, 1]
    s = np.round(scale * (rng.normal(size=n) + shift * L))
    return s, L


def brute_rates(s, L):
    """(Pfn, Pfp, threshold) for every threshold that changes a decision, by explicit decisions
    ``s > t`` (the notes' eq. 128), in increasing order of t."""
    out = []
    for t in [-np.inf, *sorted(set(s.tolist()))]:
        pred = s > t
        out.append((np.mean(~pred[L == 1]), np.mean(pred[L == 0]), t))
    return out


def brute_dcf(Pfn, Pfp, prior, Cfn, Cfp):
    return (prior * Cfn * Pfn + (1 - prior) * Cfp * Pfp) / min(prior * Cfn, (1 - prior) * Cfp)


def brute_min_dcf(s, L, prior, Cfn=1, Cfp=1):
    """The thresholds' minimum, and the best data-independent system, which costs 1."""
    return min(1.0, *(brute_dcf(fn, fp, prior, Cfn, Cfp) for fn, fp, _ in brute_rates(s, L)))


# ------------------------------------------------------------------------------------------------
# error rates and confusion matrices


def test_confusion_matrix_rows_are_predictions():
    L = np.array([0, 0, 1, 1, 2, 2, 2])
    pred = np.array([0, 1, 1, 1, 2, 0, 2])
    M = confusion_matrix(pred, L)
    expected = np.zeros((3, 3), dtype=int)
    for p, t in zip(pred, L):  # the definition, one sample at a time
        expected[p, t] += 1
    assert np.array_equal(M, expected)
    assert M[1, 0] == 1 and M[0, 2] == 1  # predicted 1 / true 0, predicted 0 / true 2
    assert np.array_equal(M.sum(axis=0), np.bincount(L))
    assert np.trace(M) == np.sum(pred == L)


def test_confusion_matrix_with_K():
    M = confusion_matrix([0, 0], [0, 0], K=3)
    assert M.shape == (3, 3) and M[0, 0] == 2 and M.sum() == 2


def test_error_rate_and_accuracy():
    L = np.array([0, 1, 1, 0])
    pred = np.array([0, 1, 0, 0])
    assert error_rate(pred, L) == 0.25 and accuracy(pred, L) == 0.75


def test_errors():
    with pytest.raises(ValueError, match="pred has 2 labels"):
        error_rate([0, 1], [0, 1, 1])
    with pytest.raises(ValueError, match="L is empty"):
        error_rate([], [])
    with pytest.raises(ValueError, match="pred holds label 3"):
        confusion_matrix([0, 3], [0, 1], K=2)
    with pytest.raises(ValueError, match="negative"):
        confusion_matrix([0, -1], [0, 1])


def test_binary_rates_by_hand():
    # 3 targets: 2 detected, 1 missed; 4 non-targets: 1 false alarm
    L = np.array([1, 1, 1, 0, 0, 0, 0])
    pred = np.array([1, 0, 1, 0, 1, 0, 0])
    M = confusion_matrix(pred, L, K=2)
    assert M.tolist() == [[3, 1], [1, 2]]  # rows predicted, columns true
    r = binary_rates(M)
    assert r == {"Pfn": 1 / 3, "Pfp": 1 / 4, "TPR": 2 / 3, "TNR": 3 / 4}
    assert fn_fp_rates(pred, L) == (1 / 3, 1 / 4)


# ------------------------------------------------------------------------------------------------
# Bayes decisions


def test_effective_prior_and_threshold():
    assert effective_prior(0.5, 1, 9) == pytest.approx(0.1, rel=1e-15)
    assert effective_prior(0.5, 9, 1) == pytest.approx(0.9, rel=1e-15)
    assert effective_prior(0.3, 1, 1) == pytest.approx(0.3, rel=1e-15)
    assert np.allclose(effective_prior([0.5, 0.2], 2, 1), [2 / 3, 0.4 / 1.2], rtol=1e-15)
    assert bayes_threshold(0.5) == 0.0
    assert bayes_threshold(0.5, 1, 9) == pytest.approx(np.log(9), rel=1e-14)
    assert bayes_threshold(0.9) == pytest.approx(-np.log(9), rel=1e-14)
    # the application and its effective prior share the threshold
    assert bayes_threshold(0.5, 9, 1) == pytest.approx(bayes_threshold(0.9), rel=1e-14)


def test_optimal_bayes_decisions():
    llr = np.array([-np.inf, -3.0, 0.0, np.log(9) - 1e-12, np.log(9) + 1e-12, 5.0, np.inf])
    # (0.5, 1, 1): t = 0 exactly, and an llr of exactly 0 is decided 0 (eq. 128: llr > t)
    assert bayes_threshold(0.5) == 0.0
    assert optimal_bayes_decisions(llr, 0.5).tolist() == [0, 0, 0, 1, 1, 1, 1]
    assert optimal_bayes_decisions(llr, 0.1).tolist() == [0, 0, 0, 0, 1, 1, 1]  # t = log 9
    assert optimal_bayes_decisions(llr, 0.5, 1, 9).tolist() == [0, 0, 0, 0, 1, 1, 1]
    assert optimal_bayes_decisions(llr, 0.9).tolist() == [0, 0, 1, 1, 1, 1, 1]  # t = -log 9
    assert optimal_bayes_decisions(llr, 0.5).dtype == np.int64
    # a score exactly at the threshold of any application goes to class 0, one ulp above to 1
    for p, cfn, cfp in APPLICATIONS + [(0.3, 1.0, 2.0)]:
        t = bayes_threshold(p, cfn, cfp)
        at = np.array([t, np.nextafter(t, np.inf), np.nextafter(t, -np.inf)])
        assert optimal_bayes_decisions(at, p, cfn, cfp).tolist() == [0, 1, 0]


# integer scores with a tie group exactly at the threshold 0 of (0.5, 1, 1)
S_TIE = np.array([-1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0])
L_TIE = np.array([0, 0, 1, 1, 0, 1, 1])


def test_scores_at_the_threshold_are_decided_class_0_everywhere():
    # by hand, s > 0 accepts {1 (non-target), 2, 3 (targets)}; the three zeros are rejected:
    # targets 4, missed 2 (the zeros); non-targets 3, false alarms 1 (the score 1)
    pred = optimal_bayes_decisions(S_TIE, 0.5)
    assert pred.tolist() == [0, 0, 0, 0, 1, 1, 1]
    assert confusion_matrix(pred, L_TIE).tolist() == [[2, 2], [1, 2]]
    assert fn_fp_rates(pred, L_TIE) == (0.5, 1 / 3)
    expected = 0.5 + 1 / 3  # Pfn + Pfp at pi = 0.5 (the s >= t rule gave 0 + 2/3)
    assert dcf(pred, L_TIE, 0.5, normalize=False) == pytest.approx(expected / 2, rel=1e-15)
    assert dcf(pred, L_TIE, 0.5) == pytest.approx(expected, rel=1e-15)
    assert act_dcf(S_TIE, L_TIE, 0.5) == pytest.approx(expected, rel=1e-15)
    assert act_dcf(S_TIE, L_TIE, [0.5, 0.5])[0] == pytest.approx(expected, rel=1e-15)  # sorted
    _, act, _ = bayes_error_curve(S_TIE, L_TIE, [0.0])
    assert act[0] == pytest.approx(expected, rel=1e-15)
    # integer thresholds of (0.5, 1, 1) shifted: llr - 1 puts the score 1 exactly at t = 0
    assert act_dcf(S_TIE - 1, L_TIE, 0.5) == pytest.approx(0.5 + 0, rel=1e-15)
    # the ROC point of the threshold 0 counts the scores > 0
    Pfp, Ptp, t = roc_points(S_TIE, L_TIE, return_thresholds=True)
    k = int(np.flatnonzero(t == 0.0)[0])
    assert (Pfp[k], Ptp[k]) == (1 / 3, 0.5)
    x, y, t2 = det_points(S_TIE, L_TIE, return_thresholds=True)
    assert np.array_equal(t2, t) and (x[k], y[k]) == (1 / 3, 0.5)


def test_notes_worked_example_three_classes():
    C = np.array([[0, 1, 2], [1, 0, 1], [2, 1, 0]], dtype=float)
    post = np.array([0.40, 0.25, 0.35])
    R = expected_costs(vcol(np.log(post)), C)
    # by hand: a = 0: 0.25 + 0.70; a = 1: 0.40 + 0.35; a = 2: 0.80 + 0.25
    assert np.allclose(R.ravel(), [0.95, 0.75, 1.05], rtol=1e-14)
    # the notes number classes from 1: their "class 2" is index 1
    assert bayes_decisions(vcol(np.log(post)), C).tolist() == [1]
    # with 0-1 costs the same posteriors give the MAP class
    assert bayes_decisions(vcol(np.log(post)), uniform_cost_matrix(3)).tolist() == [0]


def test_uniform_costs_give_map_decisions():
    rng = np.random.default_rng(3)
    P = rng.dirichlet(np.ones(4), size=50).T
    assert np.array_equal(bayes_decisions(np.log(P), uniform_cost_matrix(4)), P.argmax(axis=0))
    assert np.array_equal(uniform_cost_matrix(3), [[0, 1, 1], [1, 0, 1], [1, 1, 0]])


# ------------------------------------------------------------------------------------------------
# DCF


def test_dcf_by_hand():
    # targets: 1 of 4 missed; non-targets: 2 of 5 accepted
    pred = np.array([0, 1, 1, 1, 0, 0, 0, 1, 1])
    L = L_HAND
    assert dcf(pred, L, 0.5, normalize=False) == pytest.approx(0.5 * 0.25 + 0.5 * 0.4)
    assert dcf(pred, L, 0.5) == pytest.approx(0.25 + 0.4)
    assert dcf(pred, L, 0.2, 2, 1) == pytest.approx((0.4 * 0.25 + 0.8 * 0.4) / 0.4)
    assert np.allclose(dcf(pred, L, [0.5, 0.2]), [0.65, (0.2 * 0.25 + 0.8 * 0.4) / 0.2])


def test_act_dcf_at_the_notes_applications_by_hand():
    # t = 0 for (0.5, 1, 1): Pfn = 1/4 (-2.5), Pfp = 2/5 (1.0, 2.5)
    # t = -log 9 for (0.9, 1, 1) and (0.5, 9, 1): Pfn = 1/4, Pfp = 4/5
    # t = +log 9 for (0.1, 1, 1) and (0.5, 1, 9): Pfn = 3/4, Pfp = 1/5
    expected_u = [0.5 * 0.25 + 0.5 * 0.4, 0.9 * 0.25 + 0.1 * 0.8, 0.1 * 0.75 + 0.9 * 0.2,
                  0.5 * 0.75 + 4.5 * 0.2, 4.5 * 0.25 + 0.5 * 0.8]
    norms = [0.5, 0.1, 0.1, 0.5, 0.5]
    for (p, cfn, cfp), u, z in zip(APPLICATIONS, expected_u, norms):
        assert act_dcf(S_HAND, L_HAND, p, cfn, cfp) == pytest.approx(u / z, rel=1e-13)
        pred = optimal_bayes_decisions(S_HAND, p, cfn, cfp)
        assert dcf(pred, L_HAND, p, cfn, cfp, normalize=False) == pytest.approx(u, rel=1e-13)
    assert act_dcf(S_HAND, L_HAND, 0.5) == pytest.approx(0.65)
    assert act_dcf(S_HAND, L_HAND, 0.9) == pytest.approx(3.05)
    assert act_dcf(S_HAND, L_HAND, 0.1) == pytest.approx(2.55)
    # an array of priors goes through the sorted path and agrees
    assert np.array_equal(act_dcf(S_HAND, L_HAND, [0.5, 0.9, 0.1]),
                          [act_dcf(S_HAND, L_HAND, p) for p in (0.5, 0.9, 0.1)])


def test_applications_sharing_an_effective_prior_share_the_normalised_dcf():
    s, L = tied_data(0, shift=0.8, scale=2.0)
    for a, b in [((0.5, 1, 9), (0.1, 1, 1)), ((0.5, 9, 1), (0.9, 1, 1)),
                 ((0.2, 4, 1), (0.5, 1, 1))]:
        assert act_dcf(s, L, *a) == pytest.approx(act_dcf(s, L, *b), rel=1e-12)
        assert min_dcf(s, L, *a) == pytest.approx(min_dcf(s, L, *b), rel=1e-12)
        pa, pb = optimal_bayes_decisions(s, *a), optimal_bayes_decisions(s, *b)
        assert np.array_equal(pa, pb)
        assert dcf(pa, L, *a) == pytest.approx(dcf(pb, L, *b), rel=1e-12)


def test_min_dcf_by_hand():
    # splits of the sorted scores (Pfn, Pfp): ..., reject {-3.0, -2.5, -1.5, -0.5}: (1/4, 2/5)
    assert min_dcf(S_HAND, L_HAND, 0.5) == pytest.approx(0.65)
    val, thr = min_dcf(S_HAND, L_HAND, 0.5, return_threshold=True)
    assert thr == -0.5  # the highest rejected score: s > -0.5 accepts 0.5 and above
    # (0.9, 1, 1): accepting all but the lowest score gives Pfn 0, Pfp 4/5 -> 0.1 * 0.8 / 0.1
    assert min_dcf(S_HAND, L_HAND, 0.9) == pytest.approx(0.8)


@pytest.mark.parametrize("seed", range(6))
def test_min_dcf_equals_brute_force_scan_with_ties(seed):
    s, L = tied_data(seed, n=200 + 37 * seed, shift=0.5 + 0.3 * seed, scale=1.5)
    assert np.unique(s).size < s.size / 3  # many ties
    for p, cfn, cfp in APPLICATIONS + [(0.3, 2, 1), (0.02, 1, 1)]:
        assert min_dcf(s, L, p, cfn, cfp) == pytest.approx(
            brute_min_dcf(s, L, p, cfn, cfp), rel=1e-12)


def test_min_dcf_invariances_and_bounds():
    s, L = tied_data(7, n=400, shift=1.0, scale=2.0)
    rng = np.random.default_rng(7)
    perm = rng.permutation(s.size)
    for p, cfn, cfp in APPLICATIONS:
        ref = min_dcf(s, L, p, cfn, cfp)
        assert min_dcf(s[perm], L[perm], p, cfn, cfp) == ref  # order of the input
        assert min_dcf(3 * s + 1, L, p, cfn, cfp) == ref  # strictly increasing transforms
        assert min_dcf(np.exp(s), L, p, cfn, cfp) == ref
        assert min_dcf(np.arctan(s), L, p, cfn, cfp) == ref
        assert ref <= 1.0
        # never above 1, even for scores that point the wrong way
        assert min_dcf(-s, L, p, cfn, cfp) <= 1.0
        # all scores tied: only the data-independent systems remain
        assert min_dcf(np.zeros_like(s), L, p, cfn, cfp) == 1.0
    # separable data, with ties within each class and +-inf scores
    s_sep = np.array([-np.inf, -2.0, -2.0, 0.0, 1.0, 1.0, 3.0, np.inf])
    L_sep = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    for p, cfn, cfp in APPLICATIONS:
        assert min_dcf(s_sep, L_sep, p, cfn, cfp) == 0.0
        assert eer(s_sep, L_sep) == 0.0


def with_infinite_scores(seed, n=250):
    """Tied integer scores, some non-targets at -inf and some scores of both classes at +inf."""
    s, L = tied_data(seed, n=n, shift=0.7, scale=1.3)
    rng = np.random.default_rng(100 + seed)
    s[rng.choice(np.flatnonzero(L == 0), 3, replace=False)] = -np.inf
    s[rng.choice(np.flatnonzero(L == 0), 2, replace=False)] = np.inf
    s[rng.choice(np.flatnonzero(L == 1), 2, replace=False)] = np.inf
    return s, L


def test_min_dcf_threshold_attains_the_minimum():
    for seed in range(4):
        for s, L in (tied_data(seed, n=250, shift=0.7, scale=1.3), with_infinite_scores(seed)):
            for p, cfn, cfp in APPLICATIONS + [(0.02, 1, 1), (0.98, 1, 1)]:
                val, t = min_dcf(s, L, p, cfn, cfp, return_threshold=True)
                pred = (s > t).astype(int)
                assert dcf(pred, L, p, cfn, cfp) == val  # the same counts, the same formula
                assert val <= 1.0
                # the lowest such threshold: the next lower one costs more
                lower = s[s < t]
                if lower.size:
                    assert dcf((s > lower.max()).astype(int), L, p, cfn, cfp) > val
    # all scores tied: a data-independent system is optimal; accept all is t = -inf
    val, t = min_dcf(np.zeros(4), [0, 1, 1, 1], 0.9, return_threshold=True)
    assert val == 1.0 and t == -np.inf
    # reject all is the largest score, even +inf (the s >= t rule reported t = +inf, which
    # accepted the +inf non-target: DCF 5.5 against a reported minimum of 1)
    s, L = np.array([0.0, 0.0, 0.0, np.inf]), np.array([1, 1, 0, 0])
    val, t = min_dcf(s, L, 0.1, return_threshold=True)
    assert val == 1.0 and t == np.inf
    assert dcf((s > t).astype(int), L, 0.1) == 1.0
    assert dcf((s >= t).astype(int), L, 0.1) == pytest.approx(5.5, rel=1e-15)


def test_min_dcf_corner_case_of_a_target_scored_minus_inf():
    # targets {-inf}, non-targets {0, 1}, pi = 0.9 (a = 0.9 > b = 0.1): accepting everything
    # costs 1, every threshold rejects the -inf target and costs at least 9 (reject all)
    s, L = np.array([-np.inf, 0.0, 1.0]), np.array([1, 0, 0])
    by_threshold = [dcf((s > t).astype(int), L, 0.9) for t in (-np.inf, 0.0, 1.0)]
    assert by_threshold == pytest.approx([10.0, 9.5, 9.0], rel=1e-14)
    assert min_dcf(s, L, 0.9, return_threshold=True) == (1.0, -np.inf)
    assert min_dcf_sweep(s, L, 0.9, return_threshold=True) == (1.0, -np.inf)
    # at pi = 0.5 reject all also costs 1 and is a threshold's decision: it is returned
    assert min_dcf(s, L, 0.5, return_threshold=True) == (1.0, 1.0)
    assert min_dcf_sweep(s, L, 0.5, return_threshold=True) == (1.0, 1.0)


def reference_fast_cases(seed):
    """Score sets on which the reference and the fast minDCF / actDCF must agree: heavy ties,
    -inf and +inf scores, a target at -inf, one sample of a class, every score tied, untied
    Gaussian scores, separable classes, and scores that rank the classes the wrong way."""
    rng = np.random.default_rng(seed)
    s_tied, L_tied = tied_data(seed, n=150 + 50 * seed, shift=0.4 + 0.4 * seed, scale=1.7)
    one_target = np.zeros(60, dtype=int)
    one_target[17] = 1
    tar_minus_inf = (np.array([-np.inf, 0.0, 1.0, 1.0, 2.0, -1.0]), np.array([1, 0, 0, 1, 1, 0]))
    # accept-all (threshold -inf) and reject-all (threshold 1) both cost 1 at pi = 0.5: the
    # threshold's decision wins the tie (test_min_dcf_corner_case_of_a_target_scored_minus_inf)
    corner = (np.array([-np.inf, 0.0, 1.0]), np.array([1, 0, 0]))
    return [
        (s_tied, L_tied),
        with_infinite_scores(seed, n=120),
        (rng.normal(size=90), (rng.random(90) < 0.4).astype(int)),
        (np.round(rng.normal(size=60)), one_target),
        (np.round(rng.normal(size=60)), 1 - one_target),  # a single non-target
        (np.zeros(7), np.array([0, 1, 1, 0, 1, 0, 0])),  # every score tied
        (np.array([-np.inf, -np.inf, np.inf, np.inf]), np.array([0, 1, 0, 1])),  # only +-inf
        tar_minus_inf,
        corner,
        (np.array([-np.inf, -2.0, -2.0, 0.0, 1.0, 1.0, 3.0, np.inf]),
         np.array([0, 0, 0, 0, 1, 1, 1, 1])),  # separable
        (-s_tied, L_tied),  # the wrong way round
    ]


@pytest.mark.parametrize("seed", range(4))
def test_min_dcf_fast_equals_reference(seed):
    """min_dcf with solver="auto" (one sort, mlpr._evaluation_fast) against solver="reference"
    (the notes' loop over thresholds) and min_dcf_sweep, values and thresholds bit for bit.
    Independent tests of minDCF: test_min_dcf_by_hand (hand-made scores) and
    test_min_dcf_equals_brute_force_scan_with_ties (explicit decisions at every threshold)."""
    for s, L in reference_fast_cases(seed):
        for p, cfn, cfp in APPLICATIONS + [(0.3, 2, 1), (0.02, 1, 1), (0.97, 1, 3)]:
            fast = min_dcf(s, L, p, cfn, cfp, return_threshold=True)  # "auto", the default
            ref = min_dcf(s, L, p, cfn, cfp, return_threshold=True, solver="reference")
            assert fast == ref == min_dcf_sweep(s, L, p, cfn, cfp, return_threshold=True)
            assert fast[0] == min_dcf(s, L, p, cfn, cfp, solver="reference")
            assert fast[0] == pytest.approx(brute_min_dcf(s, L, p, cfn, cfp), rel=1e-12)
        # many priors: the same values and thresholds, prior by prior
        priors = np.linspace(0.02, 0.98, 25)
        vals, thr = min_dcf(s, L, priors, 1.5, 1.0, return_threshold=True, solver="auto")
        rvals, rthr = min_dcf(s, L, priors, 1.5, 1.0, return_threshold=True, solver="reference")
        assert vals.tolist() == rvals.tolist() and thr.tolist() == rthr.tolist()
        sweep = [min_dcf_sweep(s, L, p, 1.5, 1.0, return_threshold=True) for p in priors]
        assert vals.tolist() == [v for v, _ in sweep] and thr.tolist() == [t for _, t in sweep]


@pytest.mark.parametrize("seed", range(3))
def test_act_dcf_and_bayes_error_curve_fast_equal_reference(seed):
    """act_dcf of many priors and bayes_error_curve with solver="auto" (one sort, binary search
    of the thresholds) against solver="reference" (the decisions of each prior, one pass each),
    bit for bit. Independent tests: test_act_dcf_at_the_notes_applications_by_hand and
    test_min_dcf_by_hand (hand-made scores), test_min_dcf_equals_brute_force_scan_with_ties."""
    x = np.linspace(-4, 4, 33)  # Bayes thresholds -x: 0 and other integers among them
    priors = np.linspace(0.02, 0.98, 19)
    for s0, L in reference_fast_cases(seed):
        # integer scores at a Bayes threshold (decided 0), and scores not calibrated
        for s, cfn in ((s0, 1.0), (s0 / 2 - 0.3, 2.0)):
            fast = act_dcf(s, L, priors, cfn, 1.0)  # "auto", the default
            assert fast.tolist() == act_dcf(s, L, priors, cfn, 1.0, solver="reference").tolist()
            assert fast.tolist() == [act_dcf(s, L, p, cfn, 1.0) for p in priors]  # one prior
            a = bayes_error_curve(s, L, x)
            r = bayes_error_curve(s, L, x, solver="reference")
            assert all(u.tolist() == v.tolist() for u, v in zip(a, r))


@pytest.mark.parametrize("seed", range(3))
def test_roc_points_and_eer_fast_equal_reference(seed):
    """roc_points, det_points and eer with solver="auto" (one sort, cumulative counts) against
    solver="reference" (the decisions of each threshold counted one by one): the same points
    and thresholds and the same threshold EER bit for bit, the rocch EER to rounding (the fast
    path builds the hull from the staircase's corners only). Independent tests:
    test_roc_and_det_points_equal_explicit_decisions,
    test_eer_by_hand_threshold_versus_rocch_on_ties and
    test_eer_is_the_maximum_over_priors_of_the_minimum_bayes_error."""
    for s, L in reference_fast_cases(seed):
        for points in (roc_points, det_points):
            fast = points(s, L, return_thresholds=True)
            ref = points(s, L, return_thresholds=True, solver="reference")
            assert all(a.tolist() == b.tolist() for a, b in zip(fast, ref))
        assert eer(s, L) == eer(s, L, solver="reference")
        assert eer(s, L, "rocch") == pytest.approx(eer(s, L, "rocch", solver="reference"),
                                                   rel=1e-12, abs=1e-15)


def test_min_dcf_reference_and_fast_refuse_the_same_input():
    for solver in ("auto", "reference"):
        with pytest.raises(ValueError, match="L has no sample of class 1"):
            min_dcf([0.1, 0.2, 0.3], [0, 0, 0], 0.5, solver=solver)
        with pytest.raises(ValueError, match="llr contains NaN"):
            min_dcf([0.1, np.nan], [0, 1], 0.5, solver=solver)
    for f in (lambda: min_dcf(S_HAND, L_HAND, 0.5, solver="sweep"),
              lambda: act_dcf(S_HAND, L_HAND, [0.5], solver=None),
              lambda: bayes_error_curve(S_HAND, L_HAND, [0.0], solver="fast"),
              lambda: roc_points(S_HAND, L_HAND, solver="slow"),
              lambda: eer(S_HAND, L_HAND, "rocch", solver="sweep")):
        with pytest.raises(ValueError, match=r"solver must be one of 'auto', 'reference', got"):
            f()


def test_min_dcf_vectorised_over_priors_equals_scalar_loop():
    """Many priors in one call against one call per prior. Independent tests of minDCF:
    test_min_dcf_by_hand (hand-made scores) and test_min_dcf_equals_brute_force_scan_with_ties
    (explicit decisions at every threshold)."""
    s, L = tied_data(11, n=500, shift=1.2, scale=3.0)
    priors = np.linspace(0.01, 0.99, 57)
    vals, thr = min_dcf(s, L, priors, 2.0, 1.5, return_threshold=True)
    assert vals.shape == thr.shape == (57,)
    for p, v, t in zip(priors, vals, thr):
        v1, t1 = min_dcf(s, L, p, 2.0, 1.5, return_threshold=True)
        assert v == v1 and t == t1


def test_min_dcf_of_many_priors_does_not_depend_on_how_they_are_grouped():
    """The blocks of priors do not change a value. Independent tests of minDCF:
    test_min_dcf_by_hand (hand-made scores) and test_min_dcf_equals_brute_force_scan_with_ties
    (explicit decisions at every threshold)."""
    # 4000 priors x about 4,000 operating points: min_dcf splits the (priors x points) matrix
    # into blocks of priors; one call and calls of 97 priors (other block boundaries) must agree
    rng = np.random.default_rng(12)
    L = (rng.random(20_000) < 0.5).astype(int)
    s = rng.normal(size=L.size) + L
    priors = np.linspace(0.001, 0.999, 4000)
    vals, thr = min_dcf(s, L, priors, return_threshold=True)
    parts = [min_dcf(s, L, priors[i:i + 97], return_threshold=True) for i in range(0, 4000, 97)]
    assert np.array_equal(vals, np.concatenate([v for v, _ in parts]))
    assert np.array_equal(thr, np.concatenate([t for _, t in parts]))


def test_bayes_error_curve_equals_its_plain_reference():
    """The curve against one call per prior. Independent tests of minDCF: test_min_dcf_by_hand
    (hand-made scores) and test_min_dcf_equals_brute_force_scan_with_ties (explicit decisions at
    every threshold). Of actDCF: test_act_dcf_at_the_notes_applications_by_hand."""
    s, L = tied_data(5, n=400, shift=1.0, scale=1.7)
    s = s / 2 - 0.3  # not calibrated: actDCF > minDCF somewhere
    x = np.linspace(-4, 4, 41)
    x_out, act, mn = bayes_error_curve(s, L, x)
    assert np.array_equal(x_out, x)
    pi = 1 / (1 + np.exp(-x))
    for k, p in enumerate(pi):  # the documented reference: one call per prior
        assert mn[k] == min_dcf_sweep(s, L, p) == min_dcf(s, L, p)
        assert act[k] == act_dcf(s, L, p)
        assert mn[k] == pytest.approx(brute_min_dcf(s, L, p), rel=1e-12)
    assert np.all(mn <= act + 1e-15) and np.all(mn <= 1.0)


# ------------------------------------------------------------------------------------------------
# multiclass empirical Bayes risk


def test_empirical_bayes_risk_by_hand_and_binary_case():
    C = np.array([[0, 1, 2], [1, 0, 1], [2, 1, 0]], dtype=float)
    pi = np.array([0.5, 0.3, 0.2])
    L = np.array([0, 0, 1, 1, 1, 2])
    pred = np.array([0, 2, 1, 0, 1, 2])
    # class 0: costs (0, 2) -> mean 1; class 1: (0, 1, 0) -> 1/3; class 2: (0) -> 0
    risk = 0.5 * 1 + 0.3 / 3 + 0.2 * 0
    dummy = min(C @ pi)  # deciding 1 always: 0.5 + 0.2 = 0.7
    assert dummy == pytest.approx(0.7)
    assert empirical_bayes_risk(pred, L, pi, C, normalize=False) == pytest.approx(risk)
    assert empirical_bayes_risk(pred, L, pi, C) == pytest.approx(risk / 0.7)
    # binary: priors (1 - pi, pi), costs [[0, Cfn], [Cfp, 0]] give the DCF
    s, Lb = tied_data(2, n=120)
    pb = (s >= 0).astype(int)
    for p, cfn, cfp in APPLICATIONS:
        Cb = [[0, cfn], [cfp, 0]]
        assert empirical_bayes_risk(pb, Lb, [1 - p, p], Cb) == pytest.approx(
            dcf(pb, Lb, p, cfn, cfp), rel=1e-12)
    # uniform costs and priors: mean per-class error, normalised by 1 - 1/K
    per_class = np.mean([np.mean(pred[L == c] != c) for c in range(3)])
    assert empirical_bayes_risk(pred, L, np.ones(3) / 3, uniform_cost_matrix(3)) == pytest.approx(
        per_class / (2 / 3))


def test_bayes_decisions_minimise_the_empirical_risk_of_calibrated_posteriors():
    # with posteriors that are the true ones, Bayes decisions beat MAP decisions on average
    rng = np.random.default_rng(0)
    K, N = 3, 20000
    C = np.array([[0, 1, 10], [1, 0, 1], [10, 1, 0]], dtype=float)
    P = rng.dirichlet(np.ones(K), size=N).T
    L = (rng.random(N) > np.cumsum(P, axis=0)).sum(axis=0)  # L[n] drawn from P[:, n]
    pi = np.bincount(L, minlength=K) / N
    # weighted by the empirical class frequencies, the risk is the mean cost per sample, which
    # the Bayes decisions of the true posteriors minimise in expectation
    risk_bayes = empirical_bayes_risk(bayes_decisions(np.log(P), C), L, pi, C)
    risk_map = empirical_bayes_risk(P.argmax(axis=0), L, pi, C)
    assert risk_bayes < risk_map


# ------------------------------------------------------------------------------------------------
# ROC, DET, EER


def test_roc_and_det_points_equal_explicit_decisions():
    s, L = tied_data(3, n=60, scale=1.2)
    Pfp, Ptp, t = roc_points(s, L, return_thresholds=True)
    # decreasing thresholds: the distinct scores (s > max rejects all), then -inf (accept all)
    expected = brute_rates(s, L)[::-1]
    assert len(Pfp) == np.unique(s).size + 1
    assert np.array_equal(t, [e[2] for e in expected])
    assert np.allclose(Pfp, [e[1] for e in expected], rtol=0, atol=1e-15)
    assert np.allclose(Ptp, [1 - e[0] for e in expected], rtol=0, atol=1e-15)
    assert (Pfp[0], Ptp[0], Pfp[-1], Ptp[-1]) == (0, 0, 1, 1)
    assert np.all(np.diff(Pfp) >= 0) and np.all(np.diff(Ptp) >= 0)
    x, y = det_points(s, L)
    assert np.array_equal(x, Pfp) and np.allclose(y, 1 - Ptp, rtol=0, atol=1e-15)


def test_eer_by_hand_threshold_versus_rocch_on_ties():
    # targets {1, 1}, non-targets {0, 1}: operating points (Pfp, Pfn) = (1, 0), (1/2, 0), (0, 1).
    # The notes' EER takes the point (1/2, 0), where |Pfn - Pfp| = 1/2 is smallest, and reports
    # its mean 1/4; the hull segment from (1/2, 0) to (0, 1) crosses Pfn = Pfp at 1/3.
    s, L = np.array([1.0, 1.0, 0.0, 1.0]), np.array([1, 1, 0, 0])
    assert eer(s, L) == 0.25  # the default is the notes' definition (it was "rocch")
    assert eer(s, L, method="threshold") == 0.25
    with pytest.raises(ValueError, match="method must be 'threshold' or 'rocch', got 'raw'"):
        eer(s, L, method="raw")  # the former name of "threshold", removed
    assert eer(s, L, method="rocch") == pytest.approx(1 / 3, rel=1e-15)
    # all scores tied: 1/2 either way
    for method in ("threshold", "rocch"):
        assert eer(np.zeros(5), [0, 1, 0, 1, 1], method=method) == 0.5


def brute_eer_threshold(s, L):
    """Mean of Pfn and Pfp at the lowest threshold where |Pfn - Pfp| is smallest."""
    rates = brute_rates(s, L)  # increasing thresholds
    gaps = [abs(fn - fp) for fn, fp, _ in rates]
    fn, fp, _ = rates[int(np.argmin(gaps))]
    return 0.5 * (fn + fp)


@pytest.mark.parametrize("seed", range(5))
def test_eer_default_is_the_notes_threshold_definition(seed):
    s, L = tied_data(seed, n=80 + 20 * seed, shift=1.0, scale=1.0 + 0.5 * seed)
    for method in (None, "threshold"):  # the default and its name
        value = eer(s, L) if method is None else eer(s, L, method)
        assert value == pytest.approx(brute_eer_threshold(s, L), rel=1e-15)
    perm = np.random.default_rng(seed).permutation(s.size)
    assert eer(s[perm], L[perm]) == eer(s, L) and eer(np.exp(s), L) == eer(s, L)


def exact_max_min_bayes_error(s, L):
    """max over p of min over operating points of p Pfn + (1 - p) Pfp, by checking every
    pairwise intersection of the lines (the maximum of a concave piecewise-linear function lies
    at one of them)."""
    pts = np.array([(fn, fp) for fn, fp, _ in brute_rates(s, L)])
    a, b = pts[:, 0], pts[:, 1]
    d = a - b
    best = 0.0
    for i, k in itertools.combinations(range(len(a)), 2):
        if d[i] == d[k]:
            continue
        p = (b[k] - b[i]) / (d[i] - d[k])
        if 0 <= p <= 1:
            best = max(best, np.min(b + p * d))
    for p in (0.0, 1.0):
        best = max(best, np.min(b + p * d))
    return best


@pytest.mark.parametrize("seed", range(5))
def test_eer_is_the_maximum_over_priors_of_the_minimum_bayes_error(seed):
    s, L = tied_data(seed, n=80 + 20 * seed, shift=1.0, scale=1.0 + 0.5 * seed)
    e = eer(s, L, "rocch")
    assert e == pytest.approx(exact_max_min_bayes_error(s, L), rel=1e-12, abs=1e-15)
    # the same through min_dcf on a fine grid of priors: below the EER, and close to it
    grid = np.linspace(0.0005, 0.9995, 2000)
    bayes_err = min_dcf(s, L, grid) * np.minimum(grid, 1 - grid)
    assert bayes_err.max() <= e + 1e-12
    assert bayes_err.max() >= e - 1e-3
    # invariances; the notes' variant is a different number on tied data, within a tie group
    perm = np.random.default_rng(seed).permutation(s.size)
    assert eer(s[perm], L[perm], "rocch") == e and eer(np.exp(s), L, "rocch") == e
    assert abs(eer(s, L) - e) < 0.25


@pytest.mark.parametrize("seed", range(4))
def test_eer_rocch_is_where_the_full_hull_crosses_the_diagonal(seed):
    # eer "rocch" builds the hull from the corners of the ROC staircase only; the hull of every
    # operating point (roc_convex_hull) must cross Pfn = Pfp at the same value
    s, L = tied_data(seed, n=150 + 100 * seed, shift=0.8, scale=1.0 + seed)
    hx, hy = roc_convex_hull(s, L)
    d = hy - hx  # decreasing from 1 (reject all) to -1 (accept all)
    k = int(np.argmax(d <= 0))
    u = d[k - 1] / (d[k - 1] - d[k])  # the fraction of the segment k - 1 -> k where d = 0
    assert eer(s, L, "rocch") == pytest.approx(hy[k - 1] + u * (hy[k] - hy[k - 1]), rel=1e-14)


def test_roc_convex_hull_is_convex_and_below_every_point():
    s, L = tied_data(9, n=300, scale=2.0)
    hx, hy = roc_convex_hull(s, L)
    assert (hx[0], hy[0], hx[-1], hy[-1]) == (0, 1, 1, 0)
    dx, dy = np.diff(hx), np.diff(hy)
    assert np.all(dx * dy <= 0)  # monotone staircase direction
    assert np.all(dx[:-1] * dy[1:] - dy[:-1] * dx[1:] >= -1e-12)  # convex: left turns only
    x, y = det_points(s, L)
    assert np.all(y >= np.interp(x, hx, hy) - 1e-12)  # every operating point on or above


def test_eer_on_gaussian_scores_close_to_theory():
    rng = np.random.default_rng(0)
    n = 200_000
    s = np.concatenate([rng.normal(2.0, 1.0, n), rng.normal(0.0, 1.0, n)])
    L = np.repeat([1, 0], n)
    # EER of two unit Gaussians 2 apart: Phi(-1)
    assert eer(s, L) == pytest.approx(0.15865525393145707, abs=3e-3)
    # untied data: the variants differ only by the local non-convexity of the empirical ROC
    assert abs(eer(s, L) - eer(s, L, "rocch")) < 1e-3


# ------------------------------------------------------------------------------------------------
# Cllr and PAV


def test_cllr_values():
    assert cllr(np.zeros(7), [0, 1, 1, 0, 1, 0, 0]) == 1.0
    s = np.array([np.log(3), -np.log(3)])
    assert cllr(s, [1, 0]) == pytest.approx(np.log2(4 / 3), rel=1e-14)
    # large |llr|: no overflow, exact limits
    assert cllr([1000.0, -1000.0], [1, 0]) == 0.0
    assert cllr([-1000.0, -1000.0], [1, 0]) == pytest.approx(0.5 * 1000 / np.log(2), rel=1e-14)
    assert cllr([np.inf, -np.inf], [1, 0]) == 0.0
    assert cllr([-np.inf, -np.inf], [1, 0]) == np.inf


def test_min_cllr():
    rng = np.random.default_rng(4)
    for seed in range(4):
        s, L = tied_data(seed, n=400, scale=2.0)
        s = s / 3 + 0.2 * seed
        m = min_cllr(s, L)
        assert 0 < m <= cllr(s, L)
        # PAV is the best monotone recalibration: no affine recalibration beats it
        for a, b in rng.normal(size=(20, 2)):
            with warnings.catch_warnings():  # a tiny |a| can put every llr in [0, 1]
                warnings.simplefilter("ignore", UserWarning)
                assert m <= cllr(abs(a) * s + b, L) + 1e-12
        assert min_cllr(np.exp(s), L) == pytest.approx(m, rel=1e-12)
        # the same through pav by hand: posteriors at the empirical prior -> LLRs -> Cllr
        order = np.argsort(s, kind="stable")
        ss, ll = s[order], L[order]
        vals, inv = np.unique(ss, return_inverse=True)
        n_g = np.bincount(inv)
        t_g = np.bincount(inv, weights=ll)
        P = pav(t_g / n_g, n_g)[inv]
        with np.errstate(divide="ignore"):
            llr_cal = np.log(P) - np.log1p(-P) - np.log(L.mean() / (1 - L.mean()))
        assert m == pytest.approx(cllr(llr_cal, ll), rel=1e-10)
    # separable: 0; all tied: the uninformative 1
    assert min_cllr([0.0, 1.0, 2.0, 2.0], [0, 0, 1, 1]) == 0.0
    assert min_cllr(np.ones(6), [0, 1, 1, 0, 1, 0]) == pytest.approx(1.0, rel=1e-15)


def isotonic_min_max(y, w):
    """f_i = max_{j <= i} min_{k >= i} weighted mean of y[j..k] (the min-max formula)."""
    n = len(y)
    return np.array([max(min(np.sum(w[j:k + 1] * y[j:k + 1]) / np.sum(w[j:k + 1])
                             for k in range(i, n)) for j in range(i + 1)) for i in range(n)])


def test_pav_hand_examples():
    assert np.array_equal(pav([1.0, 3.0, 2.0, 4.0]), [1.0, 2.5, 2.5, 4.0])
    assert np.allclose(pav([3.0, 1.0], [1.0, 3.0]), [1.5, 1.5], rtol=1e-15)
    assert np.array_equal(pav([1.0, 2.0, 2.0, 5.0]), [1.0, 2.0, 2.0, 5.0])  # already monotone
    assert np.allclose(pav([3.0, 2.0, 1.0]), [2.0, 2.0, 2.0])
    assert pav([]).shape == (0,)


def test_pav_minimises_weighted_squared_error():
    rng = np.random.default_rng(0)
    for trial in range(30):
        n = int(rng.integers(1, 12))
        y = np.round(rng.normal(size=n), 1) if trial % 2 else rng.integers(0, 2, n).astype(float)
        w = rng.uniform(0.1, 3.0, n)
        f = pav(y, w)
        assert f.shape == y.shape
        assert np.all(np.diff(f) >= 0)
        assert np.allclose(f, isotonic_min_max(y, w), rtol=1e-12, atol=1e-12)
        # no monotone perturbation lowers the objective
        obj = np.sum(w * (y - f) ** 2)
        for _ in range(20):
            g = np.sort(f + rng.normal(scale=0.1, size=n))
            assert np.sum(w * (y - g) ** 2) >= obj - 1e-12


# ------------------------------------------------------------------------------------------------
# k-fold scoring


class _IndexModel:
    def scores(self, D):
        return D[0]  # the score of a sample is its own index: shows where each score goes


def test_kfold_scores_equals_manual_loop_and_keeps_the_order():
    rng = np.random.default_rng(1)
    D = rng.normal(size=(3, 47))
    L = rng.integers(0, 3, 47)
    L[:3] = [0, 1, 2]
    S = kfold_scores(train_nearest_mean, D, L, 5)
    expected = np.empty((3, 47))
    for tr, va in kfold_indices(47, 5):
        expected[:, va] = train_nearest_mean(D[:, tr], L[tr]).scores(D[:, va])
    assert np.array_equal(S, expected)
    S2 = kfold_scores(train_nearest_mean, D, L, 4, seed=3)
    expected2 = np.empty((3, 47))
    for tr, va in kfold_shuffled_indices(47, 4, np.random.default_rng(3)):
        expected2[:, va] = train_nearest_mean(D[:, tr], L[tr]).scores(D[:, va])
    assert np.array_equal(S2, expected2)
    # (N,) scores land in the original sample order, and each sample is out of fold
    Didx = np.vstack([np.arange(47.0), rng.normal(size=47)])
    seen = []

    def train(Dt, Lt):
        seen.append(set(Dt[0].astype(int).tolist()))
        return _IndexModel()

    for seed in (None, 5):
        seen.clear()
        assert np.array_equal(kfold_scores(train, Didx, L, 6, seed=seed), np.arange(47.0))
        assert len(seen) == 6 and all(len(t) < 47 for t in seen)


# ------------------------------------------------------------------------------------------------
# plots


def test_evaluation_plots(tmp_path):
    from mlpr.plots import (
        plot_bayes_error,
        plot_confusion_matrix,
        plot_det,
        plot_roc,
        save_figure,
    )

    s, L = tied_data(1, n=200, scale=3.0)
    x = np.linspace(-3, 3, 13)
    _, act, mn = bayes_error_curve(s / 3, L, x)
    figs = {
        "roc": plot_roc({"A": roc_points(s, L), "B": roc_points(-s, L)}, title="t"),
        "det": plot_det({"A": det_points(s, L)}, title="t"),
        "bayes": plot_bayes_error(x, {"A": (act, mn)}, title="t"),
        "cm": plot_confusion_matrix(confusion_matrix((s > 0).astype(int), L), ["non", "tar"]),
    }
    for name, fig in figs.items():
        assert save_figure(fig, tmp_path / f"{name}.png").stat().st_size > 0
    with pytest.raises(ValueError, match="lim"):
        plot_det({}, lim=(0.5, 0.1))
    with pytest.raises(ValueError, match="square"):
        plot_confusion_matrix(np.zeros((2, 3)))


# ------------------------------------------------------------------------------------------------
# error paths


BINARY_METRICS = [
    lambda s, L: min_dcf(s, L, 0.5),
    lambda s, L: act_dcf(s, L, 0.5),
    lambda s, L: eer(s, L),
    lambda s, L: roc_points(s, L),
    lambda s, L: det_points(s, L),
    lambda s, L: roc_convex_hull(s, L),
    lambda s, L: cllr(s, L),
    lambda s, L: min_cllr(s, L),
    lambda s, L: bayes_error_curve(s, L, [0.0]),
]


@pytest.mark.parametrize("metric", BINARY_METRICS)
def test_binary_metric_errors(metric):
    with pytest.raises(ValueError, match="L has 4 labels"):
        metric([0.1, 0.2, 0.3], [0, 1, 0, 1])
    with pytest.raises(ValueError, match="L holds label 2"):
        metric([0.1, 0.2, 0.3], [0, 1, 2])
    with pytest.raises(ValueError, match="no sample of class 1"):
        metric([0.1, 0.2, 0.3], [0, 0, 0])
    with pytest.raises(ValueError, match="no sample of class 0"):
        metric([0.1, 0.2], [1, 1])
    with pytest.raises(ValueError, match=r"NaN.*index 1"):
        metric([0.1, np.nan, 0.3], [0, 1, 1])
    with pytest.raises(ValueError, match=r"shape \(2, 3\).*S\[1\] - S\[0\]"):
        metric(np.zeros((2, 3)), [0, 1, 1])
    with pytest.raises(ValueError, match=r"ravel"):
        metric(np.zeros((3, 1)), [0, 1, 1])
    with pytest.raises(TypeError, match="numeric"):
        metric(["a", "b"], [0, 1])
    metric([-np.inf, 0.0, np.inf], [0, 1, 1])  # +-inf scores are allowed


def test_prior_and_cost_errors():
    s, L = S_HAND, L_HAND
    for f in (lambda p: min_dcf(s, L, p), lambda p: act_dcf(s, L, p),
              lambda p: optimal_bayes_decisions(s, p), lambda p: effective_prior(p),
              lambda p: bayes_threshold(p), lambda p: dcf(L, L, p)):
        for bad in (0.0, 1.0, -0.2, 1.5, np.nan):
            with pytest.raises(ValueError, match=r"prior.*\(0, 1\)"):
                f(bad)
        with pytest.raises(ValueError, match=r"prior.*\(0, 1\)"):
            f([0.5, 1.0])
    for f in (lambda c: min_dcf(s, L, 0.5, c, 1), lambda c: act_dcf(s, L, 0.5, 1, c),
              lambda c: dcf(L, L, 0.5, c), lambda c: effective_prior(0.5, 1, c),
              lambda c: optimal_bayes_decisions(s, 0.5, c)):
        for bad in (-1.0, 0, np.inf):
            with pytest.raises(ValueError, match=r"Cf[np] must be finite and > 0"):
                f(bad)
        with pytest.raises(TypeError, match=r"Cf[np] must be a real number"):
            f([1.0, 2.0])
    with pytest.raises(ValueError, match="one application at a time"):
        optimal_bayes_decisions(s, [0.5, 0.2])
    with pytest.raises(ValueError, match="1-D array of priors"):
        min_dcf(s, L, np.full((2, 2), 0.5))
    with pytest.raises(ValueError, match=r"effective prior of 0 or 1"):
        bayes_error_curve(s, L, [0.0, 40.0])
    with pytest.raises(ValueError, match="NaN or infinite"):
        bayes_error_curve(s, L, [np.inf])
    with pytest.raises(ValueError, match="1-D"):
        bayes_error_curve(s, L, np.zeros((2, 2)))


def test_decision_and_dcf_errors():
    with pytest.raises(ValueError, match="pred holds label 2"):
        dcf([0, 2, 1], [0, 1, 1], 0.5)
    with pytest.raises(ValueError, match="no sample of class 1"):
        dcf([0, 1], [0, 0], 0.5)
    with pytest.raises(ValueError, match="no sample of class 0"):
        fn_fp_rates([0, 1], [1, 1])
    with pytest.raises(ValueError, match="L has 2 labels"):
        dcf([0, 1, 1], [0, 1], 0.5)
    with pytest.raises(ValueError, match=r"M must be a \(2, 2\)"):
        binary_rates(np.eye(3))
    with pytest.raises(ValueError, match="column 1 sums to 0"):
        binary_rates([[3, 0], [1, 0]])
    with pytest.raises(ValueError, match="non-negative finite counts"):
        binary_rates([[3, -1], [1, 2]])
    with pytest.raises(ValueError, match="must be >= 2"):
        uniform_cost_matrix(1)
    with pytest.raises(ValueError, match="method must be 'threshold'"):
        eer(S_HAND, L_HAND, method="interp")


def test_multiclass_errors():
    C = uniform_cost_matrix(3)
    lp = np.log(np.full((3, 2), 1 / 3))
    with pytest.raises(ValueError, match=r"costs has shape \(2, 2\).*K = 3"):
        bayes_decisions(lp, uniform_cost_matrix(2))
    with pytest.raises(ValueError, match="square"):
        bayes_decisions(lp, np.ones((3, 2)))
    with pytest.raises(ValueError, match=r"negative entry costs\[0, 1\]"):
        bayes_decisions(lp, [[0, -1, 1], [1, 0, 1], [1, 1, 0]])
    with pytest.raises(ValueError, match="NaN or infinite"):
        expected_costs(lp, [[0, np.inf, 1], [1, 0, 1], [1, 1, 0]])
    with pytest.raises(ValueError, match="column 0 of log_posteriors"):
        bayes_decisions(np.zeros((3, 2)), C)
    with pytest.raises(ValueError, match="vcol"):
        bayes_decisions(np.log([0.2, 0.8]), uniform_cost_matrix(2))
    with pytest.raises(ValueError, match=r"NaN or \+inf"):
        bayes_decisions(np.array([[np.nan], [0.0]]), uniform_cost_matrix(2))
    pred, L = np.array([0, 1, 2]), np.array([0, 1, 2])
    with pytest.raises(ValueError, match="priors must sum to 1"):
        empirical_bayes_risk(pred, L, [0.5, 0.5, 0.5], C)
    with pytest.raises(ValueError, match=r"priors.*-0\.5"):
        empirical_bayes_risk(pred, L, [1.5, -0.5, 0.0], C)
    with pytest.raises(ValueError, match=r"priors.*K = 3"):
        empirical_bayes_risk(pred, L, [0.5, 0.5], C)
    with pytest.raises(ValueError, match="class 2 .*no sample"):
        empirical_bayes_risk([0, 1], [0, 1], [0.4, 0.4, 0.2], C)
    with pytest.raises(ValueError, match="L holds label 3"):
        empirical_bayes_risk([0, 1], [0, 3], [0.4, 0.4, 0.2], C)
    with pytest.raises(ValueError, match=r"costs has a negative entry"):
        empirical_bayes_risk(pred, L, [0.4, 0.4, 0.2], -C)
    with pytest.raises(ValueError, match="normalised risk is undefined"):
        empirical_bayes_risk(pred, L, [1.0, 0.0, 0.0], [[0, 1, 1], [1, 0, 1], [1, 1, 1]])
    # a class with zero prior needs no samples, and the unnormalised risk is always defined
    assert empirical_bayes_risk([0, 1], [0, 1], [0.5, 0.5, 0.0], C) == 0.0


def test_pav_errors():
    with pytest.raises(ValueError, match="y contains NaN or infinite"):
        pav([0.0, np.inf])
    with pytest.raises(ValueError, match="w has 1 weights"):
        pav([0.0, 1.0], [1.0])
    with pytest.raises(ValueError, match="positive weights"):
        pav([0.0, 1.0], [1.0, 0.0])
    with pytest.raises(ValueError, match="1-D"):
        pav(np.zeros((2, 2)))


def test_kfold_scores_errors():
    D = np.random.default_rng(0).normal(size=(2, 10))
    L = np.tile([0, 1], 5)
    with pytest.raises(TypeError, match="train must be a callable"):
        kfold_scores("mvg", D, L, 2)
    with pytest.raises(TypeError, match="without a scores"):
        kfold_scores(lambda D, L: object(), D, L, 2)
    with pytest.raises(ValueError, match=r"k must be <= 10"):
        kfold_scores(train_nearest_mean, D, L, 11)
    with pytest.raises(ValueError, match=r"did you mean D.T"):
        kfold_scores(train_nearest_mean, D.T, L, 2)
    with pytest.raises(ValueError, match="seed must be >= 0"):
        kfold_scores(train_nearest_mean, D, L, 2, seed=-1)

    class Bad:
        def scores(self, D):
            return np.zeros(3)

    with pytest.raises(ValueError, match=r"fold 0.*shape \(3,\)"):
        kfold_scores(lambda D, L: Bad(), D, L, 2)


# -- bad input: transposed, swapped or mistyped arguments, extreme weights ------------------------


@pytest.mark.parametrize("metric", [min_dcf, act_dcf])
def test_transposed_class_scores_and_swapped_arguments(metric):
    S = np.vstack([-S_HAND, S_HAND]).T  # (N, 2): class log-likelihoods, transposed
    with pytest.raises(ValueError, match=r"shape \(9, 2\).*S\.T"):
        metric(S, L_HAND, 0.5)
    with pytest.raises(ValueError, match="did you swap"):
        metric(L_HAND, S_HAND, 0.5)


def test_scores_passed_as_decisions():
    for f in (lambda p: dcf(p, L_HAND, 0.5), lambda p: fn_fp_rates(p, L_HAND)):
        with pytest.raises(ValueError, match="look like scores"):
            f(S_HAND)


def test_boolean_costs_and_flags_are_refused():
    # dcf(pred, L, 0.5, True) means Cfn = True, not normalize=True
    with pytest.raises(TypeError, match="Cfn.*True"):
        dcf(L_HAND, L_HAND, 0.5, True)
    with pytest.raises(TypeError, match="Cfp"):
        act_dcf(S_HAND, L_HAND, 0.5, 1.0, np.True_)
    with pytest.raises(TypeError, match="normalize.*'no'"):
        dcf(L_HAND, L_HAND, 0.5, normalize="no")
    with pytest.raises(TypeError, match="normalize.*None"):
        empirical_bayes_risk([0, 1], [0, 1], [0.5, 0.5], uniform_cost_matrix(2), normalize=None)
    with pytest.raises(TypeError, match="return_threshold"):
        min_dcf(S_HAND, L_HAND, 0.5, return_threshold="yes")
    with pytest.raises(TypeError, match="return_thresholds"):
        roc_points(S_HAND, L_HAND, 1)
    with pytest.raises(ValueError, match="method must be"):
        eer(S_HAND, L_HAND, method=np.array(["raw"]))


def test_confusion_matrix_of_labels_that_are_not_class_indices():
    with pytest.raises(ValueError, match=r"L holds label 1000000000000.*numpy\.unique"):
        confusion_matrix([0, 1], [0, 10**12])
    with pytest.raises(ValueError, match=r"pred holds label 1000000000000.*K"):
        confusion_matrix([0, 10**12], [0, 1])
    with pytest.raises(ValueError, match="K must be <= 16384"):
        confusion_matrix([0, 1], [0, 1], K=10**6)


# -- naming traps and silent results ------------------------------------------------------------


def test_confusion_matrix_does_not_grow_to_a_stray_prediction():
    # it used to return a silent 6 x 6 matrix
    with pytest.raises(ValueError, match=r"pred holds label 5.*0\.\.1"):
        confusion_matrix([0, 5], [0, 1])
    M = confusion_matrix([0, 5], [0, 1], K=6)  # a 6-class classifier: explicit K
    assert M.shape == (6, 6) and M[0, 0] == 1 and M[5, 1] == 1 and M.sum() == 2
    # a true class that is never predicted is fine without K
    assert confusion_matrix([0, 0, 1], [0, 2, 1]).tolist() == [[1, 0, 1], [0, 1, 0], [0, 0, 0]]


def test_empirical_bayes_risk_accepts_the_binary_call_of_the_labs():
    s, L = tied_data(4, n=90)
    pred = (s > 0).astype(int)
    for p, cfn, cfp in APPLICATIONS + [(0.3, 2.0, 5.0)]:
        for norm in (True, False):
            # the lab's compute_empirical_Bayes_risk(pred, L, prior, Cfn, Cfp, normalize)
            assert empirical_bayes_risk(pred, L, p, cfn, cfp, norm) == dcf(pred, L, p, cfn, cfp,
                                                                           norm)
            # and the (K, K) form of the same application
            assert empirical_bayes_risk(pred, L, [1 - p, p], [[0, cfn], [cfp, 0]],
                                        normalize=norm) == pytest.approx(
                dcf(pred, L, p, cfn, cfp, norm), rel=1e-12)
    assert empirical_bayes_risk(pred, L, 0.5, 1) == dcf(pred, L, 0.5)  # Cfp defaults to 1
    with pytest.raises(TypeError, match="Cfp"):  # normalize is a keyword in the (K, K) form
        empirical_bayes_risk(pred, L, [0.5, 0.5], uniform_cost_matrix(2), False)
    with pytest.raises(ValueError, match=r"costs must be a square.*dcf\("):
        empirical_bayes_risk(pred, L, [0.5, 0.5], [1, 1])


PROB_WARNING = r"llr lies in \[0, 1\].*probabilities"


def test_probabilities_passed_as_llrs_are_warned_about():
    rng = np.random.default_rng(0)
    L = np.repeat([0, 1], 50)
    post = 1 / (1 + np.exp(-(rng.normal(size=100) + 2 * L - 1)))  # target posteriors, pi = 1/2
    for f in (lambda s: act_dcf(s, L, 0.5), lambda s: act_dcf(s, L, [0.2, 0.5]),
              lambda s: optimal_bayes_decisions(s, 0.5), lambda s: cllr(s, L),
              lambda s: bayes_error_curve(s, L, [0.0])):
        with pytest.warns(UserWarning, match=PROB_WARNING):
            f(post)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            f(np.log(post) - np.log1p(-post))  # the remedy: llrs
    # the probabilities' actDCF is the silent 1.0 the warning is about; their llrs are fine
    with pytest.warns(UserWarning):
        assert act_dcf(post, L, 0.5) == 1.0
    assert act_dcf(np.log(post) - np.log1p(-post), L, 0.5) < 0.5
    # functions that use only the order of the scores accept probabilities silently
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert min_dcf(post, L, 0.5) == min_dcf(np.log(post) - np.log1p(-post), L, 0.5)
        eer(post, L)
        roc_points(post, L)
        cllr(np.zeros(4), [0, 1, 0, 1])  # the uninformative llrs 0 are not probabilities


def test_minus_one_plus_one_labels_get_the_mapping_hint():
    s = np.array([-1.0, 0.5, 2.0, -0.3])
    L = np.array([-1, 1, 1, -1])
    for f in (lambda: act_dcf(s, L, 0.5), lambda: min_dcf(s, L, 0.5), lambda: eer(s, L),
              lambda: dcf([0, 1, 1, 0], L, 0.5), lambda: roc_points(s, L),
              lambda: confusion_matrix([0, 1, 1, 0], L), lambda: error_rate([0, 1, 1, 0], L)):
        with pytest.raises(ValueError, match=r"-1/\+1 labels.*\(L \+ 1\) // 2"):
            f()
    assert act_dcf(s, (L + 1) // 2, 0.5) == 0.0  # the remedy


def test_empty_input_says_empty():
    for f in (lambda: act_dcf([], [], 0.5), lambda: min_dcf([], [], 0.5), lambda: eer([], []),
              lambda: dcf([], [], 0.5), lambda: roc_points([], []), lambda: cllr([], []),
              lambda: bayes_error_curve([], [], [0.0]), lambda: fn_fp_rates([], []),
              lambda: confusion_matrix([], []), lambda: error_rate([], []),
              lambda: empirical_bayes_risk([], [], 0.5, 1, 1),
              lambda: empirical_bayes_risk([], [], [0.5, 0.5], uniform_cost_matrix(2))):
        with pytest.raises(ValueError, match="empty") as info:
            f()
        assert "no target" not in str(info.value)


def test_transposed_log_posteriors():
    lp = np.log(np.array([[0.4, 0.25, 0.35], [0.1, 0.6, 0.3]]))  # (N, K): rows are posteriors
    for f in (expected_costs, bayes_decisions):
        with pytest.raises(ValueError, match=r"shape \(2, 3\).*log_posteriors\.T"):
            f(lp, uniform_cost_matrix(3))


def test_normalised_risk_needs_a_zero_diagonal():
    C = uniform_cost_matrix(3) + 0.5 * np.eye(3)  # correct decisions cost 0.5
    pred, L, pi = np.array([0, 1, 2, 1]), np.array([0, 1, 2, 2]), [0.2, 0.3, 0.5]
    with pytest.raises(ValueError, match=r"non-zero diagonal.*costs\[0, 0\]"):
        empirical_bayes_risk(pred, L, pi, C)
    # the remedy: subtracting the diagonal from each column shifts the risk by a constant
    shift = float(np.dot(pi, np.diag(C)))
    assert empirical_bayes_risk(pred, L, pi, C, normalize=False) == pytest.approx(
        empirical_bayes_risk(pred, L, pi, C - np.diag(C), normalize=False) + shift, rel=1e-12)


def test_pav_does_not_depend_on_the_scale_of_weights_and_values():
    y, w = np.array([3.0, 1.0, 2.0, 0.5, 4.0]), np.array([2.0, 1.0, 3.0, 1.0, 0.5])
    ref = pav(y, w)
    for scale in (1e308 / w.max(), 1e-320):  # products w * y overflow / underflow float64
        np.testing.assert_allclose(pav(y, w * scale), ref, rtol=1e-12)
    big = 1e308 / y.max()  # pooled sums of such values overflow float64
    np.testing.assert_allclose(pav(big * y, w), big * ref, rtol=1e-12)


def test_kfold_scores_refuses_nan_or_non_numeric_scores():
    D = np.random.default_rng(0).normal(size=(2, 10))
    L = np.tile([0, 1], 5)

    class Model:
        def __init__(self, out):
            self.out = out

        def scores(self, X):
            return np.full(X.shape[1], self.out)

    with pytest.raises(ValueError, match=r"fold 0.*NaN for 5"):
        kfold_scores(lambda D, L: Model(np.nan), D, L, 2)
    with pytest.raises(TypeError, match=r"fold 0: model.scores\(D\).*numeric"):
        kfold_scores(lambda D, L: Model("a"), D, L, 2)
    with pytest.raises(TypeError, match=r"fold 0: model.scores\(D\).*real"):
        kfold_scores(lambda D, L: Model(1j), D, L, 2)
    kfold_scores(lambda D, L: Model(-np.inf), D, L, 2)  # -inf is a score (probability 0)


@pytest.mark.skipif(not hasattr(BaseException, "add_note"), reason="exception notes: Python 3.11")
def test_kfold_scores_names_the_fold_whose_training_failed():
    D = np.random.default_rng(0).normal(size=(2, 10))
    L = np.zeros(10, int)
    L[[3, 8]] = 1  # with 5 interleaved folds, fold 3 validates both: it trains without class 1

    def train(D, L):
        if not L.any():
            raise ValueError("no sample of class 1")
        return train_nearest_mean(D, L)

    with pytest.raises(ValueError, match="no sample of class 1") as info:
        kfold_scores(train, D, L, 5)
    assert "raised by train on the training set of fold 3 of 5" in " ".join(info.value.__notes__)


def test_kfold_scores_llr_method_equals_a_loop_over_fold_models():
    from mlpr.generative import train_mvg

    rng = np.random.default_rng(3)
    L = np.repeat([0, 1], 30)
    D = rng.normal(size=(3, 60)) + L  # class 1 shifted by 1 along every feature
    expected = np.empty(60)
    for tr, va in kfold_indices(60, 4):
        expected[va] = train_mvg(D[:, tr], L[tr]).llr(D[:, va])
    got = kfold_scores(train_mvg, D, L, 4, method="llr")
    np.testing.assert_array_equal(got, expected)
    S = kfold_scores(train_mvg, D, L, 4)
    np.testing.assert_allclose(got, S[1] - S[0], rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError, match="method must be one of"):
        kfold_scores(train_mvg, D, L, 4, method="posterior")


def test_kfold_grid_search_equals_a_hand_rolled_kfold_loop():
    from mlpr.evaluation import kfold_grid_search
    from mlpr.logreg import train_logreg_binary

    rng = np.random.default_rng(4)
    L = (rng.random(90) < 0.4).astype(int)
    D = rng.normal(size=(3, 90)) + 0.8 * L

    def train(X, Y, l, prior):
        return train_logreg_binary(X, Y, l, prior)

    grid = {"l": [1e-3, 1.0], "prior": [None, 0.3]}
    search = kfold_grid_search(train, grid, D, L, 5, prior=0.2)
    assert [p for p in search.params] == [{"l": 1e-3, "prior": None}, {"l": 1e-3, "prior": 0.3},
                                          {"l": 1.0, "prior": None}, {"l": 1.0, "prior": 0.3}]
    for j, p in enumerate(search.params):
        # by hand: fold i validates samples i, i + 5, ... (the course's folds)
        s = np.empty(90)
        for i in range(5):
            va = np.arange(i, 90, 5)
            tr = np.setdiff1d(np.arange(90), va)
            s[va] = train(D[:, tr], L[tr], **p).scores(D[:, va])
        np.testing.assert_allclose(search.min_dcf[j], min_dcf_sweep(s, L, 0.2), rtol=1e-12)
        t = -np.log(0.2 / 0.8)
        pfn, pfp = np.mean(s[L == 1] <= t), np.mean(s[L == 0] > t)
        np.testing.assert_allclose(search.act_dcf[j], (0.2 * pfn + 0.8 * pfp) / 0.2,
                                   rtol=1e-12)
    assert search.best == dict(search.params[int(np.argmin(search.min_dcf))])
    assert search.rows()[0][:2] == [1e-3, None] and len(search.rows()[0]) == 4
    explicit = kfold_grid_search(train, list(search.params[:2]), D, L, 5, prior=0.2)
    np.testing.assert_array_equal(explicit.min_dcf, search.min_dcf[:2])
    with pytest.raises(ValueError, match="grid must be a dict of sequences"):
        kfold_grid_search(train, [], D, L, 5, prior=0.2)
