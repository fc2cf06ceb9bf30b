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
import re
import sys
import tempfile
import traceback
from pathlib import Path

if __package__:  # imported as mlpr.grading.child.harness (student mode, the kit's tests)
    from . import wire
else:  # run as a script in the sandbox (``python -I``: its folder is not on sys.path): the
    # codec is staged beside it, loaded by path under a name no submission's module can take
    _spec = importlib.util.spec_from_file_location("_mlpr_grading_wire",
                                                   Path(__file__).with_name("wire.py"))
    wire = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(wire)

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


def _lab_order(folder: Path) -> tuple:
    """Lab folders in the course's order: by the number in their name (Lab3 before Lab10);
    folders without a number (``project/``, ``utils/``) first, so that a lab's definition is
    never overridden by one of theirs."""
    digits = "".join(c if c.isdigit() else " " for c in folder.name).split()
    return (int(digits[0]) if digits else -1, folder.name)


#: Folder names that hold the course's solution, not the student's work (any letter case).
_SOLUTION_FOLDERS = re.compile(r"(sols?|solutions?|soluzion[ei]|soluciones|solucion|solved|"
                               r"(sol|solution|solutions|soluzione)[-_ ].*)")


def _in_solution_folder(f: Path, root: Path) -> bool:
    """Whether ``f`` sits (below ``root``) in a folder whose name says it holds the course's
    solution: ``solution/``, ``sol/``, ``Solution/``, ``soluzione/``, ``solutions_lab3/``."""
    return any(_SOLUTION_FOLDERS.fullmatch(part.lower())
               for part in f.relative_to(root).parts[:-1])


def _main_only(f: Path) -> list:
    """The names that the module ``f`` assigns only under ``if __name__ == "__main__":`` (they
    do not exist when the module is imported): a function that reads one raises NameError."""
    try:
        tree = ast.parse(f.read_bytes())
    except (SyntaxError, ValueError, OSError):
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


def _package_top(folder: Path, root: Path) -> Path:
    """The outermost package holding the package ``folder``, never above the submission's own
    folder ``root``."""
    top = folder
    while top != root and (top.parent / "__init__.py").is_file():
        top = top.parent
    return top


def _syntax(exc: SyntaxError) -> SyntaxError:
    """A SyntaxError located at the student's file and line, saying when a newer Python accepts
    the line (f-strings that nest the same quotes are valid from Python 3.12, PEP 701)."""
    where = f"{Path(exc.filename or '?').name}, line {exc.lineno}"
    text = (exc.text or "").strip()
    newer = ""
    if sys.version_info < (3, 12) and "f-string" in str(exc.msg):
        newer = (f"; valid in Python >= 3.12 (f-strings that nest the same quotes); this kit "
                 f"runs {sys.version_info.major}.{sys.version_info.minor}")
    out = SyntaxError(f"{exc.msg} ({where}: {text[:120]}){newer}")
    out.located = f"{where}: {text[:120]}"
    return out


def _import(f: Path, strict: bool, notes: list, root: Path):
    """Import ``f`` under its own name, as ``python f`` would find it from its folder."""
    module = sys.modules.get(f.stem)  # already imported by a module before it
    if module is not None and Path(getattr(module, "__file__", None) or "/").resolve() == \
            f.resolve():
        return module
    name = f.stem if f.stem not in sys.modules else f"_submission_{len(sys.modules)}_{f.stem}"
    spec = importlib.util.spec_from_file_location(name, f)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        try:
            spec.loader.exec_module(module)
        except SyntaxError as exc:
            raise _syntax(exc) from None
    except Exception as exc:  # one module does not sink the others
        if strict:
            raise
        del sys.modules[name]
        notes.append(f"{f.relative_to(root)} could not be imported: {type(exc).__name__}: {exc}")
        _FAILED.append(exc)
        return None
    return module


_FAILED: list = []  # the import errors of the modules left out, in order
MAIN_ONLY: dict = {}  # name -> the file that assigns it only under `if __name__ == "__main__":`


