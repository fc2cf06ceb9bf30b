"""The documentation site (``make docs``, docs/conf.py): it builds with ``-W`` (a warning is an
error), its API reference has an entry for every public name of every chapter module, with a link
to the source of each function and class, its equations are typeset by a MathJax served from the
site itself (no CDN), the guides are pages, the lectures' results are pages (from the committed
snapshots of their last full runs, or from a folder of runs: ``make report``), and each lecture
has a gallery page with a notebook that validates; one notebook runs in Jupyter (nbclient), and
the index, an API page, a gallery page and the results open in a real headless Chromium.

The build runs once, into a temporary folder, on a copy of the working tree (so that what the
build generates, the gallery's and the results' pages, never lands in the repository), with the
results of a folder of runs (the quick runs of two fast lectures, with their figures, and a
made-up full run of lecture 05 holding every kind of check) and the gallery running lecture 02
only (``MLPR_DOCS_GALLERY=02_``: the other lectures' pages show their code). The checks read the
HTML it wrote with the standard library's parser, independently of Sphinx's own inventory: an
entry is an element whose ``id`` is the name's full path, ``mlpr.<module>.<name>``.
"""

from __future__ import annotations

import importlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlparse

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]
LECTURES = sorted(p.parent.name for p in (REPO / "lectures").glob("[0-9][0-9]_*/run.py"))
#: the site shows the quick runs of these two lectures (tests/conftest.py: the second writes PDF
#: and SVG too), a made-up run of `SYNTHETIC`, and the others' committed full runs
FAST = ["04_density_estimation", "02_iris_exploration"]
SYNTHETIC = "05_generative_models"
GALLERY_RUN = "02_iris_exploration"  # the one lecture the test build's gallery runs

#: the chapter modules: mlpr's flat public modules (not ``mlpr/_*.py``, not the grading kit),
#: found on disk, so that a new module without an API page fails here
CHAPTERS = sorted(p.stem for p in (REPO / "mlpr").glob("*.py") if not p.stem.startswith("_"))

# one worker builds the site and runs every check (a build is about 25 s of a loaded 2-core
# machine's worker), on the worker of the fast lectures' quick runs (tests/conftest.py groups the
# tests that read a lecture); make test-quick leaves it out
pytestmark = [pytest.mark.slow, pytest.mark.lectures(*FAST)]


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


def synthetic_results() -> dict:
    """A full run of `SYNTHETIC` with one check of every status, a known gap, a failure and a
    table wider than the page."""
    return {
        "lecture": SYNTHETIC, "mode": "full", "mnist": "60,000 train, 10,000 test",
        "seconds": 42.5, "date": "2025-01-02T03:04:05+00:00", "commit": "abc1234",
        "machine": {"platform": "Linux-test", "machine": "x86_64", "cpus": 2,
                    "python": "3.11.0", "numpy": "2.0"},
        "checks": [
            {"what": "held one", "measured": 4.0, "reference": 4.0, "source": "course lab 5",
             "tol": 0, "abs_diff": 0.0, "ok": True, "status": "held"},
            {"what": "missed one", "measured": 9.0, "reference": 4.0, "source": "course slides",
             "tol": 0.1, "abs_diff": 5.0, "ok": False, "status": "missed"},
            {"what": "gap one", "measured": [[1.0, 2.0], [3.0, 4.0]],
             "reference": [[1.0, 2.0], [3.0, 5.0]], "source": "course slides", "tol": 0,
             "abs_diff": 1.0, "ok": False, "status": "gap"},
            {"what": "reported one", "measured": 0.123456789, "status": "reported"},
            {"what": "claim one", "claim": True, "holds": True, "source": "invariant",
             "ok": True, "status": "held"},
        ],
        "known_gaps": [{"what": "gap one", "why": "the slides used another split"}],
        "failures": ["missed one"],
        "tables": {"wide": {"title": "A table wider than the page",
                            "header": ["model"] + [f"column number {i}" for i in range(30)],
                            "rows": [["MVG"] + [0.1 * i for i in range(30)]]}},
        "figures": [], "figure_titles": {},
    }


