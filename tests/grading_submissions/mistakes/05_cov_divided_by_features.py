"""Variant of course_style.py: the ML covariance is divided by the number of features D.shape[0]
instead of the number of samples N = D.shape[1] (eq. 50, 59)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""


def compute_mu_C(D):
    mu = vcol(D.mean(1))
    DC = D - mu
    # MISTAKE: the ML covariance divides by the number of samples N = D.shape[1] (eq. 50),
    # not by the number of features D.shape[0]
    C = (DC @ DC.T) / float(D.shape[0])
    return mu, C
