"""Time mlpr's SVM on one full MNIST digit pair against scikit-learn's SVC (libsvm).

``python benchmarks/bench_svm.py [--pair 3 8] [--repeats 1] [--out benchmarks/results_svm.json]``

Both solve the same problem, the notes' soft-margin dual with a free bias (eq. 165), on every
training image of the pair (about 12,000, pixels / 255): the linear model (mlpr's
`train_svm_linear`, whose default solver there, with 623 non-zero features, is the interior point
method) at C = 1 and C = 10, the linear kernel through `train_svm_kernel(..., solver="smo")` at
C = 1 (SMO itself), and the polynomial (d = 2, c = 1) and RBF (gamma = 1 on unit-norm images)
kernels at C = 1; and the polynomial kernels on a seeded 2,000-sample problem with 6 features
(d = 2 at C = 100, d = 3 at C = 1), where their feature space is small and mlpr's default is the
interior point method. Last, the labs' formulation (eps = 1, box constraints only), which
libsvm does not solve, with an RBF kernel on 4,000 samples of that problem: mlpr's default, SMO on
slices of fixed sum alpha_i z_i, against its coordinate descent (rows ``labs_rows``). mlpr's
default is ``solver="auto"``, the table of `mlpr._svm_solvers.choose_solver`, where every fast
path named here lives. mlpr runs
with tol = 1e-3, libsvm's default stopping tolerance; each libsvm row checks that the two dual
objectives agree within 1e-6 (relative) and reports mlpr's time over libsvm's
(``vs_reference``) and the peak memory of each (resident set size above the loaded data,
measured in a fresh process per run). libsvm's kernel cache is 200 MB (SVC's default), and so is
mlpr's (``cache_mb``). Results go to ``benchmarks/results_svm.json``, rows in the style of
``benchmarks/run.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROWS = (  # (name, C)
    ("linear model", 1.0),
    ("linear model", 10.0),
    ("linear kernel (SMO)", 1.0),
    ("poly d = 2", 1.0),
    ("RBF gamma = 1", 1.0),
    ("poly d = 2, 6 features", 100.0),
    ("poly d = 3, 6 features", 1.0),
)
LABS_ROWS = ((0.1, 1.0), (0.1, 100.0), (1.0, 100.0))  # (gamma, C), the labs' eps = 1


def _six_features(N: int = 2000, seed: int = 0):
    """A seeded, overlapping two-class problem with 6 features and a curved boundary, the size
    of a course project's data: where the polynomial kernel's feature space (28 or 84 dimensions)
    is much smaller than N."""
    rng = np.random.default_rng(seed)
    L = (rng.random(N) < 0.4).astype(int)
    D = rng.standard_normal((6, N)) + 0.8 * (2 * L - 1)[None, :] * rng.random((6, 1))
    D[0] += 0.5 * D[1] ** 2 * (2 * L - 1)
    return D, L


def _problem(name: str, a: int, b: int):
    from mlpr.datasets import load_mnist_pair
    from mlpr.svm import linear_kernel, poly_kernel, rbf_kernel

    if name.endswith("6 features"):
        d = int(name.split("d = ")[1][0])
        D, L = _six_features()
        return D, L, poly_kernel(d, 1.0), dict(kernel="poly", degree=d, gamma=1.0, coef0=1.0)
    if name.startswith("labs"):  # "labs RBF gamma = g": 4,000 samples of the same problem
        D, L = _six_features(4000)
        return D, L, rbf_kernel(float(name.split("= ")[1])), None
    D, L = load_mnist_pair(a, b)
    if name.startswith("linear"):
        return D, L, linear_kernel(), dict(kernel="linear")
    if name == "poly d = 2":
        return D, L, poly_kernel(2, 1.0), dict(kernel="poly", degree=2, gamma=1.0, coef0=1.0)
    D = D / np.linalg.norm(D, axis=0)
    return D, L, rbf_kernel(1.0), dict(kernel="rbf", gamma=1.0)


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # kB on Linux


def _status_mb(field: str) -> float:
    """VmRSS (resident now) or VmHWM (its peak) of this process, Linux only (else nan)."""
    try:
        with open("/proc/self/status") as f:
            return next(int(ln.split()[1]) for ln in f if ln.startswith(field)) / 1024.0
    except (OSError, StopIteration):
        return float("nan")


def _reset_peak() -> float:
    """Reset the peak resident set (VmHWM) to the current one; returns the current (MB)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass
    return _status_mb("VmRSS")


