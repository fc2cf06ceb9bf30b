"""Variant of course_style.py: the confusion matrix is normalised by its row sums (the number of
samples decided i) instead of its column sums, the class counts N_j (R[i, j] = P(decide i |
class j); eq. 134-135)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""

import numpy as np


def compute_empirical_Bayes_risk(predictedLabels, classLabels, prior_array, costMatrix,
                                 normalize=True):
    """Multiclass empirical Bayes risk; normalised by the risk of the best dummy system."""
    M = compute_confusion_matrix(predictedLabels, classLabels)
    prior_array = np.asarray(prior_array, dtype=float).ravel()
    # MISTAKE: R[i, j] = P(decide i | class j) divides each column by its class count N_j
    # (eq. 135); this divides each row by the number of decisions i
    R = M / vcol(M.sum(1))
    risk = 0.0
    for j in range(M.shape[1]):
        risk += prior_array[j] * (costMatrix[:, j] * R[:, j]).sum()
    if normalize:
        return risk / np.min(costMatrix @ vcol(prior_array))
    return risk
