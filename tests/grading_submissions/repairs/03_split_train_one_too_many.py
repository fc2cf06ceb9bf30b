"""Variant of base.py: the training slice is one sample too long (perm[:nTrain + 1]): the training
set has one sample more, which is also the first validation sample

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def split_db_2to1(D, L, seed=0):
    """Two thirds of the samples (in a seeded random order) for training, the rest for
    validation."""
    n = D.shape[1]
    nTrain = int(n * 2.0 / 3.0)
    np.random.seed(seed)  # noqa: NPY002 (the course's seeding)
    perm = np.random.permutation(n)  # noqa: NPY002
    # MISTAKE: off by one, the training slice takes one sample of the validation set
    tr = perm[:nTrain + 1]
    va = perm[nTrain:]
    return (D[:, tr], L[tr]), (D[:, va], L[va])
