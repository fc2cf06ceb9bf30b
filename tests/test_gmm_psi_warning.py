"""A floor psi above every variance of the data makes every floored covariance wider than the data
in every direction, so the components coincide: each GMM trainer that takes psi says so with a
UserWarning pointing at the caller's line, and stays silent for a floor below the variances."""

import warnings

import numpy as np
import pytest

from mlpr.gmm import (
    GMM,
    em_step,
    gmm_from_clusters,
    lbg_gmm_classifiers,
    train_gmm_em,
    train_gmm_hard_em,
    train_gmm_lbg,
    train_open_set_classifier,
)
from mlpr.utils import ConvergenceWarning

MESSAGE = r"psi=0.01 is above every variance of {name}.*largest eigenvalue.*coincide"


def _small_data():
    X = 1e-3 * np.random.default_rng(1).normal(size=(2, 100))  # variances ~1e-6
    X[:, :50] += 1e-2  # two clusters, still far below the floor
    return X


def _start(X):
    z = np.arange(X.shape[1]) % 2
    return GMM(w=np.array([0.5, 0.5]), mu=np.column_stack([X[:, z == 0].mean(axis=1),
                                                           X[:, z == 1].mean(axis=1)]),
               C=np.stack([np.cov(X[:, z == k], bias=True) for k in (0, 1)]))


CALLS = {
    "em_step": lambda X, psi: em_step(X, _start(X), psi=psi),
    "train_gmm_em": lambda X, psi: train_gmm_em(X, _start(X), psi=psi, max_iter=3),
    "train_gmm_lbg": lambda X, psi: train_gmm_lbg(X, 2, psi=psi),
    "train_gmm_hard_em": lambda X, psi: train_gmm_hard_em(X, _start(X), psi=psi),
    "gmm_from_clusters": lambda X, psi: gmm_from_clusters(X, np.arange(X.shape[1]) % 2,
                                                          psi=psi),
    "lbg_gmm_classifiers": lambda X, psi: lbg_gmm_classifiers(
        np.hstack([X, 1e3 * X]), np.repeat([0, 1], X.shape[1]), 2, psi=psi),
    "train_open_set_classifier": lambda X, psi: train_open_set_classifier(
        1e3 * X, np.arange(X.shape[1]) % 2, X, n_other=2, psi=psi),
}
NAMES = {"lbg_gmm_classifiers": r"D \(class 0\)", "train_open_set_classifier": "D_pool"}


@pytest.mark.parametrize("call", sorted(CALLS))
def test_a_floor_above_every_variance_warns_at_the_callers_line(call):
    X = _small_data()
    with pytest.warns(UserWarning, match=MESSAGE.format(name=NAMES.get(call, "D"))) as record:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", category=ConvergenceWarning)  # coinciding clusters
            CALLS[call](X, 0.01)
    psi_warnings = [w for w in record if "is above every variance" in str(w.message)]
    assert psi_warnings and all(w.filename == __file__ for w in psi_warnings)


@pytest.mark.parametrize("call", sorted(CALLS))
def test_a_floor_below_the_variances_is_silent(call):
    X = _small_data()
    with warnings.catch_warnings():
        warnings.simplefilter("error", category=UserWarning)
        warnings.filterwarnings("ignore", message="EM did not converge")
        CALLS[call](X, 1e-9)
