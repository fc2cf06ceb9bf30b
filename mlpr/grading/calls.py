"""How the grader calls a student's function that is not written to the course's signature.

- `Adapted`: the course's keyword arguments renamed to the student's (``--map
  COURSE=YOURS(psiEig=psi)``, a name equal up to case and underscores, or one of
  `mlpr.grading.course.names.KEYWORDS`), dropped where the function lacks one and the case
  passes the course's default, added where ``--map`` says; a case that needs a keyword the
  function lacks is left out of its task (`Unsupported`), and said.
- `probe`: the candidates the plan found under other names (`mlpr.grading.plan`), tried on the
  first case of their task before they are graded.
- `map_hint`: the ``--map`` line that adapts a call the function refused.
"""

from __future__ import annotations

import ast
import contextlib
import re
import time

from mlpr.grading.channel import ChildGone, RemoteFunction, text
from mlpr.grading.course.names import KEYWORDS, normal
from mlpr.grading.framework import Case, Fail, Task

__all__ = ["Adapted", "Unsupported", "probe", "probe_behaviour", "map_hint", "import_failure",
           "PROBE_SECONDS", "PROBE_CALLS"]

#: The wall-clock seconds and the calls the search by behaviour may spend on one submission
PROBE_SECONDS = 30.0
PROBE_CALLS = 300


class Unsupported(Exception):
    """A case passes a keyword argument that the student's function does not take, with a value
    other than the course's default: the case is left out of that task (and said)."""

    def __init__(self, keyword: str, value):
        super().__init__(keyword)
        self.keyword, self.value = keyword, value


def _defaults(signature: str) -> dict:
    """The keyword defaults of a course signature ``"(llr, L, returnThreshold=False)"``."""
    try:
        args = ast.parse(f"def f{signature}: pass").body[0].args
        out = {}
        for a, d in zip(args.args[len(args.args) - len(args.defaults):], args.defaults):
            with contextlib.suppress(ValueError):
                out[a.arg] = ast.literal_eval(d)
        return out
    except (SyntaxError, ValueError):
        return {}


class Adapted(RemoteFunction):
    """A student's function called with the course's keyword arguments adapted to its own
    signature: renamed (``--map COURSE=YOURS(psiEig=psi)``, or a parameter whose name is the
    course's up to case and underscores, or one of `names.KEYWORDS`), dropped when the function
    lacks one and the case passes the course's default (or ``-kw`` says so), and extra ones
    added (``+kw=value``). A case that needs a keyword the function lacks raises `Unsupported`.
    """

    def __init__(self, fn: RemoteFunction, task: Task, rename: dict | None = None,
                 drop=(), extra: dict | None = None):
        super().__init__(fn.child, fn.target, fn.__name__, fn.signature)
        self.rename, self.drop, self.extra = dict(rename or {}), set(drop), dict(extra or {})
        self.defaults = _defaults(task.signature)
        self.own = [p for p, kind, _ in fn.signature or [] if kind != "VAR_POSITIONAL"]
        self.var_keyword = any(kind == "VAR_KEYWORD" for _, kind, _ in fn.signature or [])

    def _keyword(self, k: str):
        """The student's name for the course's keyword ``k``, or None."""
        if k in self.rename:
            return self.rename[k]
        if k in self.own or self.var_keyword:
            return k
        wanted = {normal(k)} | {normal(n) for n in KEYWORDS.get(k, ())}
        return next((p for p in self.own if normal(p) in wanted), None)

    def accepts(self, parameter: str) -> bool:
        return self._keyword(parameter) is not None

    def __call__(self, *args, **kwargs):
        out = dict(self.extra)
        for k, v in kwargs.items():
            if k in self.drop:
                continue
            own = self._keyword(k)
            if own is not None:
                out[own] = v
            elif k in self.defaults and _same(v, self.defaults[k]):
                continue  # the course's default: calling without it is the same call
            else:
                raise Unsupported(k, v)
        return self.child.call(self.target, args, out)


def _same(a, b) -> bool:
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:
        return False


#: A TypeError of calling a function with arguments it does not take
_SIGNATURE = re.compile(r"missing \d+ required (positional|keyword-only) argument|unexpected "
                        r"keyword argument|takes \d+ positional arguments? but|got multiple "
                        r"values for argument|takes no arguments")


def probe(process, plan, default: dict, timeout: float, ends: float, adaptations: dict,
          run_case) -> None:
    """Check the candidates found under another name on the first case of their task: a
    synonym (`mlpr.grading.plan`) is graded only when that case agrees with the reference; a
    name that is the course's up to case and underscores is graded unless the function does
    not take the course's arguments (then it is another function: proposed, not graded). Each
    outcome is a note of the plan. ``run_case`` is the runner's (`mlpr.grading.runner.run_case`)."""
    by_function = {t.function_name: t for t in default.values()}
    todo = [(f, plan.pending[f], "synonym") for f in sorted(plan.pending)]
    todo += [(f, [c], "name") for f, c in sorted(plan.chosen.items()) if c.how == "name"]
    for f, cands, how in todo:
        task = by_function.get(f)
        if task is None or time.perf_counter() >= ends:
            continue
        for cand in cands:
            if process.restart(task) is not None:
                return
            process.child.begin(timeout)
            spec = adaptations.get(f, {})
            fn = Adapted(process.child.function(cand.id), task, spec.get("rename"),
                         spec.get("drop", ()), spec.get("extra"))
            verdict = "agrees"
            try:
                case = next(c for c in task.cases() if not _needs_missing(fn, c))
                run_case(fn, case, task)
            except StopIteration:
                verdict = "no case it can take"
            except Fail as exc:
                verdict = exc.message[:200]
            except ChildGone as exc:
                process.kill()
                verdict = exc.reason[:200]
            except Exception:  # the kit's own failure on a probe: the candidate is not taken
                verdict = "the kit could not try it"
            finally:
                if process.child is not None:
                    process.child.take_printed()
            line = f"{cand.path}::{cand.qualname}"
            if how == "name":
                if _SIGNATURE.search(verdict):
                    del plan.chosen[f]
                    plan.notes.append(f"{f}: {line} has the course's name up to case but not "
                                      f"its arguments ({verdict}): not graded (--map "
                                      f"{f}={cand.qualname}(...) adapts the call)")
                break
            if verdict == "agrees":
                plan.chosen[f] = cand
                break
            plan.notes.append(f"{f}: {line} was tried as it, and its first case gave: "
                              f"{verdict} (--map {f}={cand.qualname} grades it anyway)")
    plan.pending = {f: v for f, v in plan.pending.items() if f not in plan.chosen}


