"""Variant of base.py: the log-posterior divides the log-joint by the log-marginal instead of
subtracting it (log of a ratio is a difference; eq. 64 in the log domain)

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np
import scipy.special


def compute_logPosterior(S_logLikelihood, v_prior):
    """log P(c | x) (K, N) from the class log-likelihoods and the priors (eq. 64)."""
    logPrior = np.log(np.asarray(v_prior, dtype=float).ravel())
    logJoint = S_logLikelihood + logPrior[:, None]
    logMarginal = scipy.special.logsumexp(logJoint, axis=0)
    # MISTAKE: a division where the log domain needs a subtraction
    return logJoint / logMarginal[None, :]
