r"""The trusted runner: grade a submission whose code runs in another process.

The grader's process (this module) builds the cases, computes every reference value, compares,
finds the hint and adds up the points. The submission runs in a process of its own
(`mlpr.grading.child.harness`, started by `mlpr.grading.sandbox`) that holds none of these: it
performs the calls it is sent and answers with plain data, in the wire codec both sides share
(`mlpr.grading.child.wire`). A function of the submission is a
`RemoteFunction` here; calling it sends the grader's inputs and waits for the answer, within the
task's time limit; a function it returns (a scoring function, a kernel) is a `RemoteFunction`
too, and a function of the grader's passed to it (a kernel) is called back through the channel.

Nothing from the child is trusted beyond plain data: what comes back is converted to float
arrays by the comparisons (or fails with the reason), a child that dies, hangs or sends what is
not plain data fails the task it was running, and each task is capped at its points.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import inspect
import os
import select
import tempfile
import time
import traceback
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from mlpr.grading import sandbox
from mlpr.grading.catalogue import tasks
from mlpr.grading.child import wire
from mlpr.grading.framework import (
    Case,
    Comparison,
    Fail,
    KitError,
    Task,
    TaskResult,
    closed_form,
    diagnose,
    unreadable,
)

__all__ = ["TASK_TIMEOUT", "IMPORT_TIMEOUT", "ChildGone", "StudentRaised", "RemoteFunction",
           "Child", "Report", "run_case", "run_task", "grade_functions", "grade",
           "downstream_hints", "kit_error", "MAX_HEADER", "MAX_BLOBS", "CHILD"]

#: Default time limit of one task of a submission, in seconds.
TASK_TIMEOUT = 60.0
#: Time limit for starting the submission's process and importing it, in seconds.
IMPORT_TIMEOUT = 60.0
#: The largest kernel matrix a submission may ask the grader to compute through a callback.
MAX_CALLBACK_ENTRIES = 4_000_000
#: Caps of one frame from a submission's process: its JSON header and its arrays (``.npy``
#: blobs). The largest case of the catalogue (inputs and reference together) is 39 KB, about
#: 120 KB as JSON text; the hello frame of a repository with thousands of functions is a few
#: hundred KB. A frame over a cap is refused after its first 8 bytes.
MAX_HEADER = 4 << 20
MAX_BLOBS = 16 << 20
#: The folder staged beside each submission: the harness and the wire codec.
CHILD = Path(wire.__file__).parent


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


def _accepts(fn, parameter: str) -> bool:
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


def _text(x, limit: int) -> str:
    """An untrusted field that should be a string: the string, cut at ``limit``; else ""."""
    return x[:limit] if type(x) is str else ""


def _texts(x, count: int, limit: int) -> list:
    """An untrusted field that should be a list of strings: at most ``count`` of its strings."""
    return [_text(v, limit) for v in x[:count] if type(v) is str] if type(x) is list else []


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
        return {"ok": False, "type": _text(header.get("type"), 100),
                "message": _text(header.get("message"), 2000),
                "where": _text(header.get("where"), 300),
                "printed": _text(header.get("printed"), 8000), "functions": {}}
    funcs = header.get("functions")
    funcs = funcs if type(funcs) is dict else {}
    origin = header.get("origin")
    origin = origin if type(origin) is dict else {}
    uses = header.get("uses")
    uses = uses if type(uses) is dict else {}
    return {"ok": True,
            "functions": {k[:200]: _signature_of(v) for k, v in list(funcs.items())[:5000]},
            "origin": {k[:200]: _text(v, 200) for k, v in list(origin.items())[:5000]},
            "uses": {k[:200]: _texts(v, 100, 200) for k, v in list(uses.items())[:5000]},
            "notes": _texts(header.get("notes"), 20, 300),
            "main_only": {k[:100]: _text(v, 200)
                          for k, v in list(_dict(header.get("main_only")).items())[:200]},
            "printed": _text(header.get("printed"), 8000)}


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
        self.deadline = time.monotonic() + IMPORT_TIMEOUT
        self.limit = IMPORT_TIMEOUT
        self.printed: list = []
        self.opened: list = []
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
        try:
            wire.write_frame(self._out, header, blobs)
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
        while True:
            header, blobs = self.receive()
            op = header["op"]
            printed = _text(header.get("printed"), 4000)
            if printed:
                self.printed.append(printed)
            self.opened += _texts(header.get("opened"), 5, 300)
            if op == "callback":
                self._answer_callback(header, blobs, callbacks)
            elif op == "return":
                return self._decode(header.get("value"), blobs)
            elif op == "raise":
                raise StudentRaised(_text(header.get("type"), 100) or "Exception",
                                    _text(header.get("message"), 2000),
                                    _text(header.get("where"), 300))
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

    def take_printed(self) -> str:
        text = "".join(self.printed)
        self.printed = []
        return text

    def kill(self) -> None:
        self.box.kill()
        for fd in (self._in, self._out):
            with contextlib.suppress(OSError):
                os.close(fd)


# ------------------------------------------------------------------------------------------------
# one task: call, post-process, compare, diagnose (all here, in the grader's process)


def _call(fn, case: Case, task: Task | None = None):
    """Call the student's function on a copy of the case's inputs; `Fail` with the reason when it
    raises or opens a file."""
    args = copy.deepcopy(case.args)
    kwargs = copy.deepcopy(case.kwargs)
    kwargs.update({k: v for k, v in case.quiet.items() if _accepts(fn, k)})
    try:
        out = fn(*args, **kwargs)
    except (Fail, ChildGone):
        raise
    except StudentRaised as exc:
        raise Fail(*_explain_raised(fn, exc, case)) from None
    except Exception as exc:  # a function of this process (grade_functions)
        raise Fail(*_explain_raised(fn, _as_raised(exc), case)) from None
    if isinstance(fn, RemoteFunction):
        allowed = {f"/{f}" for f in (task.files if task else ())}
        opened = [p for p in fn.child.opened if not any(p.endswith(a) for a in allowed)]
        if opened:
            raise Fail(f"the function opened the file {opened[0]!r}",
                       hint="graded functions take their data as arguments and read or write no "
                            "file")
    return out


def _as_raised(exc: Exception) -> StudentRaised:
    where = ""
    for frame in reversed(inspect.trace()[1:] or []):
        if "mlpr/grading" not in frame.filename.replace(os.sep, "/"):
            where = f"{Path(frame.filename).name}, line {frame.lineno}"
            break
    return StudentRaised(type(exc).__name__, str(exc), where)


#: numpy >= 2.4's refusal to convert a 1-element array to a Python scalar ('%e' % array,
#: float(array)), which the course's code relies on when it prints
_SCALAR_REFUSAL = "only 0-dimensional arrays can be converted to Python scalars"


def _explain_raised(fn, exc: StudentRaised, case: Case) -> tuple:
    where = f" (at {exc.where})" if exc.where else ""
    msg = f"raised {exc.type_name}: {exc.message}{where}"
    main_only = getattr(getattr(fn, "child", None), "main_only", {})
    if exc.type_name == "NameError":
        name = exc.message.split("'")[1] if exc.message.count("'") >= 2 else ""
        if name in main_only:
            return (msg, f"{name} is assigned only under if __name__ == '__main__': in "
                         f"{main_only[name]}, which does not run when the module is imported "
                         f"(as the kit imports it); define {name} at the module's top level, or "
                         f"pass it as an argument")
    if exc.type_name == "TypeError" and _SCALAR_REFUSAL in exc.message:
        return (msg, "numpy >= 2.4 no longer converts a 1-element array to a float ('%e' % "
                     "array, float(array)), which the course's code does when it prints; write "
                     "array.item() or array[0], or grade with the numpy the course's code runs "
                     "on (python -m mlpr.grading --python PATH, an environment with numpy < "
                     "2.4, as the Gradescope autograder's submissions' environment has)")
    if exc.type_name == "TypeError" and ("argument" in exc.message or
                                         "positional" in exc.message):
        if isinstance(fn, RemoteFunction):
            sig = fn.describe()
        else:
            try:
                sig = str(inspect.signature(fn))
            except (TypeError, ValueError):
                sig = "(...)"
        return (msg, f"the function's signature {fn.__name__}{sig} does not take the course's "
                     f"arguments ({_describe_args(case)}); rename it or adapt the signature")
    return msg, None


def _describe_args(case: Case) -> str:
    parts = []
    for a in case.args:
        if isinstance(a, np.ndarray):
            parts.append(f"array {a.shape}")
        elif callable(a):
            parts.append("a function")
        else:
            parts.append(type(a).__name__)
    parts += [f"{k}=..." for k in case.kwargs]
    return ", ".join(parts)


def run_case(fn, case: Case, task: Task | None = None) -> Comparison:
    """Run one case: call, post-process, compare; `Fail` with the likely mistake when wrong.

    Everything done with the student's value is confined to this case: an exception while it is
    read (``case.post``), compared or diagnosed fails the case with what the value was, in words
    (`mlpr.grading.framework.unreadable`), never the run."""
    out = _call(fn, case, task)
    compare = case.compare or closed_form()
    try:
        got = case.post(out) if case.post is not None else out
        result = compare(got, case.expected)
    except StudentRaised as exc:  # a function the student's function returned
        raise Fail(f"the function it returned raised {exc.type_name}: {exc.message}") from None
    except Fail as exc:  # the answer's form is wrong: a known mistake of that form first
        if case.post is None:
            exc.hint = (_safe_diagnose(out, case, compare, numeric=False) or exc.hint
                        or _safe_diagnose(out, case, compare) or _tuple_hint(out, case, compare))
        raise
    except (ChildGone, KitError):
        raise
    except Exception as exc:  # the kit could not read this value: the value's doing
        raise Fail(unreadable(out, exc)) from None
    if not result.ok:
        hint = _safe_diagnose(got, case, compare) or (
            _tuple_hint(out, case, compare) if case.post is None else None)
        raise Fail(f"{result.detail} {result.err:.3g} > tolerance {result.tol:.3g}", hint=hint,
                   err=result.err, tol=result.tol)
    return result


def _tuple_hint(out, case: Case, compare) -> str | None:
    """When the answer is a tuple or list one of whose elements is the right answer: say so."""
    if not isinstance(out, (tuple, list)) or not 1 < len(out) <= 10:
        return None
    for k, item in enumerate(out):
        try:
            if compare(item, case.expected).ok:
                return (f"returns a {type(out).__name__} of {len(out)}; its element {k} is the "
                        f"right answer: return only that")
        except Exception:  # an element of another form
            continue
    return None


def _safe_diagnose(got, case: Case, compare, numeric: bool = True) -> str | None:
    """`diagnose`, with any exception that the student's value causes there giving no hint."""
    try:
        return diagnose(got, case.expected, case.mistakes, compare, case.context, numeric)
    except (ChildGone, KitError):
        raise
    except StudentRaised:
        return None
    except Exception:
        return None


