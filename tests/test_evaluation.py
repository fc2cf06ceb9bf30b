import numpy as np
import pytest

from mlpr.evaluation import accuracy, confusion_matrix, error_rate


def test_confusion_matrix_rows_are_predictions():
    L = np.array([0, 0, 1, 1, 2, 2, 2])
    pred = np.array([0, 1, 1, 1, 2, 0, 2])
    M = confusion_matrix(pred, L)
    expected = np.zeros((3, 3), dtype=int)
    for p, t in zip(pred, L):  # the definition, one sample at a time
        expected[p, t] += 1
    assert np.array_equal(M, expected)
    assert M[1, 0] == 1 and M[0, 2] == 1  # predicted 1 / true 0, predicted 0 / true 2
    assert np.array_equal(M.sum(axis=0), np.bincount(L))
    assert np.trace(M) == np.sum(pred == L)


def test_confusion_matrix_with_K():
    M = confusion_matrix([0, 0], [0, 0], K=3)
    assert M.shape == (3, 3) and M[0, 0] == 2 and M.sum() == 2


def test_error_rate_and_accuracy():
    L = np.array([0, 1, 1, 0])
    pred = np.array([0, 1, 0, 0])
    assert error_rate(pred, L) == 0.25 and accuracy(pred, L) == 0.75


def test_errors():
    with pytest.raises(ValueError, match="pred has 2 labels but the data have 3 samples"):
        error_rate([0, 1], [0, 1, 1])
    with pytest.raises(ValueError, match="L is empty"):
        error_rate([], [])
    with pytest.raises(ValueError, match=r"pred holds label 3 but only 2 classes"):
        confusion_matrix([0, 3], [0, 1], K=2)
    with pytest.raises(ValueError, match="negative"):
        confusion_matrix([0, -1], [0, 1])
