"""Tests of mlpr.generative: expected values come from independent routes (scipy.stats densities,
numpy.cov, explicit inverses on tiny problems, hand counts, the course's published iris numbers)."""

from fractions import Fraction

import numpy as np
import pytest
import scipy.stats
from exact_arithmetic import assert_exact, exact_class_scatters, offset_classes

from mlpr.datasets import load_iris
from mlpr.dimred import compute_Sw_Sb, fit_lda
from mlpr.gaussian import logpdf_GAU_ND
from mlpr.generative import (
    BernoulliNaiveBayes,
    CategoricalNaiveBayes,
    GaussianClassifier,
    MultinomialNaiveBayes,
    combine_naive_scores,
    floor_covariance,
    llr,
    log_joint,
    log_posteriors,
    map_decisions,
    ml_class_priors,
    multinomial_binary_llr_weights,
    mvg_binary_llr_coefficients,
    tied_binary_llr_coefficients,
    tied_linear_discriminants,
    train_bernoulli_nb,
    train_categorical_nb,
    train_multinomial_nb,
    train_mvg,
    train_naive_bayes,
    train_tied,
    train_tied_naive,
    uniform_priors,
)
from mlpr.utils import leave_one_out_indices, split_db_2to1, vcol

RTOL = 1e-10
TRAINERS = {
    "mvg": train_mvg,
    "naive": train_naive_bayes,
    "tied": train_tied,
    "tied_naive": train_tied_naive,
}


# -- data ----------------------------------------------------------------------------------------


def _labelled(seed=0, nfeat=4, K=3, n=(30, 40, 50), offset=3.0):
    """Gaussian classes with different means and covariances, labels interleaved."""
    rng = np.random.default_rng(seed)
    blocks, labels = [], []
    for k in range(K):
        A = rng.standard_normal((nfeat, nfeat))
        shift = offset * rng.standard_normal((nfeat, 1))
        blocks.append(A @ rng.standard_normal((nfeat, n[k])) + shift)
        labels.append(np.full(n[k], k))
    D, L = np.hstack(blocks), np.concatenate(labels)
    perm = rng.permutation(L.size)
    return D[:, perm], L[perm]


def _test_points(seed=1, nfeat=4, N=25):
    return 2.0 * np.random.default_rng(seed).standard_normal((nfeat, N))


def _class_mean_cov(D, L, k, ddof=0):
    Dk = D[:, L == k]
    return Dk.mean(axis=1), np.cov(Dk, ddof=ddof)


def _confusion(pred, L, K):
    """Rows: predicted class, columns: true class."""
    M = np.zeros((K, K), dtype=int)
    np.add.at(M, (pred, L), 1)
    return M


def _assert_rel(a, b, rtol=RTOL):
    """|a - b| <= rtol * max|b| elementwise: relative to the scale of the whole array."""
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape
    scale = max(np.abs(b).max(), 1.0)
    np.testing.assert_allclose(a, b, rtol=0, atol=rtol * scale)


# -- Gaussian models: parameters -----------------------------------------------------------------


def test_mvg_parameters_are_the_per_class_ml_estimates():
    D, L = _labelled()
    m = train_mvg(D, L)
    assert isinstance(m, GaussianClassifier) and m.kind == "mvg"
    assert m.mu.shape == (4, 3) and m.C.shape == (3, 4, 4)
    for k in range(3):
        mu, C = _class_mean_cov(D, L, k)
        _assert_rel(m.mu[:, k], mu)
        _assert_rel(m.C[k], C)
        assert np.array_equal(m.covariance(k), m.C[k])


def test_mvg_unbiased_uses_n_minus_one():
    D, L = _labelled()
    m = train_mvg(D, L, unbiased=True)
    for k in range(3):
        _assert_rel(m.C[k], _class_mean_cov(D, L, k, ddof=1)[1])


def test_naive_covariances_are_the_diagonals_of_the_mvg_ones():
    D, L = _labelled()
    m = train_naive_bayes(D, L)
    assert m.C.shape == (3, 4)  # the variances, as the notes store them
    for k in range(3):
        var = D[:, L == k].var(axis=1)
        _assert_rel(m.C[k], var)
        _assert_rel(m.covariance(k), np.diag(var))
    mu = train_naive_bayes(D, L, unbiased=True)
    for k in range(3):
        _assert_rel(mu.C[k], D[:, L == k].var(axis=1, ddof=1))


def test_tied_covariance_is_the_within_class_covariance_Sw():
    D, L = _labelled()
    m = train_tied(D, L)
    Sw, _ = compute_Sw_Sb(D, L)
    assert m.C.shape == (4, 4) and m.tied
    _assert_rel(m.C, Sw)
    tn = train_tied_naive(D, L)
    assert tn.C.shape == (4,) and tn.tied
    _assert_rel(tn.C, np.diag(Sw))
    for k in range(3):
        _assert_rel(m.covariance(k), Sw)
        _assert_rel(tn.covariance(k), np.diag(np.diag(Sw)))


def test_unbiased_pooled_covariance_is_Sw_times_N_over_N_minus_K():
    D, L = _labelled()
    N, K = D.shape[1], 3
    Sw, _ = compute_Sw_Sb(D, L)
    _assert_rel(train_tied(D, L, unbiased=True).C, Sw * N / (N - K))
    _assert_rel(train_tied_naive(D, L, unbiased=True).C, np.diag(Sw) * N / (N - K))


def test_tied_allows_a_single_sample_class():
    D, L = _labelled()
    L = L.copy()
    L[np.flatnonzero(L == 2)[1:]] = 1  # class 2 keeps one sample
    m = train_tied(D, L)
    _assert_rel(m.mu[:, 2], D[:, L == 2][:, 0])
    _assert_rel(m.C, compute_Sw_Sb(D, L)[0])


# -- Gaussian models: scores ---------------------------------------------------------------------


def test_mvg_scores_equal_logpdf_GAU_ND_per_class():
    D, L = _labelled()
    m = train_mvg(D, L)
    X = _test_points()
    S = m.scores(X)
    assert S.shape == (3, X.shape[1])
    for k in range(3):
        mu, C = _class_mean_cov(D, L, k)
        _assert_rel(S[k], logpdf_GAU_ND(X, mu, C))
        _assert_rel(S[k], scipy.stats.multivariate_normal(mu, C).logpdf(X.T))


