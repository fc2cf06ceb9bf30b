"""The Gradescope autograder and mlpr's wheel: the zip has what Gradescope's specification asks
for and the same bytes for the same inputs; the wheel carries the datasets and, installed in a
fresh virtual environment, loads iris and MNIST from any folder; and the zip runs as Gradescope
runs it (setup.sh into fresh environments, then run_autograder on a course-style submission, on
one that removes the harness's import hook and tries every way to mlpr under the isolation
``user``, on one that cannot be imported, on one that hangs, and with the kit itself failing),
each time leaving a valid results.json. Outside the autograder: what a submission's interpreter
reaches of the reference (`sandbox.check_reach`), and the same cheat earning its points where
only the import hook stood in its way.

The tests that build a wheel or install one need the package index (pip fetches setuptools to
build, numpy, scipy, matplotlib and scikit-learn to install; its cache makes a second run fast),
or a wheelhouse named by PIP_FIND_LINKS with PIP_NO_INDEX=1; without either they skip with the
reason. Each is one test, which pytest-xdist runs on a worker of its own, from the build to the
last check (each step's assertion says which step failed).
"""

import hashlib
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import pytest

from mlpr import datasets
from mlpr.grading import autograder, course, formats, sandbox
from mlpr.grading.__main__ import grade_all
from mlpr.grading.__main__ import main as grading_main
from mlpr.grading.framework import TaskResult
from mlpr.grading.runner import Report

REPO = Path(__file__).resolve().parents[1]
COURSE = REPO / "tests" / "grading_submissions" / "course_style.py"
LABS = [5, 7]
POINTS = {"Gau_MVG_ML_estimates": 3, "compute_minDCF_binary_fast": 2.5}
TIMEOUT = 3.0  # seconds per task: the hanging submission's task fails after it
VISIBILITY = "after_due_date"
N_TASKS = len(course.tasks(LABS))
MAX_SCORE = N_TASKS - len(POINTS) + sum(POINTS.values())
TEST_FIELDS = {"name": str, "score": (int, float), "max_score": (int, float), "status": str,
               "output": str, "visibility": str}
#: The isolation without namespaces, as on Gradescope's usual Docker (None where it is not
#: available: not root, or no setpriv)
USER = "user" if sandbox.available("user") is None else None

#: A submission with no lab code: it removes the harness's import hook and takes the answers of
#: three tasks from mlpr, every way it can (importing it; the grader's site-packages on its path;
#: zipimport of the autograder's wheel; mlpr's files read from the grader's environment or the
#: wheel, imported from a copy); else it raises, naming every way it tried. ROOT: the autograder's.
CHEAT = """
import importlib, os, sys, tempfile, zipfile

import numpy as np

sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "_NoReference"]
ROOT = @ROOT@
SITE = f"{ROOT}/mlpr-venv/lib/python{sys.version_info[0]}.{sys.version_info[1]}/site-packages"
WHEEL = f"{ROOT}/source/mlpr-0.1.0-py3-none-any.whl"


def _import():
    for name in [m for m in sys.modules if m == "mlpr" or m.startswith("mlpr.")]:
        del sys.modules[name]
    importlib.invalidate_caches()
    return importlib.import_module("mlpr.gaussian"), importlib.import_module("mlpr.evaluation")


def _on_path(entry):
    sys.path.insert(0, entry)
    try:
        return _import()
    finally:
        sys.path.remove(entry)


def _copied(tried):
    try:
        files = {n: open(f"{SITE}/mlpr/{n}", "rb").read() for n in os.listdir(f"{SITE}/mlpr")
                 if n.endswith(".py")}
    except OSError as exc:
        tried.append(f"reading {SITE}/mlpr: {type(exc).__name__}")
        with zipfile.ZipFile(WHEEL) as w:
            files = {n[5:]: w.read(n) for n in w.namelist()
                     if n.startswith("mlpr/") and n.count("/") == 1}
    copy = tempfile.mkdtemp()
    os.mkdir(f"{copy}/mlpr")
    for name, data in files.items():
        with open(f"{copy}/mlpr/{name}", "wb") as fh:
            fh.write(data)
    return _on_path(copy)


def _reference():
    tried = []
    for what, way in [("import mlpr", _import),
                      ("the grader's site-packages", lambda: _on_path(SITE)),
                      ("zipimport of the wheel", lambda: _on_path(WHEEL)),
                      ("reading the wheel", lambda: _copied(tried))]:
        try:
            return way()
        except Exception as exc:
            tried.append(f"{what}: {type(exc).__name__}")
    return f"no way in from {sys.executable}: " + "; ".join(tried)


REFERENCE = _reference()  # on import, where the kit does not watch which files are opened


def _mlpr():
    if isinstance(REFERENCE, str):
        raise RuntimeError(REFERENCE)
    return REFERENCE


def Gau_MVG_ML_estimates(D, L):
    return {c: _mlpr()[0].compute_mu_C(D[:, L == c]) for c in np.unique(L)}


def compute_confusion_matrix(predictedLabels, classLabels):
    return _mlpr()[1].confusion_matrix(predictedLabels, classLabels)


def compute_minDCF_binary_fast(llr, classLabels, prior, Cfn, Cfp, returnThreshold=False):
    return _mlpr()[1].min_dcf(llr, classLabels, prior, Cfn, Cfp,
                              return_threshold=returnThreshold)
"""
CHEATED = ["lab 5 · Gau_MVG_ML_estimates", "lab 7 · compute_confusion_matrix",
           "lab 7 · compute_minDCF_binary_fast"]

