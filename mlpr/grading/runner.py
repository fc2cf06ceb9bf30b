r"""The trusted runner: grade a submission whose code runs in another process.

The grader's process (this module) builds the cases, computes every reference value, compares,
finds the hint and adds up the points. The submission runs in a process of its own
(`mlpr.grading.child.harness`, started by `mlpr.grading.sandbox`) that holds none of these: it
performs the calls it is sent and answers with plain data, in the wire codec both sides share
(`mlpr.grading.child.wire`). A function of the submission is a `RemoteFunction` here, the
grader's end of the channel (`mlpr.grading.channel`).

Nothing from the child is trusted beyond plain data: what comes back is converted to float
arrays by the comparisons (or fails with the reason), a child that dies, hangs or sends what is
not plain data fails the task it was running, and each task is capped at its points.
"""

from __future__ import annotations

import collections
import copy
import dataclasses
import inspect
import os
import tempfile
import time
import traceback
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from mlpr.datasets import data_dir
from mlpr.grading import leftovers, mutants, repair, sandbox
from mlpr.grading import plan as planning
from mlpr.grading.calls import (
    Adapted,
    Unsupported,
    import_failure,
    map_hint,
    probe,
    probe_behaviour,
)
from mlpr.grading.channel import (
    IMPORT_TIMEOUT,
    MAX_BLOBS,
    MAX_HEADER,
    TASK_TIMEOUT,
    Child,
    ChildGone,
    RemoteFunction,
    StudentRaised,
    accepts,
)
from mlpr.grading.child import wire
from mlpr.grading.course import FIXED, Run, course_names, helpers, kit_labs, lab_numbers, tasks
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

#: The folder staged beside each submission: the harness and the wire codec.
CHILD = Path(wire.__file__).parent


# ------------------------------------------------------------------------------------------------
# one task: call, post-process, compare, diagnose (all here, in the grader's process)


def _call(fn, case: Case, task: Task | None = None):
    """Call the student's function on a copy of the case's inputs; `Fail` with the reason when it
    raises or opens a file."""
    args = copy.deepcopy(case.args)
    kwargs = copy.deepcopy(case.kwargs)
    kwargs.update({k: v for k, v in case.quiet.items() if accepts(fn, k)})
    try:
        out = fn(*args, **kwargs)
    except (Fail, ChildGone, Unsupported):
        raise
    except StudentRaised as exc:
        message, hint = _explain_raised(fn, exc, case, task)  # no hint from its text alone
        raise Fail(message, hint) from None
    except Exception as exc:  # a function of this process (grade_functions)
        raised = _as_raised(exc)
        message, hint = _explain_raised(fn, raised, case, task)
        raise Fail(message, hint) from None
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


#: numpy's refusal to put a non-scalar into one element of an array
_SLOT_REFUSAL = "setting an array element with a sequence"
#: modules the course's code imports that newer numpy no longer has, and what replaces them
def _explain_raised(fn, exc: StudentRaised, case: Case,
                    task: Task | None = None) -> tuple:
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
    if exc.type_name == "ValueError" and _SLOT_REFUSAL in exc.message:
        return (msg, "a value put into one slot of an array (Y[i] = ...) is not a number; if it "
                     "is a 1-element array (a (1, 1) mean or product), numpy >= 2.4 refuses it "
                     "where older numpy converted it with a warning: write value.item() or "
                     "value[0, 0], or grade with the numpy the course's code runs on (the "
                     "kit's submissions' environment, numpy < 2.4)")
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
                     f"arguments ({_describe_args(case)}); rename it or adapt the signature"
                     + map_hint(fn, exc.message, task))
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
    got = _UNREAD
    try:
        got = case.post(out) if case.post is not None else out
        result = compare(got, case.expected)
    except StudentRaised as exc:  # a function the student's function returned
        raise Fail(f"the function it returned raised {exc.type_name}: {exc.message}") from None
    except Fail as exc:  # the answer's form is wrong: a known mistake of that form first
        if case.post is None:
            exc.hint = (_safe_diagnose(out, case, compare, numeric=False, raw=True) or exc.hint
                        or _safe_diagnose(out, case, compare) or _tuple_hint(out, case, compare))
        elif exc.hint is None and got is _UNREAD:  # its form: a mutant of that form?
            exc.hint = _safe_search(case, out, compare, exc.message)
        elif exc.hint is None:  # read, but not comparable: a mutant of that shape?
            exc.hint = _safe_search(case, got, compare)
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


