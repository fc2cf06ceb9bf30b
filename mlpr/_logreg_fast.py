"""The fast objective of `mlpr.logreg.train_logreg_binary`: the same function, cheaper products.

`mlpr.logreg._binary_fg` evaluates eq. (100)/(101) and its gradient as the notes write them
(``solver="reference"``): the scores ``s = w^T X + b`` and the gradient ``X g_s + lambda w``, two
passes over the dense (D, N) data per evaluation. L-BFGS spends almost all its time there, and
both products only read the data: on data that are mostly zeros (raw MNIST pixels: 18% of the
entries of a digit pair are not zero) the same products over the non-zero entries alone, in
compressed sparse rows, read about a third of the bytes. One sparse copy serves both products:
its rows are the samples (for ``s``), and its transpose, in compressed sparse columns, gives
``X g_s`` with the same sums (a second copy, by features, cost more to build than the products
it served on a digit pair). ``solver="auto"`` (the default of the
trainer) uses them when at most ``MAX_DENSITY`` of the entries are non-zero, and the dense
products otherwise. The sums are the same up to their order, so objective and gradient agree
with the reference to rounding, and `tests/test_logreg.py` holds both the evaluations and the
trained models equal.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse
from scipy.special import expit

MAX_DENSITY = 0.3
"""Largest fraction of non-zero entries for which the sparse products are used."""


def binary_fg(X: np.ndarray, z: np.ndarray, xi: np.ndarray, l: float):
    """``v -> (f, grad)`` of eq. (100)/(101) on X (D, N): on sparse copies of X when at most
    ``MAX_DENSITY`` of its entries are non-zero, on X itself otherwise."""
    if X.size and np.count_nonzero(X) <= MAX_DENSITY * X.size:
        A = scipy.sparse.csr_array(X.T)  # (N, D): rows are samples, for s = A w
        At = A.T  # (D, N) in compressed sparse columns, for X g_s: no second copy to build
    else:
        A, At = X.T, X
    xz = xi * z

    def fg(v: np.ndarray):
        w, b = v[:-1], v[-1]
        s = A @ w + b  # s_i = w^T x_i + b
        zs = z * s
        # eq. (100); the sum over samples as a numpy sum, not a BLAS dot product, which
        # wakes BLAS threads for a few microseconds of work
        f = 0.5 * l * (w @ w) + np.sum(xi * np.logaddexp(0.0, -zs))
        gs = -xz * expit(-zs)  # dR/ds_i = -xi_i z_i sigma(-z_i s_i)
        grad = np.empty_like(v)
        grad[:-1] = At @ gs + l * w  # the bias is not regularised
        grad[-1] = np.sum(gs)
        return float(f), grad

    return fg
