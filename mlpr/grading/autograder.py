r"""A Gradescope autograder from one command: ``python -m mlpr.grading autograder``.

Gradescope runs an autograder in a fresh container per submission, from a zip file laid out as
its specification asks (https://gradescope-autograders.readthedocs.io/en/latest/specs/):
``setup.sh`` (run once, when Gradescope builds the image, from ``/autograder/source`` where the
zip is unpacked) and ``run_autograder`` (run for each submission, in ``/autograder``, with the
student's files in ``/autograder/submission``; it must write ``/autograder/results/results.json``).
`build` writes that zip:

``setup.sh``
    Creates two virtual environments from one Python, with packages from the package index:
    ``/autograder/submission-venv``, the submissions' Python, readable by anyone, with mlpr's
    dependencies and its ``grading`` extra (numpy, scipy, matplotlib, scikit-learn: what the
    course's labs import) and no mlpr; and ``/autograder/mlpr-venv``, the grader's, readable by
    root only, with the mlpr wheel of the zip and a ``.pth`` file through which it uses the
    packages of the first (installed once). It makes ``/autograder/source`` (the zip's files,
    the wheel among them) readable by root only, and checks (`check_setup`) that a submission
    run under a user id of its own can neither import mlpr nor read its files. It touches
    nothing else, except that, as root with ``apt-get``, it tries to install Debian's
    ``bubblewrap`` (the kit's strongest sandbox); a failure there is reported and not fatal (the
    kit then uses the next isolation, and says so in each result).
``run_autograder``
    Runs `run` in the grader's environment, each submission run by the submissions' Python: the
    kit grades ``/autograder/submission`` with the labs, points, visibility and time limit
    recorded in ``mlpr-autograder.json``, and writes ``results.json``, also when the submission
    cannot be imported (every test at 0 with the reason). If the kit itself fails,
    ``results.json`` gets score 0 and the reason; if Python cannot even start, the shell script
    writes that file itself. ``MLPR_AUTOGRADER_ISOLATION`` demands an isolation. The cases'
    seed is derived (`replay_seed`) from a secret that setup.sh makes once per image and the
    students named in Gradescope's ``submission_metadata.json``: a regrade replays the same
    cases, two students get different ones, and the report prints the seed.
``mlpr-autograder.json``
    The choices made when the zip was built: ``labs``, ``points`` ({task name: points}; the
    others keep 1 point), ``visibility``, ``timeout`` (seconds per task).
``mlpr-<version>-py3-none-any.whl``
    mlpr itself, datasets included, built from this repository with ``pip wheel --no-deps``.

The zip is reproducible: the same inputs (the repository's files, the options, the setuptools
that builds the wheel) give the same bytes. The wheel is built with ``SOURCE_DATE_EPOCH`` set and
then re-packed (entries sorted, ``RECORD`` last, one timestamp, fixed permissions), and so is the
zip. The root ``/autograder`` can be moved with the environment variable ``AUTOGRADER_ROOT``
(the tests use a temporary folder).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import hmac
import io
import json
import math
import os
import secrets
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import traceback
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path

import mlpr
from mlpr.datasets import load_iris
from mlpr.grading import course, environment, formats, runner, sandbox

__all__ = ["CONFIG_NAME", "DEFAULT_ROOT", "GRADER_VENV", "SUBMISSION_VENV", "ISOLATION_VARIABLE",
           "SETUP_SH", "setup_script", "RUN_AUTOGRADER", "repository", "build_wheel",
           "check_points",
           "with_points", "build", "check_setup", "SECRET_NAME", "METADATA_NAME", "replay_seed",
           "run", "main"]

#: The zip's record of the choices made when it was built.
CONFIG_NAME = "mlpr-autograder.json"
#: Where Gradescope puts everything; ``$AUTOGRADER_ROOT`` overrides it.
DEFAULT_ROOT = "/autograder"
#: Under the root: the grader's environment (mlpr; root only) and the submissions' (no mlpr).
GRADER_VENV = "mlpr-venv"
SUBMISSION_VENV = "submission-venv"
#: Demands an isolation of `run` (``bubblewrap``, ``user`` or ``process``; default: the
#: strongest available).
ISOLATION_VARIABLE = "MLPR_AUTOGRADER_ISOLATION"

# every entry of the wheel and of the zip gets this timestamp (the earliest a zip can hold), and
# the wheel's build sees it as SOURCE_DATE_EPOCH
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)
_SOURCE_DATE_EPOCH = "315532800"
# already compressed: stored as they are (deflating them again only costs time)
_STORED = (".gz", ".whl", ".zip", ".png")

#: Run once by Gradescope, from /autograder/source, when it builds the autograder's image.
SETUP_SH = r"""#!/usr/bin/env bash
# Gradescope runs this once, from /autograder/source, when it builds the autograder's image
# (written by `python -m mlpr.grading autograder`). From one Python it creates
#   $ROOT/submission-venv  the submissions' Python: mlpr's dependencies and its grading extra
#                          (numpy, scipy, matplotlib, scikit-learn), no mlpr; readable by anyone
#   $ROOT/mlpr-venv        the grader's: mlpr, which reaches the packages above through a .pth
#                          file (installed once); readable by root only
# and makes this folder (the wheel) readable by root only, so that a submission run under a user
# id of its own can neither import nor read the reference. It changes nothing else on the machine
# but the optional apt package bubblewrap (the grading kit's strongest sandbox).
#   AUTOGRADER_ROOT    the root, default /autograder
#   AUTOGRADER_PYTHON  the Python to build the environments from (default: the newest python3.N)
#   MLPR_AUTOGRADER_APT=0  do not try to install bubblewrap
set -euo pipefail
umask 022  # the sandbox's own user must be able to read the submissions' environment
ROOT="${AUTOGRADER_ROOT:-/autograder}"
SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="$ROOT/mlpr-venv"
SUBMISSION_VENV="$ROOT/submission-venv"
say() { echo "setup.sh: $*" >&2; }
T0=$SECONDS

