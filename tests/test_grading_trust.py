"""Trusted grading: submissions written to cheat, graded beside an honest course-style one.

Each cheat is a small submission for lab 4 (the Gaussian log-density tasks) whose functions return
garbage and try to get marks another way: patching mlpr, numpy or the grader, reading the stack,
writing forged results to inherited file descriptors, exiting, ignoring signals, leaving a
grandchild behind, reading a classmate's file, editing mlpr's source, returning objects whose
``__eq__`` / ``__array__`` / ``__float__`` look for the expected value, NaN, importing mlpr, and
newlines in exception messages. Each must earn only what its own code earns (0 here), the honest
submission keeps full marks in the same run, and the grader's files and mlpr are unchanged.
"""

import ast
import dataclasses
import hashlib
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import mlpr
from mlpr.grading import formats, sandbox
from mlpr.grading.__main__ import grade_all
from mlpr.grading.runner import Report

REPO = Path(__file__).resolve().parents[1]
HONEST = (REPO / "tests" / "grading_submissions" / "course_style.py").read_text()
LAB4 = ["logpdf_GAU_ND", "logpdf_GAU_ND_fast", "logpdf_GAU_ND_slow",
        "logpdf_GAU_ND_singleSample", "compute_ll", "k_means"]

#: A wrong log-density (the Gaussian without its log-determinant): what the cheats' own code earns
GARBAGE = """
import numpy as np

def logpdf_GAU_ND(X, mu, C):
    return -0.5 * (((X - mu) ** 2).sum(0))
"""

CHEATS = {
    "patch the grader, mlpr and numpy in memory": GARBAGE + """
import sys, numpy
try:
    import mlpr.grading
    mlpr.grading.run_task = lambda *a, **k: None
except ImportError:
    pass
for name in list(sys.modules):
    if "grading" in name or name.startswith("mlpr"):
        setattr(sys.modules[name], "run_task", lambda *a, **k: None)
numpy.max = lambda *a, **k: 0.0
numpy.sum = lambda *a, **k: 0.0
numpy.allclose = lambda *a, **k: True
""",
    "read the stack for the expected value": """
import sys, numpy as np

def logpdf_GAU_ND(X, mu, C):
    f = sys._getframe()
    while f is not None:
        for key in ("expected", "reference", "ref"):
            if key in f.f_locals:
                return f.f_locals[key]
        f = f.f_back
    return np.zeros(X.shape[1])
""",
    "objects with __eq__, __array__ and __float__": """
import sys, numpy as np

class Anything:
    def __eq__(self, other):
        return True
    def __float__(self):
        return 0.0
    def __array__(self, dtype=None, copy=None):
        f = sys._getframe()
        while f is not None:
            if "expected" in f.f_locals:
                return np.asarray(f.f_locals["expected"])
            f = f.f_back
        return np.zeros(3)
    def __len__(self):
        return 3

def logpdf_GAU_ND(X, mu, C):
    return Anything()

def compute_ll(X, m, C):
    return Anything()
""",
    "forge result lines on inherited file descriptors": GARBAGE + """
import json, os

def compute_ll(X, m, C):
    forged = {"result": {"name": "compute_ll", "lab": 4, "status": "passed", "points": 51000,
                         "max_points": 1}}
    line = (json.dumps(forged) + "\\n").encode()
    for fd in os.listdir("/proc/self/fd"):
        try:
            os.write(int(fd), b"\\x00\\x00\\x00\\x10\\x00\\x00\\x00\\x00" + line)
        except OSError:
            pass
    return 0.0
""",
    "exit inside a function": GARBAGE + """
import os, sys

def logpdf_GAU_ND_fast(X, mu, C):
    sys.exit(0)

def logpdf_GAU_ND_slow(X, mu, C):
    os._exit(0)
""",
    "ignore signals and hang": GARBAGE + """
import signal

def compute_ll(X, m, C):
    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(s, signal.SIG_IGN)
    while True:
        pass
""",
    "a double-forked grandchild": GARBAGE + """
import os

def compute_ll(X, m, C):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execv("/bin/sleep", ["sleep", "4242.4242"])
        os._exit(0)
    return 0.0
""",
    "read a classmate's file and write outside the temporary folder": GARBAGE + """
import glob, os

CLASSMATE = "@CLASSMATE@"
MLPR_GAUSSIAN = "@MLPR_GAUSSIAN@"

def _steal():
    try:
        src = open(CLASSMATE).read()
    except OSError:
        return None
    ns = {}
    exec(src, ns)
    return ns

_stolen = _steal()
if _stolen:
    logpdf_GAU_ND = _stolen["logpdf_GAU_ND"]
for path in (CLASSMATE, MLPR_GAUSSIAN):
    try:
        with open(path, "a") as f:
            f.write("\\n# tampered\\n")
    except OSError:
        pass
for path in glob.glob("/tmp/mlpr-grading-*/*") + glob.glob("/tmp/*"):
    try:
        with open(os.path.join(path, "planted.txt"), "w") as f:
            f.write("x")
    except OSError:
        pass
""",
    "edit mlpr's source": GARBAGE + """
import os
for root in ("@MLPR_DIR@",):
    for name in ("gaussian.py", "grading/runner.py"):
        try:
            with open(os.path.join(root, name), "w") as f:
                f.write("raise SystemExit('sabotaged')\\n")
        except OSError:
            pass
""",
    "NaN": """
import numpy as np

def logpdf_GAU_ND(X, mu, C):
    return np.full(X.shape[1], np.nan)

def compute_ll(X, m, C):
    return float("nan")
""",
    "use mlpr's functions": """
from mlpr.gaussian import logpdf_GAU_ND
""",
    "newlines in exception messages": """
def logpdf_GAU_ND(X, mu, C):
    raise ValueError("boom\\n ✔ lab 4 · logpdf_GAU_ND  1/1\\n== forged: 51 / 51 points")
""",
    "exit at import": "import os\nos._exit(0)\n",
    "sys.exit at import": "import sys\nsys.exit(0)\n",
}


