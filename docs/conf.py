"""Sphinx configuration of mlpr's documentation site (``make docs``: docs/_build/html).

The API reference is the chapter modules' numpydoc docstrings (one page per module, every name of
its ``__all__``, the notes' equations typeset by MathJax, a link to the source of each); the
guides are the markdown files of docs/ and datasets/README.md, read by myst-parser. The site
builds offline: sphinx-mathjax-offline copies MathJax into ``_static/mathjax`` and points
``mathjax_path`` at it, so no page loads a CDN. ``make docs`` builds with ``-W``: a warning is an
error.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import os
import re
import sys
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # mlpr from this clone, installed or not

import mlpr  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import lecture_gallery  # noqa: E402
import lecture_results  # noqa: E402
import notes_citations  # noqa: E402

project = "mlpr"
author = "mlpr's authors"
copyright = "mlpr's authors, MIT licence"
version = release = mlpr.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_parser",
    # after sphinx.ext.mathjax: sets mathjax_path to its own copy, served from _static/mathjax
    "sphinx-mathjax-offline",
]

# The lectures' gallery runs every lecture in quick mode (minutes): MLPR_DOCS_GALLERY=0 builds the
# site without it (the ``.. with-gallery::`` blocks of the pages drop out); any other value but 1
# is a regular expression of the lectures to run (tests/test_docs.py: ``02_``): the others' pages
# show their code only, and their notebooks are made all the same
_GALLERY = os.environ.get("MLPR_DOCS_GALLERY", "1")
GALLERY = _GALLERY != "0"
if GALLERY:
    extensions.append("sphinx_gallery.gen_gallery")
    sphinx_gallery_conf = {
        "examples_dirs": [str(lecture_gallery.stage())],
        "gallery_dirs": ["lectures"],
        # every lecture is run, not only plot_*.py (or those the regular expression names)
        "filename_pattern": r".*\.py$" if _GALLERY == "1" else _GALLERY,
        "within_subsection_order": "FileNameSortKey",  # in the chapters' order
        "reset_argv": "lecture_gallery.reset_argv",
        "image_scrapers": ("lecture_gallery.scrape_figures",),
        "abort_on_example_error": True,
        "download_all_examples": False,
        "show_memory": False,
        "min_reported_time": 1e9,  # run times vary with the machine's load: no page states one
        # nor a page of them (sg_execution_times.html would load jQuery from a CDN)
        "write_computation_times": False,
        # the notebooks' first cell: the lecture's command line (a notebook has none of its own)
        "first_notebook_cell": lecture_gallery.FIRST_NOTEBOOK_CELL,
    }

# The lectures' results (docs/results/, lecture_results.py): each lecture's committed snapshot of
# its last full run; MLPR_DOCS_RESULTS=DIR (make report: figures/) shows the runs in DIR instead
# the lectures with a page in the gallery, and those of them that this build runs
GALLERY_PAGES = {p.stem for p in lecture_gallery.STAGE.glob("*.py")} if GALLERY else set()
GALLERY_LECTURES = {n for n in GALLERY_PAGES if _GALLERY == "1" or re.search(_GALLERY, n + ".py")}
lecture_results.write(os.environ.get("MLPR_DOCS_RESULTS") or None, gallery=GALLERY_PAGES)

# The notes page (api/notes.rst, git-ignored): every section and equation the public names cite,
# with the names citing each; every API entry ends with its links to it (`cite_the_notes`)
CHAPTER_MODULES = sorted(f"mlpr.{p.stem}" for p in (REPO / "mlpr").glob("*.py")
                         if not p.stem.startswith("_"))
CITATIONS = notes_citations.public_citations(CHAPTER_MODULES)
_notes = Path(__file__).resolve().parent / "api" / "notes.rst"
_text = notes_citations.notes_page(CITATIONS)
if not _notes.exists() or _notes.read_text(encoding="utf-8") != _text:
    _notes.write_text(_text, encoding="utf-8")

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
# sg_execution_times: the page of run times an older sphinx-gallery setting wrote (it loads a CDN)
exclude_patterns = ["_build", "_lectures", "Thumbs.db", ".DS_Store", "sg_execution_times.rst",
                    "lectures/sg_execution_times.rst"]
if not GALLERY:  # what an earlier build's gallery left
    exclude_patterns += ["lectures"]
# `name` in a docstring is a cross-reference to that object when it exists, as in numpy's docs
default_role = "py:obj"

# autodoc: every name of a module's __all__, in __all__'s order (the chapter's order), with the
# default values of the signatures as the source writes them
autodoc_default_options = {"members": True, "member-order": "bysource"}
autodoc_typehints = "none"  # the numpydoc Parameters section gives types and shapes
autodoc_preserve_defaults = True

# numpydoc: the classes' methods are documented in place (autodoc's members), not as a second
# autosummary table per class (which would list each method twice)
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

# myst: the guides are GitHub markdown; their headings get the anchors GitHub gives them, so that
# `page.md#heading` links resolve within and between pages (a link to a file of the repository
# that is no page becomes a download of that file; to a folder, see RepositoryFolderLinks)
myst_heading_anchors = 4

html_theme = "pydata_sphinx_theme"
html_title = f"mlpr {release}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc", "sourcelink"],
}
# the reader's light or dark preference (unset, the theme's script logs a console error)
html_context = {"default_mode": "auto"}
html_static_path = ["_static"]
html_css_files = ["mlpr.css"]  # the results' status colours, the tables' widths
html_show_sourcelink = True


class RepositoryFolderLinks(SphinxPostTransform):
    """A guide's link to a folder of the repository (``../lectures/05_generative_models``, in
    timings.md) has no page of the site to go to: its text stays, unlinked.

    myst-parser already turns a link to a repository file into a download; only links to folders
    are left, and only those are taken here: any other link that resolves to nothing is still a
    warning (``myst.xref_missing``), so an error under ``-W``.
    """

    default_priority = 8  # before myst-parser's resolver of its links (9)

    def run(self, **kwargs) -> None:
        for node in list(self.document.findall(addnodes.pending_xref)):
            if node.get("reftype") != "myst" or node.get("refdomain") == "doc":
                continue
            target = node["reftarget"].split("#", 1)[0]
            if not target or "://" in target:
                continue
            folder = Path(self.env.doc2path(node.get("refdoc", self.env.docname))).parent
            path = (folder / target).resolve()
            if path.is_dir() and REPO in path.parents:
                node.replace_self(node.children)


class ChapterAPI(SphinxDirective):
    """``.. chapter-api:: mlpr.gaussian``: a summary table of every name of the module's
    ``__all__`` (its docstring's first line), then each one's entry, in ``__all__``'s order.

    The list comes from ``__all__`` itself, so a name added to a module gets its entry with no
    edit here; the module's docstring (the chapter's introduction, whose own headings would
    otherwise hold the entries) stays above, from ``.. automodule:: ... :no-members:``.
    """

    required_arguments = 1

    def run(self):
        modname = self.arguments[0]
        module = importlib.import_module(modname)
        self.env.note_dependency(module.__file__)  # an edited __all__ rewrites the page
        names = list(module.__all__)
        lines = ["Summary", "-------", "", f".. currentmodule:: {modname}", "",
                 ".. autosummary::", ""]
        lines += [f"   {name}" for name in names]
        lines += ["", "Entries", "-------", ""]
        for name in names:
            obj = getattr(module, name)
            if inspect.isclass(obj):
                kind = "autoexception" if issubclass(obj, BaseException) else "autoclass"
            else:
                kind = "autofunction" if callable(obj) else "autodata"
            lines += [f".. {kind}:: {modname}.{name}", ""]
        source = self.get_source_info()[0]
        self.state_machine.insert_input(StringList(lines, source=source), source)
        return []


class WithGallery(SphinxDirective):
    """``.. with-gallery::``: its content, in a build with the lectures' gallery; nothing in one
    without (``MLPR_DOCS_GALLERY=0``)."""

    has_content = True

    def run(self):
        if GALLERY:
            self.state_machine.insert_input(self.content, self.get_source_info()[0])
        return []


def state_the_mode(app, docname, source) -> None:
    """A gallery page says, under its title, that it shows a quick-mode run, and what the
    lecture's last full run reproduced (its committed ``full_run.json``), with a link to the
    results page; the notebook and the script the page offers are left as the lecture is."""
    if not docname.startswith("lectures/") or docname in ("lectures/index",
                                                          "lectures/sg_execution_times"):
        return
    name = docname.split("/", 1)[1]
    source[0] = lecture_gallery.with_mode_note(source[0], name, lecture_results.summary(name),
                                               ran=name in GALLERY_LECTURES)


def _class_role(cls: str):
    """A role that shows its text in a span of class ``cls`` (the results' status words)."""
    def role(name, rawtext, text, lineno, inliner, options=None, content=None):
        return [nodes.inline(rawtext, text, classes=[cls])], []
    return role


def cite_the_notes(app, what, name, obj, options, lines) -> None:
    """A public name's API entry ends with what it cites of the notes, linked to the notes
    page (after numpydoc has turned the docstring into reST: a higher priority number)."""
    if name in CITATIONS:
        lines.extend(notes_citations.entry_lines(CITATIONS[name]))


def setup(app):
    app.connect("source-read", state_the_mode)
    app.connect("autodoc-process-docstring", cite_the_notes, priority=600)
    for role in lecture_results.ROLES:
        app.add_role(role, _class_role(role))
    app.add_directive("with-gallery", WithGallery)
    app.add_post_transform(RepositoryFolderLinks)
    app.add_directive("chapter-api", ChapterAPI)
    # Sphinx rereads every page when a setting changes, but not when this file's code does (the
    # directive above, the transform): the file's digest is a setting of its own
    app.add_config_value("mlpr_conf_digest", "", "env", types=(str,))
    app.config.mlpr_conf_digest = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()
    return {"parallel_read_safe": True, "parallel_write_safe": True}
