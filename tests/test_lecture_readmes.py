"""Lecture READMEs' tables are the runs' tables: every ``<!-- results: KEY -->`` block of a
lecture README equals, cell for cell, the table KEY of the full run recorded beside it
(``lectures/NN_topic/full_tables.json``, which ``lectures/_readme.py`` and ``make lectures`` write
from a full run's results.json). A table edited by hand, or a README left behind by a newer run,
fails here."""

import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "lectures"))
import _readme  # noqa: E402

READMES = sorted(p for p in (REPO / "lectures").glob("*/README.md")
                 if _readme.keys(p.read_text()))


def test_some_readmes_take_their_tables_from_the_runs():
    assert {p.parent.name for p in READMES} >= {"06_logistic_regression"}


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
    assert set(snapshot["tables"]) == set(_readme.keys(text))


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
