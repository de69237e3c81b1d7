# puzzlelab: `make run` and `make test` work on a fresh machine; both install into .venv first.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
EXTRAS ?= dev,cluster

.PHONY: run test test-all lint bench install browser tour clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[$(EXTRAS)]'
	@# Compile the numba kernels once (numba caches them on disk), so the first job of
	@# a fresh install does not spend its budget compiling: the tour runs every puzzle's
	@# default method, and --warm-up the kernels it does not reach (level arrays, beam).
	@echo "compiling the kernels once (a puzzlelab tour; log in $(VENV)/warm-up.log)"
	@$(VENV)/bin/puzzlelab tour --no-store --warm-up --out $(VENV)/warm-up > $(VENV)/warm-up.log 2>&1 \
	  || echo "note: not every tour puzzle was answered within its short budget while compiling (see $(VENV)/warm-up.log); the install goes on"
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(VENV)/bin/puzzlelab serve

tour: $(STAMP)
	$(VENV)/bin/puzzlelab tour

# The page tests drive Debian's chromium; install it when missing (needs root, as in CI).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing chromium for the page tests (apt-get)"; \
	  (echo "man-db man-db/auto-update boolean false" | debconf-set-selections 2>/dev/null; \
	   apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	  || echo "warning: chromium could not be installed; the page tests will be skipped"; }

# The code's shape first (seconds): ruff's lint, then import-linter's layer contracts.
lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks examples
	$(VENV)/bin/lint-imports --no-cache

test: $(STAMP) browser lint
	$(PY) -m pytest -q

test-all: $(STAMP) browser
	$(PY) -m pytest -q -m ''

bench: $(STAMP)
	@for f in benchmarks/bench_*.py; do echo "== $$f"; $(PY) $$f || exit 1; done

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache puzzlelab-out
