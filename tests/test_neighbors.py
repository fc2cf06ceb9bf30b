
import numpy as np
import pytest
from exact_arithmetic import assert_exact, exact_class_scatters, offset_classes

from mlpr._neighbors_fast import smallest_unordered as _smallest_unordered
from mlpr.datasets import load_iris
from mlpr.neighbors import train_knn, train_nearest_mean
from mlpr.utils import split_db_2to1


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


# ------------------------------------------------------------------------------------------------
# nearest class mean, Mahalanobis distance


def _anisotropic_data(seed=2, nfeat=3, K=3, n_per_class=40):
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(nfeat, nfeat)) * np.array([[5.0], [1.0], [0.2]])  # shared covariance AA^T
    means = 2 * rng.normal(size=(nfeat, K))
    D = np.hstack([means[:, [k]] + A @ rng.normal(size=(nfeat, n_per_class)) for k in range(K)])
    return D, np.repeat(np.arange(K), n_per_class)


def _within_class_cov(D, L):
    # independent of the library: a loop over classes, centred by each class mean
    Sw = np.zeros((D.shape[0], D.shape[0]))
    for k in np.unique(L):
        Dk = D[:, L == k] - D[:, L == k].mean(axis=1, keepdims=True)
        Sw += Dk @ Dk.T
    return Sw / D.shape[1]


def test_nearest_mean_mahalanobis_brute_force():
    D, L = _anisotropic_data()
    model = train_nearest_mean(D, L, metric="mahalanobis")
    Sw = _within_class_cov(D, L)
    np.testing.assert_allclose(model.Sw, Sw, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(model.Sw_chol @ model.Sw_chol.T, Sw, rtol=1e-12, atol=1e-12)
    X = np.random.default_rng(3).normal(size=(3, 25)) * 6
    expected = np.empty((3, 25))
    for k in range(3):
        diff = X - model.mu[:, [k]]
        expected[k] = -np.sum(diff * np.linalg.solve(Sw, diff), axis=0)  # -(x-mu)^T Sw^-1 (x-mu)
    S = model.scores(X)
    np.testing.assert_allclose(S, expected, rtol=1e-10, atol=1e-10 * np.abs(expected).max())
    np.testing.assert_array_equal(model.predict(X), np.argmax(expected, axis=0))
    assert model.predict(X[:, 4]).tolist() == model.predict(X[:, 4:5]).tolist()


def test_nearest_mean_mahalanobis_is_euclidean_after_whitening():
    D, L = _anisotropic_data()
    X = np.random.default_rng(4).normal(size=(3, 30)) * 6
    Lc = np.linalg.cholesky(_within_class_cov(D, L))
    euclid_white = train_nearest_mean(np.linalg.solve(Lc, D), L)
    maha = train_nearest_mean(D, L, metric="mahalanobis")
    S_white = euclid_white.scores(np.linalg.solve(Lc, X))
    np.testing.assert_allclose(
        maha.scores(X), S_white, rtol=1e-10, atol=1e-10 * np.abs(S_white).max()
    )
    np.testing.assert_array_equal(maha.predict(X), euclid_white.predict(np.linalg.solve(Lc, X)))
    # whitened within-class covariance is the identity
    np.testing.assert_allclose(
        _within_class_cov(np.linalg.solve(maha.Sw_chol, D), L), np.eye(3), atol=1e-10
    )
    # and the two metrics do disagree on such anisotropic data
    assert np.any(maha.predict(X) != train_nearest_mean(D, L).predict(X))
    assert train_nearest_mean(D, L).metric == "euclidean" and train_nearest_mean(D, L).Sw is None


def test_nearest_mean_mahalanobis_errors():
    D, L = _anisotropic_data()
    with pytest.raises(ValueError, match="metric must be one of.*got 'cos"):
        train_nearest_mean(D, L, metric="cosine")
    with pytest.raises(ValueError, match="metric must be one of"):
        train_nearest_mean(D, L, metric=None)
    with pytest.raises(ValueError, match=r"Sw is singular: its rank is 3 but D has 4.*PCA"):
        train_nearest_mean(np.vstack([D, D[0] + 2 * D[1]]), L, metric="mahalanobis")
    with pytest.raises(ValueError, match=r"Sw is singular: its rank is 3 but D has 4.*fit_pca"):
        train_nearest_mean(np.vstack([D, np.full(D.shape[1], 7.0)]), L, metric="mahalanobis")
    # 2 samples in each of 3 classes: Sw has rank <= 3 in 5 dimensions
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match=r"rank is 3 but D has 5 features"):
        train_nearest_mean(rng.normal(size=(5, 6)), [0, 0, 1, 1, 2, 2], metric="mahalanobis")
    with pytest.raises(ValueError, match=r"D has shape \(120, 3\) but L has 120 labels.*D\.T\?"):
        train_nearest_mean(D.T, L, metric="mahalanobis")
    model = train_nearest_mean(D, L, metric="mahalanobis")
    with pytest.raises(ValueError, match=r"shape \(10, 3\).*did you mean D\.T\?"):
        model.scores(np.zeros((10, 3)))