def one_run(impl: str, name: str, C: float, a: int, b: int) -> dict:
    """Train once in this process; time, peak memory above the data, dual objective."""
    D, L, kernel, sk = _problem(name, a, b)
    base, resident = _rss_mb(), _reset_peak()
    t = time.perf_counter()
    if impl.startswith("labs"):  # the labs' eps = 1, mlpr's two box-only solvers
        from mlpr.svm import train_svm_kernel

        m = train_svm_kernel(D, L, C, kernel, 1.0, tol=1e-3, solver=impl.split()[1],
                             max_iter=10**6)
        return {"seconds": time.perf_counter() - t, "dual": m.dual_objective,
                "n_iter": m.n_iter, "kkt": m.kkt_violation}
    if impl == "mlpr":
        from mlpr.svm import train_svm_kernel, train_svm_linear

        if name == "linear model":
            m = train_svm_linear(D, L, C, K=None, tol=1e-3)
        else:  # the linear kernel's row: SMO itself, not the interior point of its default
            solver = "smo" if name == "linear kernel (SMO)" else None
            m = train_svm_kernel(D, L, C, kernel, None, tol=1e-3, solver=solver)
        seconds = time.perf_counter() - t
        return {"seconds": seconds, "peak_mb": _rss_mb() - base,
                "growth_mb": _status_mb("VmHWM") - resident, "dual": m.dual_objective,
                "n_sv": int(np.count_nonzero(m.alpha)), "n_iter": m.n_iter,
                "gap": m.duality_gap}
    from sklearn.svm import SVC

    svc = SVC(C=C, **sk).fit(D.T, L)
    seconds = time.perf_counter() - t
    peak, growth = _rss_mb() - base, _status_mb("VmHWM") - resident
    ya = svc.dual_coef_.ravel()  # alpha_i z_i
    SV = svc.support_vectors_.T
    dual = float(np.abs(ya).sum() - 0.5 * ya @ kernel(SV, SV) @ ya)  # eq. (165), in float64
    return {"seconds": seconds, "peak_mb": peak, "growth_mb": growth, "dual": dual,
            "n_sv": int(ya.size),
            "n_iter": int(svc.n_iter_[0])}


