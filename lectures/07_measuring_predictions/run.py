"""Lecture 07: measuring predictions, calibration and fusion (notes ch. 7.1-7.4).

Bayes decisions for an application (priors and costs), confusion matrices, the normalised DCF,
minDCF and actDCF, ROC and DET curves, the EER and Bayes error plots, on iris and MNIST; Cllr and
minCllr beyond the notes. Binary tasks: class 1 is the target, llr = log f(x|1) - log f(x|0),
and llr > t decides class 1 (a score exactly at the threshold goes to class 0, eq. 128). Second
part: calibration and fusion (ch. 7.3-7.4), fusion against majority voting (7.4) and
multiclass calibration (end of 7.3) on MNIST digits 3, 5, 8. References: the notes' worked
example, the notes' voting example, and the MNIST EERs of the course slides (the notes describe
the MNIST results only in words).
"""

# %% set-up: imports, the lecture object, helpers
from functools import partial
from itertools import combinations

import numpy as np
from _lecture import CLOSED_FORM, INVARIANT, OBSERVED, Lecture

from mlpr.calibration import (
    kfold_calibrate,
    majority_vote,
    train_fusion,
    train_multiclass_calibration,
)
from mlpr.datasets import binary_task, load_iris_binary
from mlpr.dimred import fit_pca
from mlpr.evaluation import (
    act_dcf,
    bayes_decisions,
    bayes_error_curve,
    cllr,
    confusion_matrix,
    dcf,
    det_points,
    eer,
    effective_prior,
    empirical_bayes_risk,
    error_rate,
    expected_costs,
    kfold_scores,
    min_cllr,
    min_dcf,
    optimal_bayes_decisions,
    roc_points,
    uniform_cost_matrix,
)
from mlpr.generative import (
    llr,
    log_posteriors,
    map_decisions,
    train_mvg,
    train_naive_bayes,
    train_tied,
    uniform_priors,
)
from mlpr.logreg import train_logreg_binary
from mlpr.plots import (
    figure_grid,
    plot_bayes_error,
    plot_confusion_matrix,
    plot_curves,
    plot_det,
    plot_roc,
)
from mlpr.utils import split_db_2to1, vcol

lec = Lecture("07_measuring_predictions", __doc__)
# the functions a lab asks students to write: theirs in student mode (--student PATH)
(confusion_matrix, optimal_bayes_decisions, dcf, min_dcf, act_dcf, bayes_decisions,
 empirical_bayes_risk, log_posteriors, map_decisions, train_mvg, train_naive_bayes, train_tied,
 train_logreg_binary, fit_pca) = lec.use(
    confusion_matrix, optimal_bayes_decisions, dcf, min_dcf, act_dcf, bayes_decisions,
    empirical_bayes_risk, log_posteriors, map_decisions, train_mvg, train_naive_bayes,
    train_tied, train_logreg_binary, fit_pca)
MODELS = {"MVG": train_mvg, "tied": train_tied, "naive Bayes": train_naive_bayes}

# %% the notes' worked example: one sample, three classes
lec.section("Worked example: costs [[0,1,2],[1,0,1],[2,1,0]], posteriors (0.40, 0.25, 0.35)")
C3 = np.array([[0.0, 1, 2], [1, 0, 1], [2, 1, 0]])  # C3[a, c]: cost of deciding a when c is true
lp = np.log(vcol([0.40, 0.25, 0.35]))
lec.check("expected cost of deciding a = 0, 1, 2", expected_costs(lp, C3)[:, 0],
          [0.95, 0.75, 1.05], tol=1e-12, fmt="{:.2f}", source="the notes' worked example")
lec.check("Bayes decision: index 1 here = the notes' class 2 (they count from 1)",
          bayes_decisions(lp, C3)[0], 1, tol=0, fmt="{:.0f}", source="the notes' worked example")

# %% iris, versicolor (1) vs virginica (0): DCF for five applications
D, L = load_iris_binary()
(DTR, LTR), (DVAL, LVAL) = split_db_2to1(D, L, seed=0)
lec.section(f"Iris versicolor (1) vs virginica (0), split_db_2to1(seed=0): {DTR.shape[1]} "
            f"train, {DVAL.shape[1]} validation")
lec.value("iris_binary_split", [DTR.shape[1], DVAL.shape[1]])  # training, validation flowers
APPS = [(0.5, 1, 1), (0.9, 1, 1), (0.1, 1, 1), (0.5, 1, 9), (0.5, 9, 1)]  # (pi, Cfn, Cfp)
rows, res = [], {}
for name, train in MODELS.items():
    s = llr(train(DTR, LTR).scores(DVAL))
    for app in APPS:
        pred = optimal_bayes_decisions(s, *app)
        res[name, app] = [dcf(pred, LVAL, *app, normalize=False), dcf(pred, LVAL, *app),
                          min_dcf(s, LVAL, *app), act_dcf(s, LVAL, *app)]
        rows.append([name, str(app), effective_prior(*app),
                     str(confusion_matrix(pred, LVAL, 2).tolist())] + res[name, app])
