"""The held-out set (tests/grading_submissions/heldout/): single-mistake variants of
``course_style.py``, written after the kit's repair search and apart from it, that
``benchmarks/bench_mistakes.py --set heldout`` grades. Each variant differs from
``course_style.py`` in one place marked ``# MISTAKE:``, ``index.json`` describes exactly the files,
the three categories are 12 each, every function named is ``course_style.py``'s, every lab is one
the kit grades, and the keywords are lowercase. (Shape checks only: the kit does not run here.)"""

import ast
import difflib
import importlib.util
import json
from collections import Counter
from pathlib import Path

import pytest

from mlpr import grading

REPO = Path(__file__).resolve().parents[1]
SUBMISSIONS = REPO / "tests" / "grading_submissions"
FOLDER = SUBMISSIONS / "heldout"
BASE = SUBMISSIONS / "course_style.py"
INDEX = json.loads((FOLDER / "index.json").read_text())["variants"]
VARIANTS = sorted(p.name for p in FOLDER.glob("[0-9][0-9]_*.py"))
CATEGORIES = {"structural", "formula", "protocol"}


def _bench():
    """benchmarks/bench_mistakes.py as a module (its assemble, one_place and changed_lines)."""
    path = REPO / "benchmarks" / "bench_mistakes.py"
    spec = importlib.util.spec_from_file_location("bench_mistakes", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BENCH = _bench()


def _functions(text: str) -> set:
    return {n.name for n in ast.parse(text).body if isinstance(n, ast.FunctionDef)}


@pytest.mark.parametrize("name", VARIANTS)
def test_each_variant_differs_from_course_style_in_one_place_marked_mistake(name):
    """Assembled onto course_style.py (the bench's way), the variant differs from it in exactly
    one hunk, that hunk holds a ``# MISTAKE:`` line, and the file marks nothing else."""
    base = BASE.read_text()
    text = (FOLDER / name).read_text()
    assert _functions(text) <= _functions(base), _functions(text) - _functions(base)
    assembled = BENCH.assemble(FOLDER / name, base)
    compile(assembled, name, "exec")
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
    assert len(VARIANTS) == 36
    assert [f[:2] for f in VARIANTS] == [f"{i:02d}" for i in range(1, 37)]
    tasks = grading.tasks()
    for v in INDEX:
        assert {"file", "functions", "lab", "category", "cause", "fails", "primary", "labs",
                "expect", "wrong_if"} <= set(v), v["file"]
        assert v["category"] in CATEGORIES, v["file"]
        assert v["cause"], v["file"]
        assert v["primary"], v["file"]
        assert set(v["primary"]) <= set(v["fails"]) <= set(tasks), v["file"]
        assert v["labs"] == sorted({tasks[t].lab for t in v["fails"]}), v["file"]
        assert v["lab"] in v["labs"], v["file"]


def test_the_keywords_are_lowercase_and_expect_is_not_empty():
    for v in INDEX:
        assert v["expect"], v["file"]
        for word in v["expect"] + v["wrong_if"]:
            assert isinstance(word, str) and word.strip(), (v["file"], word)
            assert word == word.lower(), (v["file"], word)


def test_the_categories_are_balanced_and_every_lab_is_a_graded_one():
    counts = Counter(v["category"] for v in INDEX)
    assert counts == {c: 12 for c in CATEGORIES}, counts
    graded = {t.lab for t in grading.tasks().values()}
    used = {lab for v in INDEX for lab in [v["lab"], *v["labs"]]}
    assert used <= graded and all(2 <= lab <= 11 for lab in used), used - graded
    per_lab = Counter(v["lab"] for v in INDEX)
    assert all(per_lab[lab] >= 2 for lab in graded if 2 <= lab <= 11), per_lab


def test_every_function_named_is_course_styles_and_is_the_one_changed():
    base = _functions(BASE.read_text())
    for v in INDEX:
        assert v["functions"] and set(v["functions"]) <= base, v["file"]
        assert set(v["functions"]) == _functions((FOLDER / v["file"]).read_text()), v["file"]