def test_naive_scores_equal_mvg_with_diagonal_covariances_and_sums_of_1d_logpdfs():
    D, L = _labelled()
    X = _test_points()
    S = train_naive_bayes(D, L).scores(X)
    mvg = train_mvg(D, L)
    for k in range(3):
        mu = D[:, L == k].mean(axis=1)
        var = D[:, L == k].var(axis=1)
        _assert_rel(S[k], logpdf_GAU_ND(X, mvg.mu[:, k], np.diag(np.diag(mvg.C[k]))))
        _assert_rel(S[k], logpdf_GAU_ND(X, mu, np.diag(var)))
        one_d = scipy.stats.norm.logpdf(X, loc=mu[:, None], scale=np.sqrt(var)[:, None])
        _assert_rel(S[k], one_d.sum(axis=0))


def test_tied_scores_equal_logpdf_with_Sw():
    D, L = _labelled()
    X = _test_points()
    Sw, _ = compute_Sw_Sb(D, L)
    S = train_tied(D, L).scores(X)
    Sn = train_tied_naive(D, L).scores(X)
    for k in range(3):
        mu = D[:, L == k].mean(axis=1)
        _assert_rel(S[k], scipy.stats.multivariate_normal(mu, Sw).logpdf(X.T))
        _assert_rel(Sn[k], scipy.stats.multivariate_normal(mu, np.diag(np.diag(Sw))).logpdf(X.T))


@pytest.mark.parametrize("offset", [0.0, 1e4])
@pytest.mark.parametrize("kind", sorted(TRAINERS))
def test_every_scorer_equals_the_gaussian_core_per_class(kind, offset):
    """Each fast scorer against logpdf_GAU_ND class by class. Independent tests of the density:
    test_gaussian.py's test_logpdf_matches_scipy_stats (scipy),
    test_logpdf_matches_slogdet_solve (a second method), test_logpdf_1d_closed_form (a closed
    form). Of the classifiers: test_iris_split_error_rates_and_confusion_matrices (the course's
    published iris numbers)."""
    # the tied scorer (one whitening plus linear terms) and the diagonal one (expanded squares)
    # are fast forms of log N(x | mu_k, C_k): compare them with logpdf_GAU_ND class by class,
    # on data far from the origin too (the expansions are taken around the class means)
    D, L = _labelled()
    m = TRAINERS[kind](D + offset, L)
    X = _test_points() + offset
    ref = np.stack([logpdf_GAU_ND(X, m.mu[:, k], m.covariance(k)) for k in range(3)])
    _assert_rel(m.scores(X), ref, rtol=1e-9)


@pytest.mark.parametrize("kind", sorted(TRAINERS))
def test_llr_method_of_binary_gaussian_models(kind):
    D, L = _labelled(K=2, n=(40, 60))
    X = _test_points()
    m = TRAINERS[kind](D, L)
    s = m.llr(X)
    assert s.shape == (X.shape[1],)
    ref = [logpdf_GAU_ND(X, m.mu[:, k], m.covariance(k)) for k in range(2)]
    _assert_rel(s, ref[1] - ref[0])
    with pytest.raises(ValueError, match="binary model"):
        TRAINERS[kind](*_labelled()).llr(X)


def test_llr_method_of_binary_discrete_models():
    rng = np.random.default_rng(3)
    L = np.repeat([0, 1], 20)
    codes = rng.integers(0, 3, size=(2, 40))
    cat = train_categorical_nb(codes, L, eps=1.0)
    np.testing.assert_array_equal(cat.llr(codes), cat.scores(codes)[1] - cat.scores(codes)[0])
    counts = rng.integers(0, 5, size=(6, 40))
    mult = train_multinomial_nb(counts, L, eps=1.0)
    np.testing.assert_allclose(mult.llr(counts), multinomial_binary_llr_weights(mult) @ counts,
                               rtol=1e-12, atol=1e-12)
    bits = rng.integers(0, 2, size=(5, 40))
    bern = train_bernoulli_nb(bits, L, eps=1.0)
    S = bern.scores(bits)
    np.testing.assert_array_equal(bern.llr(bits), S[1] - S[0])
    with pytest.raises(ValueError, match="binary model"):
        train_bernoulli_nb(bits, np.arange(40) % 3, eps=1.0).llr(bits)


@pytest.mark.parametrize("kind", sorted(TRAINERS))
def test_scores_do_not_depend_on_memory_layout(kind):
    D, L = _labelled()
    m = TRAINERS[kind](D, L)
    X = _test_points(N=23)
    ref = np.stack([logpdf_GAU_ND(X, m.mu[:, k], m.covariance(k)) for k in range(3)])
    _assert_rel(m.scores(X), ref)
    _assert_rel(m.scores(np.asfortranarray(X)), ref)
    _assert_rel(m.scores(np.ascontiguousarray(X.T).T), ref)  # F-ordered view, as load_mnist's


@pytest.mark.parametrize("kind", sorted(TRAINERS))
def test_scores_accept_a_single_sample(kind):
    D, L = _labelled()
    m = TRAINERS[kind](D, L)
    x = _test_points(N=1)
    np.testing.assert_allclose(m.scores(x[:, 0]), m.scores(x), rtol=1e-14)


def test_scores_are_accurate_far_from_the_origin():
    # a large common offset must not cost accuracy (the scores shift to the class means' centre)
    D, L = _labelled()
    X = _test_points()
    for kind, train in TRAINERS.items():
        S0 = train(D, L).scores(X)
        S1 = train(D + 1e4, L).scores(X + 1e4)
        np.testing.assert_allclose(S1, S0, rtol=1e-7, err_msg=kind)


# -- posteriors and decisions --------------------------------------------------------------------


def test_posteriors_columns_sum_to_one_and_match_the_normalised_joint():
    D, L = _labelled()
    X = _test_points()
    priors = np.array([0.2, 0.5, 0.3])
    lp = log_posteriors(train_mvg(D, L).scores(X), priors)
    np.testing.assert_allclose(np.exp(lp).sum(axis=0), 1.0, rtol=1e-12)
    joint = np.stack(
        [priors[k] * scipy.stats.multivariate_normal(*_class_mean_cov(D, L, k)).pdf(X.T)
         for k in range(3)]
    )
    np.testing.assert_allclose(np.exp(lp), joint / joint.sum(axis=0), rtol=1e-9, atol=1e-300)


