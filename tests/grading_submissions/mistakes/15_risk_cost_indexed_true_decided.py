"""Variant of course_style.py: the cost matrix is read as costMatrix[true, decided]: class j's
costs are taken from row j instead of column j (costMatrix[i, j] = C(i|j), the cost of deciding
i for class j; eq. 123, 135)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""

import numpy as np


def compute_empirical_Bayes_risk(predictedLabels, classLabels, prior_array, costMatrix,
                                 normalize=True):
    """Multiclass empirical Bayes risk; normalised by the risk of the best dummy system."""
    M = compute_confusion_matrix(predictedLabels, classLabels)
    prior_array = np.asarray(prior_array, dtype=float).ravel()
    R = M / vrow(M.sum(0))  # R[i, j] = P(decide i | class j)
    risk = 0.0
    for j in range(M.shape[1]):
        # MISTAKE: costMatrix[i, j] is the cost of deciding i for class j (eq. 123, 135): the
        # costs of class j are the column costMatrix[:, j], not the row
        risk += prior_array[j] * (costMatrix[j, :] * R[:, j]).sum()
    if normalize:
        return risk / np.min(costMatrix @ vcol(prior_array))
    return risk
