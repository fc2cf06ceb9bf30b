"""Variant of base.py: the normalised DCF is divided by pi Cfn alone instead of min(pi Cfn, (1 -
pi) Cfp), the cost of the best dummy system (eq. 137): the wrong normaliser

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007


def compute_empirical_Bayes_risk_binary(predictedLabels, classLabels, prior, Cfn, Cfp,
                                        normalize=True):
    """DCF = pi Cfn Pfn + (1 - pi) Cfp Pfp (eq. 136), divided by the best dummy system's cost
    (eq. 137) when normalize."""
    Pfn, Pfp = _binary_rates(predictedLabels, classLabels)
    dcfU = prior * Cfn * Pfn + (1 - prior) * Cfp * Pfp
    if not normalize:
        return dcfU
    # MISTAKE: normalised by pi Cfn alone, not by the best dummy system
    return dcfU / (prior * Cfn)
