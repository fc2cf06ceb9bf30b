"""Every lecture script runs in --quick mode and says so; the README's lecture commands work as
written; the shared command line (--help, --show, --out) and report (checks, claims, sources)."""

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from _lecture import Lecture

REPO = Path(__file__).resolve().parents[1]
LECTURES = sorted(p.parent.name for p in (REPO / "lectures").glob("[0-9][0-9]_*/run.py"))
README = (REPO / "README.md").read_text()


def run(args, tmp_path=None, env=None, **kw):
    env = dict(os.environ if env is None else env, OPENBLAS_NUM_THREADS="1")
    return subprocess.run(args, capture_output=True, text=True, env=env, timeout=600, **kw)


def test_there_are_lectures():
    assert "02_iris_exploration" in LECTURES


# every quick run is slow (4 to 60 s): make test-quick runs no lecture
@pytest.mark.parametrize("name", [
    pytest.param(n, marks=[pytest.mark.lectures(n), pytest.mark.slow]) for n in LECTURES])
def test_lecture_quick(name, lecture_run):
    tmp_path = lecture_run(name)
    results = json.loads((tmp_path / "results.json").read_text())
    assert results["lecture"] == name and results["mode"] == "quick"
    assert results["figures"], "a lecture writes at least one figure"
    for fig in results["figures"]:
        assert (tmp_path / fig).stat().st_size > 1000
    assert (REPO / "lectures" / name / "README.md").exists()
    # every reference names where it comes from
    for check in results["checks"]:
        if "reference" in check or "claim" in check:
            assert check["source"], check
    # quick mode says so: no full-size claim in the output, the subsample in every MNIST
    # heading and figure title
    out = (tmp_path / "stdout.txt").read_text()
    assert "quick mode" in out.splitlines()[0]
    assert not re.search(r"60,000|10,000 test|60000 train", out), "quick output claims full sizes"
    if "mnist" in results:
        assert results["mnist"].startswith("quick subsample: ")
        for line in out.splitlines():
            if line.startswith("## ") and "MNIST" in line:
                assert "quick subsample" in line, line
        for fig, titles in results["figure_titles"].items():
            if any("MNIST" in t for t in titles):
                assert any("quick subsample" in t for t in titles), (fig, titles)


@pytest.mark.parametrize("name", LECTURES)
def test_lectures_are_divided_into_notebook_cells(name):
    # `# %%` cells at the sections: VS Code, PyCharm, Spyder and Jupytext open them as notebooks
    text = (REPO / "lectures" / name / "run.py").read_text()
    cells = re.findall(r"^# %% (.+)$", text, flags=re.M)
    assert len(cells) >= 3 and cells[0].startswith("set-up"), cells
    assert not re.search(r"^# -- .*-{5,}$", text, flags=re.M)  # every section banner is a cell


@pytest.mark.slow
@pytest.mark.lectures("10_linear_methods")
def test_running_the_cells_in_order_gives_the_scripts_results(lecture_run, tmp_path,
                                                              monkeypatch):
    import ast

    name = "10_linear_methods"
    source = (REPO / "lectures" / name / "run.py").read_text()
    cells = re.split(r"^# %%.*$", source, flags=re.M)
    assert len(cells) >= 4
    namespace = {"__name__": "__main__", "__doc__": ast.get_docstring(ast.parse(source))}
    monkeypatch.setattr(sys, "argv", ["run.py", "--quick", "--out", str(tmp_path)])
    monkeypatch.setenv("MPLBACKEND", "Agg")
    for cell in cells:  # one namespace, one cell at a time, as a notebook runs them
        exec(compile(cell, f"{name} cell", "exec"), namespace)
    cells_run = json.loads((tmp_path / "results.json").read_text())
    script_run = json.loads((lecture_run(name) / "results.json").read_text())
    assert [c["what"] for c in cells_run["checks"]] == [c["what"] for c in script_run["checks"]]
    for a, b in zip(cells_run["checks"], script_run["checks"]):
        assert a.get("measured", a.get("holds")) == b.get("measured", b.get("holds")), a["what"]
    assert cells_run["tables"] == script_run["tables"]


def _readme_commands(prefix):
    """The README's shell lines that start with ``prefix`` (in ```sh blocks)."""
    blocks = re.findall(r"```sh\n(.*?)```", README, flags=re.S)
    lines = [ln.split("#")[0].strip() for b in blocks for ln in b.splitlines()]
    return [ln for ln in lines if ln.startswith(prefix)]