lec.table("iris_dcf", "Bayes decisions llr > -log(pi Cfn / ((1 - pi) Cfp)); confusion matrix "
          "rows = predicted class (0, 1), columns = true class (0, 1)",
          ["model", "(pi, Cfn, Cfp)", "pi~", "confusion", "DCF_u", "DCF", "minDCF", "actDCF"],
          rows)
print("\nApplications with the same effective prior have the same normalised DCF (the "
      "un-normalised DCF_u differs by the factor pi Cfn + (1 - pi) Cfp = 5):")
for a, b in [((0.5, 1, 9), (0.1, 1, 1)), ((0.5, 9, 1), (0.9, 1, 1))]:
    for name in MODELS:
        lec.check(f"{name:11s} [DCF minDCF actDCF] of {a} = of {b} (pi~ = "
                  f"{effective_prior(*a):.1f})", res[name, a][1:], res[name, b][1:], tol=1e-12,
                  source=INVARIANT)
lec.check("the DCF of the Bayes decisions is the actDCF (all models, all applications)",
          max(abs(r[1] - r[3]) for r in res.values()), 0, tol=1e-12, fmt="{:.3g}",
          source=CLOSED_FORM)

# %% MNIST: 45 digit pairs after one PCA
DTR, LTR, DTE, LTE = lec.load_mnist()
lec.progress(f"PCA on all {DTR.shape[1]} training images")
pca = fit_pca(DTR, 100)
ZTR, ZTE = pca.transform(DTR), pca.transform(DTE)  # rows 0..m-1 are the PCA-m projection

SYSTEMS = {"MVG, PCA 50": (train_mvg, 50), "tied, PCA 50": (train_tied, 50),
           "tied, PCA 100": (train_tied, 100), "naive Bayes, PCA 50": (train_naive_bayes, 50)}
PAIRS = list(combinations(range(10), 2))  # (a, b) with a < b: digit a = 1 (target), b = 0
eers = {k: np.zeros((len(PAIRS), 2)) for k in SYSTEMS}  # per pair: [ROCCH, Pfn = Pfp threshold]
hard = {}  # the 4 vs 9 llrs of the PCA-50 models
for i, (a, b) in enumerate(PAIRS):
    if i % 9 == 0:
        lec.progress(f"pairs {i + 1}-{i + 9} of 45: {'; '.join(SYSTEMS)}")
    XTR, YTR = binary_task(ZTR, LTR, a, b)
    XTE, YTE = binary_task(ZTE, LTE, a, b)
    for k, (train, m) in SYSTEMS.items():
        s = llr(train(XTR[:m], YTR).scores(XTE[:m]))
        eers[k][i] = 100 * eer(s, YTE, method="rocch"), 100 * eer(s, YTE, method="threshold")
        if (a, b) == (4, 9) and m == 50:
            hard[k.split(",")[0]], L49 = s, YTE

lec.section(f"MNIST ({lec.mnist_sizes}), 45 digit pairs (digit a = 1 vs digit b = 0, a < b), "
            "average test EER %")
print("EER at the threshold where |Pfn - Pfp| is smallest (mean of the two; the notes' "
      "definition, mlpr's default, method='threshold'; the slides' numbers) and where the ROC "
      "convex hull crosses Pfn = Pfp (method='rocch', as BOSARIS)")
for k, e in eers.items():
    key = f"mnist_pairs_eer/{k}"
    lec.check(f"{k:20s} mean EER % (threshold)", e[:, 1].mean(), fmt="{:.2f}",
              ref=key if key in lec.references else None)
rows = [[k, e[:, 1].mean(), e[:, 0].mean(), e[:, 1].mean() - e[:, 0].mean(),
         "{}v{}: {:.2f}".format(*PAIRS[e[:, 0].argmax()], e[:, 0].max()),
         int(np.sum(e[:, 0] == 0))] for k, e in eers.items()]
lec.table("mnist_pairs_eer", "Average pairwise EER % (45 pairs)",
          ["system", "EER threshold", "EER ROCCH", "difference", "worst pair (ROCCH)",
           "pairs with EER 0"], rows)
order = np.argsort(eers["MVG, PCA 50"][:, 1], kind="stable")
fig = plot_curves([f"{PAIRS[i][0]}v{PAIRS[i][1]}" for i in order],
                  {k: e[order, 1] for k, e in eers.items()}, xlabel="digit pair a v b",
                  ylabel="test EER (%, at Pfn = Pfp)", marker=".",
                  title=f"MNIST ({lec.mnist_sizes}) digit pairs: EER of Gaussian classifiers "
                        "after PCA")
fig.set_size_inches(10, 4.2)
fig.axes[0].tick_params(axis="x", labelrotation=90, labelsize=7)
lec.figure(fig, "mnist_pairwise_eer.png")
for k, e in eers.items():  # every pair's EERs, as the README quotes some of them
    lec.value(f"pairs_eer_rocch/{k}", e[:, 0])
    lec.value(f"pairs_eer_threshold/{k}", e[:, 1])
