"""Every lecture script runs in --quick mode, writes its figures and results.json."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
LECTURES = sorted(p.parent.name for p in (REPO / "lectures").glob("[0-9][0-9]_*/run.py"))


def test_there_are_lectures():
    assert "02_iris_exploration" in LECTURES


@pytest.mark.parametrize("name", LECTURES)
def test_lecture_quick(name, tmp_path):
    env = dict(os.environ, MPLBACKEND="Agg")
    proc = subprocess.run(
        [sys.executable, str(REPO / "lectures" / name / "run.py"), "--quick", "--out",
         str(tmp_path)],
        capture_output=True, text=True, env=env, timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    results = json.loads((tmp_path / "results.json").read_text())
    assert results["lecture"] == name and results["mode"] == "quick"
    assert results["figures"], "a lecture writes at least one figure"
    for fig in results["figures"]:
        assert (tmp_path / fig).stat().st_size > 1000
    assert (REPO / "lectures" / name / "README.md").exists()


def test_lecture_cli_rejects_unknown_option(tmp_path):
    proc = subprocess.run(
        [sys.executable, str(REPO / "lectures" / "02_iris_exploration" / "run.py"), "--bogus"],
        capture_output=True, text=True,
    )
    assert proc.returncode == 2 and "unrecognized arguments" in proc.stderr
