import warnings

import numpy as np
import pytest

from mlpr._validation import (
    check_bool,
    check_covariance,
    check_data,
    check_data_labels,
    check_int,
    check_labels,
    check_vector,
    warn_if_transposed,
)
from mlpr.utils import (
    Standardizer,
    fit_center,
    fit_znorm,
    kfold_indices,
    kfold_shuffled_indices,
    leave_one_out_indices,
    model,
    split_db_2to1,
    vcol,
    vrow,
)


def test_vcol_vrow_shapes():
    x = np.arange(4.0)
    assert vcol(x).shape == (4, 1) and vrow(x).shape == (1, 4)
    assert np.array_equal(vcol(x).ravel(), x) and np.array_equal(vrow(vcol(x)), vrow(x))


# -- validators ---------------------------------------------------------------------------------


def test_check_data_converts_to_float64():
    D = check_data([[1, 2, 3], [4, 5, 6]])
    assert D.dtype == np.float64 and D.shape == (2, 3)


def test_check_data_rejects_1d_with_hint():
    with pytest.raises(ValueError, match=r"1-D with shape \(5,\).*vcol\(x\)"):
        check_data(np.arange(5.0))


def test_check_data_accepts_1d_sample_when_allowed():
    assert check_data(np.arange(3.0), n_features=3, allow_1d=True).shape == (3, 1)


def test_check_data_rejects_3d():
    with pytest.raises(ValueError, match="3 dimensions"):
        check_data(np.zeros((2, 2, 2)))


def test_check_data_transposed_against_feature_count():
    with pytest.raises(ValueError, match=r"shape \(10, 4\).*did you mean X\.T\?"):
        check_data(np.zeros((10, 4)), "X", n_features=4)


def test_check_data_wrong_feature_count():
    with pytest.raises(ValueError, match=r"3 features \(rows\).*expected 4"):
        check_data(np.zeros((3, 10)), n_features=4)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_check_data_rejects_non_finite(bad):
    D = np.zeros((2, 3))
    D[1, 2] = bad
    with pytest.raises(ValueError, match=r"NaN or infinite.*row 1, column 2"):
        check_data(D)


@pytest.mark.parametrize("bad", [np.array(["a", "b"]), "abc", np.array([1 + 2j])])
def test_check_data_type_errors(bad):
    with pytest.raises(TypeError, match="D must be"):
        check_data(bad)


def test_check_data_min_samples():
    with pytest.raises(ValueError, match="1 samples.*at least 2"):
        check_data(np.zeros((3, 1)), min_samples=2)


def test_check_labels_transposed_data_message():
    D = np.zeros((150, 4))
    L = np.zeros(150, dtype=int)
    with pytest.raises(
        ValueError,
        match=r"D has shape \(150, 4\) but L has 150 labels.*did you mean D\.T\?",
    ):
        check_data_labels(D, L)


def test_check_labels_length_mismatch():
    with pytest.raises(ValueError, match="L has 3 labels but the data have 4 samples"):
        check_data_labels(np.zeros((2, 4)), [0, 1, 0])


def test_check_labels_column_vector():
    with pytest.raises(ValueError, match=r"shape \(4, 1\).*ravel"):
        check_labels(np.zeros((4, 1), dtype=int), 4)


def test_check_labels_non_integer():
    with pytest.raises(ValueError, match="non-integer"):
        check_labels([0.0, 1.5], 2)
    with pytest.raises(TypeError, match="map class names"):
        check_labels(np.array(["setosa", "virginica"]), 2)


def test_check_labels_float_integral_accepted():
    L = check_labels([0.0, 1.0, 2.0], 3)
    assert L.dtype == np.int64 and L.tolist() == [0, 1, 2]


def test_check_labels_negative_and_too_large():
    with pytest.raises(ValueError, match="negative value -1"):
        check_labels([0, -1], 2)
    with pytest.raises(ValueError, match=r"label 3 but only 3 classes \(0\.\.2\)"):
        check_labels([0, 3], 2, n_classes=3)


def test_check_labels_missing_class():
    with pytest.raises(ValueError, match="no sample of class 1"):
        check_labels([0, 2, 2], 3, require_all=True)


