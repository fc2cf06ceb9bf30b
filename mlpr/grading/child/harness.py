"""The untrusted side of the grading kit: the one process that imports a submission.

``python -I harness.py SUBMISSION IN_FD OUT_FD`` runs inside the sandbox (`mlpr.grading.sandbox`)
with its channel to the grader on the two inherited file descriptors (requests in, answers out).
It imports nothing of mlpr and holds no case, reference, tolerance or comparison: it imports the
student's modules, performs the calls the grader sends (a course function on the grader's inputs,
or a function that an earlier call returned, such as a scoring function), and answers with plain
data. Whatever it sends, the grader only reads as the student's answer; a status, a score or a
message never comes from here. The frames and plain data are those of the wire codec beside it
(`mlpr.grading.child.wire`), which the sandbox stages with it.
"""

import ast
import importlib.abc
import importlib.util
import inspect
import io
import os
import signal
import sys
import tempfile
import textwrap
import traceback
from pathlib import Path

if __package__:  # imported as mlpr.grading.child.harness (student mode, the kit's tests)
    from . import discover, wire
else:  # run as a script in the sandbox (``python -I``: its folder is not on sys.path): the
    # codec is staged beside it, loaded by path under a name no submission's module can take
    _spec = importlib.util.spec_from_file_location("_mlpr_grading_wire",
                                                   Path(__file__).with_name("wire.py"))
    wire = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(wire)
    _spec = importlib.util.spec_from_file_location("_mlpr_grading_discover",
                                                   Path(__file__).with_name("discover.py"))
    discover = importlib.util.module_from_spec(_spec)
    sys.modules["_mlpr_grading_discover"] = discover
    _spec.loader.exec_module(discover)

__all__ = ["load", "main"]

IN_FD, OUT_FD = 0, 1  # set by main from the command line


# ------------------------------------------------------------------------------------------------
# the child's side


class _NoReference(importlib.abc.MetaPathFinder):
    """Graded code may not use the reference: ``import mlpr`` fails with that reason (the
    sandbox also leaves mlpr's files out of this process's file system)."""

    def find_spec(self, name, path=None, target=None):
        if name == "mlpr" or name.startswith("mlpr."):
            raise ImportError("graded code may not use the reference: mlpr cannot be imported "
                              "by a submission")
        return None


def _main_only(f: Path) -> list:
    """The names that the module ``f`` assigns only under ``if __name__ == "__main__":`` (they
    do not exist when the module is imported): a function that reads one raises NameError."""
    try:
        tree = ast.parse(discover.read_source(f)[0])
    except (SyntaxError, ValueError, OSError, ImportError):
        return []
    top, main = set(), set()
    for node in tree.body:
        is_main = isinstance(node, ast.If) and "__main__" in ast.unparse(node.test) and \
            "__name__" in ast.unparse(node.test)
        for sub in ast.walk(node) if is_main else [node]:
            if isinstance(sub, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target]
                for t in targets:
                    names = [n.id for n in ast.walk(t) if isinstance(n, ast.Name)]
                    (main if is_main else top).update(names)
            elif isinstance(sub, (ast.FunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)):
                if not is_main:
                    top.update(a.asname or a.name for a in getattr(sub, "names", []))
                    if hasattr(sub, "name") and isinstance(sub.name, str):
                        top.add(sub.name)
    return sorted(main - top)[:200]


MAIN_ONLY: dict = {}  # name -> the file that assigns it only under `if __name__ == "__main__":`


def kind_of(path: Path) -> str:
    """"file" (a module or a notebook), "folder" (modules at its top only) or "repository"."""
    if path.is_file():
        return "file"
    return "folder" if all(p.parent == path for p in discover.sources(path)) else "repository"


def load(path: Path, include_course: bool = False, budget: float = 50.0) -> tuple:
    """Import a submission as its student runs it, every module alone
    (`mlpr.grading.child.discover.inventory`). Returns ``(modules, table)``: the inventory (plain
    data, one dict per module) and ``{path::qualname: callable}``. The course's own files are
    left out unless ``include_course``."""
    modules, table = discover.inventory(path, budget=budget, course=not include_course)
    base = path.parent if path.is_file() else path
    for m in modules:
        if m["status"] == "imported":
            for name in _main_only(base / m["path"]):
                MAIN_ONLY.setdefault(name, m["path"])
    return modules, table


def _uses(table: dict) -> dict:
    """``{id: [ids of the submission's functions its code refers to]}``, each name resolved in
    the globals of the module that defines the function."""
    ids = {id(f): k for k, f in table.items()}
    out = {}
    for k, f in table.items():
        f = getattr(f, "__wrapped__", f)
        names = wire.uses(f, getattr(f, "__globals__", {}))
        g = getattr(f, "__globals__", {})
        out[k] = sorted({ids[id(g[n])] for n in names if id(g.get(n)) in ids})
    return out


