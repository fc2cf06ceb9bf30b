r"""Lab 7 of the course: Bayes decisions, the DCF, minDCF, ROC and Bayes error plots.

One `CourseFunction` record per function of the lab (``FUNCTIONS``, at the end): its course name
and signature, the mlpr function that is its reference, its cases with their known mistakes and
hints, and the mlpr functions student mode computes with it. The kit's tasks, student mode's
adapters, ``--list`` and the concordance of ``docs/grading/course_functions.md`` are generated
from them (`mlpr.grading.course`).
"""

from __future__ import annotations

import math

import numpy as np
import scipy.special

from mlpr.evaluation import (
    act_dcf,
    bayes_decisions,
    bayes_error_curve,
    confusion_matrix,
    dcf,
    empirical_bayes_risk,
    min_dcf,
    optimal_bayes_decisions,
    roc_points,
)
from mlpr.generative import (
    log_posteriors,
)
from mlpr.grading.course import adapt, forms, shared
from mlpr.grading.course.records import Adapter, CourseFunction
from mlpr.grading.framework import (
    Case,
    Comparison,
    Fail,
    Mistake,
    as_array,
    closed_form,
    exact,
)
from mlpr.grading.mutants import Formula

__all__ = ["LAB", "FUNCTIONS"]

#: The lab's number in the course's 2024 edition
LAB = 7
#: its number in the years numbered otherwise (`mlpr.grading.course.lab_numbers`)
YEARS = {"2021/22": 8, "2024/25": 6}


_COSTS = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.0], [2.0, 1.0, 0.0]])  # the notes, eq. 125
#: An asymmetric cost matrix: costMatrix[i, j] and costMatrix[j, i] differ, so that a matrix
#: read as [true, decided] gives another risk
_ASYMMETRIC_COSTS = np.array([[0.0, 1.0, 4.0], [3.0, 0.0, 1.0], [2.0, 2.5, 0.0]])


def posteriors_formula(log_clas_conditional_ll, prior_array):
    logJoint = log_clas_conditional_ll + np.log(prior_array)[:, None]  # eq. 65: log-joint
    logMarginal = scipy.special.logsumexp(logJoint, axis=0)  # eq. 64: one value per sample
    return np.exp(logJoint - logMarginal)  # eq. 64: the posteriors


def bayes_formula(posterior, costMatrix):
    expected = costMatrix @ posterior     # eq. 123: the expected cost of each decision
    return np.argmin(expected, axis=0)    # eq. 124: the decision of least expected cost


def confusion_formula(predictedLabels, classLabels):
    nClasses = classLabels.max() + 1      # section 7.1: the classes of the true labels, 0..K-1
    M = np.zeros((nClasses, nClasses), dtype=int)
    np.add.at(M, (predictedLabels, classLabels), 1)  # section 7.1: M[predicted, true]
    return M


def bayes_binary_formula(llr, prior, Cfn, Cfp):
    th = -np.log(prior * Cfn / ((1 - prior) * Cfp))  # eq. 130: the Bayes threshold
    return (llr > th).astype(int)         # eq. 128: H_T when llr > t


def risk_binary_formula(predictedLabels, classLabels, prior, Cfn, Cfp, normalize=True):
    TN = np.sum((predictedLabels == 0) & (classLabels == 0))  # section 7.1: M[0, 0]
    FN = np.sum((predictedLabels == 0) & (classLabels == 1))  # section 7.1: M[0, 1]
    FP = np.sum((predictedLabels == 1) & (classLabels == 0))  # section 7.1: M[1, 0]
    TP = np.sum((predictedLabels == 1) & (classLabels == 1))  # section 7.1: M[1, 1]
    Pfn = FN / (FN + TP)                  # eq. 136: over the class-1 samples, a column of M
    Pfp = FP / (FP + TN)                  # eq. 136: over the class-0 samples, a column of M
    DCFu = prior * Cfn * Pfn + (1 - prior) * Cfp * Pfp  # eq. 136
    if normalize:
        return DCFu / min(prior * Cfn, (1 - prior) * Cfp)  # eq. 137: the best dummy system
    return DCFu


def risk_formula(predictedLabels, classLabels, prior_array, costMatrix, normalize=True):
    K = costMatrix.shape[0]
    M = np.zeros((K, K))
    np.add.at(M, (predictedLabels, classLabels), 1)  # section 7.1: M[predicted, true]
    R = M / M.sum(axis=0, keepdims=True)  # eq. 135: R[i, j] = P(decide i | class j)
    risk = np.sum(prior_array * np.sum(costMatrix * R, axis=0))  # eq. 135
    if normalize:
        return risk / np.min(costMatrix @ prior_array)  # eq. 137: the best dummy system
    return risk


