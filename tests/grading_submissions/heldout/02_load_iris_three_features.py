"""Variant of course_style.py: the feature slice stops one field early (fields[:3] instead of
fields[:4]): only three of the four measurements are read, the fourth feature (petal width) is
missing and D is (3, 150) (an off-by-one slice)

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
                # MISTAKE: the slice stops one field early: three features, petal width lost
                columns.append(vcol(np.array([float(v) for v in fields[:3]])))
                labels.append(names[fields[4]])
    return np.hstack(columns), np.array(labels, dtype=np.int32)
