"""Build ``figures/index.html`` and one page per lecture from the lectures' results.

``make report``, or ``.venv/bin/python -m report.build [--figures DIR]``

Reads each lecture's ``DIR/NN_topic/results.json`` (written by ``make lectures``, in full or
``--quick`` mode), its published references (``lectures/NN_topic/references.json``) and its
README, and writes static HTML and one stylesheet: ``DIR/index.html`` (one row per lecture) and
``DIR/NN_topic/index.html`` (every check, table, figure and known gap, and the README). No
server, no script: the pages open from the file system, offline. A lecture that has not run is
listed as such.
"""

from __future__ import annotations

import argparse
import datetime
import html
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent

#: a check's status: its label, and the CSS class that colours it
STATUS = {
    "held": "reference held",
    "missed": "MISSED the reference",
    "gap": "documented gap",
    "differs": "differs (quick mode, not enforced)",
    "reported": "reported (no reference)",
    "skipped": "skipped (student mode)",
}


def check_status(check: dict, results: dict) -> str:
    """One of `STATUS`'s keys: the status of a check (or claim) of a lecture's results.json.

    The lecture decided it when it ran (``lectures/_lecture.py``, `check_status`) and wrote it
    as the check's ``status``; the report shows that. A results.json whose checks carry no
    status was written by an older version of the lectures: a ValueError says to run the
    lecture again.
    """
    status = check.get("status")
    if status not in STATUS:
        lecture = results.get("lecture", "this lecture")
        raise ValueError(
            f"the check {check.get('what')!r} of {lecture}'s results.json has "
            f"{'no status' if status is None else f'the unknown status {status!r}'}: the file "
            f"was written before checks carried their status; run the lecture again "
            f"(make lecture L={lecture})")
    return status


def fmt_value(v, digits: int = 6) -> str:
    """A number, vector or matrix of results.json as compact text (matrices one row a line)."""
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


def _git_commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, text=True,
                             capture_output=True, timeout=10)
        return out.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def readme_html(readme: Path, page_dir: Path, pages: dict[str, Path]) -> tuple[str, str]:
    """A lecture README's title and its body rendered to HTML (without the title).

    Relative links and images are rewritten to resolve from the page's folder: a link to a
    lecture folder goes to that lecture's page, any other to the file in the repository. Tables
    are wrapped in a box that scrolls sideways on its own.
    """
    import markdown

    text = readme.read_text(encoding="utf-8")
    lines = text.splitlines()
    title = ""
    if lines and lines[0].startswith("# "):
        title, text = lines[0][2:].strip(), "\n".join(lines[1:])
    body = markdown.markdown(text, extensions=["tables", "fenced_code", "sane_lists"],
                             output_format="html")

    def rewrite(m: re.Match) -> str:
        attr, url = m.group(1), html.unescape(m.group(2))
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^#|^/", url):
            return m.group(0)
        path, _, frag = url.partition("#")
        target = (readme.parent / path).resolve()
        if target.name in pages and target.parent == REPO / "lectures":
            target = pages[target.name]
        rel = os.path.relpath(target, page_dir) + (f"#{frag}" if frag else "")
        return f'{attr}="{html.escape(Path(rel).as_posix())}"'

    body = re.sub(r'\b(href|src)="([^"]*)"', rewrite, body)
    body = body.replace("<table>", '<div class="scroll"><table>').replace("</table>",
                                                                          "</table></div>")
    # the README's headings sit one level below the page's own sections
    body = re.sub(r"<(/?)h([1-5])\b", lambda m: f"<{m.group(1)}h{int(m.group(2)) + 1}", body)
    return title, body


def _inputs_module():
    if str(REPO / "lectures") not in sys.path:
        sys.path.insert(0, str(REPO / "lectures"))
    import _inputs

    return _inputs


def freshness(name: str, out: Path, sources) -> dict:
    """Whether ``make lectures`` would rerun a lecture because its inputs changed since the run
    of ``out`` (``lectures/_inputs.py``): ``state`` "current", "changed" (with ``why``) or
    "unknown" (no record of that run's inputs: it predates them, or ran outside make lectures)."""
    record = out / "inputs.json"
    try:
        args = json.loads(record.read_text()).get("args") or []
    except (OSError, ValueError):
        return {"state": "unknown", "why": "no record of the inputs of this run"}
    why = _inputs_module().why_rerun(out, args, sources.inputs(name))
    return {"state": "current", "why": ""} if why is None else {"state": "changed", "why": why}