#: The student's value before the case's ``post`` has read it
_UNREAD = object()


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


def _safe_diagnose(got, case: Case, compare, numeric: bool = True,
                   raw: bool = False) -> str | None:
    """`diagnose`, with any exception that the student's value causes there giving no hint."""
    try:
        return diagnose(got, case.expected, case.mistakes, compare, case.context, numeric,
                        case=case, raw=raw)
    except (ChildGone, KitError):
        raise
    except StudentRaised:
        return None
    except Exception:
        return None


def _safe_search(case: Case, out, compare, form_error: str | None = None) -> str | None:
    """The mutant whose answer the case's ``post`` refuses as it refused the student's
    (``form_error``)."""
    try:
        return mutants.search(case, out, compare, form_error=form_error)
    except (ChildGone, KitError):
        raise
    except Exception:
        return None


def run_task(task: Task, fn) -> TaskResult:
    """Grade one task: every case must pass; the result reports the worst error measured.
    `ChildGone` passes through (the caller restarts the submission's process)."""
    t0 = time.perf_counter()
    worst: Comparison | None = None
    left_out: list = []  # (case, keyword) the function cannot take (`Adapted`)
    cases = task.cases()
    try:
        for case in cases:
            try:
                c = run_case(fn, case, task)
            except Unsupported as exc:
                left_out.append((case.what, exc.keyword, exc.value))
                continue
            except Fail as exc:
                exc.message = f"{case.what}: {exc.message}"
                raise
            if worst is None or c.err / max(c.tol, 1e-300) > worst.err / max(worst.tol, 1e-300):
                worst = c
    except Fail as exc:
        return TaskResult(task.name, task.lab, "failed", 0.0, task.points, exc.err, exc.tol,
                          exc.message, exc.hint, time.perf_counter() - t0)
    said = ""
    if left_out:
        keys = sorted({f"{k}={v!r}" for _, k, v in left_out})
        said = (f"graded on {len(cases) - len(left_out)} of {len(cases)} cases: the function "
                f"takes no {', '.join(sorted({k for _, k, _ in left_out}))} (the cases with "
                f"{', '.join(keys)} were left out)")
        if len(left_out) == len(cases):
            return TaskResult(task.name, task.lab, "failed", 0.0, task.points, message=said
                              + "; --map NAME=YOURS(KEYWORD=YOUR_KEYWORD) names yours",
                              seconds=time.perf_counter() - t0)
    return TaskResult(task.name, task.lab, "passed", task.points, task.points,
                      worst.err if worst else None, worst.tol if worst else None, said, None,
                      time.perf_counter() - t0)


