r"""Lab 5 of the course: Gaussian classifiers.

One `CourseFunction` record per function of the lab (``FUNCTIONS``, at the end): its course name
and signature, the mlpr function that is its reference, its cases with their known mistakes and
hints, and the mlpr functions student mode computes with it. The kit's tasks, student mode's
adapters, ``--list`` and the concordance of ``docs/grading/course_functions.md`` are generated
from them (`mlpr.grading.course`).
"""

from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.optimize
import scipy.special

from mlpr.generative import (
    log_posteriors,
    train_mvg,
    train_naive_bayes,
    train_tied,
)
from mlpr.grading.course import adapt, forms, shared
from mlpr.grading.course.records import Adapter, CourseFunction
from mlpr.grading.framework import (
    Case,
    Mistake,
)
from mlpr.grading.mutants import Formula

__all__ = ["LAB", "FUNCTIONS"]

#: The lab's number in the course's 2024 edition
LAB = 5


def mvg_formula(D, L):
    hParams = {}
    for c in range(L.max() + 1):          # eq. 59: the classes 0..K-1
        Dc = D[:, L == c]                 # the samples of class c
        mu_c = Dc.mean(axis=1, keepdims=True)  # eq. 59: the class mean
        C_c = (Dc - mu_c) @ (Dc - mu_c).T / Dc.shape[1]  # eq. 59: the class covariance
        hParams[c] = (mu_c, C_c)
    return hParams


def naive_formula(D, L):
    hParams = {}
    for c in range(L.max() + 1):          # eq. 68: the classes 0..K-1
        Dc = D[:, L == c]                 # the samples of class c
        mu_c = Dc.mean(axis=1, keepdims=True)  # eq. 68: the class mean
        var_c = Dc.var(axis=1)            # eq. 68: the variances of class c's samples
        hParams[c] = (mu_c, np.diag(var_c))
    return hParams


def tied_formula(D, L):
    N = D.shape[1]
    Sw = 0.0
    means = {}
    for c in range(L.max() + 1):          # eq. 70: the classes 0..K-1
        Dc = D[:, L == c]                 # the samples of class c
        means[c] = Dc.mean(axis=1, keepdims=True)  # eq. 70: the class mean
        Sw = Sw + (Dc - means[c]) @ (Dc - means[c]).T  # eq. 70: the within-class scatter
    C = Sw / N                            # eq. 70: the scatter divided by N
    return {c: (means[c], C) for c in means}


def log_posterior_formula(S_logLikelihood, v_prior):
    logJoint = S_logLikelihood + np.log(v_prior)[:, None]  # eq. 65: log f(x|c) + log P(c)
    logMarginal = scipy.special.logsumexp(logJoint, axis=0)  # eq. 64: one value per sample
    return logJoint - logMarginal         # eq. 65: the log-posteriors


_GAU_GLOSSARY = {"Dc": "the samples of class c", "D": "the whole training set",
                 "mu_c": "the mean of class c", "N": "the number of samples",
                 "Sw": "the within-class scatter, sum_c sum_i (x - mu_c)(x - mu_c)^T"}
MVG = Formula(mvg_formula, glossary=_GAU_GLOSSARY, replace={"Dc": ("D",)})
NAIVE = Formula(naive_formula, glossary=_GAU_GLOSSARY, replace={"Dc": ("D",)})
TIED = Formula(tied_formula, glossary=_GAU_GLOSSARY, replace={"Dc": ("D",)})
LOG_POSTERIOR = Formula(log_posterior_formula, glossary={
    "logJoint": "the joint log-densities log f(x|c) + log P(c)",
    "logMarginal": "the log-marginal, the logsumexp over the classes (axis=0)",
    "v_prior": "the priors P(c)"})


def _estimates_cases(run, train, kind: str):
    cases = []
    (DTR, LTR), _ = shared.split(run)
    for what, (D, L) in (("iris training split", (DTR, LTR)),
                         ("unequal classes far from the origin", shared.unequal(run))):
        model = train(D, L)
        unbiased = train(D, L, unbiased=True)
        mistakes = [Mistake("unbiased", "the covariances are divided by N_c - 1: the ML estimate "
                                        "is 1/N_c (eq. 59; np.cov is unbiased, use bias=True)",
                            lambda u=unbiased: forms.model_rows(u))]
        if kind == "naive":
            full = train_mvg(D, L)
            mistakes.append(Mistake("full", "naive Bayes keeps only the diagonal of each class "
                                            "covariance (eq. 68): C * numpy.eye(D)",
                                    lambda f=full: forms.model_rows(f)))
        if kind == "tied":
            mvg = train_mvg(D, L)
            K = mvg.n_classes
            Cu = sum(mvg.covariance(k) for k in range(K)) / K
            mistakes.append(Mistake(
                "unweighted", "the tied covariance weights each class covariance by N_c / N "
                              "(eq. 70): here the classes have different sizes, and the plain "
                              "average of the class covariances differs",
                lambda m=mvg, Cu=Cu: np.stack([np.concatenate([m.mu[:, k], Cu.ravel()])
                                               for k in range(m.n_classes)])))
        K, Dd = model.n_classes, model.n_features
        cases.append(Case(what, (D, L), forms.model_rows(model),
                          post=lambda out, K=K, Dd=Dd: forms.hparams(out, K, Dd),
                          context={"N": shared.sizes(L)}, mistakes=mistakes))
    return cases


