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

import pytest

REPO = Path(__file__).resolve().parents[1]
COURSE = (REPO / "tests" / "grading_submissions" / "course_style.py").read_text()
LECTURES = {"03": "03_dimensionality_reduction", "05": "05_generative_models",
            "07": "07_measuring_predictions", "09": "09_gaussian_mixture_models"}


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


def test_map_and_a_file_that_reads_iris_and_shows_a_plot_at_import(tmp_path):
    renamed = COURSE.replace("def Gau_MVG_ML_estimates(", "def my_mvg(").replace(
        "Gau_MVG_ML_estimates(D, L)", "my_mvg(D, L)")
    student = tmp_path / "labs.py"
    student.write_text(renamed + "\n\n" + "\n".join([
        "IRIS_AT_IMPORT = np.loadtxt('iris.csv', delimiter=',', usecols=range(4))",
        "import matplotlib.pyplot as plt",
        "plt.figure()",
        "plt.show()",
    ]) + "\n")
    proc, results = run_lecture("05", student, tmp_path, "--map", "Gau_MVG_ML_estimates=my_mvg")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "train_mvg <- Gau_MVG_ML_estimates" in proc.stdout
    summary = results["student_summary"]
    assert summary["reproduced"] == summary["counted"] >= 5, summary
    # without --map the lecture says that it falls back to mlpr's train_mvg
    proc, _ = run_lecture("05", student, tmp_path)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "mlpr's train_mvg: your file has no Gau_MVG_ML_estimates" in proc.stdout


def test_map_needs_student(tmp_path):
    script = REPO / "lectures" / LECTURES["05"] / "run.py"
    proc = subprocess.run([sys.executable, str(script), "--quick", "--out", str(tmp_path),
                           "--map", "a=b"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "--map renames functions of --student" in proc.stderr
