"""Variant of base.py: the class log-likelihoods are stacked as columns, S of shape (N, K) instead
of (K, N) with one row per class: a transpose missing

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def compute_log_likelihood_Gau(D, hParams):
    """S (K, N): row c is log N(x | mu_c, C_c) for each sample."""
    rows = []
    for c in sorted(hParams):
        mu, C = hParams[c]
        rows.append(logpdf_GAU_ND(D, mu, C))
    # MISTAKE: one column per class, (N, K), instead of one row per class
    return np.column_stack(rows)
