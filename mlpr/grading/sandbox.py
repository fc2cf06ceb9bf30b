"""Where a submission's process runs: bubblewrap, an unprivileged user, or a plain child process.

Three isolations, the strongest available chosen by default (``--isolation`` demands one, and the
run fails when it is not available); the report names the one that applied.

``bubblewrap``
    Debian's ``bwrap`` (the sandbox Flatpak uses). The process gets its own PID, network, IPC
    and UTS namespaces (everything it starts dies with it; no network); a file system of its own
    that is read-only except a size-limited private ``/tmp``, and that holds the system's
    ``/usr`` and ``/etc``, the Python installation with mlpr's files left out, the harness, the
    submission and the course's data files, and nothing else of the grader's (not mlpr's source,
    not the other submissions). Run as root, it also drops to a user id of its own (so that the
    process limit binds and no file of the grader's is writable).
``user``
    Without bubblewrap, as root: the process runs under a user id of its own in a temporary
    folder only that user can read, with the limits below; when it ends, every process of that
    user is killed. It can read what any user can (mlpr's source included) and reach the network.
``process``
    A plain child process in a temporary folder with the limits below, in a session of its own
    that is killed at the end. It runs as the grader's user: this contains mistakes, not malice.

Staging (`Sandbox.stage`) copies the submission into the sandbox's folder with the standalone
copier `mlpr.grading.stage` (``python -I -S stage.py``, nothing of mlpr imported), run as a child
process: under ``user``, and under ``bubblewrap`` when the grader is root, as the sandbox's user
id with only the capability to read any file (``CAP_DAC_READ_SEARCH``: it reads the submission
wherever the TA keeps it, writes nothing but its own copy); under ``process`` (and bubblewrap
without root) as the grader. Under every isolation it follows no link out of the submission:

- a regular file or a folder is copied; every file is opened with ``O_NOFOLLOW | O_NONBLOCK``
  relative to its folder and read only when ``fstat`` says it is a regular file;
- a link whose target lies inside the submission is replaced by a copy of its target (a file, or
  a folder that does not hold the link); a link out of the submission (a classmate's file,
  mlpr, ``/etc/shadow``, ``/proc/self/environ``, ``/dev/zero``), a dangling link, a loop, a
  device, a FIFO, a socket, a mount point are left out, each with a note on the report ("left
  out: sub/x.py, a link out of the submission"; names escaped and cut to 100 characters);
- the copy holds at most `STAGE_MAX_BYTES` (64 MiB) of files and looks at `STAGE_MAX_ENTRIES`
  (10,000) entries, with a note when a cap binds; it stops after `STAGE_TIMEOUT` seconds;
- a single-file submission follows the same rules; its own path is the TA's, followed when it
  is a link to a file in the link's folder or below it;
- ``__pycache__``, ``.git`` and ``*.pyc`` are skipped without a note. A hard link is a regular
  file and is copied: only root can make one to a file its owner cannot read.

Limits: CPU time, file size and core dumps by ``setrlimit`` under every isolation. Memory and
processes per submission, not per process (`memory_rule` says which rule holds; the report's
isolation line repeats it):

- where a cgroup hierarchy with the memory controller is writable (the grader is root, or owns a
  delegated cgroup), each submission's process tree runs in a cgroup of its own, made below the
  grader's own cgroup (so the grader's own limits still hold) and entered between fork and exec,
  before the harness runs: cgroup v2 ``memory.max`` (``memory.swap.max`` 0, ``memory.oom.group``
  1, ``pids.max``), or cgroup v1 ``memory.limit_in_bytes`` (and ``memory.memsw.limit_in_bytes``)
  with ``pids.max`` of the v1 pids controller when it is mounted. `Limits.memory_mb` then bounds
  all its processes together (the kernel's OOM killer kills one of them when they pass it), under
  every isolation, and `kill` kills every process in the cgroup (also one that left its
  session) and removes it. ``RLIMIT_AS`` stays at `Limits.memory_mb` per process; the process
  count is bounded by ``pids.max``, or by ``RLIMIT_NPROC`` under a user id of its own. Measured
  (cgroup v1, as root): 3 children and their parent each touching 1500 MB against 4096 MB held
  6088 MB at once with the per-process rlimits alone, 4096 MB (the cgroup's peak) with the
  cgroup, the OOM killer killing the rest.
- without one, under a user id of its own (``user``; ``bubblewrap`` as root): ``RLIMIT_NPROC``
  of n processes and ``RLIMIT_AS`` of memory_mb / n each, n = memory_mb // `PER_PROCESS_MB`
  (1024 MB: numpy, scipy, matplotlib and scikit-learn import within 400 MB of address space)
  between 1 and `Limits.processes`: 4 processes of 1024 MB for the default 4096 MB.
- without one and without a user id of its own (``process``; bubblewrap without root), only
  ``RLIMIT_AS`` per process: the number of processes is not bounded, and a submission that forks
  can hold more than its budget.

Under ``user``, `kill` also removes what the sandbox's user id left in world-writable folders
(`WORLD_WRITABLE`, and world-writable folders one level below ``/``, ``/var``, ``/run``,
``/dev``, ``/srv``, ``/opt``, ``/home``), and every folder below those its user could write:
only entries owned by that user id, never following a link (a link is removed, not its target),
and its System V IPC objects (``ipcrm``). Under bubblewrap its ``/tmp`` is private and dies with
it; under ``process`` files left by the grader's own user id cannot be told apart.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import itertools
import json
import os
import resource
import shutil
import signal
import site
import subprocess
import sys
import time
from pathlib import Path

import mlpr
from mlpr.grading import environment, isolations, limits
from mlpr.grading.limits import Limits, memory_rule, own_user, write

__all__ = ["ISOLATIONS", "Limits", "available", "choose", "describe", "memory_rule", "disk_rule",
           "own_file_system", "release_file_system", "Sandbox",
           "STAGE_MAX_BYTES", "STAGE_MAX_ENTRIES", "STAGE_TIMEOUT",
           "PYTHON_VARIABLE", "submission_python",
           "use_python", "protect", "Reach", "check_reach", "reference_reach"]

#: The isolations' names, strongest first (`mlpr.grading.isolations.TABLE`)
ISOLATIONS = isolations.NAMES
BASE_UID = isolations.BASE_UID
#: Caps of the copy of one submission: bytes of its files, and entries looked at (files, folders,
#: links, ...). A course's labs are a few hundred KB of code and CSV files; a submission past
#: the caps (a dataset, a virtual environment) is copied up to them, with a note.
STAGE_MAX_BYTES = 64 << 20
STAGE_MAX_ENTRIES = 10_000
#: Wall-clock limit of the copy, in seconds (what was copied by then is graded, with a note).
STAGE_TIMEOUT = 120.0
#: The copier: a standalone script that imports nothing of mlpr (`mlpr.grading.stage`).
STAGER = Path(__file__).with_name("stage.py")
_GROUPS = itertools.count()


def uid_for(slot: int) -> int:
    """The user id of this process's sandbox ``slot``."""
    return BASE_UID + (os.getpid() % 50_000) * 64 + slot % 64