def act_formula(llr, classLabels, prior, Cfn, Cfp, normalize=True):
    th = -np.log(prior * Cfn / ((1 - prior) * Cfp))  # eq. 130: the Bayes threshold
    dec = llr > th                        # eq. 128: H_T when llr > t
    Pfn = np.sum(~dec & (classLabels == 1)) / np.sum(classLabels == 1)  # eq. 136
    Pfp = np.sum(dec & (classLabels == 0)) / np.sum(classLabels == 0)  # eq. 136
    DCFu = prior * Cfn * Pfn + (1 - prior) * Cfp * Pfp  # eq. 136
    if normalize:
        return DCFu / min(prior * Cfn, (1 - prior) * Cfp)  # eq. 137: the best dummy system
    return DCFu


def bayes_plot_formula(S, L, left=-3, right=3, npts=21):
    effPriorLogOdds = np.linspace(left, right, npts)
    effPriors = 1.0 / (1.0 + np.exp(-effPriorLogOdds))  # section 7.3: pi = 1 / (1 + exp(-x))
    actDCF = [act_dcf(S, L, p) for p in effPriors]
    minDCF = [min_dcf(S, L, p) for p in effPriors]
    return effPriorLogOdds, actDCF, minDCF


def min_dcf_formula(llr, classLabels, prior, Cfn, Cfp, returnThreshold=False):
    th = np.concatenate([[-np.inf], np.sort(llr), [np.inf]])  # section 7.3: every threshold
    dec = llr[None, :] > th[:, None]      # eq. 128: H_T when llr > t
    Pfn = np.sum(~dec & (classLabels == 1), axis=1) / np.sum(classLabels == 1)  # eq. 136
    Pfp = np.sum(dec & (classLabels == 0), axis=1) / np.sum(classLabels == 0)  # eq. 136
    DCFu = prior * Cfn * Pfn + (1 - prior) * Cfp * Pfp  # eq. 136, at every threshold
    DCF = DCFu / min(prior * Cfn, (1 - prior) * Cfp)  # eq. 137: min(pi Cfn, (1 - pi) Cfp)
    return np.min(DCF)                    # section 7.3: the minimum over the thresholds


def rates_formula(llr, classLabels):
    order = np.argsort(llr, kind="stable")  # section 7.1: the scores in increasing order
    s = llr[order]
    lab = classLabels[order]              # section 7.1: the labels in the scores' order
    nT = np.sum(lab == 1)
    nF = np.sum(lab == 0)
    FN = np.concatenate([[0], np.cumsum(lab == 1)])  # section 7.1: the targets rejected
    FP = nF - np.concatenate([[0], np.cumsum(lab == 0)])  # section 7.1: the others accepted
    th = np.concatenate([[-np.inf], s])   # section 7.1: -inf, then every score
    keep = np.concatenate([th[1:] != th[:-1], [True]])  # eq. 130: the last of each run of ties
    return FN[keep] / nT, FP[keep] / nF, th[keep]


def _rates_match(got, value) -> Comparison:
    """Two answers of the ROC tasks with the same (Pfn, Pfp) points."""
    a = np.unique(np.round(np.column_stack(got[:2]), 12), axis=0)
    b = np.unique(np.round(np.column_stack(value[:2]), 12), axis=0)
    same = a.shape == b.shape and bool(np.allclose(a, b, atol=1e-12))
    return Comparison(same, 0.0 if same else math.inf, 0.0, "points that differ")


_DCF_GLOSSARY = {"TP": "M[1, 1], the class-1 samples decided 1",
                 "TN": "M[0, 0], the class-0 samples decided 0",
                 "FN": "M[0, 1], the class-1 samples decided 0",
                 "FP": "M[1, 0], the class-0 samples decided 1",
                 "Cfn": "the cost of a false negative", "Cfp": "the cost of a false positive",
                 "costMatrix": "costMatrix[i, j] = C(i|j), the cost of deciding i for class j",
                 "R": "R[i, j] = P(decide i | class j): M divided by its column sums, the class "
                      "counts N_j",
                 "effPriors": "the effective priors pi = 1 / (1 + exp(-x)) of the prior "
                              "log-odds x"}
