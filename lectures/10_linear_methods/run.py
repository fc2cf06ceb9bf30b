"""Lecture 10: linear methods, the short notes on their own examples.

Notes 001's worked LDA example in exact fractions (and the slip in its Sigma^-1), the nearest-mean
against the LDA direction; notes 003's geometry of a linear discriminant (Fig. 6.1), Fisher's
projection against the line joining the means (Fig. 6.3) and the perceptron; notes 000's "LDA"
and "QDA" with priors learned from the training set (Figs. 2-3); notes 004's k-NN posteriors
and Gaussian, Bernoulli and multinomial naive Bayes on a small bag-of-words task written below.
Every data set is drawn here from fixed seeds: the lecture runs the same in --quick and full mode.
"""

# %% set-up: imports, the lecture object, helpers
import warnings
from fractions import Fraction

import numpy as np
import scipy.stats
from _lecture import CLOSED_FORM, INVARIANT, Lecture

from mlpr.dimred import (
    fisher_criterion,
    fit_lda,
    hyperplane_offset,
    project_on_hyperplane,
    signed_distance,
    train_lda_binary,
)
from mlpr.evaluation import error_rate, kfold_scores, min_dcf
from mlpr.gaussian import sample_GAU_ND
from mlpr.generative import (
    GaussianClassifier,
    log_posteriors,
    map_decisions,
    ml_class_priors,
    tied_binary_llr_coefficients,
    tied_linear_discriminants,
    train_bernoulli_nb,
    train_multinomial_nb,
    train_mvg,
    train_naive_bayes,
    train_tied,
)
from mlpr.logreg import train_logreg_binary, train_perceptron
from mlpr.multiclass import train_one_vs_one, train_one_vs_rest
from mlpr.neighbors import train_knn
from mlpr.plots import (
    figure_grid,
    plot_decision_regions,
    plot_hyperplane_geometry,
    plot_linear_boundaries_2d,
    plot_one_vs_rest_regions,
    plot_projection_histograms,
)
from mlpr.utils import ConvergenceWarning

lec = Lecture("10_linear_methods", __doc__)


def fractions(v):
    """A vector of Fractions as text, e.g. (8/9, -4)."""
    return "(" + ", ".join(str(x) for x in v) + ")"


# %% notes 001: the worked LDA example, in exact fractions
lec.section("Notes 001: LDA with mu_1 = (3, 0), mu_0 = (1, 1), Sigma = diag((3/2)^2, (1/2)^2)")
mu1, mu0 = [Fraction(3), Fraction(0)], [Fraction(1), Fraction(1)]
sigma2 = [Fraction(3, 2) ** 2, Fraction(1, 2) ** 2]  # the diagonal of Sigma
dmu = [a - b for a, b in zip(mu1, mu0)]  # mu_1 - mu_0 = (2, -1)
midpoint = [(a + b) / 2 for a, b in zip(mu1, mu0)]
precision = {"correct": [1 / s for s in sigma2], "printed in notes 001": [Fraction(4)] * 2}
rows, wb = [], {}
for name, p in precision.items():
    w = [pi * d for pi, d in zip(p, dmu)]  # w = Sigma^-1 (mu_1 - mu_0)
    b = -sum(wi * m for wi, m in zip(w, midpoint))  # b = -w^T (mu_1 + mu_0) / 2 (equal priors)
    check = [s * pi for s, pi in zip(sigma2, p)]  # the diagonal of Sigma Sigma^-1
    # notes 001 prints Sigma^-1 and w, no b: the b of the printed row is the one they imply
    rows.append([name, f"diag{fractions(p)}", fractions(w),
                 str(b) if name == "correct" else f"{b} (implied)", f"diag{fractions(check)}"])
    wb[name] = (np.array(w, dtype=float), float(b))
lec.table("notes001_lda", "w^T x + b > 0 decides class 1 (equal priors)",
          ["Sigma^-1", "value", "w", "b", "Sigma Sigma^-1"], rows)