lec.value("pairs", PAIRS)
lec.value("pair_test_images", [int(np.sum(np.isin(LTE, p))) for p in PAIRS])
lec.value("gaussian_models", len(PAIRS) * len(SYSTEMS))
for k in SYSTEMS:  # how far each mean ROCCH EER is from its reference, beyond the tolerance
    key = f"mnist_pairs_eer/{k}"
    if key in lec.references:
        r = lec.references[key]
        lec.value(f"rocch_beyond_tolerance/{k}", abs(eers[k][:, 0].mean() - r["value"]) - r["tol"])
mean = {k: e[:, 1].mean() for k, e in eers.items()}


def hardest(k, n):
    """The n pairs of system k with the largest ROCCH EER, as "avb" names."""
    return {"{}v{}".format(*PAIRS[i]) for i in np.argsort(-eers[k][:, 0], kind="stable")[:n]}


if not lec.quick:  # what the README reads in the full run's pairs (quick mode has 1,000 images)
    lec.claim("full mode: MVG at least halves the mean EER of the linear tied model (PCA 50)",
              mean["MVG, PCA 50"] <= mean["tied, PCA 50"] / 2, source=OBSERVED)
    lec.claim("full mode: 100 PCA directions help the tied model a little (lower mean EER, by "
              "less than 0.2)", 0 < mean["tied, PCA 50"] - mean["tied, PCA 100"] < 0.2,
              source=OBSERVED)
    lec.claim("full mode: the five hardest pairs (ROCCH EER) of tied/PCA 50 are 4v9, 3v5, 3v8, "
              "5v8 and 7v9, and the four hardest of naive Bayes are among them",
              hardest("tied, PCA 50", 5) == {"4v9", "3v5", "3v8", "5v8", "7v9"}
              and hardest("naive Bayes, PCA 50", 4) <= hardest("tied, PCA 50", 5),
              source=OBSERVED)
    lec.claim("full mode: MVG's four hardest pairs are 8v9, 3v8, 3v9 and 7v9, and it separates "
              "4 from 9 far better than tied (less than a quarter of its EER)",
              hardest("MVG, PCA 50", 4) == {"8v9", "3v8", "3v9", "7v9"}
              and eers["MVG, PCA 50"][PAIRS.index((4, 9)), 0]
              < eers["tied, PCA 50"][PAIRS.index((4, 9)), 0] / 4, source=OBSERVED)
    lec.claim("full mode: MVG separates one pair, 4 v 5, without a single test error",
              [PAIRS[i] for i in np.flatnonzero(eers["MVG, PCA 50"][:, 0] == 0)] == [(4, 5)],
              source=OBSERVED)

# %% one hard pair: 4 (1) vs 9 (0)
lec.section(f"MNIST ({lec.mnist_sizes}) 4 (1) vs 9 (0), PCA 50: ROC, DET and Bayes error plots")
title = f"MNIST 4 (target) vs 9, PCA 50, test scores\n({lec.mnist_sizes})"
lec.figure(plot_roc({f"{n} (EER {100 * eer(s, L49, method='threshold'):.2f}%)":
                     roc_points(s, L49)
                     for n, s in hard.items()}, title=f"ROC, {title}"), "mnist_4v9_roc.png")
lec.figure(plot_det({n: det_points(s, L49) for n, s in hard.items()}, title=f"DET, {title}"),
           "mnist_4v9_det.png")
x = np.linspace(-4, 4, 81)
curves = {n: bayes_error_curve(s, L49, x)[1:] for n, s in hard.items()}
lec.figure(plot_bayes_error(x, curves, title=f"Bayes error plot, {title}"),
           "mnist_4v9_bayes_error.png")
rows = []
for n, s in hard.items():
    act, mn = curves[n]
    rows.append([n] + [f(s, L49, p) for p in (0.1, 0.5, 0.9) for f in (min_dcf, act_dcf)]
                + [float(np.max(act - mn)), cllr(s, L49), min_cllr(s, L49)])
lec.table("mnist_4v9", "minDCF / actDCF (normalised, Cfn = Cfp = 1); calibration loss = actDCF - "
          "minDCF, largest over prior log-odds -4..4; Cllr / minCllr in bits",
          ["model", "min 0.1", "act 0.1", "min 0.5", "act 0.5", "min 0.9", "act 0.9",
           "max loss", "Cllr", "minCllr"], rows)
lec.check("EER of 9 (1) vs 4 (0), i.e. labels swapped and llr -> -llr, equals that of 4 vs 9",
          eer(-hard["MVG"], 1 - L49), eer(hard["MVG"], L49), tol=1e-12, source=INVARIANT)
lec.claim("actDCF >= minDCF at every prior, every model",
          all(np.all(a >= m) for a, m in curves.values()))
e49 = {n: 100 * eer(s, L49, method="rocch") for n, s in hard.items()}
lec.check("4 vs 9, ROCCH EER %: " + ", ".join(hard), list(e49.values()), fmt="{:.2f}")
lec.claim("the ranking of the models by minDCF is that of their EER, at pi = 0.1, 0.5 and 0.9",
          all(sorted(hard, key=lambda n: min_dcf(hard[n], L49, p)) == sorted(hard, key=e49.get)
              for p in (0.1, 0.5, 0.9)), source=OBSERVED)
