"""``python -m mlpr.grading``: grade submissions from the command line (see `main`)."""

from __future__ import annotations

import argparse
import ast
import json
import os
import queue
import secrets
import subprocess
import sys
import traceback
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from mlpr.grading import autograder, course, environment, formats, runner, sandbox

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m mlpr.grading",
        description="Grade course-style lab solutions against mlpr: one line per task with the "
                    "measured error, its tolerance and the likely mistake. Each submission runs "
                    "in a sandboxed process of its own that holds no reference answer "
                    "(docs/grading/threat_model.md states what each isolation guarantees).",
        epilog="python -m mlpr.grading autograder --lab N ... --out autograder.zip writes a "
               "Gradescope autograder (python -m mlpr.grading autograder --help); a submission "
               "named autograder is given as ./autograder. Grade a whole class as python -m "
               "mlpr.grading [OPTIONS] -- submissions/*: after --, a folder named -rf is a "
               "submission, not an option.")
    p.add_argument("submissions", nargs="*", type=Path, metavar="SUBMISSION",
                   help="a .py file or a folder of modules")
    p.add_argument("--lab", type=int, action="append", dest="labs", metavar="N",
                   help="grade every task of lab N (repeatable; a missing function then counts "
                        "0); default: the tasks whose function the submission defines")
    p.add_argument("--map", action="append", default=[], metavar="COURSE=STUDENT",
                   help="the submission's name for a course function (repeatable): a name, "
                        "or FILE::NAME for one copy, or CLASS.METHOD; with its keywords "
                        "adapted as COURSE=STUDENT(psiEig=psi,-verbose,+K=1): a course keyword "
                        "renamed, one left out, one added with a literal value. The report "
                        "proposes the lines for the functions it found under other names")
    p.add_argument("--names", choices=("equivalent", "exact"), default="equivalent",
                   help="equivalent (default): a function named as the course's up to letter "
                        "case and underscores is graded, and one under another name that "
                        "students use is graded when its first case agrees with the "
                        "reference (each with a note and its --map line); exact: only the "
                        "course's names and --map, the others proposed")
    p.add_argument("--year", choices=course.years(), default=None,
                   help="the academic year whose lab numbers --lab means (default: the one "
                        "the submission's lab folders are numbered by, else "
                        f"{course.EDITION}, the kit's)")
    p.add_argument("--format", choices=("text", "json", "gradescope", "csv"), default="text")
    p.add_argument("--out", type=Path, help="write the report to this file (default: stdout); "
                   "with --format gradescope and several submissions, a folder that receives "
                   "one results.json per submission")
    p.add_argument("--visibility", choices=formats.VISIBILITIES, default="visible",
                   help="Gradescope's visibility of the tests' output (default visible)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="submissions graded in parallel (default: the machine's cores)")
    p.add_argument("--timeout", type=float, default=runner.TASK_TIMEOUT,
                   help=f"time limit per task, seconds (default {runner.TASK_TIMEOUT:g})")
    p.add_argument("--import-timeout", type=float, default=runner.IMPORT_TIMEOUT,
                   help=f"time limit of a submission's import, seconds (default "
                        f"{runner.IMPORT_TIMEOUT:g})")
    p.add_argument("--budget", type=float, default=runner.SUBMISSION_BUDGET,
                   help=f"wall-clock seconds for one submission's whole grading (default "
                        f"{runner.SUBMISSION_BUDGET:g}): the tasks not started by then are not "
                        f"graded, and say so")
    p.add_argument("--isolation", choices=("auto",) + sandbox.ISOLATIONS, default="auto",
                   help="the sandbox of each submission: the strongest available by default; "
                        "naming one fails the run when it is not available")
    p.add_argument("--python", metavar="PATH",
                   help="the Python that runs the submissions (default $MLPR_SUBMISSION_PYTHON, "
                        "else the submissions' environment once built (--build-env), else this "
                        "one): an environment with numpy, scipy, matplotlib and scikit-learn "
                        "and no mlpr; the report says which, and what a submission reaches of "
                        "mlpr under --isolation user")
    p.add_argument("--build-env", action="store_true",
                   help="build (or find) the submissions' environment: the newest Python found "
                        "with the course's releases (" + " ".join(environment.PINS) + "), no "
                        "mlpr, cached; print where it lives and exit (with --force, rebuild it)")
    p.add_argument("--force", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--seed", type=int, help="the seed of the cases (default: a new one, "
                   "printed in the report; give it to replay a run)")
    p.add_argument("--fail-on-print", action="store_true",
                   help="fail a task whose function prints (by default what it prints is shown "
                        "beside the result)")
    p.add_argument("--include-course-files", "--include-solution-folders",
                   action="store_true", dest="include_course",
                   help="grade the course's own files too: those recognised by the course "
                        "author's header or by the fingerprints of the course's published "
                        "functions (by default left out and listed in the plan)")
    p.add_argument("--extra", action="store_true",
                   help="also grade the tasks under names of the kit's own (not the course's)")
    p.add_argument("--list", action="store_true", help="list the tasks and exit")
    return p


def _parse_map(items: Sequence[str], parser) -> tuple:
    """``--map`` items: ``({course: student}, {course: adaptation})`` (see `parse_map`)."""
    try:
        return parse_map(items)
    except ValueError as exc:
        parser.error(str(exc))


def parse_map(items: Sequence[str]) -> tuple:
    """``COURSE=STUDENT`` or ``COURSE=STUDENT(kw=theirs,-kw,+kw=literal)`` items as
    ``({course: student}, {course: {"rename", "drop", "extra"}})``; ValueError on a malformed
    one."""
    mapping, adaptations = {}, {}
    for item in items:
        course_name, sep, student = item.partition("=")
        student = student.strip()
        spec = ""
        if "(" in student and student.endswith(")"):
            student, _, spec = student[:-1].partition("(")
        if not sep or not course_name.strip() or not student.strip():
            raise ValueError(f"--map expects COURSE=STUDENT, got {item!r}")
        course_name = course_name.strip()
        mapping[course_name] = student.strip()
        rename, drop, extra = {}, [], {}
        for part in filter(None, (p.strip() for p in spec.split(","))):
            if part.startswith("-"):
                drop.append(part[1:].strip())
            elif part.startswith("+") and "=" in part:
                k, _, v = part[1:].partition("=")
                try:
                    extra[k.strip()] = ast.literal_eval(v.strip())
                except (ValueError, SyntaxError):
                    raise ValueError(f"--map {item}: {v.strip()!r} is not a literal "
                                     f"(a number, a string in quotes, True, None...)") from None
            elif "=" in part:
                k, _, v = part.partition("=")
                rename[k.strip()] = v.strip()
            else:
                raise ValueError(f"--map {item}: {part!r} is neither kw=theirs, -kw nor "
                                 f"+kw=value")
        if spec:
            adaptations[course_name] = {"rename": rename, "drop": drop, "extra": extra}
    return mapping, adaptations


def grade_all(submissions: Sequence[Path], jobs: int = 1, seed: int | None = None,
              **options) -> list:
    """Grade ``submissions``, ``jobs`` at a time, each in a sandbox of its own: the references
    are computed once, before the first submission starts. Returns the `runner.Report` s."""
    for path in submissions:  # a typo is the grader's mistake; a link to nothing is graded
        if not Path(path).exists() and not Path(path).is_symlink():
            raise FileNotFoundError(f"submission {path} does not exist")
    seed = secrets.randbelow(2**31) if seed is None else seed
    jobs = max(1, min(jobs, 64))  # one user id per concurrent sandbox (sandbox.uid_for)
    return _grade_drawn(submissions, jobs, course.Run(seed), options)


def _grade_drawn(submissions: Sequence[Path], jobs: int, run: course.Run,
                 options: dict) -> list:
    """`grade_all` on the cases drawn from ``run``'s seed (another run's are left as they
    were)."""
    seed = run.seed
    chosen = course.tasks(options.get("labs"), everything=options.get("extra", False), run=run)
    for t in chosen.values():
        t.cases()  # every reference, once per run
    slots: queue.Queue = queue.Queue()
    for i in range(max(1, jobs)):
        slots.put(i)

    def one(path):
        slot = slots.get()
        try:
            return runner.grade(path, slot=slot, seed=seed, run=run, **options)
        except Exception:  # the kit failed on this submission: the others are still graded
            trace = traceback.format_exc()
            return runner.Report(str(path), [runner.kit_error(t, trace) for t in chosen.values()],
                                 [], ["the kit failed on this submission (not the submission's "
                                      "fault): " + trace.strip().splitlines()[-1]],
                                 isolation=options.get("isolation", ""), seed=seed)
        finally:
            slots.put(slot)

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(one, submissions))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m mlpr.grading``: exit 0 when every graded task passes, 1 when one fails or a
    submission cannot be imported, 2 on a usage error, 3 when the kit itself failed on a task
    (reported as the kit's, with its traceback in the JSON report). ``python -m mlpr.grading
    autograder ...`` writes a Gradescope autograder instead (`mlpr.grading.autograder.main`)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["autograder"]:
        return autograder.main(argv[1:])
    parser = _parser()
    # a submission whose name starts with "-" (a folder named -rf in submissions/*) is graded, not
    # read as an option: after "--" (the documented form) as argparse does, and also without it
    # when it names an existing file or folder
    args, unknown = parser.parse_known_args(argv)
    for item in unknown:
        if not (item.startswith("-") and (Path(item).exists() or Path(item).is_symlink())):
            parser.error(f"unrecognized argument: {item} (a submission whose name starts with "
                         f"'-' goes after --: python -m mlpr.grading -- {item})")
        args.submissions.append(Path(item))
    mapping, adaptations = _parse_map(args.map, parser)
    if args.build_env:
        try:
            print(environment.build(force=args.force))
        except (RuntimeError, OSError, subprocess.CalledProcessError) as exc:
            print(f"python -m mlpr.grading --build-env: {exc}", file=sys.stderr)
            return 1
        return 0
    if args.list:
        print("\n".join(course.listing()))
        return 0
    if not args.submissions:
        parser.error("give at least one SUBMISSION (a .py file or a folder of modules)")
    for s in args.submissions:
        if not s.exists() and not s.is_symlink():  # a link to nothing is graded (and fails)
            parser.error(f"submission {s} does not exist")
    names = course.course_names()
    unknown = [k for k in mapping if k not in names]
    reversed_ = [k for k in unknown if mapping[k] in names]
    if reversed_:
        k = reversed_[0]
        parser.error(f"--map {k}={mapping[k]} is the wrong way round: the form is COURSE=YOURS, "
                     f"the course's name first: --map {mapping[k]}={k}")
    if unknown:
        parser.error(f"--map: no task named {', '.join(unknown)}; the form is COURSE=YOURS "
                     f"(python -m mlpr.grading --list names the course's functions)")
    labs = sorted(set(args.labs)) if args.labs else None
    known_labs = {n for y in course.years() for n in course.lab_numbers(y).values()
                  if n is not None} if args.year is None else \
        {n for n in course.lab_numbers(args.year).values() if n is not None}
    if labs and not set(labs) <= known_labs:
        parser.error(f"--lab: the labs with tasks are {sorted(known_labs)}, got {labs}")
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, got {args.jobs}")
    try:
        if args.python:
            sandbox.use_python(args.python)
        sandbox.choose(args.isolation)
    except ValueError as exc:
        parser.error(str(exc))
    reports = grade_all(args.submissions, args.jobs, args.seed, labs=labs, mapping=mapping,
                        timeout=args.timeout, import_timeout=args.import_timeout,
                        budget=args.budget, isolation=args.isolation,
                        fail_on_print=args.fail_on_print, extra=args.extra,
                        include_course=args.include_course, year=args.year, names=args.names,
                        adaptations=adaptations)
    if args.format == "gradescope":
        docs = [formats.format_gradescope(r, args.visibility) for r in reports]
        if len(docs) > 1:
            if args.out is None:
                parser.error("--format gradescope with several submissions needs --out FOLDER")
            args.out.mkdir(parents=True, exist_ok=True)
            for name, (s, d) in zip(results_names(args.submissions), zip(args.submissions, docs)):
                if name != f"{s.stem}.results.json":
                    print(f"{s}: its results go to {args.out / name} (another submission has "
                          f"the name {s.stem})", file=sys.stderr)
                (args.out / name).write_text(json.dumps(d, indent=1))
            return _status(reports)
        text = json.dumps(docs[0], indent=1)
    else:
        text = {"text": formats.format_text, "json": formats.format_json,
                "csv": formats.format_csv}[args.format](reports)
    if args.out:
        args.out.write_text(text)
    else:
        sys.stdout.write(text)
    return _status(reports)


def results_names(submissions: Sequence[Path]) -> list:
    """One results file name per submission, never two alike: ``STEM.results.json``; where two
    submissions share a stem (``alice.py`` and the folder ``alice.zz``), their full names
    (``alice.py.results.json``), and a number where those are alike too (``a/x.py``, ``b/x.py``:
    ``x.py.results.json``, ``x.py-2.results.json``)."""
    stems = [s.stem for s in submissions]
    names, taken = [], set()
    for s in submissions:
        base = s.stem if stems.count(s.stem) == 1 else s.name
        name, n = f"{base}.results.json", 1
        while name in taken:
            n += 1
            name = f"{base}-{n}.results.json"
        taken.add(name)
        names.append(name)
    return names


def _status(reports) -> int:
    """0 when every graded task passed, 3 when the kit failed on a task (its traceback is in the
    JSON report), else 1."""
    if any(r.status == "error" for rep in reports for r in rep.results):
        return 3
    return 0 if all(r.passed for r in reports) else 1


if __name__ == "__main__":
    sys.exit(main())
