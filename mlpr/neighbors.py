"""Prototype classifiers: nearest class mean (k-nearest neighbours will follow).

A sample is assigned to the class whose training mean is closest in Euclidean distance. The
score of class k is minus the squared distance to its mean, which expands into a linear function
of x plus a term common to all classes: the nearest-mean classifier is a linear classifier.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .utils import check_data, check_data_labels

__all__ = ["NearestMeanClassifier", "train_nearest_mean"]


@dataclass(frozen=True)
class NearestMeanClassifier:
    """Nearest class mean classifier.

    Attributes
    ----------
    mu : ndarray, shape (D, K)
        Training mean of each class, one column per class.
    """

    mu: np.ndarray

    def scores(self, D) -> np.ndarray:
        r"""Minus the squared Euclidean distance of each sample to each class mean, shape (K, N).

        Parameters
        ----------
        D : ndarray, shape (D, N)

        Notes
        -----
        Computed with one matrix product rather than by broadcasting a (D, K, N) array:

        .. math:: S_{kn} = -\lVert x_n - \mu_k \rVert^2
                  = 2 \mu_k^T x_n - \lVert \mu_k \rVert^2 - \lVert x_n \rVert^2 .

        The last term is the same for every class, so ranking the classes only needs the linear
        discriminant :math:`2 \mu_k^T x - \lVert \mu_k \rVert^2`. Rounding may leave scores of
        order 1e-16 times the squared norms above zero.
        """
        D = check_data(D, n_features=self.mu.shape[0], allow_1d=True)
        mu_sq = np.sum(self.mu * self.mu, axis=0)[:, None]  # ||mu_k||^2, (K, 1)
        x_sq = np.sum(D * D, axis=0)[None, :]  # ||x_n||^2, (1, N)
        return 2.0 * (self.mu.T @ D) - mu_sq - x_sq  # eq. -||x - mu_k||^2

    def predict(self, D) -> np.ndarray:
        """Index of the nearest class mean for each sample of ``D`` (D, N), shape (N,)."""
        return np.argmax(self.scores(D), axis=0)


def train_nearest_mean(D, L) -> NearestMeanClassifier:
    r"""Learn the class means of labelled data for nearest-mean classification.

    Parameters
    ----------
    D : ndarray, shape (D, N)
        Training data.
    L : ndarray, shape (N,)
        Labels 0..K-1, every class present.

    Returns
    -------
    NearestMeanClassifier
        ``mu`` (D, K), column k the sample mean of class k.

    Notes
    -----
    .. math:: \mu_k = \frac{1}{n_k} \sum_{i : l_i = k} x_i, \qquad
              \hat{k}(x) = \arg\min_k \lVert x - \mu_k \rVert^2
    """
    D, L = check_data_labels(D, L)
    K = int(L.max()) + 1
    counts = np.bincount(L, minlength=K)
    # class sums with one product against the one-hot label matrix (N, K)
    onehot = (L[:, None] == np.arange(K)[None, :]).astype(np.float64)
    mu = (D @ onehot) / counts[None, :]
    return NearestMeanClassifier(mu=mu)