# ------------------------------------------------------------------------------------------------
# shared: the package index, the zip, a Gradescope root with setup.sh run once


def _clean_env(**extra) -> dict:
    """The environment of a process that must not see this checkout: no PYTHONPATH, no active
    virtual environment, no MLPR_DATA_DIR."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "MLPR_DATA_DIR", "PYTHONHOME")}
    env.update(OPENBLAS_NUM_THREADS="1", **extra)
    return env


@pytest.fixture(scope="module")
def package_index(tmp_path_factory):
    """Skip unless pip can fetch what a build needs (setuptools), from the index or a
    wheelhouse."""
    dest = tmp_path_factory.mktemp("index-probe")
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check",
           "-q", "-d", str(dest), "setuptools>=77"]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=180, env=_clean_env())
    except subprocess.TimeoutExpired:
        pytest.skip("no package index: pip download setuptools timed out; set PIP_FIND_LINKS "
                    "to a wheelhouse (with PIP_NO_INDEX=1)")
    if r.returncode != 0:
        why = (r.stderr.strip().splitlines() or ["?"])[-1]
        pytest.skip(f"no package index: pip download setuptools failed ({why}); set "
                    f"PIP_FIND_LINKS to a wheelhouse (with PIP_NO_INDEX=1)")


def _snapshot(dest: Path) -> Path:
    """The repository's project files, copied once: others may edit the working tree while a
    test builds from it twice."""
    autograder._copy_project(REPO, dest)
    return dest


def _unzip(zip_path: Path, dest: Path) -> None:
    """Unpack as unzip does: with the permissions recorded in the zip."""
    with zipfile.ZipFile(zip_path) as z:
        for info in z.infolist():
            path = Path(z.extract(info, dest))
            path.chmod((info.external_attr >> 16) & 0o777)


@pytest.fixture
def gradescope_root():
    """A folder laid out like /autograder, removed afterwards. Not under /tmp: the kit's
    bubblewrap sandbox gives a submission a private /tmp, which would hide an environment
    installed there."""
    parent = "/var/tmp" if os.access("/var/tmp", os.W_OK) else None
    root = Path(tempfile.mkdtemp(prefix="mlpr-autograder-test-", dir=parent))
    root.chmod(0o755)  # the sandbox's own user reads the environment
    try:
        yield root
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _run_autograder(root: Path, files: dict, isolation: str | None = None, student: int = 1
                    ) -> tuple[dict, subprocess.CompletedProcess, float]:
    """Put ``files`` {name: text} in ROOT/submission (a new one) and Gradescope's
    submission_metadata.json of the user ``student``, run ROOT/run_autograder as Gradescope does
    (from the root), under ``isolation`` if given; the results.json, the process, the
    seconds."""
    (root / autograder.METADATA_NAME).write_text(json.dumps(
        {"id": 1000 + student, "assignment": {"id": 77, "title": "labs"},
         "users": [{"id": student, "email": f"s{student}@example.edu", "name": "A Student"}]}))
    shutil.rmtree(root / "submission", ignore_errors=True)
    shutil.rmtree(root / "results", ignore_errors=True)
    (root / "submission").mkdir()
    for name, text in files.items():
        (root / "submission" / name).write_text(text)
    t0 = time.perf_counter()
    r = subprocess.run([str(root / "run_autograder")], cwd=root, capture_output=True, text=True,
                       timeout=600, env=_clean_env(AUTOGRADER_ROOT=str(root), **(
                           {autograder.ISOLATION_VARIABLE: isolation} if isolation else {})))
    seconds = time.perf_counter() - t0
    results = root / "results" / "results.json"
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert results.is_file(), r.stdout[-3000:] + r.stderr[-3000:]
    return json.loads(results.read_text()), r, seconds


def _check_results(doc: dict) -> None:
    """results.json as Gradescope's specification describes it."""
    assert isinstance(doc["score"], (int, float))
    assert isinstance(doc["output"], str)
    assert doc["visibility"] in formats.VISIBILITIES
    assert doc["stdout_visibility"] in formats.VISIBILITIES
    assert isinstance(doc["execution_time"], (int, float)) and doc["execution_time"] >= 0
    assert isinstance(doc["tests"], list)
    for t in doc["tests"]:
        for field, kind in TEST_FIELDS.items():
            assert isinstance(t[field], kind), (field, t)
        assert t["status"] in ("passed", "failed")
        assert 0 <= t["score"] <= t["max_score"]
        assert t["visibility"] == VISIBILITY
    assert doc["score"] == pytest.approx(sum(t["score"] for t in doc["tests"]))