POSTERIORS = Formula(posteriors_formula, glossary={"prior_array": "the priors P(c)"})
BAYES = Formula(bayes_formula, glossary=_DCF_GLOSSARY, replace={"costMatrix": ("costMatrix.T",)})
CONFUSION = Formula(confusion_formula, replace={"classLabels": ("predictedLabels",),
                                                "predictedLabels": ("classLabels",)})
BAYES_BINARY = Formula(bayes_binary_formula, glossary=_DCF_GLOSSARY)
RISK_BINARY = Formula(risk_binary_formula, glossary=_DCF_GLOSSARY,
                      replace={"TP": ("TN",), "TN": ("TP",), "FN": ("FP",), "FP": ("FN",)})
RISK = Formula(risk_formula, glossary=_DCF_GLOSSARY, replace={"costMatrix": ("costMatrix.T",)})
ACT = Formula(act_formula, glossary=_DCF_GLOSSARY)
BAYES_PLOT = Formula(bayes_plot_formula, glossary=_DCF_GLOSSARY)
RATES = Formula(rates_formula, glossary={
    "classLabels": "the labels, to be permuted with the scores: classLabels[order]",
    "keep": "the last entry of each run of equal scores (ties)"}, match=_rates_match)
MIN_DCF = Formula(min_dcf_formula, glossary=_DCF_GLOSSARY,
                  cases=lambda case: not case.kwargs.get("returnThreshold"))


def _post(run):
    _, S, _, _ = shared.class_scores(run)
    ref = np.exp(log_posteriors(S, shared.PRIORS))
    return [Case("MVG log-likelihoods, priors (0.2, 0.5, 0.3)", (S, shared.PRIORS), ref, mistakes=[
        Mistake("log", "compute_posteriors returns the posteriors themselves (exp of the "
                       "log-posteriors)", lambda: np.log(ref)),
        Mistake("prior", "the priors are missing from the posterior (eq. 64)",
                lambda: np.exp(log_posteriors(S, np.ones(3) / 3))),
    ])]


def _bayes(run):
    _, S, _, _ = shared.class_scores(run)
    logp = log_posteriors(S, shared.PRIORS)
    post = np.exp(logp)
    C = _ASYMMETRIC_COSTS
    ref = bayes_decisions(logp, C)
    return [Case("posteriors of the MVG, an asymmetric cost matrix", (post, C), ref,
                 compare=exact(), mistakes=[
        Mistake("argmax", "the Bayes decision minimises the expected cost (argmin, eq. 124)",
                lambda: np.argmax(C @ post, axis=0)),
        Mistake("transposed", "costMatrix[i, j] is the cost of deciding i when the class is j: "
                              "the expected costs are costMatrix @ posterior (eq. 123)",
                lambda: np.argmin(C.T @ post, axis=0)),
    ])]


def _uniform(run):
    return [Case("4 classes", (4,), np.ones((4, 4)) - np.eye(4), compare=exact())]


def _confusion(run):
    rng = run.rng(5)
    L = rng.integers(0, 3, 60)
    pred = np.where(rng.random(60) < 0.3, rng.integers(0, 3, 60), L)
    M = confusion_matrix(pred, L, 3)
    # a classifier that never decides the last class: the number of classes comes from the
    # true labels, not from the predictions
    never = np.minimum(pred, 1)
    return [Case("3 classes, 60 samples", (pred, L), M, compare=exact(), mistakes=[
        Mistake("transposed", "the course's confusion matrix has the predictions on the rows "
                              "and the true classes on the columns, M[pred, true] (section 7.1)",
                lambda: M.T)]),
            Case("3 classes, 60 samples, the last class never predicted", (never, L),
                 confusion_matrix(never, L, 3), compare=exact())]


def _threshold_mistakes(llr, prior, Cfn, Cfp):
    t = -np.log(prior * Cfn / ((1 - prior) * Cfp))
    return [
        Mistake(">=", "a score equal to the threshold goes to class 0: decide class 1 only when "
                "llr > t, strictly (eq. 128-130)",
                lambda: (llr >= t).astype(int)),
        Mistake("sign", "the threshold is t = -log(pi Cfn / ((1 - pi) Cfp)) (eq. 130): its sign "
                        "is wrong",
                lambda: (llr > -t).astype(int)),
        Mistake("log10", "the threshold uses log10: the llrs are natural logs, so is the "
                         "threshold (eq. 130)",
                lambda: (llr > t / np.log(10)).astype(int)),
        Mistake("costs", "Cfn and Cfp are swapped in the threshold (eq. 130: Cfn multiplies "
                         "pi_T)",
                lambda: (llr > -np.log(prior * Cfp / ((1 - prior) * Cfn))).astype(int)),
    ]


