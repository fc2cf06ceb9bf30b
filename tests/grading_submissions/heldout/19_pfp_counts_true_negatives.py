"""Variant of course_style.py: the false positives at each threshold are counted as the
non-targets below it, the true negatives (rejected), instead of those above it, nF minus them:
Pfp is 1 - Pfp, the true-negative rate (section 7.1: Pfp = FP / (FP + TN))

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import numpy as np


def compute_Pfn_Pfp_allThresholds_fast(llr, classLabels):
    """Pfn, Pfp and thresholds (arrays), one point per distinct threshold, increasing.

    The first threshold is -inf (everything accepted: Pfn 0, Pfp 1), then each distinct score
    in increasing order (decisions llr > t); the last one, the largest score, rejects all.
    """
    order = np.argsort(llr, kind="stable")
    s = llr[order]
    lab = classLabels[order]
    nT = (lab == 1).sum()
    nF = (lab == 0).sum()
    # after raising the threshold to s[i], samples 0..i are rejected
    nFN = np.concatenate([[0], np.cumsum(lab == 1)])
    nFP = np.concatenate([[0], np.cumsum(lab == 0)])  # MISTAKE: the rejected non-targets (TN)
    th = np.concatenate([[-np.inf], s])
    # keep the last entry of each run of equal scores: there the threshold has passed them all
    keep = np.concatenate([th[1:] != th[:-1], [True]])
    return nFN[keep] / nT, nFP[keep] / nF, th[keep]
