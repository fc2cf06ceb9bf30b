"""Tests of mlpr.calibration: linear calibration, fusion, isotonic calibration, K-fold protocol."""

import dataclasses
import warnings

import numpy as np
import pytest

from mlpr.calibration import (
    IsotonicCalibration,
    LinearCalibration,
    MulticlassCalibration,
    kfold_calibrate,
    majority_vote,
    multiclass_calibration_obj_wrap,
    train_fusion,
    train_isotonic_calibration,
    train_linear_calibration,
    train_multiclass_calibration,
)
from mlpr.evaluation import (
    act_dcf,
    bayes_decisions,
    cllr,
    empirical_bayes_risk,
    min_cllr,
    min_dcf,
    optimal_bayes_decisions,
)
from mlpr.gaussian import logpdf_GAU_ND
from mlpr.generative import log_posteriors
from mlpr.logreg import logreg_obj_wrap, train_logreg_binary, train_logreg_multiclass
from mlpr.utils import ConvergenceWarning, kfold_shuffled_indices, vrow

PRIORS = (0.1, 0.5, 0.9)


def gaussian_llrs(n1, n0, m=2.0, seed=0):
    """Scores that are calibrated llrs: class 1 ~ N(m, 2m), class 0 ~ N(-m, 2m).

    log N(s; m, 2m) - log N(s; -m, 2m) = ((s + m)^2 - (s - m)^2) / (4m) = s.
    """
    rng = np.random.default_rng(seed)
    s = np.concatenate([rng.normal(m, np.sqrt(2 * m), n1), rng.normal(-m, np.sqrt(2 * m), n0)])
    L = np.concatenate([np.ones(n1, int), np.zeros(n0, int)])
    perm = rng.permutation(n1 + n0)
    return s[perm], L[perm]


# ------------------------------------------------------------------------------------------------
# linear calibration


@pytest.mark.parametrize("prior", [0.5, 0.2])
def test_calibrated_scores_give_identity(prior):
    s, L = gaussian_llrs(60000, 40000)
    cal = train_linear_calibration(s, L, prior)
    assert cal.alpha.shape == (1,) and cal.n_systems == 1
    # population optimum alpha = 1, gamma = 0 for every target prior; ~6 standard errors
    assert abs(cal.alpha[0] - 1.0) < 0.03
    assert abs(cal.gamma) < 0.03
    assert cal.prior == prior and cal.l == 0.0


