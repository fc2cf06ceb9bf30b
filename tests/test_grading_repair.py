"""The repair search (mlpr/grading/repair.py): a failing function's mistake found by editing the
student's own code, each candidate run in the submission's process and compared in the grader's,
a verified repair naming the file, the line and the edit.

The files graded here are small course-style functions written for these tests, each with one
planted mistake whose line is known (found by its marker comment); the expected edit is what a
TA would write, derived by hand from the mistake."""

import ast
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
    text, func = repair.function_source(tmp_path / "sub", "own.py", "f")
    assert func.name == "f" and func.lineno == 1
    assert repair.function_source(tmp_path / "sub", "own.py", "C.f") is None  # a method


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
        z = np.exp(-y) * b ** -0.5
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
