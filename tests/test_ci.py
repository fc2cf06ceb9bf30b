"""The suite's own rules: in CI (``CI=true``) a skip fails unless tests/conftest.py lists it with
its reason, and .ci/run hides no failure of ``make test``."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import SKIPS_ALLOWED_IN_CI, undocumented_skip

REPO = Path(__file__).resolve().parents[1]

SKIPPING = '''
import pytest

def test_skips():
    pytest.skip("no oracle here")

def test_passes():
    pass
'''


def _pytest(folder, ci, args=()):
    """pytest on a folder of test files, with tests/conftest.py as a plugin, with or without
    CI=true (past a module that fails to collect, to run the others), with ``args``. The plugins
    are the ones named (conftest, and pytest-xdist where ``args`` has -n), none found by entry
    point: hypothesis's, which these tests do not use, takes a second of each interpreter."""
    (folder / "pytest.ini").write_text("[pytest]\n")
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTEST_XDIST_WORKER")}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "tests"), str(REPO)])
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    if ci:
        env["CI"] = "true"
    plugins = ["-p", "conftest"] + (["-p", "xdist.plugin"] if "-n" in args else [])
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
                           *plugins, "-c", str(folder / "pytest.ini"),
                           "--continue-on-collection-errors", *args, str(folder)],
                          capture_output=True, text=True, env=env, cwd=folder, timeout=300)


@pytest.mark.slow
def test_an_undocumented_skip_fails_in_ci_only(tmp_path):
    """A skip in a test, and a module skipped at collection (pytest.importorskip): skips out of
    CI, failures in CI that say where the list of allowed skips is."""
    (tmp_path / "test_x.py").write_text(SKIPPING)
    (tmp_path / "test_y.py").write_text(
        'import pytest\npytest.importorskip("no_such_module_anywhere")\n' + SKIPPING)
    proc = _pytest(tmp_path, ci=False)
    assert proc.returncode == 0 and "1 passed, 2 skipped" in proc.stdout, proc.stdout
    proc = _pytest(tmp_path, ci=True)
    assert proc.returncode == 1 and "1 failed, 1 passed, 1 error" in proc.stdout, proc.stdout
    assert "skipped in CI (no oracle here)" in proc.stdout
    assert re.search(r"skipped in CI \(could not import 'no_such_module_anywhere'", proc.stdout)
    assert "SKIPS_ALLOWED_IN_CI of tests/conftest.py" in proc.stdout


@pytest.mark.slow
def test_a_test_that_reads_a_lecture_is_slow(tmp_path):
    """make test-quick (-m "not slow") runs no lecture: a test marked with the lectures it reads
    is slow, marked so or not (tests/conftest.py)."""
    (tmp_path / "test_z.py").write_text(
        "import pytest\n\n\n@pytest.mark.lectures('02_iris_exploration')\n"
        "def test_reads_a_lecture():\n    pass\n\n\ndef test_plain():\n    pass\n")
    proc = _pytest(tmp_path, ci=False, args=["-m", "not slow", "-vv"])
    assert proc.returncode == 0 and "1 passed, 1 deselected" in proc.stdout, proc.stdout
    assert "test_plain PASSED" in proc.stdout and "test_reads_a_lecture" not in proc.stdout