# ------------------------------------------------------------------------------------------------
# k-nearest neighbours


def _brute_knn(X, L, Q, k, K):
    """Python-level reference: full distance matrix by broadcasting, sort by (distance, index)."""
    d2 = np.sum((X[:, :, None] - Q[:, None, :]) ** 2, axis=0)  # (N, M)
    M = Q.shape[1]
    idx = np.empty((k, M), dtype=int)
    S = np.zeros((K, M))
    pred = np.empty(M, dtype=int)
    for j in range(M):
        ranked = sorted(range(X.shape[1]), key=lambda i: (d2[i, j], i))[:k]
        idx[:, j] = ranked
        counts = [sum(L[i] == c for i in ranked) for c in range(K)]
        S[:, j] = np.array(counts) / k
        tied = {c for c in range(K) if counts[c] == max(counts)}
        pred[j] = next(L[i] for i in ranked if L[i] in tied)  # nearest member of a tied class
    return idx, np.take_along_axis(d2, idx, axis=0), S, pred


def _knn_cases():
    rng = np.random.default_rng(5)
    # continuous data: no ties
    X1 = rng.normal(size=(3, 40))
    yield X1, rng.integers(0, 3, 40), rng.normal(size=(3, 25))
    # far from the origin: the expansion alone would lose most digits
    yield X1 + 1e6, rng.integers(0, 3, 40), rng.normal(size=(3, 25)) + 1e6
    # integer grid with duplicates: exact distance ties everywhere
    X3 = rng.integers(0, 4, size=(2, 60)).astype(float)
    yield X3, rng.integers(0, 3, 60), rng.integers(-1, 5, size=(2, 30)).astype(float)
    # 4 distinct points, 15 copies each: more ties than candidates, so the exact fallback ranks
    X4 = rng.integers(0, 2, size=(2, 60)).astype(float)
    yield X4, rng.integers(0, 3, 60), rng.integers(-1, 3, size=(2, 30)).astype(float)


@pytest.mark.parametrize("case", range(4))
@pytest.mark.parametrize("k", [1, 2, 3, 4, 7, 12])
def test_knn_matches_brute_force(case, k):
    X, L, Q = list(_knn_cases())[case]
    L[:3] = [0, 1, 2]
    model = train_knn(X, L, k)
    idx_ref, d2_ref, S_ref, pred_ref = _brute_knn(X, L, Q, k, 3)
    idx, d2 = model.kneighbors(Q)
    np.testing.assert_array_equal(idx, idx_ref)
    np.testing.assert_allclose(d2, d2_ref, rtol=1e-12, atol=0)
    np.testing.assert_array_equal(model.scores(Q), S_ref)
    np.testing.assert_array_equal(model.predict(Q), pred_ref)


def test_knn_all_training_samples_as_neighbours():
    X, L, Q = list(_knn_cases())[2]
    N = X.shape[1]
    idx_ref, d2_ref, S_ref, pred_ref = _brute_knn(X, L, Q, N, 3)
    model = train_knn(X, L, N)
    idx, d2 = model.kneighbors(Q)
    np.testing.assert_array_equal(idx, idx_ref)
    np.testing.assert_array_equal(d2, d2_ref)
    S = np.tile(np.bincount(L, minlength=3)[:, None] / N, (1, Q.shape[1]))
    np.testing.assert_allclose(model.scores(Q), S, rtol=1e-15)
    np.testing.assert_array_equal(model.predict(Q), pred_ref)


