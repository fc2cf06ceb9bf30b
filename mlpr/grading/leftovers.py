r"""What a sandbox's user leaves behind: its processes (waited for until none is left) and its
files in the machine's world-writable folders (removed at the end of a submission under
``user``, where the sandbox's user id is its own and nothing else of the machine is private).
"""

from __future__ import annotations

import contextlib
import functools
import os
import secrets
import shutil
import stat
import subprocess
import time
from pathlib import Path

__all__ = ["WORLD_WRITABLE", "CLEAN_UP_SECONDS", "wait_for_no_process_of", "remove_tree",
           "remove_folder", "remove_left_files"]

#: Time bound of one clean-up (a sandbox's folder, or what its user left): past it, what is left
#: is named in a note
CLEAN_UP_SECONDS = 60.0
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC

#: World-writable folders where a sandbox's user may leave files (`Sandbox.kill` removes them
#: under ``user``), beside those found one level below `_SCANNED`.
WORLD_WRITABLE = ("/tmp", "/var/tmp", "/dev/shm", "/run/shm", "/run/lock", "/var/lock",
                  "/dev/mqueue", "/var/crash")
_SCANNED = ("/", "/var", "/run", "/dev", "/srv", "/opt", "/home")


def live_processes_of(uid: int) -> list:
    """The pids of the processes of the user id ``uid`` that are not zombies."""
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                with open(f"/proc/{pid}/status") as f:
                    fields = dict(ln.split(":", 1) for ln in f if ":" in ln)
                if int(fields["Uid"].split()[0]) == uid and not \
                        fields.get("State", "").strip().startswith("Z"):
                    found.append(int(pid))
    return found


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


def remove_tree(parent_fd: int, name: str, deadline: float) -> tuple:
    """Remove the folder ``name`` of the open folder ``parent_fd`` and everything below it,
    without recursion and whatever its depth: each subfolder met is first moved up into the
    folder being removed (a rename within one file system), so that no path, descriptor chain
    or stack grows with the depth; a link is removed, never followed; a folder its owner made
    unreadable is opened to its owner first. Returns ``(complete, removed)``: complete False
    when ``deadline`` (``time.monotonic()``) passed or an entry could not be removed (what is
    left stays), ``removed`` the entries removed, the folder included."""
    tag = f".mlpr-removing-{secrets.token_hex(6)}-"
    try:
        top = _open_dir(parent_fd, name)
    except OSError:
        return False, 0
    pending, moved, complete, removed = [None], 0, True, 0
    try:
        while pending:
            if time.monotonic() > deadline:
                return False, removed
            sub = pending.pop()
            try:
                fd = top if sub is None else _open_dir(top, sub)
            except OSError:
                complete = False
                continue
            try:
                for entry in os.listdir(fd):
                    try:
                        st = os.stat(entry, dir_fd=fd, follow_symlinks=False)
                        if stat.S_ISDIR(st.st_mode):
                            moved += 1
                            os.rename(entry, f"{tag}{moved}", src_dir_fd=fd, dst_dir_fd=top)
                            pending.append(f"{tag}{moved}")
                        else:
                            os.unlink(entry, dir_fd=fd)
                            removed += 1
                    except OSError:
                        complete = False
            finally:
                if fd != top:
                    os.close(fd)
            if sub is not None:
                try:
                    os.rmdir(sub, dir_fd=top)
                    removed += 1
                except OSError:
                    complete = False
    finally:
        os.close(top)
    try:
        os.rmdir(name, dir_fd=parent_fd)
    except OSError:
        return False, removed
    return complete, removed + 1


def _open_dir(parent_fd: int, name: str) -> int:
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=parent_fd)
    except PermissionError:  # its owner's mode 000: the owner may open it again
        os.chmod(name, 0o700, dir_fd=parent_fd, follow_symlinks=False)
        return os.open(name, _DIR_FLAGS, dir_fd=parent_fd)


def remove_folder(path, seconds: float = CLEAN_UP_SECONDS) -> str:
    """Remove the folder ``path`` and everything in it (`remove_tree`): "" when it is gone, else
    a note that says what is left."""
    path = Path(path)
    try:
        parent = os.open(path.parent, _DIR_FLAGS)
    except OSError as exc:
        return f"the kit could not remove {path}: {exc.strerror}"
    try:
        done = remove_tree(parent, path.name, time.monotonic() + seconds)[0]
    finally:
        os.close(parent)
    return "" if done else (f"the kit could not remove all of {path} within {seconds:g} s: "
                            f"what is left stays there")


def remove_left_files(uid: int, keep: Path | None = None, roots=None,
                      notes: list | None = None) -> int:
    """Remove what the user id ``uid`` left in world-writable folders (``roots``, by default
    `_world_writable`) and in every world-writable folder below them (at most 32 deep: those are
    others' folders), except the folder ``keep`` (its sandbox's): only entries owned by ``uid``,
    its own folders whole whatever their depth (`remove_tree`), never following a link (a link
    is removed, not its target), within `CLEAN_UP_SECONDS`. Then its System V IPC objects
    (``ipcrm -a`` as ``uid``). Returns the number of entries removed; a note on what is left
    goes to ``notes``. For the grader's code (root), once ``uid``'s processes are dead.
    """
    kept = set()
    if keep is not None:
        with contextlib.suppress(OSError):
            st = os.stat(keep, follow_symlinks=False)
            kept.add((st.st_dev, st.st_ino))
    removed, left = [0], []
    deadline = time.monotonic() + CLEAN_UP_SECONDS

    def sweep(fd: int, depth: int) -> None:
        try:
            names = os.listdir(fd)
        except OSError:
            return
        for name in names:
            if time.monotonic() > deadline:
                left.append(f"{len(names)} entries of a folder not looked at")
                return
            try:
                st = os.stat(name, dir_fd=fd, follow_symlinks=False)
            except OSError:
                continue
            mine = st.st_uid == uid
            if stat.S_ISDIR(st.st_mode):
                if (st.st_dev, st.st_ino) in kept:
                    continue
                if mine:  # its own folder: all of it, whatever its depth and size
                    done, count = remove_tree(fd, name, deadline)
                    removed[0] += count
                    if not done:
                        left.append(name)
                    continue
                if st.st_mode & stat.S_IWOTH and depth < 32:
                    try:
                        sub = os.open(name, _DIR_FLAGS, dir_fd=fd)
                    except OSError:
                        continue
                    try:
                        if os.fstat(sub).st_ino == st.st_ino:
                            sweep(sub, depth + 1)
                    finally:
                        os.close(sub)
            elif mine:
                with contextlib.suppress(OSError):
                    os.unlink(name, dir_fd=fd)
                    removed[0] += 1

    for root in _world_writable() if roots is None else roots:
        try:
            fd = os.open(root, _DIR_FLAGS)
        except OSError:
            continue
        try:
            sweep(fd, 0)
        finally:
            os.close(fd)
    if left and notes is not None:
        notes.append(f"what the submission's user id left in world-writable folders could not "
                     f"all be removed within {CLEAN_UP_SECONDS:g} s ({'; '.join(left[:3])})")
    if shutil.which("ipcrm"):
        subprocess.run(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
                        "ipcrm", "-a"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return removed[0]


