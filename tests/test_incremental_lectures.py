"""Incremental ``make lectures``: after a run, an edit reruns exactly the lectures it can affect.

The tests work on a copy of the checkout's sources (lectures/, mlpr/, datasets/) in a temporary
folder, with a figures folder where every lecture "ran ok" in full mode (a results.json and the
record of its inputs, `_inputs.record`); they edit one file of the copy and ask which lectures
are out of date (`_inputs.why_rerun`), and the runner's ``--dry-run`` what it would run. Each
expected selection is derived from the scripts' text (which lectures import the edited module,
call the edited loader), not from `lectures/_inputs.py`'s analysis. The last test checks that
analysis against a run: every mlpr definition that a lecture's run executes is among its inputs.
"""

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import _inputs
import pytest

REPO = Path(__file__).resolve().parents[1]
LECTURES = _inputs.lectures(REPO)
GMM_LECTURE = "09_gaussian_mixture_models"


def _script(root: Path, name: str) -> str:
    return (root / "lectures" / name / "run.py").read_text()


@pytest.fixture
def checkout(tmp_path):
    """A copy of the sources a lecture reads (not the decoded MNIST cache), and a figures folder
    where every lecture's full run ended ok on those sources."""
    root = tmp_path / "checkout"
    skip = shutil.ignore_patterns("__pycache__", ".cache", "figures")
    shutil.copytree(REPO / "mlpr", root / "mlpr", ignore=skip)
    # the data: small files copied (a test edits them), MNIST's images linked (read only)
    for path in (REPO / "datasets").rglob("*"):
        if path.is_file() and ".cache" not in path.parts:
            dest = root / "datasets" / path.relative_to(REPO / "datasets")
            dest.parent.mkdir(parents=True, exist_ok=True)
            if path.stat().st_size > 100_000:
                dest.symlink_to(path)
            else:
                shutil.copy(path, dest)
    (root / "lectures").mkdir()
    for f in ("_lecture.py", "_inputs.py", "_run_all.py", "_readme.py", "_durations.json"):
        shutil.copy(REPO / "lectures" / f, root / "lectures" / f)
    for name in LECTURES:
        (root / "lectures" / name).mkdir()
        for f in ("run.py", "references.json"):
            if (REPO / "lectures" / name / f).exists():
                shutil.copy(REPO / "lectures" / name / f, root / "lectures" / name / f)
    figures = tmp_path / "figures"
    sources = _inputs.Sources(root)
    for k, name in enumerate(LECTURES):
        (figures / name).mkdir(parents=True)
        (figures / name / "results.json").write_text(json.dumps(
            {"lecture": name, "mode": "full", "failures": [], "seconds": 100.0 + k,
             "date": "2026-01-02T03:04:05+00:00"}))
        _inputs.record(figures / name, name, [], sources.inputs(name))
    return root, figures


def selected(root: Path, figures: Path, args=()) -> set[str]:
    """The lectures a run with ``args`` would rerun, on the sources of ``root`` now."""
    sources = _inputs.Sources(root)
    return {n for n in LECTURES
            if _inputs.why_rerun(figures / n, list(args), sources.inputs(n)) is not None}


def importing(root: Path, module: str) -> set[str]:
    """The lectures whose script imports ``module`` by name (read as text)."""
    pattern = re.compile(rf"^\s*(from {re.escape(module)} import|import {re.escape(module)}\b)",
                         flags=re.M)
    return {n for n in LECTURES if pattern.search(_script(root, n))}


