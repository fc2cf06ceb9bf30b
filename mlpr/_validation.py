"""The validators of mlpr: the one place where the data contract and every hyperparameter are
checked and explained (private: imported by the chapter modules, not part of the API).

Every public function of mlpr takes data as a (D, N) matrix, one column per sample, and labels as
a 1-D integer array of length N with values 0..K-1. The chapter modules validate at their public
boundary by calling these ``check_*`` functions (``from ._validation import ...``); their private
cores, and their private fast paths, assume valid input. One of each: the validators shared by
several modules live here (`check_binary` for binary training data, `check_multiclass`,
`check_positive`, `check_psi`, `check_solver` for the one reference / fast switch), and a module
keeps as private ``_check_*`` only what no other module checks. Each error is a ``ValueError`` or
``TypeError`` that names the argument, the value or shape received and the one expected, and
explains a transposed matrix (notes ch. 1-2: samples are columns). This module imports nothing
of mlpr.
"""

from __future__ import annotations

import inspect
import warnings
from numbers import Integral, Real

import numpy as np

_PRIOR_TOL = 1e-9  # tolerance on sum(priors) == 1
_SUM_TOL = 1e-8  # tolerance on sum(pi) == 1 of a categorical distribution

SOLVERS = ("auto", "reference")  # the one switch of every module with a fast path


# ------------------------------------------------------------------------------------------------
# arrays


def check_array(x, name: str) -> np.ndarray:
    """Return ``x`` as a float64 array of any shape; strings, objects and complex numbers are a
    TypeError naming ``name``. Booleans and integers are converted."""
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


def check_finite(a: np.ndarray, name: str) -> np.ndarray:
    """Return the float array ``a`` if it holds no NaN or inf; otherwise a ValueError naming
    ``name`` and the index of the first bad value."""
    if a.size and not np.all(np.isfinite(a)):
        i = tuple(int(j) for j in np.argwhere(~np.isfinite(a))[0])
        where = f" (first at index {i[0] if len(i) == 1 else i})" if i else ""
        raise ValueError(f"{name} contains NaN or infinite values{where}")
    return a


def _overflow_error(X: np.ndarray, name: str, what: str) -> ValueError:
    """The error for a statistic of finite data ``X`` that overflows float64."""
    return ValueError(
        f"computing {what} of {name} overflows float64 (largest |value| in {name}: "
        f"{float(np.abs(X).max()):.3g}); rescale the data first, e.g. divide it by a constant "
        f"such as its largest absolute value"
    )


def check_finite_statistic(value, X: np.ndarray, name: str, what: str):
    """Return ``value``, a statistic (mean, covariance, distances) of the finite data ``X``, if
    it is finite; otherwise the ValueError "computing {what} of {name} overflows float64", with
    the largest value of ``X`` and the remedy (rescale the data)."""
    if not np.all(np.isfinite(value)):
        raise _overflow_error(X, name, what)
    return value


def check_finite_result(result: np.ndarray, X: np.ndarray, name: str = "X", *,
                        what: str = "the result", nan_reason: str = "") -> np.ndarray:
    """Return ``result``, computed from ``X`` validated with ``check_finite=False``.

    A fast path that skips the pass over ``X`` looking for NaN or inf checks its (smaller)
    result instead: if the result is not finite and ``X`` holds NaN or inf, this raises
    `check_data`'s error naming the first of them. A NaN result from a finite ``X`` is a
    ValueError "{what} is NaN for finite {name}: {nan_reason}"; infinities from a finite ``X``
    (e.g. a log-density
    that underflows to -inf) are returned.
    """
    if not np.isfinite(result).all():
        check_data(X, name)  # raises, naming the first NaN or inf of X
        if np.isnan(result).any():
            raise ValueError(f"{what} is NaN for finite {name}{': ' if nan_reason else ''}"
                             f"{nan_reason}")
    return result


def check_scale(X: np.ndarray, name: str = "D", n_terms: int | None = None) -> np.ndarray:
    """Return the finite array ``X`` unless sums of products of its values overflow float64.

    The objectives of the linear models (and their curvature, Hessian or step size) add
    ``n_terms`` products ``x_i x_j`` (default: one per feature plus the bias, D + 1); data
    whose largest value squared times ``n_terms`` is infinite are refused with the remedy
    (rescale, e.g. `fit_znorm`).
    """
    largest = float(np.maximum(X.max(), -X.min())) if X.size else 0.0  # max |x|, no copy
    n = X.shape[0] + 1 if n_terms is None else n_terms
    with np.errstate(over="ignore"):
        overflows = not np.isfinite(largest * largest * n)
    if overflows:
        raise ValueError(
            f"{name} has values up to {largest:.3g} in magnitude: products of its values "
            f"overflow float64; rescale them first, e.g. divide by a constant or z-normalise "
            f"the features with mlpr.utils.fit_znorm"
        )
    return X


