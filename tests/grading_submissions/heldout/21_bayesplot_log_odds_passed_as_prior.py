"""Variant of course_style.py: the prior log-odds themselves are passed to actDCF and minDCF as
the prior instead of the effective priors computed from them, pi = 1 / (1 + exp(-p)): the wrong
array is passed along, and the DCFs are evaluated at 'priors' outside [0, 1] (section 7.3)

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import numpy as np


def bayesPlot(S, L, left=-3, right=3, npts=21):
    """Bayes error plot data: prior log-odds, actDCF and minDCF (Cfn = Cfp = 1)."""
    effPriorLogOdds = np.linspace(left, right, npts)
    effPriors = 1.0 / (1.0 + np.exp(-effPriorLogOdds))
    # MISTAKE: the prior log-odds are passed along as the priors, not the effective priors
    actDCF = [compute_actDCF_binary_fast(S, L, p, 1.0, 1.0) for p in effPriorLogOdds]
    minDCF = [compute_minDCF_binary_fast(S, L, p, 1.0, 1.0) for p in effPriorLogOdds]
    return effPriorLogOdds, actDCF, minDCF