def _bayes_binary(run):
    llr, L, apps = shared.ties(run)
    return [Case(f"integer llrs that hit the threshold, (pi, Cfn, Cfp) = ({p:.3g}, {cn:.3g}, "
                 f"{cp:.3g})", (llr, p, cn, cp), optimal_bayes_decisions(llr, p, cn, cp),
                 compare=exact(), mistakes=_threshold_mistakes(llr, p, cn, cp))
            for p, cn, cp in apps]


def _pred_cases(run):
    llr, L, apps = shared.ties(run)
    return [(optimal_bayes_decisions(llr, p, cn, cp), L, p, cn, cp) for p, cn, cp in apps]


def _risk_binary(run):
    cases = []
    for pred, L, p, cn, cp in _pred_cases(run):
        for normalize in (True, False):
            ref = dcf(pred, L, p, cn, cp, normalize=normalize)
            u = dcf(pred, L, p, cn, cp, normalize=False)
            M = confusion_matrix(pred, L, 2)
            pfn, pfp = M[0, 1] / M[:, 1].sum(), M[1, 0] / M[:, 0].sum()
            cases.append(Case(
                f"(pi, Cfn, Cfp) = ({p:.3g}, {cn:.3g}, {cp:.3g}), normalize={normalize}",
                (pred, L, p, cn, cp), ref, kwargs={"normalize": normalize},
                context={"prior": p}, mistakes=[
                    Mistake("unnormalised", "normalize=True divides by the DCF of the best dummy "
                                            "system, min(pi Cfn, (1 - pi) Cfp) (eq. 137)",
                            lambda u=u: u),
                    Mistake("rates", "Pfn is the fraction of class-1 samples decided 0, Pfp the "
                                     "fraction of class-0 samples decided 1 (section 7.2)",
                            lambda p=p, cn=cn, cp=cp, pfn=pfn, pfp=pfp, n=normalize:
                            (p * cn * pfp + (1 - p) * cp * pfn)
                            / (min(p * cn, (1 - p) * cp) if n else 1.0)),
                ]))
    return cases


def _risk(run):
    _, S, _, LVAL = shared.class_scores(run)
    pred = bayes_decisions(log_posteriors(S, shared.PRIORS), _COSTS)
    # the MVG makes almost no error on iris: 8 decisions moved to another class give the risk
    # something to count (a risk of 0 would let a function that returns 0 pass)
    rng = run.rng(31)
    moved = rng.choice(pred.size, 8, replace=False)
    pred = pred.copy()
    pred[moved] = (pred[moved] + rng.integers(1, 3, 8)) % 3
    cases = []
    for normalize, costs, which in ((True, _COSTS, "the notes'"), (False, _COSTS, "the notes'"),
                                    (True, _ASYMMETRIC_COSTS, "an asymmetric")):
        ref = empirical_bayes_risk(pred, LVAL, shared.PRIORS, costs, normalize=normalize)
        u = empirical_bayes_risk(pred, LVAL, shared.PRIORS, costs, normalize=False)
        cases.append(Case(f"MVG decisions on iris, 8 of them moved to another class, {which} "
                          f"cost matrix, normalize={normalize}",
                          (pred, LVAL, shared.PRIORS, costs), ref, kwargs={"normalize": normalize},
                          mistakes=[Mistake("unnormalised", "normalize=True divides by the risk "
                                            "of the best dummy system, min(C @ pi) (eq. 135-137)",
                                            lambda u=u: u)]))
    return cases


def _act(run):
    llr, L, apps = shared.ties(run)
    cases = []
    for p, cn, cp in apps:
        t = -np.log(p * cn / ((1 - p) * cp))
        cases.append(Case(f"integer llrs that hit the threshold, (pi, Cfn, Cfp) = ({p:.3g}, "
                          f"{cn:.3g}, {cp:.3g})", (llr, L, p, cn, cp), act_dcf(llr, L, p, cn, cp),
                          context={"prior": p}, mistakes=[
            Mistake(">=", "a score equal to the threshold goes to class 0: decide class 1 only "
                    "when llr > t, strictly (eq. 128-130)",
                    lambda p=p, cn=cn, cp=cp, t=t: dcf((llr >= t).astype(int), L, p, cn, cp)),
            Mistake("unnormalised", "actDCF is normalised by min(pi Cfn, (1 - pi) Cfp) "
                                    "(eq. 137)",
                    lambda p=p, cn=cn, cp=cp: dcf(optimal_bayes_decisions(llr, p, cn, cp), L, p,
                                                  cn, cp, normalize=False)),
        ]))
    return cases


