r"""Lab 3 of the course: the binary iris task, the 2/3 split, mean and covariance, PCA, Sw / Sb
and LDA.

One `CourseFunction` record per function of the lab (``FUNCTIONS``, at the end): its course name
and signature, the mlpr function that is its reference, its cases with their known mistakes and
hints, and the mlpr functions student mode computes with it. The kit's tasks, student mode's
adapters, ``--list`` and the concordance of ``docs/grading/course_functions.md`` are generated
from them (`mlpr.grading.course`).
"""

from __future__ import annotations

import math

import numpy as np
import scipy.linalg
import scipy.optimize
import scipy.special

from mlpr.datasets import load_iris_binary
from mlpr.dimred import compute_Sw_Sb, fit_lda, fit_pca
from mlpr.gaussian import compute_mu_C
from mlpr.grading.course import adapt, forms, shared
from mlpr.grading.course.records import Adapter, CourseFunction
from mlpr.grading.framework import (
    RTOL_CLOSED_FORM,
    Case,
    Comparison,
    Mistake,
    as_array,
    closed_form,
    exact,
    offset_data,
    same_subspace,
    up_to_sign,
)
from mlpr.grading.mutants import Formula
from mlpr.utils import split_db_2to1

__all__ = ["LAB", "FUNCTIONS"]

#: The lab's number in the course's 2024 edition
LAB = 3


def mu_C_formula(D):
    N = D.shape[1]                        # N, the number of samples
    M = D.shape[0]  # noqa: F841 (a count in scope)  M, the number of features
    mu = D.mean(axis=1, keepdims=True)    # eq. 50: the sample mean
    Xc = D - mu                           # eq. 50: the centred data x - mu
    C = Xc @ Xc.T / N                     # eq. 50: the ML covariance, divided by N
    return mu, C


def pca_formula(D, m):
    mu = D.mean(axis=1, keepdims=True)
    C = (D - mu) @ (D - mu).T / D.shape[1]  # eq. 1: the covariance of the centred data
    U, s, Vh = np.linalg.svd(C)           # section 3.1: the SVD of C, singular values decreasing
    return U[:, 0:m]                      # eq. 3: the m leading eigenvectors, U[:, :m]


def sb_sw_formula(D, L):
    N = D.shape[1]
    mu = D.mean(axis=1, keepdims=True)    # the dataset mean
    Sb = 0.0
    Sw = 0.0
    for c in np.unique(L):
        Dc = D[:, L == c]                 # the samples of class c
        mu_c = Dc.mean(axis=1, keepdims=True)  # eq. 5: the class mean
        Sb = Sb + Dc.shape[1] * (mu_c - mu) @ (mu_c - mu).T  # eq. 5
        Sw = Sw + (Dc - mu_c) @ (Dc - mu_c).T  # eq. 6: each class around its own mean
    return Sb / N, Sw / N                 # eq. 5-6


def lda_geig_formula(D, L, m):
    Sb, Sw = sb_sw_formula(D, L)
    s, U = scipy.linalg.eigh(Sb, Sw)      # eq. 7: the generalised eigenproblem Sb w = l Sw w
    return U[:, ::-1][:, 0:m]             # eq. 7: the m leading directions


def lda_joint_formula(D, L, m):
    Sb, Sw = sb_sw_formula(D, L)
    s, U = np.linalg.eigh(Sw)             # eq. 9: Sw = U diag(s) U^T
    P1 = U @ np.diag(1.0 / np.sqrt(s)) @ U.T  # eq. 9-10: the whitening Sw^(-1/2)
    Sbt = P1 @ Sb @ P1.T                  # eq. 10: Sb of the whitened data
    s2, U2 = np.linalg.eigh(Sbt)
    P2 = U2[:, ::-1][:, 0:m]              # eq. 10: its m leading eigenvectors
    return P1.T @ P2                      # eq. 10: W = P1^T P2


_LDA_GLOSSARY = {"Sb": "the between-class covariance", "Sw": "the within-class covariance",
                 "P1": "the whitening matrix Sw^(-1/2)"}
MU_C = Formula(mu_C_formula, glossary={"N": "the number of samples, D.shape[1]",
                                       "M": "the number of features, D.shape[0]"},
               replace={"N": ("M", "N - 1")})
PCA = Formula(pca_formula, glossary={"U": "the left singular vectors of C, its eigenvectors",
                                     "Vh": "the right factor of the SVD, U^T: its columns are "
                                           "the rows of U"},
              replace={"U": ("Vh", "Vh.T")})
SB_SW = Formula(sb_sw_formula, glossary={"mu_c": "the mean of class c", "mu": "the dataset mean",
                                         "N": "the number of samples"},
                replace={"mu_c": ("mu",), "mu": ("mu_c",)})
LDA_GEIG = Formula(lda_geig_formula, glossary=_LDA_GLOSSARY)
LDA_JOINT = Formula(lda_joint_formula, glossary=_LDA_GLOSSARY)


