"""Variant of base.py: compute_Sb_Sw's pair (Sb, Sw) is unpacked the other way round, so the tied
covariance is the between-class matrix Sb instead of the within-class Sw (eq. 70)

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007


def Gau_Tied_ML_estimates(D, L):
    """{label: (mu_c, Sw)}: class means and one within-class covariance (eq. 70)."""
    # MISTAKE: the pair is unpacked the other way round, (Sw, Sb)
    Sw, Sb = compute_Sb_Sw(D, L)
    params = {}
    for c, Dc in _class_split(D, L):
        params[int(c)] = (as_col(Dc.mean(axis=1)), Sw)
    return params
