"""Lecture 09: Gaussian mixture models.

A GMM is the course's answer to a class that is not Gaussian (notes ch. 9): a 1-D multi-modal
sample fitted with 1 to 8 components, K-means (hard) beside EM (soft) clusters on iris, a component
collapsing without the eigenvalue floor and held with it, the GMM classifiers of the course's lab
on iris (full, diagonal, tied; 1 to 16 components, LBG), the MNIST table of the course slides and
an open-set task (digits 0-4 known, "none of the others" modelled by a GMM of unlabelled images).
Every decision uses uniform priors, passed explicitly; scores are class log-likelihoods.
"""

# %% set-up: imports, the lecture object, helpers
from itertools import permutations

import numpy as np
from _lecture import CLOSED_FORM, OBSERVED, Lecture

from mlpr.calibration import kfold_calibrate
from mlpr.datasets import IRIS_FEATURES, binary_task, load_iris
from mlpr.dimred import fit_pca
from mlpr.evaluation import act_dcf, error_rate, kfold_grid_search, min_dcf
from mlpr.generative import map_decisions, train_mvg, train_naive_bayes, uniform_priors
from mlpr.gmm import (
    GMM,
    DegenerateComponentError,
    GMMClassifier,
    em_step,
    gmm_from_clusters,
    gmm_statistics,
    kmeans,
    lbg_gmm_classifiers,
    logpdf_GMM,
    responsibilities,
    sample_GMM,
    split_gmm,
    train_gmm_classifier,
    train_gmm_em,
    train_gmm_hard_em,
    train_gmm_lbg,
    train_open_set_classifier,
)
from mlpr.plots import figure_grid, plot_clusters_2d, plot_em_runs, plot_gmm_1d, plot_lbg_history
from mlpr.utils import split_db_2to1

lec = Lecture("09_gaussian_mixture_models", __doc__)
COV_TYPES = ("full", "diagonal", "tied")
PSI, ALPHA = 0.01, 0.1  # the course's eigenvalue floor and LBG displacement
# the functions a lab asks students to write: theirs in student mode (--student PATH); the
# collapse demonstration keeps mlpr's em_step, whose degeneracy diagnosis it shows
(fit_pca, train_gmm_lbg, lbg_gmm_classifiers, logpdf_GMM, train_gmm_em, kmeans, train_mvg,
 map_decisions) = lec.use(fit_pca, train_gmm_lbg, lbg_gmm_classifiers, logpdf_GMM, train_gmm_em,
                          kmeans, train_mvg, map_decisions)


def error_pct(model, D, L):
    """Error (%) of the decisions of uniform priors on the class log-likelihoods."""
    S = model.scores(D)
    return 100 * error_rate(map_decisions(S, uniform_priors(S.shape[0])), L)


# %% a multi-modal 1-D sample: 1, 2, 4, 8 components
lec.section("A 1-D sample of 1,000 points from a 4-component GMM, LBG (psi = 0.01, alpha = 0.1)")
truth = GMM.from_list([(0.3, -3.0, 0.5), (0.4, 0.0, 1.0), (0.2, 3.0, 0.3), (0.1, 6.0, 0.8)])
x = sample_GMM(truth, 1000, np.random.default_rng(0))
models, histories = train_gmm_lbg(x, 8, "full", psi=PSI, alpha=ALPHA, return_history=True)
for g, h in zip(models, histories):
    lec.check(f"{g.n_components} component(s): average log-likelihood ({len(h)} values)", h[-1])
lec.check("the generating GMM: average log-likelihood", logpdf_GMM(x, truth).mean())
# LBG's 4 components split the wide central mode and leave the modes at 3 and 6 to one component;
# EM itself is not at fault: started from the generating GMM it finds a higher maximum
from_truth, h_truth = train_gmm_em(x, truth, "full", psi=PSI)
lec.check("4 components, EM from the generating GMM: average log-likelihood", h_truth[-1])
lec.claim("LBG's 4-component model is a lower local maximum than EM from the generating GMM",
          histories[2][-1] < h_truth[-1])
