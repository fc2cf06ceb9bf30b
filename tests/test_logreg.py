"""Tests of mlpr.logreg: expected values come from independent routes (the objective written as a
Python loop over samples, central finite differences of objectives and gradients, three
different solvers, the minimiser by a Newton iteration written here with the gradient in long
double, the invariance of the solution to the units of the features, the K = 2 softmax against
the binary model, an explicit loop of outer products, the perceptron's margins, the course's
published iris numbers)."""

import math
import warnings

import numpy as np
import pytest

from mlpr import utils
from mlpr.datasets import load_iris, load_iris_binary
from mlpr.logreg import (
    BinaryLogReg,
    ConvergenceWarning,
    MulticlassLogReg,
    Perceptron,
    expand_quadratic,
    expand_quadratic_symmetric,
    logreg_hessian,
    logreg_multiclass_obj_wrap,
    logreg_obj_wrap,
    minimize_gradient_descent,
    minimize_newton,
    train_logreg_binary,
    train_logreg_multiclass,
    train_perceptron,
)
from mlpr.utils import split_db_2to1

OPT = 1e-6  # optimiser results and finite-difference checks


# -- data ----------------------------------------------------------------------------------------


def _binary(seed=0, n=(70, 50), dim=3, shift=1.0):
    """Two overlapping Gaussian classes (not separable), labels interleaved, class 1 first size."""
    rng = np.random.default_rng(seed)
    X1 = rng.standard_normal((dim, n[0])) + shift
    X0 = rng.standard_normal((dim, n[1])) - 0.5 * shift
    D = np.hstack([X1, X0])
    L = np.concatenate([np.ones(n[0], int), np.zeros(n[1], int)])
    perm = rng.permutation(L.size)
    return D[:, perm], L[perm]


def _multiclass(seed=0, K=3, n=40, dim=3):
    rng = np.random.default_rng(seed)
    means = 1.5 * rng.standard_normal((dim, K))
    D = np.hstack([rng.standard_normal((dim, n)) + means[:, [k]] for k in range(K)])
    L = np.repeat(np.arange(K), n)
    perm = rng.permutation(L.size)
    return D[:, perm], L[perm]


def _separable(seed=0):
    """Linearly separable two-class data (a gap of 1 around the plane x_0 + x_1 = 0)."""
    rng = np.random.default_rng(seed)
    D = rng.standard_normal((2, 60))
    side = D[0] + D[1]
    L = (side > 0).astype(int)
    D[:, L == 1] += 0.5
    D[:, L == 0] -= 0.5
    return D, L


def _loop_objective(D, L, l, w, b, prior=None):
    """eq. (100)/(101) as a loop over samples, with math.log1p(math.exp(.)) on moderate scores."""
    n = L.size
    nT = int(np.sum(L == 1))
    total = 0.0
    for i in range(n):
        z = 2 * L[i] - 1
        s = float(w @ D[:, i] + b)
        loss = math.log1p(math.exp(-z * s))
        if prior is None:
            total += loss / n
        elif L[i] == 1:
            total += prior * loss / nT
        else:
            total += (1 - prior) * loss / (n - nT)
    return 0.5 * l * float(w @ w) + total


def _central_grad(f, v, h=1e-6):
    g = np.zeros_like(v)
    for j in range(v.size):
        e = np.zeros_like(v)
        e[j] = h
        g[j] = (f(v + e) - f(v - e)) / (2 * h)
    return g


def _assert_close(a, b, tol=OPT):
    a, b = np.asarray(a, float), np.asarray(b, float)
    assert a.shape == b.shape
    scale = max(np.abs(b).max(), 1.0)
    np.testing.assert_allclose(a, b, rtol=0, atol=tol * scale)


# -- binary objective ----------------------------------------------------------------------------


@pytest.mark.parametrize("prior", [None, 0.3, 0.8])
@pytest.mark.parametrize("l", [0.0, 0.1, 2.0])
def test_binary_objective_matches_a_loop_over_samples(l, prior):
    D, L = _binary()
    rng = np.random.default_rng(1)
    obj = logreg_obj_wrap(D, L, l, prior=prior)
    for _ in range(3):
        v = rng.standard_normal(D.shape[0] + 1)
        f, g = obj(v)
        assert isinstance(f, float) and g.shape == v.shape
        assert f == pytest.approx(_loop_objective(D, L, l, v[:-1], v[-1], prior), rel=1e-12)


@pytest.mark.parametrize("prior", [None, 0.2, 0.9])
def test_binary_gradient_and_hessian_match_finite_differences(prior):
    D, L = _binary(seed=3)
    obj = logreg_obj_wrap(D, L, 0.3, prior=prior)
    rng = np.random.default_rng(2)
    for _ in range(3):
        v = rng.standard_normal(D.shape[0] + 1)
        _assert_close(obj(v)[1], _central_grad(lambda u: obj(u)[0], v))
        H = logreg_hessian(D, L, 0.3, v, prior=prior)
        Hfd = np.column_stack(
            [_central_grad(lambda u, j=j: obj(u)[1][j], v) for j in range(v.size)]
        )
        _assert_close(H, Hfd)
        assert np.allclose(H, H.T)


def test_bias_is_not_regularised():
    D, L = _binary()
    v = np.array([0.0, 0.0, 0.0, 5.0])
    # with w = 0 the penalty is zero whatever b, so lambda does not change the objective
    assert logreg_obj_wrap(D, L, 0.0)(v)[0] == logreg_obj_wrap(D, L, 10.0)(v)[0]
    H = logreg_hessian(D, L, 10.0, v) - logreg_hessian(D, L, 0.0, v)
    _assert_close(H, np.diag([10.0, 10.0, 10.0, 0.0]), 1e-12)


@pytest.mark.parametrize("prior", [None, 0.1, 0.7])
@pytest.mark.parametrize("l", [0.0, 1e-3, 5.0])
def test_binary_objective_at_zero_is_log_2(l, prior):
    D, L = _binary()
    f, g = logreg_obj_wrap(D, L, l, prior=prior)(np.zeros(D.shape[0] + 1))
    assert f == pytest.approx(math.log(2.0), rel=1e-14)


def test_prior_weighted_with_the_empirical_prior_equals_the_unweighted_objective():
    D, L = _binary()
    pemp = np.mean(L == 1)
    a, b = logreg_obj_wrap(D, L, 0.2), logreg_obj_wrap(D, L, 0.2, prior=pemp)
    v = np.random.default_rng(0).standard_normal(D.shape[0] + 1)
    assert a(v)[0] == pytest.approx(b(v)[0], rel=1e-13)
    _assert_close(a(v)[1], b(v)[1], 1e-13)
    ma, mb = train_logreg_binary(D, L, 0.2), train_logreg_binary(D, L, 0.2, prior=pemp)
    _assert_close(mb.w, ma.w, 1e-8)
    assert mb.objective == pytest.approx(ma.objective, rel=1e-12)
    assert mb.prior_log_odds == pytest.approx(ma.prior_log_odds, rel=1e-12)


