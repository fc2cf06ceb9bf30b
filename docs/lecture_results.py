"""The lectures' results as pages of the site: ``docs/results/`` (git-ignored), written before
the build by docs/conf.py (`write`).

Each lecture's results come from one of two files, the same the lectures themselves write:

- ``lectures/NN_topic/full_run.json``, the committed snapshot of the lecture's last **full** run
  (``make lectures`` writes it after each full lecture; the README's numbers are checked against
  it). This is what ``make docs`` shows.
- ``DIR/NN_topic/results.json``, the last run of a lecture in a folder of runs (``figures/``: full,
  ``--quick`` or student mode), with its figures, when the build is given ``MLPR_DOCS_RESULTS=DIR``
  (``make report``). A lecture without a run there shows its committed snapshot, and says so.

The index (``results/index``) has one row per lecture: its mode, the references held, missed
and documented as gaps, the run time, when it ran and on which commit. Each lecture's page has
the same facts, every check with its status, the printed tables, the figures of a run that has
them, the references not checked, and the lecture's README. The index is reStructuredText, the
lectures' pages markdown (the README included) with reST blocks; the status words carry a class
(``st-held``, ...: the roles of `ROLES`) that ``_static/mlpr.css`` colours.
"""

from __future__ import annotations

import json
import os
import shutil
import string
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
REPO = DOCS.parent
OUT = DOCS / "results"  # git-ignored: written by every build

#: a check's status (the one the lecture wrote, lectures/_lecture.py's `check_status`): its label
STATUS = {
    "held": "reference held",
    "missed": "MISSED the reference",
    "gap": "documented gap",
    "differs": "differs (quick mode, not enforced)",
    "reported": "reported (no reference)",
    "skipped": "skipped (student mode)",
}


def lectures() -> list[str]:
    return sorted(p.parent.name for p in REPO.glob("lectures/[0-9][0-9]_*/run.py"))


def check_status(check: dict, results: dict) -> str:
    """One of `STATUS`'s keys: the status the lecture wrote for a check (or claim) when it ran.

    A results file whose checks carry no status was written by an older version of the
    lectures: a ValueError says to run the lecture again.
    """
    status = check.get("status")
    if status not in STATUS:
        lecture = results.get("lecture", "this lecture")
        raise ValueError(
            f"the check {check.get('what')!r} of {lecture}'s results has "
            f"{'no status' if status is None else f'the unknown status {status!r}'}: the file "
            f"was written before checks carried their status; run the lecture again "
            f"(make lecture L={lecture})")
    return status


def fmt_value(v, digits: int = 6) -> str:
    """A number, vector or matrix of a results file as compact text (a matrix, one row a line)."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return f"{v:.{digits}g}"
    if isinstance(v, list):
        if v and all(isinstance(r, list) for r in v):
            return "\n".join(fmt_value(r, digits) for r in v)
        return "[" + ", ".join(fmt_value(x, digits) for x in v) + "]"
    return str(v)


def fmt_cell(c) -> str:
    """A table cell as the lecture prints it (4 significant digits)."""
    if isinstance(c, float):
        return f"{c:.4g}" if abs(c) < 1e4 else f"{c:.3e}"
    return fmt_value(c)


def png_size(path: Path) -> tuple[int, int] | None:
    """A PNG's width and height in pixels, from its header (None if not a PNG)."""
    try:
        with open(path, "rb") as f:
            head = f.read(24)
    except OSError:
        return None
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


_SPECIAL = set(string.punctuation) - set(".,()=/;%+'\"")


def esc(text) -> str:
    """Text as reStructuredText shows it literally: every markup character backslash-escaped."""
    return "".join("\\" + ch if ch in _SPECIAL else ch for ch in str(text))


def cell(text: str) -> str:
    """A list-table cell: one line block line per line of the text (matrices keep their rows)."""
    lines = str(text).split("\n")
    if len(lines) == 1:
        return esc(lines[0]) if lines[0] else ""
    return "\n".join(f"| {esc(line)}" for line in lines)


