r"""The record of one course function, and the run whose seed its cases are drawn from.

A lab module of `mlpr.grading.course` lists its functions as `CourseFunction` records in
``FUNCTIONS``; everything else the kit knows about the course (the tasks of the grader, the
adapters of student mode, ``--list``, the concordance of ``docs/grading/course_functions.md``) is
generated from these records (`mlpr.grading.course`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

__all__ = ["CourseFunction", "Adapter", "Run", "FIXED"]


@dataclasses.dataclass(frozen=True)
class Adapter:
    """How student mode computes mlpr's function ``replaces`` with the course's functions.

    ``needs`` lists alternatives, each a tuple of the course names it requires (the first
    alternative the submission has is used); ``build(code, f)`` returns a function with the
    signature of mlpr's ``f`` that calls the submission's functions through ``code`` (a
    `mlpr.grading.student.StudentCode`). ``audit`` is how each answer is compared with mlpr's on
    the lecture's own inputs: ``(rule, tolerance)``, the rule one of "values", "objective",
    "subspace", "lloyd" or "none" (`mlpr.grading.student`), or ``(rule, tolerance, reach)`` for
    an optimiser: ``reach(f, args, kwargs, measure, out=answer)`` returns how far from mlpr's
    answer the course's own method may land on the call's inputs (``measure(answer)`` is the
    rule's distance of an answer from mlpr's; ``out`` the student's), and an answer within a
    margin of that agrees.
    """

    replaces: str
    needs: tuple
    build: Callable
    audit: tuple = ("values", 1e-8)


@dataclasses.dataclass(frozen=True)
class CourseFunction:
    """One function of the course's labs, as the kit grades it and student mode uses it.

    Attributes
    ----------
    name : str
        The course's name (``"name (variant)"`` for a second task of the same function).
    signature : str
        The course's calling convention, ``"(D, L)"``.
    topic : str
        What it computes, in a few words.
    reference : str
        The mlpr function(s) that compute it, as ``module.function`` (the concordance).
    forms : str
        The course's data forms it takes or returns, where they are not mlpr's (``hParams``,
        GMM lists, ``(w, b)``); the conversions are `mlpr.grading.course.forms`.
    cases : callable
        ``cases(run) -> [Case, ...]``: the inputs (drawn from the `Run`'s seed), mlpr's
        answers, the comparison, and the known mistakes of each case with their hints.
    points : float
        Its points (an autograder may give others).
    lab : int or None
        Set from the lab module's ``LAB`` (a record names no lab of its own: moving it to
        another lab moves it to another module).
    files : tuple
        Data files it reads from its working folder (the course's ``iris.csv``).
    function : str
        The course function called, when ``name`` is a variant.
    extra : bool
        A name of the kit's own, graded only on request.
    adapters : tuple of Adapter
        The mlpr functions student mode computes with it.
    formula : mlpr.grading.mutants.Formula, optional
        A plain-numpy implementation of the answer in the course's form, whose mutants name a
        wrong answer's cause when no listed mistake does (given to each case without its own).
    """

    name: str
    signature: str
    topic: str
    reference: str
    cases: Callable
    forms: str = ""
    points: float = 1.0
    lab: int | None = None
    files: tuple = ()
    function: str = ""
    extra: bool = False
    adapters: tuple = ()
    formula: object = None

    @property
    def function_name(self) -> str:
        return self.function or self.name


class Run:
    """One grading run: the seed its cases are drawn from, and the cases and shared inputs built
    for it (each built once per run).

    ``seed=None`` gives the kit's fixed cases. With a seed, the training samples of the iris
    splits are permuted and two of them left out, and the synthetic data (offset data, llrs with
    ties, scores, GMM data) are drawn anew, each keeping the property that makes its mistakes
    show: the kit's source is public, and fixed inputs could be answered by a table.
    """

    def __init__(self, seed: int | None = None):
        if seed is not None and (not isinstance(seed, (int, np.integer)) or seed < 0):
            raise ValueError(f"seed must be a non-negative int or None, got {seed!r}")
        self.seed = None if seed is None else int(seed)
        self._built: dict = {}

    def __repr__(self) -> str:
        return f"Run(seed={self.seed!r})"

    def shared(self, build: Callable, *args):
        """``build(self, *args)``, built once per run (the shared inputs of several tasks)."""
        key = (build, args)
        if key not in self._built:
            self._built[key] = build(self, *args)
        return self._built[key]

    def cases(self, record: CourseFunction) -> list:
        """The cases of ``record`` in this run (built once)."""
        return self.shared(_cases_of, record.cases, record.formula)

    def sub(self, salt: int, fixed: int | None = None) -> int:
        """The seed of one synthetic data set: ``fixed`` (or ``salt``) for the fixed cases."""
        if self.seed is None:
            return salt if fixed is None else fixed
        return (self.seed * 1_000_003 + salt) % 2**31

    def rng(self, salt: int) -> np.random.Generator:
        return np.random.default_rng(self.sub(salt))

    def shuffled(self, split, salt: int = 101, draw: int = 0):
        """A train / validation split with the training samples permuted and two left out, and
        the validation samples permuted (the split itself for the fixed cases); ``draw`` > 0
        gives the next draws of the same run (`mlpr.grading.course.optim.fair_draws`)."""
        if self.seed is None and draw == 0:
            return split
        (DTR, LTR), (DVAL, LVAL) = split
        rng = self.rng(salt + 1000 * draw)
        keep = rng.permutation(DTR.shape[1])[:-2]
        order = rng.permutation(DVAL.shape[1])
        return (DTR[:, keep], LTR[keep]), (DVAL[:, order], LVAL[order])


def _cases_of(run: Run, build: Callable, formula=None) -> list:
    cases = build(run)
    for case in cases:
        if getattr(case, "formula", None) is None and formula is not None:
            case.formula = formula
    return cases


#: The run of the fixed cases (no seed): a TA's `reference`, the kit's own tests and a grading
#: without a seed share its cases, built once per process.
FIXED = Run(None)
