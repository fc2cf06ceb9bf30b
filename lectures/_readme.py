"""Lecture READMEs state what the runs measured: tables rewritten from a full run, and every
other number of the prose found in that run.

Tables. A README shows a table of its lecture's run between two markers::

    <!-- results: mnist_multiclass -->
    | features | lambda | ... |
    <!-- end results -->

where the key names a table the script prints (`Lecture.table`, ``tables`` of results.json).
``python lectures/_readme.py [NN_topic ...] [--figures DIR]`` rewrites every block from
``DIR/NN_topic/results.json`` of a full run, and records that run (its tables, checks, values,
date and commit) in ``lectures/NN_topic/full_run.json`` (committed); ``make lectures`` does it
after each lecture that ends ok in full mode. Cells are formatted as the lecture prints them.

Numbers in the prose. Every other number of a README (outside code, and outside citations such
as "eq. 128", "§7.3", "lab 5") must be *supported*: at the README's own rounding it is a number of
the run (a check's measure or reference, a table cell, a value recorded with `Lecture.value`, a
number the run prints in a check's text), a published reference of the lecture's
``references.json``, or a literal of its script (a parameter the script sets: a prior, a
lambda, a PCA dimension). "Rounding" is the measured value's: 0.045048 supports 0.0450 and 0.045,
never 0.0451. A paragraph that speaks of quick mode is also read against a quick run.
``python lectures/_readme.py --audit [NN_topic ...]`` lists the unsupported numbers, and
``tests/test_lecture_readmes.py`` fails on any. The match is by value, not by name: a number
typed from an older run fails unless the new run happens to have the same number elsewhere, which
is unlikely for the three or four significant digits the READMEs quote.
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"(<!-- results: ([\w./ -]+?) -->\n)(.*?)(<!-- end results -->)", re.S)
SNAPSHOT = "full_run.json"
#: what of a full run's results.json the snapshot keeps (figures and machine details left out)
KEPT = ("lecture", "mode", "date", "commit", "seconds", "mnist", "checks", "tables", "values")


def cell(c) -> str:
    """A table cell as the lecture prints it (`_lecture._cell`); "|" escaped for markdown."""
    if isinstance(c, bool) or c is None:
        return str(c)
    if isinstance(c, float):
        if c != c:
            return "–"
        return f"{c:.4g}" if abs(c) < 1e4 else f"{c:.3e}"
    return str(c).replace("|", "\\|")


def render(table: dict) -> str:
    """The markdown of a results.json table (``header``, ``rows``)."""
    lines = ["| " + " | ".join(cell(h) for h in table["header"]) + " |",
             "|" + "---|" * len(table["header"])]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in table["rows"]]
    return "\n".join(lines) + "\n"


def keys(text: str) -> list[str]:
    """The table keys of the README's blocks, in order."""
    return [m.group(2) for m in BLOCK.finditer(text)]


def rewrite(text: str, tables: dict) -> str:
    """``text`` with every block's body rendered from ``tables`` (KeyError names a block whose
    table the run does not have)."""
    def body(m):
        key = m.group(2)
        if key not in tables:
            raise KeyError(f"README block {key!r}: the run has no table of that name "
                           f"(it has {', '.join(sorted(tables))})")
        return m.group(1) + render(tables[key]) + m.group(4)

    return BLOCK.sub(body, text)


def update(name: str, results: dict) -> list[str]:
    """Rewrite ``lectures/NAME/README.md``'s blocks from a full run's ``results`` and record
    the run in ``lectures/NAME/full_run.json``; the keys of the blocks rewritten."""
    if results.get("mode") != "full":
        raise ValueError(f"{name}: README tables come from a full run, got a "
                         f"{results.get('mode')!r} one")
    readme = REPO / "lectures" / name / "README.md"
    if not readme.exists():
        return []
    text = readme.read_text()
    used = keys(text)
    readme.write_text(rewrite(text, results["tables"]))
    snapshot = {"about": "the full run the README states (lectures/_readme.py writes it from the run's "
                         "results.json; tests/test_lecture_readmes.py holds the README's tables "
                         "and numbers to it)",
                "blocks": used, **{k: results[k] for k in KEPT if k in results}}
    (REPO / "lectures" / name / SNAPSHOT).write_text(json.dumps(snapshot, indent=1) + "\n")
    return used


# -- numbers in the prose -------------------------------------------------------------------------
#: a number as a README writes it: 0.0450, -98.8, 52.94%, 60,000, 1e-3 (a minus sign may be "-"
#: or "−"); not part of a word, a path or a version
NUMBER = re.compile(r"(?<![\w.\-/−])([-−]?)(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?(?:e[-+]?\d+)?)"
                    r"(?![\w/]|\.\d)(%?)")
#: citations and names whose numbers are not measurements: "eq. 128", "eqs. 181-182", "§7.3",
#: "section 7.2-7.4", "chapter 7", "lab 5", "lecture 05", "notes 7.4", "figure 3", "Lab 7", and
#: markdown headings' lecture numbers
CITATION = re.compile(
    r"(?i)(?:\beqs?\.|\bequations?|§|\bsections?|\bch\.|\bchapters?|\blabs?|\blectures?|"
    r"\bnotes'?|\bfigures?|\bfig\.|\btable|\bpage|\bp\.|\bstep|\bissue|\bPython|\bnumpy|\bscipy)"
    r"\s*\(?\d+(?:\.\d+)*(?:\s*(?:[-–,/]|and|or|to)\s*\d+(?:\.\d+)*)*")
CODE = re.compile(r"```.*?```|`[^`\n]*`|<!--.*?-->|\]\([^)]*\)|https?://\S+", re.S)


