"""The chapter's helpers: shapes, splits, models as values and normalisation (notes ch. 1-2).

Every public function of mlpr takes data as a (D, N) matrix, one column per sample (`vcol` makes
a column, `vrow` a row), and labels as a 1-D integer array of length N with values 0..K-1. Here:
the course's 2/3 training / validation split (`split_db_2to1`), K-fold and leave-one-out index
generators, `model`, the decorator that makes every trained model a frozen value, centering and
z-normalisation (`fit_center`, `fit_znorm`, `Standardizer`), `ConvergenceWarning`, the warning of
every iterative solver, and `centred_blocks`, the one helper that walks large data in blocks of
columns. The validators of the data contract and of every hyperparameter live in the private
module ``mlpr._validation``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import numpy as np

from ._validation import check_data, check_data_labels, check_finite_statistic, check_int, check_rng

__all__ = [
    "vcol",
    "vrow",
    "ConvergenceWarning",
    "split_db_2to1",
    "kfold_indices",
    "kfold_shuffled_indices",
    "leave_one_out_indices",
    "model",
    "Standardizer",
    "fit_center",
    "fit_znorm",
    "centred_blocks",
    "block_width",
]


def vcol(x) -> np.ndarray:
    """Reshape a 1-D array of size n (or anything with n elements) into a column, shape (n, 1).

    Notes
    -----
    The course's helper (notes ch. 1-2: samples are columns).
    """
    x = np.asarray(x)
    return x.reshape((x.size, 1))


def vrow(x) -> np.ndarray:
    """Reshape a 1-D array of size n (or anything with n elements) into a row, shape (1, n).

    Notes
    -----
    The course's helper (notes ch. 1-2).
    """
    x = np.asarray(x)
    return x.reshape((1, x.size))


# ------------------------------------------------------------------------------------------------
# warnings


class ConvergenceWarning(UserWarning):
    """An iterative solver stopped before reaching its tolerance.

    Issued (``warnings.warn``) by the iterative learners (logistic regression, SVM, GMM EM) when
    they hit their iteration limit, or when no minimiser exists (e.g. separable data without
    regularisation), so that the result is returned but is not the optimum the notes describe.
    Silence it with ``warnings.simplefilter("ignore", ConvergenceWarning)``; turn it into an
    error with ``"error"``.
    """


# ------------------------------------------------------------------------------------------------
# blocks of columns


def centred_blocks(X: np.ndarray, mu: np.ndarray, max_bytes: int = 1 << 27,
                   max_cols: int = 1 << 14):
    """Yield ``(sl, X[:, sl] - mu)`` for consecutive blocks of columns of ``X`` (D, N).

    The one memory-blocking helper of mlpr, for passes over large data (a covariance, the
    Mahalanobis distances of a Gaussian, the scores of a diagonal Gaussian classifier) that
    would otherwise create (D, N) temporaries. Every block is written into one buffer
    allocated once, of at most ``max_bytes`` and ``max_cols`` columns (wide enough for BLAS to
    run at full speed, small enough for the centring and the product that follows to share
    the cache), laid out like ``X`` so that the copy is contiguous. A yielded block is
    overwritten by the next one: use it before asking for the next.

    Parameters
    ----------
    X : ndarray, shape (D, N)
        Validated float64 data.
    mu : ndarray, shape (D, 1)
        The centre subtracted from every column.
    """
    D, N = X.shape
    m = block_width(D, N, max_bytes, max_cols)
    order = "F" if X.flags.f_contiguous and not X.flags.c_contiguous else "C"
    buf = np.empty(D * m)
    for a in range(0, N, m):
        k = min(m, N - a)
        Z = buf[: D * k].reshape((D, k), order=order)  # a contiguous view of the buffer
        np.subtract(X[:, a : a + k], mu, out=Z)
        yield slice(a, a + k), Z


def block_width(D: int, N: int, max_bytes: int = 1 << 27, max_cols: int = 1 << 14) -> int:
    """Columns per block of `centred_blocks` for data of D features and N samples: at most
    ``max_cols`` and ``max_bytes`` of float64, at least 1, at most N."""
    return max(1, min(N, max_cols, max_bytes // (8 * max(D, 1))))



# ------------------------------------------------------------------------------------------------
# splits


def split_db_2to1(D, L, seed: int = 0):
    """Split a dataset into 2/3 training and 1/3 validation samples, as the course does.

    Parameters
    ----------
    D : ndarray, shape (D, N)
        N >= 2 samples.
    L : ndarray, shape (N,)
    seed : int
        Seed of numpy's legacy Mersenne-Twister generator, 0 <= seed < 2**32.

    Returns
    -------
    (DTR, LTR), (DVAL, LVAL)
        DTR has ``int(N * 2 / 3)`` columns, DVAL the remaining ones.

    Notes
    -----
    The course's training / validation split (labs of ch. 2 onwards).

    The permutation is ``numpy.random.RandomState(seed).permutation(N)``, the very permutation the
    course's ``numpy.random.seed(seed); numpy.random.permutation(N)`` produces, but numpy's global
    random state is left untouched. The first ``nTrain`` indices of the permutation are training.
    """
    D, L = check_data_labels(D, L, min_samples=2, require_all=False)
    seed = check_int(seed, "seed", low=0, high=2**32 - 1)  # None would give an unrepeatable split
    N = D.shape[1]
    nTrain = int(N * 2.0 / 3.0)
    idx = np.random.RandomState(seed).permutation(N)  # legacy RNG on purpose: the course's split
    idxTrain = idx[:nTrain]
    idxVal = idx[nTrain:]
    return (D[:, idxTrain], L[idxTrain]), (D[:, idxVal], L[idxVal])


def kfold_indices(N: int, K: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Yield ``(idx_train, idx_val)`` for the course's interleaved K folds.

    Fold i validates on samples ``i, i + K, i + 2K, ...`` (``numpy.arange(N)[i::K]``) and trains on
    the others. Every sample is validated exactly once. ``N`` and ``K`` are checked by the call
    itself, before the first fold.

    Notes
    -----
    The K-fold protocol of section 7.3 of the notes (out-of-fold scores).
    """
    N = check_int(N, "N", low=1)
    K = check_int(K, "K", low=2, high=N)
    return _kfold_indices(N, K)  # validated now, not at the first iteration