def run_task(task: Task, fn) -> TaskResult:
    """Grade one task: every case must pass; the result reports the worst error measured.
    `ChildGone` passes through (the caller restarts the submission's process)."""
    t0 = time.perf_counter()
    worst: Comparison | None = None
    try:
        for case in task.cases():
            try:
                c = run_case(fn, case, task)
            except Fail as exc:
                exc.message = f"{case.what}: {exc.message}"
                raise
            if worst is None or c.err / max(c.tol, 1e-300) > worst.err / max(worst.tol, 1e-300):
                worst = c
    except Fail as exc:
        return TaskResult(task.name, task.lab, "failed", 0.0, task.points, exc.err, exc.tol,
                          exc.message, exc.hint, time.perf_counter() - t0)
    return TaskResult(task.name, task.lab, "passed", task.points, task.points,
                      worst.err if worst else None, worst.tol if worst else None, "", None,
                      time.perf_counter() - t0)


def grade_functions(functions: dict, names: Sequence[str] | None = None) -> list:
    """Grade a dict ``{course name: function}`` in this process, without isolation or time limit
    (for trusted code: a TA's own solution, the tests of the kit): a list of `TaskResult`, one
    per task whose function is in ``functions`` (or per name of ``names``, missing ones
    failing)."""
    catalogue = tasks(everything=True)
    wanted = list(names) if names is not None else [
        n for n, t in catalogue.items() if t.function_name in functions and not t.extra]
    results = []
    for n in wanted:
        task = catalogue[n]
        f = task.function_name
        if f not in functions:
            results.append(_missing(task))
        else:
            results.append(run_task(task, functions[f]))
    downstream_hints(results, {name: wire.uses(f, functions) for name, f in functions.items()})
    return results


