"""Tests of mlpr.svm: closed forms, KKT conditions, strong duality, second methods, errors."""


import dataclasses
import re
import warnings

import numpy as np
import pytest
import scipy.optimize

from mlpr.datasets import load_iris
from mlpr.svm import (
    KernelSVM,
    LinearSVM,
    RBFKernel,
    hinge_loss,
    linear_kernel,
    poly_kernel,
    rbf_kernel,
    rebalanced_C,
    svm_dual_objective,
    svm_primal_objective,
    train_svm_kernel,
    train_svm_linear,
)
from mlpr.utils import ConvergenceWarning, split_db_2to1


@pytest.fixture(scope="module")
def iris_vv():
    """The labs' task: versicolor (1) vs virginica (0), split_db_2to1(seed=0), training part."""
    D, L = load_iris()
    keep = L != 0
    (DTR, LTR), (DVAL, LVAL) = split_db_2to1(D[:, keep], (L[keep] == 1).astype(int), seed=0)
    return DTR, LTR, DVAL, LVAL


@pytest.fixture(scope="module")
def iris_sv():
    """Setosa (0) vs versicolor (1), petal length and width: linearly separable."""
    D, L = load_iris()
    keep = L != 2
    return D[2:4, keep], L[keep]


def gram(kernel, X, eps):
    return kernel(X, X) + (0.0 if eps is None else eps)


def assert_kkt(alpha, H, z, C, b, free_bias, tol=1e-6):
    """The KKT conditions of eq. (165)-(166), checked from H itself (not the solver's gradient)."""
    C = np.broadcast_to(C, alpha.shape)
    assert np.all(alpha >= 0) and np.all(alpha <= C)
    zs = H @ alpha + (z * b if free_bias else 0.0)  # z_i s_i
    assert np.all(zs[alpha == 0] >= 1 - tol)  # outside or on the margin
    assert np.all(zs[alpha == C] <= 1 + tol)  # inside the margin or misclassified
    free = (alpha > 0) & (alpha < C)
    np.testing.assert_allclose(zs[free], 1.0, atol=tol)  # on the margin
    if free_bias:
        assert abs(alpha @ z) <= 1e-9 * max(1.0, alpha.sum())


def full_alpha(m: KernelSVM, N: int) -> np.ndarray:
    a = np.zeros(N)
    a[m.support] = m.alpha
    return a


# -- kernels -----------------------------------------------------------------------------------


def test_kernels_closed_forms():
    rng = np.random.default_rng(0)
    X1, X2 = rng.normal(size=(3, 4)), rng.normal(size=(3, 5))
    np.testing.assert_allclose(linear_kernel()(X1, X2), X1.T @ X2, rtol=1e-12)
    np.testing.assert_allclose(poly_kernel(3, 0.5)(X1, X2), (X1.T @ X2 + 0.5) ** 3, rtol=1e-12)
    sq = ((X1[:, :, None] - X2[:, None, :]) ** 2).sum(axis=0)
    np.testing.assert_allclose(rbf_kernel(0.7)(X1, X2), np.exp(-0.7 * sq), rtol=1e-12)
    k = linear_kernel() + rbf_kernel(0.7) + poly_kernel(2, 1.0)
    np.testing.assert_allclose(k(X1, X2), X1.T @ X2 + np.exp(-0.7 * sq) + (X1.T @ X2 + 1) ** 2,
                               rtol=1e-12)
    assert len(k.terms) == 3
    assert poly_kernel(2, 1) == poly_kernel(2, 1.0) and hash(rbf_kernel(1)) == hash(rbf_kernel(1.0))


def test_rbf_distance_never_negative():
    # large, nearly equal vectors: ||a||^2 + ||b||^2 - 2a'b cancels catastrophically
    X = 1e8 + np.array([[0.0, 1e-9, 0.0]])
    K = rbf_kernel(10.0)(X, X)
    assert np.all(K <= 1.0)
    np.testing.assert_array_equal(np.diag(K), 1.0)


