"""The grading kit: a course-style solution passes every task, each recognised mistake injected
into it fails with its hint, the runner survives a submission that raises, hangs, prints, reads
files or lacks functions, and its reports follow their schemas; the building blocks for a TA's own
tests (assert_close, fixtures, adapters, references) and student mode."""

import csv
import io
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from mlpr import grading
from mlpr.datasets import load_iris
from mlpr.evaluation import bayes_threshold
from mlpr.gaussian import compute_mu_C, logpdf_GAU_ND
from mlpr.generative import train_mvg
from mlpr.gmm import GMM, logpdf_GMM

REPO = Path(__file__).resolve().parents[1]
COURSE = REPO / "tests" / "grading_submissions" / "course_style.py"
SOURCE = COURSE.read_text()

# the one kit task whose function the course leaves inline in its scripts
LOGREG_LLR = """
def logreg_llr(scores, pT):
    return scores - np.log(pT / (1 - pT))
"""


@pytest.fixture(autouse=True)
def _in_a_working_folder_with_iris(tmp_path, monkeypatch):
    """In-process grading reads the course's iris.csv from the working folder, as the kit's
    sandbox lays it out for a submission."""
    (tmp_path / "iris.csv").write_bytes((REPO / "datasets" / "iris.csv").read_bytes())
    monkeypatch.chdir(tmp_path)


def submission(tmp_path, *code: str, name: str = "labs.py") -> Path:
    """The course-style solution with ``code`` appended (later definitions win)."""
    p = tmp_path / name
    p.write_text(SOURCE + "".join("\n\n" + textwrap.dedent(c) for c in code))
    return p


def grade_task(path: Path, task: str, run=None) -> grading.TaskResult:
    sub = grading.load_submission(path)
    (result,) = grading.grade_functions(sub.functions, [task], run=run)
    return result


@pytest.fixture(scope="module")
def course_with(tmp_path_factory):
    """``course_with(*code)``: the functions of the course-style solution with `LOGREG_LLR` and
    ``code`` appended, loaded once per test module. The tests of each mistake on the fixed cases
    and on the seeded cases grade the same files (loading one costs more than grading a task:
    discovery reads the whole course file); they share this fixture, hence one worker."""
    folder = tmp_path_factory.mktemp("course-with")
    loaded: dict = {}

    def functions(*code: str) -> dict:
        if code not in loaded:
            path = submission(folder, LOGREG_LLR, *code, name=f"labs{len(loaded)}.py")
            loaded[code] = grading.load_submission(path).functions
        return loaded[code]

    return functions


def grade_loaded(functions: dict, task: str, run=None) -> grading.TaskResult:
    (result,) = grading.grade_functions(functions, [task], run=run)
    return result