def test_check_vector_shapes():
    for v in (np.ones(3), np.ones((3, 1)), np.ones((1, 3))):
        assert check_vector(v, 3, "mu").shape == (3, 1)
    with pytest.raises(ValueError, match=r"mu has shape \(4,\), expected \(3,\) or \(3, 1\)"):
        check_vector(np.ones(4), 3, "mu")


def test_check_covariance():
    with pytest.raises(ValueError, match="square"):
        check_covariance(np.ones((2, 3)))
    with pytest.raises(ValueError, match="not symmetric"):
        check_covariance(np.array([[1.0, 0.5], [0.0, 1.0]]))
    with pytest.raises(ValueError, match=r"shape \(2, 2\), expected \(3, 3\)"):
        check_covariance(np.eye(2), 3)


def test_check_bool():
    assert check_bool(np.True_, "normalize") is True and check_bool(False, "flag") is False
    for bad in (1, 0, None, "no", np.array([True])):
        with pytest.raises(TypeError, match="normalize must be True or False, got"):
            check_bool(bad, "normalize")


def test_check_int():
    assert check_int(np.int64(3), "m", low=1) == 3
    with pytest.raises(TypeError, match="m must be an integer, got 2.5"):
        check_int(2.5, "m")
    with pytest.raises(TypeError, match="integer"):
        check_int(True, "m")
    with pytest.raises(ValueError, match="m must be >= 1, got 0"):
        check_int(0, "m", low=1)


# -- split_db_2to1 ---------------------------------------------------------------------------------


@pytest.mark.parametrize("N, n_train", [(150, 100), (100, 66), (3, 2)])
def test_split_db_2to1_sizes(N, n_train):
    D = np.arange(2 * N, dtype=float).reshape(2, N)
    L = np.arange(N) % 2
    (DTR, LTR), (DVAL, LVAL) = split_db_2to1(D, L)
    assert DTR.shape == (2, n_train) and DVAL.shape == (2, N - n_train)
    assert LTR.shape == (n_train,) and LVAL.shape == (N - n_train,)
    # a partition of the columns, labels travelling with their samples
    cols = np.concatenate([DTR[0], DVAL[0]]) / 1.0
    assert sorted(cols.tolist()) == D[0].tolist()
    assert np.array_equal(np.concatenate([LTR, LVAL]), (cols.astype(int)) % 2)


def test_split_db_2to1_is_the_courses_legacy_permutation():
    N = 150
    D = vrow(np.arange(N))
    L = np.zeros(N, dtype=int)
    state = np.random.get_state()
    np.random.seed(0)  # the course's code, run here as the independent reference
    idx = np.random.permutation(N)
    np.random.set_state(state)
    (DTR, _), (DVAL, _) = split_db_2to1(D, L, seed=0)
    assert np.array_equal(DTR[0], idx[:100]) and np.array_equal(DVAL[0], idx[100:])


def test_split_db_2to1_leaves_global_rng_alone():
    np.random.seed(123)
    expected = np.random.rand()
    np.random.seed(123)
    split_db_2to1(np.zeros((1, 30)), np.zeros(30, dtype=int), seed=7)
    assert np.random.rand() == expected


def test_split_db_2to1_deterministic_and_seed_dependent():
    D = vrow(np.arange(60))
    L = np.zeros(60, dtype=int)
    a = split_db_2to1(D, L, seed=1)[0][0]
    b = split_db_2to1(D, L, seed=1)[0][0]
    c = split_db_2to1(D, L, seed=2)[0][0]
    assert np.array_equal(a, b) and not np.array_equal(a, c)


def test_split_db_2to1_transposed():
    with pytest.raises(ValueError, match=r"did you mean D\.T\?"):
        split_db_2to1(np.zeros((150, 4)), np.zeros(150, dtype=int))


# -- folds ----------------------------------------------------------------------------------------


def test_kfold_interleaved_matches_course_slicing():
    N, K = 11, 3
    folds = list(kfold_indices(N, K))
    assert len(folds) == K
    for i, (tr, va) in enumerate(folds):
        assert np.array_equal(va, np.arange(N)[i::K])
        assert np.array_equal(np.sort(np.concatenate([tr, va])), np.arange(N))
        assert np.intersect1d(tr, va).size == 0