def list_table(header: list[str], rows: list[list[str]], classes: str = "",
               widths: str = "") -> list[str]:
    """The lines of a ``list-table`` directive (cells already reST, possibly several lines)."""
    out = [".. list-table::", "   :header-rows: 1"]
    if classes:
        out.append(f"   :class: {classes}")
    if widths:
        out.append(f"   :widths: {widths}")
    out.append("")
    for row in [[esc(h) for h in header]] + rows:
        for k, c in enumerate(row):
            first, *rest = (c or "").split("\n") if c else [""]
            out.append(f"   {'* -' if k == 0 else '  -'} {first}".rstrip())
            out += [f"       {line}" for line in rest]
    return out + [""]


def _inputs_module():
    if str(REPO / "lectures") not in sys.path:
        sys.path.insert(0, str(REPO / "lectures"))
    import _inputs

    return _inputs


def freshness(name: str, out: Path, sources) -> dict:
    """Whether ``make lectures`` would rerun a lecture because its inputs changed since the run
    in ``out`` (``lectures/_inputs.py``): ``state`` "current", "changed" (with ``why``) or
    "unknown" (no record of that run's inputs)."""
    try:
        args = json.loads((out / "inputs.json").read_text()).get("args") or []
    except (OSError, ValueError):
        return {"state": "unknown", "why": "no record of the inputs of this run"}
    why = _inputs_module().why_rerun(out, args, sources.inputs(name))
    return {"state": "current", "why": ""} if why is None else {"state": "changed", "why": why}


def load(name: str, runs: Path | None, sources=None) -> dict | None:
    """What a lecture's page shows: its results (from ``runs/NAME/results.json`` when there is
    one, else its committed ``full_run.json``), with where they came from; None if neither."""
    folder = REPO / "lectures" / name
    references = json.loads((folder / "references.json").read_text()) \
        if (folder / "references.json").exists() else {}
    run_dir = runs / name if runs is not None else None
    if run_dir is not None and (run_dir / "results.json").exists():
        r = json.loads((run_dir / "results.json").read_text())
        origin = f"``{run_dir.name}/results.json`` of the folder of runs ``{runs}``"
        fresh = freshness(name, run_dir, sources) if sources is not None else None
    elif (folder / "full_run.json").exists():
        r = json.loads((folder / "full_run.json").read_text())
        origin = f"the committed snapshot of its last full run, ``lectures/{name}/full_run.json``"
        run_dir, fresh = None, None
    else:
        return None
    checks = []
    for c in r.get("checks", []):
        status = check_status(c, r)
        ref = references.get(c.get("ref")) if c.get("ref") else None
        checks.append({
            "what": c["what"], "ref": c.get("ref"), "status": status,
            "measured": fmt_value(c["holds"]) if c.get("claim") else fmt_value(c.get("measured")),
            "reference": "true" if c.get("claim") else fmt_value(c.get("reference")),
            "diff": fmt_value(c.get("abs_diff"), 3) if "abs_diff" in c else "",
            "tol": fmt_value(c.get("tol")) if c.get("tol") is not None else (
                "" if c.get("claim") or "reference" not in c else "0"),
            "source": c.get("source") or "",
            "gap": (ref or {}).get("known_gap") if status == "gap" else None})
    counts = {k: sum(c["status"] == k for c in checks) for k in STATUS}
    checked = {c.get("ref") for c in r.get("checks", [])}
    gaps = list(r.get("known_gaps") or [])
    if not gaps:  # a snapshot keeps the checks only: the reasons are references.json's
        gaps = [{"what": c["what"], "why": c["gap"]} for c in checks
                if c["status"] == "gap" and c["gap"]]
    return {
        "name": name, "results": r, "origin": origin, "run_dir": run_dir, "fresh": fresh,
        "checks": checks, "counts": counts, "mode": r.get("mode", "?"),
        "ok": not r.get("failures") and not counts["missed"],
        "unchecked": [{"key": k, **v} for k, v in references.items() if k not in checked],
        "known_gaps": gaps, "failures": list(r.get("failures") or []),
        "sizes": (r.get("mnist") or "").removeprefix("quick subsample: "),
        "date": (r.get("date") or "").replace("T", " ")[:16], "commit": r.get("commit") or "",
        "machine": r.get("machine") or {}, "seconds": r.get("seconds"),
        "student": r.get("student")}


