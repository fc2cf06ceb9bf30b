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
        for _ in range(600):  # each call is a frame to the grader and back (cap: 500 here)
            try:
                kernelFunc(DTR[:, :1], DTR[:, :1])
            except Exception:
                pass
        return None
""")


def _grade(tmp_path, attacks: dict, timeout: float = 5.0, isolation: str = "auto"):
    paths = []
    for name, code in {"honest": HONEST, **attacks}.items():
        p = tmp_path / f"{name}.py"
        p.write_text(code)
        paths.append(p)
    t0 = time.monotonic()
    reports = grade_all(paths, jobs=2, seed=3, labs=[9], timeout=timeout, isolation=isolation)
    return {Path(r.submission).stem: r for r in reports}, time.monotonic() - t0


@pytest.mark.slow
@pytest.mark.parametrize("kind", sandbox.ISOLATIONS)
def test_a_child_that_stops_reading_fails_its_task_within_the_time_limit(tmp_path, kind):
    if sandbox.available(kind) is not None:
        pytest.skip(f"isolation {kind}: {sandbox.available(kind)}")
    # a 2.5 s limit per task: the honest file's lab 9 tasks take 0.03 s each (measured), and the
    # attack is failed when the limit runs out, whatever it is
    reports, seconds = _grade(tmp_path, {"stops_reading": STOPS_READING}, timeout=2.5,
                              isolation=kind)
    assert reports["honest"].score == reports["honest"].max_score
    r = {x.name: x for x in reports["stops_reading"].results}["train_dual_SVM_kernel"]
    assert r.status == "failed" and "stopped reading the grader's requests" in r.message, r
    assert seconds < 60  # the task's 2.5 s limit, the other tasks and the honest file: not hung


@pytest.mark.slow
def test_frames_are_capped_per_task(tmp_path, monkeypatch):
    monkeypatch.setattr(channel, "MAX_FRAMES", 500)  # the grader's side: this process
    reports, _ = _grade(tmp_path, {"floods": TOO_MANY_FRAMES}, timeout=30.0)
    assert reports["honest"].score == reports["honest"].max_score
    svm = {x.name: x for x in reports["floods"].results}["train_dual_SVM_kernel"]
    assert svm.status == "failed" and "more than 500 frames" in svm.message


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


def test_a_folder_chain_deeper_than_any_stack_is_removed(tmp_path):
    """remove_tree walks without recursion: a 1,500-deep chain (deeper than Python's recursion
    limit and PATH_MAX), a folder its owner made unreadable, and a link to a file outside,
    which is removed and not followed."""
    import os

    from mlpr.grading import leftovers

    outside = tmp_path / "outside.txt"
    outside.write_text("keep me")
    top = tmp_path / "sandbox"
    top.mkdir()
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    for i in range(1500):
        os.mkdir("d", dir_fd=fd)
        if i == 700:
            os.symlink(str(outside), "link", dir_fd=fd)
            (open(f"/proc/self/fd/{fd}/f.txt", "w")).close()
        nxt = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = nxt
    os.close(fd)
    (top / "locked").mkdir()
    (top / "locked" / "x").write_text("x")
    (top / "locked").chmod(0)
    assert leftovers.remove_folder(top) == ""
    assert not top.exists() and outside.read_text() == "keep me"


def test_the_copier_leaves_out_folders_past_its_depth(tmp_path):
    import os
    import subprocess
    import sys

    from mlpr.grading import stage

    sub = tmp_path / "sub"
    (sub / "lab3").mkdir(parents=True)
    (sub / "lab3" / "labs.py").write_text("x = 1\n")
    deep = sub
    for _ in range(300):
        deep = deep / "d"
    os.makedirs(deep)
    dest = tmp_path / "copy"
    r = subprocess.run([sys.executable, "-I", "-S", stage.__file__, str(sub), str(dest),
                        str(1 << 20), "10000"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    notes = json.loads(r.stdout.strip().splitlines()[-1])["notes"]
    assert any(f"more than {stage.MAX_DEPTH} folders deep" in n for n in notes), notes
    assert (dest / "lab3" / "labs.py").read_text() == "x = 1\n"


def test_a_correct_logistic_regression_is_within_its_excess_bound():
    """Second method: the labs' L-BFGS-B (scipy's defaults) under 40 roundings of the iris
    quadratic features stops above the minimum by at most the gradient's strong-convexity bound;
    a point of a wrong objective (the regulariser not divided by N, so N times lambda) has a
    gradient of the right one above the kit's tolerance, so no bound widens its tolerance."""
    import numpy as np

    from mlpr.datasets import load_iris_binary
    from mlpr.grading.course import lab08, optim
    from mlpr.logreg import expand_quadratic, logreg_obj_wrap, train_logreg_binary
    from mlpr.utils import split_db_2to1

    D, L = load_iris_binary()
    (DTR, LTR), _ = split_db_2to1(D, L, seed=0)
    X = expand_quadratic(DTR)
    best = train_logreg_binary(X, LTR, 1e-3).objective
    rng = np.random.default_rng(2)
    ratios = []
    for _ in range(40):
        w, b, J = lab08.labs_logreg(X, LTR, 1e-3, None, rng)
        ratios.append((J - best) / lab08.excess_bound(X, LTR, 1e-3, w, b))
    assert max(ratios) < 0.05, max(ratios)  # measured 0.005 at most
    wrong = train_logreg_binary(X, LTR, 1e-3 * LTR.size)
    g = logreg_obj_wrap(X, LTR, 1e-3)(np.append(wrong.w, wrong.b))[1]
    assert np.abs(g).max() > 10 * optim.GRAD_TOL  # measured 0.023
    assert lab08.logreg_reach(train_logreg_binary, (X, LTR, 1e-3), {}, None, out=wrong) == 0