def test_objective_is_finite_for_huge_scores():
    D, L = _binary()
    obj = logreg_obj_wrap(D, L, 0.0)
    f, g = obj(np.array([1e4, -1e4, 1e4, 1e4]))
    assert np.isfinite(f) and f > 100 and np.all(np.isfinite(g))


def test_objective_works_with_scipy_fmin_l_bfgs_b():
    import scipy.optimize

    D, L = _binary()
    obj = logreg_obj_wrap(D, L, 0.1)
    x, f, _ = scipy.optimize.fmin_l_bfgs_b(obj, np.zeros(D.shape[0] + 1), factr=1.0, pgtol=1e-12)
    m = train_logreg_binary(D, L, 0.1)
    _assert_close(x, np.append(m.w, m.b))
    assert f == pytest.approx(m.objective, rel=1e-12)


# -- binary training ------------------------------------------------------------------------------


@pytest.mark.parametrize("prior", [None, 0.8])
@pytest.mark.parametrize("l", [1e-2, 0.1, 1.0])
def test_lbfgs_gradient_descent_and_newton_reach_the_same_optimum(l, prior):
    D, L = _binary(seed=5)
    ms = {s: train_logreg_binary(D, L, l, prior=prior, optimizer=s)
          for s in ("lbfgs", "gd", "newton")}
    ref = ms["newton"]
    for s in ("lbfgs", "gd"):
        _assert_close(ms[s].w, ref.w)
        assert ms[s].b == pytest.approx(ref.b, abs=OPT * max(1.0, abs(ref.b)))
        assert ms[s].objective == pytest.approx(ref.objective, rel=1e-10)
    obj = logreg_obj_wrap(D, L, l, prior=prior)
    for m in ms.values():
        v = np.append(m.w, m.b)
        assert np.max(np.abs(obj(v)[1])) < 1e-7  # the gradient vanishes at the optimum
        assert obj(v)[0] == pytest.approx(m.objective, rel=1e-14)
        # a perturbation in any direction increases the objective
        for u in np.eye(v.size):
            assert obj(v + 1e-3 * u)[0] > m.objective and obj(v - 1e-3 * u)[0] > m.objective


def test_generic_gradient_descent_with_backtracking_reaches_the_optimum():
    D, L = _binary(seed=6)
    obj = logreg_obj_wrap(D, L, 0.5)
    res = minimize_gradient_descent(obj, np.zeros(4), tol=1e-9)
    m = train_logreg_binary(D, L, 0.5, optimizer="newton")
    _assert_close(res.x, np.append(m.w, m.b))
    assert res.fun == pytest.approx(m.objective, rel=1e-12)


def test_newton_solves_a_quadratic_in_one_step():
    A = np.array([[3.0, 1.0], [1.0, 2.0]])
    c = np.array([1.0, -1.0])

    def fgh(x):
        return 0.5 * x @ A @ x - c @ x, A @ x - c, A

    res = minimize_newton(fgh, np.array([10.0, -7.0]))
    assert res.success and res.nit == 1
    _assert_close(res.x, np.linalg.solve(A, c), 1e-12)


def test_gradient_descent_fixed_step_on_a_quadratic():
    A = np.diag([1.0, 4.0])

    def fg(x):
        return 0.5 * x @ A @ x, A @ x

    res = minimize_gradient_descent(fg, np.array([1.0, 1.0]), step=0.25, backtracking=False,
                                    tol=1e-12)
    assert res.success
    _assert_close(res.x, np.zeros(2), 1e-12)
    # a step above 2 / L_max diverges: reported, not an endless loop
    bad = minimize_gradient_descent(fg, np.array([1.0, 1.0]), step=1.0, backtracking=False,
                                    max_iter=50)
    assert not bad.success and bad.nit == 50


def test_binary_model_scores_and_llr():
    D, L = _binary()
    m = train_logreg_binary(D, L, 0.1)
    assert isinstance(m, BinaryLogReg) and m.w.shape == (3,) and isinstance(m.b, float)
    assert m.l == 0.1 and m.prior is None
    Dt = np.random.default_rng(9).standard_normal((3, 7))
    _assert_close(m.scores(Dt), np.array([m.w @ Dt[:, i] + m.b for i in range(7)]), 1e-14)
    nT, nF = np.sum(L == 1), np.sum(L == 0)
    assert m.prior_log_odds == pytest.approx(math.log(nT / nF), rel=1e-14)
    _assert_close(m.llr(Dt), m.scores(Dt) - math.log(nT / nF), 1e-14)
    mp = train_logreg_binary(D, L, 0.1, prior=0.8)
    assert mp.prior == 0.8 and mp.prior_log_odds == pytest.approx(math.log(4.0), rel=1e-14)
    _assert_close(mp.llr(Dt), mp.scores(Dt) - math.log(4.0), 1e-14)
    assert m.scores(Dt[:, 0]).shape == (1,)  # one sample as a 1-D vector
    with pytest.raises(ValueError, match=r"did you mean D\.T\?"):
        m.scores(np.zeros((7, 3)))


def test_raising_the_training_prior_moves_the_decisions_towards_class_1():
    D, L = _binary(seed=2)
    lo, hi = train_logreg_binary(D, L, 0.1, prior=0.2), train_logreg_binary(D, L, 0.1, prior=0.9)
    assert np.sum(hi.scores(D) > 0) > np.sum(lo.scores(D) > 0)


def test_iteration_limit_warns():
    D, L = _binary()
    with pytest.warns(ConvergenceWarning, match=r"max_iter = 2"):
        train_logreg_binary(D, L, 1e-3, max_iter=2, newton_finish=False)
    with pytest.warns(ConvergenceWarning, match="iteration limit"):
        train_logreg_binary(D, L, 1e-3, optimizer="gd", max_iter=3)
    Dm, Lm = _multiclass()
    with pytest.warns(ConvergenceWarning, match=r"max_iter = 2"):
        train_logreg_multiclass(Dm, Lm, 1e-3, max_iter=2, newton_finish=False)
    # the Newton finish takes a capped L-BFGS to the minimiser: nothing to warn about
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        m = train_logreg_binary(D, L, 1e-3, max_iter=2)
        mm = train_logreg_multiclass(Dm, Lm, 1e-3, max_iter=2)
    _assert_close(np.append(m.w, m.b), _v(train_logreg_binary(D, L, 1e-3)), 1e-12)
    _assert_close(_v(mm), _v(train_logreg_multiclass(Dm, Lm, 1e-3)), 1e-12)


