"""Variant of base.py: the previous average log-likelihood is overwritten before the gain is
computed, so the gain is always 0 and EM stops after one iteration: early stopping on a wrong
criterion (section 9.3)

The function below replaces base.py's of the same name; the rest of the module is base.py's
(benchmarks/bench_mistakes.py --set repairs assembles it).
"""
# ruff: noqa: F821, F841, B007


def train_GMM_EM(X, gmm, covType='Full', psiEig=None, epsLLAverage=1e-6, verbose=False):
    """EM iterations until the average log-likelihood gains no more than epsLLAverage."""
    current = logpdf_GMM(X, gmm).mean()
    while True:
        gmm = train_GMM_EM_Iteration(X, gmm, covType, psiEig)
        new = logpdf_GMM(X, gmm).mean()
        # MISTAKE: the previous value is overwritten before the gain is computed
        current = new  # overwritten first
        gain = new - current  # then the gain
        if verbose:
            print(f"EM: average log-likelihood {new:.10f}")
        if gain <= epsLLAverage:
            break
    return gmm