# ------------------------------------------------------------------------------------------------
# data matrices


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
        result instead with `check_finite_result`.
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
    a = _as_matrix(check_array(D, name), name, n_features if allow_1d else None)
    if n_features is not None and a.shape[0] != n_features:
        raise _feature_count_error(a, name, n_features, params)
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


def _as_matrix(a: np.ndarray, name: str, sample_size: int | None) -> np.ndarray:
    """``a`` if 2-D; a 1-D array of ``sample_size`` values as one column; else a ValueError."""
    if a.ndim == 1 and sample_size is not None and a.size == sample_size:
        return a.reshape(sample_size, 1)
    if a.ndim == 1:
        raise ValueError(
            f"{name} is 1-D with shape {a.shape}: mlpr expects a 2-D (features x samples) "
            f"matrix, one column per sample; use vcol(x) for a single sample of "
            f"{a.size} features or vrow(x) for {a.size} samples of a single feature"
        )
    if a.ndim != 2:
        raise ValueError(
            f"{name} has {a.ndim} dimensions, shape {a.shape}: mlpr expects a 2-D "
            f"(features x samples) matrix, one column per sample"
        )
    return a


def _feature_count_error(a: np.ndarray, name: str, n_features: int,
                         params: str | None) -> ValueError:
    """The error for data with the wrong number of rows, explaining a transposed matrix."""
    if a.shape[1] == n_features and params is not None and a.shape[1] > a.shape[0]:
        return ValueError(
            f"{name} has shape {a.shape} and {params} have {n_features} features, the number "
            f"of samples (columns) of {name}, not of its features (rows): {params} look "
            f"transposed, estimated from an (N, D) matrix; mlpr expects data as (features x "
            f"samples), one column per sample, so estimate them from the (D, N) data (if "
            f"{name} itself is (samples x features), pass {name}.T)"
        )
    if a.shape[1] == n_features:
        return ValueError(
            f"{name} has shape {a.shape} but {n_features} features are expected: mlpr "
            f"expects {name} as (features x samples), one column per sample; "
            f"did you mean {name}.T?"
        )
    return ValueError(
        f"{name} has {a.shape[0]} features (rows), shape {a.shape}, expected {n_features}"
    )


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


# ------------------------------------------------------------------------------------------------
# labels


def check_labels(
    L,
    n_samples: int | None = None,
    name: str = "L",
    *,
    n_classes: int | None = None,
    require_all: bool = False,
    data_shape: tuple[int, int] | None = None,
    allow_empty: bool = True,
) -> np.ndarray:
    """Validate class labels and return them as a 1-D int64 array.

    Parameters
    ----------
    L : array_like, shape (N,)
        Integer labels 0..K-1. Floats are accepted only if every value is integral. Labels
        -1/+1 are refused with the remedy ``(L + 1) // 2`` (the target, +1, becomes class 1).
    n_samples : int, optional
        Expected length N (the number of columns of the data).
    n_classes : int, optional
        K; labels must be smaller than K.
    require_all : bool
        If True every class 0..max(L) (or 0..K-1) must occur at least once, as a learner needs.
    data_shape : tuple, optional
        Shape of the data the labels go with, only to explain a transposed matrix.
    allow_empty : bool, default True
        If False, no labels at all is the ValueError "L is empty (0 labels)".
    """
    a = _label_array(L, name)
    if n_samples is not None and a.size != n_samples:
        if data_shape is not None and a.size == data_shape[0]:
            raise ValueError(
                f"D has shape {tuple(data_shape)} but {name} has {a.size} labels: mlpr expects "
                f"D as (features x samples), one column per sample; did you mean D.T?"
            )
        raise ValueError(f"{name} has {a.size} labels but the data have {n_samples} samples")
    if a.size == 0 and not allow_empty:
        raise ValueError(f"{name} is empty (0 labels): at least one sample is needed")
    if a.size and a.min() < 0:
        hint = ""
        if np.all((a == -1) | (a == 1)):
            hint = (f"; {name} holds -1/+1 labels: map them to 0/1 with {name} = ({name} + 1) "
                    f"// 2 (the target, +1, becomes class 1)")
        raise ValueError(
            f"{name} must hold class labels 0..K-1, got negative value {a.min()}{hint}")
    if n_classes is not None and a.size and a.max() >= n_classes:
        raise ValueError(
            f"{name} holds label {a.max()} but only {n_classes} classes (0..{n_classes - 1}) "
            f"are expected"
        )
    if require_all and a.size:
        _check_all_classes_present(a, name, n_classes)
    return a


