"""The sections and numbered equations of the notes mlpr cites: ``docs/notes_sections.json``.

``python docs/notes_map.py DIR`` reads the five documents of ``DIR`` (the plain-text notes next
to the repository, ``../shared/notes``: their README says which file is which) and writes, for
each, its numbered sections with their titles and, for each numbered equation, the section it
sits in. Only numbers and titles are kept: the notes' text is not copied. The site's notes page
and the API entries' links to it (docs/notes_citations.py) read the JSON, so that the site
builds without the notes.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent / "notes_sections.json"
HEADING = re.compile(r"^#+\s+(\d+(?:\.\d+)*)\.?\s+(\S.*?)\s*#*\s*$")
# a number alone on its line, "(41)", a \tag{41}, or a number closing a line of math, "$ (154)"
EQUATION = re.compile(r"^\s*\$*\s*\((\d+(?:\.\d+)?)\)\s*\$*\s*$|\\tag\{(\d+(?:\.\d+)?)\}"
                      r"|\$\s+\((\d+(?:\.\d+)?)\)\s*$")


def read(path: Path) -> dict:
    sections: dict[str, str] = {}
    equations: dict[str, str] = {}
    current = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        h = HEADING.match(line)
        if h and len(h.group(2)) < 90:
            current = h.group(1)
            sections.setdefault(current, h.group(2).strip("*_ "))
            continue
        for m in EQUATION.finditer(line):
            number = m.group(1) or m.group(2) or m.group(3)
            equations.setdefault(number, current)
    return {"sections": sections, "equations": equations}


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    folder = Path(argv[0] if argv else "../shared/notes")
    notes = {p.name.split("_")[0]: read(p) for p in sorted(folder.glob("00[0-9]_*.txt"))}
    OUT.write_text(json.dumps(notes, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    for doc, d in notes.items():
        print(f"{doc}: {len(d['sections'])} sections, {len(d['equations'])} equations")
    return 0


if __name__ == "__main__":
    sys.exit(main())