def test_kfold_shuffled_partition_and_determinism():
    N, K = 23, 5
    a = list(kfold_shuffled_indices(N, K, np.random.default_rng(0)))
    b = list(kfold_shuffled_indices(N, K, np.random.default_rng(0)))
    vals = np.concatenate([va for _, va in a])
    assert np.array_equal(np.sort(vals), np.arange(N))
    assert {len(va) for _, va in a} <= {4, 5}
    assert all(np.array_equal(x[1], y[1]) for x, y in zip(a, b))
    with pytest.raises(TypeError, match="numpy.random.Generator"):
        list(kfold_shuffled_indices(N, K, 0))


def test_kfold_errors():
    with pytest.raises(ValueError, match="K must be >= 2, got 1"):
        list(kfold_indices(10, 1))
    with pytest.raises(ValueError, match="K must be <= 10, got 11"):
        list(kfold_indices(10, 11))


def test_leave_one_out():
    folds = list(leave_one_out_indices(4))
    assert [va.tolist() for _, va in folds] == [[0], [1], [2], [3]]
    assert folds[2][0].tolist() == [0, 1, 3]


# -- normalisation -----------------------------------------------------------------------------


def test_center_and_znorm_learned_on_train_applied_to_test():
    rng = np.random.default_rng(0)
    DTR = rng.normal(3.0, 2.0, size=(3, 50))
    DTE = rng.normal(3.0, 2.0, size=(3, 20))
    z = fit_znorm(DTR)
    Z = z.transform(DTR)
    np.testing.assert_allclose(Z.mean(axis=1), 0, atol=1e-12)
    np.testing.assert_allclose(Z.std(axis=1), 1, rtol=1e-12)
    np.testing.assert_allclose(
        z.transform(DTE), (DTE - DTR.mean(1, keepdims=True)) / DTR.std(1, keepdims=True),
        rtol=1e-12)
    c = fit_center(DTR)
    np.testing.assert_allclose(c.transform(DTE), DTE - DTR.mean(1, keepdims=True), rtol=1e-12)
    with pytest.raises(ValueError, match=r"did you mean D\.T\?"):
        z.transform(DTE.T)


def test_znorm_constant_feature():
    D = np.vstack([np.arange(5.0), np.ones(5)])
    with pytest.raises(ValueError, match="feature 1 of D is constant"):
        fit_znorm(D)


def test_check_rng():
    from mlpr._validation import check_rng

    g = np.random.default_rng(0)
    assert check_rng(g) is g
    with pytest.raises(TypeError, match=r"rng must be a numpy.random.Generator .* got int"):
        check_rng(0)
    with pytest.raises(TypeError, match="got RandomState"):
        check_rng(np.random.RandomState(0))


# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(0, 5), (0, 0)])
def test_check_data_rejects_zero_features(shape):
    with pytest.raises(ValueError, match=r"D has 0 features \(rows\), shape \(0, \d\), at least 1"):
        check_data(np.zeros(shape))
    with pytest.raises(ValueError, match="0 features"):
        fit_center(np.zeros((0, 5)))


def test_check_data_rejects_time_deltas():
    with pytest.raises(TypeError, match=r"D must be a numeric array, got dtype timedelta64"):
        check_data(np.ones((2, 3), dtype="m8[s]"))


@pytest.mark.parametrize(
    "labels, match",
    [
        (np.array([0.0, 1e30]), r"L must hold class labels 0..K-1, got value 1e\+30, too large"),
        (np.array([0.0, -1e30]), r"L must hold class labels 0..K-1, got negative value -1e\+30"),
        (np.array([0, 2**63 + 5], dtype=np.uint64), r"got value 9.22337e\+18, too large"),
    ],
)
def test_check_labels_values_beyond_int64(labels, match):
    # these used to wrap around in the cast to int64 (a RuntimeWarning and "negative value")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=match):
            check_labels(labels)


def test_check_labels_require_all_with_huge_label_is_cheap():
    # the missing class is found without materialising 0..K-1 (K = 10**12 here)
    with pytest.raises(ValueError, match=r"no sample of class 1: .*got classes \[0, 10+\]"):
        check_labels(np.array([0, 10**12]), require_all=True)
    with pytest.raises(ValueError, match=r"no sample of class 30: .*\[0, 1, .*, 9, \.\.\., 40\]"):
        check_labels(np.r_[np.arange(30), 40], require_all=True)


