"""Variant of course_style.py: the random permutation is drawn over D.shape[0] (the number of
features, 4) instead of D.shape[1] (the number of samples): the training 'set' is the first few
samples in a permuted order and the validation set is empty (rows vs columns)

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import numpy as np


def split_db_2to1(D, L, seed=0):
    """2/3 of the samples for training, the rest for validation, in a seeded random order."""
    nTrain = int(D.shape[1] * 2.0 / 3.0)
    # the same permutation as numpy.random.seed(seed); numpy.random.permutation(N), without
    # changing numpy's global random state
    # MISTAKE: the permutation is over D.shape[0], the number of features, not of samples
    idx = np.random.RandomState(seed).permutation(D.shape[0])
    idxTrain = idx[0:nTrain]
    idxVal = idx[nTrain:]
    return (D[:, idxTrain], L[idxTrain]), (D[:, idxVal], L[idxVal])
