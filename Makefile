# Two commands do everything on a fresh clone:
#   make demo   create .venv, install, run the scripted demo on the embedded store (no LLM)
#   make test   create .venv with dev extras, lint, run the whole test suite
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev
# The installed package's shape (elephant_broker.<folder>) as symlinks, for mypy and import-linter
# (see scripts/package_view.py); Python itself follows pyproject's package-dir mapping.
VIEW   := build/view
# The package's folders (pyproject's package-dir). An editable install leaves them without
# bytecode; compiling them at install, as pip does for a regular install, keeps a process
# that may not write bytecode (PYTHONDONTWRITEBYTECODE, a read-only checkout) from
# recompiling ~80 modules on every command.
PACKAGE_DIRS := elephant_broker broker domain graphs language nodes prompts providers schemas store

.PHONY: demo test lint install install-dev clean stop browser

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	$(BIN)/python -m compileall -q $(PACKAGE_DIRS)
	touch $@

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/python -m compileall -q $(PACKAGE_DIRS)
	touch $(STAMP) $@

install: $(STAMP)
install-dev: $(DEV_STAMP)

demo: $(STAMP)
	$(BIN)/elephant demo

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python scripts/package_view.py $(VIEW)
	cd $(VIEW) && $(abspath $(BIN))/mypy --config-file $(CURDIR)/pyproject.toml --cache-dir $(CURDIR)/.mypy_cache -p elephant_broker
	cd $(VIEW) && $(abspath $(BIN))/lint-imports --config $(CURDIR)/pyproject.toml
	LANGGRAPH_CLI_NO_ANALYTICS=1 $(BIN)/langgraph validate

# Headless Chromium for tests/integration/test_viz.py: installed only when missing and running
# as root (CI is); fonts-wqy-microhei makes Chinese labels readable in screenshots.
browser:
	@command -v chromium >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-wqy-microhei; } || \
	  echo "note: chromium missing: tests/integration/test_viz.py skips (fails under CI)"

test: $(DEV_STAMP) lint browser
	$(BIN)/python -m pytest

stop:
	-$(BIN)/elephant server stop

clean: stop
	rm -rf $(VENV) build .elephant .pytest_cache .ruff_cache .mypy_cache
