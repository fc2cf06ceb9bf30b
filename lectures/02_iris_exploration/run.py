"""Lecture 02: the iris dataset as a (features x samples) matrix, explored.

Reproduces the course's iris laboratory (lab 2): per-class histograms of each feature, pairwise
scatter plots, and the dataset statistics (mean, covariance, variance, standard deviation,
correlation). The reference statistics are those of the course's lab 2 solution.
"""

# %% set-up: imports, the lecture object, helpers
import numpy as np
from _lecture import CLOSED_FORM, INVARIANT, Lecture, lab

from mlpr.datasets import IRIS_CLASSES, IRIS_FEATURES, load_iris
from mlpr.gaussian import compute_mu_C
from mlpr.plots import plot_class_histograms, plot_pair_scatter

lec = Lecture("02_iris_exploration", __doc__)

# %% load: one column per flower
D, L = load_iris()
lec.check("D.shape (features, samples)", D.shape, (4, 150), tol=0, fmt="{:.0f}", source=lab(2))
lec.check("samples per class", np.bincount(L), (50, 50, 50), tol=0, fmt="{:.0f}", source=lab(2))

# %% statistics: the notes' mean and (1/N) covariance
lec.section("Dataset statistics (all 150 flowers)")
mu, C = compute_mu_C(D)
var = D.var(axis=1)  # the diagonal of C
std = D.std(axis=1)
corr = C / np.outer(std, std)
lec.check("mean", mu.ravel(), [5.84333333, 3.05733333, 3.758, 1.19933333], tol=5e-9, fmt="{:.8f}",
          source=lab(2))
lec.check("covariance diagonal (1/N)", np.diag(C), [0.68112222, 0.18871289, 3.09550267,
                                                      0.57713289], tol=5e-9, fmt="{:.8f}",
          source=lab(2))
lec.check("variance == diag(C)", var, np.diag(C), tol=1e-12, fmt="{:.8f}", source=CLOSED_FORM)
lec.check("standard deviation", std, fmt="{:.6f}")
lec.table("covariance", "Covariance matrix C (1/N)", [""] + list(IRIS_FEATURES),
          [[f] + list(C[i]) for i, f in enumerate(IRIS_FEATURES)])
lec.table("correlation", "Correlation matrix", [""] + list(IRIS_FEATURES),
          [[f] + list(corr[i]) for i, f in enumerate(IRIS_FEATURES)])

lec.section("Per-class means")
lec.table("class_means", "Class means (cm)", ["class"] + list(IRIS_FEATURES),
          [[name] + list(D[:, L == k].mean(axis=1)) for k, name in enumerate(IRIS_CLASSES)])

# %% what the README says of the statistics and the figures, each a claim checked here
lec.section("The README's claims")
pairs = [(i, j) for i in range(4) for j in range(i + 1, 4)]
i, j = max(pairs, key=lambda p: corr[p])
lec.check(f"strongest correlation: {IRIS_FEATURES[i]} and {IRIS_FEATURES[j]}", corr[i, j],
          fmt="{:.3f}")
lec.claim("petal length and width are the most correlated pair", (i, j) == (2, 3),
          source=INVARIANT)
lec.claim("sepal width is weakly anti-correlated with each other feature (-0.5 < r < 0)",
          all(-0.5 < corr[1, k] < 0 for k in (0, 2, 3)), source=INVARIANT)


def separates_setosa(x):
    """Whether setosa's range of feature x does not overlap the other classes' range."""
    return x[L == 0].max() < x[L != 0].min() or x[L == 0].min() > x[L != 0].max()


lec.claim("each petal feature separates setosa from the other two classes, no sepal feature does",
          separates_setosa(D[2]) and separates_setosa(D[3]) and not separates_setosa(D[0])
          and not separates_setosa(D[1]), source=INVARIANT)

# %% figures
lec.figure(plot_class_histograms(D, L, feature_names=IRIS_FEATURES, class_names=IRIS_CLASSES,
                                 title="Iris: per-class histograms of each feature"),
           "iris_histograms.png")
lec.figure(plot_pair_scatter(D, L, feature_names=IRIS_FEATURES, class_names=IRIS_CLASSES,
                             title="Iris: pairwise scatter plots"), "iris_pairs.png")
Dc = D - mu  # centring moves every feature's mean to zero but not the shape of the classes
lec.figure(plot_class_histograms(Dc, L, feature_names=[f"{f}, centred" for f in IRIS_FEATURES],
                                 class_names=IRIS_CLASSES,
                                 title="Iris: centred features (x - mu)"), "iris_centred.png")
lec.finish()