near = [float(np.min(np.abs(models[2].mu[0] - m))) for m in (3.0, 6.0)]
lec.check("LBG, 4 components: distance of the nearest mean to the modes at 3 and 6", near,
          fmt="{:.2f}")
# eq. 187 prints the likelihood of the sample as a sum of densities; it is their product, and its
# log (eq. 188) the sum of the log-densities (docs/errata.md)
lf = logpdf_GMM(x, truth)
lec.check("the generating GMM on the 1,000 points: log of the product of the densities (eq. "
          "188), and log of their sum (eq. 187 as printed)", [lf.sum(), np.logaddexp.reduce(lf)],
          fmt="{:.2f}")
lec.claim("EM never decreases the average log-likelihood (every LBG stage)",
          all(np.all(np.diff(h) >= -1e-12) for h in histories))
lec.figure(plot_gmm_1d(x, {f"{g.n_components} component{'s' * (g.n_components > 1)}": g
                           for g in models}, xlabel="x", truth=truth,
                       truth_label="generating GMM (4 components)",
                       title="A 4-mode sample (1,000 points) and GMMs of 1, 2, 4, 8 components"),
           "gmm_1d_components.png")
lec.figure(plot_lbg_history(histories, title="EM across LBG on the 1-D sample (splits marked)"),
           "em_lbg_history.png")

# %% iris petals: K-means (hard) beside EM (soft)
lec.section("Iris petals (150 flowers, labels unused): K-means and EM with 3 components")
D, L = load_iris()
P = D[2:4]
mu_km, z_km, hist_km = kmeans(P, 3, rng=np.random.default_rng(0))
start = gmm_from_clusters(P, z_km, cov_type="full")  # K-means as EM's initialisation (9.4)
gmm_em, hist_em = train_gmm_em(P, start, "full", psi=PSI)
lec.claim("K-means: the distortion never increases", np.all(np.diff(hist_km) >= -1e-12))
lec.check("K-means clusters as a GMM: average log-likelihood", hist_em[0])
lec.check(f"after EM ({len(hist_em) - 1} iterations): average log-likelihood", hist_em[-1])
fig, axes = figure_grid(1, 2, width=5.5, height=4.5,
                        title="Iris petals, 3 clusters: K-means (hard) and EM (soft)")
plot_clusters_2d(P, np.eye(3)[:, z_km], means=mu_km, xlabel=IRIS_FEATURES[2],
                 ylabel=IRIS_FEATURES[3], title="K-means: hard assignments", ax=axes[0, 0])
plot_clusters_2d(P, responsibilities(P, gmm_em), means=gmm_em.mu, gmm=gmm_em,
                 xlabel=IRIS_FEATURES[2], ylabel=IRIS_FEATURES[3],
                 title="EM (full covariances): responsibilities, log-density", ax=axes[0, 1])
fig.tight_layout()
lec.figure(fig, "iris_kmeans_vs_em.png")

# %% hard EM (eq. 193-196) against soft EM (eq. 191, 199-201), the same start
lec.section("Iris petals, 3 components, full covariances: hard EM against soft EM from the "
            "K-means clusters")
start = gmm_from_clusters(P, z_km, cov_type="full")
hard, z_hard, hist_hard = train_gmm_hard_em(P, start, "full", psi=PSI)
lec.check(f"hard EM ({len(hist_hard)} iterations): complete-data average log-likelihood "
          "(eq. 194) per iteration", hist_hard, fmt="{:.4f}")
lec.check(f"soft EM ({len(hist_em) - 1} iterations): average log-likelihood (eq. 188) at the "
          "start and the end", [hist_em[0], hist_em[-1]], fmt="{:.4f}")
lec.claim("hard EM never lowers its objective, the complete-data log-likelihood",
          np.all(np.diff(hist_hard) >= -1e-12))
lec.check("hard EM's final model: its soft average log-likelihood (eq. 188)",
          logpdf_GMM(P, hard).mean(), fmt="{:.4f}")
