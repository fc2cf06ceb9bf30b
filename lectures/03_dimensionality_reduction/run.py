"""Lecture 03: dimensionality reduction with PCA and LDA.

Iris projected by PCA and LDA; LDA as a binary classifier of versicolor vs virginica; PCA before
LDA; and on MNIST the nearest-class-mean classifier after PCA and PCA + LDA, against the
projection dimension m. References: the iris LDA classifier of the course's lab 3 solution and the
MNIST error rates of the course slides (the notes describe these results only in words).
"""

# %% set-up: imports, the lecture object, helpers
import numpy as np
from _lecture import INVARIANT, Lecture

from mlpr.datasets import IRIS_CLASSES, MNIST_SHAPE, load_iris, load_iris_binary
from mlpr.dimred import fit_lda, fit_pca, train_lda_binary
from mlpr.neighbors import train_nearest_mean
from mlpr.plots import plot_class_histograms, plot_curves, plot_images, plot_scatter_2d
from mlpr.utils import split_db_2to1

lec = Lecture("03_dimensionality_reduction", __doc__)
# in student mode (--student PATH) the lab's functions are the student's
fit_pca, fit_lda, train_lda_binary = lec.use(fit_pca, fit_lda, train_lda_binary)

# %% iris: PCA and LDA projections
D, L = load_iris()
pca = fit_pca(D, 4)
lec.section("Iris PCA")
lec.check("eigenvalues of the covariance (1/N)", pca.eigenvalues, fmt="{:.5f}")
lec.check("explained variance ratio", pca.explained_variance_ratio, fmt="{:.4f}")
lec.check("smallest m retaining 95% of the variance", pca.n_components_for_variance(0.95),
          fmt="{:.0f}")
ratio = np.cumsum(pca.explained_variance_ratio)
lec.claim("two directions retain 95% of the variance, one does not", ratio[0] < 0.95 <= ratio[1],
          source=INVARIANT)
Y = pca.transform(D)
lec.figure(plot_scatter_2d(Y[:2], L, class_names=IRIS_CLASSES, xlabel="PCA direction 1",
                           ylabel="PCA direction 2", title="Iris: PCA, m = 2"),
           "iris_pca_scatter.png")
lec.figure(plot_class_histograms(Y[:2], L, feature_names=["PCA direction 1", "PCA direction 2"],
                                 class_names=IRIS_CLASSES, title="Iris: PCA directions"),
           "iris_pca_hist.png")
Y = fit_lda(D, L, 2).transform(D)
lec.figure(plot_scatter_2d(Y, L, class_names=IRIS_CLASSES, xlabel="LDA direction 1",
                           ylabel="LDA direction 2", title="Iris: LDA, m = 2"),
           "iris_lda_scatter.png")
lec.figure(plot_class_histograms(Y, L, feature_names=["LDA direction 1", "LDA direction 2"],
                                 class_names=IRIS_CLASSES, title="Iris: LDA directions"),
           "iris_lda_hist.png")

# %% LDA as a binary classifier: versicolor (1) vs virginica (0)
lec.section("LDA classifier, iris versicolor (1) vs virginica (0), split_db_2to1(seed=0)")
DB, LB = load_iris_binary()
(DTR, LTR), (DVAL, LVAL) = split_db_2to1(DB, LB, seed=0)
lec.check("train / validation sizes", [DTR.shape[1], DVAL.shape[1]], fmt="{:.0f}",
          ref="iris_lda_binary/sizes")
clf = train_lda_binary(DTR, LTR, threshold="midpoint")  # the course lab's classifier
rows = [["LDA, midpoint threshold", clf.t, int((clf.predict(DVAL) != LVAL).sum())]]
lec.check("errors out of 34, midpoint threshold", rows[0][2], fmt="{:.0f}",
          ref="iris_lda_binary/errors")