HANGS = textwrap.dedent("""
    import time

    def _hang(*args, **kwargs):
        while True:
            time.sleep(0.1)

    logpdf_GAU_ND = logpdf_GAU_ND_fast = logpdf_GAU_ND_slow = _hang
    logpdf_GAU_ND_singleSample = compute_ll = k_means = _hang
""")


@pytest.mark.slow
def test_a_submission_that_hangs_everywhere_is_held_to_its_budget(tmp_path):
    """Six tasks that each hang, a 1 s time limit, a 2.5 s budget: the first tasks fail as
    hanging, the others are not graded and say why, and the grading ends within the budget plus
    one task and its re-import."""
    (tmp_path / "hangs.py").write_text(HANGS)
    t0 = time.monotonic()
    rep = runner.grade(tmp_path / "hangs.py", labs=[4], timeout=1.0, budget=2.5,
                       isolation=sandbox.choose())
    seconds = time.monotonic() - t0
    status = [r.status for r in rep.results]
    assert status.count("failed") >= 1 and "not graded" in status, status
    assert all(r.message == "not graded: the submission's time budget ran out"
               for r in rep.results if r.status == "not graded")
    assert rep.score == 0 and seconds < 20, seconds


FILLS_THE_DISK = textwrap.dedent("""
    import os

    def logpdf_GAU_ND(X, mu, C):
        here = os.getcwd()
        for where in (os.path.join(here, "..", ".."), here):  # the grader's TMPDIR, its folder
            for size in (1 << 20, 4096, 1):  # to the last byte
                for i in range(1000):
                    try:
                        with open(os.path.join(where, f"fill{size}-{i}"), "wb",
                                  buffering=0) as f:
                            for _ in range(32):
                                f.write(b"0" * size)
                    except OSError:
                        break
        return None
""")


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["user", "process"])
def test_one_submissions_disk_use_never_fails_a_classmate(tmp_path, kind, monkeypatch):
    """The grader's TMPDIR a 64 MB tmpfs (as a small /tmp is); a submission fills that TMPDIR
    and its own folder (its tasks fail, no kit error), and what a classmate running beside it
    would leave is emulated by filling TMPDIR to its last byte: the honest submission graded
    then keeps full marks, since each submission's folder is a file system of its own (without
    it, its staging fails with 'No space left on device': checked)."""
    import os
    import subprocess
    import tempfile

    if os.geteuid() != 0 or sandbox.available(kind) is not None:
        pytest.skip(f"a tmpfs of its own needs root; isolation {kind}: "
                    f"{sandbox.available(kind)}")
    small = Path(tempfile.mkdtemp(prefix="mlpr-small-tmpdir-", dir="/tmp"))
    small.chmod(0o755)  # the sandbox's user traverses it, as it does /tmp
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m,mode=1777", "tmpfs", str(small)],
                   check=True)
    try:
        monkeypatch.setattr(tempfile, "tempdir", str(small))
        assert "disk: 512 MB for its folder (a tmpfs of its own)" in sandbox.describe(kind)
        files = {"filler": FILLS_THE_DISK, "honest": HONEST}
        paths = []
        for name, code in files.items():
            (tmp_path / f"{name}.py").write_text(code)
            paths.append(tmp_path / f"{name}.py")
        filler, = grade_all(paths[:1], seed=1, labs=[4], isolation=kind, timeout=30.0)
        assert filler.score == 0 and not any(r.status == "error" for r in filler.results)
        for size in (1 << 20, 4096, 1):  # what the filler's freed folder gave back, taken
            for i in range(1000):
                try:
                    with open(small / f"left{size}-{i}", "wb", buffering=0) as f:
                        for _ in range(64):
                            f.write(b"0" * size)
                except OSError:
                    break
        honest, = grade_all(paths[1:], seed=1, labs=[4], isolation=kind, timeout=30.0)
        assert honest.score == honest.max_score, [r.message for r in honest.results]
        # this run's per-submission file systems (under its TMPDIR) are released; another
        # worker's grading at the same moment mounts its own elsewhere
        assert f"{small}/mlpr-grading" not in subprocess.run(["mount"], capture_output=True,
                                                             text=True).stdout
    finally:
        subprocess.run(["umount", "-l", str(small)])
        small.rmdir()