def test_check_covariance_rejects_empty_matrix():
    with pytest.raises(ValueError, match=r"C must be a non-empty \(D, D\) matrix, got shape \(0,"):
        check_covariance(np.zeros((0, 0)))


@pytest.mark.parametrize(
    "seed, err, match",
    [
        (1.5, TypeError, "seed must be an integer, got 1.5"),
        (None, TypeError, "seed must be an integer, got None"),
        ("0", TypeError, "seed must be an integer, got '0'"),
        (-1, ValueError, "seed must be >= 0, got -1"),
        (2**32, ValueError, "seed must be <= 4294967295, got 4294967296"),
    ],
)
def test_split_db_2to1_seed_errors(seed, err, match):
    D, L = np.zeros((2, 9)), np.arange(9) % 3
    with pytest.raises(err, match=match):
        split_db_2to1(D, L, seed=seed)


def test_split_db_2to1_needs_two_samples():
    # one sample used to give an empty training set
    with pytest.raises(ValueError, match=r"D has 1 samples \(columns\), shape \(2, 1\), at least"):
        split_db_2to1(np.zeros((2, 1)), np.zeros(1, dtype=int))
    (DTR, _), (DVAL, _) = split_db_2to1(np.zeros((2, 2)), np.array([0, 1]))
    assert DTR.shape == DVAL.shape == (2, 1)


def test_fold_generators_validate_when_called():
    # errors are raised by the call itself, not at the first iteration of the folds
    with pytest.raises(TypeError, match="K must be an integer, got 2.5"):
        kfold_indices(10, 2.5)
    with pytest.raises(ValueError, match="K must be <= 3, got 5"):
        kfold_shuffled_indices(3, 5, np.random.default_rng(0))
    with pytest.raises(TypeError, match="rng must be a numpy.random.Generator"):
        kfold_shuffled_indices(10, 2, 0)
    with pytest.raises(ValueError, match="N must be >= 2, got 1"):
        leave_one_out_indices(1)
    with pytest.raises(TypeError, match="N must be an integer, got 4.0"):
        leave_one_out_indices(4.0)


def test_fold_generators_unchanged_by_eager_validation():
    # the shuffled folds still draw their permutation at the first iteration
    g1, g2 = np.random.default_rng(5), np.random.default_rng(5)
    folds = kfold_shuffled_indices(10, 3, g1)
    assert g1.bit_generator.state == g2.bit_generator.state
    perm = g2.permutation(10)
    assert [va.tolist() for _, va in folds] == [
        sorted(f.tolist()) for f in np.array_split(perm, 3)
    ]


