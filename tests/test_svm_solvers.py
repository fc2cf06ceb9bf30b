"""Tests of the fast solvers behind mlpr.svm (mlpr._svm_solvers) and of the private names of
mlpr.svm: each fast path against the plain reference solvers of mlpr.svm, the dispatch table,
the column cache, shrinking, the interior point method, SMO on slices."""

import warnings
from functools import partial

import numpy as np
import pytest

import mlpr._svm_solvers
import mlpr.svm
from mlpr._svm_solvers import (
    GramColumns,
    _bias,
    _ipm,
    _ipm_to_vertex,
    _low_rank_factor,
    _move_sum,
    _pivoted_cholesky,
    _slice_slope,
    _smo_shrinking,
    _woodbury,
    choose_solver,
)
from mlpr.datasets import load_iris, load_iris_binary
from mlpr.svm import (
    LinearKernel,
    _gram,
    _kernel_diag,
    _rank_bound,
    linear_kernel,
    poly_kernel,
    rbf_kernel,
    train_svm_kernel,
    train_svm_linear,
)
from mlpr.utils import ConvergenceWarning, split_db_2to1


@pytest.fixture(scope="module")
def iris_vv():
    """The labs' task: versicolor (1) vs virginica (0), split_db_2to1(seed=0)."""
    D, L = load_iris_binary()
    (DTR, LTR), (DVAL, LVAL) = split_db_2to1(D, L, seed=0)
    return DTR, LTR, DVAL, LVAL


def columns(kernel, X, eps, cache_bytes, eager=True, dtype=None):
    """The fast paths' column provider, built as mlpr.svm builds it."""
    return GramColumns(partial(_gram, kernel), X, eps, _kernel_diag(kernel, X) + eps, cache_bytes,
                       eager=eager, linear=isinstance(kernel, LinearKernel), dtype=dtype)


def assert_same_solution(train, D, rel=1e-8, atol=1e-5):
    """``train(solver=...)`` by "auto" (the fast path) and "reference" (the plain solvers of
    mlpr.svm): the same dual objective within ``rel`` (it is flat at the optimum, so the KKT
    tolerance 1e-6 moves it by far less), the same scores (unique, unlike alpha) within ``atol``
    of their scale (the KKT tolerance bounds z_i s_i - 1 on the free vectors). Returns both."""
    fast, ref = train(solver="auto"), train(solver="reference")
    assert ref.solver == "reference" and fast.solver != "reference"
    assert fast.kkt_violation <= 1e-6 and ref.kkt_violation <= 1e-6
    assert fast.dual_objective == pytest.approx(ref.dual_objective, rel=rel)
    assert fast.primal_objective == pytest.approx(ref.primal_objective, rel=1e-5)
    s = ref.scores(D)
    np.testing.assert_allclose(fast.scores(D), s, atol=atol * max(1.0, np.abs(s).max()))
    return fast, ref


# -- auto (the fast path) against the plain reference solvers ---------------------------------

KERNELS = [linear_kernel(), poly_kernel(2, 1.0), rbf_kernel(1.0)]


# kernel x eps x C pairwise, not in full: every kernel with every C, and each of them with each
# eps, which is 1.0 on one transversal of kernel x C (linear at C = 10, poly at 0.1, RBF at 1):
# 9 cases of the 18 (poly with eps = 1 at C = 1 is test_every_solver_name_reaches_the_same_optimum)
EPS_AT = {(i, (i + 2) % 3) for i in range(3)}  # (kernel, C) indices where eps = 1.0


@pytest.mark.parametrize("kernel, eps, C", [
    pytest.param(k, 1.0 if (i, j) in EPS_AT else None, C,
                 id=f"{k!r}-{1.0 if (i, j) in EPS_AT else None}-{C}")
    for i, k in enumerate(KERNELS) for j, C in enumerate([0.1, 1.0, 10.0])])
def test_auto_equals_reference_on_the_labs_iris_task(iris_vv, kernel, eps, C):
    """The fast path against the plain reference solver. Independent tests of the same optimum:
    test_svm.py's test_two_points_closed_form (a closed form), test_free_bias_smo_equals_slsqp
    (scipy's SLSQP), test_labs_lbfgsb_reference_equals_coordinate_descent (the labs' L-BFGS-B),
    test_sklearn_svc_agreement (libsvm) and test_kernel_svm_kkt_and_strong_duality (the KKT
    conditions and a zero duality gap)."""
    DTR, LTR, DVAL, _ = iris_vv
    assert_same_solution(partial(train_svm_kernel, DTR, LTR, C, kernel, eps), DVAL)


