"""Lecture 04: density estimation by maximum likelihood.

Gaussian ML fits over histograms of the iris features (1-D per class and feature, 2-D with
contours), the log-likelihood falling as the ML parameters are perturbed, and ML estimates of
discrete models: a Bernoulli coin and a categorical die, the pitfall of zero counts and the
pseudo-counts that remove it; the Bayesian estimate of a coin's probability (this lecture's
addition: the notes' section 4.5.1 gives the ML estimate and leaves the Bayesian one out): 3 heads
in 3 tosses, pi_ML = 1 against the Beta posterior of a few priors.
"""

# %% set-up: imports, the lecture object, helpers
import numpy as np
from _lecture import CLOSED_FORM, INVARIANT, Lecture

from mlpr.datasets import IRIS_CLASSES, IRIS_FEATURES, load_iris
from mlpr.gaussian import (
    bernoulli_beta_posterior,
    compute_mu_C,
    loglikelihood,
    logpdf_beta,
    logpdf_GAU_ND,
    logpmf_bernoulli,
    logpmf_categorical,
    ml_bernoulli,
    ml_categorical,
)
from mlpr.plots import (
    figure_grid,
    plot_bars,
    plot_curves,
    plot_gaussian_contours_2d,
    plot_gaussian_fit_1d,
)

lec = Lecture("04_density_estimation", __doc__)
D, L = load_iris()

# %% 1-D ML fits: one Gaussian per class and feature
lec.section("1-D ML Gaussian per class and feature: mu, sigma^2 (1/N), log-likelihood")
rows = []
fig, axes = figure_grid(3, 4, title="Iris: ML Gaussian density over each class's histogram")
for k, cname in enumerate(IRIS_CLASSES):
    for i, fname in enumerate(IRIS_FEATURES):
        x = D[i : i + 1, L == k]
        mu, C = compute_mu_C(x)
        ll = loglikelihood(x, mu, C)
        rows.append([cname, fname, mu.item(), C.item(), ll])
        plot_gaussian_fit_1d(x, mu.item(), C.item(), xlabel=fname, label=cname,
                             title=f"{cname}", ax=axes[k, i], color=f"C{k}", bins=10)
lec.value("fits_1d", len(rows))
lec.table("fits_1d", f"Per-class, per-feature ML fits ({len(rows)})",
          ["class", "feature", "mu", "sigma^2", "log-likelihood"], rows)
fig.tight_layout()
lec.figure(fig, "iris_ml_gaussian_1d.png")

# %% 2-D ML fits: petal length and width, full covariance
P = D[2:4]
fits = [compute_mu_C(P[:, L == k]) for k in range(3)]
lec.figure(plot_gaussian_contours_2d(
    P, L, lambda X, k: logpdf_GAU_ND(X, *fits[k]), class_names=IRIS_CLASSES,
    xlabel=IRIS_FEATURES[2], ylabel=IRIS_FEATURES[3],
    title="Iris: 2-D ML Gaussian per class (petal features)"), "iris_ml_gaussian_2d.png")

# %% the ML estimate maximises the log-likelihood
lec.section("Log-likelihood of the 4-D versicolor data around the ML estimate")
X = D[:, L == 1]
mu, C = compute_mu_C(X)
ll_ml = loglikelihood(X, mu, C)
deltas = np.linspace(-0.5, 0.5, 21)  # cm, added to every component of mu
scales = 2.0 ** np.linspace(-1, 1, 21)  # multiplies C; includes s = 1
ll_mu = [loglikelihood(X, mu + d, C) for d in deltas]
ll_C = [loglikelihood(X, mu, s * C) for s in scales]
lec.check("log-likelihood at the ML estimate", ll_ml)
lec.check("max over mu shifts attained at shift 0", deltas[np.argmax(ll_mu)], 0.0, tol=0,
          fmt="{:.2f}", source=INVARIANT)
lec.check("max over C scalings attained at scale 1", scales[np.argmax(ll_C)], 1.0, tol=0,
          fmt="{:.3f}", source=INVARIANT)
fig, axes = figure_grid(1, 2, title="Versicolor: perturbing the ML estimate lowers the "
                        "log-likelihood", width=5)
plot_curves(deltas, {"ll(mu_ML + delta 1, C_ML)": ll_mu}, xlabel="delta (cm)",
            ylabel="log-likelihood", ax=axes[0, 0], hlines={"ML": ll_ml})
plot_curves(scales, {"ll(mu_ML, s C_ML)": ll_C}, xlabel="covariance scale s", logx=True,
            ylabel="log-likelihood", ax=axes[0, 1], hlines={"ML": ll_ml})
fig.tight_layout()
lec.figure(fig, "loglikelihood_perturbation.png")

