"""Shapes, validation, splits and normalisation (notes ch. 1-2).

Every public function of mlpr takes data as a (D, N) matrix, one column per sample, and labels as
a 1-D integer array of length N with values 0..K-1. The validators of this module are the single
place where that contract is checked and explained.
"""

from __future__ import annotations

import dataclasses
import inspect
import warnings
from collections.abc import Iterator
from numbers import Integral

import numpy as np

__all__ = [
    "vcol",
    "vrow",
    "check_data",
    "warn_if_transposed",
    "check_labels",
    "check_data_labels",
    "check_vector",
    "check_covariance",
    "check_int",
    "check_bool",
    "check_rng",
    "split_db_2to1",
    "kfold_indices",
    "kfold_shuffled_indices",
    "leave_one_out_indices",
    "model",
    "Standardizer",
    "fit_center",
    "fit_znorm",
]


def vcol(x) -> np.ndarray:
    """Reshape a 1-D array of size n (or anything with n elements) into a column, shape (n, 1)."""
    x = np.asarray(x)
    return x.reshape((x.size, 1))


def vrow(x) -> np.ndarray:
    """Reshape a 1-D array of size n (or anything with n elements) into a row, shape (1, n)."""
    x = np.asarray(x)
    return x.reshape((1, x.size))


# ------------------------------------------------------------------------------------------------
# validation


def _as_float_array(x, name: str) -> np.ndarray:
    if isinstance(x, (str, bytes)):
        raise TypeError(f"{name} must be a numeric array, got {type(x).__name__}")
    try:
        a = np.asarray(x)
    except Exception as exc:  # ragged lists and the like
        raise TypeError(f"{name} must be a numeric array: {exc}") from None
    if a.dtype.kind == "c":
        raise TypeError(f"{name} must be real, got dtype {a.dtype}")
    # booleans, integers and floats only: not objects, strings, dates or time deltas
    if a.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be a numeric array, got dtype {a.dtype}")
    return a.astype(np.float64, copy=False)


def _overflow_error(X: np.ndarray, name: str, what: str) -> ValueError:
    """The error for a statistic of finite data ``X`` that overflows float64."""
    return ValueError(
        f"computing {what} of {name} overflows float64 (largest |value| in {name}: "
        f"{float(np.abs(X).max()):.3g}); rescale the data first, e.g. divide it by a constant "
        f"such as its largest absolute value"
    )


def check_data(
    D,
    name: str = "D",
    *,
    n_features: int | None = None,
    min_samples: int = 1,
    allow_1d: bool = False,
    check_finite: bool = True,
    unlabelled: bool = False,
    params: str | None = None,
) -> np.ndarray:
    """Validate a data matrix and return it as float64, shape (D, N).

    Parameters
    ----------
    D : array_like, shape (D, N)
        One column per sample.
    name : str
        The argument's name, used in error messages.
    n_features : int, optional
        Expected number of rows (features), e.g. the dimension of a fitted model. When ``D`` has
        that many columns instead, the message explains the (features x samples) convention.
    min_samples : int
        Minimum number of columns.
    allow_1d : bool
        If True, a 1-D array of length ``n_features`` is accepted as one sample (one column).
    check_finite : bool
        If False, NaN and inf are not looked for here; for callers that check their (smaller)
        result instead and call ``check_data`` again to explain a non-finite one.
    unlabelled : bool
        True for the training data of a fit without labels (`mlpr.gaussian.compute_mu_C`, PCA,
        whitening, centering, z-normalisation): such a fit cannot tell an (N, D) matrix from a
        (D, N) one, so `warn_if_transposed` warns when ``D`` has fewer samples than features.
    params : str, optional
        What ``n_features`` comes from, as a plural noun phrase (e.g. ``"mu and C"``). When
        ``D`` has ``n_features`` columns instead of rows and is wider than tall (the usual shape
        of correct (D, N) data), the message says that these parameters look transposed, that
        is estimated from an (N, D) matrix, instead of blaming ``D``.

    Raises
    ------
    TypeError
        Non-numeric or complex input.
    ValueError
        Wrong number of dimensions, transposed input, too few samples, NaN or inf.

    Warns
    -----
    UserWarning
        With ``unlabelled=True``, fewer samples (columns) than features (rows).
    """
    a = _as_float_array(D, name)
    if a.ndim == 1:
        if allow_1d and n_features is not None and a.size == n_features:
            a = a.reshape(n_features, 1)
        else:
            raise ValueError(
                f"{name} is 1-D with shape {a.shape}: mlpr expects a 2-D (features x samples) "
                f"matrix, one column per sample; use vcol(x) for a single sample of "
                f"{a.size} features or vrow(x) for {a.size} samples of a single feature"
            )
    elif a.ndim != 2:
        raise ValueError(
            f"{name} has {a.ndim} dimensions, shape {a.shape}: mlpr expects a 2-D "
            f"(features x samples) matrix, one column per sample"
        )
    if n_features is not None and a.shape[0] != n_features:
        if a.shape[1] == n_features and params is not None and a.shape[1] > a.shape[0]:
            raise ValueError(
                f"{name} has shape {a.shape} and {params} have {n_features} features, the number "
                f"of samples (columns) of {name}, not of its features (rows): {params} look "
                f"transposed, estimated from an (N, D) matrix; mlpr expects data as (features x "
                f"samples), one column per sample, so estimate them from the (D, N) data (if "
                f"{name} itself is (samples x features), pass {name}.T)"
            )
        if a.shape[1] == n_features:
            raise ValueError(
                f"{name} has shape {a.shape} but {n_features} features are expected: mlpr "
                f"expects {name} as (features x samples), one column per sample; "
                f"did you mean {name}.T?"
            )
        raise ValueError(
            f"{name} has {a.shape[0]} features (rows), shape {a.shape}, expected {n_features}"
        )
    if a.shape[0] == 0:
        raise ValueError(f"{name} has 0 features (rows), shape {a.shape}, at least 1 required")
    if a.shape[1] < min_samples:
        raise ValueError(
            f"{name} has {a.shape[1]} samples (columns), shape {a.shape}, at least "
            f"{min_samples} required"
        )
    # min and max are NaN or inf exactly when some entry is, without a (D, N) boolean temporary
    if check_finite and a.size and not (np.isfinite(a.min()) and np.isfinite(a.max())):
        bad = np.argwhere(~np.isfinite(a))[0]
        raise ValueError(
            f"{name} contains NaN or infinite values (first at row {bad[0]}, column {bad[1]}); "
            f"remove or impute them first"
        )
    if unlabelled:
        warn_if_transposed(a, name)
    return a