@pytest.mark.slow
@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
@pytest.mark.parametrize("K", [None, 1.0, 10.0])
def test_linear_model_auto_equals_reference_on_the_labs_iris_task(iris_vv, K, C):
    """The fast path against the plain reference solver. Independent tests of the same optimum:
    test_svm.py's test_two_points_closed_form (a closed form), test_free_bias_smo_equals_slsqp
    (scipy's SLSQP), test_labs_lbfgsb_reference_equals_coordinate_descent (the labs' L-BFGS-B),
    test_sklearn_svc_agreement (libsvm) and test_kernel_svm_kkt_and_strong_duality (the KKT
    conditions and a zero duality gap)."""
    DTR, LTR, DVAL, _ = iris_vv
    fast, ref = assert_same_solution(partial(train_svm_linear, DTR, LTR, C, K), DVAL)
    np.testing.assert_allclose(fast.w, ref.w, atol=1e-5 * np.abs(ref.w).max())


def _random_curved(seed, N=150, D=3):
    rng = np.random.default_rng(seed)
    L = (rng.random(N) < 0.4).astype(int)
    X = rng.standard_normal((D, N)) + 0.7 * (2 * L - 1)[None, :] * rng.random((D, 1))
    X[0] += 0.5 * X[1] ** 2 * (2 * L - 1)  # a curved boundary
    return X, L


RANDOM_CASES = [(linear_kernel(), 1.0, None), (poly_kernel(2, 1.0), 1.0, 0.8),
                (poly_kernel(3, 1.0), 0.1, None), (rbf_kernel(0.5), 10.0, None),
                (linear_kernel() + rbf_kernel(1.0), 1.0, 0.3)]


# (kernel, C, prior) x eps x seed pairwise, not in full: every case with every eps, the seed
# alternating so that each case and each eps meet both seeds (15 problems of the 30)
@pytest.mark.slow
@pytest.mark.parametrize("kernel, C, prior, eps, seed", [
    pytest.param(k, C, prior, eps, (i + j) % 2, id=f"{k!r}-{C}-{prior}-{eps}-{(i + j) % 2}")
    for i, (k, C, prior) in enumerate(RANDOM_CASES) for j, eps in enumerate([None, 0.0, 1.0])])
def test_auto_equals_reference_on_random_problems(kernel, C, prior, eps, seed):
    """The fast path against the plain reference solver. Independent tests of the same optimum:
    test_svm.py's test_two_points_closed_form (a closed form), test_free_bias_smo_equals_slsqp
    (scipy's SLSQP), test_labs_lbfgsb_reference_equals_coordinate_descent (the labs' L-BFGS-B),
    test_sklearn_svc_agreement (libsvm) and test_kernel_svm_kkt_and_strong_duality (the KKT
    conditions and a zero duality gap)."""
    X, L = _random_curved(seed)
    assert_same_solution(partial(train_svm_kernel, X, L, C, kernel, eps, prior), X)


@pytest.mark.slow
@pytest.mark.parametrize("K", [None, 1.0])
def test_linear_model_auto_equals_reference_on_random_problems(K):
    """The fast path against the plain reference solver. Independent tests of the same optimum:
    test_svm.py's test_two_points_closed_form (a closed form), test_free_bias_smo_equals_slsqp
    (scipy's SLSQP), test_labs_lbfgsb_reference_equals_coordinate_descent (the labs' L-BFGS-B),
    test_sklearn_svc_agreement (libsvm) and test_kernel_svm_kkt_and_strong_duality (the KKT
    conditions and a zero duality gap)."""
    for seed in range(3):
        X, L = _random_curved(seed, N=200, D=5)
        for C, prior in [(0.1, None), (1.0, 0.7), (10.0, None)]:
            assert_same_solution(partial(train_svm_linear, X, L, C, K, prior), X)


def test_hard_margin_auto_equals_reference():
    """The fast path against the plain reference solver, C = inf. Independent tests of the same
    optimum: test_svm.py's test_two_points_closed_form (a closed form),
    test_free_bias_smo_equals_slsqp (scipy's SLSQP),
    test_labs_lbfgsb_reference_equals_coordinate_descent (the labs' L-BFGS-B),
    test_sklearn_svc_agreement (libsvm) and test_kernel_svm_kkt_and_strong_duality (the KKT
    conditions and a zero duality gap)."""
    D, L = load_iris()
    keep = L != 2
    X, Y = D[2:4, keep], L[keep]  # setosa vs versicolor, petals: separable
    for K in [None, 1.0]:
        assert_same_solution(partial(train_svm_linear, X, Y, np.inf, K), X)
    for eps in [None, 1.0]:
        assert_same_solution(partial(train_svm_kernel, X, Y, np.inf, rbf_kernel(1.0), eps), X)