def _python_dirs(python: str | None = None) -> list:
    """The folders of the Python installation a submission's interpreter needs: this one's, or
    those of the interpreter ``python`` (`submission_python`)."""
    if python is None or python == sys.executable:
        dirs = {sys.prefix, sys.base_prefix, sys.exec_prefix}
        with contextlib.suppress(AttributeError):
            dirs.update(site.getsitepackages())
    else:
        dirs = set(_installation(python)[0])
    dirs = sorted(str(Path(d).resolve()) for d in dirs if d and Path(d).exists())
    return [d for d in dirs if not any(d != o and d.startswith(o + os.sep) for o in dirs)]


# ------------------------------------------------------------------------------------------------
# the submissions' interpreter, and what it reaches of the reference

#: The environment variable that names the Python running the submissions (``--python`` of
#: ``python -m mlpr.grading`` names it for one run; the autograder's ``run_autograder`` names
#: its submission environment's).
PYTHON_VARIABLE = "MLPR_SUBMISSION_PYTHON"
# this run's choices: `use_python`'s interpreter, `protect`'s paths
_chosen: dict = {"python": None, "protected": ()}
_CLEAN_ENV = {"PATH": "/usr/bin:/bin", "HOME": os.sep, "LANG": "C.UTF-8"}
_INSTALLATION = ("import json, site, sys\nimport numpy\nprint(json.dumps([sys.prefix, "
                 "sys.base_prefix, sys.exec_prefix, *site.getsitepackages()]))")
