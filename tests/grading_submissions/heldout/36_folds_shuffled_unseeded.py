"""Variant of course_style.py: the array is shuffled with an unseeded np.random.permutation before
the folds are taken: the scores and the labels, split by two calls, are shuffled differently,
and the folds change at every call (a seed missing; the labs' folds are fixed interleaved
subsets, section 7.3)

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import numpy as np


def extract_train_val_folds_from_ary(X, idx, KFOLD=None):
    """Fold idx of a 1-D array (every KFOLD-th element from idx) and the other folds pooled."""
    if KFOLD is None:
        KFOLD = globals()['KFOLD']
    # MISTAKE: the array is shuffled, unseeded, before the folds are taken
    X = np.random.permutation(X)
    train = np.hstack([X[j::KFOLD] for j in range(KFOLD) if j != idx])
    return train, X[idx::KFOLD]