def test_log_joint_llr_and_map_decisions():
    S = np.array([[-1.0, -5.0, -2.0], [-3.0, -1.0, -2.0]])
    np.testing.assert_allclose(log_joint(S, [0.25, 0.75]), S + np.log([[0.25], [0.75]]))
    np.testing.assert_array_equal(llr(S), [-2.0, 4.0, 0.0])
    np.testing.assert_array_equal(map_decisions(S, uniform_priors(2)), [0, 1, 0])
    # a prior shifts the decision of the tied sample to class 1, and a huge one all of them
    np.testing.assert_array_equal(map_decisions(S, [0.4, 0.6]), [0, 1, 1])
    np.testing.assert_array_equal(map_decisions(S, [1e-9, 1 - 1e-9]), [1, 1, 1])
    # a zero prior rules its class out
    np.testing.assert_array_equal(map_decisions(S, [0.0, 1.0]), [1, 1, 1])
    np.testing.assert_allclose(np.exp(log_posteriors(S, [0.0, 1.0])), [[0, 0, 0], [1, 1, 1]])


def test_uniform_priors():
    np.testing.assert_array_equal(uniform_priors(4), [0.25] * 4)


# -- closed forms --------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["tied", "tied_naive"])
def test_tied_linear_discriminants_reproduce_the_log_joint(kind):
    D, L = _labelled()
    X = _test_points()
    m = TRAINERS[kind](D, L)
    priors = np.array([0.5, 0.2, 0.3])
    A, b = tied_linear_discriminants(m, priors)
    assert A.shape == (4, 3) and b.shape == (3,)
    Cinv = np.linalg.inv(m.covariance(0))  # an explicit inverse is fine as an independent check
    _assert_rel(A, Cinv @ m.mu)
    _assert_rel(b, np.log(priors) - 0.5 * np.einsum("dk,de,ek->k", m.mu, Cinv, m.mu))
    diff = log_joint(m.scores(X), priors) - (A.T @ X + b[:, None])
    _assert_rel(diff - diff[0], np.zeros_like(diff), rtol=RTOL * np.abs(m.scores(X)).max())
    np.testing.assert_array_equal(np.argmax(A.T @ X + b[:, None], axis=0),
                                  map_decisions(m.scores(X), priors))


@pytest.mark.parametrize("kind", ["tied", "tied_naive"])
def test_tied_binary_llr_is_linear(kind):
    D, L = _labelled(K=2, n=(40, 60))
    X = _test_points()
    m = TRAINERS[kind](D, L)
    w, c = tied_binary_llr_coefficients(m)
    assert w.shape == (4,) and isinstance(c, float)
    _assert_rel(w @ X + c, llr(m.scores(X)))
    Cinv = np.linalg.inv(m.covariance(0))
    mu0, mu1 = m.mu[:, 0], m.mu[:, 1]
    _assert_rel(w, Cinv @ (mu1 - mu0))
    _assert_rel(c, -0.5 * (mu1 @ Cinv @ mu1 - mu0 @ Cinv @ mu0))


@pytest.mark.parametrize("kind", sorted(TRAINERS))
def test_binary_llr_is_quadratic(kind):
    D, L = _labelled(K=2, n=(40, 60))
    X = _test_points()
    m = TRAINERS[kind](D, L)
    A, b, c = mvg_binary_llr_coefficients(m)
    assert A.shape == (4, 4) and b.shape == (4,) and isinstance(c, float)
    np.testing.assert_array_equal(A, A.T)
    _assert_rel(np.einsum("dn,de,en->n", X, A, X) + b @ X + c, llr(m.scores(X)))
    P0, P1 = np.linalg.inv(m.covariance(0)), np.linalg.inv(m.covariance(1))
    _assert_rel(A, -0.5 * (P1 - P0))
    _assert_rel(b, P1 @ m.mu[:, 1] - P0 @ m.mu[:, 0])
    if m.tied:
        assert np.abs(A).max() == 0.0


def test_after_lda_tied_naive_and_tied_decide_alike_on_iris():
    D, L = load_iris()
    (DTR, LTR), (DVAL, LVAL) = split_db_2to1(D, L, seed=0)
    lda = fit_lda(DTR, LTR, 2)  # whitens Sw: W^T Sw W = I
    YTR, YVAL = lda.transform(DTR), lda.transform(DVAL)
    tied, tied_naive = train_tied(YTR, LTR), train_tied_naive(YTR, LTR)
    np.testing.assert_allclose(tied.C, np.eye(2), atol=1e-10)
    np.testing.assert_allclose(tied_naive.C, np.ones(2), atol=1e-10)
    P = uniform_priors(3)
    np.testing.assert_array_equal(map_decisions(tied.scores(YVAL), P),
                                  map_decisions(tied_naive.scores(YVAL), P))


# -- covariance floor ----------------------------------------------------------------------------


def test_floor_covariance_clips_eigenvalues_and_keeps_eigenvectors():
    rng = np.random.default_rng(3)
    U, _ = np.linalg.qr(rng.standard_normal((5, 5)))
    s = np.array([1e-12, 1e-4, 0.05, 1.0, 3.0])
    C = (U * s) @ U.T
    Cf = floor_covariance(C, 0.01)
    np.testing.assert_allclose(np.linalg.eigvalsh(Cf), [0.01, 0.01, 0.05, 1.0, 3.0], rtol=1e-12)
    np.testing.assert_allclose(Cf @ U, U * np.maximum(s, 0.01), atol=1e-12)
    np.testing.assert_array_equal(Cf, Cf.T)


def test_floor_covariance_leaves_a_well_conditioned_matrix_unchanged():
    C = np.array([[2.0, 0.3], [0.3, 1.0]])
    Cf = floor_covariance(C, 1e-3)
    np.testing.assert_array_equal(Cf, C)
    assert Cf is not C


def test_psi_floor_makes_rank_deficient_classes_usable():
    D, L = _labelled()
    D = np.vstack([D, np.where(L == 1, 0.5, np.arange(L.size) % 3)])  # constant in class 1
    psi = 1e-3
    m = train_mvg(D, L, psi=psi)
    for k in range(3):
        _assert_rel(m.C[k], floor_covariance(np.cov(D[:, L == k], bias=True), psi))
    assert np.linalg.eigvalsh(m.C[1]).min() >= psi * (1 - 1e-12)
    assert np.all(np.isfinite(m.scores(D)))
    nb = train_naive_bayes(D, L, psi=psi)
    assert nb.C[1, 4] == psi
    _assert_rel(nb.C[0], np.maximum(D[:, L == 0].var(axis=1), psi))