def run_kit(*args, timeout=300):
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    return subprocess.run([sys.executable, "-m", "mlpr.grading", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout, env=env)


# ------------------------------------------------------------------------------------------------
# the catalogue


def test_the_catalogue_is_the_course_records():
    """The tasks, their names and the course-style solution's functions come from one place,
    the records of `mlpr.grading.course`: every lab module's file name is its lab, every course
    function is a task under its own name, and the course-style solution defines each one."""
    from mlpr.grading import course

    records = course.records()
    for module in course.lab_modules():
        assert module.__name__.endswith(f".lab{module.LAB:02d}"), module.__name__
        assert module.FUNCTIONS, module.__name__
    names = [r.name for r in records]
    assert len(names) == len(set(names))
    assert set(names) == set(grading.tasks(everything=True))
    functions = {t.function_name for t in grading.tasks().values()}
    assert functions == course.course_names(everything=False)
    defined = set(grading.load_submission(COURSE).functions)
    assert functions <= defined, functions - defined


def test_course_style_solution_passes_every_task(course_with):
    results = grading.grade_functions(course_with())
    assert {r.name for r in results} == set(grading.tasks())
    failed = [(r.name, r.message, r.hint) for r in results if r.status != "passed"]
    assert not failed, failed
    for r in results:  # every pass reports the error it measured against its tolerance
        assert r.err is not None and r.err <= r.tol + 1e-300, r


def test_reference_gives_the_inputs_and_mlprs_answer():
    (DTR, LTR), (DVAL, LVAL) = grading.iris_split()
    cases = grading.reference("logpdf_GAU_ND")
    X, mu, C = cases[0].args
    np.testing.assert_array_equal(X, DVAL)
    np.testing.assert_allclose(cases[0].expected, logpdf_GAU_ND(X, mu, C), rtol=0)
    with pytest.raises(ValueError, match="no task 'logpdf'.*logpdf_GAU_ND"):
        grading.reference("logpdf")


# ------------------------------------------------------------------------------------------------
# each recognised mistake, injected into the course-style solution, fails with its hint

MISTAKES = {
    "unbiased covariance": ("compute_mu_C", """
        def compute_mu_C(D):
            return vcol(D.mean(1)), np.cov(D)
        """, "N - 1"),
    "transposed data": ("compute_mu_C", """
        def compute_mu_C(D):
            X = D.T
            mu = vcol(X.mean(1))
            return mu, (X - mu) @ (X - mu).T / X.shape[1]
        """, "wrong axis"),
    ">= at the threshold": ("compute_optimal_Bayes_binary_llr", """
        def compute_optimal_Bayes_binary_llr(llr, prior, Cfn, Cfp):
            return np.int32(llr >= -np.log(prior * Cfn / ((1 - prior) * Cfp)))
        """, "strictly"),
    ">= in the actDCF": ("compute_empirical_Bayes_risk_binary_llr_optimal_decisions", """
        def compute_empirical_Bayes_risk_binary_llr_optimal_decisions(llr, classLabels, prior,
                                                                      Cfn, Cfp, normalize=True):
            th = -np.log(prior * Cfn / ((1 - prior) * Cfp))
            return compute_empirical_Bayes_risk_binary(np.int32(llr >= th), classLabels, prior,
                                                       Cfn, Cfp, normalize)
        """, "strictly"),
    ">= in the Pfn / Pfp points": ("compute_Pfn_Pfp_allThresholds_slow", """
        def compute_Pfn_Pfp_allThresholds_slow(llr, classLabels):
            th = np.concatenate([[-np.inf], np.sort(llr), [np.inf]])
            Pfn, Pfp = [], []
            for t in th:
                pred = np.int32(llr >= t)
                M = compute_confusion_matrix(pred, classLabels)
                Pfn.append(M[0, 1] / (M[0, 1] + M[1, 1]))
                Pfp.append(M[1, 0] / (M[0, 0] + M[1, 0]))
            return Pfn, Pfp, th
        """, "llr >= t"),
    "missing prior log-odds of the LR llr": ("logreg_llr", """
        def logreg_llr(scores, pT):
            return scores
        """, "eq. 102"),
    "eps missing from the kernel": ("train_dual_SVM_kernel", """
        def train_dual_SVM_kernel(DTR, LTR, C, kernelFunc, eps=1.0):
            Z = LTR * 2.0 - 1.0
            alpha = _train_dual_SVM(kernelFunc(DTR, DTR) * vcol(Z) * vrow(Z), C)
            return lambda DTE: (vcol(alpha * Z) * kernelFunc(DTR, DTE)).sum(0)
        """, "eps is missing from the kernel"),
    "eps missing from the scores only": ("train_dual_SVM_kernel", """
        def train_dual_SVM_kernel(DTR, LTR, C, kernelFunc, eps=1.0):
            Z = LTR * 2.0 - 1.0
            alpha = _train_dual_SVM((kernelFunc(DTR, DTR) + eps) * vcol(Z) * vrow(Z), C)
            return lambda DTE: (vcol(alpha * Z) * kernelFunc(DTR, DTE)).sum(0)
        """, "missing from the scores"),
    "no floor in the EM update": ("train_GMM_EM_Iteration", """
        _em_iteration = train_GMM_EM_Iteration

        def train_GMM_EM_Iteration(X, gmm, covType='Full', psiEig=None):
            return _em_iteration(X, gmm, covType, None)
        """, "floor"),
    "no floor in EM": ("train_GMM_EM", """
        _em = train_GMM_EM

        def train_GMM_EM(X, gmm, covType='Full', psiEig=None, epsLLAverage=1e-6, verbose=False):
            return _em(X, gmm, covType, None, epsLLAverage)
        """, "floor"),
    "LBG split without the square root": ("split_GMM_LBG", """
        def split_GMM_LBG(gmm, alpha=0.1, verbose=False):
            out = []
            for w, mu, C in gmm:
                s, U = np.linalg.eigh(C)
                d = U[:, -1:] * s[-1] * alpha
                out += [(0.5 * w, mu - d, C), (0.5 * w, mu + d, C)]
            return out
        """, "square root"),
    "tied covariance not weighted by class sizes": ("Gau_Tied_ML_estimates", """
        def Gau_Tied_ML_estimates(D, L):
            hP = Gau_MVG_ML_estimates(D, L)
            C = sum(C for _, C in hP.values()) / len(hP)
            return {k: (mu, C) for k, (mu, _) in hP.items()}
        """, "N_c / N"),
    "logsumexp along the samples": ("compute_logPosterior", """
        def compute_logPosterior(S_logLikelihood, v_prior):
            J = S_logLikelihood + vcol(np.log(v_prior))
            return J - scipy.special.logsumexp(J, axis=1, keepdims=True)
        """, "each column (one sample) of the posteriors must sum to 1"),
    "prior-weighted LR normalised by N": ("trainWeightedLogRegBinary", """
        def trainWeightedLogRegBinary(DTR, LTR, l, pT):
            ZTR = LTR * 2.0 - 1.0
            wTar = pT / DTR.shape[1]
            wNon = (1 - pT) / DTR.shape[1]

            def f(v):
                w, b = v[:-1], v[-1]
                s = w @ DTR + b
                loss = np.logaddexp(0, -ZTR * s)
                G = -ZTR / (1.0 + np.exp(ZTR * s))
                G = np.where(ZTR > 0, G * wTar, G * wNon)
                J = l / 2 * w @ w + (loss * np.where(ZTR > 0, wTar, wNon)).sum()
                return J, np.append(l * w + (vrow(G) * DTR).sum(1), G.sum())

            v = scipy.optimize.fmin_l_bfgs_b(f, np.zeros(DTR.shape[0] + 1), factr=1.0)[0]
            return v[:-1], v[-1]
        """, "pi_T / n_T"),
    "the sweep without its first threshold": ("compute_minDCF_binary_fast", """
        def compute_minDCF_binary_fast(llr, classLabels, prior, Cfn, Cfp, returnThreshold=False):
            best, bestTh = None, None
            for th in np.concatenate([np.sort(llr), [np.inf]]):
                dcf = compute_empirical_Bayes_risk_binary(np.int32(llr > th), classLabels,
                                                          prior, Cfn, Cfp)
                if best is None or dcf < best:
                    best, bestTh = dcf, th
            return (best, bestTh) if returnThreshold else best
        """, "misses its first threshold"),
    ">= in the minDCF loop with returnThreshold": ("compute_minDCF_binary_slow", """
        def compute_minDCF_binary_slow(llr, classLabels, prior, Cfn, Cfp, returnThreshold=False):
            best, bestTh = None, None
            for th in np.concatenate([[-np.inf], np.sort(llr), [np.inf]]):
                dcf = compute_empirical_Bayes_risk_binary(np.int32(llr >= th), classLabels,
                                                          prior, Cfn, Cfp)
                if best is None or dcf < best:
                    best, bestTh = dcf, th
            return (best, bestTh) if returnThreshold else best
        """, "misplaces the sample whose score equals it"),
    "one-pass covariance": ("compute_mu_C", """
        def compute_mu_C(D):
            mu = vcol(D.mean(1))
            return mu, D @ D.T / D.shape[1] - mu @ mu.T
        """, "cancellation"),
    # (scipy's default factr=1e7 is no mistake the kit can tell on its conditioned SVM cases:
    # it stops 1e-5 to 4e-5 above the minimum there, as close as a correct answer may)
    "optimiser stopped early (maxiter)": ("train_dual_SVM_linear", """
        def train_dual_SVM_linear(DTR, LTR, C, K=1):
            Z = LTR * 2.0 - 1.0
            X = np.vstack([DTR, K * np.ones((1, DTR.shape[1]))])
            H = (X.T @ X) * vcol(Z) * vrow(Z)
            f = lambda a: (0.5 * a @ H @ a - a.sum(), H @ a - 1)
            a = scipy.optimize.fmin_l_bfgs_b(f, np.zeros(X.shape[1]),
                                             bounds=[(0, C)] * X.shape[1], maxiter=8)[0]
            w_hat = (vrow(a * Z) * X).sum(1)
            return w_hat[:-1], w_hat[-1] * K
        """, "the optimiser stopped early (the labs' SVM calls scipy.optimize.fmin_l_bfgs_b("
             "..., factr=1.0)"),
    "eigenvectors in ascending order": ("compute_pca", """
        def compute_pca(D, m):
            mu, C = compute_mu_C(D)
            return np.linalg.eigh(C)[1][:, :m]
        """, "ascending"),
    "eigenvalue order reversed": ("compute_lda_geig", """
        def compute_lda_geig(D, L, m):
            Sb, Sw = compute_Sb_Sw(D, L)
            return scipy.linalg.eigh(Sb, Sw)[1][:, :m]
        """, "ascending"),
    "log base": ("logpdf_GAU_ND", """
        def logpdf_GAU_ND(X, mu, C):
            P = np.linalg.inv(C)
            q = ((X - mu) * (P @ (X - mu))).sum(0)
            return (-0.5 * X.shape[0] * np.log10(2 * np.pi)
                    - 0.5 * np.log10(np.linalg.det(C)) - 0.5 * q)
        """, "log10"),
    "log base of the threshold": ("compute_optimal_Bayes_binary_llr", """
        def compute_optimal_Bayes_binary_llr(llr, prior, Cfn, Cfp):
            return np.int32(llr > -np.log10(prior * Cfn / ((1 - prior) * Cfp)))
        """, "log10"),
    "confusion matrix transposed": ("compute_confusion_matrix", """
        def compute_confusion_matrix(predictedLabels, classLabels):
            K = classLabels.max() + 1
            M = np.zeros((K, K), dtype=np.int32)
            for p, c in zip(predictedLabels, classLabels):
                M[c, p] += 1
            return M
        """, "predictions on the rows"),
    "Sb and Sw swapped": ("compute_Sb_Sw", """
        _sb_sw = compute_Sb_Sw

        def compute_Sb_Sw(D, L):
            Sb, Sw = _sb_sw(D, L)
            return Sw, Sb
        """, "(Sb, Sw)"),
    "posteriors without priors": ("compute_logPosterior", """
        def compute_logPosterior(S_logLikelihood, v_prior):
            return S_logLikelihood - scipy.special.logsumexp(S_logLikelihood, axis=0)
        """, "priors are missing"),
    "unnormalised DCF": ("compute_empirical_Bayes_risk_binary", """
        _risk = compute_empirical_Bayes_risk_binary

        def compute_empirical_Bayes_risk_binary(predictedLabels, classLabels, prior, Cfn, Cfp,
                                                normalize=True):
            return _risk(predictedLabels, classLabels, prior, Cfn, Cfp, False)
        """, "best dummy"),
}
# the same objective averaged over N, recognised where calibration and fusion call it (lambda = 0)
for _variant in ("calibration", "fusion"):
    MISTAKES[f"prior-weighted LR normalised by N ({_variant})"] = (
        f"trainWeightedLogRegBinary ({_variant})", MISTAKES["prior-weighted LR normalised by N"][1],
        "not pi_T / N")


@pytest.mark.slow
@pytest.mark.parametrize("mistake", list(MISTAKES))
def test_each_known_mistake_fails_with_its_hint(course_with, mistake):
    task, code, hint = MISTAKES[mistake]
    result = grade_loaded(course_with(code), task)
    assert result.status == "failed", (mistake, result)
    assert result.hint and hint in result.hint, (mistake, result.message, result.hint)


HARMLESS = {
    ">= inside the minDCF threshold loop (the same set of splits)": ("compute_minDCF_binary_slow",
                                                                     """
        def compute_minDCF_binary_slow(llr, classLabels, prior, Cfn, Cfp, returnThreshold=False):
            best, bestTh = None, None
            for th in np.concatenate([[-np.inf], np.sort(llr), [np.inf]]):
                dcf = compute_empirical_Bayes_risk_binary(np.int32(llr >= th), classLabels,
                                                          prior, Cfn, Cfp)
                if best is None or dcf < best:
                    best, bestTh = dcf, th
            return (best, np.nextafter(bestTh, -np.inf)) if returnThreshold else best
        """),
    "eigenvector signs flipped": ("compute_pca", """
        _pca = compute_pca

        def compute_pca(D, m):
            return -_pca(D, m)
        """),
    "another basis of the LDA subspace": ("compute_lda_JointDiag", """
        _lda = compute_lda_JointDiag

        def compute_lda_JointDiag(D, L, m):
            W = _lda(D, L, m)
            return W @ np.triu(np.ones((m, m))) * 3.0
        """),
    "the course's split_GMM_LBG, which prints unless verbose=False": ("split_GMM_LBG", """
        _split = split_GMM_LBG

        def split_GMM_LBG(gmm, alpha=0.1, verbose=True):
            if verbose:
                print("LBG - going from %d to %d components" % (len(gmm), len(gmm) * 2))
            return _split(gmm, alpha)
        """),
    "train_GMM_EM without a verbose parameter": ("train_GMM_EM", """
        _em = train_GMM_EM

        def train_GMM_EM(X, gmm, covType='Full', psiEig=None, epsLLAverage=1e-6):
            return _em(X, gmm, covType=covType, psiEig=psiEig, epsLLAverage=epsLLAverage)
        """),
    "a 2-argument and a 3-argument K-fold split": ("extract_train_val_folds_from_ary", """
        def extract_train_val_folds_from_ary(X, idx, KFOLD=5):
            return (np.hstack([X[j::KFOLD] for j in range(KFOLD) if j != idx]), X[idx::KFOLD])
        """),
}


@pytest.mark.parametrize("case", list(HARMLESS))
def test_harmless_differences_are_not_flagged(course_with, case):
    task, code = HARMLESS[case]
    result = grade_loaded(course_with(code), task)
    assert result.status == "passed", (case, result)


def test_lbg_split_along_any_leading_eigenvector_of_an_isotropic_component(tmp_path):
    # C = 0.01 I: every direction is a leading eigenvector; a student who picks another one passes
    code = """
        def split_GMM_LBG(gmm, alpha=0.1, verbose=False):
            out = []
            for w, mu, C in gmm:
                s, U = np.linalg.eigh(C)
                if np.allclose(s, s[-1]):
                    u = vcol(np.ones(C.shape[0]) / np.sqrt(C.shape[0]))
                else:
                    u = U[:, -1:]
                d = u * np.sqrt(s[-1]) * alpha
                out += [(0.5 * w, mu + d, C), (0.5 * w, mu - d, C)]
            return out
        """
    assert grade_task(submission(tmp_path, code), "split_GMM_LBG").status == "passed"


def test_optimiser_results_are_compared_by_the_objective(tmp_path):
    # a point off the minimiser in a flat direction, by 1e-6 of its objective: still optimal
    code = """
        _lr = trainLogRegBinary

        def trainLogRegBinary(DTR, LTR, l):
            w, b = _lr(DTR, LTR, l)
            return w + 2e-4, b
        """
    # at lambda = 0.1 the objective is 2e-6 above the minimum (5 times inside its tolerance), but
    # the gradient (3.7e-3, 3.7 times its tolerance) shows it is no minimum
    r = grade_task(submission(tmp_path, code), "trainLogRegBinary")
    assert r.status == "failed" and "gradient at the student's point" in r.message, r
    r = grade_task(submission(tmp_path, name="ok.py"), "trainLogRegBinary")
    assert r.status == "passed" and r.err <= 2e-8


def test_a_wrong_result_form_says_what_was_expected(tmp_path):
    code = """
        def Gau_MVG_ML_estimates(D, L):
            return [compute_mu_C(D[:, L == k]) for k in range(3)]
        """
    r = grade_task(submission(tmp_path, code), "Gau_MVG_ML_estimates")
    assert r.status == "failed" and "expected hParams, a dict {label: (mu, C)}" in r.message


def test_a_wrong_signature_is_explained(tmp_path):
    code = """
        def compute_ll(X, mu):
            return 0.0
        """
    r = grade_task(submission(tmp_path, code), "compute_ll")
    assert r.status == "failed" and "raised TypeError" in r.message
    assert "signature compute_ll(X, mu)" in r.hint


def test_input_changed_in_place_cannot_change_the_reference(tmp_path):
    code = """
        def compute_mu_C(D):
            mu = vcol(D.mean(1))
            D -= mu
            return mu, D @ D.T / D.shape[1]
        """
    r = grade_task(submission(tmp_path, code), "compute_mu_C")
    assert r.status == "passed", r


# ------------------------------------------------------------------------------------------------
# the runner: isolation, time limits, formats, exit status

BAD = """
import numpy as np

def vcol(x):
    return x.reshape((x.size, 1))

def compute_mu_C(D):
    raise RuntimeError("not done yet")

def logpdf_GAU_ND(X, mu, C):
    while True:
        pass

def logpdf_GAU_ND_fast(X, mu, C):
    print("debugging")
    P = np.linalg.inv(C)
    return (-0.5 * X.shape[0] * np.log(2 * np.pi) - 0.5 * np.linalg.slogdet(C)[1]
            - 0.5 * ((X - mu) * (P @ (X - mu))).sum(0))

def logpdf_GAU_ND_slow(X, mu, C):
    np.save("cache.npy", X)
    return logpdf_GAU_ND_fast(X, mu, C)

def compute_pca(D, m):
    return np.loadtxt("my_pca.txt")

def apply_pca(P, D):
    import os
    os._exit(3)

def my_helper():
    return 1
"""


@pytest.fixture(scope="module")
def bad_run(tmp_path_factory):
    d = tmp_path_factory.mktemp("bad")
    (d / "bad.py").write_text(BAD)
    proc = run_kit(d / "bad.py", "--lab", 3, "--lab", 4, "--timeout", 4, "--format", "json")
    return proc, {r["name"]: r for r in json.loads(proc.stdout)[0]["results"]}, \
        json.loads(proc.stdout)[0]


@pytest.mark.slow
def test_the_run_survives_raise_hang_print_files_exit_and_missing(bad_run):
    proc, results, report = bad_run
    assert proc.returncode == 1, proc.stderr
    assert "raised RuntimeError: not done yet" in results["compute_mu_C"]["message"]
    assert results["compute_mu_C"]["hint"] is None  # the first exception: no file hint
    assert "hangs" in results["logpdf_GAU_ND"]["message"]
    # printing is shown beside the result, not penalised
    assert results["logpdf_GAU_ND_fast"]["status"] == "passed"
    assert "debugging" in results["logpdf_GAU_ND_fast"]["printed"]
    assert "opened the file" in results["logpdf_GAU_ND_slow"]["message"]
    assert "my_pca.txt" in results["compute_pca"]["message"] + (results["compute_pca"]["hint"]
                                                                 or "")
    assert "exited (status 3)" in results["apply_pca"]["message"]
    assert "hangs" not in results["apply_pca"]["message"]
    assert "has no function compute_ll" in results["compute_ll"]["message"]
    assert "--map compute_ll=" in results["compute_ll"]["hint"]
    # the tasks after the hang and the exit ran in new child processes
    assert results["logpdf_GAU_ND_singleSample"]["status"] == "failed"
    assert "has no function" in results["logpdf_GAU_ND_singleSample"]["message"]
    assert report["not_graded"] == ["my_helper"]
    assert all(r["status"] in ("passed", "failed") for r in results.values())


@pytest.mark.slow
def test_printing_is_shown_and_fails_only_on_request(tmp_path):
    (tmp_path / "chatty.py").write_text(textwrap.dedent("""
        import numpy as np

        def logpdf_GAU_ND_fast(X, mu, C):
            print("J =", 0.5)
            P = np.linalg.inv(C)
            return (-0.5 * X.shape[0] * np.log(2 * np.pi) - 0.5 * np.linalg.slogdet(C)[1]
                    - 0.5 * ((X - mu) * (P @ (X - mu))).sum(0))
        """))
    def fast(*options):
        proc = run_kit(tmp_path / "chatty.py", "--format", "json", *options)
        return {r["name"]: r for r in json.loads(proc.stdout)[0]["results"]}["logpdf_GAU_ND_fast"]

    lenient, strict = fast(), fast("--fail-on-print")
    assert lenient["status"] == "passed" and "J = 0.5" in lenient["printed"], lenient
    assert strict["status"] == "failed" and "--fail-on-print" in strict["message"], strict


@pytest.mark.slow
def test_the_submissions_working_directory_is_a_temporary_one(bad_run, tmp_path):
    # the submission saved cache.npy in its working directory, not in the caller's
    assert not (Path.cwd() / "cache.npy").exists()


@pytest.fixture(scope="module")
def good_runs(tmp_path_factory):
    d = tmp_path_factory.mktemp("good")
    a = d / "alice.py"
    a.write_text(SOURCE)
    b = d / "bob"
    b.mkdir()  # a folder of modules that import each other, as students split their labs
    (b / "lab_gau.py").write_text(textwrap.dedent("""
        import numpy as np

        def vcol(x):
            return x.reshape((x.size, 1))

        def myMuC(D):
            mu = vcol(D.mean(1))
            return mu, (D - mu) @ (D - mu).T / D.shape[1]
        """))
    (b / "lab_ll.py").write_text("from lab_gau import myMuC, vcol\n")
    out = {}
    for fmt in ("text", "csv"):
        out[fmt] = run_kit(a, b, "--lab", 3, "--map", "compute_mu_C=myMuC", "--format", fmt,
                           "--jobs", 2)
    out["gradescope"] = run_kit(a, b, "--lab", 3, "--map", "compute_mu_C=myMuC", "--format",
                                "gradescope", "--jobs", 2, "--visibility", "after_due_date",
                                "--out", d / "results")
    out["gradescope_dir"] = d / "results"
    return out


@pytest.mark.slow
def test_gradescope_report_follows_the_autograder_schema(good_runs):
    folder = good_runs["gradescope_dir"]  # one results.json per submission
    docs = [json.loads((folder / f"{n}.results.json").read_text()) for n in ("alice", "bob")]
    for doc in docs:
        assert doc["visibility"] == "after_due_date"
        assert all(t["visibility"] == "after_due_date" for t in doc["tests"])
        assert set(doc) >= {"score", "tests"}
        assert isinstance(doc["score"], (int, float))
        for t in doc["tests"]:
            assert set(t) >= {"name", "score", "max_score", "status", "output"}
            assert isinstance(t["name"], str) and t["name"].startswith("lab 3 · ")
            assert isinstance(t["score"], (int, float)) and isinstance(t["max_score"],
                                                                      (int, float))
            assert t["status"] in ("passed", "failed") and isinstance(t["output"], str)
        assert doc["score"] == sum(t["score"] for t in doc["tests"])
    alice = docs[0]
    assert alice["score"] == sum(t["max_score"] for t in alice["tests"])
    assert {t["name"] for t in alice["tests"]} >= {"lab 3 · compute_mu_C", "lab 3 · compute_pca"}


def test_one_gradescope_submission_is_the_schema_object_itself(tmp_path):
    out = tmp_path / "results.json"
    proc = run_kit(COURSE, "--lab", 2, "--format", "gradescope", "--out", out)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(out.read_text())
    assert doc["score"] == 1 and doc["tests"][0]["name"] == "lab 2 · load_iris"


@pytest.mark.slow
def test_text_and_csv_reports(good_runs):
    text = good_runs["text"]
    assert text.returncode == 1  # bob's folder lacks most of lab 3
    assert "✔ lab 3 · compute_mu_C" in text.stdout and "✘ lab 3 · compute_pca" in text.stdout
    assert "err " in text.stdout and "(tol " in text.stdout
    rows = list(csv.reader(io.StringIO(good_runs["csv"].stdout)))
    assert rows[0][0] == "submission" and rows[0][-2:] == ["score", "max_score"]
    assert len(rows) == 3 and all(len(r) == len(rows[0]) for r in rows)
    bob = rows[2]
    assert bob[rows[0].index("lab 3 · compute_mu_C")] == "1.0"  # graded under the mapped name


@pytest.mark.parametrize("args, message", [
    (["missing.py"], "missing.py does not exist"),
    ([str(COURSE), "--map", "nosuchtask=f"], "no task named nosuchtask"),
    ([str(COURSE), "--lab", "99"], "--lab: the labs with tasks are"),
    ([], "give at least one SUBMISSION")])
def test_usage_errors_exit_2(args, message, capsys):
    """The kit's command line (``python -m mlpr.grading``, whose status is main's: here in this
    process) stops on a usage error with status 2 and says why, before grading anything."""
    from mlpr.grading.__main__ import main

    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_list_names_every_task():
    proc = run_kit("--list")
    assert proc.returncode == 0
    assert "train_dual_SVM_kernel(DTR, LTR, C, kernelFunc, eps=1.0)" in proc.stdout


# ------------------------------------------------------------------------------------------------
# building blocks


def test_assert_close_explains_an_unbiased_covariance():
    D, _ = load_iris()
    mu, C = compute_mu_C(D)
    grading.assert_close(C.copy(), C, what="C")
    with pytest.raises(AssertionError, match=r"(?s)C: relative error .* > tolerance.*N - 1 = 149"):
        grading.assert_close(np.cov(D), C, what="C", context={"N": [150]})
    with pytest.raises(AssertionError, match="transposed"):
        grading.assert_close(D[:, :5].T, D[:, :5], what="D")
    with pytest.raises(AssertionError, match="log10"):
        ll = logpdf_GAU_ND(D, mu, C)
        grading.assert_close(ll / np.log(10), ll, what="log-densities")
    with pytest.raises(AssertionError, match=r"prior log-odds log\(pi / \(1 - pi\)\)"):
        s = np.linspace(-2, 2, 9)
        grading.assert_close(s + np.log(0.2 / 0.8), s, what="llr", context={"prior": 0.2})


def test_fixtures():
    (DTR, LTR), (DVAL, LVAL) = grading.iris_split()
    assert DTR.shape == (4, 100) and DVAL.shape == (4, 50)
    (DTR, LTR), (DVAL, LVAL) = grading.binary_split()
    assert DTR.shape == (4, 66) and set(LTR) == {0, 1}
    llr, L, apps = grading.threshold_ties()
    for p, cfn, cfp in apps:  # every application's threshold, as the course computes it, is hit
        t = -np.log(p * cfn / ((1 - p) * cfp))
        assert t == np.round(t) and np.any(llr == t) and bayes_threshold(p, cfn, cfp) == t
        assert np.any((llr >= t) != (llr > t))
    assert any(p != 0.5 for p, _, _ in apps)
    X = grading.offset_data()
    assert X.shape == (4, 500) and X.mean() > 900


def test_adapters_give_mlpr_models():
    (DTR, LTR), (DVAL, _) = grading.iris_split()
    model = train_mvg(DTR, LTR)
    hParams = {k: (model.mu[:, [k]], model.covariance(k)) for k in range(3)}
    np.testing.assert_allclose(grading.classifier_from_hparams(hParams).scores(DVAL),
                               model.scores(DVAL), rtol=1e-12)
    g = GMM(w=np.array([0.3, 0.7]), mu=np.array([[0.0, 1.0]]), C=np.array([[[1.0]], [[2.0]]]))
    assert grading.gmm_from_list(g.to_list()) == g
    lr = grading.logreg_from_wb(np.array([1.0, 2.0]), 0.5, prior_log_odds=np.log(4))
    np.testing.assert_allclose(lr.llr(np.array([[1.0], [1.0]])), [3.5 - np.log(4)])
    f = grading.model_from_scoring_function(lambda D: D.sum(0))
    np.testing.assert_allclose(f.scores(np.ones((2, 3))), [2.0, 2.0, 2.0])
    with pytest.raises(ValueError, match="labels \\[1, 2\\]: expected 0..K-1"):
        grading.classifier_from_hparams({1: hParams[0], 2: hParams[1]})
    with pytest.raises(TypeError, match="scoring function"):
        grading.model_from_scoring_function(3.0)


def test_student_code_replaces_mlpr_functions_and_reports_what_it_cannot_serve(tmp_path):
    code = grading.StudentCode(grading.load_submission(COURSE))
    train = code.replace(train_mvg)
    (DTR, LTR), (DVAL, _) = grading.iris_split()
    np.testing.assert_allclose(train(DTR, LTR).scores(DVAL), train_mvg(DTR, LTR).scores(DVAL),
                               rtol=1e-10)
    called, failed = code.take()
    assert called == ["Gau_MVG_ML_estimates", "compute_log_likelihood_Gau"] and not failed
    # psi has no counterpart in Gau_MVG_ML_estimates: mlpr's answer, and the reason recorded
    assert train(DTR, LTR, psi=0.01) == train_mvg(DTR, LTR, psi=0.01)
    called, failed = code.take()
    assert "no counterpart of psi=0.01" in failed[0]
    assert code.replace(logpdf_GMM) is not logpdf_GMM
    assert code.replace(np.sum) is np.sum  # not a lab function: mlpr's (here numpy's) own


# ------------------------------------------------------------------------------------------------
# student mode in a lecture

FAKE_LECTURE = """
import sys
from _lecture import INVARIANT, Lecture
from mlpr.generative import map_decisions, train_mvg, uniform_priors
from mlpr.evaluation import error_rate
from mlpr.grading import iris_split

lec = Lecture("05_generative_models", "a small lecture", argv=sys.argv[1:])
train_mvg, map_decisions = lec.use(train_mvg, map_decisions)
(DTR, LTR), (DVAL, LVAL) = iris_split()
lec.section("iris")
S = train_mvg(DTR, LTR).scores(DVAL)
lec.check("MVG error %", 100 * error_rate(map_decisions(S, uniform_priors(3)), LVAL), fmt="{:.1f}",
          ref="iris_split_error/MVG")
lec.check("MVG floored error %", 100 * error_rate(map_decisions(
    train_mvg(DTR, LTR, psi=0.01).scores(DVAL), uniform_priors(3)), LVAL), 4.0, tol=0,
    source=INVARIANT)
lec.finish()
"""


def _fake_lecture(tmp_path, student_code):
    script = tmp_path / "lecture.py"
    script.write_text(FAKE_LECTURE)
    sub = submission(tmp_path, student_code, name="student.py")
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", MPLBACKEND="Agg",
               PYTHONPATH=os.pathsep.join([str(REPO / "lectures"), str(REPO)]))
    return subprocess.run([sys.executable, str(script), "--quick", "--out", str(tmp_path / "o"),
                           "--student", str(sub)], capture_output=True, text=True, env=env,
                          timeout=300)