@pytest.fixture(scope="module")
def runs(lecture_run, tmp_path_factory):
    """A folder of runs as ``make lectures`` leaves figures/: the fast lectures' quick runs
    (copies) and the made-up run of `SYNTHETIC`."""
    root = tmp_path_factory.mktemp("runs") / "figures"
    root.mkdir()
    for name in FAST:
        shutil.copytree(lecture_run(name), root / name)
    (root / SYNTHETIC).mkdir()
    (root / SYNTHETIC / "results.json").write_text(json.dumps(synthetic_results()))
    return root


def _copy_of_the_working_tree(dest: Path) -> Path:
    """The repository's files as they are now (tracked, and new ones git does not ignore)."""
    files = subprocess.run(["git", "ls-files", "-z", "-co", "--exclude-standard"], cwd=REPO,
                           capture_output=True, check=True).stdout.decode().split("\0")
    for rel in filter(None, files):
        src = REPO / rel
        if src.is_file():  # a tracked file deleted in the working tree is left out
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    return dest


@pytest.fixture(scope="module")
def site(runs, tmp_path_factory):
    out = tmp_path_factory.mktemp("docs")
    repo = _copy_of_the_working_tree(out / "repo")
    html = out / "html"
    start = time.perf_counter()
    build = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-j", "1", "-E", "-b", "html",
         "-q", str(repo / "docs"), str(html), "-d", str(out / "doctrees")],
        capture_output=True, text=True, cwd=repo, timeout=600,
        env=dict(os.environ, MLPR_DOCS_GALLERY=GALLERY_RUN[:3], MLPR_DOCS_RESULTS=str(runs),
                 MPLBACKEND="Agg", OPENBLAS_NUM_THREADS="1"))
    seconds = time.perf_counter() - start
    assert build.returncode == 0 and "WARNING" not in build.stderr, (
        f"make docs fails (-W: every warning is an error), {seconds:.0f} s:\n{build.stderr}")
    return html


def _text(path: Path) -> str:
    """A page's text as a reader sees it, whitespace collapsed (Sphinx's curly quotes as ')."""
    parser = HTMLParser(convert_charrefs=True)
    chunks: list[str] = []
    parser.handle_data = chunks.append
    parser.feed(path.read_text(encoding="utf-8"))
    return " ".join("".join(chunks).replace("\u2019", "'").replace("\u2018", "'").split())


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