lec.claim("soft EM reaches a higher average log-likelihood than hard EM's model",
          hist_em[-1] > logpdf_GMM(P, hard).mean())
soft_z = responsibilities(P, gmm_em).argmax(axis=0)
table = np.array([[np.sum((z_hard == a) & (soft_z == b)) for b in range(3)] for a in range(3)])
lec.table("hard_vs_soft", "Final assignments: hard EM's clusters (rows) against soft EM's most "
          "responsible component (columns)", ["hard \\ soft", "0", "1", "2"],
          [[a] + list(map(int, table[a])) for a in range(3)])
lec.check("flowers that hard and soft EM assign to different components (best matching)",
          P.shape[1] - max(sum(table[a, perm[a]] for a in range(3))
                           for perm in permutations(range(3))),
          fmt="{:.0f}")
fig, axes = figure_grid(1, 2, width=5.5, height=4.5,
                        title="Iris petals, 3 full components: hard EM and soft EM")
plot_clusters_2d(P, np.eye(3)[:, z_hard], means=hard.mu, gmm=hard, xlabel=IRIS_FEATURES[2],
                 ylabel=IRIS_FEATURES[3], title="hard EM (eq. 193-196): assignments",
                 ax=axes[0, 0])
plot_clusters_2d(P, responsibilities(P, gmm_em), means=gmm_em.mu, gmm=gmm_em,
                 xlabel=IRIS_FEATURES[2], ylabel=IRIS_FEATURES[3],
                 title="soft EM: responsibilities", ax=axes[0, 1])
fig.tight_layout()
lec.figure(fig, "iris_hard_vs_soft_em.png")

# %% degeneracy: a component collapsing without the floor
lec.section("Degeneracy: 20 points, 8 components, EM without and with the floor psi = 0.01")
xs = sample_GMM(truth, 20, np.random.default_rng(1))
start = split_gmm(train_gmm_lbg(xs, 4, "full", psi=None, alpha=ALPHA)[-1], ALPHA)


def em_run(psi, n_iter):
    """EM one step at a time: average log-likelihood and smallest component variance, and the
    last model before a collapse."""
    g, ll, low = start, [logpdf_GMM(xs, start).mean()], [start.C.min()]
    for _ in range(n_iter):
        try:
            g_next = em_step(xs, g, "full", psi=psi)
        except DegenerateComponentError as exc:
            return ll, low, exc, g
        g = g_next
        ll.append(logpdf_GMM(xs, g).mean())
        low.append(g.C.min())
    return ll, low, None, g


def m_step_variances(X, g):
    """The M-step of eq. (199-201) from g without any floor, from the statistics N_c, F_c, S_c:
    each component's variance S_c / N_c - mu_c^2 (1-D data)."""
    Nc, F, S = gmm_statistics(X, responsibilities(X, g))
    return S[:, 0, 0] / Nc - (F[0] / Nc) ** 2


ll_free, low_free, err, last_free = em_run(None, 500)
ll_floor, low_floor, _, _ = em_run(PSI, len(ll_free) + 10)
lec.claim("without the floor EM stops with DegenerateComponentError"
          + (f" ({err})" if err is not None else ""), err is not None)
if err is not None:
    lec.check(f"without the floor: average log-likelihood at the collapse (iteration "
              f"{len(ll_free) - 1})", ll_free[-1])
    lec.claim("without the floor the average log-likelihood rises at every step up to the "
              "collapse, above the floored run's at the same iteration",
              np.all(np.diff(ll_free) > 0) and ll_free[-1] > ll_floor[len(ll_free) - 1],
              source=OBSERVED)
lec.check("with the floor: average log-likelihood at the same iteration",
          ll_floor[len(ll_free) - 1])
lec.claim("with the floor every variance stays >= psi", min(low_floor[1:]) >= PSI * (1 - 1e-12))
lec.check("without the floor: the EM step that collapses a component (DegenerateComponentError)",
          len(ll_free) if err is not None else 0, fmt="{:.0f}")
