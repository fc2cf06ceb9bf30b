r"""The grading kit's task catalogue: one entry per function of the course's labs (trusted: only
the grader's process imports it).

Each entry is registered under the course's own function name (`TASKS`), with the course's calling
convention (argument order, the forms of its results: ``hParams`` dicts of ``(mu, C)``, GMMs as
lists of ``(w, mu, C)``, ``(w, b)`` tuples, scoring functions), builds its `Case` s with mlpr's
reference answers, and lists the known mistakes of the task with the hint that names each, citing
the notes. The inputs are chosen so that the classic mistakes show:

- data far from the origin (a one-pass covariance loses digits there);
- classes of different sizes (a tied covariance not weighted by N_c differs);
- integer llrs that hit the Bayes threshold exactly (``>=`` differs from the course's ``>``);
- priors other than 0.5 (the prior log-odds matter);
- eps != 0 in the kernel SVM;
- a component with an eigenvalue below psi = 0.01 (the floor binds), and an isotropic one (the
  LBG split direction is undetermined, and any eigenvector of the largest eigenvalue is
  accepted).

Optimiser results (logistic regression, SVMs, EM to convergence) are compared by the objective
at the student's point, never first by their parameters: a student's L-BFGS-B point may differ
from the minimiser in flat directions while being optimal to the tolerance.

The lab numbers are those of the course's 2024 edition: 2 loading, 3 PCA / LDA, 4 Gaussian
densities (and K-means), 5 Gaussian classifiers, 7 Bayes decisions and DCF, 8 logistic
regression, 9 SVM, 10 GMM, 11 calibration and fusion.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np
import scipy.linalg
import scipy.optimize
import scipy.special

from mlpr.datasets import load_iris, load_iris_binary
from mlpr.dimred import compute_Sw_Sb, fit_lda, fit_pca
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
from mlpr.gaussian import compute_mu_C, loglikelihood, logpdf_GAU_ND
from mlpr.generative import (
    floor_covariance,
    log_posteriors,
    train_mvg,
    train_naive_bayes,
    train_tied,
)
from mlpr.gmm import GMM, em_step, logpdf_GMM, split_gmm, train_gmm_em, train_gmm_lbg
from mlpr.grading.framework import (
    RTOL_CLOSED_FORM,
    Case,
    Comparison,
    Fail,
    KitError,
    Mistake,
    Task,
    as_array,
    binary_split,
    closed_form,
    exact,
    iris_split,
    offset_data,
    same_subspace,
    threshold_ties,
    up_to_sign,
)
from mlpr.logreg import logreg_obj_wrap, train_logreg_binary
from mlpr.svm import poly_kernel, rbf_kernel, train_svm_kernel, train_svm_linear
from mlpr.utils import split_db_2to1

__all__ = ["TASKS", "tasks", "reference", "set_seed", "current_seed"]

#: The catalogue: course function name (or ``"name (variant)"``) -> `Task`.
TASKS: dict = {}

#: Relative objective tolerance of logistic regression: a course-style L-BFGS-B (analytic gradient,
#: ``factr=1.0``, the default ``pgtol=1e-5``) stops 3e-11 to 4e-10 above mlpr's minimum on the
#: fixed cases, but up to 2.8e-7 on the seeded ones at lambda = 1e-3 (20 seeds: its gradient
#: reaches pgtol first on these ill-conditioned problems); the known mistakes of the objective sit
#: 0.04 and more above it. The optimality condition (`GRAD_TOL`) is checked as well.
RTOL_OBJECTIVE = 1e-5
#: Relative primal objective tolerance of the labs' linear SVM: a course-style L-BFGS-B on the dual
#: (``factr=1.0``) stops up to 2.8e-6 above the minimum over 60 seeded cases (10 times below); the
#: default ``factr=1e7`` stops 1.3e-4 and more above it.
RTOL_SVM_LINEAR = 3e-5
#: Largest gradient entry accepted at a student's LR point. The labs' own LR code (one
#: fmin_l_bfgs_b call with scipy's default factr = 1e7, which stops on the objective's relative
#: decrease, not on pgtol) leaves gradients up to 1.3e-4 on the kit's cases (800 cases of 200
#: seeds: median 3.8e-6, 99th percentile 4.8e-5): 7.5 times below.
GRAD_TOL = 1e-3
#: GMM log-densities after EM to convergence (the stopping rule leaves ~1e-8 differences).
RTOL_EM = 1e-6


def task(name: str, lab: int, topic: str, signature: str, *, function: str = "",
         files: tuple = (), points: float = 1.0, extra: bool = False):
    """Register the decorated function as the case builder of a task (built once, cached)."""

    def register(build):
        TASKS[name] = Task(name=name, lab=lab, topic=topic, cases=functools.cache(build),
                           points=points, signature=signature, files=files, function=function,
                           extra=extra)
        return build

    return register


# ------------------------------------------------------------------------------------------------
# shared data and forms


#: The run's seed (`set_seed`); None gives the catalogue's fixed cases.
_RUN: dict = {"seed": None}


def set_seed(seed: int | None) -> None:
    """Draw the cases of a grading run from ``seed``: the training samples of the iris splits
    are permuted and two of them left out, and the synthetic data (offset data, llrs with ties,
    scores, GMM data) are drawn anew, each keeping the property that makes its mistakes show.
    The kit's source is public: fixed inputs could be answered by a table. ``None`` restores the
    fixed cases. Every reference is recomputed on the new inputs."""
    if seed is not None and (not isinstance(seed, (int, np.integer)) or seed < 0):
        raise ValueError(f"seed must be a non-negative int or None, got {seed!r}")
    _RUN["seed"] = None if seed is None else int(seed)
    for value in list(globals().values()):
        if callable(getattr(value, "cache_clear", None)):
            value.cache_clear()
    for t in TASKS.values():
        t.cases.cache_clear()


def current_seed() -> int | None:
    """The seed the cases are drawn from now (`set_seed`); None for the fixed cases."""
    return _RUN["seed"]


def _sub(salt: int, fixed: int | None = None) -> int:
    """The seed of one synthetic data set: ``fixed`` (or ``salt``) for the fixed cases."""
    seed = _RUN["seed"]
    if seed is None:
        return salt if fixed is None else fixed
    return (seed * 1_000_003 + salt) % 2**31


def _rng(salt: int) -> np.random.Generator:
    return np.random.default_rng(_sub(salt))


def _shuffled(split, salt: int = 101, draw: int = 0):
    """A train / validation split with the training samples permuted and two left out, and the
    validation samples permuted (the fixed split when no seed is set); ``draw`` > 0 gives the
    next draws of the same run (`_fair_draws`)."""
    if _RUN["seed"] is None and draw == 0:
        return split
    (DTR, LTR), (DVAL, LVAL) = split
    rng = _rng(salt + 1000 * draw)
    keep = rng.permutation(DTR.shape[1])[:-2]
    order = rng.permutation(DVAL.shape[1])
    return (DTR[:, keep], LTR[keep]), (DVAL[:, order], LVAL[order])


@functools.cache
def _iris():
    return load_iris()


@functools.cache
def _split():
    return _shuffled(iris_split())


@functools.cache
def _binary():
    return _shuffled(binary_split())


@functools.cache
def _unequal():
    """Iris training data with classes of 33, 20 and 30 samples, and far from the origin."""
    (DTR, LTR), _ = _split()
    keep = np.concatenate([np.flatnonzero(LTR == 0), np.flatnonzero(LTR == 1)[:20],
                           np.flatnonzero(LTR == 2)[:30]])
    return DTR[:, keep] + 1e3, LTR[keep]


def _sizes(L) -> list:
    return sorted({int(n) for n in np.bincount(L)} | {L.size})


def _tuple(out, n: int, what: str):
    if not isinstance(out, (tuple, list)) or len(out) != n:
        length = f" of length {len(out)}" if hasattr(out, "__len__") else ""
        raise Fail(f"{what}: expected a tuple of {n} values, got {type(out).__name__}{length}")
    return out


def _hparams(out, K: int, D: int) -> np.ndarray:
    """The course's hParams ``{label: (mu, C)}`` as one (K, D + D*D) array."""
    if not isinstance(out, dict):
        raise Fail(f"expected hParams, a dict {{label: (mu, C)}}, got {type(out).__name__}")
    if not all(isinstance(k, (int, np.integer)) and not isinstance(k, bool) for k in out):
        shown = ", ".join(repr(k)[:30] for k in list(out)[:5])
        raise Fail(f"hParams has the keys {shown}: expected the labels {list(range(K))} (ints)",
                   hint="the course's hParams maps each class label, an int 0..K-1, to its "
                        "(mu, C): hParams[lab] = (mu, C), not keyed by class name")
    keys = sorted(int(k) for k in out)
    if keys != list(range(K)):
        raise Fail(f"hParams has the labels {keys}, expected {list(range(K))}")
    rows = []
    for k in range(K):
        mu, C = _tuple(out[k], 2, f"hParams[{k}]")
        mu = as_array(mu, f"the mean of class {k}")
        C = as_array(C, f"the covariance of class {k}")
        if mu.size != D or C.shape != (D, D):
            raise Fail(f"class {k}: mean of shape {mu.shape} and covariance of shape {C.shape}, "
                       f"expected ({D}, 1) and ({D}, {D})",
                       hint="computed along the wrong axis? the course's data are D x N")
        rows.append(np.concatenate([mu.reshape(-1), C.reshape(-1)]))
    return np.stack(rows)


