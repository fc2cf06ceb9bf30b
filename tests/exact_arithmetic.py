"""Exact rational arithmetic for the tests of covariances on data far from the origin.

Every float64 is a rational number, so a covariance computed on object arrays of
`fractions.Fraction` and rounded to float64 once at the end is the exact answer that a centred
two-pass computation approaches. Imported by the test modules (pytest puts
`tests/` on the path); not itself a test module.
"""

from fractions import Fraction

import numpy as np


def fractions(D):
    """The float array D as an object array of exact `Fraction`s."""
    return np.vectorize(Fraction, otypes=[object])(D)


def exact_mean_cov(D):
    """Mean (D, 1) and ML covariance (D, D) of D, exactly, rounded to float64 at the end."""
    X = fractions(D)
    mu = X.sum(axis=1, keepdims=True) / X.shape[1]
    Z = X - mu
    return mu.astype(float), (Z @ Z.T / X.shape[1]).astype(float)


def exact_class_scatters(D, L):
    """Per-class scatter matrices sum (x - mu_c)(x - mu_c)^T, class means and sizes, exactly
    (as `Fraction` object arrays), for labels 0..K-1."""
    X = fractions(D)
    scatters, means, sizes = [], [], []
    for c in range(int(L.max()) + 1):
        Xc = X[:, L == c]
        mu_c = Xc.sum(axis=1, keepdims=True) / Xc.shape[1]
        Zc = Xc - mu_c
        scatters.append(Zc @ Zc.T)
        means.append(mu_c)
        sizes.append(Xc.shape[1])
    return scatters, means, sizes


def offset_classes(offset, seed=0):
    """3 classes of 4 features (150 / 200 / 150 samples) with unit-or-larger spread, about one
    unit apart, around a common ``offset``: (D (4, 500), L (500,))."""
    rng = np.random.default_rng(seed)
    L = np.repeat([0, 1, 2], [150, 200, 150])
    D = offset + rng.standard_normal((4, L.size)) * np.array([[1.0], [1.5], [2.0], [1.0]])
    D[:, L == 1] += 1.0
    D[0, L == 2] -= 1.0
    return D, L


def assert_exact(A, exact, tol=2e-15):
    """Every entry of A within ``tol`` times the largest entry of the exact value."""
    assert np.abs(A - exact).max() <= tol * np.abs(exact).max()