print("The correct inverse is diag(4/9, 4): the inverse of a diagonal matrix inverts each entry, "
      "1 / (3/2)^2 = 4/9 and 1 / (1/2)^2 = 4; with the printed diag(4, 4), Sigma Sigma^-1 = "
      "diag(9, 1) is not the identity. The printed Sigma^-1 = 4 I also makes the printed w = "
      "(8, -4) = 4 (mu_1 - mu_0); with the b it implies (the note prints none), -14 = 4 (-7/2), "
      "that is the nearest-mean boundary itself, so it could not 'rotate the normal of the "
      "decision boundary' as the notes say LDA does.")
tied = GaussianClassifier(mu=np.array([[1.0, 3.0], [1.0, 0.0]]),
                          C=np.diag([float(s) for s in sigma2]), kind="tied")
w_lib, b_lib = tied_binary_llr_coefficients(tied)  # the library's route: Cholesky solves
lec.check("w from mlpr (tied_binary_llr_coefficients)", w_lib, [8 / 9, -4], tol=1e-14,
          fmt="{:.6f}", source=CLOSED_FORM)
lec.check("b from mlpr", b_lib, 2 / 9, tol=1e-14, fmt="{:.6f}", source=CLOSED_FORM)
# nearest mean: w = mu_1 - mu_0, b = -(|mu_1|^2 - |mu_0|^2) / 2
w_nm, b_nm = np.array([2.0, -1.0]), -3.5
w_bad, b_bad = wb["printed in notes 001"]
lec.claim("the printed LDA boundary is the nearest-mean boundary (w, b) = 4 (w_nm, b_nm)",
          np.allclose(w_bad, 4 * w_nm) and b_bad == 4 * b_nm, source=CLOSED_FORM)
cosang = w_nm @ wb["correct"][0] / np.linalg.norm(w_nm) / np.linalg.norm(wb["correct"][0])
lec.check("angle between the nearest-mean and the LDA normals (degrees)",
          np.degrees(np.arccos(cosang)), fmt="{:.2f}")

# error rates: closed forms against 2 x 20,000 samples
rng = np.random.default_rng(0)
C001 = np.diag([2.25, 0.25])
X001 = np.hstack([sample_GAU_ND([1.0, 1.0], C001, 20000, rng),
                  sample_GAU_ND([3.0, 0.0], C001, 20000, rng)])
L001 = np.repeat([0, 1], 20000)
for name, (w, b) in {"nearest mean": (w_nm, b_nm), "LDA": wb["correct"]}.items():
    # projected classes N(w^T mu_c + b, w^T Sigma w): each errs with Phi(-|w^T mu_c + b| / sd)
    sd = np.sqrt(w @ C001 @ w)
    closed = 0.5 * sum(scipy.stats.norm.cdf(-abs(w @ m + b) / sd) for m in ([1, 1], [3, 0]))
    measured = error_rate((w @ X001 + b > 0).astype(int), L001)
    lec.check(f"{name:12s} error rate, 40,000 samples vs Gaussian closed form", measured, closed,
              tol=0.01, source=CLOSED_FORM)
idx = np.random.default_rng(1).choice(40000, 600, replace=False)
lec.figure(plot_linear_boundaries_2d(
    X001[:, idx], L001[idx], {"nearest mean": (w_nm, b_nm), "LDA": wb["correct"]},
    class_names=["class 0: mu_0 = (1, 1)", "class 1: mu_1 = (3, 0)"],
    title="Notes 001: LDA rotates the normal of the nearest-mean boundary\n"
          "(600 of 40,000 samples, Sigma = diag(9/4, 1/4))"), "notes001_nearest_mean_vs_lda.png")

# %% notes 001: choose b by cross-validation when the clusters are not elliptic
lec.section("Notes 001: the offset b of the LDA rule on clusters that are not elliptic (class 0 "
            "an exponential tail, class 1 a narrow Gaussian), 20 training samples per class, "
            "100 training sets, 40,000 test samples")


def tail_and_gaussian(n, rng):
    """Class 0: -1.5 Exp(1) along x1 (a one-sided tail towards class 1); class 1: N(1, 0.3^2)."""
    x0 = np.vstack([-1.5 * rng.exponential(1.0, n), rng.normal(0.0, 1.0, n)])
    x1 = np.vstack([rng.normal(1.0, 0.3, n), rng.normal(0.0, 1.0, n)])
    return np.hstack([x0, x1]), np.repeat([0, 1], n)