def _model_rows(model) -> np.ndarray:
    K = model.n_classes
    return np.stack([np.concatenate([model.mu[:, k], model.covariance(k).reshape(-1)])
                     for k in range(K)])


def _gmm_array(out) -> np.ndarray:
    """A course GMM ``[(w, mu, C), ...]`` as one (M, 1 + D + D*D) array, in its order."""
    if isinstance(out, GMM):
        out = out.to_list()
    if not isinstance(out, (list, tuple)) or not out:
        raise Fail(f"expected a GMM, a list of (w, mu, C) tuples, got {type(out).__name__}")
    rows = []
    for c, comp in enumerate(out):
        w, mu, C = _tuple(comp, 3, f"component {c}")
        rows.append(np.concatenate([np.ravel(as_array(w)), np.ravel(as_array(mu)),
                                    np.ravel(as_array(C))]))
    if len({r.size for r in rows}) != 1:
        raise Fail("the components of the GMM have different sizes")
    return np.stack(rows)


def _gmm_rows(g: GMM) -> np.ndarray:
    return np.stack([np.concatenate([[g.w[c]], g.mu[:, c], g.C[c].ravel()])
                     for c in range(g.n_components)])


def _gmm_from_array(a: np.ndarray, D: int) -> GMM:
    return GMM(w=a[:, 0], mu=a[:, 1:1 + D].T, C=a[:, 1 + D:].reshape(-1, D, D))


def _course_cov(cov_type: str) -> str:
    return {"full": "Full", "diagonal": "Diagonal", "tied": "Tied"}[cov_type]


# ------------------------------------------------------------------------------------------------
# lab 2-3: loading, the split


def _pair_post(out):
    D, L = _tuple(out, 2, "the loader's result (D, L)")
    D, L = as_array(D, "D"), as_array(L, "L")
    if D.ndim != 2:
        raise Fail(f"D has shape {D.shape}, expected (4, N)")
    if D.shape[0] != 4 and D.shape[1] == 4:
        raise Fail(f"D has shape {D.shape}, expected (4, {D.shape[0]})",
                   hint="the course's data are D x N, one column per sample: return D.T")
    return np.vstack([D, L.reshape(1, -1)])


@task("load_iris", 2, "loading the iris data", "()", files=("iris.csv",))
def _load_iris():
    D, L = _iris()
    return [Case("iris, 4 x 150", (), np.vstack([D, L]), post=_pair_post, compare=exact(),
                 mistakes=[Mistake("labels", "the labels must be 0 setosa, 1 versicolor, "
                                             "2 virginica, in the file's order",
                                   lambda: np.vstack([D, L + 1]))])]


@task("load_iris_binary", 3, "the binary iris task", "()", files=("iris.csv",))
def _load_iris_binary():
    D, L = load_iris_binary()
    full, Lf = _iris()
    keep = Lf != 0
    return [Case("versicolor (1) against virginica (0), 4 x 100", (), np.vstack([D, L]),
                 post=_pair_post, compare=exact(),
                 mistakes=[Mistake("relabel", "virginica must become label 0 (the course drops "
                                              "setosa and sets L[L == 2] = 0)",
                                   lambda: np.vstack([full[:, keep], Lf[keep]]))])]


@task("split_db_2to1", 3, "the 2/3 - 1/3 split", "(D, L, seed=0)")
def _split_db():
    D, L = _iris()
    (DTR, LTR), (DVAL, LVAL) = split_db_2to1(D, L, seed=0)

    def post(out):
        tr, va = _tuple(out, 2, "the split ((DTR, LTR), (DVAL, LVAL))")
        DTRs, LTRs = _tuple(tr, 2, "(DTR, LTR)")
        DVALs, LVALs = _tuple(va, 2, "(DVAL, LVAL)")
        return np.hstack([np.vstack([as_array(DTRs), as_array(LTRs).reshape(1, -1)]),
                          np.vstack([as_array(DVALs), as_array(LVALs).reshape(1, -1)])])

    ref = np.hstack([np.vstack([DTR, LTR]), np.vstack([DVAL, LVAL])])
    return [Case("iris, seed 0", (D, L), ref, kwargs={"seed": 0}, post=post, compare=exact())]


# ------------------------------------------------------------------------------------------------
# lab 3: PCA, Sw / Sb, LDA


@task("compute_mu_C", 3, "mean and ML covariance", "(D)")
def _compute_mu_C():
    D, _ = _iris()
    X = offset_data(offset=1e4, seed=_sub(210, fixed=0))
    cases = []
    for what, data in (("iris, 4 x 150", D), ("data far from the origin, mean 1e4", X)):
        mu, C = compute_mu_C(data)
        ref = np.vstack([mu.T, C])
        one_pass = Mistake("one pass", "catastrophic cancellation: the covariance computed in one "
                           "pass, E[x x^T] - mu mu^T, subtracts two numbers of size mean^2 and "
                           "loses digits on data far from the origin; centre the data first, "
                           "C = (D - mu)(D - mu)^T / N (eq. 50, 59)",
                           lambda ref=ref: ref, _mean_and_cov(1e-4))
        N = data.shape[1]
        unbiased = Mistake("unbiased", f"the covariance is divided by N - 1 = {N - 1} instead of "
                                       f"N = {N}: the ML estimate is 1/N (eq. 50, 59); np.cov is "
                                       f"the unbiased 1/(N - 1) estimate",
                           lambda mu=mu, C=C, N=N: np.vstack([mu.T, C * N / (N - 1)]))
        cases.append(Case(what, (data,), ref,
                          post=lambda out, n=data.shape[0]: _mu_C_post(out, n),
                          compare=_mean_and_cov(RTOL_CLOSED_FORM), context={"N": [N]},
                          mistakes=[unbiased] + ([one_pass] if data is X else [])))
    return cases


def _mean_and_cov(rtol: float):
    """Compare a stacked ``[mu^T; C]`` block by block: the covariance at its own scale, not at the
    mean's (far from the origin the mean's size would hide the covariance's lost digits)."""
    block = closed_form(rtol)

    def compare(got, expected) -> Comparison:
        r = as_array(expected)
        s = as_array(got)
        if s.shape != r.shape:
            return block(s, r)
        worst = max((block(s[:1], r[:1]), block(s[1:], r[1:])), key=lambda c: c.err)
        return Comparison(worst.err <= rtol, worst.err, rtol, "relative error of mu or C")

    return compare


def _mu_C_post(out, n: int):
    mu, C = _tuple(out, 2, "(mu, C)")
    mu, C = as_array(mu, "mu"), as_array(C, "C")
    if mu.size != n:
        raise Fail(f"mu has shape {mu.shape}, expected ({n}, 1)",
                   hint="computed along the wrong axis: the course's data are D x N, one column "
                        "per sample, so mu = vcol(D.mean(1))")
    if C.shape != (n, n):
        raise Fail(f"C has shape {C.shape}, expected ({n}, {n})")
    return np.vstack([mu.reshape(1, -1), C])


@task("compute_pca", 3, "PCA directions", "(D, m)")
def _compute_pca():
    D, _ = _iris()
    X = offset_data(D=5, offset=10.0, seed=_sub(216, fixed=0))
    cases = []
    for what, data, m in (("iris, m = 2", D, 2), ("data far from the origin, m = 3", X, 3)):
        P = fit_pca(data, m).P
        mu, C = compute_mu_C(data)
        s, U = np.linalg.eigh(C)
        cases.append(Case(what, (data, m), P, compare=up_to_sign(1e-8), mistakes=[
            Mistake("ascending", "numpy.linalg.eigh returns the eigenvalues in ascending order: "
                                 "the principal directions are the eigenvectors of the m largest "
                                 "(U[:, ::-1][:, :m]; section 3.1, eq. 3)",
                    lambda U=U, m=m: U[:, :m]),
            Mistake("order", "the right directions in the wrong order: the first column belongs "
                             "to the largest eigenvalue (U[:, ::-1][:, :m])",
                    lambda U=U, m=m: U[:, -m:]),
            Mistake("uncentred", "PCA diagonalises the covariance of the centred data (eq. 1-3): "
                                 "subtract the mean before forming D D^T / N",
                    lambda data=data, m=m: _top_eigvecs(data @ data.T / data.shape[1], m)),
        ]))
    return cases