if not lec.quick:  # quick mode: MVG separates 4 from 9 (minCllr 0)
    loss = {n: a - m for n, (a, m) in curves.items()}
    mid = int(np.argmin(np.abs(x)))
    lec.claim("full mode: the calibration loss is smaller at prior log-odds 0 than at -4 and at "
              "+4, every model", all(v[mid] < v[0] and v[mid] < v[-1] for v in loss.values()),
              source=OBSERVED)
    cl = {r[0]: (r[-2], r[-1]) for r in rows}  # model -> (Cllr, minCllr)
    lec.claim("full mode: MVG has the lowest minCllr yet the largest Cllr / minCllr (more than 4)",
              min(cl, key=lambda n: cl[n][1]) == "MVG"
              == max(cl, key=lambda n: cl[n][0] / cl[n][1]) and cl["MVG"][0] > 4 * cl["MVG"][1],
              source=OBSERVED)
# two slips of the notes, on these llrs (docs/errata.md): eq. 74 prints the threshold with the
# wrong sign, and the derivation of eq. 136 divides the misses by N_F instead of N_T
s49, pi = hard["tied"], 0.8
printed_t = np.log(pi / (1 - pi))  # eq. 74 as printed
lec.check("tied 4 vs 9, pi = 0.8: DCF of llr > -log(pi / (1 - pi)) (eq. 130) and of the printed "
          "eq. 74, llr > +log(pi / (1 - pi))",
          [dcf((s49 > -printed_t).astype(int), L49, pi), dcf((s49 > printed_t).astype(int), L49,
                                                             pi)], fmt="{:.4f}")
lec.claim("the printed threshold of eq. 74 costs more than the Bayes threshold",
          dcf((s49 > printed_t).astype(int), L49, pi) > act_dcf(s49, L49, pi))
d49 = optimal_bayes_decisions(s49, pi)
fn, fp = np.sum((d49 == 0) & (L49 == 1)), np.sum((d49 == 1) & (L49 == 0))
nT, nF = np.sum(L49 == 1), np.sum(L49 == 0)
lec.check("un-normalised DCF (eq. 136) = pi FN / N_T + (1 - pi) FP / N_F", dcf(d49, L49, pi,
          normalize=False), pi * fn / nT + (1 - pi) * fp / nF, tol=1e-15, fmt="{:.5f}",
          source=CLOSED_FORM)
lec.claim("the derivation's FN / N_F gives another number (the slip of eq. 136's derivation)",
          abs(pi * fn / nF + (1 - pi) * fp / nF - dcf(d49, L49, pi, normalize=False)) > 1e-6)

# %% MNIST, 10 classes: Bayes decisions for a non-uniform cost matrix
lec.section(f"MNIST ({lec.mnist_sizes}), 10 classes, MVG on PCA 50, uniform priors: Bayes vs "
            "MAP decisions")
COSTS = uniform_cost_matrix(10)  # COSTS[a, c]: cost of deciding a when the true digit is c
COSTS[4, 9] = COSTS[9, 4] = 5
for a, b in combinations((3, 5, 8), 2):
    COSTS[a, b] = COSTS[b, a] = 3
print("cost matrix (rows = decision, columns = true digit):")
print("\n".join("  " + " ".join(f"{v:.0f}" for v in row) for row in COSTS))
priors = uniform_priors(10)
S = train_mvg(ZTR[:50], LTR).scores(ZTE[:50])
LP = log_posteriors(S, priors)
pred = {"MAP": map_decisions(S, priors), "Bayes": bayes_decisions(LP, COSTS)}
lec.check("Bayes decisions with the 0-1 costs: decisions that differ from MAP",
          np.sum(bayes_decisions(LP, uniform_cost_matrix(10)) != pred["MAP"]), 0, tol=0,
          fmt="{:.0f}", source=CLOSED_FORM)
risk = {k: empirical_bayes_risk(p, LTE, priors, COSTS) for k, p in pred.items()}
rows = []
for k, p in pred.items():
    M = confusion_matrix(p, LTE, 10)
    rows.append([k, 100 * error_rate(p, LTE), risk[k],
                 empirical_bayes_risk(p, LTE, priors, COSTS, normalize=False),
                 M[4, 9] + M[9, 4], sum(M[a, b] + M[b, a] for a, b in combinations((3, 5, 8), 2))])
lec.table("mnist_bayes_risk", "Normalised empirical Bayes risk (1 = the best decision that "
          "ignores the image)", ["decisions", "error %", "risk (normalised)", "risk",
                                 "4<->9 errors", "3/5/8 errors"], rows)
lec.claim("Bayes decisions are not worse: risk_Bayes <= risk_MAP", risk["Bayes"] <= risk["MAP"],
          source="expected, notes 7.2")
