"""The lectures as a sphinx-gallery: one page per ``lectures/NN_topic/run.py``, run in quick mode.

docs/conf.py calls `stage` before the build: it copies each lecture's script into
``docs/_lectures/`` (git-ignored) in the form sphinx-gallery reads, changing only comments: the
docstring's first line becomes the page's title (an underlined heading), and the text after a
``# %%`` (the cell's title, which sphinx-gallery would drop) moves to the comment block below it,
where it is shown. sphinx-gallery runs each copy with `reset_argv`'s arguments (``--quick``, and
an output folder in the build), prints its output under each cell, and shows under each cell the
figures that cell wrote (`scrape_figures`: the lectures save and close their figures, so there is
no open figure for sphinx-gallery's matplotlib scraper to find). Each page links to the lecture as
a script and as a notebook, both made from the ``# %%`` cells.
"""

from __future__ import annotations

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
    that sphinx-gallery reruns only the lectures whose script changed)."""
    STAGE.mkdir(exist_ok=True)
    wanted = {"GALLERY_HEADER.rst": HEADER}
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
