"""Variant of course_style.py: the stopping test is inverted: EM stops as soon as the average log-
likelihood increases by more than epsLLAverage, i.e. after one iteration, instead of when the
increase falls below it (section 9.3)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""


def train_GMM_EM(X, gmm, covType='Full', psiEig=None, epsLLAverage=1e-6, verbose=False):
    """EM until the average log-likelihood increases by at most epsLLAverage."""
    llOld = logpdf_GMM(X, gmm).mean()
    while True:
        gmm = train_GMM_EM_Iteration(X, gmm, covType=covType, psiEig=psiEig)
        llNew = logpdf_GMM(X, gmm).mean()
        if verbose:
            print('GMM - average ll %.8e' % llNew)
        # MISTAKE: stop when the increase is at most epsLLAverage; this stops while it improves
        if llNew - llOld >= epsLLAverage:
            return gmm
        llOld = llNew
