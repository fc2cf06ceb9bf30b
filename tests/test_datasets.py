"""Tests of mlpr.datasets: checksums, iris, MNIST, IDX parsing, binary tasks, cache."""

import gzip
import hashlib
import shutil
import struct
import warnings

import numpy as np
import pytest

from mlpr import datasets as ds

TRAIN_COUNTS = [5923, 6742, 5958, 6131, 5842, 5421, 5918, 6265, 5851, 5949]
TEST_COUNTS = [980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009]
TRAIN_FIRST = [5, 0, 4, 1, 9, 2, 1, 3, 1, 4]
TEST_FIRST = [7, 2, 1, 0, 4, 1, 4, 9, 5, 9]


@pytest.fixture(scope="module")
def mnist_train():
    return ds.load_mnist("train")


@pytest.fixture(scope="module")
def mnist_test():
    return ds.load_mnist("test")


@pytest.fixture
def data_copy(tmp_path, monkeypatch):
    """A private data folder (iris and the MNIST test split) selected through MLPR_DATA_DIR."""
    src = ds.DATA_DIR
    (tmp_path / "mnist").mkdir()
    for key in ["iris.csv", *(k for k in ds.CHECKSUMS if k.startswith("mnist/t10k"))]:
        shutil.copyfile(src / key, tmp_path / key)
    monkeypatch.setenv("MLPR_DATA_DIR", str(tmp_path))
    return tmp_path


def _flip_byte(path, offset):
    data = bytearray(path.read_bytes())
    data[offset] ^= 0xFF
    path.write_bytes(bytes(data))


# ------------------------------------------------------------------------------------------------
# checksums


def test_checksums_of_committed_files_match_table():
    committed = {"iris.csv"} | {f"mnist/{p.name}" for p in (ds.DATA_DIR / "mnist").glob("*.gz")}
    assert committed == set(ds.CHECKSUMS)
    for key, expected in ds.CHECKSUMS.items():
        assert hashlib.sha256((ds.DATA_DIR / key).read_bytes()).hexdigest() == expected
        assert ds.verify_checksum(key) == expected
        assert ds.verify_checksum(ds.DATA_DIR / key) == expected


def test_checksum_mismatch_names_file_hashes_and_remedy(data_copy):
    path = data_copy / "iris.csv"
    _flip_byte(path, 10)
    got = hashlib.sha256(path.read_bytes()).hexdigest()
    with pytest.raises(ValueError, match=r"checksum mismatch for data file .*iris\.csv") as info:
        ds.load_iris()
    msg = str(info.value)
    assert ds.CHECKSUMS["iris.csv"] in msg and got in msg
    assert "git checkout -- datasets/iris.csv" in msg and "MLPR_DATA_DIR" in msg


def test_checksum_mismatch_through_data_dir_attribute(data_copy, monkeypatch):
    monkeypatch.delenv("MLPR_DATA_DIR")
    monkeypatch.setattr(ds, "DATA_DIR", data_copy)
    ds.load_iris()  # the intact copy is accepted
    _flip_byte(data_copy / "mnist/t10k-labels-idx1-ubyte.gz", 100)
    with pytest.raises(ValueError, match=r"t10k-labels-idx1-ubyte\.gz: expected SHA-256") as info:
        ds.load_mnist("test")
    assert "convert_mnist.py" in str(info.value)


def test_missing_file(data_copy):
    (data_copy / "iris.csv").unlink()
    with pytest.raises(FileNotFoundError, match=r"iris\.csv is missing.*git checkout"):
        ds.load_iris()
    (data_copy / "mnist/t10k-images-idx3-ubyte.gz").unlink()
    with pytest.raises(FileNotFoundError, match=r"t10k-images-idx3-ubyte\.gz is missing"):
        ds.load_mnist("test")


def test_verify_checksum_other_files(tmp_path):
    path = tmp_path / "x.bin"
    path.write_bytes(b"abc")
    sha = hashlib.sha256(b"abc").hexdigest()
    assert ds.verify_checksum(path, expected=sha.upper()) == sha
    with pytest.raises(ValueError, match=r"x\.bin: expected SHA-256 0{64}"):
        ds.verify_checksum(path, expected="0" * 64)
    with pytest.raises(ValueError, match="no checksum is recorded"):
        ds.verify_checksum(path)
    with pytest.raises(FileNotFoundError, match=r"nothing\.bin is missing"):
        ds.verify_checksum(tmp_path / "nothing.bin", expected=sha)


# ------------------------------------------------------------------------------------------------
# iris


