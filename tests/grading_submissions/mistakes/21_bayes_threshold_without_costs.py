"""Variant of course_style.py: the Bayes threshold leaves out the costs: -log(pi / (1 - pi))
instead of -log(pi Cfn / ((1 - pi) Cfp)) (eq. 130)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""

import numpy as np


def compute_optimal_Bayes_binary_llr(llr, prior, Cfn, Cfp):
    # MISTAKE: the threshold includes the costs, -log(pi Cfn / ((1 - pi) Cfp)) (eq. 130)
    th = -np.log(prior / (1 - prior))
    return np.int32(llr > th)