def downstream_hints(results: list, uses: dict, given: dict | None = None) -> None:
    """Name the cause of a failure that another failed function of the student's explains: when
    a failed task's function calls (directly or through other functions of the submission) a
    function whose own task failed, its hint says so first. ``uses`` is ``{function: [functions
    of the submission it refers to]}``; ``given`` maps a course name to the submission's."""
    catalogue = tasks(everything=True)
    given = given or {}
    failed = {}
    for r in results:
        if r.status == "failed" and r.name in catalogue and "has no function" not in r.message:
            failed.setdefault(given.get(catalogue[r.name].function_name,
                                        catalogue[r.name].function_name), r)
    hints = {f: (r.hint or r.message, r.title) for f, r in failed.items()}

    def cause(f: str, seen: frozenset = frozenset()) -> str:
        """The deepest failed function that ``f`` relies on (``f`` itself if none)."""
        todo, visited = list(uses.get(f, [])), set(seen) | {f}
        while todo:
            g = todo.pop(0)
            if g in visited:
                continue
            visited.add(g)
            if g in failed:
                return cause(g, frozenset(visited))
            todo += uses.get(g, [])
        return f

    for own, r in list(failed.items()):
        root = cause(own)
        if root != own:
            why, title = hints[root]
            r.hint = (f"your {root} fails its own task ({title}: {why}); this task uses it"
                      + (f". Also: {r.hint}" if r.hint else ""))