@pytest.mark.parametrize("case", range(4))
def test_knn_block_size_independence(case):
    """The block size changes no neighbour. Independent tests of the neighbours:
    test_knn_matches_brute_force and test_knn_medium_size_matches_brute_force (numpy's brute
    force), test_knn_tie_breaking_hand_example (by hand)."""
    X, L, Q = list(_knn_cases())[case]
    model = train_knn(X, L, 5)
    idx, d2 = model.kneighbors(Q)
    for block_bytes in (1, 8 * 3 * 60 * 7, 10**9):  # 1 query per block, a few, all at once
        idx_b, d2_b = model.kneighbors(Q, block_bytes=block_bytes)
        np.testing.assert_array_equal(idx_b, idx)
        np.testing.assert_array_equal(d2_b, d2)
        np.testing.assert_array_equal(model.predict(Q, block_bytes=block_bytes), model.predict(Q))


def test_knn_duplicates_lowest_index_first():
    # 40 copies of one point (certificate of the fast path fails: everything ties) + others
    rng = np.random.default_rng(6)
    X = np.hstack([np.full((4, 40), 0.3), rng.normal(size=(4, 30)) + 5])
    L = np.r_[np.zeros(40, int), np.ones(30, int)]
    model = train_knn(X, L, 3)
    idx, d2 = model.kneighbors(np.full((4, 2), 0.3))
    np.testing.assert_array_equal(idx, [[0, 0], [1, 1], [2, 2]])
    np.testing.assert_array_equal(d2, 0.0)


def test_knn_one_neighbour_on_training_set_is_exact():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(5, 500)) * 10 + 100
    L = rng.integers(0, 4, 500)  # random labels: only the sample itself predicts its label
    model = train_knn(X, L, 1)
    idx, d2 = model.kneighbors(X, block_bytes=50_000)
    np.testing.assert_array_equal(idx[0], np.arange(500))
    np.testing.assert_array_equal(d2, 0.0)
    np.testing.assert_array_equal(model.predict(X), L)


def test_knn_one_neighbour_iris():
    D, L = load_iris()
    model = train_knn(D, L, 1)
    _, d2 = model.kneighbors(D)
    np.testing.assert_array_equal(d2, 0.0)  # itself, or an identical flower of lower index
    assert np.all(model.predict(D) == L)
    # held-out accuracy of 1-NN and 5-NN on the course's 2/3 split is high
    (DTR, LTR), (DVAL, LVAL) = split_db_2to1(D, L)
    for k in (1, 5):
        assert np.mean(train_knn(DTR, LTR, k).predict(DVAL) == LVAL) > 0.9


def test_knn_scores_are_fractions_of_k():
    X, L, Q = list(_knn_cases())[0]
    for k in (1, 3, 6):
        S = train_knn(X, L, k).scores(Q)
        assert S.shape == (3, Q.shape[1])
        np.testing.assert_allclose(S.sum(axis=0), 1.0, rtol=1e-15)
        np.testing.assert_array_equal(S * k, np.round(S * k))
        assert S.min() >= 0


def test_knn_tie_breaking_hand_example():
    # 1-D: distances from the query 0 are 1, 4, 9, 16 for classes 0, 1, 1, 0
    X = np.array([[1.0, -2.0, 3.0, -4.0]])
    L = np.array([0, 1, 1, 0])
    q = np.array([[0.0]])
    assert [train_knn(X, L, k).predict(q)[0] for k in (1, 2, 3, 4)] == [0, 0, 1, 0]
    np.testing.assert_array_equal(train_knn(X, L, 4).scores(q), [[0.5], [0.5]])
    # exact distance tie between training samples: the lower training index comes first
    X = np.array([[1.0, -1.0]])
    assert train_knn(X, [1, 0], 1).predict(q)[0] == 1
    assert train_knn(X, [0, 1], 1).predict(q)[0] == 0
    assert train_knn(X, [1, 0], 2).predict(q)[0] == 1
    np.testing.assert_array_equal(train_knn(X, [1, 0], 2).kneighbors(q)[0], [[0], [1]])
    # the nearest neighbour (class 2) is not among the tied classes 0 and 1; their nearest
    # members are at the same distance 4: the one with lower training index wins
    X = np.array([[1.0, 2.0, -2.0, 3.0, -3.0]])
    assert train_knn(X, [2, 0, 1, 0, 1], 5).predict(q)[0] == 0
    assert train_knn(X, [2, 1, 0, 1, 0], 5).predict(q)[0] == 1
    assert train_knn(X, [2, 1, 0, 1, 0], 1).predict(q)[0] == 2


