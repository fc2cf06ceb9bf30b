"""The parallel runner (``make lectures``), what a run records (its date, commit and machine),
the figure formats for slides (``--format``), ``make report`` (the site with the runs of
figures/: tests/test_docs.py tests its pages) and the headless Chromium the site's tests use.

The report is built from the shared quick runs of two fast lectures (tests/conftest.py runs them
with PDF and SVG too), beside one synthetic results.json that holds every kind of check status,
and its pages are opened in the system's Chromium. The runner's tests run a copy of the runner
over stub lectures: they exercise the runner, not a lecture's content. Without a Chromium the
browser tests are skipped, except in CI (``CI=true``), where they fail.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from report.browser import CANDIDATES, Chromium, find_chromium

REPO = Path(__file__).resolve().parents[1]
# the report is built from their quick runs; the second writes PDF and SVG too (conftest.py)
FAST = ["04_density_estimation", "02_iris_exploration"]
LECTURES = sorted(p.parent.name for p in (REPO / "lectures").glob("[0-9][0-9]_*/run.py"))
# the tests that read the two lectures' quick runs are marked lectures(*FAST): on the xdist
# worker that runs them (tests/conftest.py); and slow: make test-quick leaves them out
README = (REPO / "README.md").read_text()


def _run(args, **kw):
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", MPLBACKEND="Agg")
    return subprocess.run(args, capture_output=True, text=True, env=env, timeout=600, cwd=REPO,
                          **kw)


STUB_LECTURE = '''"""Stub of lecture {name}: the runner's tests run lectures, whatever they hold."""
import time

from _lecture import Lecture

