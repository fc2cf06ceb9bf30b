r"""Lab 2 of the course: loading the iris data.

One `CourseFunction` record per function of the lab (``FUNCTIONS``, at the end): its course name
and signature, the mlpr function that is its reference, its cases with their known mistakes and
hints, and the mlpr functions student mode computes with it. The kit's tasks, student mode's
adapters, ``--list`` and the concordance of ``docs/grading/course_functions.md`` are generated
from them (`mlpr.grading.course`).
"""

from __future__ import annotations

import numpy as np

from mlpr.grading.course import forms, shared
from mlpr.grading.course.records import CourseFunction
from mlpr.grading.framework import (
    Case,
    Mistake,
    exact,
)

__all__ = ["LAB", "FUNCTIONS", "HELPERS"]

#: The lab's number in the course's 2024 edition
LAB = 2
#: The course's helpers that no task grades (a submission defines them for its own use)
HELPERS = ("vcol", "vrow")


def _load_iris(run):
    D, L = shared.iris(run)
    return [Case("iris, 4 x 150", (), np.vstack([D, L]), post=forms.data_labels, compare=exact(),
                 mistakes=[Mistake("labels", "the labels must be 0 setosa, 1 versicolor, "
                                             "2 virginica, in the file's order",
                                   lambda: np.vstack([D, L + 1]))])]


FUNCTIONS = (
    CourseFunction(
        name="load_iris", signature="()", topic="loading the iris data",
        reference="datasets.load_iris", forms="returns (D, L), D 4 x N", cases=_load_iris,
        files=("iris.csv",)),
)
