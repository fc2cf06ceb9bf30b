r"""Lab 10 of the course: Gaussian mixture models.

One `CourseFunction` record per function of the lab (``FUNCTIONS``, at the end): its course name
and signature, the mlpr function that is its reference, its cases with their known mistakes and
hints, and the mlpr functions student mode computes with it. The kit's tasks, student mode's
adapters, ``--list`` and the concordance of ``docs/grading/course_functions.md`` are generated
from them (`mlpr.grading.course`).
"""

from __future__ import annotations

import inspect
import math

import numpy as np
import scipy.linalg
import scipy.optimize
import scipy.special

from mlpr.gaussian import compute_mu_C, logpdf_GAU_ND
from mlpr.generative import (
    floor_covariance,
)
from mlpr.gmm import GMM, GMMClassifier, em_step, logpdf_GMM, split_gmm, train_gmm_em, train_gmm_lbg
from mlpr.grading.course import adapt, forms, optim, shared
from mlpr.grading.course.forms import gmm_from_list
from mlpr.grading.course.records import Adapter, CourseFunction
from mlpr.grading.framework import (
    Case,
    Comparison,
    Fail,
    Mistake,
    as_array,
    closed_form,
)
from mlpr.grading.mutants import Formula

__all__ = ["LAB", "FUNCTIONS"]

#: The lab's number in the course's 2024 edition
LAB = 10
#: its number in the years numbered otherwise (`mlpr.grading.course.lab_numbers`)
YEARS = {"2021/22": 10, "2024/25": 9}


def smooth_formula(C, psi):
    s, U = np.linalg.eigh(C)              # section 9.4: C = U diag(s) U^T
    s = np.maximum(s, psi)                # section 9.4: the eigenvalues floored at psi
    return U @ np.diag(s) @ U.T           # section 9.4: rebuilt, U diag(s) U^T


def em_step_formula(X, gmm, covType="Full", psiEig=None):
    N = X.shape[1]
    K = len(gmm)  # noqa: F841 (a count in scope: the mutants' 1 / K)
    S = np.array([np.log(w) + logpdf_GAU_ND(X, mu, C) for w, mu, C in gmm])  # eq. 191: log joint
    logMarginal = scipy.special.logsumexp(S, axis=0)  # eq. 191: the log-marginal
    gamma = np.exp(S - logMarginal)       # eq. 191: the responsibilities, summing to 1
    new = []
    for g in gamma:
        N_c = g.sum()                     # eq. 199: the zero-order statistic N_c = sum_i gamma_ci
        F_c = X @ g[:, None]              # eq. 199: the first-order statistic
        S_c = (g * X) @ X.T               # eq. 200: the second-order statistic
        mu_c = F_c / N_c                  # eq. 199: the new mean
        C_c = S_c / N_c - mu_c @ mu_c.T   # eq. 200: the new covariance
        if covType == "Diagonal":
            C_c = np.diag(np.diag(C_c))
        w_c = N_c / N                     # eq. 201: the new weight, N_c / N
        new.append([w_c, mu_c, C_c])
    if covType == "Tied":
        CT = sum(w_c * C_c for w_c, mu_c, C_c in new)  # eq. 200-201: sum_c N_c Sigma_c / N
        for comp in new:
            comp[2] = CT
    if psiEig is not None:
        for comp in new:
            comp[2] = floor_covariance(comp[2], psiEig)
    return [tuple(comp) for comp in new]


def em_formula(X, gmm, covType="Full", psiEig=None, epsLLAverage=1e-6, verbose=True):
    llOld = np.mean(logpdf_GMM(X, gmm_from_list(gmm)))  # section 9.3: the average log-likelihood
    for _ in range(_EM_ITERATIONS):
        gmm = em_step_formula(X, gmm, covType, psiEig)  # eq. 191-201: one EM iteration
        llNew = np.mean(logpdf_GMM(X, gmm_from_list(gmm)))
        if llNew - llOld <= epsLLAverage:  # section 9.3: stop when the increase is at most eps
            return gmm
        llOld = llNew
    return gmm


#: The iterations of EM a formula runs at most (its mutants may never stop)
_EM_ITERATIONS = 200


