"""The evidence for docs/errata.md: one test per erratum of the notes.

Each test derives the right value independently (closed form, exact fractions, a second method) and
shows that the printed version is wrong; where the erratum concerns something mlpr computes, the
test calls that function too, so that mlpr changed to the printed version fails. The test names
follow the document and the place: ``test_notes002_eq074_...`` is the main notes' eq. (74),
``test_notes004_...`` the short note 004. The printed formulas are transcribed here only as far as
needed to evaluate them; where the PDF conversion garbled a symbol, the transcription repairs the
symbol and keeps the authors' mathematics."""

from fractions import Fraction

import numpy as np
import pytest
import scipy.linalg
from scipy.special import expit, logsumexp
from scipy.stats import norm

from mlpr.datasets import load_iris
from mlpr.dimred import compute_Sw_Sb, fisher_criterion, fit_lda, fit_pca
from mlpr.evaluation import (
    bayes_decisions,
    bayes_threshold,
    dcf,
    fn_fp_rates,
    uniform_cost_matrix,
)
from mlpr.gaussian import (
    compute_mu_C,
    loglikelihood,
    logpdf_GAU_1D,
    logpdf_GAU_ND,
    logpmf_binomial,
    ml_multinomial,
)
from mlpr.generative import (
    GaussianClassifier,
    log_posteriors,
    tied_binary_llr_coefficients,
    train_multinomial_nb,
    train_tied,
)
from mlpr.gmm import GMMClassifier, log_joint_GMM, logpdf_GMM
from mlpr.logreg import logreg_multiclass_obj_wrap, logreg_obj_wrap
from mlpr.svm import (
    hinge_loss,
    poly_kernel,
    svm_primal_objective,
    train_svm_kernel,
    train_svm_linear,
)
from mlpr.utils import vcol, vrow


def _grid_integral(f, lo=-60.0, hi=60.0, n=200001):
    """Trapezoid integral of f over [lo, hi] (the densities below are negligible outside)."""
    x = np.linspace(lo, hi, n)
    return _trapezoid(f(x), x)


def _trapezoid(y, x):
    """The trapezoid rule (numpy's own changed name across versions)."""
    return float(np.sum((y[..., 1:] + y[..., :-1]) * np.diff(x)) / 2)


def _two_classes(seed=0, n0=30, n1=70):
    """Two 2-D Gaussian classes of different sizes and shapes: D (2, n0 + n1), L."""
    rng = np.random.default_rng(seed)
    D0 = rng.standard_normal((2, n0)) * np.array([[2.0], [0.5]])
    D1 = np.array([[1.0], [2.0]]) + np.array([[1.0, 0.8], [0.0, 0.6]]) @ rng.standard_normal(
        (2, n1))
    return np.hstack([D0, D1]), np.repeat([0, 1], [n0, n1])


# ------------------------------------------------------------------------------------------
# Note 001: the worked LDA example
# ------------------------------------------------------------------------------------------

def test_notes001_lda_example_inverse_and_w_in_fractions():
    # mu_1 = (3, 0), mu_0 = (1, 1), Sigma = diag((3/2)^2, (1/2)^2), equal priors
    mu1, mu0 = [Fraction(3), Fraction(0)], [Fraction(1), Fraction(1)]
    sigma = [Fraction(3, 2) ** 2, Fraction(1, 2) ** 2]
    inverse = [1 / s for s in sigma]
    assert inverse == [Fraction(4, 9), Fraction(4)]
    # the printed inverse diag(4, 4) is not an inverse: Sigma Sigma^-1 = diag(9, 1), not I
    printed_inverse = [Fraction(4), Fraction(4)]
    assert [s * p for s, p in zip(sigma, printed_inverse)] == [9, 1]
    dmu = [a - b for a, b in zip(mu1, mu0)]
    w = [p * d for p, d in zip(inverse, dmu)]
    assert w == [Fraction(8, 9), Fraction(-4)]
    assert [p * d for p, d in zip(printed_inverse, dmu)] == [8, -4]  # the printed w
    # b = b_0' - b_1' = (mu_0^T K mu_0 - mu_1^T K mu_1) / 2 (equal priors, same log det)
    quad = lambda m: sum(p * x * x for p, x in zip(inverse, m))  # noqa: E731
    b = (quad(mu0) - quad(mu1)) / 2
    assert b == Fraction(2, 9)
    # mlpr's tied-Gaussian llr coefficients (Cholesky solves) agree
    model = GaussianClassifier(mu=np.array([[1.0, 3.0], [1.0, 0.0]]),
                               C=np.diag([2.25, 0.25]), kind="tied")
    w_lib, b_lib = tied_binary_llr_coefficients(model)
    np.testing.assert_allclose(w_lib, [8 / 9, -4], rtol=1e-13)
    assert b_lib == pytest.approx(2 / 9, rel=1e-12)


def test_notes001_gradient_of_loss_wrt_mu_has_a_minus_sign():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((5, 2))  # rows are samples, as in note 001
    mu = np.array([0.3, -0.2])
    Sigma = np.array([[2.0, 0.3], [0.3, 0.5]])
    K = np.linalg.inv(Sigma)

    def loss(m):
        Z = X - m
        return 0.5 * np.einsum("ij,jk,ik->", Z, K, Z)

    h = 1e-6
    numeric = np.array([(loss(mu + h * e) - loss(mu - h * e)) / (2 * h) for e in np.eye(2)])
    correct = -K @ (X - mu).sum(axis=0)
    printed = K @ (X - mu).sum(axis=0)
    np.testing.assert_allclose(numeric, correct, rtol=1e-6)
    assert not np.allclose(numeric, printed, rtol=1e-3)
    # the loss is minus mlpr's Gaussian log-likelihood (up to a constant in mu): its numerical
    # gradient carries the minus sign, and vanishes at mlpr's ML mean
    def neg_ll(m):
        return -loglikelihood(X.T, m.reshape(2, 1), Sigma)

    numeric_ll = np.array([(neg_ll(mu + h * e) - neg_ll(mu - h * e)) / (2 * h) for e in np.eye(2)])
    np.testing.assert_allclose(numeric_ll, correct, rtol=1e-6)
    mu_ml = compute_mu_C(X.T)[0].ravel()
    np.testing.assert_allclose(K @ (X - mu_ml).sum(axis=0), 0.0, atol=1e-12)