def grade_functions(functions: dict, names: Sequence[str] | None = None,
                    run: Run | None = None) -> list:
    """Grade a dict ``{course name: function}`` in this process, without isolation or time limit
    (for trusted code: a TA's own solution, the tests of the kit): a list of `TaskResult`, one
    per task whose function is in ``functions`` (or per name of ``names``, missing ones
    failing), on the cases of ``run`` (default: the fixed cases)."""
    catalogue = tasks(everything=True, run=run)
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
    catalogue = tasks(everything=True)  # their names and functions (no case is built)
    given = given or {}
    failed = {}
    for r in results:
        if r.status == "failed" and r.name in catalogue and "has no function" not in r.message:
            failed.setdefault(given.get(catalogue[r.name].function_name,
                                        catalogue[r.name].function_name), r)
    hints = {f: (r.hint or r.message, r.title) for f, r in failed.items()}

    def cause(f: str, seen: frozenset = frozenset()) -> str:
        """The deepest failed function that ``f`` relies on (``f`` itself if none)."""
        todo, visited = collections.deque(uses.get(f, [])), set(seen) | {f}
        while todo:  # breadth first, each function once: linear in the graph
            g = todo.popleft()
            if g in visited:
                continue
            visited.add(g)
            if g in failed:
                return cause(g, frozenset(visited))
            todo.extend(uses.get(g, []))
        return f

    for own, r in list(failed.items()):
        root = cause(own)
        if root != own:
            why, title = hints[root]
            r.hint = (f"your {root.rpartition('::')[2]} fails its own task ({title}: {why}); "
                      f"this task uses it"
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
    #: the plan's lines (`mlpr.grading.plan.Plan.lines`), printed first, and the plan as data
    plan: list = dataclasses.field(default_factory=list)
    plan_data: dict = dataclasses.field(default_factory=dict)
    #: the ``--map`` lines the plan proposes
    proposed: list = dataclasses.field(default_factory=list)

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
    return {f: data_dir() / f for t in catalogue.values() for f in t.files
            if (data_dir() / f).exists()}


class _Process:
    """The submission's process during one grading: started, restarted after a task that ended
    it, and killed at the end."""

    def __init__(self, kind: str, workdir: Path, name: str, slot: int, limits, env,
                 import_timeout: float):
        self.kind, self.workdir, self.name, self.slot = kind, workdir, name, slot
        self.limits, self.env, self.import_timeout = limits, env, import_timeout
        self.child: Child | None = None
        self.notes: list = []  # what the clean-ups could not do

    def start(self) -> dict:
        """Start the process and import the submission: its hello (`Child.hello`), or
        ``{"ok": False, ...}`` with the reason when it died first."""
        child = Child(self.kind, self.workdir, self.name, self.slot, self.limits, self.env)
        try:
            hello = child.hello(self.import_timeout)
        except ChildGone as exc:
            self.notes += child.kill()
            return {"ok": False, "message": exc.reason, "type": ""}
        self.child = child
        return hello

    def restart(self, task: Task) -> TaskResult | None:
        """A new process when the last task ended the previous one: None when one runs, else
        the task's failed result."""
        if self.child is not None:
            return None
        hello = self.start()
        if self.child is None or not hello.get("ok"):
            self.kill()
            return TaskResult(task.name, task.lab, "failed", 0.0, task.points,
                              message="the submission could not be restarted after its last "
                                      "task: " + import_failure(hello, self.import_timeout))
        return None

    def kill(self) -> None:
        if self.child is not None:
            self.notes += self.child.kill()
        self.child = None


#: Wall-clock budget of one submission's grading, in seconds: past it, the remaining tasks are
#: not graded. A correct course-style file takes about 10 s for every lab's tasks on this
#: project's 2-core machine; the budget bounds one whose import is slow and whose tasks all hang
#: (51 tasks x (60 s + a 60 s re-import) would be 100 minutes) to what a class of 200 affords.
SUBMISSION_BUDGET = 300.0


def grade(path, labs: Sequence[int] | None = None, mapping: dict | None = None,
          timeout: float = TASK_TIMEOUT, import_timeout: float = IMPORT_TIMEOUT,
          isolation: str = "auto", fail_on_print: bool = False, slot: int = 0,
          limits: sandbox.Limits | None = None, seed: int | None = None,
          extra: bool = False, solution_folders: bool = False, run: Run | None = None,
          budget: float = SUBMISSION_BUDGET, include_course: bool = False,
          year: str | None = None, names: str = "equivalent",
          adaptations: dict | None = None) -> Report:
    """Grade one submission (a ``.py`` file or a folder of modules) in a sandboxed process.

    Parameters
    ----------
    labs : every task of these labs (a missing function fails its task); default: the tasks
        whose function the submission defines, the others listed as not written.
    mapping : ``{course name: the submission's name}`` for functions named otherwise.
    timeout, import_timeout : the time limits of a task and of the import, in seconds (a task
        that runs longer fails, "hangs"; the next task runs in a new process).
    budget : the wall-clock seconds of the whole grading: a task not started by then is "not
        graded: the submission's time budget ran out" (0 points).
    isolation : "auto" (the strongest available), "bubblewrap", "user" or "process".
    fail_on_print : fail a task whose function prints (by default what it prints is shown).
    slot : which of the concurrent sandboxes this is (its user id).
    seed, run : the run's seed, recorded in the report, and the `mlpr.grading.course.Run` whose
        cases are graded (default ``Run(seed)``).
    extra : also grade the tasks under names of the kit's own (`Task.extra`).
    include_course, solution_folders : grade the course's own files too (recognised by their
        content, `mlpr.grading.child.discover.course_file`: by default left out and listed).
    year : the academic year whose lab numbers ``labs`` are (default: the one the
        submission's folders are numbered by, `mlpr.grading.plan.detect_year`).
    adaptations : ``{course function: {"rename": {course keyword: the submission's},
        "drop": [keywords], "extra": {keyword: value}}}``, how ``mapping``'s functions are
        called (`Adapted`; ``--map COURSE=YOURS(psiEig=psi,-verbose,+K=1)``).
    names : "equivalent" (a function under another name of the course function's is graded
        when the plan finds it: `mlpr.grading.plan`) or "exact" (only the course's names and
        ``mapping``; other names are proposed).
    """
    t0 = time.perf_counter()
    kind = sandbox.choose(isolation)
    run = run if run is not None else (FIXED if seed is None else Run(seed))
    default = tasks(labs, everything=extra, run=run)
    if Path(path).is_symlink() and not Path(path).exists():
        reason = "the submission is a link to nothing (a dangling symbolic link)"
        return Report(str(path), _all_failed(default, reason), [], [reason],
                      time.perf_counter() - t0, kind, seed)
    path = Path(path).resolve()
    if not path.exists():
        raise FileNotFoundError(f"submission {path} does not exist")
    archive = next((a for a in ARCHIVES if path.is_file() and path.name.lower().endswith(a)),
                   None)
    if archive:  # nothing is extracted: an archive's members are names and links of its own
        reason = (f"{path.name} is an archive ({archive}): extract it first, or pass the "
                  f"folder (the kit grades .py files and folders, and extracts nothing)")
        return Report(str(path), _all_failed(default, reason), [], [reason],
                      time.perf_counter() - t0, kind, seed)
    env = {"MLPR_GRADE_IMPORT_SECONDS": f"{0.8 * import_timeout:g}"}
    if include_course or solution_folders:
        env["MLPR_GRADE_COURSE_FILES"] = "1"
    options = {"include_course": include_course or solution_folders, "year": year,
               "names": names, "extra": extra, "run": run, "adaptations": adaptations or {}}
    report = _grade_staged(path, default, kind, dict(mapping or {}), labs, slot,
                           limits or sandbox.Limits(), timeout, import_timeout, fail_on_print,
                           env, t0 + budget, options)
    report.seconds, report.isolation, report.seed = time.perf_counter() - t0, kind, seed
    return report


def _grade_staged(path: Path, default: dict, kind: str, mapping: dict, labs, slot: int,
                  limits, timeout: float, import_timeout: float, fail_on_print: bool,
                  env, ends: float = float("inf"), options: dict | None = None) -> Report:
    """`grade` once the submission is found: staged, discovered, planned, each task run, hints
    added (the report's time, isolation and seed are `grade`'s)."""
    options = options or {}
    tmp = tempfile.mkdtemp(prefix="mlpr-grading-")
    mounted = not sandbox.own_file_system(Path(tmp), kind, limits)
    try:
        notes = sandbox.Sandbox.stage(kind, Path(tmp), CHILD, path, _data_files(default), slot)
        process = _Process(kind, Path(tmp), path.name, slot, limits, env, import_timeout)
        hello = _first_hello(process)
        if not hello.get("ok"):
            reason = import_failure(hello, import_timeout)
            return Report(str(path), _all_failed(default, reason) if labs else [], [],
                          [reason] + notes + process.notes)
        plan = planning.build(hello.get("modules", []), hello.get("kind") or "file", mapping,
                              options.get("include_course", False), options.get("year"),
                              options.get("names", "equivalent"), options.get("extra", False),
                              hello.get("modules_dropped", 0))
        if labs is not None:  # --lab N: that year's lab N
            default = tasks(kit_labs(labs, plan.year), everything=options.get("extra", False),
                            run=options.get("run") or FIXED)
        notes += _loading_notes(hello)
        if process.child is not None and (plan.pending or any(
                c.how == "name" for c in plan.chosen.values())):
            probe(process, plan, default, min(timeout, 10.0), ends,
                  options.get("adaptations") or {}, run_case)
        if process.child is not None and plan.unmatched and plan.kind == "repository" and \
                options.get("names", "equivalent") == "equivalent":
            probe_behaviour(process, plan, default, lab_numbers(plan.year), min(timeout, 5.0),
                            ends, run_case)
        given = {f: c.id for f, c in plan.chosen.items()}
        names = {q.rpartition(".")[2] for m in hello.get("modules", [])
                 for q, _, _ in m.get("functions", [])}
        present = set(given)
        everything_failed = not hello.get("functions")
        if everything_failed:
            reason = plan.nothing_imported()
            results = [TaskResult(t.name, t.lab, "failed", 0.0, t.points, message=reason)
                       for t in default.values()] if labs is not None else []
            notes.insert(0, reason)
            process.kill()
            return Report(str(path), results, [], notes + process.notes, plan=plan.lines(),
                          plan_data=plan.as_dict(), proposed=plan.proposed_maps())
        chosen = [t for t in default.values() if labs is not None or t.function_name in present
                  or t.function_name in plan.unimportable]
        not_written = sorted({t.function_name for t in default.values()} - present
                             - set(plan.unimportable)) if labs is None else []
        if not chosen:
            notes.append(planning.nothing_graded(names))
        results = []
        for task in chosen:
            if task.function_name not in present and task.function_name in plan.unimportable:
                where = ", ".join(plan.unimportable[task.function_name])
                results.append(TaskResult(task.name, task.lab, "not graded", 0.0, task.points,
                                          message=f"not graded: its module could not be "
                                                  f"imported ({where}: see the plan)"))
                continue
            if time.perf_counter() >= ends:  # the budget: said for each task it leaves out
                results.append(TaskResult(task.name, task.lab, "not graded", 0.0, task.points,
                                          message="not graded: the submission's time budget "
                                                  "ran out"))
                continue
            results.append(_grade_task(process, task, given, present, hello,
                                       min(timeout, max(ends - time.perf_counter(), 1.0)),
                                       fail_on_print, options.get("adaptations")))
        results = repair.attempt_all(process, path, chosen, results, given, hello,  # after all
                                     options.get("adaptations") or {}, ends, _call)
        process.kill()
        notes += process.notes
    finally:
        if mounted:  # its file system goes whole
            sandbox.release_file_system(Path(tmp))
        # without recursion: a submission's 1,100-deep folder chain cannot fail the removal
        left = leftovers.remove_folder(tmp)
    if left:
        notes.append(left)
    downstream_hints(results, hello.get("uses", {}), given)
    graded_names = {c.name for c in plan.chosen.values()}
    return Report(str(path), results, _not_graded(names - graded_names, mapping), notes,
                  not_written=not_written, plan=plan.lines(), plan_data=plan.as_dict(),
                  proposed=plan.proposed_maps())


#: What a submission may be uploaded as that the kit does not open
ARCHIVES = (".zip", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".tar", ".7z", ".rar", ".gz")


def _all_failed(default: dict, reason: str) -> list:
    """Every task failed for one reason (a submission that cannot be imported)."""
    return [TaskResult(t.name, t.lab, "failed", 0.0, t.points, message=reason)
            for t in default.values()]


def _first_hello(process: _Process) -> dict:
    """The first start: the hello, made a failure when the submission defines no function (the
    process is then killed)."""
    hello = process.start()
    if not hello.get("ok"):
        process.kill()
    return hello


def _loading_notes(hello: dict) -> list:
    """The notes on loading the submission: the harness's and its modules', and its printing
    at import."""
    notes = [f"loading the submission: {n}" for n in hello["notes"]]
    notes += [f"loading the submission: {m['path']}: {n}" for m in hello.get("modules", [])
              for n in m.get("notes", [])]
    if hello["printed"].strip():
        notes.append("the submission printed when imported (its labs' scripts run on "
                     "import?): " + hello["printed"].strip().splitlines()[0][:100])
    return notes


def _name_mapping(default: dict, mapping: dict, names: set, labs) -> tuple:
    """The names: ``given`` (course function -> the submission's name), the course functions
    ``present`` in the submission, the tasks ``chosen`` (every task of ``labs``, else those
    whose function is present) and the course functions ``not_written`` (without ``labs``)."""
    given = {f: mapping[f] if mapping.get(f) in names else f
             for f in {t.function_name for t in default.values()}}
    present = {f for f, g in given.items() if g in names}
    chosen = [t for t in default.values() if labs is not None or t.function_name in present]
    not_written = sorted({t.function_name for t in default.values()} - present) \
        if labs is None else []
    return given, present, chosen, not_written


def _grade_task(process: _Process, task: Task, given: dict, present: set, hello: dict,
                timeout: float, fail_on_print: bool, adaptations: dict | None = None
                ) -> TaskResult:
    """One task of the submission: missing, not restartable, or run, with its file and what
    it printed (`_printing`)."""
    f = task.function_name
    adaptations = adaptations or {}
    if f not in present:
        return _missing(task)
    failed = process.restart(task)
    if failed is not None:
        return failed
    process.child.begin(timeout)
    t1, spec = time.perf_counter(), adaptations.get(f, {})
    try:
        fn = process.child.function(given[f])
        result = run_task(task, Adapted(fn, task, spec.get("rename"), spec.get("drop", ()),
                                        spec.get("extra")))
    except ChildGone as exc:
        process.kill()
        result = TaskResult(task.name, task.lab, "failed", 0.0, task.points,
                            message=exc.reason, seconds=time.perf_counter() - t1)
    except Exception:  # the kit's own code failed: said so, with its traceback
        process.kill()  # it may be mid-call: the next task gets a new process
        result = kit_error(task, traceback.format_exc(), time.perf_counter() - t1)
    result.file = hello.get("origin", {}).get(given[f], "")
    own = given[f].rpartition("::")[2]
    if own and own != f:
        result.file += f" ({own})"
    return _printing(result, process, fail_on_print)


def _printing(result: TaskResult, process: _Process, fail_on_print: bool) -> TaskResult:
    """The printing policy: what the task's function printed is shown beside its result (its
    first 3 lines), and fails a passed task under ``--fail-on-print``."""
    out = process.child.take_printed() if process.child is not None else ""
    if not out.strip():
        return result
    lines = out.strip().splitlines()
    result.printed = "\n".join(lines[:3]) + (
        f"\n... ({len(lines)} lines)" if len(lines) > 3 else "")
    if fail_on_print and result.status == "passed":
        result = dataclasses.replace(
            result, status="failed", points=0.0,
            message=f"the function printed {len(lines)} line(s) (--fail-on-print)")
    return result


def _not_graded(names: set, mapping: dict) -> list:
    """The submission's public names that no task grades (not the course's helpers)."""
    graded = course_names() | set(mapping) | helpers() | set(mapping.values())
    return sorted(n for n in names - graded if not n.startswith("_"))


def kit_error(task: Task, trace: str, seconds: float = 0.0) -> TaskResult:
    """The result of a task on which the kit's own code failed: status "error", no points, the
    traceback kept (`TaskResult.trace`); the submission is not blamed."""
    last = trace.strip().splitlines()[-1] if trace.strip() else "?"
    return TaskResult(task.name, task.lab, "error", 0.0, task.points,
                      message=f"the kit failed on this task, not the submission ({last}): "
                              f"report it to the course staff with the seed",
                      seconds=seconds, trace=trace)
