"""Variant of course_style.py: the data matrix is returned transposed, one sample per row (150 x
4, the scikit-learn layout), instead of the course's features x samples matrix D (4, 150), one
column per sample: a transpose misplaced

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import numpy as np


def load_iris():
    """Iris as the course loads it: D (4, 150), L (150,): 0 setosa, 1 versicolor, 2 virginica."""
    names = {"Iris-setosa": 0, "Iris-versicolor": 1, "Iris-virginica": 2}
    columns, labels = [], []
    with open("iris.csv") as f:
        for line in f:
            fields = line.strip().split(",")
            if len(fields) == 5:
                columns.append(vcol(np.array([float(v) for v in fields[:4]])))
                labels.append(names[fields[4]])
    # MISTAKE: the data matrix is transposed, one sample per row (150, 4) instead of (4, 150)
    return np.hstack(columns).T, np.array(labels, dtype=np.int32)
