"""Variant of base.py: the displacement is alpha lambda_1 u_1 instead of alpha sqrt(lambda_1) u_1:
the square root of the leading eigenvalue (a standard deviation) is missing (section 9.4)

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def split_GMM_LBG(gmm, alpha=0.1, verbose=False):
    """Each component into two, at mu -+ alpha sqrt(lambda_1) u_1 (section 9.4)."""
    out = []
    for (w, mu, C) in gmm:
        U, s, _ = np.linalg.svd(C)
        # MISTAKE: the eigenvalue itself, not its square root
        shift = alpha * s[0] * U[:, 0:1]
        out.append((w / 2, mu - shift, C))
        out.append((w / 2, mu + shift, C))
    if verbose:
        print(f"LBG: {len(gmm)} -> {len(out)} components")
    return out
