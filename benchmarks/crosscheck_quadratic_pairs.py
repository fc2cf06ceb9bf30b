"""Cross-check: pairwise binary LR on the quadratic expansion of PCA 50, mlpr against scikit-learn.

Lecture 06 measures an average test EER over the 45 MNIST digit pairs about three times lower than
the notes' (0.3% against 0.9-1.0%). This script repeats that experiment with an independent
pipeline built from scikit-learn only, and times the two:

* mlpr: ``fit_pca`` on the 60,000 training images, centred projections, the half quadratic
  expansion (``expand_quadratic_symmetric``), ``train_logreg_binary``, ``eer(method="threshold")``;
* scikit-learn: ``PCA(50)``, ``PolynomialFeatures(2)`` (every product once, unscaled, a different
  parametrisation of the same quadratic model), ``LogisticRegression`` with C = 1 / (lambda n),
  which minimises n C times the notes' objective, and the raw EER from ``roc_curve``.

The two regularisers weigh the cross products differently (PolynomialFeatures does not scale them
by sqrt(2)), so the two EERs agree closely but not to the last digit.

Usage: ``python benchmarks/crosscheck_quadratic_pairs.py [--lam 1e-3] [--pairs 45]``; writes
``benchmarks/crosscheck_quadratic_pairs.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from itertools import combinations
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mlpr.datasets import binary_task, load_mnist  # noqa: E402
from mlpr.dimred import fit_pca  # noqa: E402
from mlpr.evaluation import eer  # noqa: E402
from mlpr.logreg import expand_quadratic_symmetric, train_logreg_binary  # noqa: E402

try:
    from sklearn.decomposition import PCA as SkPCA
    from sklearn.linear_model import LogisticRegression as SkLogReg
    from sklearn.metrics import roc_curve
    from sklearn.preprocessing import PolynomialFeatures
except ImportError:  # pragma: no cover - the bench extra installs it
    sys.exit("scikit-learn is needed: pip install -e '.[bench]'")


def sklearn_raw_eer(labels: np.ndarray, scores: np.ndarray) -> float:
    """EER at the ROC point where |Pfn - Pfp| is smallest, from scikit-learn's roc_curve."""
    pfp, ptp, _ = roc_curve(labels, scores)
    pfn = 1.0 - ptp
    i = np.argmin(np.abs(pfn - pfp))
    return float((pfn[i] + pfp[i]) / 2)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lam", type=float, default=1e-3, help="lambda (default 1e-3)")
    ap.add_argument("--pairs", type=int, default=45, help="first N of the 45 pairs")
    ap.add_argument("--out", type=Path,
                    default=Path(__file__).with_name("crosscheck_quadratic_pairs.json"))
    args = ap.parse_args(argv)
    DTR, LTR = load_mnist("train")
    DTE, LTE = load_mnist("test")

    pca = fit_pca(DTR, 50)
    ZTR, ZTE = pca.transform(DTR - pca.mu), pca.transform(DTE - pca.mu)
    sk_pca = SkPCA(50).fit(DTR.T)  # centres with the training mean, like ZTR above
    YTR_sk, YTE_sk = sk_pca.transform(DTR.T), sk_pca.transform(DTE.T)

    rows = []
    for a, b in list(combinations(range(10), 2))[: args.pairs]:
        XTR, ytr = binary_task(ZTR, LTR, a, b)
        XTE, yte = binary_task(ZTE, LTE, a, b)
        t0 = time.perf_counter()
        model = train_logreg_binary(expand_quadratic_symmetric(XTR), ytr, args.lam,
                                    tol=1e-5, max_iter=300)
        e_mlpr = 100 * eer(model.scores(expand_quadratic_symmetric(XTE)), yte, method="threshold")
        t_mlpr = time.perf_counter() - t0

        tr, te = (LTR == a) | (LTR == b), (LTE == a) | (LTE == b)
        t0 = time.perf_counter()
        poly = PolynomialFeatures(2, include_bias=False)
        Q = poly.fit_transform(YTR_sk[tr])
        clf = SkLogReg(C=1.0 / (args.lam * Q.shape[0]), tol=1e-6, max_iter=5000)
        clf.fit(Q, LTR[tr] == a)
        e_sk = 100 * sklearn_raw_eer(LTE[te] == a,
                                     clf.decision_function(poly.transform(YTE_sk[te])))
        t_sk = time.perf_counter() - t0
        rows.append({"pair": f"{a}v{b}", "eer_mlpr": e_mlpr, "eer_sklearn": e_sk,
                     "seconds_mlpr": t_mlpr, "seconds_sklearn": t_sk})
        print(f"{a} v {b}: EER % mlpr {e_mlpr:.3f}  sklearn {e_sk:.3f}   "
              f"({t_mlpr:.1f} s / {t_sk:.1f} s)", flush=True)

    mean = {k: float(np.mean([r[k] for r in rows])) for k in rows[0] if k != "pair"}
    print(f"\nmean over {len(rows)} pairs, lambda = {args.lam:g}: EER % mlpr "
          f"{mean['eer_mlpr']:.3f}, sklearn {mean['eer_sklearn']:.3f}; time mlpr / sklearn "
          f"{mean['seconds_mlpr'] / mean['seconds_sklearn']:.2f}x")
    with open(args.out, "w") as f:
        json.dump({"lambda": args.lam, "mean": mean, "pairs": rows}, f, indent=1)


if __name__ == "__main__":
    main()
