"""Tests of mlpr.gaussian: every expected value is computed here by an independent route
(numpy.linalg.slogdet/solve, scipy.stats, closed forms, hand counts)."""

import math
import warnings

import numpy as np
import pytest
import scipy.integrate
import scipy.stats
from exact_arithmetic import assert_exact, exact_mean_cov

import mlpr.gaussian as gaussian
from mlpr.gaussian import (
    bernoulli_beta_posterior,
    cholesky_factor,
    compute_mu_C,
    loglikelihood,
    logpdf_beta,
    logpdf_GAU_1D,
    logpdf_GAU_ND,
    logpdf_GAU_ND_chol,
    logpmf_bernoulli,
    logpmf_binomial,
    logpmf_categorical,
    logpmf_multinomial,
    ml_bernoulli,
    ml_binomial,
    ml_categorical,
    ml_multinomial,
    sample_GAU_ND,
)

RTOL = 1e-10


def _spd(D, rng, ridge=0.1):
    A = rng.standard_normal((D, D))
    return A @ A.T / D + ridge * np.eye(D)


def _problem(D, N=40, seed=0):
    rng = np.random.default_rng(seed)
    C = _spd(D, rng)
    mu = rng.standard_normal((D, 1))
    X = mu + 2.0 * rng.standard_normal((D, N))
    return X, mu, C


def _reference_logpdf(X, mu, C):
    """log N(x | mu, C) through slogdet and a general linear solve."""
    D = C.shape[0]
    sign, logdet = np.linalg.slogdet(C)
    assert sign > 0
    Z = X - mu
    maha = np.sum(Z * np.linalg.solve(C, Z), axis=0)
    return -0.5 * D * math.log(2 * math.pi) - 0.5 * logdet - 0.5 * maha


# ------------------------------------------------------------------------------------------------
# multivariate Gaussian density


@pytest.mark.parametrize("D", [1, 2, 5, 20])
def test_logpdf_matches_slogdet_solve(D):
    X, mu, C = _problem(D, seed=D)
    np.testing.assert_allclose(logpdf_GAU_ND(X, mu, C), _reference_logpdf(X, mu, C), rtol=RTOL)


@pytest.mark.parametrize("D", [1, 3, 12])
def test_logpdf_matches_scipy_stats(D):
    X, mu, C = _problem(D, seed=10 + D)
    expected = scipy.stats.multivariate_normal.logpdf(X.T, mu.ravel(), C)
    np.testing.assert_allclose(logpdf_GAU_ND(X, mu, C), np.atleast_1d(expected), rtol=RTOL)


def test_logpdf_standard_normal_at_mean():
    # log N(0 | 0, I_D) = -D/2 log(2 pi)
    for D in (1, 2, 7):
        out = logpdf_GAU_ND(np.zeros((D, 1)), np.zeros(D), np.eye(D))
        assert out.shape == (1,)
        np.testing.assert_allclose(out[0], -D / 2 * math.log(2 * math.pi), rtol=1e-14)


def test_logpdf_1d_closed_form():
    rng = np.random.default_rng(3)
    x = rng.normal(1.5, 2.0, size=30)
    mu, var = 1.2, 3.7
    expected = -0.5 * np.log(2 * np.pi * var) - (x - mu) ** 2 / (2 * var)
    np.testing.assert_allclose(logpdf_GAU_1D(x, mu, var), expected, rtol=RTOL)
    np.testing.assert_allclose(logpdf_GAU_ND(x[None, :], mu, [[var]]), expected, rtol=RTOL)
    np.testing.assert_allclose(logpdf_GAU_ND(x[None, :], [mu], var), expected, rtol=RTOL)
    np.testing.assert_allclose(
        logpdf_GAU_1D(x, mu, var), scipy.stats.norm.logpdf(x, mu, math.sqrt(var)), rtol=RTOL
    )


def test_logpdf_1d_broadcasts_parameters():
    x = np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    mu = np.array([[1.0], [4.0]])
    var = np.array([[2.0], [0.5]])
    expected = scipy.stats.norm.logpdf(x, mu, np.sqrt(var))
    np.testing.assert_allclose(logpdf_GAU_1D(x, mu, var), expected, rtol=RTOL)


def test_diagonal_covariance_is_sum_of_1d_densities():
    rng = np.random.default_rng(4)
    D, N = 6, 25
    variances = rng.uniform(0.2, 3.0, size=D)
    mu = rng.standard_normal(D)
    X = rng.standard_normal((D, N)) * 2
    expected = sum(logpdf_GAU_1D(X[i], mu[i], variances[i]) for i in range(D))
    np.testing.assert_allclose(logpdf_GAU_ND(X, mu, np.diag(variances)), expected, rtol=RTOL)


def test_mu_shapes_give_identical_results():
    X, mu, C = _problem(4)
    out = logpdf_GAU_ND(X, mu, C)
    np.testing.assert_array_equal(logpdf_GAU_ND(X, mu.ravel(), C), out)
    np.testing.assert_array_equal(logpdf_GAU_ND(X, mu.reshape(1, -1), C), out)
    np.testing.assert_array_equal(logpdf_GAU_ND(X, list(mu.ravel()), C), out)


def test_memory_order_does_not_matter():
    X, mu, C = _problem(7, N=60)
    out = logpdf_GAU_ND(np.ascontiguousarray(X), mu, C)
    np.testing.assert_allclose(logpdf_GAU_ND(np.asfortranarray(X), mu, C), out, rtol=1e-13)
    rows = np.ascontiguousarray(X.T)  # (N, D) row-per-sample storage, passed as its (D, N) view
    np.testing.assert_allclose(logpdf_GAU_ND(rows.T, mu, C), out, rtol=1e-13)
    np.testing.assert_allclose(logpdf_GAU_ND(X[:, ::-1], mu, C), out[::-1], rtol=1e-13)


