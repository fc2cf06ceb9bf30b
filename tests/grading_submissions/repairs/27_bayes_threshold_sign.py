"""Variant of base.py: the Bayes threshold has the wrong sign: +log(pi Cfn / ((1 - pi) Cfp))
instead of -log(pi Cfn / ((1 - pi) Cfp)) (eq. 130)

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def compute_optimal_Bayes_binary_llr(llr, prior, Cfn, Cfp):
    """Decide 1 where llr > -log(pi Cfn / ((1 - pi) Cfp)) (eq. 130)."""
    # MISTAKE: the threshold has the wrong sign
    threshold = np.log(prior * Cfn) - np.log((1 - prior) * Cfp)
    return (llr > threshold).astype(np.int32)
