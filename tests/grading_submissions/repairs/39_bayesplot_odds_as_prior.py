"""Variant of base.py: the effective prior is taken as the odds exp(p) instead of the sigmoid 1 /
(1 + exp(-p)) of the prior log-odds p (section 7.3)

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def bayesPlot(S, L, left=-3, right=3, npts=21):
    """Prior log-odds, actDCF and minDCF (Cfn = Cfp = 1) of the Bayes error plot."""
    logOdds = np.linspace(left, right, npts)
    actDCF, minDCF = [], []
    for p in logOdds:
        # MISTAKE: exp(p) is the prior odds, not the prior
        effPrior = np.exp(p)
        actDCF.append(compute_actDCF_binary_fast(S, L, effPrior, 1.0, 1.0))
        minDCF.append(compute_minDCF_binary_fast(S, L, effPrior, 1.0, 1.0))
    return logOdds, actDCF, minDCF