if err is not None:  # the variance em_step refused, computed by the plain M-step
    collapsed = float(m_step_variances(xs, last_free).min())
    rounding = float(np.finfo(float).eps * np.mean(xs ** 2))  # the resolution of S_c/N_c - mu^2
    lec.check("without the floor: smallest variance at the start and before the collapse, the "
              "one the collapsing M-step gives (eq. 200, plain), and the rounding level "
              "eps mean(x^2)", [low_free[0], low_free[-1], collapsed, rounding], fmt="{:.2g}")
    lec.claim("the collapsing variance is 0 to rounding (at most eps mean(x^2))",
              collapsed <= rounding)
    # drawn on the log scale down to the rounding level (a variance of exactly 0 has no log)
    low_free = low_free + [max(collapsed, rounding)]
floored, h_floored = train_gmm_em(xs, start, "full", psi=PSI)  # run to the course's criterion
lec.check("with the floor, EM to convergence (gain < 1e-6): iterations", len(h_floored) - 1,
          fmt="{:.0f}")
lec.claim("with the floor EM converges (the last gain of the average log-likelihood < 1e-6)",
          0 <= h_floored[-1] - h_floored[-2] < 1e-6)
lec.value("floored_em_steps_drawn", len(ll_floor) - 1)
fig, axes = figure_grid(1, 2, width=5.5, height=4.2,
                        title="A component collapsing onto a sample (20 points, 8 components)")
plot_em_runs({"no floor": ll_free, f"floor psi = {PSI:g}": ll_floor},
             notes={"no floor": "collapse: DegenerateComponentError"}, ax=axes[0, 0],
             title="average log-likelihood runs off without the floor")
plot_em_runs({"no floor": low_free, f"floor psi = {PSI:g}": low_floor}, logy=True,
             notes={"no floor": f"collapse: 0 to rounding (<= {low_free[-1]:.1e})"},
             ylabel="smallest component variance (log scale)", ax=axes[0, 1],
             title="the collapsing variance, held at psi by the floor")
fig.tight_layout()
lec.figure(fig, "collapse_and_floor.png")

# %% iris: the course lab's GMM classifiers
lec.section("Iris, split_db_2to1(seed=0): GMM classifiers, LBG psi = 0.01, alpha = 0.1")
(DTR, LTR), (DVAL, LVAL) = split_db_2to1(D, L, seed=0)
lec.value("iris_training_flowers_per_class", [int(np.sum(LTR == k)) for k in range(3)])
rows, iris_err, iris_ll = [], {}, {}
for cov_type in COV_TYPES:
    lec.progress(f"iris, {cov_type} covariances")
    for M, clf in lbg_gmm_classifiers(DTR, LTR, 16, cov_type, psi=PSI, alpha=ALPHA).items():
        iris_err[cov_type, M] = error_pct(clf, DVAL, LVAL)
        lls = [logpdf_GMM(DTR[:, LTR == k], g).mean() for k, g in enumerate(clf.gmms)]
        iris_ll[cov_type, M] = lls
        rows.append([cov_type, M, round(iris_err[cov_type, M], 1)] + [round(v, 4) for v in lls])
lec.table("iris_gmm", "Iris validation error % and mean training log-likelihood per class model",
          ["covariance", "components", "error %", "ll setosa", "ll versicolor", "ll virginica"],
          rows)
Ms = sorted({M for _, M in iris_err})
lec.claim("every class model's mean training log-likelihood never decreases with a split (each "
          "covariance type)", all(iris_ll[c, M2][k] >= iris_ll[c, M1][k] - 1e-9 for c in COV_TYPES
                                  for M1, M2 in zip(Ms, Ms[1:]) for k in range(3)),
          source=OBSERVED)
lec.claim("the validation error does not fall with every split: for each covariance type some "
          "split leaves it unchanged or raises it, and 16 full components err as much as 1 ("
          f"{iris_err['full', 16]:.1f}% against {iris_err['full', 1]:.1f}%)",
          all(any(iris_err[c, M2] >= iris_err[c, M1] for M1, M2 in zip(Ms, Ms[1:]))
              for c in COV_TYPES) and iris_err["full", 16] >= iris_err["full", 1],
          source=OBSERVED)
