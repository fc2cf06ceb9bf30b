import warnings

import numpy as np
import pytest
import scipy.linalg
from exact_arithmetic import assert_exact, exact_class_scatters, fractions, offset_classes

from mlpr.datasets import load_iris, load_iris_binary
from mlpr.dimred import (
    LDA,
    PCA,
    LDABinaryClassifier,
    compute_Sw_Sb,
    fisher_criterion,
    fit_lda,
    fit_pca,
    fit_whitening,
    hyperplane_offset,
    n_components_for_variance,
    project_on_hyperplane,
    signed_distance,
    train_lda_binary,
)
from mlpr.utils import split_db_2to1

# -- data ----------------------------------------------------------------------------------------


def _gaussian_data(seed=0, nfeat=5, N=300):
    """Correlated data with well separated covariance eigenvalues and a non-zero mean."""
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(nfeat, nfeat)) @ np.diag(np.linspace(3.0, 0.5, nfeat))
    return A @ rng.normal(size=(nfeat, N)) + rng.normal(size=(nfeat, 1)) * 5


def _labelled_data(seed=0, nfeat=5, K=3, n_per_class=80):
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(nfeat, nfeat))
    blocks, labels = [], []
    for k in range(K):
        shift = rng.normal(size=(nfeat, 1)) * 2
        blocks.append(A @ rng.normal(size=(nfeat, n_per_class)) + shift)
        labels.append(np.full(n_per_class, k))
    return np.hstack(blocks), np.concatenate(labels)


def _Sw_Sb_broadcast(D, L):
    """Independent Sw, Sb: per-sample outer products summed with einsum."""
    N = D.shape[1]
    mu = D.mean(axis=1)
    mus = np.stack([D[:, L == c].mean(axis=1) for c in range(L.max() + 1)], axis=1)
    dev_w = D - mus[:, L]
    Sw = np.einsum("in,jn->ij", dev_w, dev_w) / N
    dev_b = mus[:, L] - mu[:, None]  # each sample contributes its class mean's deviation
    Sb = np.einsum("in,jn->ij", dev_b, dev_b) / N
    return Sw, Sb


def _proj(W):
    """Orthogonal projector onto span(W)."""
    Q, _ = np.linalg.qr(W)
    return Q @ Q.T


# -- PCA -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("m", [1, 3, 5])
def test_pca_eigh_and_svd_agree(m):
    D = _gaussian_data()
    a, b = fit_pca(D, m, "eigh"), fit_pca(D, m, "svd")
    np.testing.assert_allclose(a.P, b.P, rtol=0, atol=1e-10)
    np.testing.assert_allclose(a.eigenvalues, b.eigenvalues, rtol=1e-10)
    np.testing.assert_allclose(a.total_variance, b.total_variance, rtol=1e-10)
    np.testing.assert_allclose(a.mu, b.mu, rtol=1e-12)


@pytest.mark.filterwarnings("ignore:.*fewer samples")  # intended: 4 samples of 6 features
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("offset", [0.0, 1e4])
def test_pca_fast_solver_equals_reference(order, offset):
    """The fast covariance (blocked dsyrk) against the reference fit. Independent tests of the
    same fit: test_pca_eigenvalues_match_numpy_covariance and
    test_pca_directions_are_covariance_eigenvectors_with_sign_convention (numpy's covariance and
    eigh), test_pca_eigh_and_svd_agree (a second method) and test_pca_hand_example_axis_aligned
    (a closed form)."""
    # several blocks of columns (16,384 each), both memory layouts, data near and far from the
    # origin: the blocked dsyrk covariance gives the reference's P, eigenvalues, mu and trace
    rng = np.random.default_rng(3)
    A = rng.standard_normal((12, 12))
    D = np.asarray(A @ rng.standard_normal((12, 40_000)) + offset, order=order)
    fast, ref = fit_pca(D, 4), fit_pca(D, 4, solver="reference")
    np.testing.assert_allclose(fast.P, ref.P, rtol=0, atol=1e-10)
    np.testing.assert_allclose(fast.eigenvalues, ref.eigenvalues, rtol=1e-10)
    np.testing.assert_allclose(fast.mu, ref.mu, rtol=1e-14)
    np.testing.assert_allclose(fast.total_variance, ref.total_variance, rtol=1e-10)


def test_pca_fast_solver_equals_reference_on_iris_all_directions():
    """The fast fit against the reference one on iris. Independent tests of the same fit:
    test_pca_eigenvalues_match_numpy_covariance and
    test_pca_directions_are_covariance_eigenvectors_with_sign_convention (numpy's covariance and
    eigh), test_pca_eigh_and_svd_agree (a second method) and test_pca_hand_example_axis_aligned
    (a closed form)."""
    D, _ = load_iris()
    fast, ref = fit_pca(D, 4), fit_pca(D, 4, solver="reference")
    np.testing.assert_allclose(fast.P, ref.P, rtol=0, atol=1e-12)
    np.testing.assert_allclose(fast.eigenvalues, ref.eigenvalues, rtol=1e-12)
    np.testing.assert_allclose(PCA(D, 2), PCA(D, 2, solver="reference"), rtol=1e-12)


def test_pca_fast_solver_warns_on_transposed_data_like_the_reference():
    """Each solver's warning is held to the message it must give (match=), not only to the
    other's."""
    D = _gaussian_data(nfeat=5, N=300).T
    for solver in ("auto", "reference"):
        with pytest.warns(UserWarning, match="D.T"):
            fit_pca(D, 2, solver=solver)


def test_pca_unknown_solver():
    with pytest.raises(ValueError, match="solver"):
        fit_pca(_gaussian_data(), 2, solver="blas")


def test_pca_svd_with_fewer_samples_than_dimensions():
    D = _gaussian_data(nfeat=6, N=4)
    with pytest.warns(UserWarning, match="fewer samples"):  # 4 samples of 6 features, on purpose
        model = fit_pca(D, 6, "svd")
    assert model.P.shape == (6, 6)
    np.testing.assert_allclose(model.P.T @ model.P, np.eye(6), atol=1e-12)
    np.testing.assert_allclose(model.eigenvalues[3:], 0.0, atol=1e-12)  # rank N - 1 = 3
    with pytest.warns(UserWarning, match="fewer samples"):
        eigh3 = fit_pca(D, 3).eigenvalues
    np.testing.assert_allclose(model.eigenvalues[:3], eigh3, rtol=1e-9)


def test_pca_eigenvalues_match_numpy_covariance():
    D = _gaussian_data()
    C = np.cov(D, bias=True)
    expected = np.sort(np.linalg.eigvalsh(C))[::-1]
    model = fit_pca(D, 5)
    np.testing.assert_allclose(model.eigenvalues, expected, rtol=1e-10)
    np.testing.assert_allclose(model.total_variance, np.trace(C), rtol=1e-12)
    np.testing.assert_allclose(model.mu.ravel(), D.mean(axis=1), rtol=1e-12)