@pytest.mark.slow
def test_every_solver_name_reaches_the_same_optimum(iris_vv):
    """Every solver by name against the plain reference solver. Independent tests of the same
    optimum: test_svm.py's test_two_points_closed_form (a closed form),
    test_free_bias_smo_equals_slsqp (scipy's SLSQP),
    test_labs_lbfgsb_reference_equals_coordinate_descent (the labs' L-BFGS-B),
    test_sklearn_svc_agreement (libsvm) and test_kernel_svm_kkt_and_strong_duality (the KKT
    conditions and a zero duality gap)."""
    DTR, LTR, DVAL, _ = iris_vv
    k = poly_kernel(2, 1.0)
    for eps, names in [(None, ["auto", None, "smo", "ipm"]),
                       (1.0, ["auto", "smo", "cd", "ipm", "lbfgsb"])]:
        ref = train_svm_kernel(DTR, LTR, 1.0, k, eps, solver="reference", tol=1e-9)
        for solver in names:
            m = train_svm_kernel(DTR, LTR, 1.0, k, eps, solver=solver, tol=1e-9)
            assert m.solver == (solver if solver not in ("auto", None) else "ipm")  # 4 * 16 <= 66
            assert m.dual_objective == pytest.approx(ref.dual_objective, rel=1e-10)
            np.testing.assert_allclose(m.scores(DVAL), ref.scores(DVAL), atol=1e-6)


def test_choose_solver_table():
    # condition -> solver, row by row (free_bias, finite C, rank, N, xi)
    assert choose_solver(True, True, 4, 16, 0.0) == "ipm"  # 4 m <= N
    assert choose_solver(False, True, 3, 16, 1.0) == "ipm"  # 4 (m + 1) <= N
    assert choose_solver(False, True, 4, 16, 1.0) == "smo"  # 4 (4 + 1) > 16: SMO on slices
    assert choose_solver(True, True, 5, 16, 0.0) == "smo"
    assert choose_solver(True, True, None, 10**6, 0.0) == "smo"  # RBF: no finite feature space
    assert choose_solver(True, False, 4, 16, 0.0) == "smo"  # hard margin, free bias
    assert choose_solver(False, False, 4, 16, 1.0) == "cd"  # hard margin, box only
    assert choose_solver(False, True, None, 16, 1.0) == "smo"


# -- the fast paths' internals ------------------------------------------------------------------


def _random_problem(rng, N, D, shift=0.7):
    L = (rng.random(N) < 0.4).astype(int)
    X = rng.standard_normal((D, N)) + shift * (2 * L - 1)[None, :] * rng.random((D, 1))
    return X, L


def test_kernel_scores_in_blocks(iris_vv, monkeypatch):
    """The scores in blocks of 7 samples against the whole. Independent tests of the scores:
    test_svm.py's test_sklearn_svc_agreement (libsvm's decision values) and
    test_kernel_model_with_linear_kernel_equals_linear_model (w'x + b)."""
    DTR, LTR, DVAL, _ = iris_vv
    m = train_svm_kernel(DTR, LTR, 1.0, rbf_kernel(1.0))
    whole = m.scores(DVAL)
    monkeypatch.setattr(mlpr.svm, "_SCORE_BLOCK", 7)
    np.testing.assert_allclose(m.scores(DVAL), whole, rtol=1e-12)


@pytest.mark.parametrize("single", [False, True], ids=["double cache", "single cache"])
def test_shrinking_fast_path_equals_plain_smo(iris_vv, monkeypatch, single):
    """SMO with shrinking against SMO without, whole matrix and a few cached columns.
    Independent tests of the same optimum: test_svm.py's test_two_points_closed_form (a closed
    form), test_free_bias_smo_equals_slsqp (scipy's SLSQP),
    test_labs_lbfgsb_reference_equals_coordinate_descent (the labs' L-BFGS-B),
    test_sklearn_svc_agreement (libsvm) and test_kernel_svm_kkt_and_strong_duality (the KKT
    conditions and a zero duality gap)."""
    monkeypatch.setattr(mlpr._svm_solvers, "_SHRINK_EVERY", 5)  # shrink often on this small problem
    if not single:
        monkeypatch.setattr(mlpr._svm_solvers, "_CACHE_DTYPE", np.float64)
    # with a single-precision cache the rounding of the Gram matrix (6e-8 relative, kernel values
    # up to 1,700 here) exceeds tol = 1e-6: both finish with a double cache, to the same optimum
    DTR, LTR, DVAL, _ = iris_vv
    for k, C in [(rbf_kernel(1.0), 1.0), (poly_kernel(2, 1.0), 10.0), (linear_kernel(), 10.0)]:
        for cache_mb in (400.0, 0.01):  # whole matrix, and a few cached columns
            fast = train_svm_kernel(DTR, LTR, C, k, None, solver="smo", cache_mb=cache_mb)
            plain = train_svm_kernel(DTR, LTR, C, k, None, solver="smo", shrinking=False,
                                     cache_mb=cache_mb)
            assert fast.kkt_violation <= 1e-6
            assert fast.dual_objective == pytest.approx(plain.dual_objective,
                                                        rel=1e-10)
            np.testing.assert_allclose(fast.scores(DVAL), plain.scores(DVAL), atol=1e-6)
    with pytest.raises(TypeError, match="shrinking"):
        train_svm_kernel(DTR, LTR, 1.0, linear_kernel(), None, shrinking=1)