# -- the lectures' results ------------------------------------------------------------------------
class _Rows(HTMLParser):
    """The rows of a page's tables: each a list of (cell text, hrefs in the cell)."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.rows: list[list[tuple[str, list[str]]]] = []
        self._cell: list[str] | None = None
        self._hrefs: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell, self._hrefs = [], []
        elif tag == "a" and self._cell is not None:
            self._hrefs.append(dict(attrs).get("href", ""))

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append((" ".join("".join(self._cell).split()), self._hrefs))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def _counts(results: dict) -> dict:
    """The statuses of a results file's checks, counted here, apart from the site's code."""
    statuses = [c["status"] for c in results["checks"]]
    return {s: statuses.count(s) for s in ("held", "missed", "gap", "differs", "reported")}


def _row(site: Path, name: str) -> dict:
    rows = _Rows((site / "results" / "index.html").read_text(encoding="utf-8")).rows
    header = [text for text, _ in rows[0]]
    found = [r for r in rows if r and any(f"{name}.html" in h for h in r[0][1])]
    assert len(found) == 1, f"results/index.html: {len(found)} rows link {name}.html"
    return dict(zip(header, (text for text, _ in found[0])))


def test_the_results_index_has_a_row_per_lecture_with_its_counts(site, runs):
    """One row per lecture, linking its page; the counts are those of the run the page shows:
    the folder of runs for the fast lectures and the made-up one, the committed snapshot of the
    last full run for the others (counted here from the JSON)."""
    for name in LECTURES:
        row = _row(site, name)
        source = runs / name / "results.json"
        if not source.exists():
            source = REPO / "lectures" / name / "full_run.json"
        results = json.loads(source.read_text())
        c = _counts(results)
        assert (row["held"], row["missed"], row["gaps"], row["not enforced"],
                row["reported"]) == tuple(str(c[k]) for k in ("held", "missed", "gap",
                                                              "differs", "reported")), name
        assert row["mode"] == results["mode"]
        assert row["status"] == ("ok" if not c["missed"] and not results.get("failures")
                                 else "failed"), name
        assert (site / "results" / f"{name}.html").is_file()
    row = _row(site, SYNTHETIC)
    assert (row["held"], row["missed"], row["gaps"], row["status"]) == ("2", "1", "1", "failed")
    assert "42.5 s" == row["run time"] and "2025-01-02 03:04 abc1234" == row["ran, commit"]
    # a committed full run: 06's is the slowest lecture, with documented gaps
    full = json.loads((REPO / "lectures" / "06_logistic_regression" / "full_run.json")
                      .read_text())
    assert _row(site, "06_logistic_regression")["mode"] == "full" and _counts(full)["gap"] > 0


def test_a_lecture_page_shows_every_check_its_tables_gaps_and_readme(site):
    """The made-up run: every status word with its class, a matrix one row a line, the known
    gap with its reason, the failure, the wide table, the references not checked, and the
    lecture's README, whose title is the page's."""
    text = (site / "results" / f"{SYNTHETIC}.html").read_text(encoding="utf-8")
    for cls, label in [("held", "reference held"), ("missed", "MISSED the reference"),
                       ("gap", "documented gap"), ("reported", "reported (no reference)")]:
        assert f'<span class="st-{cls}">{label}</span>' in text, cls
    assert re.search(r"\[1, 2\]<br\s*/?>\s*\[3, 4\]|\[1, 2\]</div>\s*<div[^>]*>\[3, 4\]", text)
    assert "the slides used another split" in text and "course slides" in text
    assert "A table wider than the page" in text and "column number 29" in text
    assert "not checked in this run" in text
    title = (REPO / "lectures" / SYNTHETIC / "README.md").read_text().splitlines()[0][2:]
    assert re.search(r"<h1>([^<]*)<", text).group(1).replace("\u2019", "'") == title
    assert "Linux-test, 2 CPUs, Python 3.11.0, numpy 2.0" in text


def test_a_page_from_a_folder_of_runs_shows_its_figures_and_their_other_formats(site, runs):
    name = FAST[1]
    results = json.loads((runs / name / "results.json").read_text())
    text = (site / "results" / f"{name}.html").read_text(encoding="utf-8")
    assert f"{name}/results.json" in text and "not recorded" in text  # made outside make lectures
    images = re.findall(r'<img [^>]*src="([^"]+)"', text)
    assert len(images) == len(results["figures"]) > 0
    for src in images:
        assert (site / "results" / src).is_file(), src
    for png in results["figures"]:
        for other in results["figure_other_formats"][png]:
            assert re.search(rf'href="[^"]*{re.escape(other)}"', text), other
    shown = _text(site / "results" / f"{name}.html")
    for c in results["checks"]:
        assert " ".join(c["what"].split()) in shown, c["what"]
    # a committed snapshot has no figures: its page links the gallery's instead
    text = (site / "results" / "06_logistic_regression.html").read_text(encoding="utf-8")
    assert "lectures/06_logistic_regression/full_run.json" in text
    assert 'href="../lectures/06_logistic_regression.html"' in text
    assert "<img" not in text.split("What the run reproduced")[1]


def _lecture_results():
    sys.path.insert(0, str(REPO / "docs"))
    import lecture_results

    return lecture_results


def test_check_status_is_the_one_the_lecture_wrote(runs):
    """The pages show the status each check of a results file carries, which the lecture
    decided when it ran: in the fast lectures' quick runs, every check within its tolerance of
    its reference is "held", every value without a reference "reported"; a check without a
    status (a results.json of an older lecture) is an error that says to run the lecture
    again."""
    check_status = _lecture_results().check_status
    for name in FAST:
        r = json.loads((runs / name / "results.json").read_text())
        assert r["checks"]
        for c in r["checks"]:
            if "reference" in c and not c.get("claim") and c["abs_diff"] <= (c.get("tol") or 0):
                assert check_status(c, r) == "held", c
            elif "reference" not in c and not c.get("claim"):
                assert check_status(c, r) == "reported", c
    r = synthetic_results()
    assert [check_status(c, r) for c in r["checks"]] == ["held", "missed", "gap", "reported",
                                                          "held"]
    old = {k: v for k, v in r["checks"][0].items() if k != "status"}
    with pytest.raises(ValueError, match=r"'held one' of 05_generative_models's results "
                                         r"has no status: .*make lecture L=05_generative_models"):
        check_status(old, r)


def test_a_page_says_when_the_lecture_ran_and_whether_its_inputs_changed(site, runs, tmp_path):
    """A lecture's page says when it ran, and whether its inputs (lectures/_inputs.py) changed
    since: the quick runs, made outside make lectures, recorded none; a recorded run is
    current, then changed when one input's hash differs."""
    import _inputs

    freshness = _lecture_results().freshness
    name = FAST[1]
    date = json.loads((runs / name / "results.json").read_text())["date"]
    text = (site / "results" / f"{name}.html").read_text(encoding="utf-8")
    assert date in _text(site / "results" / f"{name}.html")
    assert "not recorded (no record of the inputs of this run)" in text
    out = tmp_path / name
    shutil.copytree(runs / name, out)
    sources = _inputs.Sources(REPO)
    inputs = sources.inputs(name)
    _inputs.record(out, name, ["--quick", "--format", "png,pdf,svg"], inputs)
    assert freshness(name, out, sources) == {"state": "current", "why": ""}
    key = f"lectures/{name}/run.py"
    _inputs.record(out, name, ["--quick", "--format", "png,pdf,svg"],
                   dict(inputs, **{key: "0" * 64}))
    assert freshness(name, out, sources) == {"state": "changed", "why": f"changed: {key}"}