# ------------------------------------------------------------------------------------------
# Note 000
# ------------------------------------------------------------------------------------------

def test_notes000_erm_logistic_loss_needs_labels_plus_minus_one():
    rng = np.random.default_rng(2)
    X = rng.standard_normal((40, 3))
    y = (rng.random(40) < 0.5).astype(float)  # {0, 1}, as in eq. (7)-(9)
    w = rng.standard_normal(3)
    s = X @ w
    loglik = np.sum(y * s - np.logaddexp(0, s))  # eq. (9)
    z = 2 * y - 1
    # with labels z in {-1, +1} the ERM loss is exactly minus the log-likelihood
    assert np.sum(np.logaddexp(0, -z * s)) == pytest.approx(-loglik, rel=1e-12)
    # with the remark's y in {0, 1} it is not: every y = 0 sample costs log 2, whatever w is
    printed = np.sum(np.logaddexp(0, -y * s))
    assert abs(printed + loglik) > 1.0
    assert np.logaddexp(0, -0.0 * 123.0) == pytest.approx(np.log(2))
    # mlpr's objective (eq. 100, lambda = 0, labels {0, 1} turned into z = 2c - 1) is the ERM
    # loss with labels +-1 over n: minus the mean log-likelihood of eq. (9)
    f, _ = logreg_obj_wrap(X[:, :2].T, y.astype(int), 0.0)(w)
    s2 = X[:, :2] @ w[:2] + w[2]
    loglik2 = np.sum(y * s2 - np.logaddexp(0, s2))
    assert f == pytest.approx(-loglik2 / 40, rel=1e-12)
    assert f != pytest.approx(np.mean(np.logaddexp(0, -y * s2)), rel=1e-3)


# ------------------------------------------------------------------------------------------
# Main notes (002)
# ------------------------------------------------------------------------------------------

def test_notes002_sec1_arange_reshape_example():
    x = np.arange(3).reshape((3, 1))
    assert x.tolist() == [[0], [1], [2]]  # printed: [[1], [2], [3]]
    y = x.T
    assert y.shape == (1, 3) and y.tolist() == [[0, 1, 2]]  # printed: [1, 2, 3]
    assert x.tolist() != [[1], [2], [3]]
    # mlpr's course helpers make the same column and 2-D row
    assert vcol(np.arange(3)).tolist() == [[0], [1], [2]]
    r = vrow(np.arange(3))
    assert r.shape == (1, 3) and r.tolist() == [[0, 1, 2]]
    np.testing.assert_array_equal(vcol(np.arange(3)).T, r)


def test_notes002_sec3_1_svd_of_a_rectangular_matrix_is_n_by_m():
    A = np.arange(6.0).reshape(3, 2) + np.eye(3, 2)  # n = 3, m = 2
    U, s, Vt = np.linalg.svd(A)
    assert U.shape == (3, 3) and Vt.shape == (2, 2)  # U n x n, V m x m: A is n x m
    S = np.zeros((3, 2))
    S[:2, :2] = np.diag(s)
    np.testing.assert_allclose(U @ S @ Vt, A, atol=1e-12)


def test_notes002_eq002_pca_maximises_plus_the_trace():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((4, 200)) * np.array([[3.0], [2.0], [1.0], [0.5]])
    X -= X.mean(axis=1, keepdims=True)
    K = X.shape[1]
    S = X @ X.T
    _, U = np.linalg.eigh(S / K)
    P_top = U[:, ::-1][:, :2]  # the notes' solution: the m largest eigenvalues
    P_low = U[:, :2]

    def recon(P):  # eq. (1)
        return np.mean(np.sum((X - P @ P.T @ X) ** 2, axis=0))

    tr = lambda P: np.trace(P.T @ S @ P)  # noqa: E731
    # eq. (1) = (sum ||x||^2 - Tr(P^T S P)) / K: minimising it maximises +Tr
    for P in (P_top, P_low):
        assert recon(P) == pytest.approx((np.sum(X * X) - tr(P)) / K, rel=1e-10)
    assert recon(P_top) < recon(P_low) and tr(P_top) > tr(P_low)
    # the printed objective -Tr(...) is *minimised*, not maximised, by the notes' solution
    assert -tr(P_top) < -tr(P_low)
    rng2 = np.random.default_rng(4)
    for _ in range(20):
        Q, _ = np.linalg.qr(rng2.standard_normal((4, 2)))
        assert -tr(Q) >= -tr(P_top) - 1e-9
    # mlpr's PCA takes the maximiser of +Tr: its directions span the top eigenvectors, reach
    # the largest trace, and its eigenvalues are the m largest
    pca = fit_pca(X, 2)
    assert tr(pca.P) == pytest.approx(tr(P_top), rel=1e-10)
    assert tr(pca.P) > tr(P_low) * 4
    np.testing.assert_allclose(pca.eigenvalues, np.linalg.eigvalsh(S / K)[::-1][:2], rtol=1e-10)


def test_notes002_sec3_3_lda_code_solves_sw_inverse_sb():
    D, L = _two_classes()
    D = np.vstack([D, D[0] + 0.3 * D[1] + np.random.default_rng(5).standard_normal(D.shape[1])])
    L3 = L.copy()
    L3[:10] = 2
    Sw, Sb = compute_Sw_Sb(D, L3)
    lam, U = scipy.linalg.eigh(Sb, Sw)  # the notes' call
    for k in range(3):
        np.testing.assert_allclose(np.linalg.solve(Sw, Sb @ U[:, k]), lam[k] * U[:, k],
                                   atol=1e-10)
    # the comment's S_b^-1 S_w does not exist: S_b has rank K - 1 = 2 < 3
    assert np.linalg.matrix_rank(Sb) == 2


def test_notes002_sec4_1_additivity_is_not_a_sum_to_one():
    P = {k: Fraction(1, 6) for k in range(1, 7)}  # a fair die
    A, B = {1}, {2}  # disjoint events
    p = lambda E: sum(P[k] for k in E)  # noqa: E731
    assert p(A | B) == p(A) + p(B)  # additivity
    assert p(A) + p(B) == Fraction(1, 3) != 1  # the sum of disjoint events is not 1


