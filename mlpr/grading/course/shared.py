r"""The inputs that several labs' cases share, built once per `Run` from its seed.

The inputs are chosen so that the classic mistakes show: data far from the origin (a one-pass
covariance loses digits there), classes of different sizes (a tied covariance not weighted by
N_c differs), integer llrs that hit the Bayes threshold exactly (``>=`` differs from the
course's ``>``), priors other than 0.5, a component with an eigenvalue below psi = 0.01 (the
floor binds) and an isotropic one (the LBG split direction is undetermined).
"""

from __future__ import annotations

import numpy as np

from mlpr.datasets import load_iris
from mlpr.gaussian import compute_mu_C
from mlpr.generative import train_mvg
from mlpr.gmm import GMM
from mlpr.grading.course.records import Run
from mlpr.grading.framework import binary_split, iris_split, offset_data, threshold_ties

__all__ = ["PRIORS", "iris", "split", "binary", "unequal", "sizes", "gau_inputs",
           "class_scores", "ties", "gmm_data", "calibration_scores"]

#: Class priors other than uniform (the posteriors' tasks)
PRIORS = np.array([0.2, 0.5, 0.3])


def _iris(run: Run):
    return load_iris()


def iris(run: Run):
    """The course's iris data (D, L)."""
    return run.shared(_iris)


def _split(run: Run):
    return run.shuffled(iris_split())


def split(run: Run):
    """The course's iris split, drawn from the run."""
    return run.shared(_split)


def _binary(run: Run):
    return run.shuffled(binary_split())


def binary(run: Run):
    """The course's binary iris split, drawn from the run."""
    return run.shared(_binary)


def _unequal(run: Run):
    (DTR, LTR), _ = split(run)
    keep = np.concatenate([np.flatnonzero(LTR == 0), np.flatnonzero(LTR == 1)[:20],
                           np.flatnonzero(LTR == 2)[:30]])
    return DTR[:, keep] + 1e3, LTR[keep]


def unequal(run: Run):
    """Iris training data with classes of 33, 20 and 30 samples, and far from the origin."""
    return run.shared(_unequal)


def sizes(L) -> list:
    return sorted({int(n) for n in np.bincount(L)} | {L.size})


def _gau_inputs(run: Run):
    (DTR, LTR), (DVAL, LVAL) = split(run)
    mu, C = compute_mu_C(DTR)
    X = offset_data(D=3, N=40, offset=1e3, seed=run.sub(221, fixed=0))
    mux, Cx = compute_mu_C(X)
    Cx = Cx + np.diag([0.0, 0.5, 2.0])
    return [("iris: ML Gaussian of the training set on the validation set", DVAL, mu, C),
            ("3-D data far from the origin", X, mux, Cx)]


def gau_inputs(run: Run):
    """``[(what, X, mu, C), ...]``: the Gaussian densities' inputs."""
    return run.shared(_gau_inputs)


def _class_scores(run: Run):
    (DTR, LTR), (DVAL, LVAL) = split(run)
    model = train_mvg(DTR, LTR)
    hParams = {k: (model.mu[:, [k]], model.covariance(k)) for k in range(3)}
    return hParams, model.scores(DVAL), DVAL, LVAL


def class_scores(run: Run):
    """``(hParams, S, DVAL, LVAL)``: the MVG of the iris split and its validation scores."""
    return run.shared(_class_scores)


def ties(run: Run):
    """Integer llrs, labels and applications whose thresholds the llrs hit
    (`mlpr.grading.framework.threshold_ties`), drawn from the run."""
    return threshold_ties(seed=run.sub(300, fixed=0))


def _gmm_data(run: Run):
    rng = run.rng(4)
    A = rng.normal(size=(3, 300)) * np.array([[1.0], [0.5], [0.045]])
    X = np.hstack([A[:, :180], A[:, 180:] + np.array([[3.0], [1.0], [0.0]])]) + 10.0
    mu, C = compute_mu_C(X)
    g = GMM(w=np.array([0.4, 0.6]), mu=np.hstack([mu - [[1.0], [0.2], [0.0]],
                                                  mu + [[1.0], [0.2], [0.0]]]),
            C=np.stack([C, C * 1.3]))
    return X, g


def gmm_data(run: Run):
    """3-D data with one direction of variance 2e-3 (below the floor psi = 0.01), and a starting
    GMM of two components."""
    return run.shared(_gmm_data)


def _calibration_scores(run: Run):
    rng = run.rng(11)
    L = (rng.random(600) < 0.3).astype(int)
    s1 = 2.5 * (rng.normal(size=600) + 1.3 * L) - 1.0
    s2 = 0.8 * (rng.normal(size=600) + 1.0 * L) + 0.5
    return np.vstack([s1, s2]), L


def calibration_scores(run: Run):
    """Two systems' scores of 600 trials (30% targets) and their labels."""
    return run.shared(_calibration_scores)