lec.claim("tied: 2 components have the same validation error and training log-likelihoods (to 4 "
          "decimals) as 1", iris_err["tied", 2] == iris_err["tied", 1]
          and np.allclose(iris_ll["tied", 2], iris_ll["tied", 1], atol=5e-5, rtol=0),
          source=OBSERVED)
print("The course lab publishes this table, but its numbers are not available to this project: "
      "the table is printed, not checked, except its one-component rows, which are the "
      "chapter-5 classifiers of lab 5.")
# one component is the Gaussian classifier of chapter 5 (tied within a class: the MVG)
for cov_type, name in (("full", "MVG"), ("diagonal", "naive Bayes"), ("tied", "MVG")):
    lec.check(f"1 {cov_type} component = {name}: error %", iris_err[cov_type, 1], fmt="{:.1f}",
              ref=f"iris_gmm/{cov_type}/1")
# tied: the first split barely moves, and the course's criterion (gain < 1e-6) stops EM early
gains = []
for k in range(3):
    _, h = train_gmm_lbg(DTR[:, LTR == k], 2, "tied", psi=PSI, alpha=ALPHA, return_history=True)
    gains.append(h[1][1] - h[1][0])
lec.check("tied, 2 components: gain of the first EM iteration after the split, per class",
          gains, fmt="{:.2e}")
Xv = DTR[:, LTR == 1]
one = train_gmm_lbg(Xv, 1, "tied", psi=PSI)[0]
two_default, h_default = train_gmm_em(Xv, split_gmm(one, ALPHA), "tied", psi=PSI)
two_long, h_long = train_gmm_em(Xv, split_gmm(one, ALPHA), "tied", psi=PSI, tol=1e-12)
lec.check("versicolor, tied: average log-likelihood of 1 component, of 2 (tol 1e-6), of 2 "
          "(tol 1e-12)", [logpdf_GMM(Xv, one).mean(), h_default[-1], h_long[-1]], fmt="{:.4f}")
lec.check("versicolor, tied, 2 components: EM iterations with tol 1e-6 and with tol 1e-12",
          [len(h_default) - 1, len(h_long) - 1], fmt="{:.0f}")
lec.claim("run longer, 2 tied components explain versicolor better than 1 (the early stop is "
          "the criterion's, not the model's)", h_long[-1] > logpdf_GMM(Xv, one).mean() + 1e-3)

# %% MNIST: PCA 50, one GMM per digit
DTR, LTR, DTE, LTE = lec.load_mnist(3000, 1000)
lec.section(f"MNIST ({lec.mnist_sizes}), PCA 50, one GMM per digit: test error %")
lec.progress("PCA 50 on the training images")
pca = fit_pca(DTR, 50)
ZTR, ZTE = pca.transform(DTR), pca.transform(DTE)
top = 4 if lec.quick else 16
mnist = {}
for cov_type in COV_TYPES:
    lec.progress(f"MNIST, {cov_type} covariances, LBG up to {top} components per digit")
    per_digit = []
    for k in range(10):
        per_digit.append(train_gmm_lbg(ZTR[:, LTR == k], top, cov_type, psi=PSI, alpha=ALPHA))
        lec.progress(f"  digit {k} done")
    path = [GMMClassifier(gmms=tuple(m[i] for m in per_digit)) for i in range(len(per_digit[0]))]
    mnist[cov_type] = [error_pct(clf, ZTE, LTE) for clf in path]
    lec.progress(f"MNIST, {cov_type}: {np.round(mnist[cov_type], 2)}")
sizes = [2**i for i in range(len(mnist["full"]))]
lec.table("mnist_gmm", f"MNIST test error % ({lec.mnist_sizes}, PCA 50)",
          ["covariance"] + [f"{M} comp." for M in sizes],
          [[c] + [round(v, 2) for v in mnist[c]] for c in COV_TYPES])
