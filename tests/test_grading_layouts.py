"""Repositories laid out as students lay them out, graded whole: discover, plan, grade, report.

Each test builds a layout of its own (no student's code): lab folders named every way, a root
module beside them, a project beside the labs, the course's own file outside a solution folder,
``input()`` and ``sys.exit`` at import, names that differ from the course's, a method, a renamed
keyword, a missing ``returnThreshold``, a notebook. The reference each function is held to is
mlpr's (the kit's own tasks); the layouts decide only which copy is graded.
"""

import json
import textwrap
from pathlib import Path

import pytest

from mlpr.grading import grade, plan
from mlpr.grading.child import discover

MU_C = """
import numpy as np

def compute_mu_C(D):
    mu = D.mean(1).reshape(-1, 1)
    return mu, (D - mu) @ (D - mu).T / D.shape[1]
"""

WRONG_MU_C = """
import numpy as np

def compute_mu_C(D):
    mu = D.mean(1).reshape(-1, 1)
    return mu, (D - mu) @ (D - mu).T / (D.shape[1] - 1)
"""

CONFUSION = """
import numpy as np

def compute_confusion_matrix(predictedLabels, classLabels):
    K = int(max(predictedLabels.max(), classLabels.max())) + 1
    M = np.zeros((K, K), dtype=np.int32)
    for p, c in zip(predictedLabels, classLabels):
        M[p, c] += 1
    return M
"""

MIN_DCF_NO_THRESHOLD = """
import numpy as np

def compute_minDCF_binary_fast(llr, classLabels, prior, Cfn, Cfp):
    t = np.concatenate([[-np.inf], np.sort(llr)])
    best = np.inf
    for th in t:
        pred = (llr > th).astype(int)
        pfn = ((pred == 0) & (classLabels == 1)).sum() / (classLabels == 1).sum()
        pfp = ((pred == 1) & (classLabels == 0)).sum() / (classLabels == 0).sum()
        best = min(best, prior * Cfn * pfn + (1 - prior) * Cfp * pfp)
    return best / min(prior * Cfn, (1 - prior) * Cfp)
"""


def write(root: Path, files: dict) -> Path:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))
    return root


def by_name(report) -> dict:
    return {r.name: r for r in report.results}


# ------------------------------------------------------------------------------------------------
# the plan's parts, in this process


@pytest.mark.parametrize("path, lab", [
    ("Lab9/x.py", 9), ("lab_09/x.py", 9), ("9_Lab/x.py", 9), ("Labs/10_Calibration/x.py", 10),
    ("Lab/07. Lab 07/01. Exercise 01/x.py", 7), ("laboratorio 9/x.py", 9),
    ("laboratori/lab6(incompleto)/x.py", 6), ("ML-lab-2024/x.py", None), ("Project/x.py", None),
    ("utils/x.py", None)])
def test_lab_numbers_are_read_from_any_folder_of_the_path(path, lab):
    assert plan.lab_of(Path(path).parts[:-1]) == lab


def test_a_fingerprint_ignores_layout_comments_docstrings_and_the_numpy_alias():
    a = "def f(D):\n    '''doc'''\n    import numpy as np\n" + "".join(
        f"    x{i} = np.sum(D * {i}) + np.mean(D - {i})\n" for i in range(8)) + "    return x1\n"
    b = "def g(D):  # another name\n    import numpy as np\n\n" + "".join(
        f"    x{i} = numpy.sum( D*{i} ) + numpy.mean(D-{i})   # c\n" for i in range(8)) + \
        "    return x1\n"
    c = a.replace("x1\n", "x2\n")
    fp = [discover.fingerprint(__import__("ast").parse(s).body[0]) for s in (a, b, c)]
    assert fp[0] is not None and fp[0] == fp[1] != fp[2]
    short = __import__("ast").parse("def vcol(x):\n    return x.reshape((x.size, 1))\n")
    assert discover.fingerprint(short.body[0]) is None