def test_notes002_eq018_geometric_support_starts_at_zero():
    p = 0.5
    x = np.arange(0, 200)
    f = p * (1 - p) ** x
    assert f.sum() == pytest.approx(1.0, abs=1e-12)  # x in {0, 1, 2, ...}
    assert f[1:].sum() == pytest.approx(1 - p, abs=1e-12)  # printed x in N+: mass 1 - p
    # the first outcome (H) has zero tails and probability 1/2 = f(0)
    assert f[0] == pytest.approx(0.5)


def test_notes002_eq024_change_of_variables_needs_absolute_value():
    mu, var = 1.0, 2.0
    y = np.linspace(-4.0, 2.0, 7)
    # Y = g(X) = -X (monotonic decreasing): g^-1(y) = -y, d/dy g^-1 = -1
    printed = np.exp(logpdf_GAU_1D(-y, mu, var)) * (-1.0)
    correct = np.exp(logpdf_GAU_1D(-y, mu, var)) * abs(-1.0)
    assert np.all(printed < 0)  # not a density
    np.testing.assert_allclose(correct, np.exp(logpdf_GAU_1D(y, -mu, var)), rtol=1e-12)


def test_notes002_sec4_4_clt_standardised_sum():
    mu, var = 0.3, 0.3 * 0.7  # Bernoulli(0.3)
    n = 400
    # the sum of n iid variables has mean n mu and variance n var: not N(0, 1) for any n
    k = np.arange(n + 1)
    from scipy.stats import binom
    pmf = np.exp(logpmf_binomial(k, n, mu))  # mlpr's binomial pmf (section 4.3.2)
    np.testing.assert_allclose(pmf, binom.pmf(k, n, mu), rtol=1e-9, atol=1e-300)
    assert np.sum(k * pmf) == pytest.approx(n * mu, rel=1e-10)
    assert np.sum((k - n * mu) ** 2 * pmf) == pytest.approx(n * var, rel=1e-8)
    # the standardised sum (S_n - n mu) / sqrt(n var) is close to N(0, 1)
    z = np.array([-1.0, 0.0, 1.0])
    cdf = binom.cdf(np.floor(n * mu + z * np.sqrt(n * var)), n, mu)
    np.testing.assert_allclose(cdf, norm.cdf(z), atol=0.03)


_PRINTED_LOGPDF = '''
def logpdf_GAU_ND(X, mu, C):
    N = x.shape[0]
    for x in X.T:
        x = vcol(x)
        const = N*numpy.log(2*numpy.pi)
        logC = numpy.linalg.slogdet(C)[1]
        mult = numpy.dot(numpy.dot((x-mu).T, numpy.linalg.inv(C)), (x-mu))[0,0]
        Y.append(-0.5*(a+b+c))
    return numpy.array(Y)
'''


def test_notes002_sec4_4_printed_logpdf_code_does_not_run():
    ns = {"numpy": np, "vcol": lambda v: v.reshape(-1, 1)}
    exec(_PRINTED_LOGPDF, ns)  # the PDF-broken parenthesis of the last dot repaired
    X = np.random.default_rng(6).standard_normal((2, 3))
    with pytest.raises(NameError):  # x read before it is assigned (UnboundLocalError)
        ns["logpdf_GAU_ND"](X, np.zeros((2, 1)), np.eye(2))
    # with x -> X, Y = [] and (a, b, c) -> (const, logC, mult) it is eq. (41)
    fixed = (_PRINTED_LOGPDF.replace("N = x.shape[0]", "N = X.shape[0]\n    Y = []")
             .replace("(a+b+c)", "(const+logC+mult)"))
    exec(fixed, ns)
    mu, C = np.array([[0.5], [-1.0]]), np.array([[2.0, 0.4], [0.4, 1.0]])
    np.testing.assert_allclose(ns["logpdf_GAU_ND"](X, mu, C), logpdf_GAU_ND(X, mu, C),
                               rtol=1e-12)


def test_notes002_eq072_sw_is_sigma_and_gives_eq073():
    Sigma = np.array([[2.0, 0.6], [0.6, 1.0]])
    dmu = np.array([1.0, -2.0])
    Sb = np.outer(dmu, dmu)
    lam, U = scipy.linalg.eigh(Sb, Sigma)  # S_W = Sigma
    w = U[:, -1]
    target = np.linalg.solve(Sigma, dmu)  # eq. (73): Lambda (mu_1 - mu_0)
    assert abs(w @ target) / np.linalg.norm(w) / np.linalg.norm(target) == pytest.approx(1.0)
    # read as printed (Sigma in the numerator, (mu_1 - mu_0)(mu_1 - mu_0)^T as the other matrix)
    # the quotient has no maximum: its denominator vanishes for w orthogonal to mu_1 - mu_0
    w_perp = np.array([dmu[1], -dmu[0]])
    assert w_perp @ Sb @ w_perp == 0.0 and w_perp @ Sigma @ w_perp > 0
    # on data: mlpr's S_W is the tied model's Sigma, and mlpr's LDA direction is Lambda (mu_1 -
    # mu_0), eq. (73)
    D, L = _two_classes(seed=16)
    Sw, _ = compute_Sw_Sb(D, L)
    tied = train_tied(D, L)
    np.testing.assert_allclose(Sw, tied.C, rtol=1e-12)
    w_lda = fit_lda(D, L, 1).W[:, 0]
    eq73 = np.linalg.solve(tied.C, tied.mu[:, 1] - tied.mu[:, 0])
    assert abs(w_lda @ eq73) / np.linalg.norm(w_lda) / np.linalg.norm(eq73) == pytest.approx(
        1.0, abs=1e-12)


def test_notes002_eq074_threshold_sign():
    # tied 1-D Gaussians N(+1, 1) (class 1) and N(-1, 1) (class 0): llr(x) = 2 x
    for pi in (0.2, 0.8, 0.95):
        correct = -np.log(pi / (1 - pi))  # from eq. (62): llr > -log(pi / (1 - pi))
        printed = np.log(pi / (1 - pi))  # eq. (74)
        assert bayes_threshold(pi) == pytest.approx(correct, rel=1e-12)

        def risk(t, pi=pi):  # expected cost (unit costs) deciding class 1 when 2 x > t
            x0 = np.asarray(t) / 2
            return pi * norm.cdf(x0, loc=1) + (1 - pi) * norm.sf(x0, loc=-1)

        assert risk(correct) < risk(printed) - 1e-3
        ts = np.linspace(-10, 10, 4001)
        assert ts[np.argmin(risk(ts))] == pytest.approx(correct, abs=0.01)


