"""Variant of base.py: each class's cost is weighted 1/K instead of by its prior pi_c (eq. 135):
the risk ignores the application's priors

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
            # MISTAKE: each class weighted 1/K instead of by its prior
            risk += costMatrix[i, j] * M[i, j] / nj / K
    if normalize:
        dummy = costMatrix @ prior_array  # expected cost of always deciding each class
        risk = risk / dummy.min()
    return risk