# 1. optional: bubblewrap; without it the kit runs each submission under the next isolation and
#    names it in every result
if [ "${MLPR_AUTOGRADER_APT:-1}" != 0 ] && ! command -v bwrap >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        { DEBIAN_FRONTEND=noninteractive apt-get update -q \
          && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
             bubblewrap; } \
            || say "could not install bubblewrap (not fatal: the kit uses its fallback isolation)"
    else
        say "no bubblewrap, no root apt-get (not fatal: the kit uses its fallback isolation)"
    fi
fi

# 2. a Python >= 3.10 (mlpr's requires-python)
PY="${AUTOGRADER_PYTHON:-}"
if [ -z "$PY" ]; then
    for candidate in python3.14 python3.13 python3.12 python3.11 python3.10 python3; do
        if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c \
                'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
            PY="$candidate"; break
        fi
    done
fi
[ -n "$PY" ] || { say "mlpr needs Python >= 3.10 and none was found"; exit 1; }
say "building $SUBMISSION_VENV and $VENV with" \
    "$("$PY" -c 'import sys; print(sys.executable, sys.version.split()[0])')"
WHEELS=("$SOURCE"/mlpr-*.whl)
if [ "${#WHEELS[@]}" != 1 ] || [ ! -f "${WHEELS[0]}" ]; then
    say "expected one mlpr-*.whl in $SOURCE"; exit 1
fi

# 3. the submissions' environment: the wheel with its dependencies and the grading extra, then
#    mlpr removed (pip resolves exactly what mlpr needs); where ensurepip is missing (Debian's
#    python3 without python3-venv), pip is bootstrapped from its own wheel
if ! "$PY" -m venv --clear "$SUBMISSION_VENV"; then
    say "python -m venv failed; creating it without pip and bootstrapping pip from its wheel"
    "$PY" -m venv --clear --without-pip "$SUBMISSION_VENV"
    TMP="$(mktemp -d)"
    "$PY" -m pip download --no-deps --disable-pip-version-check -q -d "$TMP" pip
    "$SUBMISSION_VENV/bin/python" "$(ls "$TMP"/pip-*.whl)/pip" install --no-index -q \
        "$(ls "$TMP"/pip-*.whl)"
    rm -rf "$TMP"
