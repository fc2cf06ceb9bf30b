"""The documentation site (``make docs``, docs/conf.py): it builds with ``-W`` (a warning is an
error), its API reference has an entry for every public name of every chapter module, with a link
to the source of each function and class, its equations are typeset by a MathJax served from the
site itself (no CDN), and the guides are pages.

The build runs once, into a temporary folder, the way ``make docs`` runs it (``-j 1``; ``-E``: a
fresh environment, nothing read from an earlier build). The checks read the HTML it wrote with
the standard library's parser, independently of Sphinx's own inventory: an entry is an element
whose ``id`` is the name's full path, ``mlpr.<module>.<name>``.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

#: the chapter modules: mlpr's flat public modules (not ``mlpr/_*.py``, not the grading kit),
#: found on disk, so that a new module without an API page fails here
CHAPTERS = sorted(p.stem for p in (REPO / "mlpr").glob("*.py") if not p.stem.startswith("_"))

# one worker builds the site and runs every check (a build is about 10 s of a loaded 2-core
# machine's worker); make test-quick leaves it out
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("docs")]


class _Page(HTMLParser):
    """The ids, the scripts and stylesheets, and the math blocks of one HTML page; for each
    API entry (a ``<dt id=...>``), the links inside it."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.scripts: list[str] = []
        self.stylesheets: list[str] = []
        self.hrefs: list[str] = []
        self.entry_links: dict[str, list[str]] = {}
        self.math_blocks: list[str] = []
        self._entry: str | None = None
        self._math_depth = 0  # > 0 inside a <div class="math ...">
        self._math_text: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "script" and a.get("src"):
            self.scripts.append(a["src"])
        if tag == "link" and "stylesheet" in (a.get("rel") or "") and a.get("href"):
            self.stylesheets.append(a["href"])
        if tag == "dt" and a.get("id"):
            self._entry = a["id"]
            self.entry_links[self._entry] = []
        if tag == "a" and a.get("href"):
            self.hrefs.append(a["href"])
            if self._entry is not None:
                self.entry_links[self._entry].append(a["href"])
        if tag == "div":
            if self._math_depth:
                self._math_depth += 1
            elif "math" in (a.get("class") or "").split():
                self._math_depth, self._math_text = 1, []

    def handle_endtag(self, tag):
        if tag == "dt":
            self._entry = None
        if tag == "div" and self._math_depth:
            self._math_depth -= 1
            if not self._math_depth:
                self.math_blocks.append("".join(self._math_text))

    def handle_data(self, data):
        if self._math_depth:
            self._math_text.append(data)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("docs")
    html = out / "html"
    start = time.perf_counter()
    build = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-j", "1", "-E", "-b", "html",
         "-q", str(REPO / "docs"), str(html), "-d", str(out / "doctrees")],
        capture_output=True, text=True, cwd=REPO, timeout=600,
        env=dict(os.environ, MLPR_DOCS_GALLERY="0"))  # the lectures' gallery: make docs only
    seconds = time.perf_counter() - start
    assert build.returncode == 0 and "WARNING" not in build.stderr, (
        f"make docs fails (-W: every warning is an error), {seconds:.0f} s:\n{build.stderr}")
    return html


def _page(path: Path) -> _Page:
    assert path.is_file(), f"{path.name}: no such page of the site"
    return _Page(path.read_text(encoding="utf-8"))


def test_every_public_name_of_every_chapter_module_has_an_entry(site):
    assert {"gaussian", "evaluation", "plots", "utils"} <= set(CHAPTERS)
    missing, no_source, documented, public = [], [], 0, 0
    for name in CHAPTERS:
        module = importlib.import_module(f"mlpr.{name}")
        page = _page(site / "api" / f"{name}.html")
        for member in module.__all__:
            public += 1
            anchor = f"mlpr.{name}.{member}"
            if anchor not in page.ids:
                missing.append(anchor)
                continue
            documented += 1
            obj = getattr(module, member)
            # sphinx.ext.viewcode links every function and class to its code (constants have none)
            if callable(obj) and not any("_modules/mlpr/" in href
                                         for href in page.entry_links.get(anchor, [])):
                no_source.append(anchor)
    assert not missing, f"{len(missing)} of {public} public names have no API entry: {missing}"
    assert not no_source, f"API entries without a [source] link: {no_source}"
    assert documented == public


def test_the_api_index_links_every_chapter_module(site):
    hrefs = {href.split("#")[0] for href in _page(site / "api" / "index.html").hrefs}
    assert not {f"{name}.html" for name in CHAPTERS} - hrefs, sorted(hrefs)


def test_mathjax_is_served_by_the_site_itself(site):
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 20
    for path in pages:
        page = _page(path)
        remote = [u for u in page.scripts + page.stylesheets
                  if u.startswith(("http:", "https:", "//"))]
        assert not remote, f"{path.relative_to(site)} loads {remote} from the network"
    page = _page(site / "api" / "gaussian.html")
    mathjax = [u for u in page.scripts if "mathjax" in u.lower()]
    assert mathjax == ["../_static/mathjax/tex-chtml.js"], page.scripts
    assert (site / "_static" / "mathjax" / "tex-chtml.js").stat().st_size > 100_000
    # the fonts of MathJax's HTML output, which its script loads relative to itself
    assert list((site / "_static" / "mathjax" / "output" / "chtml" / "fonts").rglob("*.woff"))


def test_an_api_page_typesets_the_notes_equations(site):
    page = _page(site / "api" / "gaussian.html")
    # logpdf_GAU_ND's Notes: the notes' eq. (41), a ``.. math::`` block of the docstring
    eq41 = [m for m in page.math_blocks if r"\log \mathcal{N}(x \mid \mu, C)" in m]
    assert eq41 and r"\frac{D}{2} \log 2\pi" in eq41[0], page.math_blocks[:3]
    assert "mlpr.gaussian.logpdf_GAU_ND" in page.ids


def test_the_guides_are_pages(site):
    for guide, heading in [("grading/index.html", "Grading with mlpr"),
                           ("errata.html", "Errata of the notes"),
                           ("timings.html", "Lecture timings"),
                           ("datasets/index.html", "Datasets"),
                           ("datasets/mnist/README.html", "MNIST")]:
        text = (site / guide).read_text(encoding="utf-8")
        assert f"<h1>{heading}" in text, f"{guide}: no heading {heading!r}"
    index = (site / "index.html").read_text(encoding="utf-8")
    for href in ("api/index.html", "grading/index.html", "errata.html", "timings.html",
                 "datasets/index.html"):
        assert f'href="{href}' in index, f"index.html does not link to {href}"


def test_every_page_of_the_grading_guide_is_a_page_its_index_links(site):
    """docs/grading/ is the grading guide, one page per reader: every markdown file of it is a
    page of the site, and the guide's entry page links every other one."""
    names = sorted(p.stem for p in (REPO / "docs" / "grading").glob("*.md"))
    assert "index" in names and len(names) >= 7, names
    for name in names:
        path = site / "grading" / f"{name}.html"
        assert path.is_file(), f"docs/grading/{name}.md is no page of the site"
        assert "<h1>" in path.read_text(encoding="utf-8"), f"grading/{name}.html has no title"
    hrefs = {href.split("#")[0] for href in _page(site / "grading" / "index.html").hrefs}
    assert not {f"{name}.html" for name in names if name != "index"} - hrefs, sorted(hrefs)