def _load_iris_binary(run):
    D, L = load_iris_binary()
    full, Lf = shared.iris(run)
    keep = Lf != 0
    return [Case("versicolor (1) against virginica (0), 4 x 100", (), np.vstack([D, L]),
                 post=forms.data_labels, compare=exact(),
                 mistakes=[Mistake("relabel", "virginica must become label 0 (the course drops "
                                              "setosa and sets L[L == 2] = 0)",
                                   lambda: np.vstack([full[:, keep], Lf[keep]]))])]


def _split_db(run):
    D, L = shared.iris(run)
    (DTR, LTR), (DVAL, LVAL) = split_db_2to1(D, L, seed=0)

    def side(D, L, flag):  # the samples, their labels and which side of the split they are on
        D, L = as_array(D), as_array(L).reshape(1, -1)
        return np.vstack([D, L, np.full((1, L.shape[1]), flag)])

    def post(out):
        tr, va = forms.pair(out, 2, "the split ((DTR, LTR), (DVAL, LVAL))")
        DTRs, LTRs = forms.pair(tr, 2, "(DTR, LTR)")
        DVALs, LVALs = forms.pair(va, 2, "(DVAL, LVAL)")
        return np.hstack([side(DTRs, LTRs, 1.0), side(DVALs, LVALs, 0.0)])

    ref = np.hstack([side(DTR, LTR, 1.0), side(DVAL, LVAL, 0.0)])
    return [Case("iris, seed 0", (D, L), ref, kwargs={"seed": 0}, post=post, compare=exact())]


def _compute_mu_C(run):
    D, _ = shared.iris(run)
    X = offset_data(offset=1e4, seed=run.sub(210, fixed=0))
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
                          post=lambda out, n=data.shape[0]: forms.mu_C(out, n),
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


def _compute_pca(run):
    D, _ = shared.iris(run)
    X = offset_data(D=5, offset=10.0, seed=run.sub(216, fixed=0))
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


def _apply_pca(run):
    D, _ = shared.iris(run)
    X = offset_data(D=4, offset=10.0, seed=run.sub(216, fixed=0))
    P = fit_pca(D, 2).P
    mu = X.mean(axis=1, keepdims=True)
    return [Case("P of iris, data far from the origin", (P, X), P.T @ X, mistakes=[
        Mistake("centred", "the course's projection is uncentred, y = P^T x (section 3.1)",
                lambda: P.T @ (X - mu))])]


def _compute_Sb_Sw(run):
    cases = []
    for what, (D, L) in (("iris", shared.iris(run)),
                         ("unequal classes far from the origin", shared.unequal(run))):
        Sw, Sb = compute_Sw_Sb(D, L)
        N = D.shape[1]
        mus = [D[:, L == k].mean(axis=1, keepdims=True) for k in range(3)]
        mu = D.mean(axis=1, keepdims=True)
        Sb_unweighted = sum((m - mu) @ (m - mu).T for m in mus) / 3

        def post(out):
            Sb_s, Sw_s = forms.pair(out, 2, "(Sb, Sw)")
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


def _lda_cases(run, method: str):
    D, L = shared.iris(run)
    Dx, Lx = shared.unequal(run)
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


def _compute_lda_geig(run):
    return _lda_cases(run, "geig")


def _compute_lda_joint(run):
    return _lda_cases(run, "jointdiag")


def _apply_lda(run):
    D, L = shared.iris(run)
    W = fit_lda(D, L, 2).W
    X = offset_data(D=4, offset=10.0, seed=run.sub(216, fixed=0))
    return [Case("W of iris, data far from the origin", (W, X), W.T @ X)]


def _adapt_fit_pca(code, f):
    def fit_pca(D, m, method: str = "eigh"):
        X = np.asarray(D, dtype=np.float64)
        P = np.asarray(code.call("compute_pca", X, m), dtype=np.float64)
        if P.shape != (X.shape[0], m):
            raise adapt.StudentFailure("compute_pca", f"returned shape {P.shape}, expected "
                                                f"({X.shape[0]}, {m})")
        apply = None
        if code.has("apply_pca"):
            def apply(P, X):
                Y = np.asarray(code.call("apply_pca", P, X), dtype=np.float64)
                code._audit(adapt.projection, Y, (P, X), {}, ["apply_pca"])
                return Y
        Xc = X - X.mean(axis=1, keepdims=True)
        Y = P.T @ Xc
        return adapt.Projection(P, apply, np.sum(Y * Y, axis=1) / X.shape[1],
                                float(np.sum(Xc * Xc) / X.shape[1]), X.mean(axis=1, keepdims=True))
    return fit_pca