def test_psi_floor_for_tied_models():
    D, L = _labelled()
    D = np.vstack([D, np.ones(L.size)])  # constant feature: Sw singular
    m = train_tied(D, L, psi=1e-2)
    _assert_rel(m.C, floor_covariance(compute_Sw_Sb(D, L)[0], 1e-2))
    assert train_tied_naive(D, L, psi=1e-2).C[4] == 1e-2


# -- the course's iris numbers -------------------------------------------------------------------


@pytest.fixture(scope="module")
def iris():
    return load_iris()


@pytest.mark.parametrize(
    "kind, errors, confusion",
    [
        ("mvg", 2, [[19, 0, 0], [0, 15, 0], [0, 2, 14]]),
        ("naive", 2, [[19, 0, 0], [0, 15, 0], [0, 2, 14]]),
        ("tied", 1, [[19, 0, 0], [0, 16, 0], [0, 1, 14]]),
        ("tied_naive", 2, [[19, 0, 0], [0, 15, 0], [0, 2, 14]]),  # measured, not published
    ],
)
def test_iris_split_error_rates_and_confusion_matrices(iris, kind, errors, confusion):
    (DTR, LTR), (DVAL, LVAL) = split_db_2to1(*iris, seed=0)
    assert DTR.shape == (4, 100) and DVAL.shape == (4, 50)
    pred = map_decisions(TRAINERS[kind](DTR, LTR).scores(DVAL), uniform_priors(3))
    assert np.sum(pred != LVAL) == errors  # 4.0%, 4.0%, 2.0%, 4.0%
    np.testing.assert_array_equal(_confusion(pred, LVAL, 3), confusion)


@pytest.mark.parametrize("kind, errors", [("mvg", 4), ("naive", 7), ("tied", 3), ("tied_naive", 6)])
def test_iris_leave_one_out_errors(iris, kind, errors):
    D, L = iris
    P = uniform_priors(3)
    wrong = 0
    for itr, ival in leave_one_out_indices(D.shape[1]):
        model = TRAINERS[kind](D[:, itr], L[itr])
        wrong += int(map_decisions(model.scores(D[:, ival]), P)[0] != L[ival][0])
    assert wrong == errors  # 2.7%, 4.7%, 2.0%, 4.0% of 150


# -- discrete naive Bayes ------------------------------------------------------------------------


def test_categorical_nb_against_hand_counts():
    # feature 0 in {0, 1, 2}, feature 1 in {0, 1}; class 0: samples 0-2, class 1: samples 3-4
    D = np.array([[0, 0, 2, 1, 1], [1, 0, 1, 0, 0]])
    L = np.array([0, 0, 0, 1, 1])
    m = train_categorical_nb(D, L)
    assert isinstance(m, CategoricalNaiveBayes)
    np.testing.assert_allclose(m.pi[0], [[2 / 3, 0], [0, 1], [1 / 3, 0]])
    np.testing.assert_allclose(m.pi[1], [[1 / 3, 1], [2 / 3, 0]])
    S = m.scores(np.array([[0, 1], [1, 0]]))
    np.testing.assert_allclose(S[:, 0], [np.log(2 / 3 * 2 / 3), -np.inf])
    np.testing.assert_allclose(S[:, 1], [-np.inf, 0.0])
    # pseudo-counts: (N_kjm + eps) / (N_k + M_j eps)
    e = 0.5
    me = train_categorical_nb(D, L, n_values=[4, 2], eps=e)
    np.testing.assert_allclose(me.pi[0][:, 0], (np.array([2, 0, 1, 0]) + e) / (3 + 4 * e))
    np.testing.assert_allclose(me.pi[0][:, 1], (np.array([0, 2, 0, 0]) + e) / (2 + 4 * e))
    np.testing.assert_allclose(me.pi[1][:, 1], (np.array([2, 0]) + e) / (2 + 2 * e))
    x = np.array([[3], [1]])
    np.testing.assert_allclose(
        me.scores(x)[:, 0],
        [np.log(e / (3 + 4 * e)) + np.log((2 + e) / (3 + 2 * e)),
         np.log(e / (2 + 4 * e)) + np.log(e / (2 + 2 * e))],
    )


def test_multinomial_nb_against_hand_counts_and_pseudo_counts():
    D = np.array([[3, 1, 0, 0], [1, 0, 2, 1], [0, 0, 1, 3]])  # 3 words, 4 documents
    L = np.array([0, 0, 1, 1])
    m = train_multinomial_nb(D, L)
    assert isinstance(m, MultinomialNaiveBayes)
    np.testing.assert_allclose(m.pi, [[4 / 5, 0], [1 / 5, 3 / 7], [0, 4 / 7]])
    e = 0.1
    me = train_multinomial_nb(D, L, eps=e)
    np.testing.assert_allclose(me.pi[:, 0], (np.array([4, 1, 0]) + e) / (5 + 3 * e))
    np.testing.assert_allclose(me.pi[:, 1], (np.array([0, 3, 4]) + e) / (7 + 3 * e))
    x = np.array([[2, 0], [1, 1], [0, 0]])
    S = m.scores(x)
    np.testing.assert_allclose(S[0], [2 * np.log(0.8) + np.log(0.2), np.log(0.2)])
    np.testing.assert_allclose(S[1], [-np.inf, np.log(3 / 7)])
    # with the multinomial coefficient: the true log-pmf
    Sf = me.scores(x, include_coefficient=True)
    for k in range(2):
        ref = [scipy.stats.multinomial(int(x[:, i].sum()), me.pi[:, k]).logpmf(x[:, i])
               for i in range(2)]
        np.testing.assert_allclose(Sf[k], ref, rtol=1e-12)


def test_multinomial_llr_is_linear_in_the_counts():
    rng = np.random.default_rng(5)
    D = rng.poisson(2.0, size=(12, 40))
    L = np.repeat([0, 1], 20)
    m = train_multinomial_nb(D, L, eps=1.0)
    b = multinomial_binary_llr_weights(m)
    np.testing.assert_allclose(b, np.log(m.pi[:, 1] / m.pi[:, 0]), rtol=1e-12)
    X = rng.poisson(3.0, size=(12, 7))
    _assert_rel(llr(m.scores(X)), b @ X)
    _assert_rel(llr(m.scores(X, include_coefficient=True)), b @ X)