def test_pca_directions_are_covariance_eigenvectors_with_sign_convention():
    D = _gaussian_data()
    s, U = np.linalg.eigh(np.cov(D, bias=True))
    U = U[:, ::-1][:, :3]
    P = fit_pca(D, 3).P
    for j in range(3):  # equal up to sign, and the sign puts the largest |entry| positive
        k = np.argmax(np.abs(U[:, j]))
        np.testing.assert_allclose(P[:, j], U[:, j] * np.sign(U[k, j]), atol=1e-10)
        assert P[np.argmax(np.abs(P[:, j])), j] > 0


def test_pca_function_projects_uncentred_data():
    D = _gaussian_data()
    model = fit_pca(D, 2)
    np.testing.assert_allclose(PCA(D, 2), model.P.T @ D, rtol=1e-12)
    np.testing.assert_allclose(PCA(D, 2, method="svd"), PCA(D, 2), rtol=1e-9, atol=1e-9)


def test_pca_P_is_orthonormal():
    P = fit_pca(_gaussian_data(), 4).P
    np.testing.assert_allclose(P.T @ P, np.eye(4), atol=1e-12)


def test_pca_explained_variance_ratio():
    model = fit_pca(_gaussian_data(), 5)
    r = model.explained_variance_ratio
    np.testing.assert_allclose(r.sum(), 1.0, rtol=1e-12)
    assert np.all(np.diff(r) <= 0)
    np.testing.assert_allclose(fit_pca(_gaussian_data(), 2).explained_variance_ratio, r[:2])


def test_pca_constant_data_has_zero_variance_ratio():
    model = fit_pca(np.ones((3, 4)), 3)
    np.testing.assert_array_equal(model.explained_variance_ratio, np.zeros(3))


def test_pca_reconstruction_full_rank_is_exact():
    D = _gaussian_data()
    model = fit_pca(D, 5)
    np.testing.assert_allclose(model.reconstruct(model.transform(D)), D, atol=1e-10)


def test_pca_reconstruction_is_orthogonal_projection():
    D = _gaussian_data()
    model = fit_pca(D, 2)
    R = model.reconstruct(model.transform(D))
    # residual orthogonal to span(P), reconstruction inside span(P), projection idempotent
    np.testing.assert_allclose(model.P.T @ (D - R), 0.0, atol=1e-10)
    np.testing.assert_allclose(model.reconstruct(model.transform(R)), R, atol=1e-10)
    # centred reconstruction error = sum of the discarded eigenvalues
    DC = D - model.mu
    err = np.mean(np.sum((DC - model.reconstruct(model.transform(DC))) ** 2, axis=0))
    discarded = np.sort(np.linalg.eigvalsh(np.cov(D, bias=True)))[:3].sum()
    np.testing.assert_allclose(err, discarded, rtol=1e-10)


def test_pca_hand_example_axis_aligned():
    # two points on each axis at +-c: variances c^2 / 3 = 5, 3, 1 along the axes
    c = np.sqrt([15.0, 9.0, 3.0])
    D = np.hstack([np.diag(c), -np.diag(c)])
    model = fit_pca(D, 3)
    np.testing.assert_allclose(model.eigenvalues, [5.0, 3.0, 1.0], rtol=1e-12)
    np.testing.assert_allclose(model.P, np.eye(3), atol=1e-12)
    np.testing.assert_allclose(model.total_variance, 9.0, rtol=1e-12)
    assert model.n_components_for_variance(0.5) == 1  # 5/9 = 0.56
    assert model.n_components_for_variance(0.6) == 2  # 8/9 = 0.89
    assert model.n_components_for_variance(8 / 9) == 2
    assert model.n_components_for_variance(0.95) == 3
    assert fit_pca(D, 2).n_components_for_variance(0.6) == 2
    with pytest.raises(ValueError, match=r"retain only 0\.8889.*fit the model with m = 3"):
        fit_pca(D, 2).n_components_for_variance(0.95)


def test_n_components_for_variance_hand_example():
    eigs = [1.0, 5.0, 3.0, 1.0]  # any order; total 10
    expected = {0.5: 1, 0.51: 2, 0.8: 2, 0.81: 3, 0.9: 3, 0.91: 4, 1.0: 4}
    for fraction, m in expected.items():
        assert n_components_for_variance(eigs, fraction) == m, fraction


def test_n_components_for_variance_from_full_fit():
    model = fit_pca(_gaussian_data(), 5)
    for f in (0.3, 0.7, 0.95, 0.999):
        assert n_components_for_variance(model.eigenvalues, f) == model.n_components_for_variance(f)


@pytest.mark.parametrize(
    "eigs, fraction, err, match",
    [
        ([3.0, 1.0], 0.0, ValueError, r"fraction must be in \(0, 1\], got 0"),
        ([3.0, 1.0], 1.5, ValueError, r"fraction must be in \(0, 1\], got 1.5"),
        ([3.0, 1.0], "a", TypeError, "fraction must be a number"),
        ([[3.0, 1.0]], 0.5, ValueError, r"1-D array.*shape \(1, 2\)"),
        ([], 0.5, ValueError, "non-empty"),
        ([3.0, -1.0], 0.5, ValueError, "non-negative"),
        ([3.0, np.nan], 0.5, ValueError, "NaN"),
    ],
)
def test_n_components_for_variance_errors(eigs, fraction, err, match):
    with pytest.raises(err, match=match):
        n_components_for_variance(eigs, fraction)


@pytest.mark.parametrize("m", [0, 6])
def test_pca_m_out_of_range(m):
    with pytest.raises(ValueError, match=r"m must be >= 1|m = 6 exceeds the dimension of D"):
        fit_pca(_gaussian_data(), m)


def test_pca_m_exceeds_dimension_message():
    with pytest.raises(ValueError, match=r"m = 6 exceeds the dimension of D, shape \(5, 300\)"):
        PCA(_gaussian_data(), 6)


def test_pca_m_must_be_integer():
    with pytest.raises(TypeError, match="m must be an integer"):
        fit_pca(_gaussian_data(), 2.0)


def test_pca_unknown_method():
    with pytest.raises(ValueError, match=r"method must be one of 'eigh', 'svd', got 'qr'"):
        fit_pca(_gaussian_data(), 2, method="qr")


def test_pca_rejects_1d_data():
    with pytest.raises(ValueError, match="1-D"):
        fit_pca(np.arange(5.0), 1)


