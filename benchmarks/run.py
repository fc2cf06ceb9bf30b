"""Time mlpr's core operations on MNIST-sized data (``make bench``).

Each row reports the median of several repeats and two ratios:

* ``vs_limit``: mlpr's time over the machine's own limit for the same work, a numpy matrix product
  of the same FLOP count (or a pass over the same bytes for I/O);
* ``vs_sklearn``: mlpr's time over scikit-learn's (or scipy's) equivalent, where one exists.

A ratio below 1 means mlpr is faster. Results go to ``benchmarks/results.json``.
scikit-learn is only used here (the optional ``bench`` extra), never by mlpr or its tests.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import scipy
import scipy.linalg
import scipy.linalg.blas
import scipy.stats

from mlpr.datasets import binary_task, load_mnist
from mlpr.dimred import fit_pca
from mlpr.evaluation import bayes_error_curve, eer, min_dcf
from mlpr.gaussian import compute_mu_C, logpdf_GAU_ND
from mlpr.generative import train_mvg, train_naive_bayes, train_tied
from mlpr.logreg import (
    expand_quadratic,
    logreg_multiclass_obj_wrap,
    logreg_obj_wrap,
    train_logreg_binary,
    train_logreg_multiclass,
)
from mlpr.neighbors import train_knn

try:
    import sklearn
    from sklearn.covariance import empirical_covariance
    from sklearn.decomposition import PCA as SkPCA
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis as SkLDA
    from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis as SkQDA
    from sklearn.linear_model import LogisticRegression as SkLogReg
    from sklearn.metrics import roc_curve
    from sklearn.naive_bayes import GaussianNB as SkGNB
    from sklearn.neighbors import KNeighborsClassifier as SkKNN
except ImportError:  # the bench extra is optional
    sklearn = None


def median_time(fn, repeats: int) -> float:
    """Median wall time of ``fn()`` over ``repeats`` calls, after one warm-up call."""
    fn()
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return float(np.median(times))


def random_spd(D: int, rng: np.random.Generator) -> np.ndarray:
    A = rng.standard_normal((D, D))
    return A @ A.T / D + np.eye(D)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--out", type=Path, default=Path(__file__).with_name("results.json"))
    ap.add_argument("--no-multiclass", action="store_true",
                    help="skip the two multiclass LR rows (about 20 minutes together)")
    args = ap.parse_args(argv)
    r = args.repeats
    rng = np.random.default_rng(0)
    rows = []

    def report(name, t, t_limit=None, t_ref=None, ref_name=None, limit_name=None):
        row = {"operation": name, "seconds": t}
        if t_limit is not None:
            row.update(limit=limit_name, limit_seconds=t_limit, vs_limit=t / t_limit)
        if t_ref is not None:
            row.update(reference=ref_name, reference_seconds=t_ref, vs_reference=t / t_ref)
        rows.append(row)
        extra = ""
        if t_limit is not None:
            extra += f"  {t / t_limit:5.2f}x {limit_name}"
        if t_ref is not None:
            extra += f"  {t / t_ref:5.2f}x {ref_name}"
        print(f"{name:42s} {t * 1e3:9.1f} ms{extra}  (load {os.getloadavg()[0]:.2f})",
              flush=True)
        row["load_average_1min"] = os.getloadavg()[0]

    # -- load_mnist: decoding vs a pass over the same bytes ------------------------------------
    load_mnist("train")  # first load fills the cache
    t = median_time(lambda: load_mnist("train"), r)
    pixels = np.zeros((60000, 784), dtype=np.uint8)
    t_bytes = median_time(lambda: pixels.astype(np.float64), r)
    report("load_mnist('train') (cached)", t, t_bytes, limit_name="uint8->float64 pass")
    DTR, _ = load_mnist("train")

    # -- logpdf_GAU_ND: a triangular solve/gemm of D^2 N flops plus a pass -------------------------
    for D in (50, 784):
        N = 60000
        X = rng.standard_normal((D, N))
        C = random_spd(D, rng)
        mu = rng.standard_normal((D, 1))
        A = rng.standard_normal((D, D))
        t = median_time(lambda X=X, mu=mu, C=C: logpdf_GAU_ND(X, mu, C), r)
        t_mm = median_time(lambda A=A, X=X: A @ X, r)
        t_sp = median_time(
            lambda X=X, mu=mu, C=C: scipy.stats.multivariate_normal.logpdf(X.T, mu.ravel(), C), r)
        report(f"logpdf_GAU_ND D={D} N={N}", t, t_mm, t_sp, "scipy.stats mvn.logpdf",
               "(D,D)@(D,N) matmul")

    # -- compute_mu_C on MNIST: one syrk-like product D x N x D ---------------------------------
    A = np.asfortranarray(DTR)
    t = median_time(lambda: compute_mu_C(DTR), r)
    t_mm = median_time(lambda: A @ A.T, r)
    t_sk = (median_time(lambda: empirical_covariance(DTR.T), r) if sklearn else None)
    report("compute_mu_C MNIST 784x60000", t, t_mm, t_sk, "sklearn empirical_covariance",
           "D@D.T matmul")

    # -- fit_pca(m=50) on MNIST: the limit is one symmetric rank-k update (dsyrk) of the
    # (uncentred) data plus the eigensolve of the m leading eigenpairs ------------------------
    nfeat = DTR.shape[0]
    C0 = np.cov(DTR[:, :2000])

    def pca_limit():
        scipy.linalg.blas.dsyrk(1.0, DTR, trans=0)
        scipy.linalg.eigh(C0, subset_by_index=[nfeat - 50, nfeat - 1])

    t = median_time(lambda: fit_pca(DTR, 50), r)
    t_lim = median_time(pca_limit, r)
    t_sk = (median_time(lambda: SkPCA(50, random_state=0).fit(DTR.T), r) if sklearn else None)
    report("fit_pca(m=50) MNIST 784x60000", t, t_lim, t_sk, "sklearn PCA(50)",
           "dsyrk of D + eigh(50 of 784)")
    t = median_time(lambda: fit_pca(DTR, 50, solver="reference"), r)
    report("fit_pca(m=50, solver='reference')", t, t_lim, t_sk, "sklearn PCA(50)",
           "dsyrk of D + eigh(50 of 784)")

    # -- Gaussian classifiers and k-NN on MNIST PCA 50 (train 60,000, score 10,000) -------------
    DTE, _ = load_mnist("test")
    pca = fit_pca(DTR, 50)
    _, LTR = load_mnist("train")
    ZTR, ZTE = pca.transform(DTR), pca.transform(DTE)
    K, m, N = 10, 50, ZTE.shape[1]
    uniform = np.full(K, 1 / K)
    # the scoring FLOPs of each model, as one matrix product: MVG whitens the samples for each
    # class ((K m) x m times m x N), tied once (m x m times m x N), naive needs two (K x m) products
    # (the whitening by L^{-1} is triangular, and mlpr's triangular product (trmm) does half the
    # FLOPs of these full products, so MVG and tied can run below 1x)
    refs = {"MVG": rng.standard_normal((K * m, m)), "tied": rng.standard_normal((m, m)),
            "naive Bayes": rng.standard_normal((2 * K, m))}
    sk = {"MVG": (lambda: SkQDA(priors=uniform), "sklearn QDA"),
          "naive Bayes": (lambda: SkGNB(priors=uniform, var_smoothing=0.0), "sklearn GaussianNB"),
          "tied": (lambda: SkLDA(priors=uniform), "sklearn LDA")} if sklearn else {}
    for name, train in (("MVG", train_mvg), ("naive Bayes", train_naive_bayes),
                        ("tied", train_tied)):
        model = train(ZTR, LTR)
        t = median_time(lambda train=train: train(ZTR, LTR).scores(ZTE), r)
        t_s = median_time(lambda model=model: model.scores(ZTE), r)
        t_mm = median_time(lambda A=refs[name]: A @ ZTE, r)
        t_sk = None
        if name in sk:
            make, sk_name = sk[name]
            t_sk = median_time(lambda make=make: make().fit(ZTR.T, LTR).predict_log_proba(ZTE.T),
                               r)
        report(f"{name}: train + score, PCA 50", t, None, t_sk,
               sk[name][1] + " fit + predict_log_proba" if name in sk else None)
        report(f"{name}: scores(10,000), PCA 50", t_s, t_mm, limit_name="same-FLOP matmul")
    # k-NN: the limit is the product of the augmented matrices [x; ||x||^2] and [-2 q; 1], in
    # double precision, one block of queries at a time (the blocks of `kneighbors`)
    knn = train_knn(ZTR, LTR, 5)
    Xa = np.vstack([ZTR, np.sum(ZTR * ZTR, axis=0)])
    Qa = np.vstack([-2.0 * ZTE, np.ones((1, N))])
    b = 256 * 2**20 // (8 * (3 * ZTR.shape[1] + 4 * 21 + m))
    G = np.empty((b, ZTR.shape[1]))

    def knn_limit():
        for a in range(0, N, b):
            np.matmul(Qa[:, a : a + b].T, Xa, out=G[: min(b, N - a)])

    r2 = max(3, r // 2)
    t = median_time(lambda: train_knn(ZTR, LTR, 5).predict(ZTE), r2)
    t_lim = median_time(knn_limit, r2)
    t_sk = (median_time(lambda: SkKNN(5, algorithm="brute").fit(ZTR.T, LTR).predict(ZTE.T), r2)
            if sklearn else None)
    report("k-NN k=5 predict, PCA 50", t, t_lim, t_sk, "sklearn KNN brute",
           "float64 matmul per block")
    assert np.array_equal(knn.predict(ZTE), knn.predict(ZTE, solver="reference"))

    # -- evaluation on 10^6 scores: one sort each ---------------------------------------------
    n = 1_000_000
    Ls = (rng.random(n) < 0.3).astype(int)
    s = rng.standard_normal(n) + 1.5 * Ls
    t_sort = median_time(lambda: np.argsort(s), r)
    t_sk = median_time(lambda: roc_curve(Ls, s), r) if sklearn else None
    report("min_dcf, 10^6 scores", median_time(lambda: min_dcf(s, Ls, 0.5), r), t_sort, t_sk,
           "sklearn roc_curve", "np.argsort")
    report("eer, 10^6 scores", median_time(lambda: eer(s, Ls), r), t_sort, t_sk,
           "sklearn roc_curve", "np.argsort")
    plo = np.linspace(-4, 4, 100)
    report("bayes_error_curve, 100 priors, 10^6 scores",
           median_time(lambda: bayes_error_curve(s, Ls, plo), r), t_sort, limit_name="np.argsort")

    # -- logistic regression against scikit-learn: same objective, same tolerance ---------------
    # sklearn minimises (1 / (2 C n)) ||w||^2 + mean loss with C = 1 / (lambda n), i.e. the notes'
    # objective; both run L-BFGS to the same gradient tolerance: 1e-10 for the binary task (the
    # default of train_logreg_binary), 1e-6 for the multiclass ones (these are long). One repeat
    # each for the multiclass rows. The binary row's limit: as many iterations as mlpr took,
    # each one evaluation of the objective at the cost of its two dense matrix-vector products
    # (s = w^T X and X g).
    lam = 1e-3
    X49, L49 = binary_task(DTR, LTR, 4, 9)
    tasks = [("binary LR, raw MNIST 4 vs 9", X49, L49, False, 1e-10),
             ("multiclass LR, raw MNIST", DTR, LTR, True, 1e-6),
             ("multiclass LR, quadratic PCA 50", expand_quadratic(ZTR), LTR, True, 1e-6)]
    wv, gv = rng.standard_normal(X49.shape[0]), rng.standard_normal(X49.shape[1])
    t_mv = median_time(lambda: (wv @ X49, X49 @ gv), 20)
    for name, X, Lx, multi, tol in tasks[:1] if args.no_multiclass else tasks:
        reps = 1 if multi else max(3, r // 2)
        with warnings.catch_warnings():  # L-BFGS at tol = 1e-10 stops at the floor of f
            warnings.simplefilter("ignore")
            if multi:
                t0 = time.perf_counter()
                model = train_logreg_multiclass(X, Lx, lam, tol=tol)
                t = time.perf_counter() - t0
                v_ours = np.concatenate([model.W.ravel(order="F"), model.b])
                obj = logreg_multiclass_obj_wrap(X, Lx, lam)
            else:
                model = train_logreg_binary(X, Lx, lam, tol=tol)
                t = median_time(lambda X=X, Lx=Lx, tol=tol: train_logreg_binary(X, Lx, lam,
                                                                                  tol=tol), reps)
                v_ours = np.append(model.w, model.b)
                obj = logreg_obj_wrap(X, Lx, lam)
        row = f"{name}, lambda=1e-3, tol={tol:g}"
        t_lim = None if multi else model.n_iter * t_mv
        lim_name = None if multi else f"{model.n_iter} x (w^T X, X g) dense"
        if sklearn is None:
            report(row, t, t_lim, limit_name=lim_name)
            continue

        def fit_sk(X=X, Lx=Lx, tol=tol):
            return SkLogReg(C=1.0 / (lam * X.shape[1]), tol=tol, max_iter=10000).fit(X.T, Lx)

        if multi:
            t0 = time.perf_counter()
            sk_model = fit_sk()
            t_sk = time.perf_counter() - t0
        else:
            sk_model = fit_sk()
            t_sk = median_time(fit_sk, reps)
        W_sk = sk_model.coef_.T if multi else sk_model.coef_.ravel()
        b_sk = sk_model.intercept_
        v_sk = np.concatenate([W_sk.ravel(order="F"), b_sk]) if multi else np.append(W_sk, b_sk)
        f_ours, f_sk = obj(v_ours)[0], obj(v_sk)[0]
        report(row, t, t_lim, t_sk, "sklearn LogisticRegression lbfgs", lim_name)
        rows[-1].update(objective=f_ours, objective_sklearn=f_sk,
                        objective_rel_diff=(f_ours - f_sk) / abs(f_sk))
        print(f"{'':42s} objective {f_ours:.12f} vs sklearn {f_sk:.12f} "
              f"(relative {(f_ours - f_sk) / abs(f_sk):+.2e})", flush=True)

    result = {
        "load_average": os.getloadavg(),
        "machine": {"python": platform.python_version(), "numpy": np.__version__,
                    "scipy": scipy.__version__,
                    "sklearn": sklearn.__version__ if sklearn else None,
                    "processor": platform.machine()},
        "repeats": r,
        "rows": rows,
    }
    args.out.write_text(json.dumps(result, indent=1))
    print(f"written {args.out.name}", file=sys.stderr)


if __name__ == "__main__":
    main()
