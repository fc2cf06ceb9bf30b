"""Variant of course_style.py: the validation fold is sliced X[idx:KFOLD], the elements
idx..KFOLD-1, instead of X[idx::KFOLD], every KFOLD-th element from idx (a colon missing): the
validation fold holds at most KFOLD elements and is not the complement of the training folds

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import numpy as np


def extract_train_val_folds_from_ary(X, idx, KFOLD=None):
    """Fold idx of a 1-D array (every KFOLD-th element from idx) and the other folds pooled."""
    if KFOLD is None:
        KFOLD = globals()['KFOLD']
    train = np.hstack([X[j::KFOLD] for j in range(KFOLD) if j != idx])
    return train, X[idx:KFOLD]  # MISTAKE: a slice from idx to KFOLD, not a step of KFOLD