@pytest.mark.slow
def test_shrinking_reaches_the_newton_end_game_on_a_large_free_face():
    # SMO with shrinking runs in blocks of 1000 iterations; a Newton step on the face needs two
    # looks at the same free set, n_free^3 / (300 N) iterations apart. Were the schedule restarted
    # with each block, then once the active set is ~400 free vectors (N = n_free) no step would
    # come within a block and the slow first-order end game would run alone (measured on MNIST
    # 3 v 8, linear, C = 10: KKT violated by 0.58 after 10^6 iterations). Here, 506 free support
    # vectors and an ill-conditioned Gram matrix: 114,219 iterations with the restarted schedule
    # (libsvm 109,772), 39,501 with the kept one.
    rng = np.random.default_rng(0)
    N, D = 1000, 1200
    L = (rng.random(N) < 0.5).astype(int)
    X = rng.standard_normal((D, N)) * np.logspace(0, -2.5, D)[:, None]
    X[0] += 0.5 * (2 * L - 1)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        m = train_svm_kernel(X, L, 10.0, linear_kernel(), None, tol=1e-3, max_iter=60_000)
    assert m.kkt_violation <= 1e-3
    assert abs(m.duality_gap) <= 1e-9 * m.dual_objective  # eq. (168) at (w, b) = eq. (165)
    assert np.count_nonzero(m.alpha < 10.0) > 500  # the large free face the test is about


@pytest.mark.parametrize("single", [False, True], ids=["double cache", "single cache"])
def test_column_cache_equals_full_matrix(iris_vv, monkeypatch, single):
    """A small column cache against the whole matrix. Independent tests of the same optimum:
    test_svm.py's test_two_points_closed_form (a closed form), test_free_bias_smo_equals_slsqp
    (scipy's SLSQP), test_labs_lbfgsb_reference_equals_coordinate_descent (the labs' L-BFGS-B),
    test_sklearn_svc_agreement (libsvm) and test_kernel_svm_kkt_and_strong_duality (the KKT
    conditions and a zero duality gap)."""
    if not single:
        monkeypatch.setattr(mlpr._svm_solvers, "_CACHE_DTYPE", np.float64)
    # single precision: the same KKT conditions (to tol = 1e-6, in double), but the last Newton
    # step solves the face of the rounded Gram matrix, not exactly that of the double one
    rel = 1e-8 if single else 1e-10
    DTR, LTR, DVAL, _ = iris_vv
    full = train_svm_kernel(DTR, LTR, 1.0, rbf_kernel(1.0), None)
    cached = train_svm_kernel(DTR, LTR, 1.0, rbf_kernel(1.0), None, cache_mb=0.002)
    assert cached.dual_objective == pytest.approx(full.dual_objective, rel=rel)
    assert exact_kkt_violation(cached, rbf_kernel(1.0), DTR, LTR, 1.0) <= 1e-6
    np.testing.assert_allclose(cached.scores(DVAL), full.scores(DVAL), atol=1e-6)
    cd = train_svm_kernel(DTR, LTR, 1.0, poly_kernel(2, 1.0), 1.0, cache_mb=0.002)
    assert cd.dual_objective == pytest.approx(
        train_svm_kernel(DTR, LTR, 1.0, poly_kernel(2, 1.0), 1.0).dual_objective, rel=rel)