XB, LB = tail_and_gaussian(20000, np.random.default_rng(99))
rng = np.random.default_rng(0)
errs = []
for _ in range(100):
    X, Y = tail_and_gaussian(20, rng)
    lda = train_lda_binary(X, Y)  # w = Sw^-1 (mu_1 - mu_0), b at the midpoint of the means
    # b on the training set: the threshold of least training error
    t_train = train_lda_binary(X, Y, threshold="min_error").t
    # b by 5-fold cross-validation: the threshold of least error on the out-of-fold projections
    t_cv = min_dcf(kfold_scores(train_lda_binary, X, Y, 5), Y, 0.5, return_threshold=True)[1]
    s = lda.scores(XB)
    errs.append([error_rate((s > t).astype(int), LB) for t in (lda.t, t_train, t_cv)])
errs = 100 * np.array(errs)
rows = [[name, errs[:, j].mean(), errs[:, j].std() / 10] for j, name in enumerate(
    ["midpoint of the projected means (the Gaussian rule)", "least training error",
     "least 5-fold cross-validation error"])]
lec.table("notes001_offset", "Test error % of the LDA direction with three offsets b (mean over "
          "100 training sets, and its standard error)", ["b", "test error %", "s.e."], rows)
lec.claim("on these non-elliptic clusters an empirical offset (training or cross-validation) "
          "beats the Gaussian midpoint by more than a factor 2",
          2 * max(rows[1][1], rows[2][1]) < rows[0][1], source=INVARIANT)

# %% notes 004's slips, shown on numbers (docs/errata.md)
lec.section("Notes 004: the printed Gaussian normaliser and the printed LDA threshold")
xs = np.linspace(-40, 40, 400001)
for sigma in (2.0, 0.5):
    printed = np.exp(-xs ** 2 / (2 * sigma ** 2)) / np.sqrt(2 * np.pi * sigma)
    lec.check(f"integral of the printed 1-D Gaussian 1/sqrt(2 pi sigma) exp(...), sigma = "
              f"{sigma:g} (a density integrates to 1; this one to sqrt(sigma))",
              printed.sum() * (xs[1] - xs[0]),  # the tails beyond +-40 are below 1e-40
              np.sqrt(sigma), tol=1e-9, source=CLOSED_FORM)
mid = (np.array([3.0, 0.0]) + np.array([1.0, 1.0])) / 2
lec.check("notes 001's example: the LDA threshold w^T (mu_1 + mu_0) / 2 that notes 004 prints "
          "'= 0'", w_lib @ mid, -2 / 9, tol=1e-14, fmt="{:.6f}", source=CLOSED_FORM)

# %% notes 003, Fig. 6.1: the geometry of w^T x + b
lec.section("Notes 003, Fig. 6.1: w = (2, 1), b = -4; signed distances r = y(x) / ||w||")
w61, b61 = np.array([2.0, 1.0]), -4.0
P61 = np.array([[3.0, 0.5, 1.0], [2.0, 0.5, 2.0]])
r = signed_distance(P61, w61, b61)
hand = np.array([4.0, -2.5, 0.0]) / np.sqrt(5)  # (6 + 2 - 4, 1 + 0.5 - 4, 2 + 2 - 4) / sqrt 5
lec.check("r of (3, 2), (0.5, 0.5), (1, 2)", r, hand, tol=1e-14, source=CLOSED_FORM)
lec.check("offset of the hyperplane from the origin, -b / ||w||", hyperplane_offset(w61, b61),
          4 / np.sqrt(5), tol=1e-14, source=CLOSED_FORM)
lec.check("y(x_perp) of the projections on the hyperplane", w61 @ project_on_hyperplane(
    P61, w61, b61) + b61, [0, 0, 0], tol=1e-13, fmt="{:.1e}", source=INVARIANT)
lec.figure(plot_hyperplane_geometry(w61, b61, P61[:, :2], title="Notes 003, Fig. 6.1: "
                                    "y(x) = w^T x + b, w = (2, 1), b = -4"),
           "notes003_fig6_1_geometry.png")