# %% discrete models: a coin and a die, zero counts and pseudo-counts
lec.section("Bernoulli coin: ML from 5 flips, all heads")
flips = np.array([1, 1, 1, 1, 1])  # heads = 1
test_flips = np.array([1, 0, 1, 1, 0, 1])
for pseudo in (0.0, 1.0):
    p = ml_bernoulli(flips, pseudo=pseudo)
    ll = logpmf_bernoulli(test_flips, p).sum()
    lec.check(f"pseudo={pseudo:g}: p(heads), test log-likelihood", [p, ll], fmt="{:.4f}")
lec.check("ML p(heads) with pseudo-count 1 = (5 + 1) / (5 + 2)", ml_bernoulli(flips, pseudo=1.0),
          6 / 7, tol=1e-12, source=CLOSED_FORM)

rng = np.random.default_rng(0)
rolls = np.array([0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 2, 0])  # faces 1..6 coded 0..5
lec.section(f"Categorical die: ML from {len(rolls)} rolls, face 6 never seen")
test_rolls = rng.integers(0, 6, size=30)
lec.value("die_rolls", [len(rolls), len(test_rolls)])
pmfs = {}
for pseudo in (0.0, 0.5, 1.0):
    pi = ml_categorical(rolls, 6, pseudo=pseudo)
    pmfs[f"pseudo-count {pseudo:g}"] = pi
    ll = logpmf_categorical(test_rolls, pi).sum()
    lec.check(f"pseudo={pseudo:g}: p(face 6), test log-likelihood of 30 fair rolls",
              [pi[5], ll], fmt="{:.4f}")
lec.check("pseudo=0: p(face 6) = 0, the zero-count pitfall", pmfs["pseudo-count 0"][5], 0.0,
          tol=0, source=CLOSED_FORM)
lec.figure(plot_bars(range(1, 7), {**pmfs, "fair die": np.full(6, 1 / 6)}, xlabel="face",
                     ylabel="probability",
                     title="Die: ML categorical estimate from 12 rolls, with pseudo-counts"),
           "die_pseudocounts.png")

# %% Bayesian estimation of the coin: 3 tosses, 3 heads (the ML estimate is the notes' section
# 4.5.1; the Bayesian one is this lecture's addition: the notes leave it out of the course)
lec.section("Coin, 3 tosses, 3 heads: pi_ML = 1 against the Beta posterior Beta(a + 3, b)")
tosses = np.array([1, 1, 1])
lec.check("pi_ML", ml_bernoulli(tosses), 1.0, tol=0, source=CLOSED_FORM)
priors = {"Beta(1, 1), uniform": (1.0, 1.0), "Beta(0.5, 0.5)": (0.5, 0.5),
          "Beta(2, 2)": (2.0, 2.0), "Beta(5, 5)": (5.0, 5.0),
          "Beta(2, 8), tails favoured": (2.0, 8.0)}
grid = np.linspace(0.0, 1.0, 401)[1:-1]  # Beta(a, b) with a or b < 1 is unbounded at the ends
rows, curves = [], {}
for name, (a, b) in priors.items():
    post = bernoulli_beta_posterior(tosses, a, b)
    try:
        mode = post.mode()
    except ValueError:  # b + n0 = 0.5 < 1: the density grows without bound towards pi = 1
        mode = "none (unbounded at 1)"
    rows.append([name, f"Beta({post.a:g}, {post.b:g})", post.mean(), mode,
                 ml_bernoulli(tosses, pseudo=a) if a == b else "- (a != b)"])
    curves[f"posterior, prior {name}"] = np.exp(post.logpdf(grid))
lec.table("coin_beta", "Posterior of pi after 3 heads (mean = P(next toss is H | data))",
          ["prior", "posterior", "posterior mean", "MAP", "ml_bernoulli(pseudo=a)"], rows)
lec.check("uniform prior: P(H | 3 heads) = (3 + 1) / (3 + 2), Laplace's rule = pseudo=1",
          [rows[0][2], ml_bernoulli(tosses, pseudo=1.0)], [4 / 5, 4 / 5], tol=1e-15,
          source=CLOSED_FORM)
lec.claim("the MAP of the uniform prior is pi_ML = 1", rows[0][3] == 1.0, source=CLOSED_FORM)
fig, axes = figure_grid(1, 1, width=6.5, height=4.2)
plot_curves(grid, {"prior Beta(1, 1)": np.exp(logpdf_beta(grid, 1.0, 1.0)), **curves},
            xlabel="pi = P(heads)", ylabel="density", marker="", ax=axes[0, 0],
            title="Coin, 3 heads in 3 tosses: Beta posteriors of pi")
axes[0, 0].axvline(1.0, color="k", ls="--", lw=1, label="pi_ML = 1")
axes[0, 0].set_ylim(0, 6)
axes[0, 0].legend(loc="upper left", fontsize=8)
lec.figure(fig, "coin_beta_posterior.png")
lec.finish()