def _act_alias(run):
    return _act(run)


def _bayes_plot(run):
    llr, L, _ = shared.ties(run)
    x = np.linspace(-3, 3, 21)
    _, act, mini = bayes_error_curve(llr, L, x)
    ge = [dcf((llr >= -t).astype(int), L, 1 / (1 + np.exp(-t))) for t in x]

    def post(out):
        xs, a, m = forms.pair(out, 3, "(effPriorLogOdds, actDCF, minDCF)")
        return np.vstack([as_array(xs).reshape(-1), as_array(a).reshape(-1),
                          as_array(m).reshape(-1)])

    return [Case("integer llrs (the prior log-odds -3, 0 and 3 put thresholds on them)", (llr, L),
                 np.vstack([x, act, mini]), post=post, mistakes=[
        Mistake(">=", "at each prior the Bayes decision is llr > -log(pi / (1 - pi)), strictly "
                "(eq. 128-130)", lambda: np.vstack([x, ge, mini]))])]


def _rates_cases(run):
    llr, L, _ = shared.ties(run)
    rng = run.rng(8)
    Lc = (rng.random(80) < 0.5).astype(int)
    sc = rng.normal(size=80) + 1.5 * Lc
    cases = []
    for what, s, lab in (("integer llrs with ties", llr, L), ("continuous scores", sc, Lc)):
        fpr, tpr = roc_points(s, lab)
        pts = np.unique(np.round(np.column_stack([1 - tpr, fpr]), 12), axis=0)
        cases.append(Case(what, (s, lab), pts, post=lambda out, s=s, lab=lab: _rates_post(
            out, s, lab), compare=_rates_compare))
    return cases


def _rates_post(out, s, L):
    if not isinstance(out, (tuple, list)) or len(out) not in (2, 3):
        raise Fail(f"expected (Pfn, Pfp, thresholds), got {type(out).__name__}")
    Pfn, Pfp = as_array(out[0], "Pfn").reshape(-1), as_array(out[1], "Pfp").reshape(-1)
    th = as_array(out[2], "thresholds").reshape(-1) if len(out) == 3 else None
    if Pfn.size != Pfp.size:
        raise Fail(f"Pfn has {Pfn.size} entries and Pfp {Pfp.size}")
    return Pfn, Pfp, th, s, L


def _rates_compare(got, expected) -> Comparison:
    Pfn, Pfp, th, s, L = got
    pts = np.unique(np.round(np.column_stack([Pfn, Pfp]), 12), axis=0)
    if th is not None:
        if th.size != Pfn.size:
            raise Fail(f"{th.size} thresholds for {Pfn.size} (Pfn, Pfp) points")
        nT, nF = np.sum(L == 1), np.sum(L == 0)
        d = s[None, :] > th[:, None]
        pfn = np.sum(~d & (L == 1), axis=1) / nT
        pfp = np.sum(d & (L == 0), axis=1) / nF
        wrong = int(np.sum((np.abs(pfn - Pfn) > 1e-12) | (np.abs(pfp - Pfp) > 1e-12)))
        if wrong:
            ge = s[None, :] >= th[:, None]
            pfn_ge = np.sum(~ge & (L == 1), axis=1) / nT
            hint = None
            if np.allclose(pfn_ge, Pfn):
                hint = ("at each threshold t the course decides class 1 when llr > t, "
                        "strictly; these rates are those of llr >= t (eq. 128-130)")
            raise Fail(f"{wrong} of the {th.size} (Pfn, Pfp) points are not the rates of the "
                       f"decisions llr > t at their thresholds", hint=hint, err=float(wrong),
                       tol=0.0)
    if pts.shape != expected.shape or not np.allclose(pts, expected, atol=1e-12):
        missing = len({tuple(r) for r in expected} - {tuple(r) for r in pts})
        extra = len({tuple(r) for r in pts} - {tuple(r) for r in expected})
        return Comparison(False, float(missing + extra), 0.0,
                          f"distinct (Pfn, Pfp) points missing ({missing}) or not on the "
                          f"empirical ROC ({extra}):")
    return Comparison(True, 0.0, 0.0, "points that differ")


def _rates_fast(run):
    return _rates_cases(run)