def test_student_mode_counts_reproduced_references_and_skips_with_the_reason(tmp_path):
    proc = _fake_lecture(tmp_path, "")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "[your code: Gau_MVG_ML_estimates, compute_logPosterior, " \
           "compute_log_likelihood_Gau]" in proc.stdout
    assert "MVG floored error %: SKIPPED (reason 1): cannot serve train_mvg(...): " \
           "Gau_MVG_ML_estimates(D, L) has no counterpart of psi=0.01" in proc.stdout
    assert "1 of 1 references reproduced with your code" in proc.stdout
    assert "1 checks skipped, your code could not serve them:\n  reason 1 (1 check): " \
           "cannot serve train_mvg" in proc.stdout


def test_student_mode_fails_when_the_students_code_misses_a_reference(tmp_path):
    code = """
        def compute_logPosterior(S_logLikelihood, v_prior):
            return S_logLikelihood[::-1]
        """
    proc = _fake_lecture(tmp_path, code)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "0 of 1 references reproduced with your code" in proc.stdout
    assert "missed: MVG error %" in proc.stdout


def test_student_mode_a_raising_function_is_skipped_not_a_traceback(tmp_path):
    """A function that raises: each check it would serve is skipped with the reason (mlpr's
    value carries the lecture on), no traceback, and the run fails naming the function."""
    code = """
        def Gau_MVG_ML_estimates(D, L):
            raise NotImplementedError("lab 5 is not done")
        """
    proc = _fake_lecture(tmp_path, code)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert "SKIPPED (reason 1): your Gau_MVG_ML_estimates raised NotImplementedError: lab 5 is " \
           "not done" in proc.stdout
    assert "your Gau_MVG_ML_estimates (for train_mvg): DIFFERS" in proc.stdout
    assert "2 checks skipped" in proc.stdout


