"""The command line and the report every lecture script shares.

``make lecture L=NN_topic [ARGS="--quick --show"] [OUT=DIR] [FORMAT=png,pdf,svg]``, or once
``.venv/`` exists ``.venv/bin/python lectures/NN_topic/run.py [--quick] [--out DIR] [--show]
[--format png,pdf,svg]``

Each run starts with a line on stderr giving its ETA from the previous run of the same mode, and
records in results.json when (``date``), from which commit (``commit``) and on which machine
(``machine``) it ran. ``--format`` writes each figure as PDF and SVG too (fonts embedded), listed
under ``figure_other_formats`` beside the PNG that ``figures`` lists; ``make report`` links them.
``--no-figures`` writes none (each figure is still built by the same plotting calls, then closed
unrendered): the same checks and tables, a fifth to a quarter faster (rendering is the rest).

A `Lecture` prints each reproduced number beside its reference and the reference's source,
writes figures and ``results.json`` under ``DIR`` (default ``figures/NN_topic/``), and in full mode
exits with status 1 when a number misses its reference by more than the stated tolerance, so that
``make lectures`` fails loudly instead of printing a wrong table. In ``--quick`` mode (a
deterministic subsample of MNIST, used by the test suite) references are printed but not
enforced, and every heading and figure title that describes MNIST says that it is a subsample.

The references come from the course's published results: the numbers of its slides (the MNIST
experiments, which the notes describe only in words) and of its lab solutions (iris), or from a
closed form or an invariant computed in the script. Each check names its ``source``.

**References as data.** The published references of a lecture (the course's slides and labs) live
in ``lectures/NN_topic/references.json``, one entry per key: ``what``, ``value``, ``tol``,
``source``, ``known_gap`` (why a reference cannot be reproduced, or null) and ``quick`` (whether
the quick subsample reproduces it too; such references are enforced in quick mode as well). A
script checks one with ``lec.check(what, measured, ref="key")``; the grading kit, student mode
and any report read the same file. References computed by the script (closed forms, invariants)
are passed as values.

**Student mode.** ``--student PATH`` (a ``.py`` file or a folder of modules, as the grading kit
takes) replaces, through the kit's adapters (`mlpr.grading.StudentCode`), every function that
the lecture hands to ``lec.use(...)`` and that a lab asks students to write: ``train_mvg`` by
their ``Gau_MVG_ML_estimates``, ``min_dcf`` by their ``compute_minDCF_binary_fast``, ... Each
check and table says which of the student's functions computed it; a check that their code
cannot serve (it raised, or the lecture needs an argument their function lacks) is skipped with
the reason. The run ends with "N of M references reproduced with your code" and exits 1 when
their code misses a reference that mlpr reproduces in this mode (documented gaps excepted).

The scripts import this module as ``from _lecture import Lecture``: ``make test``,
``make lectures`` and ``make lecture`` put ``lectures/`` on the path of the project's ``.venv``
(a ``.pth`` file), so a script reads the same whether it is run by ``make`` or by
``.venv/bin/python lectures/NN_topic/run.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

# One BLAS thread unless the caller chooses otherwise, as `make lectures` does: the many small
# L-BFGS iterations of the logistic-regression lectures are dominated by call overhead, and on a
# shared 2-core machine two multi-threaded BLAS processes slow each other down by one to two
# orders of magnitude. It must precede numpy's first import: a script that needs it starts with
# `import _lecture` (lecture 06).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

REPO = Path(__file__).resolve().parents[1]

#: Where the lectures' reference numbers come from (the ``source`` of a check).
SLIDES = "course slides"
CLOSED_FORM = "closed form"
INVARIANT = "invariant"
#: a claim of the README about this run's numbers (an order, a trend, a ratio), checked on them
OBSERVED = "the README's reading of the run"


def lab(n: int) -> str:
    """The source name of the course's lab ``n`` (its published solution)."""
    return f"course lab {n}"


#: what each status of a check prints beside its number
_PRINTED = {"held": "ok", "missed": "MISMATCH", "differs": "differs (quick mode)"}