def title_of(name: str) -> str:
    """The lecture's title: its README's first heading, else its folder's name."""
    readme = REPO / "lectures" / name / "README.md"
    if readme.exists():
        first = readme.read_text(encoding="utf-8").split("\n", 1)[0]
        if first.startswith("# "):
            return first[2:].strip()
    return name


def counts_line(info: dict) -> str:
    c = info["counts"]
    parts = [f":st-held:`{c['held']} held`",
             f":st-{'missed' if c['missed'] else 'zero'}:`{c['missed']} missed`",
             f":st-{'gap' if c['gap'] else 'zero'}:`{c['gap']} documented gaps`"]
    if c["differs"]:
        parts.append(f":st-differs:`{c['differs']} not enforced`")
    if c["reported"]:
        parts.append(f":st-reported:`{c['reported']} reported`")
    if c["skipped"]:
        parts.append(f":st-skipped:`{c['skipped']} skipped`")
    return " · ".join(parts)


#: the roles of the pages' status words (docs/conf.py registers them): ``:st-held:`4 held```
ROLES = [f"st-{k}" for k in [*STATUS, "zero", "ok", "fail"]]


def index_page(infos: list[tuple[str, dict | None]], runs: Path | None) -> str:
    lines = [":html_theme.sidebar_secondary.remove:", "", ".. _lecture-results:", "",
             "Lecture results", "===============", ""]
    where = (f"the lectures' last runs in ``{runs}`` (``make report``), or, for a lecture "
             "that has not run there, its committed snapshot" if runs is not None else
             "each lecture's last **full** run (``make lectures``), as committed beside it in "
             "``lectures/NN_topic/full_run.json``: the run the lecture's README is checked "
             "against")
    lines += [f"What each lecture reproduced: {where}. A reference **held** within the stated "
              "tolerance of the published value, was **missed** (a full run then fails), or is "
              "a **documented gap**: a published value the lecture shows cannot be reproduced, "
              "with the reason. Quick-mode runs print most MNIST references without enforcing "
              "them (**not enforced**). Each lecture's page lists every check.", ""]
    rows = []
    for name, info in infos:
        number = name.split("_")[0]
        link = f":doc:`{number} {esc(title_of(name).split(': ', 1)[-1])} <{name}>`"
        if info is None:
            rows.append([link, "not run"] + [""] * 8)
            continue
        c = info["counts"]
        status = ":st-ok:`ok`" if info["ok"] else ":st-fail:`failed`"
        secs = f"{info['seconds']:.1f} s" if info["seconds"] is not None else ""
        rows.append([link, esc(info["mode"]), f":st-held:`{c['held']}`",
                     f":st-{'missed' if c['missed'] else 'zero'}:`{c['missed']}`",
                     f":st-{'gap' if c['gap'] else 'zero'}:`{c['gap']}`",
                     f":st-{'differs' if c['differs'] else 'zero'}:`{c['differs']}`",
                     str(c["reported"]), status, secs,
                     esc(info["date"]) + (f" ``{info['commit']}``" if info["commit"] else "")])
    lines += list_table(["lecture", "mode", "held", "missed", "gaps", "not enforced",
                         "reported", "status", "run time", "ran, commit"], rows,
                        classes="lecture-results", widths="26 6 6 6 6 7 7 6 8 14")
    total = {k: sum(i["counts"][k] for _, i in infos if i) for k in STATUS}
    lines += [f"In all: {total['held']} held, {total['missed']} missed, {total['gap']} "
              f"documented gaps, {total['reported']} values reported, in "
              f"{sum(1 for _, i in infos if i)} of {len(infos)} lectures.", ""]
    return "\n".join(lines) + "\n"