def prose_numbers(text: str) -> list[dict]:
    """The numbers of a README's prose: each with its line, its text, its value and its decimals.

    Left out: tables of results blocks (held cell by cell), code (fenced or inline), comments,
    link targets, citations (`CITATION`), and small integers 0-10 (counts of things, list items).
    A paragraph that mentions quick mode is marked ``quick``.
    """
    out = []
    body = BLOCK.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    body = CODE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), body)
    body = CITATION.sub(lambda m: " " * len(m.group(0)), body)
    lines = body.split("\n")
    para_quick, start = [], 0
    for i, line in enumerate(lines + [""]):  # paragraphs: runs of non-blank lines
        if not line.strip():
            quick = bool(re.search(r"(?i)quick", "\n".join(text.split("\n")[start:i])))
            para_quick += [quick] * (i - start + 1)
            start = i + 1
    for i, line in enumerate(lines):
        if line.startswith("#"):
            continue
        for m in NUMBER.finditer(line):
            sign, digits, pct = m.groups()
            value = float(digits.replace(",", ""))
            decimals = len(digits.split(".")[1]) if "." in digits and "e" not in digits else 0
            mantissa = None
            if "e" in digits:  # 9.7e-17, 1e-3: compared at the mantissa's digits
                decimals, m_part = None, digits.split("e")[0]
                mantissa = len(m_part.split(".")[1]) if "." in m_part else 0
            if value <= 10 and decimals == 0 and not pct:
                continue
            out.append({"line": i + 1, "text": m.group(0), "quick": para_quick[i],
                        "value": -value if sign else value, "decimals": decimals, "mantissa": mantissa,
                        "percent": bool(pct)})
    return out


def _leaves(x, into: list) -> list:
    """Every number of a results.json structure, with the numbers written in its strings."""
    if isinstance(x, bool) or x is None:
        return into
    if isinstance(x, (int, float)):
        if math.isfinite(x):
            into.append(float(x))
    elif isinstance(x, str):
        into += [float(d.replace(",", "")) * (-1 if s else 1)
                 for s, d, _ in NUMBER.findall(x)]
    elif isinstance(x, dict):
        for v in x.values():
            _leaves(v, into)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _leaves(v, into)
    return into


def script_literals(path: Path) -> list[float]:
    """The numeric literals of a lecture's script (its parameters), negated ones included.

    Numbers written inside the script's strings are not: a result typed into a ``print`` would
    otherwise support the same number typed into the README.
    """
    values = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) \
                and not isinstance(node.value, bool):
            values += [float(node.value), -float(node.value)]
    return values


def support(name: str, run: dict) -> list[float]:
    """The numbers a README of lecture ``name`` may state, from ``run`` (a results.json): the
    run's numbers, the published references of its references.json, its script's literals and
    the shared helper's (the quick subsample's sizes)."""
    folder = REPO / "lectures" / name
    values = _leaves({k: run.get(k) for k in KEPT}, [])
    refs = folder / "references.json"
    if refs.exists():
        _leaves([r.get("value") for r in json.loads(refs.read_text()).values()], values)
    values += script_literals(folder / "run.py") + script_literals(REPO / "lectures" / "_lecture.py")
    return values


def supported(number: dict, values) -> bool:
    """Whether the README's ``number`` is one of ``values`` at its own rounding (a percentage may
    also be a fraction of the run, 52.94% for 0.5294)."""
    x, d = number["value"], number["decimals"]
    for v in values:
        for scaled in ((v, 100 * v) if number["percent"] or d else (v,)):
            if d is None:  # 9.7e-17: the value at the mantissa's digits
                if float(f"{scaled:.{number['mantissa']}e}") == x:
                    return True
            elif f"{scaled:.{d}f}".lstrip("-") == f"{abs(x):.{d}f}" and (scaled < 0) == (x < 0) \
                    or d == 0 and scaled == x:
                return True
    return False


def audit(name: str, full: dict, quick: dict | None = None) -> list[dict]:
    """The numbers of lecture ``name``'s README that neither the full run ``full`` nor (in a
    paragraph about quick mode) the quick run ``quick`` supports."""
    text = (REPO / "lectures" / name / "README.md").read_text()
    base = support(name, full)
    extra = support(name, quick) if quick else []
    return [n for n in prose_numbers(text)
            if not supported(n, base) and not (n["quick"] and supported(n, extra))]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="lecture folders (default: every lecture)")
    parser.add_argument("--figures", type=Path, default=REPO / "figures",
                        help="where the full runs wrote DIR/NN_topic/results.json")
    parser.add_argument("--audit", action="store_true",
                        help="write nothing: list each README's numbers that the run recorded "
                             "in full_run.json does not support (and DIR/quick/NN_topic, if "
                             "there, for paragraphs about quick mode)")
    args = parser.parse_args(argv)
    names = args.names or sorted(p.parent.name for p in (REPO / "lectures").glob("[0-9]*/run.py"))
    status = 0
    for name in names:
        if args.audit:
            full = json.loads((REPO / "lectures" / name / SNAPSHOT).read_text())
            qpath = args.figures / "quick" / name / "results.json"
            quick = json.loads(qpath.read_text()) if qpath.exists() else None
            missing = audit(name, full, quick)
            for n in missing:
                print(f"lectures/{name}/README.md:{n['line']}: {n['text']} is not a number of "
                      f"the run of {full.get('date')}" + (" (a quick-mode paragraph)"
                                                           if n["quick"] else ""))
            status |= bool(missing)
            continue
        path = args.figures / name / "results.json"
        try:
            used = update(name, json.loads(path.read_text()))
        except (OSError, ValueError, KeyError) as exc:
            print(f"{name}: {exc}", file=sys.stderr)
            status = 1
            continue
        print(f"{name}: README tables {', '.join(used) or '(none)'} from {path}")
    return status


if __name__ == "__main__":
    sys.exit(main())