def split_formula(gmm, alpha=0.1, verbose=True):
    out = []
    for w, mu, C in gmm:
        s, U = np.linalg.eigh(C)          # section 9.4: eigh, eigenvalues in ascending order
        u = U[:, -1]                      # section 9.4: the leading eigenvector, U[:, -1]
        d = u[:, None] * np.sqrt(s[-1]) * alpha  # section 9.4: alpha sqrt(s[-1]) u
        half = w / 2                      # section 9.4: each half has the weight w / 2
        out.append((half, mu - d, C))
        out.append((half, mu + d, C))
    return out


def _rows_match(got, value):
    """Two GMMs' rows, in any order of the components, at 1e-8."""
    a, b = as_array(got), as_array(value)
    if a.shape != b.shape:
        return Comparison(False, math.inf, 1e-8)
    a, b = a[np.lexsort(a.T[::-1])], b[np.lexsort(b.T[::-1])]
    return closed_form(1e-8)(a, b)


_GMM_GLOSSARY = {"N_c": "the component's zero-order statistic, sum_i gamma_ci (its "
                        "responsibilities' sum)", "N": "the number of samples",
                 "gamma": "the responsibilities", "w_c": "the weight N_c / N",
                 "logMarginal": "the log-marginal, the normalisation of the responsibilities",
                 "U": "the eigenvectors, in eigh's ascending order", "s": "the eigenvalues",
                 "w": "the component's weight"}
SMOOTH = Formula(smooth_formula, glossary={"U": "the eigenvectors of C"})
EM_STEP = Formula(em_step_formula, glossary=_GMM_GLOSSARY,
                  replace={"N_c": ("N",), "N": ("N_c",), "w_c": ("1 / K",)})
EM = Formula(em_formula, glossary={"epsLLAverage": "the stopping threshold of the increase of "
                                                   "the average log-likelihood"},
             match=closed_form(optim.RTOL_EM))
SPLIT = Formula(split_formula, glossary=_GMM_GLOSSARY, match=_rows_match)


def _logpdf_gmm(run):
    X, g = shared.gmm_data(run)
    comps = [logpdf_GAU_ND(X, g.mu[:, [c]], g.C[c]) for c in range(2)]
    return [Case("two components, 3-D data far from the origin", (X, g.to_list()),
                 logpdf_GMM(X, g), mistakes=[
        Mistake("weights", "the log-density adds log w_c to each component's log-density "
                           "before the logsumexp (eq. 185)",
                lambda: scipy.special.logsumexp(np.stack(comps), axis=0)),
        Mistake("sum", "the mixture is a sum of densities, log sum_c w_c N(x | mu_c, C_c): "
                       "logsumexp over the components, not a sum of log-densities (eq. 185, 188)",
                lambda: sum(np.log(g.w[c]) + comps[c] for c in range(2))),
        Mistake("joint", "these are the joint log-densities log w_c + log N(x | mu_c, C_c) of "
                         "each component (M x N): the GMM's log-density is their logsumexp over "
                         "the components, one value per sample (eq. 185)",
                lambda: np.stack([np.log(g.w[c]) + comps[c] for c in range(2)])),
    ])]


def _smooth(run):
    X, g = shared.gmm_data(run)
    C = compute_mu_C(X)[1]
    return [Case("a covariance with an eigenvalue 2e-3, psi = 0.01", (C, 0.01),
                 floor_covariance(C, 0.01), mistakes=[
        Mistake("diagonal", "the floor applies to the eigenvalues, U diag(max(s, psi)) U^T, "
                            "not to the diagonal entries",
                lambda: C + np.diag(np.maximum(np.diag(C), 0.01) - np.diag(C)))])]


def _em_cases(run):
    X, g = shared.gmm_data(run)
    cases = []
    for cov, psi in (("full", None), ("full", 0.01), ("diagonal", 0.01), ("tied", 0.01)):
        ref = em_step(X, g, cov, psi=psi)
        mistakes = []
        if psi is not None:
            mistakes.append(Mistake("floor", "the eigenvalue floor psiEig is missing from the "
                                             "M-step: each new covariance is smoothed after it is "
                                             "estimated (9.4)",
                                    lambda cov=cov: forms.gmm_rows(em_step(X, g, cov, psi=None))))
        cases.append(Case(f"two components, covType '{forms.course_cov(cov)}', psiEig = {psi}",
                          (X, g.to_list()), forms.gmm_rows(ref),
                          kwargs={"covType": forms.course_cov(cov), "psiEig": psi},
                          post=forms.gmm_array, mistakes=mistakes))
    return cases


