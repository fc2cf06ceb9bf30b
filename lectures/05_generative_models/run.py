"""Lecture 05: generative classifiers and prototype methods.

Gaussian classifiers (MVG, naive Bayes, tied, tied naive) on iris and MNIST, discrete naive Bayes
models on MNIST pixels, nearest class mean and k-nearest neighbours. Priors are the application's:
every decision below uses uniform priors, passed explicitly. References: the iris results of the
course's lab solutions (lab 5; the confusion matrices, lab 7) and the MNIST error rates of the
course slides (the notes describe these results only in words).
"""

# %% set-up: imports, the lecture object, helpers
import numpy as np
from _lecture import CLOSED_FORM, INVARIANT, SLIDES, Lecture

from mlpr.datasets import IRIS_CLASSES, IRIS_FEATURES, load_iris
from mlpr.dimred import fit_lda, fit_pca
from mlpr.evaluation import confusion_matrix, error_rate
from mlpr.gaussian import logpdf_GAU_ND, sample_GAU_ND
from mlpr.generative import (
    map_decisions,
    train_bernoulli_nb,
    train_categorical_nb,
    train_multinomial_nb,
    train_mvg,
    train_naive_bayes,
    train_tied,
    train_tied_naive,
    uniform_priors,
)
from mlpr.neighbors import train_knn, train_nearest_mean
from mlpr.plots import (
    figure_grid,
    plot_curves,
    plot_decision_regions,
    plot_gaussian_contours_2d,
)
from mlpr.utils import leave_one_out_indices, split_db_2to1

lec = Lecture("05_generative_models", __doc__)
# the functions a lab asks students to write: theirs in student mode (--student PATH)
train_mvg, train_naive_bayes, train_tied, map_decisions, confusion_matrix, fit_pca, fit_lda = \
    lec.use(train_mvg, train_naive_bayes, train_tied, map_decisions, confusion_matrix, fit_pca,
            fit_lda)
MODELS = {"MVG": train_mvg, "naive Bayes": train_naive_bayes, "tied": train_tied,
          "tied naive": train_tied_naive}


def error_pct(train, DTR, LTR, DTE, LTE):
    """Test error (%) of a generative model with uniform priors."""
    S = train(DTR, LTR).scores(DTE)
    return 100 * error_rate(map_decisions(S, uniform_priors(S.shape[0])), LTE)


# %% iris, 2/3 - 1/3 split
lec.section("Iris, split_db_2to1(seed=0): 100 training, 50 validation flowers, uniform priors")
D, L = load_iris()
(DTR, LTR), (DVAL, LVAL) = split_db_2to1(D, L, seed=0)
for name, train in MODELS.items():
    S = train(DTR, LTR).scores(DVAL)
    pred = map_decisions(S, uniform_priors(3))
    lec.check(f"{name:12s} error %", 100 * error_rate(pred, LVAL), fmt="{:.1f}",
              ref=f"iris_split_error/{name}" if name != "tied naive" else None)
    if name in ("MVG", "tied"):
        lec.check(f"{name:12s} confusion matrix (rows predicted, columns true)",
                  confusion_matrix(pred, LVAL, 3), fmt="{:.0f}",
                  ref=f"iris_split_confusion/{name}")

lec.section("Iris, leave-one-out on all 150 flowers")
for name, train in MODELS.items():
    wrong = sum(int(map_decisions(train(D[:, tr], L[tr]).scores(D[:, va]), uniform_priors(3))[0]
                    != L[va][0]) for tr, va in leave_one_out_indices(D.shape[1]))
    lec.check(f"{name:12s} LOO error % ({wrong}/150)", round(100 * wrong / 150, 1),
              fmt="{:.1f}", ref=f"iris_loo_error/{name}")

P = D[2:4]  # petal length and width: the class-conditional densities of the MVG model
mvg = train_mvg(P, L)
lec.figure(plot_gaussian_contours_2d(
    P, L, lambda X, k: logpdf_GAU_ND(X, mvg.mu[:, k], mvg.covariance(k)),
    class_names=IRIS_CLASSES, xlabel=IRIS_FEATURES[2], ylabel=IRIS_FEATURES[3],
    title="Iris: MVG class-conditional densities"), "iris_class_densities.png")