# %% notes 003, Fig. 6.3: the line joining the means vs Fisher's direction
lec.section("Notes 003, Fig. 6.3: projection on the line joining the means vs Fisher's "
            "direction (2 x 200 samples)")
rng = np.random.default_rng(3)
C63 = np.array([[2.0, 1.7], [1.7, 1.6]])  # elongated, tilted classes
X63 = np.hstack([sample_GAU_ND([0.0, 0.0], C63, 200, rng),
                 sample_GAU_ND([1.5, -0.3], C63, 200, rng)])
L63 = np.repeat([0, 1], 200)
m0, m1 = X63[:, L63 == 0].mean(axis=1), X63[:, L63 == 1].mean(axis=1)
directions = {"line joining the means": m1 - m0, "Fisher (LDA)": fit_lda(X63, L63, 1).W[:, 0]}
fig, axes = figure_grid(1, 3, width=4.6, height=4.0,
                        title="Notes 003, Fig. 6.3: two classes projected on two directions")
rows, bounds, J = [], {}, {}
for i, (name, w) in enumerate(directions.items()):
    w = w if w @ (m1 - m0) > 0 else -w  # class 1 to the right
    y = w @ X63
    t = 0.5 * (w @ m0 + w @ m1)  # threshold midway between the projected means
    J[name] = fisher_criterion(w, X63, L63)
    rows.append([name, J[name], fisher_criterion(w, X63, L63, "covariances"),
                 100 * error_rate((y > t).astype(int), L63)])
    bounds[name] = (w, -t)
    plot_projection_histograms(y, L63, ax=axes[0, i + 1], xlabel="w^T x",
                               title=f"{name}:\nJ(w) = {J[name]:.3g} (note 003 eq. 6.5, sums)")
plot_linear_boundaries_2d(X63, L63, bounds, ax=axes[0, 0],
                          title="w as normals of the midpoint thresholds")
fig.tight_layout()
lec.figure(fig, "notes003_fig6_3_fisher.png")
lec.table("fisher", "Fisher's criterion and the training error of the midpoint threshold",
          ["direction", "J (003, sums)", "J (main notes, 1/N)", "error %"], rows)
lec.claim("Fisher's direction has the larger J(w)",
          J["Fisher (LDA)"] > J["line joining the means"], source=INVARIANT)
lec.check("J (1/N) / J (sums) = n0 n1 / N", rows[1][2] / rows[1][1], 200 * 200 / 400, tol=1e-9,
          fmt="{:.6f}", source=CLOSED_FORM)

# %% notes 003, section 6.2.4: the perceptron
lec.section("Notes 003, section 6.2.4: the perceptron on separable and non-separable data")
rng = np.random.default_rng(4)
sep = np.hstack([sample_GAU_ND([0.0, 0.0], 0.3 * np.eye(2), 50, rng),
                 sample_GAU_ND([3.0, 3.0], 0.3 * np.eye(2), 50, rng)])
Lp = np.repeat([0, 1], 50)
rows = []
for name, X in {"separable (well apart)": sep, "non-separable (Fig. 6.3 data)": X63}.items():
    Lx = Lp if X is sep else L63
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        pc = train_perceptron(X, Lx, 100, np.random.default_rng(0))
    warned = any(issubclass(c.category, ConvergenceWarning) for c in caught)
    err = 100 * error_rate((pc.scores(X) > 0).astype(int), Lx)
    rows.append([name, pc.epochs, pc.n_updates, pc.converged, warned, err])
lec.table("perceptron", "Perceptron, at most 100 epochs (eta = 1, w = 0 at the start)",
          ["data", "epochs", "updates", "converged", "ConvergenceWarning", "training error %"],
          rows)
lec.claim("converges on the separable data with no training error",
          rows[0][3] and rows[0][5] == 0.0, source=INVARIANT)
lec.claim("does not converge within 100 epochs on the overlapping classes", not rows[1][3],
          source=INVARIANT)

# %% notes 003, Fig. 6.2: one versus the rest, one versus one
lec.section("Notes 003, Fig. 6.2: K = 3 classes from binary linear discriminants (logistic "
            "regression, lambda = 1e-3)")