def _origin(ident: str) -> str:
    path = ident.partition("::")[0]
    return path


def _signature(f) -> list:
    try:
        return [[p.name, p.kind.name, p.default is not p.empty]
                for p in inspect.signature(f).parameters.values()]
    except (TypeError, ValueError):
        return []


class _Channel:
    def __init__(self):
        self.handles: list = []
        self.opened: list = []
        self.watch = False
        self.capture = tempfile.TemporaryFile()
        os.dup2(self.capture.fileno(), 1)
        os.dup2(self.capture.fileno(), 2)
        sys.stdout = sys.stderr = io.TextIOWrapper(os.fdopen(1, "wb", closefd=False),
                                                   write_through=True, errors="replace")
        skip = {sys.prefix, sys.base_prefix, "/usr", "/etc", "/dev", "/proc", "/sys",
                os.environ.get("MPLCONFIGDIR", "/nonexistent")}
        self.skip = tuple(p for p in skip if p)
        #: the submission's folder: Python reading its own source there (a warning or a
        #: traceback showing the line, a module imported inside a function) is no file access
        self.code: str | None = None
        sys.addaudithook(self._audit)

    def _audit(self, event, args):
        if self.watch and event == "open" and args and isinstance(args[0], (str, bytes)):
            p = os.path.abspath(os.fsdecode(args[0]))
            if self.code and p.startswith(self.code) and p.endswith((".py", ".pyc")):
                return
            if not p.startswith(self.skip) and len(self.opened) < 5:
                self.opened.append(p)

    def read(self, n: int) -> bytes:
        data, got = bytearray(n), 0
        view = memoryview(data)
        while got < n:
            k = os.readv(IN_FD, [view[got:]])
            if not k:
                raise EOFError
            got += k
        return bytes(data)

    def printed(self) -> str:
        sys.stdout.flush()
        self.capture.seek(0)
        text = self.capture.read(8000).decode(errors="replace")
        self.capture.seek(0)
        self.capture.truncate()
        return text

    def send(self, header: dict, blobs=()) -> None:
        wire.write_frame(OUT_FD, header, blobs)

    def send_value(self, op: str, value, **extra) -> None:
        blobs: list = []
        try:
            body = wire.encode(value, blobs, self.handles)
        except Exception as exc:  # an __array__ or __float__ of the student's that raises
            op, body, blobs = "raise", None, []
            extra.update(type="TypeError", message=f"returned what cannot be graded: {exc}",
                         where="")
        self.send({"op": op, "value": body, "printed": self.printed(), "opened": self.opened,
                   **extra}, blobs)

    def callback(self, index: int):
        def grader_function(*args):
            blobs: list = []
            self.send({"op": "callback", "id": index,
                       "args": wire.encode(list(args), blobs, [])}, blobs)
            header, blobs = wire.parse_frame(self.read)
            if header.get("op") != "return":
                raise RuntimeError(header.get("message", "the grader's function failed"))
            return wire.decode(header.get("value"), blobs)
        return grader_function

    def call(self, header: dict, blobs: list, functions: dict) -> None:
        target = header.get("function")
        f = functions.get(target) if isinstance(target, str) else (
            self.handles[target] if type(target) is int and 0 <= target < len(self.handles)
            else None)
        self.opened = []
        try:
            if f is None:
                raise LookupError(f"no function {target!r}")
            args = wire.decode(header.get("args", []), blobs, lambda tag, i: self.callback(i))
            kwargs = wire.decode(header.get("kwargs", {"$d": []}), blobs,
                            lambda tag, i: self.callback(i))
            self.watch = True
            try:
                value = f(*args, **kwargs)
            finally:
                self.watch = False
        except BaseException as exc:  # SystemExit, KeyboardInterrupt included: the student's
            self.watch = False
            self.send({"op": "raise", "type": type(exc).__name__, "message": str(exc)[:2000],
                       "where": _where(exc), "printed": self.printed(), "opened": self.opened})
            return
        self.send_value("return", value)


    def define(self, header: dict, functions: dict) -> None:
        """A candidate repair of one of the submission's functions (the grader's repair search):
        its source, compiled in the globals of the function it replaces (so that it calls the
        submission's other functions as the original does), at the original's first line, and
        kept under a new name of the table; nothing of the module changes. With ``install``
        (a helper's candidate), the new name is the task's function ``install`` run with the
        candidate in the helper's place in the globals that name it, put back after the
        call."""
        base, name = header.get("base"), header.get("name")
        source, line = header.get("source"), header.get("line")
        install, soft = header.get("install"), header.get("soft")
        trace = header.get("trace") is True
        try:
            f = functions.get(base) if isinstance(base, str) else None
            f = getattr(f, "__wrapped__", f)
            code = getattr(f, "__code__", None)
            if code is None or not isinstance(source, str) or not isinstance(name, str) \
                    or type(line) is not int or not 0 < line < 10**6:
                raise LookupError(f"no function {base!r} to repair")
            namespace: dict = {}
            owner = f.__qualname__.rpartition(".")[0]
            if owner and "<" not in owner:  # a method: compiled in a class body of its name
                body = source if source[:1].isspace() else textwrap.indent(source, "    ")
                exec(compile("\n" * (line - 2) + f"class {owner}:\n" + body,
                             code.co_filename, "exec"), f.__globals__, namespace)
                new = _bound(f.__globals__.get(owner), vars(namespace[owner]).get(f.__name__))
            else:
                exec(compile("\n" * (line - 1) + source, code.co_filename, "exec"),
                     f.__globals__, namespace)
                new = namespace.get(f.__name__)
            if not callable(new):
                raise LookupError(f"the candidate defines no {f.__name__}")
            if trace:  # the function's values line by line, not its answer
                new = _traced(new, code)
            elif install is not None:
                new = _installed(functions, install, functions.get(base), f, new)
            if type(soft) is float and 0 < soft < 3600:
                new = _bounded(new, soft)
            functions[name] = new
        except BaseException as exc:  # a candidate that does not compile: said, not fatal
            self.send({"op": "raise", "type": type(exc).__name__, "message": str(exc)[:500],
                       "where": "", "printed": self.printed(), "opened": []})
            return
        self.send_value("return", True)


