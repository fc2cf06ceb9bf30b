"""The plan of one submission's grading: which folders are labs, which copy of each course
function is graded and why, and what is left out.

A run is discover, plan, grade, report. Discovery (`mlpr.grading.child.discover`, in the
sandbox) imports every module of the submission alone and sends its inventory: each module's
path, whether it imported, whether it is the course's own file, and what it defines. The plan is
built here, in the grader, from that inventory alone, once per submission, and printed first in
its report (`Plan.lines`). Its rules:

1. **Folders.** A folder is a lab when a component of its path names one: ``Lab9``,
   ``lab_09``, ``9_Lab``, ``07. Lab 07``, ``laboratorio 9``, or a number under a folder named
   like labs (``Labs/10_Calibration``); the outermost such component gives its number. A folder
   named like a project is the project; any other folder (and the submission's top) holds
   helpers.
2. **The course's own files are left out**, recognised by their content (the course author's
   header, or functions that are the course's published ones: `discover.course_file`), and so
   is any function whose fingerprint is a published one, wherever it sits; both are listed.
   ``--include-course-files`` grades them.
3. **Names.** A function is a course function's candidate when it has the course's name
   (``exact``), the course's name up to letter case and underscores (``name``), a name of
   `mlpr.grading.course.names.SYNONYMS` (``synonym``), or the name ``--map`` gives it. Exact
   and ``name`` candidates are graded; a synonym is graded once its first case agrees with
   the reference (the runner probes it), else its ``--map`` line is proposed. A course
   function with no candidate is looked for by behaviour: the functions of the lab folder of
   its lab that no course name matches, and that take its arguments, are tried on its
   cases, and one that agrees on all of them is graded (`mlpr.grading.calls.probe_behaviour`).
4. **The copy graded**, of several candidates: the ``--map`` one, then exact names before
   other names; then a function before a method; then a lab folder before the project and the
   helpers; then the folder of the task's own lab (in the academic year the repository
   numbers its labs by), then the latest lab; then, within a lab, the module defining most of
   that lab's course functions (a helper variant loses to the lab's main module); then the
   shallower path, then path order.
5. **The academic year** is the one whose lab numbers place the most course functions in the
   lab folders that hold them (`detect_year`); ``--year`` names it.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import PurePosixPath

from mlpr.grading import course
from mlpr.grading.course.names import SYNONYMS, normal

__all__ = ["Choice", "Plan", "build", "lab_of", "role_of", "detect_year", "nothing_graded",
           "HOW"]

#: How a candidate was found, best first
HOW = ("map", "exact", "name", "synonym", "behaviour")

_LAB_WORD = re.compile(r"(?<![a-z])lab(?:oratori[oa]?|oratory|s)?[\s._\-]*0*(\d{1,2})(?!\d)")
_NUMBER_LAB = re.compile(r"^0*(\d{1,2})(?!\d)[\s._\-]*(?:lab|laboratori)")
_LEADING_NUMBER = re.compile(r"^0*(\d{1,2})(?!\d)")
_PROJECT = re.compile(r"project|progetto|proyecto")


def lab_of(parts) -> int | None:
    """The lab number that a path's folders name (the outermost one that names a lab), or
    None: ``("Labs", "10_Calibration", "x.py")`` is 10, ``("lab_09", "svm.py")`` 9."""
    parts = list(parts)
    for i, part in enumerate(parts):
        p = part.lower()
        m = _LAB_WORD.search(p) or _NUMBER_LAB.match(p)
        if m is None and i > 0 and "lab" in parts[i - 1].lower():
            m = _LEADING_NUMBER.match(p)
        if m is not None:
            return int(m.group(1))
    return None


def role_of(folder_parts) -> tuple:
    """``(role, lab)`` of a folder: ("lab", N), ("project", None) or ("helpers", None)."""
    lab = lab_of(folder_parts)
    if lab is not None:
        return "lab", lab
    if any(_PROJECT.search(p.lower()) for p in folder_parts):
        return "project", None
    return "helpers", None


@dataclasses.dataclass(frozen=True)
class Choice:
    """A candidate copy of a course function: the child's ``id`` (``path::qualname``), how it
    was found (`HOW`), and the folder's role and lab."""

    id: str
    how: str
    role: str
    lab: int | None
    count: int = 0  # the course functions of the task's lab its module defines

    @property
    def path(self) -> str:
        return self.id.partition("::")[0]

    @property
    def qualname(self) -> str:
        return self.id.partition("::")[2]

    @property
    def name(self) -> str:
        return self.qualname.rpartition(".")[2]