def warn_if_transposed(D: np.ndarray, name: str = "D") -> None:
    """Warn when the training data of a fit without labels look transposed.

    A fit without labels (a mean and covariance, PCA, whitening, z-normalisation, a feature
    expansion) accepts a matrix of any shape, so an (N, D) matrix passed where mlpr expects
    (D, N) goes through silently with wrong shapes. Its usual sign is fewer samples (columns)
    than features (rows): this function then issues a ``UserWarning`` that names the shape and
    suggests ``D.T``. Data that really have fewer samples than features (a single sample, a
    handful of high-dimensional images) trigger it too; silence it with
    ``warnings.filterwarnings("ignore", message=".*fewer samples")``.

    Parameters
    ----------
    D : ndarray, shape (D, N)
        Validated 2-D data.
    name : str
        The argument's name, used in the message.

    Notes
    -----
    The warning points at the first caller outside the mlpr package, whatever the depth of the
    call inside mlpr.
    """
    if D.ndim == 2 and D.shape[1] < D.shape[0]:
        warnings.warn(
            f"{name} has shape {D.shape}, fewer samples (columns) than features (rows): mlpr "
            f"expects {name} as (features x samples), one column per sample; if {name} is "
            f"(samples x features), pass {name}.T",
            UserWarning,
            stacklevel=_external_stacklevel(),
        )


def _external_stacklevel() -> int:
    """The ``stacklevel`` of a warning issued by the caller of this function that points at the
    first frame outside the mlpr package (the user's call)."""
    here = inspect.currentframe()  # None on Pythons without frame support: the direct caller
    frame = here.f_back if here is not None else None  # the function that warns: level 1
    level = 0
    try:
        while frame is not None:
            level += 1
            if frame.f_globals.get("__name__", "").partition(".")[0] != "mlpr":
                return level
            frame = frame.f_back
        return max(level, 2)
    finally:
        del here, frame