def test_pca_transform_transposed_input():
    D = _gaussian_data(nfeat=4)
    model = fit_pca(D, 2)
    with pytest.raises(ValueError, match=r"shape \(300, 4\).*did you mean D\.T\?"):
        model.transform(D.T)
    with pytest.raises(ValueError, match=r"Y has 3 features.*expected 2"):
        model.reconstruct(np.zeros((3, 10)))


def test_pca_transform_single_sample():
    D = _gaussian_data()
    model = fit_pca(D, 2)
    np.testing.assert_allclose(model.transform(D[:, 0]), model.transform(D[:, :1]))


# -- Sw, Sb --------------------------------------------------------------------------------------


def test_Sw_plus_Sb_is_total_covariance():
    D, L = _labelled_data()
    Sw, Sb = compute_Sw_Sb(D, L)
    np.testing.assert_allclose(Sw + Sb, np.cov(D, bias=True), rtol=1e-10, atol=1e-12)


def test_Sw_Sb_match_broadcast_computation():
    D, L = _labelled_data(K=4)
    Sw, Sb = compute_Sw_Sb(D, L)
    Sw2, Sb2 = _Sw_Sb_broadcast(D, L)
    np.testing.assert_allclose(Sw, Sw2, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(Sb, Sb2, rtol=1e-10, atol=1e-12)


def _hand_two_class():
    # class 0: (0,0), (2,0); class 1: (4,2), (4,4). mu0 = (1,0), mu1 = (4,3), mu = (2.5,1.5)
    D = np.array([[0.0, 2.0, 4.0, 4.0], [0.0, 0.0, 2.0, 4.0]])
    L = np.array([0, 0, 1, 1])
    return D, L


def test_Sw_Sb_hand_example():
    D, L = _hand_two_class()
    Sw, Sb = compute_Sw_Sb(D, L)
    # Sw = ([[2,0],[0,0]] + [[0,0],[0,2]]) / 4 ; Sb = 2 * 2 * 1.5^2 [[1,1],[1,1]] / 4
    np.testing.assert_allclose(Sw, 0.5 * np.eye(2), atol=1e-15)
    np.testing.assert_allclose(Sb, 2.25 * np.ones((2, 2)), atol=1e-15)


def test_Sw_Sb_errors():
    D, L = _labelled_data()
    with pytest.raises(ValueError, match=r"did you mean D\.T\?"):
        compute_Sw_Sb(D.T, L)
    with pytest.raises(ValueError, match="no sample of class 1"):
        compute_Sw_Sb(D[:, L != 1], L[L != 1])


# -- LDA -----------------------------------------------------------------------------------------


def test_lda_hand_example():
    D, L = _hand_two_class()
    model = fit_lda(D, L, 1)
    # Sw = I/2, so w is along mu1 - mu0 = (3, 3), scaled to w' Sw w = 1: w = (1, 1)
    np.testing.assert_allclose(model.W.ravel(), [1.0, 1.0], rtol=1e-12)
    np.testing.assert_allclose(model.eigenvalues, [9.0], rtol=1e-12)  # (w'Sb w) / (w'Sw w)


@pytest.mark.parametrize("m", [1, 2, 3])
def test_lda_geig_and_jointdiag_same_subspace(m):
    D, L = _labelled_data(K=4)
    a, b = fit_lda(D, L, m, "geig"), fit_lda(D, L, m, "jointdiag")
    np.testing.assert_allclose(_proj(a.W), _proj(b.W), atol=1e-10)
    assert np.max(scipy.linalg.subspace_angles(a.W, b.W)) < 1e-7
    # same normalisation and sign convention: the very same matrix
    np.testing.assert_allclose(a.W, b.W, rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(a.eigenvalues, b.eigenvalues, rtol=1e-9)


@pytest.mark.parametrize("method", ["geig", "jointdiag"])
def test_lda_orthonormal_basis_spans_the_discriminant_subspace(method):
    D, L = _labelled_data(K=4)
    sw, on = fit_lda(D, L, 3, method), fit_lda(D, L, 3, method, basis="orthonormal")
    np.testing.assert_allclose(on.W.T @ on.W, np.eye(3), atol=1e-12)
    np.testing.assert_allclose(_proj(on.W), _proj(sw.W), atol=1e-10)
    # W_sw = W_on A with A = W_on' W_sw invertible: the projections differ by A' only
    A = on.W.T @ sw.W
    np.testing.assert_allclose(A.T @ on.transform(D), sw.transform(D), atol=1e-9)
    np.testing.assert_allclose(on.eigenvalues, sw.eigenvalues, rtol=1e-12)
    np.testing.assert_allclose(LDA(D, L, 3, method, "orthonormal"), on.transform(D), rtol=1e-12)
    with pytest.raises(ValueError, match="basis must be one of 'sw', 'orthonormal'"):
        fit_lda(D, L, 1, basis="unit")


@pytest.mark.parametrize("method", ["geig", "jointdiag"])
def test_lda_generalised_eigen_equation(method):
    D, L = _labelled_data(K=4)
    model = fit_lda(D, L, 3, method)
    Sw, Sb = _Sw_Sb_broadcast(D, L)
    W, lam = model.W, model.eigenvalues
    scale = np.abs(Sb @ W).max()
    np.testing.assert_allclose(Sb @ W, Sw @ W * lam[None, :], atol=1e-10 * scale)
    np.testing.assert_allclose(W.T @ Sw @ W, np.eye(3), atol=1e-10)
    expected = np.sort(np.linalg.eigvals(np.linalg.solve(Sw, Sb)).real)[::-1][:3]
    np.testing.assert_allclose(lam, expected, rtol=1e-8)
    for j in range(3):  # sign convention
        assert W[np.argmax(np.abs(W[:, j])), j] > 0


def test_lda_two_classes_direction_is_Sw_inverse_mean_difference():
    D, L = _labelled_data(K=2)
    w = fit_lda(D, L, 1).W.ravel()
    Sw, _ = _Sw_Sb_broadcast(D, L)
    v = np.linalg.solve(Sw, D[:, L == 1].mean(axis=1) - D[:, L == 0].mean(axis=1))
    cos = w @ v / (np.linalg.norm(w) * np.linalg.norm(v))
    np.testing.assert_allclose(abs(cos), 1.0, rtol=1e-12)


def test_lda_function_projects_data():
    D, L = _labelled_data()
    np.testing.assert_allclose(LDA(D, L, 2), fit_lda(D, L, 2).W.T @ D, rtol=1e-12)


def test_lda_m_larger_than_K_minus_1():
    D, L = _labelled_data(K=3)
    with pytest.raises(ValueError, match=r"m = 3 but L has K = 3 classes.*at most K - 1 = 2.*rank"):
        fit_lda(D, L, 3)


def test_lda_m_larger_than_dimension():
    D, L = _labelled_data(nfeat=2, K=4)
    with pytest.raises(ValueError, match=r"m = 3 exceeds the dimension of D, shape \(2, 320\)"):
        fit_lda(D, L, 3)


def test_lda_identical_means_and_rank_deficient_Sb():
    rng = np.random.default_rng(7)
    X = rng.integers(-5, 6, size=(2, 15)).astype(float)  # integers: the sums below are exact
    D = np.hstack([X, -X, 2 * X, -2 * X])  # two classes, both with mean exactly 0: Sb = 0
    L = np.repeat([0, 1], 30)
    with pytest.raises(ValueError, match=r"class means are identical \(Sb = 0\)"):
        fit_lda(D, L, 1)
    # three classes whose means lie on one line: Sb has rank 1, the second direction is noise
    X = rng.standard_normal((2, 30))
    D3 = np.hstack([X + [[0.0], [0.0]], X + [[3.0], [0.0]], X + [[6.0], [0.0]]])
    L3 = np.repeat([0, 1, 2], 30)
    with pytest.warns(UserWarning, match=r"only 1 of the m = 2 LDA directions .* use m <= 1"):
        model = fit_lda(D3, L3, 2)
    assert model.eigenvalues[1] < 1e-10 * model.eigenvalues[0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fit_lda(D3, L3, 1)


def test_lda_m_invalid():
    D, L = _labelled_data()
    with pytest.raises(ValueError, match="m must be >= 1"):
        fit_lda(D, L, 0)
    with pytest.raises(ValueError, match="method must be one of 'geig', 'jointdiag'"):
        fit_lda(D, L, 1, method="svd")


@pytest.mark.parametrize("method", ["geig", "jointdiag"])
def test_lda_singular_Sw_constant_feature(method):
    D, L = _labelled_data()
    D[2] = 7.0  # a constant pixel
    with pytest.raises(ValueError, match=r"within-class covariance Sw is singular.*rank is 4.*PCA"):
        fit_lda(D, L, 2, method)


def test_lda_singular_Sw_fewer_samples_than_dimensions():
    D, L = _labelled_data(nfeat=10, K=2, n_per_class=3)  # rank Sw <= N - K = 4
    with pytest.raises(ValueError, match=r"singular: its rank is 4.*fit_pca\(D, m\) with m <= 4"):
        fit_lda(D, L, 1)
    with pytest.raises(ValueError, match="singular"):
        train_lda_binary(D, L)


def test_lda_transposed_input():
    D, L = _labelled_data(nfeat=4)
    with pytest.raises(ValueError, match=r"D has shape \(240, 4\) but L has 240 labels.*D\.T\?"):
        fit_lda(D.T, L, 1)
    model = fit_lda(D, L, 2)
    with pytest.raises(ValueError, match=r"did you mean D\.T\?"):
        model.transform(D.T)


def test_lda_iris_three_classes():
    D, L = load_iris()
    Y = LDA(D, L, 2)
    assert Y.shape == (2, 150)
    Sw, _ = compute_Sw_Sb(Y, L)
    np.testing.assert_allclose(Sw, np.eye(2), atol=1e-10)  # W' Sw W = I


# -- whitening -----------------------------------------------------------------------------------


def test_whitening_within_class_covariance_is_identity():
    D, L = _labelled_data()
    model = fit_whitening(D, L)
    Y = model.transform(D)
    np.testing.assert_allclose(_Sw_Sb_broadcast(Y, L)[0], np.eye(5), atol=1e-10)
    np.testing.assert_allclose(model.W, model.W.T, atol=1e-12)


def test_whitening_total_covariance_is_identity():
    D = _gaussian_data()
    model = fit_whitening(D)
    np.testing.assert_allclose(np.cov(model.transform(D), bias=True), np.eye(5), atol=1e-10)
    np.testing.assert_allclose(model.mu.ravel(), D.mean(axis=1), rtol=1e-12)


def test_whitening_errors():
    D = _gaussian_data()
    D[0] = D[1] * 2.0  # linearly dependent features
    with pytest.raises(ValueError, match=r"covariance of D is singular.*PCA"):
        fit_whitening(D)
    with pytest.raises(ValueError, match=r"did you mean D\.T\?"):
        fit_whitening(_gaussian_data()).transform(np.zeros((7, 5)))


# -- LDA binary classifier -----------------------------------------------------------------------


def test_lda_binary_midpoint_hand_example():
    D, L = _hand_two_class()
    clf = train_lda_binary(D, L)
    # w = (1, 1); projections 0, 2 (class 0) and 6, 8 (class 1); means 1 and 7
    np.testing.assert_allclose(clf.w.ravel(), [1.0, 1.0], rtol=1e-12)
    np.testing.assert_allclose(clf.scores(D), [0.0, 2.0, 6.0, 8.0], atol=1e-12)
    assert clf.t == pytest.approx(4.0, rel=1e-12)
    np.testing.assert_array_equal(clf.predict(D), L)
    np.testing.assert_array_equal(clf.predict(np.array([[1.9, 2.1], [2.0, 2.0]])), [0, 1])


def test_lda_binary_orientation():
    D, L = _labelled_data(K=2, seed=3)
    for labels in (L, 1 - L):
        clf = train_lda_binary(D, labels)
        s = clf.scores(D)
        assert s[labels == 1].mean() > s[labels == 0].mean()
    # swapping the classes flips the direction
    np.testing.assert_allclose(train_lda_binary(D, 1 - L).w, -train_lda_binary(D, L).w)


def _brute_force_min_errors(s, L):
    # every threshold that can make a difference under s > t: each score itself (it goes to
    # class 0), the midpoints, and the two trivial ones
    u = np.unique(s)
    cands = np.concatenate([[-np.inf, np.inf], u, (u[:-1] + u[1:]) / 2])
    return min(int(np.sum((s > t).astype(int) != L)) for t in cands)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_lda_binary_min_error_threshold_matches_brute_force(seed):
    rng = np.random.default_rng(seed)
    N = 60
    L = (rng.random(N) < 0.4).astype(int)
    L[:2] = [0, 1]
    D = rng.normal(size=(3, N)) + 0.8 * L[None, :]  # overlapping classes
    mid = train_lda_binary(D, L, "midpoint")
    best = train_lda_binary(D, L, "min_error")
    np.testing.assert_allclose(best.w, mid.w)
    err_mid = np.sum(mid.predict(D) != L)
    err_best = np.sum(best.predict(D) != L)
    assert err_best <= err_mid
    assert err_best == _brute_force_min_errors(best.scores(D), L)


def test_lda_binary_min_error_with_tied_scores():
    # 1-D integer data: many equal scores, some shared by both classes
    rng = np.random.default_rng(5)
    L = np.repeat([0, 1], 40)
    D = (rng.integers(0, 6, size=80) + 2 * L)[None, :].astype(float)
    best = train_lda_binary(D, L, "min_error")
    err = np.sum(best.predict(D) != L)
    assert err == _brute_force_min_errors(best.scores(D), L)
    assert err <= np.sum(train_lda_binary(D, L).predict(D) != L)


def test_lda_binary_min_error_can_pick_a_trivial_threshold():
    # class 1 has the larger mean but a single far outlier decides it; most samples are class 0
    D = np.array([[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 100.0]])
    L = np.array([0, 0, 1, 0, 0, 0, 1])
    best = train_lda_binary(D, L, "min_error")
    assert np.sum(best.predict(D) != L) == 1 == _brute_force_min_errors(best.scores(D), L)


def test_lda_binary_iris_versicolor_virginica_course_number():
    # The course's lab 3 solution: LDA on versicolor vs virginica, split_db_2to1 (66 / 34),
    # midpoint threshold: 2 errors out of 34 validation samples (the reference column of
    # lectures/03_dimensionality_reduction/README.md, checked by that lecture's run.py).
    D, L = load_iris_binary()  # versicolor = 1, virginica = 0
    (DTR, LTR), (DVAL, LVAL) = split_db_2to1(D, L, seed=0)
    assert DTR.shape == (4, 66) and DVAL.shape == (4, 34)
    clf = train_lda_binary(DTR, LTR)
    assert int(np.sum(clf.predict(DVAL) != LVAL)) == 2
    best = train_lda_binary(DTR, LTR, "min_error")
    assert np.sum(best.predict(DTR) != LTR) <= np.sum(clf.predict(DTR) != LTR)


def test_lda_binary_errors():
    D, L = _labelled_data(K=3)
    with pytest.raises(ValueError, match=r"holds label 2 but only 2 classes"):
        train_lda_binary(D, L)
    D2, L2 = D[:, L < 2], L[L < 2]
    with pytest.raises(ValueError, match="no sample of class 1"):
        train_lda_binary(D2[:, L2 == 0], L2[L2 == 0])
    with pytest.raises(ValueError, match="threshold must be one of 'midpoint', 'min_error'"):
        train_lda_binary(D2, L2, threshold="best")
    with pytest.raises(ValueError, match=r"did you mean D\.T\?"):
        train_lda_binary(D2.T, L2)
    clf = train_lda_binary(D2, L2)
    with pytest.raises(ValueError, match=r"did you mean D\.T\?"):
        clf.scores(D2.T)


def test_lda_binary_equal_means():
    D = np.array([[1.0, -1.0, 0.0, 0.0], [0.0, 0.0, 1.0, -1.0]])
    L = np.array([0, 0, 1, 1])
    with pytest.raises(ValueError, match="same mean"):
        train_lda_binary(D, L)


# ------------------------------------------------------------------------------------------------
# bad input


@pytest.mark.parametrize(
    "eigs, err, match",
    [
        ("abc", TypeError, "eigenvalues must be a numeric array, got str"),
        ([1 + 1j, 2], TypeError, "eigenvalues must be real, got dtype complex128"),
        (None, TypeError, "eigenvalues must be a numeric array"),
    ],
)
def test_n_components_for_variance_bad_eigenvalues(eigs, err, match):
    with pytest.raises(err, match=match):
        n_components_for_variance(eigs, 0.5)


def test_n_components_for_variance_huge_eigenvalues():
    # their sum overflows; the answer must not change with the scale
    assert n_components_for_variance([1e308, 1e308], 0.5) == 1
    assert n_components_for_variance([1e308, 1e308], 0.75) == 2
    assert n_components_for_variance([1.0, 1.0], 0.5) == 1


@pytest.mark.parametrize("fraction", ["0.5", True, b"1"])
def test_fraction_must_be_a_number(fraction):
    model = fit_pca(np.random.default_rng(0).normal(size=(3, 20)), 3)
    with pytest.raises(TypeError, match="fraction must be a number in"):
        model.n_components_for_variance(fraction)
    with pytest.raises(TypeError, match="fraction must be a number in"):
        n_components_for_variance([2.0, 1.0], fraction)


def test_pca_zero_features():
    with pytest.raises(ValueError, match=r"D has 0 features \(rows\), shape \(0, 5\)"):
        fit_pca(np.zeros((0, 5)), 1)


@pytest.mark.parametrize("method", ["eigh", "svd"])
def test_pca_values_beyond_1e154(method):
    # D D^T overflows but the covariance does not
    rng = np.random.default_rng(2)
    D = 1e160 + rng.normal(size=(3, 40)) * 1e150
    model = fit_pca(D, 3, method)
    ref = np.sort(np.linalg.eigvalsh(np.cov(D, bias=True)))[::-1]
    np.testing.assert_allclose(model.eigenvalues, ref, rtol=1e-8)


@pytest.mark.parametrize("method", ["eigh", "svd"])
def test_pca_overflow(method):
    D = np.array([[1e200, -1e200, 0.0], [0.0, 1.0, 2.0]])
    with pytest.raises(ValueError, match=r"computing the covariance of D overflows float64"):
        fit_pca(D, 1, method)


def test_lda_and_whitening_overflow():
    D = np.random.default_rng(3).normal(size=(2, 30)) * 1e200
    L = np.arange(30) % 3
    with pytest.raises(ValueError, match="within- or between-class covariance of D overflows"):
        compute_Sw_Sb(D, L)
    with pytest.raises(ValueError, match="overflows float64"):
        fit_lda(D, L, 1)
    with pytest.raises(ValueError, match="overflows float64"):
        fit_whitening(D, L)


def test_zero_within_class_covariance_message():
    # one sample per class: Sw = 0; "PCA with m <= 0" is no remedy
    D = np.array([[0.0, 1.0, 3.0], [1.0, 0.0, 2.0]])
    with pytest.raises(ValueError, match=r"rank is 0.*it is zero.*more samples are needed") as e:
        fit_lda(D, np.array([0, 1, 2]), 1)
    assert "m <= 0" not in str(e.value)
    with pytest.raises(ValueError, match="it is zero"):
        train_lda_binary(D[:, :2], np.array([0, 1]))


def test_whitening_transposed_data_hint():
    D = np.random.default_rng(4).normal(size=(4, 30))
    with pytest.raises(
        ValueError, match=r"covariance of D is singular.*shape \(30, 4\), fewer samples.*D\.T\?"
    ), pytest.warns(UserWarning, match=r"D has shape \(30, 4\), fewer samples"):
        fit_whitening(D.T)


# -- exact covariances on data far from the origin -----------------------------------------------


def _exact_Sw_Sb_C(D, L):
    """Sw, Sb and the total covariance in exact rational arithmetic, rounded to float64 at the
    end (every float is a rational number)."""
    X = fractions(D)
    N = X.shape[1]
    mu = X.sum(axis=1, keepdims=True) / N
    Z = X - mu
    scatters, means, sizes = exact_class_scatters(D, L)
    Sw = sum(scatters)
    Sb = sum(n * ((m - mu) @ (m - mu).T) for m, n in zip(means, sizes))
    return (Sw / N).astype(float), (Sb / N).astype(float), (Z @ Z.T / N).astype(float)


@pytest.mark.parametrize("offset", [0.0, 25.0, 1e6])
def test_Sw_Sb_are_exact_to_rounding_on_offset_data(offset):
    D, L = offset_classes(offset)
    Sw_x, Sb_x, _ = _exact_Sw_Sb_C(D, L)
    Sw, Sb = compute_Sw_Sb(D, L)
    assert_exact(Sw, Sw_x)
    assert_exact(Sb, Sb_x)  # the difference of the large means mu_c - mu: 1e-9 at 1e6 before
    np.testing.assert_array_equal(Sb, Sb.T)
    np.testing.assert_array_equal(Sw, Sw.T)


@pytest.mark.parametrize("offset", [0.0, 25.0, 1e6])
@pytest.mark.parametrize("method", ["eigh", "svd"])
def test_pca_is_exact_to_rounding_on_offset_data(offset, method):
    D, L = offset_classes(offset)
    C_x = _exact_Sw_Sb_C(D, L)[2]
    model = fit_pca(D, 4, method)
    lam_x = np.linalg.eigvalsh(C_x)[::-1]  # the eigenvalues of the exact covariance
    assert_exact(model.eigenvalues, lam_x, tol=4e-15)  # eigh: 6e-14 before at 25
    assert model.total_variance == pytest.approx(np.trace(C_x), rel=4e-15)
    np.testing.assert_allclose(model.P @ np.diag(model.eigenvalues) @ model.P.T, C_x, rtol=0,
                               atol=1e-14 * np.abs(C_x).max())


@pytest.mark.parametrize("offset", [0.0, 25.0, 1e6])
def test_whitening_and_lda_are_exact_to_rounding_on_offset_data(offset):
    D, L = offset_classes(offset)
    Sw_x, Sb_x, C_x = _exact_Sw_Sb_C(D, L)
    # whitening: W C W = I with the exact covariance (within-class covariance when L is given)
    for S_x, model in ((C_x, fit_whitening(D)), (Sw_x, fit_whitening(D, L))):
        np.testing.assert_allclose(model.W.T @ S_x @ model.W, np.eye(4), rtol=0, atol=1e-14)
    # LDA: the generalised eigenvalues of the exact (Sb, Sw)
    lam_x = scipy.linalg.eigh(Sb_x, Sw_x, eigvals_only=True)[::-1][:2]
    np.testing.assert_allclose(fit_lda(D, L, 2).eigenvalues, lam_x, rtol=1e-14)  # 7e-10 at 1e6


# -- transposed data without labels ----------------------------------------------------------------


def test_pca_and_whitening_of_transposed_data_warn():
    D = _gaussian_data(nfeat=5, N=40)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (D, N) as expected: no warning
        fit_pca(D, 2)
        fit_whitening(D)
    for fit in (lambda X: fit_pca(X, 2), lambda X: fit_pca(X, 2, "svd"), lambda X: PCA(X, 2)):
        with pytest.warns(UserWarning, match=r"D has shape \(40, 5\), fewer samples.*D\.T") as rec:
            fit(D.T)
        assert rec[0].filename == __file__  # points at the caller, not inside mlpr
    with pytest.warns(UserWarning, match=r"D has shape \(40, 5\), fewer samples"):
        with pytest.raises(ValueError, match="singular"):  # rank 4 < 40 features
            fit_whitening(D.T)


def test_projection_fitted_on_transposed_data_is_named():
    D = _gaussian_data(nfeat=5, N=40)
    with pytest.warns(UserWarning, match="fewer samples"):
        wrong = fit_pca(D.T, 2)
    with pytest.raises(ValueError, match=r"\(P, mu\) look transposed") as e:
        wrong.transform(D)
    assert "did you mean D.T" not in str(e.value)
    # the usual mistake (a tall, transposed D given to a right model) is still named as such
    with pytest.raises(ValueError, match=r"did you mean D\.T\?"):
        fit_pca(D, 2).transform(D.T)


# -- the strict decision rule of the LDA classifier -----------------------------------------------


def test_lda_binary_score_exactly_at_the_threshold_is_class_0():
    # 1-D: w = 1, scores 0, 2 | 6, 8, midpoint threshold t = 4 exactly
    D, L = np.array([[0.0, 2.0, 6.0, 8.0]]), np.array([0, 0, 1, 1])
    clf = train_lda_binary(D, L)
    assert clf.t == 4.0 and clf.w[0, 0] == 1.0
    np.testing.assert_array_equal(clf.predict(np.array([[4.0, np.nextafter(4.0, 5.0), 3.9]])),
                                  [0, 1, 0])  # w^T x > t, strictly (notes eq. 128)
    clf = LDABinaryClassifier(w=np.array([[1.0], [1.0]]), t=4.0)
    np.testing.assert_array_equal(clf.predict(np.array([[2.0, 2.0, 1.0], [2.0, 2.5, 1.0]])),
                                  [0, 1, 0])


def test_lda_binary_min_error_threshold_at_a_score_goes_to_class_0():
    # adjacent floats: their midpoint rounds onto one of them, and the threshold must be the
    # lower one, so that a training score equal to it is class 0 as the errors were counted
    a = 1.0
    b = np.nextafter(a, 2.0)
    D = np.array([[-1.0, a, b, 3.0]])
    L = np.array([0, 0, 1, 1])
    best = train_lda_binary(D, L, "min_error")
    s = best.scores(D)
    assert s[2] == np.nextafter(s[1], 2.0)  # still adjacent after the projection
    assert 0.5 * (s[1] + s[2]) == s[2]  # the case at stake: the midpoint rounds up
    assert np.sum(best.predict(D) != L) == 0 == _brute_force_min_errors(s, L)
    assert best.t == s[1]


# -- models are values ---------------------------------------------------------------------------


def test_projection_models_compare_and_hash_by_value():
    D, L = _labelled_data(K=2)
    for fit in (lambda X: fit_pca(X, 2), lambda X: fit_lda(X, L, 1), fit_whitening,
                lambda X: fit_whitening(X, L), lambda X: train_lda_binary(X, L),
                lambda X: train_lda_binary(X, L, "min_error")):
        a, b = fit(D), fit(D.copy())
        assert a == b and hash(a) == hash(b) and a is not b
        assert {a: 1}[b] == 1  # usable as a dict key
        other = fit(D * 2.0)
        assert a != other
    assert fit_pca(D, 2) != fit_pca(D, 3)
    assert fit_pca(D, 2) != fit_lda(D, L, 1)
    with pytest.raises(ValueError, match="read-only"):
        fit_pca(D, 2).P[0, 0] = 1.0


# -- Fisher's criterion and the geometry of a linear discriminant (notes 003, section 6.2) --------


def _two_gaussians_2d(seed=0, n0=60, n1=40):
    rng = np.random.default_rng(seed)
    A = np.array([[1.5, 0.0], [0.9, 0.4]])
    X0 = A @ rng.normal(size=(2, n0))
    X1 = A @ rng.normal(size=(2, n1)) + np.array([[2.0], [0.5]])
    return np.hstack([X0, X1]), np.repeat([0, 1], [n0, n1])


def test_fisher_criterion_by_hand():
    # class 0: x = (0, 0), (2, 0); class 1: (3, 1), (5, 1); w = (1, 0): projections 0, 2 | 3, 5
    D = np.array([[0.0, 2.0, 3.0, 5.0], [0.0, 0.0, 1.0, 1.0]])
    L = np.array([0, 0, 1, 1])
    # m0 = 1, m1 = 4, s0^2 = 1 + 1, s1^2 = 1 + 1: J = 9 / 4 (eq. 6.5)
    assert fisher_criterion([1.0, 0.0], D, L) == pytest.approx(9 / 4, rel=1e-15)
    # 1/N covariances: Sb = (n0 n1 / N^2) (m1 - m0)^2 = 9/4, Sw = 4/4: J = 9/4 * n0 n1 / N = 9/4
    assert fisher_criterion([1.0, 0.0], D, L, "covariances") == pytest.approx(
        9 / 4 * 2 * 2 / 4, rel=1e-15)
    # w = (0, 1): projections 0, 0 | 1, 1, no within-class scatter, different means
    assert fisher_criterion([0.0, 1.0], D, L) == np.inf


def test_fisher_criterion_scalings_differ_by_the_class_size_constant():
    D, L = _two_gaussians_2d()
    n0, n1 = 60, 40
    rng = np.random.default_rng(1)
    for w in rng.normal(size=(5, 2)):
        js, jc = fisher_criterion(w, D, L), fisher_criterion(w, D, L, scaling="covariances")
        assert jc == pytest.approx(n0 * n1 / (n0 + n1) * js, rel=1e-12)
        assert fisher_criterion(-3.5 * w, D, L) == pytest.approx(js, rel=1e-12)  # J(c w) = J(w)
        assert fisher_criterion(w.reshape(2, 1), D, L) == js  # a (D, 1) column is the same w


def test_fisher_criterion_is_maximised_by_the_lda_direction():
    D, L = _two_gaussians_2d()
    w_lda = fit_lda(D, L, 1).W[:, 0]
    theta = np.linspace(0.0, np.pi, 20001)  # dense search over directions (w and -w alike)
    # J at every direction at once, from the projections (eq. 6.5 of notes 003 and eq. 4 of the
    # main notes); fisher_criterion itself is held to these values at a sample of directions
    Y = np.vstack([np.cos(theta), np.sin(theta)]).T @ D  # (directions, N)
    m = [Y[:, L == k].mean(axis=1) for k in (0, 1)]
    n = [np.sum(L == k) for k in (0, 1)]
    within = sum(((Y[:, L == k] - m[k][:, None]) ** 2).sum(axis=1) for k in (0, 1))
    mu = Y.mean(axis=1)
    between = {"sums": (m[1] - m[0]) ** 2,
               "covariances": sum(n[k] * (m[k] - mu) ** 2 for k in (0, 1))}
    for scaling in ("sums", "covariances"):
        J = between[scaling] / within
        for i in [*range(0, theta.size, 1000), int(np.argmax(J))]:
            assert fisher_criterion([np.cos(theta[i]), np.sin(theta[i])], D, L, scaling) == \
                pytest.approx(J[i], rel=1e-10)
        j_lda = fisher_criterion(w_lda, D, L, scaling)
        assert j_lda >= J.max() * (1 - 1e-12)
        best = theta[np.argmax(J)]
        angle_lda = np.arctan2(w_lda[1], w_lda[0]) % np.pi
        assert abs(best - angle_lda) < 2 * np.pi / 20000
    # the main notes' J at the LDA direction is the generalised eigenvalue (second route)
    assert fisher_criterion(w_lda, D, L, "covariances") == pytest.approx(
        fit_lda(D, L, 1).eigenvalues[0], rel=1e-10)


def test_fisher_criterion_covariances_for_three_classes_matches_the_rayleigh_quotient():
    D, L = _labelled_data(nfeat=4, K=3)
    Sw, Sb = _Sw_Sb_broadcast(D, L)
    w = np.array([0.3, -1.0, 2.0, 0.5])
    assert fisher_criterion(w, D, L, "covariances") == pytest.approx(
        (w @ Sb @ w) / (w @ Sw @ w), rel=1e-10)


def test_fisher_criterion_errors():
    D, L = _two_gaussians_2d()
    with pytest.raises(ValueError, match="zero vector"):
        fisher_criterion([0.0, 0.0], D, L)
    with pytest.raises(ValueError, match=r"w has shape \(3,\)"):
        fisher_criterion([1.0, 0.0, 0.0], D, L)
    with pytest.raises(ValueError, match="did you mean D.T"):
        fisher_criterion([1.0, 0.0], D.T, L)
    with pytest.raises(ValueError, match="scaling must be one of"):
        fisher_criterion([1.0, 0.0], D, L, scaling="normalised")
    D3, L3 = _labelled_data(nfeat=2, K=3)
    with pytest.raises(ValueError, match="K = 3 classes"):
        fisher_criterion([1.0, 0.0], D3, L3)
    Dc = np.array([[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0]])  # every x1 is 0
    with pytest.raises(ValueError, match="0 / 0"):  # along (1, 0) every sample projects to 0
        fisher_criterion([1.0, 0.0], Dc, [0, 0, 1, 1])
    with pytest.raises(ValueError, match="no sample of class 1"):
        fisher_criterion([1.0, 0.0], D, np.where(L == 1, 2, 0))


def test_signed_distance_by_hand():
    # w = (3, 4), ||w|| = 5, b = -5: the hyperplane 3 x1 + 4 x2 = 5
    X = np.array([[0.0, 3.0, 1.0], [0.0, 4.0, 0.5]])
    r = signed_distance(X, [3.0, 4.0], -5.0)
    np.testing.assert_allclose(r, [-1.0, 4.0, 0.0], atol=1e-15)  # (3 + 2 - 5) / 5 = 0
    assert hyperplane_offset([3.0, 4.0], -5.0) == 1.0  # -b / ||w||
    # the origin's own signed distance is the opposite of the hyperplane's offset
    assert signed_distance(np.zeros(2), [3.0, 4.0], -5.0)[0] == -hyperplane_offset([3, 4], -5)
    # a 1-D point, a (1, D) row w and a scaled (w, b) give the same distances
    np.testing.assert_allclose(signed_distance(X, [[6.0, 8.0]], -10.0), r, atol=1e-15)
    assert signed_distance([3.0, 4.0], [3.0, 4.0], -5.0)[0] == pytest.approx(4.0)


def test_project_on_hyperplane_by_hand_and_invariants():
    X = np.array([[0.0, 3.0], [0.0, 4.0]])
    P = project_on_hyperplane(X, [3.0, 4.0], -5.0)
    np.testing.assert_allclose(P, [[0.6, 0.6], [0.8, 0.8]], atol=1e-15)
    rng = np.random.default_rng(0)
    w, b, Y = rng.normal(size=3), 0.7, rng.normal(size=(3, 20))
    Yp = project_on_hyperplane(Y, w, b)
    np.testing.assert_allclose(w @ Yp + b, 0.0, atol=1e-14)  # on the hyperplane
    r = signed_distance(Y, w, b)
    np.testing.assert_allclose(Y, Yp + np.outer(w / np.linalg.norm(w), r), atol=1e-14)
    # x - x_perp is the shortest way to the hyperplane: |r| = ||x - x_perp||
    np.testing.assert_allclose(np.linalg.norm(Y - Yp, axis=0), np.abs(r), rtol=1e-12)


def test_hyperplane_errors():
    X = np.ones((2, 5))
    for f in (lambda: signed_distance(X, [0.0, 0.0], 1.0),
              lambda: project_on_hyperplane(X, [0, 0], 1.0),
              lambda: hyperplane_offset([0.0, 0.0], 1.0)):
        with pytest.raises(ValueError, match="zero vector"):
            f()
    with pytest.raises(ValueError, match=r"w has 2 entries but the points D have 5 .*D\.T"):
        signed_distance(np.ones((5, 2)), [1.0, 1.0], 0.0)
    with pytest.raises(ValueError, match=r"w has 3 entries but the points D have 2 features"):
        project_on_hyperplane(X, [1.0, 1.0, 1.0], 0.0)
    with pytest.raises(TypeError, match="b must be a real number"):
        signed_distance(X, [1.0, 1.0], None)
    with pytest.raises(ValueError, match="b must be finite"):
        hyperplane_offset([1.0, 1.0], np.nan)
    with pytest.raises(ValueError, match="w contains NaN"):
        hyperplane_offset([1.0, np.inf], 0.0)
    with pytest.raises(ValueError, match=r"w has shape \(2, 2\)"):
        hyperplane_offset(np.eye(2), 0.0)


# -- careless input: the hyperplane helpers and Fisher's criterion --------------------------------


def test_a_normal_of_the_wrong_size_is_blamed_on_w():
    D = np.random.default_rng(0).normal(size=(3, 10))
    with pytest.raises(ValueError, match=r"w has 4 entries but the points D have 3 .*\(3,\)"):
        signed_distance(D, np.ones(4), 0.0)
    with pytest.raises(ValueError, match=r"w has 10 entries.*pass D\.T"):
        signed_distance(D, np.ones(10), 0.0)
    with pytest.raises(ValueError, match=r"w has 2 entries"):
        project_on_hyperplane(D, np.ones((2, 1)), 0.0)


@pytest.mark.parametrize("scale", [1e300, 1e-300])
def test_hyperplanes_of_extreme_scale_give_the_distances_of_the_unit_one(scale):
    D = np.random.default_rng(1).normal(size=(3, 10))
    w, b = np.array([1.0, -2.0, 0.5]), 0.3
    r = (w @ D + b) / np.sqrt(w @ w)  # the same hyperplane, independently
    np.testing.assert_allclose(signed_distance(D, scale * w, scale * b), r, rtol=1e-12)
    np.testing.assert_allclose(hyperplane_offset(scale * w, scale * b), -b / np.sqrt(w @ w),
                               rtol=1e-12)
    np.testing.assert_allclose(project_on_hyperplane(D, scale * w, scale * b),
                               D - np.outer(w / np.sqrt(w @ w), r), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("scaling", ["sums", "covariances"])
@pytest.mark.parametrize("scale", [1e200, 1e300, 1e-200])
def test_fisher_criterion_is_scale_free_on_extreme_data(scaling, scale):
    D = np.random.default_rng(2).normal(size=(3, 20)) + np.array([[0.0], [1.0], [0.0]])
    L = np.repeat([0, 1], 10)
    w = np.array([0.3, 1.0, -0.2])
    J = fisher_criterion(w, D, L, scaling)
    assert np.isfinite(J) and J > 0
    np.testing.assert_allclose(fisher_criterion(w, scale * D, L, scaling), J, rtol=1e-12)
    np.testing.assert_allclose(fisher_criterion(w * scale, D, L, scaling), J, rtol=1e-12)


def test_fisher_criterion_refuses_a_single_class():
    D = np.random.default_rng(3).normal(size=(2, 10))
    for scaling in ("sums", "covariances"):
        with pytest.raises(ValueError, match=r"single class.*at least 2 classes, with either"):
            fisher_criterion(np.ones(2), D, np.zeros(10, int), scaling)


# -- the fast PCA finds NaN and inf without a separate scan ------------------------------------


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_pca_fast_finds_nan_and_inf_through_the_mean(bad):
    """Each solver's error is held to the message it must give (match=), not only to the
    other's."""
    D = np.random.default_rng(12).standard_normal((3, 50))
    D[1, 7] = bad
    messages = []
    for solver in ("auto", "reference"):
        where = r"NaN or infinite values \(first at row 1, column 7\)"
        with pytest.raises(ValueError, match=where) as e:
            fit_pca(D, 2, solver=solver)
        messages.append(str(e.value))
    assert messages[0] == messages[1]  # the same message, naming the value and where it is
    D[1, 9] = -D[1, 7] if np.isinf(bad) else 1.0  # +inf and -inf in one row: a NaN mean
    with pytest.raises(ValueError, match=r"D contains NaN or infinite values \(first at row 1"):
        fit_pca(D, 2)
