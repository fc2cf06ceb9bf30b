"""Variant of base.py: the prior is applied twice: the llr is shifted by the prior log-odds and
then compared with the Bayes threshold, which already holds them (eq. 130)

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def compute_empirical_Bayes_risk_binary_llr_optimal_decisions(llr, classLabels, prior, Cfn, Cfp,
                                                              normalize=True):
    """actDCF: the DCF of the Bayes decisions with the theoretical threshold."""
    # MISTAKE: the prior log-odds are added to the llr before the Bayes threshold
    decisions = compute_optimal_Bayes_binary_llr(llr + np.log(prior / (1 - prior)), prior, Cfn, Cfp)
    return compute_empirical_Bayes_risk_binary(decisions, classLabels, prior, Cfn, Cfp,
                                               normalize=normalize)