def check_status(check: dict, *, quick: bool, enforced_in_quick: bool = False,
                 known_gap: str | None = None) -> str:
    """The status of one check (or claim), the one rule that the lecture prints, enforces and
    writes to results.json (``status``) and that the report shows.

    ``check`` is the check's entry of results.json. "skipped" (student mode, the student's code
    could not serve), "reported" (a value without a reference), "held" (within its tolerance, or
    a claim that holds); a miss is a "gap" when the reference documents why it cannot be
    reproduced (``known_gap``), "missed" when the run enforces the reference (full mode, or a
    reference whose quick subsample reproduces it too: ``enforced_in_quick``), and otherwise
    "differs" (quick mode, not enforced). Full mode exits 1 on a "missed" check.
    """
    if "student_skipped" in check:
        return "skipped"
    if not check.get("claim") and "reference" not in check:
        return "reported"
    if check.get("ok"):
        return "held"
    if known_gap:
        return "gap"
    return "missed" if not quick or enforced_in_quick else "differs"


class Lecture:
    """Command-line options, progress, checks against references, figures and results.json."""

    def __init__(self, name: str, description: str, argv=None):
        parser = argparse.ArgumentParser(prog=f"lectures/{name}/run.py", description=description,
                                         formatter_class=argparse.RawDescriptionHelpFormatter)
        parser.add_argument("--quick", action="store_true",
                            help="deterministic MNIST subsample, runs in seconds (used by the "
                                 "tests); references are printed, not enforced; a lecture "
                                 "without MNIST runs the same in both modes")
        parser.add_argument("--out", type=Path, default=None,
                            help=f"folder for figures and results.json (default figures/{name}); "
                                 f"with --student the default is figures/student/{name}, so that a "
                                 f"student's run never writes over the instructor's figures")
        parser.add_argument("--show", action="store_true",
                            help="also open figure windows (needs a display; without one the "
                                 "figures are only saved)")
        parser.add_argument("--student", type=Path, metavar="PATH",
                            help="run the lecture with your own lab functions (a .py file or a "
                                 "folder of modules, with the course's function names) in place "
                                 "of mlpr's, and compare every number with its reference")
        parser.add_argument("--map", action="append", default=[], metavar="COURSE=YOURS",
                            help="with --student: your name for a course function (repeatable), "
                                 "as in the grading kit")
        parser.add_argument("--format", default="png", metavar="png,pdf,svg",
                            help="figure formats, comma-separated (default png); the PNG is "
                                 "always written (results.json and the report list it), the "
                                 "others beside it with fonts embedded, for slides")
        parser.add_argument("--no-figures", action="store_true",
                            help="write no figure: each is built by the same plotting calls, "
                                 "then closed without being rendered; the checks and tables are "
                                 "the same, the run faster (e.g. while checking your code with "
                                 "--student)")
        args = parser.parse_args(argv)
        formats = [f.strip().lower().lstrip(".") for f in args.format.split(",") if f.strip()]
        unknown = sorted(set(formats) - set(FIGURE_FORMATS))
        if unknown:
            parser.error(f"--format {args.format}: {', '.join(unknown)} not supported; "
                         f"choose among {', '.join(FIGURE_FORMATS)}")
        #: the figure formats written besides the PNG (``--format``)
        self.formats: list[str] = [f for f in dict.fromkeys(formats) if f != "png"]
        self.name = name
        self.quick: bool = args.quick
        default_out = REPO / "figures" / ("student" if args.student is not None else "") / name
        self.out: Path = args.out if args.out is not None else default_out
        self.out.mkdir(parents=True, exist_ok=True)
        self.show: bool = args.show and _interactive_backend(self.out)
        #: ``--no-figures``: figures are built and closed, none rendered or written
        self.no_figures: bool = args.no_figures
        #: how the MNIST data of this run are described in headings and figure titles
        self.mnist_sizes = ""
        self.results: dict = {"lecture": name, "mode": "quick" if self.quick else "full",
                              "checks": [], "tables": {}, "values": {}, "figures": [],
                              "figure_titles": {}}
        self.failures: list[str] = []
        self.t0 = time.perf_counter()
        ref_file = REPO / "lectures" / name / "references.json"
        #: the lecture's published references, by key (``references.json``)
        self.references: dict = json.loads(ref_file.read_text()) if ref_file.exists() else {}
        mode = ("quick mode: references printed, enforced only where the subsample reproduces "
                "them" if self.quick else "full mode")
        print(f"# {name} ({mode})")
        print(_eta_line(name, self.results["mode"], self.out / "results.json"), file=sys.stderr,
              flush=True)
        self.student = None
        self.student_checks: list[dict] = []
        self.student_tagged = 0  # the lines printed with "[your code: ...]"
        self._skip_reasons: dict = {}  # reason -> how many checks it skipped
        mapping = {}
        for item in args.map:
            course, sep, yours = item.partition("=")
            if not sep or not course.strip() or not yours.strip():
                parser.error(f"--map expects COURSE=YOURS, got {item!r}")
            mapping[course.strip()] = yours.strip()
        if mapping and args.student is None:
            parser.error("--map renames functions of --student PATH: give --student too")
        if args.student is not None:
            self._load_student(args.student, mapping)

    # -- student mode -------------------------------------------------------------------------
    def _load_student(self, path: Path, mapping: dict) -> None:
        from mlpr.grading import StudentCode, load_submission

        if not path.exists():
            print(f"--student: {path} does not exist", file=sys.stderr)
            sys.exit(2)
        try:
            submission = load_submission(path, mapping)
            self.student = StudentCode(submission)
        except Exception as exc:  # the student's module failed to import: say why, stop
            print(f"--student: importing {path} raised {type(exc).__name__}: {exc}",
                  file=sys.stderr)
            sys.exit(2)
        self.results["student"] = str(path)
        sys.excepthook = self._student_stopped
        print(f"student mode: your functions from {path} replace mlpr's where this lecture uses "
              f"a function that a lab asks you to write")
        for note in submission.notes:
            print(f"note: {note}")

    def _student_stopped(self, kind, exc, tb) -> None:
        """Student mode: the lecture cannot go on (mlpr, working on what the student's code
        computed, refused it): say where and why in one line, then compare the student's
        functions with mlpr's as far as the run got, and exit 1."""
        import traceback

        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, exc, tb)
            return
        frames = [f for f in traceback.extract_tb(tb) if f.filename.endswith("run.py")]
        where = f" (lectures/{self.name}/run.py, line {frames[-1].lineno})" if frames else ""
        print(f"\nthe lecture stopped{where}: {kind.__name__}: {exc}\n(its inputs there were "
              f"computed with your functions: the comparison below says which differ)",
              file=sys.stderr)
        self.results["student_stopped"] = f"{kind.__name__}: {exc}"
        try:
            self._student_summary()
        finally:
            sys.exit(1)

    def use(self, *functions):
        """The functions the lecture computes with: mlpr's, or in student mode the student's
        course functions through the grading kit's adapters (one value, or a tuple)."""
        if self.student is None:
            out = functions
        else:
            out = tuple(self.student.replace(f) for f in functions)
            yours = {f.__name__: self.student.replaced[f.__name__] for f in functions
                     if f.__name__ in self.student.replaced}
            if yours:
                print("your code: " + "; ".join(
                    f"{k} <- {', '.join(self.student.display(n) for n in v)}"
                    for k, v in yours.items()))
            for f in functions:
                lacks = self.student.fallbacks.get(f.__name__)
                if lacks:
                    print(f"mlpr's {f.__name__}: your file has no {' or '.join(lacks)} (named "
                          f"otherwise? --map {lacks[0]}=your_name)")
        return out[0] if len(out) == 1 else out

    def _student_note(self, kind: str) -> tuple[list, list]:
        """The student's course functions called, and their failures, since the last check (or
        table). A check computed in an earlier loop of its section (its own calls were taken by
        the loop's first check) is attributed to what the section called so far."""
        if self.student is None:
            return [], []
        called, failed = self.student.take(kind)
        if kind == "check" and not called:
            called, failed = self.student.peek("section")
        return called, failed

    # -- data ---------------------------------------------------------------------------------
    def load_mnist(self, n_train: int = 6000, n_test: int = 1000):
        """MNIST train and test sets; in quick mode a deterministic subsample of each.

        Returns ``DTR, LTR, DTE, LTE`` ((784, N) float64 images, int labels). The quick subsample
        keeps ``n_train`` training images (``default_rng(0)``) and ``n_test`` test images
        (``default_rng(1)``), in their original order: `mlpr.datasets.subsample`'s subsets, drawn
        by ``mlpr.datasets.load_mnist(split, n, rng)`` before the pixels become floats.
        ``self.mnist_sizes`` then says what was used, e.g. "60,000 train, 10,000 test" or "quick
        subsample: 6,000 train, 1,000 test", for headings and figure titles.
        """
        from mlpr.datasets import load_mnist

        if self.quick:
            DTR, LTR = load_mnist("train", n_train, np.random.default_rng(0))
            DTE, LTE = load_mnist("test", n_test, np.random.default_rng(1))
        else:
            DTR, LTR = load_mnist("train")
            DTE, LTE = load_mnist("test")
        sizes = f"{DTR.shape[1]:,} train, {DTE.shape[1]:,} test"
        self.mnist_sizes = f"quick subsample: {sizes}" if self.quick else sizes
        self.results["mnist"] = self.mnist_sizes
        return DTR, LTR, DTE, LTE

    # -- progress and printing ----------------------------------------------------------------
    def progress(self, msg: str) -> None:
        """One line of progress on stderr, with the elapsed time."""
        print(f"[{self.name} {time.perf_counter() - self.t0:7.1f}s] {msg}", file=sys.stderr,
              flush=True)

    def section(self, title: str) -> None:
        for kind in ("check", "table", "section"):  # a new section starts the attribution anew
            self._student_note(kind)
        print(f"\n## {title}")

    def check(self, what: str, measured, reference=None, tol: float | None = None,
              fmt: str = "{:.4f}", known_gap: str | None = None,
              source: str | None = None, ref: str | None = None, by=()) -> None:
        """Print ``measured`` beside ``reference`` and record whether it is within ``tol``.

        ``measured`` and ``reference`` may be scalars or arrays (compared elementwise, max abs
        difference). Without a reference the value is only reported. A reference needs its
        ``source``: where the number was published (``SLIDES``, ``lab(5)``) or how it was
        derived (``CLOSED_FORM``, ``INVARIANT``). ``known_gap`` marks a published reference that
        the lecture's README shows cannot be reproduced, and says why in a few words: a miss is
        then printed as such and listed in results.json under ``known_gaps``, without failing the
        run. Every other miss fails full mode.

        ``ref`` names an entry of the lecture's ``references.json`` instead: its value,
        tolerance, source and known gap are used, and where its ``quick`` flag is set the
        reference is enforced in quick mode too.

        ``by`` names the functions that computed ``measured`` when the calls since the last check
        do not (a value computed in an earlier loop): in student mode it is attributed to the
        student's versions of those.
        """
        quick_ok = False
        if ref is not None:
            if ref not in self.references:
                raise KeyError(f"check {what!r}: no reference {ref!r} in "
                               f"lectures/{self.name}/references.json")
            r = self.references[ref]
            reference, tol, source = r["value"], r["tol"], r["source"]
            known_gap, quick_ok = r.get("known_gap"), bool(r.get("quick"))
        called, failed = self._student_note("check")
        if by and self.student is not None:
            called = sorted({n for f in by for n in self.student.replaced.get(f.__name__, [])})
        m = np.asarray(measured, dtype=float)
        entry = {"what": what, "measured": m.tolist()}
        if ref is not None:
            entry["ref"] = ref
        text = _fmt(m, fmt)
        yours = self._tag(called) if not failed else ""
        if failed:
            print(f"{what}: {self._skipped(failed)}")
            entry.update(student_skipped=failed, status="skipped")
            if reference is not None:
                entry.update(reference=np.asarray(reference, dtype=float).tolist(),
                             source=source, tol=tol)
            self.results["checks"].append(entry)
            self.student_checks.append({"what": what, "status": "skipped", "why": failed})
            return
        if reference is None:
            print(f"{what}: {text}{yours}")
        else:
            if not source:
                raise ValueError(f"check {what!r}: a reference needs its source (e.g. SLIDES, "
                                 f"lab(5), CLOSED_FORM)")
            r = np.asarray(reference, dtype=float)
            diff = float(np.max(np.abs(m - r)))
            ok = diff <= (tol if tol is not None else 0.0) + 1e-12
            entry.update(reference=r.tolist(), source=source, tol=tol, abs_diff=diff, ok=ok)
            status = self._record(entry, known_gap, enforced_in_quick=quick_ok)
            print(f"{what}: {text}   reference {_fmt(r, fmt)} ({source})   |diff| {diff:.3g}"
                  f" (tol {tol if tol is not None else 0:g}) {self._printed(status, known_gap)}"
                  f"{yours}")
            if called:
                # a student's miss counts where mlpr reproduces the reference in this mode; the
                # closed forms and invariants hold on the quick subsample too
                reproducible = not self.quick or quick_ok or ref is None and source in (
                    CLOSED_FORM, INVARIANT)
                self._student_result(what, ok, known_gap, reproducible)
        if "status" not in entry:
            entry["status"] = check_status(entry, quick=self.quick)
        self.results["checks"].append(entry)

    def claim(self, what: str, holds, source: str = INVARIANT) -> None:
        """State a true/false claim of the chapter, print whether it holds, and record it.

        A claim that does not hold fails full mode, as a missed reference does.
        """
        called, failed = self._student_note("check")
        if failed:
            print(f"{what}: {self._skipped(failed)}")
            self.results["checks"].append({"what": what, "claim": True, "source": source,
                                           "student_skipped": failed, "status": "skipped"})
            self.student_checks.append({"what": what, "status": "skipped", "why": failed})
            return
        ok = bool(holds)
        entry = {"what": what, "claim": True, "holds": ok, "source": source, "ok": ok}
        status = self._record(entry, None)
        printed = "does not hold (quick mode)" if status == "differs" else self._printed(status)
        yours = self._tag(called)
        print(f"{what}: {'true' if ok else 'false'} ({source}) {printed}{yours}")
        self.results["checks"].append(entry)
        if called:
            self._student_result(what, ok, None, not self.quick)

    def value(self, key: str, x) -> None:
        """Record a number the README states that no check or table holds (a ratio, a count, a
        derived quantity) in results.json under ``values[key]``, so that the README test finds it.

        Nothing is printed or enforced: a value is a fact of the run, not a check.
        """
        def plain(v):  # numbers (or nested lists / dicts of them) as JSON floats
            if isinstance(v, dict):
                return {str(k): plain(u) for k, u in v.items()}
            return np.asarray(v, dtype=float).tolist()

        self.results["values"][key] = plain(x)

    def _skipped(self, failed: list) -> str:
        """The SKIPPED text of a check: its reason in full the first time, then a reference to
        it (the summary counts each reason once, with the number of checks it skipped)."""
        reason = "; ".join(failed)
        first = reason not in self._skip_reasons
        self._skip_reasons[reason] = self._skip_reasons.get(reason, 0) + 1
        number = list(self._skip_reasons).index(reason) + 1
        if first:
            return f"SKIPPED (reason {number}): {reason}"
        return f"SKIPPED (reason {number}, as above)"

    def _tag(self, called: list) -> str:
        """Student mode: who computed a check, "[your code: ...]" (counted) or "[mlpr]"."""
        if self.student is None:
            return ""
        if not called:
            return "   [mlpr]"
        self.student_tagged += 1
        return f"   [your code: {', '.join(self.student.display(n) for n in called)}]"

    def _student_result(self, what: str, ok: bool, known_gap, enforced: bool) -> None:
        """Count a reference computed with the student's code (student mode)."""
        reproducible = enforced and not (known_gap and not self.quick)
        self.student_checks.append({"what": what, "status": "ok" if ok else "missed",
                                    "counted": reproducible})

    def _record(self, entry: dict, known_gap: str | None, enforced_in_quick: bool = False) -> str:
        """Decide the check's status (`check_status`), write it into its results.json
        ``entry``, and list a miss of an enforced reference under ``failures`` (which fail full
        mode) or, when its gap is documented, ``known_gaps``."""
        status = check_status(entry, quick=self.quick, enforced_in_quick=enforced_in_quick,
                              known_gap=known_gap)
        entry["status"] = status
        if status == "missed":
            self.failures.append(entry["what"])
        elif status == "gap" and (not self.quick or enforced_in_quick):
            self.results.setdefault("known_gaps", []).append({"what": entry["what"],
                                                              "why": known_gap})
        return status

    @staticmethod
    def _printed(status: str, known_gap: str | None = None) -> str:
        if status == "gap":
            return f"DIFFERS FROM THE REFERENCE ({known_gap})"
        return _PRINTED[status]

    def table(self, key: str, title: str, header: list[str], rows: list[list]) -> None:
        """Print an aligned table and store it in results.json under ``key``."""
        student = self.student is not None
        cells = [[str(h) for h in header]] + [[_cell(c, student) for c in r] for r in rows]
        widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
        print(f"\n{title}")
        called, failed = self._student_note("table")
        if called:
            print(f"  (computed with your code: "
                  f"{', '.join(self.student.display(n) for n in called)}"
                  + (f"; where it could not serve, with mlpr's: {'; '.join(failed)}"
                     if failed else "") + ")")
        if student and any(c == "–" for r in cells[1:] for c in r):
            print("  (–: a value your function does not give: the course's functions return "
                  "their answer only, not mlpr's diagnostics such as the dual or the iterations)")
        for j, r in enumerate(cells):
            print("  " + "  ".join(c.rjust(w) if i else c.ljust(w)
                                   for i, (c, w) in enumerate(zip(r, widths))))
            if j == 0:
                print("  " + "  ".join("-" * w for w in widths))
        self.results["tables"][key] = {"title": title, "header": header,
                                       "rows": [[_json(c) for c in r] for r in rows]}

    def figure(self, fig, filename: str) -> None:
        """Save a figure under the output folder (and keep it open for ``--show``).

        Its titles (the figure's and each panel's) are recorded in results.json under
        ``figure_titles``, so that a test can read what a figure claims. With ``--no-figures``
        the figure is closed unrendered and its name listed under ``figures_not_written``.
        """
        from mlpr.plots import save_figure

        self._student_note("check")  # the figure's computations belong to no check
        if self.student is not None:  # whose code drew it, on the figure itself
            fig.text(0.995, 0.005, f"student mode: computed with the functions of "
                     f"{Path(self.results['student']).name} where a lab asks for them",
                     ha="right", va="bottom", fontsize=7, color="0.35")
        sup = fig.get_suptitle() if hasattr(fig, "get_suptitle") else ""  # matplotlib >= 3.8
        titles = [t for t in [sup] + [ax.get_title() for ax in fig.axes] if t]
        if self.no_figures:
            if not self.show:
                import matplotlib.pyplot as plt

                plt.close(fig)
            self.results.setdefault("figures_not_written", []).append(filename)
            return
        path = save_figure(fig, self.out / filename, close=not self.show, formats=self.formats)
        self.results["figures"].append(path.name)
        self.results["figure_titles"][path.name] = titles
        if self.formats:  # the same figure in the other formats of --format, by PNG name
            self.results.setdefault("figure_other_formats", {})[path.name] = [
                path.with_suffix("." + f).name for f in self.formats]

    def finish(self) -> None:
        """Write results.json; exit 1 if a full-mode check missed its reference."""
        self.results["seconds"] = round(time.perf_counter() - self.t0, 2)
        self.results["failures"] = self.failures
        self.results.update(_provenance())
        with open(self.out / "results.json", "w") as f:
            json.dump(self.results, f, indent=1)
        print(f"\n{len(self.results['figures'])} figures and results.json written to {self.out}"
              f" in {self.results['seconds']:.1f} s")
        if self.show:
            import matplotlib.pyplot as plt

            try:
                plt.show()
            except Exception as exc:  # a window system that fails only when windows open
                print(f"--show: the figure windows could not be opened ({exc}); the figures are "
                      f"saved in {self.out}", file=sys.stderr)
        if self.student is not None:
            self._student_summary()
        if self.failures:
            print(f"MISMATCH with the reference: {', '.join(self.failures)}", file=sys.stderr)
            sys.exit(1)

    def is_yours(self, f) -> bool:
        """Whether the lecture computes ``f`` with the student's code (student mode)."""
        return self.student is not None and f.__name__ in self.student.replaced

    def _who(self, names) -> str:
        """``your my_mvg (Gau_MVG_ML_estimates), compute_logPosterior``: the student's functions
        under the student's own names."""
        return "your " + ", ".join(self.student.display(n) for n in names)

    def _student_audits(self) -> list:
        """Student mode: each of the student's functions against mlpr's on this lecture's own
        inputs (`mlpr.grading.student.Audit`); printed, written to results.json, and the failed
        ones returned."""
        from mlpr.grading.student import AUDIT_CALLS

        measures = {"objective": "objective above mlpr's minimum, relative",
                    "subspace": "distance from mlpr's subspace",
                    "values": "largest difference from mlpr's, relative to its scale",
                    "lloyd": "distance from a fixed point of Lloyd's iteration, relative"}
        audits = [a for a in self.student.audits.values() if a.calls or a.rule == "none"]
        if not audits:
            return []
        print(f"\nYour functions against mlpr's, on this lecture's own inputs (the first "
              f"{AUDIT_CALLS} calls of each):")
        failed = []
        for a in audits:
            if a.rule == "none":
                print(f"  {self._who(a.names)} (for {a.function}): not compared")
                continue
            verdict = "DIFFERS" if a.failed else "agrees"
            detail = f": {a.detail}" if a.detail else ""
            print(f"  {self._who(a.names)} (for {a.function}): {verdict}, {measures[a.rule]} "
                  f"{a.err:.2g} "
                  f"(tol {a.tol:g}){detail}")
            if a.failed:
                failed.append(a)
        self.results["student_audits"] = [
            {"function": a.function, "yours": a.names, "rule": a.rule, "err": a.err,
             "tol": a.tol, "calls": a.calls, "agrees": not a.failed, "detail": a.detail}
            for a in audits]
        return failed

    def _student_summary(self) -> None:
        """Student mode: each of the student's functions against mlpr's on the lecture's inputs,
        and how many of the references that mlpr reproduces in this mode the student's code
        reproduced; exit 1 when a function differs or a reference is missed."""
        differs = self._student_audits()
        counted = [c for c in self.student_checks if c.get("counted")]
        ok = [c for c in counted if c["status"] == "ok"]
        skipped = [c for c in self.student_checks if c["status"] == "skipped"]
        missed = [c for c in counted if c["status"] != "ok"]
        audits = [a for a in self.student.audits.values() if a.calls and a.rule != "none"]
        print(f"\n{len(audits) - len(differs)} of {len(audits)} of your functions agree with "
              f"mlpr's on this lecture's inputs; {self.student_tagged} checks computed with your "
              f"code ([your code: ...] above); {len(ok)} of {len(counted)} references reproduced "
              f"with your code (those mlpr reproduces in this mode)")
        if skipped:
            print(f"{len(skipped)} checks skipped, your code could not serve them:")
            for i, (reason, n) in enumerate(self._skip_reasons.items(), 1):
                print(f"  reason {i} ({n} check{'s' if n > 1 else ''}): {reason}")
        for c in missed:
            print(f"  missed: {c['what']}")
        self.results["student_summary"] = {"reproduced": len(ok), "counted": len(counted),
                                           "skipped": len(skipped),
                                           "computed_with_your_code": self.student_tagged,
                                           "functions_compared": len(audits),
                                           "missed": [c["what"] for c in missed],
                                           "differs": [a.function for a in differs]}
        with open(self.out / "results.json", "w") as f:
            json.dump(self.results, f, indent=1)
        for a in differs:
            print(f"{self._who(a.names)} differs from mlpr's {a.function} on this lecture's inputs",
                  file=sys.stderr)
        if missed:
            print("your code misses references that mlpr reproduces", file=sys.stderr)
        if missed or differs:
            sys.exit(1)