def _em_iter(run):
    return _em_cases(run)


def _em_full(run):
    X, g = shared.gmm_data(run)
    cases = []
    for cov, psi in (("full", 0.01), ("diagonal", 0.01)):
        # the start is floored as the labs' LBG floors its models (the covariances of its type,
        # eigenvalues at least psi): from an unfloored start the first floored step can lower
        # the log-likelihood, the labs' rule (llNew - llOld < eps) stops there and a rule on
        # |llNew - llOld| goes on; from a floored start every EM step raises it and all stop at
        # one point
        g0 = floored_start(g, cov, psi)
        ref, _ = train_gmm_em(X, g0, cov, psi=psi, tol=1e-6)
        nofloor = None
        if cov == "full":
            nofloor = train_gmm_em(X, g0, cov, psi=None, tol=1e-6)[0]
        post = _gmm_logpdf_post(X)
        mistakes = []
        if nofloor is not None:
            mistakes.append(Mistake("floor", "the eigenvalue floor psiEig is missing from "
                                                 "the M-step (9.4)",
                                    lambda n=nofloor: logpdf_GMM(X, n), optim.near(1e-5)))
        cases.append(Case(f"two components, covType '{forms.course_cov(cov)}', psiEig = {psi}, "
                          f"a floored start", (X, g0.to_list()), logpdf_GMM(X, ref),
                          kwargs={"covType": forms.course_cov(cov), "psiEig": psi,
                                  "epsLLAverage": 1e-6}, quiet={"verbose": False},
                          post=post, compare=closed_form(optim.RTOL_EM), mistakes=mistakes))
    return cases


def floored_start(g: GMM, cov: str, psi: float) -> GMM:
    """``g`` with the covariances of the family ``cov`` (the diagonal of each, or their
    weighted mean for "tied") and every eigenvalue at least ``psi`` (section 9.4)."""
    C = g.C
    if cov == "diagonal":
        C = np.stack([np.diag(np.diag(c)) for c in C])
    elif cov == "tied":
        C = np.stack([np.einsum("m,mij->ij", g.w, C)] * g.w.size)
    return GMM(w=g.w, mu=g.mu, C=np.stack([floor_covariance(c, psi) for c in C]))


def _gmm_logpdf_post(X):
    def post(out):
        a = forms.gmm_array(out)
        D = X.shape[0]
        try:
            g = forms.gmm_from_array(a, D)
        except ValueError as exc:
            raise Fail(f"the result is not a valid GMM: {exc}") from None
        return logpdf_GMM(X, g)
    return post


def _split_gmm_input(run):
    X, g = shared.gmm_data(run)
    iso = 0.01 * np.eye(3)
    g2 = GMM(w=np.array([0.3, 0.7]), mu=g.mu, C=np.stack([g.C[1], iso]))
    return g2


def _split_gmm_task(run):
    g = _split_gmm_input(run)
    ref = split_gmm(g, 0.1)
    s, U = np.linalg.eigh(g.C[0])
    d_nosqrt = U[:, -1] * s[-1] * 0.1

    def post(out):
        a = forms.gmm_array(out)
        if a.shape[0] != 2 * g.n_components:
            raise Fail(f"{a.shape[0]} components after the split, expected "
                       f"{2 * g.n_components}")
        return a

    def compare(got, expected) -> Comparison:
        D = g.n_features
        w, mu, C = got[:, 0], got[:, 1:1 + D], got[:, 1 + D:].reshape(-1, D, D)
        worst = 0.0
        used = set()
        for c in range(g.n_components):
            pair = _find_pair(mu, g.mu[:, c], used)
            if pair is None:
                return Comparison(False, math.inf, 1e-8, f"component {c}: no two new components "
                                  f"are centred on its mean")
            i, j = pair
            used |= {i, j}
            lam, V = np.linalg.eigh(g.C[c])
            d = (mu[j] - mu[i]) / 2
            errs = [abs(w[i] - g.w[c] / 2) / g.w[c], abs(w[j] - g.w[c] / 2) / g.w[c],
                    abs(np.linalg.norm(d) - 0.1 * np.sqrt(lam[-1])) / (0.1 * np.sqrt(lam[-1])),
                    np.linalg.norm(g.C[c] @ d - lam[-1] * d) / (lam[-1] * np.linalg.norm(d)),
                    np.abs(C[i] - g.C[c]).max() / np.abs(g.C[c]).max(),
                    np.abs(C[j] - g.C[c]).max() / np.abs(g.C[c]).max()]
            worst = max(worst, *errs)
        return Comparison(worst <= 1e-8, float(worst), 1e-8,
                          "relative error of the weights, the displacement alpha sqrt(lambda_1) "
                          "u_1 along a leading eigenvector, or the covariances:")

    return [Case("a full component and an isotropic one (C = 0.01 I: any direction is a leading "
                 "eigenvector)", (g.to_list(),), forms.gmm_rows(ref), kwargs={"alpha": 0.1},
                 quiet={"verbose": False},
                 post=post, compare=compare, mistakes=[
        Mistake("sqrt", "the displacement is alpha sqrt(lambda_1) u_1: the square root of the "
                            "largest eigenvalue, a standard deviation (the course's LBG)",
                lambda: None, _displacement_is(g, np.linalg.norm(d_nosqrt))),
    ])]