#: What a traced run keeps at most: values, entries of all of them, line events
TRACE_VALUES, TRACE_ENTRIES, TRACE_EVENTS = 400, 2_000_000, 20_000


def _traced(f, code):
    """``f`` run under ``sys.settrace``: it returns, instead of its answer, the numeric values
    that the lines of the student's function (the frames of ``code``'s file, name and first
    line) leave in its local variables, ``[[line, name, value], ...]`` in the order first seen
    (each line's last value of each name), and ``[line, "return", value]`` for what it returns
    (each element of a tuple): the grader compares them with a formula's values
    (`mlpr.grading.locate`). Arrays of at most `TRACE_ENTRIES` entries, copied."""
    key = (code.co_filename, code.co_name, code.co_firstlineno)
    np = sys.modules.get("numpy")

    def numeric(v):
        if np is not None and isinstance(v, np.ndarray) and v.dtype.kind in "biuf" \
                and v.size <= TRACE_ENTRIES:
            return v.copy()
        if isinstance(v, (int, float)) and not isinstance(v, bool) or \
                (np is not None and isinstance(v, np.number)):
            return float(v)
        return None

    def run(*args, **kwargs):
        records: dict = {}
        seen: dict = {}  # name -> id and fingerprint of its value at the last line
        state = {"events": 0, "entries": 0, "line": None}

        def keep(line, name, value):
            v = numeric(value)
            if v is None or len(records) >= TRACE_VALUES:
                return
            size = getattr(v, "size", 1)
            if state["entries"] + size > TRACE_ENTRIES:
                return
            state["entries"] += size
            records[(line, name)] = v

        def local(frame, event, arg):
            state["events"] += 1
            if state["events"] > TRACE_EVENTS:
                return None
            line = state["line"]
            if line is None:  # the parameters as they came: not a value of the function's
                seen.update((n, (id(v), _digest(v, np))) for n, v in frame.f_locals.items())
            elif event in ("line", "return"):
                for name, value in list(frame.f_locals.items()):
                    mark = (id(value), _digest(value, np))
                    if seen.get(name) != mark:
                        seen[name] = mark
                        keep(line, name, value)
            if event == "return":
                parts = arg if isinstance(arg, (tuple, list)) and len(arg) <= 10 else [arg]
                for k, v in enumerate(parts):
                    keep(frame.f_lineno, "return" if len(parts) == 1 else f"return[{k}]", v)
            state["line"] = frame.f_lineno
            return local

        def outer(frame, event, arg):
            c = frame.f_code
            if event == "call" and (c.co_filename, c.co_name, c.co_firstlineno) == key:
                state["line"] = None
                return local
            return None
        previous = sys.gettrace()
        sys.settrace(outer)
        try:
            f(*args, **kwargs)
        finally:
            sys.settrace(previous)
        return [[line, name, v] for (line, name), v in records.items()]
    return run


