"""The command line and the report every lecture script shares.

``python lectures/NN_topic/run.py [--quick] [--out DIR] [--show]``

A `Lecture` prints each reproduced number beside its reference, writes figures and
``results.json`` under ``DIR`` (default ``figures/NN_topic/``), and in full mode exits with status
1 when a number misses its reference by more than the stated tolerance, so that ``make lectures``
fails loudly instead of printing a wrong table. In ``--quick`` mode (a deterministic subsample,
used by the test suite) references are printed but not enforced.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]


class Lecture:
    """Command-line options, progress, checks against the notes, figures and results.json."""

    def __init__(self, name: str, description: str, argv=None):
        parser = argparse.ArgumentParser(prog=f"lectures/{name}/run.py", description=description)
        parser.add_argument("--quick", action="store_true",
                            help="deterministic subsample; runs in seconds (used by the tests)")
        parser.add_argument("--out", type=Path, default=REPO / "figures" / name,
                            help="folder for figures and results.json (default figures/%(prog)s)")
        parser.add_argument("--show", action="store_true", help="also open figure windows")
        args = parser.parse_args(argv)
        self.name = name
        self.quick: bool = args.quick
        self.show: bool = args.show
        self.out: Path = args.out
        self.out.mkdir(parents=True, exist_ok=True)
        self.results: dict = {"lecture": name, "mode": "quick" if self.quick else "full",
                              "checks": [], "tables": {}, "figures": []}
        self.failures: list[str] = []
        self.t0 = time.perf_counter()
        if self.show:
            import matplotlib

            matplotlib.use("TkAgg", force=True)
        print(f"# {name} ({'quick' if self.quick else 'full'} mode)")

    # -- progress and printing ----------------------------------------------------------------
    def progress(self, msg: str) -> None:
        """One line of progress on stderr, with the elapsed time."""
        print(f"[{self.name} {time.perf_counter() - self.t0:7.1f}s] {msg}", file=sys.stderr,
              flush=True)

    def section(self, title: str) -> None:
        print(f"\n## {title}")

    def check(self, what: str, measured, reference=None, tol: float | None = None,
              fmt: str = "{:.4f}", known_gap: str | None = None) -> None:
        """Print ``measured`` beside ``reference`` and record whether it is within ``tol``.

        ``measured`` and ``reference`` may be scalars or arrays (compared elementwise, max abs
        difference). Without a reference the value is only reported. ``known_gap`` marks a
        reference of the notes that the lecture's README shows cannot be reproduced, and says
        why in a few words: a miss is then printed as such and listed in results.json under
        ``known_gaps``, without failing the run. Every other miss fails full mode.
        """
        m = np.asarray(measured, dtype=float)
        entry = {"what": what, "measured": m.tolist()}
        text = _fmt(m, fmt)
        if reference is None:
            print(f"{what}: {text}")
        else:
            r = np.asarray(reference, dtype=float)
            diff = float(np.max(np.abs(m - r)))
            ok = diff <= (tol if tol is not None else 0.0) + 1e-12
            status = "ok" if ok else ("differs (quick mode)" if self.quick else "MISMATCH")
            if not ok and not self.quick and known_gap:
                status = f"DIFFERS FROM THE NOTES ({known_gap})"
            print(f"{what}: {text}   reference {_fmt(r, fmt)}   |diff| {diff:.3g}"
                  f" (tol {tol if tol is not None else 0:g}) {status}")
            entry.update(reference=r.tolist(), tol=tol, abs_diff=diff, ok=ok)
            if not ok and not self.quick:
                if known_gap:
                    self.results.setdefault("known_gaps", []).append(
                        {"what": what, "why": known_gap})
                else:
                    self.failures.append(what)
        self.results["checks"].append(entry)

    def table(self, key: str, title: str, header: list[str], rows: list[list]) -> None:
        """Print an aligned table and store it in results.json under ``key``."""
        cells = [[str(h) for h in header]] + [[_cell(c) for c in r] for r in rows]
        widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
        print(f"\n{title}")
        for j, r in enumerate(cells):
            print("  " + "  ".join(c.rjust(w) if i else c.ljust(w)
                                   for i, (c, w) in enumerate(zip(r, widths))))
            if j == 0:
                print("  " + "  ".join("-" * w for w in widths))
        self.results["tables"][key] = {"title": title, "header": header,
                                       "rows": [[_json(c) for c in r] for r in rows]}

    def figure(self, fig, filename: str) -> None:
        """Save a figure under the output folder (and show it with ``--show``)."""
        from mlpr.plots import save_figure

        path = save_figure(fig, self.out / filename, close=not self.show)
        self.results["figures"].append(path.name)

    def finish(self) -> None:
        """Write results.json; exit 1 if a full-mode check missed its reference."""
        self.results["seconds"] = round(time.perf_counter() - self.t0, 2)
        self.results["failures"] = self.failures
        with open(self.out / "results.json", "w") as f:
            json.dump(self.results, f, indent=1)
        print(f"\n{len(self.results['figures'])} figures and results.json written to {self.out}"
              f" in {self.results['seconds']:.1f} s")
        if self.show:
            import matplotlib.pyplot as plt

            plt.show()
        if self.failures:
            print(f"MISMATCH with the notes: {', '.join(self.failures)}", file=sys.stderr)
            sys.exit(1)


def _fmt(a: np.ndarray, fmt: str) -> str:
    if a.ndim == 0:
        return fmt.format(float(a))
    return "[" + " ".join(fmt.format(float(v)) for v in a.ravel()) + "]"


def _cell(c) -> str:
    if isinstance(c, (float, np.floating)):
        return f"{c:.4g}" if abs(c) < 1e4 else f"{c:.3e}"
    return str(c)


def _json(c):
    if isinstance(c, (np.integer,)):
        return int(c)
    if isinstance(c, (np.floating,)):
        return float(c)
    return c
