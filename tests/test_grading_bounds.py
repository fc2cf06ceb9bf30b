"""The grader bounded in what it takes from a submission: attacks that cap themselves, each graded
beside an honest submission, which keeps full marks while the run ends within its bounds.

- a child that stops reading its requests (its request pipe shrunk to one page, bogus callback
  requests sent without reading the answers) fails that task, "stopped reading the grader's
  requests", after the task's time limit: the grader's writes have the reads' deadline;
- a child that sends more frames in one task than any course task needs fails that task, and
  what a task prints is kept up to a cap, the rest counted;
- the references between a submission's functions are capped, and walked once each;
- two submissions whose names share a stem get two results files, each named and said;
- an archive is named as one, and nothing is extracted.
"""

import json
import textwrap
import time
from pathlib import Path

import pytest

from mlpr.grading import channel, runner, sandbox
from mlpr.grading.__main__ import grade_all, main, results_names
from mlpr.grading.framework import TaskResult

REPO = Path(__file__).resolve().parents[1]
HONEST = (REPO / "tests" / "grading_submissions" / "course_style.py").read_text()

#: the kernel SVM task passes the grader's kernel as a callback: the child may send "callback"
#: frames, which the grader answers on the request pipe
STOPS_READING = textwrap.dedent("""
    import fcntl, json, os, struct, sys

    def train_dual_SVM_kernel(DTR, LTR, C, kernelFunc, eps=1.0):
        requests, answers = int(sys.argv[2]), int(sys.argv[3])
        fcntl.fcntl(requests, 1031, 4096)  # F_SETPIPE_SZ: one page
        head = json.dumps({"op": "callback", "id": 10**6, "args": []}).encode()
        frame = struct.pack(">II", len(head), 0) + head
        for _ in range(20_000):  # never reads the answers: the grader's pipe fills
            os.write(answers, frame)
        return None
""")

TOO_MANY_FRAMES = textwrap.dedent("""
    import numpy as np

    def train_dual_SVM_kernel(DTR, LTR, C, kernelFunc, eps=1.0):
        for _ in range(12_000):  # each call is a frame to the grader and back
            try:
                kernelFunc(DTR[:, :1], DTR[:, :1])
            except Exception:
                pass
        return None
""")


def _grade(tmp_path, attacks: dict, timeout: float = 5.0):
    paths = []
    for name, code in {"honest": HONEST, **attacks}.items():
        p = tmp_path / f"{name}.py"
        p.write_text(code)
        paths.append(p)
    t0 = time.monotonic()
    reports = grade_all(paths, jobs=2, seed=3, labs=[9], timeout=timeout)
    return {Path(r.submission).stem: r for r in reports}, time.monotonic() - t0


@pytest.mark.slow
def test_a_child_that_stops_reading_fails_its_task_within_the_time_limit(tmp_path):
    reports, seconds = _grade(tmp_path, {"stops_reading": STOPS_READING})
    assert reports["honest"].score == reports["honest"].max_score
    r = {x.name: x for x in reports["stops_reading"].results}["train_dual_SVM_kernel"]
    assert r.status == "failed" and "stopped reading the grader's requests" in r.message, r
    assert seconds < 60  # the task's 5 s limit, the other tasks and the honest file: not hung


@pytest.mark.slow
def test_frames_are_capped_per_task(tmp_path):
    reports, _ = _grade(tmp_path, {"floods": TOO_MANY_FRAMES}, timeout=30.0)
    assert reports["honest"].score == reports["honest"].max_score
    svm = {x.name: x for x in reports["floods"].results}["train_dual_SVM_kernel"]
    assert svm.status == "failed" and f"more than {channel.MAX_FRAMES} frames" in svm.message


def test_printed_text_and_opened_files_are_capped_per_task():
    """What the grader keeps of a task's frames: at most MAX_PRINTED characters and MAX_OPENED
    names, the rest counted and said."""
    child = object.__new__(channel.Child)
    child.printed, child.opened = [], []
    child.dropped = {"printed": 0, "opened": 0}
    for i in range(100):
        child._keep("y" * 4000, [f"/f{i}-{j}" for j in range(5)])
    assert sum(map(len, child.printed)) == channel.MAX_PRINTED
    assert len(child.opened) == channel.MAX_OPENED
    assert child.dropped == {"printed": 400_000 - channel.MAX_PRINTED,
                             "opened": 500 - channel.MAX_OPENED}
    out = child.take_printed()
    assert out.endswith(f"[... {400_000 - channel.MAX_PRINTED:,} more characters not kept]")
    assert child.take_printed() == ""


def test_the_uses_graph_is_capped_and_walked_once():
    uses = {f"f{i}": [f"f{j}" for j in range(200)] for i in range(3000)}
    kept = channel._capped_uses(uses)
    assert sum(map(len, kept.values())) == channel.MAX_USES
    assert all(len(v) <= 100 for v in kept.values())
    # a chain: the failure at its end explains the failures before it
    results = [TaskResult(n, 3, "failed", 0.0, 1.0, message="wrong")
               for n in ("compute_lda_geig", "compute_Sb_Sw")]
    runner.downstream_hints(results, {"compute_lda_geig": ["helper"], "helper": ["h2"],
                                      "h2": ["compute_Sb_Sw"]})
    assert "compute_Sb_Sw" in (results[0].hint or ""), results[0].hint


def test_one_results_file_per_submission(tmp_path, capsys):
    assert results_names([Path("a/alice.py"), Path("alice.zz"), Path("bob.py")]) == [
        "alice.py.results.json", "alice.zz.results.json", "bob.results.json"]
    assert results_names([Path("a/x.py"), Path("b/x.py")]) == [
        "x.py.results.json", "x.py-2.results.json"]
    (tmp_path / "alice.py").write_text("def vcol(x):\n    return x\n")
    (tmp_path / "alice.zz").mkdir()
    (tmp_path / "alice.zz" / "labs.py").write_text("def vrow(x):\n    return x\n")
    out = tmp_path / "out"
    main([str(tmp_path / "alice.py"), str(tmp_path / "alice.zz"), "--lab", "2",
          "--format", "gradescope", "--out", str(out), "--jobs", "1"])
    assert sorted(p.name for p in out.iterdir()) == ["alice.py.results.json",
                                                     "alice.zz.results.json"]
    assert "another submission has the name alice" in capsys.readouterr().err
    for p in out.iterdir():
        assert json.loads(p.read_text())["tests"]


def test_an_archive_is_named_and_not_extracted(tmp_path):
    archive = tmp_path / "lab3.zip"
    archive.write_bytes(b"PK\x05\x06" + bytes(18))
    rep = runner.grade(archive, labs=[3], isolation=sandbox.choose())
    assert rep.results and all(r.status == "failed" for r in rep.results)
    assert rep.results[0].message.startswith("lab3.zip is an archive (.zip): extract it first")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lab3.zip"]