def _mvg(run):
    return _estimates_cases(run, train_mvg, "mvg")


def _naive(run):
    return _estimates_cases(run, train_naive_bayes, "naive")


def _tied(run):
    return _estimates_cases(run, train_tied, "tied")


def _class_ll(run):
    hParams, S, DVAL, _ = shared.class_scores(run)
    return [Case("iris validation set, MVG parameters", (DVAL, hParams), S, mistakes=[
        Mistake("exp", "the course's S holds log-likelihoods, not likelihoods",
                lambda: np.exp(S))])]


def _log_post(run):
    _, S, _, _ = shared.class_scores(run)
    ref = log_posteriors(S, shared.PRIORS)
    joint = S + np.log(shared.PRIORS)[:, None]
    return [Case("MVG log-likelihoods, priors (0.2, 0.5, 0.3)", (S, shared.PRIORS), ref, mistakes=[
        Mistake("exp", "compute_logPosterior returns the log-posteriors, not the posteriors",
                lambda: np.exp(ref)),
        Mistake("joint", "the joint log-density S + log(prior) is not yet the posterior: "
                         "subtract its log-marginal, logsumexp over the classes (eq. 64)",
                lambda: joint),
        Mistake("prior", "the priors are missing: log P(c | x) includes log P(c) (eq. 64-65)",
                lambda: log_posteriors(S, np.ones(3) / 3)),
        Mistake("axis", "normalised along the wrong axis: each column (one sample) of the "
                        "posteriors must sum to 1, so the log-marginal is the logsumexp over the "
                        "classes, axis=0 of the K x N matrix (eq. 64-65); this one is over the "
                        "samples", lambda: joint - scipy.special.logsumexp(joint, axis=1,
                                                                           keepdims=True)),
    ])]


def _adapt_log_posteriors(code, f):
    def log_posteriors(S, priors):
        S = np.asarray(S, dtype=np.float64)
        P = np.asarray(code.call("compute_logPosterior", S, np.asarray(priors, float)), float)
        if P.shape != S.shape:
            raise adapt.StudentFailure("compute_logPosterior",
                                       f"returned shape {P.shape}, expected {S.shape}")
        return P
    return log_posteriors


def _adapt_map_decisions(code, f):
    post = _adapt_log_posteriors(code, f)

    def map_decisions(S, priors):
        return np.argmax(post(S, priors), axis=0)
    return map_decisions


FUNCTIONS = (
    CourseFunction(
        name="Gau_MVG_ML_estimates", formula=MVG,
        signature="(D, L)", topic="MVG ML estimates",
        reference="generative.train_mvg", forms="returns hParams {label: (mu, C)}", cases=_mvg,
        adapters=(
            Adapter("train_mvg", (("Gau_MVG_ML_estimates",),),
                    adapt.gaussian_adapter("Gau_MVG_ML_estimates", "mvg")),
        )),
    CourseFunction(
        name="Gau_Naive_ML_estimates", formula=NAIVE,
        signature="(D, L)", topic="naive Bayes ML estimates",
        reference="generative.train_naive_bayes", forms="returns hParams {label: (mu, C)}",
        cases=_naive,
        adapters=(
            Adapter("train_naive_bayes", (("Gau_Naive_ML_estimates",),),
                    adapt.gaussian_adapter("Gau_Naive_ML_estimates", "naive")),
        )),
    CourseFunction(
        name="Gau_Tied_ML_estimates", formula=TIED,
        signature="(D, L)", topic="tied covariance ML estimates",
        reference="generative.train_tied", forms="returns hParams {label: (mu, C)}", cases=_tied,
        adapters=(
            Adapter("train_tied", (("Gau_Tied_ML_estimates",),),
                    adapt.gaussian_adapter("Gau_Tied_ML_estimates", "tied")),
        )),
    CourseFunction(
        name="compute_log_likelihood_Gau", signature="(D, hParams)", topic="class log-likelihoods",
        reference="generative.GaussianClassifier.scores", forms="takes hParams {label: (mu, C)}",
        cases=_class_ll),
    CourseFunction(
        name="compute_logPosterior", formula=LOG_POSTERIOR,
        signature="(S_logLikelihood, v_prior)",
        topic="class log-posteriors", reference="generative.log_posteriors", cases=_log_post,
        adapters=(
            Adapter("log_posteriors", (("compute_logPosterior",),), _adapt_log_posteriors),
            Adapter("map_decisions", (("compute_logPosterior",),), _adapt_map_decisions),
        )),
)