wrong = pred["MAP"] != LTE
sure = np.exp(LP[:, wrong].max(axis=0)) > 0.99  # posterior of the (wrong) MAP class
lec.check(f"MAP errors made with a posterior above 0.99 for the wrong class, % of the "
          f"{int(wrong.sum())} errors", 100 * sure.mean(), fmt="{:.0f}")
fig, axes = figure_grid(1, 2, width=6.6, height=6.0,
                        title=f"MNIST ({lec.mnist_sizes}), MVG on PCA 50, non-uniform costs: "
                              "confusion matrices of the test set")
for ax, (k, p) in zip(axes[0], pred.items()):
    plot_confusion_matrix(confusion_matrix(p, LTE, 10), class_names=range(10), ax=ax,
                          title=f"{k} decisions: error {100 * error_rate(p, LTE):.2f}%, "
                                f"normalised risk {risk[k]:.4f}")
fig.tight_layout()
lec.figure(fig, "mnist_confusion_bayes_vs_map.png")

# %% calibration and fusion (ch. 7.3-7.4)
lec.section(f"Calibration and fusion (ch. 7.3-7.4): MNIST ({lec.mnist_sizes}) pairs, PCA 50")
print("Out-of-fold training scores (kfold_scores, k = 5) -> kfold_calibrate (k = 5, seed 0, "
      "target prior 0.5) for the training-set view, and the final calibrator (trained on all the "
      "out-of-fold scores) applied to the test scores of the model trained on the whole pair.")


CAL_SYSTEMS = {"MVG": train_mvg, "tied": train_tied,
               "LR": partial(train_logreg_binary, l=1e-3)}  # every one has llr(D)
FUSED = "MVG+LR"
VARIANTS = [(n, v) for n in CAL_SYSTEMS for v in ("raw", "linear", "isotonic")]
VARIANTS += [(FUSED, "linear")]
CAL_PAIRS = [(4, 9), (3, 5), (7, 9)] if lec.quick else PAIRS  # quick mode: 3 hard pairs
metrics = {v: np.zeros((len(CAL_PAIRS), 9)) for v in VARIANTS}
cal49 = {}  # 4 vs 9: (test llrs, final calibrator)
VOTE_PRIORS = (0.1, 0.5, 0.9)
FUSED3 = "MVG+tied+LR"
votes = {k: np.zeros((len(CAL_PAIRS), 3)) for k in ("vote", FUSED3, "best single")}
split = np.zeros((len(CAL_PAIRS), 3, 2), int)  # where vote and fusion disagree: which is right
for i, (a, b) in enumerate(CAL_PAIRS):
    if i % 9 == 0:
        lec.progress(f"calibration: pairs {i + 1}-{min(i + 9, len(CAL_PAIRS))} of "
                     f"{len(CAL_PAIRS)}, MVG / tied / LR, 5 folds")
    XTR, YTR = binary_task(ZTR[:50], LTR, a, b)
    XTE, YTE = binary_task(ZTE[:50], LTE, a, b)
    oof = {n: kfold_scores(t, XTR, YTR, 5, method="llr") for n, t in CAL_SYSTEMS.items()}
    test = {n: t(XTR, YTR).llr(XTE) for n, t in CAL_SYSTEMS.items()}
    oof[FUSED], test[FUSED] = np.vstack([oof["MVG"], oof["LR"]]), np.vstack([test["MVG"],
                                                                              test["LR"]])
    for n, v in VARIANTS:
        if v == "raw":
            s_tr, s_te, model = oof[n], test[n], None  # uncalibrated
        else:
            s_tr, model = kfold_calibrate(oof[n], YTR, 0.5, k=5, seed=0, method=v)
            s_te = model.scores(test[n])
        metrics[n, v][i] = [f(s_te, YTE, p) for p in (0.1, 0.5, 0.9) for f in (min_dcf, act_dcf)] \
            + [cllr(s_te, YTE), min_cllr(s_te, YTE), cllr(s_tr, YTR)]
        if (a, b) == (4, 9):
            cal49[n, v] = s_te, model
        if v == "linear":
            test[n, "linear"] = s_te
    # decision-level vs score-level combination of the three calibrated systems (section 7.4)
    fused3 = train_fusion([oof[n] for n in CAL_SYSTEMS], YTR, 0.5).scores(
        np.vstack([test[n] for n in CAL_SYSTEMS]))
    for j, p in enumerate(VOTE_PRIORS):
        voted = majority_vote([optimal_bayes_decisions(test[n, "linear"], p) for n in CAL_SYSTEMS])
        fused = optimal_bayes_decisions(fused3, p)
        votes["vote"][i, j] = dcf(voted, YTE, p)
        votes[FUSED3][i, j] = act_dcf(fused3, YTE, p)
        votes["best single"][i, j] = min(act_dcf(test[n, "linear"], YTE, p) for n in CAL_SYSTEMS)
        differ = voted != fused
        split[i, j] = np.sum(fused[differ] == YTE[differ]), np.sum(voted[differ] == YTE[differ])