rng = np.random.default_rng(7)
# differently shaped classes, so that the three pairwise boundaries do not meet in one point
covs62 = [np.array([[1.0, 0.8], [0.8, 1.0]]), np.array([[1.0, -0.8], [-0.8, 1.0]]),
          np.diag([3.0, 0.1])]
X62 = np.hstack([sample_GAU_ND(m, C, 60, rng)
                 for m, C in zip(([0.0, 0.0], [4.0, 0.0], [2.0, 3.5]), covs62)])
L62 = np.repeat(np.arange(3), 60)


def logreg(D, L):
    return train_logreg_binary(D, L, 1e-3)


ovr, ovo = train_one_vs_rest(logreg, X62, L62), train_one_vs_one(logreg, X62, L62)
ovr2 = train_one_vs_rest(logreg, X62, L62, last_implicit=True)  # note 003's K - 1 classifiers
box = np.meshgrid(np.linspace(-2.5, 6.5, 300), np.linspace(-2.5, 6.0, 300))
G = np.vstack([box[0].ravel(), box[1].ravel()])
n_claims = ovr.claims(G).sum(axis=0)
n_claims2 = ovr2.claims(G)[:-1].sum(axis=0)  # the K - 1 classifiers' own claims
votes = ovo.scores(G)
tie = (votes == votes.max(axis=0)).sum(axis=0) > 1
lec.table("ovr_ovo", "Share of the plotted square (-2.5..6.5 x -2.5..6) that the binary "
          "decisions leave ambiguous",
          ["scheme", "no class claims x %", "several classes claim x / votes tie %",
           "training error % (arg max)"],
          [["one versus the rest, K classifiers", 100 * np.mean(n_claims == 0),
            100 * np.mean(n_claims > 1), 100 * error_rate(ovr.predict(X62), L62)],
           ["one versus the rest, K - 1 classifiers (note 003)", 0.0,
            100 * np.mean(n_claims2 > 1), 100 * error_rate(ovr2.predict(X62), L62)],
           ["one versus one", 0.0, 100 * np.mean(tie), 100 * error_rate(ovo.predict(X62), L62)]])
lec.claim("one versus the rest with K - 1 classifiers leaves no region unclaimed, and some "
          "claimed twice", np.all(ovr2.claims(G).sum(axis=0) >= 1) and np.any(n_claims2 > 1),
          source=INVARIANT)
lec.claim("one versus one: every tie is one vote per class (1, 1, 1)",
          np.all(votes[:, tie] == 1), source=INVARIANT)
fig, axes = figure_grid(1, 3, width=4.8, height=4.6,
                        title="Notes 003, Fig. 6.2: the ambiguous regions of binary "
                              "discriminants (3 x 60 samples, seed 7)")
plot_one_vs_rest_regions(X62, L62, ovr.claims, ax=axes[0, 0],
                         title="one versus the rest, K = 3 classifiers")
plot_one_vs_rest_regions(X62, L62, ovr2.claims, ax=axes[0, 1],
                         title="one versus the rest, K - 1 = 2 classifiers\n(class 2 where "
                               "neither claims x)", region_labels=(None,
                                                                   "several classes claim x"))
plot_one_vs_rest_regions(
    X62, L62, lambda X: (lambda V: V == V.max(axis=0))(ovo.scores(X)), ax=axes[0, 2],
    title="one versus one: the classes with most votes", region_labels=(None, "the votes tie "
                                                                          "(1-1-1)"))
fig.tight_layout()
lec.figure(fig, "notes003_fig6_2_ovr_ovo.png")

# %% notes 000, Figs. 2-3: "LDA" and "QDA" with learned priors
lec.section("Notes 000, Figs. 2-3: LDA and QDA on three Gaussian classes, priors n_k / N")
means3 = [np.array([0.0, 0.0]), np.array([3.0, 0.5]), np.array([1.0, 3.0])]
covs3 = [np.array([[1.0, 0.6], [0.6, 1.0]]), np.array([[0.4, 0.0], [0.0, 2.0]]),
         np.array([[2.0, -0.8], [-0.8, 0.8]])]
sizes = [60, 180, 120]


