"""The grading kit's reports: text, JSON, CSV and Gradescope's ``results.json``.

Every line is written by the grader's process, but may quote a submission's words (what it
raised or printed, its loader's notes, its file names). Each such line starts with what it is
(``printed:``, ``note:``, ``graded:``, ...) and is escaped to one line, control characters
included (a newline or an ANSI escape in an exception message cannot forge a line of the
report); only the grader writes the ``isolation:``, ``seed:`` and score lines, always first.
Gradescope's ``results.json`` declares ``output_format: "text"``, so nothing a submission wrote
renders as HTML or Markdown; the CSV's cells are escaped the same way. Each task's points are
capped at its maximum.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence

from mlpr.grading.framework import TaskResult
from mlpr.grading.sandbox import ISOLATIONS, describe

__all__ = ["one_line", "format_text", "format_json", "format_csv", "format_gradescope",
           "VISIBILITIES"]

#: Gradescope's visibility settings of a test's output.
VISIBILITIES = ("visible", "after_due_date", "after_published", "hidden")


def one_line(text, limit: int = 500) -> str:
    """``text`` on one line: newlines and other control characters escaped, at most ``limit``
    characters."""
    text = str(text)
    # cut before escaping: the work is linear in the limit, not in the text
    s = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[:limit + 1])
    if len(s) <= limit and len(text) <= limit:
        return s
    keep = max(limit - 40, limit // 2)  # never cut without saying how much
    return s[:keep] + f"... ({len(text) - keep:,} more characters)"


def _isolation(kind: str) -> str:
    return describe(kind) if kind in ISOLATIONS else kind


def _fmt_err(r: TaskResult) -> str:
    if r.err is None:
        return ""
    return f"err {r.err:.2g} (tol {r.tol:.2g})"


def format_text(reports: Sequence) -> str:
    """One line per task: a mark, the points, the error against its tolerance, and the hint."""
    out = []
    for rep in reports:
        out.append(f"== {one_line(rep.submission)}: {rep.score:g} / {rep.max_score:g} points "
                   f"({rep.seconds:.1f} s)")
        out.append(f"   isolation: {_isolation(rep.isolation)}")
        if rep.seed is not None:
            out.append(f"   seed: {rep.seed} (--seed {rep.seed} replays these cases)")
        for line in getattr(rep, "plan", []):
            out.append(f"   {one_line(line, 2000)}")
        for line in getattr(rep, "proposed", []):
            out.append(f"   proposed: {one_line(line, 300)}")
        for note in rep.notes:
            out.append(f"   note: {one_line(note, 2000)}")
        groups = _grouped(rep.results)
        for r in rep.results:
            if id(r) in groups.get("skip", set()):
                continue
            mark = {"passed": "✔", "error": "⚠"}.get(r.status, "✘")
            line = f" {mark} {r.title:<62s} {min(r.points, r.max_points):g}/{r.max_points:g}  " \
                   f"{_fmt_err(r)}" + (f"  [{one_line(r.file, 80)}]" if "/" in r.file else "")
            out.append(line.rstrip())
            if r.status != "passed" or r.message:
                label = {"error": "error", "passed": "note"}.get(r.status, "why")
                out.append(f"     {label}: {one_line(r.message, 2000)}")
                if id(r) in groups.get("first", {}):
                    others = groups["first"][id(r)]
                    out.append(f"     the same for {len(others)} more task(s): "
                               f"{', '.join(o.name for o in others)}")
                if r.hint:
                    out.append(f"     hint: {one_line(r.hint)}")
            if r.printed:
                out.append(f"     printed: {one_line(r.printed, 200)}")
        if rep.not_written:
            out.append(f"   not written yet (not graded): {', '.join(rep.not_written)}")
        if rep.not_graded:
            out.append(f"   not graded (no task of that name): "
                       f"{one_line(', '.join(rep.not_graded))}")
    return "\n".join(out) + "\n"


def _grouped(results: list) -> dict:
    """Tasks that failed or were not graded for one same reason (a module that could not be
    imported): the first is printed with the others' names (``first``: id -> others), the
    others not again (``skip``). Only a reason shared by more than two tasks groups them."""
    by_reason: dict = {}
    for r in results:
        if r.status in ("failed", "not graded") and r.message and not r.hint and r.err is None:
            by_reason.setdefault(r.message, []).append(r)
    first, skip = {}, set()
    for same in by_reason.values():
        if len(same) > 2:
            first[id(same[0])] = same[1:]
            skip.update(id(r) for r in same[1:])
    return {"first": first, "skip": skip}


def format_gradescope(rep, visibility: str = "visible") -> dict:
    """The Gradescope autograder ``results.json`` of one submission: ``score``, ``output``,
    ``visibility`` and one test per task (``name``, ``score``, ``max_score``, ``status``,
    ``output``, ``visibility``)."""
    if visibility not in VISIBILITIES:
        raise ValueError(f"visibility must be one of {VISIBILITIES}, got {visibility!r}")
    tests = []
    for r in rep.results:
        text = "passed" if r.status == "passed" else "failed: " + one_line(r.message)
        if "/" in r.file:
            text += f"\ngraded: {one_line(r.file, 200)}"
        if r.err is not None:
            text += f"\nerror {r.err:.3g}, tolerance {r.tol:.3g}"
        if r.hint:
            text += f"\nhint: {one_line(r.hint)}"
        if r.printed:
            text += f"\nprinted: {one_line(r.printed, 200)}"
        tests.append({"name": r.title, "score": min(r.points, r.max_points),
                      "max_score": r.max_points,
                      "status": "passed" if r.status == "passed" else "failed",
                      "output": text, "output_format": "text", "visibility": visibility})
    lines = [f"isolation: {_isolation(rep.isolation)}"]
    if rep.seed is not None:
        lines.append(f"seed: {rep.seed}")
    lines += [one_line(line, 2000) for line in getattr(rep, "plan", [])]
    lines += [f"proposed: {one_line(line, 300)}" for line in getattr(rep, "proposed", [])]
    lines += [f"note: {one_line(n, 2000)}" for n in rep.notes]
    if rep.not_graded:
        lines.append("not graded: " + one_line(", ".join(rep.not_graded)))
    return {"score": rep.score, "output": "\n".join(lines), "output_format": "text",
            "visibility": visibility, "stdout_visibility": "hidden", "tests": tests}


def format_csv(reports: Sequence) -> str:
    """One row per submission, one column per task (its points), then the total."""
    names = []
    for rep in reports:
        for r in rep.results:
            if r.title not in names:
                names.append(r.title)
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["submission"] + [one_line(n, 200) for n in names] + ["score", "max_score"])
    for rep in reports:
        got = {r.title: min(r.points, r.max_points) for r in rep.results}
        w.writerow([one_line(rep.submission, 1000)] + [got.get(n, "") for n in names]
                   + [rep.score, rep.max_score])
    return buf.getvalue()


def format_json(reports: Sequence) -> str:
    """Every field of every report, as a JSON list."""
    return json.dumps([{"submission": r.submission, "score": r.score, "max_score": r.max_score,
                        "isolation": r.isolation, "seed": r.seed,
                        "results": [x.to_dict() for x in r.results],
                        "not_graded": r.not_graded, "not_written": r.not_written,
                        "notes": r.notes, "seconds": r.seconds,
                        "plan": getattr(r, "plan_data", {}),
                        "proposed": getattr(r, "proposed", [])} for r in reports], indent=1)
