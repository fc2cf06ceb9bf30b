"""Variant of base.py: the first line of iris.csv is skipped as if the file had a header: 149
samples instead of 150, the first setosa sample missing (an off-by-one slice)

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import csv

import numpy as np


def load_iris():
    """Iris from iris.csv: D (4, 150) float, L (150,) with 0 setosa, 1 versicolor, 2 virginica."""
    samples = []
    labels = []
    with open("iris.csv", newline="") as f:
        # MISTAKE: the first line is skipped as if it were a header (iris.csv has none)
        for record in list(csv.reader(f))[1:]:
            if len(record) < 5:
                continue  # blank line at the end of the file
            samples.append([float(v) for v in record[:4]])
            labels.append(IRIS_CLASSES.index(record[4].strip()))
    D = np.array(samples, dtype=float).T
    L = np.array(labels, dtype=np.int32)
    return D, L