def test_knn_predict_for_ks_and_kneighbors_prefix():
    X, L, Q = list(_knn_cases())[2]
    model = train_knn(X, L, 1)
    ks = [1, 3, 5, 8]
    P = model.predict_for_ks(Q, ks)
    assert P.shape == (4, Q.shape[1])
    for row, k in zip(P, ks):
        np.testing.assert_array_equal(row, train_knn(X, L, k).predict(Q))
    idx8, d8 = model.kneighbors(Q, 8)
    idx3, d3 = model.kneighbors(Q, 3)
    np.testing.assert_array_equal(idx8[:3], idx3)
    assert np.all(np.diff(d8, axis=0) >= 0)


def test_knn_model_owns_its_data():
    X, L, Q = list(_knn_cases())[0]
    X, L = X.copy(), L.copy()
    model = train_knn(X, L, 3)
    before = model.predict(Q)
    X[:] = 0.0
    L[:] = 0
    np.testing.assert_array_equal(model.predict(Q), before)
    assert (model.k, model.K, model.D.shape, model.L.shape) == (3, 3, (3, 40), (40,))
    with pytest.raises(ValueError, match="read-only"):
        model.D[0, 0] = 1.0
    # a single sample as a 1-D vector
    assert model.predict(Q[:, 2]).tolist() == model.predict(Q[:, 2:3]).tolist()


def test_knn_errors():
    D, L = _data()
    with pytest.raises(ValueError, match=r"D has shape \(150, 4\) but L has 150 labels.*D\.T\?"):
        train_knn(D.T, L, 3)
    with pytest.raises(ValueError, match="no sample of class 1"):
        train_knn(D[:, L != 1], L[L != 1], 3)
    with pytest.raises(ValueError, match="k must be >= 1, got 0"):
        train_knn(D, L, 0)
    with pytest.raises(ValueError, match="k must be <= the number of training samples N = 150"):
        train_knn(D, L, 151)
    with pytest.raises(TypeError, match="k must be an integer, got 2.5"):
        train_knn(D, L, 2.5)
    with pytest.raises(TypeError, match="k must be an integer, got True"):
        train_knn(D, L, True)
    model = train_knn(D, L, 3)
    with pytest.raises(ValueError, match=r"shape \(10, 4\).*did you mean D\.T\?"):
        model.predict(np.zeros((10, 4)))
    with pytest.raises(ValueError, match=r"shape \(10, 4\).*did you mean D\.T\?"):
        model.scores(np.zeros((10, 4)))
    with pytest.raises(ValueError, match=r"3 features.*expected 4"):
        model.kneighbors(np.zeros((3, 10)))
    with pytest.raises(ValueError, match="k must be <= the number of training samples N = 150"):
        model.kneighbors(D, 200)
    with pytest.raises(ValueError, match="block_bytes must be >= 1, got 0"):
        model.kneighbors(D, block_bytes=0)
    with pytest.raises(TypeError, match="block_bytes must be an integer"):
        model.predict(D, block_bytes=1e6)
    with pytest.raises(TypeError, match="ks must be a sequence of integers, got 3"):
        model.predict_for_ks(D, 3)
    with pytest.raises(ValueError, match="ks must hold at least one"):
        model.predict_for_ks(D, [])
    with pytest.raises(ValueError, match=r"ks\[1\] must be >= 1, got 0"):
        model.predict_for_ks(D, [1, 0])
    with pytest.raises(ValueError, match=r"ks\[0\] must be <= the number of training samples"):
        model.predict_for_ks(D, [151])


def _ranked_reference(X, Q, k):
    """numpy brute force: all distances, each column sorted by (distance, training index)."""
    d2 = np.sum((X[:, :, None] - Q[:, None, :]) ** 2, axis=0)  # (N, M)
    index = np.broadcast_to(np.arange(X.shape[1])[:, None], d2.shape)
    idx = np.lexsort((index, d2), axis=0)[:k]
    return idx, np.take_along_axis(d2, idx, axis=0)