def _within(rtol: float):
    """The student's columns lie in the span of the mistake's columns (which may be more)."""

    def compare(got, expected) -> Comparison:
        s, r = as_array(got), as_array(expected)
        if s.ndim != 2 or s.shape[0] != r.shape[0]:
            return Comparison(False, math.inf, rtol)
        Q, _ = np.linalg.qr(r)
        res = np.linalg.norm(s - Q @ (Q.T @ s), axis=0) / np.maximum(np.linalg.norm(s, axis=0),
                                                                      1e-300)
        return Comparison(bool(res.max() <= rtol), float(res.max()), rtol)

    return compare


def _top_eigvecs(C, m):
    s, U = np.linalg.eigh(C)
    return U[:, ::-1][:, :m]


@task("apply_pca", 3, "PCA projection", "(P, D)")
def _apply_pca():
    D, _ = _iris()
    X = offset_data(D=4, offset=10.0, seed=_sub(216, fixed=0))
    P = fit_pca(D, 2).P
    mu = X.mean(axis=1, keepdims=True)
    return [Case("P of iris, data far from the origin", (P, X), P.T @ X, mistakes=[
        Mistake("centred", "the course's projection is uncentred, y = P^T x (section 3.1)",
                lambda: P.T @ (X - mu))])]


@task("compute_Sb_Sw", 3, "between- and within-class covariance", "(D, L)")
def _compute_Sb_Sw():
    cases = []
    for what, (D, L) in (("iris", _iris()), ("unequal classes far from the origin", _unequal())):
        Sw, Sb = compute_Sw_Sb(D, L)
        N = D.shape[1]
        mus = [D[:, L == k].mean(axis=1, keepdims=True) for k in range(3)]
        mu = D.mean(axis=1, keepdims=True)
        Sb_unweighted = sum((m - mu) @ (m - mu).T for m in mus) / 3

        def post(out):
            Sb_s, Sw_s = _tuple(out, 2, "(Sb, Sw)")
            return np.stack([as_array(Sb_s, "Sb"), as_array(Sw_s, "Sw")])

        cases.append(Case(what, (D, L), np.stack([Sb, Sw]), post=post, context={"N": [N]},
                          mistakes=[
            Mistake("order", "the course's compute_Sb_Sw returns (Sb, Sw), in that order",
                    lambda Sw=Sw, Sb=Sb: np.stack([Sw, Sb])),
            Mistake("weights", "Sb weights each class by its size: (1/N) sum_c n_c (mu_c - mu)"
                               "(mu_c - mu)^T (eq. 5)",
                    lambda Sw=Sw, Sbu=Sb_unweighted: np.stack([Sbu, Sw])),
            Mistake("scatter", "Sb and Sw are divided by N (eq. 5-6); the sums are the scatter "
                               "matrices",
                    lambda Sw=Sw, Sb=Sb, N=N: np.stack([Sb * N, Sw * N])),
        ]))
    return cases


def _lda_cases(method: str):
    D, L = _iris()
    Dx, Lx = _unequal()
    cases = []
    for what, data, labels, m in (("iris, m = 1", D, L, 1), ("iris, m = 2", D, L, 2),
                                  ("unequal classes far from the origin, m = 2", Dx, Lx, 2)):
        W = fit_lda(data, labels, m, method=method).W
        Sw, Sb = compute_Sw_Sb(data, labels)
        s, U = scipy.linalg.eigh(Sb, Sw)
        # the smallest eigenvalues repeat (Sb has rank K - 1): the wrong end of the spectrum is
        # any basis inside the span of the eigenvectors up to the m-th smallest eigenvalue
        k = int(np.sum(s <= s[m - 1] + 1e-9 * np.abs(s).max()))
        cases.append(Case(what, (data, labels, m), W, compare=same_subspace(1e-8), mistakes=[
            Mistake("ascending", "scipy.linalg.eigh returns the eigenvalues in ascending order: "
                                 "LDA keeps the eigenvectors of the m largest (U[:, ::-1][:, :m]; "
                                 "section 3.2, eq. 7)",
                    lambda U=U, k=k: U[:, :k], _within(1e-6)),
            Mistake("swapped", "the generalised eigenproblem is Sb w = lambda Sw w "
                               "(scipy.linalg.eigh(Sb, Sw); eq. 7): Sb and Sw are swapped",
                    lambda Sw=Sw, Sb=Sb, m=m: scipy.linalg.eigh(Sw, Sb)[1][:, ::-1][:, :m]),
        ]))
    return cases


@task("compute_lda_geig", 3, "LDA by the generalised eigenproblem", "(D, L, m)")
def _compute_lda_geig():
    return _lda_cases("geig")


@task("compute_lda_JointDiag", 3, "LDA by joint diagonalisation", "(D, L, m)")
def _compute_lda_joint():
    return _lda_cases("jointdiag")


@task("apply_lda", 3, "LDA projection", "(U, D)")
def _apply_lda():
    D, L = _iris()
    W = fit_lda(D, L, 2).W
    X = offset_data(D=4, offset=10.0, seed=_sub(216, fixed=0))
    return [Case("W of iris, data far from the origin", (W, X), W.T @ X)]


# ------------------------------------------------------------------------------------------------
# lab 4: Gaussian densities, K-means


@functools.cache
def _gau_inputs():
    (DTR, LTR), (DVAL, LVAL) = _split()
    mu, C = compute_mu_C(DTR)
    X = offset_data(D=3, N=40, offset=1e3, seed=_sub(221, fixed=0))
    mux, Cx = compute_mu_C(X)
    Cx = Cx + np.diag([0.0, 0.5, 2.0])
    return [("iris: ML Gaussian of the training set on the validation set", DVAL, mu, C),
            ("3-D data far from the origin", X, mux, Cx)]


def _logpdf_mistakes(X, mu, C):
    D = X.shape[0]
    P = np.linalg.inv(C)
    q = np.sum((X - mu) * (P @ (X - mu)), axis=0)
    logdet = np.linalg.slogdet(C)[1]
    return [
        Mistake("log10", "the log-density uses log10: the course uses the natural log np.log "
                         "(eq. 41)",
                lambda: -0.5 * D * np.log10(2 * np.pi) - 0.5 * logdet / np.log(10) - 0.5 * q),
        Mistake("2pi", "the constant -D/2 log(2 pi) of eq. 41 is missing",
                lambda: -0.5 * logdet - 0.5 * q),
        Mistake("C", "the quadratic form uses C instead of its inverse (the precision matrix, "
                     "eq. 41)",
                lambda: -0.5 * D * np.log(2 * np.pi) - 0.5 * logdet
                - 0.5 * np.sum((X - mu) * (C @ (X - mu)), axis=0)),
        Mistake("det", "the log-determinant term is -1/2 log|C| (eq. 41)",
                lambda: -0.5 * D * np.log(2 * np.pi) - logdet - 0.5 * q),
    ]


def _logpdf_cases():
    return [Case(what, (X, mu, C), logpdf_GAU_ND(X, mu, C), mistakes=_logpdf_mistakes(X, mu, C))
            for what, X, mu, C in _gau_inputs()]


@task("logpdf_GAU_ND", 4, "multivariate Gaussian log-density", "(X, mu, C)")
def _logpdf():
    return _logpdf_cases()


@task("logpdf_GAU_ND_fast", 4, "multivariate Gaussian log-density, vectorised", "(X, mu, C)")
def _logpdf_fast():
    return _logpdf_cases()


@task("logpdf_GAU_ND_slow", 4, "multivariate Gaussian log-density, one sample at a time",
      "(X, mu, C)")
def _logpdf_slow():
    return _logpdf_cases()


@task("logpdf_GAU_ND_singleSample", 4, "Gaussian log-density of one sample", "(x, mu, C)")
def _logpdf_single():
    cases = []
    for what, X, mu, C in _gau_inputs():
        x = X[:, :1]
        cases.append(Case(what + ", first sample", (x, mu, C), logpdf_GAU_ND(x, mu, C),
                          mistakes=_logpdf_mistakes(x, mu, C)))
    return cases


@task("compute_ll", 4, "Gaussian log-likelihood", "(X, mu, C)")
def _compute_ll():
    return [Case(what, (X, mu, C), loglikelihood(X, mu, C),
                 mistakes=[Mistake("mean", "the log-likelihood is the sum of the log-densities "
                                           "(eq. 46), not their mean",
                                   lambda X=X, mu=mu, C=C: logpdf_GAU_ND(X, mu, C).mean())])
            for what, X, mu, C in _gau_inputs()]