# run by the submissions' interpreter, as a sandbox's user, with no import hook: where it imports
# mlpr from, and which of the paths given it can read a file of (its last line, as JSON)
_REACH_PROBE = r"""
import json, os, sys

def imports():
    try:
        import mlpr
        if getattr(mlpr, "__file__", None):
            return mlpr.__file__
        import mlpr.utils  # a namespace package: a folder named mlpr, perhaps unreadable
        return mlpr.utils.__file__ or ""
    except Exception:
        return ""

def readable(path, budget=200):
    if os.path.isfile(path):
        files = [path]
    else:
        files = (os.path.join(top, f) for top, _, names in os.walk(path) for f in names)
    for n, f in enumerate(files):
        try:
            with open(f, "rb") as fh:
                fh.read(1)
            return True
        except OSError:
            if n >= budget:
                return False
    return False

print(json.dumps({"imports": imports(), "readable": [p for p in sys.argv[1:] if readable(p)]}))
"""


@functools.cache
def _installation(python: str) -> tuple:
    """``(folders, None)``: the folders of the interpreter ``python``'s installation, for
    bubblewrap to bind; or ``((), reason)`` when it cannot run the harness (numpy)."""
    if not (os.path.isfile(python) and os.access(python, os.X_OK)):
        return (), "is not an executable file"
    try:
        r = subprocess.run([python, "-I", "-c", _INSTALLATION], capture_output=True, text=True,
                           timeout=120, cwd=os.sep, env=_CLEAN_ENV)
        if r.returncode != 0:
            why = (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]
            return (), f"cannot run the harness, which imports numpy ({why})"
        return tuple(json.loads(r.stdout.strip().splitlines()[-1])), None
    except (OSError, subprocess.TimeoutExpired, ValueError, IndexError) as exc:
        return (), f"cannot run the harness ({type(exc).__name__}: {exc})"


def submission_python() -> str:
    """The Python that runs a submission's harness: the one `use_python` named, else
    ``$MLPR_SUBMISSION_PYTHON``, else the submissions' environment when it is built
    (`mlpr.grading.environment`: the course's numpy and scipy, no mlpr), else the grader's own
    (``sys.executable``, whose installation holds mlpr and a newer numpy: a submission that
    removes the harness's import hook then imports the reference). ValueError when the one
    named cannot run the harness."""
    named, source = _chosen["python"], "--python"
    if named is None:
        named, source = os.environ.get(PYTHON_VARIABLE) or None, f"${PYTHON_VARIABLE}"
    if named is None:
        named, source = environment.find(), "the submissions' environment"
    if named is None or named == sys.executable:
        return sys.executable
    python = os.path.abspath(named)
    why = _installation(python)[1]
    if why:
        raise ValueError(f"the Python named to run the submissions ({source}), {python}, {why}")
    return python


