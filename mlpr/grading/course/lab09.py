r"""Lab 9 of the course: support vector machines.

One `CourseFunction` record per function of the lab (``FUNCTIONS``, at the end): its course name
and signature, the mlpr function that is its reference, its cases with their known mistakes and
hints, and the mlpr functions student mode computes with it. The kit's tasks, student mode's
adapters, ``--list`` and the concordance of ``docs/grading/course_functions.md`` are generated
from them (`mlpr.grading.course`).
"""

from __future__ import annotations

import inspect

import numpy as np

from mlpr.grading.course import adapt, forms, optim, shared
from mlpr.grading.course.records import Adapter, CourseFunction
from mlpr.grading.framework import (
    Case,
    Fail,
    Mistake,
    as_array,
)
from mlpr.grading.mutants import Formula
from mlpr.svm import (
    poly_kernel,
    rbf_kernel,
    svm_primal_objective,
    train_svm_kernel,
    train_svm_linear,
)

__all__ = ["LAB", "FUNCTIONS"]

#: The lab's number in the course's 2024 edition
LAB = 9
#: its number in the years numbered otherwise (`mlpr.grading.course.lab_numbers`)
YEARS = {"2021/22": 9, "2024/25": 8}


def poly_formula(degree, c):
    def kernelFunc(D1, D2):
        return (D1.T @ D2 + c) ** degree  # eq. 179: (x1^T x2 + c)^d
    return kernelFunc


def rbf_formula(gamma):
    def kernelFunc(D1, D2):
        dist2 = (D1 ** 2).sum(0)[:, None] + (D2 ** 2).sum(0)[None, :] - 2 * D1.T @ D2
        return np.exp(-gamma * dist2)     # eq. 180: exp(-gamma ||x1 - x2||^2)
    return kernelFunc


def svm_linear_formula(DTR, LTR, C, K=1):
    z = 2 * LTR - 1                       # eq. 158: the labels z_i = 2 c_i - 1, in {-1, +1}
    Xh = np.vstack([DTR, K * np.ones((1, DTR.shape[1]))])  # the data extended with K
    H = np.outer(z, z) * (Xh.T @ Xh)      # eq. 158: H_ij = z_i z_j x_i^T x_j
    alpha = optim.labs_dual(H, C)         # eq. 165: the dual, 0 <= alpha_i <= C
    w_hat = Xh @ (alpha * z)              # eq. 156: w = sum_i alpha_i z_i x_i
    return w_hat[:-1], w_hat[-1] * K      # the bias b = K w_hat[-1]


def svm_kernel_formula(DTR, LTR, C, kernelFunc, eps=1.0):
    z = 2 * LTR - 1                       # eq. 158: the labels z_i = 2 c_i - 1, in {-1, +1}
    H = np.outer(z, z) * (kernelFunc(DTR, DTR) + eps)  # eq. 173: H_ij = z_i z_j (k + eps)
    alpha = optim.labs_dual(H, C)         # eq. 165: the dual, 0 <= alpha_i <= C

    def fScore(DTE):
        Ke = kernelFunc(DTR, DTE) + eps   # eq. 174: the kernel with its constant
        return (alpha * z) @ Ke           # eq. 174: sum_i alpha_i z_i k(x_i, x)
    return fScore


_SVM_GLOSSARY = {"z": "the labels z_i in {-1, +1}", "alpha": "the dual variables alpha_i",
                 "H": "H_ij = z_i z_j k(x_i, x_j)"}
SVM_LINEAR = Formula(svm_linear_formula, glossary=_SVM_GLOSSARY, match=optim.near(1e-4))
SVM_KERNEL = Formula(svm_kernel_formula, glossary=_SVM_GLOSSARY, match=optim.near(1e-4))
POLY = Formula(poly_formula, glossary={"c": "the kernel's constant c", "degree": "d"})
RBF = Formula(rbf_formula, glossary={"gamma": "the kernel's gamma (eq. 180)",
                                     "dist2": "||x1 - x2||^2"})


