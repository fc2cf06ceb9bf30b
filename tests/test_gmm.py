"""Tests of mlpr.gmm (notes ch. 9) and of the chapter-9 plot helpers."""

import warnings

import numpy as np
import pytest

from mlpr.gaussian import compute_mu_C, logpdf_GAU_ND
from mlpr.generative import train_mvg, train_naive_bayes
from mlpr.gmm import (
    GMM,
    DegenerateComponentError,
    GMMClassifier,
    OpenSetClassifier,
    em_step,
    gmm_from_clusters,
    gmm_statistics,
    hard_assignments,
    kmeans,
    lbg_gmm_classifiers,
    log_joint_GMM,
    logpdf_GMM,
    responsibilities,
    sample_GMM,
    split_gmm,
    train_gmm_classifier,
    train_gmm_em,
    train_gmm_hard_em,
    train_gmm_lbg,
    train_open_set_classifier,
)
from mlpr.utils import ConvergenceWarning

COV_TYPES = ("full", "diagonal", "tied")


def two_blobs(n=300, seed=0):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((3, n // 2))
    B = 1.5 * rng.standard_normal((3, n - n // 2)) + np.array([[4.0], [1.0], [-1.0]])
    return np.hstack([A, B])


@pytest.fixture
def gmm3():
    return GMM.from_list([
        (0.2, np.array([0.0, 0.0]), np.eye(2)),
        (0.5, np.array([[3.0], [1.0]]), np.array([[2.0, 0.5], [0.5, 1.0]])),
        (0.3, np.array([-2.0, 2.0]), np.array([[0.5, -0.2], [-0.2, 0.3]])),
    ])


def constrained(g: GMM, cov_type: str) -> GMM:
    """The same GMM with covariances made diagonal or tied (to start each type's EM from a model
    of its own family)."""
    if cov_type == "diagonal":
        return GMM(w=g.w, mu=g.mu, C=g.C * np.eye(g.n_features))
    if cov_type == "tied":
        return GMM(w=g.w, mu=g.mu, C=np.broadcast_to(np.einsum("c,cij->ij", g.w, g.C), g.C.shape))
    return g


# -- the model ------------------------------------------------------------------------------------


def test_list_form_round_trip_equality_and_hash(gmm3):
    again = GMM.from_list(gmm3.to_list())
    assert again == gmm3 and hash(again) == hash(gmm3)
    w, mu, C = gmm3.to_list()[1]
    assert isinstance(w, float) and mu.shape == (2, 1) and C.shape == (2, 2)
    assert gmm3.n_components == 3 and gmm3.n_features == 2
    with pytest.raises(ValueError, match="read-only"):
        gmm3.mu[0, 0] = 1.0


def test_one_dimensional_list_form_accepts_scalars():
    g = GMM.from_list([(0.5, 0.0, 1.0), (0.5, 2.0, 4.0)])
    assert g.C.shape == (2, 1, 1)
    x = np.array([[0.3, -1.0]])
    direct = np.log(0.5 * np.exp(logpdf_GAU_ND(x, 0.0, 1.0))
                    + 0.5 * np.exp(logpdf_GAU_ND(x, 2.0, 4.0)))
    np.testing.assert_allclose(logpdf_GMM(x, g), direct, rtol=1e-12)


# -- log-densities (eq. 185-192) ------------------------------------------------------------------


def test_logpdf_gmm_against_a_direct_sum_of_densities(gmm3):
    X = np.random.default_rng(1).normal(size=(2, 50)) * 3
    direct = np.log(sum(w * np.exp(logpdf_GAU_ND(X, mu, C)) for w, mu, C in gmm3.to_list()))
    np.testing.assert_allclose(logpdf_GMM(X, gmm3), direct, rtol=1e-12)
    np.testing.assert_allclose(logpdf_GMM(X, gmm3.to_list()), direct, rtol=1e-12)
    # diagonal and tied covariances take shortcuts (expanded distances): same numbers, also for
    # samples so far away that the expansion would cancel and the direct route is taken
    far = np.hstack([X, [[3e4, -1e5], [2e5, 1e3]]])
    for cov_type in ("diagonal", "tied"):
        g = constrained(gmm3, cov_type)
        for data in (X, far):
            joint = np.stack([np.log(w) + logpdf_GAU_ND(data, mu, C) for w, mu, C in g.to_list()])
            np.testing.assert_allclose(log_joint_GMM(data, g), joint, rtol=1e-12)


def test_joint_densities_responsibilities_and_hard_assignments(gmm3):
    X = np.random.default_rng(2).normal(size=(2, 40)) * 2
    S = log_joint_GMM(X, gmm3)
    assert S.shape == (3, 40)
    np.testing.assert_allclose(S[1], np.log(0.5) + logpdf_GAU_ND(X, gmm3.mu[:, 1], gmm3.C[1]),
                               rtol=1e-12)
    gamma = responsibilities(X, gmm3)
    np.testing.assert_allclose(gamma.sum(axis=0), 1.0, rtol=1e-12)
    np.testing.assert_allclose(gamma, np.exp(S) / np.exp(S).sum(axis=0), rtol=1e-10)
    np.testing.assert_array_equal(hard_assignments(X, gmm3), np.argmax(gamma, axis=0))
    # far from the data the densities underflow, the log-domain posteriors do not
    far = np.array([[60.0], [-50.0]])
    assert np.all(np.isfinite(logpdf_GMM(far, gmm3)))
    np.testing.assert_allclose(responsibilities(far, gmm3).sum(), 1.0)


def test_sampler_moments_and_components(gmm3):
    X, G = sample_GMM(gmm3, 200_000, np.random.default_rng(3), return_components=True)
    assert X.shape == (2, 200_000) and G.shape == (200_000,)
    np.testing.assert_allclose(np.bincount(G) / G.size, gmm3.w, atol=0.005)
    mean = gmm3.mu @ gmm3.w
    second = sum(w * (C + np.outer(m, m)) for w, m, C in zip(gmm3.w, gmm3.mu.T, gmm3.C))
    cov = second - np.outer(mean, mean)
    np.testing.assert_allclose(X.mean(axis=1), mean, atol=0.02)
    np.testing.assert_allclose(np.cov(X, bias=True), cov, atol=0.05)
    assert np.array_equal(sample_GMM(gmm3, 5, np.random.default_rng(4)),
                          sample_GMM(gmm3, 5, np.random.default_rng(4)))


# -- EM (eq. 198-201) -----------------------------------------------------------------------------


def test_statistics_and_em_step_by_hand(gmm3):
    X = np.random.default_rng(5).normal(size=(2, 30)) * 2
    gamma = responsibilities(X, gmm3)
    Z, F, S = gmm_statistics(X, gamma)
    for c in range(3):  # a loop over samples: the textbook sums
        assert np.isclose(Z[c], sum(gamma[c, i] for i in range(30)))
        np.testing.assert_allclose(F[:, c], sum(gamma[c, i] * X[:, i] for i in range(30)))
        np.testing.assert_allclose(S[c], sum(gamma[c, i] * np.outer(X[:, i], X[:, i])
                                             for i in range(30)), rtol=1e-12)
    new = em_step(X, gmm3, "full")
    np.testing.assert_allclose(new.w, Z / 30, rtol=1e-12)
    np.testing.assert_allclose(new.mu, F / Z, rtol=1e-12)
    # the covariance of the weighted samples around the new mean, computed in two passes
    for c in range(3):
        d = X - new.mu[:, [c]]
        np.testing.assert_allclose(new.C[c], (gamma[c] * d) @ d.T / Z[c], rtol=1e-10, atol=1e-12)
    tied = em_step(X, gmm3, "tied")
    np.testing.assert_allclose(tied.C[0], np.einsum("c,cij->ij", Z, new.C) / 30, rtol=1e-12)
    assert all(np.array_equal(tied.C[0], Cc) for Cc in tied.C)
    diag = em_step(X, gmm3, "diagonal")
    np.testing.assert_allclose(diag.C, new.C * np.eye(2), rtol=1e-12)


@pytest.mark.parametrize("cov_type", COV_TYPES)
@pytest.mark.parametrize("psi", [None, 0.5])
def test_em_never_decreases_the_average_log_likelihood(cov_type, psi):
    X = two_blobs()
    start = split_gmm(split_gmm(GMM(w=np.ones(1), mu=X[:, :1], C=np.eye(3)[None]), 0.5), 0.5)
    gmm, hist = train_gmm_em(X, constrained(start, cov_type), cov_type, psi=psi, tol=1e-9)
    assert len(hist) > 5
    assert np.all(np.diff(hist) >= -1e-12 * np.abs(hist[:-1]))
    np.testing.assert_allclose(hist[-1], logpdf_GMM(X, gmm).mean(), rtol=1e-12)
    assert hist[-1] - hist[-2] < 1e-9  # stopped by the course's criterion


@pytest.mark.parametrize("cov_type", ["full", "tied"])
def test_one_component_is_the_ml_gaussian(cov_type):
    X = two_blobs()
    mu, C = compute_mu_C(X)
    start = GMM(w=np.ones(1), mu=np.zeros(3), C=np.eye(3)[None])
    gmm, hist = train_gmm_em(X, start, cov_type)
    np.testing.assert_allclose(gmm.mu, mu, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(gmm.C[0], C, rtol=1e-12)
    assert len(hist) == 3  # one step reaches the optimum, the second gains nothing
    first = train_gmm_lbg(X, 1, cov_type, psi=None)[0]
    np.testing.assert_allclose(first.C[0], C, rtol=1e-14)


def test_floor_keeps_every_eigenvalue_above_psi():
    X = two_blobs() * np.array([[1.0], [0.05], [0.01]])  # small variances along two axes
    for cov_type in COV_TYPES:
        models = train_gmm_lbg(X, 4, cov_type, psi=0.1)
        for g in models:
            assert min(np.linalg.eigvalsh(Cc)[0] for Cc in g.C) >= 0.1 * (1 - 1e-10)
        if cov_type == "diagonal":
            assert np.array_equal(models[-1].C, models[-1].C * np.eye(3))


def test_split_is_symmetric_and_halves_the_weights(gmm3):
    s = split_gmm(gmm3, alpha=0.3)
    assert s.n_components == 6
    for c in range(3):
        U, lam, _ = np.linalg.svd(gmm3.C[c])
        d = 0.3 * np.sqrt(lam[0]) * U[:, 0]
        lo, hi = s.mu[:, 2 * c], s.mu[:, 2 * c + 1]
        np.testing.assert_allclose((lo + hi) / 2, gmm3.mu[:, c], atol=1e-14)
        assert np.allclose(hi - lo, 2 * d) or np.allclose(hi - lo, -2 * d)
        assert s.w[2 * c] == s.w[2 * c + 1] == gmm3.w[c] / 2
        assert np.array_equal(s.C[2 * c], gmm3.C[c])


def test_lbg_returns_every_size_and_its_histories():
    X = two_blobs()
    models, hists = train_gmm_lbg(X, 8, "full", psi=0.01, return_history=True)
    assert [g.n_components for g in models] == [1, 2, 4, 8]
    assert len(hists) == 4 and len(hists[0]) == 1
    for g, h in zip(models, hists):
        np.testing.assert_allclose(h[-1], logpdf_GMM(X, g).mean(), rtol=1e-12)
    # more components never fit the training data worse (each EM starts from the split model)
    assert all(b[-1] >= a[-1] - 1e-12 for a, b in zip(hists, hists[1:]))


# -- hard EM and K-means (9.2) --------------------------------------------------------------------


def test_kmeans_finds_well_separated_blobs():
    rng = np.random.default_rng(6)
    centres = np.array([[0.0, 10.0, 0.0], [0.0, 0.0, 10.0]])
    X = np.hstack([centres[:, [k]] + 0.5 * rng.standard_normal((2, 100)) for k in range(3)])
    truth = np.repeat(np.arange(3), 100)
    mu, z, hist = kmeans(X, centres + 3.0)
    np.testing.assert_array_equal(z, truth)
    np.testing.assert_allclose(mu, np.stack([X[:, truth == k].mean(axis=1) for k in range(3)], 1))
    assert np.all(np.diff(hist) >= -1e-12)
    mu2, z2, _ = kmeans(X, 3, rng=np.random.default_rng(0))
    assert len(set(zip(z2, truth))) == 3  # the same partition, up to a relabelling


def test_kmeans_reseeds_an_empty_cluster():
    X = two_blobs()
    init = np.hstack([X[:, :2], np.full((3, 1), 1e3)])  # the third centroid attracts nothing
    mu, z, _ = kmeans(X, init)
    assert np.all(np.isfinite(mu)) and np.bincount(z, minlength=3).min() >= 1


def test_hard_em_is_monotone_and_reaches_fixed_assignments():
    X = two_blobs()
    start = train_gmm_lbg(X, 2, "full", psi=0.01, tol=1e-1)[-1]
    g, z, hist = train_gmm_hard_em(X, start, "full", psi=0.01)
    assert np.all(np.diff(hist) >= -1e-12)
    np.testing.assert_array_equal(hard_assignments(X, g), z)
    np.testing.assert_allclose(g.w, np.bincount(z, minlength=2) / X.shape[1])


def test_gmm_from_clusters_is_the_ml_estimate_of_each_cluster():
    X = two_blobs()
    z = (X[0] > 2).astype(int)
    g = gmm_from_clusters(X, z)
    for c in range(2):
        mu, C = compute_mu_C(X[:, z == c])
        np.testing.assert_allclose(g.mu[:, [c]], mu, rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(g.C[c], C, rtol=1e-10, atol=1e-13)
    np.testing.assert_allclose(g.w, np.bincount(z) / z.size)
    with pytest.raises(ValueError, match="no sample of class 1"):
        gmm_from_clusters(X, np.where(z == 1, 2, z))


def test_hard_em_reseeds_an_empty_component():
    X = two_blobs()
    start = GMM.from_list([(0.5, X[:, 0], np.eye(3)), (0.5, np.full(3, 1e3), np.eye(3))])
    g, z, _ = train_gmm_hard_em(X, start, "full", psi=0.01)
    assert np.all(np.isfinite(g.mu)) and np.bincount(z, minlength=2).min() >= 1
    assert np.all(g.mu[:, 1] < 100)  # the far component moved onto the data


# -- degeneracy ------------------------------------------------------------------------------------


def collapsing_start():
    rng = np.random.default_rng(0)
    X = np.hstack([rng.standard_normal((1, 200)), [[10.0]]])
    g = GMM.from_list([(0.99, 0.0, 1.0), (0.01, 10.0, 0.5)])
    return X, g


def test_a_collapsing_component_is_diagnosed_and_held_by_the_floor():
    X, g = collapsing_start()
    with pytest.raises(DegenerateComponentError, match="component 1.*psi") as info:
        train_gmm_em(X, g)
    assert info.value.component == 1 and np.all(np.isfinite(info.value.history))
    assert info.value.gmm == g
    gmm, hist = train_gmm_em(X, g, psi=0.01)
    assert gmm.C[1, 0, 0] == 0.01 and np.all(np.isfinite(hist))


def test_a_component_without_samples_is_diagnosed():
    X = np.random.default_rng(0).standard_normal((2, 50))
    g = GMM.from_list([(0.5, np.zeros(2), np.eye(2)), (0.5, np.array([1e3, 0.0]), np.eye(2))])
    with pytest.raises(DegenerateComponentError, match="component 1.*no sample"):
        em_step(X, g)


def test_collinear_features_are_a_singular_component_not_a_nan():
    x = np.random.default_rng(0).standard_normal(60)
    X = np.vstack([x, 2.0 * x])  # every covariance estimated from X is singular
    g = GMM.from_list([(0.5, np.zeros(2), np.eye(2)), (0.5, np.ones(2), np.eye(2))])
    with pytest.raises(DegenerateComponentError, match="component 0.*smallest eigenvalue"):
        em_step(X, g)
    with pytest.raises(DegenerateComponentError, match="component 0.*smallest eigenvalue") as info:
        train_gmm_em(X, g)
    assert info.value.gmm == g and len(info.value.history) == 1
    with pytest.raises(DegenerateComponentError, match="ML Gaussian.*singular"):
        train_gmm_lbg(X, 2, psi=None)
    assert np.all(np.isfinite(train_gmm_lbg(X, 2, psi=0.01)[-1].C))  # the floor holds it


def test_degenerate_clusters_and_classes_are_named():
    X = two_blobs()
    z = np.zeros(X.shape[1], dtype=int)
    z[:2] = 1  # a cluster of two samples in 3-D: a singular covariance
    with pytest.raises(DegenerateComponentError, match="component 1"):
        gmm_from_clusters(X, z)
    assert np.all(np.linalg.eigvalsh(gmm_from_clusters(X, z, psi=0.01).C) >= 0.01 - 1e-12)
    X, L = iris_like()
    X[:, L == 1] = X[:, L == 1][:, :3].repeat(20, axis=1)  # class 1: three distinct points
    with pytest.raises(DegenerateComponentError, match="class 1: GMM component"):
        train_gmm_classifier(X, L, 2, "full", psi=None)


# -- classifiers (9.5) -----------------------------------------------------------------------------


def iris_like(seed=0):
    rng = np.random.default_rng(seed)
    X = np.hstack([rng.standard_normal((2, 60)) + m for m in ([[0], [0]], [[3], [1]], [[0], [4]])])
    return X, np.repeat(np.arange(3), 60)


def test_one_component_classifiers_are_the_gaussian_classifiers():
    X, L = iris_like()
    S = train_gmm_classifier(X, L, 1, "full", psi=None).scores(X)
    np.testing.assert_allclose(S, train_mvg(X, L).scores(X), rtol=1e-10)
    S = train_gmm_classifier(X, L, 1, "tied", psi=None).scores(X)  # tied within a class: MVG
    np.testing.assert_allclose(S, train_mvg(X, L).scores(X), rtol=1e-10)
    S = train_gmm_classifier(X, L, 1, "diagonal", psi=None).scores(X)
    np.testing.assert_allclose(S, train_naive_bayes(X, L).scores(X), rtol=1e-10)


def test_classifier_sizes_per_class_and_llr():
    X, L = iris_like()
    clf = train_gmm_classifier(X, L, [1, 2, 4], psi=0.01)
    assert [g.n_components for g in clf.gmms] == [1, 2, 4]
    path = lbg_gmm_classifiers(X, L, 4, psi=0.01)
    assert sorted(path) == [1, 2, 4]
    assert path[4] == train_gmm_classifier(X, L, 4, psi=0.01)
    b = train_gmm_classifier(X[:, L < 2], L[L < 2], 2, psi=0.01)
    S = b.scores(X)
    np.testing.assert_array_equal(b.llr(X), S[1] - S[0])
    with pytest.raises(ValueError, match="binary"):
        clf.llr(X)


def test_classifiers_accept_the_list_form_and_refuse_mixed_dimensions(gmm3):
    clf = GMMClassifier(gmms=[gmm3.to_list(), gmm3])
    assert clf.gmms[0] == gmm3 and clf == GMMClassifier(gmms=(gmm3, gmm3))
    one_d = GMM.from_list([(1.0, 0.0, 1.0)])
    with pytest.raises(ValueError, match="different dimensions"):
        GMMClassifier(gmms=(gmm3, one_d))
    with pytest.raises(TypeError, match="sequence of GMMs"):
        GMMClassifier(gmms=gmm3)


def test_open_set_scores_have_one_more_row():
    X, L = iris_like()
    clf = train_open_set_classifier(X[:, L < 2], L[L < 2], X, n_components=1, n_other=2,
                                    psi=0.01)
    S = clf.scores(X)
    assert S.shape == (3, X.shape[1])
    np.testing.assert_allclose(S[2], logpdf_GMM(X, clf.other), rtol=1e-12)
    np.testing.assert_allclose(S[:2], clf.known.scores(X), rtol=1e-12)


# -- errors ----------------------------------------------------------------------------------------


def test_invalid_models_are_refused():
    I2 = np.eye(2)
    with pytest.raises(ValueError, match="sum to 1"):
        GMM.from_list([(0.5, np.zeros(2), I2), (0.4, np.ones(2), I2)])
    with pytest.raises(ValueError, match="non-negative"):
        GMM.from_list([(1.5, np.zeros(2), I2), (-0.5, np.ones(2), I2)])
    with pytest.raises(ValueError, match=r"C\[1\] is not positive definite"):
        GMM.from_list([(0.5, np.zeros(2), I2), (0.5, np.ones(2), np.ones((2, 2)))])
    with pytest.raises(ValueError, match=r"C\[0\] is not symmetric"):
        GMM.from_list([(1.0, np.zeros(2), np.array([[1.0, 0.5], [0.0, 1.0]]))])
    with pytest.raises(ValueError, match=r"C\[0\] contains NaN"):
        GMM(w=np.ones(1), mu=np.zeros(2), C=np.full((2, 2), np.nan))
    with pytest.raises(ValueError, match=r"gmm\[1\] mean has shape"):
        GMM.from_list([(0.5, np.zeros(2), I2), (0.5, np.ones(3), I2)])
    with pytest.raises(ValueError, match=r"gmm\[0\] weight"):
        GMM.from_list([(np.ones(2), np.zeros(2), I2)])
    with pytest.raises(ValueError, match=r"gmm\[1\] covariance has shape \(3, 3\)"):
        GMM.from_list([(0.5, np.zeros(2), I2), (0.5, np.ones(2), np.eye(3))])
    with pytest.raises(ValueError, match=r"gmm\[0\] must be a \(w, mu, C\) tuple"):
        GMM.from_list([(1.0, np.zeros(2))])
    with pytest.raises(TypeError, match=r"gmm\[0\] must hold a numeric"):
        GMM.from_list([("a", np.zeros(2), I2)])
    with pytest.raises(TypeError, match="list of"):
        logpdf_GMM(np.zeros((2, 3)), "gmm")
    with pytest.raises(ValueError, match="empty list"):
        logpdf_GMM(np.zeros((2, 3)), [])
    with pytest.raises(ValueError, match=r"w must be a 1-D array"):
        GMM(w=np.ones((1, 1)), mu=np.zeros((2, 1)), C=I2[None])
    with pytest.raises(ValueError, match=r"mu has shape \(2, 3\).*\(D, M\)"):
        GMM(w=np.full(2, 0.5), mu=np.zeros((2, 3)), C=np.stack([np.eye(3)] * 2))
    with pytest.raises(ValueError, match=r"C has shape"):
        GMM(w=np.ones(1), mu=np.zeros((2, 1)), C=np.eye(3))


def test_invalid_classifiers_are_refused(gmm3):
    clf = GMMClassifier(gmms=(gmm3, gmm3))
    with pytest.raises(TypeError, match="known must be a GMMClassifier"):
        OpenSetClassifier(known=gmm3, other=gmm3)
    with pytest.raises(ValueError, match="other has 1 features"):
        OpenSetClassifier(known=clf, other=GMM.from_list([(1.0, 0.0, 1.0)]))
    with pytest.raises(ValueError, match="D_pool"):
        X, L = iris_like()
        train_open_set_classifier(X, L, X[:1], n_other=2, psi=0.01)


def test_data_of_the_wrong_dimension_is_explained(gmm3):
    with pytest.raises(ValueError, match=r"did you mean D\.T"):
        logpdf_GMM(np.zeros((10, 2)), gmm3)
    with pytest.raises(ValueError, match="3 features"):
        responsibilities(np.zeros((3, 10)), gmm3)


def test_invalid_hyperparameters_are_refused(gmm3):
    X = np.random.default_rng(0).standard_normal((2, 40))
    with pytest.raises(ValueError, match="cov_type"):
        train_gmm_em(X, gmm3, "spherical")
    with pytest.raises(ValueError, match="psi"):
        em_step(X, gmm3, psi=-1.0)
    with pytest.raises(TypeError, match="psi"):
        em_step(X, gmm3, psi="0.1")
    with pytest.raises(ValueError, match="alpha"):
        split_gmm(gmm3, alpha=0.0)
    with pytest.raises(ValueError, match="power of two"):
        train_gmm_lbg(X, 3, psi=0.01)
    with pytest.raises(ValueError, match=r"n_components has 2 entries"):
        train_gmm_classifier(X, np.arange(40) % 3, [1, 2], psi=0.01)
    with pytest.raises(ValueError, match="max_iter"):
        train_gmm_em(X, gmm3, max_iter=0)
    with pytest.raises(ValueError, match=r"gamma has shape"):
        gmm_statistics(X, np.ones((3, 39)))
    with pytest.raises(ValueError, match="gamma must be non-negative"):
        gmm_statistics(X, -np.ones((3, 40)))
    with pytest.raises(ValueError, match="tol"):
        train_gmm_em(X, gmm3, tol=0.0)
    with pytest.raises(TypeError, match="return_components"):
        sample_GMM(gmm3, 3, np.random.default_rng(0), return_components=1)
    with pytest.raises(TypeError, match="rng is required"):
        kmeans(X, 3)
    with pytest.raises(ValueError, match=r"did you mean init\.T"):
        kmeans(X, np.zeros((3, 2)))
    with pytest.raises(TypeError, match="rng"):
        sample_GMM(gmm3, 3, rng=0)


def test_non_convergence_warns(gmm3):
    X = sample_GMM(gmm3, 300, np.random.default_rng(0))
    with pytest.warns(ConvergenceWarning, match="did not converge"):
        train_gmm_em(X, gmm3, max_iter=1, tol=1e-12)
    with pytest.warns(ConvergenceWarning, match="hard EM did not converge"):
        train_gmm_hard_em(X, constrained(gmm3, "tied"), max_iter=1)


# -- models as values (mlpr.utils.model) ----------------------------------------------------------


def test_models_compare_and_hash_by_value(gmm3):
    X, L = iris_like()
    twin = GMM(w=gmm3.w.copy(), mu=gmm3.mu.copy(), C=gmm3.C.copy())
    assert twin == gmm3 and hash(twin) == hash(gmm3) and len({twin, gmm3}) == 1
    moved = GMM(w=gmm3.w, mu=gmm3.mu + 1e-15 * (gmm3.mu == 0), C=gmm3.C)
    assert moved != gmm3  # exact comparison: any change of a field counts
    a, b = train_gmm_classifier(X, L, 2, psi=0.01), train_gmm_classifier(X, L, 2, psi=0.01)
    assert a == b and hash(a) == hash(b)  # learners are pure
    assert a != train_gmm_classifier(X, L, 2, "diagonal", psi=0.01)
    o1 = train_open_set_classifier(X[:, L < 2], L[L < 2], X, n_other=2, psi=0.01)
    o2 = train_open_set_classifier(X[:, L < 2], L[L < 2], X, n_other=2, psi=0.01)
    assert o1 == o2 and hash(o1) == hash(o2)
    with pytest.raises(ValueError, match="read-only"):
        a.gmms[0].C[0, 0, 0] = 1.0


@pytest.mark.parametrize("cov_type", COV_TYPES)
def test_each_family_is_returned_in_full_and_evaluated_as_the_plain_reference(cov_type):
    """Each family's scorer against one Gaussian density per component. Independent test of the
    GMM density: test_logpdf_gmm_against_a_direct_sum_of_densities."""
    X = two_blobs()
    g = train_gmm_lbg(X, 4, cov_type, psi=0.01)[-1]
    off = g.C * (1 - np.eye(3))
    assert (not off.any()) == (cov_type == "diagonal")
    assert np.all(g.C == g.C[0]) == (cov_type == "tied")
    # the family's own scorer (variances, one shared matrix) against one density per component
    joint = np.stack([np.log(w) + logpdf_GAU_ND(X, mu, C) for w, mu, C in g.to_list()])
    np.testing.assert_allclose(log_joint_GMM(X, g), joint, rtol=1e-12)


# -- scikit-learn cross-check (optional) -----------------------------------------------------------


@pytest.mark.parametrize("cov_type", COV_TYPES)
def test_one_em_step_equals_scikit_learn(cov_type):
    sklearn_mixture = pytest.importorskip("sklearn.mixture")
    X = two_blobs()
    start = constrained(train_gmm_lbg(X, 4, "full", psi=None, tol=1e-1)[-1], cov_type)
    P = np.linalg.inv(start.C)  # only to hand scikit-learn its precisions
    sk_type = {"full": "full", "diagonal": "diag", "tied": "tied"}[cov_type]
    pinit = {"full": P, "diag": np.diagonal(P, axis1=1, axis2=2), "tied": P[0]}[sk_type]
    gm = sklearn_mixture.GaussianMixture(
        4, covariance_type=sk_type, weights_init=start.w, means_init=start.mu.T,
        precisions_init=pinit, reg_covar=0.0, max_iter=1, n_init=1, tol=0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ConvergenceWarning: one iteration on purpose
        gm.fit(X.T)
    ours = em_step(X, start, cov_type)
    if sk_type == "diag":
        C_sk = np.stack([np.diag(v) for v in gm.covariances_])
    elif sk_type == "tied":
        C_sk = np.broadcast_to(gm.covariances_, ours.C.shape)
    else:
        C_sk = gm.covariances_
    np.testing.assert_allclose(ours.w, gm.weights_, rtol=0, atol=1e-8)
    np.testing.assert_allclose(ours.mu, gm.means_.T, rtol=0, atol=1e-8)
    np.testing.assert_allclose(ours.C, C_sk, rtol=0, atol=1e-8)


# -- plot helpers (mlpr.plots, chapter 9) ---------------------------------------------------------


def test_plot_helpers_draw_what_they_are_given():
    from mlpr.plots import plot_clusters_2d, plot_em_runs, plot_gmm_1d, plot_lbg_history

    x = np.random.default_rng(0).normal(size=200)
    models, hists = train_gmm_lbg(x[None, :], 4, return_history=True, psi=0.01)
    fig = plot_gmm_1d(x, {f"{g.n_components}": g for g in models}, xlabel="x", title="t")
    assert len(fig.axes[0].get_lines()) == 3 and fig.axes[0].get_title() == "t"
    fig = plot_lbg_history(hists)
    ax = fig.axes[0]
    assert len(ax.get_lines()[0].get_xdata()) == sum(len(h) for h in hists)
    assert len(ax.get_lines()) == 1 + 2  # the curve and one line per split
    fig = plot_em_runs({"a": [1.0, 2.0], "b": [1.0, 1.5, 1.7]}, notes={"a": "stop"}, logy=True)
    assert [len(line.get_xdata()) for line in fig.axes[0].get_lines()] == [2, 3]
    X = two_blobs()[:2]
    g = train_gmm_lbg(X, 2, psi=0.01)[-1]
    fig = plot_clusters_2d(X, responsibilities(X, g), means=g.mu, gmm=g)
    assert fig.axes[0].get_legend() is not None
    with pytest.raises(ValueError, match=r"gamma has shape"):
        plot_clusters_2d(X, np.ones((2, 5)))
    with pytest.raises(ValueError, match="2 rows"):
        plot_clusters_2d(two_blobs(), np.ones((1, 300)))
    import matplotlib.pyplot as plt
    plt.close("all")


# -- the reference EM step and the fast one (conventions 3b) -------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("cov_type", COV_TYPES)
@pytest.mark.parametrize("psi", [None, 0.5])
def test_fast_em_step_equals_the_reference(gmm3, cov_type, psi):
    """The fast EM step, EM and LBG against solver="reference". Independent tests of the EM
    step: test_statistics_and_em_step_by_hand (by hand), test_one_em_step_equals_scikit_learn (a
    second implementation), test_em_never_decreases_the_average_log_likelihood (an invariant)."""
    X = np.random.default_rng(11).normal(size=(2, 200)) * 2 + 1
    g = constrained(gmm3, cov_type)
    ref = em_step(X, g, cov_type, psi=psi, solver="reference")
    fast = em_step(X, g, cov_type, psi=psi)  # the default
    np.testing.assert_allclose(fast.w, ref.w, rtol=1e-10)
    np.testing.assert_allclose(fast.mu, ref.mu, rtol=1e-10)
    np.testing.assert_allclose(fast.C, ref.C, rtol=1e-10, atol=1e-14)
    # whole EM runs and LBG agree too
    a, ha = train_gmm_em(X, g, cov_type, psi=psi, tol=1e-8, solver="reference")
    b, hb = train_gmm_em(X, g, cov_type, psi=psi, tol=1e-8, solver="auto")
    assert len(ha) == len(hb)
    np.testing.assert_allclose(hb, ha, rtol=1e-10)
    np.testing.assert_allclose(b.C, a.C, rtol=1e-8, atol=1e-12)
    la = train_gmm_lbg(X, 4, cov_type, psi=0.01, solver="reference")[-1]
    lb = train_gmm_lbg(X, 4, cov_type, psi=0.01)[-1]
    np.testing.assert_allclose(logpdf_GMM(X, lb), logpdf_GMM(X, la), rtol=1e-8)


def test_reference_statistics_are_the_sums_over_samples(gmm3):
    """The fast statistics (BLAS syrk) against the plain sums. Independent tests of the EM step:
    test_statistics_and_em_step_by_hand (by hand), test_one_em_step_equals_scikit_learn (a
    second implementation), test_em_never_decreases_the_average_log_likelihood (an invariant)."""
    from mlpr import _gmm_fast

    X = np.random.default_rng(12).normal(size=(3, 50))
    gamma = np.random.default_rng(13).dirichlet(np.ones(4), size=50).T
    Nc, F, S = gmm_statistics(X, gamma)  # the plain form
    Nf, Ff, Sf = _gmm_fast.statistics(X, gamma)  # BLAS syrk
    np.testing.assert_allclose(Nf, Nc, rtol=1e-12)
    np.testing.assert_allclose(Ff, F, rtol=1e-12)
    np.testing.assert_allclose(Sf, S, rtol=1e-10)
    with pytest.raises(ValueError, match="solver must be one of"):
        em_step(X, GMM.from_list([(1.0, np.zeros(3), np.eye(3))]), solver="slow")


# -- careless input -------------------------------------------------------------------------------


def test_more_components_than_samples_are_refused():
    X = np.random.default_rng(0).normal(size=(2, 5))
    with pytest.raises(ValueError, match=r"16 components for the 5 samples of D.*at most 5"):
        train_gmm_lbg(X, 16, psi=0.01)
    X3 = X[:, :3]
    with pytest.raises(ValueError, match=r"4 components for the 3 samples of D"):
        train_gmm_lbg(X3, 4, psi=0.01)
    start = GMM.from_list([(0.25, X3[:, [i % 3]], np.eye(2)) for i in range(4)])
    with pytest.raises(ValueError, match=r"4 components for the 3 samples of D"):
        em_step(X3, start, psi=0.01)
    with pytest.raises(ValueError, match=r"4 components for the 3 samples of D"):
        train_gmm_em(X3, start, psi=0.01)
    with pytest.raises(ValueError, match=r"4 components for the 3 samples of D"):
        train_gmm_hard_em(X3, start, psi=0.01)
    L = np.array([0, 0, 0, 1, 1])
    with pytest.raises(ValueError, match=r"4 components for the 2 samples of D in class 1"):
        train_gmm_classifier(X, L, [2, 4], psi=0.01)
    with pytest.raises(ValueError, match=r"8 components for the 5 samples of D_pool"):
        train_open_set_classifier(X, L, X, n_other=8, psi=0.01)


def test_a_floor_above_the_data_variance_warns():
    X = 1e-3 * np.random.default_rng(1).normal(size=(2, 100))  # variances ~1e-6
    with pytest.warns(UserWarning, match=r"psi=0.01 is above every variance of D.*coincide") as w:
        train_gmm_lbg(X, 2, psi=0.01)
    assert w[0].filename == __file__  # the warning points at the caller's line
    with pytest.warns(UserWarning, match=r"psi=0.01 is above every variance of D \(class 0\)"):
        train_gmm_classifier(np.hstack([X, 1e3 * X]), np.repeat([0, 1], 100), 2, psi=0.01)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        train_gmm_lbg(X, 2, psi=1e-8)  # a floor below the variances is silent


def test_a_single_class_is_refused():
    X = np.random.default_rng(2).normal(size=(2, 20))
    with pytest.raises(ValueError, match=r"single class.*at least 2 classes.*train_gmm_lbg"):
        train_gmm_classifier(X, np.zeros(20, int), 1, psi=0.01)
    with pytest.raises(ValueError, match=r"single class"):
        lbg_gmm_classifiers(X, np.zeros(20, int), 2, psi=0.01)
    # the open-set classifier may have one known class: "none of the others" is the second
    osc = train_open_set_classifier(X, np.zeros(20, int), X, n_other=2, psi=0.01)
    assert osc.scores(X).shape == (2, 20)


def test_a_transposed_pool_is_named_in_the_warning():
    X = np.random.default_rng(4).normal(size=(4, 60))
    L = np.repeat([0, 1], 30)
    pool = X[:, :3]  # 4 features, 3 samples: looks transposed
    with pytest.warns(UserWarning, match=r"D_pool has shape \(4, 3\).*D_pool\.T") as rec:
        train_open_set_classifier(X, L, pool, n_other=1, psi=0.01)
    assert not any("D has shape" in str(w.message) for w in rec)


def test_kmeans_refuses_a_float_number_of_clusters_and_too_few_distinct_points():
    X = np.random.default_rng(3).normal(size=(2, 30))
    rng = np.random.default_rng(0)
    with pytest.raises(TypeError, match=r"a number of clusters \(an int\).*int\(3.0\)"):
        kmeans(X, 3.0, rng)
    same = np.ones((2, 10))
    with pytest.raises(ValueError, match=r"D has 1 distinct sample for 3 clusters"):
        kmeans(same, 3, rng)
    two = np.hstack([np.zeros((2, 5)), np.ones((2, 5))])
    with pytest.raises(ValueError, match=r"D has 2 distinct samples for 3 clusters"):
        kmeans(two, two[:, [0, 1, 5]])
    mu, z, _ = kmeans(two, 2, rng)  # as many clusters as distinct points: fine
    assert set(z) == {0, 1}


def test_the_split_direction_of_a_tied_largest_eigenvalue_is_the_courses():
    """Second method: the course's split takes u_1 from np.linalg.svd(C); where the largest
    eigenvalue is tied (variances floored at psi: a diagonal model with few samples per
    component), the first tied direction, as SVD gives it, not the last of eigh's ascending
    order. Untied covariances split along the same line either way."""
    from mlpr.gmm import GMM, split_gmm

    rng = np.random.default_rng(3)
    A = rng.normal(size=(4, 4))
    for C in (0.01 * np.eye(4), np.diag([0.01, 0.5, 0.5, 0.2]), A @ A.T):
        g = split_gmm(GMM(w=np.array([1.0]), mu=np.zeros((4, 1)), C=C[None]), alpha=0.1)
        U, s, _ = np.linalg.svd(C)
        d = U[:, 0] * np.sqrt(s[0]) * 0.1
        got = g.mu[:, 1] - g.mu[:, 0]
        # the same direction up to its sign (which half comes first is free)
        assert min(np.abs(got - 2 * d).max(), np.abs(got + 2 * d).max()) < 1e-12, (C, got, d)
