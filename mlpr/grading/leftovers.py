r"""What a sandbox's user leaves behind: its processes (waited for until none is left) and its
files in the machine's world-writable folders (removed at the end of a submission under
``user``, where the sandbox's user id is its own and nothing else of the machine is private).
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import stat
import subprocess
import time
from pathlib import Path

__all__ = ["WORLD_WRITABLE", "wait_for_no_process_of", "remove_left_files"]

#: World-writable folders where a sandbox's user may leave files (`Sandbox.kill` removes them
#: under ``user``), beside those found one level below `_SCANNED`.
WORLD_WRITABLE = ("/tmp", "/var/tmp", "/dev/shm", "/run/shm", "/run/lock", "/var/lock",
                  "/dev/mqueue", "/var/crash")
_SCANNED = ("/", "/var", "/run", "/dev", "/srv", "/opt", "/home")


def wait_for_no_process_of(uid: int, timeout: float = 5.0) -> None:
    """Wait until no process of the user id ``uid`` is left, zombies included: the next sandbox
    of its slot counts them against its ``RLIMIT_NPROC`` (a killed orphan is a zombie until the
    machine's init reaps it, which some inits do only every second or so)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for pid in os.listdir("/proc"):
            if pid.isdigit():
                with contextlib.suppress(OSError, ValueError, IndexError, StopIteration):
                    with open(f"/proc/{pid}/status") as f:
                        if int(next(ln for ln in f if ln.startswith("Uid:")).split()[1]) == uid:
                            break
        else:
            return
        time.sleep(0.02)


@functools.cache
def _world_writable() -> tuple:
    """The world-writable folders of this machine where a sandbox's user may leave files:
    `WORLD_WRITABLE` and those one level below `_SCANNED` (resolved, each once)."""
    found = [Path(d) for d in WORLD_WRITABLE]
    for base in _SCANNED:
        with contextlib.suppress(OSError), os.scandir(base) as it:
            found += [Path(e.path) for e in it if e.is_dir(follow_symlinks=False)
                      and e.stat(follow_symlinks=False).st_mode & stat.S_IWOTH]
    roots = {}
    for d in found:
        with contextlib.suppress(OSError):
            real = d.resolve(strict=True)
            st = real.stat()
            if stat.S_ISDIR(st.st_mode) and st.st_mode & stat.S_IWOTH:
                roots.setdefault((st.st_dev, st.st_ino), str(real))
    return tuple(roots.values())


def remove_left_files(uid: int, keep: Path | None = None, roots=None) -> int:
    """Remove what the user id ``uid`` left in world-writable folders (``roots``, by default
    `_world_writable`) and in every folder below them that it could write (world-writable, or
    its own), except the folder ``keep`` (its sandbox's): only entries owned by ``uid``, never
    following a link (a link is removed, not its target), at most 32 folders deep and 100,000
    entries looked at. Then its System V IPC objects (``ipcrm -a`` as ``uid``). Returns the
    number of entries removed. For the grader's code (root), once ``uid``'s processes are dead.
    """
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
    kept = set()
    if keep is not None:
        with contextlib.suppress(OSError):
            st = os.stat(keep, follow_symlinks=False)
            kept.add((st.st_dev, st.st_ino))
    budget = [100_000]
    removed = [0]

    def sweep(fd: int, depth: int) -> None:
        try:
            names = os.listdir(fd)
        except OSError:
            return
        for name in names:
            budget[0] -= 1
            if budget[0] < 0:
                return
            try:
                st = os.stat(name, dir_fd=fd, follow_symlinks=False)
            except OSError:
                continue
            mine = st.st_uid == uid
            if stat.S_ISDIR(st.st_mode):
                if (st.st_dev, st.st_ino) in kept:
                    continue
                if (mine or st.st_mode & stat.S_IWOTH) and depth < 32:
                    try:
                        sub = os.open(name, flags, dir_fd=fd)
                    except OSError:
                        continue
                    try:
                        if os.fstat(sub).st_ino == st.st_ino:
                            sweep(sub, depth + 1)
                    finally:
                        os.close(sub)
                if mine:
                    with contextlib.suppress(OSError):
                        os.rmdir(name, dir_fd=fd)
                        removed[0] += 1
            elif mine:
                with contextlib.suppress(OSError):
                    os.unlink(name, dir_fd=fd)
                    removed[0] += 1

    for root in _world_writable() if roots is None else roots:
        try:
            fd = os.open(root, flags)
        except OSError:
            continue
        try:
            sweep(fd, 0)
        finally:
            os.close(fd)
    if shutil.which("ipcrm"):
        subprocess.run(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
                        "ipcrm", "-a"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return removed[0]


