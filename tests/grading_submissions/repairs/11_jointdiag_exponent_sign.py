"""Variant of base.py: the whitening matrix uses Sigma_W^(1/2), the exponent's sign lost: P_W = U_W
Sigma_W^(-1/2) U_W^T (section 3.3, after eq. 9)

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def compute_lda_JointDiag(D, L, m):
    """LDA directions by joint diagonalisation (eq. 9-11): whiten Sw, then the leading
    directions of the whitened Sb, mapped back with P_W^T."""
    Sb, Sw = compute_Sb_Sw(D, L)
    Uw, sw, _ = np.linalg.svd(Sw)
    # MISTAKE: Sigma_W^(1/2) instead of Sigma_W^(-1/2)
    Pw = Uw @ np.diag(sw ** 0.5) @ Uw.T
    SbWhite = Pw @ Sb @ Pw.T
    Ub = _leading_directions(SbWhite, m)
    W = Pw.T @ Ub  # eq. 11
    return W
