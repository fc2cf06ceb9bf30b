"""Variant of course_style.py: the minimum is taken over the unnormalised DCF (normalize=False)
instead of the normalised one, divided by the cost of the best dummy system min(pi Cfn, (1 -
pi) Cfp) (eq. 137): minDCF is the minimum of the normalised DCF

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import numpy as np


def compute_minDCF_binary_slow(llr, classLabels, prior, Cfn, Cfp, returnThreshold=False):
    thresholds = np.concatenate([np.array([-np.inf]), llr, np.array([np.inf])])
    dcfMin = None
    dcfTh = None
    for th in thresholds:
        dcf = compute_empirical_Bayes_risk_binary(np.int32(llr > th), classLabels, prior, Cfn, Cfp,
                                                  normalize=False)  # MISTAKE: the raw DCF
        if dcfMin is None or dcf < dcfMin:
            dcfMin = dcf
            dcfTh = th
    if returnThreshold:
        return dcfMin, dcfTh
    return dcfMin