def test_cache_precision_follows_the_cache_size():
    # double when the whole matrix fits in the cache (8 N^2 bytes), else single precision with
    # twice the columns; the columns themselves are the kernel's to float32 rounding
    X = np.random.default_rng(8).standard_normal((5, 100))
    K = rbf_kernel(0.5)(X, X)
    whole = columns(rbf_kernel(0.5), X, 0.0, 8.0 * 100**2)
    assert whole.full is not None and whole.full.dtype == np.float64
    lazy = columns(rbf_kernel(0.5), X, 0.0, 8.0 * 100**2, eager=False)
    assert lazy.store.dtype == np.float64 and lazy.capacity == 100
    small = columns(rbf_kernel(0.5), X, 0.0, 8.0 * 100 * 20)
    assert small.full is None and small.store.dtype == np.float32 and small.capacity == 40
    for i in (3, 50, 3):
        np.testing.assert_allclose(small(i), K[i], rtol=2**-24)
        np.testing.assert_allclose(small.exact(i), K[i], rtol=1e-14)  # in double, not cached
    v = np.zeros(100)
    v[[3, 7, 50]] = [1.0, -2.0, 0.5]  # two cached columns, one computed
    np.testing.assert_allclose(small.times(v), K @ v, rtol=1e-6, atol=1e-7)
    forced = columns(rbf_kernel(0.5), X, 0.0, 8.0 * 100 * 20, dtype=np.float64)
    assert forced.store.dtype == np.float64 and forced.capacity == 20


def exact_kkt_violation(m, kernel, X, L, C):
    """The KKT violation (eq. 159, 164) of a model with a free bias, from the whole Gram matrix
    in double precision: max over I_up of v minus min over I_low, v_i = -z_i (H alpha - 1)_i."""
    z, alpha = 2.0 * L - 1.0, np.zeros(L.size)
    alpha[m.support] = m.alpha
    v = -z * (z * (kernel(X, X) @ (alpha * z)) - 1.0)
    up, low = np.where(z > 0, alpha < C, alpha > 0), np.where(z > 0, alpha > 0, alpha < C)
    return max(v[up].max() - v[low].min(), 0.0)


@pytest.mark.slow
@pytest.mark.parametrize("kernel,C", [(rbf_kernel(0.5), 10.0), (poly_kernel(2, 1.0), 1.0),
                                      (linear_kernel(), 1.0)], ids=repr)
def test_single_precision_cache_keeps_the_optimum(kernel, C, monkeypatch):
    """The float32 and float64 caches against the plain reference solver. Independent tests of
    the same optimum: test_svm.py's test_two_points_closed_form (a closed form),
    test_free_bias_smo_equals_slsqp (scipy's SLSQP),
    test_labs_lbfgsb_reference_equals_coordinate_descent (the labs' L-BFGS-B),
    test_sklearn_svc_agreement (libsvm) and test_kernel_svm_kkt_and_strong_duality (the KKT
    conditions and a zero duality gap)."""
    # A problem large enough to need the column cache (cache_mb = 0.5 holds 40-80 columns of
    # N = 800, evicted and recomputed): SMO with the float32 cache, with a float64 cache and the
    # plain reference solver of mlpr.svm on the whole float64 matrix reach the same dual within
    # 1e-8 relative (float32 rounds each entry by 6e-8 relative) and the same scores.
    X, L = _random_curved(3, N=800, D=4)
    train = partial(train_svm_kernel, X, L, C, kernel, None, solver="smo", cache_mb=0.5)
    single = train()
    monkeypatch.setattr(mlpr._svm_solvers, "_CACHE_DTYPE", np.float64)
    double = train()
    ref = train_svm_kernel(X, L, C, kernel, None, solver="reference")
    for m in (single, double):
        assert m.kkt_violation <= 1e-6 and exact_kkt_violation(m, kernel, X, L, C) <= 1e-6
        assert m.dual_objective == pytest.approx(ref.dual_objective, rel=1e-8)
        s = ref.scores(X)
        np.testing.assert_allclose(m.scores(X), s, atol=1e-5 * max(1.0, np.abs(s).max()))


@pytest.mark.parametrize("kernel", [poly_kernel(2, 1.0), linear_kernel()], ids=repr)
def test_pivoted_cholesky_is_double_precision_with_a_single_cache(kernel):
    # the interior point's factor reads its columns in double even when the cache is float32
    X = np.random.default_rng(6).standard_normal((4, 120))
    cols = columns(kernel, X, 0.0, 2.0**12, eager=False)
    assert cols.store.dtype == np.float32
    G = _pivoted_cholesky(cols, _rank_bound(kernel, X))
    K = kernel(X, X)
    np.testing.assert_allclose(G.T @ G, K, atol=1e-10 * np.abs(K).max())


