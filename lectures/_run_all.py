"""Run every lecture (``make lectures``), several at a time when the machine has the cores.

``.venv/bin/python lectures/_run_all.py [--jobs N] [--format png,pdf] [--figures DIR]
[--only NN ...] [-- lecture arguments, e.g. --quick]``

Each lecture runs in its own process with one BLAS thread, ``--jobs`` of them at once (default:
the number of cores this process may use), longest first according to the previous run of the
same mode (or, when ``DIR`` holds none, the typical times of ``lectures/_durations.json``), so
that the long lectures do not end the run alone. A lecture's output goes to its
log file, ``DIR/logs/NN_topic.log`` (``DIR`` is ``figures/`` unless ``--figures``), so that two
lectures never interleave their lines; the console gets one line when a lecture starts (with the
ETA from its previous run), one when it ends (its time, its log), and the tail of the log of a
lecture that failed. The exit status is 1 when any lecture failed, after all have run;
interrupted (Ctrl-C, SIGTERM), it stops the lectures it started.
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
                        help="run only these lectures (folder names or their numbers)")
    parser.add_argument("lecture_args", nargs="*",
                        help="after --: arguments for every lecture, e.g. --quick")
    args = parser.parse_args(argv)
    jobs = max(1, args.jobs or cpus or 1)
    mode = "quick" if "--quick" in args.lecture_args else "full"
    names = lectures(args.only)
    logs = args.figures / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    eta = {n: previous_seconds(args.figures / n / "results.json", mode) for n in names}
    typical = typical_seconds(mode)
    source = {n: "previous" if eta[n] is not None else "typical" for n in names}
    eta.update({n: float(typical[n]) for n in names if eta[n] is None and n in typical})
    # longest first (unknown durations first too: they may be long), then in folder order
    queue = sorted(names, key=lambda n: -(eta[n] if eta[n] is not None else float("inf")))
    known = [s for s in eta.values() if s is not None]
    print(f"make lectures: {len(names)} lectures in {mode} mode, {jobs} at a time, one BLAS "
          f"thread each; logs in {logs}"
          + (f"; {sum(known) / 60:.1f} min of lectures expected one after the other, about "
             f"{_makespan([eta[n] for n in queue], jobs, []) / 60:.1f} min {jobs} at a time"
             if len(known) == len(names) else ""), flush=True)
    env = dict(os.environ, MPLBACKEND="Agg")
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env.setdefault(var, "1")
    plan = _Plan(names=names, jobs=jobs, lecture_args=list(args.lecture_args),
                 figures=args.figures, format=args.format, mode=mode, env=env, eta=eta,
                 eta_source=source)
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
    return 1 if failed else 0


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
        for name, (proc, start, log) in list(running.items()):
            if proc.poll() is None:
                continue
            log.close()
            del running[name]
            done += 1
            took = time.time() - start
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
