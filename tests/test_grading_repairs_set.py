"""The repairs set (tests/grading_submissions/repairs/): single-mistake variants of another
student's solution, ``base.py``, written apart from the kit's mutation search, that
``benchmarks/bench_mistakes.py --set repairs`` grades. Each variant differs from the base in one
place marked ``# MISTAKE:``, ``index.json`` describes every file, the three categories are
balanced, every function named is the base's; and (slow) the base passes every task of every lab
through the kit's command line."""

import ast
import difflib
import importlib.util
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from mlpr import grading

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "tests" / "grading_submissions" / "repairs"
BASE = FOLDER / "base.py"
INDEX = json.loads((FOLDER / "index.json").read_text())["variants"]
VARIANTS = sorted(p.name for p in FOLDER.glob("[0-9][0-9]_*.py"))
CATEGORIES = {"structural", "formula", "protocol"}


def _bench():
    """benchmarks/bench_mistakes.py as a module (its assemble and changed_lines)."""
    path = REPO / "benchmarks" / "bench_mistakes.py"
    spec = importlib.util.spec_from_file_location("bench_mistakes", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BENCH = _bench()


def _functions(text: str) -> set:
    return {n.name for n in ast.parse(text).body if isinstance(n, ast.FunctionDef)}


@pytest.mark.parametrize("name", VARIANTS)
def test_each_variant_differs_from_the_base_in_one_place_marked_mistake(name):
    """Assembled onto base.py (the bench's way), the variant differs from it in exactly one
    hunk, that hunk holds a ``# MISTAKE:`` line, and the file marks nothing else."""
    base = BASE.read_text()
    text = (FOLDER / name).read_text()
    assert _functions(text) <= _functions(base), _functions(text) - _functions(base)
    assembled = BENCH.assemble(FOLDER / name, base)
    lines = assembled.splitlines()
    hunks = [op for op in difflib.SequenceMatcher(None, base.splitlines(), lines,
                                                  autojunk=False).get_opcodes()
             if op[0] != "equal"]
    assert len(hunks) == 1, hunks
    _, _, _, j1, j2 = hunks[0]
    assert any("# MISTAKE:" in s for s in lines[j1:j2])
    assert sum("# MISTAKE:" in s for s in lines) == sum("# MISTAKE:" in s for s in lines[j1:j2])
    assert BENCH.one_place(assembled, base.splitlines())
    changed = BENCH.changed_lines(assembled, base.splitlines())
    assert changed and all(j1 < n <= j2 + 1 or n == j1 for n in changed), changed


def test_the_index_lists_every_variant_once_with_every_field():
    files = [v["file"] for v in INDEX]
    assert len(files) == len(set(files))
    assert sorted(files) == VARIANTS
    assert len(VARIANTS) >= 60
    tasks = grading.tasks()
    for v in INDEX:
        assert {"file", "functions", "lab", "category", "cause", "fails", "primary", "labs",
                "expect", "wrong_if"} <= set(v), v["file"]
        assert v["category"] in CATEGORIES, v["file"]
        assert v["cause"] and v["expect"], v["file"]
        assert set(v["primary"]) <= set(v["fails"]) <= set(tasks), v["file"]
        assert v["primary"], v["file"]
        assert v["labs"] == sorted({tasks[t].lab for t in v["fails"]}), v["file"]
        assert v["lab"] in v["labs"], v["file"]


def test_the_categories_are_balanced_and_every_graded_lab_has_variants():
    counts = Counter(v["category"] for v in INDEX)
    assert set(counts) == CATEGORIES
    for category, n in counts.items():
        assert n >= 0.3 * len(INDEX), (category, n, len(INDEX))
    labs = {t.lab for t in grading.tasks().values()}
    assert labs <= {v["lab"] for v in INDEX}, labs - {v["lab"] for v in INDEX}


def test_every_function_named_is_the_bases_and_is_the_one_changed():
    base = _functions(BASE.read_text())
    for v in INDEX:
        assert v["functions"] and set(v["functions"]) <= base, v["file"]
        assert set(v["functions"]) == _functions((FOLDER / v["file"]).read_text()), v["file"]


@pytest.mark.slow
def test_the_base_passes_every_task_of_every_lab_through_the_kit(tmp_path):
    """One seed, the command line in its sandbox: every task of the kit is graded (the base
    defines every course function) and passes."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    out = tmp_path / "report.json"
    proc = subprocess.run([sys.executable, "-m", "mlpr.grading", "--seed", "0", "--format",
                           "json", "--out", str(out), "--jobs", "1", str(BASE)], cwd=REPO,
                          capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    (report,) = json.loads(out.read_text())
    results = {r["name"]: r for r in report["results"]}
    assert set(results) == set(grading.tasks())
    failed = {n: (r["status"], r.get("message"), r.get("hint")) for n, r in results.items()
              if r["status"] != "passed"}
    assert not failed, failed
