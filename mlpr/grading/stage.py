"""Copy a submission for grading without following anything out of it.

``python -I -S stage.py SOURCE DEST MAX_BYTES MAX_ENTRIES`` copies the file or folder SOURCE to
DEST (which must not exist) and prints one JSON object, ``{"notes": [...], "files": n, "bytes":
b}``, the notes saying in words what was left out. The sandbox (`mlpr.grading.sandbox`) runs it
as a child process under the sandbox's own user id where the isolation has one, keeping only the
capability to read any file (``CAP_DAC_READ_SEARCH``), so that it can read the submission wherever
the TA keeps it but write nowhere but its own folder. It imports nothing of mlpr (and nothing
outside the standard library), so that it can run with ``-I -S``.

The rules, for every entry of a folder submission (names are sorted, ``__pycache__``, ``.git``
and ``*.pyc`` skipped without a note):

- a regular file is copied (mode 0644): it is opened relative to its folder's descriptor with
  ``O_NOFOLLOW | O_NONBLOCK`` and copied only when ``fstat`` of that descriptor says it is a
  regular file, so that nothing swapped in after the listing is followed, and a FIFO never
  blocks;
- a folder is copied (mode 0755) when it lies on the submission's file system (a mount point
  inside it is left out);
- a symbolic link is resolved; when its target lies inside the submission, the target is
  copied in its place (a file, or a folder that does not hold the link); the target is reached
  from the submission's root one component at a time, none of them a link, so what is read is
  inside the submission. A link out of the submission, a dangling link or a loop of links, and a
  link to a folder that holds it are left out, with a note;
- a device, a FIFO, a socket is left out, with a note;
- a folder more than MAX_DEPTH (64) folders deep is left out with a note;
- the copy holds at most MAX_BYTES bytes of files (a file that would pass the cap is left out,
  smaller ones after it still copied) and looks at most MAX_ENTRIES entries (the walk stops
  there), with a note when a cap binds.

A single-file submission follows the same rules. The submission's own path is the TA's: when it
is a link, it is followed only to a target in the link's own folder or below it (``alice.py ->
alice/lab4.py``), else nothing is copied and the note says why. Names in notes are escaped (a
character that does not print is shown as ``\\xNN`` / ``\\uNNNN``) and cut to 100 characters:
they come from the submission.
"""

import errno
import json
import os
import stat
import sys

DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
SKIP = {"__pycache__", ".git"}
MAX_NOTES = 20
CHUNK = 1 << 20
#: Folders deeper than this are left out with a note: the walk's stack and open folders stay
#: bounded (a course repository is a few folders deep)
MAX_DEPTH = 64