def check_labels(
    L,
    n_samples: int | None = None,
    name: str = "L",
    *,
    n_classes: int | None = None,
    require_all: bool = False,
    data_shape: tuple[int, int] | None = None,
) -> np.ndarray:
    """Validate class labels and return them as a 1-D int64 array.

    Parameters
    ----------
    L : array_like, shape (N,)
        Integer labels 0..K-1. Floats are accepted only if every value is integral.
    n_samples : int, optional
        Expected length N (the number of columns of the data).
    n_classes : int, optional
        K; labels must be smaller than K.
    require_all : bool
        If True every class 0..max(L) (or 0..K-1) must occur at least once, as a learner needs.
    data_shape : tuple, optional
        Shape of the data the labels go with, only to explain a transposed matrix.
    """
    try:
        a = np.asarray(L)
    except Exception as exc:
        raise TypeError(f"{name} must be an array of integer labels: {exc}") from None
    if a.ndim == 2 and 1 in a.shape:
        raise ValueError(
            f"{name} has shape {a.shape}: labels must be a 1-D array of length N; "
            f"use {name}.ravel()"
        )
    if a.ndim != 1:
        raise ValueError(f"{name} must be a 1-D array of integer labels, got shape {a.shape}")
    if a.dtype == bool:
        a = a.astype(np.int64)
    if a.dtype.kind not in "iuf":
        raise TypeError(
            f"{name} must hold integer class labels 0..K-1, got dtype {a.dtype}; map class names "
            f"to integers first"
        )
    if a.dtype.kind == "f":
        if not np.all(np.isfinite(a)) or np.any(a != np.round(a)):
            raise ValueError(
                f"{name} must hold integer class labels 0..K-1, got non-integer values"
            )
    # values that int64 cannot hold (huge floats, uint64 above 2**63) would wrap around
    if a.size and a.dtype.kind in "uf" and a.max() >= 2.0**63:
        raise ValueError(
            f"{name} must hold class labels 0..K-1, got value {a.max():.6g}, too large to be a "
            f"class index"
        )
    if a.size and a.dtype.kind == "f" and a.min() < -(2.0**63):
        raise ValueError(f"{name} must hold class labels 0..K-1, got negative value {a.min():g}")
    a = a.astype(np.int64, copy=False)
    if n_samples is not None and a.size != n_samples:
        if data_shape is not None and a.size == data_shape[0]:
            raise ValueError(
                f"D has shape {tuple(data_shape)} but {name} has {a.size} labels: mlpr expects "
                f"D as (features x samples), one column per sample; did you mean D.T?"
            )
        raise ValueError(f"{name} has {a.size} labels but the data have {n_samples} samples")
    if a.size and a.min() < 0:
        raise ValueError(f"{name} must hold class labels 0..K-1, got negative value {a.min()}")
    if n_classes is not None and a.size and a.max() >= n_classes:
        raise ValueError(
            f"{name} holds label {a.max()} but only {n_classes} classes (0..{n_classes - 1}) "
            f"are expected"
        )
    if require_all and a.size:
        K = n_classes if n_classes is not None else int(a.max()) + 1
        present = np.unique(a)  # sorted, within 0..K-1: all present iff it is 0..K-1 itself
        if present.size < K:
            # the first missing class is the first position where present differs from 0, 1, ...
            gaps = np.flatnonzero(present != np.arange(present.size))
            first = int(gaps[0]) if gaps.size else int(present.size)
            shown = str(present.tolist()) if present.size <= 20 else (
                f"[{', '.join(map(str, present[:10].tolist()))}, ..., {present[-1]}], "
                f"{present.size} classes"
            )
            raise ValueError(
                f"{name} has no sample of class {first}: labels must be 0..K-1 with "
                f"every class present (got classes {shown})"
            )
    return a