def test_notes002_sec5_2_3_pseudocounts_go_to_every_word():
    counts = np.array([[3, 0], [2, 0], [0, 0]])  # word 2 never seen in this class
    N_cj = counts.sum(axis=1).astype(float)
    eps = 1.0
    printed = N_cj / (N_cj.sum() + eps)  # eps added to N_c only
    assert printed[2] == 0.0 and printed.sum() < 1
    correct = (N_cj + eps) / (N_cj.sum() + eps * N_cj.size)
    assert np.all(correct > 0) and correct.sum() == pytest.approx(1.0)
    np.testing.assert_allclose(ml_multinomial(counts, pseudo=eps), correct, rtol=1e-12)


_PRINTED_LOGREG = '''
def logreg_obj_wrap(D, c, l):
    def logreg_obj(v):
        w, b = v[0:-1], v[-1]
        z = 2*c-1
        reg_term = 1/2*numpy.linalg.norm(w)**2
        exponent = -z*(numpy.dot(w.T, D)+b)
        sum = numpy.logaddexp(0, exponent).sum()
        return reg_term + sum/D.shape[1]
    return logreg_obj
'''


def test_notes002_sec6_1_logreg_code_is_eq100_once_1_reads_l():
    """Erratum 16, withdrawn: the text's ``1/2*`` is the conversion's "1" for "l" (the same
    garble as the parameter ``logreg_obj_wrap(D, c, 1)``). Read as ``l/2*`` the printed code is
    eq. (100) and equals mlpr's objective for every lambda; read literally it would ignore
    lambda."""
    ns = {"numpy": np}
    exec(_PRINTED_LOGREG.replace("reg_term = 1/2*", "reg_term = l/2*"), ns)
    D, L = _two_classes(seed=7)
    v = np.array([0.7, -0.4, 0.2])
    w = v[:-1]
    values = []
    for lam in (1e-3, 1.0, 10.0):
        f, _ = logreg_obj_wrap(D, L, lam)(v)  # eq. (100)
        assert ns["logreg_obj_wrap"](D, L, lam)(v) == pytest.approx(f, rel=1e-12)
        values.append(f)
    # lambda / 2 |w|^2 with the square: the differences are (lambda - lambda') / 2 |w|^2
    assert values[2] - values[1] == pytest.approx(9 / 2 * (w @ w), rel=1e-10)
    literal = {"numpy": np}
    exec(_PRINTED_LOGREG, literal)
    assert len({literal["logreg_obj_wrap"](D, L, lam)(v) for lam in (1e-3, 1.0, 10.0)}) == 1


def test_notes002_eq105_log_prior():
    rng = np.random.default_rng(8)
    mu = np.array([[0.0, 1.0, -1.0], [0.0, 1.0, 2.0]])
    C = np.array([[1.5, 0.3], [0.3, 0.8]])
    model = GaussianClassifier(mu=mu, C=C, kind="tied")
    priors = np.array([0.6, 0.3, 0.1])
    X = rng.standard_normal((2, 5))
    Lam = np.linalg.inv(C)
    W = Lam @ mu  # w_c = Lambda mu_c
    b = -0.5 * np.einsum("ic,ij,jc->c", mu, Lam, mu)  # b_c = -mu_c^T Lambda mu_c / 2
    lin = W.T @ X + b[:, None]
    ref = log_posteriors(model.scores(X), priors)
    correct = lin + np.log(priors)[:, None]  # + log pi_c
    np.testing.assert_allclose(correct - logsumexp(correct, axis=0), ref, atol=1e-12)
    printed = lin + priors[:, None]  # + pi_c
    assert not np.allclose(printed - logsumexp(printed, axis=0), ref, atol=1e-3)


def test_notes002_sec7_1_weighted_error_not_accuracy():
    L = np.array([0, 0, 0, 1, 1, 1, 1, 1])
    alpha = 0.3

    def printed_acc(pred):  # "acc = alpha FPR + (1 - alpha) FNR"
        fnr, fpr = fn_fp_rates(pred, L)
        return alpha * fpr + (1 - alpha) * fnr

    def weighted_accuracy(pred):  # alpha TNR + (1 - alpha) TPR
        fnr, fpr = fn_fp_rates(pred, L)
        return alpha * (1 - fpr) + (1 - alpha) * (1 - fnr)

    perfect, worst = L.copy(), 1 - L
    some = np.array([0, 1, 0, 1, 0, 1, 1, 1])
    assert printed_acc(perfect) == 0.0 and printed_acc(worst) == 1.0  # an error, not accuracy
    assert weighted_accuracy(perfect) == 1.0 and weighted_accuracy(worst) == 0.0
    assert printed_acc(some) == pytest.approx(1 - weighted_accuracy(some), abs=1e-15)


def test_notes002_sec7_2_misses_are_fn_over_nt():
    L = np.array([1] * 10 + [0] * 40)
    pred = L.copy()
    pred[:3] = 0  # FN = 3 of N_T = 10
    pred[10:14] = 1  # FP = 4 of N_F = 40
    pi, Cfn, Cfp = 0.3, 2.0, 1.0
    ref = dcf(pred, L, pi, Cfn, Cfp, normalize=False)  # eq. (135) / (136)
    assert ref == pytest.approx(pi * Cfn * 3 / 10 + (1 - pi) * Cfp * 4 / 40, rel=1e-12)
    printed = pi * Cfn * 3 / 40 + (1 - pi) * Cfp * 4 / 40  # FN / N_F
    assert printed != pytest.approx(ref, rel=1e-3)


def test_notes002_sec8_3_hinge_is_positive_inside_the_margin():
    zs = np.array([0.2, 0.5, 0.99])  # correctly classified (z s > 0), inside the margin
    assert np.all(hinge_loss(zs) > 0)
    np.testing.assert_allclose(hinge_loss(zs), 1 - zs)
    assert np.all(hinge_loss(np.array([1.0, 2.0, 7.0])) == 0)  # zero only from z s >= 1


