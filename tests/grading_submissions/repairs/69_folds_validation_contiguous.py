"""Variant of base.py: the validation fold is a contiguous block X[idx n:(idx + 1) n] while the
training folds are interleaved X[j::KFOLD]: the two splittings differ, so validation samples are
also in training and some samples in neither

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def extract_train_val_folds_from_ary(X, idx):
    """Fold idx (every KFOLD-th element from idx) for validation, the other folds for training."""
    trainParts = []
    for j in range(KFOLD):
        if j != idx:
            trainParts.append(X[j::KFOLD])
    # MISTAKE: the validation fold is a contiguous block, the training folds interleaved
    n = X.size // KFOLD
    return np.hstack(trainParts), X[idx * n:(idx + 1) * n]