def test_affine_transform_of_scores_is_undone():
    s, L = gaussian_llrs(3000, 5000, seed=1)
    a, b = 3.5, -2.0
    c1 = train_linear_calibration(s, L, 0.3)
    c2 = train_linear_calibration(a * s + b, L, 0.3)
    np.testing.assert_allclose(c2.alpha, c1.alpha / a, rtol=1e-6)
    np.testing.assert_allclose(c2.gamma, c1.gamma - c1.alpha[0] * b / a, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(c2.scores(a * s + b), c1.scores(s), rtol=1e-6, atol=1e-6)


def test_gamma_is_lr_bias_minus_prior_log_odds():
    s, L = gaussian_llrs(500, 700, seed=2)
    for prior in PRIORS:
        cal = train_linear_calibration(s, L, prior)
        lr = train_logreg_binary(vrow(s), L, 0.0, prior=prior)
        assert cal.alpha[0] == lr.w[0] and cal.beta == lr.b
        assert cal.gamma == pytest.approx(lr.b - np.log(prior / (1 - prior)), rel=1e-12)
        np.testing.assert_allclose(cal.scores(s), lr.llr(vrow(s)), rtol=1e-12, atol=1e-12)


def test_calibration_lowers_actdcf_and_keeps_mindcf():
    s, L = gaussian_llrs(2000, 3000, seed=3)
    for a, b in [(3.0, 2.0), (0.2, -1.0), (1.0, 3.0)]:
        bad = a * s + b
        for prior in PRIORS:
            cal = train_linear_calibration(bad, L, prior)
            good = cal.scores(bad)
            assert cal.alpha[0] > 0
            # on its own training scores, at its target prior
            assert act_dcf(good, L, prior) <= act_dcf(bad, L, prior)
            assert act_dcf(good, L, prior) - min_dcf(good, L, prior) <= \
                act_dcf(bad, L, prior) - min_dcf(bad, L, prior)
            for p in PRIORS:  # a strictly increasing map: the order, hence minDCF, is unchanged
                assert min_dcf(good, L, p) == min_dcf(bad, L, p)
            assert min_cllr(good, L) == pytest.approx(min_cllr(bad, L), abs=1e-12)
            assert cllr(good, L) <= cllr(bad, L)


def test_separable_scores_warn_without_regularisation():
    s = np.array([-2.0, -1.0, -0.5, 0.5, 1.0, 2.0])
    L = np.array([0, 0, 0, 1, 1, 1])
    with pytest.warns(ConvergenceWarning):
        train_linear_calibration(s, L, 0.5)
    cal = train_linear_calibration(s, L, 0.5, l=1e-2)
    assert np.isfinite(cal.alpha[0]) and cal.alpha[0] > 0


def test_model_is_frozen():
    s, L = gaussian_llrs(50, 50)
    cal = train_linear_calibration(s, L, 0.5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        cal.gamma = 0.0
    with pytest.raises(ValueError, match="read-only"):
        cal.alpha[0] = 2.0
    assert isinstance(cal, LinearCalibration)


@pytest.mark.parametrize("train", [lambda s, L: train_linear_calibration(s, L, 0.3),
                                   lambda s, L: train_fusion([s, s ** 3], L, 0.3),
                                   train_isotonic_calibration])
def test_calibration_models_compare_and_hash_by_value(train):
    s, L = gaussian_llrs(80, 120, seed=21)
    a, b = train(s, L), train(s.copy(), L.copy())
    assert a is not b and a == b and hash(a) == hash(b)  # learners are pure
    assert len({a, b}) == 1
    c = train(s + 0.25 * (L - 0.5), L)  # different data, a different model
    assert a != c and not (a == c)
    assert a != "a model"


# ------------------------------------------------------------------------------------------------
# fusion


def test_fusion_of_one_system_is_linear_calibration():
    s, L = gaussian_llrs(400, 600, seed=4)
    cal = train_linear_calibration(2 * s + 1, L, 0.3)
    for fus in (train_fusion([2 * s + 1], L, 0.3), train_linear_calibration(vrow(2 * s + 1), L,
                                                                             0.3)):
        np.testing.assert_array_equal(fus.alpha, cal.alpha)
        assert fus.gamma == cal.gamma
        np.testing.assert_array_equal(fus.scores(2 * s + 1), cal.scores(2 * s + 1))


def test_fusion_with_noise_gives_noise_weight_zero():
    s, L = gaussian_llrs(30000, 30000, seed=5)
    noise = 10 * np.random.default_rng(6).standard_normal(s.size)
    fus = train_fusion([s, noise], L, 0.5)
    assert fus.alpha.shape == (2,) and fus.n_systems == 2
    assert abs(fus.alpha[0] - 1.0) < 0.05
    assert abs(fus.alpha[1]) < 0.003  # the noise's standard error is about 5e-4 per unit
    assert abs(fus.gamma) < 0.05


def test_fusion_is_the_prior_weighted_lr_optimum():
    s, L = gaussian_llrs(300, 500, seed=7)
    S = np.vstack([s, s ** 3 / 10 + np.random.default_rng(8).standard_normal(s.size)])
    fus = train_linear_calibration(S, L, 0.7)
    f, g = logreg_obj_wrap(S, L, 0.0, prior=0.7)(np.append(fus.alpha, fus.beta))
    assert np.abs(g).max() < 1e-6
    np.testing.assert_allclose(fus.scores(S), fus.alpha @ S + fus.beta - np.log(0.7 / 0.3),
                               rtol=1e-12, atol=1e-12)


# ------------------------------------------------------------------------------------------------
# isotonic calibration


def _naive_pav_posteriors(s, L):
    """Pool adjacent violators the slow way, on the groups of tied scores."""
    xs = np.unique(s)
    blocks = [[np.sum(L[s == x]), np.sum(s == x), [x]] for x in xs]  # targets, count, scores
    merged = True
    while merged:
        merged = False
        for i in range(len(blocks) - 1):
            if blocks[i][0] / blocks[i][1] > blocks[i + 1][0] / blocks[i + 1][1]:
                t, n, x = blocks.pop(i + 1)
                blocks[i] = [blocks[i][0] + t, blocks[i][1] + n, blocks[i][2] + x]
                merged = True
                break
    post = {x: b[0] / b[1] for b in blocks for x in b[2]}
    return np.array([post[x] for x in s])


def test_isotonic_posteriors_equal_naive_pav_with_ties():
    rng = np.random.default_rng(9)
    s = np.round(rng.normal(0, 1, 300), 1)  # many ties
    L = (rng.random(300) < 1 / (1 + np.exp(-2 * s))).astype(int)
    iso = train_isotonic_calibration(s, L)
    P = _naive_pav_posteriors(s, L)
    np.testing.assert_allclose(np.interp(s, iso.knots, iso.posterior_knots), P, atol=1e-12)
    N, nT = s.size, L.sum()
    Pc = np.clip(P, 1 / (N + 1), N / (N + 1))
    expected = np.log(Pc / (1 - Pc)) - np.log(nT / (N - nT))
    np.testing.assert_allclose(iso.scores(s), expected, rtol=1e-12, atol=1e-12)
    assert iso.prior_log_odds == pytest.approx(np.log(nT / (N - nT)), rel=1e-12)
    assert isinstance(iso, IsotonicCalibration) and iso.n == N


def test_isotonic_is_monotone_and_finite():
    s, L = gaussian_llrs(500, 400, seed=10)
    iso = train_isotonic_calibration(s ** 3, L)  # a non-linear miscalibration
    assert np.all(np.diff(iso.knots) > 0) and np.all(np.diff(iso.llr_knots) >= 0)
    x = np.sort(np.random.default_rng(11).normal(0, 20, 2000))
    y = iso.scores(x)
    assert np.all(np.isfinite(y)) and np.all(np.diff(y) >= 0)
    N = s.size
    assert iso.llr_knots[0] == pytest.approx(np.log(1 / N) - iso.prior_log_odds, rel=1e-12)
    assert iso.llr_knots[-1] == pytest.approx(np.log(N) - iso.prior_log_odds, rel=1e-12)


def test_isotonic_cllr_is_min_cllr_without_clipping():
    s, L = gaussian_llrs(300, 500, seed=12)
    s = np.append(s, [s.min() - 1, s.max() + 1])  # a target at the bottom, a non-target on top
    L = np.append(L, [1, 0])
    iso = train_isotonic_calibration(s, L)
    assert 0 < iso.posterior_knots.min() and iso.posterior_knots.max() < 1
    assert cllr(iso.scores(s), L) == pytest.approx(min_cllr(s, L), rel=1e-10)


def test_isotonic_cllr_with_clipping_and_optimal_decisions():
    s, L = gaussian_llrs(700, 300, seed=13)
    s = 2 * s - 1
    iso = train_isotonic_calibration(s, L)
    llr = iso.scores(s)
    N, nT = s.size, L.sum()
    nF = N - nT
    gap = cllr(llr, L) - min_cllr(s, L)
    assert 0 <= gap <= (nT / nF + nF / nT) / (2 * N * np.log(2))  # the cost of the clipped ends
    lin = train_linear_calibration(s, L, 0.5)
    assert cllr(llr, L) <= cllr(lin.scores(s), L) + 1e-3
    # PAV posteriors are optimal for every application: Bayes decisions reach minDCF
    for p in PRIORS:
        assert act_dcf(llr, L, p) == pytest.approx(min_dcf(s, L, p), abs=1e-12)


# ------------------------------------------------------------------------------------------------
# K-fold protocol


@pytest.mark.parametrize("method", ["linear", "isotonic"])
def test_kfold_calibrate_matches_manual_loop(method):
    s, L = gaussian_llrs(300, 200, seed=14)
    s = 0.5 * s + 1
    out, final = kfold_calibrate(s, L, 0.4, k=4, seed=3, method=method)
    expected = np.full(s.size, np.nan)
    for tr, va in kfold_shuffled_indices(s.size, 4, np.random.default_rng(3)):
        if method == "linear":
            cal = train_linear_calibration(s[tr], L[tr], 0.4)
        else:
            cal = train_isotonic_calibration(s[tr], L[tr])
        expected[va] = cal.scores(s[va])
    np.testing.assert_array_equal(out, expected)
    full = (train_linear_calibration(s, L, 0.4) if method == "linear"
            else train_isotonic_calibration(s, L))
    for f in dataclasses.fields(full):
        np.testing.assert_array_equal(getattr(final, f.name), getattr(full, f.name))


def test_kfold_calibrate_fusion_and_defaults():
    s, L = gaussian_llrs(200, 200, seed=15)
    S = np.vstack([s, -0.5 * s + np.random.default_rng(16).standard_normal(s.size)])
    out, final = kfold_calibrate(S, L, 0.5)
    expected = np.empty(s.size)
    for tr, va in kfold_shuffled_indices(s.size, 5, np.random.default_rng(0)):
        expected[va] = train_linear_calibration(S[:, tr], L[tr], 0.5).scores(S[:, va])
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(final.alpha, train_linear_calibration(S, L, 0.5).alpha)
    # the second system alone ranks the classes the wrong way: a negative alpha turns it round
    assert kfold_calibrate(S[1], L, 0.5)[1].alpha[0] < 0


# ------------------------------------------------------------------------------------------------
# error paths


def test_errors_prior_and_lambda():
    s, L = gaussian_llrs(20, 20)
    for p in (0.0, 1.0, -0.1, 1.5, float("nan")):
        with pytest.raises(ValueError, match=r"prior.*\(0, 1\)"):
            train_linear_calibration(s, L, p)
        with pytest.raises(ValueError, match=r"prior.*\(0, 1\)"):
            kfold_calibrate(s, L, p)
    with pytest.raises(TypeError, match="prior"):
        train_linear_calibration(s, L, True)
    with pytest.raises(TypeError, match="prior"):
        train_linear_calibration(s, L, None)
    with pytest.raises(ValueError, match="lambda"):
        train_linear_calibration(s, L, 0.5, l=-1.0)
    with pytest.raises(ValueError, match="lambda"):
        kfold_calibrate(s, L, 0.5, l=np.inf)


def test_errors_scores_and_labels():
    s, L = gaussian_llrs(20, 20)
    for train in (lambda a, b: train_linear_calibration(a, b, 0.5), train_isotonic_calibration,
                  lambda a, b: kfold_calibrate(a, b, 0.5)):
        with pytest.raises(ValueError, match="39 labels"):
            train(s, L[:-1])
        with pytest.raises(ValueError, match="no sample of class 0"):
            train(s, np.ones(40, int))
        with pytest.raises(ValueError, match="no sample of class 1"):
            train(s, np.zeros(40, int))
        with pytest.raises(ValueError, match="label 2"):
            train(s, np.where(L == 1, 2, 0))
        with pytest.raises(ValueError, match="NaN or infinite"):
            train(np.where(L == 1, np.inf, s), L)
        with pytest.raises(ValueError, match="expected"):
            train(np.zeros((2, 2, 40)), L)
        with pytest.raises(TypeError, match="numeric"):
            train(["a"] * 40, L)


def test_errors_transposed_and_wrong_m():
    s, L = gaussian_llrs(20, 20)
    S = np.vstack([s, s ** 2])
    with pytest.raises(ValueError, match=r"did you mean S\.T\?"):
        train_linear_calibration(S.T, L, 0.5)
    fus = train_linear_calibration(S, L, 0.5)
    with pytest.raises(ValueError, match=r"shape \(40, 2\).*did you mean S\.T\?"):
        fus.scores(S.T)
    with pytest.raises(ValueError, match="1 systems.*trained on 2"):
        fus.scores(s)
    with pytest.raises(ValueError, match="3 systems.*trained on 2"):
        fus.scores(np.vstack([S, s]))
    cal = train_linear_calibration(s, L, 0.5)
    with pytest.raises(ValueError, match="2 systems.*trained on 1"):
        cal.scores(S)
    with pytest.raises(ValueError, match=r"did you mean S\.T\?"):
        cal.scores(s.reshape(-1, 1))
    np.testing.assert_array_equal(cal.scores(vrow(s)), cal.scores(s))
    iso = train_isotonic_calibration(s, L)
    with pytest.raises(ValueError, match="2 systems.*trained on 1"):
        iso.scores(S)
    with pytest.raises(ValueError, match="no scores"):
        cal.scores(np.zeros(0))


def test_errors_method_fusion_and_isotonic_inputs():
    s, L = gaussian_llrs(20, 20)
    S = np.vstack([s, -s])
    with pytest.raises(ValueError, match="method must be one of"):
        kfold_calibrate(s, L, 0.5, method="platt")
    with pytest.raises(ValueError, match=r"scores has shape \(2, 40\)"):
        kfold_calibrate(S, L, 0.5, method="isotonic")
    with pytest.raises(ValueError, match=r"s has shape \(2, 40\)"):
        train_isotonic_calibration(S, L)
    with pytest.raises(ValueError, match="k must be <= 40"):
        kfold_calibrate(s, L, 0.5, k=41)
    with pytest.raises(ValueError, match="seed must be >= 0"):
        kfold_calibrate(s, L, 0.5, seed=-1)
    with pytest.raises(TypeError, match="list or tuple"):
        train_fusion(S, L, 0.5)
    with pytest.raises(ValueError, match="empty"):
        train_fusion([], L, 0.5)
    with pytest.raises(ValueError, match=r"scores\[1\] has shape \(39,\)"):
        train_fusion([s, s[:-1]], L, 0.5)


# ------------------------------------------------------------------------------------------------
# bad input: scale, swapped arguments, argument names, folds without a class


def test_scores_whose_products_overflow():
    s, L = gaussian_llrs(20, 20)
    with pytest.raises(ValueError, match=r"S has values up to [\d.]+e\+200.*overflow"):
        train_linear_calibration(s * 1e200, L, 0.5)
    with pytest.raises(ValueError, match=r"scores has values up to [\d.]+e\+200.*overflow"):
        kfold_calibrate(s * 1e200, L, 0.5)
    iso = train_isotonic_calibration(s * 1e200, L)  # only the order matters to isotonic
    np.testing.assert_array_equal(iso.scores(s * 1e200), train_isotonic_calibration(s, L).scores(s))


def test_minus_one_plus_one_labels_and_empty_input():
    s, L = gaussian_llrs(20, 20)
    for train in (lambda a, b: train_linear_calibration(a, b, 0.5), train_isotonic_calibration,
                  lambda a, b: kfold_calibrate(a, b)):
        with pytest.raises(ValueError, match=r"-1/\+1 labels.*\(L \+ 1\) // 2"):
            train(s, 2 * L - 1)
        with pytest.raises(ValueError, match="empty"):
            train([], [])


def test_swapped_scores_and_labels():
    s, L = gaussian_llrs(20, 20)
    for train in (lambda a, b: train_linear_calibration(a, b, 0.5), train_isotonic_calibration,
                  lambda a, b: kfold_calibrate(a, b)):
        with pytest.raises(ValueError, match="did you swap"):
            train(L, s)


def test_errors_name_the_argument():
    s, L = gaussian_llrs(20, 20)
    with pytest.raises(ValueError, match=r"s has shape \(40, 1\).*s\.T"):
        train_isotonic_calibration(s.reshape(-1, 1), L)
    with pytest.raises(ValueError, match=r"scores has shape \(40, 2\).*scores\.T"):
        kfold_calibrate(np.vstack([s, -s]).T, L)
    with pytest.raises(ValueError, match=r"scores\[1\] contains NaN"):
        train_fusion([s, np.where(L == 1, np.nan, s)], L, 0.5)
    with pytest.raises(ValueError, match=r"scores\[0\] has shape \(1, 40\)"):
        train_fusion([s[None], s[None]], L, 0.5)
    with pytest.raises(ValueError, match="method must be one of"):
        kfold_calibrate(s, L, method=np.array(["linear"]))


@pytest.mark.parametrize("method", ["linear", "isotonic"])
def test_kfold_calibrate_fold_without_a_class(method):
    s = np.linspace(-1.0, 1.0, 20)
    L = np.zeros(20, int)
    L[[3, 4]] = 1
    # with seed 1, one validation fold holds both targets: the other 9 folds have none
    with pytest.raises(ValueError, match=r"fold \d.*no sample of class 1.*fewer folds k"):
        kfold_calibrate(s, L, k=10, seed=1, method=method)
    L1 = np.zeros(20, int)
    L1[3] = 1
    with pytest.raises(ValueError, match="at least 2 samples of each class"):
        kfold_calibrate(s, L1, k=2, method=method)


# ------------------------------------------------------------------------------------------------
# multiclass calibration

MEANS = [np.array([[0.0], [0.0]]), np.array([[2.0], [0.0]]), np.array([[0.0], [2.0]])]
COV = np.array([[1.0, 0.3], [0.3, 1.0]])
KINDS = ("scalar", "diagonal", "full")


def gaussian_class_loglik(n_per_class, seed):
    """Exact class log-likelihoods (3, N) of samples of three known 2-D Gaussians: calibrated
    scores by construction."""
    rng = np.random.default_rng(seed)
    n = np.atleast_1d(n_per_class) * np.ones(3, int)
    D = np.hstack([rng.multivariate_normal(m.ravel(), COV, k).T for m, k in zip(MEANS, n)])
    L = np.repeat(np.arange(3), n)
    return np.vstack([logpdf_GAU_ND(D, m, COV) for m in MEANS]), L


@pytest.mark.parametrize("kind, priors", [("scalar", [0.2, 0.3, 0.5]), ("diagonal", None),
                                          ("full", [0.2, 0.3, 0.5])])
def test_multiclass_calibration_of_calibrated_scores_is_identity(kind, priors):
    """The population optimum is A = I, gamma = 0 for every target prior (proper scoring rule).

    60,000 samples put it within a few standard errors; each kind once and each prior setting
    at least once: the priors weight the samples' losses (xi) the same way whatever the kind
    parametrises, so the rest of the product adds nothing but time. The fields' relations for
    every kind and prior: test_multiclass_calibration_fields."""
    S, L = gaussian_class_loglik(20000, seed=0)
    cal = train_multiclass_calibration(S, L, kind=kind, priors=priors)
    np.testing.assert_allclose(cal.A, np.eye(3), atol=0.03)
    np.testing.assert_allclose(cal.gamma, 0.0, atol=0.05)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("priors", [None, [0.2, 0.3, 0.5]])
def test_multiclass_calibration_fields(kind, priors):
    S, L = gaussian_class_loglik(200, seed=0)
    cal = train_multiclass_calibration(S, L, kind=kind, priors=priors)
    assert isinstance(cal, MulticlassCalibration) and cal.kind == kind
    assert cal.A.shape == (3, 3) and cal.gamma.shape == (3,) and cal.n_classes == 3
    assert cal.gamma.sum() == pytest.approx(0.0, abs=1e-12)
    expected = np.full(3, 1 / 3) if priors is None else priors
    np.testing.assert_allclose(cal.priors, expected, rtol=1e-12)
    np.testing.assert_allclose(cal.b, cal.gamma + np.log(cal.priors), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(cal.transform(S), cal.A @ S + cal.gamma[:, None], rtol=1e-12)
    np.testing.assert_array_equal(cal.scores(S), cal.transform(S))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("l", [0.0, 0.1])
def test_multiclass_calibration_gradient_against_finite_differences(kind, l):
    S, L = gaussian_class_loglik([30, 20, 40], seed=1)
    fg = multiclass_calibration_obj_wrap(2.0 * S + 1.0, L, l=l, priors=[0.5, 0.2, 0.3], kind=kind)
    P = {"scalar": 1, "diagonal": 3, "full": 9}[kind] + 3
    theta = np.random.default_rng(2).normal(0.0, 0.5, P)
    f, g = fg(theta)
    h = 1e-6
    num = np.array([(fg(theta + h * e)[0] - fg(theta - h * e)[0]) / (2 * h) for e in np.eye(P)])
    np.testing.assert_allclose(g, num, rtol=1e-6, atol=1e-8)
    assert f > 0


def test_multiclass_objective_by_hand():
    # two samples, K = 2, scalar map theta = [alpha, b0, b1], empirical priors (weights 1/2)
    S = np.array([[1.0, 0.0], [0.0, 2.0]])
    L = np.array([0, 1])
    f, _ = multiclass_calibration_obj_wrap(S, L, kind="scalar")(np.array([1.0, 0.0, 0.0]))
    # z_0 = (1, 0): -log(e / (e + 1)); z_1 = (0, 2): -log(e^2 / (1 + e^2))
    expected = 0.5 * (np.log1p(np.exp(-1.0)) + np.log1p(np.exp(-2.0)))
    assert f == pytest.approx(expected, rel=1e-14)
    f, _ = multiclass_calibration_obj_wrap(S, L, kind="scalar", l=0.5)(np.array([2.0, 0, 0]))
    assert f == pytest.approx(0.5 * (np.log1p(np.exp(-2.0)) + np.log1p(np.exp(-4.0))) + 0.25 * 4,
                              rel=1e-14)


@pytest.mark.parametrize("kind", KINDS)
def test_multiclass_calibration_is_the_minimiser(kind):
    S, L = gaussian_class_loglik([300, 200, 250], seed=3)
    S = 3.0 * S + np.array([[2.0], [0.0], [-1.0]])
    cal = train_multiclass_calibration(S, L, kind=kind, l=1e-3, priors=[0.3, 0.3, 0.4])
    fg = multiclass_calibration_obj_wrap(S, L, kind=kind, l=1e-3, priors=[0.3, 0.3, 0.4])
    params = {"scalar": cal.A[:1, 0], "diagonal": np.diag(cal.A), "full": cal.A.ravel()}[kind]
    f, g = fg(np.concatenate([params, cal.b]))
    assert f == pytest.approx(cal.objective, rel=1e-12)
    assert np.abs(g).max() < 1e-6


def test_binary_scalar_calibration_is_linear_calibration_of_the_llr():
    s, L = gaussian_llrs(400, 600, seed=4)
    rng = np.random.default_rng(5)
    base = rng.normal(0.0, 3.0, s.size)  # any common part of the two log-likelihoods
    S = np.vstack([base, base + 2.5 * s - 1.0])  # miscalibrated llr 2.5 s - 1
    for prior, l in [(0.5, 0.0), (0.2, 0.0), (0.7, 0.05)]:
        multi = train_multiclass_calibration(S, L, kind="scalar", l=l, priors=[1 - prior, prior])
        lin = train_linear_calibration(S[1] - S[0], L, prior, l=l)
        assert multi.A[0, 0] == pytest.approx(lin.alpha[0], rel=1e-6)
        Sc = multi.transform(S)
        np.testing.assert_allclose(Sc[1] - Sc[0], lin.scores(S[1] - S[0]), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("l", [0.0, 0.01])
def test_full_calibration_without_priors_is_multiclass_logistic_regression(l):
    S, L = gaussian_class_loglik([200, 300, 250], seed=6)
    S = 0.5 * S + np.array([[1.0], [0.0], [0.5]])
    cal = train_multiclass_calibration(S, L, kind="full", l=l)
    lr = train_logreg_multiclass(S, L, l)
    # the same objective (mean cross-entropy, lambda / 2 |W|^2 at its least-norm representative)
    assert cal.objective == pytest.approx(lr.objective, rel=1e-9)
    np.testing.assert_allclose(log_posteriors(cal.transform(S), cal.priors),
                               lr.log_posteriors(S), atol=1e-6)
    np.testing.assert_allclose(cal.A.sum(axis=0), 1.0, rtol=1e-12)  # the representative


def test_multiclass_calibration_lowers_the_held_out_bayes_risk():
    S, L = gaussian_class_loglik([400, 400, 400], seed=7)

    def bad(X):
        return 3.0 * X + np.array([[2.0], [0.0], [-2.0]])  # over-confident, biased

    St, Lt = gaussian_class_loglik([3000, 3000, 3000], seed=8)
    costs = np.array([[0.0, 1.0, 4.0], [2.0, 0.0, 1.0], [1.0, 3.0, 0.0]])
    for priors in ([1 / 3, 1 / 3, 1 / 3], [0.6, 0.3, 0.1], [0.1, 0.2, 0.7]):
        raw = empirical_bayes_risk(bayes_decisions(log_posteriors(bad(St), priors), costs), Lt,
                                   priors, costs)
        ideal = empirical_bayes_risk(bayes_decisions(log_posteriors(St, priors), costs), Lt,
                                     priors, costs)
        for kind in KINDS:
            cal = train_multiclass_calibration(bad(S), L, kind=kind)
            risk = empirical_bayes_risk(
                bayes_decisions(log_posteriors(cal.transform(bad(St)), priors), costs), Lt,
                priors, costs)
            assert risk <= raw
            assert risk <= ideal + 0.02  # close to the decisions of the true posteriors


def test_multiclass_scalar_calibration_ignores_a_shift_per_sample():
    S, L = gaussian_class_loglik([100, 150, 120], seed=9)
    shift = np.random.default_rng(10).normal(0.0, 10.0, S.shape[1])
    a = train_multiclass_calibration(S, L, kind="scalar")
    b = train_multiclass_calibration(S + shift, L, kind="scalar")
    assert b.A[0, 0] == pytest.approx(a.A[0, 0], rel=1e-6)
    np.testing.assert_allclose(b.gamma, a.gamma, atol=1e-6)


def test_multiclass_calibration_model_is_a_value():
    S, L = gaussian_class_loglik([50, 60, 70], seed=11)
    a = train_multiclass_calibration(S, L, kind="diagonal")
    b = train_multiclass_calibration(S.copy(), L.copy(), kind="diagonal")
    assert a == b and hash(a) == hash(b)
    assert a != train_multiclass_calibration(S, L, kind="scalar")
    assert train_multiclass_calibration(S, L, 0.1, [0.2, 0.3, 0.5], "scalar") == \
        train_multiclass_calibration(S, L, kind="scalar", priors=[0.2, 0.3, 0.5], l=0.1)
    with pytest.raises(ValueError, match="read-only"):
        a.A[0, 0] = 2.0
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.kind = "full"


def test_multiclass_calibration_separable_warns():
    S = np.array([[3.0, 0.0, 0.0, 2.0, 0.0, 0.0], [0.0, 3.0, 0.0, 0.0, 2.0, 0.0],
                  [0.0, 0.0, 3.0, 0.0, 0.0, 2.0]])
    L = np.array([0, 1, 2, 0, 1, 2])
    with pytest.warns(ConvergenceWarning, match="no minimiser"):
        train_multiclass_calibration(S, L, kind="scalar")
    cal = train_multiclass_calibration(S, L, kind="scalar", l=0.1)
    assert np.all(np.isfinite(cal.A)) and cal.A[0, 0] > 0


def test_multiclass_calibration_iteration_limit_warns():
    S, L = gaussian_class_loglik([100, 100, 100], seed=12)
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        train_multiclass_calibration(3.0 * S, L, kind="full", max_iter=1)


def test_multiclass_calibration_errors():
    S, L = gaussian_class_loglik([5, 6, 7], seed=13)
    with pytest.raises(ValueError, match=r"did you mean S\.T"):
        train_multiclass_calibration(S.T, L)
    with pytest.raises(ValueError, match="18 labels"):
        train_multiclass_calibration(S[:, :10], L)
    with pytest.raises(ValueError, match="K >= 2"):
        train_multiclass_calibration(S[:1], np.zeros(18, int))
    with pytest.raises(ValueError, match="no sample of class 1"):
        train_multiclass_calibration(S, np.where(L == 1, 0, L))
    with pytest.raises(ValueError, match="label 3"):
        train_multiclass_calibration(S, np.where(L == 2, 3, L))
    with pytest.raises(ValueError, match="kind must be one of"):
        train_multiclass_calibration(S, L, kind="affine")
    with pytest.raises(ValueError, match="l \\(lambda"):
        train_multiclass_calibration(S, L, l=-1.0)
    with pytest.raises(ValueError, match="priors must be positive"):
        train_multiclass_calibration(S, L, priors=[0.5, 0.5, 0.0])
    with pytest.raises(ValueError, match="sum to 1"):
        train_multiclass_calibration(S, L, priors=[0.5, 0.5, 0.5])
    with pytest.raises(ValueError, match="NaN or infinite"):
        train_multiclass_calibration(np.where(S > S.max() - 1e-9, np.inf * -1, S), L)
    with pytest.raises(ValueError, match="must be a \\(K, N\\) matrix"):
        train_multiclass_calibration(S[0], L)
    with pytest.raises(TypeError, match="tol must be a real"):
        train_multiclass_calibration(S, L, tol="small")
    with pytest.raises(ValueError, match="max_iter must be >= 1"):
        train_multiclass_calibration(S, L, max_iter=0)
    cal = train_multiclass_calibration(S, L, kind="scalar", l=0.1)
    with pytest.raises(ValueError, match=r"did you mean S\.T"):
        cal.transform(S.T)
    with pytest.raises(ValueError, match="trained on K = 3"):
        cal.transform(S[:2])
    fg = multiclass_calibration_obj_wrap(S, L, kind="diagonal")
    with pytest.raises(ValueError, match=r"theta has shape \(5,\), expected \(6,\)"):
        fg(np.zeros(5))


# ------------------------------------------------------------------------------------------------
# majority voting against fusion (section 7.4)


def test_notes_voting_example():
    # the notes' two samples: three systems' llrs (-5, -4, 3) and (0.1, 0.1, -99)
    S = np.array([[-5.0, 0.1], [-4.0, 0.1], [3.0, -99.0]])
    decisions = np.vstack([optimal_bayes_decisions(s, 0.5) for s in S])  # s > 0: class 1
    np.testing.assert_array_equal(decisions, [[0, 1], [0, 1], [1, 0]])
    vote = majority_vote(decisions)
    np.testing.assert_array_equal(vote, [0, 1])  # voting: the second sample is a target
    fused = S.sum(axis=0)  # fusion of calibrated llrs with alpha = 1, gamma = 0
    np.testing.assert_allclose(fused, [-6.0, -98.8], rtol=1e-15)
    np.testing.assert_array_equal(optimal_bayes_decisions(fused, 0.5), [0, 0])
    # voting ranks the second sample above the first, the fused score far below
    assert decisions[:, 1].sum() > decisions[:, 0].sum() and fused[1] < fused[0]


def test_majority_vote_ties_and_classes():
    # binary, M = 2: an even split goes to class 0 (a vote margin of 0 is not > 0)
    np.testing.assert_array_equal(majority_vote([[0, 1, 1, 0], [1, 0, 1, 0]]), [0, 0, 1, 0])
    # three classes: plurality, ties to the lowest class
    d = np.array([[2, 0, 1, 2], [2, 1, 2, 1], [0, 2, 1, 0]])
    np.testing.assert_array_equal(majority_vote(d), [2, 0, 1, 0])
    # booleans, one system, K larger than the decisions
    np.testing.assert_array_equal(majority_vote(np.array([[True, False]])), [1, 0])
    np.testing.assert_array_equal(majority_vote([[1, 1], [1, 0]], K=5), [1, 0])
    # against a brute-force count on random decisions
    rng = np.random.default_rng(14)
    d = rng.integers(0, 4, size=(5, 200))
    counts = np.array([[np.sum(d[:, n] == k) for k in range(4)] for n in range(200)])
    expected = [int(np.flatnonzero(c == c.max())[0]) for c in counts]
    np.testing.assert_array_equal(majority_vote(d), expected)
    assert majority_vote(d).dtype == np.int64


def test_majority_vote_errors():
    with pytest.raises(ValueError, match=r"decisions has shape \(3,\).*decisions\[:, None\]"):
        majority_vote([0, 1, 1])
    with pytest.raises(ValueError, match="at least one system"):
        majority_vote(np.zeros((0, 4), int))
    with pytest.raises(ValueError, match=r"\(L \+ 1\) // 2|decisions \+ 1"):
        majority_vote([[-1, 1], [1, 1]])
    with pytest.raises(ValueError, match="non-integer"):
        majority_vote([[0.5, 1.0]])
    with pytest.raises(ValueError, match="K must be >= 3"):
        majority_vote([[0, 2]], K=2)
    with pytest.raises(TypeError, match="decisions must"):
        majority_vote([["a", "b"]])


def test_majority_vote_explains_a_transposed_matrix():
    votes = np.random.default_rng(15).integers(0, 2, size=(30, 3))  # 30 samples x 3 systems
    with pytest.warns(UserWarning, match=r"shape \(30, 3\): 30 systems voting on 3 samples.*"
                                         r"decisions\.T"):
        wrong = majority_vote(votes)
    assert wrong.shape == (3,)
    expected = (votes.sum(axis=1) >= 2).astype(int)  # 2 of 3 systems, counted by hand
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(majority_vote(votes.T), expected)  # silent
        majority_vote(np.ones((3, 2), int))  # the notes' 3 systems on 2 samples: silent
