"""Measuring predictions: error rates and confusion matrices (notes ch. 7.1).

Predictions ``pred`` and true labels ``L`` are 1-D integer arrays of the same length N with
values 0..K-1. Confusion matrices follow the course: ``M[i, j]`` is the number of samples
**predicted as class i whose true class is j** (rows = predictions, columns = true classes).
"""

from __future__ import annotations

import numpy as np

from .utils import check_int, check_labels

__all__ = ["error_rate", "accuracy", "confusion_matrix"]


def _check_pred_labels(pred, L) -> tuple[np.ndarray, np.ndarray]:
    L = check_labels(L, name="L")
    if L.size == 0:
        raise ValueError("L is empty: an error rate needs at least one sample")
    pred = check_labels(pred, L.size, name="pred")
    return pred, L


def error_rate(pred, L) -> float:
    """Fraction of samples whose predicted class differs from the true one.

    Parameters
    ----------
    pred : ndarray, shape (N,)
        Predicted labels 0..K-1.
    L : ndarray, shape (N,)
        True labels 0..K-1.

    Returns
    -------
    float
        ``mean(pred != L)``, in [0, 1] (multiply by 100 for the notes' percentages).
    """
    pred, L = _check_pred_labels(pred, L)
    return float(np.mean(pred != L))


def accuracy(pred, L) -> float:
    """Fraction of samples classified correctly, ``1 - error_rate(pred, L)``."""
    pred, L = _check_pred_labels(pred, L)
    return float(np.mean(pred == L))


def confusion_matrix(pred, L, K: int | None = None) -> np.ndarray:
    """Confusion matrix with rows = predicted class, columns = true class.

    Parameters
    ----------
    pred : ndarray, shape (N,)
        Predicted labels 0..K-1.
    L : ndarray, shape (N,)
        True labels 0..K-1.
    K : int, optional
        Number of classes; default ``max(pred.max(), L.max()) + 1``.

    Returns
    -------
    M : ndarray of int64, shape (K, K)
        ``M[i, j] = #{n : pred[n] = i and L[n] = j}``; column j sums to the number of samples of
        class j, the diagonal holds the correct decisions.
    """
    pred, L = _check_pred_labels(pred, L)
    if K is None:
        K = int(max(pred.max(), L.max())) + 1
    K = check_int(K, "K", low=1)
    check_labels(pred, name="pred", n_classes=K)
    check_labels(L, name="L", n_classes=K)
    return np.bincount(pred * K + L, minlength=K * K).reshape(K, K)
