"""The lectures as a sphinx-gallery: one page per ``lectures/NN_topic/run.py``, run in quick mode.

docs/conf.py calls `stage` before the build: it copies each lecture's script into
``docs/_lectures/`` (git-ignored) in the form sphinx-gallery reads, changing only comments: the
docstring's first line becomes the page's title (an underlined heading), and the text after a
``# %%`` (the cell's title, which sphinx-gallery would drop) moves to the comment block below it,
where it is shown. sphinx-gallery runs each copy with `reset_argv`'s arguments (``--quick``, and
an output folder in the build), prints its output under each cell, and shows under each cell the
figures that cell wrote (`scrape_figures`: the lectures save and close their figures, so there is
no open figure for sphinx-gallery's matplotlib scraper to find). Each page links to the lecture as
a script and as a notebook, both made from the ``# %%`` cells; the notebook's first cell
(`FIRST_NOTEBOOK_CELL`) gives the lecture its command line, quick mode, since a notebook has none.
docs/conf.py puts under each page's title the mode it shows and what the lecture's last full
run reproduced (`with_mode_note`).
"""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

DOCS = Path(__file__).resolve().parent
REPO = DOCS.parent
STAGE = DOCS / "_lectures"  # what sphinx-gallery reads (examples_dirs)
RUNS = DOCS / "_build" / "lecture_runs"  # each lecture's --out folder

HEADER = """The lectures
============

One page per lecture of ``lectures/``: its code, cell by cell, with the output it printed and the
figures it drew, run in **quick mode** (``--quick``: a deterministic MNIST subsample, whose
references are printed, not enforced; the iris references are the same in both modes and are
enforced). Each page links to the lecture as a Python script and as a Jupyter notebook.
"""


#: The first cell of every lecture's notebook: a notebook has no command line, and the kernel's
#: own arguments are not the lecture's; the lecture's `Lecture` reads ``sys.argv`` as ``run.py``
#: does. The cell's comment says how to run the full lecture instead.
FIRST_NOTEBOOK_CELL = (
    "# The lecture's command line, as `run.py --quick` would have it: quick mode (seconds).\n"
    "# For the full run (the published references enforced), use sys.argv = [\"run.py\"];\n"
    "# \"--student\", \"my_labs.py\" runs it on your own lab functions (student mode).\n"
    "# The lecture imports its helper `_lecture` from lectures/: run the notebook with the\n"
    "# Python of the repository's .venv (make lectures or make test creates it).\n"
    "import sys\n"
    "\n"
    "sys.argv = [\"run.py\", \"--quick\"]")


def lectures() -> list[Path]:
    return sorted(REPO.glob("lectures/[0-9][0-9]_*/run.py"))


def _gallery_source(text: str, name: str) -> str:
    """The script of a lecture with the title and cell titles sphinx-gallery shows."""
    m = re.match(r'(r?""")(.*?)\n', text)
    if m is None:
        raise ValueError(f"lectures/{name}/run.py does not start with a docstring")
    title = m.group(2).strip().rstrip(".")
    text = text[:m.end(1)] + f"{title}\n{'=' * len(title)}\n" + text[m.end():]
    # "# %% title" -> "# %%" and "# title" on the line below, the first line of the cell's text
    return re.sub(r"^# %%[ \t]+(\S.*)$", r"# %%\n# \1", text, flags=re.M)


def stage() -> Path:
    """Write docs/_lectures/ from lectures/*/run.py (only the files whose content changed, so
    that sphinx-gallery reruns only the lectures whose script changed). sphinx-gallery keys its
    cache on the script alone: when this file changes (the notebooks' first cell, the staging),
    the cache of its earlier pages (``docs/lectures/*.md5``) is dropped, and every lecture reruns."""
    STAGE.mkdir(exist_ok=True)
    digest = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()
    record = STAGE / ".digest"
    if not record.exists() or record.read_text() != digest:
        for md5 in (DOCS / "lectures").glob("*.md5"):
            md5.unlink()
        record.write_text(digest)
    wanted = {"GALLERY_HEADER.rst": HEADER, ".digest": digest}
    for script in lectures():
        name = script.parent.name
        wanted[f"{name}.py"] = _gallery_source(script.read_text(encoding="utf-8"), name)
    for path in STAGE.iterdir():
        if path.name not in wanted:
            shutil.rmtree(path) if path.is_dir() else path.unlink()
    for filename, text in wanted.items():
        path = STAGE / filename
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
    return STAGE