def test_notes002_eq174_kernel_score_uses_the_test_point():
    rng = np.random.default_rng(9)
    X = rng.standard_normal((3, 6))
    z = np.array([1, -1, 1, 1, -1, -1.0])
    alpha = rng.random(6)
    b = 0.3
    xt = rng.standard_normal(3)

    def phi(x):  # eq. (176)
        return np.concatenate([np.outer(x, x).ravel(), np.sqrt(2) * x, [1.0]])

    w = sum(a * zi * phi(X[:, i]) for i, (a, zi) in enumerate(zip(alpha, z)))
    s_primal = w @ phi(xt) + b
    k = lambda a, c: (a @ c + 1.0) ** 2  # noqa: E731  eq. (178)
    s_dual = sum(a * zi * k(X[:, i], xt) for i, (a, zi) in enumerate(zip(alpha, z))) + b
    assert s_dual == pytest.approx(s_primal, rel=1e-12)
    # the printed k(x_i, x_j) never reads x_t: the "score" is the same for every test point
    j = 0
    printed = sum(a * zi * k(X[:, i], X[:, j]) for i, (a, zi) in enumerate(zip(alpha, z))) + b
    xt2 = rng.standard_normal(3)
    s2 = sum(a * zi * k(X[:, i], xt2) for i, (a, zi) in enumerate(zip(alpha, z))) + b
    assert s2 != pytest.approx(s_dual, rel=1e-6)
    assert printed != pytest.approx(s_dual, rel=1e-6)


def _poly_svm_and_phi():
    """mlpr's kernel SVM with (x'y + 1)^2 (free bias) on 2-D data, w = sum_i alpha_i z_i phi(x_i)
    in the explicit feature space of eq. (176), and a few test points."""
    D, L = _two_classes(seed=17, n0=15, n1=15)
    m = train_svm_kernel(D, L, 1.0, poly_kernel(2, 1.0), None)

    def phi(X):  # eq. (176), one column per sample
        return np.vstack([np.einsum("in,jn->ijn", X, X).reshape(-1, X.shape[1]),
                          np.sqrt(2) * X, np.ones((1, X.shape[1]))])

    w = phi(m.support_vectors) @ (m.alpha * m.z)
    XT = np.random.default_rng(18).standard_normal((2, 7)) * 2
    return m, phi, w, XT


def test_notes002_eq174_mlpr_kernel_scores_read_the_test_point():
    m, phi, w, XT = _poly_svm_and_phi()
    # KernelSVM.scores is eq. (174) with k(x_i, x_t): it equals w^T phi(x_t) + b
    np.testing.assert_allclose(m.scores(XT), w @ phi(XT) + m.b, rtol=1e-9, atol=1e-9)
    # the printed k(x_i, x_j) (j a training point) gives one value for every test point
    k = poly_kernel(2, 1.0)
    za = m.alpha * m.z
    printed = za @ k(m.support_vectors, m.support_vectors[:, :1]) + m.b
    assert np.ptp(m.scores(XT)) > 1.0
    assert not np.allclose(m.scores(XT), printed, atol=1e-3)


def test_notes002_eq181_needs_the_hinge():
    D, L = _two_classes(seed=10)
    z = 2.0 * L - 1.0
    C, prior = 1.0, 0.8
    Ci = np.where(L == 1, C * prior / np.mean(L == 1), C * (1 - prior) / np.mean(L == 0))

    def printed(w, b):  # eq. (181) as printed
        return 0.5 * w @ w + np.sum(Ci * (1 - z * (w @ D + b)))

    def correct(w, b):  # with max(0, .)
        return 0.5 * w @ w + np.sum(Ci * np.maximum(0.0, 1 - z * (w @ D + b)))

    w = np.array([0.3, 0.9])
    for b in (-1.0, 0.0, 2.0):
        assert correct(w, b) == pytest.approx(svm_primal_objective(w, b, D, L, C, prior=prior),
                                              rel=1e-12)
    # unbounded below: linear in b with slope -sum C_i z_i != 0
    slope = -np.sum(Ci * z)
    assert abs(slope) > 1
    bs = -np.sign(slope) * np.array([1e2, 1e4, 1e6])
    vals = [printed(w, b) for b in bs]
    assert vals[0] > vals[1] > vals[2] and vals[2] < -1e5
    assert min(correct(w, b) for b in bs) >= 0
    # rewards points beyond the margin: pushing a well-classified point further lowers it
    i = int(np.argmax(z * (w @ D)))
    D2 = D.copy()
    D2[:, i] += 5.0 * z[i] * w
    assert z[i] * (w @ D[:, i]) > 1
    assert (0.5 * w @ w + np.sum(Ci * (1 - z * (w @ D2)))) < printed(w, 0.0) - 1
    assert svm_primal_objective(w, 0.0, D2, L, C, prior=prior) == pytest.approx(
        svm_primal_objective(w, 0.0, D, L, C, prior=prior), rel=1e-12)


_GMM = [(0.3, np.array([[-2.0]]), np.array([[0.5]])),
        (0.7, np.array([[1.0]]), np.array([[2.0]]))]


def _gmm_pdf(x):
    return np.exp(logpdf_GMM(np.atleast_2d(x), _GMM))


def test_notes002_eq187_likelihood_is_a_product():
    x = np.array([[-2.1, 0.4, 1.7, 3.0]])
    log_f = logpdf_GMM(x, _GMM)
    f = np.exp(log_f)
    product = np.prod([sum(w * np.exp(logpdf_GAU_ND(x[:, [i]], m, C))[0] for w, m, C in _GMM)
                       for i in range(x.shape[1])])
    assert np.log(product) == pytest.approx(log_f.sum(), rel=1e-12)  # eq. (188) = log product
    assert np.log(f.sum()) != pytest.approx(log_f.sum(), rel=1e-3)  # log of the printed sum
    assert f.sum() != pytest.approx(product, rel=1e-3)
    # as a density of two independent samples the sum is not normalised: on a box of
    # width 40, f(x1) + f(x2) integrates to about 2 * 40, the product to 1
    g = np.linspace(-20, 20, 2001)
    fg = _gmm_pdf(g[None, :])
    prod_int = _trapezoid(fg, g) ** 2
    sum_int = 2 * 40 * _trapezoid(fg, g)
    assert prod_int == pytest.approx(1.0, abs=1e-6)
    assert sum_int == pytest.approx(80.0, rel=1e-4)


