"""The kit's cases tell each listed mistake and each mutant of a task's formula apart from the
right answer, except the pairs listed in ``tests/grading_unseparated.json``: a committed list
that may only shrink (`mlpr.grading.mutants.unseparated` reports them). A new pair fails this
test: add a case that separates it (an asymmetric cost matrix, unbalanced classes), or, when
the mutant is equivalent to the formula (1 / z = z for labels in {-1, +1}), add it to the list
with that reason in the commit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mlpr.grading import course, mutants
from mlpr.grading.framework import closed_form

LIST = Path(__file__).with_name("grading_unseparated.json")
RECORDS = course.records()


def current(record) -> list:
    return mutants.unseparated(course.FIXED.cases(record), closed_form())


@pytest.mark.parametrize("record", RECORDS, ids=[r.name for r in RECORDS])
def test_no_new_unseparated_pair(record):
    known = set(json.loads(LIST.read_text()).get(record.name, []))
    new = sorted(set(current(record)) - known)
    assert not new, f"{record.name}: the cases cannot separate {new}"


def test_the_separating_cases_stay():
    """The cases added to separate mistakes keep doing so: the risk's cost matrix read as
    [true, decided] and the confusion matrix sized from the predictions."""
    known = json.loads(LIST.read_text())
    assert not any("costMatrix.T" in p and "risk = " in p
                   for p in known.get("compute_empirical_Bayes_risk", []))
    assert not any("predictedLabels" in p for p in known.get("compute_confusion_matrix", []))


if __name__ == "__main__":  # rewrite the list: python tests/test_grading_separation.py
    LIST.write_text(json.dumps({r.name: p for r in RECORDS if (p := current(r))}, indent=1)
                    + "\n")