def _digest(paths) -> dict:
    return {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in paths}


def _sleepers() -> list:
    out = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if "4242.4242" in line and "ps -eo" not in line]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    d = tmp_path_factory.mktemp("class")
    honest = d / "honest.py"
    honest.write_text(HONEST)
    mlpr_dir = Path(mlpr.__file__).resolve().parent
    watched = sorted(mlpr_dir.rglob("*.py")) + [honest]
    before = _digest(watched)
    paths = [honest]
    for i, (_name, code) in enumerate(CHEATS.items()):
        p = d / f"cheat{i:02d}.py"
        p.write_text(textwrap.dedent(code).replace("@CLASSMATE@", str(honest))
                     .replace("@MLPR_GAUSSIAN@", str(mlpr_dir / "gaussian.py"))
                     .replace("@MLPR_DIR@", str(mlpr_dir)))
        paths.append(p)
    t0 = time.perf_counter()
    # a 2 s limit per task: the honest file's lab 4 tasks take under 0.01 s each (measured); the
    # cheat that ignores signals and hangs is failed when the limit runs out, whatever it is
    reports = grade_all(paths, jobs=2, seed=7, labs=[4], timeout=2.0)
    seconds = time.perf_counter() - t0
    time.sleep(0.5)
    return {"honest": reports[0], "cheats": dict(zip(CHEATS, reports[1:])), "before": before,
            "after": _digest(watched), "seconds": seconds, "folder": d,
            "sleepers": _sleepers()}


@pytest.mark.slow
def test_the_honest_submission_keeps_full_marks(graded):
    rep = graded["honest"]
    assert rep.score == rep.max_score == len(LAB4), formats.format_text([rep])


@pytest.mark.slow
@pytest.mark.parametrize("cheat", list(CHEATS))
def test_a_cheat_earns_only_what_its_code_earns(graded, cheat):
    rep = graded["cheats"][cheat]
    assert rep.max_score == len(LAB4)
    assert rep.score == 0, formats.format_text([rep])
    assert all(0 <= r.points <= r.max_points for r in rep.results)