clf = train_lda_binary(DTR, LTR, threshold="min_error")  # the threshold of fewest training errors
rows.append(["LDA, min_error threshold", clf.t, int((clf.predict(DVAL) != LVAL).sum())])
for m in (1, 2, 3):  # PCA first, then LDA, both learned on training data only
    pca = fit_pca(DTR, m)
    clf = train_lda_binary(pca.transform(DTR), LTR)
    rows.append([f"PCA m={m} then LDA", clf.t, int((clf.predict(pca.transform(DVAL)) != LVAL)
                                                   .sum())])
lec.table("iris_lda_binary", "Validation errors out of 34", ["model", "threshold", "errors"],
          rows)
clf = train_lda_binary(DTR, LTR)
fig = plot_class_histograms(clf.scores(DVAL)[None, :], LVAL, feature_names=["LDA projection w'x"],
                            class_names=["virginica (0)", "versicolor (1)"],
                            title="Iris validation set: LDA projection and midpoint threshold")
fig.axes[0].axvline(clf.t, color="k", ls="--", lw=1)  # w'x > t decides versicolor (1)
fig.axes[0].annotate(f"t = {clf.t:.3f}", (clf.t, 1), xycoords=("data", "axes fraction"),
                     xytext=(3, -12), textcoords="offset points")
lec.figure(fig, "iris_lda_binary_hist.png")

# %% MNIST: nearest class mean after PCA and PCA + LDA
DTR, LTR, DTE, LTE = lec.load_mnist()
lec.section(f"MNIST ({lec.mnist_sizes}): nearest-class-mean test error rate (%)")


def nearest_mean_error(XTR, XTE):
    return 100 * np.mean(train_nearest_mean(XTR, LTR).predict(XTE) != LTE)


lec.progress("PCA on the training images")
lec.value("mnist_image_shape", MNIST_SHAPE)  # the README's "28 x 28 images"
pca_all = fit_pca(DTR, 100)
lec.figure(plot_images(pca_all.P[:, :20], shape=MNIST_SHAPE, titles=range(1, 21), ncols=10,
                       symmetric=True,
                       title=f"MNIST ({lec.mnist_sizes}): the first 20 principal directions"),
           "mnist_pca_directions.png")
measured = {"raw": nearest_mean_error(DTR, DTE)}
ms = [2, 3, 5, 9, 20, 50, 100]
curve = {}
for m in ms:
    pca = fit_pca(DTR, m)
    curve[m] = nearest_mean_error(pca.transform(DTR), pca.transform(DTE))
    measured[f"PCA m={m}"] = curve[m]
Z_TR, Z_TE = pca_all.transform(DTR), pca_all.transform(DTE)
lda_curve = {}
for m in range(1, 10):
    lec.progress(f"PCA m=100 then LDA m={m}")
    lda = fit_lda(Z_TR, LTR, m)
    lda_curve[m] = nearest_mean_error(lda.transform(Z_TR), lda.transform(Z_TE))
    measured[f"PCA m=100, LDA m={m}"] = lda_curve[m]
for key in lec.references:
    if key.startswith("mnist_nearest_mean/"):
        name = key.split("/", 1)[1]
        lec.check(f"{name:20s} error %", measured[name], fmt="{:.2f}", ref=key)
lec.table("mnist_nearest_mean",
          f"Nearest class mean, MNIST test error % (measured, {lec.mnist_sizes})",
          ["projection", "error %"], [[k, v] for k, v in measured.items()])
lec.figure(plot_curves(ms, {"PCA": [curve[m] for m in ms]}, xlabel="dimension m",
                       ylabel="test error rate (%)", logx=True,
                       hlines={"raw pixels (784)": measured["raw"]},
                       title=f"MNIST ({lec.mnist_sizes}):\nnearest class mean after PCA"),
           "mnist_error_vs_m_pca.png")
lec.figure(plot_curves(list(lda_curve), {"PCA 100 then LDA": list(lda_curve.values())},
                       xlabel="LDA dimension m", ylabel="test error rate (%)",
                       hlines={"PCA m=100": measured["PCA m=100"]},
                       title=f"MNIST ({lec.mnist_sizes}):\n"
                             "nearest class mean after PCA (m=100) and LDA"),
           "mnist_error_vs_m_lda.png")
lec.finish()
