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

``--set repairs`` grades instead the variants of ``tests/grading_submissions/repairs/`` (each
assembled onto ``repairs/base.py``, another student's solution, the same way), mistakes written
apart from the kit's search and sorted by ``category`` (structural, formula, protocol) in their
``index.json``; its results go to ``benchmarks/bench_repairs_before.json``. For that set the
bench keeps the two kinds of ``no hint`` apart: ``measured only`` (the hint is only one of the
kit's generic measurements listed above, or only the pointer to a failing helper) and ``none``
(no hint at all). And it adds one measure per variant and seed, **points at the changed line**:
some hint of a judged task (the failing primary tasks, else the failing expected ones) names the
file and a line number that is one of the variant's changed lines in the assembled file. The
file is named by the assembled variant's file name (``NN_name.py``) or by ``base.py``, with or
without a folder before it, in one of the forms ``NAME, line N``, ``NAME line N``,
``NAME (line N)``, ``NAME:N`` and ``line N of NAME`` / ``line N in NAME`` (case-insensitive; a
range of lines does not count). The changed lines are those of the variant's one hunk against
the base (they hold its ``# MISTAKE:`` comment); when that hunk holds only comments (a statement
deleted), the code lines just before and after it count too. It prints a table per category and
overall, per seed: named correctly, pointing at the changed line, wrong names, measured only,
none, not caught; and the wall time of grading every variant (the kit's time on a class). Its
keyword rule reads a hint without the kit's generic measurements (see `judge`). A hint that is
a **verified repair at a changed line** (the repair search's "FILE, line N: ... makes F pass on
all K cases", N one of the changed lines) names the mistake by the edit that undoes it: it counts
as named correctly whatever its words, and the table counts those apart ("named by a verified
repair"); a repair on another line is judged by the keywords alone.

``--kit-rev REV`` grades with the kit of a git revision (its tree extracted with ``git archive``
into a temporary folder; ``python -m mlpr.grading`` runs there) instead of the working tree's,
and the JSON records which: ``bench_repairs_before.json`` is the kit before its repair search,
``--set repairs --kit-rev d79255b^``. Usage: ``python benchmarks/bench_mistakes.py --set repairs
[--seeds 0 1] [--jobs 2] [--kit-rev REV]``.

``--set heldout`` grades the variants of ``tests/grading_submissions/heldout/``, assembled onto
``course_style.py``, with the repairs set's verdicts and measures: mistakes written after the
repair search was built, by someone who had not read it, and measured once (results in
``benchmarks/bench_heldout.json``).
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
#: the sets of variants: (folder, the base they are assembled onto, the default output)
SETS = {"mistakes": (FOLDER, COURSE, REPO / "benchmarks" / "bench_mistakes.json"),
        "repairs": (SUBMISSIONS / "repairs", SUBMISSIONS / "repairs" / "base.py",
                    REPO / "benchmarks" / "bench_repairs_before.json"),
        "heldout": (SUBMISSIONS / "heldout", COURSE,
                    REPO / "benchmarks" / "bench_heldout.json")}
#: the repairs set's verdicts: ``no hint`` split into a generic measurement and nothing
REPAIR_VERDICTS = ["named correctly", "wrong name", "measured only", "none", "not caught"]
CATEGORIES = ["structural", "formula", "protocol"]

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


#: the optimiser's measurement when the objective is within the tolerance but the gradient is not
_NOT_STATIONARY = re.compile(r"^your objective is \S+ \(relative\) above the minimum.*?: the "
                             r"point is not stationary: either the optimiser stopped early", re.S)
#: where the kit joins two hints into one
_ALSO = re.compile(r";\s*also:\s*")


def judge(hint: str | None, expect: list, wrong_if: list, split: bool = False) -> str:
    """The keyword rule on one task's hint: named correctly, wrong name or no hint.

    With ``split`` (the repairs set) the hint is cut where the kit joins hints (``; also:``),
    the kit's generic measurements (`_GENERIC`, and the optimiser's "the point is not
    stationary") are set aside whole, and the rule reads only the rest, so that a keyword that
    the kit's fixed wording of a measurement happens to hold ("gradient", "1/2") names nothing;
    no hint is ``measured only`` when the kit gave only generic measurements or only the pointer
    to a failing helper, ``none`` when it gave no hint at all."""
    text = (hint or "").strip().lower()
    rest = _DEPENDENCY.sub("", text).strip()
    if split:
        if not text:
            return "none"
        named = [p for p in _ALSO.split(rest) if p.strip() and not any(
            g.search(p.strip()) for g in (*_GENERIC, _NOT_STATIONARY))]
        if not named:
            return "measured only"
        rest = "; ".join(named)
    if not rest:
        return "no hint"
    if any(k.lower() in rest for k in wrong_if):
        return "wrong name"
    if any(k.lower() in rest for k in expect):
        return "named correctly"
    if any(g.search(rest) for g in _GENERIC):
        return "no hint"
    return "wrong name"


def changed_lines(text: str, base: list) -> list:
    """The 1-based numbers of the lines of ``text`` (an assembled variant) that differ from
    ``base`` (its base's lines), with the code lines around them when they are only comments
    (a deleted statement)."""
    lines = text.splitlines()
    out = []
    for tag, _i1, _i2, j1, j2 in difflib.SequenceMatcher(None, base, lines,
                                                         autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        out.extend(range(j1 + 1, j2 + 1))
        if all(not s.strip() or s.strip().startswith("#") for s in lines[j1:j2]):
            out.extend(n for n in (j1, j2 + 1) if 1 <= n <= len(lines))
    return sorted(set(out))


def points_at(hint: str | None, names: list, lines: list) -> bool:
    """Whether ``hint`` names one of the files ``names`` and one of the line numbers ``lines``,
    in a form of the module docstring."""
    if not hint:
        return False
    found = set()
    for name in names:
        n = r"(?<![\w.-])(?:[^\s,:()'\"`]*/)?" + re.escape(name.lower())
        q = r"['\"`]?"
        for pat in (rf"{n}{q}\s*(?:,\s*|\(\s*|\s+)line\s+(\d+)(?!\d)(?!\s*[-–]\s*\d)",
                    rf"{n}{q}:(\d+)(?![-–\d])",
                    rf"(?<!lines )line\s+(\d+)\s+(?:of|in)\s+{q}{n}"):
            found.update(int(m.group(1)) for m in re.finditer(pat, hint.lower()))
    return bool(found & set(lines))


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
        raise ValueError(f"{patch.name}: its base has no {', '.join(sorted(missing))}")
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


def kit_labs(kit: Path = REPO) -> list:
    """The labs that have tasks, read from ``python -m mlpr.grading --list``."""
    out = subprocess.run([sys.executable, "-m", "mlpr.grading", "--list"], cwd=kit,
                         capture_output=True, text=True, check=True).stdout
    return sorted({int(m.group(1)) for m in re.finditer(r"^lab\s+(\d+)\s", out, re.M)})


def grade(paths: list, lab: int, seed: int, jobs: int, kit: Path = REPO) -> tuple:
    """One kit run: the JSON reports by file name, the exit status and the seconds it took.
    ``kit``: the folder whose ``mlpr.grading`` grades (``python -m`` imports it from there)."""
    cmd = [sys.executable, "-m", "mlpr.grading", "--lab", str(lab), "--seed", str(seed),
           "--format", "json", "--jobs", str(jobs), "--", *map(str, paths)]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=kit, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    if proc.returncode not in (0, 1, 3):
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}: {proc.stderr[-2000:]}")
    reports = {Path(r["submission"]).name: r for r in json.loads(proc.stdout)}
    return reports, proc.returncode, seconds


def kit_at(rev: str | None) -> tuple:
    """The folder whose kit grades and what it is: this repository (its HEAD, and whether its
    mlpr/grading has uncommitted changes), or the tree of revision ``rev`` extracted with
    ``git archive`` into a temporary folder."""
    def git(*a):
        return subprocess.run(["git", *a], cwd=REPO, capture_output=True, text=True,
                              check=True).stdout.strip()
    if rev is None:
        return REPO, {"revision": git("rev-parse", "HEAD"), "tree": "working tree",
                      "uncommitted_kit_changes": bool(git("status", "--porcelain", "--",
                                                          "mlpr/grading"))}
    full = git("rev-parse", "--verify", f"{rev}^{{commit}}")
    folder = Path(tempfile.mkdtemp(prefix="mlpr-kit-"))
    archive = subprocess.run(["git", "archive", full], cwd=REPO, capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder, {"revision": full, "tree": f"git archive {rev}",
                    "subject": git("log", "-1", "--format=%s", full)}


#: A hint of the repair search: an edit that makes the function pass every case
_REPAIRED = re.compile(r"makes \S+ pass on (?:all \d+ cases|its case)")


def verdict_of(variant: dict, results: dict, split: bool = False, names: list = (),
               lines: list = ()) -> dict:
    """Caught, the hints and the verdict of one variant under one seed; with ``split`` (the
    repairs set) the verdicts of `REPAIR_VERDICTS` and whether a hint points at one of
    ``lines`` of a file of ``names``."""
    failed = {n: r for n, r in results.items() if r["status"] != "passed"}
    expected = [n for n in variant["fails"] if n in failed]
    primary = [n for n in variant["primary"] if n in failed]
    judged = primary or expected
    per_task = {n: judge(failed[n].get("hint"), variant["expect"], variant["wrong_if"], split)
                for n in judged}
    # the tasks whose hint is a verified repair at a changed line: named, by the edit that makes
    # the student's own function pass every case (mlpr.grading.repair), in either set
    repaired = [n for n in judged if _REPAIRED.search(failed[n].get("hint") or "")
                and points_at(failed[n].get("hint"), list(names), list(lines))]
    per_task.update({n: "named correctly" for n in repaired})
    if not expected:
        verdict = "not caught"
    elif "named correctly" in per_task.values():
        verdict = "named correctly"
    elif "wrong name" in per_task.values():
        verdict = "wrong name"
    elif not split:
        verdict = "no hint"
    elif "measured only" in per_task.values():
        verdict = "measured only"
    else:
        verdict = "none"
    out = {
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
    if split:
        out["verified_repair"] = bool(repaired)
        out["points_at_line"] = bool(expected) and any(
            points_at(failed[n].get("hint"), list(names), list(lines)) for n in judged)
    return out


def _tally(rows: list, seed: str, verdicts: list) -> dict:
    """How many of ``rows`` got each verdict under ``seed``, and how many pointed at the line."""
    t = dict(Counter(r["verdict"][seed] for r in rows))
    for k in verdicts:
        t.setdefault(k, 0)
    t["caught"] = sum(t[k] for k in verdicts if k != "not caught")
    t["points at the changed line"] = sum(bool(r["seeds"][seed].get("points_at_line"))
                                          for r in rows)
    t["named by a verified repair"] = sum(bool(r["seeds"][seed].get("verified_repair"))
                                          for r in rows)
    t["variants"] = len(rows)
    return t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", choices=sorted(SETS), default="mistakes",
                    help="the variants to grade: mistakes/ onto course_style.py (default), or "
                         "repairs/ onto repairs/base.py")
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", nargs="*", default=None,
                    help="grade only the variants whose file name starts with one of these")
    ap.add_argument("--kit-rev", default=None,
                    help="grade with the kit of this git revision (its tree extracted into a "
                         "temporary folder) instead of the working tree's, e.g. the commit "
                         "before a change to measure it before and after")
    ap.add_argument("--out", type=Path, default=None,
                    help="the results (default benchmarks/bench_mistakes.json, or "
                         "benchmarks/bench_repairs_before.json with --set repairs)")
    args = ap.parse_args(argv)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    folder, base, default_out = SETS[args.set]
    out_path = args.out or default_out
    split = args.set in ("repairs", "heldout")
    verdicts = REPAIR_VERDICTS if split else VERDICTS

    index = json.loads((folder / "index.json").read_text())["variants"]
    if args.only:
        index = [v for v in index if any(v["file"].startswith(p) for p in args.only)]
    built = Path(tempfile.mkdtemp(prefix=f"mlpr-{args.set}-"))  # the assembled variants
    for v in index:
        (built / v["file"]).write_text(assemble(folder / v["file"], base.read_text()))
    course = base.read_text().splitlines()
    shape = {v["file"]: one_place((built / v["file"]).read_text(), course) for v in index}
    lines = {v["file"]: changed_lines((built / v["file"]).read_text(), course) for v in index}

    kit, kit_info = kit_at(args.kit_rev)
    labs = kit_labs(kit)
    t0 = time.perf_counter()
    by_seed: dict = {}
    sanity: dict = {}
    calls = []
    for seed in args.seeds:
        results = {v["file"]: {} for v in index}
        sanity[seed] = {"failed": [], "tasks": 0}
        for lab in labs:
            variants = [v for v in index if lab in v["labs"]]
            paths = [base] + [built / v["file"] for v in variants]
            reports, status, seconds = grade(paths, lab, seed, args.jobs, kit)
            calls.append({"seed": seed, "lab": lab, "submissions": len(paths),
                          "exit": status, "seconds": round(seconds, 1)})
            print(f"seed {seed} lab {lab:2d}: {len(paths):2d} submissions, exit {status}, "
                  f"{seconds:5.1f} s", file=sys.stderr, flush=True)
            for r in reports[base.name]["results"]:
                sanity[seed]["tasks"] += 1
                if r["status"] != "passed":
                    sanity[seed]["failed"].append({"task": r["name"], "status": r["status"],
                                                   "message": r.get("message", "")})
            for v in variants:
                for r in reports[v["file"]]["results"]:
                    results[v["file"]][r["name"]] = r
        by_seed[seed] = {v["file"]: verdict_of(v, results[v["file"]], split,
                                               [v["file"], base.name], lines[v["file"]])
                         for v in index}
        isolation = reports[base.name].get("isolation", "")
    seconds = time.perf_counter() - t0

    rows = []
    for v in index:
        per = {str(s): by_seed[s][v["file"]] for s in args.seeds}
        row = {"file": v["file"], "lab": v["lab"], "functions": v["functions"],
               "cause": v["cause"], "one_place": shape[v["file"]],
               "verdict": {s: r["verdict"] for s, r in per.items()},
               "seeds": per, "human_verdict": None}
        if split:
            row = {**row, "category": v["category"], "changed_lines": lines[v["file"]],
                   "points_at_line": {s: r["points_at_line"] for s, r in per.items()}}
        rows.append(row)
    if split:
        tally = {str(s): _tally(rows, str(s), verdicts) for s in args.seeds}
        by_category = {c: {str(s): _tally([r for r in rows if r["category"] == c], str(s),
                                          verdicts) for s in args.seeds}
                       for c in CATEGORIES}
    else:
        tally = {str(s): dict(Counter(by_seed[s][v["file"]]["verdict"] for v in index))
                 for s in args.seeds}
        for t in tally.values():
            t["caught"] = sum(t.get(k, 0) for k in VERDICTS[:3])
            for k in VERDICTS:
                t.setdefault(k, 0)
    doc = {"labs": labs, "machine": platform.machine(), "python": platform.python_version(),
           "cores": os.cpu_count(), "load_average": os.getloadavg(), "isolation": isolation,
           "seeds": args.seeds, "variants": len(index), "seconds": round(seconds, 1),
           "calls": calls}
    if split:
        doc = {"set": args.set, "base": str(base.relative_to(REPO)), "kit": kit_info, **doc,
               "seconds_per_seed": {str(s): round(sum(c["seconds"] for c in calls
                                                      if c["seed"] == s), 1)
                                    for s in args.seeds},
               "sanity_base": {str(k): v for k, v in sanity.items()},
               "tally": tally, "tally_by_category": by_category, "rows": rows}
    else:
        doc = {**doc, "sanity_course_style": {str(k): v for k, v in sanity.items()},
               "tally": tally, "rows": rows}
    out_path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")

    print(f"{'variant':44s} " + " ".join(f"seed {s:<15d}" for s in args.seeds))
    for row in rows:
        flags = "" if row["one_place"] else "  (not one place!)"
        if split:
            flags = "".join(" @line" if row["points_at_line"][str(s)] else "      "
                            for s in args.seeds) + flags
        print(f"{row['file']:44s} " + " ".join(f"{row['verdict'][str(s)]:20s}"
                                               for s in args.seeds) + flags)
    if split:
        cols = ["named correctly", "named by a verified repair", "points at the changed line",
                "wrong name", "measured only", "none", "not caught"]
        heads = ["named", "by repair", "at line", "wrong", "measured", "none", "not caught"]
        print(f"\n{'category':12s} {'seed':>4s} {'n':>3s} " + " ".join(f"{h:>10s}" for h in heads))
        for name, part in [*((c, by_category[c]) for c in CATEGORIES), ("overall", tally)]:
            for s in args.seeds:
                t = part[str(s)]
                print(f"{name:12s} {s:4d} {t['variants']:3d} "
                      + " ".join(f"{t[c]:10d}" for c in cols))
        for s in args.seeds:
            ok = ("passes every task" if not sanity[s]["failed"]
                  else f"FAILS {sanity[s]['failed']}")
            print(f"seed {s}: {base.name} {ok} ({sanity[s]['tasks']} tasks); grading the "
                  f"{len(index)} variants took {doc['seconds_per_seed'][str(s)]:.0f} s of kit runs")
    else:
        for s in args.seeds:
            t = tally[str(s)]
            ok = ("passes every task" if not sanity[s]["failed"]
                  else f"FAILS {sanity[s]['failed']}")
            print(f"seed {s}: {len(index)} variants, caught {t['caught']}, named correctly "
                  f"{t['named correctly']}, no hint {t['no hint']}, wrong name "
                  f"{t['wrong name']}, not caught {t['not caught']}; course_style.py {ok} "
                  f"({sanity[s]['tasks']} tasks)")
    print(f"{seconds:.0f} s wall, {len(calls)} kit runs; written to {out_path}")
    return 0 if all(not sanity[s]["failed"] for s in args.seeds) else 1


if __name__ == "__main__":
    sys.exit(main())