# %% the recitation's pair of figures: linear (tied) vs quadratic (MVG) boundaries
rng = np.random.default_rng(0)
means = [np.array([0.0, 0.0]), np.array([3.0, 0.5]), np.array([1.0, 3.0])]
covs = [np.array([[1.0, 0.6], [0.6, 1.0]]), np.array([[0.4, 0.0], [0.0, 2.0]]),
        np.array([[2.0, -0.8], [-0.8, 0.8]])]
X2 = np.hstack([sample_GAU_ND(m, C, 150, rng) for m, C in zip(means, covs)])
L2 = np.repeat(np.arange(3), 150)
fig, axes = figure_grid(1, 2, width=5.5, height=4.5,
                        title="Three 2-D Gaussian classes (150 samples each, seed 0)")
for ax, (name, train) in zip(axes[0], [("LDA (tied): linear boundaries", train_tied),
                                       ("QDA (MVG): quadratic boundaries", train_mvg)]):
    model = train(X2, L2)
    plot_decision_regions(X2, L2, lambda X, m=model: map_decisions(m.scores(X), uniform_priors(3)),
                          class_names=["class 0", "class 1", "class 2"], title=name, ax=ax)
fig.tight_layout()
lec.figure(fig, "tied_vs_mvg_boundaries.png")

# %% MNIST: Gaussian models after PCA and PCA + LDA
DTR, LTR, DTE, LTE = lec.load_mnist()
lec.progress("PCA on the training images")
pca = fit_pca(DTR, 200)
ZTR, ZTE = pca.transform(DTR), pca.transform(DTE)  # rows 0..m-1 are the PCA-m projection
lda = fit_lda(ZTR[:100], LTR, 9)
features = {"PCA m=100": (ZTR[:100], ZTE[:100]), "PCA m=50": (ZTR[:50], ZTE[:50]),
            "PCA m=9": (ZTR[:9], ZTE[:9]),
            "PCA 100 + LDA 9": (lda.transform(ZTR[:100]), lda.transform(ZTE[:100]))}
lec.section(f"MNIST, Gaussian classifiers, test error % ({lec.mnist_sizes})")
rows, table = [], {}
for name in ("tied naive", "tied", "naive Bayes", "MVG"):
    lec.progress(f"{name} on PCA/LDA features")
    table[name] = [error_pct(MODELS[name], XTR, LTR, XTE, LTE) for XTR, XTE in features.values()]
    lec.check(f"{name:12s} [PCA100 PCA50 PCA9 PCA100+LDA9]", table[name], fmt="{:.2f}",
              ref=f"mnist_gaussian/{name}")
    rows.append([name] + table[name])
lec.table("mnist_gaussian", "MNIST test error % (measured)", ["model"] + list(features), rows)
lec.claim("MVG is the best model at PCA m=50", min(table, key=lambda n: table[n][1]) == "MVG",
          source=SLIDES)
ratio = table["naive Bayes"][1] / table["MVG"][1]
lec.claim(f"the naive assumption is poor on correlated pixels: naive Bayes's error is {ratio:.1f} "
          f"times MVG's at PCA m=50 (more than 3)", ratio > 3, source=SLIDES)
lec.check("tied after LDA equals tied on PCA 100 (error %)", table["tied"][3],
          table["tied"][0], tol=0, fmt="{:.2f}", source=INVARIANT)

lec.section(f"MNIST ({lec.mnist_sizes}), MVG on the raw {DTR.shape[0]} pixels")
lec.value("pixels", DTR.shape[0])
lec.progress("MVG on raw pixels")
lec.check("class 0: pixels constant over its training images", int(np.sum(np.ptp(DTR[:, LTR == 0],
                                                                           axis=1) == 0)),
          fmt="{:.0f}")
try:
    train_mvg(DTR, LTR)
except ValueError as exc:
    print(f"train_mvg(DTR, LTR) raises ValueError:\n  {exc}")