def test_iris_file_has_corrected_rows():
    lines = (ds.DATA_DIR / "iris.csv").read_text().splitlines()
    assert len(lines) == 150
    assert lines[0] == "5.1,3.5,1.4,0.2,Iris-setosa"
    # the UCI errata: samples 35 and 38 (1-based)
    assert lines[34] == "4.9,3.1,1.5,0.2,Iris-setosa"
    assert lines[37] == "4.9,3.6,1.4,0.1,Iris-setosa"


def test_load_iris():
    D, L = ds.load_iris()
    assert D.shape == (4, 150) and D.dtype == np.float64
    assert L.shape == (150,) and L.dtype == np.int64
    assert np.bincount(L).tolist() == [50, 50, 50]
    assert np.all(L[:50] == 0) and np.all(L[50:100] == 1) and np.all(L[100:] == 2)
    # the dataset statistics printed by the course's lab 2 solution (the reference column of
    # lectures/02_iris_exploration/README.md, checked by that lecture's run.py)
    mu = D.mean(axis=1)
    np.testing.assert_allclose(mu, [5.84333333, 3.05733333, 3.758, 1.19933333], atol=1e-8)
    C = (D - mu[:, None]) @ (D - mu[:, None]).T / D.shape[1]
    np.testing.assert_allclose(
        np.diag(C), [0.68112222, 0.18871289, 3.09550267, 0.57713289], atol=1e-7
    )
    assert len(ds.IRIS_FEATURES) == 4 and "(cm)" in ds.IRIS_FEATURES[0]
    assert ds.IRIS_CLASSES == ("Iris-setosa", "Iris-versicolor", "Iris-virginica")


def test_load_iris_binary():
    D, L = ds.load_iris()
    DB, LB = ds.load_iris_binary()
    assert DB.shape == (4, 100) and LB.dtype == np.int64
    assert np.bincount(LB).tolist() == [50, 50]
    np.testing.assert_array_equal(DB[:, 0], D[:, 50])  # the first versicolor sample
    np.testing.assert_array_equal(DB, D[:, 50:])
    np.testing.assert_array_equal(LB, (L[50:] == 1).astype(int))


# ------------------------------------------------------------------------------------------------
# MNIST


@pytest.mark.slow
def test_mnist_train(mnist_train):
    D, L = mnist_train
    assert D.shape == (784, 60000) and D.dtype == np.float64
    assert L.shape == (60000,) and L.dtype == np.int64
    assert D.flags.f_contiguous  # each image (column) is contiguous
    assert D.min() == 0.0 and D.max() == 1.0
    assert np.bincount(L).tolist() == TRAIN_COUNTS
    assert L[:10].tolist() == TRAIN_FIRST
    # the uint8 pixels, decoded by the public reader, (60000, 28, 28)
    X = ds.read_idx(ds.DATA_DIR / "mnist/train-images-idx3-ubyte.gz").reshape(60000, 784)
    for start in range(0, 60000, 10000):  # in chunks, to keep the temporaries small
        chunk = D[:, start : start + 10000]
        # np.array_equal: assert_array_equal is ten times slower on arrays this size
        assert np.array_equal(np.rint(chunk * 255.0) / 255.0, chunk)  # multiples of 1/255
        expected = X[start : start + 10000].astype(np.float64) / 255.0
        assert np.array_equal(chunk, expected.T)  # exactly pixel / 255
    assert ds.MNIST_SHAPE == (28, 28)


def test_mnist_test(mnist_test):
    D, L = mnist_test
    assert D.shape == (784, 10000) and D.dtype == np.float64 and L.dtype == np.int64
    assert D.min() == 0.0 and D.max() == 1.0
    assert np.bincount(L).tolist() == TEST_COUNTS
    assert L[:10].tolist() == TEST_FIRST
    X = ds.read_idx(ds.DATA_DIR / "mnist/t10k-images-idx3-ubyte.gz")
    assert X.shape == (10000, 28, 28)
    expected = X.reshape(10000, 784).astype(np.float64) / 255.0
    np.testing.assert_array_equal(D, expected.T)
    np.testing.assert_array_equal(D[:, 0].reshape(ds.MNIST_SHAPE), X[0] / 255.0)


def test_invalid_split():
    with pytest.raises(ValueError, match=r"split must be one of 'train', 'test', got 'valid'"):
        ds.load_mnist("valid")
    with pytest.raises(ValueError, match="split must be one of"):
        ds.load_mnist_pair(1, 7, split="training")


def test_mnist_pair(mnist_test):
    D, L = mnist_test
    DP, LP = ds.load_mnist_pair(3, 8, split="test")
    DB, LB = ds.binary_task(D, L, 3, 8)
    np.testing.assert_array_equal(DP, DB)
    np.testing.assert_array_equal(LP, LB)
    assert DP.shape == (784, TEST_COUNTS[3] + TEST_COUNTS[8])
    assert np.bincount(LP).tolist() == [TEST_COUNTS[8], TEST_COUNTS[3]]
    with pytest.raises(ValueError, match="does not occur"):
        ds.load_mnist_pair(3, 10, split="test")


