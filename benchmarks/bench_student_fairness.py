"""Student mode on correct files of other authors: lectures 06-09 in quick mode.

Each of the five correct solutions of ``tests/grading_submissions/optimisers/`` (``impl_a`` ..
``impl_e``: the labs' optimisers in five arithmetics) is appended to ``course_style.py`` (its
functions replace course_style's of the same name) and run as ``--student`` in lectures 06
(logistic regression), 07 (calibration and fusion), 08 (SVMs) and 09 (GMMs), quick mode. A
correct file must end with exit 0 and every replaced function agreeing with mlpr's on the
lecture's inputs; anything else is a false failure of student mode.

Results go to ``benchmarks/results_student_fairness.json``. Usage:
``python benchmarks/bench_student_fairness.py [--jobs 2] [--lectures 06 07 08 09]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SUBMISSIONS = REPO / "tests" / "grading_submissions"
LECTURES = {"06": "06_logistic_regression", "07": "07_measuring_predictions",
            "08": "08_support_vector_machines", "09": "09_gaussian_mixture_models"}
IMPLS = [f"impl_{c}" for c in "abcde"]


def _one(impl: str, number: str) -> dict:
    with tempfile.TemporaryDirectory(prefix="mlpr-student-fairness-") as tmp:
        tmp = Path(tmp)
        student = tmp / "labs.py"
        student.write_text((SUBMISSIONS / "course_style.py").read_text() + "\n\n"
                           + (SUBMISSIONS / "optimisers" / f"{impl}.py").read_text())
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1", MPLBACKEND="Agg")
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, str(REPO / "lectures" / LECTURES[number] / "run.py"),
                               "--quick", "--out", str(tmp / "out"), "--student", str(student)],
                              capture_output=True, text=True, env=env, cwd=tmp, timeout=1800)
        seconds = time.perf_counter() - t0
        try:
            results = json.loads((tmp / "out" / "results.json").read_text())
        except (OSError, ValueError):
            results = {}
    audits = results.get("student_audits", [])
    differs = [a for a in audits if not a["agrees"]]
    return {"impl": impl, "lecture": number, "exit": proc.returncode,
            "seconds": round(seconds, 1), "audits": len(audits),
            "differs": [{k: a[k] for k in ("function", "yours", "err", "tol", "detail")}
                        for a in differs],
            "tail": proc.stdout[-1500:] if proc.returncode else ""}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--lectures", nargs="+", default=list(LECTURES))
    args = p.parse_args()
    runs = [(i, n) for n in args.lectures for i in IMPLS]
    t0 = time.perf_counter()
    with ThreadPoolExecutor(args.jobs) as pool:
        out = list(pool.map(lambda r: _one(*r), runs))
    for r in out:
        print(f"lecture {r['lecture']} {r['impl']}: exit {r['exit']}, {r['audits']} compared, "
              f"{len(r['differs'])} differ ({r['seconds']} s)", flush=True)
    false = [r for r in out if r["exit"] != 0 or r["differs"]]
    result = {"seconds": round(time.perf_counter() - t0, 1), "runs": out,
              "false_failures": len(false)}
    (REPO / "benchmarks" / "results_student_fairness.json").write_text(
        json.dumps(result, indent=1) + "\n")
    print(f"{len(out)} runs, {len(false)} false failures, {result['seconds']} s")


if __name__ == "__main__":
    main()
