"""Discovery, the untrusted side's first step: every module of a submission, wherever it sits,
imported on its own, and what each defines.

Staged beside the harness (`mlpr.grading.child.harness`) and, like it, importing nothing of
mlpr. A submission is a ``.py`` file, a ``.ipynb`` notebook, or a folder of any depth; each of
its modules is

- **found** (`sources`): ``.py`` and ``.ipynb`` files at any depth, in path order, leaving out
  hidden folders, virtual environments, ``__pycache__``, ``__init__.py``, ``test_*.py``,
  ``conftest.py`` and ``setup.py``;
- **read** (`read_source`): a notebook's code cells in order (with nbformat), its IPython magics
  and shell escapes (``%``, ``!``) dropped and counted;
- **recognised** (`course_file`, `fingerprint`): a file that carries the course author's header,
  or whose functions are mostly the course's published ones (by their fingerprints,
  `mlpr.grading.child.fingerprints`), is the course's, not the student's;
- **imported alone** (`import_one`), its own folder first on ``sys.path``, guarded: ``input()``
  raises `NoInput`, ``sys.exit``, ``exit()``, ``os._exit`` and ``KeyboardInterrupt`` end that
  module's import and no other, and a module taking longer than its time limit is stopped;
- **inventoried** (`inventory`): its functions, and the methods of its classes that can be
  called on an instance made without arguments, each under the id ``path::qualname``.

Which copy of a course function is graded is the grader's choice (`mlpr.grading.plan`), made
from the inventory: nothing here knows the course's names.
"""

import ast
import builtins
import hashlib
import importlib.util
import inspect
import linecache
import os
import re
import signal
import sys
import time
import traceback
from pathlib import Path

__all__ = ["sources", "read_source", "course_header", "fingerprint", "import_one", "inventory",
           "NoInput", "MODULE_SECONDS", "MAX_MODULES"]

#: Time limit of one module's import, in seconds (a lab script that trains at its top level)
MODULE_SECONDS = 20.0
#: The most modules of one submission that are imported (the others are listed, not imported)
MAX_MODULES = 400
#: Folders never searched for modules (any letter case)
SKIP_FOLDERS = {"__pycache__", "venv", "env", ".venv", "site-packages", "node_modules",
                ".ipynb_checkpoints", "build", "dist"}
SKIP_FILES = {"__init__.py", "conftest.py", "setup.py"}


class NoInput(EOFError):
    """``input()`` called while the kit imports or calls a submission: no one types an answer
    (an EOFError, as with a closed terminal, so that code ready for one handles it)."""


class _Stopped(BaseException):
    """A module's import stopped by the kit (its time limit, or ``os._exit``)."""


def _no_input(*args, **kwargs):
    raise NoInput("input() was called, and the kit gives no input (a script that asks for "
                  "input should do so under if __name__ == \"__main__\":)")


_REAL_EXIT = os._exit
_IMPORTER: list = []  # the pid of the process importing (a fork of it exits for real)


def _no_exit(code=0):
    if _IMPORTER and os.getpid() != _IMPORTER[0]:  # a process the module forked: its own exit
        _REAL_EXIT(code)
    raise _Stopped(f"os._exit({code}) was called")


def _skipped_folder(name: str) -> bool:
    return name.startswith(".") or name.lower() in SKIP_FOLDERS


def sources(root: Path, skipped: list | None = None) -> list:
    """The modules of the submission ``root``: itself if it is a file, else every ``.py`` and
    ``.ipynb`` below it (any depth), in path order. ``skipped`` receives ``(path, why)`` of the
    folders and files left out that hold or are Python code."""
    root = Path(root)
    if root.is_file():
        return [root]
    found, skipped = [], skipped if skipped is not None else []
    for folder, dirs, files in os.walk(root):
        here = Path(folder)
        if (here / "pyvenv.cfg").exists():
            skipped.append((here, "a virtual environment"))
            dirs[:] = []
            continue
        for d in dirs:
            if not _skipped_folder(d) or d == "__pycache__" or os.path.islink(here / d):
                continue
            if (here / d / "pyvenv.cfg").exists():
                skipped.append((here / d, "a virtual environment"))
            elif any(n.endswith((".py", ".ipynb")) for n in os.listdir(here / d)):
                skipped.append((here / d, "a hidden folder" if d.startswith(".") else
                                "a folder of installed or built code"))
        dirs[:] = sorted(d for d in dirs if not _skipped_folder(d)
                         and not os.path.islink(os.path.join(folder, d)))
        for name in sorted(files):
            if not name.endswith((".py", ".ipynb")) or name == "__init__.py":
                continue
            if name in SKIP_FILES or name.startswith(("test_", ".")):
                skipped.append((here / name, "a test or set-up file"))
            else:
                found.append(here / name)
    return sorted(found, key=lambda p: p.relative_to(root).parts)


