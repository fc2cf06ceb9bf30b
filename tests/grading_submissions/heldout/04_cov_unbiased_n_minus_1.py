"""Variant of course_style.py: the covariance is divided by N - 1 (the unbiased estimate,
numpy.cov's default) instead of N: the course's maximum-likelihood covariance has 1/N (eq. 59)

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002


def compute_mu_C(D):
    mu = vcol(D.mean(1))
    DC = D - mu
    C = (DC @ DC.T) / float(D.shape[1] - 1)  # MISTAKE: the unbiased 1/(N-1), not the ML 1/N
    return mu, C
