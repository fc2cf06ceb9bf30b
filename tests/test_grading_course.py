"""The course as data: the kit's tasks, student mode's adapters, ``--list`` and the guide's
concordance come from the records of `mlpr.grading.course`, one module per lab; a new lab is one
file. And the kit's layout: no module over 700 lines, no cycle between its modules, imports at the
top, no registry outside the records."""

import ast
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from mlpr import grading
from mlpr.grading import course
from mlpr.grading.__main__ import main
from mlpr.grading.student import StudentCode

REPO = Path(__file__).resolve().parents[1]
KIT = REPO / "mlpr" / "grading"
GUIDE = REPO / "docs" / "grading" / "course_functions.md"  # the page of the concordance

LAB99 = '''
import numpy as np

from mlpr.grading.course.records import Adapter, CourseFunction
from mlpr.grading.framework import Case, Mistake

LAB = 99


def _cases(run):
    X = run.rng(1).normal(size=(3, 5)) + 10.0
    return [Case("3 x 5 data far from the origin", (X,), X.sum(axis=0),
                 mistakes=[Mistake("axis", "the sums run down each column (axis=0)",
                                   lambda: X.sum(axis=1))])]


def _adapt_column_sums(code, f):
    def column_sums(X):
        return np.asarray(code.call("colSums", np.asarray(X, dtype=float)), dtype=float)
    return column_sums


FUNCTIONS = (
    CourseFunction(name="colSums", signature="(X)", topic="the sums of the columns",
                   reference="numpy: X.sum(axis=0)", forms="returns (N,)", cases=_cases,
                   points=2.0, adapters=(Adapter("column_sums", (("colSums",),),
                                                 _adapt_column_sums),)),
)
'''


@pytest.fixture
def lab99(tmp_path, monkeypatch):
    """A lab of next year: one file, in a folder added to the course package's path."""
    (tmp_path / "lab99.py").write_text(textwrap.dedent(LAB99))
    monkeypatch.setattr(course, "__path__", [*course.__path__, str(tmp_path)])
    yield
    sys.modules.pop("mlpr.grading.course.lab99", None)


def test_a_new_lab_is_one_file(lab99, capsys):
    """A record in a new lab module is listed by --list, has its row in the concordance, is
    graded under its name with its points, and serves student mode through its adapter."""
    assert main(["--list"]) == 0
    assert "lab 99  colSums(X)  (the sums of the columns)" in capsys.readouterr().out
    assert "| 99 | `colSums(X)` | numpy: X.sum(axis=0) | returns (N,) | `column_sums` |" in \
        course.concordance()
    assert "colSums" in course.course_names()

    task = grading.tasks([99])["colSums"]
    assert (task.lab, task.points, task.signature) == (99, 2.0, "(X)")
    right, wrong = grading.grade_functions({"colSums": lambda X: X.sum(axis=0)}), \
        grading.grade_functions({"colSums": lambda X: X.sum(axis=1)})
    assert [(r.name, r.status, r.points) for r in right] == [("colSums", "passed", 2.0)]
    assert wrong[0].status == "failed" and "axis=0" in wrong[0].hint
    seeded = grading.tasks([99], run=grading.Run(3))["colSums"].cases()[0]
    assert not np.array_equal(seeded.args[0], task.cases()[0].args[0])

    def column_sums(X):
        return np.asarray(X).sum(axis=0)

    code = StudentCode({"colSums": lambda X: X.sum(axis=0)})
    theirs = code.replace(column_sums)
    assert theirs is not column_sums and code.replaced == {"column_sums": ["colSums"]}
    np.testing.assert_array_equal(theirs(np.eye(3) * 2), [2.0, 2.0, 2.0])
    audit = code.audits["column_sums"]
    assert audit.calls == 1 and not audit.failed
    assert grading.adapted_functions()["column_sums"] == ["colSums"]


def test_the_guides_concordance_is_the_records():
    text = GUIDE.read_text()
    _, _, rest = text.partition(course.GUIDE_BEGIN + "\n")
    block, end, _ = rest.partition(course.GUIDE_END)
    assert end, "docs/grading/course_functions.md has no generated concordance"
    assert block == course.concordance(), (
        "the concordance of docs/grading/course_functions.md differs from the records: python -c "
        "\"from mlpr.grading import course; "
        "course.update_guide('docs/grading/course_functions.md')\"")
    for r in course.records():
        assert f"`{r.name}{r.signature}`" in block