FIGURE_FORMATS = ("png", "pdf", "svg")


def _eta_line(name: str, mode: str, previous: Path) -> str:
    """The progress line a lecture starts with: when it started and, from the previous run of the
    same mode (its ``results.json``, about to be replaced), when it should end."""
    now = time.time()
    line = f"[{name}] {mode} mode started at {time.strftime('%H:%M:%S', time.localtime(now))}"
    try:
        last = json.loads(previous.read_text())
        seconds = float(last["seconds"]) if last.get("mode") == mode else None
    except (OSError, ValueError, KeyError, TypeError):
        seconds = None
    if seconds is None:
        return line + f"; no previous {mode} run to estimate its end from"
    end = time.strftime("%H:%M:%S", time.localtime(now + seconds))
    return line + f"; the previous {mode} run took {seconds:.0f} s: ETA {end}"


def _provenance() -> dict:
    """When, from which commit and on which machine a run was made (for results.json)."""
    import datetime
    import platform
    import subprocess

    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, text=True,
                                capture_output=True, timeout=10).stdout.strip() or None
    except (OSError, subprocess.SubprocessError):  # no git, or not a clone
        commit = None
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {"date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "commit": commit,
            "machine": {"platform": platform.platform(), "machine": platform.machine(),
                        "processor": platform.processor() or platform.machine(),
                        "cpus": cpus, "python": platform.python_version(),
                        "numpy": np.__version__}}


