# mlpr: the two commands of the README (`make lectures`, `make test`) set themselves up.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-test
BENCH_STAMP := $(VENV)/.installed-bench
DEV_STAMP   := $(VENV)/.installed-dev
LECTURES := $(sort $(wildcard lectures/[0-9][0-9]_*/run.py))

.PHONY: lectures test bench lint clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

$(BENCH_STAMP): pyproject.toml $(STAMP)
	$(PY) -m pip install --quiet -e '.[test,bench]'
	touch $@

$(DEV_STAMP): pyproject.toml $(STAMP)
	$(PY) -m pip install --quiet -e '.[test,dev]'
	touch $@

# One BLAS thread unless the caller chooses: on a 2-core machine with anything else running,
# OpenBLAS threads spin on the shared core and the logistic-regression lectures slow down 10x.
lectures: $(STAMP)
	@set -e; for s in $(LECTURES); do \
		echo "=== $$s"; \
		OPENBLAS_NUM_THREADS=$${OPENBLAS_NUM_THREADS:-1} MPLBACKEND=Agg $(PY) $$s; \
	done

test: $(STAMP)
	MPLBACKEND=Agg $(PY) -m pytest -q

bench: $(BENCH_STAMP)
	$(PY) benchmarks/run.py
	$(PY) benchmarks/crosscheck_quadratic_pairs.py

lint: $(DEV_STAMP)
	$(PY) -m ruff check mlpr tests lectures benchmarks datasets

clean:
	rm -rf $(VENV) figures .pytest_cache build *.egg-info mlpr.egg-info datasets/mnist/.cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
