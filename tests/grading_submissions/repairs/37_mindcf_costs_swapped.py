"""Variant of base.py: the DCF multiplies Pfn by Cfp and Pfp by Cfn: the two costs are exchanged
(eq. 136: pi Cfn Pfn + (1 - pi) Cfp Pfp)

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def compute_minDCF_binary_fast(llr, classLabels, prior, Cfn, Cfp, returnThreshold=False):
    """minDCF from the error rates at every threshold."""
    Pfn, Pfp, thresholds = compute_Pfn_Pfp_allThresholds_fast(llr, classLabels)
    normaliser = min(prior * Cfn, (1 - prior) * Cfp)
    # MISTAKE: Cfn and Cfp exchanged in the DCF
    dcf = (prior * Cfp * Pfn + (1 - prior) * Cfn * Pfp) / normaliser
    i = int(np.argmin(dcf))
    if returnThreshold:
        return dcf[i], thresholds[i]
    return dcf[i]
