"""Variant of course_style.py: the priors are added to the log-likelihoods as they are, in the
linear domain, instead of their logarithms log P(c) (eq. 65)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""

import numpy as np
import scipy.special


def compute_logPosterior(S_logLikelihood, v_prior):
    # MISTAKE: the log-joint adds log P(c) (eq. 65); the priors were added as they are
    logJoint = S_logLikelihood + vcol(np.asarray(v_prior, dtype=float))
    logMarginal = vrow(scipy.special.logsumexp(logJoint, axis=0))
    return logJoint - logMarginal
