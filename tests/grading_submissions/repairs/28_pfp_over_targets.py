"""Variant of base.py: Pfp divides the false positives by the number of targets instead of the
number of non-targets, FP / (FP + TN) (section 7.1): the wrong count

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007


def _binary_rates(pred, labels):
    """(Pfn, Pfp) of binary decisions: the fraction of targets rejected, of non-targets accepted."""
    M = compute_confusion_matrix(pred, labels)
    n_targets = M[0, 1] + M[1, 1]
    n_nontargets = M[0, 0] + M[1, 0]
    # MISTAKE: false positives divided by the number of targets
    return M[0, 1] / n_targets, M[1, 0] / n_targets