i49 = CAL_PAIRS.index((4, 9))
lec.value("calibration_logistic_regressions", len(CAL_PAIRS) * (5 + 1))  # 5 folds + the final
header = ["system", "calibration", "min 0.1", "act 0.1", "min 0.5", "act 0.5", "min 0.9",
          "act 0.9", "Cllr", "minCllr", "Cllr train"]
lec.table("calibration_4v9", "MNIST 4 (1) vs 9 (0), PCA 50, test set: minDCF / actDCF at pi = "
          "0.1, 0.5, 0.9, Cllr / minCllr (bits); Cllr train = the K-fold calibrated out-of-fold "
          "training scores", header, [[n, v] + list(m[i49]) for (n, v), m in metrics.items()])
lec.table("calibration_4v9_models", "MNIST 4 vs 9: final linear calibrators f(s) = alpha's + "
          "gamma (target prior 0.5)", ["system", "alpha", "gamma"],
          [[n, " ".join(f"{x:.4f}" for x in cal49[n, "linear"][1].alpha),
            cal49[n, "linear"][1].gamma] for n in list(CAL_SYSTEMS) + [FUSED]])
lec.table("calibration_pairs", f"Average over {len(CAL_PAIRS)} digit pairs, PCA 50, test set",
          header, [[n, v] + list(m.mean(axis=0)) for (n, v), m in metrics.items()])
lec.check("linear calibration (alpha > 0) leaves the test minDCF unchanged: max |diff| over "
          "systems, pairs and priors",
          max(np.abs(metrics[n, "linear"][:, 0:6:2] - metrics[n, "raw"][:, 0:6:2]).max()
              for n in CAL_SYSTEMS), 0, tol=1e-12, fmt="{:.3g}", source=INVARIANT)
for n in CAL_SYSTEMS:
    lec.claim(f"{n:4s}: mean test actDCF at pi = 0.5 after linear calibration <= before",
              metrics[n, "linear"][:, 3].mean() <= metrics[n, "raw"][:, 3].mean(),
              source="expected, notes 7.3")
# what the README reads in these tables: columns 0-5 min/act at pi = 0.1, 0.5, 0.9, 6 Cllr,
# 7 minCllr, 8 Cllr train; avg = the mean over pairs, one = the pair 4 vs 9
if not lec.quick:
    avg = {k: m.mean(axis=0) for k, m in metrics.items()}
    one = {k: m[i49] for k, m in metrics.items()}
    gain = {n: avg[n, "raw"][6] - avg[n, "linear"][6] for n in CAL_SYSTEMS}
    lec.claim("full mode: linear calibration lowers MVG's mean Cllr and its mean actDCF at "
              "pi = 0.1 and 0.9; the tied model gains less Cllr, LR hardly moves (by less than "
              "0.005)", avg["MVG", "linear"][6] < avg["MVG", "raw"][6]
              and np.all(avg["MVG", "linear"][[1, 5]] < avg["MVG", "raw"][[1, 5]])
              and 0 < gain["tied"] < gain["MVG"] and abs(gain["LR"]) < 0.005, source=OBSERVED)
    alphas = {n: float(cal49[n, "linear"][1].alpha[0]) for n in CAL_SYSTEMS}
    lec.claim("full mode: on 4 vs 9 the calibrator shrinks MVG's llrs (alpha < 1) and stretches "
              "LR's a little (1 < alpha < 1.5)", alphas["MVG"] < 1 < alphas["LR"] < 1.5,
              source=OBSERVED)
    lec.claim("full mode: isotonic calibration gives MVG its lowest mean Cllr but raises its mean "
              "minDCF at pi = 0.1; for tied and LR its Cllr is not below the linear map's",
              avg["MVG", "isotonic"][6] < min(avg["MVG", "raw"][6], avg["MVG", "linear"][6])
              and avg["MVG", "isotonic"][0] > avg["MVG", "raw"][0]
              and all(avg[n, "isotonic"][6] >= avg[n, "linear"][6] for n in ("tied", "LR")),
              source=OBSERVED)
    lec.claim("full mode: the fusion MVG+LR is below every MVG and LR row of the average on "
              "every column", all(np.all(avg[FUSED, "linear"] < avg[n, v]) for n in ("MVG", "LR")
                                  for v in ("raw", "linear", "isotonic")), source=OBSERVED)
    lec.claim("full mode: on 4 vs 9 the fusion lowers minDCF at pi = 0.1 and 0.5 and the Cllr "
              "below both linearly calibrated systems, but not minDCF at pi = 0.9 (MVG's is lower)",
              all(one[FUSED, "linear"][c] < min(one["MVG", "linear"][c], one["LR", "linear"][c])
                  for c in (0, 2, 6)) and one[FUSED, "linear"][4] > one["MVG", "linear"][4],
              source=OBSERVED)
    lec.claim("full mode: on 4 vs 9 a calibrator trained for pi~ = 0.5 raises LR's actDCF at "
              "pi = 0.1 and MVG's at pi = 0.5", one["LR", "linear"][1] > one["LR", "raw"][1]
              and one["MVG", "linear"][3] > one["MVG", "raw"][3], source=OBSERVED)
    lec.claim("full mode: Cllr train tracks the test Cllr: within 0.01 for every linearly "
              "calibrated system", all(abs(avg[k][8] - avg[k][6]) < 0.01 for k in avg
                                       if k[1] == "linear"), source=OBSERVED)


