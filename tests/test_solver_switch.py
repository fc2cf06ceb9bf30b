"""The one reference / fast switch, ``solver=``, of every module with a fast path: it takes
"auto" and "reference" only (the former spellings ``method="fast"`` / ``method="reference"``,
``solver="fast"`` and logreg's ``solver="newton"`` for the optimiser are gone and refused), and
the trained model records the solver that ran."""

import warnings

import numpy as np
import pytest

from mlpr._validation import check_solver
from mlpr.dimred import fit_pca
from mlpr.evaluation import act_dcf, bayes_error_curve, min_dcf
from mlpr.generative import train_mvg, train_tied
from mlpr.gmm import GMM, em_step, train_gmm_classifier, train_gmm_em, train_gmm_lbg
from mlpr.logreg import train_logreg_binary
from mlpr.neighbors import train_knn


def _data(seed=0, D=3, N=60):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(D, N))
    L = np.arange(N) % 2
    X[:, L == 1] += 1.5
    return X, L


def _no_warning(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return fn()


def test_check_solver_takes_the_two_switch_values_only():
    assert _no_warning(lambda: check_solver("auto")) == "auto"
    assert _no_warning(lambda: check_solver("reference")) == "reference"
    for bad in ("fast", "blas", None, 1):
        with pytest.raises(ValueError, match=r"solver must be one of 'auto', 'reference', got"):
            check_solver(bad)
    assert check_solver("smo", ("auto", "reference", "smo")) == "smo"  # a module's own names


@pytest.mark.parametrize("call", [
    lambda X, L: fit_pca(X, 2, solver="fast"),
    lambda X, L: train_tied(X, L).scores(X, "fast"),
    lambda X, L: train_knn(X, L, 3).kneighbors(X, solver="fast"),
    lambda X, L: train_gmm_lbg(X, 2, psi=0.01, solver="fast"),
    lambda X, L: min_dcf(X[0], L, 0.5, solver="fast"),
    lambda X, L: act_dcf(X[0], L, [0.2, 0.5], solver="fast"),
    lambda X, L: bayes_error_curve(X[0], L, [0.0], solver="fast"),
])
def test_the_former_fast_spelling_is_refused(call):
    X, L = _data()
    with pytest.raises(ValueError, match=r"solver must be one of ('auto', 'reference'|'reference', "
                                         r"'auto'), got 'fast'"):
        call(X, L)


@pytest.mark.parametrize("call", [
    lambda X, L: train_mvg(X, L).scores(X, method="reference"),
    lambda X, L: train_knn(X, L, 3).scores(X, method="reference"),
    lambda X, L: train_knn(X, L, 3).predict(X, method="fast"),
    lambda X, L: em_step(X, train_gmm_lbg(X, 1)[-1], method="reference"),
    lambda X, L: train_gmm_em(X, train_gmm_lbg(X, 1)[-1], method="fast"),
    lambda X, L: train_gmm_classifier(X, L, 1, method="reference"),
    lambda X, L: train_logreg_binary(X, L, 0.1, method="reference"),
])
def test_the_former_method_keyword_is_gone(call):
    X, L = _data()
    with pytest.raises(TypeError, match="unexpected keyword argument 'method'"):
        call(X, L)


def test_gmm_models_record_the_solver():
    X, L = _data(1, N=80)
    g0 = train_gmm_lbg(X, 2, psi=0.01)[-1]
    assert g0.solver == "auto"
    for solver in ("auto", "reference"):
        g, _ = _no_warning(lambda s=solver: train_gmm_em(X, g0, psi=0.01, solver=s))
        assert g.solver == solver and em_step(X, g0, solver=solver).solver == solver
    ref = _no_warning(lambda: train_gmm_lbg(X, 2, psi=0.01, solver="reference"))
    assert [g.solver for g in ref] == ["reference", "reference"]
    assert GMM.from_list(g0.to_list()).solver is None  # built by hand
    clf = train_gmm_classifier(X, L, 2, psi=0.01, solver="reference")
    assert {g.solver for g in clf.gmms} == {"reference"}


def test_logreg_records_both_choices_and_refuses_an_optimiser_as_solver():
    X, L = _data(2)
    new = _no_warning(lambda: train_logreg_binary(X, L, 0.1, optimizer="newton",
                                                  solver="reference"))
    assert (new.optimizer, new.solver) == ("newton", "reference")
    default = _no_warning(lambda: train_logreg_binary(X, L, 0.1))
    assert (default.optimizer, default.solver) == ("lbfgs", "auto")
    with pytest.raises(ValueError, match="optimizer must be one of 'lbfgs', 'gd', 'newton'"):
        train_logreg_binary(X, L, 0.1, optimizer="sgd")
    for former in ("newton", "gd", "sgd"):  # an optimiser's name as solver: the remedy
        with pytest.raises(ValueError, match=r"solver must be one of 'auto', 'reference' \(the "
                                             r"optimiser is optimizer=: 'lbfgs', 'gd', 'newton'\)"):
            train_logreg_binary(X, L, 0.1, solver=former)


def test_pca_records_the_solver():
    X, _ = _data(3, D=5, N=100)
    assert _no_warning(lambda: fit_pca(X, 2)).solver == "auto"
    assert _no_warning(lambda: fit_pca(X, 2, solver="reference")).solver == "reference"
    assert _no_warning(lambda: fit_pca(X, 2, "svd")).solver == "reference"  # one form