def test_notes002_eq190_is_the_joint_not_the_conditional():
    for c, (w, m, C) in enumerate(_GMM):
        printed_conditional = lambda x: w * np.exp(logpdf_GAU_1D(x, m[0, 0], C[0, 0]))  # noqa
        assert _grid_integral(printed_conditional) == pytest.approx(w, rel=1e-8)  # not 1
        conditional = lambda x: np.exp(logpdf_GAU_1D(x, m[0, 0], C[0, 0]))  # noqa
        assert _grid_integral(conditional) == pytest.approx(1.0, rel=1e-8)
        x = np.array([[0.3, -1.0]])
        np.testing.assert_allclose(log_joint_GMM(x, _GMM)[c],
                                   np.log(w) + logpdf_GAU_ND(x, m, C), rtol=1e-12)


def test_notes002_eq203_llr_is_a_log_ratio():
    gmm1 = _GMM
    gmm0 = [(1.0, np.array([[0.0]]), np.array([[1.0]]))]
    x = np.array([[-3.0, -0.5, 0.0, 0.8, 4.0]])
    llr = logpdf_GMM(x, gmm1) - logpdf_GMM(x, gmm0)
    printed = np.exp(logpdf_GMM(x, gmm1)) / np.exp(logpdf_GMM(x, gmm0))  # eq. (203)
    np.testing.assert_allclose(np.log(printed), llr, rtol=1e-12)
    assert not np.allclose(printed, llr)
    # against the Bayes threshold for pi = 1/2 (t = 0) the ratio accepts every sample
    assert np.all(printed > 0) and np.any(llr <= 0)
    # mlpr's GMM classifier returns the log-ratio, not the printed ratio
    clf = GMMClassifier(gmms=(gmm0, gmm1))
    np.testing.assert_allclose(clf.llr(x), llr, rtol=1e-12, atol=1e-12)
    assert np.any(clf.llr(x) < 0)  # a ratio is never negative
    np.testing.assert_allclose(np.exp(clf.llr(x)), printed, rtol=1e-12)


_PRINTED_RESHAPE = """
x = [[1, 2], [3, 4], [5, 6]] # shape (3, 2)
y = x.reshape((2, 3)) # y = [[1, 2, 3], [4, 5, 6]]
"""


def test_notes002_sec1_1_reshape_needs_an_array():
    with pytest.raises(AttributeError, match="reshape"):  # a Python list has no reshape
        exec(_PRINTED_RESHAPE, {"numpy": np})
    ns = {"numpy": np}
    exec(_PRINTED_RESHAPE.replace("x = [[1, 2], [3, 4], [5, 6]]",
                                  "x = numpy.array([[1, 2], [3, 4], [5, 6]])"), ns)
    assert ns["x"].shape == (3, 2) and ns["y"].tolist() == [[1, 2, 3], [4, 5, 6]]


def _iris_petals_svm():
    """mlpr's linear SVM (C = 1, free bias) on iris versicolor (1) vs virginica (0), petal
    features (lecture 08's three kinds of training point): alpha and z_i s_i."""
    D, L = load_iris()
    X, Y = D[2:4, L > 0], (L[L > 0] == 1).astype(int)
    m = train_svm_linear(X, Y, 1.0, K=None)
    return m.alpha, (2 * Y - 1) * m.scores(X), m


def test_notes002_eq164_kinds_of_point():
    alpha, zs, m = _iris_petals_svm()
    C, tol = 1.0, 1e-6
    zero, bound = alpha <= tol, alpha >= C - tol
    free = ~zero & ~bound
    assert m.kkt_violation < 1e-6
    xi = hinge_loss(zs)  # the slack of the primal solution, xi_i = max(0, 1 - z_i s_i)
    # alpha = 0: z s >= 1 (outside the margin or on it), xi = 0; "correctly classified" is
    # weaker (it allows 0 < z s < 1, where alpha cannot be 0)
    assert np.all(zs[zero] >= 1 - 1e-6) and np.all(xi[zero] <= 1e-6)
    assert np.all(np.abs(zs[free] - 1) <= 1e-6)
    # alpha = C: xi >= 0 (z s <= 1), and the point may be misclassified (z s < 0), not only
    # "inside the margin"
    assert np.all(zs[bound] <= 1 + 1e-6)
    assert [int(zero.sum()), int(free.sum()), int(bound.sum())] == [75, 4, 21]
    assert int(np.sum(zs[bound] < 0)) == 5 and np.all(zs[bound][zs[bound] < 0] < -0.1)
    # the primal value from the slacks equals the dual (strong duality): the slacks are right
    assert 0.5 * m.w @ m.w + C * xi.sum() == pytest.approx(m.dual_objective, rel=1e-8)


def test_notes002_eq119_regulariser_is_squared():
    rng = np.random.default_rng(19)
    D = rng.standard_normal((3, 30))
    L = np.arange(30) % 3
    W, b = rng.standard_normal((3, 3)), rng.standard_normal(3)
    v = np.concatenate([W.ravel(order="F"), b])
    f0, _ = logreg_multiclass_obj_wrap(D, L, 0.0)(v)
    for lam in (0.5, 2.0):
        f, _ = logreg_multiclass_obj_wrap(D, L, lam)(v)
        # Omega(W) = lambda/2 ||W||^2 (as eq. 100), not lambda/2 ||W||
        assert f - f0 == pytest.approx(lam / 2 * np.sum(W * W), rel=1e-10)
        assert f - f0 != pytest.approx(lam / 2 * np.linalg.norm(W), rel=1e-3)
    # the binary objective, eq. (100), squares the norm too
    Db, Lb = _two_classes(seed=20)
    vb = np.array([1.5, -2.0, 0.3])
    g0, _ = logreg_obj_wrap(Db, Lb, 0.0)(vb)
    g1, _ = logreg_obj_wrap(Db, Lb, 2.0)(vb)
    assert g1 - g0 == pytest.approx(vb[:2] @ vb[:2], rel=1e-10)
    assert g1 - g0 != pytest.approx(np.linalg.norm(vb[:2]), rel=1e-3)


def test_notes002_eq175_primal_score_is_w_phi_x():
    m, phi, w, XT = _poly_svm_and_phi()
    # w lives in the feature space: w^T phi(x_t) + b is mlpr's score
    assert w.shape == (7,) and XT.shape[0] == 2
    np.testing.assert_allclose(w @ phi(XT) + m.b, m.scores(XT), rtol=1e-9, atol=1e-9)
    with pytest.raises(ValueError):  # the printed w^T x_t: a 7-vector against a 2-vector
        w @ XT


