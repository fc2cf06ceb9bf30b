"""Variant of base.py: the confusion matrix is indexed [true class, prediction] instead of the
course's [prediction, true class] (section 7.1): its transpose

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def compute_confusion_matrix(predictedLabels, classLabels):
    """M[i, j]: how many samples of class j were predicted as i."""
    K = int(np.max(classLabels)) + 1
    M = np.zeros((K, K), dtype=int)
    for p, t in zip(np.asarray(predictedLabels).ravel(), np.asarray(classLabels).ravel()):
        # MISTAKE: indexed [true, predicted], the course has rows = predictions
        M[int(t), int(p)] += 1
    return M