def check_data_labels(
    D, L, *, min_samples: int = 1, require_all: bool = True, n_classes: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Validate a (D, N) data matrix with its N labels; see `check_data` and `check_labels`.

    The labels are checked against the data first, so that a transposed (N, D) matrix is
    reported as such rather than as a length mismatch.
    """
    a = _as_float_array(D, "D")
    if a.ndim == 2:
        check_labels(L, a.shape[1], data_shape=a.shape)
    D = check_data(a, "D", min_samples=min_samples)
    L = check_labels(L, D.shape[1], require_all=require_all, n_classes=n_classes)
    return D, L


def check_vector(x, n: int, name: str) -> np.ndarray:
    """Return ``x`` as a float64 column (n, 1); accepts shape (n,), (n, 1) or (1, n)."""
    a = _as_float_array(x, name)
    if a.size != n or not (a.ndim == 1 or (a.ndim == 2 and 1 in a.shape)):
        raise ValueError(f"{name} has shape {a.shape}, expected ({n},) or ({n}, 1)")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} contains NaN or infinite values")
    return a.reshape(n, 1)


def check_covariance(C, n: int | None = None, name: str = "C") -> np.ndarray:
    """Validate a symmetric (D, D) matrix and return it as float64 (positive definiteness is
    checked by the Cholesky factorisation that uses it)."""
    a = _as_float_array(C, name)
    if a.ndim == 0 and (n is None or n == 1):
        a = a.reshape(1, 1)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"{name} must be a square (D, D) matrix, got shape {a.shape}")
    if n is not None and a.shape[0] != n:
        raise ValueError(f"{name} has shape {a.shape}, expected ({n}, {n})")
    if a.shape[0] == 0:
        raise ValueError(f"{name} must be a non-empty (D, D) matrix, got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} contains NaN or infinite values")
    scale = max(np.abs(a).max(), np.finfo(float).tiny)
    if np.abs(a - a.T).max() > 1e-8 * scale:
        raise ValueError(
            f"{name} is not symmetric (max |C - C.T| = {np.abs(a - a.T).max():.3g}); "
            f"a covariance matrix must be symmetric"
        )
    return a


def check_int(value, name: str, *, low: int | None = None, high: int | None = None) -> int:
    """Validate an integer hyperparameter with optional inclusive bounds."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if low is not None and value < low:
        raise ValueError(f"{name} must be >= {low}, got {value}")
    if high is not None and value > high:
        raise ValueError(f"{name} must be <= {high}, got {value}")
    return value


def check_bool(value, name: str) -> bool:
    """Validate a True/False option; 0, 1, None or "no" are refused rather than guessed."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_rng(rng) -> np.random.Generator:
    """Return ``rng`` if it is a ``numpy.random.Generator``; mlpr never seeds a global state."""
    if not isinstance(rng, np.random.Generator):
        raise TypeError(
            f"rng must be a numpy.random.Generator (numpy.random.default_rng(seed)), got "
            f"{type(rng).__name__}"
        )
    return rng


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
    ``hash(model)`` agrees with ``==``. Array fields, and arrays inside tuple fields, are stored
    as read-only views, so a model cannot be changed after training (the caller's own arrays stay
    writeable).
    """
    user_post_init = cls.__dict__.get("__post_init__")

    def names(self):
        return [f.name for f in dataclasses.fields(self)]

    def __post_init__(self):
        for name in names(self):
            value = getattr(self, name)
            if isinstance(value, np.ndarray) and value.flags.writeable:
                object.__setattr__(self, name, _read_only(value))
            elif isinstance(value, tuple) and any(isinstance(v, np.ndarray) for v in value):
                frozen = tuple(_read_only(v) if isinstance(v, np.ndarray) else v for v in value)
                object.__setattr__(self, name, frozen)
        if user_post_init is not None:
            user_post_init(self)

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return all(_field_equal(getattr(self, n), getattr(other, n)) for n in names(self))

    def __hash__(self):
        key = tuple(_field_key(getattr(self, n)) for n in names(self))
        return hash((type(self).__qualname__,) + key)

    cls.__post_init__ = __post_init__
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


def _field_equal(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.shape == b.shape
                and bool(np.array_equal(a, b)))
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
    """Learn the centering ``x - mu`` on training data ``D`` (D, N); mu is the sample mean.

    Warns (``UserWarning``, `warn_if_transposed`) when ``D`` has fewer samples than features."""
    D = check_data(D, unlabelled=True)
    with np.errstate(over="ignore", invalid="ignore"):
        mu = vcol(D.mean(axis=1))
    if not np.all(np.isfinite(mu)):
        raise _overflow_error(D, "D", "the mean")
    return Standardizer(mu=mu, sigma=np.ones_like(mu))


def fit_znorm(D) -> Standardizer:
    """Learn z-normalisation ``(x - mu) / sigma`` on ``D`` (D, N); sigma is the ML (1/N) standard
    deviation of each feature. A constant feature is an error (its sigma is zero). Warns
    (``UserWarning``, `warn_if_transposed`) when ``D`` has fewer samples than features."""
    D = check_data(D, unlabelled=True)
    with np.errstate(over="ignore", invalid="ignore"):
        mu = vcol(D.mean(axis=1))
        sigma = vcol(D.std(axis=1))
    if not (np.all(np.isfinite(mu)) and np.all(np.isfinite(sigma))):
        raise _overflow_error(D, "D", "the mean or standard deviation")
    const = np.flatnonzero(sigma.ravel() == 0)
    if const.size:
        raise ValueError(
            f"feature {int(const[0])} of D is constant ({const.size} constant features in all): "
            f"z-normalisation would divide by zero; drop constant features or use fit_center"
        )
    return Standardizer(mu=mu, sigma=sigma)