def test_lbfgs_stopping_where_the_objective_stops_decreasing_warns():
    # L-BFGS cannot drive the gradient below about 1e-9 (its line search needs f to decrease);
    # without the Newton finish a tolerance below that is not met, and the warning says so
    D, L = _binary()
    pattern = r"tol = 1e-16"
    with pytest.warns(ConvergenceWarning, match=pattern + r".*newton_finish=True"):
        train_logreg_binary(D, L, 1e-3, tol=1e-16, newton_finish=False)
    Dm, Lm = _multiclass()
    with pytest.warns(ConvergenceWarning, match=pattern + r".*newton_finish=True"):
        train_logreg_multiclass(Dm, Lm, 1e-3, tol=1e-16, newton_finish=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        train_logreg_binary(D, L, 1e-3, tol=1e-16)
        train_logreg_multiclass(Dm, Lm, 1e-3, tol=1e-16)


@pytest.mark.parametrize("solver", ["lbfgs", "newton", "gd"])
def test_separable_data_without_regularisation_warns_and_terminates(solver):
    D, L = _separable()
    max_iter = {"lbfgs": 15000, "newton": 100, "gd": 2000}[solver]
    with pytest.warns(ConvergenceWarning, match="no minimiser"):
        m = train_logreg_binary(D, L, 0.0, optimizer=solver, max_iter=max_iter)
    assert np.all((m.scores(D) > 0) == (L == 1))
    assert m.n_iter <= max_iter
    # with lambda > 0 there is a minimiser and no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        train_logreg_binary(D, L, 1e-2, optimizer=solver)


def test_non_separable_data_without_regularisation_does_not_warn():
    D, L = _binary()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = train_logreg_binary(D, L, 0.0)
    assert np.max(np.abs(logreg_obj_wrap(D, L, 0.0)(np.append(m.w, m.b))[1])) < 1e-7


def test_training_is_deterministic_and_models_compare_by_value():
    D, L = _binary()
    Dm, Lm = _multiclass()
    X, Y = _separable()
    for train in (lambda: train_logreg_binary(D, L, 0.1),
                  lambda: train_logreg_binary(D, L, 0.1, prior=0.3, optimizer="gd"),
                  lambda: train_logreg_binary(D, L, 0.1, newton_finish=False),
                  lambda: train_logreg_multiclass(Dm, Lm, 0.1),
                  lambda: train_perceptron(X, Y, 100, np.random.default_rng(0))):
        a, b = train(), train()
        assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    a = train_logreg_binary(D, L, 0.1)
    assert a != train_logreg_binary(D, L, 0.2) and a != train_logreg_binary(D, L, 0.1, 0.5)
    assert train_logreg_multiclass(Dm, Lm, 0.1) != train_logreg_multiclass(Dm, Lm, 0.2)
    with pytest.raises(ValueError, match="read-only"):
        a.w[0] = 1.0  # a trained model cannot be changed


def test_newton_finish_argument():
    D, L = _binary()
    with pytest.raises(TypeError, match="newton_finish"):
        train_logreg_binary(D, L, 0.1, newton_finish="yes")
    with pytest.raises(TypeError, match="newton_finish"):
        train_logreg_multiclass(*_multiclass(), 0.1, newton_finish=1)
    with pytest.raises(ValueError, match=r"newton_finish.*lbfgs"):
        train_logreg_binary(D, L, 0.1, optimizer="gd", newton_finish=True)
    # forcing the finish where the default already uses it changes nothing
    a = train_logreg_binary(D, L, 0.1, newton_finish=True)
    assert a == train_logreg_binary(D, L, 0.1)


def test_convergence_warning_is_the_library_one_and_points_at_the_caller():
    # one warning class for every iterative solver of mlpr (svm.py and the lectures import it
    # from mlpr.logreg), shown at the user's call rather than inside the library
    assert ConvergenceWarning is utils.ConvergenceWarning
    D, L = _binary()
    Dm, Lm = _multiclass()
    for train in (lambda: train_logreg_binary(D, L, 1e-3, max_iter=2, newton_finish=False),
                  lambda: train_logreg_multiclass(Dm, Lm, 1e-3, max_iter=2, newton_finish=False),
                  lambda: train_perceptron(*load_iris_binary(), 1, np.random.default_rng(0))):
        with pytest.warns(ConvergenceWarning) as record:
            train()
        assert [w.filename for w in record] == [__file__]

# -- the minimiser: an independent Newton solution with the gradient in extended precision ------


def _v(m):
    """The parameters of a model in the order of the objective callables."""
    if isinstance(m, MulticlassLogReg):
        return np.concatenate([m.W.ravel(order="F"), m.b])
    return np.append(m.w, m.b)


def _newton_long_double(f, grad, hess, v):
    """Newton's method with f and the gradient in long double and the direction from a float64
    Hessian solved by least squares (the minimum-norm step when it is singular): iterative
    refinement, so the fixed point is the minimiser to long-double precision."""
    for _ in range(200):
        g = grad(v)
        d = np.linalg.lstsq(hess(v), g.astype(float), rcond=None)[0].astype(np.longdouble)
        a, fv = 1.0, f(v)
        if np.max(np.abs(g)) > 1e-8:  # far from the optimum: halve the step until f decreases
            while f(v - a * d) > fv and a > 1e-12:
                a /= 2
        v = v - a * d
        if np.max(np.abs(a * d)) < 1e-18 * max(1.0, float(np.max(np.abs(v)))):
            break
    return v


def _reference_binary(D, L, l, prior=None):
    """The minimiser of eq. (100) / (101), written out from the notes, v = [w, b]."""
    ld = np.longdouble
    X = np.vstack([D, np.ones(D.shape[1])]).astype(ld)  # x~ = [x; 1]
    z = (2 * L - 1).astype(ld)
    n, nT = L.size, int(np.sum(L == 1))
    if prior is None:
        xi = np.full(n, ld(1) / n)
    else:
        xi = np.where(L == 1, ld(prior) / nT, (1 - ld(prior)) / (n - nT))
    reg = np.append(np.full(D.shape[0], ld(l)), ld(0))  # the bias is not regularised

    def f(v):
        return 0.5 * np.sum(reg * v * v) + np.sum(xi * np.logaddexp(ld(0), -z * (v @ X)))

    def grad(v):
        return reg * v - X @ (xi * z / (1 + np.exp(z * (v @ X))))

    def hess(v):
        s, Xf = (v @ X).astype(float), X.astype(float)
        h = xi.astype(float) / ((1 + np.exp(s)) * (1 + np.exp(-s)))
        return (Xf * h) @ Xf.T + np.diag(reg.astype(float))

    return _newton_long_double(f, grad, hess, np.zeros(D.shape[0] + 1, ld))


def _reference_multiclass(D, L, l):
    """The minimiser of the softmax objective with the biases summing to zero, v = [vec(W); b]."""
    ld = np.longdouble
    nf, n = D.shape
    K = int(L.max()) + 1
    X = np.vstack([D, np.ones(n)]).astype(ld)  # column k of V = [W; b'] is [w_k; b_k]
    T = (np.arange(K)[:, None] == L).astype(ld)
    reg = np.append(np.full(nf, ld(l)), ld(0))[:, None]

    def posteriors(V):
        S = V.T @ X
        S = S - S.max(axis=0)
        return S, np.exp(S) / np.exp(S).sum(axis=0)

    def f(u):
        V = u.reshape((nf + 1, K), order="F")
        S, _ = posteriors(V)
        lse = np.log(np.exp(S).sum(axis=0))
        return 0.5 * np.sum(reg * V * V) + np.sum(lse - np.sum(T * S, axis=0)) / n

    def grad(u):
        V = u.reshape((nf + 1, K), order="F")
        return (X @ (posteriors(V)[1] - T).T / n + reg * V).ravel(order="F")

    def hess(u):
        Y = posteriors(u.reshape((nf + 1, K), order="F"))[1].astype(float)
        Xf = X.astype(float)
        C = (np.eye(K)[:, :, None] * Y[:, None, :] - Y[:, None, :] * Y[None, :, :]) / n
        H = np.einsum("ai,ci,kli->akcl", Xf, Xf, C).reshape(((nf + 1) * K,) * 2, order="F")
        return H + np.diag(np.tile(reg.astype(float).ravel(), K))

    V = _newton_long_double(f, grad, hess, np.zeros((nf + 1) * K, ld))
    V = V.reshape((nf + 1, K), order="F").astype(float)
    return np.concatenate([V[:-1].ravel(order="F"), V[-1]])


@pytest.mark.parametrize("prior", [None, 0.2, 0.8])
@pytest.mark.parametrize("l", [1e-4, 1e-3, 0.1, 1.0])
def test_binary_trainer_returns_the_minimiser_on_iris(l, prior):
    # measured: L-BFGS stopped on its relative-decrease test left w 3e-7 from the optimum on
    # this problem (lambda = 0.1); a reference answer a grader compares with must be the
    # minimiser, so the trainer is held to the long-double Newton minimiser here
    D, L = load_iris_binary()
    ref = _reference_binary(D, L, l, prior).astype(float)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        m = train_logreg_binary(D, L, l, prior)
    assert np.max(np.abs(_v(m) - ref)) < 1e-9
    # the teaching Newton solver, run to the floating-point floor, lands there too
    res = minimize_newton(lambda v: (*logreg_obj_wrap(D, L, l, prior)(v),
                                     logreg_hessian(D, L, l, v, prior)), np.zeros(5), tol=1e-300)
    assert res.success and np.max(np.abs(res.x - ref)) < 1e-9


@pytest.mark.parametrize("l", [1e-3, 0.1, 1.0])
def test_multiclass_trainer_returns_the_minimiser_on_iris(l):
    D, L = load_iris()
    ref = _reference_multiclass(D, L, l)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        m = train_logreg_multiclass(D, L, l)
    assert np.max(np.abs(_v(m) - ref)) < 1e-9
    assert abs(m.b.sum()) < 1e-9  # the over-parametrisation resolved as the notes do


# -- multiclass ----------------------------------------------------------------------------------


def _loop_multiclass_objective(D, L, l, W, b):
    n = L.size
    total = 0.0
    for i in range(n):
        s = W.T @ D[:, i] + b
        total += math.log(sum(math.exp(sk) for sk in s)) - s[L[i]]
    return 0.5 * l * float(np.sum(W * W)) + total / n


def test_multiclass_objective_matches_a_loop_and_log_k_at_zero():
    D, L = _multiclass(K=4)
    obj = logreg_multiclass_obj_wrap(D, L, 0.3)
    assert obj(np.zeros(3 * 4 + 4))[0] == pytest.approx(math.log(4.0), rel=1e-14)
    v = np.random.default_rng(1).standard_normal(16)
    W, b = v[:12].reshape((3, 4), order="F"), v[12:]
    assert obj(v)[0] == pytest.approx(_loop_multiclass_objective(D, L, 0.3, W, b), rel=1e-12)


def test_multiclass_gradient_matches_finite_differences():
    D, L = _multiclass(K=3)
    obj = logreg_multiclass_obj_wrap(D, L, 0.2)
    rng = np.random.default_rng(4)
    for _ in range(3):
        v = rng.standard_normal(3 * 3 + 3)
        _assert_close(obj(v)[1], _central_grad(lambda u: obj(u)[0], v))


def test_multiclass_model_gradient_vanishes_and_posteriors_are_a_softmax():
    D, L = _multiclass(K=3)
    m = train_logreg_multiclass(D, L, 0.05)
    assert isinstance(m, MulticlassLogReg) and m.W.shape == (3, 3) and m.b.shape == (3,)
    v = np.concatenate([m.W.ravel(order="F"), m.b])
    f, g = logreg_multiclass_obj_wrap(D, L, 0.05)(v)
    assert np.max(np.abs(g)) < 1e-7 and f == pytest.approx(m.objective, rel=1e-14)
    _assert_close(m.W.sum(axis=1), np.zeros(3), 1e-8)  # optimality of the penalty: sum_k w_k = 0
    S = m.scores(D)
    _assert_close(S, m.W.T @ D + m.b[:, None], 1e-14)
    P = np.exp(m.log_posteriors(D))
    _assert_close(P, np.exp(S) / np.exp(S).sum(axis=0), 1e-12)
    _assert_close(P.sum(axis=0), np.ones(L.size), 1e-12)
    _assert_close(m.class_priors, np.bincount(L) / L.size, 1e-15)
    # training proportions passed explicitly change nothing; other priors re-weight the softmax
    _assert_close(m.log_posteriors(D, m.class_priors), m.log_posteriors(D), 1e-12)
    pri = np.array([0.6, 0.3, 0.1])
    Sp = S + np.log(pri / m.class_priors)[:, None]
    _assert_close(np.exp(m.log_posteriors(D, pri)), np.exp(Sp) / np.exp(Sp).sum(axis=0), 1e-12)


def test_multiclass_with_two_classes_is_the_binary_model_with_half_lambda():
    # J_multi(w_0, w_1) = loss(w_1 - w_0) + l/2 (|w_0|^2 + |w_1|^2); for a fixed difference w the
    # penalty is smallest at w_1 = -w_0 = w / 2, where it is (l / 2)/2 |w|^2: the binary objective
    # with lambda / 2. So w_1 - w_0 and b_1 - b_0 equal the binary solution for lambda / 2.
    D, L = _binary(seed=7)
    for l in (0.02, 0.4):
        mm = train_logreg_multiclass(D, L, l)
        mb = train_logreg_binary(D, L, l / 2)
        _assert_close(mm.W[:, 1] - mm.W[:, 0], mb.w)
        assert mm.b[1] - mm.b[0] == pytest.approx(mb.b, abs=OPT)
        _assert_close(mm.W[:, 0], -mm.W[:, 1])
        assert mm.objective == pytest.approx(mb.objective, rel=1e-10)
        _assert_close(mm.scores(D)[1] - mm.scores(D)[0], mb.scores(D))


def test_multiclass_separable_without_regularisation_warns():
    D, L = load_iris()
    sel = L < 2  # setosa and versicolor are linearly separable
    with pytest.warns(ConvergenceWarning, match="no minimiser"):
        m = train_logreg_multiclass(D[:, sel], L[sel], 0.0, max_iter=3000)
    assert np.all(m.scores(D[:, sel]).argmax(axis=0) == L[sel])


def test_iris_multiclass_course_numbers():
    # The course's lab 8 solution: multiclass LR on iris, split_db_2to1(seed=0), validation error
    # 4.0%, 6.0% and 18.0% for lambda = 1e-3, 0.1 and 1 (the reference column of the table in
    # lectures/06_logistic_regression/README.md, checked by that lecture's run.py).
    D, L = load_iris()
    (DTR, LTR), (DVAL, LVAL) = split_db_2to1(D, L, seed=0)
    for l, errors in ((1e-3, 2), (0.1, 3), (1.0, 9)):  # 4.0%, 6.0%, 18.0% of 50
        m = train_logreg_multiclass(DTR, LTR, l)
        pred = m.scores(DVAL).argmax(axis=0)
        assert int(np.sum(pred != LVAL)) == errors
        assert 100.0 * np.mean(pred != LVAL) == pytest.approx(100.0 * errors / 50)


# -- quadratic features --------------------------------------------------------------------------


def test_expand_quadratic_matches_an_explicit_loop():
    D = np.random.default_rng(0).standard_normal((4, 9))
    Phi = expand_quadratic(D)
    assert Phi.shape == (4 * 4 + 4, 9)
    ref = np.column_stack(
        [np.concatenate([np.outer(x, x).ravel(order="F"), x]) for x in D.T]
    )
    assert np.array_equal(Phi, ref)
    assert np.array_equal(expand_quadratic(D[:1]), np.vstack([D[:1] ** 2, D[:1]]))


def test_quadratic_logistic_regression_separates_a_circle():
    rng = np.random.default_rng(0)
    D = rng.uniform(-2, 2, (2, 300))
    L = (np.sum(D**2, axis=0) < 1.5).astype(int)
    lin = train_logreg_binary(D, L, 1e-4)
    quad = train_logreg_binary(expand_quadratic(D), L, 1e-4)
    err = lambda m, X: np.mean((m.scores(X) > 0) != (L == 1))  # noqa: E731
    assert err(quad, expand_quadratic(D)) < 0.02 < 0.2 < err(lin, D)


# -- perceptron ----------------------------------------------------------------------------------


def test_perceptron_converges_on_setosa_vs_versicolor():
    D, L = load_iris()
    sel = L < 2
    X, Y = D[:, sel], (L[sel] == 0).astype(int)  # setosa = 1
    m = train_perceptron(X, Y, 100, np.random.default_rng(0))
    assert isinstance(m, Perceptron) and m.converged and 1 <= m.epochs <= 100
    assert m.n_updates >= 1
    s = m.scores(X)
    assert np.all((s > 0) == (Y == 1)) and np.all(s != 0)
    # deterministic given the generator's seed; eta only scales the solution
    m2 = train_perceptron(X, Y, 100, np.random.default_rng(0))
    assert np.array_equal(m.w, m2.w) and m.epochs == m2.epochs
    m3 = train_perceptron(X, Y, 100, np.random.default_rng(0), eta=0.5)
    _assert_close(m3.w, 0.5 * m.w, 1e-14)
    assert m3.epochs == m.epochs


def test_perceptron_replays_the_update_rule():
    # the notes' rule written out sample by sample, with the same per-epoch permutations
    D, L = _separable(seed=4)
    m = train_perceptron(D, L, 1000, np.random.default_rng(3), eta=0.7)
    rng = np.random.default_rng(3)
    w, updates = np.zeros(3), 0
    for epoch in range(1, 1001):  # noqa: B007 (epoch is compared after the loop)
        mistakes = 0
        for i in rng.permutation(L.size):
            phi, t = np.array([D[0, i], D[1, i], 1.0]), 2 * L[i] - 1
            if t * (w @ phi) <= 0:
                w = w + 0.7 * phi * t
                mistakes += 1
        updates += mistakes
        if mistakes == 0:
            break
    assert m.converged and m.epochs == epoch and m.n_updates == updates
    _assert_close(np.append(m.w, m.b), w, 1e-14)


def test_perceptron_decides_class_0_on_the_boundary():
    # after one epoch the last sample (class 0) lies exactly on the boundary, s = 0: the update
    # rule counts it as a mistake (t s <= 0), the library's decision (class 1 iff s > 0) as
    # class 0, a correct decision; the reported training error is that of the decisions
    X = np.array([[0.0, 2.0, 2.0, 2.0, -1.0, -2.0], [1.0, 1.0, 1.0, -2.0, -2.0, 0.0]])
    L = np.array([0, 0, 1, 0, 1, 0])
    with pytest.warns(ConvergenceWarning, match=r"training error 16\.67%"):
        m = train_perceptron(X, L, 1, np.random.default_rng(0))
    s = m.scores(X)
    assert s[5] == 0.0 and L[5] == 0  # on the boundary
    assert np.array_equal(s > 0, [False, False, False, False, True, False])  # 1 error of 6


def test_perceptron_reports_non_convergence_on_non_separable_data():
    D, L = load_iris_binary()  # versicolor vs virginica overlap
    with pytest.warns(ConvergenceWarning, match="did not converge"):
        m = train_perceptron(D, L, 5, np.random.default_rng(0))
    assert not m.converged and m.epochs == 5


# -- validation ----------------------------------------------------------------------------------


def test_transposed_data_is_reported():
    D, L = _binary()
    rng = np.random.default_rng(0)
    for call in (
        lambda: logreg_obj_wrap(D.T, L, 0.1),
        lambda: logreg_hessian(D.T, L, 0.1, np.zeros(4)),
        lambda: train_logreg_binary(D.T, L, 0.1),
        lambda: logreg_multiclass_obj_wrap(D.T, L, 0.1),
        lambda: train_logreg_multiclass(D.T, L, 0.1),
        lambda: train_perceptron(D.T, L, 10, rng),
    ):
        with pytest.raises(ValueError, match=r"did you mean D\.T\?"):
            call()
    m = train_logreg_multiclass(D, L, 0.1)
    with pytest.raises(ValueError, match=r"did you mean D\.T\?"):
        m.scores(D.T)
    p = train_perceptron(*_separable(), 100, rng)
    with pytest.raises(ValueError, match=r"did you mean D\.T\?"):
        p.scores(np.zeros((5, 2)))
    with pytest.raises(ValueError, match="1-D"):
        expand_quadratic(np.zeros(4))


@pytest.mark.parametrize(
    "l, exc, msg",
    [(-1.0, ValueError, "lambda.*>= 0"), (np.nan, ValueError, "lambda.*>= 0"),
     (np.inf, ValueError, "lambda.*>= 0"), ("0.1", TypeError, "lambda.*real number"),
     (None, TypeError, "lambda.*real number"), (True, TypeError, "lambda.*real number")],
)
def test_bad_lambda(l, exc, msg):
    D, L = _binary()
    for call in (
        lambda: logreg_obj_wrap(D, L, l),
        lambda: logreg_hessian(D, L, l, np.zeros(4)),
        lambda: train_logreg_binary(D, L, l),
        lambda: logreg_multiclass_obj_wrap(D, L, l),
        lambda: train_logreg_multiclass(D, L, l),
    ):
        with pytest.raises(exc, match=msg):
            call()


@pytest.mark.parametrize(
    "prior, exc, msg",
    [(0.0, ValueError, r"prior.*\(0, 1\)"), (1.0, ValueError, r"prior.*\(0, 1\)"),
     (np.nan, ValueError, r"prior.*\(0, 1\)"), (1.5, ValueError, r"prior.*\(0, 1\)"),
     ("0.5", TypeError, "prior.*real number"), ([0.5], TypeError, "prior.*real number")],
)
def test_bad_prior(prior, exc, msg):
    D, L = _binary()
    with pytest.raises(exc, match=msg):
        train_logreg_binary(D, L, 0.1, prior=prior)
    with pytest.raises(exc, match=msg):
        logreg_obj_wrap(D, L, 0.1, prior=prior)


def test_binary_label_errors():
    D, L = _binary()
    L3 = L.copy()
    L3[0] = 2
    for call in (
        lambda: train_logreg_binary(D, L3, 0.1),
        lambda: logreg_obj_wrap(D, L3, 0.1),
        lambda: train_perceptron(D, L3, 5, np.random.default_rng(0)),
    ):
        with pytest.raises(ValueError, match=r"label 2.*binary"):
            call()
    ones = np.ones_like(L)
    with pytest.raises(ValueError, match="no sample of class 0"):
        train_logreg_binary(D, ones, 0.1)
    with pytest.raises(ValueError, match="no sample of class 1"):
        train_perceptron(D, 0 * L, 5, np.random.default_rng(0))
    with pytest.raises(ValueError, match="no sample of class 1"):
        logreg_obj_wrap(D, 0 * L, 0.1, prior=0.5)
    logreg_obj_wrap(D, 0 * L, 0.1)  # the unweighted objective is defined with one class
    with pytest.raises(ValueError, match=r"119 labels.*120 samples"):
        train_logreg_binary(D, L[:-1], 0.1)
    with pytest.raises(ValueError, match="negative"):
        train_logreg_binary(D, L - 1, 0.1)
    with pytest.raises(ValueError, match="NaN"):
        train_logreg_binary(np.where(D > 2, np.nan, D), L, 0.1)


def test_multiclass_label_errors():
    D, L = _multiclass()
    with pytest.raises(ValueError, match="no sample of class 1"):
        train_logreg_multiclass(D, np.where(L == 1, 2, L), 0.1)
    with pytest.raises(ValueError, match="two classes"):
        train_logreg_multiclass(D, np.zeros_like(L), 0.1)
    with pytest.raises(ValueError, match="two classes"):
        logreg_multiclass_obj_wrap(D, np.zeros_like(L), 0.1)
    m = train_logreg_multiclass(D, L, 0.1)
    with pytest.raises(ValueError, match=r"priors.*length 2.*K = 3"):
        m.log_posteriors(D, [0.5, 0.5])
    with pytest.raises(ValueError, match="sum to 1"):
        m.log_posteriors(D, [0.5, 0.5, 0.5])
    with pytest.raises(ValueError, match="non-negative"):
        m.log_posteriors(D, [1.5, -0.25, -0.25])


def test_bad_v_and_solver_arguments():
    D, L = _binary()
    with pytest.raises(ValueError, match=r"v .*\(3,\).*\(4,\)"):
        logreg_obj_wrap(D, L, 0.1)(np.zeros(3))
    with pytest.raises(ValueError, match=r"v .*\(5,\).*\(4,\)"):
        logreg_hessian(D, L, 0.1, np.zeros(5))
    with pytest.raises(ValueError, match=r"v .*\(4,\).*\(8,\)"):
        logreg_multiclass_obj_wrap(D, L, 0.1)(np.zeros(4))
    with pytest.raises(ValueError, match="solver.*lbfgs"):
        train_logreg_binary(D, L, 0.1, solver="sgd")
    with pytest.raises(ValueError, match="tol.*> 0"):
        train_logreg_binary(D, L, 0.1, tol=0.0)
    with pytest.raises(ValueError, match="tol.*> 0"):
        train_logreg_multiclass(D, L, 0.1, tol=-1.0)
    with pytest.raises(ValueError, match="max_iter.*>= 1"):
        train_logreg_binary(D, L, 0.1, max_iter=0)
    with pytest.raises(TypeError, match="max_iter.*integer"):
        train_logreg_multiclass(D, L, 0.1, max_iter=1.5)
    obj = logreg_obj_wrap(D, L, 0.1)
    with pytest.raises(ValueError, match="backtracking=False.*step"):
        minimize_gradient_descent(obj, np.zeros(4), backtracking=False)
    with pytest.raises(ValueError, match="step.*> 0"):
        minimize_gradient_descent(obj, np.zeros(4), step=-1.0)
    with pytest.raises(ValueError, match="x0.*1-D"):
        minimize_gradient_descent(obj, np.zeros((2, 2)))
    with pytest.raises(ValueError, match="x0.*NaN"):
        minimize_newton(obj, np.array([0.0, np.nan, 0.0, 0.0]))
    with pytest.raises(TypeError, match=r"tuple \(f, grad\)"):
        minimize_gradient_descent(lambda x: 0.0, np.zeros(4))
    with pytest.raises(ValueError, match=r"gradient of shape \(3,\)"):
        minimize_gradient_descent(lambda x: (0.0, np.zeros(3)), np.zeros(4))
    with pytest.raises(TypeError, match=r"tuple \(f, grad, hess\)"):
        minimize_newton(obj, np.zeros(4))
    with pytest.raises(ValueError, match=r"Hessian of shape \(3, 3\)"):
        minimize_newton(lambda x: (*obj(x), np.eye(3)), np.zeros(4))


def test_perceptron_argument_errors():
    D, L = _separable()
    with pytest.raises(TypeError, match="numpy.random.Generator"):
        train_perceptron(D, L, 10, 0)
    with pytest.raises(TypeError, match="numpy.random.Generator"):
        train_perceptron(D, L, 10, np.random.RandomState(0))  # noqa: NPY002
    with pytest.raises(ValueError, match="max_epochs.*>= 1"):
        train_perceptron(D, L, 0, np.random.default_rng(0))
    with pytest.raises(TypeError, match="max_epochs.*integer"):
        train_perceptron(D, L, 2.5, np.random.default_rng(0))
    with pytest.raises(ValueError, match="eta.*> 0"):
        train_perceptron(D, L, 10, np.random.default_rng(0), eta=0.0)


def test_expand_quadratic_warns_on_data_that_look_transposed():
    X = np.random.default_rng(0).standard_normal((4, 9))
    for expand in (expand_quadratic, expand_quadratic_symmetric):
        with pytest.warns(UserWarning, match=r"\(9, 4\).*D\.T"):
            expand(X.T)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            expand(X)


def test_expand_quadratic_symmetric_preserves_inner_products():
    rng = np.random.default_rng(11)
    X = rng.standard_normal((4, 7))
    full, half = expand_quadratic(X), expand_quadratic_symmetric(X)
    assert half.shape == (4 * 5 // 2 + 4, 7)
    np.testing.assert_allclose(half.T @ half, full.T @ full, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(half[-4:], X)
    with pytest.raises(ValueError, match=r"did you mean D\.T\?|1-D"):
        expand_quadratic_symmetric(X[0])


# -- bad input: scale, non-finite or non-real arguments of the solvers ----------------------------


def test_data_whose_products_overflow():
    D, L = _binary()
    pattern = r"D .*e\+200.*overflow"
    for solver in ("lbfgs", "gd", "newton"):
        with pytest.raises(ValueError, match=pattern + r".*fit_znorm"):
            train_logreg_binary(D * 1e200, L, 0.1, optimizer=solver)
    with pytest.raises(ValueError, match=pattern):
        logreg_obj_wrap(D * 1e200, L, 0.1)
    with pytest.raises(ValueError, match=pattern):
        train_perceptron(D * 1e200, L, 10, np.random.default_rng(0))
    Dm, Lm = _multiclass()
    with pytest.raises(ValueError, match=r"D .*e\+160.*overflow"):
        train_logreg_multiclass(Dm * 1e160, Lm, 0.1)
    with pytest.raises(ValueError, match=r"D .*e\+160.*overflow"):
        expand_quadratic(Dm * 1e160)


def test_lbfgs_stopped_away_from_the_optimum_warns():
    # features in units of 1e8: L-BFGS-B's line search fails far from the optimum (its bias
    # gradient is 1e-2); with lambda = 0 the optimal objective does not depend on the units
    D, L = _binary()
    ref = train_logreg_binary(D, L, 0.0)
    pattern = r"away from the optimum.*fit_znorm"
    with pytest.warns(ConvergenceWarning, match=pattern):
        m = train_logreg_binary(D * 1e8, L, 0.0, newton_finish=False)
    assert m.objective > ref.objective + 1e-3
    Dm, Lm = _multiclass()
    with pytest.warns(ConvergenceWarning, match=pattern):
        train_logreg_multiclass(Dm * 1e8, Lm, 0.0, newton_finish=False)
    with warnings.catch_warnings():  # the Newton finish does not mind the units
        warnings.simplefilter("error", ConvergenceWarning)
        m = train_logreg_binary(D * 1e8, L, 0.0)
        train_logreg_multiclass(Dm * 1e8, Lm, 0.0)
    assert m.objective == pytest.approx(ref.objective, abs=1e-12)


@pytest.mark.parametrize("scale", [1e-3, 1e4, 1e8])
@pytest.mark.parametrize("l", [0.0, 1e-3, 0.1])
def test_the_newton_finish_makes_the_solution_independent_of_the_units(scale, l):
    # features in other units (x s) with lambda s^2 have the solution w / s, the same biases and
    # the same objective: Newton's step is invariant to the units, L-BFGS's stopping point is not
    D, L = _binary()
    Dm, Lm = _multiclass()
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        a = train_logreg_binary(D, L, l, 0.3)
        b = train_logreg_binary(D * scale, L, l * scale**2, 0.3)
        am = train_logreg_multiclass(Dm, Lm, l)
        bm = train_logreg_multiclass(Dm * scale, Lm, l * scale**2)
    _assert_close(b.w * scale, a.w, 1e-12)
    assert b.b == pytest.approx(a.b, abs=1e-12)
    assert b.objective == pytest.approx(a.objective, rel=1e-13)
    _assert_close(bm.W * scale, am.W, 1e-12)
    _assert_close(bm.b, am.b, 1e-12)
    assert bm.objective == pytest.approx(am.objective, rel=1e-13)


def test_objective_callables_refuse_non_finite_or_non_real_v():
    D, L = _binary()
    obj = logreg_obj_wrap(D, L, 0.1)
    with pytest.raises(ValueError, match=r"v .*NaN.*index 1"):
        obj(np.array([0.0, np.nan, 0.0, 0.0]))
    with pytest.raises(ValueError, match="v .*NaN"):
        logreg_hessian(D, L, 0.1, np.full(4, np.inf))
    with pytest.raises(ValueError, match="v .*NaN"):
        logreg_multiclass_obj_wrap(D, L, 0.1)(np.full(8, np.nan))
    with pytest.raises(TypeError, match="v .*real"):
        obj(np.zeros(4) + 1j)
    with pytest.raises(TypeError, match="v .*numeric"):
        logreg_hessian(D, L, 0.1, np.array(["a"] * 4))


def test_solver_arguments_of_the_wrong_type():
    D, L = _binary()
    obj = logreg_obj_wrap(D, L, 0.1)
    with pytest.raises(TypeError, match="f_grad .*callable"):
        minimize_gradient_descent(3, np.zeros(4))
    with pytest.raises(TypeError, match="f_grad_hess .*callable"):
        minimize_newton(None, np.zeros(4))
    with pytest.raises(TypeError, match="backtracking.*'no'"):
        minimize_gradient_descent(obj, np.zeros(4), backtracking="no")
    with pytest.raises(TypeError, match="x0.*numeric"):
        minimize_gradient_descent(obj, ["a", "b", "c", "d"])
    with pytest.raises(TypeError, match="x0.*real"):
        minimize_newton(obj, np.zeros(4) + 1j)
    with pytest.raises(TypeError, match="gradient.*f_grad.*real"):
        minimize_gradient_descent(lambda x: (0.0, x + 1j), np.zeros(4))
    with pytest.raises(TypeError, match="objective.*f_grad.*numeric"):
        minimize_gradient_descent(lambda x: ("a", x), np.zeros(4))
    with pytest.raises(ValueError, match="solver.*lbfgs"):
        train_logreg_binary(D, L, 0.1, solver=np.array(["gd"]))


def test_solvers_refuse_a_non_finite_start_or_hessian():
    with pytest.raises(ValueError, match=r"non-finite objective.*x0"):
        minimize_gradient_descent(lambda x: (np.nan, 2 * x), np.ones(2))
    with pytest.raises(ValueError, match="non-finite gradient.*x0"):
        minimize_gradient_descent(lambda x: (1.0, np.full(2, np.nan)), np.ones(2), step=0.1,
                                  backtracking=False)
    with pytest.raises(ValueError, match="non-finite gradient.*x0"):
        minimize_newton(lambda x: (1.0, np.full(2, np.inf), np.eye(2)), np.ones(2))
    with pytest.raises(ValueError, match=r"Hessian.*NaN.*call 0"):
        minimize_newton(lambda x: (float(x @ x), 2 * x, np.full((2, 2), np.nan)), np.ones(2))


def test_multiclass_priors_of_the_wrong_type():
    D, L = _multiclass()
    m = train_logreg_multiclass(D, L, 0.1)
    with pytest.raises(TypeError, match="priors.*real"):
        m.log_posteriors(D, np.array([0.2, 0.3, 0.5]) + 0j)
    with pytest.raises(TypeError, match="priors.*numeric"):
        m.log_posteriors(D, np.array([0.2, 0.3, 0.5], dtype=object))
    with pytest.raises(ValueError, match="priors.*NaN"):
        m.log_posteriors(D, [np.nan, 0.5, 0.5])


def test_data_without_features():
    # was: a bias-only model, silently; now the validators (mlpr._validation.check_data) refuse it
    L = np.array([0, 1, 0, 1])
    for train in (lambda D: train_logreg_binary(D, L, 0.1),
                  lambda D: train_logreg_multiclass(D, L, 0.1),
                  lambda D: train_perceptron(D, L, 5, np.random.default_rng(0))):
        with pytest.raises(ValueError, match=r"0 features.*\(0, 4\)"):
            train(np.zeros((0, 4)))


# ------------------------------------------------------------------------------------------------
# the fast objective (sparse products) against the reference


def _sparse_binary(seed=0, dim=30, n=400, density=0.15):
    rng = np.random.default_rng(seed)
    D = rng.random((dim, n)) * (rng.random((dim, n)) < density)
    L = (rng.random(n) < 0.4).astype(int)
    D[:, L == 1] += 0.3 * (rng.random((dim, int(L.sum()))) < density)
    D[:, 0] = 0.0  # an all-zero sample and an all-zero feature
    D[3] = 0.0
    return D, L


@pytest.mark.parametrize("prior", [None, 0.2])
def test_fast_binary_objective_equals_reference(prior):
    """The fast (sparse) objective and gradient against the reference. Independent tests of the
    objective and its gradient: test_binary_objective_matches_a_loop_over_samples (a loop over
    samples), test_binary_objective_at_zero_is_log_2 (a closed form),
    test_binary_gradient_and_hessian_match_finite_differences."""
    from mlpr import _logreg_fast
    from mlpr.logreg import _binary_fg, _sample_weights

    D, L = _sparse_binary()
    z, xi = 2.0 * L - 1.0, _sample_weights(L, prior)
    fg = _logreg_fast.binary_fg(D, z, xi, 1e-2)  # 15% non-zero: the sparse products
    rng = np.random.default_rng(1)
    for _ in range(5):
        v = rng.standard_normal(D.shape[0] + 1)
        f, g = fg(v)
        f_ref, g_ref = _binary_fg(v, D, z, xi, 1e-2)
        assert f == pytest.approx(f_ref, rel=1e-13)
        np.testing.assert_allclose(g, g_ref, rtol=1e-12, atol=1e-15)


def test_fast_binary_objective_on_dense_data_equals_reference():
    """The fast (dense) objective and gradient against the reference. Independent tests of the
    objective and its gradient: test_binary_objective_matches_a_loop_over_samples (a loop over
    samples), test_binary_objective_at_zero_is_log_2 (a closed form),
    test_binary_gradient_and_hessian_match_finite_differences."""
    from mlpr import _logreg_fast
    from mlpr.logreg import _binary_fg

    D, L = _binary()
    z, xi = 2.0 * L - 1.0, np.full(L.size, 1 / L.size)
    v = np.random.default_rng(2).standard_normal(D.shape[0] + 1)
    f, g = _logreg_fast.binary_fg(D, z, xi, 1.0)(v)
    f_ref, g_ref = _binary_fg(v, D, z, xi, 1.0)
    assert f == pytest.approx(f_ref, rel=1e-13)
    np.testing.assert_allclose(g, g_ref, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("prior", [None, 0.7])
@pytest.mark.parametrize("newton_finish", [True, False])
def test_train_logreg_binary_fast_equals_reference(prior, newton_finish):
    """The fast trainer against solver="reference". Independent tests of the minimiser:
    test_binary_trainer_returns_the_minimiser_on_iris (a long-double Newton minimiser) and
    test_lbfgs_gradient_descent_and_newton_reach_the_same_optimum (three solvers)."""
    D, L = _sparse_binary(seed=2)
    kw = dict(prior=prior, newton_finish=newton_finish, tol=1e-9)
    fast = train_logreg_binary(D, L, 1e-3, **kw)
    ref = train_logreg_binary(D, L, 1e-3, solver="reference", **kw)
    assert fast.objective == pytest.approx(ref.objective, rel=1e-12)
    np.testing.assert_allclose(fast.w, ref.w, rtol=0, atol=1e-6 if not newton_finish else 1e-10)
    assert fast.b == pytest.approx(ref.b, abs=1e-6 if not newton_finish else 1e-10)
    assert fast.w[3] == 0.0  # an all-zero feature keeps a zero weight


def test_train_logreg_binary_unknown_solver():
    D, L = _binary()
    with pytest.raises(ValueError, match="solver must be one of 'auto', 'reference'"):
        train_logreg_binary(D, L, 1e-3, solver="sparse")
