r"""The grader's end of the channel to a submission's process.

A function of the submission is a `RemoteFunction` here; calling it sends the grader's inputs and
waits for the answer, within the task's time limit; a function it returns (a scoring function, a
kernel) is a `RemoteFunction` too, and a function of the grader's passed to it (a kernel) is
called back through the channel. Frames are the wire codec's (`mlpr.grading.child.wire`), read in
linear time, capped, and every field of a header is checked for its type and cut to a length
before it is read: nothing from the child is trusted beyond plain data, and a child that dies,
hangs or sends what is not plain data is `ChildGone`.
"""

from __future__ import annotations

import contextlib
import inspect
import os
import select
import time
from pathlib import Path

import numpy as np

from mlpr.grading import sandbox
from mlpr.grading.child import wire
from mlpr.grading.framework import KitError

__all__ = ["TASK_TIMEOUT", "IMPORT_TIMEOUT", "MAX_CALLBACK_ENTRIES", "MAX_HEADER", "MAX_BLOBS",
           "MAX_FRAMES", "MAX_PRINTED", "MAX_OPENED",
           "ChildGone", "StudentRaised", "RemoteFunction", "Child", "accepts", "text", "texts"]

#: Default time limit of one task of a submission, in seconds.
TASK_TIMEOUT = 60.0
#: Time limit for starting the submission's process and importing it, in seconds.
IMPORT_TIMEOUT = 60.0
#: The largest kernel matrix a submission may ask the grader to compute through a callback.
MAX_CALLBACK_ENTRIES = 4_000_000
#: Caps of one frame from a submission's process: its JSON header and its arrays (raw
#: blobs). The largest case of the catalogue (inputs and reference together) is 39 KB, about
#: 120 KB as JSON text; the hello frame of a repository with thousands of functions is a few
#: hundred KB. A frame over a cap is refused after its first 8 bytes.
MAX_HEADER = 4 << 20
MAX_BLOBS = 16 << 20
#: Caps of what the grader keeps of one task: the frames it reads from the child (a course task
#: calls the grader's kernel a few times, or once per pair of samples in a loop: 66 x 100 on the
#: kit's kernel case), the characters of what the function printed, and
#: the files it opened that are named. Past a cap, frames end the task; text and names are
#: counted and dropped (the report says how much).
MAX_FRAMES = 100_000
MAX_PRINTED = 64_000
MAX_OPENED = 50