# ------------------------------------------------------------------------------------------------
# reading: scripts and notebooks

#: notebook file -> [(first line of a cell in the module's source, the cell's number), ...]
CELLS: dict = {}


def read_source(f: Path) -> tuple:
    """``(source, notes)`` of the module ``f``: a script's text, or a notebook's code cells in
    order (nbformat), IPython magics and shell escapes dropped (a cell magic drops its cell).
    The notebook's cells are recorded in `CELLS` (tracebacks then name the cell)."""
    if f.suffix != ".ipynb":
        return f.read_bytes(), []
    try:
        import nbformat
    except ImportError:
        raise ImportError("the notebook cannot be read: nbformat is not installed in the "
                          "submissions' environment") from None
    nb = nbformat.read(str(f), as_version=4)
    text, cells, dropped = notebook_module([(c.cell_type, c.source) for c in nb.cells])
    CELLS[str(f)] = cells
    notes = [f"{f.name}: {dropped} IPython magic or shell line(s) dropped"] if dropped else []
    return text, notes


def notebook_module(cells: list) -> tuple:
    """``(source, [(first line of a cell in the source, the cell's number), ...], lines
    dropped)`` of a notebook's ``cells`` (``(cell type, source)`` in order): its code cells
    joined, IPython magics and shell escapes dropped, a cell magic's cell left out (the grader
    builds the same text from the notebook's JSON to name a cell's line)."""
    lines, out, dropped = [], [], 0
    for number, (kind, source) in enumerate(cells, start=1):
        if kind != "code":
            continue
        text = source if isinstance(source, str) else "".join(source)
        if text.lstrip().startswith("%%"):
            dropped += 1
            continue
        out.append((len(lines) + 1, number))
        for line in text.splitlines():
            if line.lstrip().startswith(("%", "!")):
                indent = line[:len(line) - len(line.lstrip())]
                lines.append(f"{indent}pass  # dropped by the kit: {line.strip()[:60]}")
                dropped += 1
            else:
                lines.append(line)
        lines.append("")
    return "\n".join(lines) + "\n", out, dropped


def cell_of(filename: str, line: int) -> int | None:
    """The notebook cell that holds ``line`` of the module made from ``filename``."""
    cell = None
    for first, number in CELLS.get(filename, ()):
        if first <= line:
            cell = number
    return cell


# ------------------------------------------------------------------------------------------------
# the course's own files

_HEADER = re.compile(r"Copyright \(C\)[^\n]*Sandro Cumani|policies on didactic material",
                     re.IGNORECASE)


def course_header(source) -> bool:
    """Whether the module's first lines carry the course author's header (the copyright and
    the didactic-use notice of the course's published files)."""
    head = source[:3000]
    if isinstance(head, bytes):
        head = head.decode("utf-8", "replace")
    return bool(_HEADER.search(head))


#: Fewer AST nodes than this and a function is too short to tell whose it is (``vcol``)
MIN_NODES = 40
#: A function of a student's file is left out as the course's own only from this many AST nodes
#: (about six statements): a short function written the natural way (the course's three-line
#: ``compute_lda_geig``) is often the published one to the letter, and is the student's
LONG_NODES = 100


#: AST fields that differ between Python releases, or say nothing of the code
_VARIANT_FIELDS = {"type_params", "type_comment", "kind", "ctx"}


def _canon(x) -> str:
    """A text of an AST that is the same on every Python release (``ast.dump``'s is not: 3.13
    leaves out empty fields, 3.12 adds ``type_params``)."""
    if isinstance(x, ast.AST):
        fields = ",".join(f"{k}={_canon(getattr(x, k, None))}" for k in x._fields
                          if k not in _VARIANT_FIELDS)
        return f"{type(x).__name__}({fields})"
    if isinstance(x, list):
        return "[" + ",".join(_canon(v) for v in x if v is not None) + "]"
    return repr(x) if x not in (None, []) else ""


class _Normal(ast.NodeTransformer):
    def visit_Name(self, node):  # numpy imported as np or as numpy is the same code
        if node.id == "np":
            node.id = "numpy"
        return node