def _svm_linear_objective(D, L, C, K):
    z = 2.0 * L - 1.0

    def f(v):
        w, b = v[:-1], v[-1]
        return 0.5 * (w @ w + (b / K) ** 2) + C * np.maximum(0.0, 1 - z * (w @ D + b)).sum()

    return f


def _svm_linear(run):
    # the binary iris features z-normalised and shifted by 1 (`optim.conditioned`): on the raw
    # features the labs' L-BFGS-B stalls under some roundings on most draws (C = 0.1, K = 1:
    # 57% of 30 draws, gaps up to 0.04), here under none of 600 (gaps at most 2.4e-6); K = 2
    # tells b = K w_hat[-1] from w_hat[-1]
    return [optim.fair_draws(run, lambda split, C=C, K=K, d=draw: _svm_linear_case(
        optim.conditioned(split), C, K, run.rng(90 + d)))
            for draw, (C, K) in enumerate(((0.1, 1.0), (1.0, 2.0)))]


def _svm_linear_case(split, C: float, K: float, rng) -> tuple:
    """The case on this split, the relative gaps of the labs' own solver on it under the
    roundings of `optim.labs_ensemble`, the tolerance."""
    (DTR, LTR), _ = split
    m = train_svm_linear(DTR, LTR, C, K)
    f = _svm_linear_objective(DTR, LTR, C, K)
    opt = f(np.concatenate([m.w, [m.b]]))
    free = train_svm_linear(DTR, LTR, C, None)
    case = Case(f"binary iris z-normalised + 1, C = {C:g}, K = {K:g}", (DTR, LTR, C, K), None,
                post=forms.wb(DTR.shape[0]), compare=optim.objective(f, opt, optim.RTOL_SVM_LINEAR),
                mistakes=[
        Mistake("K", "the labs' SVM appends the constant K to every sample and returns "
                "b = K * w_hat[-1] (its bias is regularised, eq. 165 on the extended "
                "data): this is the notes' free-bias SVM",
                lambda f=free: forms.w_and_b(f), optim.near(1e-3)),
        Mistake("bK", "b = K * w_hat[-1]: the weight of the constant feature times K",
                lambda m=m, K=K: np.concatenate([m.w, [m.b / K]]), optim.near(1e-3)),
        optim.early_stop(f, opt, optim.RTOL_SVM_LINEAR,
                         "the labs' SVM (eq. 165 on the extended data)",
                         optim.SVM_STOP),
    ])
    z = 2.0 * LTR - 1.0
    X = np.vstack([DTR, np.full((1, DTR.shape[1]), K)])
    gaps = []
    for alpha in optim.labs_ensemble((X.T @ X) * np.outer(z, z), C, rng):
        w_hat = X @ (alpha * z)
        gaps.append((f(np.concatenate([w_hat[:-1], [w_hat[-1] * K]])) - opt) / abs(opt))
    return case, gaps, optim.RTOL_SVM_LINEAR


def _kernel_post(X, Y):
    def post(out):
        if not callable(out):
            raise Fail(f"expected a kernel function k(D1, D2), got {type(out).__name__}")
        return out(X.copy(), Y.copy())
    return post


def _poly(run):
    (DTR, _), (DVAL, _) = shared.split(run)
    cases = []
    for d, c in ((2, 1.0), (3, 0.5)):
        k = poly_kernel(d, c)
        cases.append(Case(f"degree {d}, c = {c:g}, iris", (d, c), k(DTR, DVAL),
                          post=_kernel_post(DTR, DVAL)))
    return cases


def _rbf(run):
    (DTR, _), (DVAL, _) = shared.split(run)
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