def test_bernoulli_nb_against_hand_counts():
    D = np.array([[1, 1, 0, 0, 0], [0, 1, 1, 1, 1]])
    L = np.array([0, 0, 0, 1, 1])
    m = train_bernoulli_nb(D, L)
    assert isinstance(m, BernoulliNaiveBayes)
    np.testing.assert_allclose(m.p, [[2 / 3, 0], [2 / 3, 1]])
    x = np.array([[1, 0], [1, 0]])
    S = m.scores(x)
    np.testing.assert_allclose(S[0], [np.log(4 / 9), np.log(1 / 9)])
    np.testing.assert_array_equal(S[1], [-np.inf, -np.inf])
    e = 1.0
    me = train_bernoulli_nb(D.astype(bool), L, eps=e)
    np.testing.assert_allclose(me.p, (np.array([[2, 0], [2, 2]]) + e) / (np.array([3, 2]) + 2 * e))
    ref = np.stack([scipy.stats.bernoulli(me.p[:, [k]]).logpmf(x).sum(axis=0) for k in range(2)])
    np.testing.assert_allclose(me.scores(x), ref, rtol=1e-12)


def test_discrete_log_posteriors_of_an_impossible_sample_raise():
    D = np.array([[1, 1, 1, 0, 0], [0, 1, 1, 1, 1]])
    L = np.array([0, 0, 0, 1, 1])
    S = train_bernoulli_nb(D, L).scores(np.array([[0], [0]]))  # impossible for both classes
    assert np.all(np.isneginf(S))
    with pytest.raises(ValueError, match="sample 0 has joint log-density -inf for every class"):
        log_posteriors(S, uniform_priors(2))


# -- combining independent feature groups --------------------------------------------------------


def test_combine_naive_scores_sums_groups():
    D, L = _labelled()
    X = _test_points()
    full = train_naive_bayes(D, L).scores(X)
    parts = [train_naive_bayes(D[rows], L).scores(X[rows]) for rows in ([0, 1], [2], [3])]
    _assert_rel(combine_naive_scores(*parts), full)
    # a Gaussian group and a categorical group
    C = (D[:2] > 0).astype(int) + (D[:2] > 2)
    Sg = train_naive_bayes(D[2:], L).scores(D[2:])
    Sc = train_categorical_nb(C, L, eps=1.0).scores(C)
    # the joint class log-likelihood under the naive assumption, from scipy's normal density and
    # hand counts of the categorical values (+1 pseudo-count, values 0..2), sample by sample
    expected = np.zeros((3, L.size))
    for k in range(3):
        G, Ck = D[2:, L == k], C[:, L == k]
        for i in range(L.size):
            expected[k, i] = sum(scipy.stats.norm.logpdf(D[2 + j, i], G[j].mean(), G[j].std())
                                 for j in range(2))
            expected[k, i] += sum(np.log((np.count_nonzero(Ck[j] == C[j, i]) + 1.0)
                                         / (Ck.shape[1] + 3.0)) for j in range(2))
    _assert_rel(combine_naive_scores(Sg, Sc), expected)


# -- errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize("train", list(TRAINERS.values()))
def test_transposed_training_data(train):
    D, L = _labelled()
    with pytest.raises(ValueError, match=r"did you mean D\.T"):
        train(D.T, L)


@pytest.mark.parametrize("kind", sorted(TRAINERS))
def test_transposed_scoring_data(kind):
    D, L = _labelled()
    m = TRAINERS[kind](D, L)
    with pytest.raises(ValueError, match=r"did you mean D\.T"):
        m.scores(_test_points(N=10).T)


@pytest.mark.parametrize("train", list(TRAINERS.values()))
def test_missing_class(train):
    D, L = _labelled()
    L = np.where(L == 1, 2, L)
    with pytest.raises(ValueError, match="no sample of class 1"):
        train(D, L)


@pytest.mark.parametrize("train", [train_mvg, train_naive_bayes])
def test_one_sample_class(train):
    D, L = _labelled()
    L = L.copy()
    L[np.flatnonzero(L == 2)[1:]] = 1
    with pytest.raises(ValueError, match="class 2 has 1 sample"):
        train(D, L)


def test_singular_class_covariance_names_the_class_and_the_remedies():
    D, L = _labelled()
    D = np.vstack([D, np.where(L == 1, 0.5, np.arange(L.size) % 3)])  # constant in class 1
    pattern = r"class 1.*singular.*1 of its 5 features are constant.*fit_pca.*psi"
    with pytest.raises(ValueError, match=pattern):
        train_mvg(D, L)
    with pytest.raises(ValueError, match=r"class 1.*feature 4.*fit_pca.*psi"):
        train_naive_bayes(D, L)


def test_fewer_samples_than_features():
    D, L = _labelled(nfeat=6, n=(30, 4, 30))
    pattern = (r"class 1 \(C\[1\], from 4 samples\) is singular: its 4 samples span at most 3 "
               r"dimensions, fewer than its 6 features.*fit_pca.*psi")
    with pytest.raises(ValueError, match=pattern):
        train_mvg(D, L)


def test_singular_tied_covariance():
    D, L = _labelled()
    D = np.vstack([D, np.ones(L.size)])
    pattern = r"within-class covariance.*singular: 1 of its 5 features are constant within every"
    with pytest.raises(ValueError, match=pattern + r" class \(e\.g\. feature 4\).*psi"):
        train_tied(D, L)
    with pytest.raises(ValueError, match=r"within-class covariance.*feature 4.*psi"):
        train_tied_naive(D, L)
    D, L = _labelled(nfeat=8, n=(3, 3, 4))  # N - K = 7 < 8
    with pytest.raises(ValueError, match=r"10 samples in 3 classes span at most 7 dimensions"):
        train_tied(D, L)


@pytest.mark.parametrize(
    "priors, match",
    [
        ([0.5, 0.7, -0.2], "priors must be non-negative"),
        ([0.3, 0.3, 0.3], "priors must sum to 1"),
        ([0.5, 0.5], r"priors has length 2.*K = 3"),
        ([[0.2, 0.3, 0.5]], "priors must be a 1-D array"),
        ([0.2, np.nan, 0.8], "priors contains NaN"),
    ],
)
def test_bad_priors(priors, match):
    S = np.zeros((3, 4))
    for fn in (log_joint, log_posteriors, map_decisions):
        with pytest.raises(ValueError, match=match):
            fn(S, priors)


def test_priors_are_required():
    with pytest.raises(TypeError, match="priors is required.*uniform_priors"):
        log_posteriors(np.zeros((3, 4)), None)