def _find_pair(mu, m, used):
    n = mu.shape[0]
    for i in range(n):
        for j in range(i + 1, n):
            if i in used or j in used:
                continue
            if np.allclose((mu[i] + mu[j]) / 2, m, rtol=1e-9, atol=1e-9 * np.abs(m).max()):
                return i, j
    return None


def _displacement_is(g, norm0):
    def compare(got, expected=None) -> Comparison:
        D = g.n_features
        mu = got[:, 1:1 + D]
        pair = _find_pair(mu, g.mu[:, 0], set())
        if pair is None:
            return Comparison(False, math.inf, 0.0)
        d = (mu[pair[1]] - mu[pair[0]]) / 2
        err = abs(np.linalg.norm(d) - norm0) / norm0
        return Comparison(err < 1e-8, err, 1e-8)
    return compare


def _lbg(run):
    X, _ = shared.gmm_data(run)
    cases = []
    for n, cov in ((4, "full"), (2, "tied")):
        ref = train_gmm_lbg(X, n, cov, psi=0.01, tol=1e-6, alpha=0.1)[-1]
        cases.append(Case(f"{n} components, covType '{forms.course_cov(cov)}', psiEig = 0.01",
                          (X, n), logpdf_GMM(X, ref),
                          kwargs={"covType": forms.course_cov(cov), "psiEig": 0.01,
                                  "epsLLAverage": 1e-6, "lbgAlpha": 0.1},
                          quiet={"verbose": False},
                          post=_gmm_logpdf_post(X), compare=closed_form(optim.RTOL_EM)))
    return cases


def _adapt_logpdf_GMM(code, f):
    def logpdf_GMM(D, gmm):
        X = np.asarray(D, dtype=np.float64)
        return adapt.vector(code.call("logpdf_GMM", X, gmm_from_list(gmm).to_list()), X.shape[1],
                            "logpdf_GMM", "log-densities")
    return logpdf_GMM


def _adapt_em_step(code, f):
    def em_step(D, gmm, cov_type="full", psi=None, **kwargs):
        kwargs.pop("method", None)  # mlpr's reference / fast switch: the student's step is one
        kwargs.pop("solver", None)
        if kwargs:
            raise adapt.Unsupported(f"no counterpart of {', '.join(kwargs)}")
        out = code.call("train_GMM_EM_Iteration", np.asarray(D, float),
                        gmm_from_list(gmm).to_list(), covType=forms.COV_TYPES[cov_type], psiEig=psi)
        return adapt.student_gmm(out, "train_GMM_EM_Iteration")
    return em_step