def _by_name(doc: dict) -> dict:
    return {t["name"]: t for t in doc["tests"]}


# ------------------------------------------------------------------------------------------------
# the wheel, installed outside the repository (by the autograder's setup.sh, in the test below)


def _check_the_installed_wheel(wheel: Path, venv: Path, tmp_path: Path) -> None:
    """The wheel carries the datasets (checksums, READMEs, fixed timestamps); installed in a
    fresh environment, the loaders work from a folder outside the repository, the data come from
    the package, MLPR_DATA_DIR still overrides, and a modified file is reported with the installed
    package's remedy."""
    with zipfile.ZipFile(wheel) as w:
        names = w.namelist()
        for key, sha in datasets.CHECKSUMS.items():
            assert hashlib.sha256(w.read(f"mlpr/datasets_data/{key}")).hexdigest() == sha
        for readme in ("README.md", "mnist/README.md"):  # source and license of each file
            assert f"mlpr/datasets_data/{readme}" in names
        assert names[-1].endswith(".dist-info/RECORD")
        assert not [n for n in names if "__pycache__" in n or "/.cache/" in n]
        assert {i.date_time for i in w.infolist()} == {(1980, 1, 1, 0, 0, 0)}
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = ("import json; from mlpr import datasets as d; D, L = d.load_mnist(); "
            "T, _ = d.load_mnist('test'); I, _ = d.load_iris(); "
            "print(json.dumps({'dir': str(d.data_dir()), 'mnist': D.shape, 'test': T.shape, "
            "'iris': I.shape, 'file': d.__file__}))")
    env = _clean_env(XDG_CACHE_HOME=str(tmp_path / "cache"))
    py = str(venv / "bin" / "python")
    r = subprocess.run([py, "-c", code], cwd=elsewhere, capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got["mnist"] == [784, 60000] and got["test"] == [784, 10000]
    assert got["iris"] == [4, 150]
    assert got["dir"].startswith(str(venv)) and got["dir"].endswith("mlpr/datasets_data")
    assert got["file"].startswith(str(venv))  # this mlpr, not the checkout's
    # the decoded MNIST went to the user's cache folder, not into the installed package
    assert sorted(p.name.split(".")[0] for p in (tmp_path / "cache/mlpr/mnist").iterdir()) == [
        "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte", "train-images-idx3-ubyte",
        "train-labels-idx1-ubyte"]
    assert not (Path(got["dir"]) / "mnist" / ".cache").exists()
    # MLPR_DATA_DIR still overrides
    r = subprocess.run([py, "-c", "from mlpr import datasets as d; d.load_iris(); "
                        "print(d.data_dir())"], cwd=elsewhere, capture_output=True, text=True,
                       env=dict(env, MLPR_DATA_DIR=str(REPO / "datasets")))
    assert r.returncode == 0 and r.stdout.strip() == str(REPO / "datasets"), r.stderr
    # a modified file of the installed package is caught by its checksum
    iris = Path(got["dir"]) / "iris.csv"
    iris.write_bytes(iris.read_bytes().replace(b"5.1,3.5", b"5.1,3.6", 1))
    r = subprocess.run([py, "-c", "from mlpr.datasets import load_iris; load_iris()"],
                       cwd=elsewhere, capture_output=True, text=True, env=env)
    assert r.returncode != 0
    assert "checksum mismatch" in r.stderr and "reinstall" in r.stderr


# ------------------------------------------------------------------------------------------------
# the autograder, built and run as Gradescope runs it (one test, for the same reason)


@pytest.mark.slow
def test_the_autograder_runs_as_gradescope_runs_it(package_index, tmp_path, gradescope_root):
    """Build the zip twice (the same bytes), unpack it into a root laid out like /autograder, run
    setup.sh (the submissions' environment without mlpr, the grader's and the zip's folder root
    only), then run_autograder under the isolation ``user`` (Gradescope's usual Docker has no
    user namespaces) on a course-style submission (every point) and on one that removes the
    import hook and tries every way to mlpr (0 for each task it takes from mlpr), then under the
    strongest isolation on one that cannot be imported (0, with the reason), on one that hangs
    (that task fails after the time limit), with a broken configuration and with no Python (a
    results.json all the same); last, the wheel that setup.sh installed loads the data outside
    the repository (`_check_the_installed_wheel`)."""
    root = gradescope_root
    snapshot = _snapshot(tmp_path / "source")
    points = tmp_path / "points.json"
    points.write_text(json.dumps(POINTS))
    args = ["autograder", *(a for n in LABS for a in ("--lab", str(n))), "--points",
            str(points), "--visibility", VISIBILITY, "--timeout", str(TIMEOUT),
            "--source", str(snapshot)]
    t0 = time.perf_counter()
    assert grading_main([*args, "--out", str(tmp_path / "first.zip")]) == 0
    seconds = {"build": time.perf_counter() - t0}
    assert grading_main([*args, "--out", str(tmp_path / "second.zip")]) == 0
    zip_path = tmp_path / "first.zip"
    assert zip_path.read_bytes() == (tmp_path / "second.zip").read_bytes()

    # the zip: the specification's files at its root, the choices, one timestamp, permissions
    with zipfile.ZipFile(zip_path) as z:
        infos = {i.filename: i for i in z.infolist()}
        wheels = [n for n in infos if n.startswith("mlpr-") and n.endswith(".whl")]
        assert len(wheels) == 1 and sorted(infos) == sorted(
            ["setup.sh", "run_autograder", autograder.CONFIG_NAME, *wheels])
        for name, info in infos.items():
            assert info.date_time == (1980, 1, 1, 0, 0, 0)
            mode = (info.external_attr >> 16) & 0o777
            assert mode == (0o755 if name in ("setup.sh", "run_autograder") else 0o644)
        for script in ("setup.sh", "run_autograder"):
            assert z.read(script).startswith(b"#!/usr/bin/env bash\n")
        assert json.loads(z.read(autograder.CONFIG_NAME)) == {
            "labs": LABS, "points": {k: float(v) for k, v in POINTS.items()},
            "visibility": VISIBILITY, "timeout": TIMEOUT}
        contents = {n: i.file_size for n, i in infos.items()}

    # setup.sh, once, from source/ (PIP_COMPILE=0: pip does not byte-compile the ~400 MB it
    # installs, 20 of the 35 s; Gradescope's setup.sh compiles, once, so that every run starts
    # faster); run_autograder copied to the root, as Gradescope does
    _unzip(zip_path, root / "source")
    t0 = time.perf_counter()
    r = subprocess.run(["bash", str(root / "source" / "setup.sh")], cwd=root / "source",
                       capture_output=True, text=True, timeout=900,
                       env=_clean_env(AUTOGRADER_ROOT=str(root), MLPR_AUTOGRADER_APT="0",
                                      PIP_COMPILE="0"))
    seconds["setup.sh"] = time.perf_counter() - t0
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "mlpr installed" in r.stdout
    # the layout: the submissions' Python without mlpr and readable by anyone; the grader's
    # environment and the zip's folder (the wheel) root only; numpy & co. installed once
    python = root / autograder.SUBMISSION_VENV / "bin" / "python"
    modes = {d: stat.S_IMODE((root / d).stat().st_mode) for d in
             (autograder.SUBMISSION_VENV, autograder.GRADER_VENV, "source")}
    assert modes == {autograder.SUBMISSION_VENV: 0o755, autograder.GRADER_VENV: 0o700,
                     "source": 0o700}
    assert sandbox.check_reach(str(python)).imports == ""
    grader_site = list((root / autograder.GRADER_VENV).glob("lib/python*/site-packages"))
    names = sorted(p.name for p in grader_site[0].iterdir())
    assert "mlpr" in names and "mlpr-submission-venv.pth" in names
    assert not [n for n in names if n.startswith(("numpy", "scipy", "matplotlib", "sklearn"))]
    if USER:
        assert "under user (the fallback without bubblewrap): the reference is out of reach: " \
               "verified" in r.stdout, r.stdout
    shutil.copy2(root / "source" / "run_autograder", root / "run_autograder")

    # a course-style submission: every point, with the points of the configuration
    doc, r, seconds["course-style"] = _run_autograder(root, {"labs.py": COURSE.read_text()},
                                                      USER)
    _check_results(doc)
    tests = _by_name(doc)
    assert sorted(tests) == sorted(t.title for t in course.tasks(LABS).values())
    assert all(t["status"] == "passed" for t in tests.values()), [
        t for t in tests.values() if t["status"] != "passed"]
    assert tests["lab 5 · Gau_MVG_ML_estimates"]["max_score"] == 3
    assert tests["lab 7 · compute_minDCF_binary_fast"]["max_score"] == 2.5
    assert doc["score"] == pytest.approx(MAX_SCORE)
    assert "isolation:" in doc["output"] and "seed:" in doc["output"]
    assert f"; Python {python} (python 3." in doc["output"]
    assert "lab 5 · Gau_MVG_ML_estimates" in r.stdout  # the text report, for the instructors

    # no lab code, the import hook removed, every way to mlpr tried: 0 (the same submission
    # earns these points where only the hook stands in its way: test_the_reach_of_the_reference)
    if USER:
        assert "isolation: user: " in doc["output"]
        assert "the reference is out of reach: verified" in doc["output"]
        cheat = CHEAT.replace("@ROOT@", repr(str(root)))
        doc, r, seconds["cheat"] = _run_autograder(root, {"labs.py": cheat}, USER)
        _check_results(doc)
        assert doc["score"] == 0 and "the reference is out of reach: verified" in doc["output"]
        for name in CHEATED:
            out = _by_name(doc)[name]["output"]
            assert f"no way in from {python}: import mlpr: ModuleNotFoundError; the grader's " \
                   f"site-packages: ModuleNotFoundError; zipimport of the wheel: " \
                   f"ModuleNotFoundError; reading {grader_site[0]}/mlpr: PermissionError; " \
                   f"reading the wheel: PermissionError" in out, out

    # a regrade replays the cases: the seed derives from the image's secret and the student
    # (the same one as the course-style run's, the hang below; another student another seed)
    seed_of = {}
    seed_of["first"] = re.search(r"seed: (\d+)", doc["output"]).group(1)

    # a submission that cannot be imported: every test 0, with the reason
    doc, r, seconds["import error"] = _run_autograder(
        root, {"labs.py": "import numpy\nraise RuntimeError('oops')\n"}, student=2)
    _check_results(doc)
    assert doc["score"] == 0 and len(doc["tests"]) == N_TASKS
    assert all(t["status"] == "failed" and "RuntimeError: oops" in t["output"]
               for t in doc["tests"])
    assert "RuntimeError: oops" in doc["output"]
    seed_of["another student"] = re.search(r"seed: (\d+)", doc["output"]).group(1)
    assert seed_of["another student"] != seed_of["first"], seed_of

    # a function that hangs: its task fails after the configuration's time limit, the others pass
    hang = "\n\ndef Gau_MVG_ML_estimates(D, L):\n    while True:\n        pass\n"
    hanging, r, seconds["hangs"] = _run_autograder(root, {"labs.py": COURSE.read_text() + hang})
    _check_results(hanging)
    seed_of["regrade"] = re.search(r"seed: (\d+)", hanging["output"]).group(1)
    assert seed_of["regrade"] == seed_of["first"], seed_of
    assert "a seed of its own" not in r.stdout
    hung = _by_name(hanging)["lab 5 · Gau_MVG_ML_estimates"]
    assert hung["status"] == "failed" and hung["score"] == 0 and hung["max_score"] == 3
    assert f"hangs: no answer within the time limit of {TIMEOUT:g} s" in hung["output"]
    assert hanging["score"] == pytest.approx(MAX_SCORE - 3)
    assert seconds["hangs"] < 60
    assert f"; Python {python}" in hanging["output"]  # the same Python under the strongest

    # the course's SVM code, which prints its primal loss (a 1-element array) with '%e': a
    # correct trainer passes in the submissions' environment (numpy < 2.4; the grader's own
    # numpy may be newer, where that printing raises: test_grading_trust)
    code = "import numpy; print(numpy.__version__)"
    version = subprocess.run([str(root / "submission-venv" / "bin" / "python"), "-c", code],
                             capture_output=True, text=True).stdout.strip()
    assert tuple(int(x) for x in version.split(".")[:2]) < (2, 4), version
    r = subprocess.run([str(root / "mlpr-venv" / "bin" / "python"), "-I", "-m", "mlpr.grading",
                        "--python", str(root / "submission-venv" / "bin" / "python"),
                        "--seed", "7", "--", str(REPO / "tests" / "grading_submissions" /
                                                 "course_svm_printing.py")],
                       capture_output=True, text=True, env=_clean_env(), timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "✔ lab 9 · train_dual_SVM_linear" in r.stdout and "primal loss" in r.stdout

    # the kit fails (a configuration naming a lab without tasks): score 0 and the reason
    config = root / "source" / autograder.CONFIG_NAME
    good = config.read_text()
    config.write_text(json.dumps(dict(json.loads(good), labs=[99])))
    doc, r, _ = _run_autograder(root, {"labs.py": COURSE.read_text()})
    assert doc["score"] == 0 and doc["tests"] == [] and doc["visibility"] == "visible"
    assert "the grading kit failed (ValueError: the labs with tasks are" in doc["output"]
    assert "Traceback" in r.stdout  # for the instructors
    config.write_text(good)
    # Python cannot start (no environment): the shell script writes results.json itself
    (root / "mlpr-venv").rename(root / "moved-venv")
    doc, r, _ = _run_autograder(root, {"labs.py": COURSE.read_text()})
    assert doc["score"] == 0 and doc["tests"] == []
    assert "exited with status 127" in doc["output"]
    (root / "moved-venv").rename(root / "mlpr-venv")

    # the bundled wheel, installed by setup.sh in a fresh environment outside the repository
    _check_the_installed_wheel(root / "source" / wheels[0], root / "mlpr-venv", tmp_path)

    print(f"\nautograder zip {zip_path.stat().st_size:,d} bytes: {contents}\nseconds: "
          + ", ".join(f"{k} {v:.1f}" for k, v in seconds.items())
          + "\nresults.json of the hanging submission:\n" + json.dumps(hanging, indent=1))


# ------------------------------------------------------------------------------------------------
# what a submission's interpreter reaches of the reference, outside the autograder


@pytest.mark.skipif(USER is None, reason="the isolation user needs root and setpriv")
def test_the_reach_of_the_reference(tmp_path, monkeypatch):
    """`sandbox.check_reach` runs an interpreter as a sandbox's user: a venv whose path leads to
    a readable mlpr imports it and reads its files (not verified); one whose path leads to an
    mlpr in a root-only folder does neither (verified), though the grader's own user reads that
    folder. The grader's own Python, as the kit used it under ``user`` before the submissions
    had one of their own, is reported readable, and there the cheat of the autograder's test
    takes three tasks' points from mlpr: the import hook is not a barrier."""
    place = Path(tempfile.mkdtemp(prefix="mlpr-reach-", dir="/var/tmp"))  # the sandbox's user
    try:                                                                  # cannot enter tmp_path
        place.chmod(0o755)
        for name, mode in (("open", 0o755), ("closed", 0o700)):
            (place / name / "mlpr").mkdir(parents=True)
            (place / name / "mlpr" / "__init__.py").write_text("SECRET = 1\n")
            (place / name).chmod(mode)
        wheel = place / "closed" / "mlpr-0.1.0-py3-none-any.whl"
        with zipfile.ZipFile(wheel, "w") as w:
            w.writestr("mlpr/__init__.py", "SECRET = 1\n")
        base = getattr(sys, "_base_executable", sys.executable)
        subprocess.run([base, "-m", "venv", "--without-pip", str(place / "venv")], check=True)
        python = str(place / "venv" / "bin" / "python")
        pth = next((place / "venv").glob("lib/python*/site-packages")) / "reach.pth"
        paths = [place / "open" / "mlpr", place / "closed" / "mlpr", wheel]
        uid = sandbox.uid_for(0)

        pth.write_text(f"{place / 'open'}\n")
        reach = sandbox.check_reach(python, paths, uid)
        assert reach.imports == str(place / "open" / "mlpr" / "__init__.py")
        assert reach.readable == (str(place / "open" / "mlpr"),) and not reach.verified
        assert reach.describe() == (
            f"mlpr's files are readable by the submission at {place}/open/mlpr and its Python "
            f"imports mlpr ({place}/open/mlpr/__init__.py) once the import hook is removed: "
            f"only an import hook stands in the way, which is not a barrier")

        pth.write_text(f"{place / 'closed'}\n")
        reach = sandbox.check_reach(python, paths[1:], uid)
        assert reach.verified and (reach.imports, reach.readable) == ("", ())
        assert reach.describe() == (f"the reference is out of reach: verified (its user cannot "
                                    f"import mlpr nor read {paths[1]}, {wheel})")
        grader = sandbox.check_reach(python, paths[1:])  # root reads and imports what it hides
        assert grader.readable == (str(paths[1]), str(wheel)) and grader.imports

        # the interpreter is checked when named: this venv has no numpy for the harness
        monkeypatch.setenv(sandbox.PYTHON_VARIABLE, python)
        with pytest.raises(ValueError, match=r"\(\$MLPR_SUBMISSION_PYTHON\), .*venv/bin/python"
                                             r", cannot run the harness, which imports numpy"):
            sandbox.submission_python()
        with pytest.raises(ValueError, match=r"\(--python\), /nonexistent/python, is not an "
                                             r"executable file"):
            sandbox.use_python("/nonexistent/python")
    finally:
        shutil.rmtree(place, ignore_errors=True)

    # the grader's own Python under user: mlpr imports and reads; the cheat takes its points
    monkeypatch.delenv(sandbox.PYTHON_VARIABLE)
    assert sandbox.use_python() == sys.executable
    reach = sandbox.reference_reach("user")
    assert reach.imports and not reach.verified
    assert reach.describe().endswith("only an import hook stands in the way, which is not a "
                                     "barrier")
    cheat = tmp_path / "cheat.py"
    cheat.write_text(CHEAT.replace("@ROOT@", repr("/nonexistent")))
    rep, = grade_all([cheat], seed=5, isolation="user")
    assert {r.title: r.points for r in rep.results} == {n: 1.0 for n in CHEATED}
    assert f"; Python {sys.executable} (the grader's own: python " in formats.format_text([rep])
    assert f"; mlpr's files are readable by the submission at " \
           f"{Path(datasets.__file__).resolve().parent}" in formats.format_text([rep])


# ------------------------------------------------------------------------------------------------
# without the package index: options, points, the zip's layout


def test_the_zip_is_reproducible_and_laid_out_for_gradescope(tmp_path):
    """With a given wheel (no build): the same inputs give the same bytes; the scripts are
    executable, at the root of the zip."""
    wheel = tmp_path / "mlpr-0.1.0-py3-none-any.whl"
    wheel.write_bytes(b"not really a wheel")
    a = autograder.build(tmp_path / "a.zip", [7, 5, 7], {"uniform_cost_matrix": 0},
                         "hidden", 10, wheel=wheel)
    os.utime(wheel, (0, 0))
    autograder.build(tmp_path / "b.zip", [5, 7], {"uniform_cost_matrix": 0.0}, "hidden", 10.0,
                     wheel=wheel)
    assert (tmp_path / "a.zip").read_bytes() == (tmp_path / "b.zip").read_bytes()
    assert [n for n, _ in a] == sorted(n for n, _ in a)
    with zipfile.ZipFile(tmp_path / "a.zip") as z:
        assert json.loads(z.read(autograder.CONFIG_NAME)) == {
            "labs": [5, 7], "points": {"uniform_cost_matrix": 0.0}, "visibility": "hidden",
            "timeout": 10.0}
        assert stat.S_IMODE(z.getinfo("setup.sh").external_attr >> 16) == 0o755
        assert stat.S_IMODE(z.getinfo("run_autograder").external_attr >> 16) == 0o755


@pytest.mark.parametrize("points, match", [
    ({"no_such_task": 1}, r"points for 'no_such_task': no task of that name in lab\(s\) 5, 7"),
    ({"trainLogRegBinary": 1}, r"no task of that name in lab\(s\) 5, 7; the tasks are: "),
    ({"uniform_cost_matrix": -1}, r"must be a finite number >= 0, got -1"),
    ({"uniform_cost_matrix": float("nan")}, r"must be a finite number >= 0, got nan"),
    ({"uniform_cost_matrix": "2"}, r"must be a finite number >= 0, got '2'"),
    ([1, 2], r"must be a JSON object \{task name: points\}, got list"),
])
def test_points_are_checked_against_the_labs_tasks(points, match):
    with pytest.raises(ValueError, match=match):
        autograder.check_points(points, [5, 7])


def test_points_reweight_the_tasks_and_the_score():
    results = [TaskResult("a", 5, "passed", 1.0, 1.0), TaskResult("b", 5, "failed", 0.0, 1.0),
               TaskResult("c", 7, "passed", 1.0, 1.0)]
    rep = autograder.with_points(Report("s", results, [], []), {"a": 4.0, "b": 2.0})
    assert [(r.points, r.max_points) for r in rep.results] == [(4.0, 4.0), (0.0, 2.0),
                                                                (1.0, 1.0)]
    assert (rep.score, rep.max_score) == (5.0, 7.0)
    doc = formats.format_gradescope(rep, "visible")
    assert doc["score"] == 5.0 and [t["max_score"] for t in doc["tests"]] == [4.0, 2.0, 1.0]


@pytest.mark.parametrize("args, message", [
    ([], "the following arguments are required: --lab"),
    (["--lab", "99"], "the labs with tasks are"),
    (["--lab", "5", "--visibility", "public"], "invalid choice: 'public'"),
    (["--lab", "5", "--timeout", "0"], "timeout must be a number of seconds > 0"),
    (["--lab", "5", "--points", "/nonexistent/points.json"], "--points /nonexistent"),
    (["--lab", "5", "--wheel", "/nonexistent/mlpr-0-py3-none-any.whl"], "is not an mlpr wheel"),
])
def test_usage_errors_of_the_subcommand(args, message, tmp_path, capsys):
    with pytest.raises(SystemExit) as info:
        grading_main(["autograder", *args, "--out", str(tmp_path / "a.zip")])
    assert info.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "a.zip").exists()


def test_the_submissions_python_is_checked_when_named(capsys):
    """``--python`` names the Python that runs the submissions: one that cannot run the harness
    is a usage error, and the run keeps its interpreter."""
    before = sandbox.submission_python()
    with pytest.raises(SystemExit) as info:
        grading_main(["--python", "/nonexistent/python", str(COURSE)])
    assert info.value.code == 2
    assert "the Python named to run the submissions (--python), /nonexistent/python, is not " \
           "an executable file" in capsys.readouterr().err
    assert sandbox.submission_python() == before


def test_the_grading_command_line_is_unchanged_beside_the_subcommand(capsys):
    """``python -m mlpr.grading --list`` and a submission argument keep their meaning; only a
    first argument ``autograder`` selects the subcommand."""
    assert grading_main(["--list"]) == 0
    assert "lab  5  Gau_MVG_ML_estimates(D, L)" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        grading_main(["autograder", "--help"])
    assert "--points FILE" in capsys.readouterr().out


def test_the_seed_replays_for_the_same_students_and_differs_for_others(tmp_path):
    """A regrade (the same students, the same assignment) gets the same seed, whatever the order
    of a group's users; another student, another assignment or another image's secret gets
    another one; without the secret or the metadata the run draws a seed and says why."""
    (tmp_path / "source").mkdir()

    def seed(users, assignment=77, secret="a" * 64):
        (tmp_path / "source" / autograder.SECRET_NAME).write_text(secret + "\n")
        (tmp_path / autograder.METADATA_NAME).write_text(json.dumps(
            {"assignment": {"id": assignment}, "users": [{"id": u} for u in users]}))
        value, why = autograder.replay_seed(tmp_path)
        assert why == "" and 0 <= value < 2**31
        return value

    first = seed([11, 12])
    assert seed([12, 11]) == first == seed([11, 12])
    others = {seed([11]), seed([13, 12]), seed([11, 12], assignment=78),
              seed([11, 12], secret="b" * 64)}
    assert first not in others and len(others) == 4
    (tmp_path / autograder.METADATA_NAME).unlink()
    value, why = autograder.replay_seed(tmp_path)
    assert 0 <= value < 2**31 and "submission_metadata.json" in why
