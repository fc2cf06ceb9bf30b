"""Variant of course_style.py: the counts are incremented with M[pred, true] += 1 over index
arrays: numpy's fancy-index assignment adds 1 once per distinct cell, not once per sample, so
every non-empty cell holds 1 (np.add.at, or a loop over the samples, accumulates; section 7.1)

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import numpy as np


def compute_confusion_matrix(predictedLabels, classLabels):
    """M[i, j] = number of samples of class j predicted as i (rows = predictions)."""
    nClasses = int(classLabels.max()) + 1
    M = np.zeros((nClasses, nClasses), dtype=np.int32)
    M[predictedLabels, classLabels] += 1  # MISTAKE: fancy-index += adds once per cell
    return M
