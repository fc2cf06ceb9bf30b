"""The repair search (mlpr/grading/repair.py): a failing function's mistake found by editing the
student's own code, each candidate run in the submission's process and compared in the grader's,
a verified repair naming the file, the line and the edit.

The files graded here are small course-style functions written for these tests, each with one
planted mistake whose line is known (found by its marker comment); the expected edit is what a
TA would write, derived by hand from the mistake."""

import ast
import json
import textwrap
import time

import pytest

from mlpr.grading import grade, repair

CONFUSION_SWAPPED = """
import numpy as np

def compute_confusion_matrix(predictedLabels, classLabels):
    K = int(max(predictedLabels.max(), classLabels.max())) + 1
    M = np.zeros((K, K), dtype=np.int32)
    np.add.at(M, (classLabels, predictedLabels), 1)  # MISTAKE
    return M
"""

BAYES_TURNED = """
import numpy as np

def compute_optimal_Bayes_binary_llr(llr, prior, Cfn, Cfp):
    th = -np.log((prior * Cfn) / ((1 - prior) * Cfp))
    return np.int32(llr < th)  # MISTAKE
"""

MU_C_INVERSE = """
import numpy as np

def vcol(x):
    return x.reshape((x.size, 1))

def compute_mu_C(D):
    mu = vcol(D.mean(1))
    DC = D - mu
    C = DC @ DC.T / D.shape[1]
    return mu, C

def logpdf_GAU_ND(x, mu, C):
    P = C ** -1  # MISTAKE
    M = x.shape[0]
    logdet = np.linalg.slogdet(C)[1]
    xc = x - mu
    return -0.5 * M * np.log(2 * np.pi) - 0.5 * logdet - 0.5 * (xc * (P @ xc)).sum(0)
"""

CORRECT = """
import numpy as np

def compute_optimal_Bayes_binary_llr(llr, prior, Cfn, Cfp):
    th = -np.log((prior * Cfn) / ((1 - prior) * Cfp))
    return np.int32(llr > th)
"""


def _write(tmp_path, text, name="my_labs.py"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip())
    line = next(k for k, s in enumerate(path.read_text().splitlines(), 1) if "MISTAKE" in s) \
        if "MISTAKE" in text else None
    return path, line


def _hint(report, task_suffix):
    failed = [r for r in report.results if r.status == "failed" and r.name.endswith(task_suffix)]
    assert failed, [(r.name, r.status) for r in report.results]
    return failed[0].hint or ""


@pytest.mark.parametrize("text, task, edit", [
    (CONFUSION_SWAPPED, "compute_confusion_matrix",
     "(classLabels, predictedLabels) \N{RIGHTWARDS ARROW} (predictedLabels, classLabels)"),
    (BAYES_TURNED, "compute_optimal_Bayes_binary_llr", "llr < th \N{RIGHTWARDS ARROW} llr > th"),
    (MU_C_INVERSE, "logpdf_GAU_ND", "C ** -1 \N{RIGHTWARDS ARROW} np.linalg.inv(C)"),
])
def test_a_verified_repair_names_the_file_the_line_and_the_edit(tmp_path, text, task, edit):
    path, line = _write(tmp_path, text)
    report = grade(path, seed=11)
    hint = _hint(report, task)
    assert f"my_labs.py, line {line}: " in hint and edit in hint, hint
    assert "makes" in hint and "pass on" in hint


def test_a_correct_submission_costs_no_candidate(tmp_path, monkeypatch):
    """No task fails, so no search runs: `repair.search` is never called."""
    path, _ = _write(tmp_path, CORRECT)
    calls = []
    monkeypatch.setattr(repair, "search", lambda *a, **k: calls.append(a) or {})
    report = grade(path, seed=12)
    assert report.results and all(r.status == "passed" for r in report.results)
    assert calls == []


def test_candidates_are_distinct_valid_functions_with_the_students_lines():
    text = textwrap.dedent("""
    import numpy as np

    def f(D, L):
        s = np.argsort(D)
        out = 0
        for k in range(3):
            out = out + D[s][k] * L[k]
            out = out - 1
        return out / 2
    """)
    func = ast.parse(text).body[1]
    seen, lines = set(), set()
    edits = list(repair.candidates(text, func))
    assert len(edits) > 40
    for edit, _clone, source in edits:
        compiled = ast.parse(source)  # each candidate parses, and is one function named f
        assert [n.name for n in compiled.body] == ["f"]
        assert source not in seen
        seen.add(source)
        lines.add(edit.line)
    assert lines <= set(range(4, 11))
    words = {e.words for e, _, _ in edits}
    assert {"another array sorted", "moved out of the loop", "a term dropped",
            "another operator", "another variable"} <= words
    sorted_other = [e for e, _, _ in edits if e.words == "another array sorted"]
    assert any(e.new == "np.argsort(L)" and e.line == 5 for e in sorted_other)