def fingerprint(node) -> str | None:
    """The fingerprint of a function's definition: a hash of its arguments and body without
    docstring, comments, layout or name, ``np`` read as ``numpy``; None for a function too
    short to tell apart (fewer than `MIN_NODES` nodes)."""
    body = list(node.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    if sum(1 for b in body for _ in ast.walk(b)) < MIN_NODES:
        return None
    text = _canon(_Normal().visit(node.args)) + "".join(_canon(_Normal().visit(b)) for b in body)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _course_prints() -> frozenset:
    here = Path(__file__).with_name("fingerprints.py")
    try:
        tree = ast.parse(here.read_text())
    except (OSError, SyntaxError):
        return frozenset()
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "FINGERPRINTS":
            return frozenset(ast.literal_eval(node.value))
    return frozenset()


#: The fingerprints of the course's published functions (read from the data file beside)
COURSE = _course_prints()


def _size(node) -> int:
    return sum(1 for b in node.body for _ in ast.walk(b))


def definitions(tree, long: bool = False) -> dict:
    """``{qualname: fingerprint or None}`` of the module's top-level functions and its classes'
    methods (with ``long``, None also for those under `LONG_NODES` nodes)."""
    out = {}
    for node in getattr(tree, "body", []):
        subs = [(node.name, node)] if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) \
            else [(f"{node.name}.{s.name}", s) for s in node.body
                  if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))] \
            if isinstance(node, ast.ClassDef) else []
        for q, sub in subs:
            out[q] = fingerprint(sub) if not long or _size(sub) >= LONG_NODES else None
    return out


#: Folder names that say they hold the course's solution (corroboration, never proof alone)
_SOLUTION_FOLDER = re.compile(r"sols?|solutions?|soluzion[ei]|soluci[oó]n(es)?|solved|"
                              r"(sol|solution|solutions|soluzione)[-_ ].*", re.IGNORECASE)


def in_solution_folder(rel: str) -> bool:
    """Whether a path's folders include one named like the course's solution."""
    return any(_SOLUTION_FOLDER.fullmatch(p) for p in Path(rel).parts[:-1])


def course_file(source, prints: dict, table: frozenset = None, solution: bool = False) -> str:
    """Why the module is the course's own file ("" when it is not): its author header, or
    every one of its functions long enough to tell apart being one of the course's published
    ones, two at least (one, in a folder named like a solution: ``solution``). A student's
    file holding some published functions beside their own is the student's: only those
    functions are left out (`mlpr.grading.plan`)."""
    table = COURSE if table is None else table
    if course_header(source):
        return "it carries the course author's header"
    known = [p for p in prints.values() if p is not None]
    theirs = sum(p in table for p in known)
    if theirs >= (1 if solution else 2) and theirs == len(known):
        return (f"its {theirs} function{'s' * (theirs > 1)} long enough to tell apart "
                f"{'are' if theirs > 1 else 'is'} the course's published "
                f"{'ones' if theirs > 1 else 'one'}" + (", in a solution folder" if solution
                                                          and theirs < 2 else ""))
    return ""


# ------------------------------------------------------------------------------------------------
# importing, one module at a time


def _alarm(signum, frame):
    raise _Stopped("its import ran past the time limit")


def import_one(f: Path, source, name: str, seconds: float):
    """Execute the module ``f`` (its ``source``) as ``name``: the module, or the exception that
    ended its import (any BaseException: ``sys.exit`` and ``KeyboardInterrupt`` included).
    ``input()`` raises `NoInput` and ``os._exit`` is refused meanwhile; past ``seconds``
    (where signals work: the main thread) the import is stopped."""
    spec = importlib.util.spec_from_file_location(name, f) if f.suffix == ".py" else None
    module = importlib.util.module_from_spec(spec) if spec else type(sys)(name)
    module.__file__ = str(f)
    if isinstance(source, bytes):
        source = source.decode("utf-8", "replace") if f.suffix != ".py" else source
    if f.suffix == ".ipynb":
        text = source if isinstance(source, str) else source.decode()
        linecache.cache[str(f)] = (len(text), None, text.splitlines(True), str(f))
    sys.modules[name] = module
    saved = builtins.input, os._exit
    builtins.input, os._exit = _no_input, _no_exit
    _IMPORTER[:] = [os.getpid()]
    timed = hasattr(signal, "setitimer") and \
        __import__("threading").current_thread() is __import__("threading").main_thread()
    if timed:
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.01))
    try:
        code = compile(source, str(f), "exec", dont_inherit=True)
        exec(code, module.__dict__)
    except BaseException as exc:  # whatever ends the import ends this module's, not the run
        sys.modules.pop(name, None)
        return exc
    finally:
        if timed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
        builtins.input, os._exit = saved
    return module


