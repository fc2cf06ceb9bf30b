"""Lecture READMEs' tables come from the runs: marked blocks rewritten from a full run.

A README shows a table of its lecture's run between two markers::

    <!-- results: mnist_multiclass -->
    | features | lambda | ... |
    <!-- end results -->

where the key names a table the script prints (`Lecture.table`, ``tables`` of results.json).
``python lectures/_readme.py [NN_topic ...] [--figures DIR]`` rewrites every block from
``DIR/NN_topic/results.json`` of a full run, and records the tables it used in
``lectures/NN_topic/full_tables.json`` (committed: the run's date, commit and tables);
``make lectures`` does it after each lecture that ends ok in full mode. A test
(``tests/test_lecture_readmes.py``) holds every block to that snapshot, so a table typed or edited
by hand, or left behind by a newer run, fails. Cells are formatted as the lecture prints them.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"(<!-- results: ([\w./ -]+?) -->\n)(.*?)(<!-- end results -->)", re.S)
SNAPSHOT = "full_tables.json"


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
    them in ``lectures/NAME/full_tables.json``; the keys rewritten (none: nothing written)."""
    if results.get("mode") != "full":
        raise ValueError(f"{name}: README tables come from a full run, got a "
                         f"{results.get('mode')!r} one")
    readme = REPO / "lectures" / name / "README.md"
    if not readme.exists():
        return []
    text = readme.read_text()
    used = keys(text)
    if not used:
        return []
    readme.write_text(rewrite(text, results["tables"]))
    snapshot = {"about": "the tables of the README's results blocks, from the full run named "
                         "here (lectures/_readme.py writes it; tests/test_lecture_readmes.py "
                         "holds the README to it)",
                "date": results.get("date"), "commit": results.get("commit"),
                "seconds": results.get("seconds"),
                "tables": {k: results["tables"][k] for k in used}}
    (REPO / "lectures" / name / SNAPSHOT).write_text(json.dumps(snapshot, indent=1) + "\n")
    return used


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="lecture folders (default: every one whose "
                                                 "README has a results block)")
    parser.add_argument("--figures", type=Path, default=REPO / "figures",
                        help="where the full runs wrote DIR/NN_topic/results.json")
    args = parser.parse_args(argv)
    names = args.names or sorted(p.parent.name for p in (REPO / "lectures").glob("*/README.md")
                                 if keys(p.read_text()))
    status = 0
    for name in names:
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