def _rst(lines: list[str]) -> list[str]:
    """reStructuredText inside a markdown page (myst's ``eval-rst`` block)."""
    return ["```{eval-rst}", *lines, "```", ""]


def lecture_page(name: str, info: dict | None, gallery: bool) -> str:
    # gallery: whether the lecture has a page in the site's gallery
    """A lecture's page (markdown, with reST blocks): its README, whose title is the page's, then
    what the run reproduced."""
    readme = REPO / "lectures" / name / "README.md"
    lines = ["---", "html_theme.sidebar_secondary.remove: true", "---", "",
             f"(results-{name})=", ""]
    if readme.exists():
        # the README's own links (../../docs/errata.md) resolve from the README's folder
        lines += [f"```{{include}} ../../lectures/{name}/README.md", ":relative-docs: ../",
                  ":relative-images:", "```", ""]
    else:
        lines += [f"# {name}", ""]
    lines += ["## What the run reproduced", ""]
    if info is None:
        lines += [f"This lecture has no results yet: `make lecture L={name}`.", ""]
        return "\n".join(lines) + "\n"
    r = info["results"]
    facts = [("results", info["origin"]), ("mode", esc(info["mode"]) + (
        f" ({esc(info['sizes'])})" if info["sizes"] else ""))]
    if info["seconds"] is not None:
        facts.append(("run time", f"{info['seconds']:.1f} s"))
    facts.append(("ran", esc(r.get("date") or "?")))
    facts.append(("commit", f"``{info['commit']}``" if info["commit"] else "?"))
    m = info["machine"]
    if m:
        facts.append(("machine", esc(f"{m.get('platform', '?')}, {m.get('cpus', '?')} CPUs, "
                                     f"Python {m.get('python', '?')}, numpy "
                                     f"{m.get('numpy', '?')}")))
    if info["fresh"]:
        f = info["fresh"]
        facts.append(("inputs", {"current": "unchanged since that run",
                                 "changed": f"changed since that run ({esc(f['why'])}): "
                                            "``make lectures`` reruns it",
                                 "unknown": f"not recorded ({esc(f['why'])})"}[f["state"]]))
    if info["student"]:
        facts.append(("student mode", f"``{info['student']}``"))
    see = [f"the lecture's code, ``lectures/{name}/run.py``"]
    if gallery:
        see.insert(0, f"its page cell by cell, run in quick mode with its figures, "
                      f":doc:`/lectures/{name}`")
    lines += _rst([f":{k}: {v}" for k, v in facts] + ["", (
        ":st-ok:`ok`" if info["ok"] else ":st-fail:`failed`") + " · " + counts_line(info), "",
        "See also " + "; ".join(see) + "."])

    lines += ["### Checks", ""]
    rows = []
    for c in info["checks"]:
        what = esc(c["what"]) + (f"\n``{c['ref']}``" if c["ref"] else "")
        status = f":st-{c['status']}:`{esc(STATUS[c['status']])}`"
        if c["gap"]:
            status += "\n" + esc(c["gap"])
        rows.append([what, cell(c["measured"]), cell(c["reference"]), esc(c["diff"]),
                     esc(c["tol"]), esc(c["source"]), status])
    body = list_table(["what", "measured", "reference", "|diff|", "tol", "source", "status"],
                      rows, classes="lecture-checks", widths="28 16 16 7 7 11 15")
    if info["unchecked"]:
        body += [f"References of ``references.json`` not checked in this run "
                 f"({len(info['unchecked'])}):", ""]
        for u in info["unchecked"]:
            gap = f"; known gap: {esc(u['known_gap'])}" if u.get("known_gap") else ""
            body.append(f"- ``{u['key']}``: {esc(u.get('what', ''))} = "
                        f"{esc(fmt_value(u.get('value')).replace(chr(10), ' '))} "
                        f"({esc(u.get('source', ''))}){gap}")
        body.append("")
    lines += _rst(body)
    if info["known_gaps"] or info["failures"]:
        lines += ["### Known gaps and failures", ""]
        body = [f"- :st-gap:`documented gap` {esc(g['what'])}: {esc(g['why'])}"
                for g in info["known_gaps"]]
        body += [f"- :st-missed:`missed` {esc(f)}" for f in info["failures"]]
        lines += _rst(body)
    tables = r.get("tables") or {}
    if tables:
        lines += ["### Tables", ""]
        body = []
        for key, t in tables.items():
            body += [f".. rubric:: {esc(t.get('title', key))} (``{key}``)", ""]
            body += list_table([str(h) for h in t.get("header", [])],
                               [[esc(fmt_cell(c)) for c in row] for row in t.get("rows", [])],
                               classes="lecture-table")
        lines += _rst(body)
    figures = _figures(name, info) if info["run_dir"] is not None else []
    if figures:
        lines += ["### Figures", ""]
        body = []
        for f in figures:
            body += [f".. figure:: {f['file']}", f"   :alt: {esc(f['caption'])}",
                     "   :class: lecture-figure", "", f"   {esc(f['caption'])}"]
            if f["panels"]:
                body.append(f"   (panels: {esc(' · '.join(f['panels']))})")
            for v in f["vectors"]:
                body.append(f"   :download:`{v.rsplit('.', 1)[-1].upper()} <{v}>`")
            body.append("")
        lines += _rst(body)
    return "\n".join(lines) + "\n"