@dataclasses.dataclass
class Plan:
    """One submission's plan (see the module's docstring for its rules)."""

    kind: str  # "file", "folder" or "repository"
    folders: list  # [(folder, role, lab or None, modules)]
    chosen: dict  # course function -> Choice graded
    others: dict  # course function -> [Choice] not graded (listed)
    pending: dict  # course function -> [Choice] synonyms, graded once their first case agrees
    course: list  # [(path, why)] the course's own files left out
    course_functions: dict  # course function -> [path] its published copies left out
    failed: list  # [(path, error dict)] the modules that could not be imported
    unimportable: dict  # course function -> [path]: defined only in modules that failed
    year: str
    year_why: str
    notes: list
    #: [Choice] the functions no course name matches (candidates by behaviour, `calls.probe`)
    unmatched: list = dataclasses.field(default_factory=list)

    def lines(self) -> list:
        """The plan as the report prints it, first: nothing cut."""
        out = [f"plan: {self.kind}" + (f", numbered as the {self.year} labs ({self.year_why})"
                                       if self.kind == "repository" else "")]
        for folder, role, lab, n in self.folders:
            what = f"lab {lab}" if role == "lab" else role
            out.append(f"  {folder or '.'}/: {what} ({n} module{'s' * (n != 1)})")
        for path, why in self.course:
            out.append(f"  left out: {path}, the course's own file ({why})")
        for f, paths in sorted(self.course_functions.items()):
            out.append(f"  left out: {f} in {', '.join(paths)}: the course's published code")
        for path, err in self.failed:
            out.append(f"  not imported: {path}: {_error_text(err)}")
        for f in sorted(self.chosen):
            c = self.chosen[f]
            also = self.others.get(f, [])
            named = "" if c.how == "exact" else f" (as {c.qualname}, {_HOW_TEXT[c.how]})"
            out.append(f"  {f}: {c.path}{named}" + (
                f"; not graded: {', '.join(o.path for o in also)}" if also else ""))
        for f in sorted(self.pending):
            cands = ", ".join(f"{c.path}::{c.qualname}" for c in self.pending[f])
            out.append(f"  {f}: candidates {cands} (another name: graded if its first case "
                       f"agrees with the reference)")
        out += [f"  {n}" for n in self.notes]
        return out

    def as_dict(self) -> dict:
        return {"kind": self.kind, "year": self.year, "year_why": self.year_why,
                "folders": [{"folder": f, "role": r, "lab": lab, "modules": n}
                            for f, r, lab, n in self.folders],
                "chosen": {f: {"file": c.path, "name": c.qualname, "how": c.how}
                           for f, c in self.chosen.items()},
                "not_graded_copies": {f: [o.path for o in v] for f, v in self.others.items()},
                "pending": {f: [f"{c.path}::{c.qualname}" for c in v]
                            for f, v in self.pending.items()},
                "course_files": [{"file": p, "why": w} for p, w in self.course],
                "course_functions": self.course_functions,
                "not_imported": [{"file": p, **e} for p, e in self.failed],
                "unimportable": self.unimportable, "notes": self.notes}

    def nothing_imported(self) -> str:
        """The reason when no module of the submission could be imported: the first failure,
        and how many modules failed (each is in the plan)."""
        if not self.failed and not self.folders and not self.course:
            return "the submission holds no .py module and no notebook"
        if not self.failed:
            return "the submission defines no function" + (
                " outside the course's own files" if self.course else "")
        path, err = self.failed[0]
        more = f" (and {len(self.failed) - 1} more modules: see the plan)" \
            if len(self.failed) > 1 else ""
        return f"the submission could not be imported: {path}: {_error_text(err)}{more}"

    def proposed_maps(self) -> list:
        """The ``--map`` lines of the candidates graded or proposed under another name."""
        out = [f"--map {f}={c.qualname}" for f, c in sorted(self.chosen.items())
               if c.how in ("name", "synonym", "behaviour")]
        out += [f"--map {f}={v[0].qualname}" for f, v in sorted(self.pending.items())]
        return out