def test_every_record_is_complete_and_its_lab_is_its_module():
    seen = set()
    for module in course.lab_modules():
        assert Path(module.__file__).stem == f"lab{module.LAB:02d}"
        for r in module.FUNCTIONS:
            assert r.lab is None, f"{r.name}: the lab is the module's"
            assert r.name and r.signature.startswith("(") and r.topic and r.reference
            assert callable(r.cases) and r.points > 0
            for a in r.adapters:
                assert a.needs and all(set(alt) <= course.course_names() for alt in a.needs)
                assert a.audit[0] in {"values", "objective", "subspace", "lloyd", "none"}
            seen.add(r.name)
    assert seen == set(grading.tasks(everything=True))


def _modules():
    return sorted(p for p in KIT.rglob("*.py") if "__pycache__" not in p.parts)


def test_no_module_of_the_kit_is_over_700_lines_and_the_catalogue_is_split():
    long = {str(p.relative_to(KIT)): n for p in _modules()
            if (n := len(p.read_text().splitlines())) > 700}
    assert not long, long
    assert not (KIT / "catalogue.py").exists()
    assert len(list((KIT / "course").glob("lab*.py"))) >= 9


def _kit_imports(path: Path) -> tuple:
    """The kit's modules that ``path`` imports, and its imports inside functions."""
    tree = ast.parse(path.read_text())
    package = ".".join(path.relative_to(REPO).with_suffix("").parts)
    if path.name == "__init__.py":
        package = package.rsplit(".", 1)[0]
    found, inner = set(), []
    top = {id(n) for n in tree.body}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1]
                                + ([base] if base else []))
            names = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        found |= {n for n in names if n.startswith("mlpr.grading")}
        if id(node) not in top:
            inner.append((node.lineno, ast.unparse(node)))
    return found, inner


def test_the_kits_imports_are_at_the_top_and_form_no_cycle():
    """Every module imports what it uses at its top (the harness loads its codec by path when it
    runs as a script), and the graph of the kit's modules has no cycle."""
    graph = {}
    names = {".".join(p.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")
             for p in _modules()}
    for p in _modules():
        name = ".".join(p.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")
        found, inner = _kit_imports(p)
        # the harness loads its codec at run time; discovery imports nbformat only for a notebook
        if p.name == "discover.py":
            inner = [i for i in inner if "nbformat" not in i[1]]
        if p.name != "harness.py":
            assert not inner, (name, inner)
        graph[name] = {n for n in found if n in names and n != name}
    # the package's own __init__ re-exports the kit; the lab modules import their parts
    graph["mlpr.grading"] = set()

    def visit(node, path):
        assert node not in path, " -> ".join([*path, node])
        for nxt in graph.get(node, ()):
            visit(nxt, [*path, node])

    for node in graph:
        visit(node, [])


def test_student_mode_has_no_registry_of_its_own():
    source = (KIT / "student.py").read_text()
    tree = ast.parse(source)
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(
                getattr(node, "value", None), ast.Dict):
            raise AssertionError(f"student.py line {node.lineno} holds a table: "
                                 f"{ast.unparse(node)[:80]}")
    assert "Adapter(" not in source and "_ADAPTERS" not in source


def test_the_seed_is_the_runs_own():
    """A run's seed draws its own cases; the fixed cases (no seed) and every other run's are
    untouched, and no seed is held by a module."""
    fixed = grading.reference("compute_mu_C")[1].args[0].copy()
    seeded = grading.reference("compute_mu_C", run=grading.Run(5))[1].args[0]
    assert not np.array_equal(fixed, seeded)
    np.testing.assert_array_equal(grading.reference("compute_mu_C")[1].args[0], fixed)
    np.testing.assert_array_equal(
        grading.reference("compute_mu_C", run=grading.Run(5))[1].args[0], seeded)
    for module in (grading, course, course.records):
        assert not hasattr(module, "set_seed") and not hasattr(module, "current_seed")
    with pytest.raises(ValueError, match="seed must be a non-negative int or None"):
        grading.Run(-3)
