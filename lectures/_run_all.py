"""Run the lectures whose results are out of date (``make lectures``), several at a time.

``.venv/bin/python lectures/_run_all.py [--jobs N] [--format png,pdf] [--figures DIR]
[--only NN ...] [--force] [--dry-run] [-- lecture arguments, e.g. --quick]``

Incremental: a lecture runs when its results are out of date (`_inputs.why_rerun`): no results,
its last run failed or was interrupted, it ran with other arguments (another mode), or one of
its inputs changed since (its script, its references.json, ``lectures/_lecture.py``, the mlpr
definitions its run can reach, the data files it reads: `lectures/_inputs.py`). A lecture that
ends ok records its inputs in ``DIR/NN_topic/inputs.json``. ``--force`` (``make lectures
FORCE=1``) runs every lecture; ``--only`` runs the lectures it names, up to date or not;
``--dry-run`` (``DRY=1``) says which would run, why, and how long they should take, and runs none.

Each lecture runs in its own process with one BLAS thread, ``--jobs`` of them at once (default:
the number of cores this process may use), longest first according to the previous run of the
same mode (or, when ``DIR`` holds none, the typical times of ``lectures/_durations.json``), so
that the long lectures do not end the run alone. A lecture's output goes to its
log file, ``DIR/logs/NN_topic.log`` (``DIR`` is ``figures/`` unless ``--figures``), so that two
lectures never interleave their lines; the console gets one line when a lecture starts (with the
ETA from its previous run), one when it ends (its time, its log), and the tail of the log of a
lecture that failed. The exit status is 1 when any lecture failed, after all have run;
interrupted (Ctrl-C, SIGTERM), it stops the lectures it started. After the run, the seconds of
the lectures that ended ok replace theirs in ``lectures/_durations.json``, and ``docs/timings.md``
is written from that file.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import _inputs
import _readme

REPO = Path(__file__).resolve().parents[1]


def lectures(only=()) -> list[str]:
    """The lecture folders (``NN_topic``) that have a ``run.py``, optionally only some."""
    names = sorted(p.parent.name for p in (REPO / "lectures").glob("[0-9][0-9]_*/run.py"))
    if only:
        keep = [n for n in names if any(n == o or n.split("_")[0] == o for o in only)]
        missing = [o for o in only if not any(n == o or n.split("_")[0] == o for n in names)]
        if missing:
            raise SystemExit(f"--only: no lecture {', '.join(missing)}; the lectures are "
                             f"{', '.join(names)}")
        return keep
    return names


def previous_seconds(results: Path, mode: str) -> float | None:
    """The duration of the previous run of this mode, from its results.json, if any."""
    try:
        last = json.loads(results.read_text())
        return float(last["seconds"]) if last.get("mode") == mode else None
    except (OSError, ValueError, KeyError, TypeError):
        return None


def typical_seconds(mode: str) -> dict[str, float]:
    """The typical duration of each lecture in this mode (``lectures/_durations.json``)."""
    try:
        return json.loads((REPO / "lectures" / "_durations.json").read_text()).get(mode, {})
    except (OSError, ValueError):
        return {}


@dataclasses.dataclass
class _Plan:
    """What a run of the lectures does: which lectures, how many at once, the command line of
    each, where the logs go, and what it expects of each one's duration."""

    names: list[str]  # every lecture of the run, in folder order
    jobs: int  # lectures at once
    lecture_args: list[str]  # for every lecture, e.g. ["--quick"]
    figures: Path  # the results root: DIR/NN_topic, DIR/logs
    format: str | None  # --format for every lecture
    mode: str  # "quick" or "full"
    env: dict  # the lectures' environment (one BLAS thread, Agg)
    eta: dict  # lecture -> expected seconds, or None
    eta_source: dict  # lecture -> "previous" (its last run) or "typical" (_durations.json)
    inputs: dict = dataclasses.field(default_factory=dict)  # lecture -> its inputs' hashes
    run_args: list = dataclasses.field(default_factory=list)  # recorded with the inputs
    took: dict = dataclasses.field(default_factory=dict)  # lecture -> seconds, once ended
    load: dict = dataclasses.field(default_factory=dict)  # lecture -> load averages seen

    @property
    def logs(self) -> Path:
        return self.figures / "logs"

    def command(self, name: str) -> list[str]:
        cmd = [sys.executable, str(REPO / "lectures" / name / "run.py"), *self.lecture_args,
               "--out", str(self.figures / name)]
        return cmd + (["--format", self.format] if self.format else [])