def test_notes002_eq189_conditional_is_given_c():
    x = np.array([[-2.5, -0.3, 1.2, 4.0]])
    f = np.exp(logpdf_GMM(x, _GMM))
    # sum_c f(x | c) P(C = c), f(x | c) = N(x; mu_c, Sigma_c): mlpr's GMM density
    right = sum(w * np.exp(logpdf_GAU_ND(x, m, C)) for w, m, C in _GMM)
    np.testing.assert_allclose(right, f, rtol=1e-12)
    # the printed f(x_i | c_i) does not depend on the summation index c: the sum is then
    # f(x | c_i) sum_c w_c = f(x | c_i), one component's density, whichever c_i is fixed
    for _, m, C in _GMM:
        printed = sum(w * np.exp(logpdf_GAU_ND(x, m, C)) for w, _, _ in _GMM)
        assert not np.allclose(printed, f, rtol=1e-3)


# ------------------------------------------------------------------------------------------
# Note 004
# ------------------------------------------------------------------------------------------

def test_notes004_gaussian_normaliser():
    mu = 0.5
    for sigma in (0.5, 2.0, 3.0):
        def printed(x, sigma=sigma):
            return np.exp(-(x - mu) ** 2 / (2 * sigma ** 2)) / np.sqrt(2 * np.pi * sigma)

        assert _grid_integral(printed) == pytest.approx(np.sqrt(sigma), rel=1e-8)  # != 1
        correct = lambda x, s=sigma: np.exp(logpdf_GAU_1D(x, mu, s ** 2))  # noqa: E731
        assert _grid_integral(correct) == pytest.approx(1.0, rel=1e-8)
        x = np.linspace(-3, 3, 5)
        np.testing.assert_allclose(
            correct(x), np.exp(-(x - mu) ** 2 / (2 * sigma ** 2)) / np.sqrt(2 * np.pi * sigma ** 2),
            rtol=1e-12)
    # sigma = 1 is the one case where the printed normaliser is right
    assert _grid_integral(lambda x: np.exp(-x ** 2 / 2) / np.sqrt(2 * np.pi)) == pytest.approx(1)


def test_notes004_bayes_classifier_is_argmax_posterior():
    P = np.array([[0.6, 0.1, 0.3], [0.3, 0.2, 0.5], [0.1, 0.7, 0.2]])  # (K, N), columns sum to 1
    risk = uniform_cost_matrix(3) @ P  # R(c_i | x) = 1 - P(c_i | x)
    np.testing.assert_allclose(risk, 1 - P)
    decisions = bayes_decisions(np.log(P), uniform_cost_matrix(3))
    np.testing.assert_array_equal(decisions, np.argmax(P, axis=0))
    printed = np.argmin(P, axis=0)
    assert np.all(printed != decisions)
    n = np.arange(3)
    assert np.all(risk[printed, n] > risk[decisions, n])


def test_notes004_within_class_scatter_is_not_the_sum_of_covariances():
    D, L = _two_classes(seed=11, n0=20, n1=80)
    scatters = [(D[:, L == k] - D[:, L == k].mean(1, keepdims=True)) for k in (0, 1)]
    scatters = [Z @ Z.T for Z in scatters]
    covs = [np.cov(D[:, L == k], bias=True) for k in (0, 1)]
    Sw, _ = compute_Sw_Sb(D, L)
    np.testing.assert_allclose(Sw * D.shape[1], scatters[0] + scatters[1], rtol=1e-10)
    assert not np.allclose(covs[0] + covs[1], scatters[0] + scatters[1], rtol=0.1)
    np.testing.assert_allclose(20 * covs[0] + 80 * covs[1], scatters[0] + scatters[1],
                               rtol=1e-10)
    # and the direction S_w^-1 (mu_1 - mu_0) differs
    dmu = D[:, L == 1].mean(1) - D[:, L == 0].mean(1)
    a = np.linalg.solve(covs[0] + covs[1], dmu)
    b = np.linalg.solve(scatters[0] + scatters[1], dmu)
    assert abs(a @ b) / np.linalg.norm(a) / np.linalg.norm(b) < 0.999


def test_notes004_rayleigh_value_is_w_sb_w():
    D, L = _two_classes(seed=12)
    Sw, Sb = compute_Sw_Sb(D, L)
    lam, U = scipy.linalg.eigh(Sb, Sw)  # U^T Sw U = I
    w = U[:, -1]
    assert w @ Sw @ w == pytest.approx(1.0, rel=1e-10)  # the constraint
    assert w @ Sb @ w == pytest.approx(lam[-1], rel=1e-10)  # the objective is lambda
    assert lam[-1] != pytest.approx(1.0, rel=1e-3)  # so w^T S_w w = lambda is false
    # and S_b w = (mu_1 - mu_0) ((mu_1 - mu_0)^T w), a vector parallel to mu_1 - mu_0
    dmu = D[:, L == 1].mean(1) - D[:, L == 0].mean(1)
    v = Sb @ w
    assert v.shape == (2,) and abs(v @ dmu) / np.linalg.norm(v) / np.linalg.norm(dmu) == (
        pytest.approx(1.0))


def test_notes004_gaussian_ratio_keeps_the_determinants():
    mu0, mu1 = np.array([[0.0], [0.0]]), np.array([[1.0], [1.0]])
    S0, S1 = np.diag([1.0, 4.0]), np.array([[2.0, 0.5], [0.5, 1.0]])
    x = np.array([[0.3, 2.0], [-1.0, 0.5]])
    ratio = np.exp(logpdf_GAU_ND(x, mu1, S1) - logpdf_GAU_ND(x, mu0, S0))

    def quad(m, S):
        Z = x - m
        return np.sum(Z * np.linalg.solve(S, Z), axis=0)

    printed = np.exp(-0.5 * quad(mu1, S1) + 0.5 * quad(mu0, S0))
    factor = np.sqrt(np.linalg.det(S0) / np.linalg.det(S1))
    np.testing.assert_allclose(ratio, factor * printed, rtol=1e-12)
    assert factor != pytest.approx(1.0, rel=1e-3)


