"""Variant of course_style.py: the log-posterior subtracts the log-marginal from the
class-conditional log-likelihoods instead of the log-joint: the prior is applied in the
marginal only, not in the numerator (eq. 64-65), so the posteriors do not sum to 1

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002

import numpy as np
import scipy.special


def compute_logPosterior(S_logLikelihood, v_prior):
    logJoint = S_logLikelihood + vcol(np.log(np.asarray(v_prior, dtype=float)))
    logMarginal = vrow(scipy.special.logsumexp(logJoint, axis=0))
    return S_logLikelihood - logMarginal  # MISTAKE: the numerator without the log-prior
