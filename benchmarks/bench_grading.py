"""Time the grading kit on a class against the limit: the same calls in one plain process.

A class is N copies of the course-style solution of the kit's tests (every task of labs 2-11).
The kit grades them as a TA would (``grade_all``: each submission in a sandbox of its own, the
references computed once, ``--jobs`` at a time). The limit imports the same N files into one plain
Python process and calls each graded function on the same cases (the inputs of the same seed), the
functions they return included, with no comparison at all: what the submissions' own code costs.
The ratio kit / limit is the price of the isolation (a process, an interpreter and the student's
imports per submission, the channel) and of the comparisons and hints.

Results go to ``benchmarks/results_grading.json``. Usage:
``python benchmarks/bench_grading.py [--sizes 1 20 200] [--jobs 2]``.
"""

from __future__ import annotations

import argparse
import copy
import importlib.util
import json
import os
import platform
import shutil
import sys
import tempfile
import time
from pathlib import Path

# one BLAS thread, as the kit gives each submission's process (on course-sized data more threads
# only contend: the plain process ran 5x slower with OpenBLAS's default)
for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_v] = "1"

REPO = Path(__file__).resolve().parents[1]
COURSE = REPO / "tests" / "grading_submissions" / "course_style.py"
SEED = 1


def plain_calls(paths: list, workdir: Path) -> float:
    """The limit: the same functions called on the same cases in this process, no comparison."""
    from mlpr.grading import course

    chosen = list(course.tasks(run=course.Run(SEED)).values())
    cases = {t.name: t.cases() for t in chosen}
    cwd = os.getcwd()
    os.chdir(workdir)  # the loaders read iris.csv from the working folder, as in the sandbox
    try:
        t0 = time.perf_counter()
        for i, p in enumerate(paths):
            spec = importlib.util.spec_from_file_location(f"_plain_{i}", p)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            for t in chosen:
                fn = getattr(module, t.function_name)
                for case in cases[t.name]:
                    kwargs = dict(case.kwargs)
                    out = fn(*copy.deepcopy(case.args), **copy.deepcopy(kwargs))
                    if case.post is not None:
                        case.post(out)  # calls a returned scoring function or kernel
        return time.perf_counter() - t0
    finally:
        os.chdir(cwd)


def kit(paths: list, jobs: int) -> tuple:
    from mlpr.grading.__main__ import grade_all

    t0 = time.perf_counter()
    reports = grade_all(paths, jobs=jobs, seed=SEED)
    return time.perf_counter() - t0, reports


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1, 20, 200])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results_grading.json")
    args = ap.parse_args(argv)
    from mlpr.datasets import data_dir
    from mlpr.grading import sandbox

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        shutil.copy(data_dir() / "iris.csv", tmp / "iris.csv")
        for n in args.sizes:
            paths = []
            for i in range(n):
                p = tmp / f"student{i:03d}.py"
                shutil.copy(COURSE, p)
                paths.append(p)
            limit = plain_calls(paths, tmp)
            t_kit, reports = kit(paths, args.jobs)
            assert all(r.score == r.max_score for r in reports), "a copy lost points"
            row = {"submissions": n, "jobs": args.jobs, "kit_s": round(t_kit, 2),
                   "limit_s": round(limit, 2), "ratio": round(t_kit / limit, 2),
                   "kit_per_submission_s": round(t_kit / n, 3),
                   "tasks_per_submission": len(reports[0].results),
                   "isolation": reports[0].isolation}
            rows.append(row)
            print(f"{n:4d} submissions, {args.jobs} jobs ({row['isolation']}): kit "
                  f"{t_kit:7.1f} s, plain calls {limit:7.1f} s, ratio {row['ratio']:.2f}",
                  file=sys.stderr)
    doc = {"machine": platform.machine(), "python": platform.python_version(),
           "cores": os.cpu_count(), "isolation_available": {
               k: sandbox.available(k) or "yes" for k in sandbox.ISOLATIONS},
           "load_average": os.getloadavg(), "rows": rows}
    args.out.write_text(json.dumps(doc, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
