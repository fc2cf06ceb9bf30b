"""Tests of mlpr.multiclass: one versus the rest and one versus one over any binary learner."""

import numpy as np
import pytest

from mlpr.datasets import load_iris
from mlpr.logreg import train_logreg_binary
from mlpr.multiclass import OneVsOne, OneVsRest, train_one_vs_one, train_one_vs_rest
from mlpr.svm import rbf_kernel, train_svm_kernel, train_svm_linear
from mlpr.utils import model, split_db_2to1


@model
class Threshold:
    """A hand-made binary model on one feature: s = x[f] - t."""

    f: int
    t: float

    def scores(self, D):
        return np.asarray(D, dtype=float)[self.f] - self.t


@model
class Bump:
    """A hand-made binary model on 1-D data: s = 1/4 - (x - center)^2."""

    center: float

    def scores(self, D):
        return 0.25 - (np.asarray(D, dtype=float)[0] - self.center) ** 2


def linear_svm(X, Y):
    return train_svm_linear(X, Y, 1.0, None)


def test_one_vs_rest_hand_made():
    D = np.array([[-1.0, 0.0, 1.0]])
    L = np.array([0, 1, 2])
    seen = []

    def train(X, Y):  # a bump on the class-1 sample
        seen.append(Y.tolist())
        return Bump(float(X[0, Y == 1][0]))

    ovr = train_one_vs_rest(train, D, L)
    assert seen == [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    X = np.array([[-1.0, 0.5, 3.0]])
    np.testing.assert_allclose(ovr.scores(X), [[0.25, -2.0, -15.75], [-0.75, 0.0, -8.75],
                                               [-3.75, 0.0, -3.75]])
    # x = 0.5 and x = 3 are claimed by no class (ambiguous); x = 0.5 ties classes 1 and 2
    np.testing.assert_array_equal(ovr.claims(X).sum(axis=0), [1, 0, 0])
    np.testing.assert_array_equal(ovr.predict(X), [0, 1, 2])
    assert ovr.n_classes == 3


def test_one_vs_one_votes_and_ties():
    D = np.array([[0.0, 1.0, 2.0]])
    L = np.array([0, 1, 2])
    sub = []

    def train(X, Y):
        sub.append((X[0].tolist(), Y.tolist()))
        # a "rock-paper-scissors" rule: 0 beats 1, 1 beats 2, 2 beats 0, whatever x is
        return Threshold(0, -np.inf if sub[-1][0] in ([0.0, 1.0], [1.0, 2.0]) else np.inf)

    ovo = train_one_vs_one(train, D, L)
    assert ovo.pairs == ((0, 1), (0, 2), (1, 2))
    assert sub == [([0.0, 1.0], [1, 0]), ([0.0, 2.0], [1, 0]), ([1.0, 2.0], [1, 0])]
    V = ovo.scores(D)
    np.testing.assert_array_equal(V, np.ones((3, 3)))  # one vote each: the ambiguous region
    np.testing.assert_array_equal(V.sum(axis=0), 3)  # K (K - 1) / 2 votes per sample
    np.testing.assert_array_equal(ovo.predict(D), [0, 0, 0])  # tie -> lowest class


def test_one_vs_one_score_zero_votes_for_b():
    ovo = train_one_vs_one(lambda X, Y: Threshold(0, 1.0), np.array([[0.0, 2.0]]), np.array([0, 1]))
    np.testing.assert_array_equal(ovo.scores(np.array([[1.0, 1.5]])), [[0, 1], [1, 0]])


def test_iris_svm_and_logreg():
    D, L = load_iris()
    (DTR, LTR), (DVAL, LVAL) = split_db_2to1(D, L, seed=0)
    for train in (lambda X, Y: train_svm_kernel(X, Y, 1.0, rbf_kernel(1.0), None),
                  lambda X, Y: train_svm_linear(X, Y, 1.0, None),
                  lambda X, Y: train_logreg_binary(X, Y, 1e-3)):
        ovr, ovo = train_one_vs_rest(train, DTR, LTR), train_one_vs_one(train, DTR, LTR)
        assert isinstance(ovr, OneVsRest) and isinstance(ovo, OneVsOne)
        assert ovr.scores(DVAL).shape == ovo.scores(DVAL).shape == (3, DVAL.shape[1])
        assert np.mean(ovo.predict(DVAL) != LVAL) <= 0.1
        # one vs rest's scores are the binary models' own scores
        np.testing.assert_array_equal(ovr.scores(DVAL)[2], ovr.models[2].scores(DVAL))
        np.testing.assert_array_equal(ovr.claims(DVAL), ovr.scores(DVAL) > 0)
    assert train_one_vs_one(linear_svm, DTR, LTR) == train_one_vs_one(linear_svm, DTR, LTR)


def test_errors():
    D, L = load_iris()
    train = linear_svm
    with pytest.raises(TypeError, match="train must be a callable"):
        train_one_vs_rest("svm", D, L)
    with pytest.raises(ValueError, match="did you mean D.T"):
        train_one_vs_one(train, D.T, L)
    with pytest.raises(ValueError, match="single class"):
        train_one_vs_rest(train, D, np.zeros_like(L))
    with pytest.raises(ValueError, match="no sample of class 1"):
        train_one_vs_one(train, D, np.where(L == 1, 2, L))
    ovr = train_one_vs_rest(lambda X, Y: Threshold(0, 0.0), D, L)
    with pytest.raises(ValueError, match="expected \\(150,\\)"):
        train_one_vs_rest(lambda X, Y: type("M", (), {"scores": lambda s, X: X})(), D,
                          L).scores(D)
    assert ovr.scores(D).shape == (3, 150)


def test_trainer_with_hyperparameters_left_unfixed_shows_the_lambda():
    D, L = load_iris()
    for wrapper in (train_one_vs_rest, train_one_vs_one):
        with pytest.raises(TypeError, match=r"train must take \(D, L\) only, but "
                                            r"train_svm_linear\(D, L\) fails: missing a required "
                                            r"argument: 'C'; .*lambda D, L: train_svm_linear\(D, "
                                            r"L, C=\.\.\.\)"):
            wrapper(train_svm_linear, D, L)
        with pytest.raises(TypeError, match=r"lambda D, L: train_svm_kernel\(D, L, C=\.\.\., "
                                            r"kernel=\.\.\.\)"):
            wrapper(train_svm_kernel, D, L)
    # a TypeError raised inside a trainer that takes (D, L) is not mistaken for a signature one
    def broken(X, Y):
        raise TypeError("inside the trainer")

    with pytest.raises(TypeError, match="^inside the trainer$"):
        train_one_vs_rest(broken, D, L)
    # callables without a readable signature and keyword-only extras with defaults are fine
    ovr = train_one_vs_rest(lambda X, Y, *, C=1.0: train_svm_linear(X, Y, C, None), D, L)
    assert ovr.n_classes == 3


def test_one_vs_rest_with_k_minus_1_classifiers_as_note_003_describes():
    from mlpr.logreg import train_logreg_binary

    rng = np.random.default_rng(3)
    L = np.repeat([0, 1, 2], 30)
    D = rng.normal(size=(2, 90)) + np.array([[0.0, 4.0, 2.0], [0.0, 0.0, 4.0]])[:, L]

    def train(X, Y):
        return train_logreg_binary(X, Y, 1e-3)

    ovr = train_one_vs_rest(train, D, L, last_implicit=True)
    assert len(ovr.models) == 2 and ovr.n_classes == 3
    full = train_one_vs_rest(train, D, L)
    # the K - 1 models are the first K - 1 of the K-model construction
    np.testing.assert_array_equal(ovr.scores(D)[:2], full.scores(D)[:2])
    G = rng.uniform(-3, 7, size=(2, 2000))
    s0, s1 = ovr.models[0].scores(G), ovr.models[1].scores(G)
    by_hand = np.where((s0 > 0) | (s1 > 0), np.where(s0 >= s1, 0, 1), 2)
    np.testing.assert_array_equal(ovr.predict(G), by_hand)
    claims = ovr.claims(G)
    np.testing.assert_array_equal(claims[2], ~((s0 > 0) | (s1 > 0)))
    # with K - 1 models no point is claimed by nobody; some by several
    assert claims.sum(axis=0).min() == 1 and claims.sum(axis=0).max() == 2
    with pytest.raises(TypeError, match="last_implicit"):
        train_one_vs_rest(train, D, L, last_implicit="yes")
