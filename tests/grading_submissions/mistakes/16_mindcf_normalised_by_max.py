"""Variant of course_style.py: the DCF is normalised by the worse dummy system, max(pi Cfn, (1 -
pi) Cfp), instead of the best one, min(pi Cfn, (1 - pi) Cfp) (eq. 137)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""

import numpy as np


def compute_minDCF_binary_fast(llr, classLabels, prior, Cfn, Cfp, returnThreshold=False):
    Pfn, Pfp, th = compute_Pfn_Pfp_allThresholds_fast(llr, classLabels)
    # MISTAKE: normalised by the best dummy system, min(pi Cfn, (1 - pi) Cfp) (eq. 137), not max
    dcf = (prior * Cfn * Pfn + (1 - prior) * Cfp * Pfp) / max(prior * Cfn, (1 - prior) * Cfp)
    idx = np.argmin(dcf)
    if returnThreshold:
        return dcf[idx], th[idx]
    return dcf[idx]
