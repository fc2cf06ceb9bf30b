"""The sandbox's staging and limits: submissions that attack the copy of their files, their
memory budget and the shared folders, each graded beside an honest course-style one.

Staging follows no link out of a submission (a classmate's file, mlpr, ``/etc/shadow``,
``/proc/self/environ``, ``/dev/zero``), copies no device or FIFO, survives a dangling link, and
stops at its caps, each with a note; a link inside the submission is copied as its target. A
submission that forks is held to its memory budget in total, under every isolation where the
report says so; under ``user``, what its user id leaves in world-writable folders is removed and
nothing of another user's is. The honest submission keeps full marks in every run.
"""

import ast
import os
import re
import secrets
import stat
import time
from pathlib import Path

import pytest

import mlpr
from mlpr.grading import formats, leftovers, limits, sandbox
from mlpr.grading.__main__ import grade_all
from mlpr.grading.runner import CHILD

REPO = Path(__file__).resolve().parents[1]
HONEST = (REPO / "tests" / "grading_submissions" / "course_style.py").read_text()
LAB4 = 6  # the tasks (one point each) of lab 4
MLPR_DIR = Path(mlpr.__file__).resolve().parent
ROOT = os.geteuid() == 0

#: A wrong log-density: what the attacks' own code earns (nothing)
GARBAGE = """
import os
import numpy as np

def logpdf_GAU_ND(X, mu, C):
    return -0.5 * (((X - mu) ** 2).sum(0))
"""

#: Prints what it finds of the secrets its links point to, inside a graded function
READ_SECRETS = GARBAGE + """
def compute_ll(X, m, C):
    here = os.path.dirname(os.path.abspath(__file__))
    found = []
    for name in ("shadow.txt", "environ.txt", "zero.bin"):
        try:
            with open(os.path.join(here, name), "rb") as f:
                found.append(f"{name}: {f.read(200)!r}")
        except OSError as exc:
            found.append(f"{name}: missing ({type(exc).__name__})")
    print("; ".join(found))
    return 0.0
"""

#: Calls mlpr's function, imported when called (the import hook refuses it; the link is not there)
USE_MLPR = """
def compute_ll(X, m, C):
    from mlpr.gaussian import loglikelihood
    return loglikelihood(X, m, C)
"""


def _isolation_or_none(kind: str):
    """The isolation ``kind`` when this machine has it; else check that demanding it fails
    and return None (as tests/test_grading_trust.py does: "user" needs root and setpriv)."""
    if sandbox.available(kind) is None:
        return kind
    with pytest.raises(ValueError, match=f"isolation '{kind}' is not available"):
        sandbox.choose(kind)
    return None


def _folder(root: Path, files: dict) -> Path:
    """A folder ``root`` with ``files`` {relative name: text, or ("link", target), or "fifo",
    or "device"}."""
    for name, what in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(what, tuple):
            os.symlink(what[1], p)
        elif what == "fifo":
            os.mkfifo(p)
        elif what == "device":
            if ROOT:  # /dev/zero's numbers
                os.mknod(p, 0o644 | stat.S_IFCHR, os.makedev(1, 5))
        else:
            p.write_text(what)
    return root


def _texts(reports) -> str:
    return formats.format_text(reports) + formats.format_json(reports)


def _our_groups() -> list:
    """The cgroups this process made for submissions that still exist."""
    hierarchy, _ = limits.cgroups()
    if hierarchy is None:
        return []
    return [d for parent in hierarchy.parents.values()
            for d in parent.glob(f"mlpr-grading-{os.getpid()}-*")]


def _processes_of(uids) -> list:
    """The live processes of the user ids ``uids`` (a zombie, dead and waiting for its parent,
    holds no memory)."""
    out = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        uid = int(re.search(r"^Uid:\s+(\d+)", status, re.M).group(1))
        if uid in uids and not re.search(r"^State:\s+Z", status, re.M):
            out.append(pid)
    return out


# ------------------------------------------------------------------------------------------------
# staging


