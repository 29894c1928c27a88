# Two commands: `make play` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
VARIANT ?=

.PHONY: play test lint typecheck bench clean

$(BIN)/parlour: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.test-deps: $(BIN)/parlour
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

# What the tests need from the system (a browser, a database server), installed by the
# project's own scripts; each script does nothing when its program is already there.
.PHONY: system-deps
system-deps:
	@for script in scripts/install-*.sh; do [ ! -e "$$script" ] || bash "$$script" || exit 1; done

play: $(BIN)/parlour
	$(BIN)/parlour play $(VARIANT)

test: $(VENV)/.test-deps system-deps
	$(BIN)/pytest
	$(BIN)/ruff check src tests
	$(BIN)/mypy

bench: $(BIN)/parlour
	$(BIN)/parlour bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
