"""Where the time of `fit_pca(MNIST, 50)` goes, against scikit-learn's `PCA(50)`, and what the
other arrangements of the same covariance cost and change.

mlpr's fast PCA (`mlpr._dimred_fast`) forms the ML covariance in two passes, as the notes write it
(eq. 3): the mean, then ``sum_b Z_b Z_b^T`` over blocks of centred columns ``Z_b = D_b - mu 1^T``,
each a BLAS ``dsyrk``, then the 50 leading eigenpairs (LAPACK ``dsyevr``). scikit-learn's
"covariance_eigh" solver, the one its ``PCA(50)`` picks for N >> D, forms ``X^T X - N mu mu^T`` in
one pass (no centred copy) and solves the whole eigenproblem. Both pay one rank-N ``syrk`` of the
784 x 60,000 data; mlpr also pays the centring pass that gives the two-pass accuracy.

Every lecture number that depends on PCA (lecture 06's capped L-BFGS runs among them) is kept
only if C is the same bit for bit: the script times each part of both libraries and four other
arrangements of mlpr's covariance, and says whether each gives the same C as the shipped one
(``same C``) or by how much it differs. Everything is timed in one process, the contenders
taking turns within each repeat (the machine's speed drifts by tens of percent over minutes).

Results go to ``benchmarks/results_pca.json``. scikit-learn is only used here (the optional
``bench`` extra), never by mlpr or its tests.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import scipy
import scipy.linalg
import scipy.linalg.blas

from mlpr._dimred_fast import centred_scatter_upper
from mlpr.datasets import load_mnist
from mlpr.dimred import fit_pca
from mlpr.utils import block_width, centred_blocks, vcol

try:
    import sklearn
    from sklearn.decomposition import PCA as SkPCA
except ImportError:  # the bench extra is optional
    sklearn = None

M = 50
POOL = ThreadPoolExecutor(max_workers=1)


def dsyrk_add(C, Z):
    """C += Z Z^T, upper triangle (Z Fortran-ordered, as the MNIST blocks are)."""
    return scipy.linalg.blas.dsyrk(1.0, Z, beta=1.0, c=C, trans=0, lower=0, overwrite_c=1)


def centring_only(D, mu):
    for _ in centred_blocks(D, mu):
        pass


def two_threads_per_block(D, mu):
    """The shipped blocks, each centred by two threads (half of its columns each)."""
    nfeat, N = D.shape
    m = block_width(nfeat, N)
    buf, C = np.empty(nfeat * m), np.zeros((nfeat, nfeat), order="F")
    for a in range(0, N, m):
        k = min(m, N - a)
        Z, h = buf[: nfeat * k].reshape((nfeat, k), order="F"), k // 2
        half = POOL.submit(np.subtract, D[:, a : a + h], mu, out=Z[:, :h])
        np.subtract(D[:, a + h : a + k], mu, out=Z[:, h:])
        half.result()
        C = dsyrk_add(C, Z)
    return C


def whole_copy_then_blocks(D, mu):
    """One centred copy of all of D (two threads), then the shipped blocks' dsyrk calls."""
    nfeat, N = D.shape
    Z, h = np.empty_like(D, order="F"), N // 2
    half = POOL.submit(np.subtract, D[:, :h], mu, out=Z[:, :h])
    np.subtract(D[:, h:], mu, out=Z[:, h:])
    half.result()
    m, C = block_width(nfeat, N), np.zeros((nfeat, nfeat), order="F")
    for a in range(0, N, m):
        C = dsyrk_add(C, Z[:, a : a + m])
    return C


def narrower_blocks(D, mu, width=4096):
    """Blocks of ``width`` columns (they fit in the last-level cache): other dsyrk calls."""
    nfeat, N = D.shape
    buf, C = np.empty(nfeat * width), np.zeros((nfeat, nfeat), order="F")
    for a in range(0, N, width):
        k = min(width, N - a)
        Z = buf[: nfeat * k].reshape((nfeat, k), order="F")
        np.subtract(D[:, a : a + k], mu, out=Z)
        C = dsyrk_add(C, Z)
    return C