def test_arrays_cross_as_checked_raw_bytes():
    """The codec's arrays: every numeric dtype, shape (0-d, empty, non-contiguous, big-endian)
    and a writable copy come back equal; a dtype outside the list, a shape that does not match
    the bytes, a negative dimension or a missing blob is refused with the reason."""
    import numpy as np

    from mlpr.grading.child import wire

    for a in (np.arange(6.0).reshape(2, 3), np.array([True, False]), np.zeros((0, 3)),
              np.array(5), np.arange(3, dtype=">i4"), np.arange(12.0).reshape(3, 4)[:, ::2],
              np.ones(3, dtype=np.float32)):
        b = wire.round_trip(a)
        assert b.shape == a.shape and b.dtype.kind == a.dtype.kind and np.array_equal(a, b)
        assert b.flags.writeable
    blobs = [b"\x00" * 8]
    for bad, match in (([0, "|O", [1]], "not an array of plain data"),
                       ([0, "<f8", [2]], "is not 8 bytes"),
                       ([0, "<f8", [-1]], "not an array of plain data"),
                       ([3, "<f8", [1]], "not an array of plain data"),
                       (0, "not an array of plain data")):
        with pytest.raises(ValueError, match=match):
            wire.decode({"$a": bad}, blobs)


def test_the_live_processes_of_a_user_id_leave_out_zombies():
    """`leftovers.live_processes_of`, which the user isolation sweeps with its kills until it
    is empty: this process is live; a child that exited and is not yet reaped is a zombie."""
    import os
    import time

    from mlpr.grading import leftovers
    assert os.getpid() in leftovers.live_processes_of(os.getuid())
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    deadline = time.monotonic() + 5
    while pid in leftovers.live_processes_of(os.getuid()) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert pid not in leftovers.live_processes_of(os.getuid())
    os.waitpid(pid, 0)
