"""Importing mlpr changes no process-wide state: not matplotlib's backend nor its rcParams (the
course's style is applied inside mlpr.plots' own functions), not numpy's error handling or its
global random state, not the warnings filters.

Each check runs in a fresh interpreter (``sys.executable``) without ``MPLBACKEND``, so that
matplotlib chooses its backend itself, as it does for a user: the state is recorded after
importing the third-party libraries mlpr uses, then every module of the package is imported
(``pkgutil.walk_packages``, the grading kit's included; ``__main__`` modules, which run a command
line, are not), and the state is compared.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# the state, recorded without resolving matplotlib's backend: the raw rcParams["backend"] is
# matplotlib's "auto" sentinel until someone chooses one (matplotlib.use, switch_backend)
_PROBE = r"""
import copy, importlib, json, pkgutil, sys, warnings

import numpy as np
import scipy.linalg, scipy.optimize, scipy.special, scipy.stats  # noqa: E401 (mlpr's imports)
import matplotlib
import matplotlib.pyplot
import matplotlib.ticker


def state():
    rc = {k: repr(v) for k, v in dict.items(matplotlib.rcParams)}
    return {"rcParams": rc, "geterr": np.geterr(), "filters": [repr(f) for f in warnings.filters],
            "random": repr(np.random.get_state()), "interactive": matplotlib.is_interactive()}


before = state()
import mlpr

modules = []
for info in pkgutil.walk_packages(mlpr.__path__, "mlpr."):
    if info.name.rsplit(".", 1)[-1] == "__main__":
        continue
    importlib.import_module(info.name)
    modules.append(info.name)
after = state()
changed = {}
for key in before:
    if key == "rcParams":
        diff = {k: [before[key].get(k), v] for k, v in after[key].items()
                if before[key].get(k) != v}
        if diff:
            changed[key] = diff
    elif before[key] != after[key]:
        changed[key] = [before[key], after[key]]
print(json.dumps({"modules": modules, "changed": changed,
                  "backend": matplotlib.get_backend()}))
"""


def _run(code: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          cwd=REPO, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_importing_every_mlpr_module_changes_no_global_state():
    out = json.loads(_run(_PROBE).strip().splitlines()[-1])
    modules = set(out["modules"])
    # every module of the package was imported, the grading kit's too
    top = {f"mlpr.{p.stem}" for p in (REPO / "mlpr").glob("*.py") if p.stem != "__init__"}
    assert top <= modules, top - modules
    assert {"mlpr.plots", "mlpr._validation", "mlpr._evaluation_fast", "mlpr.grading"} <= modules
    assert any(m.startswith("mlpr.grading.") for m in modules)
    assert out["changed"] == {}, json.dumps(out["changed"], indent=1)
    # the backend matplotlib resolves is the one it resolves in a process without mlpr
    alone = _run("import matplotlib; print(matplotlib.get_backend())").strip().splitlines()[-1]
    assert out["backend"] == alone