for cov_type in ("full", "diagonal"):  # the slides' rows; 16 full components are printed only
    for i, M in enumerate(sizes):
        key = f"mnist_gmm/{cov_type}/{M}"
        if key in lec.references:
            lec.check(f"{cov_type} {M} components", mnist[cov_type][i], fmt="{:.2f}", ref=key)
upto8 = mnist["full"][:4]  # 1, 2, 4, 8 components
if not lec.quick:  # the quick subsample (3,000 images, 4 components at most) does not show it
    lec.claim("full mode: full covariances improve with every split up to 8 components ("
              + " > ".join(f"{v:.2f}" for v in upto8) + ")", all(np.diff(upto8) < 0),
              source=OBSERVED)
    far = [f"{c} {M}" for c in ("full", "diagonal") for i, M in enumerate(sizes)
           if f"mnist_gmm/{c}/{M}" in lec.references
           and abs(mnist[c][i] - lec.references[f"mnist_gmm/{c}/{M}"]["value"]) > 0.3 + 1e-9]
    lec.claim(f"full mode: the only slide value further than 0.3 points from the run is 8 full "
              f"components (further: {', '.join(far) or 'none'})", far == ["full 8"],
              source=OBSERVED)
if len(mnist["full"]) == 5:
    lec.claim(f"then saturate: 16 full components within 0.2 points of 8 "
              f"({mnist['full'][4]:.2f} against {mnist['full'][3]:.2f})",
              abs(mnist["full"][4] - mnist["full"][3]) < 0.2, source=OBSERVED)
gain = {c: mnist[c][0] - mnist[c][-1] for c in COV_TYPES}
lec.claim(f"diagonal GMMs gain the most from 1 to {sizes[-1]} components (points: "
          + ", ".join(f"{c} {g:.2f}" for c, g in gain.items()) + ")",
          gain["diagonal"] == max(gain.values()), source=OBSERVED)
lec.claim(f"tied GMMs barely move: their error spans less than 0.5 points over 1 to {sizes[-1]} "
          f"components ({np.ptp(mnist['tied']):.2f})", np.ptp(mnist["tied"]) < 0.5, source=OBSERVED)
lec.claim("tied: 2 components give the same test error as 1 (the criterion's early stop after "
          f"the split, as on iris: {mnist['tied'][1]:.2f}% and {mnist['tied'][0]:.2f}%)",
          mnist["tied"][1] == mnist["tied"][0], source=OBSERVED)
mvg_err = error_pct(train_mvg(ZTR, LTR), ZTE, LTE)
lec.check("MVG (lecture 05) error %", mvg_err, fmt="{:.2f}")
# with the same eigenvalue floor, one component is exactly the chapter-5 Gaussian classifier
lec.claim("1 full component = MVG floored at psi (same test error)",
          mnist["full"][0] == error_pct(train_mvg(ZTR, LTR, psi=PSI), ZTE, LTE))
lec.claim("1 tied component = MVG floored at psi (same test error)",
          mnist["tied"][0] == error_pct(train_mvg(ZTR, LTR, psi=PSI), ZTE, LTE))
lec.claim("1 diagonal component = naive Bayes floored at psi (same test error)",
          mnist["diagonal"][0] == error_pct(train_naive_bayes(ZTR, LTR, psi=PSI), ZTE, LTE))
print("For comparison: lecture 06's multiclass LR on the quadratic expansion of centred PCA 50 "
      "(its README gives its error on the full MNIST).")

# %% the GMM llr of a binary task (eq. 203, as the log-ratio) beside the MVG's
lec.section(f"MNIST ({lec.mnist_sizes}), PCA 50, 4 (1) vs 9 (0): the GMM llr, eq. 203 with its log")
XTR, YTR = binary_task(ZTR, LTR, 4, 9)
XTE, YTE = binary_task(ZTE, LTE, 4, 9)
# the number of components and the covariance chosen by K-fold minDCF on the training images,
# never by the test error; then the chosen model is evaluated once on the test images
n_sel = min(XTR.shape[1], 600 if lec.quick else 2000)
sel = np.sort(np.random.default_rng(3).permutation(XTR.shape[1])[:n_sel])
lec.value("4v9_training_images_and_share_used_by_the_selection",
          [XTR.shape[1], n_sel / XTR.shape[1]])