def three_gaussians(rng, scale=1):
    X = np.hstack([sample_GAU_ND(m, C, scale * n, rng) for m, C, n in zip(means3, covs3, sizes)])
    return X, np.repeat(np.arange(3), [scale * n for n in sizes])


X3, L3 = three_gaussians(np.random.default_rng(5))
X3te, L3te = three_gaussians(np.random.default_rng(6), scale=10)
priors = ml_class_priors(L3)
lec.check("learned priors n_k / N", priors, np.array(sizes) / sum(sizes), tol=1e-15,
          source=CLOSED_FORM)
fig, axes = figure_grid(1, 2, width=5.5, height=4.6,
                        title=f"Notes 000: three Gaussian classes ({sum(sizes)} samples, seed 5),"
                              f" priors n_k / N")
rows = []
for ax, (name, train) in zip(axes[0], [("LDA (tied covariance)", train_tied),
                                       ("QDA (one covariance per class)", train_mvg)]):
    model = train(X3, L3)
    rows.append([name] + [100 * error_rate(map_decisions(model.scores(X), priors), Lx)
                          for X, Lx in ((X3, L3), (X3te, L3te))])
    plot_decision_regions(X3, L3, lambda X, m=model: map_decisions(m.scores(X), priors),
                          title=f"{name}: {'linear' if 'LDA' in name else 'quadratic'} "
                                f"boundaries", ax=ax)
fig.tight_layout()
lec.figure(fig, "notes000_lda_vs_qda.png")
lec.table("lda_qda", "Error % of the MAP decisions with the learned priors",
          ["model", "training", f"test ({10 * sum(sizes)} fresh samples)"], rows)
A, bA = tied_linear_discriminants(train_tied(X3, L3), priors)
lin = A.T @ X3te + bA[:, None]
lin -= scipy.special.logsumexp(lin, axis=0)
lec.check("LDA log-posteriors: Gaussian densities vs linear discriminants a_k^T x + b_k "
          "(max |diff|)", np.abs(log_posteriors(train_tied(X3, L3).scores(X3te), priors)
                                 - lin).max(), 0.0, tol=1e-10, fmt="{:.1e}", source=INVARIANT)

# %% notes 004: k-NN posteriors and the effect of k
lec.section("Notes 004: k-NN, posteriors k_c / k (training set of notes 000's three classes)")
queries = np.array([[1.5, 0.0, 2.0], [1.0, 2.0, 2.5]])
knn = train_knn(X3, L3, 7)
P = knn.scores(queries)
lec.table("knn_posteriors", "k = 7: neighbours per class and posterior estimates",
          ["query", "k_0, k_1, k_2", "P(c | x) = k_c / k", "decision"],
          [[f"({q[0]:g}, {q[1]:g})", str(np.rint(7 * P[:, j]).astype(int).tolist()),
            " ".join(str(Fraction(int(round(7 * p)), 7)) for p in P[:, j]), int(c)]
           for j, (q, c) in enumerate(zip(queries.T, knn.predict(queries)))])
lec.claim("every k-NN posterior is a fraction k_c / k", np.allclose(7 * P, np.rint(7 * P)),
          source=CLOSED_FORM)
ks = [1, 7, 51]
fig, axes = figure_grid(1, 3, width=4.8, height=4.4,
                        title="Notes 004: k-NN boundaries on notes 000's three classes")
rows = []
for ax, k in zip(axes[0], ks):
    m = train_knn(X3, L3, k)
    rows.append([k, 100 * error_rate(m.predict(X3), L3), 100 * error_rate(m.predict(X3te), L3te)])
    plot_decision_regions(X3, L3, m.predict, title=f"k = {k}", ax=ax, resolution=200)
fig.tight_layout()
lec.figure(fig, "notes004_knn_k.png")
lec.table("knn_k", "k-NN error % against k", ["k", "training", "test"], rows)
lec.claim("k = 1 makes no training error (each sample is its own nearest neighbour)",
          rows[0][1] == 0.0, source=INVARIANT)

