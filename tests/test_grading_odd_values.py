"""No answer ends a run: every task of the catalogue, fed odd answers by a property-based test.

The student's function returns a value drawn from a corpus of what struggling students (and
hostile ones) really return: NaN, infinities, ints too large for a float, complex numbers,
float16 and integer arrays, empty arrays, arrays of every wrong shape, ragged lists, dicts with
other keys, tuples of the wrong length, None, strings, nested mixtures of these, and functions
that return them (where a task expects a scoring function or a kernel). The value goes through
the channel's codec (`mlpr.grading.child.wire.encode` / `decode`) as it would from a submission's
process; what the codec refuses raises in the student's function, as the harness reports it.

For every task the grader must never raise, and the task must fail with a reason in words: no
traceback, no "error" status (that is the kit's own failure), no points. The number of examples
per task is `EXAMPLES` (derandomised: the same examples every run).
"""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from mlpr.grading import course
from mlpr.grading.child import wire
from mlpr.grading.framework import Fail
from mlpr.grading.runner import run_task

#: Examples per task: about 0.1 s each on the idle machine (the first ones build the task's cases).
EXAMPLES = 60

TASKS = course.tasks(everything=True)

_floats = st.sampled_from([math.nan, math.inf, -math.inf, 0.0, -1.5, 1e308, 5e-324])
_huge_ints = st.sampled_from([10**400, -(10**309), 2**1024, 10**20])
_texts = st.sampled_from(["", "status", "nan", "0", "<b>x</b>", "a\nb"])


def _arrays():
    dtypes = st.sampled_from([np.float64, np.float16, np.float32, np.int64, np.uint8, np.bool_,
                              np.complex128])
    shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=6)
    return st.one_of(
        hnp.arrays(dtypes, shapes, elements=None),
        hnp.arrays(np.float64, shapes, elements=st.sampled_from([math.nan, math.inf, 1.0])),
        hnp.arrays(np.float64, st.sampled_from([(0,), (0, 4), (4, 0), (150,), (4, 150),
                                                (150, 4), (4, 4, 1), (1, 1)])))


_scalars = st.one_of(st.none(), st.booleans(), _floats, _huge_ints, _texts,
                     st.complex_numbers(allow_nan=True), st.integers(-3, 3))
_leaves = st.one_of(_scalars, _arrays())
_values = st.recursive(
    _leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),  # ragged lists, lists of the wrong length
        st.tuples(inner), st.tuples(inner, inner), st.tuples(inner, inner, inner),
        st.dictionaries(st.one_of(_texts, st.integers(-2, 5)), inner, max_size=4),
    ),
    max_leaves=8,
)


def _over_the_wire(value):
    """``value`` as the grader receives it from a submission's process: through the codec; what
    the codec refuses raises in the student's function, as the harness reports it."""
    blobs, handles = [], []
    body = wire.encode(value, blobs, handles)
    return wire.decode(body, blobs, lambda tag, i: handles[i])


def _student(value):
    def student_function(*args, **kwargs):
        return _over_the_wire(value)

    return student_function


_answers = st.one_of(_values, _values.map(_student))  # a function returning an odd value too


@pytest.mark.slow
@pytest.mark.parametrize("name", list(TASKS))
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(answer=_answers)
def test_an_odd_answer_fails_its_task_with_a_reason(name, answer):
    task = TASKS[name]

    def course_function(*args, **kwargs):
        try:
            return _over_the_wire(answer)
        except (TypeError, ValueError) as exc:  # the harness refuses it: the student's raise
            raise TypeError(f"returned what cannot be graded: {exc}") from None

    result = run_task(task, course_function)  # never raises
    assert result.status == "failed", (result.status, result.message)
    assert result.points == 0 and result.message
    assert "Traceback" not in result.message and not result.trace


def test_a_value_read_by_the_kit_that_raises_is_the_values_failure():
    """The confinement, on one case: a post-processing step that raises on the value fails the
    case with what the value was, never propagates."""
    from mlpr.grading.framework import Case
    from mlpr.grading.runner import run_case

    def post(out):
        return np.stack(out)  # raises on a ragged list

    case = Case("a ragged list", (), np.zeros((2, 3)), post=post)
    with pytest.raises(Fail, match="the function returned a list of 2 .*could not read"):
        run_case(lambda: [np.zeros(3), np.zeros(2)], case)
    huge = Case("one number", (), 1.0, post=lambda out: float(out[0]))
    with pytest.raises(Fail, match="a list of 1 .*: item 0: an int too large for a float"):
        run_case(lambda: [10**400], huge)