# %% score-level combination versus voting (ch. 7.4)
lec.section("Score-level combination versus voting (ch. 7.4)")
print("The notes' example: three systems' llrs on two samples; decisions llr > 0 (pi = 0.5); "
      "fusion of calibrated llrs with alpha = 1, gamma = 0 is their sum")
NOTES = np.array([[-5.0, 0.1], [-4.0, 0.1], [3.0, -99.0]])  # row = system, column = sample
decided = np.vstack([optimal_bayes_decisions(s, 0.5) for s in NOTES])
voted, summed = majority_vote(decided), NOTES.sum(axis=0)
lec.table("notes_voting_example", "Row = sample; votes = systems deciding class 1 (target)",
          ["sample", "llrs", "votes for 1", "majority vote", "sum of llrs", "fused decision"],
          [[n + 1, str(NOTES[:, n].tolist()), int(decided[:, n].sum()), int(voted[n]),
            float(summed[n]), int(summed[n] > 0)] for n in range(2)])
lec.check("majority votes of the two samples", voted, [0, 1], tol=0, fmt="{:.0f}",
          source=CLOSED_FORM)
lec.check("sums of the llrs of the two samples", summed, [-6.0, -98.8], tol=1e-12,
          fmt="{:.1f}", source=CLOSED_FORM)
lec.claim("voting decides target for (0.1, 0.1, -99) but the fused score says non-target, and "
          "the fused score ranks it below (-5, -4, 3), voting above",
          voted[1] == 1 and summed[1] <= 0 and summed[1] < summed[0]
          and decided[:, 1].sum() > decided[:, 0].sum(), source="the notes' argument, 7.4")
print(f"\nMNIST ({lec.mnist_sizes}), {len(CAL_PAIRS)} digit pairs, PCA 50: the three linearly "
      "calibrated systems (MVG, tied, LR, test llrs from the calibration above) combined by "
      "majority vote of their Bayes decisions, or fused (train_fusion on their out-of-fold "
      "scores, target prior 0.5) and decided once")
rows = [[k] + list(m.mean(axis=0)) for k, m in votes.items()]
rows += [["test images where they differ: fusion right / vote right"]
         + [f"{split[:, j, 0].sum()} / {split[:, j, 1].sum()}" for j in range(3)]]
lec.table("voting_vs_fusion", f"Mean over {len(CAL_PAIRS)} pairs of the DCF of the decisions "
          "(fusion: actDCF; best single: the lowest actDCF of the three per pair)",
          ["combination", "pi = 0.1", "pi = 0.5", "pi = 0.9"], rows)
lec.claim("fusion beats voting: mean actDCF of the fused llrs < mean DCF of the votes, each prior",
          np.all(votes[FUSED3].mean(axis=0) < votes["vote"].mean(axis=0)),
          source="expected, notes 7.4")
lec.claim("where vote and fusion disagree, the fusion is right more often, each prior",
          np.all(split.sum(axis=0)[:, 0] > split.sum(axis=0)[:, 1]), source="expected, notes 7.4")
mv = {k: m.mean(axis=0) for k, m in votes.items()}
lec.claim("voting is worse than the best of its three systems at every prior",
          np.all(mv["vote"] > mv["best single"]), source=OBSERVED)
if not lec.quick:
    lec.claim("full mode: fusion beats the best single system (chosen in hindsight) at pi = 0.1 "
              "and 0.5, not at 0.9", bool(np.all((mv[FUSED3] < mv["best single"])
                                                 == [True, True, False])), source=OBSERVED)
    right = split.sum(axis=0)
    lec.check("where they disagree: fusion right / vote right, pi = 0.1, 0.5, 0.9",
              right[:, 0] / right[:, 1], fmt="{:.2f}")
    lec.claim("full mode: where they disagree the fusion is right five to seven and a half times "
              "as often", bool(np.all((5 <= right[:, 0] / right[:, 1])
                                      & (right[:, 0] / right[:, 1] <= 7.5))), source=OBSERVED)

# %% multiclass calibration (end of ch. 7.3)
DIGITS = np.array([3, 5, 8])
lec.section(f"Multiclass calibration (end of ch. 7.3): MNIST ({lec.mnist_sizes}) digits 3, 5, 8 "
            "(classes 0, 1, 2), PCA 50")
print("Out-of-fold class log-likelihoods (kfold_scores, k = 5, (3, N)) of the training images "
      "-> train_multiclass_calibration(S, L, kind, priors = uniform); the calibration applied "
      "to the test scores of the model trained on all the training images")