def use_python(python=None) -> str:
    """Run this process's submissions with the interpreter ``python`` (not resolved: a virtual
    environment's ``bin/python`` stays one), typically an environment with numpy, scipy,
    matplotlib and scikit-learn and no mlpr; None: back to the default (`submission_python`).
    Returns the interpreter; ValueError, and no change, when it cannot run the harness."""
    before = _chosen["python"]
    _chosen["python"] = None if python is None else os.path.abspath(os.fspath(python))
    try:
        return submission_python()
    except ValueError:
        _chosen["python"] = before
        raise


def protect(*paths) -> None:
    """Name further paths that no submission may read (the autograder's source folder and its
    mlpr wheel): `reference_reach` checks them beside mlpr's own folder. No paths: none."""
    _chosen["protected"] = tuple(dict.fromkeys(os.path.abspath(os.fspath(p)) for p in paths))


@dataclasses.dataclass(frozen=True)
class Reach:
    """What a submission's interpreter, run as a sandbox's user, reaches of the reference:
    ``imports`` the file it imports mlpr from once the import hook is gone ("" when it cannot),
    ``readable`` those of the ``paths`` checked (mlpr's folder, the autograder's source folder and
    wheel) it can read a file of, ``error`` why the check could not run (then nothing holds)."""

    python: str
    paths: tuple
    imports: str = ""
    readable: tuple = ()
    error: str = ""

    @property
    def verified(self) -> bool:
        """True when the reference is out of reach: no import of mlpr, no path readable."""
        return not (self.imports or self.readable or self.error)

    def describe(self) -> str:
        if self.error:
            return (f"the reference may be within reach: the check could not run "
                    f"({self.error})")
        if self.verified:
            return (f"the reference is out of reach: verified (its user cannot import mlpr nor "
                    f"read {', '.join(self.paths)})")
        where = ", ".join(self.readable or (self.imports,))
        also = (f" and its Python imports mlpr ({self.imports}) once the import hook is removed"
                if self.imports else "")
        return (f"mlpr's files are readable by the submission at {where}{also}: only an import "
                f"hook stands in the way, which is not a barrier")


def check_reach(python: str, paths=(), uid: int | None = None) -> Reach:
    """Run ``python`` as the harness runs (``-I``, a clean environment, from ``/``) under the user
    id ``uid`` (a sandbox's; None: the grader's own) without the harness's import hook: does it
    import mlpr, and which of ``paths`` (folders or files) can it read a file of?"""
    paths = tuple(os.fspath(p) for p in paths)
    cmd = [python, "-I", "-c", _REACH_PROBE, *paths]
    if uid is not None:
        cmd = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
               "--no-new-privs", *cmd]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=os.sep,
                           env=_CLEAN_ENV)
        if r.returncode != 0:
            why = (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]
            return Reach(python, paths, error=f"{Path(cmd[0]).name} failed: {why}")
        out = json.loads(r.stdout.strip().splitlines()[-1])
        return Reach(python, paths, str(out["imports"] or ""),
                     tuple(p for p in paths if p in out["readable"]))
    except (OSError, subprocess.TimeoutExpired, ValueError, IndexError, KeyError,
            TypeError) as exc:
        return Reach(python, paths, error=f"{type(exc).__name__}: {exc}")


def _mlpr_folder() -> str:
    """The folder of the grader's own mlpr (the reference)."""
    return str(Path(mlpr.__file__).resolve().parent)


def reference_reach(kind: str = "user") -> Reach:
    """What a submission under the isolation ``kind`` ("user" or "process") reaches of the
    reference, checked once per interpreter and paths (`check_reach`, as a sandbox's user under
    ``user``, as the grader under ``process``): mlpr's folder (this mlpr's, the grader's) and the
    paths of `protect`."""
    if not isolations.get(kind).reach_checked:
        raise ValueError(f"the reach is checked under "
                         f"{', '.join(n for n, i in isolations.TABLE.items() if i.reach_checked)}"
                         f", got {kind!r}")
    paths = (_mlpr_folder(), *_chosen["protected"])
    return _reach(kind, submission_python(), paths)


@functools.cache
def _reach(kind: str, python: str, paths: tuple) -> Reach:
    return check_reach(python, paths, uid_for(0) if isolations.get(kind).own_user() else None)


