"""Variant of course_style.py: gamma is used as a width: exp(-||x1 - x2||^2 / gamma) instead of
exp(-gamma ||x1 - x2||^2) (eq. 180)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""

import numpy as np


def rbfKernel(gamma):
    def rbfKernelFunc(D1, D2):
        dist2 = vcol((D1 ** 2).sum(0)) + vrow((D2 ** 2).sum(0)) - 2 * (D1.T @ D2)
        # MISTAKE: the RBF kernel multiplies by gamma, exp(-gamma ||x1 - x2||^2) (eq. 180)
        return np.exp(-dist2 / gamma)
    return rbfKernelFunc
