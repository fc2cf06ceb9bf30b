"""Variant of course_style.py: the squared distance is expanded as ||x1||^2 + ||x2||^2 + 2 x1^T
x2, the cross term's sign wrong: ||x1 - x2||^2 = ||x1||^2 + ||x2||^2 - 2 x1^T x2 (eq. 180), the
kernel uses ||x1 + x2||^2

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import numpy as np


def rbfKernel(gamma):
    def rbfKernelFunc(D1, D2):
        # MISTAKE: the cross term's sign: + 2 x1^T x2 instead of - 2 x1^T x2
        dist2 = vcol((D1 ** 2).sum(0)) + vrow((D2 ** 2).sum(0)) + 2 * (D1.T @ D2)
        return np.exp(-gamma * dist2)
    return rbfKernelFunc
