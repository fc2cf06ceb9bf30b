"""What a lecture's results depend on, and whether they are out of date (``make lectures``).

A lecture's **inputs** are the files and code its run reads, each with a SHA-256:

- its script, ``lectures/NN_topic/run.py``, and its ``references.json`` (the whole text);
- ``lectures/_lecture.py``, the helper every script runs through (the whole text);
- the definitions of mlpr that the run can reach: the functions, classes and named constants the
  script and ``_lecture.py`` import from mlpr, and, transitively, every definition of mlpr that
  those name, found by reading the source (`ast`), never by importing it. A definition is hashed
  as its syntax tree without docstrings, so a comment or a docstring edited does not make a
  twelve-minute lecture rerun, while any change of code, message or default does. Each module
  the run loads also counts with its statements outside definitions (its imports, module-level
  code), and what its definitions run when they are defined (decorators, default values, base
  classes) is reached: all of that runs on import. ``mlpr.grading`` is left out of
  ``_lecture.py``'s imports: only student mode (``--student``) imports it, and ``make lectures``
  never runs that. ``tests/test_incremental_lectures.py`` traces lectures' runs and finds every
  mlpr definition they execute among their inputs;
- the data files under ``datasets/`` that the loaders the script calls name in their code
  (``load_iris`` names ``iris.csv``, ``load_mnist``, or the helper's ``lec.load_mnist``, the four
  MNIST files), hashed byte for byte. A dict's keys are not counted: ``datasets.CHECKSUMS`` lists
  every file to verify it, and a loader that consults it reads only its own.

Working per definition rather than per module matters here: ``mlpr.plots`` imports
``mlpr.gmm`` (for ``logpdf_GMM``), and every lecture imports ``mlpr.plots``, so per module an
edit of any GMM function would rerun all nine lectures; per definition it reruns those whose run
can reach the edited function.

A run that ends ok records its inputs beside its results, ``DIR/NN_topic/inputs.json`` (with the
lecture's arguments, hence its mode); `why_rerun` compares them with the sources of now.
``python lectures/_inputs.py [NN ...]`` prints the inputs of some lectures (all by default).
"""

from __future__ import annotations

import ast
import hashlib
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

#: the name of the record a run that ended ok leaves beside its results.json
RECORD = "inputs.json"

#: packages of mlpr that ``_lecture.py`` imports for student mode only (never in make lectures)
STUDENT_ONLY = ("mlpr.grading",)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _strip_docstrings(tree: ast.AST) -> None:
    """Remove, in place, the docstring of every module, function and class of ``tree``."""
    for n in ast.walk(tree):
        if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = n.body
            if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                n.body = body[1:] or [ast.Pass()]


#: a module's analysis by (its text's SHA-256, its package): an edit re-reads only that file
_PARSED: dict[tuple[str, str], dict] = {}


def _parse(text: str, package: str) -> dict:
    """What `_Module` holds of a module's source (cached by its text)."""
    key = (_sha(text.encode()), package)
    if key in _PARSED:
        return _PARSED[key]
    tree = ast.parse(text)
    aliases: dict[str, tuple[str, str | None]] = {}  # local name -> (module, attr or None)
    top_imports: set[str] = set()  # modules imported at module level
    for n in ast.walk(tree):
        if isinstance(n, ast.Import):
            for a in n.names:
                if a.asname:
                    aliases[a.asname] = (a.name, None)
                else:  # `import mlpr.gmm` binds `mlpr`; mlpr.gmm.x is an attribute chain
                    aliases[a.name.split(".")[0]] = (a.name.split(".")[0], None)
        elif isinstance(n, ast.ImportFrom):
            base = _absolute(n, package)
            for a in n.names:
                aliases[a.asname or a.name] = (base, a.name)
    lazy = any(isinstance(n, ast.ImportFrom) and n.module == "__future__"
               and any(a.name == "annotations" for a in n.names) for n in tree.body)
    _strip_docstrings(tree)
    defs: dict[str, dict] = {}
    rest = []
    # what runs on import: the code outside definitions, and of each definition its
    # decorators, default values, base classes and class body outside its methods' bodies
    rest_uses: set[tuple[str, ...]] = set()
    for stmt in tree.body:
        names = _defined_names(stmt)
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            top_imports.update(_imported_modules(stmt, package))
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for part in _run_on_definition(stmt, lazy):
                rest_uses |= _used_names(part)
        if names:
            info = {"hash": _sha(ast.dump(stmt).encode()), "uses": _used_names(stmt),
                    "strings": _strings(stmt)}
            for name in names:
                defs[name] = info
        else:
            rest.append(stmt)
            rest_uses |= _used_names(stmt)
    rest_hash = _sha("\n".join(ast.dump(stmt) for stmt in rest).encode())
    _PARSED[key] = {"aliases": aliases, "top_imports": top_imports, "defs": defs,
                    "rest_hash": rest_hash, "rest_uses": rest_uses}
    return _PARSED[key]