def test_staging_copies_no_link_out_no_device_no_fifo(tmp_path):
    """The copy itself, under each isolation: what is copied, who owns it, and the notes."""
    (tmp_path / "classmate.py").write_text("SECRET_OF_A_CLASSMATE = 1\n")
    sub = _folder(tmp_path / "sub", {
        "lab4.py": "x = 1\n",
        "pkg/helper.py": "y = 2\n",
        "pkg/same.py": ("link", "helper.py"),  # inside: its target copied
        "alias": ("link", "pkg"),  # a folder inside: copied as a folder
        "pkg/up": ("link", ".."),  # the folder that holds it: a loop
        "classmate.py": ("link", "../classmate.py"),
        "mlpr": ("link", str(MLPR_DIR)),
        "shadow.txt": ("link", "/etc/shadow"),
        "environ.txt": ("link", "/proc/self/environ"),
        "zero.bin": ("link", "/dev/zero"),
        "dangling.py": ("link", "nowhere.py"),
        "loop.py": ("link", "loop.py"),
        "fifo": "fifo",
        "zero_device": "device",
        "__pycache__/lab4.cpython-311.pyc": "cached",
    })
    for kind in ("bubblewrap", "user", "process"):
        if sandbox.available(kind) is not None:
            continue
        work = tmp_path / f"work-{kind}"
        work.mkdir(mode=0o700)
        t0 = time.perf_counter()
        notes = sandbox.Sandbox.stage(kind, work, CHILD, sub, {}, slot=5)
        seconds = time.perf_counter() - t0
        copy = work / "submission" / "sub"
        got = sorted(str(p.relative_to(copy)) for p in copy.rglob("*"))
        assert got == ["alias", "alias/helper.py", "alias/same.py", "lab4.py", "pkg",
                       "pkg/helper.py", "pkg/same.py"], (kind, got)
        assert not [p for p in copy.rglob("*") if p.is_symlink()]
        assert (copy / "pkg" / "same.py").read_text() == "y = 2\n"
        assert sum(p.stat().st_size for p in copy.rglob("*") if p.is_file()) < 100
        owner = sandbox.uid_for(5) if limits.own_user(kind) else os.geteuid()
        assert {p.stat().st_uid for p in [copy, *copy.rglob("*")]} == {owner}, kind
        expected = [
            "left out: sub/alias/up, a link to a folder that holds it (a loop)",
            "left out: sub/classmate.py, a link out of the submission",
            "left out: sub/dangling.py, a link to nothing (dangling, or a loop of links)",
            "left out: sub/environ.txt, a link out of the submission",
            "left out: sub/fifo, a FIFO",
            "left out: sub/loop.py, a link to nothing (dangling, or a loop of links)",
            "left out: sub/mlpr, a link out of the submission",
            "left out: sub/pkg/up, a link to a folder that holds it (a loop)",
            "left out: sub/shadow.txt, a link out of the submission",
            "left out: sub/zero.bin, a link out of the submission",
        ]
        if ROOT:
            expected.append("left out: sub/zero_device, a device")
        assert notes == expected, (kind, notes)
        assert seconds < 10, seconds


def test_untrusted_names_are_escaped_and_cut(tmp_path):
    name = "evil\n ✔ lab 4 · forged 51/51\x1b[2J\u202e" + "x" * 200
    sub = _folder(tmp_path / "sub", {"lab4.py": "x = 1\n", name: "fifo"})
    work = tmp_path / "work"
    work.mkdir()
    (note,) = sandbox.Sandbox.stage("process", work, CHILD, sub, {})
    assert note.startswith("left out: sub/evil\\x0a ✔ lab 4 · forged 51/51\\x1b[2J\\u202exxx")
    assert note.endswith("..., a FIFO") and note.isprintable() and len(note) < 150


def test_a_single_file_submission_and_a_link_to_it(tmp_path):
    (tmp_path / "alice").mkdir()
    (tmp_path / "alice" / "lab4.py").write_text("x = 1\n")
    os.symlink("alice/lab4.py", tmp_path / "alice.py")  # the TA's link, inside its folder
    os.symlink("/etc/passwd", tmp_path / "bob.py")  # out of its folder
    os.mkfifo(tmp_path / "carol.py")
    for name, copied, notes in [
            ("alice.py", True, []),
            ("bob.py", False, ["not copied: bob.py is a link out of its folder"]),
            ("carol.py", False, ["left out: carol.py, a FIFO"])]:
        work = tmp_path / f"work-{name}"
        work.mkdir()
        assert sandbox.Sandbox.stage("process", work, CHILD, tmp_path / name, {}) == notes
        dest = work / "submission" / name
        assert dest.exists() == copied and not dest.is_symlink()
        if copied:
            assert dest.read_text() == "x = 1\n"