@pytest.mark.slow
@pytest.mark.parametrize("K", [None, 1.0, 5.0])
@pytest.mark.parametrize("C,prior", [(0.1, None), (1.0, None), (10.0, 0.8)])
def test_interior_point_equals_smo_and_coordinate_descent(K, C, prior):
    # Two methods, one optimum: the interior point (then SMO / coordinate descent from its vertex)
    # against SMO / coordinate descent from alpha = 0. The primal optimum (w, b) is unique.
    rng = np.random.default_rng(int(10 * C) + (0 if K is None else int(K)))
    X, L = _random_problem(rng, 300, 8)
    ipm = train_svm_linear(X, L, C, K, prior, solver="ipm")
    ref = train_svm_linear(X, L, C, K, prior, solver="smo" if K is None else "cd")
    assert ipm.kkt_violation <= 1e-6
    assert abs(ipm.duality_gap) <= 1e-9 * ipm.dual_objective
    assert ipm.dual_objective == pytest.approx(ref.dual_objective, rel=1e-10)
    np.testing.assert_allclose(ipm.w, ref.w, atol=1e-6 * np.abs(ref.w).max())
    assert ipm.b == pytest.approx(ref.b, abs=1e-6)


@pytest.mark.parametrize("equality", [True, False])
def test_interior_point_alone_reaches_the_optimum_inside_the_box(equality):
    # The interior point method by itself, before any SMO step: strictly inside the box, the
    # equality held, and the objective within 1e-8 of the optimum found by SMO / coordinate
    # descent; its multipliers s, t >= 0 and the complementarity products all small.
    rng = np.random.default_rng(3)
    X, L = _random_problem(rng, 200, 6)
    z, C = 2.0 * L - 1.0, np.full(L.size, 2.0)
    ref = train_svm_linear(X, L, 2.0, None if equality else 1.0,
                           solver="smo" if equality else "cd")
    cols = columns(linear_kernel(), X, 0.0 if equality else 1.0, 2.0**20, eager=False)
    V = _low_rank_factor(cols, z, _rank_bound(linear_kernel(), X))
    alpha, s, t, steps = _ipm(V, z, C, equality)
    assert steps < 60
    assert np.all(alpha > 0) and np.all(alpha < C) and np.all(s > 0) and np.all(t > 0)
    if equality:
        assert abs(z @ alpha) <= 1e-10 * C.sum()
    Va = V @ alpha
    f = 0.5 * Va @ Va - alpha.sum()
    assert -f == pytest.approx(ref.dual_objective, rel=1e-8)
    assert alpha @ s + (C - alpha) @ t <= 1e-8 * abs(f)


def test_woodbury_solve_equals_direct_solve():
    rng = np.random.default_rng(4)
    V = rng.standard_normal((5, 40))
    theta = 10.0 ** rng.uniform(-6, 6, 40)  # as spread as near the end of the interior point
    r = rng.standard_normal(40)
    direct = np.linalg.solve(np.diag(theta) + V.T @ V, r)
    np.testing.assert_allclose(_woodbury(V, theta)(r), direct, rtol=1e-7, atol=1e-12)


def test_interior_point_vertex_is_feasible():
    # Rounding the interior point to its bounds keeps 0 <= alpha <= C exactly and restores
    # sum_i alpha_i z_i = 0, with and without free variables to absorb the residual.
    z = np.array([1.0, 1.0, -1.0, -1.0, 1.0, -1.0])
    C = np.full(6, 2.0)
    alpha = np.array([1e-11, 2.0 - 1e-11, 0.7, 1.3 + 3e-11, 0.6, 1e-11])  # z'alpha = 0.6 + ...
    s = np.array([0.5, 1e-12, 1e-12, 1e-12, 1e-12, 0.5])
    t = np.array([1e-12, 0.5, 1e-12, 1e-12, 1e-12, 1e-12])
    a = _ipm_to_vertex(alpha, s, t, z, C, equality=True)
    assert a[0] == 0.0 and a[1] == 2.0 and a[5] == 0.0  # on their bounds, exactly
    assert abs(z @ a) <= 1e-15
    assert np.all((a >= 0) & (a <= C))
    a = _ipm_to_vertex(np.array([1e-11, 2.0 - 1e-11]), np.array([0.5, 1e-12]),
                       np.array([1e-12, 0.5]), np.array([1.0, -1.0]), np.full(2, 2.0), True)
    assert abs(a @ [1.0, -1.0]) <= 1e-15 and np.all((a >= 0) & (a <= 2.0))


def test_interior_point_is_the_default_when_features_are_fewer_than_samples(iris_vv):
    DTR, LTR, _, _ = iris_vv
    assert train_svm_linear(DTR, LTR, 1.0, None) == train_svm_linear(DTR, LTR, 1.0, None,
                                                                      solver="ipm")
    assert train_svm_linear(DTR, LTR, 1.0, 1.0) == train_svm_linear(DTR, LTR, 1.0, 1.0,
                                                                     solver="ipm")
    X, L = DTR[:, :4], np.array([0, 1, 0, 1])  # D = N = 4: SMO
    assert train_svm_linear(X, L, 1.0, None) == train_svm_linear(X, L, 1.0, None, solver="smo")
    with pytest.raises(ValueError, match="finite C"):
        train_svm_linear(DTR, LTR, np.inf, None, solver="ipm")
    with pytest.raises(ValueError, match="known dimension"):
        train_svm_kernel(DTR, LTR, 1.0, rbf_kernel(1.0), None, solver="ipm")
    with pytest.raises(ValueError, match="finite C"):
        train_svm_kernel(DTR, LTR, np.inf, poly_kernel(2, 1.0), None, solver="ipm")