def _digest(value, np):
    """What tells a value changed in place: an array's shape and bytes (its sum when large)."""
    if np is None or not isinstance(value, np.ndarray) or value.dtype.kind not in "biuf":
        return None
    return value.shape, (value.tobytes() if value.size <= 512 else float(value.sum()))


def _bound(cls, raw):
    """A candidate method as the task calls it: a static method's function, a class method
    bound to the student's class, any other bound to a new instance of the class (made without
    arguments at the first call, as the original's is)."""
    if isinstance(raw, staticmethod):
        return raw.__func__
    if isinstance(raw, classmethod):
        return raw.__get__(None, cls)
    if not callable(raw) or not isinstance(cls, type):
        return None
    box: list = []

    def method(*args, **kwargs):
        if not box:
            box.append(cls())
        return raw(box[0], *args, **kwargs)
    return method


class CandidateTimeout(BaseException):
    """A candidate repair that ran past its soft time limit (not an Exception: a student's
    ``except Exception`` does not swallow it)."""


def _bounded(f, seconds: float):
    """``f`` interrupted after ``seconds`` by the interval timer: a candidate caught in a loop
    fails its case and leaves the process for the next one (the grader's hard limit still ends
    one that does not give up). The global generators (numpy's legacy one, ``random``) are
    seeded afresh before each call: a candidate passes on its own seeding, never on the state
    the previous run left."""
    def run(*args, **kwargs):
        if "numpy" in sys.modules:
            sys.modules["numpy"].random.seed()
        if "random" in sys.modules:
            sys.modules["random"].seed()

        def stop(signum, frame):
            raise CandidateTimeout(f"the candidate ran past {seconds:g} s")
        try:
            previous = signal.signal(signal.SIGALRM, stop)
        except (ValueError, OSError):  # not the main thread: the hard limit alone
            return f(*args, **kwargs)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            return f(*args, **kwargs)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    return run


def _installed(functions: dict, install, original, raw, candidate):
    """The task's function ``install`` of ``functions``, run with ``candidate`` in the place of
    the helper (``original``, unwrapped ``raw``) in each module's globals that bind it: its own
    and the task function's."""
    target = functions.get(install) if isinstance(install, str) else None
    if not callable(target):
        raise LookupError(f"no function {install!r} to run the candidate in")
    inner = getattr(target, "__wrapped__", target)
    spots = [g for g in {id(g): g for g in (raw.__globals__, getattr(inner, "__globals__", {}))}
             .values() if g.get(raw.__name__) is original or g.get(raw.__name__) is raw]

    def run(*args, **kwargs):
        saved = [(g, g[raw.__name__]) for g in spots]
        for g in spots:
            g[raw.__name__] = candidate
        try:
            return target(*args, **kwargs)
        finally:
            for g, value in saved:
                g[raw.__name__] = value
    return run


def _where(exc: BaseException) -> str:
    """The last frame of the student's code in the traceback: ``file, line N: source`` (for a
    SyntaxError, its file and line)."""
    if getattr(exc, "located", None):
        return exc.located
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if not frame.filename.endswith(("harness.py", "wire.py", "discover.py")):
            cell = discover.cell_of(frame.filename, frame.lineno or 0)
            return (f"{Path(frame.filename).name}" + (f", cell {cell}" if cell else "")
                    + f", line {frame.lineno}: {frame.line}")
    return ""


def main() -> None:
    global IN_FD, OUT_FD
    submission, IN_FD, OUT_FD = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    channel = _Channel()
    channel.code = os.path.join(os.path.abspath(
        submission if submission.is_dir() else submission.parent), "")
    sys.meta_path.insert(0, _NoReference())
    try:
        budget = float(os.environ.get("MLPR_GRADE_IMPORT_SECONDS", "50"))
        modules, table = load(submission, os.environ.get("MLPR_GRADE_COURSE_FILES") == "1",
                              budget)
    except BaseException as exc:  # the kit's discovery itself: said as the submission's
        channel.send({"op": "hello", "ok": False, "type": type(exc).__name__,
                      "message": str(exc)[:2000], "where": _where(exc),
                      "printed": channel.printed()})
        return
    channel.send({"op": "hello", "ok": True, "kind": kind_of(submission), "notes": [],
                  "printed": channel.printed(), "modules": modules,
                  "origin": {k: _origin(k) for k in table}, "main_only": MAIN_ONLY,
                  "uses": _uses(table),
                  "functions": {k: _signature(f) for k, f in table.items()}})
    while True:
        try:
            header, blobs = wire.parse_frame(channel.read)
        except EOFError:
            return
        if header.get("op") == "call":
            channel.call(header, blobs, table)
        elif header.get("op") == "define":
            channel.define(header, table)


if __name__ == "__main__":
    main()
