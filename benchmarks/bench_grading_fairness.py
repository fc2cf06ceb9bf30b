"""Measure the grading kit's fairness over many seeds: false failures of correct solutions.

Seven course-style solutions, each written independently of the others, are graded in-process
on every optimiser task under seeds 0..N-1: ``tests/grading_submissions/course_style.py`` and
``course_plain.py``, and the five of ``tests/grading_submissions/optimisers/`` (``impl_a`` ..
``impl_e``, each the labs' method in other arithmetic: its README says how they differ). All
train their SVMs with one ``fmin_l_bfgs_b`` call on the dual (``factr=1.0``), their logistic
regressions with one call at scipy's defaults, their EM with the labs' stopping rule or its
``abs()`` variant. Every failure of a correct solution is the kit's false failure.

``--kit PATH`` grades with the mlpr of another checkout (a ``git worktree`` of an older commit,
to measure the false failures *before* a change on the same seeds and solutions).

Results go to ``benchmarks/results_grading_fairness.json`` (or ``--out``). Usage:
``python benchmarks/bench_grading_fairness.py [--seeds 200] [--jobs 2] [--kit PATH]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_v] = "1"

REPO = Path(__file__).resolve().parents[1]
SOLUTIONS = REPO / "tests" / "grading_submissions"
NAMES = ["course_style.py", "course_plain.py"] + [f"optimisers/impl_{c}.py" for c in "abcde"]
OPTIMISER_TASKS = ["trainLogRegBinary", "trainWeightedLogRegBinary",
                   "trainWeightedLogRegBinary (calibration)",
                   "trainWeightedLogRegBinary (fusion)", "train_dual_SVM_linear",
                   "train_dual_SVM_kernel", "train_GMM_EM", "train_GMM_LBG_EM"]


def _load(name: str) -> dict:
    spec = importlib.util.spec_from_file_location(Path(name).stem, SOLUTIONS / name)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {k: v for k, v in vars(module).items() if callable(v)}


def _grade_seeds(seeds: list, kit: str | None) -> list:
    """The false failures of every solution on ``seeds``: (seed, solution, task, err, message)."""
    if kit:
        sys.path.insert(0, kit)
    from mlpr.grading import course
    from mlpr.grading.runner import grade_functions
    solutions = {name: _load(name) for name in NAMES}
    out = []
    for seed in seeds:
        for name, functions in solutions.items():
            tasks = [t for t in OPTIMISER_TASKS if t.split(" (")[0] in functions]
            for r in grade_functions(functions, tasks, run=course.Run(seed)):
                if r.status != "passed":
                    out.append((seed, name, r.name, r.err, r.message[:300]))
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, default=200)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--kit", help="the root of another checkout whose mlpr grades")
    p.add_argument("--out", type=Path, default=REPO / "benchmarks" /
                   "results_grading_fairness.json")
    args = p.parse_args()
    t0 = time.perf_counter()
    chunks = [list(range(args.seeds))[j::args.jobs] for j in range(args.jobs)]
    with ProcessPoolExecutor(args.jobs) as pool:
        failures = sorted(f for part in pool.map(_grade_seeds, chunks, [args.kit] * args.jobs)
                          for f in part)
    seconds = time.perf_counter() - t0
    per_solution = {name: sum(1 for f in failures if f[1] == name) for name in NAMES}
    result = {"seeds": args.seeds, "jobs": args.jobs, "seconds": round(seconds, 1),
              "kit": "another checkout" if args.kit else "this checkout",
              "solutions": NAMES, "tasks": OPTIMISER_TASKS,
              "false_failures_per_solution": per_solution,
              "false_failures": failures}
    args.out.write_text(json.dumps(result, indent=1, default=float) + "\n")
    print(f"{args.seeds} seeds x {len(NAMES)} solutions in {seconds:.0f} s: "
          f"{len(failures)} false failures {per_solution}")


if __name__ == "__main__":
    main()