def _rates_slow(run):
    return _rates_cases(run)


def _sweep_without(s, lab, p, cn, cp, end: str) -> float:
    """The minimum of the normalised DCF over the thresholds -inf, every score, +inf, without the
    first (``end="first"``) or the last one."""
    th = np.concatenate([[-np.inf], np.sort(s), [np.inf]])
    th = th[1:] if end == "first" else th[:-1]
    return min(dcf((s > t).astype(int), lab, p, cn, cp) for t in th)


def _threshold_post(s, lab, p, cn, cp):
    """(minDCF, threshold) -> [minDCF, DCF of s > threshold, DCF of s >= threshold]."""
    def post(out):
        v, th = forms.pair(out, 2, "(minDCF, threshold) with returnThreshold=True")
        v = float(np.ravel(as_array(v))[0])
        t = float(np.ravel(as_array(th))[0])
        return np.array([v, dcf((s > t).astype(int), lab, p, cn, cp),
                         dcf((s >= t).astype(int), lab, p, cn, cp)])
    return post


def _threshold_compare(got, expected) -> Comparison:
    """The minDCF and the DCF at the returned threshold under the course's rule ``llr > t``."""
    return closed_form()(as_array(got)[:2], as_array(expected)[:2])


def _min_dcf_cases(run):
    llr, L, apps = shared.ties(run)
    rng = run.rng(9)
    Lc = (rng.random(120) < 0.3).astype(int)
    sc = rng.normal(size=120) + 1.2 * Lc
    # scores that rank the classes the wrong way round: no threshold beats the best dummy system,
    # so the minimum is at an extreme threshold, every sample rejected at pi = 0.1 and every
    # sample accepted (t = -inf) at pi = 0.9
    Lw = (rng.random(80) < 0.5).astype(int)
    sw = rng.normal(size=80) - 2.0 * Lw
    cases = []
    for what, s, lab, (p, cn, cp) in [("integer llrs with ties", llr, L, a) for a in apps] + [
            ("continuous scores", sc, Lc, (0.1, 1.0, 1.0)),
            ("scores ranking the classes the wrong way round", sw, Lw, (0.1, 1.0, 1.0)),
            ("scores ranking the classes the wrong way round", sw, Lw, (0.9, 1.0, 1.0))]:
        ref = min_dcf(s, lab, p, cn, cp)
        u = ref * min(p * cn, (1 - p) * cp)
        mistakes = [Mistake("unnormalised", "minDCF is the minimum of the normalised DCF "
                                            "(eq. 137)", lambda u=u: u)]
        # (without +inf the sweep loses nothing: under llr > t the largest score rejects every
        # sample too; without -inf it loses the system that accepts every sample)
        mistakes.append(Mistake(
            "first", "the threshold sweep misses its first threshold, -inf: the course's "
                     "thresholds are -inf, every sorted score and +inf, and under llr > t only "
                     "-inf accepts every sample (the best dummy system when pi Cfn > (1 - pi) "
                     "Cfp)", lambda s=s, lab=lab, p=p, cn=cn, cp=cp: _sweep_without(
                         s, lab, p, cn, cp, "first")))
        cases.append(Case(f"{what}, (pi, Cfn, Cfp) = ({p:.3g}, {cn:.3g}, {cp:.3g})",
                          (s, lab, p, cn, cp), ref, context={"prior": p}, mistakes=mistakes))
        if what == "continuous scores":
            cases.append(Case(what + ", returnThreshold=True", (s, lab, p, cn, cp),
                              np.array([ref, ref, ref]), kwargs={"returnThreshold": True},
                              post=_threshold_post(s, lab, p, cn, cp),
                              compare=_threshold_compare, mistakes=[Mistake(
                ">=", "the returned threshold was found with llr >= t: under the course's rule "
                      "llr > t (eq. 130) it misplaces the sample whose score equals it; return "
                      "a threshold t with llr > t giving the minimum (e.g. just below that "
                      "score)", lambda ref=ref: np.array([ref, np.nan, ref]),
                lambda got, exp: Comparison(
                    bool(abs(got[0] - exp[0]) <= 1e-10 * abs(exp[0]) and
                         abs(got[2] - exp[2]) <= 1e-10 * abs(exp[2]) and
                         abs(got[1] - exp[0]) > 1e-10 * abs(exp[0])), 0.0, 0.0))]))
    return cases


def _min_fast(run):
    return _min_dcf_cases(run)