def test_priors_tolerance_is_1e_9():
    S = np.zeros((2, 1))
    log_joint(S, [0.5, 0.5 + 5e-10])
    with pytest.raises(ValueError, match="priors must sum to 1"):
        log_joint(S, [0.5, 0.5 + 5e-9])


def test_bad_scores_and_llr_arity():
    with pytest.raises(ValueError, match=r"S must be a \(K, N\) matrix"):
        log_posteriors(np.zeros(3), uniform_priors(3))
    with pytest.raises(ValueError, match="NaN"):
        map_decisions(np.array([[0.0, np.nan]]), [1.0])
    with pytest.raises(ValueError, match="exactly 2 classes"):
        llr(np.zeros((3, 4)))


def test_closed_forms_check_the_model():
    D, L = _labelled()
    with pytest.raises(ValueError, match="needs a tied model"):
        tied_linear_discriminants(train_mvg(D, L), uniform_priors(3))
    with pytest.raises(ValueError, match="binary model"):
        tied_binary_llr_coefficients(train_tied(D, L))
    with pytest.raises(ValueError, match="binary model"):
        mvg_binary_llr_coefficients(train_mvg(D, L))
    with pytest.raises(TypeError, match="GaussianClassifier"):
        mvg_binary_llr_coefficients(object())


def test_bad_hyperparameters():
    D, L = _labelled()
    with pytest.raises(ValueError, match=r"psi.*> 0"):
        train_mvg(D, L, psi=0.0)
    with pytest.raises(TypeError, match="unbiased must be True or False"):
        train_tied(D, L, unbiased=1)
    with pytest.raises(ValueError, match=r"eps.*>= 0"):
        train_multinomial_nb(np.ones((3, 4)), [0, 0, 1, 1], eps=-1.0)


def test_discrete_input_errors():
    L = np.array([0, 0, 1, 1])
    with pytest.raises(ValueError, match=r"integer codes.*got 1\.5 \(feature 1, sample 2\)"):
        train_categorical_nb(np.array([[0, 1, 1, 0], [0, 1, 1.5, 0]]), L)
    with pytest.raises(ValueError, match=r"integer codes.*got -1"):
        train_categorical_nb(np.array([[0, 1, -1, 0]]), L)
    with pytest.raises(ValueError, match=r"feature 0 of D has code 3 but n_values\[0\] = 3"):
        train_categorical_nb(np.array([[0, 1, 3, 0]]), L, n_values=3)
    m = train_categorical_nb(np.array([[0, 1, 2, 0]]), L)
    with pytest.raises(ValueError, match=r"feature 0 of D has code 3 but the model knows 3 values"):
        m.scores(np.array([[3]]))
    with pytest.raises(ValueError, match=r"did you mean D\.T"):
        train_categorical_nb(np.zeros((4, 2), dtype=int), L)
    with pytest.raises(ValueError, match="binary outcomes 0 or 1"):
        train_bernoulli_nb(np.array([[0, 1, 2, 0]]), L)
    with pytest.raises(ValueError, match="binary outcomes 0 or 1"):
        train_bernoulli_nb(np.array([[0, 1, 1, 0]]), L).scores(np.array([[0.5]]))
    with pytest.raises(ValueError, match="non-negative integer counts"):
        train_multinomial_nb(np.array([[0, 1, 2, 0.5]]), L)
    with pytest.raises(ValueError, match="class 1 have no counts at all"):
        train_multinomial_nb(np.array([[1, 2, 0, 0], [0, 1, 0, 0]]), L)
    m = train_multinomial_nb(np.array([[1, 2, 0, 0], [0, 1, 1, 1]]), L)
    with pytest.raises(ValueError, match="probability 0 in a class.*eps > 0"):
        multinomial_binary_llr_weights(m)


def test_combine_naive_scores_shape_mismatch():
    pattern = r"S\[1\] has shape \(3, 5\) but S\[0\] has shape \(3, 4\)"
    with pytest.raises(ValueError, match=pattern):
        combine_naive_scores(np.zeros((3, 4)), np.zeros((3, 5)))
    with pytest.raises(ValueError, match="at least one"):
        combine_naive_scores()


@pytest.mark.parametrize("train", [train_mvg, train_naive_bayes, train_tied, train_tied_naive])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_scores_reject_non_finite_data(train, bad):
    rng = np.random.default_rng(3)
    D = rng.standard_normal((3, 40))
    model = train(D, np.arange(40) % 2)
    X = rng.standard_normal((3, 5))
    X[2, 4] = bad
    with pytest.raises(ValueError, match=r"D contains NaN or infinite values \(first at row 2, "
                                         r"column 4\)"):
        model.scores(X)


# -- bad input: scale, transposed scores, categorical codes ----------------------------------------


@pytest.mark.parametrize("train", [train_naive_bayes, train_tied_naive])
def test_data_whose_variances_overflow(train):
    D, L = _labelled()
    with pytest.raises(ValueError, match=r"D overflows float64.*[\d.]+e\+20\d"):
        train(D * 1e200, L)


@pytest.mark.parametrize("train", [train_mvg, train_tied])
def test_data_whose_covariance_overflows(train):
    D, L = _labelled()
    with pytest.raises(ValueError, match=r"overflows? float64"):  # from compute_mu_C or here
        train(D * 1e200, L)


@pytest.mark.parametrize("train", list(TRAINERS.values()))
def test_data_whose_variances_underflow(train):
    D, L = _labelled()
    D = D * np.array([[1.0], [1.0], [1e-200], [1.0]])  # feature 2 too small to square
    with pytest.raises(ValueError, match=r"singular: feature 2 varies by only .*e-200.*fit_znorm"):
        train(D, L)


@pytest.mark.parametrize("train", [train_naive_bayes, train_tied_naive])
def test_diagonal_models_accept_features_of_very_different_scales(train):
    # a diagonal covariance is feature-by-feature: rescaling feature j by a_j shifts every class
    # log-density by the same -log|a_j|, so the posteriors do not change
    D, L = _labelled()
    a = np.array([1e10, 1.0, 1.0, 1e-10])
    S, Sa = train(D, L).scores(D), train(D * vcol(a), L).scores(D * vcol(a))
    np.testing.assert_allclose(Sa, S - np.log(a).sum(), rtol=1e-12, atol=1e-9)
    D[1] = 1e8 + 1e-9 * np.arange(D.shape[1])  # constant up to rounding: no variance in float64
    with pytest.raises(ValueError, match=r"feature 1 has zero .*variance|1 of its 4 features have "
                                         r"zero variance"):
        train(D, L)


