r"""The grading kit: grade course-style lab solutions against mlpr, and say why an answer is wrong.

The package is its own trust boundary (the guide is ``docs/grading/``, its threat model
``docs/grading/threat_model.md``):

- `mlpr.grading.framework`: cases, comparisons, hints and fixtures (the grader's side);
- `mlpr.grading.mutants` and `mlpr.grading.operators`: the mutation search that names a wrong
  answer's cause when no listed mistake does (the mutants of a task's formula, evaluated in the
  grader's process), and its whitelist of operators;
- `mlpr.grading.course`: the course as data, one module per lab and one record per course
  function (its name and signature, its forms, mlpr's reference, its cases and known mistakes,
  its points, the adapters of student mode), from which the tasks, student mode's adapters,
  ``--list`` and the guide's concordance are generated (the grader's side); its `forms` turn
  the course's forms into mlpr models;
- `mlpr.grading.channel`: the grader's end of the channel to a submission's process;
- `mlpr.grading.runner`: the trusted runner, which builds the cases, computes the references,
  compares, finds the hint and adds the points;
- `mlpr.grading.child`: the only code that runs beside a submission, the harness (it imports it,
  performs the calls it is sent and answers with plain data) and the wire codec that the grader
  shares with it (nothing there imports mlpr);
- `mlpr.grading.sandbox`: where that process runs (bubblewrap, an unprivileged user, or a plain
  child process), with `mlpr.grading.limits` (its memory and processes: a cgroup, or rlimits),
  `mlpr.grading.leftovers` (what a sandbox's user leaves behind) and the copier
  `mlpr.grading.stage`;
- `mlpr.grading.formats`: the reports (text, JSON, CSV, Gradescope);
- `mlpr.grading.student`: student mode, a submission's functions in place of mlpr's in the
  lectures (the student's own code, on their own machine);
- ``python -m mlpr.grading`` (`mlpr.grading.__main__`): the command line.

The names below are re-exported for a TA's own pytest files: `assert_close`, the fixtures, the
adapters, `reference` (the inputs and mlpr's answer of a task) and `grade_functions` (grade
trusted functions in this process).
"""

from mlpr.grading.course import Run, reference, tasks
from mlpr.grading.course.forms import (
    classifier_from_hparams,
    gmm_from_list,
    logreg_from_wb,
    model_from_scoring_function,
)
from mlpr.grading.formats import format_csv, format_gradescope, format_json, format_text
from mlpr.grading.framework import (
    Case,
    Comparison,
    Fail,
    Mistake,
    Task,
    TaskResult,
    as_array,
    assert_close,
    binary_split,
    closed_form,
    diagnose,
    exact,
    iris_split,
    offset_data,
    same_subspace,
    threshold_ties,
    up_to_sign,
)
from mlpr.grading.runner import Report, grade, grade_functions, run_case, run_task
from mlpr.grading.student import (
    StudentCode,
    StudentFailure,
    Submission,
    adapted_functions,
    load_submission,
)

__all__ = [
    "Fail", "Mistake", "Case", "Task", "TaskResult", "Comparison", "as_array", "closed_form",
    "exact", "up_to_sign", "same_subspace", "assert_close", "diagnose", "iris_split",
    "binary_split", "threshold_ties", "offset_data", "classifier_from_hparams", "gmm_from_list",
    "logreg_from_wb", "model_from_scoring_function", "load_submission", "Submission",
    "StudentCode", "StudentFailure", "adapted_functions", "tasks", "reference", "Run",
    "grade_functions", "grade", "Report", "run_case", "run_task", "format_text", "format_json",
    "format_csv", "format_gradescope",
]