def nothing_graded(names: set) -> str:
    shown = ", ".join(sorted(n for n in names if not n.startswith("_"))[:8]) or \
        "no public function"
    return (f"no task graded (0 / 0 points): the submission defines none of the course's "
            f"functions under the course's names (it defines {shown}); python -m mlpr.grading "
            f"--list names them, --map COURSE=YOURS maps yours, --lab N grades a lab's tasks (a "
            f"missing function then counts 0)")


_HOW_TEXT = {"map": "--map", "name": "the course's name up to case and underscores",
             "synonym": "another name, whose first case agreed", "exact": "its name",
             "behaviour": "found by its behaviour: it agrees on every case"}


def _error_text(err: dict) -> str:
    kind, message, where = err.get("type", ""), err.get("message", ""), err.get("where", "")
    return (f"{kind}: " if kind else "") + message + (f" (at {where})" if where else "")


def _course_index(everything: bool) -> tuple:
    """``({normal name: course function}, {normal synonym: course function},
    {course function: its kit lab})``."""
    functions = {}
    for r in course.records():
        if everything or not r.extra:
            functions.setdefault(r.function_name, r.lab)
    exact = {normal(f): f for f in functions}
    synonyms: dict = {}  # a name students give several functions is a candidate for each
    for f, names in SYNONYMS.items():
        for n in names:
            if f in functions and normal(n) not in exact and \
                    f not in synonyms.get(normal(n), []):
                synonyms.setdefault(normal(n), []).append(f)
    return exact, synonyms, functions


def _matches(name: str, exact: dict, synonyms: dict, functions: dict) -> list:
    """``[(course function, how)]`` that the submission's function ``name`` is a candidate
    for."""
    if name in functions:
        return [(name, "exact")]
    if normal(name) in exact:
        return [(exact[normal(name)], "name")]
    return [(f, "synonym") for f in synonyms.get(normal(name), [])]


def _match(name: str, exact: dict, synonyms: dict, functions: dict) -> tuple:
    found = _matches(name, exact, synonyms, functions)
    return found[0] if found else (None, None)


def detect_year(modules: list, functions: dict, exact: dict) -> tuple:
    """``(year, why)``: the academic year whose lab numbers put the most course functions (by
    name, in every module that defines one, the course's own files included) in the lab
    folders that hold them; the kit's `course.EDITION` on a tie."""
    placed = []  # (kit lab of the function, the folder's lab number)
    for m in modules:
        lab = lab_of(PurePosixPath(m["path"]).parts[:-1])
        if lab is None:
            continue
        for q in list(m.get("prints", {})) or [f[0] for f in m.get("functions", [])]:
            f = exact.get(normal(q.rpartition(".")[2]))
            if f is not None:
                placed.append((functions[f], lab))
    if not placed:
        return course.EDITION, "no lab folder holds a course function"
    scores = {}
    for year in course.years():
        numbers = course.lab_numbers(year)
        scores[year] = sum(numbers.get(k) == n for k, n in placed)
    best = max(scores, key=lambda y: (scores[y], y == course.EDITION))
    why = ", ".join(f"{y}: {scores[y]}" for y in course.years())
    return best, f"course functions in their lab's folder, of {len(placed)}: {why}"