def test_notes004_lda_threshold_is_not_zero():
    # note 001's example: Sigma = diag(9/4, 1/4), mu_1 = (3, 0), mu_0 = (1, 1)
    Sinv = [Fraction(4, 9), Fraction(4)]
    dmu = [Fraction(2), Fraction(-1)]
    ssum = [Fraction(4), Fraction(1)]
    threshold = sum(p * d * s for p, d, s in zip(Sinv, dmu, ssum)) / 2
    assert threshold == Fraction(-2, 9) and threshold != 0
    # the decision w^T x > threshold at the midpoint (2, 1/2) is exactly the boundary
    w = [p * d for p, d in zip(Sinv, dmu)]
    mid = [Fraction(2), Fraction(1, 2)]
    assert sum(a * b for a, b in zip(w, mid)) == threshold
    # mlpr's tied llr w^T x + b decides class 1 when w^T x > -b: the threshold -b = -2/9
    model = GaussianClassifier(mu=np.array([[1.0, 3.0], [1.0, 0.0]]),
                               C=np.diag([2.25, 0.25]), kind="tied")
    _, b_lib = tied_binary_llr_coefficients(model)
    assert -b_lib == pytest.approx(-2 / 9, rel=1e-12) and abs(b_lib) > 0.2


def test_notes004_lda_maximises_between_over_within():
    D, L = _two_classes(seed=13)
    Sw, Sb = compute_Sw_Sb(D, L)
    w_lda = np.linalg.solve(Sw, D[:, L == 1].mean(1) - D[:, L == 0].mean(1))
    J = lambda w: fisher_criterion(w, D, L, scaling="covariances")  # noqa: E731
    rng = np.random.default_rng(14)
    others = [J(v) for v in rng.standard_normal((50, 2))]
    assert J(w_lda) >= max(others) - 1e-12  # LDA: max between / within
    # the printed goal (max within / min between) is the reciprocal, minimised by LDA's w
    assert 1 / J(w_lda) <= min(1 / j for j in others) + 1e-12


def test_notes004_gradient_step_on_the_log_likelihood_ascends():
    rng = np.random.default_rng(15)
    X = np.hstack([rng.standard_normal((60, 2)), np.ones((60, 1))])
    y = (X[:, 0] + 0.5 * rng.standard_normal(60) > 0).astype(float)

    def loglik(beta):
        s = X @ beta
        return np.sum(y * s - np.logaddexp(0, s))

    beta = np.zeros(3)
    grad = X.T @ (y - expit(X @ beta))  # gradient of the log-likelihood L(beta)
    eta = 0.01
    assert loglik(beta - eta * grad) < loglik(beta)  # the printed step lowers L
    assert loglik(beta + eta * grad) > loglik(beta)  # ascent raises it
    # mlpr minimises R = -L / n (eq. 100, lambda = 0): its gradient is -grad L / n, so its
    # descent step is the ascent step on L
    D, c = X[:, :2].T, y.astype(int)
    f, g = logreg_obj_wrap(D, c, 0.0)(beta)  # v = [w, b]: the column of ones is the bias
    assert f == pytest.approx(-loglik(beta) / 60, rel=1e-12)
    np.testing.assert_allclose(g, -grad / 60, rtol=1e-12, atol=1e-15)
    assert loglik(beta - eta * 60 * g) > loglik(beta)


def test_notes004_log_posterior_is_equal_up_to_a_constant():
    # multinomial naive Bayes (mlpr's), three classes, word counts
    rng = np.random.default_rng(21)
    D = rng.integers(0, 4, size=(6, 40))
    L = np.arange(40) % 3
    model = train_multinomial_nb(D, L, eps=1.0)
    prior = np.array([0.5, 0.3, 0.2])
    X = rng.integers(0, 5, size=(6, 4))
    logpost = log_posteriors(model.scores(X), prior)
    lin = np.log(prior)[:, None] + np.log(model.pi).T @ X  # log P(c) + theta_c^T x
    # log P(c | x) = log P(c) + theta_c^T x + const(x): the difference is the same for every c
    diff = logpost - lin
    np.testing.assert_allclose(diff, diff[:1].repeat(3, axis=0), atol=1e-12)
    np.testing.assert_allclose(diff[0], -logsumexp(lin, axis=0), rtol=1e-12)
    # "proportional" would mean a constant ratio across classes: it is not
    ratio = logpost / lin
    assert np.ptp(ratio, axis=0).min() > 1e-3


def test_notes004_trace_ratio_is_not_maximised_by_the_top_eigenvectors():
    D, L = load_iris()
    Sw, Sb = compute_Sw_Sb(D, L)
    lam, U = scipy.linalg.eigh(Sb, Sw)  # S_b u = lambda S_w u, u^T S_w u = 1
    lam, U = lam[::-1], U[:, ::-1]
    W = fit_lda(D, L, 2).W  # mlpr's LDA: the top two eigenvectors of S_w^-1 S_b

    def trace_ratio(W):  # note 004's objective
        return np.trace(W.T @ Sb @ W) / np.trace(W.T @ Sw @ W)

    def eq8(W):  # the main notes' eq. (8): Tr((W^T S_w W)^-1 W^T S_b W)
        return np.trace(np.linalg.solve(W.T @ Sw @ W, W.T @ Sb @ W))

    np.testing.assert_allclose(W.T @ Sw @ W, np.eye(2), atol=1e-10)
    assert lam[0] == pytest.approx(32.19, abs=0.005) and lam[1] == pytest.approx(0.2854, abs=5e-4)
    # the top-2 eigenvectors: (lambda_1 + lambda_2) / 2 = 16.24 for note 004's ratio ...
    assert trace_ratio(W) == pytest.approx((lam[0] + lam[1]) / 2, rel=1e-10)
    assert trace_ratio(W) == pytest.approx(16.24, abs=0.005)
    # ... while W = [u_1, u_1] reaches lambda_1 = 32.19, the supremum of the ratio
    assert trace_ratio(np.c_[U[:, 0], U[:, 0]]) == pytest.approx(lam[0], rel=1e-10)
    # they maximise eq. (8), lambda_1 + lambda_2 = 32.48, which no W of rank 2 exceeds
    assert eq8(W) == pytest.approx(lam[0] + lam[1], rel=1e-10)
    assert eq8(W) == pytest.approx(32.48, abs=0.005)
    rng = np.random.default_rng(22)
    for _ in range(20):
        R = rng.standard_normal((4, 2))
        assert eq8(R) <= eq8(W) * (1 + 1e-12)
        assert trace_ratio(R) <= lam[0] * (1 + 1e-12)