for psi in (1e-3, 1e-2):
    lec.check(f"MVG raw pixels, eigenvalues floored at psi={psi:g}: error %",
              error_pct(lambda D, L, p=psi: train_mvg(D, L, psi=p), DTR, LTR, DTE, LTE),
              fmt="{:.2f}")

lec.progress("error against the PCA dimension")
ms = [5, 9, 20, 50, 100, 200]
curves = {name: [error_pct(MODELS[name], ZTR[:m], LTR, ZTE[:m], LTE) for m in ms]
          for name in MODELS}
lec.figure(plot_curves(ms, curves, xlabel="PCA dimension m", ylabel="test error rate (%)",
                       logx=True,
                       title=f"MNIST ({lec.mnist_sizes}):\nGaussian classifiers after PCA"),
           "mnist_error_vs_pca_dim.png")

# %% MNIST with discrete naive Bayes models
lec.section(f"MNIST ({lec.mnist_sizes}), discrete naive Bayes on the {DTR.shape[0]} pixels, "
            "test error %")
pix_tr = np.rint(DTR * 255).astype(np.int64)  # the original 0..255 intensities
pix_te = np.rint(DTE * 255).astype(np.int64)
features = {"Bernoulli (pixel >= 128)": (train_bernoulli_nb, pix_tr >= 128, pix_te >= 128),
            "multinomial (ink counts)": (train_multinomial_nb, pix_tr, pix_te),
            "categorical (4 levels)": (lambda D, L, e: train_categorical_nb(D, L, 4, e),
                                       pix_tr // 64, pix_te // 64)}
rows, minus_inf = [], {}
for eps in (0.0, 0.01, 1.0, 100.0):
    lec.progress(f"discrete models, pseudo-count {eps:g}")
    row = [eps]
    for name, (train, XTR, XTE) in features.items():
        S = train(XTR, LTR, eps).scores(XTE)
        row.append(100 * error_rate(map_decisions(S, uniform_priors(S.shape[0])), LTE))
        minus_inf[name, eps] = int(np.isneginf(S).sum())  # (class, image) scores of -inf
    rows.append(row)
lec.table("mnist_discrete", "Test error % against the pseudo-count eps", ["eps", *features], rows)
for name in features:
    lec.check(f"{name}, eps = 0: test scores of -inf (of {S.size} class-image pairs)",
              minus_inf[name, 0.0], fmt="{:.0f}")
lec.claim("eps = 0 gives -inf scores (an unseen pixel value) to every model, any eps > 0 none",
          all(minus_inf[n, 0.0] > 0 for n in features)
          and not any(minus_inf[n, e] for n in features for e in (0.01, 1.0, 100.0)),
          source=CLOSED_FORM)
err = {r[0]: r[1:] for r in rows}  # eps -> the three models' errors
lec.claim("a small pseudo-count (0.01) helps every model slightly (lower error than eps = 0, by "
          "less than 1 point)", all(0 < a - b < 1 for a, b in zip(err[0.0], err[0.01])),
          source=INVARIANT)
lec.claim("a large one (100) washes the estimates out: every model's error is higher than with "
          "eps = 0.01", all(a > b for a, b in zip(err[100.0], err[0.01])), source=INVARIANT)

# %% prototype methods
lec.section(f"MNIST ({lec.mnist_sizes}), nearest class mean and k-NN, test error %")
nm = {"raw": (DTR, DTE), "PCA m=50": (ZTR[:50], ZTE[:50])}
for name, (XTR, XTE) in nm.items():
    lec.check(f"nearest class mean, {name}",
              100 * error_rate(train_nearest_mean(XTR, LTR).predict(XTE), LTE), fmt="{:.2f}")
lec.progress("k-NN on PCA m=50")
ks = [1, 3, 5, 7]
pred = train_knn(ZTR[:50], LTR, max(ks)).predict_for_ks(ZTE[:50], ks)
knn_err = [100 * error_rate(p, LTE) for p in pred]
lec.table("mnist_knn", "k-NN on PCA m=50, test error %", ["k", "error %"],
          [[k, e] for k, e in zip(ks, knn_err)])
lec.finish()
