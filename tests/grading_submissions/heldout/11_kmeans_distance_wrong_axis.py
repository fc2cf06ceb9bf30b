"""Variant of course_style.py: the squared differences are summed over the wrong axis, .sum(1)
(over the centroids) instead of .sum(0) (over the features): dist is not the (n, N) matrix of
squared distances, so the assignment step (the nearest centroid, eq. 197) picks an index over
the features

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import numpy as np


def k_means(D, n, seed=0):
    """K-means (Lloyd): returns the centroids (D, n) and the cluster of each sample (N,)."""
    rng = np.random.RandomState(seed)
    centroids = D[:, rng.choice(D.shape[1], n, replace=False)]
    clusterLabels = None
    for _ in range(100):
        # MISTAKE: summed over the centroids (axis 1) instead of the features (axis 0)
        dist = ((D[:, None, :] - centroids[:, :, None]) ** 2).sum(1)
        newLabels = np.argmin(dist, 0)
        if clusterLabels is not None and (newLabels == clusterLabels).all():
            break
        clusterLabels = newLabels
        for c in range(n):
            if (clusterLabels == c).any():
                centroids[:, c] = D[:, clusterLabels == c].mean(1)
    return centroids, clusterLabels
