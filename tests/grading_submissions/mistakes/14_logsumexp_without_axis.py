"""Variant of course_style.py: logsumexp without axis= sums over every entry of the K x N matrix:
the log-marginal must be one value per sample, over the classes (axis=0; eq. 64)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""

import numpy as np
import scipy.special


def compute_logPosterior(S_logLikelihood, v_prior):
    logJoint = S_logLikelihood + vcol(np.log(np.asarray(v_prior, dtype=float)))
    # MISTAKE: logsumexp without axis= sums over every entry: the marginal is one value per
    # sample, over the classes (axis=0, eq. 64)
    logMarginal = scipy.special.logsumexp(logJoint)
    return logJoint - logMarginal