fi
SPIP=("$SUBMISSION_VENV/bin/python" -m pip --no-input --disable-pip-version-check)
# the course's releases (mlpr.grading.environment.PINS, the kit's one declaration of them:
# numpy < 2.4, whose refusal of '%e' % a 1-element array fails the course's SVM printing, ...)
"${SPIP[@]}" install --progress-bar off "${WHEELS[0]}[grading]" @PINS@
"${SPIP[@]}" uninstall --yes -q mlpr
if ! "$SUBMISSION_VENV/bin/python" -I -c \
        'import importlib.util, sys; sys.exit(importlib.util.find_spec("mlpr") is not None)'; then
    say "mlpr is still importable from $SUBMISSION_VENV"; exit 1
fi

# 4. the grader's environment, root only: mlpr alone; the packages of the submissions'
#    environment through a .pth file (the same files, not installed twice)
"$PY" -m venv --clear --without-pip "$VENV"
chmod 0700 "$VENV"
purelib='import sysconfig; print(sysconfig.get_path("purelib"))'
SITE="$("$VENV/bin/python" -I -c "$purelib")"
"$SUBMISSION_VENV/bin/python" -I -c "$purelib" > "$SITE/mlpr-submission-venv.pth"
"${SPIP[@]}" install --progress-bar off --no-deps --no-index --target "$SITE" "${WHEELS[0]}"

# 5. this folder (the zip: the wheel, the configuration) readable by root only, with the
#    autograder's secret (made once, here: every run of this image derives its seed from it and
#    the submission's students, so a regrade replays its cases)
[ -s "$SOURCE/seed-secret" ] || (umask 077; "$PY" -c \
    'import secrets; print(secrets.token_hex(32))' > "$SOURCE/seed-secret")
chmod 0700 "$SOURCE"

# 6. check: mlpr imports and its data verify, the isolation the kit will use and, as root, that
#    a submission under a user id of its own can neither import mlpr nor read its files
"$VENV/bin/python" -I -m mlpr.grading.autograder --root "$ROOT" --check
say "done in $((SECONDS - T0)) s"
"""

def setup_script() -> str:
    """setup.sh, with the submissions' environment's pins (`mlpr.grading.environment.PINS`)."""
    return SETUP_SH.replace("@PINS@", " ".join(shlex.quote(p) for p in environment.PINS))


#: Run by Gradescope for each submission, from /autograder: grade it into results.json.
RUN_AUTOGRADER = r"""#!/usr/bin/env bash
# Gradescope runs this for each submission (written by `python -m mlpr.grading autograder`): the
# grading kit grades $ROOT/submission into $ROOT/results/results.json with the choices of
# $ROOT/source/mlpr-autograder.json, each submission run by the Python of $ROOT/submission-venv
# (no mlpr). A submission that fails, cannot be imported or hangs gets a results.json with the
# reason; so does a failure of the kit itself.
#   AUTOGRADER_ROOT  the root, default /autograder
#   MLPR_AUTOGRADER_ISOLATION  demand an isolation (bubblewrap, user, process; default: the
#                              strongest available)
ROOT="${AUTOGRADER_ROOT:-/autograder}"
RESULTS="$ROOT/results/results.json"
PY="$ROOT/mlpr-venv/bin/python"
mkdir -p "$ROOT/results"
cd "$ROOT" || exit 1
rm -f "$RESULTS"
"$PY" -I -m mlpr.grading.autograder --root "$ROOT" --python "$ROOT/submission-venv/bin/python"
status=$?
CHECK='import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(not (isinstance(d.get("score"), (int, float)) and isinstance(d.get("tests"), list)))'
valid() {  # results.json exists and holds a score and a list of tests
    [ -s "$RESULTS" ] || return 1
    if [ -x "$PY" ]; then "$PY" -c "$CHECK" "$RESULTS" 2>/dev/null; return; fi
    if command -v python3 >/dev/null; then python3 -c "$CHECK" "$RESULTS" 2>/dev/null; return; fi
    return 0
}
if ! valid; then
    echo "run_autograder: the kit exited with status $status and wrote no valid results" >&2
    printf '{"score": 0.0, "tests": [], "stdout_visibility": "hidden", "output": "%s %s %s"}\n' \
        "The autograder failed before grading this submission (the grading kit exited with" \
        "status $status and wrote no results). This is not a mark: ask the course staff, who" \
        "see the autograder output." > "$RESULTS"