class ChildGone(Exception):
    """The submission's process died, ran past the time limit, or sent what is not plain data;
    ``reason`` says which."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class StudentRaised(Exception):
    """A function of the submission raised: its type name, message and place (plain strings)."""

    def __init__(self, type_name: str, message: str, where: str):
        super().__init__(f"{type_name}: {message}")
        self.type_name, self.message, self.where = type_name, message, where


class RemoteFunction:
    """A function of the submission, called in its process: arguments go as plain data, the
    answer comes back as plain data (functions in it as further `RemoteFunction` s)."""

    def __init__(self, child: Child, target, name: str, signature: list | None = None):
        self.child, self.target, self.__name__ = child, target, name
        self.signature = signature

    def accepts(self, parameter: str) -> bool:
        """Whether the function takes the keyword argument ``parameter``."""
        return any(p == parameter or kind == "VAR_KEYWORD" for p, kind, _ in
                   self.signature or [])

    def describe(self) -> str:
        """The signature, as ``(a, b, c=...)``."""
        parts = []
        for p, kind, default in self.signature or []:
            prefix = {"VAR_POSITIONAL": "*", "VAR_KEYWORD": "**"}.get(kind, "")
            parts.append(prefix + p + ("=..." if default else ""))
        return "(" + ", ".join(parts) + ")"

    def __call__(self, *args, **kwargs):
        return self.child.call(self.target, args, kwargs)


def accepts(fn, parameter: str) -> bool:
    if isinstance(fn, RemoteFunction):
        return fn.accepts(parameter)
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == parameter or p.kind is p.VAR_KEYWORD for p in params)


def _checked_callback(f):
    """A grader's function (a kernel) as the submission may call it: two matrices of floats, of
    a bounded size, in; its answer out."""

    def callback(*args):
        if len(args) != 2:
            raise ValueError(f"the kernel takes 2 matrices, got {len(args)} arguments")
        A, B = (np.atleast_2d(np.asarray(a, dtype=np.float64)) for a in args)
        if A.ndim != 2 or B.ndim != 2 or A.shape[0] != B.shape[0]:
            raise ValueError(f"the kernel takes two D x N matrices, got {A.shape} and {B.shape}")
        if A.shape[1] * B.shape[1] > MAX_CALLBACK_ENTRIES:
            raise ValueError(f"a kernel matrix of {A.shape[1]} x {B.shape[1]} is larger than "
                             f"the kit computes")
        return f(A, B)

    return callback


def text(x, limit: int) -> str:
    """An untrusted field that should be a string: the string, cut at ``limit``; else ""."""
    return x[:limit] if type(x) is str else ""


def texts(x, count: int, limit: int) -> list:
    """An untrusted field that should be a list of strings: at most ``count`` of its strings."""
    return [text(v, limit) for v in x[:count] if type(v) is str] if type(x) is list else []


def _signature_of(x) -> list:
    """An untrusted signature ``[[name, kind, has_default], ...]`` as a list of triples of plain
    values; anything else gives the empty signature."""
    if type(x) is not list:
        return []
    sig = []
    for p in x[:100]:
        if type(p) is list and len(p) == 3 and type(p[0]) is str and type(p[1]) is str:
            sig.append((p[0][:100], p[1][:20], bool(p[2])))
    return sig


def _hello_fields(header: dict) -> dict:
    """The hello frame's fields, each checked as untrusted: strings cut to a length, lists and
    dicts of strings with bounded counts; a field of another type is dropped."""
    if header.get("ok") is not True:
        return {"ok": False, "type": text(header.get("type"), 100),
                "message": text(header.get("message"), 2000),
                "where": text(header.get("where"), 300),
                "printed": text(header.get("printed"), 8000), "functions": {}}
    funcs = header.get("functions")
    funcs = funcs if type(funcs) is dict else {}
    origin = header.get("origin")
    origin = origin if type(origin) is dict else {}
    uses = header.get("uses")
    uses = uses if type(uses) is dict else {}
    return {"ok": True,
            "functions": {k[:600]: _signature_of(v) for k, v in list(funcs.items())[:20000]},
            "origin": {k[:600]: text(v, 300) for k, v in list(origin.items())[:20000]},
            "uses": _capped_uses(uses),
            "notes": texts(header.get("notes"), 200, 500),
            "kind": text(header.get("kind"), 20),
            "modules": _modules_of(header.get("modules")),
            "modules_dropped": max(0, len(header["modules"]) - MAX_MODULES)
            if type(header.get("modules")) is list else 0,
            "main_only": {k[:100]: text(v, 200)
                          for k, v in list(_dict(header.get("main_only")).items())[:200]},
            "printed": text(header.get("printed"), 8000)}


#: The most modules of a submission's inventory that the grader reads (discover.MAX_MODULES
#: imports 400), and of functions per module
MAX_MODULES = 2000
MAX_MODULE_FUNCTIONS = 1000


def _error_of(x) -> dict:
    x = _dict(x)
    return {"type": text(x.get("type"), 100), "message": text(x.get("message"), 500),
            "where": text(x.get("where"), 300)}


def _modules_of(x) -> list:
    """The hello's inventory (`mlpr.grading.child.discover.inventory`) as untrusted data: at
    most `MAX_MODULES` modules, each ``{"path", "status", "error", "course", "functions":
    [[qualname, bool, bool]], "prints": {qualname: bool}, "notes"}`` with its strings cut; an
    entry of another shape is dropped."""
    out = []
    for m in x[:MAX_MODULES] if type(x) is list else []:
        if type(m) is not dict or type(m.get("path")) is not str:
            continue
        funcs = []
        for f in m.get("functions", [])[:MAX_MODULE_FUNCTIONS] \
                if type(m.get("functions")) is list else []:
            if type(f) is list and len(f) == 3 and type(f[0]) is str:
                funcs.append([f[0][:200], f[1] is True, f[2] is True])
        prints = _dict(m.get("prints"))
        out.append({"path": m["path"][:300],
                    "status": text(m.get("status"), 20),
                    "error": _error_of(m.get("error")) if m.get("error") is not None else None,
                    "course": text(m.get("course"), 200),
                    "functions": funcs,
                    "prints": {k[:200]: v is True
                               for k, v in list(prints.items())[:MAX_MODULE_FUNCTIONS]},
                    "notes": texts(m.get("notes"), 20, 300)})
    return out


#: The most references between a submission's functions that the grader keeps (`_capped_uses`):
#: a course repository has a few hundred; the graph is walked once per failed task
MAX_USES = 20_000


def _capped_uses(uses: dict) -> dict:
    """The ``uses`` graph of the hello frame: string names cut to 200 characters, at most 100
    references per function and `MAX_USES` in all (the rest dropped)."""
    out, total = {}, 0
    for k, v in list(uses.items())[:5000]:
        if type(k) is not str or total >= MAX_USES:
            continue
        refs = texts(v, min(100, MAX_USES - total), 600)
        out[k[:600]] = refs
        total += len(refs)
    return out


def _dict(x) -> dict:
    """An untrusted field that should be a dict with string keys: its string-keyed items."""
    return {k: v for k, v in x.items() if type(k) is str} if type(x) is dict else {}


class Child:
    """The submission's process, seen from the grader: its channel, its deadline, and what it
    printed and opened since the last `take`."""

    def __init__(self, kind: str, workdir: Path, submission_name: str, slot: int,
                 limits: sandbox.Limits, env: dict | None = None):
        to_child_r, self._out = os.pipe()
        self._in, from_child_w = os.pipe()
        self.box = sandbox.Sandbox(kind, workdir, submission_name, slot, limits, env)
        try:
            self.box.start((to_child_r, from_child_w))
        finally:
            os.close(to_child_r)
            os.close(from_child_w)
        os.set_blocking(self._out, False)  # every write is bounded by the deadline (`_send`)
        self.deadline = time.monotonic() + IMPORT_TIMEOUT
        self.limit = IMPORT_TIMEOUT
        self.printed: list = []
        self.opened: list = []
        self.frames = 0  # read in this task
        self.dropped = {"printed": 0, "opened": 0}  # characters and names past the caps
        self.functions: dict = {}
        self.main_only: dict = {}
        self.callbacks: list = []  # the grader's functions the current task passed (kernels)

    # -- the channel
    def _read(self, n: int) -> bytes:
        """Exactly ``n`` bytes from the child, into a buffer allocated once (linear time: a frame
        of many small pipe reads is never copied again), within the deadline."""
        data, got = bytearray(n), 0
        view = memoryview(data)
        while got < n:
            left = self.deadline - time.monotonic()
            ready = select.select([self._in], [], [], max(left, 0))[0] if left > 0 else []
            if not ready:
                raise ChildGone(f"hangs: no answer within the time limit of {self.limit:g} s")
            k = os.readv(self._in, [view[got:got + (1 << 20)]])
            if not k:
                raise ChildGone(self._death())
            got += k
        return bytes(data)

    def _death(self) -> str:
        with contextlib.suppress(Exception):
            self.box.proc.wait(timeout=2)
        code = self.box.proc.returncode if self.box.proc else None
        if code is None:
            return "the process running the submission closed its channel"
        if code < 0:
            return f"the process running the submission died (killed by signal {-code})"
        return (f"the process running the submission exited (status {code}) instead of "
                f"answering: os._exit, a crash, or a limit of the sandbox")

    def receive(self) -> tuple:
        """One frame from the child: ``(header, blobs)``, the header a dict whose ``op`` is a
        string (every other field is checked where it is read); a frame over the caps
        (`MAX_HEADER`, `MAX_BLOBS`), malformed, or of another shape ends the child
        (`ChildGone`)."""
        try:
            header, blobs = wire.parse_frame(self._read, MAX_HEADER, MAX_BLOBS)
        except ChildGone:
            raise
        except wire.FrameTooLarge as exc:
            raise ChildGone(f"the submission's process sent a frame too large for any answer of "
                            f"the course's tasks: {exc}") from None
        except Exception as exc:  # a frame that is not ours: the child wrote on its channel
            raise ChildGone(f"the submission's process sent what is not plain data "
                            f"({type(exc).__name__})") from None
        if type(header) is not dict or type(header.get("op")) is not str:
            raise ChildGone("the submission's process did not answer as the harness does (a "
                            "frame whose header is not an object with an op)")
        return header, blobs

    def _send(self, header: dict, blobs=()) -> None:
        """Write one frame within the deadline: a child that stops reading its requests (a full
        pipe) fails the task instead of blocking the grader."""
        data = memoryview(wire.frame_bytes(header, blobs))
        while data:
            left = self.deadline - time.monotonic()
            ready = select.select([], [self._out], [], max(left, 0))[1] if left > 0 else []
            if not ready:
                raise ChildGone(f"stopped reading the grader's requests: a request not taken "
                                f"within the time limit of {self.limit:g} s")
            try:
                data = data[os.write(self._out, data[:1 << 16]):]
            except BlockingIOError:
                continue
            except OSError:
                raise ChildGone(self._death()) from None

    def _decode(self, value, blobs):
        def function(tag, handle):
            if tag != "$fn":
                raise ValueError("the submission sent a grader's function")
            return RemoteFunction(self, handle, f"the function it returned (#{handle})")

        try:
            return wire.decode(value, blobs, function)
        except Exception as exc:
            raise ChildGone(f"the submission's process sent what is not plain data "
                            f"({exc})") from None

    # -- the protocol
    def hello(self, timeout: float) -> dict:
        """The answer to the import, every field checked (`_hello_fields`): ``{"ok": True,
        "functions", "origin", "uses", "notes", "printed"}`` or ``{"ok": False, "type",
        "message", "where", "printed"}``, all plain strings, lists and dicts."""
        self.limit, self.deadline = timeout, time.monotonic() + timeout
        header, _ = self.receive()
        if header["op"] != "hello":
            raise ChildGone("the submission's process did not answer as the harness does")
        hello = _hello_fields(header)
        self.functions = hello["functions"]
        self.main_only = hello.get("main_only", {})
        return hello

    def function(self, name: str) -> RemoteFunction:
        return RemoteFunction(self, name, name, self.functions.get(name, []))

    def begin(self, timeout: float) -> None:
        """Start a task: its time limit, nothing printed or opened yet, and no function of the
        grader's callable (those of the last task are forgotten)."""
        self.limit, self.deadline = timeout, time.monotonic() + timeout
        self.printed, self.opened, self.callbacks = [], [], []
        self.frames, self.dropped = 0, {"printed": 0, "opened": 0}

    def define(self, base: str, name: str, source: str, line: int,
               install: str | None = None, soft: float | None = None,
               trace: bool = False) -> RemoteFunction:
        """A candidate repair of the submission's function ``base`` (`mlpr.grading.repair`):
        ``source`` compiled in the child, beside the original, as the function ``name``; with
        ``install``, ``name`` is the submission's function ``install`` run with the candidate
        in the helper ``base``'s place; with ``soft``, each call is interrupted in the child
        after that many seconds (a loop fails its case without ending the process); with
        ``trace``, ``name`` returns the values its lines leave in its variables instead of its
        answer (`mlpr.grading.locate`). A candidate that does not compile raises
        `StudentRaised`."""
        self._send({"op": "define", "base": base, "name": name, "source": source,
                    "line": line, "install": install,
                    "soft": None if soft is None else float(soft), "trace": bool(trace)})
        self._answer()
        return RemoteFunction(self, name, name, self.functions.get(install or base, []))

    def call(self, target, args: tuple, kwargs: dict):
        callbacks = self.callbacks
        blobs: list = []
        try:
            header = {"op": "call", "function": target,
                      "args": wire.encode(list(args), blobs, callbacks),
                      "kwargs": wire.encode(dict(kwargs), blobs, callbacks)}
        except (TypeError, ValueError) as exc:  # the grader's own inputs: a bug of the kit
            raise KitError(f"the kit cannot send its inputs: {exc}") from None
        self._send(header, blobs)
        return self._answer()

    def _answer(self):
        """The child's answer to the last request: its value, a `StudentRaised`, or (a frame
        the harness never sends) `ChildGone`; the grader's functions it calls meanwhile are
        answered."""
        callbacks = self.callbacks
        while True:
            header, blobs = self.receive()
            self.frames += 1
            if self.frames > MAX_FRAMES:
                raise ChildGone(f"sent more than {MAX_FRAMES} frames in one task (a course "
                                f"task's function calls the grader a few hundred times at most)")
            op = header["op"]
            self._keep(text(header.get("printed"), 4000), texts(header.get("opened"), 5, 300))
            if op == "callback":
                self._answer_callback(header, blobs, callbacks)
            elif op == "return":
                return self._decode(header.get("value"), blobs)
            elif op == "raise":
                raise StudentRaised(text(header.get("type"), 100) or "Exception",
                                    text(header.get("message"), 2000),
                                    text(header.get("where"), 300))
            else:
                raise ChildGone("the submission's process did not answer as the harness does")

    def _answer_callback(self, header: dict, blobs: list, callbacks: list) -> None:
        i = header.get("id")
        try:
            if type(i) is not int or not 0 <= i < len(callbacks):
                raise ValueError("no such function")
            args = wire.decode(header.get("args"), blobs)
            value = _checked_callback(callbacks[i])(*args)
            out: list = []
            self._send({"op": "return", "value": wire.encode(value, out, [])}, out)
        except ChildGone:
            raise
        except Exception as exc:
            self._send({"op": "raise", "message": f"{type(exc).__name__}: {exc}"})

    def _keep(self, printed: str, opened: list) -> None:
        """What the task printed and opened, up to the per-task caps (the rest counted)."""
        room = MAX_PRINTED - sum(map(len, self.printed))
        if printed:
            self.printed.append(printed[:max(room, 0)])
            self.dropped["printed"] += max(len(printed) - max(room, 0), 0)
        room = MAX_OPENED - len(self.opened)
        self.opened += opened[:max(room, 0)]
        self.dropped["opened"] += max(len(opened) - max(room, 0), 0)

    def take_printed(self) -> str:
        text = "".join(self.printed)
        if self.dropped["printed"]:
            text += f"\n[... {self.dropped['printed']:,} more characters not kept]"
        self.printed, self.dropped["printed"] = [], 0
        return text

    def kill(self) -> list:
        """Kill the child (`Sandbox.kill`); the notes of its clean-up."""
        self.box.kill()
        for fd in (self._in, self._out):
            with contextlib.suppress(OSError):
                os.close(fd)
        notes, self.box.notes = self.box.notes, []
        return notes

