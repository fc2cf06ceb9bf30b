"""Variant of course_style.py: K-means stops as soon as any sample keeps its cluster ((new ==
old).any()) instead of when no sample changes cluster (.all()): it stops after the second
assignment, unconverged (the nearest-mean rule iterated to a fixed point, eq. 197)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""

import numpy as np


def k_means(D, n, seed=0):
    """K-means (Lloyd): returns the centroids (D, n) and the cluster of each sample (N,)."""
    rng = np.random.RandomState(seed)
    centroids = D[:, rng.choice(D.shape[1], n, replace=False)]
    clusterLabels = None
    for _ in range(100):
        dist = ((D[:, None, :] - centroids[:, :, None]) ** 2).sum(0)  # (n, N)
        newLabels = np.argmin(dist, 0)
        # MISTAKE: converged when no sample changes cluster: .all(), not .any()
        if clusterLabels is not None and (newLabels == clusterLabels).any():
            break
        clusterLabels = newLabels
        for c in range(n):
            if (clusterLabels == c).any():
                centroids[:, c] = D[:, clusterLabels == c].mean(1)
    return centroids, clusterLabels