def reset_argv(gallery_conf, script_vars) -> list[str]:
    """The command line of a lecture's run in the gallery: quick mode, figures in the build."""
    name = Path(script_vars["src_file"]).stem
    shutil.rmtree(RUNS / name, ignore_errors=True)  # a cell's figures are the files it adds
    _seen[name] = set()
    return ["--quick", "--out", str(RUNS / name)]


_seen: dict[str, set[str]] = {}  # lecture -> the figures already shown on its page


def scrape_figures(block, block_vars, gallery_conf) -> str:
    """The figures the cell just run wrote into the lecture's output folder, in the order they
    were written, copied where sphinx-gallery keeps a page's images."""
    from sphinx_gallery.scrapers import figure_rst

    name = Path(block_vars["src_file"]).stem
    out = RUNS / name
    seen = _seen.setdefault(name, set())
    new = sorted((p for p in out.glob("*.png") if p.name not in seen),
                 key=lambda p: p.stat().st_mtime_ns) if out.is_dir() else []
    images = []
    for png, image_path in zip(new, block_vars["image_path_iterator"]):
        shutil.copyfile(png, image_path)
        seen.add(png.name)
        images.append(image_path)
    return figure_rst(images, gallery_conf["src_dir"])


def with_mode_note(source: str, name: str, full: dict | None, ran: bool = True) -> str:
    """A gallery page's reST with, under its title, the mode the page shows and what the last
    full run reproduced (``full``: `lecture_results.summary`), linking the lecture's results;
    ``ran``: whether this build ran the lecture (``MLPR_DOCS_GALLERY`` may name a few only)."""
    m = re.search(r"^\.\. rst-class:: sphx-glr-example-title\n\n.*?\n(.+)\n(=+)\n", source,
                  flags=re.M | re.S)
    if m is None:
        raise ValueError(f"lectures/{name}: no sphinx-gallery title in the page")
    mnist = full is None or full["mnist"]
    note = ["", ".. admonition:: Mode of this page: quick", "   :class: lecture-mode", "",
            "   The code below ran in **quick mode** (``--quick``) when this site was built: " + (
                "a deterministic MNIST subsample, whose references are printed, not enforced "
                "(the iris references are the same in both modes, and enforced). " if mnist else
                "this lecture has no MNIST part, and runs the same in both modes. ")
            + f"``make lecture L={name}`` runs it in full mode.", ""]
    if not ran:
        note[1:5] = [".. admonition:: Mode of this page: code only", "   :class: lecture-mode",
                     "", "   This build of the site did not run this lecture "
                     "(``MLPR_DOCS_GALLERY`` named others): its code only, with no output. "
                     f"``make docs`` runs it in quick mode; ``make lecture L={name}`` in full "
                     "mode."]
    if full is not None:
        c = full["counts"]
        when = ", ".join(x for x in (full["date"], f"commit ``{full['commit']}``" if
                                     full["commit"] else "", f"{full['seconds']:.0f} s" if
                                     full["seconds"] is not None else "") if x)
        note += [f"   The last **full run** ({when}): **{c['held']} references held, "
                 f"{c['missed']} missed, {c['gap']} documented gaps**"
                 + (f", {c['reported']} values reported" if c["reported"] else "")
                 + f". Every check: :doc:`/results/{name}`.", ""]
    else:
        note += ["   This lecture has no committed full run yet.", ""]
    return source[:m.end()] + "\n".join(note) + "\n" + source[m.end():]
