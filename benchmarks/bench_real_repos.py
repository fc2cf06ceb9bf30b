"""Grade real repositories as a TA receives them, and count what the plan made of each.

``python benchmarks/bench_real_repos.py PATH... [--seed 1] [--kit PATH] [--json OUT]`` grades
each repository whole with the defaults (``python -m mlpr.grading --seed 1 --format json``) and
prints, per repository: the tasks graded from the student's own files and from the course's
files (a task's file recognised as the course's by `mlpr.grading.child.discover.course_file`,
or its function a published one), passed and failed, the folders read as labs, the modules
that could not be imported, the ``--map`` lines proposed, and whether a note was cut without
saying so. ``--kit PATH`` grades with the kit of another checkout (the numbers of a commit
before a change: ``git worktree add /tmp/before COMMIT``).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from mlpr.grading.child import discover  # noqa: E402


def _course_copy(root: Path, rel: str, name: str) -> bool:
    """Whether the graded file ``rel`` of ``root`` is the course's (by content), or its function
    ``name`` is a published one."""
    f = root / rel
    if not f.is_file():
        f = root.parent / rel
    try:
        source, _ = discover.read_source(f)
        tree = ast.parse(source)
    except Exception:
        return False
    return bool(discover.course_file(source, discover.definitions(tree),
                                     solution=discover.in_solution_folder(rel))) or \
        discover.definitions(tree, long=True).get(name) in discover.COURSE


def measure(root: Path, seed: int, kit: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(kit))
    out = subprocess.run([sys.executable, "-m", "mlpr.grading", "--seed", str(seed),
                          "--format", "json", "--", str(root)], capture_output=True, text=True,
                         env=env, cwd=kit, timeout=1800)
    try:
        (rep,) = json.loads(out.stdout)
    except ValueError:
        return {"repository": root.name, "error": (out.stderr or out.stdout)[-500:]}
    own = course = passed = failed = 0
    for r in rep["results"]:
        if r["status"] not in ("passed", "failed"):
            continue
        rel, _, rest = r["file"].partition(" (")
        name = rest.rstrip(")").rpartition(".")[2] or r["name"].split(" ")[0]
        is_course = bool(rel) and _course_copy(root, rel, name)
        course += is_course
        own += not is_course
        passed += r["status"] == "passed"
        failed += r["status"] == "failed"
    plan = rep.get("plan", {})
    labs = [f["folder"] for f in plan.get("folders", []) if f["role"] == "lab"]
    failed_imports = len(plan.get("not_imported", []))
    if not plan:  # a kit without a plan: the folders its graded files sit in, its notes
        from mlpr.grading.plan import lab_of
        labs = sorted({r["file"].rpartition("/")[0] for r in rep["results"] if r["file"]
                       and lab_of(Path(r["file"]).parts[:-1]) is not None})
        failed_imports = sum("could not be imported" in n for n in rep["notes"])
    cut = [n for n in rep["notes"] if n.endswith("...") or n.endswith("…")]
    return {"repository": root.name, "own": own, "course": course, "passed": passed,
            "failed": failed, "lab_folders": len(labs), "not_imported":
            failed_imports, "proposed": len(rep.get("proposed", [])),
            "cut_silently": len(cut), "year": plan.get("year", ""),
            "seconds": round(rep["seconds"], 1)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("paths", nargs="+", type=Path)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--kit", type=Path, default=REPO, help="the checkout whose kit grades")
    p.add_argument("--json", type=Path, help="write the rows here")
    args = p.parse_args(argv)
    rows = [measure(path.resolve(), args.seed, args.kit.resolve()) for path in args.paths]
    cols = ["repository", "own", "course", "passed", "failed", "lab_folders", "not_imported",
            "proposed", "cut_silently", "year", "seconds"]
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for r in rows:
        print("| " + " | ".join(str(r.get(c, r.get("error", ""))) for c in cols) + " |")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