# ------------------------------------------------------------------------------------------------
# IDX


def _idx(a):
    return bytes([0, 0, 8, a.ndim]) + struct.pack(f">{a.ndim}i", *a.shape) + a.tobytes()


@pytest.mark.parametrize("compress", [False, True])
def test_read_idx_round_trip(tmp_path, compress):
    images = np.arange(24, dtype=np.uint8).reshape(2, 3, 4)
    labels = np.array([3, 1, 4, 1, 5], dtype=np.uint8)
    for name, a in [("images", images), ("labels", labels)]:
        payload = _idx(a)
        path = tmp_path / name
        path.write_bytes(gzip.compress(payload) if compress else payload)
        b = ds.read_idx(path)
        assert b.dtype == np.uint8 and b.shape == a.shape
        np.testing.assert_array_equal(b, a)
        b[0] = 7  # the result is an ordinary writable array


def test_read_idx_errors(tmp_path):
    a = np.arange(12, dtype=np.uint8).reshape(3, 4)
    good = _idx(a)
    cases = [
        (b"\x01\x02" + good[2:], "bad magic number 0x01020802"),
        (b"\x00\x00\x0d" + good[3:], "type code 0x0d is not supported"),
        (b"\x00\x00\x08\x00", "0 dimensions"),
        (good[:-1], r"truncated: its header declares dims \(3, 4\), i.e. 12 bytes of data, but"),
        (good[:6], "truncated: it ends after 2 of the 8 bytes"),
        (good + b"\x00", "trailing bytes"),
    ]
    for i, (data, message) in enumerate(cases):
        path = tmp_path / f"case{i}"
        path.write_bytes(data)
        with pytest.raises(ValueError, match=message):
            ds.read_idx(path)
    path = tmp_path / "cut.gz"
    path.write_bytes(gzip.compress(good)[:-12])
    with pytest.raises(ValueError, match=r"cut\.gz is truncated or corrupt"):
        ds.read_idx(path)
    with pytest.raises(FileNotFoundError):
        ds.read_idx(tmp_path / "missing")


# ------------------------------------------------------------------------------------------------
# binary tasks and subsampling


def test_binary_task():
    D = np.arange(12.0).reshape(2, 6)
    L = np.array([0, 2, 1, 2, 0, 1])
    DB, LB = ds.binary_task(D, L, 2, 0)
    np.testing.assert_array_equal(DB, D[:, [0, 1, 3, 4]])
    np.testing.assert_array_equal(LB, [0, 1, 1, 0])
    assert LB.dtype == np.int64


def test_binary_task_errors():
    D, L = ds.load_iris()
    with pytest.raises(ValueError, match="two different classes, got a = b = 1"):
        ds.binary_task(D, L, 1, 1)
    with pytest.raises(ValueError, match=r"class b = 5 does not occur in L \(classes present"):
        ds.binary_task(D, L, 1, 5)
    with pytest.raises(ValueError, match=r"did you mean D\.T\?"):
        ds.binary_task(D.T, L, 1, 2)
    with pytest.raises(TypeError, match="a must be an integer"):
        ds.binary_task(D, L, 1.5, 2)


def test_subsample():
    D, L = ds.load_iris()
    DS, LS = ds.subsample(D, L, 30, np.random.default_rng(0))
    DS2, LS2 = ds.subsample(D, L, 30, np.random.default_rng(0))
    np.testing.assert_array_equal(DS, DS2)
    np.testing.assert_array_equal(LS, LS2)
    assert DS.shape == (4, 30) and LS.shape == (30,)
    idx = np.sort(np.random.default_rng(0).permutation(150)[:30])
    np.testing.assert_array_equal(DS, D[:, idx])
    np.testing.assert_array_equal(LS, L[idx])
    assert np.all(np.diff(idx) > 0)  # original order kept
    with pytest.raises(ValueError, match="n must be <= 150"):
        ds.subsample(D, L, 151, np.random.default_rng(0))
    with pytest.raises(TypeError, match="numpy.random.Generator"):
        ds.subsample(D, L, 10, 0)