@task("k_means", 4, "K-means clustering", "(D, n, seed=0)")
def _k_means():
    # the course's lab on clustering asks for it: the published solutions (MLPR_Labs,
    # Lab4/clustering.py) define k_means(D, n, seed=0) returning (centroids D x n, labels),
    # computed with scipy.cluster.vq.kmeans2; any fixed point of Lloyd's iteration passes here
    rng = _rng(3)
    centres = np.array([[0.0, 0.0], [6.0, 0.0], [0.0, 6.0]]).T
    X = np.hstack([c[:, None] + rng.normal(size=(2, 40)) for c in centres.T])

    def post(out):
        cent, lab = _tuple(out, 2, "(centroids, labels)")
        cent, lab = as_array(cent, "centroids"), as_array(lab, "labels").reshape(-1)
        if cent.shape == (3, 2):
            cent = cent.T
        if cent.shape != (2, 3) or lab.size != X.shape[1]:
            raise Fail(f"centroids of shape {cent.shape} and {lab.size} labels, expected (2, 3) "
                       f"and {X.shape[1]}")
        return cent, lab.astype(int)

    def compare(got, expected):
        cent, lab = got
        d2 = ((X[:, :, None] - cent[:, None, :]) ** 2).sum(axis=0)
        nearest = np.argmin(d2, axis=1)
        wrong = int(np.sum(d2[np.arange(X.shape[1]), lab] > d2[np.arange(X.shape[1]),
                                                               nearest] + 1e-9))
        if wrong:
            return Comparison(False, float(wrong), 0.0,
                              "samples not assigned to their nearest centroid (eq. 197):")
        if len(set(lab)) != 3:
            raise Fail("some cluster is empty", hint="K-means keeps every cluster non-empty")
        means = np.stack([X[:, lab == k].mean(axis=1) for k in range(3)], axis=1)
        err = float(np.max(np.abs(means - cent)) / np.abs(X).max())
        return Comparison(err <= 1e-8, err, 1e-8,
                          "distance of the centroids from the means of their clusters:")

    return [Case("three separated 2-D blobs, 3 clusters (a fixed point of Lloyd's iteration)",
                 (X, 3), None, post=post, compare=compare)]


# ------------------------------------------------------------------------------------------------
# lab 5: Gaussian classifiers


def _estimates_cases(train, kind: str):
    cases = []
    (DTR, LTR), _ = _split()
    for what, (D, L) in (("iris training split", (DTR, LTR)),
                         ("unequal classes far from the origin", _unequal())):
        model = train(D, L)
        unbiased = train(D, L, unbiased=True)
        mistakes = [Mistake("unbiased", "the covariances are divided by N_c - 1: the ML estimate "
                                        "is 1/N_c (eq. 59; np.cov is unbiased, use bias=True)",
                            lambda u=unbiased: _model_rows(u))]
        if kind == "naive":
            full = train_mvg(D, L)
            mistakes.append(Mistake("full", "naive Bayes keeps only the diagonal of each class "
                                            "covariance (eq. 68): C * numpy.eye(D)",
                                    lambda f=full: _model_rows(f)))
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
        cases.append(Case(what, (D, L), _model_rows(model),
                          post=lambda out, K=K, Dd=Dd: _hparams(out, K, Dd),
                          context={"N": _sizes(L)}, mistakes=mistakes))
    return cases


@task("Gau_MVG_ML_estimates", 5, "MVG ML estimates", "(D, L)")
def _mvg():
    return _estimates_cases(train_mvg, "mvg")


@task("Gau_Naive_ML_estimates", 5, "naive Bayes ML estimates", "(D, L)")
def _naive():
    return _estimates_cases(train_naive_bayes, "naive")


@task("Gau_Tied_ML_estimates", 5, "tied covariance ML estimates", "(D, L)")
def _tied():
    return _estimates_cases(train_tied, "tied")


@functools.cache
def _class_scores():
    (DTR, LTR), (DVAL, LVAL) = _split()
    model = train_mvg(DTR, LTR)
    hParams = {k: (model.mu[:, [k]], model.covariance(k)) for k in range(3)}
    return hParams, model.scores(DVAL), DVAL, LVAL


@task("compute_log_likelihood_Gau", 5, "class log-likelihoods", "(D, hParams)")
def _class_ll():
    hParams, S, DVAL, _ = _class_scores()
    return [Case("iris validation set, MVG parameters", (DVAL, hParams), S, mistakes=[
        Mistake("exp", "the course's S holds log-likelihoods, not likelihoods",
                lambda: np.exp(S))])]


_PRIORS = np.array([0.2, 0.5, 0.3])


@task("compute_logPosterior", 5, "class log-posteriors", "(S_logLikelihood, v_prior)")
def _log_post():
    _, S, _, _ = _class_scores()
    ref = log_posteriors(S, _PRIORS)
    joint = S + np.log(_PRIORS)[:, None]
    return [Case("MVG log-likelihoods, priors (0.2, 0.5, 0.3)", (S, _PRIORS), ref, mistakes=[
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


@task("compute_posteriors", 7, "class posteriors", "(log_clas_conditional_ll, prior_array)")
def _post():
    _, S, _, _ = _class_scores()
    ref = np.exp(log_posteriors(S, _PRIORS))
    return [Case("MVG log-likelihoods, priors (0.2, 0.5, 0.3)", (S, _PRIORS), ref, mistakes=[
        Mistake("log", "compute_posteriors returns the posteriors themselves (exp of the "
                       "log-posteriors)", lambda: np.log(ref)),
        Mistake("prior", "the priors are missing from the posterior (eq. 64)",
                lambda: np.exp(log_posteriors(S, np.ones(3) / 3))),
    ])]


# ------------------------------------------------------------------------------------------------
# lab 7: Bayes decisions, DCF, minDCF


_COSTS = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.0], [2.0, 1.0, 0.0]])  # the notes, eq. 125


@task("compute_optimal_Bayes", 7, "Bayes decisions with a cost matrix",
      "(posterior, costMatrix)")
def _bayes():
    _, S, _, _ = _class_scores()
    logp = log_posteriors(S, _PRIORS)
    post = np.exp(logp)
    C = np.array([[0.0, 1.0, 4.0], [3.0, 0.0, 1.0], [2.0, 2.5, 0.0]])
    ref = bayes_decisions(logp, C)
    return [Case("posteriors of the MVG, an asymmetric cost matrix", (post, C), ref,
                 compare=exact(), mistakes=[
        Mistake("argmax", "the Bayes decision minimises the expected cost (argmin, eq. 124)",
                lambda: np.argmax(C @ post, axis=0)),
        Mistake("transposed", "costMatrix[i, j] is the cost of deciding i when the class is j: "
                              "the expected costs are costMatrix @ posterior (eq. 123)",
                lambda: np.argmin(C.T @ post, axis=0)),
    ])]


@task("uniform_cost_matrix", 7, "the 0-1 cost matrix", "(nClasses)")
def _uniform():
    return [Case("4 classes", (4,), np.ones((4, 4)) - np.eye(4), compare=exact())]


@task("compute_confusion_matrix", 7, "confusion matrix", "(predictedLabels, classLabels)")
def _confusion():
    rng = _rng(5)
    L = rng.integers(0, 3, 60)
    pred = np.where(rng.random(60) < 0.3, rng.integers(0, 3, 60), L)
    M = confusion_matrix(pred, L, 3)
    return [Case("3 classes, 60 samples", (pred, L), M, compare=exact(), mistakes=[
        Mistake("transposed", "the course's confusion matrix has the predictions on the rows "
                              "and the true classes on the columns, M[pred, true] (section 7.1)",
                lambda: M.T)])]


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


@task("compute_optimal_Bayes_binary_llr", 7, "binary Bayes decisions from llrs",
      "(llr, prior, Cfn, Cfp)")
def _bayes_binary():
    llr, L, apps = threshold_ties(seed=_sub(300, fixed=0))
    return [Case(f"integer llrs that hit the threshold, (pi, Cfn, Cfp) = ({p:.3g}, {cn:.3g}, "
                 f"{cp:.3g})", (llr, p, cn, cp), optimal_bayes_decisions(llr, p, cn, cp),
                 compare=exact(), mistakes=_threshold_mistakes(llr, p, cn, cp))
            for p, cn, cp in apps]


def _pred_cases():
    llr, L, apps = threshold_ties(seed=_sub(300, fixed=0))
    return [(optimal_bayes_decisions(llr, p, cn, cp), L, p, cn, cp) for p, cn, cp in apps]


@task("compute_empirical_Bayes_risk_binary", 7, "binary DCF of decisions",
      "(predictedLabels, classLabels, prior, Cfn, Cfp, normalize=True)")
def _risk_binary():
    cases = []
    for pred, L, p, cn, cp in _pred_cases():
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


@task("compute_empirical_Bayes_risk", 7, "empirical Bayes risk with a cost matrix",
      "(predictedLabels, classLabels, prior_array, costMatrix, normalize=True)")
