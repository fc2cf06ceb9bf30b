"""Student mode in the lectures: a correct course-style solution runs every lecture that has the
mode with no traceback and misses no reference; only what its code cannot serve is skipped, with
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
COURSE = (REPO / "tests" / "grading_submissions" / "course_style.py").read_text()
# lecture 05 in student mode is run by test_lectures (its tables equal mlpr's, number for number)
LECTURES = {"03": "03_dimensionality_reduction", "07": "07_measuring_predictions",
            "09": "09_gaussian_mixture_models"}


def run_lecture(number: str, student: Path, out: Path, *extra: str):
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", MPLBACKEND="Agg")
    script = REPO / "lectures" / LECTURES[number] / "run.py"
    proc = subprocess.run([sys.executable, str(script), "--quick", "--out", str(out),
                           "--student", str(student), *extra], capture_output=True, text=True,
                          env=env, cwd=out, timeout=600)
    results = json.loads((out / "results.json").read_text()) if proc.returncode in (0, 1) \
        else {}
    return proc, results


@pytest.mark.parametrize("number", list(LECTURES))
def test_a_course_style_solution_misses_nothing(tmp_path, number):
    student = tmp_path / "labs.py"
    student.write_text(COURSE)
    proc, results = run_lecture(number, student, tmp_path)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    summary = results["student_summary"]
    assert summary["reproduced"] == summary["counted"] >= 1, summary
    # every skipped check says why
    for line in proc.stdout.splitlines():
        if "SKIPPED" in line:
            assert re.search(r"SKIPPED: \S", line), line


def test_map_and_a_file_that_reads_iris_and_shows_a_plot_at_import(tmp_path, capsys,
                                                                     monkeypatch):
    """The lecture's command line in this process: --map renames as in the kit, the functions
    mlpr serves are named, and the file reads iris.csv and calls plt.show() at import."""
    sys.path.insert(0, str(REPO / "lectures"))
    from _lecture import Lecture

    from mlpr.generative import train_mvg

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
    assert "your code: train_mvg <- Gau_MVG_ML_estimates" in out
    from mlpr.datasets import load_iris

    X, L = load_iris()
    # the student's MVG (through the adapter) scores as mlpr's does
    np.testing.assert_allclose(train(X, L).scores(X), train_mvg(X, L).scores(X), rtol=1e-12)
    lec = lecture()  # without --map: mlpr's train_mvg, and the lecture says so
    assert lec.use(train_mvg) is train_mvg
    assert "mlpr's train_mvg: your file has no Gau_MVG_ML_estimates" in capsys.readouterr().out


def test_map_needs_student(tmp_path):
    script = REPO / "lectures" / "05_generative_models" / "run.py"
    proc = subprocess.run([sys.executable, str(script), "--quick", "--out", str(tmp_path),
                           "--map", "a=b"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "--map renames functions of --student" in proc.stderr