def _clock(t: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(t))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    parser.add_argument("--jobs", "-j", type=int, default=None,
                        help=f"lectures run at once (default: the cores available, {cpus})")
    parser.add_argument("--format", default=None, help="passed to each lecture (png,pdf,svg)")
    parser.add_argument("--figures", type=Path, default=REPO / "figures",
                        help="results root: each lecture writes DIR/NN_topic (default figures/)")
    parser.add_argument("--only", nargs="+", default=(), metavar="NN",
                        help="run these lectures (folder names or their numbers), up to date "
                             "or not")
    parser.add_argument("--force", action="store_true",
                        help="run every lecture, even those whose results are up to date")
    parser.add_argument("--dry-run", action="store_true",
                        help="say which lectures would run, why, and their expected time; "
                             "run none")
    parser.add_argument("lecture_args", nargs="*",
                        help="after --: arguments for every lecture, e.g. --quick")
    args = parser.parse_args(argv)
    jobs = max(1, args.jobs or cpus or 1)
    mode = "quick" if "--quick" in args.lecture_args else "full"
    every = lectures(args.only)
    run_args = list(args.lecture_args) + (["--format", args.format] if args.format else [])
    sources = _inputs.Sources(REPO)
    inputs = {n: sources.inputs(n) for n in every}
    why = {n: ("--force" if args.force else "named by --only" if args.only else
               _inputs.why_rerun(args.figures / n, run_args, inputs[n])) for n in every}
    names = [n for n in every if why[n] is not None]
    for n in every:
        if why[n] is None:
            print(f"up to date: {n} (last ran {_last_ran(args.figures / n)})", flush=True)
        else:
            print(f"to run: {n} ({why[n]})", flush=True)
    logs = args.figures / "logs"
    eta = {n: previous_seconds(args.figures / n / "results.json", mode) for n in names}
    typical = typical_seconds(mode)
    source = {n: "previous" if eta[n] is not None else "typical" for n in names}
    eta.update({n: float(typical[n]) for n in names if eta[n] is None and n in typical})
    # longest first (unknown durations first too: they may be long), then in folder order
    queue = sorted(names, key=lambda n: -(eta[n] if eta[n] is not None else float("inf")))
    known = [s for s in eta.values() if s is not None]
    expected = (f"; {sum(known) / 60:.1f} min of lectures expected one after the other, about "
                f"{_makespan([eta[n] for n in queue], jobs, []) / 60:.1f} min {jobs} at a time"
                if names and len(known) == len(names) else "")
    if args.dry_run:
        print(f"make lectures (dry run): {len(names)} of {len(every)} lectures would run in "
              f"{mode} mode, {jobs} at a time{expected}", flush=True)
        for n in queue:
            whence = ("its previous run" if source[n] == "previous"
                      else "lectures/_durations.json")
            print(f"  {n}: " + (f"{eta[n]:.0f} s ({whence})" if eta[n] is not None
                                else "no time known"), flush=True)
        return 0
    if not names:
        print(f"make lectures: every lecture is up to date in {mode} mode (FORCE=1 reruns "
              f"them all)", flush=True)
        return 0
    logs.mkdir(parents=True, exist_ok=True)
    print(f"make lectures: {len(names)} lectures in {mode} mode, {jobs} at a time, one BLAS "
          f"thread each; logs in {logs}" + expected, flush=True)
    env = dict(os.environ, MPLBACKEND="Agg")
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env.setdefault(var, "1")
    plan = _Plan(names=names, jobs=jobs, lecture_args=list(args.lecture_args),
                 figures=args.figures, format=args.format, mode=mode, env=env, eta=eta,
                 eta_source=source, inputs=inputs, run_args=run_args)
    running: dict[str, tuple[subprocess.Popen, float, object]] = {}
    failed: list[str] = []
    t0 = time.time()
    signal.signal(signal.SIGTERM, _terminate)
    try:
        _loop(plan, queue, running=running, failed=failed)
    except KeyboardInterrupt:
        for name, (proc, _, log) in running.items():
            proc.terminate()
            proc.wait()
            log.close()
            print(f"make lectures: interrupted; stopped {name}", flush=True)
        return 130
    print(f"make lectures: {len(names) - len(failed)} of {len(names)} lectures ok in "
          f"{(time.time() - t0) / 60:.1f} min" + (f"; FAILED: {', '.join(failed)}"
                                                   if failed else ""), flush=True)
    took = {n: s for n, s in plan.took.items() if n not in failed}
    if took:
        loads = {n: sum(v) / len(v) for n, v in plan.load.items() if n in took and v}
        record_durations(mode, took, jobs, loads)
        print(f"make lectures: the times of {', '.join(sorted(took))} recorded in "
              f"lectures/_durations.json and docs/timings.md", flush=True)
    return 1 if failed else 0


