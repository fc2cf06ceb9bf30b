"""Variant of base.py: the centroids are updated from the previous assignment (labels) instead of
the one just computed (newLabels): the two steps of Lloyd's iteration are out of step, the
returned centroids are not the means of their clusters (eq. 196-197)

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def k_means(D, n, seed=0):
    """Lloyd's K-means from n samples drawn at random: (centroids (D, n), labels (N,))."""
    rng = np.random.default_rng(seed)
    start = rng.permutation(D.shape[1])[:n]
    centroids = D[:, start].copy()
    labels = np.full(D.shape[1], -1)
    while True:
        dist2 = np.zeros((n, D.shape[1]))
        for k in range(n):  # squared distance of every sample from centroid k (eq. 197)
            dist2[k] = np.sum((D - centroids[:, k:k + 1]) ** 2, axis=0)
        newLabels = np.argmin(dist2, axis=0)
        if np.array_equal(newLabels, labels):
            break  # the assignment did not change: a fixed point
        for k in range(n):  # each centroid moves to the mean of its new cluster (eq. 196)
            # MISTAKE: the update uses the previous assignment, not the new one
            members = D[:, labels == k]
            if members.shape[1] > 0:
                centroids[:, k] = members.mean(axis=1)
        labels = newLabels
    return centroids, labels
