"""The examples of the grading guide (docs/grading/*.md) run as tests, and every mlpr name the
guide cites exists.

The guide's ```python blocks follow one rule, stated in the guide itself (the page of the course's
functions): the block under the heading "Setup" is run first, then each other block of every page
runs alone after it, in a fresh namespace. So every block is a self-contained grader's test given
the setup, and a failing block names itself (by its page and its heading there) without hiding
the others.
"""

import importlib
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "grading"
PAGES = sorted(GUIDE.glob("*.md"))
TEXTS = {page: page.read_text(encoding="utf-8") for page in PAGES}
TEXT = "\n".join(TEXTS.values())  # the whole guide, for what any of its pages may state

# a fenced block opens with ```python on its own line and closes with ``` on its own line
_BLOCK = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.DOTALL | re.MULTILINE)
# a heading of a page (its title included), outside the fenced blocks (any ``` ... ```), where a
# line starting with # is a comment
_FENCE = re.compile(r"^```.*?^```[ \t]*$", re.DOTALL | re.MULTILINE)
_HEADING = re.compile(r"^#{1,4} (.+)$", re.MULTILINE)


def _blocks():
    """Each python block of each page: its page, the heading of the section it sits in, its line
    number and its code."""
    out = []
    for page, text in TEXTS.items():
        prose = _FENCE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
        for m in _BLOCK.finditer(text):
            heads = [h.group(1) for h in _HEADING.finditer(prose, 0, m.start())]
            line = text.count("\n", 0, m.start()) + 2  # first line of code
            out.append((page, heads[-1] if heads else "top", line, m.group(1)))
    return out


BLOCKS = _blocks()
SETUPS = [b for b in BLOCKS if b[1] == "Setup"]
SETUP = SETUPS[0] if SETUPS else None
EXAMPLES = [b for b in BLOCKS if b is not SETUP]


def _run(block, namespace):
    page, heading, line, code = block
    # the leading newlines make a traceback's line numbers those of the page
    exec(compile("\n" * (line - 1) + code, str(page), "exec"), namespace)


def test_the_guide_has_a_setup_and_examples():
    assert len(SETUPS) == 1, "one block of the guide sits under the heading Setup"
    page = SETUP[0]
    assert page.name == "course_functions.md"
    first = next(b for b in BLOCKS if b[0] == page)
    assert first is SETUP, "the setup is the first block of its page"
    assert "the block of [Setup](#setup), below, runs first" in TEXTS[page]  # the rule, stated
    assert len(EXAMPLES) >= 15
    # the pages whose examples run after the setup say so
    for other in {b[0] for b in EXAMPLES} - {page}:
        assert "course_functions.md#setup" in TEXTS[other], other.name


@pytest.mark.parametrize("block", EXAMPLES,
                         ids=[f"{b[0].stem}-L{b[2]}-{b[1][:40]}" for b in EXAMPLES])
def test_example(block):
    namespace = {"__name__": "grading_guide"}
    state = np.random.get_state()  # noqa: NPY002 (the course's split seeds it)
    try:
        with warnings.catch_warnings():
            # a grader copies these blocks: they must run cleanly, without a warning from mlpr
            # (non-convergence, probabilities passed as llrs, ...) or from numpy
            warnings.simplefilter("error")
            _run(SETUP, namespace)
            _run(block, namespace)
    finally:
        np.random.set_state(state)  # noqa: NPY002


def test_every_example_asserts_something():
    for page, heading, line, code in EXAMPLES:
        checks = r"\bassert\b|assert_closed_form|assert_allclose|assert_array_equal"
        assert re.search(checks, code), f"{page.name}:{line} ({heading}) checks nothing"


# `module.name` or `module.Class.attribute` in backticks, for the modules of mlpr
_MODULES = ("utils", "datasets", "gaussian", "dimred", "generative", "neighbors", "logreg",
            "evaluation", "calibration", "plots", "svm", "gmm", "multiclass")
_REF = re.compile(r"`(?:mlpr\.)?(" + "|".join(_MODULES) + r")\.([A-Za-z_]\w*(?:\.\w+)?)")


def test_every_cited_name_exists():
    refs = sorted(set(_REF.findall(TEXT)))
    assert len(refs) >= 60, "the concordance cites the library's functions by module.name"
    missing = []
    for module, name in refs:
        try:
            obj = importlib.import_module(f"mlpr.{module}")
        except ImportError as exc:
            missing.append(f"mlpr.{module} ({exc})")
            continue
        for part in name.split("."):
            if not hasattr(obj, part):
                missing.append(f"{module}.{name}")
                break
            obj = getattr(obj, part)
    assert not missing, f"docs/grading/ cites names mlpr does not have: {sorted(set(missing))}"


def test_the_guide_states_the_conventions_that_differ():
    # the conventions a grader must know, each stated in the guide
    for phrase in ("strictly greater", "rows = predictions", "1/N", "return_threshold",
                   'method="rocch"', "fit_pca", "fit_lda", "up to sign", "rtol=1e-10",
                   "fmin_l_bfgs_b", "hash"):
        assert phrase in TEXT, phrase


def test_the_threat_models_table_is_the_isolations_table():
    """The threat model's table of the isolations (docs/grading/threat_model.md) is generated
    from mlpr.grading.isolations: one column per registered isolation, strongest first, as
    --isolation lists them."""
    from mlpr.grading import isolations, sandbox

    text = (GUIDE / "threat_model.md").read_text()
    begin = "<!-- generated from mlpr.grading.isolations.threat_model_table() -->\n"
    end = "<!-- end of the generated isolations -->"
    block = text[text.index(begin) + len(begin):text.index(end)]
    assert block == isolations.threat_model_table()
    assert sandbox.ISOLATIONS == tuple(isolations.TABLE) == ("bubblewrap", "user", "process")
    for i in isolations.TABLE.values():
        assert set(i.threat_model) == set(isolations.THREAT_MODEL_ROWS), i.name
