"""Variant of base.py: the eigenvectors' order is reversed on the rows (vecs[::-1]) instead of the
columns (vecs[:, ::-1]): W is the first m columns with their entries upside down, not the m
leading generalised eigenvectors (eq. 7)

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import scipy.linalg


def compute_lda_geig(D, L, m):
    """LDA directions W (D, m): the generalised eigenvectors of Sb w = lambda Sw w (eq. 7)."""
    Sb, Sw = compute_Sb_Sw(D, L)
    vals, vecs = scipy.linalg.eigh(Sb, Sw)  # eigenvalues in ascending order
    # MISTAKE: the rows are reversed instead of the columns
    W = vecs[::-1][:, :m]
    return W
