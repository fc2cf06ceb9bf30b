"""Lecture READMEs state what the runs measured (lectures/_readme.py).

Every ``<!-- results: KEY -->`` block of a lecture README equals, cell for cell, the table KEY of
the full run recorded beside it (``lectures/NN_topic/full_run.json``, which ``lectures/_readme.py``
and ``make lectures`` write from a full run's results.json), and every other number of its prose
is a number of that run (at the README's rounding), a published reference, or a parameter of its
script; a paragraph about quick mode may also state a number of the lecture's quick run. A table
or a number typed or edited by hand, or left behind by a newer run, fails here."""

import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "lectures"))
import _readme  # noqa: E402

READMES = sorted(p.parent / "README.md" for p in (REPO / "lectures").glob("[0-9]*/run.py"))


def test_every_lecture_has_a_readme_and_its_full_run():
    assert len(READMES) == 9
    for readme in READMES:
        run = json.loads((readme.parent / _readme.SNAPSHOT).read_text())
        assert run["mode"] == "full" and run["lecture"] == readme.parent.name


@pytest.mark.parametrize("readme", READMES, ids=lambda p: p.parent.name)
def test_each_readme_table_is_the_full_runs(readme):
    snapshot = json.loads((readme.parent / _readme.SNAPSHOT).read_text())
    text = readme.read_text()
    for m in _readme.BLOCK.finditer(text):
        key, body = m.group(2), m.group(3)
        assert key in snapshot["tables"], f"{readme.parent.name}: no table {key} in the snapshot"
        assert body == _readme.render(snapshot["tables"][key]), (
            f"{readme.parent.name}: the README's table {key} differs from the full run of "
            f"{snapshot['date']} (run python lectures/_readme.py after a full run)")
    assert snapshot["blocks"] == _readme.keys(text)


@pytest.mark.parametrize("readme", READMES, ids=lambda p: p.parent.name)
def test_each_readme_number_is_the_full_runs(readme):
    """Every number of the prose is the full run's (or a reference, or a script parameter); the
    paragraphs about quick mode are read against a quick run in the next test."""
    name = readme.parent.name
    run = json.loads((readme.parent / _readme.SNAPSHOT).read_text())
    values = _readme.support(name, run)
    missing = [n for n in _readme.prose_numbers(readme.read_text())
               if not n["quick"] and not _readme.supported(n, values)]
    assert not missing, "\n".join(
        f"lectures/{name}/README.md:{n['line']}: {n['text']} is not a number of the full run of "
        f"{run['date']} (nor a reference or a parameter of the script)" for n in missing)


@pytest.mark.parametrize("name", [pytest.param(p.parent.name, marks=[
    pytest.mark.lectures(p.parent.name), pytest.mark.slow]) for p in READMES])
def test_each_readme_quick_paragraph_is_a_run(name, lecture_run):
    """A paragraph that speaks of quick mode states numbers of the full run or of a quick one."""
    quick = json.loads((lecture_run(name) / "results.json").read_text())
    full = json.loads((REPO / "lectures" / name / _readme.SNAPSHOT).read_text())
    missing = [n for n in _readme.audit(name, full, quick) if n["quick"]]
    assert not missing, "\n".join(
        f"lectures/{name}/README.md:{n['line']}: {n['text']} is in neither the full run nor "
        f"this quick run" for n in missing)


def test_the_number_audit_catches_a_stale_number_and_the_printed_rounding():
    """A number one unit off in its last digit fails; a value rounded from a printed, already
    rounded value (0.045048 printed 0.04505, then 0.0451) fails; the measured rounding holds."""
    values = [0.045048, 20557.0, 12.29, 9.7123e-17, 0.5294]
    text = ("A 20,557 and 12.29 and 0.045 and 0.0450 and 9.7e-17 and 52.94% and 52.9%.\n\n"
            "Stale: 20,558 and 12.28 and 0.0451 and 9.8e-17 and 52.95%.\n")
    found = _readme.prose_numbers(text)
    ok = [n["text"] for n in found if _readme.supported(n, values)]
    bad = [n["text"] for n in found if not _readme.supported(n, values)]
    assert ok == ["20,557", "12.29", "0.045", "0.0450", "9.7e-17", "52.94%", "52.9%"]
    assert bad == ["20,558", "12.28", "0.0451", "9.8e-17", "52.95%"]


def test_the_number_audit_skips_citations_code_and_small_counts():
    text = ("Eq. 128, eqs. 181-182, §7.3, section 7.2-7.4, lab 5, notes 7.4, `psi=0.001`, "
            "```\n99.9\n```\n3 folds and 7 pairs, and 12.5 here.\n")
    assert [n["text"] for n in _readme.prose_numbers(text)] == ["12.5"]
    assert _readme.prose_numbers("Timing 604 s.\n")[0]["value"] == 604.0
    assert [n["quick"] for n in _readme.prose_numbers("In quick mode 11.5.\n\nFull 12.5.\n")] \
        == [True, False]


def test_render_rewrite_and_refusals(tmp_path, monkeypatch):
    table = {"header": ["model", "error %", "n"], "rows": [["MVG", 3.6299999, 12],
                                                         ["a|b", float("nan"), 1e5]]}
    assert _readme.render(table) == ("| model | error % | n |\n|---|---|---|\n"
                                     "| MVG | 3.63 | 12 |\n| a\\|b | – | 1.000e+05 |\n")
    text = "x\n<!-- results: t -->\nold\n<!-- end results -->\ny\n"
    assert _readme.rewrite(text, {"t": table}) == (
        "x\n<!-- results: t -->\n" + _readme.render(table) + "<!-- end results -->\ny\n")
    with pytest.raises(KeyError, match="README block 'u': the run has no table of that name"):
        _readme.rewrite(text.replace("results: t", "results: u"), {"t": table})
    with pytest.raises(ValueError, match="from a full run, got a 'quick' one"):
        _readme.update("06_logistic_regression", {"mode": "quick", "tables": {}})