def test_the_copier_imports_nothing_of_mlpr():
    tree = ast.parse(sandbox.STAGER.read_text())
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert imported == {"errno", "json", "os", "stat", "sys"}


@pytest.fixture(scope="module", params=["bubblewrap", "user"])
def staged_class(request, tmp_path_factory):
    """A class graded under one isolation: the honest submission, and folders whose links,
    devices, FIFOs and sizes attack the copy (the caps lowered for the run)."""
    kind = request.param
    d = tmp_path_factory.mktemp(f"staged-{kind}")
    honest = d / "honest.py"
    honest.write_text(HONEST)
    subs = {
        "a classmate's file": _folder(d / "classmate", {"lab4.py": ("link", "../honest.py")}),
        "mlpr": _folder(d / "uses_mlpr", {
            "lab4.py": GARBAGE + USE_MLPR, "mlpr": ("link", str(MLPR_DIR))}),
        "secrets": _folder(d / "secrets", {
            "lab4.py": READ_SECRETS, "shadow.txt": ("link", "/etc/shadow"),
            "environ.txt": ("link", "/proc/self/environ"), "zero.bin": ("link", "/dev/zero")}),
        "junk beside honest code": _folder(d / "junk", {
            "impl/solution.txt": HONEST, "lab4.py": ("link", "impl/solution.txt"),
            "data.bin": ("link", "/dev/zero"), "dangling.py": ("link", "gone.py"),
            "fifo": "fifo", "zero": "device"}),
        "past the byte cap": _folder(d / "big", {
            "lab4.py": HONEST, "a_data.bin": "0" * 300_000, "b_data.bin": "1" * 300_000}),
        "past the entry cap": _folder(d / "many", {
            "lab4.py": HONEST, **{f"z_{i:03d}.txt": "x" for i in range(60)}}),
    }
    if _isolation_or_none(kind) is None:
        return None
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sandbox, "STAGE_MAX_BYTES", 400_000)
        mp.setattr(sandbox, "STAGE_MAX_ENTRIES", 40)
        t0 = time.perf_counter()
        reports = grade_all([honest, *subs.values()], jobs=2, seed=11, labs=[4], isolation=kind,
                            timeout=20.0)
        seconds = time.perf_counter() - t0
    return {"honest": reports[0], "subs": dict(zip(subs, reports[1:])), "seconds": seconds,
            "kind": kind}


@pytest.mark.slow
def test_staging_attacks_earn_nothing_and_the_honest_keeps_full_marks(staged_class):
    if staged_class is None:
        return
    c = staged_class["subs"]
    assert staged_class["honest"].score == LAB4, formats.format_text([staged_class["honest"]])
    assert all(r.isolation == staged_class["kind"] for r in c.values())
    for name in ("a classmate's file", "mlpr", "secrets"):
        assert c[name].score == 0, formats.format_text([c[name]])
    assert re.search("holds no .py module|defines no function",
                     c["a classmate's file"].notes[0])
    assert "left out: uses_mlpr/mlpr, a link out of the submission" in c["mlpr"].notes
    printed = {r.name: r.printed for r in c["secrets"].results}["compute_ll"]
    assert printed == ("shadow.txt: missing (FileNotFoundError); environ.txt: missing "
                       "(FileNotFoundError); zero.bin: missing (FileNotFoundError)")
    assert staged_class["seconds"] < 60


@pytest.mark.slow
def test_no_secret_reaches_the_report(staged_class):
    if staged_class is None:
        return
    text = _texts([staged_class["honest"], *staged_class["subs"].values()])
    shadow = Path("/etc/shadow").read_text().splitlines()[0] if ROOT else "root:"
    environ = Path(f"/proc/{os.getpid()}/environ").read_bytes().split(b"\0")
    assert shadow not in text
    assert not [e for e in environ if len(e) > 12 and e.decode(errors="replace") in text]