def _python_line(kind: str) -> str:
    """The end of `describe`'s line: the submissions' Python and its releases, and under
    ``user`` and ``process`` what it reaches of the reference."""
    python = submission_python()
    line = f"; Python {python} ({environment_line(python)})"
    if not isolations.get(kind).reach_checked:
        return line
    return f"{line}; {reference_reach(kind).describe()}"


@functools.cache
def environment_line(python: str) -> str:
    """``Python 3.13.0, numpy 2.2.6, scipy 1.14.1``, and whether that is the course's
    environment (`mlpr.grading.environment`)."""
    v = environment.versions(python)
    if not v:
        return "its releases could not be read"
    found = ", ".join(f"{k} {v[k]}" for k in ("python", "numpy", "scipy") if k in v)
    if python == environment.find():
        return f"the submissions' environment: {found}"
    if python == sys.executable:
        return (f"the grader's own: {found}; make submission-env builds the course's, "
                f"{' '.join(environment.PINS[:2])}")
    return found


def _probe(kind: str) -> str | None:
    """None when ``kind`` works on this machine with the submissions' Python, else the reason it
    does not."""
    return _probe_with(kind, submission_python())


@functools.cache
def _probe_with(kind: str, python: str) -> str | None:
    return isolations.get(kind).probe(python)


def available(kind: str) -> str | None:
    """None when the isolation ``kind`` is available, else the reason it is not."""
    isolations.get(kind)  # ValueError naming the isolations
    return _probe(kind)


def choose(demand: str = "auto") -> str:
    """The isolation to use: the strongest available, or ``demand`` (ValueError when it is not
    available, with the reason)."""
    if demand != "auto":
        why = available(demand)
        if why:
            raise ValueError(f"isolation {demand!r} is not available: {why}")
        return demand
    return next(k for k in ISOLATIONS if available(k) is None)


def describe(kind: str, limits: Limits | None = None) -> str:
    """One line for the report: which isolation applied, what it means, and which memory rule
    holds (`memory_rule`, for ``limits``, by default the default `Limits`)."""
    bwrap = available("bubblewrap") or "available, not chosen"
    return (isolations.get(kind).meaning(bwrap) + f"; {memory_rule(kind, limits).text}"
            + f"; {disk_rule(kind, limits)}" + _python_line(kind))


def disk_rule(kind: str, limits: Limits | None = None) -> str:
    """How the disk a submission writes is bounded under ``kind`` on this machine."""
    lim = limits or Limits()
    if not isolations.get(kind).own_file_system:
        return f"disk: its private /tmp of {lim.tmp_mb} MB, the rest read-only"
    if os.geteuid() == 0 and shutil.which("mount"):
        return f"disk: {lim.disk_mb} MB for its folder (a tmpfs of its own)"
    return ("disk: its folder is on the grader's TMPDIR, bounded per file only (a file system "
            "of its own needs root)")


def own_file_system(workdir: Path, kind: str, limits: Limits) -> str:
    """Mount a tmpfs of ``limits.disk_mb`` on the empty folder ``workdir`` where ``kind`` needs
    one and the grader is root: the submission's disk use then fails only its own grading (a
    full file system there is its doing), never a classmate's. "" when mounted, else why not."""
    if not isolations.get(kind).own_file_system:
        return "not needed"
    if os.geteuid() != 0:
        return "needs root"
    r = subprocess.run(["mount", "-t", "tmpfs", "-o",
                        f"size={limits.disk_mb}m,mode=0700,nosuid,nodev", "tmpfs", str(workdir)],
                       capture_output=True, text=True)
    return "" if r.returncode == 0 else (r.stderr.strip() or f"mount: status {r.returncode}")