def _risk():
    _, S, _, LVAL = _class_scores()
    pred = bayes_decisions(log_posteriors(S, _PRIORS), _COSTS)
    # the MVG makes almost no error on iris: 8 decisions moved to another class give the risk
    # something to count (a risk of 0 would let a function that returns 0 pass)
    rng = _rng(31)
    moved = rng.choice(pred.size, 8, replace=False)
    pred = pred.copy()
    pred[moved] = (pred[moved] + rng.integers(1, 3, 8)) % 3
    cases = []
    for normalize in (True, False):
        ref = empirical_bayes_risk(pred, LVAL, _PRIORS, _COSTS, normalize=normalize)
        u = empirical_bayes_risk(pred, LVAL, _PRIORS, _COSTS, normalize=False)
        cases.append(Case(f"MVG decisions on iris, 8 of them moved to another class, the notes' "
                          f"cost matrix, normalize={normalize}",
                          (pred, LVAL, _PRIORS, _COSTS), ref, kwargs={"normalize": normalize},
                          mistakes=[Mistake("unnormalised", "normalize=True divides by the risk "
                                            "of the best dummy system, min(C @ pi) (eq. 135-137)",
                                            lambda u=u: u)]))
    return cases


@task("compute_empirical_Bayes_risk_binary_llr_optimal_decisions", 7,
      "actDCF (Bayes decisions from llrs, then their DCF)",
      "(llr, classLabels, prior, Cfn, Cfp, normalize=True)")
def _act():
    llr, L, apps = threshold_ties(seed=_sub(300, fixed=0))
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


@task("compute_actDCF_binary_fast", 7, "actDCF (the course's alias of the one above)",
      "(llr, classLabels, prior, Cfn, Cfp, normalize=True)")
def _act_alias():
    return _act()


@task("bayesPlot", 7, "Bayes error plot: actDCF and minDCF against the prior log-odds",
      "(S, L, left=-3, right=3, npts=21)")
def _bayes_plot():
    llr, L, _ = threshold_ties(seed=_sub(300, fixed=0))
    x = np.linspace(-3, 3, 21)
    _, act, mini = bayes_error_curve(llr, L, x)
    ge = [dcf((llr >= -t).astype(int), L, 1 / (1 + np.exp(-t))) for t in x]

    def post(out):
        xs, a, m = _tuple(out, 3, "(effPriorLogOdds, actDCF, minDCF)")
        return np.vstack([as_array(xs).reshape(-1), as_array(a).reshape(-1),
                          as_array(m).reshape(-1)])

    return [Case("integer llrs (the prior log-odds -3, 0 and 3 put thresholds on them)", (llr, L),
                 np.vstack([x, act, mini]), post=post, mistakes=[
        Mistake(">=", "at each prior the Bayes decision is llr > -log(pi / (1 - pi)), strictly "
                      "(eq. 128-130)", lambda: np.vstack([x, ge, mini]))])]


def _rates_cases():
    llr, L, _ = threshold_ties(seed=_sub(300, fixed=0))
    rng = _rng(8)
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


@task("compute_Pfn_Pfp_allThresholds_fast", 7, "Pfn and Pfp over all thresholds, sorted scores",
      "(llr, classLabels)")
def _rates_fast():
    return _rates_cases()


@task("compute_Pfn_Pfp_allThresholds_slow", 7, "Pfn and Pfp over all thresholds, one by one",
      "(llr, classLabels)")
def _rates_slow():
    return _rates_cases()


def _sweep_without(s, lab, p, cn, cp, end: str) -> float:
    """The minimum of the normalised DCF over the thresholds -inf, every score, +inf, without the
    first (``end="first"``) or the last one."""
    th = np.concatenate([[-np.inf], np.sort(s), [np.inf]])
    th = th[1:] if end == "first" else th[:-1]
    return min(dcf((s > t).astype(int), lab, p, cn, cp) for t in th)


def _threshold_post(s, lab, p, cn, cp):
    """(minDCF, threshold) -> [minDCF, DCF of s > threshold, DCF of s >= threshold]."""
    def post(out):
        v, th = _tuple(out, 2, "(minDCF, threshold) with returnThreshold=True")
        v = float(np.ravel(as_array(v))[0])
        t = float(np.ravel(as_array(th))[0])
        return np.array([v, dcf((s > t).astype(int), lab, p, cn, cp),
                         dcf((s >= t).astype(int), lab, p, cn, cp)])
    return post


def _threshold_compare(got, expected) -> Comparison:
    """The minDCF and the DCF at the returned threshold under the course's rule ``llr > t``."""
    return closed_form()(as_array(got)[:2], as_array(expected)[:2])


def _min_dcf_cases():
    llr, L, apps = threshold_ties(seed=_sub(300, fixed=0))
    rng = _rng(9)
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


@task("compute_minDCF_binary_fast", 7, "minDCF, sorted scores",
      "(llr, classLabels, prior, Cfn, Cfp, returnThreshold=False)")
def _min_fast():
    return _min_dcf_cases()


@task("compute_minDCF_binary_slow", 7, "minDCF, every threshold",
      "(llr, classLabels, prior, Cfn, Cfp, returnThreshold=False)")
def _min_slow():
    return _min_dcf_cases()


# ------------------------------------------------------------------------------------------------
# lab 8: logistic regression


def _wb_post(D: int, vector: bool = False):
    """The course's ``(w, b)`` as one vector ``[w, b]``; with ``vector``, the vector itself is
    accepted too (the logistic regression's L-BFGS-B optimises over v = [w, b], and a student may
    return it as it comes)."""
    def post(out):
        if vector and isinstance(out, np.ndarray) and out.ndim == 1 and out.size == D + 1:
            return as_array(out, "[w, b]")
        w, b = _tuple(out, 2, "(w, b)")
        w = as_array(w, "w").reshape(-1)
        b = as_array(b, "b").reshape(-1)
        if w.size != D or b.size != 1:
            raise Fail(f"w has {w.size} entries and b {b.size}, expected {D} and 1")
        return np.concatenate([w, b])
    return post


def objective(f, opt: float, rtol: float = RTOL_OBJECTIVE, grad_tol: float | None = None):
    r"""Compare an optimiser's point by its objective: ``(f(v) - f*) / |f*| <= rtol``.

    ``f(v)`` returns the objective, or ``(objective, gradient)``; ``opt`` is mlpr's minimum. The
    measured error is the relative excess of the student's objective (a point below mlpr's
    minimum passes). With ``grad_tol``, the optimality condition at the student's point is
    checked too: the largest gradient entry at most ``grad_tol``.
    """

    def compare(got, expected) -> Comparison:
        v = as_array(got)
        out = f(v)
        val = float(out[0] if isinstance(out, tuple) else out)
        if not np.isfinite(val):
            raise Fail("the objective at the student's point is not finite")
        err = max(0.0, (val - opt) / max(abs(opt), 1e-300))
        if err > rtol:
            return Comparison(False, err, rtol, "objective above the minimum, relative:")
        if grad_tol is not None and isinstance(out, tuple):
            g = float(np.abs(out[1]).max())
            if g > grad_tol:
                return Comparison(False, g, grad_tol, "gradient at the student's point (the "
                                  "optimality condition), largest entry:")
        return Comparison(True, err, rtol, "objective above the minimum, relative:")

    return compare


def _near(rtol: float):
    """Parameters or scores close to a mistake's answer (an optimiser's point, not a formula)."""

    def compare(got, expected) -> Comparison:
        s, r = as_array(got).reshape(-1), as_array(expected).reshape(-1)
        if s.size != r.size:
            return Comparison(False, math.inf, rtol)
        err = float(np.max(np.abs(s - r)) / max(np.abs(r).max(), 1e-300))
        return Comparison(err <= rtol, err, rtol)

    return compare


#: The band of an optimiser that stopped early: the student's objective is above the tolerance
#: but within this relative distance of the minimum (a nearly solved problem). The course-style
#: solutions with scipy's default factr = 1e7 stop 1e-4 to 1e-2 above it on the kit's cases, a
#: hundred times inside the band; a wrong objective whose minimiser the catalogue knows is named
#: before this hint is tried, and the hint says what it measured, not which it was.
NEAR_OPTIMUM = 1.0
#: Below this relative gap an early stop is the likely cause (the default factr's range); above
#: it, a different objective is as likely, and the hint says both.
LIKELY_EARLY = 1e-2


#: What ends an SVM dual's L-BFGS-B too soon, as the labs' SVM code calls it
SVM_STOP = ("the labs' SVM calls scipy.optimize.fmin_l_bfgs_b(..., factr=1.0); the default "
            "factr=1e7 stops too soon")
#: What ends a logistic regression's L-BFGS-B too soon (the labs' own LR code keeps the default
#: factr, which meets the kit's tolerance on its cases)
LR_STOP = ("stop L-BFGS-B later: scipy.optimize.fmin_l_bfgs_b with the default factr=1e7 and "
           "pgtol=1e-5 meets the tolerance here, a larger factr or pgtol, a maxiter or an "
           "approximate gradient may not")


