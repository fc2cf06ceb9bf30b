"""Variant of course_style.py: the scores are sorted but the labels are not permuted with them
(classLabels[order]): the counts of errors below each threshold use the wrong labels (section
7.1-7.3)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""

import numpy as np


def compute_Pfn_Pfp_allThresholds_fast(llr, classLabels):
    """Pfn, Pfp and thresholds (arrays), one point per distinct threshold, increasing.

    The first threshold is -inf (everything accepted: Pfn 0, Pfp 1), then each distinct score
    in increasing order (decisions llr > t); the last one, the largest score, rejects all.
    """
    order = np.argsort(llr, kind="stable")
    s = llr[order]
    # MISTAKE: the labels must follow the scores' sort, classLabels[order]
    lab = classLabels
    nT = (lab == 1).sum()
    nF = (lab == 0).sum()
    # after raising the threshold to s[i], samples 0..i are rejected
    nFN = np.concatenate([[0], np.cumsum(lab == 1)])
    nFP = nF - np.concatenate([[0], np.cumsum(lab == 0)])
    th = np.concatenate([[-np.inf], s])
    # keep the last entry of each run of equal scores: there the threshold has passed them all
    keep = np.concatenate([th[1:] != th[:-1], [True]])
    return nFN[keep] / nT, nFP[keep] / nF, th[keep]