def edit_function_body(path: Path, name: str, line: str = "pass") -> None:
    """Insert ``line`` as the first statement after the docstring of function ``name``."""
    text = path.read_text()
    tree = ast.parse(text)
    (fn,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
    first = fn.body[1] if ast.get_docstring(fn) is not None else fn.body[0]
    lines = text.splitlines(keepends=True)
    lines.insert(first.lineno - 1, " " * first.col_offset + line + "\n")
    path.write_text("".join(lines))


def test_nothing_reruns_when_nothing_changed(checkout):
    root, figures = checkout
    assert selected(root, figures) == set()


def test_editing_a_gmm_function_reruns_only_the_lectures_that_import_gmm(checkout):
    root, figures = checkout
    users = importing(root, "mlpr.gmm")  # the expectation, from the scripts' text
    assert GMM_LECTURE in users and len(users) < len(LECTURES)
    # a function that lecture imports from mlpr.gmm, edited in its body
    tree = ast.parse(_script(root, GMM_LECTURE))
    (names,) = [[a.name for a in n.names] for n in ast.walk(tree)
                if isinstance(n, ast.ImportFrom) and n.module == "mlpr.gmm"]
    assert "train_gmm_em" in names
    edit_function_body(root / "mlpr" / "gmm.py", "train_gmm_em", "_unused = 0")
    rerun = selected(root, figures)
    assert GMM_LECTURE in rerun and rerun <= users, (rerun, users)
    why = _inputs.why_rerun(figures / GMM_LECTURE, [],
                            _inputs.Sources(root).inputs(GMM_LECTURE))
    assert why == "changed: mlpr/gmm.py::train_gmm_em"


def test_a_docstring_or_comment_edit_reruns_nothing(checkout):
    root, figures = checkout
    gmm = root / "mlpr" / "gmm.py"
    text = gmm.read_text()
    tree = ast.parse(text)
    (fn,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "train_gmm_em"]
    doc = ast.get_docstring(fn, clean=False)
    first = doc.splitlines()[0]
    gmm.write_text(text.replace(first, first + " (reworded)", 1))
    edit_function_body(gmm, "train_gmm_em", "# a comment, not code")
    assert gmm.read_text() != text
    assert selected(root, figures) == set()


def test_module_level_code_of_gmm_reruns_every_lecture_that_loads_it(checkout):
    """Code outside gmm.py's definitions runs whenever mlpr.gmm is imported, and every lecture
    imports it: through mlpr.plots, which _lecture.py imports and which imports mlpr.gmm."""
    root, figures = checkout
    assert re.search(r"^from \.gmm import", (root / "mlpr" / "plots.py").read_text(), flags=re.M)
    assert "from mlpr.plots import" in (root / "lectures" / "_lecture.py").read_text()
    gmm = root / "mlpr" / "gmm.py"
    gmm.write_text(gmm.read_text() + "\n_LOADED = print\n_LOADED('gmm imported')\n")
    assert selected(root, figures) == set(LECTURES)


def test_a_references_json_edit_reruns_only_its_lecture(checkout):
    root, figures = checkout
    name = "05_generative_models"
    path = root / "lectures" / name / "references.json"
    refs = json.loads(path.read_text())
    key = next(iter(refs))
    refs[key]["tol"] = (refs[key].get("tol") or 0) + 1e-3
    path.write_text(json.dumps(refs, indent=1))
    assert selected(root, figures) == {name}


def test_a_script_edit_reruns_only_its_lecture_and_the_helper_reruns_all(checkout):
    root, figures = checkout
    script = root / "lectures" / "03_dimensionality_reduction" / "run.py"
    script.write_text(script.read_text() + "\n# a comment is an edit of the script\n")
    assert selected(root, figures) == {"03_dimensionality_reduction"}
    helper = root / "lectures" / "_lecture.py"
    helper.write_text(helper.read_text() + "\n")
    assert selected(root, figures) == set(LECTURES)


@pytest.mark.parametrize("data, loader", [("iris.csv", "load_iris"),
                                          ("mnist/t10k-labels-idx1-ubyte.gz", "load_mnist")])
def test_a_data_file_edit_reruns_the_lectures_that_load_it(checkout, data, loader):
    root, figures = checkout
    users = {n for n in LECTURES if re.search(rf"\b{loader}\w*\(", _script(root, n))}
    assert users and users != set(LECTURES)
    path = root / "datasets" / data
    assert not path.is_symlink()  # a copy: the checkout's file stays as it is
    path.write_bytes(path.read_bytes() + b"\n")
    assert selected(root, figures) == users


def test_another_mode_a_failure_or_a_missing_record_reruns(checkout):
    root, figures = checkout
    assert selected(root, figures, ["--quick"]) == set(LECTURES)  # the results are full mode
    assert selected(root, figures, ["--format", "pdf"]) == set(LECTURES)  # other arguments
    failed = figures / "02_iris_exploration" / "results.json"
    failed.write_text(json.dumps(dict(json.loads(failed.read_text()), failures=["a check"])))
    (figures / "04_density_estimation" / _inputs.RECORD).unlink()
    shutil.rmtree(figures / "10_linear_methods")
    assert selected(root, figures) == {"02_iris_exploration", "04_density_estimation",
                                       "10_linear_methods"}


def _dry_run(root: Path, figures: Path, *args) -> str:
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", MPLBACKEND="Agg",
               PYTHONPATH=os.pathsep.join([str(root / "lectures"), str(REPO)]))
    proc = subprocess.run([sys.executable, str(root / "lectures" / "_run_all.py"), "--jobs", "2",
                           "--figures", str(figures), "--dry-run", *args], capture_output=True,
                          text=True, env=env, timeout=300, cwd=root)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