def _svm_kernel(run):
    # tolerances, from the labs' L-BFGS-B (factr=1.0) under 20 roundings on each of 30 draws
    # (`optim.labs_ensemble`): RBF on the raw features stops at most 3.5e-6 above the minimum of
    # the primal computed from its scores (14 times below 5e-5); the polynomial kernel stalls on
    # the raw features (relative gaps up to 0.63 for a correct file), so it is trained on the
    # z-normalised features shifted by 1 (`optim.conditioned`), where it stops at most 1.6e-5
    # above (12 times below 2e-4) and eps missing from the kernel costs 5.8e-3 and more; with
    # the default factr=1e7, 1.2e-5 (RBF) and 4.1e-5 (poly) and more
    return [optim.fair_draws(run, lambda split, a=a, d=d: _svm_kernel_case(
        optim.conditioned(split) if a[0].startswith("polynomial") else split, *a,
        rng=run.rng(92 + d))) for d, a in enumerate((
            ("RBF gamma = 1, C = 1, eps = 1", rbf_kernel(1.0), 1.0, 1.0, 5e-5),
            ("polynomial d = 2, c = 1, C = 1, eps = 0.5, features z-normalised + 1",
             poly_kernel(2, 1.0), 1.0, 0.5, 2e-4)))]


def _svm_kernel_case(split, what: str, k, C: float, eps: float, rtol: float, rng) -> tuple:
    """The case on this split, the relative gaps of the labs' own solver on it under the
    roundings of `optim.labs_ensemble`, the tolerance."""
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
        kwargs={"eps": eps}, post=post, compare=optim.objective(f, opt, rtol),
        mistakes=[
            Mistake("eps-both", "eps is missing from the kernel: the labs' dual uses "
                                    "k(x_i, x_j) + eps in H and in the scores (eq. 173-174, "
                                    "the bias as a constant feature)",
                    lambda m0=m0: np.concatenate([m0.scores(DTR), m0.scores(DVAL)]),
                    optim.near(1e-3)),
            Mistake("eps-score", "eps is in the training kernel but missing from the "
                                     "scores: s(x) = sum_i alpha_i z_i (k(x_i, x) + eps)",
                    lambda m=m, az=az, eps=eps: np.concatenate(
                            [m.scores(DTR), m.scores(DVAL)]) - eps * az.sum(),
                    optim.near(1e-3)),
            Mistake("eps-train", "eps is in the scores but missing from the training "
                                     "kernel (H_ij = z_i z_j (k(x_i, x_j) + eps))",
                    lambda m0=m0, az0=az0, eps=eps: np.concatenate(
                            [m0.scores(DTR), m0.scores(DVAL)]) + eps * az0.sum(),
                    optim.near(1e-3)),
            optim.early_stop(lambda v, f=f: f(v), opt, rtol, "the labs' kernel SVM (eq. 173-174)",
                             optim.SVM_STOP),
        ])
    gaps = [(f((alpha * z) @ Keps) - opt) / abs(opt)
            for alpha in optim.labs_ensemble(Keps * np.outer(z, z), C, rng)]
    return case, gaps, rtol


def svm_linear_reach(f, args, kwargs, measure, out=None, runs: int = 8) -> float:
    """How far from mlpr's answer the labs' L-BFGS-B lands on a call's inputs: the largest
    ``measure`` of its answers under ``runs`` roundings (`optim.labs_ensemble`) of the labs'
    dual on the call's data, extended with K."""
    bound = inspect.signature(f).bind(*args, **kwargs)
    bound.apply_defaults()
    a = bound.arguments
    D, L = np.asarray(a["D"], dtype=np.float64), np.asarray(a["L"])
    C, K = float(a["C"]), float(a["K"])
    z = 2.0 * L - 1.0
    X = np.vstack([D, np.full((1, D.shape[1]), K)])
    worst = 0.0
    for alpha in optim.labs_ensemble((X.T @ X) * np.outer(z, z), C, np.random.default_rng(0),
                                     runs):
        w_hat = X @ (alpha * z)
        w, b = w_hat[:-1], w_hat[-1] * K
        worst = max(worst, measure(adapt.StudentLinearSVM(
            w, b, float(svm_primal_objective(w, b, D, L, C, K)))))
    return worst