# -- the lectures' gallery and notebooks ----------------------------------------------------------
def test_a_gallery_page_says_its_mode_and_what_the_last_full_run_reproduced(site):
    name = GALLERY_RUN
    text = (site / "lectures" / f"{name}.html").read_text(encoding="utf-8")
    assert "Mode of this page: quick" in text and "sphx-glr-script-out" in text
    c = _counts(json.loads((REPO / "lectures" / name / "full_run.json").read_text()))
    assert (f"{c['held']} references held, {c['missed']} missed, {c['gap']} documented gaps"
            in text)
    assert f'href="../results/{name}.html' in text
    figures = re.findall(r'<img [^>]*src="([^"]+sphx_glr_[^"]+\.png)"', text)
    assert figures and all((site / "lectures" / src).is_file() for src in figures)
    downloads = re.findall(r'href="(\.\./_downloads/[^"]+)"', text)
    assert {Path(d).suffix for d in downloads} >= {".ipynb", ".py"}, downloads
    other = (site / "lectures" / "03_dimensionality_reduction.html").read_text(encoding="utf-8")
    assert "Mode of this page: code only" in other and "sphx-glr-script-out" not in other


def _notebook(site: Path, name: str) -> Path:
    found = sorted(site.glob(f"_downloads/*/{name}.ipynb"))
    assert len(found) == 1, f"{name}.ipynb: {found}"
    return found[0]


