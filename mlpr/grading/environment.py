r"""The submissions' environment: the course's numpy, scipy, matplotlib and scikit-learn, without
mlpr, on the newest Python that can be found, built once and cached.

A submission runs where its code was written to run: the releases the course's labs were written
for, locally as on Gradescope. `PINS` is the one declaration of them: `build` installs it into the
cache (``make submission-env``, ``python -m mlpr.grading --build-env``), the Gradescope
autograder's ``setup.sh`` installs the same list into its submissions' environment, and the kit
runs every submission with the cached environment's Python when one is built (`find`), unless
``--python PATH`` or ``$MLPR_SUBMISSION_PYTHON`` names another.

Where it lives: ``$MLPR_SUBMISSION_ENV``, else ``${XDG_CACHE_HOME:-~/.cache}/mlpr/submission-env/
py<X.Y>-<hash of the pins>``; a change of the pins or of the Python gives a new folder, and
``--build-env --force`` rebuilds the folder in place.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

__all__ = ["PINS", "WHY", "pythons", "newest_python", "location", "find", "build", "versions",
           "ENV_VARIABLE"]

#: The releases the course's code was written for (the 2024 edition's numpy 2.0, scipy 1.13-1.14):
#: numpy < 2.4, which refuses to convert a 1-element array to a Python scalar (the labs print
#: their SVM losses with '%e' % array) and to put one into an array's slot; scipy < 1.15, whose
#: L-BFGS-B is the Fortran code the labs' results come from (1.15 translated it to C); the
#: matplotlib and scikit-learn of the same year (the labs load iris through
#: sklearn.datasets.load_iris).
PINS = ("numpy>=2.0,<2.4", "scipy>=1.13,<1.15", "matplotlib>=3.8,<3.10",
        "scikit-learn>=1.4,<1.6", "nbformat>=5.9")
#: Why each pin, by package (for the report and the docs)
WHY = {
    "nbformat": "the kit reads a submission's notebooks (.ipynb) with it, beside the code it runs",
    "numpy": "2.4 refuses float() and '%e' % of a 1-element array and a 1-element array put "
             "into a slot, which the course's code does",
    "scipy": "1.15 rewrote L-BFGS-B in C; the labs' numbers come from the Fortran one",
    "matplotlib": "the release of the course's year",
    "scikit-learn": "the release of the course's year (the labs' iris loader)",
}
#: Overrides the folder of the environment
ENV_VARIABLE = "MLPR_SUBMISSION_ENV"
_MARKER = ".mlpr-submission-env.json"
_PROBE = ("import json, sys\nfrom importlib import metadata\n"
          "print(json.dumps({'python': sys.version.split()[0], **{p: metadata.version(p) for p "
          "in ('numpy', 'scipy', 'matplotlib', 'scikit-learn')}}))")


def _version_of(python: str) -> tuple | None:
    """``(major, minor)`` of an interpreter that can make a virtual environment, else None."""
    try:
        r = subprocess.run([python, "-c", "import sys, venv, ensurepip; "
                            "print(*sys.version_info[:2])"], capture_output=True, text=True,
                           timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if r.returncode != 0:
        return None
    try:
        return tuple(int(v) for v in r.stdout.split())
    except ValueError:
        return None


def pythons() -> list:
    """``[(version, path), ...]``, newest first: the Python 3 interpreters >= 3.10 that can make
    a virtual environment, on the PATH (``python3.N``) or installed by pyenv (whose shims refuse
    a version that is not active, so its ``versions/*/bin`` folders are looked in as well)."""
    seen, out = set(), []
    names = [f"python3.{n}" for n in range(20, 9, -1)]
    candidates = [shutil.which(n) for n in names]
    roots = [os.environ.get("PYENV_ROOT"), str(Path.home() / ".pyenv")]
    for root in filter(None, roots):
        for folder in sorted(Path(root).glob("versions/*/bin")):
            candidates += [str(folder / n) for n in names if (folder / n).is_file()]
    candidates.append(sys.executable)
    for path in filter(None, candidates):
        real = os.path.realpath(path)
        if real in seen:
            continue
        seen.add(real)
        version = _version_of(path)
        if version is not None and version >= (3, 10):
            out.append((version, path))
    return sorted(out, key=lambda v: v[0], reverse=True)


def newest_python() -> str:
    """The newest interpreter of `pythons` (this one's when none is found)."""
    found = pythons()
    return found[0][1] if found else sys.executable


def location(python_version: tuple) -> Path:
    """The folder of the environment for a Python ``(major, minor)`` and these `PINS`."""
    named = os.environ.get(ENV_VARIABLE)
    if named:
        return Path(named)
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    digest = hashlib.sha256("\n".join(PINS).encode()).hexdigest()[:10]
    return cache / "mlpr" / "submission-env" / f"py{python_version[0]}.{python_version[1]}-{digest}"


def find() -> str | None:
    """The Python of a built environment of these `PINS` (the newest Python's first), or None."""
    named = os.environ.get(ENV_VARIABLE)
    folders = [Path(named)] if named else sorted(
        (location((0, 0)).parent).glob(f"py*-{location((0, 0)).name.split('-')[-1]}"),
        key=lambda p: tuple(int(v) for v in re.findall(r"\d+", p.name.split("-")[0])),
        reverse=True)
    for folder in folders:
        marker = folder / _MARKER
        python = folder / "bin" / "python"
        try:
            if json.loads(marker.read_text())["pins"] == list(PINS) and python.is_file():
                return str(python)
        except (OSError, ValueError, KeyError):
            continue
    return None


def versions(python: str) -> dict:
    """``{"python": "3.13.0", "numpy": ..., ...}`` of an interpreter's installation ({} when it
    lacks one of them)."""
    try:
        r = subprocess.run([python, "-I", "-c", _PROBE], capture_output=True, text=True,
                           timeout=60)
        return json.loads(r.stdout.strip().splitlines()[-1]) if r.returncode == 0 else {}
    except (OSError, subprocess.TimeoutExpired, ValueError, IndexError):
        return {}


def build(python: str | None = None, force: bool = False, log=print) -> str:
    """Build (or find) the environment of these `PINS` for ``python`` (default: `newest_python`)
    and return its interpreter. Its folder holds a marker with the pins, the versions installed
    and the build's seconds; RuntimeError when pip fails."""
    python = python or newest_python()
    version = _version_of(python)
    if version is None:
        raise RuntimeError(f"{python} cannot make a virtual environment")
    folder = location(version)
    env_python = folder / "bin" / "python"
    if not force and find() == str(env_python):
        return str(env_python)
    t0 = time.monotonic()
    log(f"building the submissions' environment in {folder} with {python} "
        f"(Python {version[0]}.{version[1]}): {' '.join(PINS)}")
    if folder.exists():
        shutil.rmtree(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([python, "-m", "venv", str(folder)], check=True)
    r = subprocess.run([str(env_python), "-m", "pip", "install", "--quiet",
                        "--disable-pip-version-check", *PINS], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"pip could not install {' '.join(PINS)} for {python}: "
                           f"{(r.stderr.strip().splitlines() or ['?'])[-1]}")
    installed = versions(str(env_python))
    size = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())
    seconds = round(time.monotonic() - t0, 1)
    (folder / _MARKER).write_text(json.dumps({"pins": list(PINS), "versions": installed,
                                              "python": python, "seconds": seconds,
                                              "bytes": size}, indent=1) + "\n")
    log(f"built in {seconds} s, {size / 2**20:.0f} MB: "
        + ", ".join(f"{k} {v}" for k, v in installed.items()))
    return str(env_python)