lec = Lecture("{name}", __doc__)
time.sleep({sleep})
lec.check("one", 1.0, 1.0, tol=0, source="invariant")
lec.finish()
'''


def stub_lectures(root: Path, names, sleep: float = 0.0) -> Path:
    """A copy of the runner (lectures/_run_all.py, the modules it imports and the typical
    durations beside it) under ``root/lectures``, with a stub lecture of each name that sleeps
    ``sleep`` seconds: the copy runs the stubs as the runner runs the lectures (it finds them
    beside itself). Returns the copy's path."""
    (root / "lectures").mkdir(parents=True)
    for f in ("_run_all.py", "_readme.py", "_inputs.py", "_durations.json"):
        shutil.copy(REPO / "lectures" / f, root / "lectures" / f)
    for name in names:
        (root / "lectures" / name).mkdir()
        (root / "lectures" / name / "run.py").write_text(STUB_LECTURE.format(name=name,
                                                                             sleep=sleep))
    return root / "lectures" / "_run_all.py"


def _run_stubs(runner: Path, *args, **kw):
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", MPLBACKEND="Agg",
               PYTHONPATH=os.pathsep.join([str(REPO / "lectures"), str(REPO)]))
    return subprocess.run([sys.executable, str(runner), *map(str, args)], capture_output=True,
                          text=True, env=env, timeout=600, cwd=runner.parents[1], **kw)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The runner's quick run of two stub lectures, two at a time (into ``figures/`` beside
    it), one of which has a previous quick run, for the ETA."""
    root = tmp_path_factory.mktemp("runner")
    runner = stub_lectures(root, FAST, sleep=0.5)
    figures = root / "figures"
    (figures / FAST[0]).mkdir(parents=True)
    (figures / FAST[0] / "results.json").write_text(json.dumps({"mode": "quick",
                                                                 "seconds": 5.0}))
    proc = _run_stubs(runner, "--jobs", "2", "--figures", figures, "--only", *FAST, "--",
                      "--quick")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return figures, proc.stdout


@pytest.fixture(scope="module")
def figures(lecture_run, tmp_path_factory):
    """A figures folder with the shared quick runs of the fast lectures (PNG, PDF, SVG) and
    their logs, as ``make lectures --format png,pdf,svg`` leaves it (a copy: the report writes
    its pages beside the results)."""
    root = tmp_path_factory.mktemp("report") / "figures"
    (root / "logs").mkdir(parents=True)
    for name in FAST:
        run = lecture_run(name)
        shutil.copytree(run, root / name)
        shutil.copy(run.parent / "logs" / f"{name}.log", root / "logs" / f"{name}.log")
    return root


# -- the runner (make lectures) -------------------------------------------------------------------
def test_runner_runs_lectures_in_parallel_with_logs_and_etas(runs):
    root, out = runs
    assert "2 lectures in quick mode, 2 at a time, one BLAS thread each" in out
    for name in FAST:
        log = (root / "logs" / f"{name}.log").read_text()
        assert log.startswith(f"# {name} (quick mode"), log[:200]
        assert re.search(rf"\d+/2 {name} ok in \d+ s \(log ", out), out
        results = json.loads((root / name / "results.json").read_text())
        assert results["mode"] == "quick"
    # the ETA from the previous run's seconds, on the console and in the lecture's own log
    assert re.search(rf"start {FAST[0]} \(previous quick run 5 s, ETA \d\d:\d\d:\d\d\)", out)
    assert re.search(rf"\[{FAST[0]}\] quick mode started at \d\d:\d\d:\d\d; the previous quick "
                     r"run took 5 s: ETA \d\d:\d\d:\d\d",
                     (root / "logs" / f"{FAST[0]}.log").read_text())
    # the other has none in this folder: the typical time of lectures/_durations.json
    assert re.search(rf"start {FAST[1]} \(typical quick run \d+ s, ETA", out), out
    assert "2 of 2 lectures ok" in out


def test_runner_records_each_lectures_time_and_writes_the_timings_page(runs):
    """After a run, each lecture that ended ok has its seconds (as the console printed them) in
    the runner's lectures/_durations.json under the run's mode, with the day and the number at
    once, and docs/timings.md is that file's table; each also has the record of its inputs."""
    root, out = runs
    doc = json.loads((root.parent / "lectures" / "_durations.json").read_text())
    page = (root.parent / "docs" / "timings.md").read_text()
    for name in FAST:
        (printed,) = re.findall(rf"\d+/2 {name} ok in (\d+) s", out)
        assert doc["quick"][name] == int(printed)
        when = doc["measured"]["quick"][name]
        assert when == {"date": time.strftime("%Y-%m-%d"), "jobs": 2, "load": when["load"]}
        assert when["load"] >= 0
        row = next(ln for ln in page.splitlines() if ln.startswith(f"| [`{name}`]"))
        assert (f"| {int(printed)} s ({time.strftime('%Y-%m-%d')}, 2 at a time, load "
                f"{when['load']:g}) |") in row, row
        record = json.loads((root / name / "inputs.json").read_text())
        assert record["args"] == ["--quick"] and f"lectures/{name}/run.py" in record["inputs"]
    assert sorted(doc["full"]) == sorted(json.loads(
        (REPO / "lectures" / "_durations.json").read_text())["full"])  # the other mode kept


def test_the_timings_page_is_written_from_the_durations(tmp_path):
    """docs/timings.md is what make lectures writes from lectures/_durations.json: edited by
    hand, or left behind by a change of the durations, it fails here."""
    sys.path.insert(0, str(REPO / "lectures"))
    import _run_all

    doc = json.loads((REPO / "lectures" / "_durations.json").read_text())
    written = _run_all.write_timings(doc, tmp_path / "timings.md").read_text()
    page = (REPO / "docs" / "timings.md").read_text()
    assert page == written
    assert f"Every lecture in full mode: {sum(doc['full'].values()) / 60:.1f} min" in page
    for name in LECTURES:
        assert f"| [`{name}`](../lectures/{name}) |" in page


def test_runner_fails_when_a_lecture_fails(tmp_path):
    runner = stub_lectures(tmp_path, ["02_iris_exploration"])
    proc = _run_stubs(runner, "--figures", tmp_path / "figures", "--only", "02", "--",
                      "--no-such-option")
    assert proc.returncode == 1
    assert "02_iris_exploration FAILED (exit 2)" in proc.stdout
    assert "02_iris_exploration | " in proc.stdout  # the tail of its log
    assert "FAILED: 02_iris_exploration" in proc.stdout


def test_runner_one_per_core_longest_first(tmp_path):
    runner = stub_lectures(tmp_path, FAST)
    for name, seconds in (("02_iris_exploration", 5.0), ("04_density_estimation", 50.0)):
        (tmp_path / "figures" / name).mkdir(parents=True)
        (tmp_path / "figures" / name / "results.json").write_text(json.dumps({"mode": "full",
                                                                             "seconds": seconds}))
    proc = _run_stubs(runner, "--figures", tmp_path / "figures", "--only", "02", "04", "--",
                      "--help")  # --help: each lecture exits at once
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"2 lectures in full mode, {len(os.sched_getaffinity(0))} at a time" in proc.stdout
    starts = re.findall(r"start (\d\d)_", proc.stdout)
    assert starts == ["04", "02"]
    assert "previous full run 50 s, ETA" in proc.stdout


def test_runner_stops_its_lectures_when_terminated(tmp_path):
    runner = stub_lectures(tmp_path, ["06_logistic_regression"], sleep=120)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO / "lectures"), str(REPO)]))
    proc = subprocess.Popen([sys.executable, str(runner), "--figures", str(tmp_path / "figures"),
                             "--only", "06", "--", "--quick"], cwd=tmp_path, text=True, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    log = tmp_path / "figures" / "logs" / "06_logistic_regression.log"
    for _ in range(100):  # until the lecture has started
        if log.exists() and log.stat().st_size:
            break
        time.sleep(0.1)
    proc.terminate()
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "interrupted; stopped 06_logistic_regression" in out
    assert not (tmp_path / "figures" / "06_logistic_regression" / "results.json").exists()


def test_typical_durations_name_every_lecture():
    typical = json.loads((REPO / "lectures" / "_durations.json").read_text())
    for mode in ("full", "quick"):
        assert sorted(typical[mode]) == LECTURES, mode


def test_runner_and_report_default_to_figures():
    proc = _run([sys.executable, "lectures/_run_all.py", "--help"])
    assert proc.returncode == 0 and "(default figures/)" in " ".join(proc.stdout.split())
    proc = _run(["make", "-n", "report"])
    assert f"MLPR_DOCS_RESULTS={REPO / 'figures'}" in proc.stdout
    assert 'logs = args.figures / "logs"' in (REPO / "lectures" / "_run_all.py").read_text()


def test_runner_rejects_unknown_lecture(tmp_path):
    proc = _run([sys.executable, "lectures/_run_all.py", "--figures", str(tmp_path), "--only",
                 "99"])
    assert proc.returncode != 0 and "no lecture 99" in proc.stderr


def test_make_passes_jobs_format_and_args():
    proc = _run(["make", "-n", "lectures", "JOBS=2", "FORMAT=pdf,png", "ARGS=--quick"])
    assert "lectures/_run_all.py --jobs 2 --format pdf,png -- --quick" in " ".join(
        proc.stdout.replace("\\\n", " ").split()), proc.stdout
    proc = _run(["make", "-n", "report-screenshot"])
    assert ("-m report.screenshot docs/_build/html/results/index.html docs/report_index.png"
            in proc.stdout)


# -- results.json: provenance and the other formats ---------------------------------------------
@pytest.mark.lectures(*FAST)
@pytest.mark.slow
def test_results_record_date_commit_machine(figures):
    root = figures
    r = json.loads((root / FAST[1] / "results.json").read_text())
    assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", r["date"])
    head = _run(["git", "rev-parse", "--short", "HEAD"]).stdout.strip()
    assert r["commit"] == (head or None)
    assert r["machine"]["cpus"] >= 1 and r["machine"]["platform"] and r["machine"]["python"]


@pytest.mark.lectures(*FAST)
@pytest.mark.slow
def test_vector_formats_beside_the_png_with_fonts_embedded(figures):
    root = figures
    r = json.loads((root / FAST[1] / "results.json").read_text())
    assert r["figures"] and all(f.endswith(".png") for f in r["figures"])
    assert set(r["figure_other_formats"]) == set(r["figures"])
    for png in r["figures"]:
        stem = png[:-4]
        assert r["figure_other_formats"][png] == [f"{stem}.pdf", f"{stem}.svg"]
        pdf = (root / FAST[1] / f"{stem}.pdf").read_bytes()
        assert b"/FontFile2" in pdf and b"/Type3" not in pdf  # TrueType fonts, embedded
        svg = (root / FAST[1] / f"{stem}.svg").read_text()
        assert "<text" not in svg and "<path" in svg  # text drawn as paths


def test_format_rejects_an_unknown_format(tmp_path, capsys):
    from _lecture import Lecture

    with pytest.raises(SystemExit) as exc:  # the lectures' shared command line
        Lecture("99_format_test", "test", argv=["--out", str(tmp_path), "--format", "png,bmp"])
    assert exc.value.code == 2
    assert "bmp not supported; choose among png, pdf, svg" in capsys.readouterr().err


@pytest.mark.parametrize("argv, written", [([], [".png"]),
                                           (["--format", "svg,png"], [".png", ".svg"]),
                                           (["--format", "pdf"], [".pdf", ".png"])])
def test_format_default_png_and_png_always(tmp_path, argv, written):
    import matplotlib.pyplot as plt
    from _lecture import Lecture

    lec = Lecture("99_format_test", "test", argv=["--out", str(tmp_path), *argv])
    fig = plt.figure()
    fig.add_subplot().set_title("a title")
    lec.figure(fig, "f.png")
    assert sorted(p.suffix for p in tmp_path.iterdir()) == written
    assert lec.results["figures"] == ["f.png"]
    others = [f"f{suffix}" for suffix in written if suffix != ".png"]
    assert lec.results.get("figure_other_formats", {}).get("f.png", []) == others


# -- in the browser ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def browser():
    if find_chromium() is None:
        msg = (f"no Chromium to open pages in (looked for $MLPR_CHROMIUM and "
               f"{', '.join(CANDIDATES)}); apt-get install chromium-headless-shell")
        if os.environ.get("CI") == "true":
            pytest.fail(msg + " (CI must run the browser tests: .ci/run installs it)")
        pytest.skip(msg)
    with Chromium() as b:
        yield b


def test_chromium_starts(browser, tmp_path):
    (tmp_path / "p.html").write_text("<!DOCTYPE html><title>t</title><p>" + "x " * 200)
    shown = browser.load(tmp_path / "p.html", width=400, height=300)
    assert shown.title == "t" and shown.errors == [] and shown.text_length > 200


@pytest.mark.slow
def test_browser_tests_skip_without_chromium_and_fail_in_ci():
    test = "tests/test_report.py::test_chromium_starts"
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["MLPR_CHROMIUM"] = "/nonexistent/chromium"
    args = [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", test]
    skipped = subprocess.run(args, capture_output=True, text=True, env=env, cwd=REPO,
                             timeout=300)
    assert skipped.returncode == 0 and "1 skipped" in skipped.stdout, skipped.stdout
    assert "no Chromium to open pages in" in skipped.stdout
    failed = subprocess.run(args, capture_output=True, text=True, env=dict(env, CI="true"),
                            cwd=REPO, timeout=300)
    assert failed.returncode == 1 and "CI must run the browser tests" in failed.stdout


def test_ci_installs_chromium():
    ci = (REPO / ".ci" / "run").read_text()
    assert "apt-get install -y -q chromium-headless-shell" in ci and "make test" in ci


def test_readme_shows_the_report():
    head = "\n".join(README.splitlines()[:30])
    assert "make report" in head and "docs/report_index.png" in head
    png = REPO / "docs" / "report_index.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size < 150_000
