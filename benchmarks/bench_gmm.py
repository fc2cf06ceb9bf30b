"""Time mlpr's GMM EM iterations against scikit-learn's GaussianMixture.

Same data (MNIST PCA 50 fitted on the 60,000 training images, the training images of one digit),
same starting model (an LBG model of mlpr), same number of EM iterations: both libraries run
``n`` iterations and 1 iteration, and the time per iteration is ``(t(n) - t(1)) / (n - 1)``, which
removes each library's set-up (validation, initialisation, scikit-learn's final E-step) from the
comparison. scikit-learn runs without regularisation (``reg_covar=0``, ``tol=0``), mlpr without the
eigenvalue floor, so that both compute the same iterations; the final means are compared as a
check. One more row times mlpr with the course's floor psi = 0.01.

A ratio below 1 means mlpr is faster. Results go to ``benchmarks/results_gmm.json``.

What bounds the full-covariance rows: per component and iteration, mlpr makes two BLAS passes over
the (D, N) data, the whitening ``L^{-1} (x - mu)`` of the Gaussian log-density (a triangular
product computed in place in the centred block, D^2 N flops, in `mlpr.gaussian`) and the scatter
``S_c`` of the M-step (a rank-N syrk, D^2 N flops, which at D = 50 runs at about half the rate of a
product and so takes about as long), plus three memory-bound elementwise passes that numpy cannot
fuse (the centring into the one work buffer, the squared norms, the ``sqrt(gamma)`` weighting; once
per iteration, the check of the data). scikit-learn does the same E-step, a full product for the
scatter (4 D^2 N flops in all) and a few more elementwise passes, which puts the ratio near 0.5-0.6
however small mlpr's overhead; well below half of scikit-learn's time would need fused kernels.
Diagonal and tied models reuse ``X * X`` and ``X X^T`` across iterations (they do not depend on the
responsibilities), which is why their ratios are lower.

scikit-learn is only used here (the optional ``bench`` extra), never by mlpr or its tests.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import scipy

from mlpr.datasets import load_mnist
from mlpr.dimred import fit_pca
from mlpr.gmm import train_gmm_em, train_gmm_lbg

try:
    import sklearn
    from sklearn.mixture import GaussianMixture
except ImportError:  # the bench extra is optional
    sklearn = None

SK_TYPE = {"full": "full", "diagonal": "diag", "tied": "tied"}


def mlpr_em(X, g0, cov_type, n, psi=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # max_iter reached on purpose
        g, hist = train_gmm_em(X, g0, cov_type, psi=psi, tol=1e-300, max_iter=n)
    assert len(hist) == n + 1, f"mlpr stopped after {len(hist) - 1} iterations, not {n}"
    return g


def sklearn_em(X, g0, cov_type, n):
    P = np.linalg.inv(g0.C)  # the precisions scikit-learn is initialised with
    kind = SK_TYPE[cov_type]
    prec = {"full": P, "diag": np.diagonal(P, axis1=1, axis2=2), "tied": P[0]}[kind]
    gm = GaussianMixture(g0.n_components, covariance_type=kind, weights_init=g0.w,
                         means_init=g0.mu.T, precisions_init=prec, reg_covar=0.0, tol=0.0,
                         max_iter=n, n_init=1, init_params="random", random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ConvergenceWarning: a fixed number of iterations
        gm.fit(X.T)
    assert gm.n_iter_ == n, f"scikit-learn stopped after {gm.n_iter_} iterations, not {n}"
    return gm


def wall(fn, k: int) -> float:
    t = time.perf_counter()
    fn(k)
    return time.perf_counter() - t


def per_iteration(fns: dict, n: int, repeats: int) -> dict:
    """Median over ``repeats`` of ``(t(n) - t(1)) / (n - 1)`` for each named ``fn(k)``; the
    libraries take turns within each repeat, so that they share the machine's load (the machine
    these benchmarks run on is shared)."""
    for fn in fns.values():  # warm-up
        fn(1)
    est = {name: [] for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            est[name].append((wall(fn, n) - wall(fn, 1)) / (n - 1))
    return {name: float(np.median(v)) for name, v in est.items()}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--iterations", type=int, default=31)
    ap.add_argument("--digit", type=int, default=3)
    ap.add_argument("--out", type=Path, default=Path(__file__).with_name("results_gmm.json"))
    args = ap.parse_args(argv)
    r, n = args.repeats, args.iterations
    rows = []

    DTR, LTR = load_mnist("train")
    X = fit_pca(DTR, 50).transform(DTR)[:, LTR == args.digit]
    X = np.ascontiguousarray(X)
    print(f"MNIST PCA 50, digit {args.digit}: {X.shape[1]} samples; {n} EM iterations vs 1",
          file=sys.stderr)

    for cov_type, M in (("full", 4), ("full", 8), ("diagonal", 16), ("tied", 8)):
        # the starting model: LBG with the course's floor, a few iterations per stage
        g0 = train_gmm_lbg(X, M, cov_type, psi=0.01, tol=1e-3)[-1]
        name = f"EM iteration {cov_type} M={M} (D=50, N={X.shape[1]})"
        fns = {"mlpr": lambda k, g0=g0, c=cov_type: mlpr_em(X, g0, c, k),
               "mlpr psi": lambda k, g0=g0, c=cov_type: mlpr_em(X, g0, c, k, psi=0.01)}
        if sklearn is not None:
            fns["sklearn"] = lambda k, g0=g0, c=cov_type: sklearn_em(X, g0, c, k)
        t = per_iteration(fns, n, r)
        row = {"operation": name, "seconds": t["mlpr"]}
        extra = ""
        if sklearn is not None:
            ours, theirs = mlpr_em(X, g0, cov_type, n), sklearn_em(X, g0, cov_type, n)
            diff = float(np.abs(ours.mu - theirs.means_.T).max())
            row.update(reference="sklearn GaussianMixture", reference_seconds=t["sklearn"],
                       vs_reference=t["mlpr"] / t["sklearn"], max_abs_diff_means=diff)
            extra = (f"  {t['mlpr'] / t['sklearn']:5.2f}x sklearn GaussianMixture  (means agree "
                     f"to {diff:.1e})")
        rows.append(row)
        print(f"{name:42s} {t['mlpr'] * 1e3:9.2f} ms{extra}", flush=True)
        label = "  same, with the floor psi=0.01"
        rows.append({"operation": label.strip(), "of": name, "seconds": t["mlpr psi"]})
        print(f"{label:42s} {t['mlpr psi'] * 1e3:9.2f} ms", flush=True)

    result = {
        "machine": {"python": platform.python_version(), "numpy": np.__version__,
                    "scipy": scipy.__version__,
                    "sklearn": sklearn.__version__ if sklearn else None,
                    "processor": platform.machine()},
        "repeats": r,
        "iterations": n,
        "rows": rows,
    }
    args.out.write_text(json.dumps(result, indent=1))
    print(f"written {args.out.name}", file=sys.stderr)


if __name__ == "__main__":
    main()