def test_every_lecture_has_a_notebook_that_validates_and_holds_its_code(site):
    """Each lecture's notebook is valid nbformat; its first cell sets the lecture's command line
    (quick mode), and its other code cells are the script's code, statement for statement (the
    syntax trees are equal, comments and the docstring aside)."""
    import ast

    import nbformat

    for name in LECTURES:
        nb = nbformat.read(_notebook(site, name), as_version=4)
        nbformat.validate(nb)
        code = [c.source for c in nb.cells if c.cell_type == "code"]
        assert 'sys.argv = ["run.py", "--quick"]' in code[0], code[0]
        script = ast.parse((REPO / "lectures" / name / "run.py").read_text())
        script.body = script.body[1:]  # the docstring: the notebook's first markdown cell
        cells = ast.parse("\n".join(code[1:]))
        assert ast.dump(cells) == ast.dump(script), name
        assert sum(c.cell_type == "markdown" for c in nb.cells) >= 2


def test_a_lecture_notebook_runs_top_to_bottom_in_jupyter(site, tmp_path, monkeypatch):
    """Lecture 02's notebook, run by nbclient in a Python kernel, in quick mode (the first cell's
    command line, its output folder moved into the test's), ends with no error and prints the
    lecture's results."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(_notebook(site, GALLERY_RUN), as_version=4)
    first = next(c for c in nb.cells if c.cell_type == "code")
    first.source = first.source.replace('"--quick"]', f'"--quick", "--out", "{tmp_path}"]')
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    printed = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    assert f"# {GALLERY_RUN} (quick mode" in printed
    results = json.loads((tmp_path / "results.json").read_text())
    assert results["mode"] == "quick" and not _counts(results)["missed"]


# -- in the browser -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def browser():
    sys.path.insert(0, str(REPO))
    from report.browser import CANDIDATES, Chromium, find_chromium

    if find_chromium() is None:
        msg = (f"no Chromium to open the site in (looked for $MLPR_CHROMIUM and "
               f"{', '.join(CANDIDATES)}); apt-get install chromium-headless-shell")
        if os.environ.get("CI") == "true":
            pytest.fail(msg + " (CI must run the browser tests: .ci/run installs it)")
        pytest.skip(msg)
    with Chromium() as b:
        yield b


def _not_blank(png: bytes) -> bool:
    from PIL import Image

    img = np.asarray(Image.open(io.BytesIO(png)).convert("L"), dtype=float)
    return img.std() > 10 and (img < 200).mean() > 0.01


@pytest.mark.parametrize("page, math, images", [
    ("index.html", False, False), ("api/gaussian.html", True, False),
    (f"lectures/{GALLERY_RUN}.html", False, True), ("results/index.html", False, False),
    (f"results/{GALLERY_RUN}.html", False, True), (f"results/{SYNTHETIC}.html", False, False)])
def test_a_page_in_chromium(site, browser, page, math, images):
    """In a real browser: no console error and no failed load, MathJax typesets the API page's
    equations (its output elements are in the DOM), every image loads, the page is not blank,
    does not scroll sideways on a laptop, and every link within the site resolves."""
    from report.browser import MATHJAX_DONE

    shown = browser.load(site / page, width=1280, height=900, wait=MATHJAX_DONE)
    assert shown.errors == [], shown.errors
    assert shown.title and shown.text_length > 200 and _not_blank(shown.screenshot)
    if math:
        assert shown.waited is True and shown.math >= 10, (shown.waited, shown.math)
    if images:
        assert shown.images
    for img in shown.images:
        assert img["complete"] and img["width"] > 0, img
    assert shown.scroll_width <= shown.inner_width, (shown.scroll_width, shown.inner_width)
    for href in shown.links:
        url = urlparse(href)
        if url.scheme == "file":
            target = Path(unquote(url.path))
            assert target.exists(), f"{page}: broken link {href}"


# -- the reference's own pages: the model protocol and the solver= switch ------------------------
def _public():
    """(module name, name, object) of every public name of the chapter modules."""
    for name in CHAPTERS:
        module = importlib.import_module(f"mlpr.{name}")
        for member in module.__all__:
            yield name, member, getattr(module, member)


def test_the_model_protocol_page_names_every_model_and_what_trains_it(site):
    """Every public class with ``scores`` has a row of docs/model_protocol.md, the functions
    the row says train it return it (their annotations), and the methods it lists exist."""
    import inspect

    text = (REPO / "docs" / "model_protocol.md").read_text(encoding="utf-8")
    rows = {m.group(1): m.group(0) for m in re.finditer(r"^\| `mlpr\.(\w+\.\w+)` \|.*$", text,
                                                        flags=re.M)}
    models = {f"{mod}.{n}": obj for mod, n, obj in _public()
              if inspect.isclass(obj) and hasattr(obj, "scores")}
    assert len(models) >= 15 and sorted(rows) == sorted(models), set(rows) ^ set(models)
    for key, row in rows.items():
        mod, cls = key.split(".")
        cells = row.split(" | ")
        for trainer in re.findall(r"`(\w+)`", cells[1]):
            fn = getattr(importlib.import_module(f"mlpr.{mod}"), trainer)
            assert inspect.signature(fn).return_annotation in (cls, models[key]), (key, trainer)
        for method in re.findall(r"`(\w+)\(", cells[3]):
            assert callable(getattr(models[key], method, None)), (key, method)
    assert (site / "model_protocol.html").is_file()


def test_the_solver_page_names_every_function_with_a_solver_switch(site):
    """Every public function or method with a ``solver`` parameter is on docs/solvers.md, every
    model that records the solver that ran (a ``solver`` field) is named where it records it,
    and every module the table names exists."""
    import dataclasses
    import inspect

    text = (REPO / "docs" / "solvers.md").read_text(encoding="utf-8")
    table = "\n".join(line.split(" | ")[0] for line in text.splitlines()
                      if line.startswith("| `mlpr."))
    named = set(re.findall(r"`(?:mlpr\.\w+\.)?(\w+(?:\.\w+)?)`", table))
    with_solver, records = set(), set()
    for _, member, obj in _public():
        targets = [(member, obj)]
        if dataclasses.is_dataclass(obj) and "solver" in {f.name for f in
                                                          dataclasses.fields(obj)}:
            records.add(member)  # its solver is a record of the one that ran, not a switch
            targets = []
        if inspect.isclass(obj):
            targets += [(f"{member}.{k}", v) for k, v in vars(obj).items()
                        if callable(v) and not k.startswith("_")]
        for label, fn in targets:
            try:
                if "solver" in inspect.signature(fn).parameters:
                    with_solver.add(label)
            except (TypeError, ValueError):
                continue
    assert len(with_solver) >= 15
    missing = {f for f in with_solver
               if f not in named and f.split(".")[0] not in named}  # PCA: the class itself
    assert not missing, f"docs/solvers.md does not list {sorted(missing)}"
    assert len(records) >= 4
    assert not [r for r in records if f"`{r}.solver`" not in text], records
    for module_name in re.findall(r"`mlpr\.(\w+)\.", table):
        assert module_name in CHAPTERS
    assert (site / "solvers.html").is_file()


# -- the entries' links to the notes --------------------------------------------------------------
def _notes_citations():
    sys.path.insert(0, str(REPO / "docs"))
    import notes_citations

    return notes_citations


def test_what_a_docstring_cites_is_read_with_its_document():
    """Read by hand from the docstrings: logpdf_GAU_ND cites eqs. (40)-(41) and section 4.4 of
    the main notes; one versus the rest note 003's section 6.2.2 and the main notes' 8.5 ("section
    8.5 of the MLPR notes": the document named after the number); Fisher's criterion eq. 6.5 of
    note 003 ("the short notes 003 (eq. 6.5)") and the main notes' eqs. (4)-(6)."""
    nc = _notes_citations()
    from mlpr.dimred import fisher_criterion
    from mlpr.gaussian import logpdf_GAU_ND
    from mlpr.multiclass import OneVsRest

    def of(obj):
        import inspect

        return {(c.document, c.kind, c.number) for c in nc.cited(inspect.getdoc(obj))}

    assert {("002", "eq", "41"), ("002", "eq", "40"), ("002", "section", "4.4")} <= of(
        logpdf_GAU_ND)
    assert {("003", "section", "6.2.2"), ("002", "section", "8.5")} <= of(OneVsRest)
    assert {("003", "eq", "6.5"), ("002", "eq", "4"), ("002", "eq", "6")} <= of(fisher_criterion)
    assert {(c.document, c.number) for c in nc.cited("eqs. (100)-(102) and eq. (104)/(105)")} \
        == {("002", n) for n in ("100", "101", "102", "104", "105")}
    assert nc.cited("Notes 003, section 6.2.1: the distance") == [nc.Citation("003", "section",
                                                                             "6.2.1")]


def test_every_section_and_equation_cited_is_one_of_the_notes():
    """A docstring cites by number what the notes number: every section and equation a public
    name cites exists in its document (docs/notes_sections.json, read from the notes: the main
    notes' equations (1)-(203) all found), so that a mistyped number fails here."""
    nc = _notes_citations()
    assert set(nc.SECTIONS["002"]["equations"]) == {str(k) for k in range(1, 204)}
    assert nc.SECTIONS["002"]["sections"]["4.4"] == "Gaussian distribution"
    citing = nc.public_citations([f"mlpr.{name}" for name in CHAPTERS])
    assert len(citing) >= 120, len(citing)
    wrong = []
    for name, citations in citing.items():
        for c in citations:
            numbered = nc.SECTIONS.get(c.document, {}).get(
                "sections" if c.kind == "section" else "equations")
            if numbered and c.number not in numbered:
                wrong.append(f"{name}: {c.label} of {nc.DOCUMENTS[c.document]}")
    assert not wrong, wrong


def test_notes_map_reads_numbered_headings_and_equations(tmp_path):
    sys.path.insert(0, str(REPO / "docs"))
    import notes_map

    (tmp_path / "n.txt").write_text("# Title\n## 4 Density\n## 4.4 Gaussian distribution\n"
                                    "$$ x = y $$\n(41)\n$$ a \\tag{42} $$\nsome text $z$  (43)\n"
                                    "### 4.5.1 Frequentist approach\n(44)\n", encoding="utf-8")
    got = notes_map.read(tmp_path / "n.txt")
    assert got["sections"] == {"4": "Density", "4.4": "Gaussian distribution",
                               "4.5.1": "Frequentist approach"}
    assert got["equations"] == {"41": "4.4", "42": "4.4", "43": "4.4", "44": "4.5.1"}


def test_each_entry_links_what_it_cites_to_the_notes_page(site):
    """Every public name that cites the notes has its links to the notes page, and every link
    lands on an anchor of that page, which lists the name back."""
    nc = _notes_citations()
    notes = _page(site / "api" / "notes.html")
    notes_text = (site / "api" / "notes.html").read_text(encoding="utf-8")
    citing = nc.public_citations([f"mlpr.{name}" for name in CHAPTERS])
    slices = {}  # an entry's HTML: from its <dt id=...> to the next entry's
    for module in CHAPTERS:
        text = (site / "api" / f"{module}.html").read_text(encoding="utf-8")
        marks = list(re.finditer(r'<dt [^>]*\bid="(mlpr\.[^"]+)"', text))
        for m, nxt in zip(marks, marks[1:] + [None]):
            slices[m.group(1)] = text[m.end():nxt.start() if nxt else len(text)]
    for full, citations in citing.items():
        links = set(re.findall(r'href="notes\.html#([^"]+)"', slices[full]))
        assert links == {c.anchor for c in citations}, full
        assert links <= notes.ids, (full, links - notes.ids)
        assert f"#{full}" in notes_text, f"api/notes.html does not list {full}"