def _early_stop(f, opt: float, rtol: float = RTOL_OBJECTIVE, objective_eq: str = "",
                advice: str = LR_STOP) -> Mistake:
    """The point is nearly optimal but above the tolerance, or its objective is within the
    tolerance while the gradient is not: the hint states the measured gap and gradient and the
    causes that fit them (L-BFGS-B stopped early; a different objective)."""

    def measure(got) -> tuple:
        out = f(as_array(got))
        val = float(out[0] if isinstance(out, tuple) else out)
        grad = float(np.abs(out[1]).max()) if isinstance(out, tuple) else None
        return (val - opt) / max(abs(opt), 1e-300), grad

    def matches(got, expected=None) -> Comparison:
        gap, grad = measure(got)
        near = gap <= NEAR_OPTIMUM if gap > rtol else (grad is not None and grad > GRAD_TOL)
        return Comparison(bool(near), gap, NEAR_OPTIMUM)

    def hint(got) -> str:
        gap, grad = measure(got)
        at = f"; the largest gradient entry at your point is {grad:.2g}" if grad is not None \
            else ""
        measured = f"your objective is {gap:.2g} (relative) above the minimum{at}"
        early = f"the optimiser stopped early ({advice})"
        other = f"an objective that differs from {objective_eq or 'the notes'}"
        if gap <= rtol:
            return f"{measured}: the point is not stationary: {early}"
        if gap <= LIKELY_EARLY:
            return f"{measured}: most likely {early}; else {other}"
        return f"{measured}: either {early}, or {other} (its minimiser is elsewhere)"

    return Mistake("factr", hint, lambda: None, matches)


def _logreg_cases(weighted: bool):
    (DTR, LTR), _ = _binary()
    cases = []
    settings = [(1e-3, 0.8), (0.1, 0.2)] if weighted else [(1e-3, None), (0.1, None)]
    for l, pT in settings:
        f = logreg_obj_wrap(DTR, LTR, l, prior=pT)
        model = train_logreg_binary(DTR, LTR, l, prior=pT)
        opt = f(np.concatenate([model.w, [model.b]]))[0]
        args = (DTR, LTR, l) + ((pT,) if weighted else ())
        mistakes = [
            Mistake("lambda", "the regulariser is lambda/2 ||w||^2 (eq. 100): this point "
                                  "minimises lambda ||w||^2",
                        lambda l=l, pT=pT: _w_and_b(train_logreg_binary(DTR, LTR, 2 * l, prior=pT)),
                        _near(1e-4)),
            Mistake("sum", "the loss term is the mean over the samples, (1/n) sum_i (eq. 100)"
                               ": this point minimises the sum",
                        lambda l=l: _w_and_b(train_logreg_binary(DTR, LTR, l / DTR.shape[1])),
                        _near(1e-4)),
        ]
        if weighted:
            mistakes += [
                Mistake("swapped", "pi_T weighs the class-1 (target) samples, "
                                       "pi_T / n_T, and 1 - pi_T the others (eq. 101)",
                            lambda l=l, pT=pT: _w_and_b(train_logreg_binary(DTR, LTR, l, 1 - pT)),
                            _near(1e-4)),
                Mistake("1/N", "each class's loss is averaged over its own samples: pi_T / n_T "
                               "and (1 - pi_T) / n_F (eq. 101), not pi_T / N and (1 - pi_T) / N",
                        lambda: None, _one_over_N(DTR, LTR, l, pT)),
                Mistake("unweighted", "the prior-weighted objective weighs class 1 by "
                                          "pi_T / n_T and class 0 by (1 - pi_T) / n_F (eq. 101); "
                                          "this point minimises the unweighted eq. 100",
                            lambda l=l: _w_and_b(train_logreg_binary(DTR, LTR, l)), _near(1e-4)),
            ]
        mistakes.append(_early_stop(f, opt, objective_eq="eq. 101" if weighted else "eq. 100"))
        what = f"binary iris, lambda = {l:g}" + (f", pi_T = {pT:g}" if weighted else "")
        cases.append(Case(what, args, None, post=_wb_post(DTR.shape[0], vector=True),
                          compare=objective(f, opt, grad_tol=GRAD_TOL), mistakes=mistakes))
    return cases


def _one_over_N(D, L, l, pT):
    """Whether a point minimises lambda/2 ||w||^2 + (1/N) [pi_T sum_T loss + (1 - pi_T) sum_F
    loss], compared by that objective: it is N / m times eq. 101's with prior p = pi_T n_T / m
    and lambda' = N lambda / m, m = pi_T n_T + (1 - pi_T) n_F, so both have one minimiser."""
    nT, nF = int(np.sum(L == 1)), int(np.sum(L == 0))
    m = pT * nT + (1 - pT) * nF
    l1, p1 = l * L.size / m, pT * nT / m
    f = logreg_obj_wrap(D, L, l1, prior=p1)
    return objective(f, float(f(_w_and_b(train_logreg_binary(D, L, l1, prior=p1)))[0]))


def _w_and_b(model) -> np.ndarray:
    """An LR or linear SVM model's parameters as one vector ``[w, b]``."""
    return np.concatenate([model.w, [model.b]])


@task("trainLogRegBinary", 8, "logistic regression (eq. 100)", "(DTR, LTR, l)")
def _lr():
    return _logreg_cases(False)


@task("trainWeightedLogRegBinary", 8, "prior-weighted logistic regression (eq. 101)",
      "(DTR, LTR, l, pT)")
def _wlr():
    return _logreg_cases(True)


@task("logreg_llr", 8, "the LR llr: scores minus the training prior log-odds (eq. 102)",
      "(scores, pT)", extra=True)
def _lr_llr():
    rng = _rng(2)
    s = rng.normal(size=50) * 2
    cases = []
    for pT in (0.8, 0.1):
        lo = np.log(pT / (1 - pT))
        cases.append(Case(f"50 scores, training prior pi_T = {pT:g}", (s, pT), s - lo,
                          context={"prior": pT}, mistakes=[
            Mistake("missing", "the LR scores are posterior log-odds under the training prior: "
                               "the llr subtracts log(pi_T / (1 - pi_T)) (eq. 102)",
                    lambda: s),
            Mistake("sign", "the llr subtracts the prior log-odds, s - log(pi_T / (1 - pi_T)) "
                            "(eq. 102); it was added", lambda lo=lo: s + lo),
            Mistake("log10", "the prior log-odds use log10: the scores are natural logs "
                             "(eq. 102)", lambda pT=pT: s - np.log10(pT / (1 - pT))),
        ]))
    return cases


# ------------------------------------------------------------------------------------------------
# lab 9: SVM


#: A drawn SVM case is kept only when the labs' own algorithm reaches this fraction of the
#: task's tolerance on it (`_fair_draws`): a margin for a student's other arithmetic (another
#: order of the products in H changes where L-BFGS-B stops).
FAIR_MARGIN = 0.1
#: Draws tried before the kit gives up (and says so, as its own failure).
MAX_DRAWS = 30


def _labs_dual(H: np.ndarray, C: float) -> np.ndarray:
    """The labs' SVM solver, as the course's solution writes it: one
    ``scipy.optimize.fmin_l_bfgs_b`` call on the dual (eq. 167 with the bias as a constant
    feature), from alpha = 0, bounds [0, C], ``factr=1.0``, no restart."""

    def fOpt(alpha):
        Ha = H @ alpha
        return 0.5 * alpha @ Ha - alpha.sum(), Ha - 1.0

    alpha, _, _ = scipy.optimize.fmin_l_bfgs_b(fOpt, np.zeros(H.shape[0]),
                                               bounds=[(0.0, C)] * H.shape[0], factr=1.0)
    return alpha


def _fair_draws(build):
    """The first of the run's draws of the binary split on which the labs' own algorithm passes:
    ``build(split)`` returns the case and the relative gap of the labs' solver on it; a draw
    whose gap is above ``FAIR_MARGIN`` times the tolerance is replaced by the next one
    (deterministic from the seed). A correct course-style solution then never fails because the
    course's own method stops short on the drawn data."""
    for draw in range(MAX_DRAWS):
        split = _binary() if draw == 0 else _shuffled(binary_split(), draw=draw)
        case, gap, tol = build(split)
        if gap <= FAIR_MARGIN * tol:
            return case
    raise KitError(f"no draw of {MAX_DRAWS} on which the labs' SVM solver reaches the tolerance")


def _svm_linear_objective(D, L, C, K):
    z = 2.0 * L - 1.0

    def f(v):
        w, b = v[:-1], v[-1]
        return 0.5 * (w @ w + (b / K) ** 2) + C * np.maximum(0.0, 1 - z * (w @ D + b)).sum()

    return f


@task("train_dual_SVM_linear", 9, "linear SVM, the labs' dual (constant feature K)",
      "(DTR, LTR, C, K=1)")