def test_center_and_znorm_overflow():
    D = np.array([[1e308, 1e308, -1e308], [0.0, 1.0, 2.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=r"computing the mean of D overflows float64.*1e\+308"):
            fit_center(D)
        with pytest.raises(ValueError, match="mean or standard deviation of D overflows"):
            fit_znorm(D)


# -- transposed data without labels --------------------------------------------------------------


def test_unlabelled_fits_warn_on_fewer_samples_than_features():
    D = np.random.default_rng(0).normal(size=(4, 30))  # 4 features, 30 samples
    for fit in (fit_center, fit_znorm):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # the right orientation: no warning
            fit(D)
        with pytest.warns(UserWarning, match=r"D has shape \(30, 4\), fewer samples.*pass D\.T"):
            model_T = fit(D.T)
        assert model_T.mu.shape == (30, 1)  # the (wrong) fit is still returned
    with pytest.warns(UserWarning, match=r"X has shape \(5, 2\), fewer samples"):
        check_data(np.zeros((5, 2)), "X", unlabelled=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_data(np.zeros((5, 2)), "X")  # only fits without labels ask for the warning
        check_data(np.zeros((3, 3)), "X", unlabelled=True)  # square: nothing to tell


def test_warn_if_transposed_points_at_the_callers_line():
    with pytest.warns(UserWarning, match="fewer samples") as rec:
        fit_znorm(np.ones((3, 2)) * [[1.0, 2.0]])
    assert rec[0].filename == __file__  # not a line inside mlpr
    with pytest.warns(UserWarning, match=r"Z has shape \(3, 1\)") as rec:
        warn_if_transposed(np.zeros((3, 1)), "Z")
    assert rec[0].filename == __file__


def test_transform_names_normalisation_parameters_fitted_on_transposed_data():
    D = np.random.default_rng(1).normal(size=(3, 40))
    with pytest.warns(UserWarning, match="fewer samples"):
        wrong = fit_center(D.T)  # 40 "features"
    # D (3, 40) is the usual wide (D, N) shape: the parameters are the transposed ones
    with pytest.raises(ValueError, match=r"\(mu, sigma\) look transposed, estimated from an "
                                         r"\(N, D\) matrix"):
        wrong.transform(D)
    # a tall matrix with as many columns as features is still taken for a transposed D
    with pytest.raises(ValueError, match=r"did you mean D\.T\?"):
        fit_center(D).transform(D.T)


# -- models are values ---------------------------------------------------------------------------


def test_standardizer_compares_and_hashes_by_value():
    D = np.random.default_rng(2).normal(size=(3, 20))
    a, b = fit_znorm(D), fit_znorm(D.copy())
    assert a == b and hash(a) == hash(b)
    assert a is not b
    assert {a: "z"}[b] == "z"  # usable as a dict key
    c = fit_znorm(D + 1.0)
    assert a != c
    assert fit_center(D) != a  # same mu, different sigma
    assert Standardizer(mu=np.zeros((2, 1)), sigma=np.ones((2, 1))) == Standardizer(
        mu=np.array([[-0.0], [0.0]]), sigma=np.ones((2, 1)))
    assert hash(Standardizer(mu=np.zeros((2, 1)), sigma=np.ones((2, 1)))) == hash(
        Standardizer(mu=np.array([[-0.0], [0.0]]), sigma=np.ones((2, 1))))
    with pytest.raises(ValueError, match="read-only"):
        a.mu[0, 0] = 5.0


def test_model_freezes_arrays_inside_tuple_fields():
    @model
    class Tables:
        pi: tuple

    own = [np.ones((2, 2)), np.zeros(3)]
    t = Tables(pi=tuple(own))
    with pytest.raises(ValueError, match="read-only"):
        t.pi[0][0, 0] = 3.0
    assert own[0].flags.writeable  # the caller's own arrays are left alone
    assert Tables(pi=(np.ones((2, 2)), np.zeros(3))) == Tables(pi=(np.ones((2, 2)), np.zeros(3)))


# -- the shared validators ------------------------------------------------------------------------


def test_check_array_converts_and_refuses_non_numeric():
    from mlpr._validation import check_array

    a = check_array([[True, False]], "x")
    assert a.dtype == np.float64 and a.tolist() == [[1.0, 0.0]]
    for bad in ("abc", np.array(["a"]), np.array([1j]), [[1, 2], [3]]):
        with pytest.raises(TypeError, match="x must be"):
            check_array(bad, "x")


def test_check_finite_names_the_first_bad_index():
    from mlpr._validation import check_finite

    a = np.array([[1.0, 2.0], [np.inf, np.nan]])
    with pytest.raises(ValueError, match=r"w contains NaN or infinite values.*\(1, 0\)"):
        check_finite(a, "w")
    assert check_finite(np.zeros(3), "w") is not None


def test_check_finite_statistic_and_check_finite_result():
    from mlpr._validation import check_finite_result, check_finite_statistic

    X = np.array([[1e300, -1e300]])
    with np.errstate(over="ignore"):
        with pytest.raises(ValueError, match=r"computing the sum of X overflows float64.*1e\+300"):
            check_finite_statistic(X * 1e10, X, "X", "the sum")
    assert check_finite_statistic(1.0, X, "X", "the sum") == 1.0
    # a non-finite result is explained by the data when they hold NaN or inf ...
    Xn = np.array([[0.0, np.nan]])
    with pytest.raises(ValueError, match=r"X contains NaN or infinite values \(first at row 0, "
                                         r"column 1\)"):
        check_finite_result(np.array([0.0, np.nan]), Xn, "X")
    # ... by the given reason for NaN from finite data; -inf from finite data is a value
    with pytest.raises(ValueError, match="the density is NaN for finite X: too singular"):
        check_finite_result(np.array([np.nan]), np.zeros((1, 1)), "X", what="the density",
                            nan_reason="too singular")
    out = np.array([-np.inf, 0.0])
    assert check_finite_result(out, np.zeros((1, 2)), "X") is out


@pytest.mark.parametrize("order", ["C", "F"])
def test_centred_blocks_cover_every_column_once(order):
    from mlpr.utils import block_width, centred_blocks

    X = np.asarray(np.arange(2 * 23, dtype=float).reshape(2, 23), order=order)
    mu = np.array([[1.0], [2.0]])
    seen = np.full(X.shape, np.nan)
    for sl, Z in centred_blocks(X, mu, max_cols=5):
        assert Z.shape[1] <= 5 and Z.flags.c_contiguous == (order == "C")
        seen[:, sl] = Z
    np.testing.assert_array_equal(seen, X - mu)
    assert block_width(2, 23, max_cols=5) == 5 and block_width(784, 3) == 3
    assert block_width(10, 10**6, max_bytes=800) == 10  # 800 bytes: 10 columns of 10 floats


def test_check_labels_minus_one_plus_one_hint_and_empty():
    with pytest.raises(ValueError, match=r"-1/\+1 labels.*\(L \+ 1\) // 2"):
        check_labels([-1, 1, 1, -1])
    with pytest.raises(ValueError, match="negative value -2") as err:
        check_labels([-2, 1])
    assert "-1/+1" not in str(err.value)
    assert check_labels([]).size == 0  # allowed by default (e.g. an empty sample of codes)
    with pytest.raises(ValueError, match="L is empty"):
        check_labels([], allow_empty=False)


def test_check_binary_labels():
    from mlpr._validation import check_binary_labels

    assert check_binary_labels([0, 1, 1]).tolist() == [0, 1, 1]
    with pytest.raises(ValueError, match="L holds label 2 but the SVM is binary"):
        check_binary_labels([0, 1, 2], who="the SVM")
    with pytest.raises(ValueError, match="L has no sample of class 1"):
        check_binary_labels([0, 0])
    assert check_binary_labels([0, 0], both=False).tolist() == [0, 0]
    with pytest.raises(ValueError, match="L is empty"):
        check_binary_labels([])
    with pytest.raises(ValueError, match="L has 2 labels but the data have 3 samples"):
        check_binary_labels([0, 1], 3)
    with pytest.raises(ValueError, match=r"\(L \+ 1\) // 2"):
        check_binary_labels([-1, 1])


def test_check_real_lambda_and_pseudo_count():
    from mlpr._validation import check_lambda, check_pseudo_count, check_real

    assert check_real(2, "C", low=0.0, strict=True) == 2.0
    with pytest.raises(ValueError, match=r"C must be finite and > 0"):
        check_real(0.0, "C", low=0.0, strict=True)
    with pytest.raises(ValueError, match=r"C must be finite"):
        check_real(np.inf, "C")
    with pytest.raises(TypeError, match=r"C must be a real number \(a cost\), got True"):
        check_real(True, "C", what="a cost")
    assert check_lambda(0) == 0.0
    with pytest.raises(ValueError, match=r"l \(lambda.*>= 0, got -1.0"):
        check_lambda(-1.0)
    with pytest.raises(TypeError, match=r"l \(lambda"):
        check_lambda("1e-3")
    with pytest.raises(ValueError, match=r"eps.*>= 0"):
        check_pseudo_count(-0.5, "eps")


def test_check_prior():
    from mlpr._validation import check_prior

    assert check_prior(0.1) == 0.1 and isinstance(check_prior(np.float32(0.5)), float)
    for bad in (0.0, 1.0, np.nan, 1.5):
        with pytest.raises(ValueError, match=r"prior.*open interval \(0, 1\)"):
            check_prior(bad)
    with pytest.raises(TypeError, match="prior"):
        check_prior(None)
    assert check_prior(None, allow_none=True) is None
    np.testing.assert_array_equal(check_prior([0.1, 0.5], allow_array=True), [0.1, 0.5])
    with pytest.raises(ValueError, match=r"open interval"):
        check_prior([0.1, 1.0], allow_array=True)
    with pytest.raises(ValueError, match=r"1-D array of priors"):
        check_prior(np.full((2, 2), 0.5), allow_array=True)


def test_check_class_priors_one_rule():
    from mlpr._validation import check_class_priors

    np.testing.assert_array_equal(check_class_priors([0.0, 0.25, 0.75], 3), [0, 0.25, 0.75])
    with pytest.raises(TypeError, match="priors is required"):
        check_class_priors(None, 2)
    with pytest.raises(ValueError, match="priors must sum to 1"):
        check_class_priors([0.5, 0.6], 2)
    with pytest.raises(ValueError, match="non-negative"):
        check_class_priors([-0.5, 1.5], 2)
    with pytest.raises(ValueError, match=r"priors has length 2.*K = 3"):
        check_class_priors([0.5, 0.5], 3)
    with pytest.raises(ValueError, match=r"S has shape \(3, 2\).*did you mean S\.T"):
        check_class_priors([0.5, 0.5], 3, n_samples=2)
    with pytest.raises(ValueError, match=r"priors contains NaN"):
        check_class_priors([np.nan, 1.0], 2)


def test_check_class_scores_and_choice():
    from mlpr._validation import check_choice, check_class_scores

    S = check_class_scores([[0.0, -np.inf]])
    assert S.shape == (1, 2)
    with pytest.raises(ValueError, match=r"S must be a \(K, N\) matrix.*vcol"):
        check_class_scores(np.zeros(3))
    with pytest.raises(ValueError, match=r"NaN or \+inf"):
        check_class_scores([[np.inf]])
    assert check_choice("svd", "method", ("eigh", "svd")) == "svd"
    for bad in ("SVD", None):
        with pytest.raises(ValueError, match=r"method must be one of 'eigh', 'svd'"):
            check_choice(bad, "method", ("eigh", "svd"))


def test_probability_and_count_validators():
    from mlpr._validation import (
        check_binary_values,
        check_counts,
        check_probabilities,
        check_probability_vector,
    )

    assert check_probabilities([0.0, 1.0], "p").tolist() == [0.0, 1.0]
    with pytest.raises(ValueError, match=r"p must hold probabilities in \[0, 1\], got nan"):
        check_probabilities([0.5, np.nan], "p")
    assert check_probability_vector([[0.25], [0.75]]).shape == (2,)
    with pytest.raises(ValueError, match="pi must sum to 1"):
        check_probability_vector([0.5, 0.6])
    with pytest.raises(ValueError, match=r"pi must be a non-empty vector"):
        check_probability_vector(np.eye(2) / 2)
    assert check_binary_values([True, False], "x").tolist() == [1.0, 0.0]
    with pytest.raises(ValueError, match="x must hold binary outcomes 0 or 1, got 2.0"):
        check_binary_values([0, 2], "x")
    assert check_counts([0, 3.0], "k").tolist() == [0.0, 3.0]
    for bad in (-1, 1.5, np.inf):
        with pytest.raises(ValueError, match="k must hold non-negative integer counts"):
            check_counts([bad], "k")


def test_gaussian_parameter_validators():
    from mlpr._validation import check_cholesky_factor, check_mean_cov, check_per_feature

    mu, C = check_mean_cov([1.0, 2.0], np.eye(2))
    assert mu.shape == (2, 1) and C.shape == (2, 2)
    mu, C = check_mean_cov(0.5, 2.0)  # a 1-D Gaussian
    assert mu.shape == (1, 1) and C.shape == (1, 1)
    with pytest.raises(ValueError, match=r"C is a scalar.*np\.eye\(2\)"):
        check_mean_cov([1.0, 2.0], 2.0)
    with pytest.raises(ValueError, match=r"mu has shape \(3,\), expected \(2,\)"):
        check_mean_cov(np.zeros(3), np.eye(2))
    L = np.linalg.cholesky(np.array([[2.0, 1.0], [1.0, 2.0]]))
    assert check_cholesky_factor(L) is not None
    with pytest.raises(ValueError, match="above the diagonal.*cholesky_factor"):
        check_cholesky_factor(L.T)
    with pytest.raises(ValueError, match="positive diagonal"):
        check_cholesky_factor(-L)
    with pytest.raises(ValueError, match=r"square \(D, D\)"):
        check_cholesky_factor(np.ones((2, 3)))
    with pytest.raises(ValueError, match=r"mu has shape \(3,\), one value per feature.*vcol"):
        check_per_feature(np.zeros(3), np.zeros((3, 3)), "mu", "x")
    check_per_feature(np.zeros((3, 1)), np.zeros((3, 3)), "mu", "x")  # a column broadcasts


def test_convergence_warning_is_a_user_warning():
    from mlpr.utils import ConvergenceWarning

    assert issubclass(ConvergenceWarning, UserWarning)
    with pytest.warns(ConvergenceWarning, match="stopped"):
        warnings.warn("solver stopped at max_iter", ConvergenceWarning, stacklevel=2)


def test_check_scale_refuses_data_whose_products_overflow():
    from mlpr._validation import check_scale

    X = np.array([[1e100, -2.0], [3.0, 4.0]])
    assert check_scale(X) is X
    with pytest.raises(ValueError, match=r"D has values up to 1e\+200.*overflow float64"):
        check_scale(X * 1e100)
    with pytest.raises(ValueError, match=r"Z has values up to 1e\+154"):
        check_scale(np.array([[1e154]]), "Z", n_terms=1000)  # 1e308 * 1000 overflows
    assert check_scale(np.zeros((3, 0))).shape == (3, 0)


def test_models_survive_a_pickle_round_trip_read_only_equal_and_with_their_hash():
    import copy
    import dataclasses
    import pickle

    from mlpr.datasets import load_iris
    from mlpr.generative import train_mvg
    from mlpr.gmm import train_gmm_lbg
    from mlpr.svm import rbf_kernel, train_svm_kernel, train_svm_linear

    D, L = load_iris()
    binary = L != 0
    Db, Lb = D[:, binary], (L[binary] == 1).astype(int)
    models = [train_svm_linear(Db, Lb, 1.0), train_svm_kernel(Db, Lb, 1.0, rbf_kernel(1.0)),
              train_gmm_lbg(D, 2)[-1], train_mvg(D, L)]
    for m in models:
        for back in (pickle.loads(pickle.dumps(m)), copy.deepcopy(m)):
            assert type(back) is type(m) and back == m and hash(back) == hash(m)
            arrays = [v for v in vars(back).values() if isinstance(v, np.ndarray)]
            assert arrays and not any(a.flags.writeable for a in arrays)
            with pytest.raises(ValueError, match="read-only"):
                arrays[0][...] = 0.0
    # a NaN field equals itself, and keeps its hash across a round trip
    nan_model = dataclasses.replace(models[0], duality_gap=float("nan"))
    back = pickle.loads(pickle.dumps(nan_model))
    assert back == nan_model and hash(back) == hash(nan_model)


# -- the module's public surface -----------------------------------------------------------------


@pytest.mark.slow
def test_utils_exports_the_chapters_helpers_and_the_validators_live_in_validation():
    import ast
    from pathlib import Path

    import mlpr._validation as validation
    import mlpr.utils as utils

    assert set(utils.__all__) == {
        "vcol", "vrow", "ConvergenceWarning", "split_db_2to1", "kfold_indices",
        "kfold_shuffled_indices", "leave_one_out_indices", "model", "Standardizer", "fit_center",
        "fit_znorm", "centred_blocks", "block_width"}
    for name in utils.__all__:  # defined in utils, not re-exported from elsewhere
        assert getattr(utils, name).__module__ == "mlpr.utils", name
    validators = {n for n in vars(validation) if n.startswith("check_")}
    assert len(validators) >= 30 and "warn_if_transposed" in vars(validation)
    # nothing in the repository imports from mlpr.utils a name that utils does not export
    repo = Path(utils.__file__).resolve().parents[1]
    for folder in ("mlpr", "lectures", "report", "tests", "benchmarks"):
        for path in (repo / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and (
                        node.module == "mlpr.utils"
                        or (node.module == "utils" and node.level == 1
                            and path.parent.name == "mlpr")):
                    names = {a.name for a in node.names}
                    assert names <= set(utils.__all__), (path, names - set(utils.__all__))
