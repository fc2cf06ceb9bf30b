"""Variant of course_style.py: the two matrices of the generalised eigenproblem are passed in the
wrong order, eigh(Sw, Sb), which solves Sw w = lambda Sb w instead of Sb w = lambda Sw w (eq.
7): arguments swapped (Sb has rank K - 1 and cannot be the positive definite right-hand matrix)

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import scipy.linalg


def compute_lda_geig(D, L, m):
    """LDA directions W (D, m) from the generalised eigenproblem Sb w = lambda Sw w."""
    Sb, Sw = compute_Sb_Sw(D, L)
    s, U = scipy.linalg.eigh(Sw, Sb)  # MISTAKE: the two matrices swapped: Sw w = lambda Sb w
    return U[:, ::-1][:, 0:m]
