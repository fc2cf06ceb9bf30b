"""Measure the grading kit's fairness over many seeds: false failures of correct solutions.

Two course-style solutions written independently (``tests/grading_submissions/course_style.py``
and ``course_plain.py``, the labs' code with one ``fmin_l_bfgs_b`` call and ``factr=1.0`` for
every optimiser) are graded in-process on every optimiser task under seeds 0..N-1. For the
single-call SVM it also reports the rate *before* the kit kept only the draws that the labs' own
solver can solve: the share of seeds whose first draw the single call leaves above the tolerance
(the single call is deterministic, so its gap on the first draw is the failure it had then).

Results go to ``benchmarks/results_grading_fairness.json``. Usage:
``python benchmarks/bench_grading_fairness.py [--seeds 200]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import time
from pathlib import Path

for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_v] = "1"

from mlpr.grading import course  # noqa: E402
from mlpr.grading.course import lab09, shared  # noqa: E402
from mlpr.grading.runner import grade_functions  # noqa: E402
from mlpr.svm import poly_kernel, rbf_kernel  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
SOLUTIONS = REPO / "tests" / "grading_submissions"
OPTIMISER_TASKS = ["trainLogRegBinary", "trainWeightedLogRegBinary",
                   "trainWeightedLogRegBinary (calibration)",
                   "trainWeightedLogRegBinary (fusion)", "train_dual_SVM_linear",
                   "train_dual_SVM_kernel", "train_GMM_EM", "train_GMM_LBG_EM"]


def _load(name: str) -> dict:
    spec = importlib.util.spec_from_file_location(name.removesuffix(".py"), SOLUTIONS / name)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {k: v for k, v in vars(module).items() if callable(v)}


def _first_draw_failures(seed: int) -> list:
    """The SVM cases whose first draw the labs' single call leaves above the tolerance."""
    split = shared.binary(course.Run(seed))
    out = []
    for C, K in ((0.1, 1.0), (1.0, 10.0)):
        _, gap, tol = lab09._svm_linear_case(split, C, K)
        if gap > tol:
            out.append(("train_dual_SVM_linear", C, K, gap))
    for args in (("RBF", rbf_kernel(1.0), 1.0, 1.0, 5e-5),
                 ("poly", poly_kernel(2, 1.0), 1.0, 0.5, 1e-3)):
        _, gap, tol = lab09._svm_kernel_case(split, *args)
        if gap > tol:
            out.append(("train_dual_SVM_kernel", args[0], gap))
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, default=200)
    args = p.parse_args()
    solutions = {"course_style.py": (_load("course_style.py"), OPTIMISER_TASKS),
                 "course_plain.py": (_load("course_plain.py"), OPTIMISER_TASKS)}
    false_failures, before = [], []
    t0 = time.perf_counter()
    for seed in range(args.seeds):
        before += [(seed, *f) for f in _first_draw_failures(seed)]
        for name, (functions, tasks) in solutions.items():
            for r in grade_functions(functions, tasks, run=course.Run(seed)):
                if r.status != "passed":
                    false_failures.append((seed, name, r.name, r.err, r.message))
        print(f"seed {seed}: {len(false_failures)} false failures so far", flush=True)
    seconds = time.perf_counter() - t0
    seeds_before = sorted({b[0] for b in before})
    result = {"seeds": args.seeds, "seconds": round(seconds, 1),
              "false_failures_after": false_failures,
              "single_call_seeds_failing_before": seeds_before,
              "single_call_rate_before": len(seeds_before) / args.seeds,
              "single_call_failures_before": before}
    out = REPO / "benchmarks" / "results_grading_fairness.json"
    out.write_text(json.dumps(result, indent=1, default=float) + "\n")
    print(f"{args.seeds} seeds in {seconds:.0f} s: {len(false_failures)} false failures; the "
          f"single call failed on {len(seeds_before)} seeds before "
          f"({100 * len(seeds_before) / args.seeds:.1f}%)")


if __name__ == "__main__":
    main()