@pytest.mark.parametrize("grid", [False, True])
def test_knn_medium_size_matches_brute_force(grid):
    # wide enough for the subset-threshold selection; the grid has ~60 copies of each point
    rng = np.random.default_rng(8)
    if grid:
        X = rng.integers(0, 7, size=(2, 3000)).astype(float)
        Q = rng.integers(-1, 8, size=(2, 150)).astype(float)
    else:
        X = rng.normal(size=(4, 3000))
        Q = np.hstack([rng.normal(size=(4, 100)), X[:, :50]])
    L = rng.integers(0, 3, 3000)
    model = train_knn(X, L, 10)
    idx_ref, d2_ref = _ranked_reference(X, Q, 10)
    idx, d2 = model.kneighbors(Q, block_bytes=400_000)
    np.testing.assert_array_equal(idx, idx_ref)
    np.testing.assert_allclose(d2, d2_ref, rtol=1e-12, atol=0)
    for k, pred in zip((1, 4, 10), model.predict_for_ks(Q, (1, 4, 10))):
        nn = L[idx_ref[:k]]
        for j in range(Q.shape[1]):
            counts = np.bincount(nn[:, j], minlength=3)
            tied = np.flatnonzero(counts == counts.max())
            assert pred[j] == next(c for c in nn[:, j] if c in tied)


def _fast_reference_cases():
    rng = np.random.default_rng(11)
    yield from _knn_cases()
    # wide enough for the strided threshold; continuous, far from the origin, on a grid of
    # duplicates, queries equal to training samples, and a tiny scale (double precision only)
    X = rng.normal(size=(5, 4000))
    Q = np.hstack([rng.normal(size=(5, 120)), X[:, :40]])
    yield X, rng.integers(0, 3, 4000), Q
    yield X + 1e5, rng.integers(0, 3, 4000), Q + 1e5
    G = rng.integers(0, 6, size=(3, 4000)).astype(float)
    yield G, rng.integers(0, 3, 4000), rng.integers(-1, 7, size=(3, 150)).astype(float)
    yield X * 1e-15, rng.integers(0, 3, 4000), Q * 1e-15


@pytest.mark.slow
@pytest.mark.parametrize("case", range(8))
@pytest.mark.parametrize("k", [1, 5, 12])
def test_knn_fast_equals_reference(case, k):
    """The fast search against solver="reference". Independent tests of the neighbours:
    test_knn_matches_brute_force and test_knn_medium_size_matches_brute_force (numpy's brute
    force), test_knn_tie_breaking_hand_example (by hand)."""
    # the fast search (single precision candidates, certified) against the plain one: the same
    # neighbours, the same distances bit for bit, the same scores and predictions (ties too)
    X, L, Q = list(_fast_reference_cases())[case]
    L[:3] = [0, 1, 2]
    for h in (None, 1.5):
        model = train_knn(X, L, k, h=h)
        idx, d2 = model.kneighbors(Q, block_bytes=300_000)
        idx_ref, d2_ref = model.kneighbors(Q, block_bytes=300_000, solver="reference")
        np.testing.assert_array_equal(idx, idx_ref)
        np.testing.assert_array_equal(d2, d2_ref)
        np.testing.assert_array_equal(model.predict(Q), model.predict(Q, solver="reference"))
        np.testing.assert_array_equal(model.scores(Q), model.scores(Q, solver="reference"))


@pytest.mark.parametrize("single", [True, False])
def test_knn_fast_search_in_either_precision_equals_reference(single):
    """The fast search in either precision against the reference. Independent tests of the
    neighbours: test_knn_matches_brute_force and test_knn_medium_size_matches_brute_force
    (numpy's brute force), test_knn_tie_breaking_hand_example (by hand)."""
    # forcing the product's precision: the certificate makes both exact
    from mlpr._neighbors_fast import kneighbors

    rng = np.random.default_rng(12)
    X = rng.integers(0, 5, size=(4, 3000)).astype(float) + rng.normal(size=(4, 3000)) * 1e-3
    Q = np.hstack([rng.normal(2, 1, size=(4, 100)), X[:, :30]])
    model = train_knn(X, rng.integers(0, 2, 3000), 7)
    idx_ref, d2_ref = model.kneighbors(Q, solver="reference")
    idx, d2 = kneighbors(model.D, Q, 7, 200_000, single=single)
    np.testing.assert_array_equal(idx.T, idx_ref)
    np.testing.assert_array_equal(d2.T, d2_ref)