def _min_slow(run):
    return _min_dcf_cases(run)


def _adapt_confusion_matrix(code, f):
    def confusion_matrix(pred, L, K=None):
        M = np.asarray(code.call("compute_confusion_matrix", np.asarray(pred), np.asarray(L)))
        if K is not None and M.shape != (K, K):
            raise adapt.Unsupported(f"compute_confusion_matrix gave {M.shape}, the caller needs "
                                    f"({K}, {K}) (a class absent from the labels)")
        return M.astype(np.int64)
    return confusion_matrix


def _adapt_optimal_bayes_decisions(code, f):
    def optimal_bayes_decisions(llr, prior, Cfn=1.0, Cfp=1.0):
        s = np.asarray(llr, dtype=np.float64)
        d = code.call("compute_optimal_Bayes_binary_llr", s, prior, Cfn, Cfp)
        return adapt.vector(d, s.size, "compute_optimal_Bayes_binary_llr", "decisions").astype(int)
    return optimal_bayes_decisions


def _adapt_dcf(code, f):
    def dcf(pred, L, prior, Cfn=1.0, Cfp=1.0, normalize=True):
        v = code.call("compute_empirical_Bayes_risk_binary", np.asarray(pred), np.asarray(L),
                      prior, Cfn, Cfp, normalize=normalize)
        return float(adapt.vector(v, 1, "compute_empirical_Bayes_risk_binary", "the DCF")[0])
    return dcf


def _adapt_act_dcf(code, f):
    def act_dcf(llr, L, prior, Cfn=1.0, Cfp=1.0):
        name = adapt.first(code, "compute_actDCF_binary_fast",
                           "compute_empirical_Bayes_risk_binary_llr_optimal_decisions")
        v = code.call(name, np.asarray(llr, float), np.asarray(L), prior, Cfn, Cfp)
        return float(adapt.vector(v, 1, name, "actDCF")[0])
    return act_dcf


def _adapt_min_dcf(code, f):
    def min_dcf(llr, L, prior, Cfn=1.0, Cfp=1.0, return_threshold=False):
        if return_threshold:
            raise adapt.Unsupported("the threshold of the minimum is mlpr's own convention")
        name = adapt.first(code, "compute_minDCF_binary_fast", "compute_minDCF_binary_slow")
        v = code.call(name, np.asarray(llr, float), np.asarray(L), prior, Cfn, Cfp)
        return float(adapt.vector(v, 1, name, "minDCF")[0])
    return min_dcf


def _adapt_bayes_decisions(code, f):
    def bayes_decisions(log_posteriors, costs):
        P = np.exp(np.asarray(log_posteriors, dtype=np.float64))
        d = code.call("compute_optimal_Bayes", P, np.asarray(costs, float))
        return adapt.vector(d, P.shape[1], "compute_optimal_Bayes", "decisions").astype(int)
    return bayes_decisions


def _adapt_empirical_bayes_risk(code, f):
    def empirical_bayes_risk(pred, L, priors, costs, Cfp=None, normalize=True):
        if Cfp is not None or np.ndim(costs) == 0:
            raise adapt.Unsupported("the binary (prior, Cfn, Cfp) form")
        v = code.call("compute_empirical_Bayes_risk", np.asarray(pred), np.asarray(L),
                      np.asarray(priors, float), np.asarray(costs, float), normalize=normalize)
        return float(adapt.vector(v, 1, "compute_empirical_Bayes_risk", "the risk")[0])
    return empirical_bayes_risk


