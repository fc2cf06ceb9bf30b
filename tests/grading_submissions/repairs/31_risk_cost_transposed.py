"""Variant of base.py: the cost of deciding i for class j is read as costMatrix[j, i], the
transpose of the course's C[i, j] = C(i | j) (eq. 133-135)

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def compute_empirical_Bayes_risk(predictedLabels, classLabels, prior_array, costMatrix,
                                 normalize=True):
    """Empirical Bayes risk (eq. 135) of multiclass decisions, normalised by the risk of the
    best decision taken from the priors alone."""
    prior_array = np.asarray(prior_array, dtype=float).ravel()
    costMatrix = np.asarray(costMatrix, dtype=float)
    M = compute_confusion_matrix(predictedLabels, classLabels)
    K = M.shape[0]
    risk = 0.0
    for j in range(K):
        nj = M[:, j].sum()
        for i in range(K):
            # MISTAKE: the cost matrix read transposed, C[j, i]
            risk += prior_array[j] * costMatrix[j, i] * M[i, j] / nj
    if normalize:
        dummy = costMatrix @ prior_array  # expected cost of always deciding each class
        risk = risk / dummy.min()
    return risk