@pytest.mark.slow
def test_the_graders_files_and_mlpr_are_unchanged(graded):
    assert graded["before"] == graded["after"]
    assert not list(graded["folder"].rglob("planted.txt"))


def test_no_process_outlives_its_submission(graded):
    assert graded["sleepers"] == []


@pytest.mark.slow
def test_what_each_attack_is_told(graded):
    c = {k: {r.name: r for r in rep.results} for k, rep in graded["cheats"].items()}
    assert "raised SystemExit: 0" in c["exit inside a function"]["logpdf_GAU_ND_fast"].message
    assert "exited (status 0)" in c["exit inside a function"]["logpdf_GAU_ND_slow"].message
    assert "hangs" in c["ignore signals and hang"]["compute_ll"].message
    assert "not plain data" in c["forge result lines on inherited file descriptors"][
        "compute_ll"].message
    for r in graded["cheats"]["use mlpr's functions"].results:
        assert "graded code may not use the reference" in r.message
    for k in ("exit at import", "sys.exit at import"):
        rep = graded["cheats"][k]
        assert all(r.status == "failed" for r in rep.results) and not rep.passed
        assert "took longer" not in " ".join(rep.notes)
    # os._exit at import is refused: that module's import ends, said, and the process lives on
    assert "os._exit(0) was called" in graded["cheats"]["exit at import"].notes[0]
    assert "SystemExit" in graded["cheats"]["sys.exit at import"].notes[0]


def test_newlines_in_messages_cannot_forge_report_lines(graded):
    rep = graded["cheats"]["newlines in exception messages"]
    text = formats.format_text([rep])
    marks = [line for line in text.splitlines() if line.startswith((" ✔", " ✘"))]
    assert len(marks) == len(rep.results)
    assert not any(line.startswith("==") for line in text.splitlines()[1:])
    assert "boom\\n" in text


def test_the_report_names_the_isolation_and_the_seed(graded):
    rep = graded["honest"]
    assert rep.isolation == "bubblewrap" and rep.seed == 7
    assert "isolation: bubblewrap" in formats.format_text([rep])


def test_the_seed_replays_and_varies_the_cases():
    from mlpr.grading import course

    def inputs(seed):
        case = course.tasks(run=course.Run(seed))["trainLogRegBinary"].cases()[0]
        return case.args[0].copy()

    a, b, a2 = inputs(1), inputs(2), inputs(1)
    assert (a == a2).all() and a.shape == b.shape and not (a == b).all()


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["user", "process"])
def test_the_fallbacks_without_bubblewrap_say_so(tmp_path, kind):
    if sandbox.available(kind) is not None:  # "user" needs root and setpriv
        with pytest.raises(ValueError, match=f"isolation '{kind}' is not available"):
            sandbox.choose(kind)
        return
    honest = tmp_path / "honest.py"
    honest.write_text(HONEST)
    paths = [honest]
    for i, name in enumerate(("read the stack for the expected value", "a double-forked grandchild",
                              "patch the grader, mlpr and numpy in memory")):
        paths.append(tmp_path / f"cheat{i}.py")
        paths[-1].write_text(textwrap.dedent(CHEATS[name]))
    reports = grade_all(paths, jobs=2, seed=3, labs=[4], isolation=kind)
    time.sleep(0.5)
    sleepers = _sleepers()
    for _line in sleepers:  # the plain process cannot reach a grandchild that left its session
        subprocess.run(["pkill", "-f", "sleep 4242.4242"])
    assert reports[0].isolation == kind and reports[0].score == len(LAB4)
    assert [r.score for r in reports[1:]] == [0, 0, 0]
    text = formats.format_text(reports[:1])
    assert f"isolation: {kind}: " in text and "(bubblewrap: available, not chosen)" in text
    if kind == "user":
        assert sleepers == []  # every process of the sandbox's user id is killed


def test_demanding_an_unavailable_isolation_fails(monkeypatch):
    monkeypatch.setattr(sandbox, "_probe", lambda kind: "not here" if kind == "user" else None)
    with pytest.raises(ValueError, match="isolation 'user' is not available: not here"):
        sandbox.choose("user")