def _svm_linear():
    return [_fair_draws(lambda split, C=C, K=K: _svm_linear_case(split, C, K))
            for C, K in ((0.1, 1.0), (1.0, 10.0))]


def _svm_linear_case(split, C: float, K: float) -> tuple:
    """The case on this split, the relative gap of the labs' own solver on it, the tolerance."""
    (DTR, LTR), _ = split
    m = train_svm_linear(DTR, LTR, C, K)
    f = _svm_linear_objective(DTR, LTR, C, K)
    opt = f(np.concatenate([m.w, [m.b]]))
    free = train_svm_linear(DTR, LTR, C, None)
    case = Case(f"binary iris, C = {C:g}, K = {K:g}", (DTR, LTR, C, K), None,
                post=_wb_post(DTR.shape[0]), compare=objective(f, opt, RTOL_SVM_LINEAR),
                mistakes=[
        Mistake("K", "the labs' SVM appends the constant K to every sample and returns "
                     "b = K * w_hat[-1] (its bias is regularised, eq. 165 on the extended "
                     "data): this is the notes' free-bias SVM",
                lambda f=free: _w_and_b(f), _near(1e-3)),
        Mistake("bK", "b = K * w_hat[-1]: the weight of the constant feature times K",
                lambda m=m, K=K: np.concatenate([m.w, [m.b / K]]), _near(1e-3)),
        _early_stop(f, opt, RTOL_SVM_LINEAR, "the labs' SVM (eq. 165 on the extended data)",
                    SVM_STOP),
    ])
    z = 2.0 * LTR - 1.0
    X = np.vstack([DTR, np.full((1, DTR.shape[1]), K)])
    w_hat = X @ (_labs_dual((X.T @ X) * np.outer(z, z), C) * z)
    labs = f(np.concatenate([w_hat[:-1], [w_hat[-1] * K]]))
    return case, (labs - opt) / abs(opt), RTOL_SVM_LINEAR


def _kernel_post(X, Y):
    def post(out):
        if not callable(out):
            raise Fail(f"expected a kernel function k(D1, D2), got {type(out).__name__}")
        return out(X.copy(), Y.copy())
    return post


@task("polyKernel", 9, "polynomial kernel (eq. 179)", "(degree, c)")
def _poly():
    (DTR, _), (DVAL, _) = _split()
    cases = []
    for d, c in ((2, 1.0), (3, 0.5)):
        k = poly_kernel(d, c)
        cases.append(Case(f"degree {d}, c = {c:g}, iris", (d, c), k(DTR, DVAL),
                          post=_kernel_post(DTR, DVAL)))
    return cases


@task("rbfKernel", 9, "RBF kernel (eq. 180)", "(gamma)")
def _rbf():
    (DTR, _), (DVAL, _) = _split()
    cases = []
    for g in (1.0, 0.1):
        k = rbf_kernel(g)
        d2 = ((DTR[:, :, None] - DVAL[:, None, :]) ** 2).sum(axis=0)
        cases.append(Case(f"gamma = {g:g}, iris", (g,), k(DTR, DVAL),
                          post=_kernel_post(DTR, DVAL), mistakes=[
            Mistake("squared", "the RBF kernel uses the squared distance, exp(-gamma "
                               "||x1 - x2||^2) (eq. 180)",
                    lambda g=g, d2=d2: np.exp(-g * np.sqrt(np.maximum(d2, 0))))]))
    return cases


def _course_kernel(k):
    """The kernel as a course-style plain function ``k(D1, D2)``."""
    def kernel(D1, D2):
        return k(D1, D2)
    return kernel


@task("train_dual_SVM_kernel", 9, "kernel SVM, the labs' dual (eps in the kernel)",
      "(DTR, LTR, C, kernelFunc, eps=1.0)")
def _svm_kernel():
    # tolerances: a course-style L-BFGS-B with factr=1.0 stops 1e-6 (RBF) and 1.1e-5 (poly)
    # above the minimum of the primal computed from its scores on the fixed cases, up to 3.6e-6
    # and 5.6e-5 on seeded ones (60 seeds): 14 and 18 times below the tolerances; with the
    # default factr=1e7, 1.8e-5 and 34
    return [_fair_draws(lambda split, a=a: _svm_kernel_case(split, *a)) for a in (
        ("RBF gamma = 1, C = 1, eps = 1", rbf_kernel(1.0), 1.0, 1.0, 5e-5),
        ("polynomial d = 2, c = 1, C = 1, eps = 0.5", poly_kernel(2, 1.0), 1.0, 0.5, 1e-3))]


def _svm_kernel_case(split, what: str, k, C: float, eps: float, rtol: float) -> tuple:
    """The case on this split, the relative gap of the labs' own solver on it, the tolerance."""
    (DTR, LTR), (DVAL, _) = split
    z = 2.0 * LTR - 1.0
    m = train_svm_kernel(DTR, LTR, C, k, eps=eps)
    Keps = k(DTR, DTR) + eps
    Kpinv = np.linalg.pinv(Keps, rcond=1e-12, hermitian=True)

    def f(v, Kpinv=Kpinv, C=C):
        s = v[:DTR.shape[1]]
        return 0.5 * s @ Kpinv @ s + C * np.maximum(0.0, 1 - z * s).sum()

    s_ref = m.scores(DTR)
    opt = f(s_ref)
    m0 = train_svm_kernel(DTR, LTR, C, k, eps=0.0)
    az = m.alpha * m.z
    az0 = m0.alpha * m0.z

    def post(out, n=DTR.shape[1]):
        if not callable(out):
            if isinstance(out, (tuple, list)) and out and callable(out[0]):
                out = out[0]
            else:
                raise Fail(f"expected a scoring function fScore(DTE), got "
                           f"{type(out).__name__}")
        s_tr = as_array(out(DTR.copy()), "the training scores").reshape(-1)
        s_va = as_array(out(DVAL.copy()), "the validation scores").reshape(-1)
        if s_tr.size != n:
            raise Fail(f"the scoring function returned {s_tr.size} scores for {n} samples")
        return np.concatenate([s_tr, s_va])

    case = Case(
        f"binary iris, {what}", (DTR, LTR, C, _course_kernel(k)), None,
        kwargs={"eps": eps}, post=post, compare=objective(f, opt, rtol),
        mistakes=[
            Mistake("eps-both", "eps is missing from the kernel: the labs' dual uses "
                                    "k(x_i, x_j) + eps in H and in the scores (eq. 173-174, "
                                    "the bias as a constant feature)",
                        lambda m0=m0: np.concatenate([m0.scores(DTR), m0.scores(DVAL)]),
                        _near(1e-3)),
            Mistake("eps-score", "eps is in the training kernel but missing from the "
                                     "scores: s(x) = sum_i alpha_i z_i (k(x_i, x) + eps)",
                        lambda m=m, az=az, eps=eps: np.concatenate(
                            [m.scores(DTR), m.scores(DVAL)]) - eps * az.sum(),
                        _near(1e-3)),
            Mistake("eps-train", "eps is in the scores but missing from the training "
                                     "kernel (H_ij = z_i z_j (k(x_i, x_j) + eps))",
                        lambda m0=m0, az0=az0, eps=eps: np.concatenate(
                            [m0.scores(DTR), m0.scores(DVAL)]) + eps * az0.sum(),
                        _near(1e-3)),
            _early_stop(lambda v, f=f: f(v), opt, rtol, "the labs' kernel SVM (eq. 173-174)",
                        SVM_STOP),
        ])
    labs = f((_labs_dual(Keps * np.outer(z, z), C) * z) @ Keps)
    return case, (labs - opt) / abs(opt), rtol


# ------------------------------------------------------------------------------------------------
# lab 10: GMM


@functools.cache
def _gmm_data():
    """3-D data with one direction of variance 2e-3 (below the floor psi = 0.01), and a starting
    GMM of two components; an isotropic one for the LBG split."""
    rng = _rng(4)
    A = rng.normal(size=(3, 300)) * np.array([[1.0], [0.5], [0.045]])
    X = np.hstack([A[:, :180], A[:, 180:] + np.array([[3.0], [1.0], [0.0]])]) + 10.0
    mu, C = compute_mu_C(X)
    g = GMM(w=np.array([0.4, 0.6]), mu=np.hstack([mu - [[1.0], [0.2], [0.0]],
                                                  mu + [[1.0], [0.2], [0.0]]]),
            C=np.stack([C, C * 1.3]))
    return X, g


@task("logpdf_GMM", 10, "GMM log-density (eq. 185)", "(X, gmm)")
def _logpdf_gmm():
    X, g = _gmm_data()
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


@task("smooth_covariance_matrix", 10, "eigenvalue floor of a covariance (9.4)", "(C, psi)")
def _smooth():
    X, g = _gmm_data()
    C = compute_mu_C(X)[1]
    return [Case("a covariance with an eigenvalue 2e-3, psi = 0.01", (C, 0.01),
                 floor_covariance(C, 0.01), mistakes=[
        Mistake("diagonal", "the floor applies to the eigenvalues, U diag(max(s, psi)) U^T, "
                            "not to the diagonal entries",
                lambda: C + np.diag(np.maximum(np.diag(C), 0.01) - np.diag(C)))])]


