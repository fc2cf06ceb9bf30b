"""Grade the single-mistake variants of the course-style solution and tally what the kit says.

``tests/grading_submissions/mistakes/`` holds, for each variant, the function(s) of
``course_style.py`` it changes, with one mistake (marked ``# MISTAKE:``): the bench assembles
each variant as ``course_style.py`` with those functions in place (`assemble`). ``index.json``
gives for each variant the course function(s) it changes, its lab, the cause in words, the tasks
that should fail (``fails``; ``primary``: the tasks of the changed function), the labs to grade,
and a keyword rule that judges a hint: ``expect`` (any of them: the hint names the cause) and
``wrong_if`` (any of them: it names another one).

The kit grades each variant through its command line (``python -m mlpr.grading --lab N --seed S
--format json``), one call per lab and seed holding ``course_style.py`` and every variant that
touches that lab, so each variant is graded on its own labs only and the references are computed
once per call. Per variant and seed the bench reports:

- caught: some task of ``fails`` failed;
- the hints the kit gave for the failing tasks, and the verdict of the keyword rule on the
  failing primary tasks (else the failing expected ones), matched case-insensitively:
  ``named correctly`` (a hint contains an ``expect`` keyword), ``wrong name`` (a hint contains a
  ``wrong_if`` keyword, or names a cause matching neither list), ``no hint`` (no hint, or only
  the kit's generic measurements: a constant offset, an opposite sign, a factor 2 or 1/2 or
  ln b, (N - 1)/N, the optimiser's "either stopped early or another objective", and the
  pointer "your f fails its own task; this task uses it"), ``not caught``;
- the tasks that failed beyond ``fails`` and the expected ones that passed (a case that cannot
  separate the mistake).

It also checks that ``course_style.py`` passes every task of every lab under each seed, and that
each variant differs from it in exactly one place, marked ``# MISTAKE:``.

Results go to ``benchmarks/bench_mistakes.json``. Usage:
``python benchmarks/bench_mistakes.py [--seeds 0 1] [--jobs 2] [--only 06 24]``.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SUBMISSIONS = REPO / "tests" / "grading_submissions"
COURSE = SUBMISSIONS / "course_style.py"
FOLDER = SUBMISSIONS / "mistakes"
VERDICTS = ["named correctly", "no hint", "wrong name", "not caught"]

#: the pointer to a failing helper that the kit puts before a hint
_DEPENDENCY = re.compile(r"^your \S+ fails its own task \(.*?\); this task uses it\.?\s*"
                         r"(also:\s*)?", re.S)
#: the kit's measurements that name no cause
_GENERIC = (re.compile(r"^every value is off by the same constant"),
            re.compile(r"^the result has the opposite sign"),
            re.compile(r"^the result is twice the reference"),
            re.compile(r"^the result is half the reference"),
            re.compile(r"^the result is ln \S+ times the reference"),
            re.compile(r"^the result is \(n - 1\)/n"),
            re.compile(r"either the optimiser stopped early .*, or an objective that differs",
                       re.S))


def judge(hint: str | None, expect: list, wrong_if: list) -> str:
    """The keyword rule on one task's hint: named correctly, wrong name or no hint."""
    rest = _DEPENDENCY.sub("", (hint or "").strip().lower()).strip()
    if not rest:
        return "no hint"
    if any(k.lower() in rest for k in wrong_if):
        return "wrong name"
    if any(k.lower() in rest for k in expect):
        return "named correctly"
    if any(g.search(rest) for g in _GENERIC):
        return "no hint"
    return "wrong name"