def shown(name: str, limit: int = 100) -> str:
    """An untrusted file name as one printable line: escapes for what does not print, cut."""
    out = []
    for ch in name:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte (surrogateescape)
            out.append(f"\\x{code - 0xDC00:02x}")
        elif ch.isprintable() and ch != "\\":
            out.append(ch)
        elif ch == "\\":
            out.append("\\\\")
        elif code < 0x100:
            out.append(f"\\x{code:02x}")
        else:
            out.append(f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
    text = "".join(out)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def kind_of(mode: int) -> str:
    """What a file that is neither a regular file, a folder nor a link is, in words."""
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def inside(path: str, root: str) -> bool:
    """Whether the resolved ``path`` is ``root`` or lies below it."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


class Copier:
    """One copy: the caps, what has been copied, the notes."""

    def __init__(self, max_bytes: int, max_entries: int):
        self.max_bytes, self.max_entries = max_bytes, max_entries
        self.bytes = self.files = self.entries = 0
        self.notes: list = []
        self.dropped = 0  # notes past MAX_NOTES
        self.over_bytes: list = []  # (shown name, size) of the files the byte cap left out
        self.stopped_at = None  # where the entry cap stopped the walk
        self.root_real = ""
        self.root_dev = None
        self.root_fd = -1

    def note(self, rel: str, why: str) -> None:
        if len(self.notes) < MAX_NOTES:
            self.notes.append(f"left out: {shown(rel)}, {why}")
        else:
            self.dropped += 1

    # -- files
    def copy_file(self, dir_fd: int, name: str, dest_fd: int, dest_name: str, rel: str) -> None:
        try:
            fd = os.open(name, FILE_FLAGS, dir_fd=dir_fd)
        except OSError as exc:
            if exc.errno == errno.ELOOP:  # a link swapped in after the listing
                self.note(rel, "a link that appeared while it was copied")
            else:
                self.note(rel, f"unreadable ({exc.strerror})")
            return
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                self.note(rel, kind_of(st.st_mode))
                return
            if self.bytes + st.st_size > self.max_bytes:
                self.over_bytes.append((shown(rel), st.st_size))
                return
            out = os.open(dest_name, NEW_FILE, 0o644, dir_fd=dest_fd)
            try:
                left = self.max_bytes - self.bytes
                total = 0
                while True:
                    chunk = os.read(fd, min(CHUNK, left - total + 1))
                    if not chunk:
                        break
                    total += len(chunk)
                    if total > left:  # it grew while it was copied
                        break
                    view = memoryview(chunk)
                    while view:
                        view = view[os.write(out, view):]
            finally:
                os.close(out)
            if total > left:
                os.unlink(dest_name, dir_fd=dest_fd)
                self.over_bytes.append((shown(rel), total))
                return
            self.bytes += total
            self.files += 1
        finally:
            os.close(fd)

    # -- folders
    def copy_dir(self, src_fd: int, dest_fd: int, rel: str, ancestors: tuple) -> None:
        """Copy the entries of the open folder ``src_fd`` into the open folder ``dest_fd``;
        ``ancestors`` are the (device, inode) of the folders being copied, this one included."""
        try:
            names = sorted(os.listdir(src_fd))
        except OSError as exc:
            self.note(rel, f"unreadable ({exc.strerror})")
            return
        for name in names:
            if name in SKIP or name.endswith(".pyc"):
                continue
            if self.stopped_at is not None:
                return
            self.entries += 1
            sub = f"{rel}/{name}"
            if self.entries > self.max_entries:
                self.stopped_at = shown(sub)
                return
            try:
                st = os.stat(name, dir_fd=src_fd, follow_symlinks=False)
            except OSError as exc:
                self.note(sub, f"unreadable ({exc.strerror})")
                continue
            if stat.S_ISLNK(st.st_mode):
                self.copy_link(src_fd, name, dest_fd, sub, ancestors)
            else:
                self.copy_entry(src_fd, name, st, dest_fd, name, sub, ancestors)

    def copy_entry(self, dir_fd: int, name: str, st, dest_fd: int, dest_name: str, rel: str,
                   ancestors: tuple) -> None:
        """Copy the entry ``name`` of ``dir_fd`` (not a link; ``st`` its lstat)."""
        if st.st_dev != self.root_dev and not stat.S_ISLNK(st.st_mode):
            self.note(rel, "on another file system mounted in the submission")
        elif stat.S_ISREG(st.st_mode):
            self.copy_file(dir_fd, name, dest_fd, dest_name, rel)
        elif stat.S_ISDIR(st.st_mode):
            if (st.st_dev, st.st_ino) in ancestors:
                self.note(rel, "a link to a folder that holds it (a loop)")
                return
            if len(ancestors) >= MAX_DEPTH:
                self.note(rel, f"a folder more than {MAX_DEPTH} folders deep")
                return
            try:
                fd = os.open(name, DIR_FLAGS, dir_fd=dir_fd)
            except OSError as exc:
                self.note(rel, f"unreadable ({exc.strerror})")
                return
            try:
                fst = os.fstat(fd)
                if (fst.st_dev, fst.st_ino) != (st.st_dev, st.st_ino):
                    self.note(rel, "changed while it was copied")
                    return
                os.mkdir(dest_name, 0o755, dir_fd=dest_fd)
                out = os.open(dest_name, DIR_FLAGS, dir_fd=dest_fd)
                try:
                    self.copy_dir(fd, out, rel, ancestors + ((st.st_dev, st.st_ino),))
                finally:
                    os.close(out)
            finally:
                os.close(fd)
        else:
            self.note(rel, kind_of(st.st_mode))

    def copy_link(self, dir_fd: int, name: str, dest_fd: int, rel: str,
                  ancestors: tuple) -> None:
        """A link inside the submission: its target copied in its place when the target lies
        inside the submission, else left out with a note."""
        # the link's path in the real tree: the folder's own path (from its descriptor) + name
        try:
            here = os.readlink(f"/proc/self/fd/{dir_fd}")
            target = os.path.realpath(os.path.join(here, name), strict=True)
        except OSError:
            self.note(rel, "a link to nothing (dangling, or a loop of links)")
            return
        if not inside(target, self.root_real):
            self.note(rel, "a link out of the submission")
            return
        # reach the target from the root without following any link
        parts = [p for p in os.path.relpath(target, self.root_real).split(os.sep)
                 if p not in ("", ".")]
        fds = []
        try:
            fd = self.root_fd
            for p in parts[:-1]:
                fd = os.open(p, DIR_FLAGS, dir_fd=fd)
                fds.append(fd)
            if not parts:  # a link to the submission's root
                self.note(rel, "a link to a folder that holds it (a loop)")
                return
            st = os.stat(parts[-1], dir_fd=fd, follow_symlinks=False)
            if stat.S_ISLNK(st.st_mode):
                raise OSError(errno.ELOOP, "changed")
        except OSError:
            self.note(rel, "changed while it was copied")
            return
        else:
            self.copy_entry(fd, parts[-1], st, dest_fd, name, rel, ancestors)
        finally:
            for f in fds:
                os.close(f)

    # -- the whole submission
    def run(self, source: str, dest: str) -> None:
        source = os.path.abspath(source)
        parent, name = os.path.split(source)
        top = shown(name)
        st = os.stat(source, follow_symlinks=False)
        if stat.S_ISLNK(st.st_mode):
            try:
                target = os.path.realpath(source, strict=True)
            except OSError:
                self.notes.append(f"not copied: {top} is a link to nothing")
                return
            folder = os.path.realpath(parent)
            if target == folder or not inside(target, folder):
                self.notes.append(f"not copied: {top} is a link out of its folder")
                return
            source = target
        parent, name = os.path.split(source)
        pfd = os.open(parent or os.sep, DIR_FLAGS)
        try:
            st = os.stat(name, dir_fd=pfd, follow_symlinks=False)
            dest_parent, dest_name = os.path.split(os.path.abspath(dest))
            dfd = os.open(dest_parent, DIR_FLAGS)
            try:
                if stat.S_ISDIR(st.st_mode):
                    self.root_fd = os.open(name, DIR_FLAGS, dir_fd=pfd)
                    self.root_real = os.readlink(f"/proc/self/fd/{self.root_fd}")
                    self.root_dev = os.fstat(self.root_fd).st_dev
                    os.mkdir(dest_name, 0o755, dir_fd=dfd)
                    out = os.open(dest_name, DIR_FLAGS, dir_fd=dfd)
                    try:
                        self.copy_dir(self.root_fd, out, top, ((st.st_dev, st.st_ino),))
                    finally:
                        os.close(out)
                        os.close(self.root_fd)
                else:
                    self.root_dev = st.st_dev
                    if stat.S_ISLNK(st.st_mode):  # swapped after it was resolved
                        self.notes.append(f"not copied: {top} changed while it was copied")
                    elif stat.S_ISREG(st.st_mode):
                        self.copy_file(pfd, name, dfd, dest_name, top)
                    else:
                        self.note(top, kind_of(st.st_mode))
            finally:
                os.close(dfd)
        finally:
            os.close(pfd)

    def summary(self) -> list:
        notes = list(self.notes)
        if self.dropped:
            notes.append(f"... and {self.dropped} more left out")
        if self.over_bytes:
            first, size = self.over_bytes[0]
            notes.append(f"the copy of the submission holds at most {self.max_bytes} bytes: "
                         f"{len(self.over_bytes)} file(s) left out, the first {first} "
                         f"({size} bytes)")
        if self.stopped_at is not None:
            notes.append(f"the copy of the submission looks at most {self.max_entries} "
                         f"entries: the rest is left out, from {self.stopped_at} on")
        return notes


def main(argv: list) -> int:
    source, dest, max_bytes, max_entries = argv
    os.umask(0o022)
    copier = Copier(int(max_bytes), int(max_entries))
    try:
        copier.run(source, dest)
    except OSError as exc:
        copier.notes.append(f"the submission could not be read: {shown(exc.strerror or str(exc))}")
    print(json.dumps({"notes": copier.summary(), "files": copier.files,
                      "bytes": copier.bytes}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