def test_single_sample_as_1d_vector():
    X, mu, C = _problem(5)
    out = logpdf_GAU_ND(X[:, 3], mu, C)
    assert out.shape == (1,)
    np.testing.assert_allclose(out, _reference_logpdf(X[:, 3:4], mu, C), rtol=RTOL)


def test_integer_data_accepted():
    X = np.array([[0, 1, 2], [1, 0, -1]])
    C = np.array([[2.0, 0.5], [0.5, 1.0]])
    np.testing.assert_allclose(
        logpdf_GAU_ND(X, [0, 0], C), _reference_logpdf(X.astype(float), np.zeros((2, 1)), C),
        rtol=RTOL,
    )


@pytest.mark.parametrize("offset", [0.0, 1e6])
@pytest.mark.parametrize("width", [1, 7, 52, 1 << 14])
def test_blocked_mahalanobis_equals_the_plain_reference(width, offset):
    """The blocked distance against the plain one, whatever the block width. Independent tests
    of the density: test_gaussian.py's test_logpdf_matches_scipy_stats (scipy),
    test_logpdf_matches_slogdet_solve (a second method), test_logpdf_1d_closed_form (a closed
    form)."""
    # the fast path (blocks of `width` columns, the last one shorter, each whitened in place
    # whatever the memory order of X) against the textbook distance it must reproduce: both
    # private, compared deliberately; offset 1e6: data far from the origin, where a one-pass
    # (uncentred) computation would cancel
    X, mu, C = _problem(3, N=52)
    X, mu = X + offset, mu + offset
    L = np.linalg.cholesky(C)
    plain = gaussian._mahalanobis_sq_plain(X, mu, L)
    for Xl in (X, np.asfortranarray(X), np.ascontiguousarray(X.T).T):
        np.testing.assert_allclose(gaussian._mahalanobis_sq(Xl, mu, L, max_cols=width), plain,
                                   rtol=1e-12)
        np.testing.assert_array_equal(Xl, X)  # whitened in its work buffer, not in X
    # and the plain distance is the independent one (solve with C)
    Z = X - mu
    np.testing.assert_allclose(plain, np.sum(Z * np.linalg.solve(C, Z), axis=0), rtol=1e-10)


def test_ill_conditioned_covariance_stays_accurate():
    rng = np.random.default_rng(5)
    D = 10
    U, _ = np.linalg.qr(rng.standard_normal((D, D)))
    C = (U * np.logspace(0, 6, D)) @ U.T
    C = (C + C.T) / 2
    mu = rng.standard_normal((D, 1))
    X = mu + np.linalg.cholesky(C) @ rng.standard_normal((D, 30))
    np.testing.assert_allclose(logpdf_GAU_ND(X, mu, C), _reference_logpdf(X, mu, C), rtol=1e-8)


def test_badly_scaled_features_are_not_singular():
    variances = np.array([1e10, 1e-8, 1.0])
    X = np.array([[1e5, -2e5], [1e-4, 3e-4], [0.5, -1.0]])
    expected = sum(logpdf_GAU_1D(X[i], 0.0, variances[i]) for i in range(3))
    np.testing.assert_allclose(logpdf_GAU_ND(X, np.zeros(3), np.diag(variances)), expected,
                               rtol=RTOL)


def test_far_samples_are_finite():
    out = logpdf_GAU_ND(np.array([[1e6, -1e6]]), [0.0], [[1e-6]])
    assert np.all(np.isfinite(out)) and np.all(out < -1e17)


