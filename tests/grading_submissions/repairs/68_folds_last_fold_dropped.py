"""Variant of base.py: the training folds are gathered over range(KFOLD - 1): the last fold is
never in a training set (an off-by-one)

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def extract_train_val_folds_from_ary(X, idx):
    """Fold idx (every KFOLD-th element from idx) for validation, the other folds for training."""
    trainParts = []
    # MISTAKE: range(KFOLD - 1) leaves the last fold out of training
    for j in range(KFOLD - 1):
        if j != idx:
            trainParts.append(X[j::KFOLD])
    return np.hstack(trainParts), X[idx::KFOLD]