def test_every_function_a_lecture_hands_to_student_mode_has_an_adapter():
    import re

    used = {}
    for script in sorted((REPO / "lectures").glob("*/run.py")):
        m = re.search(r"lec\.use\((.*?)\)", script.read_text(), flags=re.S)
        if m:
            used[script.parent.name] = [n.strip() for n in m.group(1).split(",") if n.strip()]
    assert set(used) >= {"03_dimensionality_reduction", "05_generative_models",
                         "06_logistic_regression", "07_measuring_predictions",
                         "08_support_vector_machines", "09_gaussian_mixture_models"}
    for lecture, names in used.items():
        readme = (REPO / "lectures" / lecture / "README.md").read_text()
        for name in names:
            assert name in grading.adapted_functions(), (lecture, name)
            assert f"`{name}` by your" in " ".join(readme.split()), (lecture, name)


def test_every_lecture_reference_file_is_data():
    files = sorted((REPO / "lectures").glob("*/references.json"))
    assert len(files) >= 6
    for f in files:
        refs = json.loads(f.read_text())
        script = (f.parent / "run.py").read_text()
        for key, r in refs.items():
            assert set(r) == {"what", "value", "tol", "source", "known_gap", "quick"}, (f, key)
            assert r["source"] == "course slides" or r["source"].startswith("course lab "), r
            assert isinstance(r["tol"], (int, float)) and r["tol"] >= 0
            assert np.all(np.isfinite(np.asarray(r["value"], dtype=float)))
        # every key is used by the script (literally, or through the prefix of an f-string)
        for key in refs:
            prefix = key.split("/")[0]
            assert key in script or f'"{prefix}/' in script or f"f\"{prefix}/" in script, key