def test_load_mnist_subsample_is_subsample_of_the_split(mnist_test):
    """``load_mnist(split, n, rng)`` (the lectures' quick mode) is `subsample` of the whole split,
    bit for bit and in the same memory layout (the column-contiguous transpose), and leaves the
    generator where `subsample` leaves it."""
    D, L = mnist_test
    r1, r2 = np.random.default_rng(1), np.random.default_rng(1)
    DS, LS = ds.load_mnist("test", 1000, r1)
    DR, LR = ds.subsample(D, L, 1000, r2)
    np.testing.assert_array_equal(DS, DR)
    np.testing.assert_array_equal(LS, LR)
    assert DS.dtype == np.float64 and LS.dtype == np.int64 and DS.flags.f_contiguous
    assert r1.random() == r2.random()
    with pytest.raises(TypeError, match="n and rng go together"):
        ds.load_mnist("test", 1000)
    with pytest.raises(TypeError, match="n and rng go together"):
        ds.load_mnist("test", rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="n must be <= 10000"):
        ds.load_mnist("test", 10001, np.random.default_rng(0))
    with pytest.raises(TypeError, match="numpy.random.Generator"):
        ds.load_mnist("test", 10, 0)


# ------------------------------------------------------------------------------------------------
# cache


def _cache_files(root):
    return sorted((root / "mnist/.cache").glob("*.npy"))


@pytest.mark.slow
def test_cache_round_trip_and_repair(data_copy):
    stale = data_copy / "mnist/.cache/t10k-images-idx3-ubyte.0000000000000000.npy"
    stale.parent.mkdir()
    stale.write_bytes(b"old")
    D1, L1 = ds.load_mnist("test")  # decodes and writes the cache
    files = _cache_files(data_copy)
    assert [f.name.split(".")[0] for f in files] == [
        "t10k-images-idx3-ubyte",
        "t10k-labels-idx1-ubyte",
    ]
    assert not stale.exists()  # cache of an older source removed
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        D2, L2 = ds.load_mnist("test")  # from the cache
    np.testing.assert_array_equal(D1, D2)
    np.testing.assert_array_equal(L1, L2)

    images = next(f for f in files if f.name.startswith("t10k-images"))
    _flip_byte(images, images.stat().st_size - 100)  # a pixel of the last image
    with pytest.warns(RuntimeWarning, match=r"t10k-images-idx3-ubyte.*npy .*is corrupt"):
        D3, _ = ds.load_mnist("test")
    np.testing.assert_array_equal(D1, D3)

    images.write_bytes(images.read_bytes()[:1000])  # truncated
    with pytest.warns(RuntimeWarning, match="corrupt; rebuilding"):
        D4, _ = ds.load_mnist("test")
    np.testing.assert_array_equal(D1, D4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ds.load_mnist("test")  # repaired


def test_source_corruption_detected_despite_cache(data_copy):
    ds.load_mnist("test")
    assert _cache_files(data_copy)
    _flip_byte(data_copy / "mnist/t10k-images-idx3-ubyte.gz", 5000)
    with pytest.raises(ValueError, match=r"checksum mismatch .*t10k-images-idx3-ubyte\.gz"):
        ds.load_mnist("test")


def test_unwritable_cache_folder(data_copy, mnist_test):
    (data_copy / "mnist/.cache").write_bytes(b"")  # a file where the folder should be
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        D, L = ds.load_mnist("test")
    np.testing.assert_array_equal(D, mnist_test[0])
    np.testing.assert_array_equal(L, mnist_test[1])


# ------------------------------------------------------------------------------------------------
# bad arguments


def test_verify_checksum_bad_expected(tmp_path):
    path = tmp_path / "x.bin"
    path.write_bytes(b"abc")
    digest = hashlib.sha256(b"abc").hexdigest()
    with pytest.raises(TypeError, match="expected must be a SHA-256 as a str .*, got int"):
        ds.verify_checksum(path, 5)  # used to be an AttributeError
    with pytest.raises(TypeError, match="got bytes"):
        ds.verify_checksum(path, digest.encode())
    # a malformed digest is not reported as a corrupt file
    for bad in ("zz", digest[:-1], digest + "0"):
        with pytest.raises(ValueError, match=r"expected must be a SHA-256 as 64 hexadecimal"):
            ds.verify_checksum(path, bad)
    assert ds.verify_checksum(path, f" {digest.upper()}\n") == digest


def test_path_arguments_must_be_paths(tmp_path):
    with pytest.raises(TypeError, match="path must be a str or pathlib.Path naming a file, got"):
        ds.verify_checksum(None)
    with pytest.raises(TypeError, match="path must be a str or pathlib.Path .*, got int"):
        ds.read_idx(3)


def test_directories_are_not_data_files(tmp_path):
    # verify_checksum used to call a directory "missing", read_idx raised IsADirectoryError
    with pytest.raises(ValueError, match=r"is a directory, not a data file"):
        ds.verify_checksum(tmp_path, "0" * 64)
    with pytest.raises(ValueError, match=r"is a directory, not an IDX file"):
        ds.read_idx(tmp_path)