X3, Y3 = ZTR[:50, np.isin(LTR, DIGITS)], np.searchsorted(DIGITS, LTR[np.isin(LTR, DIGITS)])
lec.value("multiclass_training_images", X3.shape[1])
lec.value("multiclass_calibration_parameters", {"scalar": 1 + 3, "diagonal": 3 + 3,
                                                "full": 3 * 3 + 3})  # A and gamma
XT3, YT3 = ZTE[:50, np.isin(LTE, DIGITS)], np.searchsorted(DIGITS, LTE[np.isin(LTE, DIGITS)])
APPS3 = {"uniform, 0-1": (uniform_priors(3), uniform_cost_matrix(3)),
         "(0.8, 0.1, 0.1), 0-1": (np.array([0.8, 0.1, 0.1]), uniform_cost_matrix(3)),
         "uniform, 3 for 8 costs 10": (uniform_priors(3),
                                       np.array([[0.0, 1, 10], [1, 0, 1], [1, 1, 0]]))}
rows, risk3, maps = [], {}, {}
for name, train in {"MVG": train_mvg, "tied": train_tied}.items():
    lec.progress(f"multiclass calibration: {name}, 5 folds")
    S_cal, S_test = kfold_scores(train, X3, Y3, 5), train(X3, Y3).scores(XT3)
    for kind in ("raw", "scalar", "diagonal", "full"):
        if kind == "raw":
            S = S_test
        else:
            maps[name, kind] = train_multiclass_calibration(S_cal, Y3, kind=kind,
                                                            priors=uniform_priors(3))
            S = maps[name, kind].transform(S_test)
        risk3[name, kind] = [empirical_bayes_risk(bayes_decisions(log_posteriors(S, p), C), YT3,
                                                  p, C) for p, C in APPS3.values()]
        pred = map_decisions(S, uniform_priors(3))
        rows.append([name, kind, 100 * error_rate(pred, YT3)] + risk3[name, kind])
lec.table("multiclass_calibration", f"Test set ({XT3.shape[1]} images): error % of the MAP "
          "decisions (uniform priors) and normalised empirical Bayes risk of the Bayes decisions "
          "for three applications (priors of digits 3, 5, 8; costs)",
          ["model", "calibration", "error %"] + [f"risk {k}" for k in APPS3], rows)
lec.table("multiclass_calibration_maps", "The learned maps S_cal = A S + gamma (scalar: alpha; "
          "full: the diagonal of A; gamma sums to 0)", ["model", "kind", "A (diagonal)", "gamma"],
          [[n, k, " ".join(f"{x:.3f}" for x in np.diag(m.A)),
            " ".join(f"{x:.3f}" for x in m.gamma)] for (n, k), m in maps.items()])
lec.claim("MVG (over-confident): every calibration lowers the risk of the two non-uniform "
          "applications", all(risk3["MVG", k][j] < risk3["MVG", "raw"][j]
                              for k in ("scalar", "diagonal", "full") for j in (1, 2)),
          source="expected, notes 7.3")
uni = {k: risk3["MVG", k][0] for k in ("raw", "scalar", "diagonal", "full")}
if not lec.quick:
    lec.claim("full mode: MVG, uniform priors and 0-1 costs: the scalar and diagonal maps raise "
              "the risk slightly, the full map lowers it", uni["scalar"] > uni["raw"]
              < uni["diagonal"] and uni["full"] < uni["raw"], source=OBSERVED)
lec.claim("tied, priors (0.8, 0.1, 0.1): every calibration raises its risk",
          all(risk3["tied", k][1] > risk3["tied", "raw"][1] for k in ("scalar", "diagonal", "full")),
          source=OBSERVED)
lec.check("MVG's scalar alpha, and 1 / alpha (how over-confident its log-likelihoods are)",
          [maps["MVG", "scalar"].A[0, 0], 1 / maps["MVG", "scalar"].A[0, 0]], fmt="{:.2f}")
lec.value("pairs_cllr", {f"{n} {v}": m[:, 6].tolist() for (n, v), m in metrics.items()})

x = np.linspace(-4, 4, 81)
panels = {n: {v: bayes_error_curve(cal49[n, v][0], L49, x)[1:]
              for v in ("raw", "linear", "isotonic")} for n in CAL_SYSTEMS}
panels["fusion of MVG and LR"] = {f"{n}, linear": panels[n]["linear"] if n in panels else
                                  bayes_error_curve(cal49[n, "linear"][0], L49, x)[1:]
                                  for n in ("MVG", "LR", FUSED)}
top = 1.05 * max(np.max(c) for p in panels.values() for pair in p.values() for c in pair)
fig, axes = figure_grid(2, 2, width=6.6, height=4.4,
                        title=f"MNIST 4 (target) vs 9, PCA 50, test scores ({lec.mnist_sizes}):"
                              "\nBayes error plots before and after calibration (target prior "
                              "0.5)")
for ax, (name, curves) in zip(axes.ravel(), panels.items()):  # one DCF scale for the 4 panels
    plot_bayes_error(x, curves, title=name, ax=ax, ylim=(-0.02 * top, top))
fig.tight_layout()
lec.figure(fig, "mnist_4v9_calibration_bayes_error.png")
lec.finish()