@pytest.mark.slow
@pytest.mark.lectures("05_generative_models")
def test_readme_make_lecture_command_works_as_written(lecture_run, tmp_path):
    """The command a newcomer copies on a fresh clone (make creates .venv when it is missing)
    runs the README's second command, the lecture's script by the venv's Python, with the same
    arguments; that script's quick run, the one the lecture tests share, is checked to succeed
    (running it a second time through make would check nothing more)."""
    (cmd,) = [c for c in _readme_commands("make lecture ") if "STUDENT" not in c]
    assert "ARGS=--quick" in cmd
    (venv_cmd,) = _readme_commands(".venv/bin/python lectures/")
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    proc = run(["bash", "-c", f"make -n {cmd.removeprefix('make ')} OUT={tmp_path}"], cwd=REPO,
               env=env)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    (recipe,) = [ln.split() for ln in proc.stdout.replace("\\\n", " ").splitlines()
                 if ".venv/bin/python lectures/" in ln]
    assert recipe == ["OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}", *venv_cmd.split(),
                      "--out", str(tmp_path)], recipe
    name = Path(venv_cmd.split()[1]).parent.name
    assert json.loads((lecture_run(name) / "results.json").read_text())["mode"] == "quick"


@pytest.mark.slow
@pytest.mark.lectures("05_generative_models")
def test_readme_venv_python_command_works_as_written(lecture_run, tmp_path):
    """The README's second command is the lecture's quick run: when this test runs under the
    venv's Python, the shared quick run of the lecture was that very command (with --out);
    under another interpreter the command runs here, as written."""
    (cmd,) = _readme_commands(".venv/bin/python lectures/")
    venv_python = REPO / ".venv" / "bin" / "python"
    if not venv_python.exists():
        pytest.skip("no .venv: the README's second command follows `make lecture`")
    python, script, *args = cmd.split()
    assert python == ".venv/bin/python" and (REPO / script).is_file() and args == ["--quick"]
    if Path(sys.prefix).resolve() == (REPO / ".venv").resolve():  # this Python is the venv's
        out = lecture_run(Path(script).parent.name)
    else:
        proc = run(["bash", "-c", f"{cmd} --out {tmp_path}"], cwd=REPO)
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        out = tmp_path
    assert json.loads((out / "results.json").read_text())["mode"] == "quick"


def test_readme_python_examples_run():
    blocks = re.findall(r"```python\n(.*?)```", README, flags=re.S)
    assert blocks
    for code in blocks:
        exec(compile(code, "README.md", "exec"), {"__name__": "readme"})


def _make_stamp() -> str:
    """The file that stands for `make check`'s installed venv (the Makefile's STAMP)."""
    text = (REPO / "Makefile").read_text()
    venv = re.search(r"^VENV\s*:?=\s*(\S+)", text, flags=re.M).group(1)
    stamp = re.search(r"^STAMP\s*:?=\s*(\S+)", text, flags=re.M).group(1)
    # what the stamp guards, and the submissions' environment (this test's Python stands in)
    assert re.search(r"^check: \$\(STAMP\) submission-env$", text, flags=re.M)
    return stamp.replace("$(VENV)", venv)


@pytest.mark.slow
def test_readme_student_commands_work():
    """The README's `make check` commands, run by make as written, with two changes that keep
    the checkout as it is: make's Python (PY) is this test's, whose environment holds what
    `make check` installs, and the install stamp counts as made (`make -o`), so that nothing is
    installed into .venv/ from inside a test; `make -n` shows that a student's make runs the
    same command line with .venv/bin/python."""
    student = REPO / "tests" / "grading_submissions" / "course_style.py"
    (check,) = [c for c in _readme_commands("make check ") if "--lab" in c]
    words = shlex.split(check.replace("path/to/my_labs.py", str(student)))
    assert words[:2] == ["make", "check"] and "ARGS=--lab 7" in words, words
    offline = ["-o", _make_stamp(), "-o", "submission-env", f"PY={sys.executable}"]
    proc = run(["make", "-n", *offline, *words[1:]], cwd=REPO)
    (line,) = [ln for ln in proc.stdout.splitlines() if "-m mlpr.grading" in ln]
    proc = run(["make", "-n", "-o", _make_stamp(), "-o", "submission-env", *words[1:]],
               cwd=REPO)
    assert line.replace(sys.executable, ".venv/bin/python") in proc.stdout.splitlines(), (
        proc.stdout)
    proc = run(["make", *offline, *words[1:]], cwd=REPO)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "✔ lab 7 · compute_minDCF_binary_fast" in proc.stdout
    assert "✔ lab 5" not in proc.stdout  # ARGS="--lab 7" reached the kit
    proc = run(["make", *offline, "check"], cwd=REPO)
    assert proc.returncode == 2 and "usage: make check STUDENT=" in proc.stdout


