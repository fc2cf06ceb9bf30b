"""What each public name cites of the notes, read from its docstring: the site's notes page
(``api/notes``) and, under each API entry, its links to that page.

A citation is a section (``section 4.4``, ``sec. 4.5.2``, ``§ 7.2``) or a numbered equation
(``eq. (41)``, ``eq. 41``, ``eqs. (100)-(101)``, ``eq. (100)/(101)``, ``(eq. 6.5)``) of one of the
five documents of the notes: the main notes (``002``, "the notes", the default), or a short note
(``note 000`` .. ``note 004``; "recitation notes" is 000), named within the sentence before the
citation. `cited` returns them; docs/notes_sections.json (docs/notes_map.py) gives each
document's section titles and the section of each equation.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

SECTIONS = json.loads((Path(__file__).resolve().parent / "notes_sections.json").read_text())
MAIN = "002"
DOCUMENTS = {"000": "note 000 (recitation notes)", "001": "note 001", "002": "the MLPR notes",
             "003": "note 003", "004": "note 004"}

_NUM = r"\d+(?:\.\d+)*"
_EQ = re.compile(rf"\beqs?\.\s*\(?({_NUM})\)?((?:\s*(?:-|–|/|,|and|to)\s*\(?{_NUM}\)?)*)")
_SEC = re.compile(rf"(?:\bsections?|\bsec\.|§)\s*({_NUM})")
_DOC = re.compile(r"\b(?:short\s+)?notes?\s+(00[0-4])\b|\b(recitation) notes\b"
                  r"|\b(?:main|MLPR|the) notes\b", re.I)
# "section 8.5 of the MLPR notes": the document named after the citation
_OF = re.compile(r"\s+of\s+(?:the\s+)?(?:(?:MLPR|main)\s+notes\b"
                 r"|(?:short\s+)?notes?\s+(00[0-4])\b)", re.I)


@dataclass(frozen=True, order=True)
class Citation:
    document: str  # "000" .. "004"
    kind: str  # "section" or "eq"
    number: str

    @property
    def anchor(self) -> str:
        return f"notes-{self.document}-{self.kind}-{self.number.replace('.', '-')}"

    @property
    def label(self) -> str:
        return (f"eq. ({self.number})" if self.kind == "eq" else f"section {self.number}")

    @property
    def section(self) -> str | None:
        """The section an equation sits in, or the section itself."""
        if self.kind == "section":
            return self.number
        return SECTIONS.get(self.document, {}).get("equations", {}).get(self.number)


def _document(text: str, at: int, end: int, kind: str, number: str) -> str:
    """The document a citation at ``at`` (ending at ``end``) refers to: the one named right
    after it ("of note 003"), else the last one named in its sentence, else the main notes; a
    number that document does not have, and exactly one other has, is that other's."""
    after = _OF.match(text, end)
    doc = (after.group(1) or MAIN) if after else _named_before(text, at)
    have = {d for d, s in SECTIONS.items()
            if number in s.get("sections" if kind == "section" else "equations", {})}
    if doc not in have and len(have) == 1 and SECTIONS.get(doc, {}).get(
            "sections" if kind == "section" else "equations"):
        return have.pop()
    if doc not in have and len(have) == 1 and doc == MAIN:
        return have.pop()
    return doc


def _named_before(text: str, at: int) -> str:
    """The last document named in the sentence before ``at`` (the main notes if none)."""
    start = max(text.rfind(". ", 0, max(0, at - 1)), text.rfind("\n\n", 0, at))
    # "eq. (41)" has a ". " of its own: a sentence starts only where a capital follows
    for m in re.finditer(r"[.;]\s+(?=[A-Z(])", text[:at]):
        start = max(start, m.end())
    doc = MAIN
    for m in _DOC.finditer(text, max(0, start), at):
        if m.group(1):
            doc = m.group(1)
        elif m.group(2):
            doc = "000"
        else:
            doc = MAIN
    return doc


