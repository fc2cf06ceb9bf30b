"""Variant of course_style.py: the whitening matrix is Sw^-1 = U diag(1/s) U^T instead of Sw^(-1/2)
= U diag(1/sqrt(s)) U^T (section 3.3, eq. 9-10: P_W = U_W Sigma_W^(-1/2) U_W^T)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""

import numpy as np


def compute_lda_JointDiag(D, L, m):
    """LDA directions W (D, m) by whitening Sw, then PCA of the transformed Sb."""
    Sb, Sw = compute_Sb_Sw(D, L)
    s, U = np.linalg.eigh(Sw)
    # MISTAKE: the whitening matrix is Sw^(-1/2) = U diag(1/sqrt(s)) U^T (eq. 9-10); this is
    # Sw^-1
    P1 = U @ np.diag(1.0 / s) @ U.T
    SbT = P1 @ Sb @ P1.T
    s2, U2 = np.linalg.eigh(SbT)
    P2 = U2[:, ::-1][:, 0:m]
    return P1.T @ P2