def test_readme_layout_names_every_folder_and_module():
    """The README's layout table has a row for every folder of the repository (those git
    tracks) and every package of mlpr, and names every public module of mlpr."""
    layout = README.split("## Layout", 1)[1].split("\n\n", 2)[1]
    rows = [ln.split(" | ")[0].strip("| `[]") for ln in layout.splitlines()[2:]]
    cells = " ".join(rows)
    tracked = subprocess.run(["git", "ls-files"], capture_output=True, text=True, cwd=REPO,
                             check=True).stdout.split()
    folders = {p.split("/")[0] for p in tracked if "/" in p}
    packages = {str(Path(p).parent) for p in tracked
                if p.startswith("mlpr/") and p.endswith("/__init__.py") and p.count("/") == 2}
    assert folders >= {"mlpr", "lectures", "tests", "docs", "report", "benchmarks", "datasets"}
    for folder in sorted(folders - {"mlpr", "lectures"}):
        assert any(r.startswith(f"{folder}/") for r in rows), (folder, rows)
    assert "lectures/NN_topic/" in cells and "lectures/_*.py" in cells
    for package in sorted(packages):
        assert f"{package}/" in rows, (package, rows)
    public = [p for p in tracked if p.startswith("mlpr/") and p.count("/") == 1
              and p.endswith(".py") and not Path(p).name.startswith("_")]
    for module in public:
        assert module in rows, (module, rows)
    assert "mlpr/_*.py" in rows  # the private modules, in one row


def test_scripts_import_their_helper_without_path_edits():
    for name in LECTURES:
        text = (REPO / "lectures" / name / "run.py").read_text()
        assert "sys.path" not in text and "noqa" not in text, name
    # lectures/ is on the interpreter's path (make's .pth file), from any working directory
    proc = run([sys.executable, "-c", "import _lecture; print(_lecture.__file__)"], cwd="/")
    assert proc.returncode == 0, ("lectures/ is not on the path of this interpreter: run "
                                  "`make test` (it writes .venv's mlpr_lectures.pth)\n"
                                  + proc.stderr)
    assert Path(proc.stdout.strip()) == REPO / "lectures" / "_lecture.py"


@pytest.mark.slow  # a lecture's interpreter: numpy, matplotlib, mlpr
def test_help_shows_the_out_default():
    proc = run([sys.executable, str(REPO / "lectures" / "02_iris_exploration" / "run.py"),
                "--help"])
    assert proc.returncode == 0
    assert "(default figures/02_iris_exploration)" in " ".join(proc.stdout.split())


STUB_LECTURE = '''"""A stub lecture: one figure and one check, through the shared Lecture."""
import matplotlib.pyplot as plt
from _lecture import Lecture

lec = Lecture("99_stub", __doc__)
fig = plt.figure()
fig.add_subplot().plot([0.0, 1.0], [0.0, 1.0])
fig.axes[0].set_title("a stub figure")
lec.figure(fig, "stub.png")
lec.check("one", 1.0, 1.0, tol=0, source="invariant")
lec.finish()
'''


