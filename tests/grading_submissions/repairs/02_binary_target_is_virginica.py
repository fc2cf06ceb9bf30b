"""Variant of base.py: the binary labels compare with the wrong class: virginica (2) becomes label
1 and versicolor label 0, the course's task has versicolor as class 1

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def load_iris_binary():
    """Versicolor (1) against virginica (0): setosa is removed."""
    D, L = load_iris()
    keep = L > 0
    Dbin = D[:, keep]
    # MISTAKE: label 1 is given to virginica (label 2), not to versicolor
    Lbin = (L[keep] == 2).astype(np.int32)
    return Dbin, Lbin