def _numbers(first: str, rest: str) -> list[str]:
    """The equations of ``eqs. (100)-(103)`` or ``eq. (100)/(101)``: 100..103, or 100 and 101."""
    out = [first]
    for sep, number in re.findall(rf"\s*(-|–|/|,|and|to)\s*\(?({_NUM})\)?", rest):
        if sep in ("-", "–", "to") and number.isdigit() and out[-1].isdigit() \
                and 0 < int(number) - int(out[-1]) <= 10:
            out += [str(k) for k in range(int(out[-1]) + 1, int(number) + 1)]
        else:
            out.append(number)
    return out


def cited(docstring: str) -> list[Citation]:
    """The sections and equations of the notes a docstring cites, in order, each once."""
    text = docstring or ""
    found: list[Citation] = []
    for m in _EQ.finditer(text):
        for number in _numbers(m.group(1), m.group(2) or ""):
            doc = _document(text, m.start(), m.end(), "eq", number)
            found.append(Citation(doc, "eq", number))
    for m in _SEC.finditer(text):
        doc = _document(text, m.start(), m.end(), "section", m.group(1))
        found.append(Citation(doc, "section", m.group(1)))
    return list(dict.fromkeys(found))


def _sort_key(number: str) -> tuple:
    return tuple(int(x) for x in number.split("."))


def public_citations(modules: list[str]) -> dict[str, list[Citation]]:
    """``mlpr.<module>.<name>`` -> what its docstring cites, for every public name that cites
    the notes."""
    import importlib
    import inspect

    out = {}
    for modname in modules:
        module = importlib.import_module(modname)
        for name in module.__all__:
            obj = getattr(module, name)
            if callable(obj):
                found = cited(inspect.getdoc(obj) or "")
                if found:
                    out[f"{modname}.{name}"] = found
    return out


def entry_lines(citations: list[Citation]) -> list[str]:
    """The reST line an API entry ends with: its citations, linked to the notes page."""
    by_doc: dict[str, list[Citation]] = {}
    for c in citations:
        by_doc.setdefault(c.document, []).append(c)
    parts = []
    for doc, cs in by_doc.items():
        links = ", ".join(f":ref:`{c.label} <{c.anchor}>`" for c in cs)
        parts.append(f"{DOCUMENTS[doc]}, {links}")
    return ["", ".. rubric:: In the notes", "", "; ".join(parts) + ".", ""]


def notes_page(citing: dict[str, list[Citation]]) -> str:
    """The notes page: every section and equation that a public name cites, document by
    document, in the notes' order, each with its title (a section's; an equation's section) and
    the names that cite it."""
    lines = ["The notes, cited", "================", "",
             "Every section and numbered equation of the notes that a public name of mlpr cites "
             "in its docstring, in the notes' order, with the names that cite it; each API entry "
             "links here from its *In the notes* line. The documents are the main MLPR notes "
             "(equations (1)-(203)) and the short notes 000, 001, 003 and 004; the section "
             "titles are the documents' own (``docs/notes_sections.json``, made by "
             "``docs/notes_map.py`` from the notes).", ""]
    index: dict[Citation, list[str]] = {}
    for name, cs in citing.items():
        for c in cs:
            index.setdefault(c, []).append(name)
    for doc in sorted({c.document for c in index}):
        title = DOCUMENTS[doc][0].upper() + DOCUMENTS[doc][1:]
        lines += [title, "-" * len(title), ""]
        titles = SECTIONS.get(doc, {}).get("sections", {})
        for kind, heading in (("section", "Sections"), ("eq", "Equations")):
            cs = sorted((c for c in index if c.document == doc and c.kind == kind),
                        key=lambda c: _sort_key(c.number))
            if not cs:
                continue
            lines += [f".. rubric:: {heading}", ""]
            for c in cs:
                where = c.section
                context = ""
                if kind == "section" and titles.get(c.number):
                    context = f", {titles[c.number]}"
                elif kind == "eq" and where:
                    context = f" (section {where}" + (f", {titles[where]}" if titles.get(where)
                                                     else "") + ")"
                names = ", ".join(f":py:obj:`~{n}`" for n in sorted(index[c]))
                lines += [f".. _{c.anchor}:", "", f"**{c.label[0].upper()}{c.label[1:]}**"
                          f"{context}: {names}", ""]
    return "\n".join(lines) + "\n"
