"""Variant of base.py: the thresholds are taken from the scores of the targets only instead of
every score: a statistic of the wrong set, the minimum is searched over too few operating points

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def compute_minDCF_binary_slow(llr, classLabels, prior, Cfn, Cfp, returnThreshold=False):
    """The least normalised DCF over the thresholds -inf, every score, +inf."""
    best, bestT = np.inf, None
    # MISTAKE: the thresholds are the target scores only
    for t in np.concatenate([[-np.inf], np.sort(llr[classLabels == 1]), [np.inf]]):
        dcf = compute_empirical_Bayes_risk_binary((llr > t).astype(int), classLabels, prior,
                                                  Cfn, Cfp)
        if dcf < best:
            best, bestT = dcf, t
    if returnThreshold:
        return best, bestT
    return best