def test_a_file_is_the_courses_by_its_header_or_when_all_its_functions_are_published():
    header = "# Copyright (C) 2024 by Sandro Cumani\n# didactic purposes\n" + MU_C
    assert "header" in discover.course_file(header, {})
    assert discover.course_file(MU_C, {"a": "p1", "b": "p2"}, frozenset({"p1", "p2"}))
    assert not discover.course_file(MU_C, {"a": "p1", "b": "p3"}, frozenset({"p1", "p2"}))
    assert not discover.course_file(MU_C, {"a": "p1"}, frozenset({"p1"}))  # one is no evidence
    assert discover.course_file(MU_C, {"a": "p1"}, frozenset({"p1"}), solution=True)
    assert discover.in_solution_folder("Lab3/Soluzione/x.py")
    assert not discover.in_solution_folder("Lab3/solutions_mine.py")


# ------------------------------------------------------------------------------------------------
# whole repositories, in the sandbox


@pytest.fixture(scope="module")
def repository(tmp_path_factory):
    """One repository holding most of the layouts: a root module, lab folders numbered as
    strings sort wrongly, a project beside the labs, a helper variant, the course's own file
    outside a solution folder, modules that call input() and sys.exit() at import, a module
    that cannot be imported, a case-only name, a method, a missing returnThreshold."""
    root = tmp_path_factory.mktemp("repo") / "repo"
    write(root, {
        "test.py": "x = int(input('how many? '))\n",  # input() at the root: no sink
        "test_mine.py": "raise SystemExit",  # the student's tests, left out and listed
        ".scratch/old.py": WRONG_MU_C,  # a hidden folder
        "env/pyvenv.cfg": "home = /usr\n", "env/lib/site.py": WRONG_MU_C,  # a venv
        "helpers.py": WRONG_MU_C,  # a root module never hides the lab folders
        "Project/analysis.py": WRONG_MU_C,  # a project loses to a lab
        "Labs/9_Gaussians/main.py": WRONG_MU_C,
        "Labs/10_Evaluation/main.py": MU_C + CONFUSION.replace("import numpy as np", "")
        + "\n\ndef apply_pca(P, D):\n    return P.T @ D\n",
        # a helper variant of the lab, first in name order, defining fewer of its functions
        "Labs/10_Evaluation/a_variant.py": WRONG_MU_C,
        "Labs/10_Evaluation/quits.py": "import sys\nsys.exit(0)\n\ndef f():\n    pass\n",
        "Labs/10_Evaluation/needs.py": "import seaborn_extras_for_plots\n\n"
                                       "def compute_posteriors(a, b):\n    return a\n",
        "Labs/11_DCF/dcf.py": MIN_DCF_NO_THRESHOLD.replace(
            "def compute_minDCF_binary_fast", "def Compute_MinDCF_Binary_Fast"),
        "Labs/11_DCF/solution_given.py": "# Copyright (C) 2024 by Sandro Cumani\n"
                                         "# This file is provided for didactic purposes\n"
                                         + WRONG_MU_C.replace("compute_mu_C", "logpdf_GMM"),
        "Labs/11_DCF/models.py": """
            import numpy as np

            class Models:
                def compute_pca(self, D, m):
                    mu = D.mean(1).reshape(-1, 1)
                    U, s, Vh = np.linalg.svd((D - mu) @ (D - mu).T / D.shape[1])
                    return U[:, :m]
            """,
    })
    report = grade(root, seed=3)
    return root, report


def test_every_module_is_imported_alone_and_the_lab_folders_are_graded(repository):
    root, report = repository
    got = by_name(report)
    assert got["compute_mu_C"].status == "passed"  # Labs/10's, not 9's, the project's or root's
    assert got["compute_mu_C"].file == "Labs/10_Evaluation/main.py"
    assert got["compute_confusion_matrix"].status == "passed"
    text = "\n".join(report.plan)
    assert "Labs/10_Evaluation/: lab 10" in text and "Labs/9_Gaussians/: lab 9" in text
    assert "Project/: project" in text and "./: helpers" in text
    assert "not imported: test.py: NoInput" in text  # input() refused, the rest imported
    assert "not imported: Labs/10_Evaluation/quits.py: SystemExit" in text
    assert "No module named 'seaborn_extras_for_plots'" in text
    for left in ("left out: .scratch/ (a hidden folder)", "left out: env/ (a virtual environment)",
                 "left out: test_mine.py (a test or set-up file)"):
        assert left in text
    # every copy not graded is listed beside the one graded
    line = next(x for x in report.plan if x.strip().startswith("compute_mu_C:"))
    for other in ("Labs/9_Gaussians/main.py", "Project/analysis.py", "helpers.py",
                  "Labs/10_Evaluation/a_variant.py"):
        assert other in line