@pytest.mark.parametrize("fn", [log_joint, log_posteriors, map_decisions])
def test_transposed_scores_with_priors(fn):
    S = np.zeros((10, 3))  # (N, K): the scores of 10 samples for 3 classes, transposed
    with pytest.raises(ValueError, match=r"S has shape \(10, 3\) but priors has 3 entries.*"
                                         r"did you mean S\.T\?"):
        fn(S, uniform_priors(3))


def test_transposed_scores_for_llr():
    with pytest.raises(ValueError, match=r"S has shape \(5, 2\).*did you mean S\.T\?"):
        llr(np.zeros((5, 2)))


def test_map_decisions_of_impossible_samples_go_to_class_0():
    # documented: all classes tie at -inf (the eps = 0 table of lecture 05 relies on it)
    S = np.array([[-np.inf, 0.0], [-np.inf, 1.0]])
    np.testing.assert_array_equal(map_decisions(S, uniform_priors(2)), [0, 1])


def test_combine_naive_scores_transposed_or_packed():
    S = np.zeros((3, 5))
    with pytest.raises(ValueError, match=r"S\[1\] has shape \(5, 3\).*did you mean S\[1\]\.T\?"):
        combine_naive_scores(S, S.T)
    with pytest.raises(ValueError, match=r"separate arguments.*combine_naive_scores\(\*S\)"):
        combine_naive_scores([S, S])


def test_categorical_codes_that_are_not_indices():
    L = np.array([0, 0, 1, 1])
    with pytest.raises(ValueError, match=r"D has code 1e\+12 \(feature 0, sample 2\).*unique"):
        train_categorical_nb(np.array([[0, 1, 10**12, 0]]), L)
    with pytest.raises(ValueError, match=r"D has code 1e\+300 \(feature 0, sample 0\)"):
        train_categorical_nb(np.array([[0, 1, 2, 0]]), L).scores(np.array([[1e300]]))
    with pytest.raises(ValueError, match=r"n_values must be <= 1048576, got 1000000000"):
        train_categorical_nb(np.array([[0, 1, 2, 0]]), L, n_values=10**9)
    with pytest.raises(ValueError, match=r"n_values must be at most 1048576.*got 1000000000"):
        train_categorical_nb(np.array([[0, 1, 2, 0]]), L, n_values=[10**9])


@pytest.mark.parametrize("train", list(TRAINERS.values()) + [train_categorical_nb,
                                                             train_multinomial_nb,
                                                             train_bernoulli_nb])
def test_data_without_features(train):
    # was: a bare numpy reduction error, a "singular covariance" message, or a model without
    # features; now the validators (mlpr._validation.check_data) refuse it
    with pytest.raises(ValueError, match=r"D has 0 features \(rows\), shape \(0, 4\)"):
        train(np.zeros((0, 4)), np.array([0, 0, 1, 1]))
    with pytest.raises(ValueError, match=r"non-empty \(D, D\) matrix"):
        floor_covariance(np.zeros((0, 0)), 1e-3)


# -- exact estimates on data far from the origin -------------------------------------------------


def _exact_class_covariances(D, L, unbiased=False):
    """Per-class ML (or unbiased) covariances and the pooled within-class covariance in exact
    rational arithmetic (every float is a rational number), rounded to float64 at the end."""
    scatters, _, sizes = exact_class_scatters(D, L)
    K, N = len(sizes), L.size
    Cs = [(S / (n - 1 if unbiased else n)).astype(float) for S, n in zip(scatters, sizes)]
    return Cs, (sum(scatters) / (N - K if unbiased else N)).astype(float)


@pytest.mark.parametrize("offset", [0.0, 25.0, 1e6])
@pytest.mark.parametrize("unbiased", [False, True])
def test_every_gaussian_covariance_is_exact_to_rounding_on_offset_data(offset, unbiased):
    D, L = offset_classes(offset)
    Cs, Sw = _exact_class_covariances(D, L, unbiased)
    mvg = train_mvg(D, L, unbiased=unbiased)
    naive = train_naive_bayes(D, L, unbiased=unbiased)
    for k in range(3):
        assert_exact(mvg.C[k], Cs[k])  # 2.6e-13 of the largest entry before, at offset 25
        assert_exact(naive.C[k], np.diag(Cs[k]))
    assert_exact(train_tied(D, L, unbiased=unbiased).C, Sw)
    assert_exact(train_tied_naive(D, L, unbiased=unbiased).C, np.diag(Sw))


# -- models are values ---------------------------------------------------------------------------


@pytest.mark.parametrize("kind", list(TRAINERS))
def test_gaussian_models_compare_and_hash_by_value(kind):
    D, L = _labelled()
    train = TRAINERS[kind]
    a, b = train(D, L), train(D.copy(), L.copy())
    assert a == b and hash(a) == hash(b) and a is not b
    assert {a: kind}[b] == kind  # usable as a dict key
    assert a != train(D, L, unbiased=True)
    assert a != train(D + 1.0, L)
    with pytest.raises(ValueError, match="read-only"):
        a.mu[0, 0] = 0.0
    np.testing.assert_array_equal(a.scores(D), b.scores(D))  # scoring does not change the model
    assert a == b


def test_gaussian_models_of_different_kinds_differ():
    D, L = _labelled()
    models = [train(D, L) for train in TRAINERS.values()]
    assert len(set(models)) == 4


def test_discrete_models_compare_and_hash_by_value():
    rng = np.random.default_rng(0)
    L = np.repeat([0, 1], 10)
    codes = rng.integers(0, 3, size=(2, 20))
    counts = rng.integers(0, 5, size=(6, 20))
    bits = rng.integers(0, 2, size=(5, 20))
    for train, X in ((train_categorical_nb, codes), (train_multinomial_nb, counts),
                     (train_bernoulli_nb, bits)):
        a, b = train(X, L, eps=1.0), train(X.copy(), L, eps=1.0)
        assert a == b and hash(a) == hash(b) and {a: 1}[b] == 1
        assert a != train(X, L, eps=0.5)
    with pytest.raises(ValueError, match="read-only"):
        train_categorical_nb(codes, L, eps=1.0).pi[0][0, 0] = 0.5  # arrays inside the tuple too