def test_the_search_is_bounded_per_task(tmp_path, monkeypatch):
    """A function whose every candidate fails: the search stops at its candidate cap, and the
    report still comes (no hint is invented)."""
    monkeypatch.setattr(repair, "MAX_CANDIDATES", 15)
    monkeypatch.setattr(repair, "MAX_PAIRS", 0)
    path, _ = _write(tmp_path, """
    import numpy as np

    def compute_mu_C(D):
        mu = D.mean(1).reshape(-1, 1) * 0 + 7.0  # MISTAKE
        return mu, np.eye(D.shape[0])
    """)
    t0 = time.perf_counter()
    report = grade(path, seed=13)
    hint = _hint(report, "compute_mu_C")
    assert "makes compute_mu_C pass" not in hint
    assert time.perf_counter() - t0 < 60


def test_a_source_outside_the_submission_or_a_link_is_not_read(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "outside.py").write_text("def f():\n    return 1\n")
    (tmp_path / "sub" / "link.py").symlink_to(tmp_path / "outside.py")
    assert repair.function_source(tmp_path / "sub", "../outside.py", "f") is None
    assert repair.function_source(tmp_path / "sub", "link.py", "f") is None
    (tmp_path / "sub" / "own.py").write_text("def f():\n    return 1\n")
    text, func, cells = repair.function_source(tmp_path / "sub", "own.py", "f")
    assert func.name == "f" and func.lineno == 1 and cells is None
    assert repair.function_source(tmp_path / "sub", "own.py", "C.f") is None  # no such class
    assert repair.function_source(tmp_path / "sub", "own.py", "C.f.g") is None  # nested


def test_the_edits_of_the_other_families_are_candidates():
    """Each family of edits the guide lists makes a candidate on a function that has the
    construct: the first index for the last, an index on the other dimension, a flag turned, a
    square root and a log of an operand, the exponent's sign, an unpacking swapped, a statement
    moved into an if, a float constant's sign."""
    text = textwrap.dedent("""
    import numpy as np
    import scipy.linalg

    def g(U, s, x, flag):
        a, b = U[:, -1], s[0]
        y = scipy.linalg.solve_triangular(U, x, lower=True)
        z = np.exp(y) * b ** -0.5
        if flag:
            z = z + 1
        z = z * a
        return z + s
    """)
    func = ast.parse(text).body[2]
    found = {(e.words, e.new) for e, _, _ in repair.candidates(text, func)}
    words = {w for w, _ in found}
    assert {"the first for the last", "the index on the other dimension", "the flag turned",
            "its square root", "its log", "the exponent's sign turned", "the pair swapped",
            "moved into the if", "the sign of a constant"} <= words, sorted(words)
    assert ("the index on the other dimension", "U[-1]") in found
    assert ("the flag turned", "False") in found
    assert ("the pair swapped", "(b, a)") in found or ("the pair swapped", "b, a") in found


HELPER_WRONG = """
import numpy as np

def _rates(M):
    n_targets = M[0, 1] + M[1, 1]
    n_nontargets = M[0, 0] + M[1, 0]
    return M[0, 1] / n_targets, M[1, 0] / n_targets  # MISTAKE

def compute_confusion_matrix(predictedLabels, classLabels):
    K = int(max(predictedLabels.max(), classLabels.max())) + 1
    M = np.zeros((K, K), dtype=np.int32)
    np.add.at(M, (predictedLabels, classLabels), 1)
    return M

def compute_empirical_Bayes_risk_binary(predictedLabels, classLabels, prior, Cfn, Cfp,
                                        normalize=True):
    M = compute_confusion_matrix(predictedLabels, classLabels)
    Pfn, Pfp = _rates(M)
    risk = prior * Cfn * Pfn + (1 - prior) * Cfp * Pfp
    if normalize:
        return risk / min(prior * Cfn, (1 - prior) * Cfp)
    return risk
"""


def test_a_mistake_in_a_helper_no_task_grades_is_found_in_the_helper(tmp_path):
    """The task's function is right and calls the student's own helper, which no task grades:
    the helper is searched, each candidate run in the task function's place, and the hint names
    the helper's line (n_targets for n_nontargets, by hand)."""
    path, line = _write(tmp_path, HELPER_WRONG)
    report = grade(path, seed=11)
    hint = _hint(report, "compute_empirical_Bayes_risk_binary")
    assert f"my_labs.py, line {line}: " in hint, hint
    assert "n_targets \N{RIGHTWARDS ARROW} n_nontargets" in hint and "in _rates" in hint, hint