def test_rank_bound_of_the_kernels():
    X = np.vstack([np.random.default_rng(5).standard_normal((6, 50)), np.zeros((2, 50))])
    assert _rank_bound(linear_kernel(), X) == 6  # the two zero features do not count
    assert _rank_bound(poly_kernel(2, 1.0), X) == 28  # monomials of degree <= 2 in 6 variables
    assert _rank_bound(poly_kernel(2, 0.0), X) == 21  # degree exactly 2: 6 * 7 / 2
    assert _rank_bound(poly_kernel(3, 2.0), X) == 84
    assert _rank_bound(linear_kernel() + poly_kernel(2, 0.0), X) == 27
    assert _rank_bound(rbf_kernel(1.0), X) is None
    assert _rank_bound(linear_kernel() + rbf_kernel(1.0), X) is None


@pytest.mark.parametrize("kernel", [poly_kernel(2, 1.0), poly_kernel(3, 0.0), linear_kernel()])
def test_pivoted_cholesky_reproduces_the_gram_matrix(kernel):
    # G'G = K to rounding, with as many rows as the rank the closed form of the feature space
    # predicts (numpy's matrix_rank of K, an SVD, as the second method)
    X = np.random.default_rng(6).standard_normal((4, 120))
    cols = columns(kernel, X, 0.0, 2.0**20, eager=False)
    G = _pivoted_cholesky(cols, _rank_bound(kernel, X))
    K = kernel(X, X)
    np.testing.assert_allclose(G.T @ G, K, atol=1e-10 * np.abs(K).max())
    assert G.shape[0] == np.linalg.matrix_rank(K) == _rank_bound(kernel, X)
    assert isinstance(kernel, LinearKernel) or G.shape[0] < 120


@pytest.mark.slow
@pytest.mark.parametrize("eps", [None, 1.0])
@pytest.mark.parametrize("kernel,C", [(poly_kernel(2, 1.0), 1.0), (poly_kernel(3, 1.0), 0.5)])
def test_kernel_interior_point_equals_smo_and_coordinate_descent(kernel, C, eps):
    rng = np.random.default_rng(7)
    X, L = _random_problem(rng, 400, 3)
    X[0] += 0.5 * X[1] ** 2 * (2 * L - 1)  # a curved boundary
    ipm = train_svm_kernel(X, L, C, kernel, eps, solver="ipm")
    ref = train_svm_kernel(X, L, C, kernel, eps, solver="smo" if eps is None else "cd")
    assert ipm.kkt_violation <= 1e-6
    assert abs(ipm.duality_gap) <= 1e-8 * ipm.dual_objective  # KKT violated by <= tol = 1e-6
    assert ipm.dual_objective == pytest.approx(ref.dual_objective, rel=1e-9)
    np.testing.assert_allclose(ipm.scores(X), ref.scores(X), atol=1e-6)


def test_kernel_default_solver(iris_vv):
    DTR, LTR, _, _ = iris_vv  # 66 samples, 4 features
    poly = poly_kernel(2, 1.0)  # 15 dimensions (+ 1 for eps): 4 * 16 <= 66, interior point
    assert train_svm_kernel(DTR, LTR, 1.0, poly) == train_svm_kernel(DTR, LTR, 1.0, poly,
                                                                     solver="ipm")
    rbf = rbf_kernel(1.0)  # no finite feature space: SMO / coordinate descent
    assert train_svm_kernel(DTR, LTR, 1.0, rbf, None) == train_svm_kernel(DTR, LTR, 1.0, rbf,
                                                                          None, solver="smo")
    # the labs' eps: SMO on slices of fixed sum_i alpha_i z_i; coordinate descent for C = inf
    assert train_svm_kernel(DTR, LTR, 1.0, rbf) == train_svm_kernel(DTR, LTR, 1.0, rbf,
                                                                    solver="smo")
    X, Lsep = DTR[:, :20], LTR[:20]
    assert train_svm_kernel(X, Lsep, np.inf, rbf) == train_svm_kernel(X, Lsep, np.inf, rbf,
                                                                      solver="cd")
    with pytest.raises(ValueError, match="solver must be one of"):
        train_svm_kernel(X, Lsep, np.inf, rbf, solver="smo")
    cubic = poly_kernel(3, 1.0)  # 35 dimensions: 4 * 35 > 66, SMO
    assert train_svm_kernel(DTR, LTR, 1.0, cubic, None) == train_svm_kernel(
        DTR, LTR, 1.0, cubic, None, solver="smo")


