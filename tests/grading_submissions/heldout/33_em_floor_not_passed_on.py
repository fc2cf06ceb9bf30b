"""Variant of course_style.py: psiEig is not passed on to the EM iterations: train_GMM_EM runs
unconstrained EM whatever floor it is given, the eigenvalue constraint of section 9.4 is never
applied (an argument not passed along)

The function below replaces course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py --set heldout assembles it).
"""
# ruff: noqa: F821, F841, B007, NPY002


def train_GMM_EM(X, gmm, covType='Full', psiEig=None, epsLLAverage=1e-6, verbose=False):
    """EM until the average log-likelihood increases by at most epsLLAverage."""
    llOld = logpdf_GMM(X, gmm).mean()
    while True:
        gmm = train_GMM_EM_Iteration(X, gmm, covType=covType)  # MISTAKE: psiEig not passed on
        llNew = logpdf_GMM(X, gmm).mean()
        if verbose:
            print('GMM - average ll %.8e' % llNew)
        if llNew - llOld <= epsLLAverage:
            return gmm
        llOld = llNew
