# mlpr: the commands of the README (`make lectures`, `make lecture L=...`, `make test`) set
# themselves up: a fresh clone with Python >= 3.10 and access to PyPI is all they need.
# the newest python3.N >= 3.10 on the PATH that can make a venv (students' code may use the
# newest syntax: f-strings nesting quotes need 3.12), else python3; PYTHON=... overrides
PYTHON ?= $(or $(shell for p in python3.14 python3.13 python3.12 python3.11 python3.10; do \
	$$p -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 10))' 2>/dev/null \
	&& { echo $$p; break; }; done),python3)
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-test
BENCH_STAMP := $(VENV)/.installed-bench
DEV_STAMP   := $(VENV)/.installed-dev
DOCS_STAMP  := $(VENV)/.installed-docs
# lectures/ on the venv's path (a .pth file), so that the scripts import their shared helper as
# `from _lecture import Lecture`, without sys.path edits, whoever runs them with .venv/bin/python
LECTURES_STAMP := $(VENV)/.installed-lectures
LECTURES := $(sort $(wildcard lectures/[0-9][0-9]_*/run.py))

.PHONY: lectures lecture check submission-env test test-quick bench lint clean report report-screenshot docs

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# the test extra, the docs extra (tests/test_docs.py builds the site, opens it in Chromium and
# runs a lecture's notebook) and the grading extra (what the course's labs import, for
# the submissions make check grades)
$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test,docs,grading]'
	touch $@

$(LECTURES_STAMP): $(STAMP)
	$(PY) -c "import pathlib, sysconfig; pathlib.Path(sysconfig.get_path('purelib'), \
	'mlpr_lectures.pth').write_text(str(pathlib.Path('lectures').resolve()) + '\n')"
	touch $@

$(BENCH_STAMP): pyproject.toml $(STAMP)
	$(PY) -m pip install --quiet -e '.[test,bench]'
	touch $@

$(DOCS_STAMP): pyproject.toml $(LECTURES_STAMP)
	$(PY) -c "import sphinx, numpydoc, pydata_sphinx_theme, myst_parser, sphinx_gallery, nbclient" 2>/dev/null \
		|| $(PY) -m pip install --quiet -e '.[test,docs]'
	touch $@

$(DEV_STAMP): pyproject.toml $(STAMP)
	$(PY) -m pip install --quiet -e '.[test,dev]'
	touch $@

# The lectures whose inputs changed since their last run that ended ok (their script, its
# references.json, lectures/_lecture.py, the mlpr code they reach, their data: lectures/_inputs.py),
# JOBS at a time (default: one per core), longest first, one BLAS thread each (on a 2-core
# machine with anything else running, OpenBLAS threads spin on the shared core and the
# logistic-regression lectures slow down 10x); each lecture's output in figures/logs/.
# make lectures [ARGS=--quick] [FORMAT=png,pdf,svg] [JOBS=N] [FORCE=1: every lecture]
# [DRY=1: say which would run, why, and how long, run none]; fails when any lecture fails.
lectures: $(LECTURES_STAMP)
	OPENBLAS_NUM_THREADS=$${OPENBLAS_NUM_THREADS:-1} MPLBACKEND=Agg $(PY) lectures/_run_all.py \
		$(if $(JOBS),--jobs $(JOBS)) $(if $(FORMAT),--format $(FORMAT)) \
		$(if $(filter-out 0,$(FORCE)),--force) $(if $(filter-out 0,$(DRY)),--dry-run) -- $(ARGS)

# The site with the lectures' results read from figures/ (the runs make lectures leaves there:
# full, quick or student mode, with their figures) instead of the committed snapshots of the last
# full runs: docs/_build/html/results/index.html, one page per lecture
report: $(DOCS_STAMP)
	MLPR_DOCS_RESULTS=$(abspath figures) $(MAKE) --no-print-directory docs
	@echo "docs/_build/html/results/index.html"