lec.progress(f"4 v 9: components by 5-fold minDCF on {n_sel} training images")
search = kfold_grid_search(
    lambda X, Y, cov_type, M: train_gmm_classifier(X, Y, M, cov_type, psi=PSI, alpha=ALPHA),
    {"cov_type": ("full", "diagonal"), "M": (1, 2, 4, 8)}, XTR[:, sel], YTR[sel], 5, prior=0.5,
    method="llr")
lec.table("gmm_components_kfold", f"4 vs 9: 5-fold minDCF and actDCF (pi = 0.5) of GMM "
          f"classifiers on {n_sel} training images", ["covariance", "components", "minDCF",
                                                      "actDCF"], search.rows())
best = search.best
chosen = train_gmm_classifier(XTR, YTR, best["M"], best["cov_type"], psi=PSI, alpha=ALPHA)
lec.check(f"chosen by 5-fold minDCF: {best['M']} {best['cov_type']} components; test minDCF and "
          "actDCF (pi = 0.5), evaluated once", [min_dcf(chosen.llr(XTE), YTE, 0.5),
                                                act_dcf(chosen.llr(XTE), YTE, 0.5)],
          fmt="{:.4f}")
systems = {"MVG": train_mvg(XTR, YTR).llr,
           **{f"GMM, {M} full components": train_gmm_classifier(XTR, YTR, M, "full", psi=PSI,
                                                                 alpha=ALPHA).llr
              for M in (2, 4)}}
rows = []
for name, llr_of in systems.items():
    s_te = llr_of(XTE)
    rows.append([name] + [round(f(s_te, YTE, p), 4) for p in (0.5, 0.1) for f in (min_dcf,
                                                                                  act_dcf)])
gmm_llr = systems["GMM, 2 full components"](XTE)
lec.check("the GMM llr as a log-ratio (eq. 203 with its log), 2 full components: share of the "
          "test images above the threshold 0 (pi = 0.5)", np.mean(gmm_llr > 0), fmt="{:.3f}")
# an identity, not a finding: exp(.) > 0, so the printed ratio accepts every image at t = 0,
# whose normalised DCF is then (1 - pi) / min(pi, 1 - pi) = 1
lec.check("the printed ratio without the log, thresholded at 0: actDCF (pi = 0.5), 1 by the "
          "identity exp(.) > 0 (every image accepted)",
          act_dcf(np.exp(np.minimum(gmm_llr, 700)), YTE, 0.5), 1.0, tol=1e-12,
          source=CLOSED_FORM)
lec.table("mnist_4v9_llr", "Digit 4 (1) vs 9 (0), test set: minDCF / actDCF of the llrs "
          "log f(x|4) - log f(x|9)", ["model", "minDCF 0.5", "actDCF 0.5", "minDCF 0.1",
                                     "actDCF 0.1"], rows)
if not lec.quick:  # the quick selection (593 images) chooses another model
    s_chosen = chosen.llr(XTE)
    lec.claim("full mode: the chosen model's test minDCF and actDCF (pi = 0.5) are the MVG's, to "
              "4 decimals", [round(min_dcf(s_chosen, YTE, 0.5), 4),
                             round(act_dcf(s_chosen, YTE, 0.5), 4)] == rows[0][1:3],
              source=OBSERVED)
    lec.claim("full mode: on the test set, 4 full components have the lowest minDCF at pi = 0.1 "
              "of the three (" + ", ".join(f"{r[0]} {r[3]:.4f}" for r in rows) + ")",
              rows[2][3] < min(rows[0][3], rows[1][3]), source=OBSERVED)


