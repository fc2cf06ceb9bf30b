"""Variant of base.py: the prior is applied twice: the log-marginal is computed from log-joints
plus log-priors again, so the posteriors do not sum to 1 (eq. 64)

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
    # MISTAKE: the prior is added again to the joint before the marginal
    logMarginal = scipy.special.logsumexp(logJoint + logPrior[:, None], axis=0)
    return logJoint - logMarginal[None, :]