def test_knn_unknown_solver():
    model = train_knn(np.eye(3), np.array([0, 1, 1]), 1)
    with pytest.raises(ValueError, match="solver must be one of 'auto', 'reference', got 'kdtree'"):
        model.predict(np.eye(3), solver="kdtree")


@pytest.mark.parametrize("kind", ["continuous", "ties", "constant"])
def test_smallest_unordered_contract(kind):
    # the fast selection (private, imported on purpose) against the contract of its plain
    # reference, np.argpartition: every entry left out is >= every entry selected
    rng = np.random.default_rng(9)
    G = {
        "continuous": rng.normal(size=(40, 5000)),
        "ties": rng.integers(0, 6, size=(40, 5000)).astype(float),  # threshold ties: fallback
        "constant": np.ones((40, 5000)),
    }[kind]
    for n in (1, 17, 40):
        sel = _smallest_unordered(G, n)
        assert sel.shape == (40, n)
        for row, s in zip(G, sel):
            assert len(set(s.tolist())) == n
            rest = np.delete(row, s)
            assert row[s].max() <= rest.min()


# ------------------------------------------------------------------------------------------------
# bad input


def test_nearest_mean_mahalanobis_zero_Sw_message():
    # one sample per class: Sw = 0, and "PCA with m <= 0" is no remedy
    D = np.array([[0.0, 1.0, 3.0], [1.0, 0.0, 2.0]])
    with pytest.raises(ValueError, match=r"rank is 0.*it is zero.*metric='euclidean'") as e:
        train_nearest_mean(D, np.array([0, 1, 2]), "mahalanobis")
    assert "m <= 0" not in str(e.value)


def test_nearest_mean_overflow():
    rng = np.random.default_rng(0)
    D, L = rng.normal(size=(2, 30)), np.arange(30) % 3
    for metric in ("euclidean", "mahalanobis"):
        model = train_nearest_mean(D, L, metric)
        with pytest.raises(ValueError, match=r"squared distances to the class means of D overflow"):
            model.predict(np.full((2, 3), 1e200))  # used to predict class 0 for everything
    with pytest.raises(ValueError, match=r"within-class covariance Sw of D overflows"):
        train_nearest_mean(D * 1e200, L, "mahalanobis")


def test_knn_overflow():
    rng = np.random.default_rng(0)
    D, L = rng.normal(size=(2, 30)), np.arange(30) % 3
    model = train_knn(D, L, 3)
    with pytest.raises(ValueError, match=r"squared distances between D and the training samples"):
        model.predict(np.full((2, 3), 1e160))
    with pytest.raises(ValueError, match=r"\|value\|: 1 in D, 2\.33e\+200 in the training data"):
        train_knn(D * 1e200, L, 3).predict(np.ones((2, 4)))


# -- exact within-class covariance on data far from the origin -------------------------------------


@pytest.mark.parametrize("offset", [0.0, 25.0, 1e6])
def test_mahalanobis_Sw_is_exact_to_rounding_on_offset_data(offset):
    D, L = offset_classes(offset)
    Sw_exact = (sum(exact_class_scatters(D, L)[0]) / L.size).astype(float)  # exact, rounded once
    model = train_nearest_mean(D, L, "mahalanobis")
    assert_exact(model.Sw, Sw_exact)
    np.testing.assert_allclose(model.Sw_chol @ model.Sw_chol.T, Sw_exact, rtol=0,
                               atol=1e-14 * np.abs(Sw_exact).max())


# -- models are values ---------------------------------------------------------------------------


def test_prototype_models_compare_and_hash_by_value():
    D, L = _data()
    for train in (lambda X, Y: train_nearest_mean(X, Y),
                  lambda X, Y: train_nearest_mean(X, Y, "mahalanobis"),
                  lambda X, Y: train_knn(X, Y, 3)):
        a, b = train(D, L), train(D.copy(), L.copy())
        assert a == b and hash(a) == hash(b) and a is not b
        assert {a: 1}[b] == 1  # usable as a dict key
        assert a != train(D + 1.0, L)
    assert train_knn(D, L, 3) != train_knn(D, L, 5)
    assert train_nearest_mean(D, L) != train_nearest_mean(D, L, "mahalanobis")
    with pytest.raises(ValueError, match="read-only"):
        train_nearest_mean(D, L, "mahalanobis").Sw[0, 0] = 1.0