def load(path: Path, solution_folders: bool = False) -> tuple:
    """Import a submission as its student runs it. Returns ``({name: function}, {name: file},
    notes)``: a function is taken from the module that defines it (the last one when several
    do), never from one that imports it.

    - a ``.py`` file;
    - a folder of modules (name order, ``test_*`` skipped), the folder on ``sys.path`` so that
      its modules import each other by name;
    - a repository of lab folders (no module at its top): each folder holding modules, lab by
      lab in the course's order, with that folder and the repository's root on ``sys.path``
      (``from gmm import *`` and ``import Lab12.solution.bayesRisk`` both work); a module that
      fails to import is noted and the others are graded; the latest lab's definition wins;
      files in course-solution folders are left out and listed, unless ``solution_folders``.
    """
    top_modules = [] if path.is_file() else sorted(
        p for p in path.glob("*.py") if p.name != "__init__.py" and not p.name.startswith("test_"))
    if path.is_file():
        groups = [(path.parent, [path])]
    elif top_modules:
        groups = [(path, top_modules)]
    else:
        folders = sorted({p.parent for p in path.rglob("*.py") if ".git" not in p.parts
                          and p.name != "__init__.py" and p.parent != path},
                         key=lambda d: (_lab_order(Path(d.relative_to(path).parts[0])), str(d)))
        groups = [(d, sorted(p for p in d.glob("*.py") if not p.name.startswith("test_")
                             and p.name != "__init__.py")) for d in folders]
    repository = path.is_dir() and not top_modules
    notes: list = []
    if repository and not solution_folders:  # the course's solutions are not the student's
        left = [f for _, files in groups for f in files if _in_solution_folder(f, path)]
        for f in left[:10]:
            notes.append(f"left out: {f.relative_to(path)}, a course-solution folder")
        if len(left) > 10:
            notes.append(f"left out: {len(left) - 10} more files of course-solution folders")
        groups = [(d, [f for f in files if f not in left]) for d, files in groups]
    if not any(files for _, files in groups):
        raise ImportError(f"{path.name} holds no .py module" + (
            " outside course-solution folders" if repository and notes else ""))
    folders = {str(d) for d, _ in groups} | {str(path)}  # only the current lab's on the path
    # imports through a package (`import lab_05.x` from a sibling lab whose folders have an
    # __init__.py, `from laboratori.lab10.GMM import GMM` through the repository's own name)
    # find it from the folder above the package's top, and from the folder above the submission
    tops = {str(_package_top(d, path).parent) for d, _ in groups
            if (d / "__init__.py").is_file()} | {str(path.parent)}
    sys.path += sorted(t for t in tops if t not in sys.path)
    functions, origin = {}, {}
    places: dict = {}  # function -> the places that define it, in grading order
    for folder, files in groups:
        if repository:  # a lab's `import gmm` finds its own gmm.py, not another lab's
            for name, m in list(sys.modules.items()):
                f = getattr(m, "__file__", None)
                if f and "." not in name and Path(f).resolve().is_relative_to(path) and \
                        Path(f).resolve().parent != folder.resolve():
                    del sys.modules[name]
            sys.path[:] = [str(folder), str(path)] + [p for p in sys.path if p not in folders]
        else:
            sys.path.insert(0, str(folder))
        for f in files:
            module = _import(f, path.is_file(), notes, path if repository else folder)
            if module is None:
                continue
            where = str(f.relative_to(path)) if repository else f.name
            for name in _main_only(f):
                MAIN_ONLY.setdefault(name, where)
            for key, value in vars(module).items():
                if key.startswith("_") or not inspect.isfunction(value):
                    continue
                if getattr(value, "__module__", None) == module.__name__:
                    if where not in places.setdefault(key, []):
                        places[key].append(where)
                    functions[key], origin[key] = value, where
                elif key not in functions:
                    functions[key] = value
    if not functions and _FAILED:  # every module failed: the submission cannot be imported
        raise _FAILED[0]
    for key, where in places.items():
        if len(where) > 1:
            notes.append(f"{key} is defined in {', '.join(where)}: {where[-1]}'s is graded")
    return functions, origin, notes



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


def _where(exc: BaseException) -> str:
    """The last frame of the student's code in the traceback: ``file, line N: source`` (for a
    SyntaxError, its file and line)."""
    if getattr(exc, "located", None):
        return exc.located
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if not frame.filename.endswith(("harness.py", "wire.py")):
            return f"{Path(frame.filename).name}, line {frame.lineno}: {frame.line}"
    return ""


def main() -> None:
    global IN_FD, OUT_FD
    submission, IN_FD, OUT_FD = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    channel = _Channel()
    channel.code = os.path.join(os.path.abspath(
        submission if submission.is_dir() else submission.parent), "")
    sys.meta_path.insert(0, _NoReference())
    try:
        functions, origin, notes = load(
            submission, os.environ.get("MLPR_GRADE_SOLUTION_FOLDERS") == "1")
    except BaseException as exc:  # the submission's top level: anything may happen there
        channel.send({"op": "hello", "ok": False, "type": type(exc).__name__,
                      "message": str(exc)[:2000], "where": _where(exc),
                      "printed": channel.printed()})
        return
    channel.send({"op": "hello", "ok": True, "notes": notes, "printed": channel.printed(),
                  "origin": origin, "main_only": MAIN_ONLY,
                  "uses": {k: wire.uses(f, functions) for k, f in functions.items()},
                  "functions": {k: _signature(f) for k, f in functions.items()}})
    while True:
        try:
            header, blobs = wire.parse_frame(channel.read)
        except EOFError:
            return
        if header.get("op") == "call":
            channel.call(header, blobs, functions)


if __name__ == "__main__":
    main()
