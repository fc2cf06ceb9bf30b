"""Hints for code written for the numpy the course ran on, read under a newer numpy (a TA who
grades with ``--python`` of their own): a 1-element array put into one slot of an array, and the
module ``numpy.linalg.linalg`` that numpy 2 made private. Each hint says what to write instead
and where the course's numpy is; the slot hint is conditional (the same exception comes from a
genuine shape mistake)."""

from mlpr.grading import runner
from mlpr.grading.channel import StudentRaised
from mlpr.grading.framework import Case


def _explain(type_name: str, message: str):
    case = Case("iris", (), None)
    return runner._explain_raised(lambda: None, StudentRaised(type_name, message, "x.py, line 3"),
                                  case)


def test_a_one_element_array_put_into_a_slot_gets_a_conditional_hint():
    msg, hint = _explain("ValueError", "setting an array element with a sequence.")
    assert "raised ValueError: setting an array element" in msg and "x.py, line 3" in msg
    assert hint.startswith("a value put into one slot of an array")
    assert "if it is a 1-element array" in hint and "value.item()" in hint
    assert "numpy < 2.4" in hint
    assert _explain("ValueError", "operands could not be broadcast together")[1] is None


def test_numpy_linalg_linalg_at_import_gets_a_hint():
    hello = {"type": "ModuleNotFoundError", "message": "No module named 'numpy.linalg.linalg'",
             "where": "labs.py, line 1: import numpy.linalg.linalg"}
    why = runner.import_failure(hello, 10.0)
    assert why.startswith("importing the submission raised ModuleNotFoundError")
    assert "hint: numpy 2 made it private (numpy.linalg._linalg): import numpy.linalg" in why
    other = dict(hello, message="No module named 'sklearn'")
    assert "hint" not in runner.import_failure(other, 10.0)
