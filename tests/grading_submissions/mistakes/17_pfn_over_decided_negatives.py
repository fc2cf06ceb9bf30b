"""Variant of course_style.py: Pfn is divided by the samples decided 0 (M[0, 0] + M[0, 1], a row of
M) instead of the class-1 samples, FN + TP (a column; section 7.1, eq. 136)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""


def compute_empirical_Bayes_risk_binary(predictedLabels, classLabels, prior, Cfn, Cfp,
                                        normalize=True):
    """DCF of binary decisions; normalised by min(prior Cfn, (1 - prior) Cfp)."""
    M = compute_confusion_matrix(predictedLabels, classLabels)
    # MISTAKE: Pfn = FN / (FN + TP) is over the class-1 samples (a column of M, section 7.1);
    # M[0, 0] + M[0, 1] counts the samples decided 0
    Pfn = M[0, 1] / (M[0, 1] + M[0, 0])
    Pfp = M[1, 0] / (M[0, 0] + M[1, 0])
    dcf = prior * Cfn * Pfn + (1 - prior) * Cfp * Pfp
    if normalize:
        return dcf / min(prior * Cfn, (1 - prior) * Cfp)
    return dcf