def test_logpdf_from_cholesky_factor():
    X, mu, C = _problem(6)
    L = cholesky_factor(C)
    np.testing.assert_allclose(L, np.linalg.cholesky(C), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(L @ L.T, C, rtol=1e-12, atol=1e-14)
    np.testing.assert_array_equal(np.triu(L, 1), 0.0)
    np.testing.assert_allclose(logpdf_GAU_ND_chol(X, mu, L), _reference_logpdf(X, mu, C),
                               rtol=RTOL)


def test_loglikelihood_is_sum():
    X, mu, C = _problem(3)
    ll = loglikelihood(X, mu, C)
    assert isinstance(ll, float)
    np.testing.assert_allclose(ll, _reference_logpdf(X, mu, C).sum(), rtol=RTOL)


# ------------------------------------------------------------------------------------------------
# ML estimates


def test_compute_mu_C_matches_numpy():
    X, _, _ = _problem(4, N=80)
    mu, C = compute_mu_C(X)
    assert mu.shape == (4, 1) and C.shape == (4, 4)
    np.testing.assert_allclose(mu.ravel(), np.mean(X, axis=1), rtol=1e-13)
    np.testing.assert_allclose(C, np.cov(X, bias=True), rtol=1e-12)
    np.testing.assert_array_equal(C, C.T)


def test_compute_mu_C_single_sample():
    with pytest.warns(UserWarning, match="fewer samples"):  # 1 sample of 2 features
        mu, C = compute_mu_C(np.array([[1.0], [2.0]]))
    np.testing.assert_array_equal(mu, [[1.0], [2.0]])
    np.testing.assert_array_equal(C, np.zeros((2, 2)))


def test_ml_loglikelihood_closed_form():
    # at the ML estimate the Mahalanobis terms sum to N * D
    X, _, _ = _problem(3, N=50)
    D, N = X.shape
    mu, C = compute_mu_C(X)
    expected = -0.5 * N * (D * math.log(2 * math.pi) + np.linalg.slogdet(C)[1] + D)
    np.testing.assert_allclose(loglikelihood(X, mu, C), expected, rtol=RTOL)


def test_ml_estimate_maximises_loglikelihood():
    X, _, _ = _problem(3, N=50, seed=7)
    mu, C = compute_mu_C(X)
    ll = loglikelihood(X, mu, C)
    rng = np.random.default_rng(8)
    for _ in range(20):
        d = 0.05 * rng.standard_normal((3, 1))
        assert loglikelihood(X, mu + d, C) < ll
        S = 0.02 * rng.standard_normal((3, 3))
        C2 = C + S + S.T
        if np.linalg.eigvalsh(C2)[0] > 0:
            assert loglikelihood(X, mu, C2) < ll
    for s in (0.9, 0.99, 1.01, 1.1):
        assert loglikelihood(X, mu, s * C) < ll


# ------------------------------------------------------------------------------------------------
# sampling


def test_sampling_moments():
    mu = np.array([[1.0], [-2.0], [0.5]])
    C = np.array([[2.0, 0.6, -0.3], [0.6, 1.0, 0.2], [-0.3, 0.2, 0.5]])
    n = 200_000
    X = sample_GAU_ND(mu, C, n, np.random.default_rng(0))
    assert X.shape == (3, n)
    # standard errors of the sample mean and (Gaussian) sample covariance; 5 sigma bounds
    se_mu = np.sqrt(np.diag(C) / n)
    assert np.all(np.abs(X.mean(axis=1) - mu.ravel()) < 5 * se_mu)
    se_C = np.sqrt((np.outer(np.diag(C), np.diag(C)) + C**2) / n)
    assert np.all(np.abs(np.cov(X, bias=True) - C) < 5 * se_C)


def test_sampling_construction_is_reproducible():
    mu = np.array([0.5, -1.0])
    C = np.array([[1.0, 0.3], [0.3, 0.5]])
    X1 = sample_GAU_ND(mu, C, 1000, np.random.default_rng(42))
    X2 = sample_GAU_ND(mu, C, 1000, np.random.default_rng(42))
    np.testing.assert_array_equal(X1, X2)
    Y = np.random.default_rng(42).standard_normal((2, 1000))
    expected = np.linalg.cholesky(C) @ Y + mu[:, None]
    np.testing.assert_allclose(X1, expected, rtol=1e-13, atol=1e-14)


def test_sampling_singular_covariance():
    v = np.array([[1.0], [2.0], [-1.0]])
    C = v @ v.T  # rank 1
    mu = np.array([1.0, 0.0, 3.0])
    X = sample_GAU_ND(mu, C, 50_000, np.random.default_rng(1))
    Z = X - mu[:, None]
    # every sample lies on the line mu + t v
    residual = Z - v @ (v.T @ Z) / (v.T @ v)
    assert np.abs(residual).max() < 1e-10
    np.testing.assert_allclose(np.cov(X, bias=True), C, atol=0.05)


def test_sampling_zero_samples():
    assert sample_GAU_ND([0.0, 0.0], np.eye(2), 0, np.random.default_rng(0)).shape == (2, 0)


# ------------------------------------------------------------------------------------------------
# discrete models


def test_bernoulli_logpmf_matches_scipy():
    x = np.array([0, 1, 1, 0, 1])
    for p in (0.3, 0.0, 1.0, 0.5):
        with np.errstate(divide="ignore"):
            expected = scipy.stats.bernoulli.logpmf(x, p)
        np.testing.assert_allclose(logpmf_bernoulli(x, p), expected, rtol=RTOL)
    np.testing.assert_allclose(logpmf_bernoulli([True, False], 0.25), np.log([0.25, 0.75]),
                               rtol=RTOL)


def test_bernoulli_ml_and_pseudo_counts():
    x = np.array([1, 0, 1, 1, 0, 1, 1])
    assert ml_bernoulli(x) == pytest.approx(5 / 7, rel=1e-15)
    assert ml_bernoulli(x, pseudo=1.0) == pytest.approx((5 + 1) / (7 + 2), rel=1e-15)
    assert ml_bernoulli(x, pseudo=0.5) == pytest.approx((5 + 0.5) / (7 + 1), rel=1e-15)
    X = np.array([[1, 1, 1, 0], [0, 0, 0, 0]])
    np.testing.assert_allclose(ml_bernoulli(X), [[3 / 4], [0.0]], rtol=1e-15)
    np.testing.assert_allclose(ml_bernoulli(X, pseudo=2), [[5 / 8], [2 / 8]], rtol=1e-15)


def test_bernoulli_per_feature_probabilities_broadcast():
    X = np.array([[1, 0, 1], [0, 0, 1]])
    p = np.array([[0.2], [0.9]])
    expected = np.where(X == 1, p, 1 - p)
    np.testing.assert_allclose(logpmf_bernoulli(X, p), np.log(expected), rtol=RTOL)


def test_binomial_logpmf_matches_scipy():
    k = np.array([0, 3, 7, 10])
    n = 10
    for p in (0.35, 0.0, 1.0):
        with np.errstate(divide="ignore"):
            expected = scipy.stats.binom.logpmf(k, n, p)
        np.testing.assert_allclose(logpmf_binomial(k, n, p), expected, rtol=RTOL)
    np.testing.assert_allclose(logpmf_binomial([2, 5], [4, 9], 0.7),
                               scipy.stats.binom.logpmf([2, 5], [4, 9], 0.7), rtol=RTOL)


def test_binomial_ml():
    assert ml_binomial([3, 5, 2], 10) == pytest.approx(10 / 30, rel=1e-15)
    assert ml_binomial([3, 5, 2], [4, 10, 6]) == pytest.approx(10 / 20, rel=1e-15)


def test_categorical_logpmf_and_ml_against_hand_counts():
    x = np.array([0, 2, 2, 1, 0, 2, 3, 2])
    M = 5
    counts = [list(x).count(m) for m in range(M)]  # [2, 1, 4, 1, 0]
    np.testing.assert_allclose(ml_categorical(x, M), np.array(counts) / 8, rtol=1e-15)
    for a in (0.5, 1.0):
        np.testing.assert_allclose(ml_categorical(x, M, pseudo=a),
                                   (np.array(counts) + a) / (8 + M * a), rtol=1e-15)
        assert ml_categorical(x, M, pseudo=a).sum() == pytest.approx(1.0, abs=1e-15)
    pi = np.array([0.1, 0.2, 0.3, 0.15, 0.25])
    np.testing.assert_allclose(logpmf_categorical(x, pi), np.log([pi[v] for v in x]), rtol=RTOL)
    np.testing.assert_allclose(logpmf_categorical(x, pi[:, None]), np.log(pi[x]), rtol=RTOL)


def test_multinomial_logpmf_matches_scipy():
    pi = np.array([0.2, 0.5, 0.3])
    counts = np.array([[2, 0, 1, 4], [1, 3, 1, 0], [0, 2, 1, 1]])
    expected = [scipy.stats.multinomial.logpmf(counts[:, i], counts[:, i].sum(), pi)
                for i in range(counts.shape[1])]
    np.testing.assert_allclose(logpmf_multinomial(counts, pi), expected, rtol=RTOL)
    np.testing.assert_allclose(logpmf_multinomial(counts[:, 0], pi), expected[:1], rtol=RTOL)


def test_multinomial_ml_and_pseudo_counts():
    counts = np.array([[2, 0, 1], [1, 3, 1], [0, 0, 0]])
    totals = np.array([2 + 0 + 1, 1 + 3 + 1, 0])
    np.testing.assert_allclose(ml_multinomial(counts), totals / 8, rtol=1e-15)
    np.testing.assert_allclose(ml_multinomial(counts, pseudo=1), (totals + 1) / (8 + 3),
                               rtol=1e-15)
    np.testing.assert_allclose(ml_multinomial([3, 1]), [0.75, 0.25], rtol=1e-15)


def test_zero_probabilities_give_minus_inf_without_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # categorical: value 4 never seen in training
        pi = ml_categorical([0, 1, 2, 3, 0], 5)
        out = logpmf_categorical([0, 4, 1], pi)
        assert out[1] == -np.inf and np.isfinite(out[[0, 2]]).all()
        # with a pseudo-count every value keeps a finite log-probability
        assert np.isfinite(logpmf_categorical([0, 4, 1], ml_categorical([0, 1, 2, 3, 0], 5,
                                                                          pseudo=1))).all()
        # Bernoulli: all heads in training
        out = logpmf_bernoulli([1, 0], ml_bernoulli([1, 1, 1]))
        assert out[0] == 0.0 and out[1] == -np.inf
        out = logpmf_bernoulli([1, 0], 0.0)
        assert out[0] == -np.inf and out[1] == 0.0
        # binomial
        assert logpmf_binomial(1, 5, 0.0) == -np.inf and logpmf_binomial(0, 5, 0.0) == 0.0
        assert logpmf_binomial(4, 5, 1.0) == -np.inf and logpmf_binomial(5, 5, 1.0) == 0.0
        # multinomial: a zero-probability value matters only when counted
        out = logpmf_multinomial(np.array([[2, 1], [0, 1]]), [1.0, 0.0])
        assert out[0] == 0.0 and out[1] == -np.inf
        for v in (out, logpmf_categorical([0, 4], pi)):
            assert not np.isnan(v).any()


# ------------------------------------------------------------------------------------------------
# errors


def test_transposed_X_is_explained():
    X, mu, C = _problem(3, N=10)
    with pytest.raises(ValueError, match=r"did you mean X\.T\?"):
        logpdf_GAU_ND(X.T, mu, C)
    with pytest.raises(ValueError, match=r"did you mean X\.T\?"):
        loglikelihood(X.T, mu, C)
    with pytest.raises(ValueError, match=r"did you mean X\.T\?"):
        logpdf_GAU_ND_chol(X.T, mu, cholesky_factor(C))


def test_compute_mu_C_of_transposed_data_warns():
    X, _, _ = _problem(3, N=10)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compute_mu_C(X)
    with pytest.warns(UserWarning, match=r"D has shape \(10, 3\), fewer samples.*D\.T") as rec:
        compute_mu_C(X.T)
    assert rec[0].filename == __file__  # the warning points at the caller


def test_mu_and_C_estimated_from_transposed_data_are_named():
    # mu and C from compute_mu_C(X.T): their size is the number of samples of the correct X
    X, _, _ = _problem(3, N=10)
    with pytest.warns(UserWarning, match="fewer samples"):
        mu, C = compute_mu_C(X.T)
    C = C + np.eye(10)  # (singular otherwise) so that only the shapes are wrong
    for f in (lambda: logpdf_GAU_ND(X, mu, C), lambda: loglikelihood(X, mu, C)):
        with pytest.raises(ValueError, match=r"X has shape \(3, 10\).*mu and C look transpo") as e:
            f()
        assert "did you mean X.T" not in str(e.value)
    with pytest.raises(ValueError, match=r"mu and Lchol look transposed"):
        logpdf_GAU_ND_chol(X, mu, np.linalg.cholesky(C))


def test_wrong_X_dimension():
    X, mu, C = _problem(3, N=10)
    with pytest.raises(ValueError, match="X has 4 features"):
        logpdf_GAU_ND(np.zeros((4, 10)), mu, C)
    with pytest.raises(ValueError, match="X is 1-D"):
        logpdf_GAU_ND(np.zeros(5), mu, C)


def test_mu_of_wrong_size():
    X, mu, C = _problem(4)
    with pytest.raises(ValueError, match=r"mu has shape \(3,\), expected \(4,\)"):
        logpdf_GAU_ND(X, mu.ravel()[:3], C)
    with pytest.raises(ValueError, match=r"mu has shape \(4, 2\)"):
        logpdf_GAU_ND(X, np.hstack([mu, mu]), C)
    with pytest.raises(ValueError, match=r"mu has shape \(3,\)"):
        sample_GAU_ND(np.zeros(3), np.eye(2), 5, np.random.default_rng(0))


def test_singular_covariance_is_explained():
    X = np.zeros((2, 3))
    C = np.array([[1.0, 1.0], [1.0, 1.0]])
    with pytest.raises(ValueError, match=r"C is not positive definite.*smallest eigenvalue"):
        logpdf_GAU_ND(X, np.zeros(2), C)
    with pytest.raises(ValueError, match="covariance floor.*PCA"):
        logpdf_GAU_ND(X, np.zeros(2), np.diag([1.0, 0.0]))
    with pytest.raises(ValueError, match="not positive definite"):
        logpdf_GAU_ND(X, np.zeros(2), -np.eye(2))
    # fewer samples than features: singular up to rounding
    D = np.random.default_rng(0).standard_normal((6, 3))
    with pytest.warns(UserWarning, match="fewer samples"):
        mu, C = compute_mu_C(D)
    with pytest.raises(ValueError, match="not positive definite"):
        logpdf_GAU_ND(D, mu, C)
    # factorisable, but the second feature equals the first up to rounding
    C = np.array([[1.0, 1.0 - 2.0**-53], [1.0 - 2.0**-53, 1.0]])
    np.linalg.cholesky(C)
    with pytest.raises(ValueError, match="not positive definite"):
        logpdf_GAU_ND(X, np.zeros(2), C)
    with pytest.raises(ValueError, match=r"C\[1\] is not positive definite"):
        cholesky_factor(np.zeros((2, 2)), "C[1]")


def test_non_symmetric_covariance():
    with pytest.raises(ValueError, match="not symmetric"):
        logpdf_GAU_ND(np.zeros((2, 3)), np.zeros(2), np.array([[1.0, 0.5], [0.0, 1.0]]))
    with pytest.raises(ValueError, match="square"):
        logpdf_GAU_ND(np.zeros((2, 3)), np.zeros(2), np.ones((2, 3)))


def test_nan_inputs():
    X, mu, C = _problem(2, N=5)
    X[1, 2] = np.nan
    with pytest.raises(ValueError, match="X contains NaN"):
        logpdf_GAU_ND(X, mu, C)
    with pytest.raises(ValueError, match="mu contains NaN"):
        logpdf_GAU_ND(np.zeros((2, 2)), [np.nan, 0.0], C)
    C[0, 0] = np.inf
    with pytest.raises(ValueError, match="C contains NaN"):
        logpdf_GAU_ND(np.zeros((2, 2)), mu, C)
    with pytest.raises(ValueError, match="D contains NaN"):
        compute_mu_C(X)
    with pytest.raises(ValueError, match="x contains NaN"):
        logpdf_GAU_1D([0.0, np.nan], 0.0, 1.0)


def test_bad_cholesky_factor():
    X, mu, C = _problem(3)
    L = cholesky_factor(C)
    with pytest.raises(ValueError, match="lower-triangular"):
        logpdf_GAU_ND_chol(X, mu, L.T)
    with pytest.raises(ValueError, match="positive diagonal"):
        logpdf_GAU_ND_chol(X, mu, -L)


def test_1d_variance_must_be_positive():
    with pytest.raises(ValueError, match="var must be a positive variance, got 0.0"):
        logpdf_GAU_1D([1.0, 2.0], 0.0, 0.0)
    with pytest.raises(ValueError, match="var must be a positive variance, got -1.0"):
        logpdf_GAU_1D([1.0, 2.0], 0.0, -1.0)
    with pytest.raises(ValueError, match="broadcast"):
        logpdf_GAU_1D([1.0, 2.0], [0.0, 1.0, 2.0], 1.0)


def test_rng_must_be_a_generator():
    with pytest.raises(TypeError, match="rng must be a numpy.random.Generator"):
        sample_GAU_ND([0.0], [[1.0]], 5, 0)
    with pytest.raises(TypeError, match="got RandomState"):
        sample_GAU_ND([0.0], [[1.0]], 5, np.random.RandomState(0))
    with pytest.raises(TypeError, match="n must be an integer"):
        sample_GAU_ND([0.0], [[1.0]], 5.0, np.random.default_rng(0))
    with pytest.raises(ValueError, match="not positive semi-definite"):
        sample_GAU_ND([0.0, 0.0], np.diag([1.0, -1.0]), 5, np.random.default_rng(0))


def test_probabilities_out_of_range():
    with pytest.raises(ValueError, match=r"p must hold probabilities in \[0, 1\], got 1.5"):
        logpmf_bernoulli([0, 1], 1.5)
    with pytest.raises(ValueError, match=r"p must hold probabilities in \[0, 1\], got -0.1"):
        logpmf_binomial([1], 3, -0.1)
    with pytest.raises(ValueError, match=r"p must hold probabilities in \[0, 1\], got nan"):
        logpmf_bernoulli([0, 1], np.nan)
    with pytest.raises(ValueError, match=r"pi must hold probabilities in \[0, 1\], got 1.2"):
        logpmf_categorical([0, 1], [1.2, -0.2])
    with pytest.raises(ValueError, match=r"pi must hold probabilities in \[0, 1\], got -0.2"):
        logpmf_categorical([0, 1], [0.2, -0.2, 1.0])
    with pytest.raises(ValueError, match=r"pi must sum to 1 .*got sum 0.9"):
        logpmf_categorical([0, 1], [0.5, 0.4])
    with pytest.raises(ValueError, match=r"pi must sum to 1"):
        logpmf_multinomial([[1], [2]], [0.5, 0.6])
    # within tolerance is fine
    logpmf_categorical([0, 1], [0.5, 0.5 + 1e-10])


def test_discrete_argument_errors():
    with pytest.raises(ValueError, match="x must hold binary outcomes 0 or 1, got 2.0"):
        logpmf_bernoulli([0, 2], 0.5)
    with pytest.raises(ValueError, match="x must hold binary outcomes"):
        ml_bernoulli([0.5, 1])
    with pytest.raises(ValueError, match="k must not exceed the number of trials n"):
        logpmf_binomial([3, 6], 5, 0.5)
    with pytest.raises(ValueError, match="k must not exceed"):
        ml_binomial([3, 6], 5)
    with pytest.raises(ValueError, match="k must hold non-negative integer counts, got 1.5"):
        logpmf_binomial([1.5], 5, 0.5)
    with pytest.raises(ValueError, match="n sums to 0"):
        ml_binomial([0], 0)
    with pytest.raises(ValueError, match="x holds label 3 but only 3 classes"):
        logpmf_categorical([0, 3], [0.2, 0.3, 0.5])
    with pytest.raises(ValueError, match="x holds label 5"):
        ml_categorical([0, 5], 3)
    with pytest.raises(ValueError, match=r"pseudo.*>= 0.*got -1.0"):
        ml_categorical([0, 1], 3, pseudo=-1.0)
    with pytest.raises(TypeError, match="pseudo must be a real number"):
        ml_multinomial([[1], [2]], pseudo="1")
    with pytest.raises(ValueError, match="no samples and pseudo is 0"):
        ml_categorical([], 3)
    with pytest.raises(ValueError, match="counts must hold non-negative integer counts"):
        logpmf_multinomial([[1, -1], [2, 0]], [0.5, 0.5])
    with pytest.raises(ValueError, match=r"did you mean counts\.T\?"):
        logpmf_multinomial(np.ones((4, 3)), [0.2, 0.3, 0.5])
    with pytest.raises(ValueError, match="counts are all zero"):
        ml_multinomial(np.zeros((3, 2)))


def _offset_data(offset, N=500, seed=0):
    # 4 features of unit-or-larger spread around a common offset; at offset 25 the former
    # one-pass D D^T / N - mu mu^T (used while mean^2 / variance < 1e3) lost ~3 digits
    rng = np.random.default_rng(seed)
    return offset + rng.standard_normal((4, N)) * np.array([[1.0], [1.5], [2.0], [1.0]])


@pytest.mark.parametrize("offset", [0.0, 25.0, 1e6])
def test_compute_mu_C_is_exact_to_rounding_on_offset_data(offset):
    D = _offset_data(offset)
    mu_x, C_x = exact_mean_cov(D)
    mu, C = compute_mu_C(D)
    assert_exact(mu, mu_x)
    assert_exact(C, C_x)  # the one-pass form was off by 1e-13 of the largest entry at 25
    np.testing.assert_array_equal(C, C.T)
    # the blocked path (8 blocks of 64 columns, the last one shorter), private, on purpose
    assert_exact(gaussian._centred_cov_blocked(D, mu, max_cols=64), C_x)


def test_a_centred_student_covariance_passes_the_graders_rtol():
    # measured with the former one-pass estimate (1/N D D^T - mu mu^T): a student's centred
    # two-pass covariance failed assert_allclose(rtol=1e-10) entry by entry on 39 of these 200
    # data sets of N(25, 1); the centred estimate compute_mu_C uses now passes on all of them
    failures = 0
    for seed in range(200):
        D = 25.0 + np.random.default_rng(seed).standard_normal((4, 500))
        Dc = D - D.mean(axis=1, keepdims=True)
        C_student = Dc @ Dc.T / D.shape[1]
        failures += not np.allclose(compute_mu_C(D)[1], C_student, rtol=1e-10, atol=0)
    assert failures == 0


def test_blocked_covariance_equals_the_plain_reference():
    """The blocked covariance against the plain one, whatever the block width. Independent tests
    of the covariance: test_compute_mu_C_matches_numpy (numpy.cov) and
    test_compute_mu_C_exact_despite_large_offsets (an explicit centred product)."""
    # the fast path against the plain formula it implements: both private, compared on purpose
    rng = np.random.default_rng(3)
    D = 7.0 + rng.standard_normal((5, 1000))
    mu = D.mean(axis=1, keepdims=True)
    plain = gaussian._centred_cov(D, mu)
    for width in (1, 7, 999, 1000):
        for Dl in (D, np.asfortranarray(D)):
            np.testing.assert_allclose(gaussian._centred_cov_blocked(Dl, mu, max_cols=width),
                                       plain, rtol=0, atol=1e-14 * np.abs(plain).max())
    np.testing.assert_allclose(compute_mu_C(np.asfortranarray(D))[1], plain, rtol=0,
                               atol=1e-14 * np.abs(plain).max())


@pytest.mark.parametrize("offset", [0.0, 1e3, 1e8])
def test_compute_mu_C_exact_despite_large_offsets(offset):
    # the one-pass D D^T / N - mu mu^T cancels for large offsets; the centred fallback must not
    rng = np.random.default_rng(7)
    D = offset + rng.standard_normal((3, 500)) * np.array([[1.0], [1e-2], [10.0]])
    mu, C = compute_mu_C(D)
    Dc = D - D.mean(axis=1, keepdims=True)
    np.testing.assert_allclose(C, Dc @ Dc.T / D.shape[1], rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(C, C.T)


# ------------------------------------------------------------------------------------------------
# bad input


def test_empty_covariance():
    with pytest.raises(ValueError, match=r"C must be a non-empty \(D, D\) matrix, got shape \(0,"):
        logpdf_GAU_ND(np.zeros((0, 2)), np.zeros(0), np.zeros((0, 0)))
    with pytest.raises(ValueError, match=r"C must be a non-empty \(D, D\) matrix"):
        sample_GAU_ND(np.zeros(0), np.zeros((0, 0)), 3, np.random.default_rng(0))


def test_scalar_covariance_only_for_one_feature():
    X = np.zeros((3, 4))
    with pytest.raises(ValueError, match=r"C is a scalar, .*mu has shape \(3,\).*np.eye\(3\)"):
        logpdf_GAU_ND(X, np.zeros(3), 2.0)
    with pytest.raises(ValueError, match=r"C is a scalar, a covariance only for D = 1"):
        sample_GAU_ND(np.zeros(3), 2.0, 5, np.random.default_rng(0))
    # D = 1 with a scalar variance is still fine
    np.testing.assert_allclose(
        logpdf_GAU_ND(np.zeros((1, 2)), 0.0, 2.0), logpdf_GAU_1D(np.zeros(2), 0.0, 2.0)
    )


def test_zero_features_rejected():
    with pytest.raises(ValueError, match=r"D has 0 features \(rows\), shape \(0, 5\)"):
        compute_mu_C(np.zeros((0, 5)))
    with pytest.raises(ValueError, match=r"counts has 0 features \(rows\)"):
        ml_multinomial(np.zeros((0, 3)), pseudo=1.0)


def test_nan_density_from_a_degenerate_factor_is_an_error():
    # a subnormal pivot makes the inverse factor overflow and the density NaN
    X = np.random.default_rng(0).normal(size=(3, 4))
    with pytest.raises(ValueError, match="log-density is NaN for finite X.*covariance floor"):
        logpdf_GAU_ND_chol(X, np.zeros(3), np.diag([1.0, 1e-320, 1.0]))


def test_compute_mu_C_values_beyond_1e154():
    # D D^T overflows, the centred product does not: the covariance is still exact
    rng = np.random.default_rng(1)
    D = 1e160 + rng.normal(size=(2, 50)) * 1e150
    mu, C = compute_mu_C(D)
    np.testing.assert_allclose(C, np.cov(D, bias=True), rtol=1e-10)
    np.testing.assert_allclose(mu.ravel(), D.mean(axis=1), rtol=1e-12)


def test_compute_mu_C_overflow():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=r"computing the covariance of D overflows float64"):
            compute_mu_C(np.array([[1e200, -1e200, 0.0], [0.0, 1.0, 2.0]]))
        with pytest.raises(ValueError, match=r"computing the mean of D overflows.*1e\+308"):
            compute_mu_C(np.array([[1e308, 1e308]]))


def test_per_feature_parameters_must_be_columns():
    # p (D,) against x (D, N) broadcast along the samples: wrong when D == N, an error otherwise
    x = np.array([[0, 1, 1], [1, 0, 0], [1, 1, 0]])
    with pytest.raises(ValueError, match=r"p has shape \(3,\), one value per feature.*vcol\(p\)"):
        logpmf_bernoulli(x, np.array([0.1, 0.5, 0.9]))
    with pytest.raises(ValueError, match=r"mu has shape \(3,\), one value per feature"):
        logpdf_GAU_1D(x, np.zeros(3), 1.0)
    with pytest.raises(ValueError, match=r"var has shape \(2,\).*shape \(2, 5\)"):
        logpdf_GAU_1D(np.zeros((2, 5)), 0.0, np.ones(2))
    # as columns they are fine, and per-sample vectors (length N != D) still broadcast
    np.testing.assert_allclose(
        logpmf_bernoulli(x, np.array([[0.1], [0.5], [0.9]])),
        np.log(np.where(x == 1, [[0.1], [0.5], [0.9]], [[0.9], [0.5], [0.1]])),
        rtol=RTOL,
    )
    assert logpmf_bernoulli(np.zeros((2, 4)), np.full(4, 0.5)).shape == (2, 4)


def test_bernoulli_shapes_that_do_not_broadcast():
    with pytest.raises(ValueError, match=r"x and p must broadcast together, got shapes \(3, 5\)"):
        logpmf_bernoulli(np.zeros((3, 5)), np.full((1, 3), 0.5))


# -- Bayesian estimation of a Bernoulli parameter (notes section 4.5.1) ---------------------------


@pytest.mark.parametrize("a, b", [(1.0, 1.0), (2.0, 5.0), (0.5, 0.5), (3.0, 1.0)])
def test_logpdf_beta_matches_scipy(a, b):
    p = np.linspace(0.01, 0.99, 37)
    np.testing.assert_allclose(logpdf_beta(p, a, b), scipy.stats.beta(a, b).logpdf(p),
                               rtol=1e-12)
    P = p.reshape(37, 1) * np.ones((1, 2))  # any shape
    assert logpdf_beta(P, a, b).shape == (37, 2)


def test_logpdf_beta_at_the_ends():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(logpdf_beta([0.0, 1.0], 1.0, 1.0), [0.0, 0.0])  # uniform
        np.testing.assert_array_equal(logpdf_beta([0.0, 1.0], 2.0, 2.0), [-np.inf, -np.inf])
        np.testing.assert_array_equal(logpdf_beta([0.0, 1.0], 0.5, 0.5), [np.inf, np.inf])
        assert logpdf_beta(1.0, 4.0, 1.0) == pytest.approx(math.log(4.0))  # 4 p^3 at p = 1


def test_coin_three_heads_posterior_by_hand():
    # notes 4.5.1: 3 tosses, all heads; pi_ML = 1
    x = np.array([1, 1, 1])
    assert ml_bernoulli(x) == 1.0
    post = bernoulli_beta_posterior(x)  # uniform prior Beta(1, 1)
    assert (post.a, post.b) == (4.0, 1.0)
    assert post.mean() == pytest.approx(4 / 5, rel=1e-15)
    assert post.predictive() == post.mean()
    assert post.mode() == 1.0  # the MAP under a flat prior is the ML estimate
    post = bernoulli_beta_posterior(x, a=2.0, b=2.0)
    assert (post.a, post.b) == (5.0, 2.0)
    assert post.mean() == pytest.approx(5 / 7, rel=1e-15)
    assert post.mode() == pytest.approx(4 / 5, rel=1e-15)  # (a - 1) / (a + b - 2)


@pytest.mark.parametrize("a, b", [(1.0, 1.0), (0.5, 0.5), (2.0, 5.0), (10.0, 10.0)])
def test_beta_posterior_against_scipy(a, b):
    rng = np.random.default_rng(0)
    x = (rng.random(23) < 0.3).astype(int)
    n1 = int(x.sum())
    post = bernoulli_beta_posterior(x, a, b)
    ref = scipy.stats.beta(a + n1, b + x.size - n1)
    assert post.mean() == pytest.approx(ref.mean(), rel=1e-14)
    p = np.linspace(0.02, 0.98, 25)
    np.testing.assert_allclose(post.logpdf(p), ref.logpdf(p), rtol=1e-12)
    # the posterior is the normalised product prior x likelihood (Bayes' rule, numerically)
    lik = np.exp(logpmf_bernoulli(x[:, None], p[None, :]).sum(axis=0))
    unnorm = lik * np.exp(logpdf_beta(p, a, b))
    ratio = unnorm / np.exp(post.logpdf(p))
    np.testing.assert_allclose(ratio, ratio[0], rtol=1e-10)  # proportional at every p
    # predictive = integral of p over the posterior (quadrature, a second route)
    integral, _ = scipy.integrate.quad(lambda q: q * ref.pdf(q), 0.0, 1.0)
    assert post.predictive() == pytest.approx(integral, rel=1e-9)


def test_beta_posterior_sequential_equals_batch():
    x = np.array([1, 0, 0, 1, 1, 1, 0])
    post = bernoulli_beta_posterior(x[:3], 2.0, 3.0)
    post = bernoulli_beta_posterior(x[3:], post.a, post.b)  # yesterday's posterior as prior
    assert post == bernoulli_beta_posterior(x, 2.0, 3.0)
    assert bernoulli_beta_posterior([], 2.0, 3.0) == gaussian.BetaBernoulliPosterior(2.0, 3.0)


@pytest.mark.parametrize("pseudo", [0.5, 1.0, 3.0])
def test_pseudo_counts_are_a_symmetric_beta_prior(pseudo):
    x = np.array([1, 1, 1, 0, 1])
    post = bernoulli_beta_posterior(x, pseudo, pseudo)
    assert post.predictive() == pytest.approx(ml_bernoulli(x, pseudo=pseudo), rel=1e-15)
    # pseudo = 1, Laplace's rule of succession: (n1 + 1) / (N + 2)
    if pseudo == 1.0:
        assert post.mean() == pytest.approx(5 / 7, rel=1e-15)
    # the ML estimate is the MAP of the flat prior
    assert bernoulli_beta_posterior(x).mode() == pytest.approx(ml_bernoulli(x), rel=1e-15)


def test_beta_errors():
    with pytest.raises(ValueError, match="binary outcomes"):
        bernoulli_beta_posterior([1, 2])
    with pytest.raises(ValueError, match=r"1-D array of N binary outcomes, got shape \(1, 3\)"):
        bernoulli_beta_posterior([[1, 0, 1]])
    with pytest.raises(ValueError, match="a must be finite and > 0"):
        bernoulli_beta_posterior([1], a=0.0)
    with pytest.raises(ValueError, match="b must be finite and > 0"):
        bernoulli_beta_posterior([1], b=-1.0)
    with pytest.raises(TypeError, match="a must be a real number"):
        bernoulli_beta_posterior([1], a="1")
    with pytest.raises(ValueError, match=r"probabilities in \[0, 1\]"):
        logpdf_beta([0.5, 1.5], 1.0, 1.0)
    with pytest.raises(ValueError, match="b must be finite"):
        logpdf_beta(0.5, 1.0, np.inf)
    with pytest.raises(ValueError, match=r"probabilities in \[0, 1\]"):
        bernoulli_beta_posterior([1, 0]).logpdf(-0.1)
    for a, b in ((1.0, 1.0), (0.5, 3.0), (3.0, 0.5)):
        with pytest.raises(ValueError, match="no single mode"):
            gaussian.BetaBernoulliPosterior(a, b).mode()
    with pytest.raises(ValueError, match="a must be finite and > 0"):
        gaussian.BetaBernoulliPosterior(0.0, 1.0)
    with pytest.raises(TypeError, match="b must be a real number"):
        gaussian.BetaBernoulliPosterior(1.0, None)


def test_beta_posterior_mean_and_mode_survive_an_overflowing_a_plus_b():
    x = np.array([1, 0, 1])
    post = bernoulli_beta_posterior(x, a=1e308, b=1e308)  # a + b = inf in float64
    assert post.mean() == pytest.approx(0.5, rel=1e-15)
    assert post.predictive() == pytest.approx(0.5, rel=1e-15)
    assert post.mode() == pytest.approx(0.5, rel=1e-15)
    post = bernoulli_beta_posterior(x, a=1.5e308, b=0.5e308)
    assert post.mean() == pytest.approx(0.75, rel=1e-15)  # 1.5 / (1.5 + 0.5), exactly