def test_binary_map_decisions_at_the_threshold_go_to_class_0():
    # llr exactly at -log(pi_1 / pi_0): equal joint densities, class 0 (s > t strictly)
    priors = np.array([0.8, 0.2])
    t = np.log(priors[0] / priors[1])
    S = np.vstack([np.zeros(3), [t, np.nextafter(t, np.inf), np.nextafter(t, -np.inf)]])
    assert np.log(priors[1]) + t == np.log(priors[0])  # the tie is exact in float64
    np.testing.assert_array_equal(map_decisions(S, priors), [0, 1, 0])


def test_a_gaussian_classifier_built_by_hand_names_an_unknown_kind():
    D, L = _labelled()
    m = train_mvg(D, L)
    assert GaussianClassifier(mu=m.mu, C=m.C, kind="mvg") == m
    with pytest.raises(ValueError, match="kind must be one of"):
        GaussianClassifier(mu=m.mu, C=m.C, kind="full")


# -- ML class priors and the short notes' "LDA" / "QDA" (notes 000 eq. 14, 003 section 6.3.1) -----


def test_ml_class_priors_by_hand():
    np.testing.assert_array_equal(ml_class_priors([0, 1, 1, 2, 1]), [0.2, 0.6, 0.2])
    np.testing.assert_array_equal(ml_class_priors(np.array([1, 1, 0, 1])), [0.25, 0.75])
    # K larger than the labels: the absent class has ML prior 0
    np.testing.assert_array_equal(ml_class_priors([0, 0, 1, 1], K=3), [0.5, 0.5, 0.0])
    # exact fractions: n_k / N for an awkward N
    L = np.repeat([0, 1, 2], [7, 11, 13])
    np.testing.assert_array_equal(ml_class_priors(L),
                                  [float(Fraction(n, 31)) for n in (7, 11, 13)])


def test_ml_class_priors_maximise_the_label_likelihood():
    L = np.repeat([0, 1, 2], [5, 12, 3])
    n = np.bincount(L)
    pi = ml_class_priors(L)
    best = n @ np.log(pi)
    rng = np.random.default_rng(0)
    for q in rng.dirichlet(np.ones(3), size=200):  # any other prior has a lower likelihood
        assert n @ np.log(q) < best


def _scipy_posteriors(DTR, LTR, DTE, covs):
    """P(k | x) from scipy.stats densities and the class frequencies n_k / N."""
    K = LTR.max() + 1
    joint = np.stack([scipy.stats.multivariate_normal(DTR[:, LTR == k].mean(axis=1), covs[k])
                      .pdf(DTE.T) * np.mean(LTR == k) for k in range(K)])
    return joint / joint.sum(axis=0)


def test_short_notes_lda_and_qda_with_learned_priors():
    rng = np.random.default_rng(3)
    n = [30, 60, 10]
    means = [np.array([0.0, 0.0]), np.array([2.0, 1.0]), np.array([0.5, 2.5])]
    DTR = np.hstack([rng.normal(size=(2, nk)) * [[1.0], [0.6]] + vcol(m)
                     for nk, m in zip(n, means)])
    LTR = np.repeat([0, 1, 2], n)
    DTE = rng.normal(size=(2, 15)) * 2
    # "QDA": per-class ML covariances; "LDA": the within-class covariance Sw, shared
    covs_q = [np.cov(DTR[:, LTR == k], bias=True) for k in range(3)]
    Sw = compute_Sw_Sb(DTR, LTR)[0]
    for train, covs in ((train_mvg, covs_q), (train_tied, [Sw] * 3)):
        P = np.exp(log_posteriors(train(DTR, LTR).scores(DTE), ml_class_priors(LTR)))
        np.testing.assert_allclose(P, _scipy_posteriors(DTR, LTR, DTE, covs), rtol=1e-9)


def test_short_notes_lda_matches_sklearn():
    sklearn = pytest.importorskip("sklearn.discriminant_analysis")
    D, L = load_iris()
    L = np.where(L == 2, 1, L)[:120]  # unequal classes: 50 and 70 samples
    D = D[:, :120]
    S = train_tied(D, L).scores(D)
    P = np.exp(log_posteriors(S, ml_class_priors(L)))
    lda = sklearn.LinearDiscriminantAnalysis(solver="lsqr").fit(D.T, L)  # priors n_k / N
    np.testing.assert_allclose(P.T, lda.predict_proba(D.T), rtol=1e-6, atol=1e-12)


def test_ml_class_priors_errors():
    with pytest.raises(ValueError, match="L is empty"):
        ml_class_priors([])
    with pytest.raises(ValueError, match="label 3 but only 3 classes"):
        ml_class_priors([0, 3], K=3)
    with pytest.raises(ValueError, match="negative value"):
        ml_class_priors([0, -1])
    with pytest.raises(ValueError, match=r"L has shape \(1, 3\)"):
        ml_class_priors([[0, 1, 1]])
    with pytest.raises(TypeError, match="K must be an integer"):
        ml_class_priors([0, 1], K=2.0)
    with pytest.raises(ValueError, match="K must be >= 1"):
        ml_class_priors([0, 1], K=0)
    with pytest.raises(ValueError, match="non-integer"):
        ml_class_priors([0.5, 1])


# -- the scorers as the notes write them and their fast forms (conventions 3b) -------------------


@pytest.mark.parametrize("train", [train_mvg, train_naive_bayes, train_tied, train_tied_naive])
def test_fast_scores_equal_the_formula(train):
    """The fast scores against solver="reference"; the reference against scipy's densities here.
    Independent tests of the classifiers: test_iris_split_error_rates_and_confusion_matrices
    (the course's published iris numbers)."""
    rng = np.random.default_rng(21)
    D = rng.normal(size=(5, 300)) * np.array([[1.0], [3.0], [0.5], [2.0], [1.0]]) + 10.0
    L = rng.integers(0, 3, 300)
    model = train(D, L)
    X = rng.normal(size=(5, 200)) * 2 + 10.0
    ref = model.scores(X, solver="reference")
    np.testing.assert_allclose(model.scores(X), ref, rtol=1e-10)  # "auto", the default
    # the reference itself, against scipy's densities
    for k in range(3):
        C = model.covariance(k)
        expected = scipy.stats.multivariate_normal(model.mu[:, k], C).logpdf(X.T)
        np.testing.assert_allclose(ref[k], expected, rtol=1e-10)
    with pytest.raises(ValueError, match="solver must be one of 'reference', 'auto', got 'slow'"):
        model.scores(X, solver="slow")