class _Module:
    """One module of mlpr, read: its definitions (name -> hash, names it uses, strings it
    holds), the hash of the rest (its statements outside definitions, docstrings left out),
    what runs on import, and its imports."""

    def __init__(self, name: str, path: Path, package: str):
        self.name, self.path = name, path
        parsed = _parse(path.read_text(encoding="utf-8"), package)
        self.aliases = parsed["aliases"]
        self.top_imports = parsed["top_imports"]
        self.defs = parsed["defs"]
        self.rest_hash = parsed["rest_hash"]
        self.rest_uses = parsed["rest_uses"]


def _run_on_definition(node, lazy_annotations: bool) -> list[ast.AST]:
    """The parts of a ``def`` or ``class`` statement that run when the statement does (a class
    body's annotations do not, under ``from __future__ import annotations``)."""
    parts = list(node.decorator_list)
    if isinstance(node, ast.ClassDef):
        parts += node.bases + [k.value for k in node.keywords]
        for stmt in node.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                parts += _run_on_definition(stmt, lazy_annotations)
            elif isinstance(stmt, ast.AnnAssign) and lazy_annotations:
                parts += [stmt.value] if stmt.value is not None else []
            else:
                parts.append(stmt)
    else:
        parts += node.args.defaults + [d for d in node.args.kw_defaults if d is not None]
    return parts


def _absolute(node: ast.ImportFrom, package: str) -> str:
    """The absolute module of ``from ... import``, relative imports resolved from ``package``."""
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    base = parts[: len(parts) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _imported_modules(stmt, package: str) -> set[str]:
    if isinstance(stmt, ast.Import):
        return {a.name for a in stmt.names}
    base = _absolute(stmt, package)
    return {base} | {f"{base}.{a.name}" for a in stmt.names}


def _defined_names(stmt) -> list[str]:
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [stmt.name]
    if isinstance(stmt, ast.Assign):
        return [t.id for t in stmt.targets if isinstance(t, ast.Name)]
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
        return [stmt.target.id]
    return []


def _used_names(node) -> set[tuple[str, ...]]:
    """Every name a piece of code reads, with its attribute chain: ``_gmm_fast.em_step(...)``
    gives ("_gmm_fast", "em_step"), ``x`` gives ("x",)."""
    used = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Attribute):
            chain, cur = [n.attr], n.value
            while isinstance(cur, ast.Attribute):
                chain.append(cur.attr)
                cur = cur.value
            if isinstance(cur, ast.Name):
                used.add(tuple([cur.id, *reversed(chain)]))
        elif isinstance(n, ast.Name):
            used.add((n.id,))
    return used


def _strings(node) -> set[str]:
    """The string constants of a piece of code, but a dict literal's keys."""
    keys = {id(k) for n in ast.walk(node) if isinstance(n, ast.Dict) for k in n.keys if k}
    return {n.value for n in ast.walk(node)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in keys}


_SCRIPTS: dict[str, tuple[list, set]] = {}


def _script(text: str) -> tuple[list, set]:
    """A script's import statements and the names it reads (cached by its text)."""
    key = _sha(text.encode())
    if key not in _SCRIPTS:
        tree = ast.parse(text)
        _SCRIPTS[key] = ([n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))],
                         _used_names(tree))
    return _SCRIPTS[key]


def _script_nodes(text: str) -> list:
    return _script(text)[0]


def _script_names(text: str) -> set:
    return _script(text)[1]