def _kfold_indices(N: int, K: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    idx = np.arange(N)
    for i in range(K):
        mask = np.zeros(N, dtype=bool)
        mask[i::K] = True
        yield idx[~mask], idx[mask]


def kfold_shuffled_indices(
    N: int, K: int, rng: np.random.Generator
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Yield ``(idx_train, idx_val)`` for K folds of a random permutation drawn from ``rng``.

    Fold sizes differ by at most one; each validation index set is sorted.

    Notes
    -----
    The K-fold protocol of section 7.3 of the notes, on shuffled samples.
    """
    N = check_int(N, "N", low=1)
    K = check_int(K, "K", low=2, high=N)
    return _kfold_shuffled_indices(N, K, check_rng(rng))


def _kfold_shuffled_indices(
    N: int, K: int, rng: np.random.Generator
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    perm = rng.permutation(N)  # drawn at the first iteration, as before
    for fold in np.array_split(perm, K):
        mask = np.zeros(N, dtype=bool)
        mask[fold] = True
        yield np.flatnonzero(~mask), np.flatnonzero(mask)


def leave_one_out_indices(N: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Yield ``(idx_train, idx_val)`` with ``idx_val = [i]`` for i = 0..N-1."""
    N = check_int(N, "N", low=2)
    return _leave_one_out_indices(N)


def _leave_one_out_indices(N: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    idx = np.arange(N)
    for i in range(N):
        yield np.delete(idx, i), idx[i : i + 1]


# ------------------------------------------------------------------------------------------------
# models


def model(cls):
    """Make ``cls`` a frozen model dataclass whose instances are values.

    Every trained model of mlpr is declared with ``@model``: a frozen dataclass whose fields are
    the learned parameters. Two models compare equal when they are of the same class and every
    field is exactly equal (arrays: same shape and the same numbers, ``np.array_equal``; other
    fields: ``==``), so ``train_mvg(D, L) == train_mvg(D, L)`` is True because learners are pure.
    ``hash(model)`` agrees with ``==`` (a NaN equals a NaN in the same field). Array fields, and
    arrays inside tuple fields, are stored as read-only views, so a model cannot be changed after
    training (the caller's own arrays stay writeable); a pickled model comes back the same way,
    read-only, equal to the original and with its hash.
    """
    user_post_init = cls.__dict__.get("__post_init__")

    def names(self):
        return [f.name for f in dataclasses.fields(self)]

    def __post_init__(self):
        for name in names(self):
            object.__setattr__(self, name, _frozen(getattr(self, name)))
        if user_post_init is not None:
            user_post_init(self)

    def __setstate__(self, state):  # pickle.load, copy.deepcopy: arrays read-only again
        for name, value in state.items():
            object.__setattr__(self, name, _frozen(value))

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return all(_field_equal(getattr(self, n), getattr(other, n)) for n in names(self))

    def __hash__(self):
        key = tuple(_field_key(getattr(self, n)) for n in names(self))
        return hash((type(self).__qualname__,) + key)

    cls.__post_init__ = __post_init__
    cls.__setstate__ = __setstate__
    cls.__eq__ = __eq__
    cls.__hash__ = __hash__
    return dataclasses.dataclass(frozen=True, eq=False)(cls)


def _read_only(a: np.ndarray) -> np.ndarray:
    """A read-only view of ``a`` (``a`` itself if it is already read-only)."""
    if not a.flags.writeable:
        return a
    view = a.view()
    view.flags.writeable = False
    return view


def _frozen(value):
    """``value`` with its arrays (itself, or the items of a tuple) as read-only views."""
    if isinstance(value, np.ndarray):
        return _read_only(value)
    if isinstance(value, tuple) and any(isinstance(v, np.ndarray) for v in value):
        return tuple(_read_only(v) if isinstance(v, np.ndarray) else v for v in value)
    return value


def _field_equal(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.shape == b.shape
                and bool(np.array_equal(a, b, equal_nan=a.dtype.kind == b.dtype.kind == "f")))
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True  # NaN == NaN: a model with a NaN field equals itself and its copies
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return (type(a) is type(b) and len(a) == len(b)
                and all(_field_equal(x, y) for x, y in zip(a, b)))
    return bool(a == b)


def _field_key(a):
    if isinstance(a, np.ndarray):
        # -0.0 == 0.0 must hash alike: hash the values with signed zeros made positive
        numeric = a.dtype.kind in "biuf"
        return (a.shape, (a.astype(np.float64) + 0.0).tobytes() if numeric else a.tobytes())
    if isinstance(a, (tuple, list)):
        return tuple(_field_key(x) for x in a)
    if isinstance(a, float) and a != a:
        return hash("nan")  # hash(nan) depends on the object since Python 3.10
    return hash(a)


# ------------------------------------------------------------------------------------------------
# normalisation


@model
class Standardizer:
    """An affine normalisation learned on training data: ``(x - mu) / sigma``.

    Attributes
    ----------
    mu : ndarray, shape (D, 1)
    sigma : ndarray, shape (D, 1)
        All ones for plain centering.
    """

    mu: np.ndarray
    sigma: np.ndarray

    def transform(self, D) -> np.ndarray:
        """Apply the normalisation to ``D`` of shape (D, N)."""
        D = check_data(D, n_features=self.mu.shape[0], allow_1d=True,
                       params="the normalisation parameters (mu, sigma)")
        return (D - self.mu) / self.sigma


def fit_center(D) -> Standardizer:
    r"""Learn the centering ``x - mu`` on training data ``D`` (D, N); mu is the sample mean.

    Warns (``UserWarning``, `warn_if_transposed`) when ``D`` has fewer samples than features.

    Notes
    -----
    The centering of the notes (ch. 2): :math:`\mu = \frac{1}{N} \sum_i x_i`, applied as
    :math:`x - \mu`.
    """
    D = check_data(D, unlabelled=True)
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is reported below
        mu = check_finite_statistic(vcol(D.mean(axis=1)), D, "D", "the mean")  # mu = 1/N sum x_i
    return Standardizer(mu=mu, sigma=np.ones_like(mu))


def fit_znorm(D) -> Standardizer:
    r"""Learn z-normalisation ``(x - mu) / sigma`` on ``D`` (D, N).

    sigma is the ML (1/N) standard deviation of each feature. A constant feature is an error
    (its sigma is zero). Warns (``UserWarning``, `warn_if_transposed`) when ``D`` has fewer
    samples than features.

    Notes
    -----
    Z-normalisation (notes ch. 2), feature by feature:
    :math:`z_j = (x_j - \mu_j) / \sigma_j`, :math:`\sigma_j^2 = \frac{1}{N}\sum_i (x_{ij} -
    \mu_j)^2`.
    """
    D = check_data(D, unlabelled=True)
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is reported below
        mu, sigma = vcol(D.mean(axis=1)), vcol(D.std(axis=1))
    check_finite_statistic(np.hstack([mu, sigma]), D, "D", "the mean or standard deviation")
    const = np.flatnonzero(sigma.ravel() == 0)
    if const.size:
        raise ValueError(
            f"feature {int(const[0])} of D is constant ({const.size} constant features in all): "
            f"z-normalisation would divide by zero; drop constant features or use fit_center"
        )
    return Standardizer(mu=mu, sigma=sigma)
