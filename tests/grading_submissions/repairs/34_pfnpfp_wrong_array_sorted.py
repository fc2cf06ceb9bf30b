"""Variant of base.py: the target scores are picked from the sorted llr with the mask of the
unsorted labels: the wrong array is sorted (the mask must select before sorting), so the
'targets' are arbitrary scores

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def compute_Pfn_Pfp_allThresholds_fast(llr, classLabels):
    """Pfn, Pfp at -inf and at each distinct score (increasing), counted with searchsorted:
    at threshold t the samples with s <= t are rejected."""
    # MISTAKE: the whole llr is sorted, then masked with the labels of the unsorted one
    targetScores = np.sort(llr)[classLabels == 1]
    nontargetScores = np.sort(llr[classLabels == 0])
    thresholds = np.concatenate([[-np.inf], np.unique(llr)])
    missed = np.searchsorted(targetScores, thresholds, side="right")  # targets with s <= t
    rejected = np.searchsorted(nontargetScores, thresholds, side="right")
    Pfn = missed / targetScores.size
    Pfp = (nontargetScores.size - rejected) / nontargetScores.size
    return Pfn, Pfp, thresholds