def build(modules: list, kind: str, mapping: dict | None = None, include_course: bool = False,
          year: str | None = None, names: str = "equivalent", everything: bool = False,
          dropped: int = 0) -> Plan:
    """The plan of a submission from its inventory ``modules`` (the hello's, checked by the
    channel). ``mapping`` is ``--map`` (``{course function: name or path::qualname}``);
    ``names`` "equivalent" (other names are candidates) or "exact" (only the course's names
    and ``--map``); ``year`` the academic year of the lab numbers (None: detected);
    ``dropped`` the modules past the channel's cap (said)."""
    mapping = dict(mapping or {})
    exact, synonyms, functions = _course_index(everything)
    found_year, found_why = detect_year(modules, functions, exact)
    year, year_why = (found_year, found_why) if year is None else (year, "--year")
    numbers = course.lab_numbers(year)
    folders: dict = {}
    course_files, failed, notes = [], [], []
    by_function: dict = {}  # course function -> [Choice]
    published: dict = {}
    unimportable: dict = {}
    unmatched: list = []
    for m in modules:
        parts = PurePosixPath(m["path"]).parts
        folder = "/".join(parts[:-1])
        role, lab = role_of(parts[:-1])
        if m["status"] == "course":
            course_files.append((m["path"], m.get("course", "")))
            continue
        if m["status"] == "skipped":
            notes.append(f"left out: {m['path']} ({m.get('course', '')})")
            continue
        folders.setdefault(folder, [role, lab, 0])[2] += 1
        if m["status"] != "imported":
            failed.append((m["path"], m.get("error") or {}))
            for q in m.get("prints", {}):
                f, how = _match(q.rpartition(".")[2], exact, synonyms, functions)
                if f is not None and how in ("exact", "name"):
                    unimportable.setdefault(f, []).append(m["path"])
            continue
        own = []
        for qualname, is_course, callable_ in m.get("functions", []):
            name = qualname.rpartition(".")[2]
            ident = f"{m['path']}::{qualname}"
            hits = [(f, "map") for f, g in mapping.items() if g in (name, qualname, ident)]
            if not hits:
                hits = [(f, how) for f, how in _matches(name, exact, synonyms, functions)
                        if not (how == "synonym" and names == "exact")]
            if not hits and callable_ and not is_course and not name.startswith("_"):
                unmatched.append(Choice(ident, "behaviour", role, lab))
            for f, how in hits:
                if is_course and not include_course:
                    published.setdefault(f, []).append(m["path"])
                    continue
                if not callable_:
                    notes.append(f"{f}: {ident} is a method of a class whose constructor needs "
                                 f"arguments: not graded")
                    continue
                own.append((f, how, ident))
        for f, how, ident in own:
            k = functions.get(f)
            count = sum(1 for g, _, _ in own if functions.get(g) == k)
            by_function.setdefault(f, []).append(Choice(ident, how, role, lab, count))
    chosen, others, pending = {}, {}, {}
    for f, cands in by_function.items():
        own_lab = numbers.get(functions.get(f))
        cands = sorted(cands, key=lambda c: (
            HOW.index(c.how), "." in c.qualname, ("lab", "project", "helpers").index(c.role),
            (0, 0) if c.lab is not None and c.lab == own_lab else (1, -(c.lab or 0)),
            -c.count, c.path.count("/"), c.path))
        graded = [c for c in cands if c.how != "synonym"]
        if graded:
            chosen[f] = graded[0]
            if len(cands) > 1:
                others[f] = [c for c in cands if c is not graded[0]]
        else:
            pending[f] = cands
    for f in list(unimportable):
        if f in chosen or f in pending:
            del unimportable[f]
    for f, g in mapping.items():
        if f not in chosen and f not in pending:
            notes.append(f"--map {f}={g}: the submission has no function {g} (outside the "
                         f"course's files)")
    if kind == "repository" and year != found_year:
        notes.append(f"the labs' folders look numbered as {found_year} ({found_why})")
    if dropped:
        notes.append(f"{dropped} more modules than the grader reads were not planned (the "
                     f"submission has {len(modules) + dropped})")
    return Plan(kind=kind,
                folders=[(f, r, lab, n) for f, (r, lab, n) in sorted(folders.items())],
                chosen=chosen, others=others, pending=pending, course=course_files,
                course_functions={f: sorted(set(p)) for f, p in published.items()
                                  if f not in chosen},
                failed=failed, unimportable=unimportable, year=year, year_why=year_why,
                notes=notes, unmatched=unmatched)