# ------------------------------------------------------------------------------------------------
# cases drawn from a run's seed keep what makes each mistake show


@pytest.mark.slow
@pytest.mark.parametrize("seed", [11, 12])
def test_seeded_cases_pass_the_course_and_catch_every_known_mistake(course_with, seed):
    run = grading.Run(seed)  # the cases of this run only: the fixed cases are untouched
    results = grading.grade_functions(course_with(), run=run)
    failed = [(r.name, r.message) for r in results if r.status != "passed"]
    assert not failed, failed
    missed = []
    for mistake, (task, code, hint) in MISTAKES.items():
        r = grade_loaded(course_with(code), task, run)
        if r.status != "failed" or not r.hint or hint not in r.hint:
            missed.append((mistake, r.status, r.hint))
    for case, (task, code) in HARMLESS.items():
        r = grade_loaded(course_with(code), task, run)
        if r.status != "passed":
            missed.append((case, r.message))
    assert not missed, missed


# ------------------------------------------------------------------------------------------------
# no check that a null answer passes


@pytest.mark.parametrize("null", ["0.0", "None", "the first argument"])
def test_every_task_fails_a_null_answer(null, monkeypatch):
    """No task passes an answer that is 0.0, None or its first argument. The hints a failed case
    looks for (known mistakes, the mutation search) are left out: they name a failure, never
    decide one (`runner.run_case` has failed the case when it looks, and swallows what a search
    raises), and on a null answer they try every mutant of every task in vain."""
    from mlpr.grading import runner

    monkeypatch.setattr(runner, "_safe_search", lambda *args, **kwargs: None)
    monkeypatch.setattr(runner, "_safe_diagnose", lambda *args, **kwargs: None)
    body = {"0.0": "return 0.0", "None": "return None",
            "the first argument": "return args[0] if args else None"}[null]
    ns: dict = {}
    exec(f"def null(*args, **kwargs):\n    {body}\n", ns)
    catalogue = grading.tasks(everything=True)
    functions = {t.function_name: ns["null"] for t in catalogue.values()}
    results = grading.grade_functions(functions, list(catalogue))
    passed = [r.name for r in results if r.status == "passed"]
    assert passed == [], passed


