"""Variant of base.py: the RBF kernel uses the distance |x1 - x2| instead of its square |x1 - x2|^2
(eq. 180): a missing square

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def rbfKernel(gamma):
    """k(x1, x2) = exp(-gamma |x1 - x2|^2) (eq. 180)."""
    def kernel(D1, D2):
        sq = np.sum(D1 ** 2, axis=0)[:, None] + np.sum(D2 ** 2, axis=0)[None, :] \
            - 2.0 * np.dot(D1.T, D2)
        # MISTAKE: the distance, not its square
        return np.exp(-gamma * np.sqrt(np.abs(sq)))
    return kernel