def _label_array(L, name: str) -> np.ndarray:
    """``L`` as a 1-D int64 array: integer, boolean or integral float values."""
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
    if a.dtype.kind == "f" and (not np.all(np.isfinite(a)) or np.any(a != np.round(a))):
        raise ValueError(f"{name} must hold integer class labels 0..K-1, got non-integer values")
    # values that int64 cannot hold (huge floats, uint64 above 2**63) would wrap around
    if a.size and a.dtype.kind in "uf" and a.max() >= 2.0**63:
        raise ValueError(
            f"{name} must hold class labels 0..K-1, got value {a.max():.6g}, too large to be a "
            f"class index"
        )
    if a.size and a.dtype.kind == "f" and a.min() < -(2.0**63):
        raise ValueError(f"{name} must hold class labels 0..K-1, got negative value {a.min():g}")
    return a.astype(np.int64, copy=False)


def _check_all_classes_present(a: np.ndarray, name: str, n_classes: int | None) -> None:
    """Refuse labels in which some class 0..K-1 has no sample (K = n_classes or max + 1)."""
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


def check_data_labels(
    D, L, *, min_samples: int = 1, require_all: bool = True, n_classes: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Validate a (D, N) data matrix with its N labels; see `check_data` and `check_labels`.

    The labels are checked against the data first, so that a transposed (N, D) matrix is
    reported as such rather than as a length mismatch.
    """
    a = check_array(D, "D")
    if a.ndim == 2:
        check_labels(L, a.shape[1], data_shape=a.shape)
    D = check_data(a, "D", min_samples=min_samples)
    L = check_labels(L, D.shape[1], require_all=require_all, n_classes=n_classes)
    return D, L


def check_binary_labels(L, n_samples: int | None = None, name: str = "L", *,
                        who: str = "a binary task", both: bool = True) -> np.ndarray:
    """Validate the labels of a binary task: 0 (non-target, H_F) and 1 (target, H_T).

    Parameters
    ----------
    L : array_like, shape (N,)
        Labels 0/1 (-1/+1 labels are refused with the remedy ``(L + 1) // 2``).
    n_samples : int, optional
        Expected N, the number of scores or samples the labels go with.
    who : str
        The learner or metric that needs binary labels, for the messages.
    both : bool, default True
        Require a sample of each class (every binary learner and metric of mlpr does).

    Raises
    ------
    ValueError
        "L is empty", "L holds label 2: {who} is binary", "L has no sample of class 1".
    """
    L = check_labels(L, n_samples, name, allow_empty=False)
    if L.max() > 1:
        raise ValueError(
            f"{name} holds label {int(L.max())} but {who} is binary: labels must be 0 "
            f"(non-target, H_F) or 1 (target, H_T); select two classes first (e.g. "
            f"mlpr.datasets.binary_task)"
        )
    n1 = int(np.count_nonzero(L))
    if both and (n1 == 0 or n1 == L.size):
        missing = 1 if n1 == 0 else 0
        raise ValueError(
            f"{name} has no sample of class {missing}: {who} needs both classes (0 and 1), got "
            f"only class {1 - missing}"
        )
    return L


def check_binary(D, L, who: str = "a binary task", *, both: bool = True,
                 scale: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Validate the training set of a binary learner: (D, N) data and N labels 0/1.

    The one validator of binary training data (logistic regression, the perceptron, the SVMs):
    `check_data_labels` (shapes, NaN, the transposition hint), then `check_binary_labels`
    (``who`` names the learner; ``both`` requires a sample of each class). ``scale`` also
    refuses values whose products overflow float64 (`check_scale`).
    """
    X, L = check_data_labels(D, L, require_all=False)
    if scale:
        check_scale(X)
    return X, check_binary_labels(L, who=who, both=both)


def check_multiclass(D, L, who: str, *, require_all: bool = True, scale: bool = False,
                     remedy: str = "") -> tuple[np.ndarray, np.ndarray, int]:
    """Validate the training set of a K-class learner: (D, N) data, N labels 0..K-1 with every
    class present (``require_all``), and K >= 2; returns (X, L, K).

    The one validator of multiclass training data (multiclass logistic regression, one versus
    the rest / one versus one, the GMM classifiers); ``who`` names the learner and ``remedy``
    ends the message for a single class. ``scale`` as in `check_binary`.
    """
    X, L = check_data_labels(D, L, require_all=require_all)
    if scale:
        check_scale(X)
    K = int(L.max()) + 1
    if K < 2:
        raise ValueError(f"L holds a single class (0): {who} needs at least 2 classes (labels "
                         f"0..K-1 of two classes or more), got K = {K}{remedy}")
    return X, L, K


# ------------------------------------------------------------------------------------------------
# parameters


def check_vector(x, n: int, name: str) -> np.ndarray:
    """Return ``x`` as a float64 column (n, 1); accepts shape (n,), (n, 1) or (1, n)."""
    a = check_array(x, name)
    if a.size != n or not (a.ndim == 1 or (a.ndim == 2 and 1 in a.shape)):
        raise ValueError(f"{name} has shape {a.shape}, expected ({n},) or ({n}, 1)")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} contains NaN or infinite values")
    return a.reshape(n, 1)


def check_covariance(C, n: int | None = None, name: str = "C") -> np.ndarray:
    """Validate a symmetric (D, D) matrix and return it as float64 (positive definiteness is
    checked by the Cholesky factorisation that uses it)."""
    a = check_array(C, name)
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


def check_mean_cov(mu, C) -> tuple[np.ndarray, np.ndarray]:
    """Validate the mean and covariance of a Gaussian; return mu (D, 1) and C (D, D).

    ``mu`` may be (D,), (D, 1) or (1, D); a scalar ``mu`` and ``C`` are a 1-D Gaussian. A
    scalar ``C`` with a longer ``mu`` is refused with the remedy ``var * np.eye(D)``. Positive
    definiteness is left to the Cholesky factorisation (`mlpr.gaussian.cholesky_factor`).
    """
    C = check_array(C, "C")
    mu = check_array(mu, "mu")
    if C.ndim == 0 and mu.size != 1:
        raise ValueError(
            f"C is a scalar, a covariance only for D = 1, but mu has shape {mu.shape}: pass a "
            f"({mu.size}, {mu.size}) matrix, e.g. var * np.eye({mu.size}) for equal independent "
            f"variances"
        )
    C = check_covariance(C)
    return check_mean(mu, C.shape[0]), C


def check_mean(mu, n: int) -> np.ndarray:
    """Validate a mean of n features given as (n,), (n, 1) or (1, n) (a scalar if n == 1);
    return it as a (n, 1) column."""
    if n == 1 and np.ndim(mu) == 0:
        mu = np.reshape(mu, (1,))
    return check_vector(mu, n, "mu")


def check_cholesky_factor(Lchol, name: str = "Lchol") -> np.ndarray:
    """Validate a lower-triangular Cholesky factor with a positive diagonal, (D, D)."""
    a = check_finite(check_array(Lchol, name), name)
    if a.ndim != 2 or a.shape[0] != a.shape[1] or a.shape[0] == 0:
        raise ValueError(f"{name} must be a square (D, D) Cholesky factor, got shape {a.shape}")
    if np.any(np.triu(a, 1) != 0.0):
        raise ValueError(
            f"{name} must be the lower-triangular Cholesky factor of C (C = {name} {name}^T), "
            f"but it has non-zero entries above the diagonal; use "
            f"mlpr.gaussian.cholesky_factor(C)"
        )
    d = np.diag(a)
    if np.any(d <= 0.0):
        raise ValueError(
            f"{name} must have a positive diagonal, got {d.min():.3g}: it is not the Cholesky "
            f"factor of a positive definite covariance"
        )
    return a


def check_per_feature(a: np.ndarray, x: np.ndarray, name: str, xname: str) -> None:
    """Refuse a 1-D parameter with one value per row of a 2-D ``x``: numpy would broadcast it
    along the columns (the samples), a wrong answer when x is square and an error otherwise."""
    if x.ndim == 2 and a.ndim == 1 and a.size > 1 and a.size == x.shape[0]:
        raise ValueError(
            f"{name} has shape {a.shape}, one value per feature (row) of {xname}, shape "
            f"{x.shape}: numpy would broadcast it along the samples (columns); pass it as a "
            f"column of shape ({a.size}, 1), e.g. vcol({name})"
        )


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


def check_real(value, name: str, *, low: float | None = None, strict: bool = False,
               what: str = "") -> float:
    """Validate a finite real hyperparameter, ``>= low`` (``> low`` if ``strict``).

    ``what`` says what the number is, in the messages: "psi must be a real number (an
    eigenvalue floor), got None". Booleans are refused rather than read as 0 and 1.
    """
    about = f" ({what})" if what else ""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Real):
        raise TypeError(f"{name} must be a real number{about}, got {value!r}")
    value = float(value)
    if not np.isfinite(value) or (low is not None and (value <= low if strict else value < low)):
        bound = "" if low is None else f" and {'>' if strict else '>='} {low:g}"
        raise ValueError(f"{name} must be finite{bound}{about}, got {value!r}")
    return value