@pytest.mark.slow
def test_tests_that_share_a_lecture_run_on_one_worker(tmp_path):
    """make test's time rests on --dist loadgroup: the tests that read one lecture's quick run
    (grouped by tests/conftest.py) go to one worker, which runs the lecture once while the other
    worker runs other tests. pytest 9.2 broke the grouping under pytest-xdist 3.8 (the tests of a
    group spread over the workers and wait for each other): the test extra keeps pytest < 9.2.
    The tests that share a module-scoped fixture are grouped too, one group per parameter of a
    parametrized fixture: each is built once, on one worker."""
    (tmp_path / "test_g.py").write_text(
        "import time\n\nimport pytest\n\n\n"
        + "".join(f"@pytest.mark.lectures('02_iris_exploration')\ndef test_a{i}():\n"
                  f"    time.sleep(0.2)\n\n\n" for i in range(3))
        + "".join(f"def test_b{i}():\n    time.sleep(0.2)\n\n\n" for i in range(3))
        + "@pytest.fixture(scope='module', params=['p', 'q'])\ndef built(request):\n"
          "    time.sleep(0.2)\n    return request.param\n\n\n"
        + "".join(f"def test_c{i}(built):\n    print('built', built)\n\n\n" for i in range(4)))
    proc = _pytest(tmp_path, ci=False, args=["-n", "2", "--dist", "loadgroup", "-vv"])
    assert proc.returncode == 0, proc.stdout[-3000:]
    workers = set(re.findall(r"\[(gw\d)\][^\n]*test_a\d", proc.stdout))
    assert len(workers) == 1, proc.stdout[-3000:]
    for param in "pq":
        workers = set(re.findall(rf"\[(gw\d)\][^\n]*test_c\d\[{param}\]", proc.stdout))
        assert len(workers) == 1, proc.stdout[-3000:]


def test_a_documented_skip_needs_its_reason():
    for nodeid, (phrase, why) in SKIPS_ALLOWED_IN_CI.items():
        assert undocumented_skip(nodeid, f"... {phrase} ...") is None
        assert undocumented_skip(nodeid + "[param]", phrase) is None
        assert undocumented_skip(nodeid, "another reason") is not None  # only for its reason
        assert len(why) > 40, nodeid  # the reason says why, in a sentence
        path, name = nodeid.split("::")
        assert re.search(rf"^def {name}\(", (REPO / path).read_text(), flags=re.M), nodeid
    assert undocumented_skip("tests/test_x.py::test_y", "no scikit-learn") is not None
    assert len(SKIPS_ALLOWED_IN_CI) <= 5  # a short list


def test_ci_runs_make_test_and_hides_no_failure():
    ci = (REPO / ".ci" / "run").read_text()
    assert "set -euo pipefail" in ci and 'export CI="${CI:-true}"' in ci
    (line,) = [ln for ln in ci.splitlines() if "make test" in ln and not ln.startswith("#")]
    assert line.strip() == "make test", line  # no `|| true`, no pipe that swallows the status


def _test_functions():
    """(file, name, docstring) of every test function of tests/."""
    import ast

    for path in sorted((REPO / "tests").glob("test_*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                yield path.name, node.name, ast.get_docstring(node) or ""


# a test that holds a fast path (a block size, a cache) equal to its reference, by its name
FAST_VERSUS_REFERENCE = re.compile(
    r"(fast|auto|blocked|block_size|in_blocks|cache|vectorised|shrinking|many_priors).*"
    r"(reference|equals|independence|plain|keeps|grouped|full_matrix)")


def test_each_fast_path_test_names_an_independent_test_that_exists():
    """A test of fast against reference shows that both compute the same thing, not that it is
    right: its docstring names the independent test of the same quantity (a closed form, a
    second method, a published number), and every test a docstring names exists."""
    tests = list(_test_functions())
    defined = {name for _, name, _ in tests}
    fast = [(f, n, doc) for f, n, doc in tests if FAST_VERSUS_REFERENCE.search(n)]
    assert len(fast) >= 20
    for f, name, doc in fast:
        assert re.search(r"independent test|held to the message", doc, flags=re.I), (f, name)
    for f, name, doc in tests:
        for named in re.findall(r"\b(test_[a-z0-9_]+)\b(?!\.py)", doc):  # not a file's name
            assert named in defined, f"{f}::{name} names {named}, which is no test"


def test_scikit_learn_is_only_a_test_oracle():
    """scikit-learn is in the `test` extra for the cross-checks; mlpr itself never imports it."""
    code = ("import importlib, pkgutil, sys, mlpr\n"
            "for m in pkgutil.walk_packages(mlpr.__path__, 'mlpr.'):\n"
            "    importlib.import_module(m.name)\n"
            "print(sorted(n for n in sys.modules if n.split('.')[0] == 'sklearn'))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ, MPLBACKEND="Agg"), cwd=REPO, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"
