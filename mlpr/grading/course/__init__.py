r"""The course as data: one module per lab (``labNN.py``), one record per course function.

Each lab module holds ``LAB`` (the lab's number in the course's 2024 edition: 2 loading, 3 PCA /
LDA, 4 Gaussian densities and K-means, 5 Gaussian classifiers, 7 Bayes decisions and DCF, 8
logistic regression, 9 SVM, 10 GMM, 11 calibration and fusion) and ``FUNCTIONS``, a tuple of
`CourseFunction` records. Everything the kit knows of the course is generated from them here:

- `tasks`: the grader's tasks (`mlpr.grading.framework.Task`), their cases drawn from a `Run`;
- `adapters`: student mode's adapters, ``{mlpr name: Adapter}``;
- `listing`: the lines of ``python -m mlpr.grading --list``;
- `concordance`: the table of ``docs/grading/course_functions.md`` (a test holds the two equal);
- `course_names`: every course function's name; `helpers`: the course's helpers no task grades.

Adding next year's lab is one file ``labNN.py`` in this folder; moving a function to another lab
moves its record to that lab's module. The other modules are what the records are built of:
`records` (the record and the run), `forms` (the course's data forms and their conversions),
`shared` (the inputs several labs share), `optim` (comparisons of optimisers' answers), `adapt`
(student mode's stand-ins).
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import pkgutil
import re
from collections.abc import Sequence
from pathlib import Path

from mlpr.grading.course.records import FIXED, Adapter, CourseFunction, Run
from mlpr.grading.framework import Task

__all__ = ["CourseFunction", "Adapter", "Run", "FIXED", "lab_modules", "records", "tasks",
           "reference", "adapters", "helpers", "course_names", "listing", "concordance",
           "GUIDE_BEGIN", "GUIDE_END", "update_guide", "EDITION", "years", "lab_numbers",
           "kit_labs"]

_LAB_MODULE = re.compile(r"lab\d+")


def lab_modules() -> list:
    """The lab modules of this folder (every ``labNN.py`` on the package's path), by lab."""
    names = sorted(m.name for m in pkgutil.iter_modules(__path__) if _LAB_MODULE.fullmatch(m.name))
    # imported by name, found on the folder's listing: a new lab is a new file and nothing else
    modules = [importlib.import_module(f"{__name__}.{n}") for n in names]
    return sorted(modules, key=lambda m: m.LAB)


#: The academic year whose lab numbers the kit's ``LAB`` s are
EDITION = "2023/24"


def years() -> list:
    """The academic years whose lab numbers the course's records carry (the kit's `EDITION`
    first)."""
    found = {y for m in lab_modules() for y in getattr(m, "YEARS", {})}
    return [EDITION] + sorted(found - {EDITION})


def lab_numbers(year: str | None = None) -> dict:
    """``{the kit's lab: its number in year}``: a lab module's ``YEARS`` entry for that year,
    else the kit's number when no other lab has it that year, else None (not known for that
    year). ``year`` None or `EDITION`: the kit's numbers."""
    labs = [m.LAB for m in lab_modules()]
    if year is None or year == EDITION:
        return {lab: lab for lab in labs}
    if year not in years():
        raise ValueError(f"year {year!r} is not one the course's records know: "
                         f"{', '.join(years())}")
    given = {m.LAB: m.YEARS[year] for m in lab_modules() if year in getattr(m, "YEARS", {})}
    taken = set(given.values())
    return {lab: given.get(lab, lab if lab not in taken else None) for lab in labs}


def kit_labs(labs: Sequence[int], year: str | None = None) -> list:
    """The kit's labs that are ``labs`` in ``year``'s numbering (`lab_numbers`)."""
    numbers = lab_numbers(year)
    return sorted(k for k, n in numbers.items() if n in set(labs))


def records() -> list:
    """Every course function's record, lab by lab, each with its lab's number."""
    out, seen = [], set()
    for module in lab_modules():
        for r in module.FUNCTIONS:
            if r.name in seen:
                raise ValueError(f"{r.name} is a record of two labs ({module.__name__} and an "
                                 f"earlier one)")
            seen.add(r.name)
            out.append(dataclasses.replace(r, lab=module.LAB))
    return out


def tasks(labs: Sequence[int] | None = None, everything: bool = False,
          run: Run | None = None) -> dict:
    """The grader's tasks, ``{course name: Task}``, optionally only the given labs; the tasks
    under names of the kit's own (``extra``) only with ``everything``. Their cases are drawn
    from ``run`` (default `FIXED`, the fixed cases), each built once per run."""
    run = FIXED if run is None else run
    return {r.name: Task(name=r.name, lab=r.lab, topic=r.topic,
                         cases=functools.partial(run.cases, r), points=r.points,
                         signature=r.signature, files=r.files, function=r.function,
                         extra=r.extra)
            for r in records()
            if (labs is None or r.lab in set(labs)) and (everything or not r.extra)}


def reference(name: str, run: Run | None = None) -> list:
    """The cases of task ``name``: each `Case` has ``args`` (the inputs, in the course's calling
    convention) and ``expected`` (mlpr's answer). ``reference("logpdf_GAU_ND")[0].expected``."""
    catalogue = tasks(run=run)
    if name not in catalogue:
        raise ValueError(f"no task {name!r}; the tasks are: {', '.join(sorted(catalogue))}")
    return catalogue[name].cases()


def adapters() -> dict:
    """Student mode's adapters, ``{mlpr function name: Adapter}``."""
    out = {}
    for r in records():
        for a in r.adapters:
            if a.replaces in out:
                raise ValueError(f"two adapters replace mlpr's {a.replaces}")
            out[a.replaces] = a
    return out


def helpers() -> set:
    """The course's own helper functions that no task grades (each lab module's ``HELPERS``,
    such as ``vcol`` and ``vrow``): a submission's definitions of them are not listed as "not
    graded"."""
    return {h for module in lab_modules() for h in getattr(module, "HELPERS", ())}


def course_names(everything: bool = True) -> set:
    """The names of the course's functions (the kit's own ``extra`` ones with ``everything``)."""
    return {r.function_name for r in records() if everything or not r.extra}


def listing() -> list:
    """The lines of ``python -m mlpr.grading --list``."""
    return [f"lab {r.lab:2d}  {r.name}{r.signature}  ({r.topic})"
            + ("  [--extra]" if r.extra else "") for r in records()]


def _cited(reference: str) -> str:
    """A reference as the guide cites it: ``module.name`` in backticks (the guide's test checks
    that mlpr has it), a note after it as it is."""
    name, _, note = reference.partition(" ")
    if name.startswith("numpy"):
        return reference
    return f"`{name}`" + (f" {note}" if note else "")


def concordance() -> str:
    """The concordance of the kit's tasks in ``docs/grading/course_functions.md``: one row per
    record."""
    rows = ["| lab | the course's function | mlpr's reference | the course's forms | "
            "student mode computes |", "|---|---|---|---|---|"]
    for r in records():
        name = f"`{r.name}{r.signature}`"
        replaces = ", ".join(f"`{a.replaces}`" for a in r.adapters)
        extra = " (`--extra`)" if r.extra else ""
        rows.append(f"| {r.lab} | {name}{extra} | {_cited(r.reference)} | "
                    f"{r.forms.replace('|', 'or')} | {replaces} |")
    return "\n".join(rows) + "\n"


#: The lines around the generated concordance in ``docs/grading/course_functions.md``
GUIDE_BEGIN = "<!-- generated by mlpr.grading.course.update_guide: do not edit -->"
GUIDE_END = "<!-- end of the generated concordance -->"


def update_guide(path) -> bool:
    """Write `concordance` between `GUIDE_BEGIN` and `GUIDE_END` of the guide at ``path``;
    whether it changed. ``python -c "from mlpr.grading import course;
    course.update_guide('docs/grading/course_functions.md')"``."""
    text = Path(path).read_text()
    head, begin, rest = text.partition(GUIDE_BEGIN + "\n")
    _, end, tail = rest.partition(GUIDE_END)
    if not begin or not end:
        raise ValueError(f"{path} has no block between {GUIDE_BEGIN!r} and {GUIDE_END!r}")
    new = head + begin + concordance() + end + tail
    if new != text:
        Path(path).write_text(new)
    return new != text
