"""Variant of base.py: the loop over the samples reads its length from the wrong axis, X.shape[0]
(the number of features): only the first D log-densities are computed, the others are left at 0

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def logpdf_GAU_ND_slow(X, mu, C):
    """The log-density of each column of X, one sample at a time."""
    out = np.zeros(X.shape[1])
    # MISTAKE: the loop runs over X.shape[0] (the features), not the samples
    for i in range(X.shape[0]):
        out[i] = logpdf_GAU_ND_singleSample(X[:, i:i + 1], mu, C)[0]
    return out
