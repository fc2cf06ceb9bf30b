"""Variant of base.py: the second step of the joint diagonalisation takes the eigenvectors of the
original Sb instead of the whitened P_W Sb P_W^T (eq. 10): the steps are done on the wrong
matrix

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
    # MISTAKE: the second step diagonalises the original Sb, not the whitened one
    Ub = _leading_directions(Sb, m)
    W = Pw.T @ Ub  # eq. 11
    return W