def test_knn_radius_h_votes_only_the_neighbours_within_h():
    # 1-D training points 0, 1, 3 (class 0) and 6, 6.5 (class 1); by hand
    X = np.array([[0.0, 1.0, 3.0, 6.0, 6.5]])
    L = np.array([0, 0, 0, 1, 1])
    Q = np.array([[4.4, 9.0, 5.5]])
    plain = train_knn(X, L, 3)
    radius = train_knn(X, L, 3, h=1.5)
    # query 4.4: its 3 nearest are 3, 6, 6.5 (distances 1.4, 1.6, 2.1): plain votes 2 of 3 for
    # class 1; within h = 1.5 only the point at 3 votes, for class 0
    np.testing.assert_allclose(plain.scores(Q)[:, 0], [1 / 3, 2 / 3])
    np.testing.assert_allclose(radius.scores(Q)[:, 0], [1.0, 0.0])
    assert plain.predict(Q)[0] == 1 and radius.predict(Q)[0] == 0
    # query 5.5: 6 and 6.5 (0.5, 1.0) within h, 3 (2.5) not
    np.testing.assert_allclose(radius.scores(Q)[:, 2], [0.0, 1.0])
    # query 9: nothing within 1.5: uniform posterior, and the class of its nearest point (6.5)
    np.testing.assert_allclose(radius.scores(Q)[:, 1], [0.5, 0.5])
    assert radius.predict(Q)[1] == 1
    np.testing.assert_array_equal(radius.n_within(Q), [1, 0, 2])
    np.testing.assert_array_equal(plain.n_within(Q), [3, 3, 3])
    np.testing.assert_array_equal(radius.predict_for_ks(Q, [1, 3]),
                                  [train_knn(X, L, 1, h=1.5).predict(Q), radius.predict(Q)])
    # a radius larger than every distance changes nothing
    np.testing.assert_array_equal(train_knn(X, L, 3, h=100.0).scores(Q), plain.scores(Q))
    with pytest.raises(ValueError, match="h must be finite and > 0"):
        train_knn(X, L, 3, h=0.0)


def test_knn_fast_chunks_and_short_threshold_rows(monkeypatch):
    """The fast search's chunks against the reference. Independent tests of the neighbours:
    test_knn_matches_brute_force and test_knn_medium_size_matches_brute_force (numpy's brute
    force), test_knn_tie_breaking_hand_example (by hand)."""
    # several product chunks (a partial last one), and rows whose threshold keeps fewer than
    # n_cand values (selected again from the full row): still the reference, bit for bit
    import mlpr._neighbors_fast as fast

    rng = np.random.default_rng(13)
    X = rng.normal(size=(5, 4000))
    Q = np.hstack([rng.normal(size=(5, 90)), X[:, :20]])
    model = train_knn(X, rng.integers(0, 3, 4000), 5)
    idx_ref, d2_ref = model.kneighbors(Q, solver="reference")
    monkeypatch.setattr(fast, "CHUNK_COLUMNS", 700)
    monkeypatch.setattr(fast, "BLOCK_QUERIES", 32)
    idx, d2 = model.kneighbors(Q)
    np.testing.assert_array_equal(idx, idx_ref)
    np.testing.assert_array_equal(d2, d2_ref)
    # a subset whose values lie far below the row's: no value kept, all rows selected again
    Xa = fast.augmented(model.D, model.D.mean(axis=1, keepdims=True)).astype(np.float32)
    Xa_s = np.ascontiguousarray(Xa[:, ::8])
    Xa_s[-1] -= 1e6
    bufs = (np.empty(32 * 700, np.float32), np.empty(32 * 700, bool))
    mu = model.D.mean(axis=1, keepdims=True)
    cand, _, _ = fast._candidates(Xa, Xa_s, mu, Q[:, :32], 21, bufs)
    cand_ok, _, _ = fast._candidates(Xa, None, mu, Q[:, :32], 21, bufs)
    np.testing.assert_array_equal(np.sort(cand, axis=1), np.sort(cand_ok, axis=1))
