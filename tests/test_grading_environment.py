"""The submissions' environment (`mlpr.grading.environment`): one declaration of the course's
releases, read by the cache and by the autograder's setup.sh; found by the kit and named in the
report's isolation line. The tests lay out a stand-in environment (a marker and a ``bin/python``
that is this interpreter) instead of building one (30 s and the package index: ``make
submission-env`` does that)."""

import json
import os
import sys

import pytest

from mlpr.grading import autograder, environment, sandbox


@pytest.fixture
def stand_in(tmp_path, monkeypatch):
    folder = tmp_path / "env"
    (folder / "bin").mkdir(parents=True)
    python = folder / "bin" / "python"  # this interpreter, with its environment
    python.write_text(f"#!/bin/sh\nexec {sys.executable} \"$@\"\n")
    python.chmod(0o755)
    monkeypatch.setenv(environment.ENV_VARIABLE, str(folder))
    monkeypatch.delenv(sandbox.PYTHON_VARIABLE, raising=False)
    sandbox.environment_line.cache_clear()
    yield folder
    sandbox.environment_line.cache_clear()


def _mark(folder, pins):
    (folder / environment._MARKER).write_text(json.dumps({"pins": list(pins)}))


def test_the_kit_runs_submissions_with_the_built_environment(stand_in):
    python = str(stand_in / "bin" / "python")
    assert environment.find() is None  # no marker: not built
    assert sandbox.submission_python() == sys.executable
    _mark(stand_in, ("numpy<2",))  # built for other pins: not this one
    assert environment.find() is None
    _mark(stand_in, environment.PINS)
    assert environment.find() == python
    assert sandbox.submission_python() == python
    line = sandbox.environment_line(python)
    assert line.startswith("the submissions' environment: python ")
    assert f"numpy {environment.versions(python)['numpy']}" in line
    # --python and $MLPR_SUBMISSION_PYTHON still override
    os.environ[sandbox.PYTHON_VARIABLE] = sys.executable
    try:
        assert sandbox.submission_python() == sys.executable
        assert "make submission-env builds the course's" in sandbox.environment_line(
            sys.executable)
    finally:
        del os.environ[sandbox.PYTHON_VARIABLE]


def test_one_declaration_of_the_pins(monkeypatch):
    script = autograder.setup_script()
    assert "@PINS@" not in script
    line = next(x for x in script.splitlines() if "[grading]" in x and "install" in x)
    for pin in environment.PINS:
        assert f"'{pin}'" in line, (pin, line)
    assert set(environment.WHY) == {p.split(">")[0].split("<")[0] for p in environment.PINS}
    monkeypatch.delenv(environment.ENV_VARIABLE)
    assert environment.location((3, 13)).name.startswith("py3.13-")


def test_the_newest_python_is_looked_for_beyond_the_path(tmp_path, monkeypatch):
    """pyenv's shims refuse a version that is not active: its versions/*/bin are looked in."""
    root = tmp_path / "pyenv"
    (root / "versions" / "9.9" / "bin").mkdir(parents=True)
    fake = root / "versions" / "9.9" / "bin" / "python3.19"
    fake.symlink_to(sys.executable)
    monkeypatch.setenv("PYENV_ROOT", str(root))
    found = [p for _, p in environment.pythons()]
    assert str(fake) in found or os.path.realpath(str(fake)) in map(os.path.realpath, found)
    assert all(v >= (3, 10) for v, _ in environment.pythons())


def test_a_python_that_cannot_make_an_environment_is_refused(tmp_path):
    with pytest.raises(RuntimeError, match="cannot make a virtual environment"):
        environment.build(python=str(tmp_path / "no-such-python"), log=lambda *a: None)
    with pytest.raises(ValueError, match=r"isolation must be one of \('bubblewrap', 'user'"):
        sandbox.available("docker")