FUNCTIONS = (
    CourseFunction(
        name="compute_posteriors", formula=POSTERIORS,
        signature="(log_clas_conditional_ll, prior_array)",
        topic="class posteriors", reference="generative.log_posteriors (its exp)", cases=_post),
    CourseFunction(
        name="compute_optimal_Bayes", formula=BAYES,
        signature="(posterior, costMatrix)",
        topic="Bayes decisions with a cost matrix", reference="evaluation.bayes_decisions",
        forms="takes the posteriors, not their logs; costMatrix[i, j]: decide i, class j",
        cases=_bayes,
        adapters=(
            Adapter("bayes_decisions", (("compute_optimal_Bayes",),), _adapt_bayes_decisions),
        )),
    CourseFunction(
        name="uniform_cost_matrix", signature="(nClasses)", topic="the 0-1 cost matrix",
        reference="numpy: ones((K, K)) - eye(K)", cases=_uniform),
    CourseFunction(
        name="compute_confusion_matrix", formula=CONFUSION,
        signature="(predictedLabels, classLabels)",
        topic="confusion matrix", reference="evaluation.confusion_matrix",
        forms="M[predicted, true]", cases=_confusion,
        adapters=(
            Adapter("confusion_matrix", (("compute_confusion_matrix",),), _adapt_confusion_matrix),
        )),
    CourseFunction(
        name="compute_optimal_Bayes_binary_llr", formula=BAYES_BINARY,
        signature="(llr, prior, Cfn, Cfp)",
        topic="binary Bayes decisions from llrs", reference="evaluation.optimal_bayes_decisions",
        cases=_bayes_binary,
        adapters=(
            Adapter("optimal_bayes_decisions", (("compute_optimal_Bayes_binary_llr",),),
            _adapt_optimal_bayes_decisions),
        )),
    CourseFunction(
        name="compute_empirical_Bayes_risk_binary", formula=RISK_BINARY,
        signature="(predictedLabels, classLabels, prior, Cfn, Cfp, normalize=True)",
        topic="binary DCF of decisions", reference="evaluation.dcf", cases=_risk_binary,
        adapters=(
            Adapter("dcf", (("compute_empirical_Bayes_risk_binary",),), _adapt_dcf),
        )),
    CourseFunction(
        name="compute_empirical_Bayes_risk", formula=RISK,
        signature="(predictedLabels, classLabels, prior_array, costMatrix, normalize=True)",
        topic="empirical Bayes risk with a cost matrix",
        reference="evaluation.empirical_bayes_risk", cases=_risk,
        adapters=(
            Adapter("empirical_bayes_risk", (("compute_empirical_Bayes_risk",),),
            _adapt_empirical_bayes_risk),
        )),
    CourseFunction(
        name="compute_empirical_Bayes_risk_binary_llr_optimal_decisions", formula=ACT,
        signature="(llr, classLabels, prior, Cfn, Cfp, normalize=True)",
        topic="actDCF (Bayes decisions from llrs, then their DCF)", reference="evaluation.act_dcf",
        cases=_act),
    CourseFunction(
        name="compute_actDCF_binary_fast", formula=ACT,
        signature="(llr, classLabels, prior, Cfn, Cfp, normalize=True)",
        topic="actDCF (the course's alias of the one above)", reference="evaluation.act_dcf",
        cases=_act_alias,
        adapters=(
            Adapter("act_dcf", (("compute_actDCF_binary_fast",),
                                ("compute_empirical_Bayes_risk_binary_llr_optimal_decisions",)),
            _adapt_act_dcf),
        )),
    CourseFunction(
        name="bayesPlot", formula=BAYES_PLOT,
        signature="(S, L, left=-3, right=3, npts=21)",
        topic="Bayes error plot: actDCF and minDCF against the prior log-odds",
        reference="evaluation.bayes_error_curve",
        forms="returns (effPriorLogOdds, actDCF, minDCF)", cases=_bayes_plot),
    CourseFunction(
        name="compute_Pfn_Pfp_allThresholds_fast", formula=RATES, signature="(llr, classLabels)",
        topic="Pfn and Pfp over all thresholds, sorted scores", reference="evaluation.roc_points",
        forms="returns (Pfn, Pfp[, thresholds])", cases=_rates_fast),
    CourseFunction(
        name="compute_Pfn_Pfp_allThresholds_slow", formula=RATES, signature="(llr, classLabels)",
        topic="Pfn and Pfp over all thresholds, one by one", reference="evaluation.roc_points",
        forms="returns (Pfn, Pfp[, thresholds])", cases=_rates_slow),
    CourseFunction(
        name="compute_minDCF_binary_fast", formula=MIN_DCF,
        signature="(llr, classLabels, prior, Cfn, Cfp, returnThreshold=False)",
        topic="minDCF, sorted scores", reference="evaluation.min_dcf",
        forms="returnThreshold=True returns (minDCF, threshold)", cases=_min_fast,
        adapters=(
            Adapter("min_dcf", (("compute_minDCF_binary_fast",), ("compute_minDCF_binary_slow",)),
            _adapt_min_dcf),
        )),
    CourseFunction(
        name="compute_minDCF_binary_slow", formula=MIN_DCF,
        signature="(llr, classLabels, prior, Cfn, Cfp, returnThreshold=False)",
        topic="minDCF, every threshold", reference="evaluation.min_dcf_sweep",
        forms="returnThreshold=True returns (minDCF, threshold)", cases=_min_slow),
)
