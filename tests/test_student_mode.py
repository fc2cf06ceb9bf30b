"""Student mode in the lectures tells right from wrong: a correct course-style solution runs every
lecture that has the mode with no traceback, agrees with mlpr wherever the lecture takes one of
its functions, and misses no reference; a copy with one planted bug in every function a lecture
takes fails that lecture, naming each function. Only what its code cannot serve is skipped, with
the reason; ``--map`` renames as in the kit; the file is imported as the kit imports it (the
course's iris.csv in the working folder, a non-interactive backend)."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]
SUBMISSIONS = REPO / "tests" / "grading_submissions"
COURSE = (SUBMISSIONS / "course_style.py").read_text()
LECTURES = {"03": "03_dimensionality_reduction", "05": "05_generative_models",
            "06": "06_logistic_regression", "07": "07_measuring_predictions",
            "08": "08_support_vector_machines", "09": "09_gaussian_mixture_models"}

#: One plausible bug per course function, written into course_style.py: {function: (the line(s)
#: of the correct file, the buggy ones)}. Each is a mistake students make (PCA of uncentred
#: data, LDA's eigenvectors in ascending order, np.cov's 1/(N - 1), an unweighted tied
#: covariance, posteriors normalised along the samples, a transposed confusion matrix,
#: lambda ||w||^2, the bias left out of H, an M-step divided by N, ...).
BUGS = {
    "compute_pca": (
        "    mu, C = compute_mu_C(D)\n"
        "    s, U = np.linalg.eigh(C)  # ascending eigenvalues\n",
        "    s, U = np.linalg.eigh(D @ D.T / D.shape[1])\n"),
    "compute_lda_geig": (
        "    s, U = scipy.linalg.eigh(Sb, Sw)\n"
        "    return U[:, ::-1][:, 0:m]\n",
        "    s, U = scipy.linalg.eigh(Sb, Sw)\n"
        "    return U[:, 0:m]\n"),
    "Gau_MVG_ML_estimates": (
        "        hParams[int(lab)] = compute_mu_C(D[:, L == lab])\n",
        "        Dc = D[:, L == lab]\n"
        "        hParams[int(lab)] = (vcol(Dc.mean(1)), np.cov(Dc))\n"),
    "Gau_Naive_ML_estimates": (
        "        hParams[int(lab)] = (mu, C * np.eye(D.shape[0]))\n",
        "        hParams[int(lab)] = (mu, C)\n"),
    "Gau_Tied_ML_estimates": (
        "        CTied = CTied + C * Dc.shape[1]\n",
        "        CTied = CTied + C * D.shape[1] / len(np.unique(L))\n"),
    "compute_logPosterior": (
        "    logMarginal = vrow(scipy.special.logsumexp(logJoint, axis=0))\n",
        "    logMarginal = vcol(scipy.special.logsumexp(logJoint, axis=1))\n"),
    "compute_confusion_matrix": (
        "    np.add.at(M, (predictedLabels, classLabels), 1)\n",
        "    np.add.at(M, (classLabels, predictedLabels), 1)\n"),
    "compute_optimal_Bayes_binary_llr": (
        "    return np.int32(llr > th)\n",
        "    return np.int32(llr < th)\n"),
    "compute_empirical_Bayes_risk_binary": (
        "    Pfn = M[0, 1] / (M[0, 1] + M[1, 1])\n",
        "    Pfn = M[0, 1] / M.sum()\n"),
    "compute_minDCF_binary_fast": (
        "    dcf = (prior * Cfn * Pfn + (1 - prior) * Cfp * Pfp) / min(prior * Cfn, (1 - prior) * "
        "Cfp)\n",
        "    dcf = prior * Cfn * Pfn + (1 - prior) * Cfp * Pfp\n"),
    "compute_actDCF_binary_fast": (
        "compute_actDCF_binary_fast = compute_empirical_Bayes_risk_binary_llr_optimal_decisions\n",
        "def compute_actDCF_binary_fast(llr, L, prior, Cfn, Cfp):\n"
        "    return compute_empirical_Bayes_risk_binary_llr_optimal_decisions(\n"
        "        llr, L, prior, Cfn, Cfp, normalize=False)\n"),
    "compute_optimal_Bayes": (
        "    expectedCosts = costMatrix @ posterior\n",
        "    expectedCosts = -posterior\n"),
    "compute_empirical_Bayes_risk": (
        "        return risk / np.min(costMatrix @ vcol(prior_array))\n",
        "        return risk\n"),
    "trainLogRegBinary": (
        "        return loss.mean() + l / 2 * (w @ w), np.append(GW, Gb)\n",
        "        return loss.mean() + l * (w @ w), np.append(GW + l * w, Gb)\n"),
    "train_dual_SVM_linear": (
        "    H = (DTR_EXT.T @ DTR_EXT) * vcol(ZTR) * vrow(ZTR)\n",
        "    H = (DTR.T @ DTR) * vcol(ZTR) * vrow(ZTR)\n"),
    "train_dual_SVM_kernel": (
        "    H = (kernelFunc(DTR, DTR) + eps) * vcol(ZTR) * vrow(ZTR)\n",
        "    H = kernelFunc(DTR, DTR) * vcol(ZTR) * vrow(ZTR)\n"),
    "logpdf_GMM": (
        "    S = np.vstack([logpdf_GAU_ND(X, mu, C) + np.log(w) for w, mu, C in gmm])\n"
        "    return scipy.special.logsumexp(S, axis=0)\n",
        "    S = np.vstack([logpdf_GAU_ND(X, mu, C) for w, mu, C in gmm])\n"
        "    return scipy.special.logsumexp(S, axis=0)\n"),
    "smooth_covariance_matrix": (
        "    s = np.maximum(s, psi)\n",
        "    s = s + psi\n"),
    "split_GMM_LBG": (
        "        d = U[:, -1:] * np.sqrt(s[-1]) * alpha\n",
        "        d = U[:, -1:] * s[-1] * alpha\n"),
    "train_GMM_EM_Iteration": (
        "        C = Sg / Z - mu @ mu.T\n",
        "        C = Sg / X.shape[1] - mu @ mu.T\n"),
    "compute_mu_C": (
        "    C = (DC @ DC.T) / float(D.shape[1])\n",
        "    C = (DC @ DC.T) / float(D.shape[1] - 1)\n"),
    "k_means": (
        "                centroids[:, c] = D[:, clusterLabels == c].mean(1)\n",
        "                centroids[:, c] = np.median(D[:, clusterLabels == c], axis=1)\n"),
    "trainWeightedLogRegBinary": (
        "    weights = np.where(ZTR > 0, pT / (ZTR > 0).sum(), (1 - pT) / (ZTR < 0).sum())\n",
        "    weights = np.where(ZTR > 0, (1 - pT) / (ZTR > 0).sum(), pT / (ZTR < 0).sum())\n"),
    "train_GMM_LBG_EM": (
        "        gmm = split_GMM_LBG(gmm, lbgAlpha, verbose=verbose)\n"
        "        gmm = train_GMM_EM(X, gmm, covType=covType, psiEig=psiEig, epsLLAverage=epsLLAver"
        "age,\n"
        "                           verbose=verbose)\n",
        "        gmm = split_GMM_LBG(gmm, lbgAlpha, verbose=verbose)\n"
        "    gmm = train_GMM_EM(X, gmm, covType=covType, psiEig=psiEig, epsLLAverage=epsLLAverage,"
        "\n"
        "                       verbose=verbose)\n"),
    "compute_lda_JointDiag": (
        "    P1 = U @ np.diag(1.0 / np.sqrt(s)) @ U.T  # P1 Sw P1^T = I\n",
        "    P1 = U @ np.diag(1.0 / s) @ U.T\n"),
    "compute_minDCF_binary_slow": (
        "        dcf = compute_empirical_Bayes_risk_binary(np.int32(llr > th), classLabels, prior,"
        " Cfn, Cfp)\n",
        "        dcf = compute_empirical_Bayes_risk_binary(np.int32(llr > th), classLabels, prior,"
        " Cfn, Cfp,\n"
        "                                                  normalize=False)\n"),
    "compute_empirical_Bayes_risk_binary_llr_optimal_decisions": (
        "                                               normalize=normalize)\n",
        "                                               normalize=False)\n"),
    "apply_pca": (
        "def apply_pca(P, D):\n"
        "    return P.T @ D\n",
        "def apply_pca(P, D):\n"
        "    return P.T @ (D - vcol(D.mean(1)))\n"),
    "apply_lda": (
        "def apply_lda(U, D):\n"
        "    return U.T @ D\n",
        "def apply_lda(U, D):\n"
        "    return U.T @ (D - vcol(D.mean(1)))\n"),
}

#: correct optimisers of another author, appended to course_style.py for these lectures
RIGHT_OPTIMISERS = {"08": SUBMISSIONS / "optimisers" / "impl_e.py",
                    "09": SUBMISSIONS / "optimisers" / "impl_b.py"}

#: a bug that hides another's: posteriors that do not sum to 1 (the planted compute_logPosterior)
#: are refused by mlpr's Bayes decisions, so compute_optimal_Bayes is tried in a run of its own
MASKED = {"compute_optimal_Bayes": "compute_logPosterior"}


def with_bugs(functions) -> str:
    """course_style.py with the bug of each of ``functions`` planted."""
    src = COURSE
    for f in functions:
        old, new = BUGS[f]
        assert src.count(old) == 1, f
        src = src.replace(old, new)
    return src


def run_lecture(number: str, student: Path, out: Path, *extra: str):
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", MPLBACKEND="Agg")
    script = REPO / "lectures" / LECTURES[number] / "run.py"
    proc = subprocess.run([sys.executable, str(script), "--quick", "--out", str(out),
                           "--student", str(student), *extra], capture_output=True, text=True,
                          env=env, cwd=out, timeout=600)
    results = json.loads((out / "results.json").read_text()) if proc.returncode in (0, 1) \
        else {}
    return proc, results


#: the lecture whose right run is held to mlpr's quick run of it (tests/conftest.py's lecture_run):
#: the test joins that lecture's group, and the worker that runs the lecture runs it too
READS_QUICK_RUN = {"05": "05_generative_models"}


@pytest.mark.slow
@pytest.mark.parametrize("number", [
    pytest.param(n, marks=[pytest.mark.lectures(READS_QUICK_RUN[n])] if n in READS_QUICK_RUN
                 else []) for n in LECTURES])
def test_each_lecture_tells_right_from_wrong(tmp_path, number, request):
    """The correct file: exit 0, every function the lecture takes agrees with mlpr's on the
    lecture's own inputs, every reference mlpr reproduces is reproduced (lecture 05: its tables
    and checks equal mlpr's quick run, number for number). The same file with one bug in each of
    those functions: exit 1, and every one of them is named as differing. The correct file's run
    draws its figures without writing them (--no-figures: its plots are of mlpr's numbers, which
    the lecture's own quick run renders); the wrong files' runs render theirs."""
    (tmp_path / "right").mkdir()
    student = tmp_path / "right" / "labs.py"
    # lectures 08 and 09 take their optimisers from another author's correct file (its SVM duals
    # in explicit loops; its EM stopping on abs(llNew - llOld)): correct code agrees whatever
    # its arithmetic
    other = RIGHT_OPTIMISERS.get(number)
    student.write_text(COURSE + ("" if other is None else "\n\n" + other.read_text()))
    proc, results = run_lecture(number, student, tmp_path / "right", "--no-figures")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr
    assert results["figures_not_written"] and not results["figures"]
    summary = results["student_summary"]
    assert summary["reproduced"] == summary["counted"] and not summary["differs"], summary
    audits = results["student_audits"]
    assert audits and all(a["agrees"] for a in audits), audits
    taken = sorted({n for a in audits for n in a["yours"]})
    if number == "05":  # computed with the student's functions, equal to mlpr's
        mine = json.loads((request.getfixturevalue("lecture_run")(READS_QUICK_RUN[number])
                           / "results.json").read_text())
        assert results["tables"]["mnist_gaussian"]["rows"] == \
            mine["tables"]["mnist_gaussian"]["rows"]
        ours = {c["what"]: c.get("measured", c.get("holds")) for c in mine["checks"]}
        for c in results["checks"]:
            if "student_skipped" not in c:
                assert c.get("measured", c.get("holds")) == ours[c["what"]], c["what"]
        assert summary["counted"] >= 9
        assert "[your code: Gau_MVG_ML_estimates, compute_logPosterior, " \
               "compute_log_likelihood_Gau]" in proc.stdout
        assert "(computed with your code: " in proc.stdout
    for line in proc.stdout.splitlines():  # every skipped check says why
        if "SKIPPED" in line:
            assert re.search(r"SKIPPED \(reason \d+(\): \S|, as above\))", line), line

    later = [f for f in taken if MASKED.get(f) in taken]
    for run, bugs in enumerate([[f for f in taken if f not in later], later]):
        if not bugs:
            continue
        folder = tmp_path / f"wrong{run}"
        folder.mkdir()
        (folder / "labs.py").write_text(with_bugs(bugs))
        proc, results = run_lecture(number, folder / "labs.py", folder)
        assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]
        assert "Traceback" not in proc.stderr
        differs = [line for line in proc.stdout.splitlines() if "DIFFERS" in line
                   and line.lstrip().startswith("your ")]
        for f in bugs:
            assert any(re.search(rf"\b{f}\b", line.split("(for ")[0]) for line in differs), \
                (f, differs)
        assert results["student_summary"]["differs"]


def test_map_and_a_file_that_reads_iris_and_shows_a_plot_at_import(tmp_path, capsys,
                                                                     monkeypatch):
    """The lecture's command line in this process: --map renames as in the kit, the functions
    mlpr serves are named, and the file reads iris.csv and calls plt.show() at import."""
    sys.path.insert(0, str(REPO / "lectures"))
    from _lecture import Lecture

    from mlpr.generative import train_mvg

    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # student mode sets its own
    renamed = COURSE.replace("def Gau_MVG_ML_estimates(", "def my_mvg(").replace(
        "Gau_MVG_ML_estimates(D, L)", "my_mvg(D, L)")
    student = tmp_path / "labs.py"
    student.write_text(renamed + "\n\n" + "\n".join([
        "IRIS_AT_IMPORT = np.loadtxt('iris.csv', delimiter=',', usecols=range(4))",
        "import matplotlib.pyplot as plt",
        "plt.figure()",
        "plt.show()",
    ]) + "\n")
    monkeypatch.chdir(tmp_path)  # no iris.csv here: the import finds the one the loader lays out

    def lecture(*extra):
        return Lecture("05_generative_models", "student mode test",
                       argv=["--quick", "--out", str(tmp_path / "out"), "--student",
                             str(student), *extra])

    lec = lecture("--map", "Gau_MVG_ML_estimates=my_mvg")
    train = lec.use(train_mvg)
    out = capsys.readouterr().out
    assert "your code: train_mvg <- my_mvg (Gau_MVG_ML_estimates)" in out
    from mlpr.datasets import load_iris

    X, L = load_iris()
    # the student's MVG (through the adapter) scores as mlpr's does
    np.testing.assert_allclose(train(X, L).scores(X), train_mvg(X, L).scores(X), rtol=1e-12)
    lec = lecture()  # without --map: mlpr's train_mvg, and the lecture says so
    assert lec.use(train_mvg) is train_mvg
    assert "mlpr's train_mvg: your file has no Gau_MVG_ML_estimates (named otherwise? --map " \
           "Gau_MVG_ML_estimates=your_name)" in capsys.readouterr().out


def test_map_needs_student(tmp_path, capsys):
    """The lecture's command line (its parser, in this process) refuses --map without
    --student: a usage error, exit status 2."""
    sys.path.insert(0, str(REPO / "lectures"))
    from _lecture import Lecture

    with pytest.raises(SystemExit) as exc:
        Lecture("05_generative_models", "student mode test",
                argv=["--quick", "--out", str(tmp_path), "--map", "a=b"])
    assert exc.value.code == 2
    assert "--map renames functions of --student" in capsys.readouterr().err


def test_a_student_run_writes_to_its_own_folder_and_says_whose_code(tmp_path, capsys,
                                                                      monkeypatch):
    """Without --out a student's run writes to figures/student/NN_topic/, never to the
    instructor's figures/NN_topic/; its figures say whose code drew them; --map shows the
    student's own names, and a map written the other way round is explained."""
    sys.path.insert(0, str(REPO / "lectures"))
    import matplotlib.pyplot as plt
    from _lecture import Lecture

    from mlpr.generative import train_mvg

    student = tmp_path / "labs.py"
    student.write_text(COURSE.replace("def Gau_MVG_ML_estimates(", "def my_mvg(").replace(
        "Gau_MVG_ML_estimates(D, L)", "my_mvg(D, L)"))
    lec = Lecture("05_generative_models", "test", argv=["--quick", "--student", str(student),
                                                        "--map", "Gau_MVG_ML_estimates=my_mvg"])
    try:
        assert lec.out == REPO / "figures" / "student" / "05_generative_models"
        assert lec.out != REPO / "figures" / "05_generative_models"
        lec.use(train_mvg)
        assert "train_mvg <- my_mvg (Gau_MVG_ML_estimates)" in capsys.readouterr().out
        fig = plt.figure()
        lec.out = tmp_path / "out"  # the figure itself, written where the test can look
        lec.out.mkdir()
        lec.figure(fig, "f.png")
        assert any("student mode: computed with the functions of labs.py" in t.get_text()
                   for t in fig.texts)
    finally:
        sys.excepthook = sys.__excepthook__
    lec = Lecture("05_generative_models", "test",
                  argv=["--quick", "--out", str(tmp_path / "o2"), "--student", str(student),
                        "--map", "my_mvg=Gau_MVG_ML_estimates"])
    sys.excepthook = sys.__excepthook__
    out = capsys.readouterr().out
    assert ("--map my_mvg=Gau_MVG_ML_estimates is the wrong way round: the form is "
            "COURSE=YOURS, course name first: --map Gau_MVG_ML_estimates=my_mvg") in out
    assert lec.use(train_mvg) is train_mvg
    assert "(named otherwise? --map Gau_MVG_ML_estimates=your_name)" in capsys.readouterr().out


def test_the_kit_explains_a_map_written_the_wrong_way_round(capsys):
    from mlpr.grading.__main__ import main

    with pytest.raises(SystemExit):
        main(["--map", "my_mvg=Gau_MVG_ML_estimates", str(REPO / "tests")])
    assert "is the wrong way round: the form is COURSE=YOURS, the course's name first: " \
           "--map Gau_MVG_ML_estimates=my_mvg" in capsys.readouterr().err