def check_positive(value, name: str, what: str = "") -> float:
    """A finite real number > 0 (a tolerance, a step, a displacement); ``what`` says what it is
    in the message."""
    return check_real(value, name, low=0.0, strict=True, what=what)


def check_psi(psi, *, allow_none: bool = False) -> float | None:
    """The eigenvalue floor psi of a covariance (notes 9.4): a finite number > 0 (None allowed
    when ``allow_none``: no floor)."""
    if psi is None and allow_none:
        return None
    return check_positive(psi, "psi", "an eigenvalue floor")


def check_lambda(l) -> float:
    """Validate the regularisation weight lambda (the course's ``l``): finite, >= 0."""
    return check_real(l, "l (lambda, the regularisation weight)", low=0.0)


def check_prior(prior, name: str = "prior", *, allow_none: bool = False,
                allow_array: bool = False):
    """Validate the target prior of a binary application (pi_T, notes section 7.2).

    Parameters
    ----------
    prior : float (or array_like of floats with ``allow_array``)
        In the open interval (0, 1): with a prior of 0 or 1 one class never occurs and gets no
        weight.
    allow_none : bool
        Accept None (e.g. "no prior weighting") and return it.
    allow_array : bool
        Accept a 1-D array of priors (several applications at once), returned as float64.

    Returns
    -------
    float, ndarray or None
    """
    if prior is None and allow_none:
        return None
    if allow_array and not isinstance(prior, Real):
        p = check_array(prior, name)
        if p.ndim > 1:
            raise ValueError(f"{name} must be a number or a 1-D array of priors, got shape "
                             f"{p.shape}")
    elif isinstance(prior, (bool, np.bool_)) or not isinstance(prior, Real):
        raise TypeError(f"{name} (the target prior pi_T) must be a real number in (0, 1), got "
                        f"{prior!r}")
    else:
        p = np.asarray(float(prior))
    ok = (p > 0.0) & (p < 1.0)  # False for NaN too
    if not np.all(ok):
        raise ValueError(
            f"{name} (the target prior pi_T) must lie in the open interval (0, 1), got "
            f"{float(p[~ok].ravel()[0])!r}: with a prior of 0 or 1 one class never occurs"
        )
    return p if allow_array and p.ndim else float(p)