def _adapt_fit_lda(code, f):
    def fit_lda(D, L, m, method: str = "geig", basis: str = "sw"):
        name = ("compute_lda_JointDiag" if method == "jointdiag" and
                code.has("compute_lda_JointDiag") else adapt.first(code, "compute_lda_geig",
                                                                   "compute_lda_JointDiag"))
        X = np.asarray(D, dtype=np.float64)
        W = np.asarray(code.call(name, X, np.asarray(L), m), dtype=np.float64)
        if W.shape != (X.shape[0], m):
            raise adapt.StudentFailure(name, f"returned shape {W.shape}, expected "
                                       f"({X.shape[0]}, {m})")
        if basis == "orthonormal":  # any orthonormal basis of the LDA subspace
            W = np.linalg.qr(W)[0]
            return adapt.Projection(W)
        apply = None
        if code.has("apply_lda"):
            def apply(W, X):
                Y = np.asarray(code.call("apply_lda", W, X), dtype=np.float64)
                code._audit(adapt.projection, Y, (W, X), {}, ["apply_lda"])
                return Y
        return adapt.Projection(W, apply)
    return fit_lda


def _adapt_train_lda_binary(code, f):
    lda = _adapt_fit_lda(code, f)

    def train_lda_binary(D, L, threshold="midpoint"):
        if threshold != "midpoint":
            raise adapt.Unsupported(f"threshold={threshold!r}: the course's classifier uses the "
                                    f"midpoint of the projected class means")
        X, Y = np.asarray(D, dtype=np.float64), np.asarray(L)
        w = lda(X, Y, 1).transform(np.eye(X.shape[0])).reshape(-1)
        m1, m0 = (w @ X[:, Y == 1]).mean(), (w @ X[:, Y == 0]).mean()
        if m1 < m0:  # orient the direction so that class 1 projects higher
            w, m1, m0 = -w, -m1, -m0
        return adapt.StudentLDABinary(w, float((m0 + m1) / 2))
    return train_lda_binary


def _adapt_compute_Sw_Sb(code, f):
    def compute_Sw_Sb(D, L):
        out = code.call("compute_Sb_Sw", np.asarray(D, float), np.asarray(L))
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise adapt.StudentFailure("compute_Sb_Sw", "did not return (Sb, Sw)")
        return np.asarray(out[1], float), np.asarray(out[0], float)
    return compute_Sw_Sb


FUNCTIONS = (
    CourseFunction(
        name="load_iris_binary", signature="()", topic="the binary iris task",
        reference="datasets.load_iris_binary", forms="returns (D, L), D 4 x N",
        cases=_load_iris_binary, files=("iris.csv",)),
    CourseFunction(
        name="split_db_2to1", signature="(D, L, seed=0)", topic="the 2/3 - 1/3 split",
        reference="utils.split_db_2to1", forms="returns ((DTR, LTR), (DVAL, LVAL))",
        cases=_split_db),
    CourseFunction(
        name="compute_mu_C", formula=MU_C,
        signature="(D)", topic="mean and ML covariance",
        reference="gaussian.compute_mu_C", forms="returns (mu, C), mu (D, 1)", cases=_compute_mu_C),
    CourseFunction(
        name="compute_pca", formula=PCA,
        signature="(D, m)", topic="PCA directions",
        reference="dimred.fit_pca (`.P`)", cases=_compute_pca,
        adapters=(
            Adapter("fit_pca", (("compute_pca",),), _adapt_fit_pca, ("subspace", 1e-06)),
        )),
    CourseFunction(
        name="apply_pca", signature="(P, D)", topic="PCA projection",
        reference="dimred.PCAModel.transform (uncentred, P^T D)", cases=_apply_pca),
    CourseFunction(
        name="compute_Sb_Sw", formula=SB_SW,
        signature="(D, L)", topic="between- and within-class covariance",
        reference="dimred.compute_Sw_Sb", forms="returns (Sb, Sw), in that order",
        cases=_compute_Sb_Sw,
        adapters=(
            Adapter("compute_Sw_Sb", (("compute_Sb_Sw",),), _adapt_compute_Sw_Sb),
        )),
    CourseFunction(
        name="compute_lda_geig", formula=LDA_GEIG,
        signature="(D, L, m)",
        topic="LDA by the generalised eigenproblem",
        reference="dimred.fit_lda (`.W`, `method=\"geig\"`)", cases=_compute_lda_geig,
        adapters=(
            Adapter("fit_lda", (("compute_lda_geig",), ("compute_lda_JointDiag",)),
            _adapt_fit_lda, ("subspace", 1e-06)),
            Adapter("train_lda_binary", (("compute_lda_geig",), ("compute_lda_JointDiag",)),
            _adapt_train_lda_binary, ("subspace", 1e-06)),
        )),
    CourseFunction(
        name="compute_lda_JointDiag", formula=LDA_JOINT,
        signature="(D, L, m)", topic="LDA by joint diagonalisation",
        reference="dimred.fit_lda (`.W`, `method=\"jointdiag\"`)", cases=_compute_lda_joint),
    CourseFunction(
        name="apply_lda", signature="(U, D)", topic="LDA projection",
        reference="dimred.LDAModel.transform (W^T D)", cases=_apply_lda),
)
