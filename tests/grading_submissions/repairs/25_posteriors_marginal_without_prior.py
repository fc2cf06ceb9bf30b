"""Variant of base.py: the marginal is computed from the class-conditional log-likelihoods without
the priors, while the numerator has them: the prior is applied in the numerator only and the
posteriors do not sum to 1 (eq. 64)

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np
import scipy.special


def compute_posteriors(log_clas_conditional_ll, prior_array):
    """P(c | x) (K, N), computed in the log domain and exponentiated at the end."""
    logPrior = np.log(as_col(np.asarray(prior_array, dtype=float)))
    logJoint = log_clas_conditional_ll + logPrior
    # MISTAKE: the marginal is taken over the likelihoods, without the priors
    return np.exp(logJoint - scipy.special.logsumexp(log_clas_conditional_ll, axis=0,
                                                     keepdims=True))
