"""Variant of base.py: the actual DCF of every point uses the decisions of threshold 0 (prior 0.5)
instead of the Bayes decisions at that point's effective prior (threshold -p, eq. 130): the
decisions are not re-taken for each application

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
        effPrior = 1.0 / (1.0 + np.exp(-p))
        # MISTAKE: the decisions are taken once at threshold 0 for every prior
        actDCF.append(compute_empirical_Bayes_risk_binary((S > 0).astype(int), L,
                                                          effPrior, 1.0, 1.0))
        minDCF.append(compute_minDCF_binary_fast(S, L, effPrior, 1.0, 1.0))
    return logOdds, actDCF, minDCF