def test_kernel_errors():
    with pytest.raises(ValueError, match="gamma"):
        rbf_kernel(0.0)
    with pytest.raises(ValueError, match="degree"):
        poly_kernel(0, 1.0)
    with pytest.raises(TypeError, match="degree"):
        poly_kernel(2.5, 1.0)
    with pytest.raises(ValueError, match="c must be finite and >= 0"):
        poly_kernel(2, -1.0)
    with pytest.raises(ValueError, match="features"):
        linear_kernel()(np.ones((3, 2)), np.ones((4, 2)))


# -- closed forms ------------------------------------------------------------------------------


def test_two_points_closed_form():
    D, L = np.array([[-1.0, 1.0]]), np.array([0, 1])
    hard = train_svm_linear(D, L, np.inf, K=None)  # w = 1, b = 0, alpha = 1/2, margin 1
    np.testing.assert_allclose([hard.w[0], hard.b], [1.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(hard.alpha, [0.5, 0.5], atol=1e-12)
    assert hard.margin == pytest.approx(1.0)
    soft = train_svm_linear(D, L, 0.25, K=None)  # alpha at C: w = 0.5, J = 0.125 + 2 (0.25)(0.5)
    np.testing.assert_allclose(soft.alpha, [0.25, 0.25], atol=1e-12)
    assert soft.w[0] == pytest.approx(0.5) and soft.primal_objective == pytest.approx(0.375)
    assert soft.dual_objective == pytest.approx(0.375)


def test_hinge_loss():
    np.testing.assert_array_equal(hinge_loss([-1.0, 0.0, 0.5, 1.0, 3.0]), [2.0, 1.0, 0.5, 0, 0])
    with pytest.raises(ValueError, match="NaN"):
        hinge_loss([np.nan])


def test_rebalanced_C():
    L = np.array([1, 0, 0, 0])
    np.testing.assert_allclose(rebalanced_C(L, 2.0, 0.5), [2 * 0.5 / 0.25] + [2 * 0.5 / 0.75] * 3)
    np.testing.assert_array_equal(rebalanced_C(L, 2.0), 2.0)
    with pytest.raises(ValueError, match="prior"):
        rebalanced_C(L, 1.0, 1.0)


# -- both formulations: KKT, strong duality ----------------------------------------------------


SETTINGS = [
    ("linear", linear_kernel(), None), ("linear", linear_kernel(), 1.0),
    ("poly", poly_kernel(2, 0.0), 0.0), ("poly", poly_kernel(2, 1.0), 1.0),
    ("poly", poly_kernel(2, 1.0), None), ("rbf", rbf_kernel(1.0), 0.0),
    ("rbf", rbf_kernel(10.0), 1.0), ("rbf", rbf_kernel(10.0), None),
]


@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
@pytest.mark.parametrize("name,kernel,eps", SETTINGS)
def test_kernel_svm_kkt_and_strong_duality(iris_vv, name, kernel, eps, C):
    DTR, LTR, _, _ = iris_vv
    m = train_svm_kernel(DTR, LTR, C, kernel, eps)
    z = 2.0 * LTR - 1
    H = np.outer(z, z) * gram(kernel, DTR, eps)
    alpha = full_alpha(m, LTR.size)
    assert_kkt(alpha, H, z, C, m.b, free_bias=eps is None)
    assert m.kkt_violation <= 1e-6
    assert abs(m.duality_gap) <= 1e-8 * max(1.0, m.dual_objective)
    assert m.dual_objective == pytest.approx(alpha.sum() - 0.5 * alpha @ H @ alpha, rel=1e-10)
    assert m.dual_objective == pytest.approx(
        svm_dual_objective(alpha, DTR, LTR, kernel, 0.0 if eps is None else eps), rel=1e-10)


@pytest.mark.parametrize("K", [None, 1.0, 10.0])
@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
def test_linear_svm_kkt_duality_and_primal_function(iris_vv, K, C):
    DTR, LTR, _, _ = iris_vv
    m = train_svm_linear(DTR, LTR, C, K)
    z = 2.0 * LTR - 1
    H = np.outer(z, z) * (DTR.T @ DTR + (0.0 if K is None else K * K))
    assert_kkt(m.alpha, H, z, C, m.b, free_bias=K is None)
    assert abs(m.duality_gap) <= 1e-8 * max(1.0, m.dual_objective)
    # the public primal of any (w, b) gives the model's primal at (w, b), and more elsewhere
    J = svm_primal_objective(m.w, m.b, DTR, LTR, C, K=K)
    assert J == pytest.approx(m.primal_objective, rel=1e-12)
    assert svm_primal_objective(m.w * 1.01, m.b + 0.01, DTR, LTR, C, K=K) > J


def test_labs_lbfgsb_reference_equals_coordinate_descent(iris_vv):
    DTR, LTR, _, _ = iris_vv
    for K, C in [(1.0, 1.0), (10.0, 10.0)]:
        fast = train_svm_linear(DTR, LTR, C, K)
        ref = train_svm_linear(DTR, LTR, C, K, solver="lbfgsb")
        assert ref.kkt_violation <= 1e-6
        assert ref.dual_objective == pytest.approx(fast.dual_objective, rel=1e-9)
        np.testing.assert_allclose(ref.w, fast.w, atol=1e-5)
    for k, eps in [(poly_kernel(2, 1.0), 0.0), (rbf_kernel(10.0), 1.0)]:
        fast = train_svm_kernel(DTR, LTR, 1.0, k, eps)
        ref = train_svm_kernel(DTR, LTR, 1.0, k, eps, solver="lbfgsb")
        assert ref.dual_objective == pytest.approx(fast.dual_objective, rel=1e-9)
        np.testing.assert_allclose(ref.scores(DTR), fast.scores(DTR), atol=1e-5)


def test_free_bias_smo_equals_slsqp(iris_vv):
    """A second method: scipy's SLSQP on the dual with the equality constraint."""
    DTR, LTR, _, _ = iris_vv
    z = 2.0 * LTR - 1
    k = rbf_kernel(1.0)
    H = np.outer(z, z) * k(DTR, DTR)
    res = scipy.optimize.minimize(
        lambda a: (0.5 * a @ H @ a - a.sum(), H @ a - 1), np.zeros(z.size), jac=True,
        method="SLSQP", bounds=[(0, 1.0)] * z.size,
        constraints=[{"type": "eq", "fun": lambda a: a @ z, "jac": lambda a: z}],
        options={"ftol": 1e-14, "maxiter": 2000})
    m = train_svm_kernel(DTR, LTR, 1.0, k, eps=None)
    assert m.dual_objective == pytest.approx(-res.fun, rel=1e-6)


def test_kernel_model_with_linear_kernel_equals_linear_model(iris_vv):
    DTR, LTR, DVAL, _ = iris_vv
    for K in [None, 1.0, 3.0]:
        same_solver = "smo" if K is None else "cd"
        ker = train_svm_kernel(DTR, LTR, 1.0, linear_kernel(), None if K is None else K * K,
                               solver=same_solver)
        for solver in ["ipm", same_solver]:
            lin = train_svm_linear(DTR, LTR, 1.0, K, solver=solver)
            np.testing.assert_allclose(ker.scores(DVAL), lin.scores(DVAL), atol=1e-6)
            assert ker.dual_objective == pytest.approx(lin.dual_objective, rel=1e-9)
            assert ker.primal_objective == pytest.approx(lin.primal_objective, rel=1e-9)
        # the same solver finds the same alpha; the interior point may find another optimum:
        # samples 11 and 34 coincide, so only their sum alpha_11 + alpha_34 is determined
        np.testing.assert_allclose(full_alpha(ker, LTR.size), lin.alpha, atol=1e-6)


def test_hard_margin_support_vectors_on_the_margin(iris_sv):
    D, L = iris_sv
    for K in [None, 1.0]:
        m = train_svm_linear(D, L, np.inf, K)
        zs = (2 * L - 1) * m.scores(D)
        sv = m.alpha > 0
        np.testing.assert_allclose(zs[sv], 1.0, atol=1e-8)
        assert np.all(zs[~sv] >= 1 - 1e-8)
        # eq. (150)-(154): 1 / ||w||, with the labs' K the norm of w_hat = [w; b / K]
        bias_sq = 0.0 if K is None else (m.b / K) ** 2
        assert m.margin == pytest.approx(1 / np.sqrt(m.w @ m.w + bias_sq), rel=1e-12)
        assert m.duality_gap == pytest.approx(0.0, abs=1e-8)
    # the hard margin is the limit of the soft margin as C grows
    soft = train_svm_linear(D, L, 1e6, None)
    hard = train_svm_linear(D, L, np.inf, None)
    np.testing.assert_allclose(soft.w, hard.w, atol=1e-6)


def test_kernel_margin_is_one_over_norm_w(iris_sv):
    D, L = iris_sv
    lin = train_svm_linear(D, L, np.inf, None)
    ker = train_svm_kernel(D, L, np.inf, linear_kernel(), None)
    assert ker.margin == pytest.approx(lin.margin, rel=1e-8)
    # ||w||^2 = alpha' H alpha = sum(alpha) at the hard-margin optimum (eq. 160 with KKT)
    assert ker.margin == pytest.approx(1 / np.sqrt(ker.alpha.sum()), rel=1e-8)


def test_hard_margin_not_separable_is_reported():
    D = np.array([[0.0, 1.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0]])  # XOR: no line separates it
    L = np.array([0, 0, 1, 1])
    with pytest.raises(ValueError, match="not separable"):
        train_svm_linear(D, L, np.inf, None)
    with pytest.raises(ValueError, match="not separable"):
        train_svm_kernel(D, L, np.inf, poly_kernel(1, 0.0), eps=1.0)
    # ... but a degree-2 kernel separates XOR, and the hard margin then exists
    m = train_svm_kernel(D, L, np.inf, poly_kernel(2, 1.0), eps=None)
    np.testing.assert_allclose((2 * L - 1) * m.scores(D), 1.0, atol=1e-8)


def test_rebalancing_with_the_empirical_prior_changes_nothing(iris_vv):
    DTR, LTR, _, _ = iris_vv
    pi_emp = float(np.mean(LTR == 1))
    assert train_svm_linear(DTR, LTR, 1.0, 1.0, prior=pi_emp) == train_svm_linear(DTR, LTR, 1.0)
    a = train_svm_kernel(DTR, LTR, 1.0, rbf_kernel(1.0), None, prior=pi_emp)
    assert a == train_svm_kernel(DTR, LTR, 1.0, rbf_kernel(1.0), None)
    b = train_svm_kernel(DTR, LTR, 1.0, rbf_kernel(1.0), None, prior=0.9)
    assert b.dual_objective != a.dual_objective
    np.testing.assert_allclose(np.unique(b.alpha.round(12)).max() <= 0.9 / pi_emp, True)


def test_models_are_values(iris_vv):
    DTR, LTR, DVAL, _ = iris_vv
    a, b = train_svm_linear(DTR, LTR, 1.0), train_svm_linear(DTR, LTR, 1.0)
    assert isinstance(a, LinearSVM) and a == b and hash(a) == hash(b)
    with pytest.raises(ValueError):
        a.w[0] = 1.0
    k = train_svm_kernel(DTR, LTR, 1.0, rbf_kernel(1.0))
    assert k.support_vectors.shape == (DTR.shape[0], k.alpha.size)
    assert np.all(k.alpha > 0)
    assert k.scores(DVAL).shape == (DVAL.shape[1],)
    assert k.scores(DVAL[:, 0]).shape == (1,)


def test_solution_without_active_bound_holds_for_every_C_above_its_alphas(iris_sv):
    # KKT argument the lecture uses to train its polynomial MNIST SVMs once for C = 10, 1, 0.1:
    # if every alpha_i < min(C, C'), no bound is active in either box, so the KKT conditions
    # (eq. 165-166) of the problem with C are those with C'.
    D, L = iris_sv
    k = poly_kernel(2, 1.0)
    m = train_svm_kernel(D, L, 10.0, k, None)
    top = m.alpha.max()
    assert top < 1.0  # separable in feature space: the premise holds here
    for C in (2 * top, 1.0, 1e3):
        other = train_svm_kernel(D, L, C, k, None)
        np.testing.assert_array_equal(other.support, m.support)
        np.testing.assert_allclose(other.alpha, m.alpha, rtol=1e-6, atol=1e-9)
        assert other.dual_objective == pytest.approx(m.dual_objective, rel=1e-9)
    # the premise matters: below the largest alpha the box binds and the solution changes
    tight = train_svm_kernel(D, L, top / 2, k, None)
    assert tight.dual_objective < m.dual_objective * (1 - 1e-6)


def test_own_kernel_function(iris_vv):
    DTR, LTR, DVAL, _ = iris_vv
    m = train_svm_kernel(DTR, LTR, 1.0, lambda A, B: (A.T @ B + 1.0) ** 2, None)
    ref = train_svm_kernel(DTR, LTR, 1.0, poly_kernel(2, 1.0), None)
    np.testing.assert_allclose(m.scores(DVAL), ref.scores(DVAL), atol=1e-6)


@pytest.mark.parametrize("znorm", [False, True])
def test_sklearn_svc_agreement(iris_vv, znorm):
    """libsvm solves the same problem (free bias). It caches kernel columns in single precision,
    so its decision values are only as accurate as the problem's conditioning allows: on the raw
    iris features (poly kernel values in the thousands) they are compared through the dual
    objective only; on z-normalised features, decision values too."""
    sklearn_svm = pytest.importorskip("sklearn.svm")
    DTR, LTR, DVAL, _ = iris_vv
    if znorm:
        mu, sd = DTR.mean(axis=1, keepdims=True), DTR.std(axis=1, keepdims=True)
        DTR, DVAL = (DTR - mu) / sd, (DVAL - mu) / sd
    cases = [(linear_kernel(), dict(kernel="linear")),
             (poly_kernel(2, 1.0), dict(kernel="poly", degree=2, gamma=1.0, coef0=1.0)),
             (rbf_kernel(1.0), dict(kernel="rbf", gamma=1.0))]
    for k, kw in cases:
        for C in [0.1, 1.0, 10.0]:
            ours = train_svm_kernel(DTR, LTR, C, k, None, tol=1e-9)
            svc = sklearn_svm.SVC(C=C, tol=1e-9, **kw).fit(DTR.T, LTR)
            ya = svc.dual_coef_.ravel()  # alpha_i z_i of the support vectors
            SV = svc.support_vectors_.T
            dual = np.abs(ya).sum() - 0.5 * ya @ k(SV, SV) @ ya
            assert ours.dual_objective == pytest.approx(dual, rel=1e-6)
            assert ours.dual_objective >= dual - 1e-12 * dual  # never below libsvm's
            if znorm and C <= 1.0:
                np.testing.assert_allclose(ours.scores(DVAL), svc.decision_function(DVAL.T),
                                           atol=1e-5)


# -- errors ------------------------------------------------------------------------------------


def test_errors(iris_vv):
    DTR, LTR, _, _ = iris_vv
    k = rbf_kernel(1.0)
    with pytest.raises(ValueError, match="label 2"):
        train_svm_linear(DTR, np.where(LTR == 1, 2, 0), 1.0)
    with pytest.raises(ValueError, match="no sample of class 1"):
        train_svm_kernel(DTR, np.zeros_like(LTR), 1.0, k)
    with pytest.raises(ValueError, match="C must be finite and > 0"):
        train_svm_linear(DTR, LTR, 0.0)
    with pytest.raises(ValueError, match="C must be finite and > 0"):
        train_svm_kernel(DTR, LTR, np.nan, k)
    with pytest.raises(TypeError, match="C must be a real"):
        train_svm_linear(DTR, LTR, "1")
    with pytest.raises(ValueError, match="K must be finite and > 0"):
        train_svm_linear(DTR, LTR, 1.0, K=0.0)
    with pytest.raises(ValueError, match="eps must be finite and >= 0"):
        train_svm_kernel(DTR, LTR, 1.0, k, eps=-1.0)
    with pytest.raises(ValueError, match="prior"):
        train_svm_linear(DTR, LTR, 1.0, prior=0.0)
    with pytest.raises(ValueError, match="did you mean D.T"):
        train_svm_linear(DTR.T, LTR, 1.0)
    bad = DTR.copy()
    bad[0, 3] = np.inf
    with pytest.raises(ValueError, match="NaN or infinite"):
        train_svm_kernel(bad, LTR, 1.0, k)
    with pytest.raises(ValueError, match="kernel returned shape"):
        train_svm_kernel(DTR, LTR, 1.0, lambda A, B: A.T @ A)
    with pytest.raises(ValueError, match="kernel returned NaN"):
        train_svm_kernel(DTR, LTR, 1.0, lambda A, B: np.full((A.shape[1], B.shape[1]), np.nan))
    with pytest.raises(TypeError, match="kernel must be a callable"):
        train_svm_kernel(DTR, LTR, 1.0, "rbf")
    with pytest.raises(ValueError, match="solver"):
        train_svm_linear(DTR, LTR, 1.0, K=None, solver="lbfgsb")
    with pytest.raises(ValueError, match="solver"):
        train_svm_kernel(DTR, LTR, 1.0, k, eps=1.0, solver="newton")
    with pytest.raises(ValueError, match="features"):
        train_svm_linear(DTR, LTR, 1.0).scores(np.ones((3, 2)))
    with pytest.raises(ValueError, match="w has 3 entries"):
        svm_primal_objective(np.ones(3), 0.0, DTR, LTR, 1.0)
    with pytest.raises(ValueError, match="alpha has"):
        svm_dual_objective(np.ones(3), DTR, LTR)
    with pytest.raises(ValueError, match="tol must be finite and > 0"):
        train_svm_linear(DTR, LTR, 1.0, tol=0.0)
    with pytest.raises(ValueError, match="max_iter must be >="):
        train_svm_kernel(DTR, LTR, 1.0, k, max_iter=0)
    with pytest.raises(ValueError, match="cache_mb must be finite and > 0"):
        train_svm_kernel(DTR, LTR, 1.0, k, cache_mb=-1.0)
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        train_svm_kernel(DTR, LTR, 10.0, poly_kernel(2, 1.0), None, max_iter=3)


# -- plots of chapter 8 ------------------------------------------------------------------------


def test_plot_svm_2d_and_one_vs_rest_regions(iris_sv):
    import matplotlib.pyplot as plt

    from mlpr.multiclass import train_one_vs_rest
    from mlpr.plots import plot_one_vs_rest_regions, plot_svm_2d

    D, L = iris_sv
    m = train_svm_linear(D, L, np.inf, None)
    fig = plot_svm_2d(D, L, m.scores, support=m.alpha > 0, title="hard margin")
    ax = fig.axes[0]
    assert ax.get_title() == "hard margin"
    assert any("support vectors" in t.get_text() for t in ax.get_legend().get_texts())
    plt.close(fig)
    D3, L3 = load_iris()
    ovr = train_one_vs_rest(lambda X, Y: train_svm_linear(X, Y, 1.0, None), D3[:2], L3)
    fig = plot_one_vs_rest_regions(D3[:2], L3, ovr.claims, resolution=40)
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert "no class claims x" in labels and "several classes claim x" in labels
    plt.close(fig)
    with pytest.raises(TypeError, match="scores must be a callable"):
        plot_svm_2d(D, L, "svm")
    with pytest.raises(ValueError, match="claims returned shape"):
        plot_one_vs_rest_regions(D3[:2], L3, lambda X: np.ones((2, X.shape[1]), bool),
                                 resolution=20)
    with pytest.raises(ValueError, match="at least 2 rows"):
        plot_svm_2d(D[:1], L, m.scores)


def _random_problem(rng, N, D, shift=0.7):
    L = (rng.random(N) < 0.4).astype(int)
    X = rng.standard_normal((D, N)) + shift * (2 * L - 1)[None, :] * rng.random((D, 1))
    return X, L


def test_badly_scaled_features_are_named_in_the_convergence_warning():
    # pixel-like features times 1e4 with C = 1: the dual is that of C = 1e8 on unit-scale
    # features, where SMO needs millions of pair steps; the warning says what to change
    rng = np.random.default_rng(8)
    X, L = _random_problem(rng, 200, 5)
    with pytest.warns(ConvergenceWarning, match="standardise the features or lower C"):
        train_svm_linear(X * 1e4, L, 1.0, None, solver="smo", max_iter=200)
    with pytest.warns(ConvergenceWarning, match="raise max_iter$"):
        train_svm_linear(X, L, 1.0, None, solver="smo", max_iter=5)


# -- careless input -----------------------------------------------------------------------------


def test_kernel_factory_passed_uncalled_says_call_it(iris_vv):
    DTR, LTR, _, _ = iris_vv
    with pytest.raises(TypeError, match=r"call it with its hyperparameters, kernel=rbf_kernel\("
                                        r"gamma\)"):
        train_svm_kernel(DTR, LTR, 1.0, rbf_kernel)
    # without the check, the data would be reported as poly_kernel's degree
    with pytest.raises(TypeError, match=r"kernel=poly_kernel makes a kernel but is not one: "
                                        r"call it .*poly_kernel\(degree, c\)"):
        train_svm_kernel(DTR, LTR, 1.0, poly_kernel, None)
    with pytest.raises(TypeError, match=r"kernel=linear_kernel\(\)"):
        train_svm_kernel(DTR, LTR, 1.0, linear_kernel)
    with pytest.raises(TypeError, match=r"kernel=RBFKernel .*rbf_kernel\(gamma\)"):
        train_svm_kernel(DTR, LTR, 1.0, RBFKernel)
    with pytest.raises(TypeError, match=r"kernel=rbf_kernel\(gamma\)"):
        svm_dual_objective(np.zeros(LTR.size), DTR, LTR, rbf_kernel)


def test_badly_scaled_data_are_refused_or_warned_before_solving(iris_vv):
    DTR, LTR, _, _ = iris_vv
    # products of the values overflow float64: refused at once, naming D and the remedy
    with pytest.raises(ValueError, match=r"D has values up to 7.7e\+160 .* overflow float64; "
                                         r"rescale"):
        train_svm_linear(DTR * 1e160, LTR, 1.0)
    with pytest.raises(ValueError, match="overflow float64"):
        train_svm_kernel(DTR * 1e160, LTR, 1.0, rbf_kernel(1.0))
    # the products fit, the kernel's power does not
    with pytest.raises(ValueError, match=r"the kernel overflows float64: k\(x_i, x_i\) is inf"):
        train_svm_kernel(DTR * 1e60, LTR, 1.0, poly_kernel(3, 1.0))
    # finite but huge C k(x, x) (1.4e28): warned before any solver step, with the remedy
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m = train_svm_kernel(DTR * 1e6, LTR, 1.0, poly_kernel(2, 1.0), None, max_iter=100)
    messages = [str(w.message) for w in caught if issubclass(w.category, ConvergenceWarning)]
    assert messages[0].startswith("C_i k(x_i, x_i) reaches 1.41e+28")
    assert "standardise the features or lower C (e.g. z-normalise them with mlpr.utils." in \
        messages[0]
    assert m.n_iter == 100
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        train_svm_linear(DTR * 100, LTR, 10.0, None, tol=1e-12, max_iter=10)
    assert re.match(r"C_i k\(x_i, x_i\) reaches 1.19e\+07: .* > tol = 1e-12",
                    str(caught[0].message))
    with warnings.catch_warnings():  # unit-scale features at the default tol: no warning
        warnings.simplefilter("error")
        train_svm_kernel(DTR, LTR, 10.0, poly_kernel(2, 1.0), None)


def test_objectives_validate_alpha_and_w(iris_vv):
    DTR, LTR, _, _ = iris_vv
    alpha = np.zeros(LTR.size)
    alpha[5] = np.nan
    with pytest.raises(ValueError, match=r"alpha contains NaN or infinite values \(first at "
                                         r"index 5\)"):
        svm_dual_objective(alpha, DTR, LTR)
    with pytest.raises(ValueError, match=r"w contains NaN or infinite values \(first at index 0"):
        svm_primal_objective(np.array([np.nan, 0, 0, 0]), 0.0, DTR, LTR, 1.0)
    with pytest.raises(TypeError, match="alpha must be a numeric array"):
        svm_dual_objective("0", DTR, LTR)


def test_dual_objective_is_the_formula(iris_vv):
    DTR, LTR, _, _ = iris_vv
    rng = np.random.default_rng(1)
    alpha, z = rng.random(LTR.size), 2.0 * LTR - 1
    for k, eps in [(linear_kernel(), 0.0), (rbf_kernel(0.5), 1.0), (poly_kernel(2, 1.0), 2.0)]:
        H = np.outer(z, z) * (k(DTR, DTR) + eps)  # eq. (173)
        assert svm_dual_objective(alpha, DTR, LTR, k, eps) == pytest.approx(
            alpha.sum() - 0.5 * alpha @ H @ alpha, rel=1e-12)  # eq. (165)


def test_margin_with_zero_norm_is_inf_and_labs_margin_includes_the_bias(iris_vv):
    DTR, LTR, _, _ = iris_vv
    m = train_svm_linear(DTR, LTR, 1.0, 1.0)
    flat = dataclasses.replace(m, w=np.zeros(4), b=0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no bare divide-by-zero warning
        assert flat.margin == np.inf
    # the labs' bias is regularised: 1 / ||w_hat||, w_hat = [w; b / K], less than 1 / ||w||
    assert dataclasses.replace(m, w=np.zeros(4)).margin == pytest.approx(1 / abs(m.b))
    assert m.margin < 1 / np.linalg.norm(m.w)
    for K in [1.0, 3.0]:  # the same margin as the kernel model with eps = K^2
        lin = train_svm_linear(DTR, LTR, 1.0, K)
        ker = train_svm_kernel(DTR, LTR, 1.0, linear_kernel(), K * K)
        assert lin.margin == pytest.approx(ker.margin, rel=1e-8)
    no_sv = dataclasses.replace(train_svm_kernel(DTR, LTR, 1.0, rbf_kernel(1.0)),
                                alpha=np.zeros(0), z=np.zeros(0),
                                support_vectors=np.zeros((4, 0)), support=np.zeros(0, int))
    assert no_sv.margin == np.inf


def test_solver_is_recorded_and_reference_is_available(iris_vv):
    DTR, LTR, DVAL, _ = iris_vv
    assert train_svm_linear(DTR, LTR, 1.0, None).solver == "ipm"  # 4 D <= N: the table's row 1
    assert train_svm_kernel(DTR, LTR, 1.0, rbf_kernel(1.0), None).solver == "smo"
    assert train_svm_kernel(DTR, LTR, 1.0, rbf_kernel(1.0), 1.0).solver == "smo"
    ref = train_svm_kernel(DTR, LTR, 1.0, rbf_kernel(1.0), None, solver="reference")
    assert ref.solver == "reference" and ref.kkt_violation <= 1e-6
    with pytest.raises(ValueError, match=r"solver must be one of \('auto', 'reference', 'smo', "
                                         r"'ipm'\) for the notes' free-bias dual"):
        train_svm_linear(DTR, LTR, 1.0, None, solver="cd")