def _last_ran(folder: Path) -> str:
    try:
        return json.loads((folder / "results.json").read_text())["date"].replace("T", " ")[:16]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return "?"


def record_durations(mode: str, took: dict[str, float], jobs: int, loads: dict | None = None,
                     path: Path | None = None) -> None:
    """Put the seconds of the lectures of this run (``took``, those that ended ok) in
    ``lectures/_durations.json`` under ``mode``, with the day, the lectures at once and the
    machine's mean load average while each ran (``loads``), and write ``docs/timings.md`` from
    the file."""
    path = path or REPO / "lectures" / "_durations.json"
    try:
        doc = json.loads(path.read_text())
    except (OSError, ValueError):
        doc = {}
    today = time.strftime("%Y-%m-%d")
    for name, seconds in took.items():
        doc.setdefault(mode, {})[name] = round(seconds)
        when = {"date": today, "jobs": jobs}
        if (loads or {}).get(name) is not None:
            when["load"] = round(loads[name], 1)
        doc.setdefault("measured", {}).setdefault(mode, {})[name] = when
    for key in ("full", "quick", "measured"):
        if key in doc:
            doc[key] = dict(sorted(doc[key].items()))
    path.write_text(json.dumps(doc, indent=1) + "\n")
    write_timings(doc, path.parents[1] / "docs" / "timings.md")


def write_timings(doc: dict, out: Path) -> Path:
    """``docs/timings.md``: each lecture's seconds in full and quick mode, from
    ``lectures/_durations.json`` (``doc``), with when and how each was measured."""
    measured = doc.get("measured", {})
    names = sorted(set(doc.get("full", {})) | set(doc.get("quick", {})))

    def cell(mode, name):
        s = doc.get(mode, {}).get(name)
        if s is None:
            return "?"
        when = measured.get(mode, {}).get(name)
        text = f"{s / 60:.1f} min" if s >= 60 else f"{s:.0f} s"
        load = f", load {when['load']:g}" if when and "load" in when else ""
        return text + (f" ({when['date']}, {when['jobs']} at a time{load})" if when else "")

    full = sorted(doc.get("full", {}).values(), reverse=True)
    origin = doc.get("origin")
    lines = [
        "# Lecture timings",
        "",
        "Written by `make lectures` (`lectures/_run_all.py`) from `lectures/_durations.json` "
        "after each run: do not edit by hand. Each lecture's time is the wall time of its last "
        "run that ended ok, with one BLAS thread, several lectures at a time: the date and the "
        "number of lectures at once follow each time a run recorded"
        + (f"; the others are the file's first measurements ({origin})." if origin else ".")
        + " A loaded machine takes several times longer"
        + ("; the load is the machine's mean load average while the lecture ran (2: a 2-core "
           "machine kept busy by the lectures alone)." if any(
               "load" in w for m in measured.values() for w in m.values()) else "."),
        "",
        "| lecture | full mode | quick mode |",
        "|---|---|---|",
        *(f"| [`{n}`](../lectures/{n}) | {cell('full', n)} | {cell('quick', n)} |"
          for n in names),
        "",
        f"Every lecture in full mode: {sum(full) / 60:.1f} min one after the other, about "
        f"{_makespan(full, 2, []) / 60:.1f} min two at a time, longest first, as `make lectures` "
        f"runs them on 2 cores (`FORCE=1`). Without `FORCE`, it reruns only the lectures whose "
        f"inputs changed: `make lectures DRY=1` lists them with their expected time.",
        "",
    ]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines))
    return out