@pytest.mark.parametrize("module", sorted(p.name for p in (REPO / "mlpr" / "grading" /
                                                            "child").glob("*.py")))
def test_what_runs_beside_a_submission_imports_nothing_of_mlpr(module):
    """Every module of ``mlpr/grading/child/`` (the harness, the wire codec), run as the sandbox
    runs the harness (``python -I``, from ``/``), imports nothing of mlpr."""
    path = REPO / "mlpr" / "grading" / "child" / module
    code = ("import sys; sys.argv = ['x']; import runpy; "
            f"runpy.run_path({str(path)!r}, run_name='h'); "
            "print(sorted(m for m in sys.modules if m.startswith('mlpr')))")
    out = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True,
                         cwd=os.sep)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().replace("'", '"')) == []
    assert module in {"__init__.py", "harness.py", "wire.py", "discover.py", "fingerprints.py"}
    imported = [a.name for n in ast.walk(ast.parse(path.read_text()))
                if isinstance(n, ast.Import) for a in n.names] + [
        n.module or "" for n in ast.walk(ast.parse(path.read_text()))
        if isinstance(n, ast.ImportFrom)]
    assert not [m for m in imported if m.split(".")[0] == "mlpr"], imported


@pytest.mark.slow
def test_a_students_repository_with_one_folder_per_lab(tmp_path):
    """Graded as a TA receives it: lab folders (Lab9 before Lab12), modules importing each other
    by name and as packages from the repository's root, scikit-learn's iris loader, copies of
    one module in several labs, a lab whose module fails to import, the course's own files
    (their author's header) beside the student's code (left out, and listed), and a `project/`
    folder that does not override a lab."""
    repo = tmp_path / "MLPR_Labs"
    sklearn_iris = HONEST.replace("def load_iris():", "def _file_iris():") + textwrap.dedent("""

        def load_iris():
            import sklearn.datasets
            iris = sklearn.datasets.load_iris()
            return iris["data"].T, iris["target"]
        """)
    wrong = "import numpy as np\n\ndef compute_mu_C(D):\n    return D.mean(1), np.cov(D)\n"
    course_file = "# Copyright (C) 2024 by Sandro Cumani\n" + wrong
    files = {
        "Lab3/pca.py": sklearn_iris,
        "Lab7/bayesRisk.py": sklearn_iris,
        "Lab9/broken.py": "import numpy\nraise RuntimeError('this lab runs on import')\n",
        "Lab12/code/bayesRisk.py": sklearn_iris,
        "Lab12/code/gmm.py": "import numpy\nfrom bayesRisk import *\n",
        "Lab12/code/gmm_cls.py": ("from gmm import *\n"
                                  "import Lab12.code.bayesRisk as bayesRisk\n"
                                  "if __name__ == '__main__':\n    print('runs the lab')\n"),
        "Lab12/solution/sol.py": course_file,
        "Lab7/Soluzione/sol.py": course_file,
        "project/utils.py": wrong,
    }
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    (rep,) = grade_all([repo], jobs=1, seed=5)
    failed = [(r.name, r.message) for r in rep.results if r.status != "passed"]
    assert not failed, formats.format_text([rep])
    assert rep.max_score == 50 and rep.score == 50
    by = {r.name: r for r in rep.results}
    assert by["compute_mu_C"].file == "Lab3/pca.py"  # the copy in its own lab's folder
    assert by["load_iris"].file == "Lab12/code/bayesRisk.py"  # no lab 2: the latest lab's
    plan = [line.strip() for line in rep.plan]
    assert any(n.startswith("not imported: Lab9/broken.py: RuntimeError") for n in plan), plan
    assert any(n.startswith("left out: Lab12/solution/sol.py, the course's own file")
               for n in plan), plan
    assert any(n.startswith("left out: Lab7/Soluzione/sol.py, the course's own file")
               for n in plan), plan
    assert ("compute_mu_C: Lab3/pca.py; not graded: Lab12/code/bayesRisk.py, "
            "Lab7/bayesRisk.py, project/utils.py") in plan
    assert "[Lab12/code/bayesRisk.py]" in formats.format_text([rep])