# %% open set: digits 0-4 known, "none of the others" from an unlabelled pool
lec.section(f"Open set on MNIST ({lec.mnist_sizes}, PCA 50): digits 0-4 known, 5-9 never labelled")
half = np.random.default_rng(2).permutation(ZTR.shape[1]) < ZTR.shape[1] // 2
known = half & (LTR < 5)
pool = ZTR[:, ~half]  # unlabelled: every digit, 0-4 included
lec.value("open_set_labelled_known_and_pool_images", [int(known.sum()), pool.shape[1]])
n_known, n_other = (1, 4) if lec.quick else (4, 16)
lec.progress(f"open set: {n_known}-component GMM per known digit, {n_other}-component pool GMM")
osc = train_open_set_classifier(ZTR[:, known], LTR[known], pool, n_components=n_known,
                                n_other=n_other, cov_type="full", psi=PSI, alpha=ALPHA)
truth5 = np.minimum(LTE, 5)  # class 5 = "none of the others"
unknown = LTE >= 5
S = osc.scores(ZTE)
closed = map_decisions(S[:5], uniform_priors(5))
open_priors = np.r_[np.full(5, 0.1), 0.5]  # half of the test digits are unknown
opened = map_decisions(S, open_priors)
rows = [["closed set (5 hypotheses)", 100 * error_rate(closed[~unknown], LTE[~unknown]), 100.0,
         100 * error_rate(closed, truth5)],
        ["open set (6 hypotheses)", 100 * error_rate(opened[~unknown], LTE[~unknown]),
         100 * error_rate(opened[unknown], truth5[unknown]), 100 * error_rate(opened, truth5)]]
lec.table("open_set", "Open-set MNIST, error %: priors 0.1 per known digit, 0.5 'none of the "
          "others'", ["decisions", "digits 0-4", "digits 5-9", "all"],
          [[r[0]] + [round(v, 2) for v in r[1:]] for r in rows])
lec.value("share_of_unknown_test_digits", float(np.mean(unknown)))
lec.check("open set: share of the known test digits (0-4) decided 'none of the others'",
          np.mean(opened[~unknown] == 5), fmt="{:.4f}")
# unknown-digit detection: llr of "none of the others" against the mixture of the known classes
llr = S[5] - (np.logaddexp.reduce(S[:5], axis=0) + np.log(1 / 5))
# calibration (7.3), measured: a linear calibration learned by 5-fold on the test llrs
# themselves (each image calibrated by the folds that do not contain it), as the course's labs
# calibrate on a held-out set
drows = []
for prior in (0.1, 0.5, 0.9):
    cal = kfold_calibrate(llr, unknown.astype(int), prior=prior, k=5, seed=0)[0]
    drows.append([prior, round(min_dcf(llr, unknown.astype(int), prior), 4),
                  round(act_dcf(llr, unknown.astype(int), prior), 4),
                  round(act_dcf(cal, unknown.astype(int), prior), 4)])
lec.table("open_set_dcf", "Detecting an unknown digit from llr = log f(x|other) - log f(x|known):"
          " minDCF, actDCF, and actDCF after 5-fold linear calibration",
          ["prior of 'unknown'", "minDCF", "actDCF", "calibrated actDCF"], drows)
for r in drows:
    lec.check(f"open set, prior {r[0]:g}: actDCF - minDCF before and after calibration",
              [r[2] - r[1], r[3] - r[1]], fmt="{:.4f}")
lec.check("open set: actDCF / minDCF of the raw llr at prior 0.1, 0.5, 0.9",
          [r[2] / r[1] for r in drows], fmt="{:.2f}")
lec.claim(f"at prior 0.1 the raw llr's actDCF exceeds 1, the cost of deciding without the data "
          f"({drows[0][2]:.4g})", drows[0][2] > 1, source=OBSERVED)
lec.claim("calibration removes more than half of the gap actDCF - minDCF at every prior ("
          + "; ".join(f"{r[0]:g}: {r[2] - r[1]:.3f} -> {r[3] - r[1]:.3f}" for r in drows) + ")",
          all(r[3] - r[1] < 0.5 * (r[2] - r[1]) for r in drows), source=OBSERVED)

lec.finish()