@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")  # the student's 0 / 0
def test_a_failure_caused_by_another_of_the_students_functions_names_it(tmp_path):
    transposed = """
        def compute_confusion_matrix(predictedLabels, classLabels):
            K = classLabels.max() + 1
            M = np.zeros((K, K), dtype=np.int32)
            for p, c in zip(predictedLabels, classLabels):
                M[c, p] += 1
            return M
        """
    sub = grading.load_submission(submission(tmp_path, LOGREG_LLR, transposed))
    results = {r.name: r for r in grading.grade_functions(sub.functions)}
    assert results["compute_confusion_matrix"].status == "failed"
    downstream = [r for r in results.values() if r.status == "failed" and
                  r.name != "compute_confusion_matrix"]
    assert downstream  # the DCF tasks build on the confusion matrix
    for r in downstream:
        assert r.hint.startswith("your compute_confusion_matrix fails its own task"), r
        assert "this task uses it" in r.hint


@pytest.mark.slow
def test_functions_not_written_are_listed_not_failed(tmp_path):
    """Without --lab only what the submission defines is graded, the rest is listed as not
    written and the run exits 0 when all that is written is right; with --lab a missing function
    counts 0."""
    (tmp_path / "early.py").write_text(textwrap.dedent("""
        import numpy as np

        def compute_mu_C(D):
            mu = D.mean(1).reshape(-1, 1)
            return mu, (D - mu) @ (D - mu).T / D.shape[1]
        """))
    proc = run_kit(tmp_path / "early.py", "--format", "json")
    (report,) = json.loads(proc.stdout)
    assert proc.returncode == 0, proc.stdout
    assert [r["name"] for r in report["results"]] == ["compute_mu_C"]
    assert "compute_pca" in report["not_written"] and "logpdf_GAU_ND" in report["not_written"]
    proc = run_kit(tmp_path / "early.py", "--lab", 3, "--format", "json")
    (report,) = json.loads(proc.stdout)
    assert proc.returncode == 1 and report["not_written"] == []
    by = {r["name"]: r for r in report["results"]}
    assert by["compute_mu_C"]["status"] == "passed" and by["compute_pca"]["points"] == 0