def test_a_folder_with_a_helper_that_cannot_be_imported(tmp_path):
    """Folder mode: a helper module that cannot be imported (a package not installed) is noted
    and skipped; the lab's own module is graded. Python 3.12 syntax is located and explained."""
    lab = tmp_path / "lab4"
    lab.mkdir()
    (lab / "gaussian.py").write_text(HONEST)
    (lab / "plots.py").write_text("import seaborn_is_not_installed\n")
    (lab / "report.py").write_text('d = {"a": 1}\nprint(f"{d["a"]}")\n')
    (rep,) = grade_all([lab], jobs=1, seed=5, labs=[4])
    assert rep.score == rep.max_score == len(LAB4), formats.format_text([rep])
    notes = " | ".join(rep.plan)
    assert "not imported: plots.py: ModuleNotFoundError" in notes
    if sys.version_info < (3, 12):
        assert "report.py, line 2" in notes and "valid in Python >= 3.12" in notes


def test_bad_arguments_are_explained():
    from mlpr.grading import course

    with pytest.raises(ValueError, match="seed must be a non-negative int or None, got -1"):
        course.Run(-1)
    with pytest.raises(ValueError, match="isolation must be one of .*, got 'docker'"):
        sandbox.available("docker")
    rep = Report("s.py", [], [], [])
    with pytest.raises(ValueError, match="visibility must be one of .*, got 'secret'"):
        formats.format_gradescope(rep, "secret")
    with pytest.raises(FileNotFoundError, match="does not exist"):
        grade_all([Path("/nonexistent/submission.py")], jobs=1, seed=0)


# ------------------------------------------------------------------------------------------------
# odd answers: what a struggling student really returns, and frames no harness writes. Each fails
# its own task with a reason in words; none ends the run, and the honest file keeps full marks.

ODD_LABS = [3, 4, 5, 8]

#: {name: (code, the task it answers, words its reason must hold)}
ODD = {
    "NaN weights from a diverging optimiser": ("""
import numpy as np

def trainLogRegBinary(DTR, LTR, l):
    return np.full(DTR.shape[0], np.nan), float("nan")
""", "trainLogRegBinary", "NaN"),
    "an int too large for a float": ("""
def logpdf_GAU_ND(X, mu, C):
    return 10 ** 400
""", "logpdf_GAU_ND", "an int too large for a float"),
    "a ragged list for (Sb, Sw)": ("""
import numpy as np

def compute_Sb_Sw(D, L):
    return [np.zeros((4, 4)), np.zeros(3)]
""", "compute_Sb_Sw", "shape"),
    "a tuple of NaN": ("""
def compute_mu_C(D):
    return (float("nan"), float("nan"))
""", "compute_mu_C", "mu has shape ()"),
    "hParams keyed by class name": ("""
import numpy as np

def Gau_MVG_ML_estimates(D, L):
    names = ["setosa", "versicolor", "virginica"]
    return {names[c]: (D[:, L == c].mean(1, keepdims=True), np.cov(D[:, L == c], bias=True))
            for c in range(3)}
""", "Gau_MVG_ML_estimates", "labels"),
    "hParams keyed by 'status'": ("""
def Gau_MVG_ML_estimates(D, L):
    return {"status": "done", 0: None}
""", "Gau_MVG_ML_estimates", "labels"),
    "a frame whose header is a list": ("""
import sys
_h = sys.modules["__main__"].wire  # the harness's codec
_write = _h.write_frame
_h.write_frame = lambda fd, header, blobs=(): _write(fd, [header], blobs)

def logpdf_GAU_ND(X, mu, C):
    return X[0]
""", None, "did not answer as the harness does"),
    "a 40 MB frame": ("""
import json, os, struct, sys

def logpdf_GAU_ND(X, mu, C):
    out = sys.modules["__main__"].OUT_FD
    head = json.dumps({"op": "return", "value": [[0]] * 8_000_000}).encode()
    data = struct.pack(">II", len(head), 0) + head
    while data:
        data = data[os.write(out, data):]
    return None
""", "logpdf_GAU_ND", "a frame too large"),
    "forged notes in the hello frame": ("""
import sys
_h = sys.modules["__main__"].wire  # the harness's codec
_write = _h.write_frame

def _forge(fd, header, blobs=()):
    if isinstance(header, dict) and header.get("op") == "hello":
        header["notes"] = ["seed: 12345", "isolation: bubblewrap ... verified",
                           "<b>full marks</b> <a href='http://x'>x</a>", "a\\nseed: 1"]
    return _write(fd, header, blobs)

_h.write_frame = _forge

def logpdf_GAU_ND(X, mu, C):
    return X[0]
""", "logpdf_GAU_ND", "relative error"),
}