def check_class_priors(priors, K: int, *, n_samples: int | None = None) -> np.ndarray:
    """Validate the prior probabilities of K classes; return them as a float64 (K,) array.

    The one rule of mlpr: K finite non-negative numbers summing to 1 (within 1e-9). A zero
    prior is allowed (that class is never decided; its log-prior is -inf). ``n_samples``, the
    number of columns of the (K, N) scores the priors go with, only explains a transposed
    score matrix. None is a TypeError: the prior belongs to the application, not to the model.
    """
    if priors is None:
        raise TypeError(
            "priors is required: the prior belongs to the application, not to the model; pass "
            "e.g. uniform_priors(K) for equal class priors"
        )
    p = check_array(priors, "priors")
    if p.ndim != 1:
        raise ValueError(f"priors must be a 1-D array of K = {K} class priors, got shape {p.shape}")
    if p.size != K:
        if n_samples is not None and p.size == n_samples:
            raise ValueError(
                f"S has shape ({K}, {n_samples}) but priors has {p.size} entries: mlpr expects S "
                f"as (K, N), one row per class and one column per sample; did you mean S.T?"
            )
        raise ValueError(
            f"priors has length {p.size} but K = {K} classes are expected (one row per class of "
            f"the scores); pass one prior per class"
        )
    check_finite(p, "priors")
    if np.any(p < 0.0):
        raise ValueError(f"priors must be non-negative probabilities, got {p.min()!r}")
    if abs(p.sum() - 1.0) > _PRIOR_TOL:
        raise ValueError(f"priors must sum to 1 (within {_PRIOR_TOL:g}), got sum {p.sum():.12g}")
    return p


