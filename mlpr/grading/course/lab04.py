r"""Lab 4 of the course: Gaussian densities and K-means.

One `CourseFunction` record per function of the lab (``FUNCTIONS``, at the end): its course name
and signature, the mlpr function that is its reference, its cases with their known mistakes and
hints, and the mlpr functions student mode computes with it. The kit's tasks, student mode's
adapters, ``--list`` and the concordance of ``docs/grading/course_functions.md`` are generated
from them (`mlpr.grading.course`).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from mlpr.gaussian import loglikelihood, logpdf_GAU_ND
from mlpr.grading.course import adapt, forms, shared
from mlpr.grading.course.records import Adapter, CourseFunction
from mlpr.grading.framework import (
    Case,
    Comparison,
    Fail,
    Mistake,
    as_array,
)
from mlpr.grading.mutants import Formula

__all__ = ["LAB", "FUNCTIONS"]

#: The lab's number in the course's 2024 edition
LAB = 4


def logpdf_formula(X, mu, C):
    M = X.shape[0]                                         # eq. 41: M, the number of features
    Xc = X - mu                                            # eq. 41: x - mu
    quad = np.sum(Xc * np.linalg.solve(C, Xc), axis=0)     # eq. 41: (x - mu)^T C^-1 (x - mu)
    logdet = np.linalg.slogdet(C)[1]                       # eq. 41: log|C|, slogdet's [1]
    return -0.5 * M * np.log(2 * np.pi) - 0.5 * logdet - 0.5 * quad  # eq. 41


def ll_formula(X, mu, C):
    M = X.shape[0]                                         # eq. 41: M, the number of features
    Xc = X - mu                                            # eq. 41: x - mu
    quad = np.sum(Xc * np.linalg.solve(C, Xc), axis=0)     # eq. 41: (x - mu)^T C^-1 (x - mu)
    logdet = np.linalg.slogdet(C)[1]                       # eq. 41: log|C|, slogdet's [1]
    logpdf = -0.5 * M * np.log(2 * np.pi) - 0.5 * logdet - 0.5 * quad  # eq. 41
    return np.sum(logpdf)                                  # eq. 46: the sum over the samples


def kmeans_formula(D, n, seed=0):
    rng = np.random.RandomState(seed)
    centroids = D[:, rng.choice(D.shape[1], n, replace=False)]  # n samples drawn as the start
    clusterLabels = None
    for _ in range(100):
        dist = ((D[:, None, :] - centroids[:, :, None]) ** 2).sum(0)  # eq. 197: the distances
        newLabels = np.argmin(dist, 0)    # eq. 197: each sample to its nearest centroid
        if clusterLabels is not None and (newLabels == clusterLabels).all():  # a fixed point
            break
        clusterLabels = newLabels
        for c in range(n):
            if (clusterLabels == c).any():
                centroids[:, c] = D[:, clusterLabels == c].mean(1)  # eq. 196: the cluster means
    return centroids, clusterLabels


def _same_clustering(got, value) -> Comparison:
    """Two answers of K-means with the same centroids (at 1e-10) and the same labels."""
    (c1, l1), (c2, l2) = got, value
    same = np.shape(c1) == np.shape(c2) and np.array_equal(l1, l2) and \
        bool(np.allclose(c1, c2, rtol=1e-10, atol=0.0))
    return Comparison(same, 0.0 if same else np.inf, 0.0, "centroids or labels that differ")


#: The Gaussian log-density, for the mutation search
LOGPDF = Formula(logpdf_formula, glossary={
    "logdet": "log|C|, the log-determinant of the covariance",
    "quad": "the quadratic form (x - mu)^T C^-1 (x - mu)",
    "M": "the number of features",
    "Xc": "the centred samples x - mu"})
LL = dataclasses.replace(LOGPDF, function=ll_formula)
KMEANS = Formula(kmeans_formula, glossary={"newLabels": "the clusters of this assignment",
                                           "clusterLabels": "the clusters of the previous one"},
                 match=_same_clustering)


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


def _logpdf_cases(run):
    return [Case(what, (X, mu, C), logpdf_GAU_ND(X, mu, C), mistakes=_logpdf_mistakes(X, mu, C))
            for what, X, mu, C in shared.gau_inputs(run)]


def _logpdf(run):
    return _logpdf_cases(run)


def _logpdf_fast(run):
    return _logpdf_cases(run)


def _logpdf_slow(run):
    return _logpdf_cases(run)


def _logpdf_single(run):
    cases = []
    for what, X, mu, C in shared.gau_inputs(run):
        x = X[:, :1]
        cases.append(Case(what + ", first sample", (x, mu, C), logpdf_GAU_ND(x, mu, C),
                          mistakes=_logpdf_mistakes(x, mu, C)))
    return cases


def _compute_ll(run):
    return [Case(what, (X, mu, C), loglikelihood(X, mu, C),
                 mistakes=[Mistake("mean", "the log-likelihood is the sum of the log-densities "
                                           "(eq. 46), not their mean",
                                   lambda X=X, mu=mu, C=C: logpdf_GAU_ND(X, mu, C).mean())])
            for what, X, mu, C in shared.gau_inputs(run)]


def _k_means(run):
    # the course's lab on clustering asks for it: the published solutions (MLPR_Labs,
    # Lab4/clustering.py) define k_means(D, n, seed=0) returning (centroids D x n, labels),
    # computed with scipy.cluster.vq.kmeans2; any fixed point of Lloyd's iteration passes here
    rng = run.rng(3)
    centres = np.array([[0.0, 0.0], [6.0, 0.0], [0.0, 6.0]]).T
    X = np.hstack([c[:, None] + rng.normal(size=(2, 40)) for c in centres.T])

    def post(out):
        cent, lab = forms.pair(out, 2, "(centroids, labels)")
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


def _adapt_logpdf_GAU_ND(code, f):
    def logpdf_GAU_ND(X, mu, C):
        name = adapt.first(code, "logpdf_GAU_ND", "logpdf_GAU_ND_fast")
        X = np.asarray(X, dtype=np.float64)
        mu = np.asarray(mu, dtype=np.float64).reshape(-1, 1)
        return adapt.vector(code.call(name, X, mu, np.asarray(C, float)), X.shape[1], name,
                            "log-densities")
    return logpdf_GAU_ND


def _adapt_kmeans(code, f):
    def kmeans(D, init, rng=None, max_iter=300):
        if not isinstance(init, (int, np.integer)):
            raise adapt.Unsupported("k_means(D, n) starts from its own centroids")
        X = np.asarray(D, dtype=np.float64)
        out = code.call("k_means", X, int(init))
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise adapt.StudentFailure("k_means", "did not return (centroids, labels)")
        cent = np.asarray(out[0], dtype=np.float64)
        if cent.shape == (int(init), X.shape[0]):
            cent = cent.T
        lab = adapt.vector(out[1], X.shape[1], "k_means", "labels").astype(int)
        d = ((X[:, :, None] - cent[:, None, :]) ** 2).sum(axis=0)
        return cent, lab, [float(d[np.arange(X.shape[1]), lab].mean())]
    return kmeans


FUNCTIONS = (
    CourseFunction(
        name="logpdf_GAU_ND", formula=LOGPDF,
        signature="(X, mu, C)", topic="multivariate Gaussian log-density",
        reference="gaussian.logpdf_GAU_ND", cases=_logpdf,
        adapters=(
            Adapter("logpdf_GAU_ND", (("logpdf_GAU_ND",), ("logpdf_GAU_ND_fast",)),
            _adapt_logpdf_GAU_ND),
        )),
    CourseFunction(
        name="logpdf_GAU_ND_fast", formula=LOGPDF,
        signature="(X, mu, C)",
        topic="multivariate Gaussian log-density, vectorised", reference="gaussian.logpdf_GAU_ND",
        cases=_logpdf_fast),
    CourseFunction(
        name="logpdf_GAU_ND_slow", formula=LOGPDF,
        signature="(X, mu, C)",
        topic="multivariate Gaussian log-density, one sample at a time",
        reference="gaussian.logpdf_GAU_ND", cases=_logpdf_slow),
    CourseFunction(
        name="logpdf_GAU_ND_singleSample", formula=LOGPDF,
        signature="(x, mu, C)",
        topic="Gaussian log-density of one sample", reference="gaussian.logpdf_GAU_ND",
        cases=_logpdf_single),
    CourseFunction(
        name="compute_ll", formula=LL,
        signature="(X, mu, C)", topic="Gaussian log-likelihood",
        reference="gaussian.loglikelihood", cases=_compute_ll),
    CourseFunction(
        name="k_means", formula=KMEANS, signature="(D, n, seed=0)", topic="K-means clustering",
        reference="gmm.kmeans", cases=_k_means,
        adapters=(
            # its random start makes any fixed point of Lloyd's iteration right: every sample at its
            # nearest centroid (eq. 197), every centroid the mean of its cluster (relative to the
            # scale)
            Adapter("kmeans", (("k_means",),), _adapt_kmeans, ("lloyd", 1e-08)),
        )),
)
