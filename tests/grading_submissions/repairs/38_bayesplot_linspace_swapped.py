"""Variant of base.py: np.linspace(right, left, npts): the arguments are swapped and the prior
log-odds run from right to left, every curve reversed

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def bayesPlot(S, L, left=-3, right=3, npts=21):
    """Prior log-odds, actDCF and minDCF (Cfn = Cfp = 1) of the Bayes error plot."""
    # MISTAKE: the arguments of linspace swapped, the points from right to left
    logOdds = np.linspace(right, left, npts)
    actDCF, minDCF = [], []
    for p in logOdds:
        effPrior = 1.0 / (1.0 + np.exp(-p))
        actDCF.append(compute_actDCF_binary_fast(S, L, effPrior, 1.0, 1.0))
        minDCF.append(compute_minDCF_binary_fast(S, L, effPrior, 1.0, 1.0))
    return logOdds, actDCF, minDCF
