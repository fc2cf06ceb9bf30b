"""The one reference / fast switch, ``solver=``, of every module with a fast path: each former
spelling still works for one release with a DeprecationWarning that names the new one and gives
the same numbers, and the trained model records the solver that ran."""

import warnings

import numpy as np
import pytest

from mlpr.dimred import fit_pca
from mlpr.generative import train_mvg, train_tied
from mlpr.gmm import GMM, em_step, train_gmm_classifier, train_gmm_em, train_gmm_lbg
from mlpr.logreg import train_logreg_binary
from mlpr.neighbors import train_knn
from mlpr.utils import check_solver


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


def test_check_solver_maps_the_old_spellings():
    assert _no_warning(lambda: check_solver("auto", where="f")) == "auto"
    assert _no_warning(lambda: check_solver("reference", where="f")) == "reference"
    for old, new in (("fast", "auto"), ("reference", "reference")):
        with pytest.warns(DeprecationWarning, match=rf"f\(method='{old}'\).*solver='{new}'"):
            assert check_solver("auto", old, where="f") == new
    with pytest.warns(DeprecationWarning, match=r"solver='fast'.*solver='auto'"):
        assert check_solver("fast", where="f") == "auto"
    with pytest.raises(ValueError, match="solver must be one of 'auto', 'reference'"):
        check_solver("blas", where="f")
    with pytest.raises(ValueError, match="method must be one of 'fast', 'reference'"):
        check_solver("auto", "slow", where="f")
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="disagree"):
        check_solver("reference", "fast", where="f")


def test_the_warning_points_at_the_callers_line():
    X, L = _data()
    with pytest.warns(DeprecationWarning) as record:
        train_mvg(X, L).scores(X, method="reference")
    assert record[0].filename == __file__


def test_gmm_old_spelling_warns_and_the_model_records_the_solver():
    X, _ = _data(1, N=80)
    g0 = train_gmm_lbg(X, 2, psi=0.01)[-1]
    assert g0.solver == "auto"
    for old, new in (("fast", "auto"), ("reference", "reference")):
        with pytest.warns(DeprecationWarning, match=rf"train_gmm_em\(method='{old}'\)"):
            a, ha = train_gmm_em(X, g0, psi=0.01, method=old)
        b, hb = _no_warning(lambda new=new: train_gmm_em(X, g0, psi=0.01, solver=new))
        assert a == b and ha == hb and a.solver == new
        with pytest.warns(DeprecationWarning, match=r"em_step\(method="):
            assert em_step(X, g0, method=old) == em_step(X, g0, solver=new)
    ref = _no_warning(lambda: train_gmm_lbg(X, 2, psi=0.01, solver="reference"))
    assert [g.solver for g in ref] == ["reference", "reference"]
    assert GMM.from_list(g0.to_list()).solver is None  # built by hand
    with pytest.warns(DeprecationWarning, match=r"train_gmm_classifier\(method="):
        clf = train_gmm_classifier(X, _data(1, N=80)[1], 2, psi=0.01, method="reference")
    assert {g.solver for g in clf.gmms} == {"reference"}


def test_logreg_old_spellings_warn_and_the_model_records_both_choices():
    X, L = _data(2)
    new = _no_warning(lambda: train_logreg_binary(X, L, 0.1, optimizer="newton",
                                                  solver="reference"))
    assert (new.optimizer, new.solver) == ("newton", "reference")
    with pytest.warns(DeprecationWarning, match=r"solver='newton'.*optimizer='newton'"):
        old = train_logreg_binary(X, L, 0.1, solver="newton")
    assert (old.optimizer, old.solver) == ("newton", "auto")
    with pytest.warns(DeprecationWarning, match=r"method='reference'.*solver='reference'"):
        old = train_logreg_binary(X, L, 0.1, optimizer="newton", method="reference")
    assert old == new
    default = _no_warning(lambda: train_logreg_binary(X, L, 0.1))
    assert (default.optimizer, default.solver) == ("lbfgs", "auto")
    with pytest.raises(ValueError, match="optimizer must be one of 'lbfgs', 'gd', 'newton'"):
        train_logreg_binary(X, L, 0.1, optimizer="sgd")
    with pytest.raises(ValueError, match=r"solver must be one of .*optimizer="):
        train_logreg_binary(X, L, 0.1, solver="sgd")


def test_pca_old_spelling_warns_and_the_model_records_the_solver():
    X, _ = _data(3, D=5, N=100)
    assert _no_warning(lambda: fit_pca(X, 2)).solver == "auto"
    assert _no_warning(lambda: fit_pca(X, 2, solver="reference")).solver == "reference"
    assert _no_warning(lambda: fit_pca(X, 2, "svd")).solver == "reference"  # one form
    with pytest.warns(DeprecationWarning, match=r"fit_pca\(solver='fast'\)"):
        assert fit_pca(X, 2, solver="fast") == fit_pca(X, 2)


def test_scoring_switches_old_spelling_warns_with_the_same_numbers():
    X, L = _data(4)
    model = train_tied(X, L)
    with pytest.warns(DeprecationWarning, match=r"GaussianClassifier.scores\(method='fast'\)"):
        np.testing.assert_array_equal(model.scores(X, method="fast"), model.scores(X))
    knn = train_knn(X, L, 3)
    for call in ("kneighbors", "scores", "predict"):
        with pytest.warns(DeprecationWarning, match=r"kneighbors\(method='reference'\)"):
            old = getattr(knn, call)(X, method="reference")
        new = _no_warning(lambda call=call: getattr(knn, call)(X, solver="reference"))
        for a, b in zip(old if call == "kneighbors" else [old], new if call == "kneighbors"
                        else [new]):
            np.testing.assert_array_equal(a, b)