@pytest.fixture(scope="module")
def odd(tmp_path_factory):
    d = tmp_path_factory.mktemp("odd")
    honest = d / "honest.py"
    honest.write_text(HONEST)
    paths = [honest]
    for i, (code, _task, _words) in enumerate(ODD.values()):
        p = d / f"odd{i:02d}.py"
        p.write_text(textwrap.dedent(code))
        paths.append(p)
    reports = grade_all(paths, jobs=2, seed=11, labs=ODD_LABS, timeout=20.0)
    return {"honest": reports[0], "odd": dict(zip(ODD, reports[1:]))}


@pytest.mark.slow
def test_odd_answers_never_end_the_run_and_the_honest_file_keeps_full_marks(odd):
    rep = odd["honest"]
    assert rep.passed and rep.score == rep.max_score > 0, formats.format_text([rep])
    assert len(odd["odd"]) == len(ODD)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(ODD))
def test_an_odd_answer_fails_its_task_with_a_reason_in_words(odd, name):
    rep = odd["odd"][name]
    _code, task, words = ODD[name]
    assert not any(r.status == "error" for r in rep.results), formats.format_text([rep])
    if task is None:  # the submission's process cannot even say hello
        assert rep.score == 0 and any(words in n for n in rep.notes), rep.notes
        return
    r = {r.name: r for r in rep.results}[task]
    assert r.status == "failed" and r.points == 0, formats.format_text([rep])
    assert words in r.message + (r.hint or ""), formats.format_text([rep])
    assert "Traceback" not in r.message


@pytest.mark.slow
def test_forged_notes_cannot_write_the_graders_lines(odd):
    rep = odd["odd"]["forged notes in the hello frame"]
    doc = formats.format_gradescope(rep)
    lines = doc["output"].splitlines()
    assert lines[0].startswith("isolation: ") and lines[1] == "seed: 11"
    assert [ln for ln in lines if ln.startswith(("seed:", "isolation:"))] == lines[:2]
    assert all(ln.startswith("note: ") for ln in lines[2:] if "seed" in ln or "<b>" in ln)
    assert doc["output_format"] == "text"
    assert {t["output_format"] for t in doc["tests"]} == {"text"}
    text = formats.format_text([rep]).splitlines()
    assert sum(ln.strip().startswith("seed:") for ln in text) == 1


def test_csv_cells_carry_no_control_characters():
    from mlpr.grading.framework import TaskResult

    rep = Report("class/eve\n,=1+1\x1b[31m", [TaskResult("t", 1, "passed", 1.0, 1.0)], [], [])
    text = formats.format_csv([rep])
    assert text.count("\n") == 2 and "\x1b" not in text  # the header and one row
    assert "eve\\n" in text and "\\x1b" in text


@pytest.mark.slow
def test_a_folder_named_like_an_option_is_graded(tmp_path, monkeypatch, capsys):
    from mlpr.grading.__main__ import main

    (tmp_path / "-rf").mkdir()
    (tmp_path / "-rf" / "lab4.py").write_text(HONEST)
    (tmp_path / "bob.py").write_text(HONEST)
    monkeypatch.chdir(tmp_path)
    args = ["--lab", "4", "--seed", "3", "--format", "csv"]
    for argv in (args + ["--", "-rf", "bob.py"], args + ["-rf", "bob.py"]):
        assert main(argv) == 0, capsys.readouterr()
        rows = capsys.readouterr().out.splitlines()
        assert sorted(Path(r.split(",")[0]).name for r in rows[1:]) == ["-rf", "bob.py"]
    with pytest.raises(SystemExit) as exc:
        main(args + ["-nosuch"])
    assert exc.value.code == 2
    assert "goes after --" in capsys.readouterr().err