def assemble(patch: Path, course: str) -> str:
    """The variant's module: ``course`` (course_style.py's text) with each top-level function of
    ``patch`` in place of the function of the same name (a variant file holds only what it
    changes, its imports for the linter)."""
    lines = course.splitlines(keepends=True)
    spans = {n.name: ((n.decorator_list[0].lineno if n.decorator_list else n.lineno) - 1,
                      n.end_lineno) for n in ast.parse(course).body
             if isinstance(n, ast.FunctionDef)}
    text = patch.read_text()
    plines = text.splitlines(keepends=True)
    new = {n.name: "".join(plines[(n.decorator_list[0].lineno if n.decorator_list else n.lineno)
                                  - 1:n.end_lineno])
           for n in ast.parse(text).body if isinstance(n, ast.FunctionDef)}
    missing = set(new) - set(spans)
    if missing:
        raise ValueError(f"{patch.name}: course_style.py has no {', '.join(sorted(missing))}")
    for name, (a, b) in sorted(spans.items(), key=lambda kv: -kv[1][0]):  # bottom up
        if name in new:
            lines[a:b] = [new[name] if new[name].endswith("\n") else new[name] + "\n"]
    return "".join(lines)


def one_place(text: str, course: list) -> bool:
    """The variant differs from course_style.py in one hunk, and that hunk says MISTAKE."""
    lines = text.splitlines()
    groups = list(difflib.SequenceMatcher(None, course, lines, autojunk=False).get_opcodes())
    changed = [(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in groups if tag != "equal"]
    if len(changed) != 1:
        return False
    _, _, j1, j2 = changed[0]
    return any("# MISTAKE:" in line for line in lines[j1:j2])


def kit_labs() -> list:
    """The labs that have tasks, read from ``python -m mlpr.grading --list``."""
    out = subprocess.run([sys.executable, "-m", "mlpr.grading", "--list"], cwd=REPO,
                         capture_output=True, text=True, check=True).stdout
    return sorted({int(m.group(1)) for m in re.finditer(r"^lab\s+(\d+)\s", out, re.M)})


def grade(paths: list, lab: int, seed: int, jobs: int) -> tuple:
    """One kit run: the JSON reports by file name, the exit status and the seconds it took."""
    cmd = [sys.executable, "-m", "mlpr.grading", "--lab", str(lab), "--seed", str(seed),
           "--format", "json", "--jobs", str(jobs), "--", *map(str, paths)]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    if proc.returncode not in (0, 1, 3):
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}: {proc.stderr[-2000:]}")
    reports = {Path(r["submission"]).name: r for r in json.loads(proc.stdout)}
    return reports, proc.returncode, seconds


