"""Variant of base.py: numpy's seed is set after the permutation is drawn, so the split depends on
whatever state the global generator was in: not the seeded 2/3 - 1/3 split

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
    # MISTAKE: the permutation is drawn before the seed is set
    perm = np.random.permutation(n)  # noqa: NPY002 (drawn first)
    np.random.seed(seed)  # noqa: NPY002 (seeded too late)
    tr = perm[:nTrain]
    va = perm[nTrain:]
    return (D[:, tr], L[tr]), (D[:, va], L[va])