def _figures(name: str, info: dict) -> list[dict]:
    """The figures of a run, copied beside the page (a page may show only files under docs/)."""
    r, src = info["results"], info["run_dir"]
    dest = OUT / name
    others = r.get("figure_other_formats") or {}
    out = []
    for f in r.get("figures", []):
        if not (src / f).exists():
            continue
        (dest / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src / f, dest / f)
        vectors = []
        for v in others.get(f, []):
            if (src / v).exists():
                shutil.copyfile(src / v, dest / v)
                vectors.append(f"{name}/{v}")
        titles = r.get("figure_titles", {}).get(f, [])
        out.append({"file": f"{name}/{f}", "caption": titles[0] if titles else f,
                    "panels": list(dict.fromkeys(t for t in titles[1:] if t != titles[0])),
                    "vectors": vectors})
    return out


def _write(path: Path, text: str) -> None:
    """Write only a changed page, so that Sphinx rereads only what changed."""
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def write(runs: str | os.PathLike | None = None, gallery=frozenset()) -> Path:
    """Write docs/results/ (the index and one page per lecture); ``runs`` is the folder of runs
    (``MLPR_DOCS_RESULTS``), None for the committed snapshots of the last full runs; ``gallery``
    the lectures that have a page in the site's gallery (linked from theirs)."""
    runs = Path(runs).resolve() if runs else None
    OUT.mkdir(exist_ok=True)
    for old in OUT.iterdir():  # figures of an earlier build: copied again below
        if old.is_dir():
            shutil.rmtree(old)
    sources = _inputs_module().Sources(REPO) if runs is not None else None
    infos = [(name, load(name, runs, sources)) for name in lectures()]
    wanted = {"index.rst"} | {f"{n}.md" for n, _ in infos}
    for old in OUT.iterdir():
        if old.name not in wanted:
            old.unlink()
    _write(OUT / "index.rst", index_page(infos, runs) + "\n.. toctree::\n   :hidden:\n\n" +
           "".join(f"   {n}\n" for n, _ in infos))
    for name, info in infos:
        _write(OUT / f"{name}.md", lecture_page(name, info, name in gallery))
    return OUT


def summary(name: str) -> dict | None:
    """The last full run of a lecture (its committed ``full_run.json``): counts, date, commit,
    seconds; None when it has none. The gallery's pages state it."""
    info = load(name, None)
    if info is None:
        return None
    return {"counts": info["counts"], "date": info["date"], "commit": info["commit"],
            "seconds": info["seconds"], "ok": info["ok"], "mnist": bool(info["sizes"])}

