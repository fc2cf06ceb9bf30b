"""Variant of course_style.py: the LBG displacement follows the smallest eigenpair (U[:, 0], s[0])
instead of the leading one (eigh sorts ascending: U[:, -1], s[-1]; section 9.4)

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
        # MISTAKE: eigh sorts ascending: the leading eigenpair is the last, U[:, -1], s[-1]
        d = U[:, 0:1] * np.sqrt(s[0]) * alpha
        gmmOut.append((0.5 * w, mu - d, C))
        gmmOut.append((0.5 * w, mu + d, C))
    return gmmOut