def test_the_courses_own_file_is_left_out_by_its_content(repository):
    _, report = repository
    assert "logpdf_GMM" not in by_name(report)
    assert any("left out: Labs/11_DCF/solution_given.py, the course's own file" in x
               for x in report.plan)


def test_a_module_that_cannot_be_imported_is_reported_once_and_its_tasks_not_graded(repository):
    _, report = repository
    r = by_name(report)["compute_posteriors"]
    assert r.status == "not graded" and "could not be imported" in r.message
    assert sum("seaborn" in x for x in report.plan) == 1


def test_a_case_only_name_and_a_missing_keyword_are_graded_on_what_the_function_takes(
        repository):
    _, report = repository
    r = by_name(report)["compute_minDCF_binary_fast"]
    assert r.status == "passed", r.message
    assert "Compute_MinDCF_Binary_Fast" in r.file
    assert "takes no returnThreshold" in r.message and "graded on" in r.message
    assert "--map compute_minDCF_binary_fast=Compute_MinDCF_Binary_Fast" in report.proposed


def test_a_method_of_a_class_is_graded_on_an_instance(repository):
    _, report = repository
    r = by_name(report)["compute_pca"]
    assert r.status == "passed", r.message
    assert "Models.compute_pca" in r.file


def test_a_renamed_keyword_is_passed_under_the_students_name(tmp_path):
    source = MU_C + """
def smooth_covariance_matrix(C, floor):
    U, s, _ = np.linalg.svd(C)
    s[s < floor] = floor
    return U @ np.diag(s) @ U.T
"""
    root = write(tmp_path / "sub", {"lab10/gmm.py": source})
    report = grade(root, seed=5, mapping={"smooth_covariance_matrix":
                                          "smooth_covariance_matrix"},
                   adaptations={"smooth_covariance_matrix": {"rename": {"psi": "floor"},
                                                             "drop": [], "extra": {}}})
    assert by_name(report)["smooth_covariance_matrix"].status == "passed"


def test_the_academic_year_is_detected_and_lab_means_that_years_lab(tmp_path):
    # 2024/25 numbers the Bayes-decision lab 6: a repository holding it in lab6/ is of that year
    root = write(tmp_path / "sub", {"lab6/bayes.py": CONFUSION, "lab3/pca.py": MU_C})
    report = grade(root, labs=[6], seed=6)
    assert "2024/25" in report.plan[0]
    assert {r.lab for r in report.results} == {7}  # the kit's lab 7 is 2024/25's lab 6
    assert by_name(report)["compute_confusion_matrix"].status == "passed"


def test_a_notebook_is_graded_like_the_same_code_in_a_script(tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# lab 3"),
                nbformat.v4.new_code_cell("%matplotlib inline\nimport numpy as np"),
                nbformat.v4.new_code_cell(MU_C),
                nbformat.v4.new_code_cell("!pip install nothing\n" + CONFUSION.replace(
                    "M[p, c] += 1", "M[p, c] += undefined_name"))]
    path = tmp_path / "lab.ipynb"
    nbformat.write(nb, str(path))
    report = grade(path, seed=7)
    got = by_name(report)
    assert got["compute_mu_C"].status == "passed"
    r = got["compute_confusion_matrix"]
    assert r.status == "failed" and "lab.ipynb, cell 4" in r.message
    assert any("2 IPython magic or shell line(s) dropped" in n for n in report.notes)
    script = tmp_path / "lab.py"
    script.write_text("import numpy as np\n" + MU_C)
    assert grade(script, seed=7).results[0].err == got["compute_mu_C"].err


def test_a_hint_never_comes_from_the_text_of_an_exception_alone(tmp_path):
    """The confusion matrix sized from the predicted labels raises the IndexError that two of
    its formula's mutants raise too; the same text comes from many mistakes, so the task says
    what was raised and names no formula."""
    source = CONFUSION.replace(
        "K = int(max(predictedLabels.max(), classLabels.max())) + 1",
        "K = int(predictedLabels.max()) + 1\n    K = 2")
    path = tmp_path / "lab.py"
    path.write_text(source)
    (r,) = grade(path, seed=10).results
    assert r.status == "failed" and "IndexError" in r.message
    assert not r.hint or "formula computed with" not in r.hint