@pytest.mark.slow
def test_the_run_goes_on_past_junk_with_a_note_for_each(staged_class):
    if staged_class is None:
        return
    rep = staged_class["subs"]["junk beside honest code"]
    assert rep.score == LAB4, formats.format_text([rep])
    for note in ["left out: junk/data.bin, a link out of the submission",
                 "left out: junk/dangling.py, a link to nothing (dangling, or a loop of links)",
                 "left out: junk/fifo, a FIFO"] + (["left out: junk/zero, a device"] * ROOT):
        assert note in rep.notes, rep.notes


def test_the_caps_bind_with_a_note(staged_class):
    if staged_class is None:
        return
    big, many = (staged_class["subs"][k] for k in ("past the byte cap", "past the entry cap"))
    assert big.score == many.score == LAB4
    assert ("the copy of the submission holds at most 400000 bytes: 1 file(s) left out, the "
            "first big/b_data.bin (300000 bytes)") in big.notes, big.notes
    assert ("the copy of the submission looks at most 40 entries: the rest is left out, from "
            "many/z_039.txt on") in many.notes, many.notes


# ------------------------------------------------------------------------------------------------
# memory per submission

#: Forks 3 children; each of the 4 processes touches BLOCK_MB, holds it while the others do, and
#: the parent prints how many held their block at once
FORKER = """
import os
import select
import time

import numpy as np

BLOCK_MB = @MB@
CHILDREN = 3


def logpdf_GAU_ND(X, mu, C):
    r, w = os.pipe()
    pids, failed = [], 0
    for _ in range(CHILDREN):
        try:
            pid = os.fork()
        except OSError:
            failed += 1
            continue
        if pid == 0:
            os.close(r)
            try:
                block = np.ones(BLOCK_MB << 17)
                os.write(w, b"1")
                time.sleep(30)
            finally:
                os._exit(0)
        pids.append(pid)
    os.close(w)
    try:
        block = np.ones(BLOCK_MB << 17)
        held = 1
    except MemoryError:
        held = 0
    deadline = time.time() + 6
    ready = 0
    while ready < len(pids) and select.select([r], [], [], max(0, deadline - time.time()))[0]:
        if not os.read(r, 1):
            break
        ready += 1
    time.sleep(0.5)
    alive = sum(os.waitpid(p, os.WNOHANG) == (0, 0) for p in pids)
    print(f"held {held + alive} blocks at once; {failed} forks failed")
    for p in pids:
        try:
            os.kill(p, 9)
            os.waitpid(p, 0)
        except OSError:
            pass
    return np.zeros(X.shape[1])
"""

#: The honest submission, importing what the labs import (under the lowered per-process limit)
HONEST_WITH_PLOTS = "import matplotlib.pyplot\nimport scipy.stats\nimport sklearn\n" + HONEST


def _held(rep):
    """How many 300 MB blocks the forker's processes held at once (0 when it was killed)."""
    r = {r.name: r for r in rep.results}["logpdf_GAU_ND"]
    m = re.match(r"held (\d+) blocks at once", r.printed or "")
    if m is None:  # the harness itself was killed: by the OOM killer of its cgroup
        assert "killed by signal 9" in r.message or "status 137" in r.message, r.message
        return 0
    return int(m.group(1))


def _grade_forker(tmp_path, kind, limits, block_mb=300):
    honest = tmp_path / "honest.py"
    honest.write_text(HONEST_WITH_PLOTS)
    forker = tmp_path / "forker.py"
    forker.write_text(FORKER.replace("@MB@", str(block_mb)))
    return grade_all([honest, forker], jobs=2, seed=13, labs=[4], isolation=kind,
                     limits=limits, timeout=30.0)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["bubblewrap", "user", "process"])
