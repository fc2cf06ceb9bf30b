r"""Student mode: a submission's course functions standing in for mlpr's, in the lectures.

``python lectures/NN_topic/run.py --student my_labs.py`` runs a lecture with the student's own lab
functions in place of mlpr's: `load_submission` imports the student's file the way the grading
harness does (the course's ``iris.csv`` in the working folder, matplotlib's non-interactive
backend), and `StudentCode.replace` wraps each mlpr function that a lab asks students to write
(``train_mvg`` -> ``Gau_MVG_ML_estimates``, ``min_dcf`` -> ``compute_minDCF_binary_fast``, ...).

This runs the student's code in the lecture's own process: it is for a student running their own
code on their own machine. Grading untrusted code goes through `mlpr.grading.runner`, which never
imports a submission into the grader's process.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import inspect
import math
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

from mlpr.datasets import data_dir
from mlpr.grading import plan as planning
from mlpr.grading.child import wire
from mlpr.grading.child.harness import kind_of, load
from mlpr.grading.course import adapters, course_names
from mlpr.grading.course.adapt import StudentFailure, Unsupported, projection

__all__ = ["Submission", "load_submission", "map_mistake", "StudentCode", "StudentFailure",
           "Audit", "adapted_functions", "projection", "AUDIT_CALLS", "RTOL_AUDIT",
           "REACH_MARGIN"]

# ------------------------------------------------------------------------------------------------
# submissions


@dataclasses.dataclass
class Submission:
    """A loaded submission: its functions by name, and what happened while importing it."""

    path: Path
    functions: dict
    notes: list
    #: ``{course name: the submission's name}`` (``--map``)
    mapping: dict = dataclasses.field(default_factory=dict)


def load_submission(path, mapping: dict | None = None) -> Submission:
    """Import a submission into this process the way the grading kit's harness imports it (a
    ``.py`` file, a folder of modules, or a repository of lab folders:
    `mlpr.grading.child.harness.load`) and collect its functions.

    As in the kit's sandbox, the module's top level runs in a working folder that holds the
    course's ``iris.csv`` (a file that reads it at import works), with matplotlib's
    non-interactive backend (a ``plt.show()`` at import does not block). ``mapping`` (course name
    -> the submission's name) renames functions. A submission whose labs run on import should
    guard them with ``if __name__ == "__main__":``.
    """
    path = Path(path).resolve()
    if not path.exists():
        raise FileNotFoundError(f"submission {path} does not exist")
    for name, module in list(sys.modules.items()):  # a file loaded before is imported anew
        f = getattr(module, "__file__", None)
        if f and (Path(f).resolve() == path or Path(f).resolve().is_relative_to(path)):
            del sys.modules[name]
    cwd = os.getcwd()
    backend = None
    if "matplotlib.pyplot" in sys.modules:
        plt = sys.modules["matplotlib.pyplot"]
        backend = plt.get_backend()
        plt.switch_backend("Agg")
    with tempfile.TemporaryDirectory(prefix="mlpr-student-") as work:
        if (data_dir() / "iris.csv").exists():
            shutil.copy(data_dir() / "iris.csv", Path(work) / "iris.csv")
        os.chdir(work)
        try:
            modules, table = load(path)
        finally:
            os.chdir(cwd)
            if backend is not None and backend.lower() != "agg":
                sys.modules["matplotlib.pyplot"].switch_backend(backend)
    functions, notes = _by_name(modules, table, path, mapping)
    applied = {}
    for course, student in (mapping or {}).items():
        if student in functions:
            functions[course] = functions[student]
            applied[course] = student
        else:
            notes.append(map_mistake(course, student, functions))
    return Submission(path=path, functions=functions, notes=notes, mapping=applied)


def _by_name(modules: list, table: dict, path: Path, mapping: dict | None) -> tuple:
    """``({name: function}, notes)`` of a loaded submission: every function under its own name
    (the plan's order decides between copies: `mlpr.grading.plan`), the course functions under
    the course's names as the plan chose them; the notes are the plan's lines."""
    plan = planning.build(modules, kind_of(path), {k: v for k, v in (mapping or {}).items()})
    functions = {}
    for ident, fn in table.items():
        functions.setdefault(ident.rpartition("::")[2].rpartition(".")[2], fn)
    for f, choice in plan.chosen.items():
        functions[f] = table[choice.id]
    notes = [line.strip() for line in plan.lines()[1:]
             if line.strip().startswith(("left out", "not imported"))] + plan.notes
    return functions, notes


def map_mistake(course: str, student: str, functions) -> str:
    """Why ``--map course=student`` does not apply, and the fix: the form is COURSE=YOURS, and
    a map written the other way round is recognised."""
    names = course_names()
    if student in names and course in functions:
        return (f"--map {course}={student} is the wrong way round: the form is "
                f"COURSE=YOURS, course name first: --map {student}={course}")
    if course not in names:
        return (f"--map {course}={student}: {course} is not a course function (the form is "
                f"COURSE=YOURS; python -m mlpr.grading --list names them)")
    return f"--map {course}={student}: the submission has no function {student}"


# ------------------------------------------------------------------------------------------------
# student mode: a submission's functions in place of mlpr's


class StudentCode:
    """A submission's course functions standing in for mlpr's, through the kit's adapters.

    ``replace(f)`` returns, for an mlpr function ``f`` that a lab asks students to write, a
    function with ``f``'s signature that computes with the submission's course functions
    (``train_mvg`` -> ``Gau_MVG_ML_estimates`` and ``compute_log_likelihood_Gau``, ``min_dcf`` ->
    ``compute_minDCF_binary_fast``, ``train_svm_kernel`` -> ``train_dual_SVM_kernel``, ...), or
    ``f`` itself when the submission lacks them. When the submission's function raises, returns
    something of the wrong form, or cannot take an argument that the caller passes, the
    replacement records why and returns mlpr's answer, so that the caller goes on and every
    result built on it can be reported as not served by the student's code.

    ``take(kind)`` returns and forgets the course functions called, and the failures met, since
    the last ``take`` of that kind ("check", "table" and "section" are tracked separately).
    """

    def __init__(self, submission):
        self.functions = dict(submission.functions if isinstance(submission, Submission)
                              else submission)
        self.path = getattr(submission, "path", None)
        self.mapping = dict(getattr(submission, "mapping", {}))
        self._calls = {"check": set(), "table": set(), "section": set()}
        self._failures = {"check": [], "table": [], "section": []}
        self.replaced: dict = {}
        #: the mlpr functions used as they are: ``{mlpr name: [course names the file lacks]}``
        self.fallbacks: dict = {}
        #: each replaced function's agreement with mlpr on the lecture's own inputs (`Audit`)
        self.audits: dict = {}
        self._auditing = False
        self._current: set = set()  # the course functions the current replacement called
        self._rules: dict = {}  # each mlpr function's audit rule, looked up once

    def display(self, name: str) -> str:
        """A course function as the student named it: ``my_mvg (Gau_MVG_ML_estimates)`` when
        ``--map`` renamed it."""
        return f"{self.mapping[name]} ({name})" if name in self.mapping else name

    def has(self, name: str) -> bool:
        return name in self.functions

    def call(self, name: str, *args, **kwargs):
        """Call the submission's ``name`` on copies of the arguments, its answer passed through the
        kit's wire codec as a graded answer is (`mlpr.grading.child.wire`: plain data, numpy
        scalars as Python numbers); `StudentFailure` if it raises or returns what is not plain
        data."""
        f = self.functions[name]
        if not self._auditing:  # the audit's own calls belong to no check
            for kind in self._calls:
                self._calls[kind].add(name)
            self._current.add(name)
        try:
            out = f(*copy.deepcopy(args), **copy.deepcopy(kwargs))
        except Exception as exc:
            raise StudentFailure(name, f"raised {type(exc).__name__}: {exc}") from None
        try:
            return wire.round_trip(out)
        except Exception as exc:  # what the harness refuses to send when the code is graded
            raise StudentFailure(name, f"returned what cannot be graded: {exc}") from None

    def accepts(self, name: str, parameter: str) -> bool:
        """Whether the submission's ``name`` takes a keyword argument ``parameter``."""
        try:
            sig = inspect.signature(self.functions[name])
        except (TypeError, ValueError):
            return False
        return parameter in sig.parameters or any(
            p.kind is p.VAR_KEYWORD for p in sig.parameters.values())

    def replace(self, f: Callable) -> Callable:
        """The submission's version of the mlpr function ``f``, or ``f``."""
        entry = adapters().get(f.__name__)
        if entry is None:
            return f
        needs, build = entry.needs, entry.build
        if not any(all(self.has(n) for n in alternative) for alternative in needs):
            self.fallbacks[f.__name__] = [n for alt in needs for n in alt]
            return f
        adapted = build(self, f)

        @functools.wraps(f)
        def replacement(*args, **kwargs):
            self._current = set()
            try:
                out = adapted(*args, **kwargs)
            except StudentFailure as exc:  # it raised, or returned what cannot be used: wrong
                self._fail(str(exc))
                audit = self.audits.setdefault(f.__name__, Audit(f.__name__, [],
                                                                 *_audit_rule(f.__name__)))
                if not audit.failed:
                    audit.failed, audit.err, audit.detail = True, math.inf, exc.reason
                    audit.names = [exc.function]
                    audit.calls += 1
            except Unsupported as exc:
                self._fail(f"cannot serve {f.__name__}(...): {exc}")
            else:
                self._audit(f, out, args, kwargs)
                return out
            return f(*args, **kwargs)

        self.replaced[f.__name__] = [n for alt in needs for n in alt if self.has(n)]
        return replacement

    def _audit(self, f: Callable, out, args: tuple, kwargs: dict,
               names: list | None = None) -> None:
        """Compare the student's answer with mlpr's ``f`` on the same inputs (the first
        `AUDIT_CALLS` calls of each function): the verdict that tells a right function from a
        wrong one on the lecture's own data, whatever its references. ``names``: the student's
        functions that computed ``out`` (default: those the current replacement called). A call
        whose inputs mlpr refuses (they came from another of the student's functions) is not
        compared."""
        name = f.__name__
        if name not in self._rules:
            self._rules[name] = _audit_rule(name)
        rule = self._rules[name]
        audit = self.audits.setdefault(name, Audit(name, [], rule[0], rule[1], rule[1]))
        fed = set(names) if names is not None else self._current
        audit.names = sorted(set(audit.names) | fed)  # the functions that fed it
        if rule[0] == "none" or audit.calls >= AUDIT_CALLS or audit.failed:
            return
        self._auditing = True
        try:
            try:
                ref = f(*copy.deepcopy(args), **copy.deepcopy(kwargs))
            except Exception:  # mlpr refuses these inputs: this call tells nothing
                return
            audit.calls += 1
            err = _disagreement(out, ref, args, rule[0])
            if not err <= audit.tol and len(rule) > 2:
                # an optimiser's answer: judged by what the course's method reaches on these
                # inputs (its spread under other roundings, or one stop further on), not by
                # where mlpr's solver stopped
                reach = rule[2](f, copy.deepcopy(args), copy.deepcopy(kwargs),
                                lambda other: _disagreement(other, ref, args, rule[0]), out=out)
                tol = max(audit.base_tol, REACH_MARGIN * reach)
                if tol > audit.tol:
                    audit.tol = tol
                    audit.detail = (f"the tolerance is {REACH_MARGIN:g} times the spread of the "
                                    f"course's method on these inputs, {reach:.2g}")
        except StudentFailure as exc:
            err, audit.detail = math.inf, str(exc)
        except Exception as exc:  # the student's answer cannot be compared
            err = math.inf
            audit.detail = f"cannot be compared with mlpr's ({type(exc).__name__}: {exc})"
        finally:
            self._auditing = False
        audit.err = max(audit.err, err)
        if not err <= audit.tol:
            audit.failed = True
            audit.names = sorted(fed) or audit.names  # the call that differed

    def _fail(self, reason: str) -> None:
        for kind in self._failures:
            if reason not in self._failures[kind]:
                self._failures[kind].append(reason)

    def peek(self, kind: str) -> tuple:
        """``take`` without forgetting."""
        return sorted(self._calls[kind]), list(self._failures[kind])

    def take(self, kind: str = "check") -> tuple:
        """``(called, failures)`` since the last take of this kind: the course functions of the
        submission that were called, and why any of them could not serve."""
        called, failures = sorted(self._calls[kind]), list(self._failures[kind])
        self._calls[kind].clear()
        self._failures[kind].clear()
        return called, failures


#: An optimiser's answer may differ from mlpr's by this many times the spread of the course's
#: own method on the same inputs (`Adapter.audit`'s reach)
REACH_MARGIN = 3.0
#: Calls of each replaced function compared with mlpr's (`StudentCode._audit`): two catch a
#: wrong formula and keep the cost of a full-mode lecture within a few percent.
AUDIT_CALLS = 2
#: Tolerance of closed forms: two correct float64 implementations of the course's formulas agree
#: to 1e-13 on the lectures' data; every formula mistake is far above.
RTOL_AUDIT = 1e-8
def _audit_rule(name: str) -> tuple:
    """How the replaced mlpr function ``name`` is compared with mlpr's, and at what tolerance:
    its adapter's ``audit`` (`mlpr.grading.course.records.Adapter`): "values" (arrays, numbers,
    decisions and models by their scores on the call's data, relative to their scale),
    "objective" (an optimiser's point by the objective there, relative excess over mlpr's),
    "subspace" (projections up to their basis), "lloyd" (a fixed point of Lloyd's iteration),
    "none"; the functions the adapters call on the way are compared by their values."""
    adapter = adapters().get(name)
    return adapter.audit if adapter is not None else ("values", RTOL_AUDIT)


@dataclasses.dataclass
class Audit:
    """One replaced function's agreement with mlpr: the worst measured disagreement ``err``
    over the compared calls against ``tol``, by its rule (`_audit_rule`)."""

    function: str
    names: list
    rule: str
    tol: float
    #: the rule's tolerance (``tol`` may widen to the reach of the course's method on a call)
    base_tol: float = 0.0
    calls: int = 0
    err: float = 0.0
    failed: bool = False
    detail: str = ""

    @property
    def who(self) -> str:
        """The student's functions behind it: ``your trainLogRegBinary``."""
        return "your " + ", ".join(self.names)


def _disagreement(out, ref, args: tuple, rule: str) -> float:
    """How far the student's answer ``out`` is from mlpr's ``ref`` under ``rule``: 0 when they
    agree exactly, in units relative to the answer's scale."""
    if rule == "objective":
        a = getattr(out, "objective", getattr(out, "primal_objective", None))
        b = getattr(ref, "objective", getattr(ref, "primal_objective", None))
        return max(0.0, (float(a) - float(b)) / max(abs(float(b)), 1e-12))
    if rule == "subspace":
        A = np.asarray(getattr(out, "P", getattr(out, "w", None)), dtype=np.float64)
        B = np.asarray(getattr(ref, "P", getattr(ref, "W", getattr(ref, "w", None))),
                       dtype=np.float64)
        A, B = A.reshape(A.shape[0], -1), B.reshape(B.shape[0], -1)
        Q = np.linalg.qr(B)[0]
        residual = A - Q @ (Q.T @ A)
        return float(np.max(np.linalg.norm(residual, axis=0) / np.linalg.norm(A, axis=0)))
    data = next((a for a in args if isinstance(a, np.ndarray) and a.ndim == 2), None)
    if rule == "lloyd":
        return _lloyd_residual(np.asarray(data, dtype=np.float64), out[0], out[1])
    return _values_apart(out, ref, data)


def _lloyd_residual(X: np.ndarray, cent: np.ndarray, lab: np.ndarray) -> float:
    """How far K-means' answer is from a fixed point of Lloyd's iteration: inf when a sample is
    not at its nearest centroid, else the largest distance of a centroid from the mean of its
    cluster, relative to the data's scale."""
    d2 = ((X[:, :, None] - cent[:, None, :]) ** 2).sum(axis=0)
    rows = np.arange(X.shape[1])
    if np.any(d2[rows, lab] > d2.min(axis=1) * (1 + 1e-12) + 1e-12):
        return math.inf
    means = np.stack([X[:, lab == k].mean(axis=1) if np.any(lab == k) else cent[:, k]
                      for k in range(cent.shape[1])], axis=1)
    return float(np.abs(means - cent).max() / max(np.abs(X).max(), 1e-300))


def _values_apart(out, ref, data) -> float:
    if isinstance(ref, dict):
        return max((_values_apart(out[k], ref[k], data) for k in ref), default=0.0)
    if isinstance(ref, (tuple, list)) and not np.isscalar(ref):
        if len(out) != len(ref):
            return math.inf
        return max((_values_apart(o, r, data) for o, r in zip(out, ref)), default=0.0)
    if hasattr(ref, "scores") and data is not None:
        cols = data[:, :: max(1, data.shape[1] // 2000)]
        out, ref = out.scores(cols), ref.scores(cols)
    elif hasattr(ref, "to_list"):  # a GMM without data: its parameters
        out, ref = _gmm_rows(out), _gmm_rows(ref)
    exact = np.asarray(ref).dtype.kind in "iub"
    s, r = np.asarray(out, dtype=np.float64), np.asarray(ref, dtype=np.float64)
    if s.shape != r.shape:
        return math.inf
    if exact:
        return float(np.sum(s != r))  # decisions and counts: exactly
    finite = np.isfinite(r)
    if not np.array_equal(finite, np.isfinite(s)) or not np.array_equal(s[~finite], r[~finite]):
        return math.inf
    if not finite.any():
        return 0.0
    scale = np.abs(r[finite]).max()
    return float(np.max(np.abs(s[finite] - r[finite])) / max(scale, 1e-300))


def _gmm_rows(g) -> np.ndarray:
    """A GMM's components as rows (w, mu, C), sorted: the order of the components is free."""
    rows = [np.concatenate([[w], np.ravel(mu), np.ravel(C)]) for w, mu, C in g.to_list()]
    return np.array(sorted(rows, key=lambda r: tuple(np.round(r, 6))))




def adapted_functions() -> dict:
    """The mlpr functions that student mode can replace: ``{mlpr name: [course names]}`` (the
    course functions each needs; one alternative suffices where there are several)."""
    return {name: [n for alt in a.needs for n in alt] for name, a in adapters().items()}
