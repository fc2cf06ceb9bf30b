"""Variant of course_style.py: both halves of a split keep the weight w instead of w / 2: the
weights sum to 2 (eq. 185, section 9.4)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""

import numpy as np


def split_GMM_LBG(gmm, alpha=0.1, verbose=False):
    """Each component becomes two, displaced by -+ alpha sqrt(lambda_1) u_1 (leading eigenpair)."""
    gmmOut = []
    if verbose:
        print('LBG - from %d to %d components' % (len(gmm), 2 * len(gmm)))
    for w, mu, C in gmm:
        s, U = np.linalg.eigh(C)
        d = U[:, -1:] * np.sqrt(s[-1]) * alpha
        # MISTAKE: each half carries w / 2: the weights must still sum to 1 (eq. 185)
        gmmOut.append((w, mu - d, C))
        gmmOut.append((w, mu + d, C))
    return gmmOut