def _terminate(signum, frame):
    raise KeyboardInterrupt


def _loop(plan: _Plan, queue: list[str], *, running: dict, failed: list[str]) -> None:
    """Start the lectures of ``queue`` while workers are free, report each as it ends, until
    all have run; ``running`` (name -> process, start, log) and ``failed`` are the caller's, so
    that an interruption can stop what runs."""
    done, jobs, eta, logs, names = 0, plan.jobs, plan.eta, plan.logs, plan.names
    while queue or running:
        while queue and len(running) < jobs:
            name = queue.pop(0)
            # no record while it runs: interrupted or failed, it runs again next time
            (plan.figures / name / _inputs.RECORD).unlink(missing_ok=True)
            log = open(logs / f"{name}.log", "w")  # closed when the lecture ends
            start = time.time()
            running[name] = (subprocess.Popen(plan.command(name), stdout=log,
                                              stderr=subprocess.STDOUT, env=plan.env, cwd=REPO),
                             start, log)
            source, mode = plan.eta_source, plan.mode
            hint = (f"{'previous' if source[name] == 'previous' else 'typical'} {mode} run "
                    f"{eta[name]:.0f} s, ETA {_clock(start + eta[name])}"
                    if eta[name] is not None else f"no previous {mode} run to time it by")
            print(f"[{_clock(start)}] start {name} ({hint})", flush=True)
        time.sleep(0.2)
        if hasattr(os, "getloadavg"):  # the machine's load while each lecture runs
            now_load = os.getloadavg()[0]
            for name in running:
                plan.load.setdefault(name, []).append(now_load)
        for name, (proc, start, log) in list(running.items()):
            if proc.poll() is None:
                continue
            log.close()
            del running[name]
            done += 1
            took = time.time() - start
            results = plan.figures / name / "results.json"
            wrote = results.exists() and results.stat().st_mtime >= start - 1
            if proc.returncode == 0 and wrote:
                plan.took[name] = took
            status = "ok" if proc.returncode == 0 else f"FAILED (exit {proc.returncode})"
            now = time.time()
            busy = [eta[n] and max(0.0, eta[n] - (now - running[n][1])) for n in running]
            left = [eta[n] for n in queue]
            rest = (f"; all done by about {_clock(now + _makespan(left, jobs, busy))}"
                    if (left or busy) and None not in left + busy else "")
            print(f"[{_clock(time.time())}] {done}/{len(names)} {name} {status} in {took:.0f} s"
                  f" (log {logs / (name + '.log')}){rest}", flush=True)
            if proc.returncode != 0:
                failed.append(name)
                tail = (logs / f"{name}.log").read_text().splitlines()[-25:]
                print("\n".join(f"  {name} | {line}" for line in tail), flush=True)
            elif plan.mode == "full":  # the README's tables from this run (lectures/_readme.py)
                try:
                    results = json.loads((plan.figures / name / "results.json").read_text())
                    used = _readme.update(name, results)
                except (OSError, ValueError, KeyError) as exc:
                    failed.append(name)
                    print(f"  {name}: its README's tables could not be rewritten: {exc}",
                          flush=True)
                else:
                    if used:
                        print(f"  {name}: README tables {', '.join(used)} rewritten from this "
                              f"run", flush=True)
            if proc.returncode == 0 and wrote and name not in failed:
                _inputs.record(plan.figures / name, name, plan.run_args, plan.inputs[name])


def _makespan(seconds: list[float], jobs: int, busy: list[float]) -> float:
    """The time left when the lectures of ``seconds`` (longest first) go one by one to whichever
    of the ``jobs`` workers frees up first, the running ones being busy for ``busy`` more."""
    loads = sorted(list(busy) + [0.0] * max(0, jobs - len(busy)))
    for s in seconds:
        loads[0] += s
        loads.sort()
    return max(loads)


if __name__ == "__main__":
    sys.exit(main())