def _child(impl: str, name: str, C: float, a: int, b: int) -> dict:
    out = subprocess.run([sys.executable, __file__, "--one", impl, name, str(C), str(a), str(b)],
                         capture_output=True, text=True, check=True, env=dict(os.environ))
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pair", type=int, nargs=2, default=(3, 8))
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--out", type=Path, default=Path(__file__).with_name("results_svm.json"))
    ap.add_argument("--rows", nargs="+", metavar="TEXT",
                    help="run only the rows whose name contains one of these (e.g. 'SMO' 'RBF')")
    ap.add_argument("--one", nargs=5, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        impl, name, C, a, b = args.one
        print(json.dumps(one_run(impl, name, float(C), int(a), int(b))))
        return
    a, b = args.pair
    rows, libsvm = [], {}
    chosen = [(n, C) for n, C in ROWS if not args.rows or any(r in n for r in args.rows)]
    for name, C in chosen:
        key = ("linear" if name.startswith("linear") else name, C)  # one libsvm run per problem
        runs = {"mlpr": [], "sklearn": libsvm.get(key, [])}
        for _ in range(args.repeats):  # alternated, so that both see the same load
            runs["mlpr"].append(_child("mlpr", name, C, a, b))
            if key not in libsvm:
                runs["sklearn"].append(_child("sklearn", name, C, a, b))
        libsvm[key] = runs["sklearn"]
        med = {impl: float(np.median([r["seconds"] for r in rs])) for impl, rs in runs.items()}
        ours, ref = runs["mlpr"][0], runs["sklearn"][0]
        rel = (ours["dual"] - ref["dual"]) / abs(ref["dual"])
        data = "2,000 samples" if name.endswith("6 features") else f"MNIST {a} v {b}"
        row = {"operation": f"SVM {name}, {data}, C = {C:g}", "seconds": med["mlpr"],
               "reference": "sklearn SVC (libsvm)", "reference_seconds": med["sklearn"],
               "vs_reference": med["mlpr"] / med["sklearn"], "peak_mb": ours["peak_mb"],
               "reference_peak_mb": ref["peak_mb"], "growth_mb": ours["growth_mb"],
               "reference_growth_mb": ref["growth_mb"], "dual": ours["dual"],
               "dual_reference": ref["dual"], "dual_rel_diff": rel, "n_sv": ours["n_sv"],
               "n_sv_reference": ref["n_sv"], "n_iter": ours["n_iter"],
               "n_iter_reference": ref["n_iter"], "same_dual_1e-6": abs(rel) <= 1e-6,
               "seconds_all": [r["seconds"] for r in runs["mlpr"]],
               "reference_seconds_all": [r["seconds"] for r in runs["sklearn"]],
               "load_average_1min": os.getloadavg()[0]}
        rows.append(row)
        print(f"{row['operation']:52s} {med['mlpr'] * 1e3:9.1f} ms  {row['vs_reference']:5.2f}x "
              f"sklearn SVC (libsvm)   peak {ours['peak_mb']:.0f} MB vs {ref['peak_mb']:.0f} MB "
              f"(growth {ours['growth_mb']:.0f} vs {ref['growth_mb']:.0f}; load "
              f"{row['load_average_1min']:.2f})",
              flush=True)
        print(f"{'':52s} dual {ours['dual']:.10g} vs libsvm {ref['dual']:.10g} (relative "
              f"{rel:+.2e}), {ours['n_sv']} vs {ref['n_sv']} support vectors", flush=True)
    labs = []
    for gamma, C in LABS_ROWS if not args.rows or any("labs" in r for r in args.rows) else ():
        name = f"labs RBF gamma = {gamma:g}"
        runs = {impl: _child(f"labs {impl}", name, C, a, b) for impl in ("smo", "cd")}
        smo, cd = runs["smo"], runs["cd"]
        labs.append({"operation": f"SVM labs' RBF gamma = {gamma:g}, eps = 1, 4,000 samples x 6 "
                                  f"features, C = {C:g}: SMO on slices",
                     "seconds": smo["seconds"], "reference": "mlpr coordinate descent",
                     "reference_seconds": cd["seconds"],
                     "vs_reference": smo["seconds"] / cd["seconds"], "dual": smo["dual"],
                     "dual_reference": cd["dual"], "n_iter": smo["n_iter"],
                     "n_iter_reference": cd["n_iter"]})
        print(f"{labs[-1]['operation']:52s} {smo['seconds'] * 1e3:9.1f} ms  "
              f"{labs[-1]['vs_reference']:5.2f}x coordinate descent (dual {smo['dual']:.10g} vs "
              f"{cd['dual']:.10g})", flush=True)
    import scipy
    import sklearn

    result = {"machine": {"python": platform.python_version(), "numpy": np.__version__,
                          "scipy": scipy.__version__, "sklearn": sklearn.__version__,
                          "processor": platform.machine()},
              "repeats": args.repeats, "rows": rows, "labs_rows": labs}
    args.out.write_text(json.dumps(result, indent=1))
    print(f"written {args.out.name}", file=sys.stderr)


if __name__ == "__main__":
    main()