# docs/_build/html/index.html: the documentation site (Sphinx: the API reference from the
# docstrings, the lectures' results and gallery, the guides of docs/), offline (MathJax from the
# site itself) and with -W: a warning fails the build; -j 1, since sphinx-mathjax-offline declares
# no parallel safety. The lectures' gallery runs every lecture in quick mode (about 2 minutes;
# only the changed ones on a rebuild); MLPR_DOCS_GALLERY=0 leaves it out
docs: $(DOCS_STAMP)
	MPLBACKEND=Agg OPENBLAS_NUM_THREADS=$${OPENBLAS_NUM_THREADS:-1} $(PY) -m sphinx -W --keep-going -j 1 -b html -q docs docs/_build/html -d docs/_build/doctrees
	@echo "docs/_build/html/index.html"

# docs/report_index.png, the README's picture: the site's lecture results, in headless Chromium
# (needs Chromium: see .ci/run)
report-screenshot: docs
	$(PY) -m report.screenshot docs/_build/html/results/index.html docs/report_index.png

# One lecture: make lecture L=05_generative_models [ARGS="--quick --show"] [OUT=DIR]
# [STUDENT=path/to/my_labs.py] (L may be the folder's number alone, e.g. L=05; STUDENT runs the
# lecture with your own lab functions in place of mlpr's).
LECTURE_SCRIPT = $(wildcard lectures/$(L)/run.py lectures/$(L)_*/run.py)
lecture: $(LECTURES_STAMP)
	@if [ -z "$(L)" ] || [ -z "$(LECTURE_SCRIPT)" ]; then \
		echo "usage: make lecture L=NN_topic [ARGS=\"--quick --show\"] [OUT=DIR] [STUDENT=PATH]; L is one of:"; \
		for s in $(LECTURES); do echo "  $$(basename $$(dirname $$s))"; done; exit 2; fi
	OPENBLAS_NUM_THREADS=$${OPENBLAS_NUM_THREADS:-1} $(PY) $(firstword $(LECTURE_SCRIPT)) \
		$(ARGS) $(if $(OUT),--out $(OUT)) $(if $(STUDENT),--student $(STUDENT)) \
		$(if $(FORMAT),--format $(FORMAT))

# The submissions' environment: the newest Python found with the course's numpy, scipy,
# matplotlib and scikit-learn (mlpr/grading/environment.py's PINS), no mlpr, built once in
# ~/.cache/mlpr/submission-env/ (MLPR_SUBMISSION_ENV=DIR elsewhere; FORCE=1 rebuilds); the kit
# runs every submission with it once it is built
submission-env: $(STAMP)
	$(PY) -m mlpr.grading --build-env $(if $(filter-out 0,$(FORCE)),--force)

# Student mode: grade your own lab solutions with hints, make check STUDENT=path/to/my_labs.py
# [ARGS="--lab 5 --map compute_mu_C=my_mean_cov"] (a .py file or a folder of modules), in the
# submissions' environment (built on the first check)
check: $(STAMP) submission-env
	@if [ -z "$(STUDENT)" ]; then \
		echo "usage: make check STUDENT=path/to/my_labs.py [ARGS=\"--lab 5 --map course=yours\"]"; \
		exit 2; fi
	$(PY) -m mlpr.grading $(STUDENT) --format text $(ARGS)

# one pytest-xdist worker per core; the tests that read a lecture's quick run go to one worker
# (--dist loadgroup in pyproject.toml; tests/conftest.py runs each lecture once per test run); in
# CI (CI=true) a skip fails unless tests/conftest.py lists it with its reason
test: $(LECTURES_STAMP)
	MPLBACKEND=Agg $(PY) -m pytest -q -n auto

# the tests not marked slow (pyproject.toml's `slow` marker: the lectures' quick runs, the
# autograder, the grading kit's whole runs): an answer in under a minute while iterating
test-quick: $(LECTURES_STAMP)
	MPLBACKEND=Agg $(PY) -m pytest -q -n auto -m "not slow"

bench: $(BENCH_STAMP)
	$(PY) benchmarks/run.py
	$(PY) benchmarks/crosscheck_quadratic_pairs.py
	$(PY) benchmarks/bench_svm.py
	$(PY) benchmarks/bench_gmm.py
	$(PY) benchmarks/bench_pca.py
	$(PY) benchmarks/bench_grading.py
	$(PY) benchmarks/bench_grading_fairness.py

lint: $(DEV_STAMP)
	$(PY) -m ruff check mlpr tests lectures benchmarks datasets report docs

clean:
	rm -rf $(VENV) figures .pytest_cache build *.egg-info mlpr.egg-info datasets/mnist/.cache docs/_build
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