def _adapt_train_svm_linear(code, f):
    def train_svm_linear(D, L, C, K=1.0, prior=None, **solver_settings):
        if K is None or prior is not None or not np.isfinite(C):
            raise adapt.Unsupported(adapt.svm_needs("train_dual_SVM_linear", K is None, prior, C))
        X = np.asarray(D, dtype=np.float64)
        out = code.call("train_dual_SVM_linear", X, np.asarray(L), C, K)
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise adapt.StudentFailure("train_dual_SVM_linear", "did not return (w, b)")
        w = adapt.vector(out[0], X.shape[0], "train_dual_SVM_linear", "w")
        b = float(adapt.vector(out[1], 1, "train_dual_SVM_linear", "b")[0])
        return adapt.StudentLinearSVM(
            w, b, float(svm_primal_objective(w, b, X, np.asarray(L), C, K)))
    return train_svm_linear


def _adapt_train_svm_kernel(code, f):
    def train_svm_kernel(D, L, C, kernel, eps=1.0, prior=None, **solver_settings):
        if eps is None or prior is not None or not np.isfinite(C):
            raise adapt.Unsupported(adapt.svm_needs("train_dual_SVM_kernel", eps is None, prior, C))

        def kernelFunc(D1, D2):
            return kernel(D1, D2)

        out = code.call("train_dual_SVM_kernel", np.asarray(D, float), np.asarray(L), C,
                        kernelFunc, eps)
        if isinstance(out, (tuple, list)) and out and callable(out[0]):
            out = out[0]
        if not callable(out):
            raise adapt.StudentFailure("train_dual_SVM_kernel", "did not return a scoring function")
        return adapt.StudentKernelSVM(code, out)
    return train_svm_kernel


FUNCTIONS = (
    CourseFunction(
        name="train_dual_SVM_linear", formula=SVM_LINEAR, signature="(DTR, LTR, C, K=1)",
        topic="linear SVM, the labs' dual (constant feature K)", reference="svm.train_svm_linear",
        forms="returns (w, b), b = K w_hat[-1]", cases=_svm_linear,
        adapters=(
            # an optimiser's point by the objective there: the labs' dual stops 3e-6 above it
            # where L-BFGS-B meets pgtol; on inputs where some rounding stalls it, the
            # tolerance widens to the spread of eight roundings (svm_linear_reach)
            Adapter("train_svm_linear", (("train_dual_SVM_linear",),),
            _adapt_train_svm_linear, ("objective", 3e-05, svm_linear_reach)),
        )),
    CourseFunction(
        name="polyKernel", formula=POLY,
        signature="(degree, c)", topic="polynomial kernel (eq. 179)",
        reference="svm.poly_kernel", forms="returns kernelFunc(D1, D2)", cases=_poly),
    CourseFunction(
        name="rbfKernel", formula=RBF,
        signature="(gamma)", topic="RBF kernel (eq. 180)",
        reference="svm.rbf_kernel", forms="returns kernelFunc(D1, D2)", cases=_rbf),
    CourseFunction(
        name="train_dual_SVM_kernel", formula=SVM_KERNEL,
        signature="(DTR, LTR, C, kernelFunc, eps=1.0)",
        topic="kernel SVM, the labs' dual (eps in the kernel)", reference="svm.train_svm_kernel",
        forms="takes kernelFunc(D1, D2); returns fScore(DTE)", cases=_svm_kernel,
        adapters=(
            # the scoring function is all the course's kernel SVM returns: its scores on the
            # training data, which the optimum fixes; the labs' dual stops within 1e-3 of them
            # relative to scale
            Adapter("train_svm_kernel", (("train_dual_SVM_kernel",),),
            _adapt_train_svm_kernel, ("values", 0.01)),
        )),
)