# notes 004's neighbourhood N_h(x): the k nearest training points within distance h of x
lec.section("Notes 004: k-NN within a radius h, N_h(x) = top-k{x_n : d(x_n, x) <= h}, k = 51")
rows = []
for h in (None, 2.0, 1.0, 0.5):
    m = train_knn(X3, L3, 51, h=h)
    n = m.n_within(X3te)
    rows.append(["none" if h is None else f"{h:g}", float(np.mean(n)), 100 * np.mean(n == 0),
                 100 * error_rate(m.predict(X3te), L3te)])
lec.table("knn_radius", "k = 51 with a radius h: mean |N_h(x)| on the test samples, share with "
          "no training point within h (uniform posterior, the nearest point's class), test "
          "error %", ["h", "mean |N_h|", "empty N_h %", "test error %"], rows)
lec.claim("a smaller radius keeps fewer neighbours (mean |N_h| decreases with h)",
          all(a[1] >= b[1] for a, b in zip(rows, rows[1:])), source=INVARIANT)

# %% notes 004: naive Bayes on a bag of words
lec.section("Notes 004: Gaussian, Bernoulli and multinomial naive Bayes on a bag of words")
train_texts = [  # class 0: cooking, class 1: football
    ("boil the pasta and add the tomato sauce", 0), ("chop the onion and fry it in oil", 0),
    ("bake the bread in a hot oven", 0), ("add salt and pepper to the sauce", 0),
    ("fry the fish in hot oil with salt", 0), ("the chef cooks the pasta with garlic", 0),
    ("the striker scores a goal in the match", 1), ("the keeper saves the penalty", 1),
    ("the team wins the match with a late goal", 1), ("the coach picks the team for the match", 1),
    ("a red card for the defender in the final", 1), ("the striker misses the penalty", 1),
    ("the fans sing as the team scores", 1),
]
test_texts = [("the chef adds garlic to the hot pan", 0), ("fry the onion with the pasta", 0),
              ("the keeper saves a shot in the final", 1), ("the coach wins with a penalty", 1),
              ("the team eats pasta before the match", 1)]
vocab = sorted({w for t, _ in train_texts for w in t.split()})
print(f"{len(train_texts)} training texts, {len(test_texts)} test texts, vocabulary of "
      f"{len(vocab)} words (test words outside it are ignored)")


def bag(texts):
    """Word counts, (M, N): one row per vocabulary word, one column per text."""
    return np.array([[t.split().count(w) for t, _ in texts] for w in vocab], dtype=float)


Ctr, Cte = bag(train_texts), bag(test_texts)
lec.value("texts", [len(train_texts), len(test_texts), len(vocab)])
Ltr, Lte = np.array([c for _, c in train_texts]), np.array([c for _, c in test_texts])
priors_nb = ml_class_priors(Ltr)
models = {
    "multinomial, eps = 0": (train_multinomial_nb(Ctr, Ltr, 0.0), Cte),
    "multinomial, eps = 1": (train_multinomial_nb(Ctr, Ltr, 1.0), Cte),
    "Bernoulli, eps = 0": (train_bernoulli_nb(Ctr > 0, Ltr, 0.0), Cte > 0),
    "Bernoulli, eps = 1": (train_bernoulli_nb(Ctr > 0, Ltr, 1.0), Cte > 0),
    "Gaussian (variances floored at 0.01)": (train_naive_bayes(Ctr, Ltr, psi=0.01), Cte),
}
rows = []
for name, (model, X) in models.items():
    S = model.scores(X)
    dead = np.isneginf(S).any(axis=0)
    pred = map_decisions(S, priors_nb)
    rows.append([name, 100 * error_rate(pred, Lte), int(dead.sum()), " ".join(map(str, pred))])
lec.table("naive_bayes", f"Test texts (true classes {' '.join(map(str, Lte))}), priors n_k / N",
          ["model", "error %", "texts with a -inf class score", "decisions"], rows)
lec.claim("without pseudo-counts a word unseen in a class gives that class score -inf",
          rows[0][2] > 0 and rows[2][2] > 0, source=CLOSED_FORM)
lec.claim("pseudo-counts eps = 1 remove every -inf", rows[1][2] == 0 and rows[3][2] == 0,
          source=CLOSED_FORM)
lec.finish()