def lecture_info(name: str, figures: Path, pages: dict[str, Path], sources=None) -> dict:
    """What the index and the lecture's page show, from its results.json (None when not run);
    ``sources`` (`_inputs.Sources`) tells whether its inputs changed since that run."""
    folder = REPO / "lectures" / name
    ref_file = folder / "references.json"
    references = json.loads(ref_file.read_text()) if ref_file.exists() else {}
    readme = folder / "README.md"
    out = figures / name
    title, body = (readme_html(readme, out, pages) if readme.exists() else ("", ""))
    info = {"name": name, "number": name.split("_")[0], "topic": name.split("_", 1)[1].replace(
        "_", " "), "title": title or name, "readme": body, "results": None,
        "page": f"{name}/index.html", "references": references}
    results_file = out / "results.json"
    if not results_file.exists():
        return info
    r = json.loads(results_file.read_text())
    checks = []
    for c in r.get("checks", []):
        status = check_status(c, r)
        ref = references.get(c.get("ref")) if c.get("ref") else None
        checks.append({
            "what": c["what"],
            "measured": fmt_value(c["holds"]) if c.get("claim") else fmt_value(c.get("measured")),
            "reference": "true" if c.get("claim") else fmt_value(c.get("reference")),
            "diff": fmt_value(c.get("abs_diff"), 3) if "abs_diff" in c else "",
            "tol": fmt_value(c.get("tol")) if c.get("tol") is not None else (
                "" if c.get("claim") or "reference" not in c else "0"),
            "source": c.get("source") or "",
            "ref": c.get("ref"), "ref_what": ref["what"] if ref else "",
            "gap": (ref or {}).get("known_gap") if status == "gap" else None,
            "status": status, "label": STATUS[status], "claim": bool(c.get("claim")),
        })
    counts = {k: sum(c["status"] == k for c in checks) for k in STATUS}
    checked_refs = {c.get("ref") for c in r.get("checks", [])}
    unchecked = [{"key": k, **v} for k, v in references.items() if k not in checked_refs]
    others = r.get("figure_other_formats") or {}
    figs = []
    for f in r.get("figures", []):
        vectors = [v for v in others.get(f, []) if (out / v).exists()]
        titles = r.get("figure_titles", {}).get(f, [])
        size = png_size(out / f)
        figs.append({"file": f, "exists": (out / f).exists(), "titles": titles,
                     "caption": titles[0] if titles else f,
                     "panels": list(dict.fromkeys(t for t in titles[1:] if t != titles[0])),
                     "size": size,
                     # many panels side by side: the whole width of the page, not one column
                     "wide": bool(size and (size[0] >= 1100 or size[0] > 1.7 * size[1] > 500)),
                     "anchor": "fig-" + re.sub(r"[^a-zA-Z0-9_-]", "-", Path(f).stem),
                     "vectors": vectors})
    tables = [{"key": k, "anchor": "table-" + re.sub(r"[^a-zA-Z0-9_-]", "-", k),
               "title": t.get("title", k), "header": t.get("header", []),
               "rows": [[fmt_cell(c) for c in row] for row in t.get("rows", [])]}
              for k, t in (r.get("tables") or {}).items()]
    machine = r.get("machine") or {}
    date = r.get("date")
    log = figures / "logs" / f"{name}.log"
    info.update(
        results=r, checks=checks, counts=counts, unchecked=unchecked, figures=figs,
        tables=tables, known_gaps=r.get("known_gaps") or [], failures=r.get("failures") or [],
        mode=r.get("mode", "?"), seconds=r.get("seconds"),
        sizes=r.get("mnist", "").removeprefix("quick subsample: "),  # the mode says "quick"
        date=date.replace("T", " ")[:16] if date else "", date_full=date or "",
        commit=r.get("commit") or "", machine=machine,
        machine_short=(f"{machine.get('machine', '?')}, {machine.get('cpus', '?')} CPUs, "
                       f"Python {machine.get('python', '?')}" if machine else ""),
        log=log.exists(), ok=not r.get("failures"), student=r.get("student"),
        fresh=freshness(name, out, sources) if sources is not None else None)
    return info


def build(figures: Path = REPO / "figures") -> Path:
    """Write the report under ``figures`` and return the index's path."""
    from jinja2 import Environment, FileSystemLoader, select_autoescape
    from markupsafe import Markup

    figures = Path(figures).resolve()
    figures.mkdir(parents=True, exist_ok=True)
    names = sorted(p.parent.name for p in (REPO / "lectures").glob("[0-9][0-9]_*/run.py"))
    pages = {n: figures / n / "index.html" for n in names}
    sources = _inputs_module().Sources(REPO)
    infos = [lecture_info(n, figures, pages, sources) for n in names]
    for i in infos:
        i["readme"] = Markup(i["readme"])
    env = Environment(loader=FileSystemLoader(HERE / "templates"),
                      autoescape=select_autoescape(["html"]), trim_blocks=True,
                      lstrip_blocks=True)
    now = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    common = {"built": now.replace("T", " ")[:16], "commit": _git_commit(), "STATUS": STATUS}
    shutil.copyfile(HERE / "style.css", figures / "report.css")
    ran = [i for i in infos if i["results"]]
    index = figures / "index.html"
    index.write_text(env.get_template("index.html").render(lectures=infos, ran=ran, **common),
                     encoding="utf-8")
    page = env.get_template("lecture.html")
    for k, i in enumerate(infos):
        if not i["results"]:
            continue
        prev = next((j for j in reversed(infos[:k]) if j["results"]), None)
        nxt = next((j for j in infos[k + 1:] if j["results"]), None)
        pages[i["name"]].write_text(page.render(lec=i, prev=prev, next=nxt, **common),
                                    encoding="utf-8")
    return index


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--figures", type=Path, default=REPO / "figures",
                        help="the lectures' results root, where the report is written "
                             "(default figures/)")
    args = parser.parse_args(argv)
    index = build(args.figures)
    ran = sum((args.figures / n / "results.json").exists()
              for n in (p.parent.name for p in (REPO / "lectures").glob("[0-9][0-9]_*/run.py")))
    print(f"report: {index} ({ran} lectures with results)")
    if not ran:
        print("no lecture has run yet: make lectures (or make lectures ARGS=--quick) first",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