def verdict_of(variant: dict, results: dict) -> dict:
    """Caught, the hints and the verdict of one variant under one seed."""
    failed = {n: r for n, r in results.items() if r["status"] != "passed"}
    expected = [n for n in variant["fails"] if n in failed]
    primary = [n for n in variant["primary"] if n in failed]
    judged = primary or expected
    per_task = {n: judge(failed[n].get("hint"), variant["expect"], variant["wrong_if"])
                for n in judged}
    if not expected:
        verdict = "not caught"
    elif "named correctly" in per_task.values():
        verdict = "named correctly"
    elif "wrong name" in per_task.values():
        verdict = "wrong name"
    else:
        verdict = "no hint"
    return {
        "caught": bool(expected),
        "verdict": verdict,
        "judged_tasks": per_task,
        "failed": {n: {"status": r["status"], "message": r.get("message", ""),
                       "hint": r.get("hint")} for n, r in failed.items()},
        "expected_but_passed": [n for n in variant["fails"]
                                if n in results and n not in failed],
        "failed_beyond_expected": sorted(set(failed) - set(variant["fails"])),
        "not_graded": [n for n in variant["fails"] if n not in results],
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", nargs="*", default=None,
                    help="grade only the variants whose file name starts with one of these")
    ap.add_argument("--out", type=Path, default=REPO / "benchmarks" / "bench_mistakes.json")
    args = ap.parse_args(argv)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ.setdefault("OMP_NUM_THREADS", "1")

    index = json.loads((FOLDER / "index.json").read_text())["variants"]
    if args.only:
        index = [v for v in index if any(v["file"].startswith(p) for p in args.only)]
    built = Path(tempfile.mkdtemp(prefix="mlpr-mistakes-"))  # the assembled variants
    for v in index:
        (built / v["file"]).write_text(assemble(FOLDER / v["file"], COURSE.read_text()))
    course = COURSE.read_text().splitlines()
    shape = {v["file"]: one_place((built / v["file"]).read_text(), course) for v in index}

    labs = kit_labs()
    t0 = time.perf_counter()
    by_seed: dict = {}
    sanity: dict = {}
    calls = []
    for seed in args.seeds:
        results = {v["file"]: {} for v in index}
        sanity[seed] = {"failed": [], "tasks": 0}
        for lab in labs:
            variants = [v for v in index if lab in v["labs"]]
            paths = [COURSE] + [built / v["file"] for v in variants]
            reports, status, seconds = grade(paths, lab, seed, args.jobs)
            calls.append({"seed": seed, "lab": lab, "submissions": len(paths),
                          "exit": status, "seconds": round(seconds, 1)})
            print(f"seed {seed} lab {lab:2d}: {len(paths):2d} submissions, exit {status}, "
                  f"{seconds:5.1f} s", file=sys.stderr, flush=True)
            for r in reports[COURSE.name]["results"]:
                sanity[seed]["tasks"] += 1
                if r["status"] != "passed":
                    sanity[seed]["failed"].append({"task": r["name"], "status": r["status"],
                                                   "message": r.get("message", "")})
            for v in variants:
                for r in reports[v["file"]]["results"]:
                    results[v["file"]][r["name"]] = r
        by_seed[seed] = {v["file"]: verdict_of(v, results[v["file"]]) for v in index}
        isolation = reports[COURSE.name].get("isolation", "")
    seconds = time.perf_counter() - t0

    rows = []
    for v in index:
        per = {str(s): by_seed[s][v["file"]] for s in args.seeds}
        rows.append({"file": v["file"], "lab": v["lab"], "functions": v["functions"],
                     "cause": v["cause"], "one_place": shape[v["file"]],
                     "verdict": {s: r["verdict"] for s, r in per.items()},
                     "seeds": per, "human_verdict": None})
    tally = {str(s): dict(Counter(by_seed[s][v["file"]]["verdict"] for v in index))
             for s in args.seeds}
    for t in tally.values():
        t["caught"] = sum(t.get(k, 0) for k in VERDICTS[:3])
        for k in VERDICTS:
            t.setdefault(k, 0)
    doc = {"labs": labs, "machine": platform.machine(), "python": platform.python_version(),
           "cores": os.cpu_count(), "load_average": os.getloadavg(), "isolation": isolation,
           "seeds": args.seeds, "variants": len(index), "seconds": round(seconds, 1),
           "calls": calls, "sanity_course_style": {str(k): v for k, v in sanity.items()},
           "tally": tally, "rows": rows}
    args.out.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")

    print(f"{'variant':44s} " + " ".join(f"seed {s:<15d}" for s in args.seeds))
    for row in rows:
        flags = "" if row["one_place"] else "  (not one place!)"
        print(f"{row['file']:44s} " + " ".join(f"{row['verdict'][str(s)]:20s}"
                                               for s in args.seeds) + flags)
    for s in args.seeds:
        t = tally[str(s)]
        ok = "passes every task" if not sanity[s]["failed"] else f"FAILS {sanity[s]['failed']}"
        print(f"seed {s}: {len(index)} variants, caught {t['caught']}, named correctly "
              f"{t['named correctly']}, no hint {t['no hint']}, wrong name {t['wrong name']}, "
              f"not caught {t['not caught']}; course_style.py {ok} ({sanity[s]['tasks']} tasks)")
    print(f"{seconds:.0f} s wall, {len(calls)} kit runs; written to {args.out}")
    return 0 if all(not sanity[s]["failed"] for s in args.seeds) else 1


if __name__ == "__main__":
    sys.exit(main())
