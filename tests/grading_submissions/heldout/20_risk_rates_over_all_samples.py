"""Variant of course_style.py: the confusion matrix is divided by the total number of samples N
instead of each class's count N_j (its column sums): R holds the joint frequencies of decision
and class, not P(decide i | class j), so the class frequencies weigh the risk on top of the
priors (eq. 134-135: the wrong normaliser)

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import numpy as np


def compute_empirical_Bayes_risk(predictedLabels, classLabels, prior_array, costMatrix,
                                 normalize=True):
    """Multiclass empirical Bayes risk; normalised by the risk of the best dummy system."""
    M = compute_confusion_matrix(predictedLabels, classLabels)
    prior_array = np.asarray(prior_array, dtype=float).ravel()
    R = M / M.sum()  # MISTAKE: divided by all N samples, not by each class's N_j
    risk = 0.0
    for j in range(M.shape[1]):
        risk += prior_array[j] * (costMatrix[:, j] * R[:, j]).sum()
    if normalize:
        return risk / np.min(costMatrix @ vcol(prior_array))
    return risk