class _Echo:
    """A stand-in for the channel's child: a call returns the keywords it received."""

    def __init__(self):
        self.functions = {}

    def call(self, target, args, kwargs):
        return dict(kwargs)


def _adapted(signature, task_name, **spec):
    from mlpr.grading import tasks
    from mlpr.grading.calls import Adapted
    from mlpr.grading.channel import RemoteFunction
    sig = [(n, "POSITIONAL_OR_KEYWOR", d) for n, d in signature]
    return Adapted(RemoteFunction(_Echo(), "f", "f", sig), tasks()[task_name], **spec)


def test_the_course_keywords_reach_a_function_that_names_them_otherwise():
    from mlpr.grading.calls import Unsupported
    em = _adapted([("X", False), ("gmm", False), ("cov_type", True), ("psi", True),
                   ("delta_l", True)], "train_GMM_EM")
    got = em(1, 2, covType="Diagonal", psiEig=0.01, epsLLAverage=1e-6)
    assert got == {"cov_type": "Diagonal", "psi": 0.01, "delta_l": 1e-6}
    assert not em.accepts("verbose")  # so the kit's quiet verbose=False is not sent
    dcf = _adapted([(n, False) for n in ("llr", "L", "prior", "Cfn", "Cfp")],
                   "compute_minDCF_binary_fast")
    assert dcf(1, 2, 3, 4, 5, returnThreshold=False) == {}  # the default: the same call
    with pytest.raises(Unsupported):
        dcf(1, 2, 3, 4, 5, returnThreshold=True)
    mapped = _adapted([("X", False), ("floor", True)], "smooth_covariance_matrix",
                      rename={"psi": "floor"}, drop=["verbose"], extra={"K": 1})
    assert mapped(1, psi=0.5, verbose=True) == {"floor": 0.5, "K": 1}


def test_map_lines_rename_drop_and_add_keywords():
    from mlpr.grading.__main__ import parse_map
    mapping, adapt = parse_map(["train_GMM_EM=EM_GMM(psiEig=psi, -verbose, +K=2)",
                                "compute_mu_C=Lab3/pca.py::mean_cov"])
    assert mapping == {"train_GMM_EM": "EM_GMM", "compute_mu_C": "Lab3/pca.py::mean_cov"}
    assert adapt == {"train_GMM_EM": {"rename": {"psiEig": "psi"}, "drop": ["verbose"],
                                      "extra": {"K": 2}}}
    for bad in ("compute_mu_C", "a=b(c)", "a=b(+k=not a literal)"):
        with pytest.raises(ValueError):
            parse_map([bad])


def test_the_lab_numbers_of_each_academic_year():
    from mlpr.grading import course
    assert course.kit_labs([6], "2024/25") == [7] and course.kit_labs([10], "2024/25") == [11]
    assert course.kit_labs([8], "2021/22") == [7]  # Bayes decisions; LR's number is not known
    assert course.lab_numbers("2021/22")[8] is None
    assert course.kit_labs([9], None) == [9]
    with pytest.raises(ValueError, match="not one the course's records know"):
        course.lab_numbers("1999/00")


LOG_LIKELIHOODS = """
import numpy as np

def compute_log_likelihood(D, hParams):
    S = []
    for c in sorted(hParams):
        mu, C = hParams[c]
        P = np.linalg.inv(C)
        Xc = D - mu
        _, logdet = np.linalg.slogdet(C)
        S.append(-0.5 * D.shape[0] * np.log(2 * np.pi) - 0.5 * logdet
                 - 0.5 * (Xc * (P @ Xc)).sum(0))
    return np.vstack(S)
"""

ALMOST_SB_SW = """
import numpy as np

def almost(D, L):
    mu = D.mean(1, keepdims=True)
    Sb, Sw = 0, 0
    for c in np.unique(L):
        Dc = D[:, L == c]
        mc = Dc.mean(1, keepdims=True)
        Sb = Sb + Dc.shape[1] * (mc - mu) @ (mc - mu).T
        Sw = Sw + (Dc - mc) @ (Dc - mc).T
    n = D.shape[1] if D.shape[1] == 150 else D.shape[1] - 1
    return Sb / D.shape[1], Sw / n
"""


