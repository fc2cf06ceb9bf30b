"""Variant of base.py: the component weight is added to the log-density as w instead of log w (eq.
185 in the log domain, eq. 190)

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007

import numpy as np


def _gmm_joint(X, gmm):
    """log w_g + log N(x | mu_g, C_g), one row per component (G, N) (eq. 190)."""
    # MISTAKE: the weight added as it is, not its log
    return np.vstack([w + logpdf_GAU_ND(X, mu, C) for (w, mu, C) in gmm])