def _em_cases():
    X, g = _gmm_data()
    cases = []
    for cov, psi in (("full", None), ("full", 0.01), ("diagonal", 0.01), ("tied", 0.01)):
        ref = em_step(X, g, cov, psi=psi)
        mistakes = []
        if psi is not None:
            mistakes.append(Mistake("floor", "the eigenvalue floor psiEig is missing from the "
                                             "M-step: each new covariance is smoothed after it is "
                                             "estimated (9.4)",
                                    lambda cov=cov: _gmm_rows(em_step(X, g, cov, psi=None))))
        cases.append(Case(f"two components, covType '{_course_cov(cov)}', psiEig = {psi}",
                          (X, g.to_list()), _gmm_rows(ref),
                          kwargs={"covType": _course_cov(cov), "psiEig": psi},
                          post=_gmm_array, mistakes=mistakes))
    return cases


@task("train_GMM_EM_Iteration", 10, "one EM iteration (eq. 191, 199-201)",
      "(X, gmm, covType='Full', psiEig=None)")
def _em_iter():
    return _em_cases()


@task("train_GMM_EM", 10, "EM to convergence (9.3)",
      "(X, gmm, covType='Full', psiEig=None, epsLLAverage=1e-6, verbose=True)")
def _em_full():
    X, g = _gmm_data()
    cases = []
    for cov, psi in (("full", 0.01), ("diagonal", 0.01)):
        ref, _ = train_gmm_em(X, g, cov, psi=psi, tol=1e-6)
        nofloor = None
        if cov == "full":
            nofloor = train_gmm_em(X, g, cov, psi=None, tol=1e-6)[0]
        post = _gmm_logpdf_post(X)
        mistakes = []
        if nofloor is not None:
            mistakes.append(Mistake("floor", "the eigenvalue floor psiEig is missing from "
                                                 "the M-step (9.4)",
                                        lambda n=nofloor: logpdf_GMM(X, n), _near(1e-5)))
        cases.append(Case(f"two components, covType '{_course_cov(cov)}', psiEig = {psi}",
                          (X, g.to_list()), logpdf_GMM(X, ref),
                          kwargs={"covType": _course_cov(cov), "psiEig": psi,
                                  "epsLLAverage": 1e-6}, quiet={"verbose": False},
                          post=post, compare=closed_form(RTOL_EM), mistakes=mistakes))
    return cases


def _gmm_logpdf_post(X):
    def post(out):
        a = _gmm_array(out)
        D = X.shape[0]
        try:
            g = _gmm_from_array(a, D)
        except ValueError as exc:
            raise Fail(f"the result is not a valid GMM: {exc}") from None
        return logpdf_GMM(X, g)
    return post


@functools.cache
def _split_gmm_input():
    X, g = _gmm_data()
    iso = 0.01 * np.eye(3)
    g2 = GMM(w=np.array([0.3, 0.7]), mu=g.mu, C=np.stack([g.C[1], iso]))
    return g2


@task("split_GMM_LBG", 10, "the LBG split (9.4)", "(gmm, alpha=0.1, verbose=True)")
def _split_gmm_task():
    g = _split_gmm_input()
    ref = split_gmm(g, 0.1)
    s, U = np.linalg.eigh(g.C[0])
    d_nosqrt = U[:, -1] * s[-1] * 0.1

    def post(out):
        a = _gmm_array(out)
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
                 "eigenvector)", (g.to_list(),), _gmm_rows(ref), kwargs={"alpha": 0.1},
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


@task("train_GMM_LBG_EM", 10, "LBG + EM training (9.4)",
      "(X, numComponents, covType='Full', psiEig=None, epsLLAverage=1e-6, lbgAlpha=0.1, "
      "verbose=True)")
def _lbg():
    X, _ = _gmm_data()
    cases = []
    for n, cov in ((4, "full"), (2, "tied")):
        ref = train_gmm_lbg(X, n, cov, psi=0.01, tol=1e-6, alpha=0.1)[-1]
        cases.append(Case(f"{n} components, covType '{_course_cov(cov)}', psiEig = 0.01",
                          (X, n), logpdf_GMM(X, ref),
                          kwargs={"covType": _course_cov(cov), "psiEig": 0.01,
                                  "epsLLAverage": 1e-6, "lbgAlpha": 0.1},
                          quiet={"verbose": False},
                          post=_gmm_logpdf_post(X), compare=closed_form(RTOL_EM)))
    return cases


# ------------------------------------------------------------------------------------------------
# lab 11: K-fold, calibration and fusion


@task("extract_train_val_folds_from_ary", 11, "the labs' K-fold split of score arrays (K = 5)",
      "(X, idx)")
def _folds():
    X = np.arange(23, dtype=float) * 1.5
    cases = []
    for idx in (0, 3):
        val = X[idx::5]
        train = np.hstack([X[j::5] for j in range(5) if j != idx])

        def post(out):
            tr, va = _tuple(out, 2, "(train, val)")
            return np.concatenate([as_array(tr).reshape(-1), as_array(va).reshape(-1)])

        cases.append(Case(f"23 values, fold {idx} of 5", (X, idx), np.concatenate([train, val]),
                          post=post, compare=exact()))
    return cases


@functools.cache
def _scores_for_calibration():
    rng = _rng(11)
    L = (rng.random(600) < 0.3).astype(int)
    s1 = 2.5 * (rng.normal(size=600) + 1.3 * L) - 1.0
    s2 = 0.8 * (rng.normal(size=600) + 1.0 * L) + 0.5
    return np.vstack([s1, s2]), L


def _calibration_cases(fused: bool):
    S, L = _scores_for_calibration()
    X = S if fused else S[:1]
    cases = []
    for pT in (0.2, 0.5):
        f = logreg_obj_wrap(X, L, 0.0, prior=pT)
        opt = f(_w_and_b(train_logreg_binary(X, L, 0.0, prior=pT)))[0]
        what = ("two systems' scores, fusion" if fused else "one system's scores") + \
            f", lambda = 0, pi_T = {pT:g}"
        mistakes = [
            Mistake("1/N", "each class's loss is averaged over its own samples: pi_T / n_T and "
                           "(1 - pi_T) / n_F (eq. 101), not pi_T / N and (1 - pi_T) / N",
                    lambda: None, _one_over_N(X, L, 0.0, pT)),
            Mistake("swapped", "pi_T weighs the class-1 (target) samples, pi_T / n_T, and "
                               "1 - pi_T the others (eq. 101)",
                    lambda pT=pT: _w_and_b(train_logreg_binary(X, L, 0.0, 1 - pT)), _near(1e-4)),
            Mistake("unweighted", "calibration and fusion use the prior-weighted objective, "
                                  "class 1 weighed by pi_T / n_T and class 0 by (1 - pi_T) / n_F "
                                  "(eq. 101); this point minimises the unweighted eq. 100",
                    lambda: _w_and_b(train_logreg_binary(X, L, 0.0)), _near(1e-4)),
            _early_stop(f, opt, objective_eq="eq. 101"),
        ]
        cases.append(Case(what, (X, L, 0.0, pT), None, post=_wb_post(X.shape[0], vector=True),
                          compare=objective(f, opt, grad_tol=GRAD_TOL), mistakes=mistakes))
    return cases


@task("trainWeightedLogRegBinary (calibration)", 11,
      "score calibration: prior-weighted LR on scores (section 7.3)",
      "(vrow(scores), LCAL, 0, pT)", function="trainWeightedLogRegBinary")
def _calibration():
    return _calibration_cases(False)


@task("trainWeightedLogRegBinary (fusion)", 11,
      "fusion: prior-weighted LR on stacked scores (section 7.4)",
      "(numpy.vstack([s1, s2]), LCAL, 0, pT)", function="trainWeightedLogRegBinary")
def _fusion():
    return _calibration_cases(True)


def tasks(labs: Sequence[int] | None = None, everything: bool = False) -> dict:
    """The task catalogue, ``{course name: Task}``, optionally only the given labs; the tasks
    under names of the kit's own (``Task.extra``) only with ``everything``."""
    return {n: t for n, t in TASKS.items()
            if (labs is None or t.lab in set(labs)) and (everything or not t.extra)}


def reference(name: str) -> list:
    """The cases of task ``name``: each `Case` has ``args`` (the inputs, in the course's calling
    convention) and ``expected`` (mlpr's answer). ``reference("logpdf_GAU_ND")[0].expected``."""
    catalogue = tasks()
    if name not in catalogue:
        raise ValueError(f"no task {name!r}; the tasks are: {', '.join(sorted(catalogue))}")
    return catalogue[name].cases()
