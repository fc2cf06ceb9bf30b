"""Variant of base.py: each class mean is computed on the whole training set (D) instead of the
class's samples (Dc): a statistic of the wrong set, every class gets the same mean (eq. 70)

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007


def Gau_Tied_ML_estimates(D, L):
    """{label: (mu_c, Sw)}: class means and one within-class covariance (eq. 70)."""
    Sb, Sw = compute_Sb_Sw(D, L)
    params = {}
    for c, Dc in _class_split(D, L):
        # MISTAKE: the mean of the whole data set instead of the class mean
        params[int(c)] = (as_col(D.mean(axis=1)), Sw)
    return params
