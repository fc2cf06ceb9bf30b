"""Variant of course_style.py: the effective prior of the log-odds x is computed as 1 / (1 +
exp(x)) instead of 1 / (1 + exp(-x)): each point is evaluated at 1 - pi, the plot read backwards
(section 7.3, prior log-odds log(pi / (1 - pi)))

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""

import numpy as np


def bayesPlot(S, L, left=-3, right=3, npts=21):
    """Bayes error plot data: prior log-odds, actDCF and minDCF (Cfn = Cfp = 1)."""
    effPriorLogOdds = np.linspace(left, right, npts)
    # MISTAKE: the prior of the log-odds x is 1 / (1 + exp(-x)); exp(+x) gives 1 - pi
    effPriors = 1.0 / (1.0 + np.exp(effPriorLogOdds))
    actDCF = [compute_actDCF_binary_fast(S, L, p, 1.0, 1.0) for p in effPriors]
    minDCF = [compute_minDCF_binary_fast(S, L, p, 1.0, 1.0) for p in effPriors]
    return effPriorLogOdds, actDCF, minDCF
