"""Where the student's code shows a mistake the mutation search named (mlpr/grading/locate.py):
when no edit of the student's function passes, the hint names the student's first line whose
value is a term of the matching mutant that the notes' formula never computes.

The mistakes here are planted in small course-style functions; the line expected is the planted
one (found by its marker comment), and the values of `student_line`'s cases are made by hand."""

import pickle
import textwrap

import numpy as np

from mlpr.grading import grade, locate, mutants, repair

CONSTANT_WITHOUT_2 = """
import numpy as np

def logpdf_GAU_ND(X, mu, C):
    M = X.shape[0]
    const = -0.5 * M * np.log(np.pi)  # MISTAKE: log(2 pi) of eq. 41
    xc = X - mu
    quad = np.sum(xc * np.linalg.solve(C, xc), axis=0)
    logdet = np.linalg.slogdet(C)[1]
    return const - 0.5 * logdet - 0.5 * quad
"""


def _graded(tmp_path, text, monkeypatch, labs=(4,)):
    path = tmp_path / "my_labs.py"
    path.write_text(textwrap.dedent(text).lstrip())
    line = next(k for k, s in enumerate(path.read_text().splitlines(), 1) if "MISTAKE" in s)
    # no edit of the student's function is tried: the repair search's budget spent at once
    monkeypatch.setattr(repair, "candidates", lambda *a, **k: iter(()))
    report = grade(path, seed=3, labs=list(labs))
    return report, line


def test_the_mutants_line_is_the_students_line_that_first_holds_its_value(tmp_path,
                                                                           monkeypatch):
    """The formula search names the factor 2 of 2 pi left out (at the formula's return line);
    the student's constant, three lines before the return, is the first value that follows it."""
    report, line = _graded(tmp_path, CONSTANT_WITHOUT_2, monkeypatch)
    r = next(r for r in report.results if r.name.endswith("logpdf_GAU_ND"))
    assert r.status == "failed"
    assert "the factor `2` left out of `2 * np.pi`" in r.hint, r.hint
    assert f"my_labs.py, line {line}: `const` is your function's first value" in r.hint, r.hint


def test_without_a_formula_cause_no_line_is_said(tmp_path, monkeypatch):
    """A wrong answer no mutant explains (every value off by a random-looking term): the
    formula search names nothing, and no line is said."""
    report, _ = _graded(tmp_path, CONSTANT_WITHOUT_2.replace(
        "np.log(np.pi)", "np.log(2 * np.pi) + np.sin(np.arange(X.shape[1]) * 0.37)"),
        monkeypatch)
    r = next(r for r in report.results if r.name.endswith("logpdf_GAU_ND"))
    assert r.status == "failed" and "is your function's first value" not in (r.hint or "")


def test_student_line_names_the_first_value_the_mutant_changes():
    """By hand: the formula's terms at places p, q, r are a, b, b + 1; the mutant's a, c, c + 1
    (its term at q changed, and what follows). The student's trace holds a (the notes'), an
    integer count, d (neither's), then c transposed: c's line is named; without it, nothing;
    a mutant that changes no value names nothing; and when c is also the value of one of the
    formula's own variables (a step the student got right), c's line is not named."""
    a, b, c, d = (np.array([1.5, 2.5]), np.array([0.25, 4.0]), np.array([[0.5, 7.0]]),
                  np.array([9.0, 9.5]))
    right = {(1, 0, False, 0): a, (2, 4, False, 0): b, (3, 0, False, 0): b + 1}
    wrong = {(1, 0, False, 0): a, (2, 4, False, 0): c.reshape(-1),
             (3, 0, False, 0): c.reshape(-1) + 1}
    assert [v.tolist() for v in locate.changed(right, wrong)] == [[0.5, 7.0], [1.5, 8.0]]
    trace = [(10, "x", a), (11, "n", np.array(150.0)), (12, "y", d), (13, "z", c.T)]
    assert locate.student_line(trace, right, wrong) == (13, "z")
    assert locate.student_line(trace[:3], right, wrong) is None
    assert locate.student_line(trace, right, right) is None
    right_with_c = {**right, (5, 2, True, 0): c.reshape(-1)}
    assert locate.student_line(trace, right_with_c, wrong) is None


def test_formula_values_are_every_term_in_the_order_computed():
    """The formula of eq. 41 on a 2 x 3 case: its terms include x - mu, log|C| and the answer
    (computed here by hand with numpy)."""
    X = np.array([[0.0, 1.0, 2.0], [1.0, 0.5, -1.0]])
    mu, C = np.array([[0.5], [0.25]]), np.array([[2.0, 0.3], [0.3, 1.0]])
    case = type("Case", (), {"args": (X, mu, C), "kwargs": {}})()
    formula = repair_formula()
    values = list(locate.formula_values(formula, mutants._tree(formula), case).values())
    expected = [X - mu, np.array(np.linalg.slogdet(C)[1])]
    quad = np.sum((X - mu) * np.linalg.solve(C, X - mu), axis=0)
    expected.append(-0.5 * 2 * np.log(2 * np.pi) - 0.5 * expected[1] - 0.5 * quad)
    for e in expected:
        assert any(v.shape == e.shape and np.allclose(v, e) for v in values), e


def repair_formula():
    from mlpr.grading.course.lab04 import LOGPDF
    return LOGPDF


def test_a_trace_that_is_not_plain_data_names_nothing():
    """The child's answer is the student's: anything but ``[[line, name, value], ...]`` is no
    trace."""
    assert locate._checked({"a": 1}) is None
    assert locate._checked([[1, "x"]]) is None
    assert locate._checked([["1", "x", 2.5]]) is None
    assert locate._checked([[3, "x", np.array([1.0, np.nan])]]) == []
    assert len(locate._checked([[3, "x", np.array([1.0, 2.0])]])) == 1


def test_a_named_hint_is_plain_text_when_copied_or_sent():
    """The hint carries the formula, the trees and the case for the grader's own use only: a
    pickled copy (a result sent from a worker) is the plain text."""
    named = mutants.Named("your answer matches", object, None, None, None)
    copied = pickle.loads(pickle.dumps(named))
    assert type(copied) is str and copied == "your answer matches"
