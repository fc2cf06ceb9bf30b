"""Variant of base.py: the constant c is added after the power, (x1^T x2)^d + c, instead of inside
it, (x1^T x2 + c)^d (eq. 179)

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def polyKernel(degree, c):
    """k(x1, x2) = (x1^T x2 + c)^d (eq. 179)."""
    def kernel(D1, D2):
        # MISTAKE: c added after the power
        return np.dot(D1.T, D2) ** degree + c
    return kernel
