"""A graded function may make Python read the submission's own source: a numpy warning printed
with its line, a traceback, a module of the submission imported inside a function. That is no
file access of the function's; reading any other file during a call still fails the task."""

from pathlib import Path

import pytest

from mlpr.grading import runner

COURSE = Path(__file__).parent / "grading_submissions" / "course_style.py"

pytestmark = pytest.mark.slow  # each grades a submission in the sandbox


def _with_compute_ll(body: str) -> str:
    """course_style.py with compute_ll's first line replaced by ``body`` (which must still
    return the right value)."""
    src = COURSE.read_text()
    old = "def compute_ll(X, mu, C):\n"
    assert src.count(old) == 1
    return src.replace(old, old + body)


def _status(path, name="compute_ll"):
    rep = runner.grade(path, labs=[4])
    (r,) = [r for r in rep.results if r.name == name]
    return r.status, r.message or ""


def test_a_warning_that_shows_the_students_line_is_not_a_file_access(tmp_path):
    sub = tmp_path / "warns.py"
    sub.write_text(_with_compute_ll("    np.log(np.zeros(1))  # RuntimeWarning: divide by zero\n"))
    assert _status(sub) == ("passed", "")


def test_a_module_of_the_submission_imported_inside_a_function_is_not_a_file_access(tmp_path):
    folder = tmp_path / "labs"
    folder.mkdir()
    (folder / "tools").mkdir()  # a package the loader does not import: first read in the call
    (folder / "tools" / "__init__.py").write_text("")
    (folder / "tools" / "helpers.py").write_text("def total(x):\n    return x.sum()\n")
    (folder / "lab4.py").write_text(_with_compute_ll(
        "    from tools import helpers  # first imported here, during the call\n"
        "    return helpers.total(logpdf_GAU_ND(X, mu, C))\n"))
    assert _status(folder) == ("passed", "")


def test_reading_another_file_during_a_call_still_fails(tmp_path):
    folder = tmp_path / "labs"
    folder.mkdir()
    (folder / "notes.txt").write_text("1.0\n")
    (folder / "lab4.py").write_text(_with_compute_ll(
        "    open(__file__.replace('lab4.py', 'notes.txt')).read()\n"))
    status, message = _status(folder)
    assert status == "failed" and "opened the file" in message and "notes.txt" in message