@pytest.mark.slow  # a lecture's interpreter: numpy, matplotlib, mlpr
def test_show_without_a_display_saves_the_figures_and_says_why(tmp_path):
    # --show belongs to the shared command line (_lecture.Lecture): a stub lecture exercises it
    script = tmp_path / "run.py"
    script.write_text(STUB_LECTURE)
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "MPLBACKEND")}
    proc = run([sys.executable, str(script), "--quick", "--show", "--out", str(tmp_path / "o")],
               env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    if sys.platform.startswith("linux"):
        assert "--show: no display" in proc.stderr
    assert "Traceback" not in proc.stderr
    results = json.loads((tmp_path / "o" / "results.json").read_text())
    assert results["figures"] == ["stub.png"]
    assert all((tmp_path / "o" / f).is_file() for f in results["figures"])


@pytest.mark.slow  # a lecture's interpreter: numpy, matplotlib, mlpr
def test_lecture_cli_rejects_unknown_option():
    proc = run([sys.executable, str(REPO / "lectures" / "02_iris_exploration" / "run.py"),
                "--bogus"])
    assert proc.returncode == 2 and "unrecognized arguments" in proc.stderr


def test_no_figures_builds_each_figure_and_writes_none(tmp_path):
    """--no-figures: a figure passed to lec.figure is closed unrendered, listed under
    figures_not_written; the checks are recorded as without it."""
    import matplotlib.pyplot as plt

    for flag, out in (["--no-figures"], tmp_path / "none"), ([], tmp_path / "png"):
        lec = Lecture("99_selftest", "self test", ["--quick", "--out", str(out), *flag])
        fig = plt.figure()
        fig.add_subplot().plot([0.0, 1.0], [0.0, 1.0])
        drawn = []
        fig.canvas.mpl_connect("draw_event", drawn.append)
        lec.figure(fig, "stub.png")
        lec.check("one", 1.0, 1.0, tol=0, source="invariant")
        lec.finish()
        assert not plt.fignum_exists(fig.number)  # closed, in both modes
        results = json.loads((out / "results.json").read_text())
        assert results["checks"][0]["status"] == "held"
        if flag:
            assert not drawn and not (out / "stub.png").exists()
            assert results["figures"] == [] and results["figures_not_written"] == ["stub.png"]
        else:
            assert drawn and (out / "stub.png").is_file() and results["figures"] == ["stub.png"]


def test_check_fails_full_mode_unless_the_gap_is_known(tmp_path, capsys):
    lec = Lecture("99_selftest", "self test", ["--out", str(tmp_path)])
    lec.check("exact", 1.0, 1.0, tol=0, source="course lab 5")
    lec.check("known gap", 3.5, 3.1, tol=0.3, known_gap="see README", source="course slides")
    assert lec.failures == [] and lec.results["known_gaps"][0]["why"] == "see README"
    lec.check("wrong", 2.0, 1.0, tol=0.3, source="course slides")
    assert lec.failures == ["wrong"]
    with pytest.raises(SystemExit) as exc:
        lec.finish()
    assert exc.value.code == 1
    out = capsys.readouterr().out
    assert "reference 1.0000 (course lab 5)" in out
    assert "DIFFERS FROM THE REFERENCE (see README)" in out and "MISMATCH" in out
    assert "NOTES" not in out
    results = json.loads((tmp_path / "results.json").read_text())
    assert [c["source"] for c in results["checks"]] == ["course lab 5", "course slides",
                                                        "course slides"]


def test_a_reference_needs_its_source(tmp_path):
    lec = Lecture("99_selftest", "self test", ["--out", str(tmp_path)])
    with pytest.raises(ValueError, match="needs its source"):
        lec.check("unsourced", 1.0, 1.0, tol=0)
    lec.check("reported only", 1.0)  # no reference, no source needed


def test_claim_states_a_true_false_fact(tmp_path, capsys):
    lec = Lecture("99_selftest", "self test", ["--out", str(tmp_path)])
    lec.claim("MVG is the best model", True, source="course slides")
    assert lec.failures == []
    lec.claim("tied beats MVG", False)
    assert lec.failures == ["tied beats MVG"]
    out = capsys.readouterr().out
    assert "MVG is the best model: true (course slides) ok" in out
    assert "tied beats MVG: false (invariant) MISMATCH" in out
    quick = Lecture("99_selftest", "self test", ["--quick", "--out", str(tmp_path)])
    quick.claim("tied beats MVG", False)
    assert quick.failures == []  # quick mode reports, does not enforce


@pytest.mark.slow
def test_load_mnist_states_the_sizes_used(tmp_path):
    lec = Lecture("99_selftest", "self test", ["--quick", "--out", str(tmp_path)])
    DTR, LTR, DTE, LTE = lec.load_mnist(n_train=500, n_test=200)
    assert DTR.shape == (784, 500) and LTR.shape == (500,) and DTE.shape == (784, 200)
    assert lec.mnist_sizes == "quick subsample: 500 train, 200 test"
    again = Lecture("99_selftest", "self test", ["--quick", "--out", str(tmp_path)])
    assert (again.load_mnist(n_train=500, n_test=200)[1] == LTR).all()  # deterministic