def _takes(signature: list, n: int) -> bool:
    """Whether a function of ``signature`` (the channel's ``[(name, kind, has_default)]``) can
    be called with ``n`` positional arguments."""
    positional = [p for p in signature if p[1].startswith("POSITIONAL")]  # the channel cuts
    # kinds to 20 characters: POSITIONAL_OR_KEYWOR
    required = [p for p in positional if not p[2]]
    star = any(p[1] == "VAR_POSITIONAL" for p in signature)
    needed_kw = [p for p in signature if p[1] == "KEYWORD_ONLY" and not p[2]]
    return not needed_kw and len(required) <= n and (star or n <= len(positional))


def probe_behaviour(process, plan, default: dict, numbers: dict, timeout: float, ends: float,
                    run_case) -> None:
    """Look for the course functions that have no candidate among the functions no course name
    matches: each function of the lab folder of the task's lab (``numbers``: the kit's lab ->
    the repository's year's number), then of the folders that are no lab's, that takes the
    first case's arguments is tried on its cases, and the first that agrees on every case is
    graded (with a note); at most `PROBE_SECONDS` and `PROBE_CALLS` for the whole submission."""
    t0, calls = time.perf_counter(), 0
    taken: set = set()
    for task in default.values():
        f = task.function_name
        if f in plan.chosen or f in plan.unimportable or f in plan.course_functions or \
                task.extra:  # (a synonym that did not agree leaves its function to this search)
            continue
        lab = numbers.get(task.lab)
        cases = task.cases()
        if not cases:
            continue
        case = cases[0]
        # the lab's own folder first, then the folders that are no lab's (helpers, a project)
        for cand in sorted(plan.unmatched, key=lambda c: c.lab is None):
            if cand.id in taken or (cand.lab is not None and cand.lab != lab) or \
                    not _takes(process_signature(process, cand.id), len(case.args)):
                continue
            if time.perf_counter() - t0 > PROBE_SECONDS or calls >= PROBE_CALLS or \
                    time.perf_counter() >= ends:
                plan.notes.append("the search by behaviour stopped at its time budget")
                return
            if process.restart(task) is not None:
                return
            calls += 1
            process.child.begin(timeout)
            try:
                run_case(Adapted(process.child.function(cand.id), task), case, task)
                # no name says it is this function: it is graded only if it agrees on every
                # case (one that agrees on the first only computes something else)
                for other in cases[1:]:
                    process.child.begin(timeout)
                    run_case(Adapted(process.child.function(cand.id), task), other, task)
            except ChildGone:
                process.kill()
                continue
            except Exception:  # it does not compute this: not a candidate
                continue
            finally:
                if process.child is not None:
                    process.child.take_printed()
            plan.chosen[f] = cand
            plan.pending.pop(f, None)
            taken.add(cand.id)
            break


def process_signature(process, ident: str) -> list:
    child = process.child
    return child.functions.get(ident, []) if child is not None else []


def _needs_missing(fn, case: Case) -> bool:
    """Whether ``case`` passes a keyword that ``fn`` cannot take (`Adapted`)."""
    return any(fn._keyword(k) is None and not (k in fn.defaults and _same(v, fn.defaults[k]))
               for k, v in case.kwargs.items() if k not in fn.drop)


def map_hint(fn, message: str, task: Task | None) -> str:
    """The ``--map`` line that adapts the call, where the TypeError names the argument: an
    extra required one (``+name=VALUE``) or a keyword it lacks (``course=yours``)."""
    if task is None:
        return ""
    name = getattr(fn, "__name__", "").rpartition("::")[2] or task.function_name
    missing = re.findall(r"'(\w+)'", message) if "missing" in message else []
    if missing and not set(missing) & set(re.findall(r"\w+", task.signature)):
        extra = ",".join(f"+{m}=VALUE" for m in missing)
        return f", or grade it as --map {task.function_name}={name}({extra})"
    unexpected = re.search(r"unexpected keyword argument '(\w+)'", message)
    if unexpected:
        return (f", or grade it as --map {task.function_name}={name}"
                f"({unexpected.group(1)}=YOUR_NAME)")
    return ""


_GONE_MODULES = {"numpy.linalg.linalg": "numpy 2 made it private (numpy.linalg._linalg): "
                 "import numpy.linalg, which has the same functions"}


def import_failure(hello: dict, import_timeout: float) -> str:
    kind = text(hello.get("type"), 100)
    message = text(hello.get("message"), 500)
    where = text(hello.get("where"), 200)
    if not kind:
        return f"the submission could not be imported: {message}"
    gone = next((why for module, why in _GONE_MODULES.items()
                 if kind == "ModuleNotFoundError" and f"'{module}'" in message), "")
    return (f"importing the submission raised {kind}: {message}"
            + (f" (at {where})" if where else "") + (f"; hint: {gone}" if gone else ""))