def _callables(module, f: Path, qualnames) -> dict:
    """``{qualname: callable}`` of what ``module`` itself defines: its functions, and the
    methods of its classes (static and class methods as they are, others bound to an instance
    made without arguments at the first call; None when the class needs arguments)."""
    out = {}
    for q in qualnames:
        cls_name, _, meth = q.rpartition(".")
        if not cls_name:
            value = vars(module).get(q)
            if inspect.isfunction(value) and _defined_in(value, f):
                out[q] = value
            continue
        cls = vars(module).get(cls_name)
        if not inspect.isclass(cls) or meth.startswith("_"):
            continue
        raw = inspect.getattr_static(cls, meth, None)
        if isinstance(raw, (staticmethod, classmethod)):
            out[q] = getattr(cls, meth)
        elif inspect.isfunction(raw) and _defined_in(raw, f):
            out[q] = _method(cls, meth) if _constructible(cls) else None
    for key, value in vars(module).items():  # aliases: logpdf_GAU_ND = logpdf_GAU_ND_fast
        if key not in out and not key.startswith("_") and inspect.isfunction(value) and \
                _defined_in(value, f):
            out[key] = value
    return out


def _defined_in(fn, f: Path) -> bool:
    code = getattr(fn, "__code__", None)
    return code is not None and os.path.abspath(code.co_filename) == os.path.abspath(str(f))


def _constructible(cls) -> bool:
    try:
        sig = inspect.signature(cls)
    except (TypeError, ValueError):
        return False
    return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
               for p in sig.parameters.values())


def _method(cls, name):
    box = []

    def method(*args, **kwargs):
        if not box:
            box.append(cls())
        return getattr(box[0], name)(*args, **kwargs)

    raw = inspect.getattr_static(cls, name)
    method.__wrapped__ = raw
    method.__name__ = name
    try:
        params = list(inspect.signature(raw).parameters.values())[1:]  # without self
        method.__signature__ = inspect.Signature(params)
    except (TypeError, ValueError):
        pass
    return method


def _path_for(f: Path, root: Path, folders: set) -> list:
    """``sys.path`` for importing ``f`` alone: its folder, the folders above it up to the
    submission's (so that ``import Lab12.solution.bayesRisk`` and ``from lab_05 import x``
    work), and the folder above the submission."""
    chain, d = [], f.parent
    while True:
        chain.append(str(d))
        if d == root or root not in d.parents:
            break
        d = d.parent
    chain.append(str(root.parent))
    return chain + [p for p in sys.path if p not in folders and p not in chain]


def _forget(root: Path, keep: Path) -> None:
    """Forget the submission's modules imported from another folder than ``keep``: a lab's
    ``import utils`` finds its own utils.py, not another lab's."""
    for name, m in list(sys.modules.items()):
        path = getattr(m, "__file__", None)
        if not path or name.startswith("_mlpr_submission_"):
            continue
        p = Path(path).resolve()
        if p.is_relative_to(root) and p.parent != keep.resolve():
            del sys.modules[name]


