"""What the tests share: each lecture's quick run (once per test run, whatever the number of
pytest-xdist workers), and the short list of tests that may skip in CI, with the reason of each.

``make test`` runs the suite on every core (``pytest -n auto``, one BLAS thread per worker). A
lecture's quick run is a subprocess of seconds to tens of seconds that several tests read (its
results.json, its figures, its console output): `lecture_run` runs it the first time a test asks
for it, in a folder of this test run that every worker sees, under a lock per lecture, and every
later request, from any worker, reads the same folder. The tests that share a module-scoped
fixture (a class of submissions graded once) run on one worker, which builds it once.

In CI (``CI=true``, as ``.ci/run`` sets it) a skip is a failure unless the test is on
`SKIPS_ALLOWED_IN_CI` with the reason it gives: a skipped check is a check that did not run, and
CI is where every check must run (its oracles, scikit-learn and a headless Chromium, are
installed there).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

# The submissions' environment that a machine may have built (mlpr.grading.environment) is not
# the tests' default: a kit run in a test uses this Python unless the test names another, on a
# TA's machine and in CI alike (tests/test_grading_environment.py builds a stand-in of its own)
os.environ["MLPR_SUBMISSION_ENV"] = os.path.join(os.sep, "nonexistent", "mlpr-submission-env")

# One BLAS thread per xdist worker (set before numpy is first imported): the workers already use
# every core, and OpenBLAS threads that wait for a busy core spin and slow everything down.
if os.environ.get("PYTEST_XDIST_WORKER"):
    for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(_var, "1")

import pytest  # noqa: E402
from filelock import FileLock  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
LECTURES = sorted(p.parent.name for p in (REPO / "lectures").glob("[0-9][0-9]_*/run.py"))

#: lectures whose shared quick run also writes each figure as PDF and SVG beside its PNG (the
#: report's tests, tests/test_report.py, check them and link them from the lecture's page)
LECTURE_FORMATS = {"02_iris_exploration": "png,pdf,svg"}

#: node id -> (a phrase the skip's reason must contain, why this skip is legitimate in CI).
#: Nothing else may skip when CI=true; keep this list short, each entry with its reason.
SKIPS_ALLOWED_IN_CI = {
    "tests/test_evaluation.py::test_kfold_scores_names_the_fold_whose_training_failed": (
        "Python 3.11",
        "exception notes (BaseException.add_note) exist from Python 3.11 on; mlpr supports "
        "3.10, where kfold_scores lets the training error through unchanged, without the note "
        "that names the fold",
    ),
}


def undocumented_skip(nodeid: str, reason: str) -> str | None:
    """Why a skip of ``nodeid`` with ``reason`` must fail in CI, or None when it is documented
    in `SKIPS_ALLOWED_IN_CI` (the node id, parameters stripped, and a phrase of the reason)."""
    base = nodeid.split("[", 1)[0]
    allowed = SKIPS_ALLOWED_IN_CI.get(base)
    if allowed is not None and allowed[0] in reason:
        return None
    return (f"skipped in CI ({reason}): CI runs every test but those listed in "
            f"SKIPS_ALLOWED_IN_CI of tests/conftest.py, each with its reason; install what the "
            f"test needs (.ci/run and the `test` extra of pyproject.toml), or document the skip "
            f"there")


def _skip_reason(report) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)


def _fail_undocumented_skip(report) -> None:
    if os.environ.get("CI") != "true" or not report.skipped or hasattr(report, "wasxfail"):
        return
    why = undocumented_skip(report.nodeid, _skip_reason(report))
    if why is not None:
        report.outcome = "failed"
        report.longrepr = why


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    _fail_undocumented_skip(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield  # a module-level pytest.importorskip skips a whole file at collection
    _fail_undocumented_skip(outcome.get_result())


# -- the lectures' quick runs, once per test run ---------------------------------------------------
def _typical_quick_seconds() -> dict[str, float]:
    try:
        return json.loads((REPO / "lectures" / "_durations.json").read_text())["quick"]
    except (OSError, ValueError, KeyError):
        return {}


def _module_fixtures(item) -> list[str]:
    """The module-scoped fixtures ``item`` uses, one key each (the module, the fixture and, for
    a parametrized fixture, the parameter of this item)."""
    keys = []
    params = getattr(getattr(item, "callspec", None), "params", {})
    for name in item.fixturenames:
        defs = item._fixtureinfo.name2fixturedefs.get(name)
        if defs and defs[-1].scope in ("module", "package", "class"):
            # no "]" nor "@" in a group's name: xdist reads the group after the last "@" that
            # follows the last "]" of the node id
            param = re.sub(r"[^\w.-]", "_", f"-{params[name]}") if name in params else ""
            keys.append(f"fixture:{item.module.__name__}.{name}{param}")
    return keys


@pytest.hookimpl(tryfirst=True)  # before -m selects: the slow marker added here counts
def pytest_collection_modifyitems(config, items):
    """Each test that declares the lectures it reads (``@pytest.mark.lectures(name, ...)``) joins
    the xdist group of those lectures, so that under ``--dist loadgroup`` one worker runs each
    lecture and no worker waits for another's run; tests that share a lecture share a group
    (transitively). Those tests come first, the longest lectures first, so that the long runs
    do not end the test run alone. They are slow, whether marked so or not: a lecture's quick
    run takes 4 to 60 s, and ``make test-quick`` (``-m "not slow"``) runs none.

    The tests that share a module-scoped fixture (a class graded once, a browser started once)
    join one group too, so that one worker builds the fixture: spread over two workers, each
    would build it. Those groups come next, then the other slow tests, then the rest."""
    parent: dict[str, str] = {}

    def find(name: str) -> str:
        while parent.setdefault(name, name) != name:
            name = parent[name]
        return name

    declared = {}
    for item in items:
        names = [n for m in item.iter_markers("lectures") for n in m.args]
        if names:
            item.add_marker(pytest.mark.slow)
        names += _module_fixtures(item)
        if names:
            declared[item] = names
            for other in names:
                parent[find(other)] = find(names[0])
    members: dict[str, set[str]] = {}
    for name in list(parent):
        members.setdefault(find(name), set()).add(name)
    typical = _typical_quick_seconds()
    seconds = {root: sum(typical.get(n, 60.0) for n in group if not n.startswith("fixture:"))
               for root, group in members.items()}
    for item, names in declared.items():
        group = members[find(names[0])]
        lectures = sorted(n.split("_")[0] for n in group if not n.startswith("fixture:"))
        item.add_marker(pytest.mark.xdist_group(
            "lectures-" + "-".join(lectures) if lectures else min(group).removeprefix("fixture:")))
    # lecture groups first (longest first), then the groups of a shared fixture, then the other
    # slow tests (a long test started last would end the run alone), then the rest
    items.sort(key=lambda item: -seconds[find(declared[item][0])] - 1.0 if item in declared
               else -0.5 if item.get_closest_marker("slow") else 0.0)


def _run_root(config, tmp_path_factory) -> Path:
    """A folder of this test run that every xdist worker sees (the workers' temporary folders
    are subfolders of the run's): each run of the suite gets a new one. (A worker is told by
    its config, not by PYTEST_XDIST_WORKER, which a pytest started by a test inherits.)"""
    base = tmp_path_factory.getbasetemp()
    root = (base.parent if hasattr(config, "workerinput") else base) / "lecture-runs"
    root.mkdir(exist_ok=True)
    return root


def _run_lecture(name: str, root: Path) -> dict:
    """One quick run of a lecture into ``root/name`` (the layout of ``make lectures``: its
    console output, stdout then stderr, in ``root/logs/name.log``), as ``make lecture`` runs it:
    one BLAS thread, the Agg backend."""
    out = root / name
    cmd = [sys.executable, str(REPO / "lectures" / name / "run.py"), "--quick", "--out", str(out)]
    if name in LECTURE_FORMATS:
        cmd += ["--format", LECTURE_FORMATS[name]]
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", MPLBACKEND="Agg")
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600, cwd=REPO)
    (root / "logs").mkdir(exist_ok=True)
    (root / "logs" / f"{name}.log").write_text(proc.stdout + proc.stderr)
    if proc.returncode == 0:
        (out / "stdout.txt").write_text(proc.stdout)
    return {"cmd": cmd, "returncode": proc.returncode, "seconds": time.perf_counter() - t0,
            "stdout_tail": proc.stdout[-3000:], "stderr_tail": proc.stderr[-3000:]}


@pytest.fixture(scope="session")
def lecture_run(request, tmp_path_factory):
    """``lecture_run(name)``: the folder of the lecture's quick run, made once per test run.

    The folder holds results.json, the figures (PNG, and PDF and SVG for the lectures of
    `LECTURE_FORMATS`) and ``stdout.txt``, the run's console output; ``../logs/name.log`` holds
    stdout and stderr. Read it, never write into it: other tests, on other workers, read it too.
    A failed run fails every test that asks for it, with the tail of its output.
    """
    root = _run_root(request.config, tmp_path_factory)

    def get(name: str) -> Path:
        assert name in LECTURES, f"no lecture {name}"
        status = root / f"{name}.status.json"
        with FileLock(str(root / f"{name}.lock")):  # one worker runs it, the others wait
            if not status.exists():
                status.write_text(json.dumps(_run_lecture(name, root)))
        run = json.loads(status.read_text())
        assert run["returncode"] == 0, (f"{' '.join(run['cmd'])} exited {run['returncode']}\n"
                                        + run["stdout_tail"] + run["stderr_tail"])
        return root / name

    return get