def test_a_forking_submission_is_held_to_its_budget_in_total(tmp_path, kind):
    """4 processes of 300 MB against a budget of 512 MB: at most one holds its block at once
    where the report says the budget holds in total (a cgroup, or split rlimits)."""
    if _isolation_or_none(kind) is None:
        return
    limits = sandbox.Limits(memory_mb=512)
    honest, forker = _grade_forker(tmp_path, kind, limits)
    assert honest.score == LAB4, formats.format_text([honest])
    rule = sandbox.memory_rule(kind, limits)
    assert rule.text in sandbox.describe(kind, limits)
    if rule.cgroup or rule.processes:  # in total: a cgroup, or n processes of 512 / n MB
        assert _held(forker) <= 1
    else:  # plain rlimits, as the report says
        assert "processes not bounded" in rule.text
    assert _our_groups() == []
    assert _processes_of({sandbox.uid_for(0), sandbox.uid_for(1)}) == []


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["bubblewrap", "user"])
def test_without_a_cgroup_the_budget_is_split_between_processes(tmp_path, kind, monkeypatch):
    """No cgroup: n processes of memory_mb / n each. 512 MB: 1 process (the forks fail);
    4096 MB: 4 of 1024 MB, under which numpy, scipy, matplotlib and scikit-learn import."""
    if _isolation_or_none(kind) is None:
        return
    monkeypatch.setattr(limits, "cgroups", lambda: (None, "none, for the test"))
    if not limits.own_user(kind):  # bubblewrap without root: plain rlimits
        assert "processes not bounded" in sandbox.memory_rule(kind).text
        return
    rule = sandbox.memory_rule(kind, sandbox.Limits(memory_mb=512))
    assert (rule.per_process_mb, rule.processes, rule.cgroup) == (512, 1, None)
    assert sandbox.memory_rule(kind).text == ("memory: 1024 MB per process, at most 4 "
                                              "processes (4096 MB in all; setrlimit, no cgroup)")
    honest, forker = _grade_forker(tmp_path, kind, sandbox.Limits(memory_mb=512))
    assert honest.score == LAB4, formats.format_text([honest])
    r = {r.name: r for r in forker.results}["logpdf_GAU_ND"]
    assert re.fullmatch(r"held [01] blocks at once; 3 forks failed", r.printed), r.printed
    # the default budget: the honest file alone (what the forker does under it, each of its
    # processes within 1024 MB, is no question of this test)
    (honest,) = grade_all([tmp_path / "honest.py"], jobs=1, seed=13, labs=[4], isolation=kind,
                          limits=sandbox.Limits(), timeout=30.0)
    assert honest.isolation == kind and honest.score == LAB4, formats.format_text([honest])


@pytest.mark.slow
def test_the_per_process_rule_alone_lets_a_fork_hold_more(tmp_path, monkeypatch):
    """The control: with the former rule (512 MB per process, 64 processes, no cgroup) the same
    submission holds its 4 blocks at once, 1200 MB against its 512 MB, so the tests above can
    fail."""
    kind = _isolation_or_none("bubblewrap")
    if kind is None:
        return
    monkeypatch.setattr(limits, "cgroups", lambda: (None, "none, for the test"))
    monkeypatch.setattr(sandbox, "memory_rule", lambda kind, lim=None: limits.MemoryRule(
        512, 64 if limits.own_user(kind) else None, None, "per process"))
    _, forker = _grade_forker(tmp_path, kind, sandbox.Limits(memory_mb=512))
    assert _held(forker) == 4


# ------------------------------------------------------------------------------------------------
# files left behind

LEAVE_FILES = GARBAGE + """
import ctypes

TOKEN = "@TOKEN@"
SHARED = "@SHARED@"


def compute_ll(X, m, C):
    def write(path, text="left"):
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "a") as f:
                f.write(text)
        except OSError:
            pass

    for d in ("/tmp", "/var/tmp", "/dev/shm", "/run/lock"):
        write(f"{d}/mlpr-left-{TOKEN}.txt")
    write(f"/tmp/mlpr-left-{TOKEN}-dir/a/b/c.txt")
    write(f"{SHARED}/mine.txt")
    write(f"{SHARED}/root.txt", " appended by the submission")
    try:
        os.chmod(f"/tmp/mlpr-left-{TOKEN}-dir/a", 0)
        os.symlink(f"{SHARED}/root.txt", f"/tmp/mlpr-left-{TOKEN}-link")
        os.symlink("/tmp", f"{SHARED}/link-to-tmp")
    except OSError:
        pass
    try:  # a System V shared memory segment, which outlives its process
        ctypes.CDLL(None).shmget(0, 1 << 20, 0o1600)
    except Exception:
        pass
    return 0.0
"""