def check_class_scores(S, name: str = "S") -> np.ndarray:
    """Validate a (K, N) matrix of class scores (log-likelihoods): real, no NaN or +inf;
    -inf (probability 0) is allowed."""
    a = check_array(S, name)
    if a.ndim != 2:
        raise ValueError(
            f"{name} must be a (K, N) matrix of class scores, one row per class and one column "
            f"per sample, got shape {a.shape}"
            + ("; use vcol(s) for a single sample" if a.ndim == 1 else "")
        )
    if a.shape[0] == 0:
        raise ValueError(f"{name} has no rows (classes), shape {a.shape}")
    if np.isnan(a).any() or np.isposinf(a).any():
        raise ValueError(f"{name} contains NaN or +inf values")
    return a


def check_bool(value, name: str) -> bool:
    """Validate a True/False option; 0, 1, None or "no" are refused rather than guessed."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_choice(value, name: str, options: tuple[str, ...]) -> str:
    """Validate an option that must be one of the strings ``options`` (anything else, a
    non-string included, is a ValueError naming the options)."""
    if not isinstance(value, str) or value not in options:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, options))}, got {value!r}")
    return value



def check_solver(solver, choices: tuple[str, ...] = SOLVERS) -> str:
    """Validate the switch between a chapter's plain reference implementation
    (``solver="reference"``) and its private fast path (``solver="auto"``).

    The switch has one name in every module (``solver=``); ``choices`` adds a module's own
    named solvers (svm) or names the table that chooses (``tuple(_SOLVERS)``).
    """
    return check_choice(solver, "solver", choices)


def check_rng(rng) -> np.random.Generator:
    """Return ``rng`` if it is a ``numpy.random.Generator``; mlpr never seeds a global state."""
    if not isinstance(rng, np.random.Generator):
        raise TypeError(
            f"rng must be a numpy.random.Generator (numpy.random.default_rng(seed)), got "
            f"{type(rng).__name__}"
        )
    return rng


# ------------------------------------------------------------------------------------------------
# probabilities and counts (notes ch. 4, discrete models)


def _first_bad(a: np.ndarray, bad: np.ndarray) -> float:
    """The first value of ``a`` flagged by the boolean mask ``bad`` (for error messages)."""
    return float(a[bad].ravel()[0])


def check_probabilities(p, name: str) -> np.ndarray:
    """Validate a probability or an array of probabilities, each in [0, 1]; float64."""
    a = check_array(p, name)
    bad = ~((a >= 0.0) & (a <= 1.0))  # also catches NaN
    if np.any(bad):
        raise ValueError(f"{name} must hold probabilities in [0, 1], got {_first_bad(a, bad)!r}")
    return a


def check_probability_vector(pi, name: str = "pi") -> np.ndarray:
    """Validate a distribution over M >= 1 values, (M,) or (M, 1), summing to 1 (within
    1e-8); return it 1-D (M,)."""
    a = check_array(pi, name)
    if a.size == 0 or not (a.ndim == 1 or (a.ndim == 2 and 1 in a.shape)):
        raise ValueError(f"{name} must be a non-empty vector of shape (M,) or (M, 1), "
                         f"got shape {a.shape}")
    a = check_probabilities(a.ravel(), name)
    if abs(a.sum() - 1.0) > _SUM_TOL:
        raise ValueError(f"{name} must sum to 1 (within {_SUM_TOL:g}), got sum {a.sum():.12g}")
    return a


def check_binary_values(x, name: str) -> np.ndarray:
    """Validate outcomes of binary variables, each 0 or 1 (booleans accepted); float64."""
    a = check_array(x, name)
    bad = (a != 0.0) & (a != 1.0)
    if np.any(bad):
        raise ValueError(f"{name} must hold binary outcomes 0 or 1, got {_first_bad(a, bad)!r}")
    return a


def check_counts(k, name: str) -> np.ndarray:
    """Validate non-negative integer counts (integral floats accepted); float64."""
    a = check_array(k, name)
    bad = ~((a >= 0.0) & (a == np.round(a)) & np.isfinite(a))
    if np.any(bad):
        raise ValueError(
            f"{name} must hold non-negative integer counts, got {_first_bad(a, bad)!r}"
        )
    return a


def check_pseudo_count(value, name: str) -> float:
    """Validate a pseudo-count added to every count before normalising: finite, >= 0."""
    return check_real(value, name, low=0.0, what="a pseudo-count")
