"""A class of 20 submissions with realistic mistakes, graded whole by the kit with and without
its repair search: the kit's time on a class, before and after.

The class is 20 of the single-mistake variants of ``tests/grading_submissions/repairs/`` (every
third one in file order, so that every lab and the three categories are in it; each assembled on
``base.py`` as `bench_mistakes.assemble` does), graded as a TA grades a class: one kit run over
the 20 files, every lab's tasks, ``--jobs 2``, one seed. The same class is graded by the kit of
``--before`` (default: the revision before the repair search) and by this working tree's, in
turn, ``--repeat`` times; the report is each run's wall time and the ratio of the medians, with
how many of the 20 got a verified repair.

``python benchmarks/bench_repair_class.py [--before REV] [--repeat 2] [--seed 0]``; results in
``benchmarks/results_repair_class.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_mistakes  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
SET = REPO / "tests" / "grading_submissions" / "repairs"
OUT = REPO / "benchmarks" / "results_repair_class.json"
#: the kit before its repair search
BEFORE = "80db27f"


def the_class(folder: Path) -> list:
    base = (SET / "base.py").read_text()
    variants = sorted(p for p in SET.glob("[0-9][0-9]_*.py"))[::3][:20]
    paths = []
    for v in variants:
        path = folder / v.name
        path.write_text(bench_mistakes.assemble(v, base))
        paths.append(path)
    return paths


def grade_class(paths: list, seed: int, kit: Path) -> tuple:
    import subprocess

    cmd = [sys.executable, "-m", "mlpr.grading", "--seed", str(seed), "--format", "json",
           "--jobs", "2", "--", *map(str, paths)]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=kit, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    if proc.returncode not in (0, 1, 3):
        raise RuntimeError(f"the kit exited {proc.returncode}: {proc.stderr[-2000:]}")
    reports = json.loads(proc.stdout)
    repaired = sum(any("pass on" in (r.get("hint") or "") and "line" in (r.get("hint") or "")
                       for r in rep["results"]) for rep in reports)
    return seconds, repaired


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", default=BEFORE)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    old, old_info = bench_mistakes.kit_at(args.before)
    new, new_info = bench_mistakes.kit_at(None)
    folder = Path(tempfile.mkdtemp(prefix="mlpr-class-"))
    paths = the_class(folder)
    runs = {"before": [], "after": []}
    repaired = {}
    for _ in range(args.repeat):  # in turn, so that the machine's load falls on both alike
        for key, kit in (("before", old), ("after", new)):
            seconds, repaired[key] = grade_class(paths, args.seed, kit)
            runs[key].append(round(seconds, 1))
            print(f"{key}: {seconds:.1f} s, {repaired[key]} submissions with a verified repair",
                  flush=True)
    ratio = statistics.median(runs["after"]) / statistics.median(runs["before"])
    result = {"class": [p.name for p in paths], "seed": args.seed, "before": old_info,
              "after": new_info, "seconds": runs, "ratio_of_medians": round(ratio, 2),
              "with_a_verified_repair": repaired}
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"20 submissions graded whole: before {runs['before']} s, after {runs['after']} s, "
          f"ratio {ratio:.2f}; written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
