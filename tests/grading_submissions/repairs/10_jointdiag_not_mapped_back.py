"""Variant of base.py: the LDA directions found in the whitened space are returned as they are: W =
U_B instead of W = P_W^T U_B (eq. 11), the whitening is not mapped back

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
    Pw = Uw @ np.diag(sw ** -0.5) @ Uw.T  # P_W = U_W Sigma_W^(-1/2) U_W^T
    SbWhite = Pw @ Sb @ Pw.T
    Ub = _leading_directions(SbWhite, m)
    # MISTAKE: the directions of the whitened space are not mapped back (eq. 11)
    W = Ub
    return W