def _interactive_backend(out: Path) -> bool:
    """Switch matplotlib to a window backend for ``--show``; say why on stderr when impossible.

    On Linux without ``DISPLAY`` or ``WAYLAND_DISPLAY`` (a server, a container, ssh without X
    forwarding) there is nothing to show on: the figures are saved and the run goes on.
    """
    import matplotlib.pyplot as plt

    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY")
                                                  or os.environ.get("WAYLAND_DISPLAY")):
        print(f"--show: no display (neither DISPLAY nor WAYLAND_DISPLAY is set), so no windows "
              f"open; the figures are saved in {out}", file=sys.stderr)
        return False
    wanted = os.environ.get("MPLBACKEND")
    candidates = [wanted] if wanted and wanted.lower() != "agg" else []
    candidates += ["MacOSX", "QtAgg", "GTK4Agg", "GTK3Agg", "TkAgg", "WXAgg"]
    for backend in candidates:
        try:
            plt.switch_backend(backend)
            plt.close(plt.figure())  # opens the toolkit's connection to the display, or fails
            return True
        except Exception:  # not installed, or no display for this toolkit: try the next one
            continue
    print(f"--show: no window toolkit could open a window (tried {', '.join(candidates)}: not "
          f"installed, or no connection to the display; Tk needs the python3-tk package); the "
          f"figures are saved in {out}", file=sys.stderr)
    plt.switch_backend("Agg")
    return False


def _fmt(a: np.ndarray, fmt: str) -> str:
    if a.ndim == 0:
        return fmt.format(float(a))
    return "[" + " ".join(fmt.format(float(v)) for v in a.ravel()) + "]"


def _cell(c, student: bool = False) -> str:
    if student and isinstance(c, (float, np.floating)) and np.isnan(c):
        return "–"  # student mode: a value the student's function does not give
    if isinstance(c, (float, np.floating)):
        return f"{c:.4g}" if abs(c) < 1e4 else f"{c:.3e}"
    return str(c)


def _json(c):
    if isinstance(c, (np.integer,)):
        return int(c)
    if isinstance(c, (np.floating,)):
        return float(c)
    return c