def test_a_dangling_link_as_a_submission_fails_alone(tmp_path):
    honest = tmp_path / "honest.py"
    honest.write_text(HONEST)
    (tmp_path / "eve.py").symlink_to(tmp_path / "nothing.py")
    reports = grade_all([honest, tmp_path / "eve.py"], jobs=1, seed=3, labs=[4])
    assert reports[0].score == reports[0].max_score
    assert reports[1].score == 0 and "link to nothing" in reports[1].notes[0]


def test_a_kit_failure_is_the_kits_with_its_traceback(tmp_path, monkeypatch):
    """A bug of the kit's own code is reported as the kit's (status "error", the traceback
    kept, exit status 3), never as the student's mistake; the next tasks are graded."""
    from mlpr.grading import runner
    from mlpr.grading.course import lab04

    honest = tmp_path / "honest.py"
    honest.write_text(HONEST)

    def broken(run):
        raise ZeroDivisionError("a bug of the kit")

    monkeypatch.setattr(lab04, "FUNCTIONS", tuple(
        dataclasses.replace(r, cases=broken) if r.name == "logpdf_GAU_ND" else r
        for r in lab04.FUNCTIONS))
    rep = runner.grade(honest, labs=[4], seed=None)
    by = {r.name: r for r in rep.results}
    assert by["logpdf_GAU_ND"].status == "error"
    assert "the kit failed on this task, not the submission" in by["logpdf_GAU_ND"].message
    assert "ZeroDivisionError: a bug of the kit" in by["logpdf_GAU_ND"].trace
    assert by["compute_ll"].status == "passed"
    assert "⚠ lab 4 · logpdf_GAU_ND" in formats.format_text([rep])


def test_the_courses_printing_under_numpy_2_4_is_explained(tmp_path):
    """The course's SVM prints its primal loss, a 1-element array, with '%e': numpy >= 2.4
    refuses it, and the hint says so (with numpy < 2.4, the autograder's submissions'
    environment, the same file passes: test_autograder.py)."""
    import numpy as np

    path = REPO / "tests" / "grading_submissions" / "course_svm_printing.py"
    (rep,) = grade_all([path], jobs=1, seed=7)
    by = {r.name: r for r in rep.results}
    if tuple(int(x) for x in np.__version__.split(".")[:2]) >= (2, 4):
        r = by["train_dual_SVM_linear"]
        assert r.status == "failed" and "numpy >= 2.4 no longer converts" in r.hint, r
    else:
        assert by["train_dual_SVM_linear"].status == "passed"