def release_file_system(workdir: Path) -> None:
    """Unmount the tmpfs of `own_file_system` (everything in it goes with it)."""
    subprocess.run(["umount", "-l", str(workdir)], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


# ------------------------------------------------------------------------------------------------
# staging, and what a sandbox's user leaves behind

_COPIER_CAPS = ("--inh-caps=-all,+dac_read_search", "--ambient-caps=-all,+dac_read_search",
                "--bounding-set=-all,+dac_read_search")


def _copy(submission: Path, dest: Path, uid: int | None) -> list:
    """Copy ``submission`` to ``dest`` with the copier `mlpr.grading.stage`, as the user ``uid``
    with only ``CAP_DAC_READ_SEARCH`` (None: as the grader): the notes on what it left out.
    RuntimeError when the copier fails (a fault of the kit, not of the submission)."""
    cmd = [sys.executable, "-I", "-S", str(STAGER), os.fspath(submission), os.fspath(dest),
           str(STAGE_MAX_BYTES), str(STAGE_MAX_ENTRIES)]
    if uid is not None:
        cmd = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", *_COPIER_CAPS,
               "--no-new-privs", *cmd]

    def limits():  # in the copier, between fork and exec
        resource.setrlimit(resource.RLIMIT_FSIZE, (STAGE_MAX_BYTES + (1 << 20),) * 2)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    try:
        r = subprocess.run(cmd, capture_output=True, timeout=STAGE_TIMEOUT, cwd=os.sep,
                           env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}, preexec_fn=limits)
    except subprocess.TimeoutExpired:
        return [f"the copy of the submission took longer than {STAGE_TIMEOUT:g} s: what it had "
                f"copied by then is graded"]
    try:
        if r.returncode != 0:
            raise ValueError(f"exit status {r.returncode}")
        notes = json.loads(r.stdout.decode("utf-8", "replace").strip().splitlines()[-1])["notes"]
        return [str(n)[:300] for n in notes][:30]
    except (ValueError, IndexError, KeyError, TypeError) as exc:
        why = (r.stderr.decode("utf-8", "replace").strip().splitlines() or [str(exc)])[-1]
        raise RuntimeError(f"the kit could not copy the submission {submission}: {why}") from None