SPLIT_SEED_LATE = """
import numpy as np

def split_db_2to1(D, L, seed=0):
    nTrain = int(D.shape[1] * 2.0 / 3.0)
    idx = np.random.permutation(D.shape[1])  # MISTAKE: drawn before the seed is set
    np.random.seed(seed)
    idxTrain, idxTest = idx[:nTrain], idx[nTrain:]
    return (D[:, idxTrain], L[idxTrain]), (D[:, idxTest], L[idxTest])
"""


def test_a_candidate_passes_on_its_own_seeding_never_on_the_state_left_before_it(tmp_path):
    """The student seeds numpy's global generator after drawing the permutation: every run
    leaves the generator seeded with 0, so that without a fresh seeding before each call any
    candidate run after another would draw the reference's permutation and 'pass'. The only
    repair said is the statement moved (by hand: the seed first), at the marked line."""
    path, line = _write(tmp_path, SPLIT_SEED_LATE)
    report = grade(path, seed=11)
    hint = _hint(report, "split_db_2to1")
    assert "makes split_db_2to1 pass" in hint, hint
    said = hint.split("; also:")[0]
    assert said.count("my_labs.py, line") == 1 and f"line {line}: " in said, said
    assert "moved after the next statement" in said, said


LOOPING = """
import numpy as np

def k_means(D, n, seed=0):
    rng = np.random.default_rng(seed)
    centroids = D[:, rng.permutation(D.shape[1])[:n]].copy()
    labels = np.full(D.shape[1], -1)
    while True:
        dist2 = np.stack([np.sum((D - centroids[:, k:k + 1]) ** 2, axis=0) for k in range(n)])
        newLabels = np.argmin(dist2, axis=0)
        if np.array_equal(newLabels, labels):
            break
        for k in range(n):
            members = D[:, labels == k]  # MISTAKE
            if members.shape[1] > 0:
                centroids[:, k] = members.mean(axis=1)
        labels = newLabels
    return centroids, labels
"""


def test_candidates_that_loop_fail_their_case_and_the_search_goes_on(tmp_path):
    """Many edits of a `while True` loop never reach its break: each is interrupted in the
    submission's process at its soft limit and fails its case, the process is not restarted for
    it, and the search still reaches the repair (labels for newLabels, by hand)."""
    path, line = _write(tmp_path, LOOPING)
    report = grade(path, seed=11)
    hint = _hint(report, "k_means")
    assert f"my_labs.py, line {line}: labels \N{RIGHTWARDS ARROW} newLabels" in hint, hint


def test_a_spliced_candidate_keeps_the_students_lines_and_comments():
    """An expression's edit is written into the student's own text: every other line is the
    student's, with its comments, and the lines it spanned are left blank so that the numbers
    of the lines below it do not move."""
    text = textwrap.dedent("""
    import numpy as np

    def f(x, y):
        # the comment stays
        s = np.sum(x +
                   y)
        return s / 2  # so does this one
    """)
    func = ast.parse(text).body[1]
    found = {(e.words, e.new): src for e, tree, src in repair.candidates(text, func)
             if tree is None}
    src = found[("a term dropped", "x")]
    assert src.splitlines() == ["def f(x, y):", "    # the comment stays", "    s = np.sum((x))",
                                "", "    return s / 2  # so does this one"]
    assert all(ast.parse(s) for s in found.values())


CONFUSION_METHOD = """
import numpy as np

class Evaluation:
    def __init__(self, K=None):
        self.K = K

    def compute_confusion_matrix(self, predictedLabels, classLabels):
        K = self.K or int(max(predictedLabels.max(), classLabels.max())) + 1
        M = np.zeros((K, K), dtype=np.int32)
        np.add.at(M, (classLabels, predictedLabels), 1)  # MISTAKE
        return M
"""


def test_a_method_is_repaired_in_its_class(tmp_path):
    """The course function is a method of the student's class (made without arguments): each
    candidate is compiled in a class body of the same name and bound to a new instance; the
    hint names the method's line and the pair swapped (by hand, as for the function)."""
    path, line = _write(tmp_path, CONFUSION_METHOD)
    report = grade(path, seed=11)
    hint = _hint(report, "compute_confusion_matrix")
    assert f"my_labs.py, line {line}: " in hint, hint
    assert "(classLabels, predictedLabels) \N{RIGHTWARDS ARROW} (predictedLabels, classLabels)" \
        in hint and "makes Evaluation.compute_confusion_matrix pass" in hint, hint


def _notebook(cells):
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": kind, "metadata": {}, "source": text,
         **({"outputs": [], "execution_count": None} if kind == "code" else {})}
        for kind, text in cells]})


