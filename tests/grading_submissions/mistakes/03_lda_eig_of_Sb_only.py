"""Variant of course_style.py: Sw is left out of the LDA eigenproblem: the eigenvectors of Sb alone
instead of the generalised problem Sb w = lambda Sw w (eq. 7)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""

import scipy.linalg


def compute_lda_geig(D, L, m):
    """LDA directions W (D, m) from the generalised eigenproblem Sb w = lambda Sw w."""
    Sb, Sw = compute_Sb_Sw(D, L)
    # MISTAKE: LDA solves the generalised problem Sb w = lambda Sw w (eq. 7); Sw was left out
    s, U = scipy.linalg.eigh(Sb)
    return U[:, ::-1][:, 0:m]