@pytest.mark.slow
def test_real_repository_layouts(tmp_path):
    """The layouts students' repositories really have: lab folders that are packages imported
    by their siblings (`import lab_05.gaussian`), imports through the repository's own name
    (`from laboratori.lab_10.gmm import ...`), a subfolder importing from its package's top, lab9
    beside lab11 (numeric order: lab11's copy is graded), a name assigned only under
    `if __name__ == "__main__":`, scikit-learn's joblib (its sandbox warning is not the student's
    printing), and a function returning a tuple whose element is the answer."""
    repo = tmp_path / "laboratori"
    wrong = "import numpy as np\n\ndef compute_mu_C(D):\n    return D.mean(1), np.cov(D)\n"
    files = {
        "__init__.py": "",
        "lab_05/__init__.py": "",
        "lab_05/gaussian.py": HONEST,
        "lab_07/__init__.py": "",
        "lab_07/bayes.py": ("import lab_05.gaussian as g\n\n"
                            "def compute_ll(X, mu, C):\n    return g.compute_ll(X, mu, C)\n"),
        "lab_10/__init__.py": "",
        "lab_10/gmm.py": ("import numpy as np\nfrom laboratori.lab_05.gaussian import "
                          "logpdf_GAU_ND\n\ndef logpdf_GAU_ND_fast(X, mu, C):\n"
                          "    return logpdf_GAU_ND(X, mu, C)\n"),
        "lab_10/sub/__init__.py": "",
        "lab_10/sub/deep.py": ("from lab_10.gmm import logpdf_GAU_ND_fast\n\n"
                               "def logpdf_GAU_ND_slow(X, mu, C):\n"
                               "    return logpdf_GAU_ND_fast(X, mu, C)\n"),
        "lab9/old.py": wrong,
        "lab11/new.py": ("from lab_05.gaussian import compute_mu_C as _c\n\n"
                         "def compute_mu_C(D):\n    return _c(D)\n"),
        "lab12/folds.py": ("import numpy as np\n\n"
                           "def extract_train_val_folds_from_ary(X, idx):\n"
                           "    return np.hstack([X[j::KFOLD] for j in range(KFOLD) if j != idx]),"
                           " X[idx::KFOLD]\n\n"
                           "if __name__ == '__main__':\n    KFOLD = 5\n"),
        "lab12/sk.py": ("import numpy as np\n\ndef uniform_cost_matrix(nClasses):\n"
                        "    from joblib import Parallel, delayed\n"
                        "    Parallel(n_jobs=2)(delayed(abs)(i) for i in range(2))\n"
                        "    M = np.ones((nClasses, nClasses)) - np.eye(nClasses)\n"
                        "    return M, 'done'\n"),
    }
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    (rep,) = grade_all([repo], jobs=1, seed=5, fail_on_print=True)
    by = {r.name: r for r in rep.results}
    for name in ("compute_ll", "logpdf_GAU_ND_fast", "logpdf_GAU_ND_slow", "compute_mu_C"):
        assert by[name].status == "passed", formats.format_text([rep])
    assert by["compute_mu_C"].file == "lab11/new.py"
    folds = by["extract_train_val_folds_from_ary"]
    assert folds.status == "failed" and "KFOLD is assigned only under if __name__ ==" in \
        folds.hint and "lab12/folds.py" in folds.hint, formats.format_text([rep])
    cost = by["uniform_cost_matrix"]
    assert cost.status == "failed" and not cost.printed, formats.format_text([rep])
    assert "returns a tuple of 2; its element 0 is the right answer" in cost.hint


def test_solution_folders_graded_on_request_and_an_empty_grade_explained(tmp_path):
    repo = tmp_path / "repo"
    (repo / "Lab4" / "solution").mkdir(parents=True)
    (repo / "Lab4" / "solution" / "sol.py").write_text(  # the course's, by its header
        "# Copyright (C) 2024 by Sandro Cumani\n" + HONEST)
    (repo / "Lab4" / "mine.py").write_text("def my_density(X, mu, C):\n    return X\n")
    (rep,) = grade_all([repo], jobs=1, seed=5, labs=None)
    assert rep.max_score == 0 and any("no task graded (0 / 0 points)" in n and "my_density" in n
                                      for n in rep.notes), rep.notes
    (rep,) = grade_all([repo], jobs=1, seed=5, labs=[4], solution_folders=True)
    assert rep.score == rep.max_score == len(LAB4), formats.format_text([rep])


def test_answers_in_the_courses_other_forms(tmp_path):
    """[w, b] as one vector, the logistic regression's own internal form, is accepted; the GMM's
    per-component joint log-densities (M x N) are named as the missing logsumexp."""
    sub = tmp_path / "forms.py"
    sub.write_text(HONEST + textwrap.dedent('''

        _train = trainLogRegBinary

        def trainLogRegBinary(DTR, LTR, l):
            w, b = _train(DTR, LTR, l)
            return np.append(w, b)

        def logpdf_GMM(X, gmm):
            return np.vstack([logpdf_GAU_ND(X, mu, C) + np.log(w) for w, mu, C in gmm])
        '''))
    (rep,) = grade_all([sub], jobs=1, seed=5, labs=[8, 10])
    by = {r.name: r for r in rep.results}
    assert by["trainLogRegBinary"].status == "passed", formats.format_text([rep])
    assert "missing" not in by["logpdf_GMM"].message
    assert "their logsumexp over the components" in by["logpdf_GMM"].hint, by["logpdf_GMM"]
