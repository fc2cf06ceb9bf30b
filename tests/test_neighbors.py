import numpy as np
import pytest

from mlpr.neighbors import train_nearest_mean


def _data(seed=0, nfeat=4, K=3, n_per_class=50):
    rng = np.random.default_rng(seed)
    blocks = [
        rng.normal(size=(nfeat, n_per_class)) + 3 * rng.normal(size=(nfeat, 1)) for _ in range(K)
    ]
    L = np.repeat(np.arange(K), n_per_class)
    perm = rng.permutation(L.size)
    return np.hstack(blocks)[:, perm], L[perm]


def test_nearest_mean_means():
    D, L = _data()
    model = train_nearest_mean(D, L)
    assert model.mu.shape == (4, 3)
    for k in range(3):
        np.testing.assert_allclose(model.mu[:, k], D[:, L == k].mean(axis=1), rtol=1e-12)


def test_nearest_mean_scores_are_minus_squared_distances():
    D, L = _data()
    model = train_nearest_mean(D, L)
    X = np.random.default_rng(1).normal(size=(4, 20)) * 4
    # (D, K, 1) - (D, 1, N) broadcast
    expected = -np.sum((model.mu[:, :, None] - X[:, None, :]) ** 2, axis=0)
    S = model.scores(X)
    assert S.shape == (3, 20)
    np.testing.assert_allclose(S, expected, rtol=1e-10, atol=1e-10 * np.abs(expected).max())
    np.testing.assert_array_equal(model.predict(X), np.argmin(-expected, axis=0))


def test_nearest_mean_hand_example():
    # class 0 at (0,0),(2,0) -> mean (1,0); class 1 at (4,4),(6,4) -> mean (5,4)
    D = np.array([[0.0, 2.0, 4.0, 6.0], [0.0, 0.0, 4.0, 4.0]])
    L = np.array([0, 0, 1, 1])
    model = train_nearest_mean(D, L)
    np.testing.assert_allclose(model.mu, [[1.0, 5.0], [0.0, 4.0]])
    x = np.array([[1.0, 5.0, 3.0], [1.0, 3.0, 1.0]])
    # squared distances: (1,1): 1 and 25; (5,3): 25 and 1; (3,1): 5 and 13
    np.testing.assert_allclose(model.scores(x), -np.array([[1.0, 25.0, 5.0], [25.0, 1.0, 13.0]]))
    np.testing.assert_array_equal(model.predict(x), [0, 1, 0])


def test_nearest_mean_single_sample_and_training_accuracy():
    D, L = _data()
    model = train_nearest_mean(D, L)
    assert model.predict(D[:, 3]).tolist() == model.predict(D[:, 3:4]).tolist()
    assert np.mean(model.predict(D) == L) > 0.9  # well separated synthetic classes


def test_nearest_mean_errors():
    D, L = _data()
    with pytest.raises(ValueError, match=r"D has shape \(150, 4\) but L has 150 labels.*D\.T\?"):
        train_nearest_mean(D.T, L)
    with pytest.raises(ValueError, match="no sample of class 1"):
        train_nearest_mean(D[:, L != 1], L[L != 1])
    model = train_nearest_mean(D, L)
    with pytest.raises(ValueError, match=r"shape \(10, 4\).*did you mean D\.T\?"):
        model.scores(np.zeros((10, 4)))
    with pytest.raises(ValueError, match=r"3 features.*expected 4"):
        model.predict(np.zeros((3, 10)))