def inventory(root: Path, budget: float = 50.0, seconds: float = MODULE_SECONDS,
              course: bool = True) -> tuple:
    """Import every module of the submission ``root`` alone. Returns ``(modules, table)``:
    ``modules`` a list of plain dicts, one per module (its ``path`` relative to the
    submission's folder, ``status`` "imported", "failed", "course" (the course's own file, not
    imported unless ``course`` is False), "not imported" (past ``budget`` seconds, or past
    `MAX_MODULES`), "skipped" (a folder or file `sources` leaves out: why in
    ``course``), ``error``, ``course`` (why it is the course's), ``functions``: ``[[qualname,
    fingerprint is the course's, callable]]``, ``notes``); ``table`` ``{id: callable}`` with
    ``id = path::qualname``."""
    root = Path(root).resolve()
    base = root.parent if root.is_file() else root
    skipped: list = []
    files = sources(root, skipped)
    folders = {str(p.parent) for p in files} | {str(base)}
    start = time.monotonic()
    modules = [{"path": p.relative_to(base).as_posix() + ("/" if p.is_dir() else ""),
                "status": "skipped", "error": None, "course": why, "functions": [], "notes": []}
               for p, why in skipped[:100]]
    table = {}
    previous = None
    for i, f in enumerate(files):
        rel = f.relative_to(base).as_posix()
        entry = {"path": rel, "status": "imported", "error": None, "course": "",
                 "functions": [], "notes": []}
        modules.append(entry)
        if i >= MAX_MODULES or time.monotonic() - start > budget:
            entry["status"] = "not imported"
            entry["error"] = {"type": "", "where": "", "message": (
                f"not imported: past the {MAX_MODULES} modules the kit imports" if
                i >= MAX_MODULES else "not imported: the submission's import time ran out")}
            continue
        try:
            source, notes = read_source(f)
            tree = ast.parse(source)
        except SyntaxError as exc:
            entry["status"], entry["error"] = "failed", _syntax_error(exc, f)
            continue
        except Exception as exc:
            entry["status"] = "failed"
            entry["error"] = {"type": type(exc).__name__, "message": str(exc)[:500], "where": ""}
            continue
        entry["notes"] = notes
        prints = definitions(tree)
        entry["course"] = course_file(source, prints, solution=in_solution_folder(rel))
        entry["prints"] = {q: bool(p and p in COURSE)
                           for q, p in definitions(tree, long=True).items()}
        if entry["course"] and course:
            entry["status"] = "course"
            continue
        if previous != f.parent:
            _forget(root if root.is_dir() else base, f.parent)
            previous = f.parent
        sys.path[:] = _path_for(f, base, folders)
        reuse = next((m for m in list(sys.modules.values())
                      if getattr(m, "__file__", None) and f.suffix == ".py"
                      and os.path.abspath(m.__file__) == os.path.abspath(str(f))), None)
        module = reuse if reuse is not None else import_one(
            f, source, f"_mlpr_submission_{i}", min(seconds, budget - (time.monotonic() - start)))
        if isinstance(module, BaseException):
            entry["status"] = "failed"
            entry["error"] = _error(module, f)
            continue
        for q, fn in _callables(module, f, prints).items():
            own = q if q in prints else getattr(fn, "__name__", q)
            entry["functions"].append([q, entry["prints"].get(own, False), fn is not None])
            if fn is not None:
                table[f"{rel}::{q}"] = fn
    return modules, table


def _syntax_error(exc: SyntaxError, f: Path) -> dict:
    where = f"{f.name}, line {exc.lineno}: {(exc.text or '').strip()[:120]}"
    newer = ""
    if sys.version_info < (3, 12) and "f-string" in str(exc.msg):
        newer = (f"; valid in Python >= 3.12 (f-strings that nest the same quotes); the kit "
                 f"runs {sys.version_info.major}.{sys.version_info.minor}")
    return {"type": "SyntaxError", "message": f"{exc.msg}{newer}", "where": where}


def _error(exc: BaseException, f: Path) -> dict:
    """An import's exception as plain data, at the student's last line in ``f``'s
    folder."""
    where = ""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if not frame.filename.endswith(("discover.py", "harness.py", "wire.py")):
            cell = cell_of(frame.filename, frame.lineno or 0)
            where = (f"{Path(frame.filename).name}" + (f", cell {cell}" if cell else "")
                     + f", line {frame.lineno}: {(frame.line or '').strip()[:120]}")
            break
    kind = type(exc).__name__
    message = str(exc)
    if len(message) > 500:  # said, never cut silently
        message = message[:440] + f"... ({len(message) - 440:,} more characters)"
    if isinstance(exc, SystemExit):
        message = f"sys.exit({exc.code!r}) was called while the module was imported"
    elif isinstance(exc, KeyboardInterrupt):
        message = "KeyboardInterrupt while the module was imported"
    elif isinstance(exc, _Stopped):
        kind, message = "Stopped", str(exc)
    return {"type": kind, "message": message[:500], "where": where}


def main(argv: list) -> int:
    """``python discover.py --fingerprints FILE...``: print the fingerprints of the files'
    functions (how `mlpr.grading.child.fingerprints` is made from the course's published
    files)."""
    if not argv or argv[0] != "--fingerprints":
        print("usage: python discover.py --fingerprints FILE...", file=sys.stderr)
        return 2
    found = set()
    for name in argv[1:]:
        try:
            tree = ast.parse(Path(name).read_bytes())
        except (SyntaxError, OSError):
            continue
        found.update(p for p in definitions(tree).values() if p)
    for p in sorted(found):
        print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