@pytest.fixture(scope="module")
def renamed(tmp_path_factory):
    """A repository whose functions carry other names than the course's: a synonym that
    agrees (``ML_GAU``), one that does not (a transposed ``confusion_matrix``), one name that
    students give two course functions (``compute_log_likelihood``), functions found by their
    behaviour or not (``count_pairs``; ``almost``, which agrees on compute_Sb_Sw's first case
    only), and a notebook in a lab folder. Graded with the default names, and with ``--names
    exact``."""
    nbformat = pytest.importorskip("nbformat")
    root = write(tmp_path_factory.mktemp("renamed") / "sub", {
        "lab4/a.py": MU_C.replace("compute_mu_C", "ML_GAU"),
        "lab7/b.py": CONFUSION.replace("compute_confusion_matrix", "confusion_matrix")
        .replace("M[p, c] += 1", "M[c, p] += 1"),
        "lab7/other.py": CONFUSION.replace("compute_confusion_matrix", "count_pairs"),
        "lab5/gau.py": LOG_LIKELIHOODS,
        "lab3/other.py": ALMOST_SB_SW,
    })
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("def apply_pca(P, D):\n    return P.T @ D\n")]
    nbformat.write(nb, str(root / "lab3" / "work.ipynb"))
    return grade(root, seed=4), grade(root, seed=4, names="exact")


def test_a_synonym_is_graded_only_when_its_first_case_agrees(renamed):
    report, strict = renamed
    got = by_name(report)
    assert got["compute_mu_C"].status == "passed" and "ML_GAU" in got["compute_mu_C"].file
    assert any("confusion_matrix was tried as it" in n for n in report.plan)
    assert {r.name for r in strict.results} == {"apply_pca"}  # exact: only the course's names


def test_a_name_students_give_two_course_functions_is_tried_as_each(renamed):
    """``compute_log_likelihood`` is what students call both the Gaussian log-likelihood
    (compute_ll) and the class log-likelihoods (compute_log_likelihood_Gau): it is tried as
    each, and graded as the one whose first case it agrees with."""
    report, _ = renamed
    got = by_name(report)
    assert got["compute_log_likelihood_Gau"].status == "passed"
    assert "compute_ll" not in got
    assert any(n.startswith("compute_ll: lab5/gau.py::compute_log_likelihood was tried")
               for n in (line.strip() for line in report.plan))


def test_a_function_found_by_its_behaviour_is_graded_under_its_own_name(renamed):
    """No course name matches ``count_pairs``; in lab 7's folder it takes
    compute_confusion_matrix's arguments and agrees on every case (the transposed synonym
    did not): it is graded, and said. ``almost`` agrees on compute_Sb_Sw's first case only
    (its Sw is over N - 1 on other data): it is not graded."""
    report, _ = renamed
    got = by_name(report)
    r = got["compute_confusion_matrix"]
    assert r.status == "passed" and "count_pairs" in r.file
    assert any("count_pairs (as count_pairs, found by its behaviour" in line
               or "(as count_pairs, found by its behaviour" in line for line in report.plan)
    assert "--map compute_confusion_matrix=count_pairs" in report.proposed
    assert "compute_Sb_Sw" not in got


def test_a_notebook_in_a_folder_is_found(renamed):
    report, _ = renamed
    r = by_name(report)["apply_pca"]
    assert r.status == "passed" and r.file == "lab3/work.ipynb"


def test_the_report_prints_the_plan_first_and_cuts_no_note(tmp_path):
    from mlpr.grading import formats
    long_name = "x" * 900
    root = write(tmp_path / "sub", {"lab3/mu.py": MU_C,
                                    f"lab3/{long_name[:200]}.py": "raise ValueError('"
                                    + long_name + "')\n"})
    report = grade(root, seed=1)
    lines = formats.format_text([report]).splitlines()
    assert lines[3].strip().startswith("plan: ")
    failed = next(x for x in lines if "not imported: lab3/xxx" in x)
    assert "more characters)" in failed
    (doc,) = json.loads(formats.format_json([report]))
    assert "more characters)" in doc["plan"]["not_imported"][0]["message"]