def _missing(task: Task) -> TaskResult:
    f = task.function_name
    return TaskResult(task.name, task.lab, "failed", 0.0, task.points,
                      message=f"the submission has no function {f}",
                      hint=f"define {f}{task.signature}, or name yours with --map {f}=your_name")


# ------------------------------------------------------------------------------------------------
# one submission


@dataclasses.dataclass
class Report:
    """The grading of one submission: its task results, the names it defines that no task
    grades, notes on loading it, and the isolation and seed of the run."""

    submission: str
    results: list
    not_graded: list
    notes: list
    seconds: float = 0.0
    isolation: str = ""
    seed: int | None = None
    not_written: list = dataclasses.field(default_factory=list)

    @property
    def score(self) -> float:
        return float(sum(min(r.points, r.max_points) for r in self.results))

    @property
    def max_score(self) -> float:
        return float(sum(r.max_points for r in self.results))

    @property
    def passed(self) -> bool:
        return bool(self.results) and all(r.status == "passed" for r in self.results)


def _data_files(catalogue: dict) -> dict:
    """The data files that loading tasks read (the course's ``iris.csv``): {name: path}."""
    from mlpr.datasets import data_dir

    return {f: data_dir() / f for t in catalogue.values() for f in t.files
            if (data_dir() / f).exists()}