fi
exit 0
"""


# ------------------------------------------------------------------------------------------------
# the wheel


def repository() -> Path:
    """The repository this mlpr runs from (the folder of ``pyproject.toml`` and ``datasets/``);
    ValueError when mlpr is installed from a wheel (give the wheel instead)."""
    root = Path(mlpr.__file__).resolve().parents[1]
    project = root / "pyproject.toml"
    if not (project.is_file() and (root / "datasets" / "iris.csv").is_file()
            and 'name = "mlpr"' in project.read_text(encoding="utf-8")):
        raise ValueError(f"mlpr runs from {Path(mlpr.__file__).parent}, not from a clone of its "
                         f"repository: there is no source to build its wheel from; pass "
                         f"--wheel mlpr-*.whl (or run the command from a clone)")
    return root


def _copy_project(source: Path, dest: Path) -> None:
    """The files a wheel is built from: pyproject.toml, the README, license files, ``mlpr/`` and
    ``datasets/``, without caches (never the working tree itself: the build writes there)."""
    dest.mkdir(parents=True)
    licenses = sorted(p.name for p in source.glob("LICEN[CS]E*"))
    for name in ["pyproject.toml", "README.md", *licenses]:
        if (source / name).is_file():
            shutil.copyfile(source / name, dest / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".cache", "*.egg-info", "build",
                                    "datasets_data", ".*")
    for folder in ("mlpr", "datasets"):
        shutil.copytree(source / folder, dest / folder, ignore=ignore,
                        copy_function=shutil.copyfile)


def _zip_entry(name: str, mode: int) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=_ZIP_DATE)
    info.create_system = 3  # Unix, so that the permissions below are read
    info.external_attr = (stat.S_IFREG | mode) << 16
    info.compress_type = zipfile.ZIP_STORED if name.endswith(_STORED) else zipfile.ZIP_DEFLATED
    return info


def _write_zip(path: Path, entries: Sequence[tuple[str, bytes, int]]) -> None:
    """A zip whose bytes depend only on ``entries`` (name, content, permissions), in that order:
    one timestamp, fixed permissions, no extra fields."""
    tmp = path.with_name(path.name + ".tmp")
    with zipfile.ZipFile(tmp, "w") as z:
        for name, data, mode in entries:
            z.writestr(_zip_entry(name, mode), data, compresslevel=9)
    os.replace(tmp, path)


def _normalise_wheel(built: Path, dest: Path) -> None:
    """Re-pack a wheel reproducibly: the same files and RECORD (which hashes contents only),
    sorted, the ``.dist-info`` files last and RECORD the very last, one timestamp, mode 0644."""
    with zipfile.ZipFile(built) as z:
        names = [n for n in z.namelist() if not n.endswith("/")]

        def order(n: str) -> tuple:
            return (".dist-info/" in n, n.endswith(".dist-info/RECORD"), n)

        entries = [(n, z.read(n), 0o644) for n in sorted(names, key=order)]
    _write_zip(dest, entries)


def build_wheel(source: Path, dest: Path) -> Path:
    """Build mlpr's wheel (datasets included) from the repository ``source`` into the folder
    ``dest`` with ``pip wheel --no-deps``, reproducibly; returns its path.

    The build runs on a copy of the project's files in a temporary folder (a build writes
    ``build/`` and ``*.egg-info`` beside its sources), with ``SOURCE_DATE_EPOCH`` set; the wheel
    is then re-packed by `_normalise_wheel`. pip fetches the build backend (setuptools) from the
    package index, or from its cache.
    """
    source, dest = Path(source), Path(dest)
    with tempfile.TemporaryDirectory(prefix="mlpr-wheel-") as tmp:
        tree, out = Path(tmp) / "mlpr", Path(tmp) / "dist"
        _copy_project(source, tree)
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PIP_NO_DEPS")}
        env.update(SOURCE_DATE_EPOCH=_SOURCE_DATE_EPOCH, PYTHONHASHSEED="0")
        cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-input",
               "--disable-pip-version-check", "-q", "-w", str(out), str(tree)]
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=tmp)
        wheels = sorted(out.glob("mlpr-*.whl")) if out.is_dir() else []
        if r.returncode != 0 or len(wheels) != 1:
            tail = "\n".join((r.stderr or r.stdout).strip().splitlines()[-15:])
            raise RuntimeError(f"building mlpr's wheel failed ({' '.join(cmd[2:5])}, status "
                               f"{r.returncode}):\n{tail}")
        dest.mkdir(parents=True, exist_ok=True)
        wheel = dest / wheels[0].name
        _normalise_wheel(wheels[0], wheel)
    return wheel


# ------------------------------------------------------------------------------------------------
# points


def check_points(points: Mapping, labs: Sequence[int]) -> dict:
    """``{task name: points}`` checked against the tasks of ``labs``: every name a task of those
    labs (as ``python -m mlpr.grading --list`` names it), every value a finite number >= 0."""
    if not isinstance(points, Mapping):
        raise ValueError(f"the points must be a JSON object {{task name: points}}, got "
                         f"{type(points).__name__}")
    known = course.tasks(labs)
    out = {}
    for name, value in points.items():
        if name not in known:
            raise ValueError(f"points for {name!r}: no task of that name in lab(s) "
                             f"{', '.join(map(str, labs))}; the tasks are: "
                             f"{', '.join(known)}")
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not math.isfinite(value) or value < 0:
            raise ValueError(f"points for {name!r} must be a finite number >= 0, got {value!r}")
        out[name] = float(value)
    return out


def with_points(report: runner.Report, points: Mapping) -> runner.Report:
    """``report`` with each task of ``points`` worth its points (the others keep theirs): a
    passed task earns them all, a failed one 0, in proportion to what it earned before."""
    results = []
    for r in report.results:
        if r.name in points:
            share = min(r.points, r.max_points) / r.max_points if r.max_points > 0 else 0.0
            r = dataclasses.replace(r, points=points[r.name] * share,
                                    max_points=points[r.name])
        results.append(r)
    return dataclasses.replace(report, results=results)


# ------------------------------------------------------------------------------------------------
# building the zip


def _config(labs: Sequence[int], points: Mapping, visibility: str, timeout: float) -> dict:
    labs = sorted({int(n) for n in labs})
    every = {t.lab for t in course.tasks().values()}
    if not labs:
        raise ValueError("name the labs the assignment grades (--lab N, repeatable)")
    if not set(labs) <= every:
        raise ValueError(f"the labs with tasks are {sorted(every)}, got {labs}")
    if visibility not in formats.VISIBILITIES:
        raise ValueError(f"visibility must be one of {formats.VISIBILITIES}, got {visibility!r}")
    if not (isinstance(timeout, (int, float)) and math.isfinite(timeout) and timeout > 0):
        raise ValueError(f"timeout must be a number of seconds > 0, got {timeout!r}")
    return {"labs": labs, "points": check_points(points, labs), "visibility": visibility,
            "timeout": float(timeout)}


def build(out, labs: Sequence[int], points: Mapping | None = None, visibility: str = "visible",
          timeout: float = runner.TASK_TIMEOUT, wheel=None, source=None) -> list:
    """Write the Gradescope autograder zip ``out``; returns its entries, ``[(name, size)]``.

    Parameters
    ----------
    out : path-like
        The zip to write (replaced atomically).
    labs : sequence of int
        The labs the assignment grades: every task of each, a missing function counting 0.
    points : dict, optional
        ``{task name: points}``; the other tasks are worth 1 point each.
    visibility : {"visible", "after_due_date", "after_published", "hidden"}
        Gradescope's visibility of the results.
    timeout : float
        Time limit of each task, seconds.
    wheel : path-like, optional
        An mlpr wheel to bundle as it is; by default one is built from ``source``.
    source : path-like, optional
        The repository to build the wheel from (default: the one this mlpr runs from).
    """
    config = _config(labs, points or {}, visibility, timeout)
    out = Path(out)
    with tempfile.TemporaryDirectory(prefix="mlpr-autograder-") as tmp:
        if wheel is None:
            wheel = build_wheel(Path(source) if source else repository(), Path(tmp))
        wheel = Path(wheel)
        if not (wheel.is_file() and wheel.name.startswith("mlpr-") and wheel.suffix == ".whl"):
            raise ValueError(f"{wheel} is not an mlpr wheel (mlpr-*.whl)")
        text = json.dumps(config, indent=1, sort_keys=True) + "\n"
        entries = sorted([
            (CONFIG_NAME, text.encode(), 0o644),
            ("run_autograder", RUN_AUTOGRADER.encode(), 0o755),
            ("setup.sh", setup_script().encode(), 0o755),
            (wheel.name, wheel.read_bytes(), 0o644),
        ])
        out.parent.mkdir(parents=True, exist_ok=True)
        _write_zip(out, entries)
    return [(name, len(data)) for name, data, _ in entries]


# ------------------------------------------------------------------------------------------------
# running it (run_autograder, in Gradescope's container)


def _read_config(path: Path) -> dict:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"{path} is missing: the autograder zip is incomplete") from None
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path} cannot be read: {exc}") from None
    if not isinstance(raw, dict):
        raise ValueError(f"{path} must hold a JSON object")
    return _config(raw.get("labs") or [], raw.get("points") or {},
                   raw.get("visibility", "visible"), raw.get("timeout", runner.TASK_TIMEOUT))


def _failure(reason: str, visibility: str = "visible") -> dict:
    """A results.json for a submission the kit could not grade: score 0 and the reason."""
    return {"score": 0.0, "output": formats.one_line(reason, 2000), "visibility": visibility,
            "stdout_visibility": "hidden", "tests": []}


def _root(root) -> Path:
    return Path(root or os.environ.get("AUTOGRADER_ROOT") or DEFAULT_ROOT)


def _use_layout(root: Path, python=None) -> str:
    """The submissions run by ``python``, else ``$MLPR_SUBMISSION_PYTHON``, else the layout's
    ``ROOT/submission-venv/bin/python`` (the grader's own Python when there is none); the zip's
    folder and its wheel are among what `sandbox.reference_reach` checks. Returns the
    interpreter."""
    default = root / SUBMISSION_VENV / "bin" / "python"
    python = python or os.environ.get(sandbox.PYTHON_VARIABLE) or (
        default if default.exists() else None)
    source = root / "source"
    sandbox.protect(source, *sorted(source.glob("mlpr-*.whl")))
    return sandbox.use_python(python)


def check_setup(root=None) -> list:
    """setup.sh's last step, in the grader's environment: mlpr imports and its data verify, the
    submissions' Python runs the harness and imports no mlpr, and, as root, a submission under a
    user id of its own (the isolation ``user``, the fallback without bubblewrap) can neither
    import mlpr nor read mlpr's files, the zip's folder or its wheel. Returns the lines to print;
    RuntimeError when a check fails."""
    root = _root(root)
    load_iris()
    python = _use_layout(root)
    lines = [f"mlpr installed in {Path(mlpr.__file__).parent}, its data verify",
             f"the submissions' Python: {python}"]
    own = sandbox.check_reach(python)  # as root: whether mlpr is installed there at all
    if own.imports or own.error:
        raise RuntimeError(f"the submissions' Python {python} "
                           + (f"imports mlpr ({own.imports})" if own.imports else
                              f"cannot be checked: {own.error}"))
    lines.append(f"the kit will run submissions under {sandbox.choose()}")
    why = sandbox.available("user")
    if why is not None:
        lines.append(f"user (the fallback without bubblewrap) is not available here: {why}")
        return lines
    reach = sandbox.reference_reach("user")
    if not reach.verified:
        raise RuntimeError(f"under the isolation user, {reach.describe()}")
    lines.append(f"under user (the fallback without bubblewrap): {reach.describe()}")
    return lines


#: The autograder's secret, made by setup.sh in ROOT/source (readable by root only)
SECRET_NAME = "seed-secret"
#: What Gradescope writes beside the submission: its students, the assignment
METADATA_NAME = "submission_metadata.json"


def replay_seed(root) -> tuple[int, str]:
    """The run's seed: HMAC-SHA256 of the submission's students (their Gradescope ids, sorted:
    a group is one key) and the assignment's id under the autograder's secret, so that a regrade
    of the same students' submission replays its cases and two students get different ones;
    ``(seed, "")``, or a random seed and the reason when the secret or the metadata is missing
    or unreadable."""
    try:
        secret = (root / "source" / SECRET_NAME).read_bytes().strip()
        meta = json.loads((root / METADATA_NAME).read_text(encoding="utf-8"))
        users = sorted(str(u["id"]) for u in meta["users"])
        if not secret or not users:
            raise ValueError("no secret" if not secret else "no users")
        assignment = str((meta.get("assignment") or {}).get("id", ""))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return secrets.randbelow(2**31), (f"no {SECRET_NAME} and {METADATA_NAME} to derive "
                                          f"it from ({type(exc).__name__}: {exc})")
    key = json.dumps({"assignment": assignment, "users": users}).encode()
    digest = hmac.new(secret, key, hashlib.sha256).digest()
    return int.from_bytes(digest[:4], "big") % 2**31, ""


def run(root=None, python=None, isolation: str | None = None) -> dict:
    """Grade ``ROOT/submission`` into ``ROOT/results/results.json`` as configured by
    ``ROOT/source/mlpr-autograder.json`` (``ROOT``: ``$AUTOGRADER_ROOT`` or ``/autograder``),
    each submission run by the Python ``python`` (by default ``ROOT/submission-venv``'s, see
    `_use_layout`), under the isolation ``isolation`` (default ``$MLPR_AUTOGRADER_ISOLATION``,
    else the strongest available).

    Always writes results.json: a submission that cannot be imported gets every test at 0 with
    the reason (from the kit), and any failure of the kit itself a score of 0 and the reason
    (its traceback goes to stdout, which Gradescope shows the instructors). Returns what it
    wrote.
    """
    t0 = time.monotonic()
    root = _root(root)
    results = root / "results" / "results.json"
    visibility = "visible"
    try:
        config = _read_config(root / "source" / CONFIG_NAME)
        visibility = config["visibility"]
        submission = root / "submission"
        if not submission.is_dir():
            raise ValueError(f"there is no submission folder {submission}")
        _use_layout(root, python)
        isolation = isolation or os.environ.get(ISOLATION_VARIABLE) or "auto"
        seed, why = replay_seed(root)
        if why:
            print(f"a seed of its own for this run: {why}")
        report = runner.grade(submission, labs=config["labs"], timeout=config["timeout"],
                              seed=seed, isolation=isolation)
        report = with_points(report, config["points"])
        doc = formats.format_gradescope(report, visibility)
        print(formats.format_text([report]), end="")
    except Exception as exc:
        traceback.print_exc(file=sys.stdout)
        doc = _failure(f"The autograder could not grade this submission: the grading kit "
                       f"failed ({type(exc).__name__}: {exc}). This is not a mark: ask the "
                       f"course staff.", visibility)
    doc["execution_time"] = round(time.monotonic() - t0, 1)
    results.parent.mkdir(parents=True, exist_ok=True)
    tmp = results.with_name(results.name + ".tmp")
    tmp.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, results)
    return doc


# ------------------------------------------------------------------------------------------------
# command lines


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m mlpr.grading autograder",
        description="Write the autograder zip that Gradescope's autograder specification asks "
                    "for (setup.sh, run_autograder, mlpr's wheel with the datasets, and the "
                    "choices below): upload it as the assignment's autograder.")
    p.add_argument("--lab", type=int, action="append", dest="labs", metavar="N", required=True,
                   help="grade every task of lab N (repeatable; a missing function counts 0)")
    p.add_argument("--points", type=Path, metavar="FILE",
                   help="a JSON file {task name: points} (names as --list gives them); the "
                        "other tasks are worth 1 point")
    p.add_argument("--visibility", choices=formats.VISIBILITIES, default="visible",
                   help="Gradescope's visibility of the results (default visible)")
    p.add_argument("--timeout", type=float, default=runner.TASK_TIMEOUT,
                   help=f"time limit per task, seconds (default {runner.TASK_TIMEOUT:g})")
    p.add_argument("--wheel", type=Path, metavar="WHL",
                   help="bundle this mlpr wheel instead of building one from the repository")
    p.add_argument("--source", type=Path, metavar="DIR",
                   help="the mlpr repository to build the wheel from (default: the one this "
                        "mlpr runs from)")
    p.add_argument("--out", type=Path, default=Path("autograder.zip"),
                   help="the zip to write (default autograder.zip)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m mlpr.grading autograder``: write the zip; 0 on success, 2 on a usage error,
    1 when the wheel cannot be built."""
    parser = _parser()
    args = parser.parse_args(argv)
    points = {}
    if args.points is not None:
        try:
            points = json.loads(args.points.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            parser.error(f"--points {args.points}: {exc}")
    try:
        entries = build(args.out, args.labs, points, args.visibility, args.timeout, args.wheel,
                        args.source)
    except ValueError as exc:
        parser.error(str(exc))
    except RuntimeError as exc:
        print(f"python -m mlpr.grading autograder: {exc}", file=sys.stderr)
        return 1
    buf = io.StringIO()
    for name, size in entries:
        buf.write(f"  {name:<40s} {size:>12,d} bytes\n")
    print(f"wrote {args.out} ({args.out.stat().st_size:,d} bytes):\n{buf.getvalue()}"
          f"upload it as the assignment's autograder (Gradescope: Configure Autograder, "
          f"zip file upload)", end="\n")
    return 0


def _run_main(argv: Sequence[str] | None = None) -> int:
    """``python -m mlpr.grading.autograder [--root ROOT] [--python PY] [--check]``, as
    run_autograder (and, with ``--check``, setup.sh) calls it."""
    p = argparse.ArgumentParser(prog="python -m mlpr.grading.autograder",
                                description="Grade ROOT/submission into "
                                            "ROOT/results/results.json (run_autograder).")
    p.add_argument("--root", type=Path, help="default $AUTOGRADER_ROOT or /autograder")
    p.add_argument("--python", type=Path, metavar="PY",
                   help="the Python that runs the submissions (default "
                        "ROOT/submission-venv/bin/python)")
    p.add_argument("--check", action="store_true",
                   help="check the environments setup.sh built instead (see check_setup)")
    args = p.parse_args(argv)
    if args.check:
        try:
            lines = check_setup(args.root)
        except (RuntimeError, ValueError) as exc:
            print(f"setup.sh: failed: {exc}", file=sys.stderr)
            return 1
        print("".join(f"setup.sh: {line}\n" for line in lines), end="")
        return 0
    run(args.root, args.python)
    return 0


if __name__ == "__main__":
    sys.exit(_run_main())