def test_interior_point_scale_invariance_and_no_early_stop():
    # Features times s with C is the problem of the unit features with C s^2, alpha / s^2 and
    # objective / s^2 (H scales by s^2).
    rng = np.random.default_rng(9)
    X, L = _random_problem(rng, 200, 5)
    z, s = 2.0 * L - 1.0, 1e3
    scaled = train_svm_linear(X * s, L, 1.0, None, solver="ipm")
    unit = train_svm_linear(X, L, s * s, None, solver="ipm")
    assert scaled.kkt_violation <= 1e-6 and unit.kkt_violation <= 1e-6
    assert scaled.dual_objective * s * s == pytest.approx(unit.dual_objective, rel=1e-8)
    np.testing.assert_allclose(scaled.scores(X * s), unit.scores(X), atol=1e-5)  # tol = 1e-6
    # At s = 1e4 the interior point starts far from the optimum (minus the dual objective is
    # +6e11 at alpha = C / 2, about -1e-6 at the optimum): it must not stop on a duality gap
    # that is small only relative to that starting objective (it once stopped at step 0).
    cols = columns(linear_kernel(), X * 1e4, 0.0, 2.0**20, eager=False)
    V = _low_rank_factor(cols, z, _rank_bound(linear_kernel(), X))
    alpha, _, _, steps = _ipm(V, z, np.ones(200), True)
    Va = V @ alpha
    assert steps > 5 and 0.5 * Va @ Va - alpha.sum() < 0


@pytest.mark.slow
@pytest.mark.parametrize("eps", [0.0, 1.0, 10.0])
@pytest.mark.parametrize("kernel,C", [(rbf_kernel(1.0), 0.1), (rbf_kernel(0.5), 10.0),
                                      (poly_kernel(3, 1.0), 1.0)])
def test_box_only_smo_on_slices_equals_coordinate_descent(kernel, C, eps):
    # Two methods for the labs' dual: SMO on slices of fixed sum alpha_i z_i, and coordinate
    # descent. The primal optimum is unique, so the scores are too.
    rng = np.random.default_rng(10)
    X, L = _random_problem(rng, 300, 3)
    X[0] += 0.5 * X[1] ** 2 * (2 * L - 1)
    smo = train_svm_kernel(X, L, C, kernel, eps, solver="smo")
    cd = train_svm_kernel(X, L, C, kernel, eps, solver="cd")
    assert smo.kkt_violation <= 1e-6 and cd.kkt_violation <= 1e-6
    assert smo.dual_objective == pytest.approx(cd.dual_objective, rel=1e-9)
    np.testing.assert_allclose(smo.scores(X), cd.scores(X), atol=1e-5)


def test_slices_move_the_sum_and_their_slope_is_the_derivative_of_b():
    rng = np.random.default_rng(11)
    X, L = _random_problem(rng, 120, 2)
    z, C = 2.0 * L - 1.0, np.full(120, 1.0)
    cols = columns(rbf_kernel(0.5), X, 1.0, 2.0**24)
    # _move_sum: the sum moves by exactly delta (within rounding), the box holds
    alpha = _move_sum(np.zeros(120), z, C, 0.3)
    assert z @ alpha == pytest.approx(0.3, abs=1e-12) and np.all((alpha >= 0) & (alpha <= C))
    a1 = _move_sum(alpha, z, C, -0.45)
    assert z @ a1 == pytest.approx(-0.15, abs=1e-12) and np.all((a1 >= 0) & (a1 <= C))

    def b_of(beta_alpha):
        a, _ = _smo_shrinking(cols, cols.diag, z, C, 1e-12, 10**6, alpha0=beta_alpha)
        return a, _bias(a, z * cols.times(a * z) - 1.0, z, C)

    a0, b0 = b_of(alpha)
    h = 1e-6  # small enough for the face not to change
    _, b1 = b_of(_move_sum(a0, z, C, h))
    slope = _slice_slope(cols, z, C, a0)
    assert slope < 0  # b decreases along beta
    assert (b1 - b0) / h == pytest.approx(slope, rel=1e-4)  # the finite difference


def test_the_private_module_never_imports_the_chapter():
    # mlpr.svm imports mlpr._svm_solvers, never the reverse: the kernel reaches the fast paths
    # as a function gram(X1, X2)
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(mlpr._svm_solvers))
    modules = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    modules |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert modules == {"__future__", "functools", "numpy", "scipy.linalg"}