def grade(path, labs: Sequence[int] | None = None, mapping: dict | None = None,
          timeout: float = TASK_TIMEOUT, import_timeout: float = IMPORT_TIMEOUT,
          isolation: str = "auto", fail_on_print: bool = False, slot: int = 0,
          limits: sandbox.Limits | None = None, seed: int | None = None,
          extra: bool = False, solution_folders: bool = False) -> Report:
    """Grade one submission in a sandboxed process of its own.

    Parameters
    ----------
    path : path-like
        A ``.py`` file or a folder of modules.
    labs : sequence of int, optional
        Grade every task of these labs (a missing function then fails its task). By default the
        tasks whose function the submission defines; the course functions it does not define are
        listed as not written.
    mapping : dict, optional
        ``{course name: the submission's name}`` for functions named otherwise.
    timeout, import_timeout : float
        Time limits of each task and of starting and importing the submission, in seconds: a
        task that runs longer fails ("hangs"), its process is killed and the next task runs in
        a new one.
    isolation : {"auto", "bubblewrap", "user", "process"}
        The sandbox (`mlpr.grading.sandbox`); "auto" takes the strongest available.
    fail_on_print : bool
        Fail a task whose function prints (by default printing is shown, not penalised).
    slot : int
        Which of the concurrent sandboxes this is (its user id).
    seed : int, optional
        The run's seed, recorded in the report (the cases are drawn by
        `mlpr.grading.catalogue.set_seed` before grading).
    extra : bool
        Also grade the tasks under names of the kit's own (`Task.extra`).
    solution_folders : bool
        Grade the files of a repository's course-solution folders too (``solution/``,
        ``sol/``, ``soluzione/``, ...): by default they are left out and listed.
    """
    t0 = time.perf_counter()
    mapping = dict(mapping or {})
    kind = sandbox.choose(isolation)
    catalogue = default = tasks(labs, everything=extra)
    if Path(path).is_symlink() and not Path(path).exists():
        reason = "the submission is a link to nothing (a dangling symbolic link)"
        return Report(str(path), [TaskResult(t.name, t.lab, "failed", 0.0, t.points,
                                             message=reason) for t in default.values()],
                      [], [reason], time.perf_counter() - t0, kind, seed)
    path = Path(path).resolve()
    if not path.exists():
        raise FileNotFoundError(f"submission {path} does not exist")
    notes: list = []
    results: list = []
    with tempfile.TemporaryDirectory(prefix="mlpr-grading-") as tmp:
        workdir = Path(tmp)
        notes += sandbox.Sandbox.stage(kind, workdir, CHILD, path, _data_files(catalogue), slot)

        def start() -> tuple:
            child = Child(kind, workdir, path.name, slot, limits or sandbox.Limits(),
                          {"MLPR_GRADE_SOLUTION_FOLDERS": "1"} if solution_folders else None)
            try:
                return child, child.hello(import_timeout)
            except ChildGone as exc:
                child.kill()
                return None, {"ok": False, "message": exc.reason, "type": ""}

        child, hello = start()
        if hello.get("ok") and not child.functions:
            hello = {"ok": False, "type": "", "message": "the submission defines no function"}
        if not hello.get("ok"):
            if child is not None:
                child.kill()
            reason = _import_failure(hello, import_timeout)
            results = [TaskResult(t.name, t.lab, "failed", 0.0, t.points, message=reason)
                       for t in default.values()]
            return Report(str(path), results, [], [reason] + notes,
                          time.perf_counter() - t0, kind, seed)
        names = set(child.functions)
        notes += [f"loading the submission: {n}" for n in hello["notes"]]
        if hello["printed"].strip():
            notes.append("the submission printed when imported (its labs' scripts run on "
                         "import?): " + hello["printed"].strip().splitlines()[0][:100])
        for course, student in mapping.items():
            if student not in names:
                notes.append(f"--map {course}={student}: the submission has no function "
                             f"{student}")
        given = {f: mapping[f] if mapping.get(f) in names else f
                 for f in {t.function_name for t in default.values()}}
        present = {f for f, g in given.items() if g in names}
        chosen = [t for t in default.values() if labs is not None or t.function_name in present]
        not_written = sorted({t.function_name for t in default.values()} - present) \
            if labs is None else []
        if not chosen:
            shown = ", ".join(sorted(n for n in names if not n.startswith("_"))[:8]) or \
                "no public function"
            notes.append(f"no task graded (0 / 0 points): the submission defines none of the "
                         f"course's functions under the course's names (it defines {shown}); "
                         f"python -m mlpr.grading --list names them, "
                         f"--map COURSE=YOURS maps yours, --lab N grades a lab's tasks (a "
                         f"missing function then counts 0)")
        for task in chosen:
            f = task.function_name
            if f not in present:
                results.append(_missing(task))
                continue
            if child is None:
                child, hello = start()
                if child is None or not hello.get("ok"):
                    child = None
                    results.append(TaskResult(task.name, task.lab, "failed", 0.0, task.points,
                                              message="the submission could not be restarted "
                                                      "after its last task: "
                                                      + _import_failure(hello, import_timeout)))
                    continue
            child.begin(timeout)
            t1 = time.perf_counter()
            try:
                result = run_task(task, child.function(given[f]))
            except ChildGone as exc:
                child.kill()
                child = None
                result = TaskResult(task.name, task.lab, "failed", 0.0, task.points,
                                    message=exc.reason, seconds=time.perf_counter() - t1)
            except Exception:  # the kit's own code failed: said so, with its traceback
                child.kill()  # it may be mid-call: the next task gets a new process
                child = None
                result = kit_error(task, traceback.format_exc(), time.perf_counter() - t1)
            result.file = hello.get("origin", {}).get(given[f], "")
            out = child.take_printed() if child is not None else ""
            if out.strip():
                lines = out.strip().splitlines()
                result.printed = "\n".join(lines[:3]) + (
                    f"\n... ({len(lines)} lines)" if len(lines) > 3 else "")
                if fail_on_print and result.status == "passed":
                    result = dataclasses.replace(
                        result, status="failed", points=0.0,
                        message=f"the function printed {len(lines)} line(s) "
                                f"(--fail-on-print)")
            results.append(result)
        if child is not None:
            child.kill()
    downstream_hints(results, hello.get("uses", {}), given)
    graded = {t.function_name for t in tasks(everything=True).values()} | set(mapping) | {
        "vcol", "vrow"} | set(mapping.values())
    not_graded = sorted(n for n in names - graded if not n.startswith("_"))
    return Report(str(path), results, not_graded, notes, time.perf_counter() - t0, kind, seed,
                  not_written)


def kit_error(task: Task, trace: str, seconds: float = 0.0) -> TaskResult:
    """The result of a task on which the kit's own code failed: status "error", no points, the
    traceback kept (`TaskResult.trace`); the submission is not blamed."""
    last = trace.strip().splitlines()[-1] if trace.strip() else "?"
    return TaskResult(task.name, task.lab, "error", 0.0, task.points,
                      message=f"the kit failed on this task, not the submission ({last}): "
                              f"report it to the course staff with the seed",
                      seconds=seconds, trace=trace)


def _import_failure(hello: dict, import_timeout: float) -> str:
    kind = _text(hello.get("type"), 100)
    message = _text(hello.get("message"), 500)
    where = _text(hello.get("where"), 200)
    if not kind:
        return f"the submission could not be imported: {message}"
    return (f"importing the submission raised {kind}: {message}"
            + (f" (at {where})" if where else ""))
