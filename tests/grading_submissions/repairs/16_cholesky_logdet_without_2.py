"""Variant of base.py: log|C| from the Cholesky factor misses its factor 2 (log|C| = 2 sum_i log
L_ii): the density's -1/2 log|C| term of eq. 41 is halved

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def _cholesky_logdet(C):
    """The lower Cholesky factor of C and log|C| = 2 sum(log(diag(Lc)))."""
    Lc = np.linalg.cholesky(C)
    # MISTAKE: log|C| is twice the sum of the log-diagonal of its Cholesky factor
    return Lc, np.sum(np.log(np.diag(Lc)))