@pytest.mark.slow  # the runner, twice, in a fresh interpreter that reads all of mlpr
def test_the_runner_dry_run_lists_what_would_run_and_force_runs_all(checkout):
    root, figures = checkout
    edit_function_body(root / "mlpr" / "gmm.py", "train_gmm_em", "_unused = 0")
    out = _dry_run(root, figures)
    seconds = 100.0 + LECTURES.index(GMM_LECTURE)  # its previous run, from the fixture
    assert f"1 of {len(LECTURES)} lectures would run in full mode" in out, out
    assert f"to run: {GMM_LECTURE} (changed: mlpr/gmm.py::train_gmm_em)" in out
    assert f"  {GMM_LECTURE}: {seconds:.0f} s (its previous run)" in out
    assert out.count("up to date: ") == len(LECTURES) - 1
    assert "up to date: 02_iris_exploration (last ran 2026-01-02 03:04)" in out
    out = _dry_run(root, figures, "--force")
    assert f"{len(LECTURES)} of {len(LECTURES)} lectures would run" in out
    # nothing ran: the records are those of the fixture's run
    assert all((figures / n / _inputs.RECORD).exists() for n in LECTURES)
    assert not (figures / "logs").exists()


def test_make_passes_force_and_dry():
    proc = subprocess.run(["make", "-n", "lectures", "FORCE=1", "DRY=1"], capture_output=True,
                          text=True, cwd=REPO)
    line = " ".join(proc.stdout.replace("\\\n", " ").split())
    assert "lectures/_run_all.py --force --dry-run --" in line, proc.stdout
    proc = subprocess.run(["make", "-n", "lectures"], capture_output=True, text=True, cwd=REPO)
    assert "--force" not in proc.stdout and "--dry-run" not in proc.stdout


#: Runs a lecture and writes every Python function it entered (file, first line, name) to
#: OUT/calls.json. A global trace function (sys.settrace) is called once per frame entered and,
#: returning None, traces no line of it; unlike a profile function (sys.setprofile) it is not
#: called for every call of a C function, so the traced run is not several times slower. Both
#: see the same frames: each call of a Python function, each resumption of a generator.
TRACE = r'''
import json, runpy, sys
codes = set()
def trace(frame, event, arg):
    codes.add(frame.f_code)
sys.argv = sys.argv[1:]
sys.settrace(trace)
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
except SystemExit:
    pass
finally:
    sys.settrace(None)
    calls = {(c.co_filename, c.co_firstlineno, c.co_name) for c in codes}
    json.dump(sorted(calls), open(sys.argv[-1] + "/calls.json", "w"))
'''


def _top_level_names(path: Path) -> list[tuple[int, int, str | None, bool]]:
    """(first line, last line, name, is a class) of each top-level statement of a module; name
    None for the statements outside definitions."""
    out = []
    for stmt in ast.parse(path.read_text()).body:
        names = _inputs._defined_names(stmt)
        first = min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", [])])
        out.append((first, stmt.end_lineno, names[0] if names else None,
                    isinstance(stmt, ast.ClassDef)))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("name, called", [
    ("02_iris_exploration", "mlpr/gaussian.py::compute_mu_C"),
    ("10_linear_methods", "mlpr/multiclass.py::train_one_vs_one")])
def test_every_mlpr_definition_a_run_executes_is_among_its_inputs(tmp_path, name, called):
    """The static analysis against a run: a lecture's quick run, traced (every Python function
    call), executes only mlpr definitions that its inputs list, and its inputs list the module
    code of every mlpr module it executed. Lecture 10 reaches most chapters (projections,
    Gaussian and discrete classifiers, logistic regression, the perceptron, one-vs-rest and
    one-vs-one, k-NN, k-fold scores)."""
    out = tmp_path / "out"
    tracer = tmp_path / "trace.py"
    tracer.write_text(TRACE)
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", MPLBACKEND="Agg")
    proc = subprocess.run([sys.executable, str(tracer), str(REPO / "lectures" / name / "run.py"),
                           "--quick", "--out", str(out)], capture_output=True, text=True,
                          env=env, timeout=600, cwd=REPO)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert json.loads((out / "results.json").read_text())["lecture"] == name
    inputs = _inputs.Sources(REPO).inputs(name)
    mlpr = (REPO / "mlpr").resolve()
    executed = set()
    tables = {}
    for filename, line, code in json.loads((out / "calls.json").read_text()):
        path = Path(filename).resolve()
        if mlpr not in path.parents:
            continue
        rel = path.relative_to(REPO).as_posix()
        tables.setdefault(rel, _top_level_names(path))
        if code == "<module>":  # the module's own code, on import
            executed.add(rel)
            continue
        (top,) = [(n, cls and code == n) for a, b, n, cls in tables[rel] if a <= line <= b]
        name, class_body = top
        # a class's body runs on import, as the module's code does
        executed.add(f"{rel}::{name}" if name and not class_body else rel)
    assert called in executed and len([e for e in executed if "::" in e]) > 20
    assert executed - set(inputs) == set()
