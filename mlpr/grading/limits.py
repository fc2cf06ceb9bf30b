r"""Memory and processes per submission: a cgroup of its own where one is writable, or split
rlimits (the rule of `memory_rule`, named on the report's isolation line).

Where a cgroup hierarchy with the memory controller is writable (root; cgroup v2 or v1), every
process of a submission enters a group of its own before anything of the submission runs, and
the group bounds their memory together (and their number, with the pids controller); without one,
as root, the budget is split into ``RLIMIT_AS`` per process and ``RLIMIT_NPROC`` for the
submission's own user id; otherwise only ``RLIMIT_AS`` applies, per process.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
import threading
from pathlib import Path

from mlpr.grading import isolations

__all__ = ["Limits", "PER_PROCESS_MB", "Hierarchy", "write", "cgroups", "own_user",
           "MemoryRule", "memory_rule"]

_CGROUPS_LOCK = threading.Lock()

#: Address space a submission's process is given at least when, without a cgroup, the budget is
#: split between processes: numpy, scipy, matplotlib and scikit-learn import within 400 MB
#: (``VmPeak`` 360 MB with one BLAS thread), which leaves room for the labs' data.
PER_PROCESS_MB = 1024


@dataclasses.dataclass(frozen=True)
class Limits:
    """Resource limits of a submission: ``memory_mb`` and ``processes`` for all its processes
    together where a cgroup holds them, else as `memory_rule` splits them; CPU time and file
    size per process; ``tmp_mb`` the size of bubblewrap's private ``/tmp``; ``disk_mb`` the size
    of the file system of its own that holds its folder under ``user`` and ``process`` (a tmpfs,
    where the grader is root)."""

    memory_mb: int = 4096
    cpu_seconds: int = 900
    processes: int = 64
    file_mb: int = 64
    tmp_mb: int = 256
    disk_mb: int = 512


@dataclasses.dataclass(frozen=True)
class Hierarchy:
    """A cgroup hierarchy where the grader can make a group per submission: its version and the
    folder under which each controller's groups are made (one folder for both under v2)."""

    version: str
    parents: dict