class Sources:
    """The sources of a checkout (``root``: lectures/, mlpr/, datasets/), read once."""

    def __init__(self, root: Path = REPO):
        self.root = Path(root)
        self.modules: dict[str, _Module] = {}
        for path in sorted((self.root / "mlpr").rglob("*.py")):
            rel = path.relative_to(self.root).with_suffix("")
            parts = list(rel.parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts = parts[:-1]
            name = ".".join(parts)
            package = name if is_package else name.rpartition(".")[0]
            self.modules[name] = _Module(name, path, package)
        data = self.root / "datasets"
        self.data_files = {p.relative_to(data).as_posix(): p for p in sorted(data.rglob("*"))
                           if p.is_file() and ".cache" not in p.relative_to(data).parts
                           } if data.is_dir() else {}
        self._data_sha: dict[str, str] = {}

    # -- what a piece of code reaches ------------------------------------------------------------
    def _load(self, module: str, loaded: set[str], todo: list) -> None:
        """Import ``module`` (and its packages): their code outside definitions runs."""
        parts = module.split(".")
        for i in range(1, len(parts) + 1):
            name = ".".join(parts[:i])
            if name in self.modules and name not in loaded:
                loaded.add(name)
                mod = self.modules[name]
                for used in mod.rest_uses:
                    todo.append((name, used))
                for imported in mod.top_imports:
                    self._load(imported, loaded, todo)

    def _resolve(self, module: str, attr: str, loaded: set[str], todo: list,
                 reached: set[tuple[str, str]], seen: set | None = None) -> None:
        """``module.attr`` is used: a submodule (load it), a definition (reach it), or a name the
        module imported from elsewhere (follow it)."""
        seen = set() if seen is None else seen
        if (module, attr) in seen:
            return
        seen.add((module, attr))
        if f"{module}.{attr}" in self.modules:
            self._load(f"{module}.{attr}", loaded, todo)
            return
        mod = self.modules.get(module)
        if mod is None:
            return  # outside mlpr (numpy, scipy, ...)
        self._load(module, loaded, todo)
        if attr in mod.defs:
            if (module, attr) not in reached:
                reached.add((module, attr))
                for used in mod.defs[attr]["uses"]:
                    todo.append((module, used))
        elif attr in mod.aliases:
            target, name = mod.aliases[attr]
            if name is None:
                self._load(target, loaded, todo)
            else:
                self._resolve(target, name, loaded, todo, reached, seen)

    def _use(self, module: str, chain: tuple[str, ...], loaded, todo, reached) -> None:
        """The code of ``module`` reads ``chain`` (a name and its attributes)."""
        mod = self.modules[module]
        head, *attrs = chain
        if head in mod.defs:
            self._resolve(module, head, loaded, todo, reached)
            return
        if head not in mod.aliases:
            return  # a local variable, a builtin
        target, name = mod.aliases[head]
        if name is not None:
            if f"{target}.{name}" in self.modules:  # `from . import _gmm_fast`
                target, name = f"{target}.{name}", None
            else:
                self._resolve(target, name, loaded, todo, reached)
                return
        # a module: `_gmm_fast.em_step`, `mlpr.gmm.train_gmm_em`
        for attr in attrs:
            if f"{target}.{attr}" in self.modules:
                target = f"{target}.{attr}"
                continue
            self._resolve(target, attr, loaded, todo, reached)
            return
        self._load(target, loaded, todo)

    def reach(self, imports: dict[str, set[str]]) -> tuple[set[str], set[tuple[str, str]]]:
        """The modules loaded and the definitions (module, name) reached by code that imports
        ``imports`` ({module: names imported from it}; an empty set: the module itself)."""
        loaded: set[str] = set()
        reached: set[tuple[str, str]] = set()
        todo: list = []
        for module, names in imports.items():
            if module not in self.modules:
                continue
            self._load(module, loaded, todo)
            for name in names:
                self._resolve(module, name, loaded, todo, reached)
        while todo:
            module, chain = todo.pop()
            self._use(module, chain, loaded, todo, reached)
        return loaded, reached

    # -- a lecture's inputs ------------------------------------------------------------------------
    def script_imports(self, path: Path, skip: tuple[str, ...] = ()) -> dict[str, set[str]]:
        """The mlpr modules a script imports, anywhere in it, and the names it takes from each."""
        imports: dict[str, set[str]] = {}
        for n in _script_nodes(path.read_text(encoding="utf-8")):
            if isinstance(n, ast.ImportFrom) and not n.level and n.module:
                mods = [(n.module, {a.name for a in n.names})]
            elif isinstance(n, ast.Import):
                mods = [(a.name, set()) for a in n.names]
            else:
                continue
            for module, names in mods:
                if module.split(".")[0] == "mlpr" and not module.startswith(skip):
                    imports.setdefault(module, set()).update(names)
        return imports

    def data_read(self, script: Path) -> set[str]:
        """The files of ``datasets/`` (relative paths) that a script reads: those named by the
        code of the loaders of `mlpr.datasets` that the script calls, as ``load_iris()`` or as
        ``lec.load_mnist()`` (the helper's method calls mlpr's loader of that name)."""
        datasets = self.modules.get("mlpr.datasets")
        if datasets is None:
            return set()
        used = {name for chain in _script_names(script.read_text(encoding="utf-8"))
                for name in chain}
        loaders = {n: set() for n in used if n.startswith("load_") and n in datasets.defs}
        _, reached = self.reach({"mlpr.datasets": set(loaders)})
        strings = set().union(*(self.modules[m].defs[n]["strings"] for m, n in reached))
        return strings & set(self.data_files)

    def inputs(self, lecture: str) -> dict[str, str]:
        """``{input: sha256}`` of one lecture (``NN_topic``): see the module's docstring."""
        root = self.root
        folder = root / "lectures" / lecture
        files = [folder / "run.py", folder / "references.json", root / "lectures" / "_lecture.py"]
        out = {p.relative_to(root).as_posix(): _sha(p.read_bytes()) for p in files if p.exists()}
        imports = self.script_imports(folder / "run.py")
        helper_py = root / "lectures" / "_lecture.py"
        helper = self.script_imports(helper_py, skip=STUDENT_ONLY) if helper_py.exists() else {}
        for module, names in helper.items():
            imports.setdefault(module, set()).update(names)
        loaded, reached = self.reach(imports)
        for module in sorted(loaded):
            mod = self.modules[module]
            out[mod.path.relative_to(root).as_posix()] = mod.rest_hash
        for module, name in sorted(reached):
            mod = self.modules[module]
            out[f"{mod.path.relative_to(root).as_posix()}::{name}"] = mod.defs[name]["hash"]
        for key in sorted(self.data_read(folder / "run.py")):
            if key not in self._data_sha:
                self._data_sha[key] = _sha(self.data_files[key].read_bytes())
            out[f"datasets/{key}"] = self._data_sha[key]
        return dict(sorted(out.items()))


def lectures(root: Path = REPO) -> list[str]:
    """The lecture folders (``NN_topic``) that have a ``run.py``."""
    return sorted(p.parent.name for p in (Path(root) / "lectures").glob("[0-9][0-9]_*/run.py"))


def record(folder: Path, lecture: str, args: list[str], inputs: dict[str, str]) -> Path:
    """Write ``folder/inputs.json``: the inputs a run of ``lecture`` with ``args`` read (call it
    once the run has ended ok)."""
    path = Path(folder) / RECORD
    path.write_text(json.dumps({"lecture": lecture, "args": list(args), "inputs": inputs},
                               indent=1) + "\n")
    return path


def why_rerun(folder: Path, args: list[str], inputs: dict[str, str]) -> str | None:
    """Why the results in ``folder`` (``DIR/NN_topic``) are out of date for a run with ``args``
    whose inputs are now ``inputs``, or None when they are up to date: no results, a failed or
    interrupted last run (no record: a run removes it when it starts, writes it when it ends
    ok), other arguments (another mode), or inputs that changed, were added or removed."""
    folder = Path(folder)
    try:
        results = json.loads((folder / "results.json").read_text())
    except (OSError, ValueError):
        return "no results"
    if results.get("failures"):
        return "failed last time"
    try:
        rec = json.loads((folder / RECORD).read_text())
    except (OSError, ValueError):
        return "no record of its inputs (its last run failed, was interrupted or predates it)"
    mode = "quick" if "--quick" in args else "full"
    if results.get("mode") != mode:
        return f"its results are of {results.get('mode')} mode"
    if rec.get("args") != list(args):
        return f"its last run had other arguments ({' '.join(rec.get('args') or []) or 'none'})"
    old = rec.get("inputs") or {}
    changed = [k for k in inputs if k in old and old[k] != inputs[k]]
    added = [k for k in inputs if k not in old]
    removed = [k for k in old if k not in inputs]
    if not (changed or added or removed):
        return None
    parts = []
    for what, keys in (("changed", changed), ("new", added), ("no longer read", removed)):
        if keys:
            shown = ", ".join(keys[:4]) + (f" and {len(keys) - 4} more" if len(keys) > 4 else "")
            parts.append(f"{what}: {shown}")
    return "; ".join(parts)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    src = Sources()
    names = [n for n in lectures() if not argv or n in argv or n.split("_")[0] in argv]
    for name in names:
        print(f"{name}:")
        for key, digest in src.inputs(name).items():
            print(f"  {digest[:12]}  {key}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