def test_a_notebook_function_is_repaired_and_its_cell_named(tmp_path):
    """A notebook: a markdown cell, a code cell with an IPython magic (dropped as the harness
    drops it), the mistaken function in the fourth cell. The hint names the cell and the line
    within it (counted by hand: the comparison is its third line)."""
    source = textwrap.dedent(BAYES_TURNED).lstrip()
    path = tmp_path / "lab07.ipynb"
    path.write_text(_notebook([("markdown", "# Lab 7"), ("code", "%matplotlib inline\nx = 1"),
                               ("markdown", "Bayes decisions"), ("code", source)]))
    report = grade(path, seed=11)
    hint = _hint(report, "compute_optimal_Bayes_binary_llr")
    assert "lab07.ipynb, cell 4, line 5: llr < th \N{RIGHTWARDS ARROW} llr > th" in hint, hint


def test_the_edits_where_values_flow_are_candidates():
    """Each family of `mlpr.grading.edits_flow` makes its candidate on a function that has the
    construct (by hand): a value computed and never read for an expression of a later line, a
    parameter passed on to a function of the module that takes it, a column kept 2-D, an order
    reversed before a slice and after an argsort, logsumexp for a sum (under the name the module
    imports), a slice's bound as its step."""
    text = textwrap.dedent("""
    import numpy as np
    import scipy.special

    def inner(X, k, psi=None):
        return X

    def g(X, U, S, m, K, psi):
        Cn = X @ X.T
        Y = inner(X, 1)
        u = U[:, -1]
        top = U[:, 0:m]
        o = np.argsort(S[0])
        return S.sum(0), X[m:K], np.eye(2) + Y + u + top + o
    """)
    func = ast.parse(text).body[3]
    found = {(e.words, e.new) for e, _, _ in repair.candidates(text, func)}
    assert ("Cn, computed and never read", "Cn") in found
    assert ("`psi` passed on to inner", "inner(X, 1, psi=psi)") in found
    assert ("kept as a column (2-D)", "U[:, -1:]") in found
    assert ("reversed first", "U[:, ::-1][:, 0:m]") in found
    assert ("in descending order", "np.argsort(S[0])[::-1]") in found
    assert ("the log of the sum of the exponentials (logsumexp)",
            "scipy.special.logsumexp(S, 0)") in found
    assert ("the bound as the slice's step", "X[m::K]") in found


BAYES_PLOT_TWICE = """
import numpy as np

def _binary_confusion(predictedLabels, classLabels):
    M = np.zeros((2, 2), dtype=np.int32)
    np.add.at(M, (predictedLabels, classLabels), 1)
    return M

def compute_actDCF_binary_fast(llr, classLabels, prior, Cfn, Cfp):
    th = -np.log((prior * Cfn) / ((1 - prior) * Cfp))
    M = _binary_confusion(np.int32(llr > th), classLabels)
    Pfn = M[0, 1] / (M[0, 1] + M[1, 1])
    Pfp = M[1, 0] / (M[0, 0] + M[1, 0])
    return (prior * Cfn * Pfn + (1 - prior) * Cfp * Pfp) / min(prior * Cfn, (1 - prior) * Cfp)

def compute_minDCF_binary_fast(llr, classLabels, prior, Cfn, Cfp):
    t = np.concatenate([[-np.inf], np.sort(llr)])
    accepted = llr[None, :] > t[:, None]
    Pfn = (~accepted & (classLabels == 1)).sum(1) / (classLabels == 1).sum()
    Pfp = (accepted & (classLabels == 0)).sum(1) / (classLabels == 0).sum()
    dcf = prior * Cfn * Pfn + (1 - prior) * Cfp * Pfp
    return (dcf / min(prior * Cfn, (1 - prior) * Cfp)).min()

def bayesPlot(S, L, left=-3, right=3, npts=21):
    effPriorLogOdds = np.linspace(left, right, npts)
    effPriors = 1.0 / (1.0 + np.exp(-effPriorLogOdds))
    actDCF = [compute_actDCF_binary_fast(S, L, p, 1.0, 1.0) for p in effPriorLogOdds]  # MISTAKE
    minDCF = [compute_minDCF_binary_fast(S, L, p, 1.0, 1.0) for p in effPriorLogOdds]
    return effPriorLogOdds, actDCF, minDCF
"""


def test_a_candidate_whose_answer_holds_nan_still_counts_its_right_entries(tmp_path):
    """The same slip twice (the log-odds passed as the priors on two lines): the answer has NaN
    entries, which the case's comparison refuses; the candidate that mends one line has more
    right entries than the student's function, so the pair search edits it again and finds the
    other line (the two edits by hand)."""
    path, line = _write(tmp_path, BAYES_PLOT_TWICE)
    report = grade(path, seed=11, labs=[7])
    hint = _hint(report, "bayesPlot")
    assert f"my_labs.py, line {line}: effPriorLogOdds \N{RIGHTWARDS ARROW} effPriors" in hint, hint
    assert f"line {line + 1}: effPriorLogOdds \N{RIGHTWARDS ARROW} effPriors" in hint, hint