def _adapt_train_gmm_em(code, f):
    def train_gmm_em(D, gmm, cov_type="full", psi=None, tol=1e-6, max_iter=10_000, **kwargs):
        kwargs.pop("method", None)
        kwargs.pop("solver", None)
        if kwargs:
            raise adapt.Unsupported(f"no counterpart of {', '.join(kwargs)}")
        X = np.asarray(D, dtype=np.float64)
        g = gmm_from_list(gmm)
        if code.has("train_GMM_EM_Iteration"):
            # the course's loop (its stopping rule: a gain of the average log-likelihood below
            # epsLLAverage) over the submission's own EM step: the history is the student's
            history = [adapt.mean_ll(code, X, g)]
            for _ in range(max_iter):
                out = code.call("train_GMM_EM_Iteration", X, g.to_list(),
                                covType=forms.COV_TYPES[cov_type], psiEig=psi)
                step = adapt.student_gmm(out, "train_GMM_EM_Iteration")
                code._audit(em_step, step, (X, g, cov_type, psi), {},
                            ["train_GMM_EM_Iteration"])
                g = step
                history.append(adapt.mean_ll(code, X, g))
                if history[-1] - history[-2] < tol:
                    break
            return g, history
        out = code.call("train_GMM_EM", X, g.to_list(), covType=forms.COV_TYPES[cov_type],
                        psiEig=psi,
                        epsLLAverage=tol, **adapt.quiet(code, "train_GMM_EM"))
        final = adapt.student_gmm(out, "train_GMM_EM")
        # the course's train_GMM_EM returns the final model only: the iterations in between are
        # not known, and what is computed from them is skipped with this reason
        code._fail("the history of the log-likelihood: your train_GMM_EM returns the final model "
                   "only (a train_GMM_EM_Iteration gives it)")
        return final, [adapt.mean_ll(code, X, g), adapt.mean_ll(code, X, final)]
    return train_gmm_em


def _adapt_split_gmm(code, f):
    def split_gmm(gmm, alpha=0.1):
        out = code.call("split_GMM_LBG", gmm_from_list(gmm).to_list(), alpha,
                        **adapt.quiet(code, "split_GMM_LBG"))
        return adapt.student_gmm(out, "split_GMM_LBG")
    return split_gmm


def _adapt_train_gmm_lbg(code, f):
    em = _adapt_train_gmm_em(code, f)

    def train_gmm_lbg(D, n_components, cov_type="full", psi=None, alpha=0.1, tol=1e-6,
                      max_iter=10_000, return_history=False, **kwargs):
        if set(kwargs) - {"method", "solver"}:
            raise adapt.Unsupported(f"no counterpart of {', '.join(kwargs)}")
        X = np.asarray(D, dtype=np.float64)
        if code.has("split_GMM_LBG") and code.has("train_GMM_EM_Iteration"):
            # the course's LBG loop over the submission's own split and EM step: every model
            # and every history is the student's
            models = [adapt.lbg_start(code, X, cov_type, psi)]
            histories = [[adapt.mean_ll(code, X, models[0])]]
            while models[-1].n_components < n_components:
                out = code.call("split_GMM_LBG", models[-1].to_list(), alpha,
                                **adapt.quiet(code, "split_GMM_LBG"))
                split = adapt.student_gmm(out, "split_GMM_LBG")
                code._audit(split_gmm, split, (models[-1], alpha), {}, ["split_GMM_LBG"])
                g, history = em(X, split.to_list(), cov_type, psi, tol, max_iter=max_iter)
                models.append(g)
                histories.append(history)
            return (models, histories) if return_history else models
        if return_history:
            raise adapt.Unsupported("train_GMM_LBG_EM returns the final model only (no history); "
                                    "split_GMM_LBG and train_GMM_EM_Iteration give it")
        models, M = [], 1
        while M <= n_components:  # the course returns the final model: one run per size
            out = code.call("train_GMM_LBG_EM", X, M, covType=forms.COV_TYPES[cov_type], psiEig=psi,
                            epsLLAverage=tol, lbgAlpha=alpha,
                            **adapt.quiet(code, "train_GMM_LBG_EM"))
            models.append(adapt.student_gmm(out, "train_GMM_LBG_EM"))
            M *= 2
        return models
    return train_gmm_lbg


def em_reach(f, args, kwargs, measure, out=None, runs: int = 3) -> float:
    """How far apart the course's EM lands on a call's inputs: the largest ``measure`` of mlpr's
    answer with a stopping threshold ten times smaller (a correct EM whose rounding meets the
    rule one iteration sooner or later lands within that) and of its answers on the data moved
    by up to two units in the last place (``runs`` times): with many components on few samples,
    LBG's splits and EM's local optima depend on the rounding, and the answers of any two
    correct implementations as much."""
    bound = inspect.signature(f).bind(*args, **kwargs)
    bound.apply_defaults()
    a = bound.arguments
    tighter = dict(a, tol=a["tol"] / 10)
    worst = measure(f(**tighter))
    rng = np.random.default_rng(0)
    X = np.asarray(a["D"], dtype=np.float64)
    for _ in range(runs):
        moved = X * (1.0 + rng.integers(-2, 3, X.shape) * np.finfo(np.float64).eps)
        worst = max(worst, measure(f(**dict(a, D=moved))))
    return worst


