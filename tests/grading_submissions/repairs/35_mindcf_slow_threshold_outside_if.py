"""Variant of base.py: the best threshold is recorded outside the if, so the returned threshold is
the last one tried (+inf), not the one of the minimum DCF

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def compute_minDCF_binary_slow(llr, classLabels, prior, Cfn, Cfp, returnThreshold=False):
    """The least normalised DCF over the thresholds -inf, every score, +inf."""
    best, bestT = np.inf, None
    for t in np.concatenate([[-np.inf], np.sort(llr), [np.inf]]):
        dcf = compute_empirical_Bayes_risk_binary((llr > t).astype(int), classLabels, prior,
                                                  Cfn, Cfp)
        if dcf < best:
            best = dcf
        # MISTAKE: outside the if: the threshold of the last iteration is kept
        bestT = t
    if returnThreshold:
        return best, bestT
    return best