def one_pass(D, mu):
    """scikit-learn's arithmetic: sum_i x_i x_i^T - N mu mu^T, no centred copy."""
    C = scipy.linalg.blas.dsyrk(1.0, D, trans=0, lower=0)
    return C - D.shape[1] * np.triu(mu @ mu.T)


VARIANTS = {"variant: each block centred by two threads": two_threads_per_block,
            "variant: one centred copy of D, then the blocks": whole_copy_then_blocks,
            "variant: blocks of 4,096 columns": narrower_blocks,
            "variant: one pass, sum x x' - N mu mu'": one_pass}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=9)
    ap.add_argument("--out", type=Path, default=Path(__file__).with_name("results_pca.json"))
    args = ap.parse_args(argv)

    D, _ = load_mnist("train")
    nfeat, N = D.shape
    mu = vcol(D.mean(axis=1))
    C_sh = centred_scatter_upper(D, mu)  # the shipped sum, for the variants' comparison
    C = C_sh / N
    Xt = D.T  # scikit-learn's (N, D) layout, a view

    def sk_fit():
        SkPCA(M, random_state=0).fit(Xt)

    fns = {
        "mlpr fit_pca(D, 50)": lambda: fit_pca(D, M),
        "  mean": lambda: D.mean(axis=1),
        "  centring of every block": lambda: centring_only(D, mu),
        "  centred blocks + dsyrk (the scatter)": lambda: centred_scatter_upper(D, mu),
        "  eigh, 50 of 784 (dsyevr)": lambda: scipy.linalg.eigh(
            C, lower=False, subset_by_index=[nfeat - M, nfeat - 1], check_finite=False),
        **{name: (lambda f=f: f(D, mu)) for name, f in VARIANTS.items()},
    }
    if sklearn is not None:
        fns.update({
            "sklearn PCA(50).fit": sk_fit,
            "  mean (axis 0 of X)": lambda: Xt.mean(axis=0),
            "  X^T X (numpy, one syrk)": lambda: Xt.T @ Xt,
            "  eigh, all 784 (numpy)": lambda: np.linalg.eigh(C),
        })
    times = {name: [] for name in fns}
    for f in fns.values():
        f()  # warm-up
    for _ in range(args.repeats):
        for name, f in fns.items():
            t = time.perf_counter()
            f()
            times[name].append(time.perf_counter() - t)
    med = {name: float(np.median(v)) for name, v in times.items()}

    rows = []
    shipped = med["  centred blocks + dsyrk (the scatter)"]
    for name, t in med.items():
        row = {"operation": name.strip(), "seconds": t}
        note = ""
        if name in VARIANTS:
            diff = float(np.abs(np.triu(VARIANTS[name](D, mu)) - C_sh).max())
            row.update(max_abs_diff_scatter=diff, vs_shipped_scatter=t / shipped)
            note = (f"  {t / shipped:5.2f}x the shipped scatter; "
                    + ("same C" if diff == 0 else f"C differs by up to {diff:.1e}"))
        if name == "mlpr fit_pca(D, 50)" and sklearn is not None:
            ratio = t / med["sklearn PCA(50).fit"]
            row.update(reference="sklearn PCA(50)", vs_reference=ratio)
            note = f"  {ratio:5.2f}x sklearn PCA(50)"
        rows.append(row)
        print(f"{name:50s} {t * 1e3:9.1f} ms{note}", flush=True)

    result = {
        "machine": {"python": platform.python_version(), "numpy": np.__version__,
                    "scipy": scipy.__version__,
                    "sklearn": sklearn.__version__ if sklearn else None,
                    "processor": platform.machine(), "cores": os.cpu_count(),
                    "load_average": os.getloadavg()},
        "repeats": args.repeats,
        "rows": rows,
    }
    args.out.write_text(json.dumps(result, indent=1))
    print(f"written {args.out.name}", file=sys.stderr)


if __name__ == "__main__":
    main()