class Sandbox:
    """One submission's process: ``python -I harness.py SUBMISSION IN_FD OUT_FD`` under the
    isolation ``kind``, in ``workdir`` (prepared by `stage`), as user ``uid_for(slot)``."""

    def __init__(self, kind: str, workdir: Path, submission_name: str, slot: int = 0,
                 limits: Limits | None = None, env: dict | None = None):
        self.kind, self.workdir, self.limits = kind, Path(workdir), limits or Limits()
        self.isolation = isolations.get(kind)
        self.extra_env = dict(env or {})  # the grader's options for the harness
        self.uid = uid_for(slot)
        self.slot = slot
        self.submission_name = submission_name
        self.proc: subprocess.Popen | None = None
        self.rule = memory_rule(kind, self.limits)
        self.groups: list = []  # the cgroup folders holding this submission's processes
        self.notes: list = []  # what its clean-up could not do, for the report
        self._procs: list = []  # their cgroup.procs, encoded for the child to write

    @staticmethod
    def stage(kind: str, workdir: Path, child: Path, submission: Path, files: dict,
              slot: int = 0) -> list:
        """Lay out ``workdir``: ``grading/`` (the modules of the folder ``child``: the harness
        and its wire codec), ``submission/NAME`` (a copy that follows no link
        out of the submission, made by `mlpr.grading.stage` as the sandbox's user where there is
        one), ``work/`` with the data files ``{name: source path}``; owned by the sandbox's user
        under ``user``. Returns the notes on what the copy left out (the module's docstring)."""
        workdir = Path(workdir)
        submission = Path(submission)
        (workdir / "grading").mkdir()
        for module in sorted(Path(child).glob("*.py")):
            shutil.copy(module, workdir / "grading" / module.name)
        (workdir / "submission").mkdir(mode=0o700)
        uid = uid_for(slot) if own_user(kind) else None
        if uid is not None:
            os.chown(workdir / "submission", uid, uid)
        notes = _copy(submission, workdir / "submission" / submission.name, uid)
        (workdir / "work").mkdir()
        for name, src in files.items():
            shutil.copy(src, workdir / "work" / name)
        if isolations.get(kind).owns_workdir():
            uid = uid_for(slot)
            for root, dirs, names in os.walk(workdir):
                for n in dirs + names:
                    os.lchown(os.path.join(root, n), uid, uid)
            os.chown(workdir, uid, uid)
            os.chmod(workdir, 0o700)
        return notes

    def _limits(self) -> None:  # runs in the child between fork and exec
        for procs in self._procs:  # into its cgroups before anything of the submission runs
            fd = os.open(procs, os.O_WRONLY | os.O_CLOEXEC)
            try:
                os.write(fd, b"0")  # "0": the writing process
            finally:
                os.close(fd)
        mb = 1 << 20
        lim = self.limits
        resource.setrlimit(resource.RLIMIT_AS, (self.rule.per_process_mb * mb,) * 2)
        resource.setrlimit(resource.RLIMIT_CPU, (lim.cpu_seconds,) * 2)
        resource.setrlimit(resource.RLIMIT_FSIZE, (lim.file_mb * mb,) * 2)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if self.rule.processes is not None:
            resource.setrlimit(resource.RLIMIT_NPROC, (self.rule.processes,) * 2)

    def _make_groups(self) -> None:
        """Make this submission's cgroups (memory, and pids where there is a controller) with
        its limits; the child enters them in `_limits`."""
        hierarchy, _ = limits.cgroups()
        if hierarchy is None:
            return
        name = f"mlpr-grading-{os.getpid()}-{self.slot}-{next(_GROUPS)}"
        memory = self.limits.memory_mb << 20
        try:
            for controller, parent in hierarchy.parents.items():
                d = parent / name
                if d in self.groups:  # v2: one group for every controller
                    continue
                d.mkdir()
                self.groups.append(d)
                if hierarchy.version == "v2":
                    settings = {"memory.max": memory, "memory.swap.max": 0,
                                "memory.oom.group": 1, "pids.max": self.limits.processes}
                elif controller == "memory":
                    settings = {"memory.limit_in_bytes": memory,
                                "memory.memsw.limit_in_bytes": memory}
                else:
                    settings = {"pids.max": self.limits.processes}
                for key, value in settings.items():
                    if key in ("memory.max", "memory.limit_in_bytes") or (d / key).exists():
                        write(d / key, str(value))
        except OSError as exc:
            self._remove_groups()
            raise RuntimeError(f"the kit could not make the submission's cgroup below "
                               f"{parent}: {exc}") from None
        self._procs = [os.fsencode(d / "cgroup.procs") for d in self.groups]

    def _remove_groups(self) -> None:
        """Kill every process left in this submission's cgroups (also those that left its
        session), and remove the groups."""
        deadline = time.monotonic() + 10
        for d in self.groups:
            while True:
                try:
                    with open(d / "cgroup.procs") as f:
                        pids = [int(p) for p in f.read().split()]
                except OSError:
                    break
                if not pids:
                    with contextlib.suppress(OSError):
                        d.rmdir()
                    if not d.exists() or time.monotonic() > deadline:
                        break
                for pid in pids:
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.kill(pid, signal.SIGKILL)
                if time.monotonic() > deadline:  # a process stuck in the kernel: left behind
                    break
                time.sleep(0.01)
        self.groups, self._procs = [], []

    def env(self, home: str) -> dict:
        """The harness's environment variables, its home ``home``."""
        return {"PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8", "MPLBACKEND": "Agg",
                "MPLCONFIGDIR": f"{home}/.matplotlib", "OPENBLAS_NUM_THREADS": "1",
                "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "PYTHONDONTWRITEBYTECODE": "1",
                # joblib (scikit-learn) would warn that the sandbox refuses its semaphores, on
                # the submission's output: serial from the start, silently
                "JOBLIB_MULTIPROCESSING": "0",
                "PYTHONHASHSEED": "0", **self.extra_env}

    def harness(self, fds: tuple, harness: str, submission: str) -> list:
        """The submissions' Python on the harness at ``harness``, for ``submission``."""
        return [submission_python(), "-I", harness, submission, *map(str, fds)]

    def bwrap(self, fds: tuple) -> list:
        """bubblewrap's command: the file system and namespaces of the module's docstring."""
        w = self.workdir
        cmd = ["bwrap", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
               "--die-with-parent", "--new-session", "--ro-bind", "/usr", "/usr",
               "--ro-bind", "/etc", "/etc", "--proc", "/proc", "--dev", "/dev"]
        for d in ("bin", "lib", "lib64", "lib32", "sbin"):
            p = Path("/" + d)
            if p.is_symlink():
                cmd += ["--symlink", os.readlink(p), str(p)]
            elif p.is_dir():
                cmd += ["--ro-bind", str(p), str(p)]
        # the private /tmp first: a Python installed under /tmp is bound over it, not hidden by it
        cmd += ["--perms", "1777", "--size", str(self.limits.tmp_mb << 20), "--tmpfs", "/tmp"]
        made = {"/", "/usr", "/etc", "/proc", "/dev", "/tmp"}
        python = submission_python()
        python_dirs = _python_dirs(python)  # the submissions' Python's, not the grader's
        for d in python_dirs:
            parents = list(Path(d).parents)[::-1][1:]
            for parent in parents:  # world-traversable parents (/root is 0700 on the host)
                if str(parent) not in made:
                    cmd += ["--perms", "0755", "--dir", str(parent)]
                    made.add(str(parent))
            cmd += ["--ro-bind", d, d]
            made.add(d)
            for sp in Path(d).glob("lib*/python*/site-packages/mlpr"):
                cmd += ["--tmpfs", str(sp)]  # mlpr's files are not the submission's to see
        own = _mlpr_folder()  # the grader's mlpr, also where no site-packages holds it
        if any(own.startswith(d + os.sep) for d in ["/usr", "/etc", *python_dirs]):
            cmd += ["--tmpfs", own]
        cmd += ["--perms", "0777", "--dir", "/tmp/work",
                "--ro-bind", str(w / "grading"), "/grading",
                "--ro-bind", str(w / "submission"), "/submission"]
        for f in sorted((w / "work").iterdir()):
            cmd += ["--ro-bind", str(f), f"/tmp/work/{f.name}"]
        cmd += ["--chdir", "/tmp/work", "--clearenv"]
        for k, v in self.env("/tmp").items():
            cmd += ["--setenv", k, v]
        if os.geteuid() == 0:
            cmd += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--",
                    "setpriv", f"--reuid={self.uid}", f"--regid={self.uid}", "--clear-groups",
                    "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs"]
        else:
            cmd += ["--"]
        return cmd + self.harness(fds, "/grading/harness.py", f"/submission/{self.submission_name}")

    def start(self, fds: tuple) -> subprocess.Popen:
        """Start the harness with its channel on ``fds`` = (in, out), inherited."""
        cmd, cwd, env = self.isolation.command(self, fds)
        self._make_groups()
        try:
            self.proc = subprocess.Popen(cmd, cwd=cwd, env=env, pass_fds=fds,
                                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL, start_new_session=True,
                                         preexec_fn=self._limits)
        except BaseException:
            self._remove_groups()
            raise
        return self.proc

    def kill(self) -> None:
        """Kill the process and everything it started: its session, every process of its user
        id (``user``), every process of its cgroup; remove the cgroup, and under ``user`` what
        its user id left in world-writable folders (`remove_left_files`)."""
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()
        self.isolation.kill_rest(self)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=10)
        self._remove_groups()
        self.isolation.clean_up(self)
