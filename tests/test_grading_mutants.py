"""The mutation search of the grading kit (`mlpr.grading.mutants`): each task's formula equals
mlpr's reference on every case (the formula is a second implementation), a mutant of a formula
names a student's unlisted mistake, and the student's answer is only compared."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mlpr.grading import course, mutants
from mlpr.grading.course import Run
from mlpr.grading.framework import closed_form

RECORDS = [r for r in course.records() if r.formula is not None]


def _applies(case) -> bool:
    f = case.formula
    return f is not None and (f.cases is None or f.cases(case))


@pytest.mark.parametrize("seed", [None, 0, 1])
@pytest.mark.parametrize("record", RECORDS, ids=[r.name for r in RECORDS])
def test_formula_equals_reference(record, seed):
    """The formula, a plain-numpy second implementation in the course's form, gives mlpr's
    reference answer on every case of its task (through the case's own reading and
    comparison)."""
    run = course.FIXED if seed is None else Run(seed)
    cases = [c for c in run.cases(record) if _applies(c)]
    assert cases, f"{record.name}: its formula applies to no case"
    for case in cases:
        out = mutants.evaluate(case.formula, mutants._tree(case.formula), case.args,
                               case.kwargs)
        if case.formula.objective:  # an objective: mlpr's minimiser is its minimiser
            v = case.context["minimiser"]
            assert mutants._gradient(out, v) < 1e-6, (record.name, case.what)
            low = mutants._minimise(out, v, 2000)
            assert out(v) - out(low) <= 1e-10 * abs(out(v)), (record.name, case.what)
            continue
        value = case.post(out) if case.post is not None else out
        compare = case.compare or closed_form()
        result = compare(value, case.expected)
        assert result.ok, f"{record.name}, {case.what}: {result.detail} {result.err:.3g}"


def test_formulas_cite_the_notes():
    """Every formula's line that computes cites the notes or names what it holds."""
    for r in RECORDS:
        assert "# eq." in r.formula.source or "# section" in r.formula.source, r.name


def _case(name, seed=0, k=0):
    return course.tasks(run=Run(seed))[name].cases()[k]


def test_dropped_term_is_named():
    case = _case("logpdf_GAU_ND")
    X, mu, C = case.args
    Xc = X - mu
    got = -0.5 * X.shape[0] * np.log(2 * np.pi) - 0.5 * np.sum(Xc * np.linalg.solve(C, Xc), 0)
    hint = mutants.search(case, got, closed_form())
    assert "`- 0.5 * logdet` left out" in hint and "eq. 41" in hint and "log|C|" in hint


def test_right_answer_and_unrelated_answers_name_nothing():
    case = _case("logpdf_GAU_ND")
    assert mutants.search(case, case.expected, closed_form()) is None
    assert mutants.search(case, case.expected * 1.2345 + 0.1, closed_form()) is None


@pytest.mark.parametrize("got", [np.nan, np.inf, 1e308, "a string", None, [1, 2, 3],
                                 np.zeros((7, 3)), np.full(40, np.nan), {"a": 1}])
def test_odd_student_values_are_only_compared(got):
    """The student's value is compared, never used otherwise: odd values give no hint and no
    exception."""
    for name in ("logpdf_GAU_ND", "compute_mu_C", "compute_empirical_Bayes_risk"):
        case = _case(name)
        assert mutants.search(case, got, case.compare or closed_form()) is None


def test_search_is_bounded():
    case = _case("compute_lda_JointDiag")
    got = np.ones_like(case.expected)
    t0 = __import__("time").perf_counter()
    assert mutants.search(case, got, case.compare, budget=0.2) is None
    assert __import__("time").perf_counter() - t0 < 0.2 + 1.0


def test_two_explanations_are_both_said():
    """Two mutants with different descriptions that give the same answer: both are said."""
    case = _case("compute_mu_C")
    D, = case.args
    mu = D.mean(1, keepdims=True)
    got = np.vstack([mu.T, (D - mu) @ (D - mu).T / D.shape[0]])
    hint = mutants.search(case, got, case.compare)
    assert "matches as well" in hint and "D.shape[0]" in hint


def test_every_operator_describes_its_change():
    for name, op in mutants.OPERATORS.items():
        assert op.__doc__, name


def test_confidence_in_words():
    assert mutants._order(3e-13) == "1e-12"
    assert math.isfinite(mutants.MAX_MUTANTS) and mutants.BUDGET_SECONDS > 0


def test_an_offset_or_an_order_needs_three_values():
    """On one or two values any difference is a "constant offset": the kit says nothing."""
    from mlpr.grading.framework import _numeric_hint

    assert _numeric_hint(np.array([1.5, 2.5]), np.array([1.0, 2.0]), {}) is None
    assert _numeric_hint(np.array([1.5, 2.5, 3.5]), np.array([1.0, 2.0, 3.0]), {}).startswith(
        "every value is off by the same constant")
    hint = _numeric_hint(np.array([3.0, 1.0, 2.0]), np.array([1.0, 2.0, 3.0]), {})
    assert "another order" in hint and "eigh" not in hint


def test_an_early_stop_is_never_named_alone():
    """The optimiser's hint says what it measured and the causes that fit, never "most likely
    stopped early"."""
    case = _case("trainWeightedLogRegBinary")
    factr = [m for m in case.mistakes if m.name == "factr"][0]
    assert factr.after_search
    v = case.context["minimiser"] * 1.01
    hint = factr.hint(v)
    assert "most likely" not in hint and "either the optimiser stopped early" in hint
    assert "finite differences" in hint


def test_a_mutant_objective_is_named_by_its_minimiser():
    """A point that minimises the prior-weighted objective with n_T and n_F swapped is named."""
    from mlpr.logreg import logreg_obj_wrap

    case = _case("trainWeightedLogRegBinary")
    DTR, LTR, lam, pT = case.args
    nT, nF = int(np.sum(LTR == 1)), int(np.sum(LTR == 0))
    assert nT != nF
    # n_T and n_F swapped is eq. 101 with the prior p such that p / n_T = pT / n_F (rescaled)
    m = pT * nT / nF + (1 - pT) * nF / nT
    f = logreg_obj_wrap(DTR, LTR, lam / m, prior=pT * nT / nF / m)
    import scipy.optimize
    v = scipy.optimize.fmin_l_bfgs_b(f, np.zeros(DTR.shape[0] + 1), factr=1.0, pgtol=1e-9)[0]
    hint = mutants.search(case, v, case.compare)
    assert hint and "n_T and n_F swapped" in hint