def write(path, value: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
    try:
        os.write(fd, value.encode())
    finally:
        os.close(fd)


def _unescape(field: str) -> str:  # /proc/self/mountinfo writes a space as \040
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


def _cgroup_folder(mount_root: str, mount_point: str, path: str) -> Path | None:
    """The folder of the cgroup ``path`` in a hierarchy whose ``mount_root`` is mounted at
    ``mount_point``; None when it is not under that mount."""
    if path != mount_root and not path.startswith(mount_root.rstrip("/") + "/"):
        return None
    rel = os.path.relpath(path, mount_root)
    return Path(mount_point) if rel == "." else Path(mount_point) / rel


def _probe_group(parent: Path, files: dict) -> str | None:
    """Make a group below ``parent`` and write its ``files`` {name: value}: None when that
    works, else why not."""
    probe = parent / f"mlpr-probe-{os.getpid()}"
    try:
        probe.mkdir(exist_ok=True)
        try:
            for name, value in files.items():
                write(probe / name, value)
        finally:
            probe.rmdir()
    except OSError as exc:
        return f"{parent}: {exc.strerror or exc}"
    return None


def cgroups() -> tuple:
    """``(Hierarchy, None)`` when each submission can be given a memory cgroup of its own below
    the grader's own cgroup (v2 first, then v1), else ``(None, reason)``; found once per process
    (the first sandboxes of a run start in several threads at once)."""
    with _CGROUPS_LOCK:
        return _find_cgroups()


@functools.cache
def _find_cgroups() -> tuple:
    try:
        own = {}
        with open("/proc/self/cgroup") as f:
            for line in f.read().splitlines():
                _, controllers, path = line.split(":", 2)
                for c in controllers.split(",") if controllers else [""]:
                    own[c] = path
        mounts = []
        with open("/proc/self/mountinfo") as f:
            for line in f.read().splitlines():
                fields = line.split()
                sep = fields.index("-")
                if fields[sep + 1] in ("cgroup", "cgroup2"):
                    mounts.append((fields[sep + 1], _unescape(fields[3]), _unescape(fields[4]),
                                   set(fields[sep + 3].split(",")) if len(fields) > sep + 3
                                   else set()))
    except (OSError, ValueError, IndexError) as exc:
        return None, f"the cgroups cannot be read ({exc})"
    reasons = []
    for fstype, root, point, _ in mounts:
        d = _cgroup_folder(root, point, own[""]) if fstype == "cgroup2" and "" in own else None
        if d is None or not (d / "cgroup.controllers").exists():
            continue
        # the grader's own cgroup, when it can delegate the memory controller (the root of a
        # container's hierarchy can); else the nearest ancestor that already delegates it
        # (systemd's slices), its configuration left as it is
        for folder in [d, *[a for a in d.parents if a == Path(point) or
                            Path(point) in a.parents]]:
            try:
                with open(folder / "cgroup.controllers") as f:
                    controllers = f.read().split()
                with open(folder / "cgroup.subtree_control") as f:
                    enabled = f.read().split()
                wanted = [c for c in ("memory", "pids") if c in controllers and c not in enabled]
                if "memory" not in controllers or (folder != d and "memory" in wanted):
                    continue
                if folder == d and wanted:  # EBUSY in a cgroup that holds processes
                    write(folder / "cgroup.subtree_control",
                           " ".join("+" + c for c in wanted))
            except OSError as exc:
                reasons.append(f"cgroup v2: {folder}: {exc.strerror or exc}")
                continue
            why = _probe_group(folder, {"memory.max": "max"})
            if why is None:
                parents = {"memory": folder}
                if "pids" in enabled or (folder == d and "pids" in wanted):
                    parents["pids"] = folder
                return Hierarchy("v2", parents), None
            reasons.append(f"cgroup v2: {why}")
    v1 = {}
    for fstype, root, point, options in mounts:
        for c in ("memory", "pids"):
            if fstype == "cgroup" and c in options and c in own and c not in v1:
                d = _cgroup_folder(root, point, own[c])
                if d is not None:
                    v1[c] = d
    if "memory" in v1:
        why = _probe_group(v1["memory"], {"memory.limit_in_bytes": "-1"})
        if why is None:
            parents = {"memory": v1["memory"]}
            if "pids" in v1 and _probe_group(v1["pids"], {"pids.max": "max"}) is None:
                parents["pids"] = v1["pids"]
            return Hierarchy("v1", parents), None
        reasons.append(f"cgroup v1: {why}")
    return None, "; ".join(reasons) or "no cgroup hierarchy with the memory controller"


def own_user(kind: str) -> bool:
    """Whether the submission's process runs under a user id of its own (`uid_for`), under the
    isolation ``kind`` (`mlpr.grading.isolations`)."""
    return isolations.get(kind).own_user()


@dataclasses.dataclass(frozen=True)
class MemoryRule:
    """How memory and processes are bounded per submission under an isolation: the address
    space of each process (``RLIMIT_AS``, MB), the ``RLIMIT_NPROC`` of its user id (None: not
    set), the cgroup version holding its processes together (None: no cgroup), and the rule in
    words."""

    per_process_mb: int
    processes: int | None
    cgroup: str | None
    text: str


def memory_rule(kind: str, limits: Limits | None = None) -> MemoryRule:
    """Which memory rule holds for a submission under the isolation ``kind`` on this machine
    (the module's docstring)."""
    lim = limits or Limits()
    own = own_user(kind)
    hierarchy, _ = cgroups()
    if hierarchy is not None:
        counted = "pids" in hierarchy.parents or own
        return MemoryRule(
            lim.memory_mb, lim.processes if own else None, hierarchy.version,
            f"memory: {lim.memory_mb} MB for all its processes together (a cgroup "
            f"{hierarchy.version} of its own), "
            + (f"at most {lim.processes} processes" if counted else "processes not bounded"))
    if own:
        n = max(1, min(lim.processes, lim.memory_mb // PER_PROCESS_MB))
        return MemoryRule(
            lim.memory_mb // n, n, None,
            f"memory: {lim.memory_mb // n} MB per process, at most {n} processes "
            f"({lim.memory_mb} MB in all; setrlimit, no cgroup)")
    return MemoryRule(
        lim.memory_mb, None, None,
        f"memory: {lim.memory_mb} MB per process, processes not bounded, so a submission that "
        f"forks can hold more (setrlimit only: no cgroup, no user id of its own)")