def _adapt_lbg_gmm_classifiers(code, f):
    lbg = _adapt_train_gmm_lbg(code, f)

    def lbg_gmm_classifiers(D, L, n_components, cov_type="full", psi=None, alpha=0.1, tol=1e-6,
                            **kwargs):
        X, Y = np.asarray(D, dtype=np.float64), np.asarray(L)
        per_class = [lbg(X[:, Y == k], n_components, cov_type, psi, alpha, tol, **kwargs)
                     for k in range(int(Y.max()) + 1)]
        return {2 ** i: GMMClassifier(gmms=tuple(m[i] for m in per_class))
                for i in range(len(per_class[0]))}
    return lbg_gmm_classifiers


FUNCTIONS = (
    CourseFunction(
        name="logpdf_GMM", signature="(X, gmm)", topic="GMM log-density (eq. 185)",
        reference="gmm.logpdf_GMM", forms="gmm as [(w, mu, C), ...]", cases=_logpdf_gmm,
        adapters=(
            Adapter("logpdf_GMM", (("logpdf_GMM",),), _adapt_logpdf_GMM),
        )),
    CourseFunction(
        name="smooth_covariance_matrix", formula=SMOOTH,
        signature="(C, psi)",
        topic="eigenvalue floor of a covariance (9.4)", reference="generative.floor_covariance",
        cases=_smooth),
    CourseFunction(
        name="train_GMM_EM_Iteration", formula=EM_STEP,
        signature="(X, gmm, covType='Full', psiEig=None)",
        topic="one EM iteration (eq. 191, 199-201)", reference="gmm.em_step",
        forms="gmm as [(w, mu, C), ...]; covType 'Full' | 'Diagonal' | 'Tied'", cases=_em_iter,
        adapters=(
            Adapter("em_step", (("train_GMM_EM_Iteration",),), _adapt_em_step),
        )),
    CourseFunction(
        name="train_GMM_EM", formula=EM,
        signature="(X, gmm, covType='Full', psiEig=None, epsLLAverage=1e-6, verbose=True)",
        topic="EM to convergence (9.3)", reference="gmm.train_gmm_em",
        forms="gmm as [(w, mu, C), ...]; covType 'Full' | 'Diagonal' | 'Tied'", cases=_em_full,
        adapters=(
            # EM to convergence: the stopping rule (1e-6 on the average log-likelihood) leaves 1e-8
            Adapter("train_gmm_em", (("train_GMM_EM_Iteration",), ("train_GMM_EM",)),
            _adapt_train_gmm_em, ("values", 1e-06)),
        )),
    CourseFunction(
        name="split_GMM_LBG", formula=SPLIT,
        signature="(gmm, alpha=0.1, verbose=True)",
        topic="the LBG split (9.4)", reference="gmm.split_gmm", forms="gmm as [(w, mu, C), ...]",
        cases=_split_gmm_task,
        adapters=(
            Adapter("split_gmm", (("split_GMM_LBG",),), _adapt_split_gmm),
        )),
    CourseFunction(
        name="train_GMM_LBG_EM",
        signature="(X, numComponents, covType='Full', psiEig=None, epsLLAverage=1e-6, "
                  "lbgAlpha=0.1, verbose=True)",
        topic="LBG + EM training (9.4)", reference="gmm.train_gmm_lbg",
        forms="returns [(w, mu, C), ...]; covType 'Full' | 'Diagonal' | 'Tied'", cases=_lbg,
        adapters=(
            Adapter("train_gmm_lbg",
                    (("split_GMM_LBG", "train_GMM_EM_Iteration"), ("train_GMM_LBG_EM",)),
            _adapt_train_gmm_lbg, ("values", 1e-06, em_reach)),
            Adapter("lbg_gmm_classifiers", (("train_GMM_LBG_EM",),),
            _adapt_lbg_gmm_classifiers, ("values", 1e-06, em_reach)),
        )),
)