def _shm_segments(uid: int) -> list:
    lines = Path("/proc/sysvipc/shm").read_text().splitlines()[1:]
    return [ln for ln in lines if int(ln.split()[7]) == uid]


@pytest.mark.parametrize("kind", ["user", "bubblewrap"])
def test_files_left_in_world_writable_folders_are_removed(tmp_path, kind):
    """Under ``user`` its files in /tmp, /var/tmp, /dev/shm, /run/lock and a world-writable
    folder of another user are removed, links without their targets, another user's file kept;
    under bubblewrap they never reach the machine's folders."""
    if _isolation_or_none(kind) is None:
        return
    token = secrets.token_hex(6)
    shared = Path(f"/tmp/mlpr-shared-{token}")  # another user's (root's) world-writable folder
    shared.mkdir()
    try:
        shared.chmod(0o777)
        (shared / "root.txt").write_text("root's")
        (shared / "root.txt").chmod(0o666)
        honest = tmp_path / "honest.py"
        honest.write_text(HONEST)
        leaver = tmp_path / "leaver.py"
        leaver.write_text(LEAVE_FILES.replace("@TOKEN@", token).replace("@SHARED@", str(shared)))
        reports = grade_all([honest, leaver], jobs=2, seed=17, labs=[4], isolation=kind)
        assert reports[0].score == LAB4 and reports[1].score == 0
        left = [str(p) for d in ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")
                for p in Path(d).glob(f"mlpr-left-{token}*")]
        assert left == []
        assert sorted(p.name for p in shared.iterdir()) == ["root.txt"]
        root_txt = (shared / "root.txt").read_text()
        assert root_txt == ("root's appended by the submission" if kind == "user" else "root's")
        assert (shared / "root.txt").stat().st_uid == os.geteuid()
        assert _shm_segments(sandbox.uid_for(0)) == _shm_segments(sandbox.uid_for(1)) == []
    finally:
        for p in sorted(shared.rglob("*"), reverse=True):
            p.unlink() if not p.is_dir() or p.is_symlink() else p.rmdir()
        shared.rmdir()


def test_removing_left_files_follows_no_link_and_spares_other_users(tmp_path):
    """`remove_left_files` on a hand-made tree: the user's files, folders and links go (even in
    a folder it made unreadable); another user's file, a link's target, and the kept folder
    stay."""
    if not ROOT:  # no file of another user's can be made: none of the grader's own is removed
        (tmp_path / "mine.txt").write_text("x")
        assert leftovers.remove_left_files(4242, roots=[str(tmp_path)]) == 0
        assert (tmp_path / "mine.txt").exists()
        return
    uid = 4242
    root = tmp_path / "tmp"
    root.mkdir(mode=0o777)
    root.chmod(0o1777)
    victim = tmp_path / "victim.txt"
    victim.write_text("not the user's")
    made = {"own.txt": "f", "own_dir/deep/x.txt": "f", "own_dir/deep": "d", "own_dir": "d",
            "keep/work.txt": "f", "keep": "d", "shared/own.txt": "f"}
    for name in ("shared", "own_dir/deep", "keep"):
        (root / name).mkdir(parents=True)
    (root / "shared").chmod(0o777)
    for name, what in made.items():
        if what == "f":
            (root / name).write_text("x")
    (root / "shared" / "other.txt").write_text("another user's")
    os.symlink(victim, root / "link_to_victim")
    os.symlink(tmp_path, root / "own_dir" / "link_to_parent")
    for name in [*made, "link_to_victim", "own_dir/link_to_parent"]:
        os.lchown(root / name, uid, uid)
    (root / "own_dir").chmod(0)
    removed = leftovers.remove_left_files(uid, keep=root / "keep", roots=[str(root)])
    assert removed == 7
    assert sorted(str(p.relative_to(root)) for p in root.rglob("*")) == [
        "keep", "keep/work.txt", "shared", "shared/other.txt"]
    assert victim.read_text() == "not the user's" and tmp_path.exists()
