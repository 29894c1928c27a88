# Two commands: `make play` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
VARIANT ?=
CARGO  ?= cargo
CRATE  := --manifest-path rust/Cargo.toml
# The compiled core (parlour._core) is built from these; an editable install does not rebuild
# it by itself, so the package is reinstalled whenever one of them changes.
RUST_SOURCES := rust/Cargo.toml rust/Cargo.lock $(shell find rust/src -name '*.rs')

.PHONY: play test lint typecheck bench clean rust-test docs wheel

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(BIN)/parlour: $(BIN)/python pyproject.toml $(RUST_SOURCES)
	$(BIN)/pip install --quiet -e .
	touch $@

# Order-only on the package: a rebuilt core does not reinstall the test dependencies.
$(VENV)/.test-deps: pyproject.toml | $(BIN)/parlour
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@ $(BIN)/parlour

# What the tests need from the system (a browser, a database server), installed by the
# project's own scripts; each script does nothing when its program is already there.
.PHONY: system-deps
system-deps:
	@for script in scripts/install-*.sh; do [ ! -e "$$script" ] || bash "$$script" || exit 1; done

play: $(BIN)/parlour
	$(BIN)/parlour play $(VARIANT)

# The crate on its own: its tests (plain Rust, no Python), lints and formatting.
rust-test:
	$(CARGO) fmt $(CRATE) --check
	$(CARGO) clippy $(CRATE) --all-targets -- -D warnings
	$(CARGO) clippy $(CRATE) --all-targets --features python -- -D warnings
	$(CARGO) test $(CRATE)

test: $(VENV)/.test-deps $(BIN)/parlour system-deps rust-test wheel
	$(BIN)/pytest
	$(BIN)/ruff check src tests scripts training examples
	$(BIN)/mypy
	$(BIN)/python -m mypy.stubtest parlour._core  # the typed stub matches the compiled module

# The documentation site (docs/, mkdocs.yml) into build/site; `make test` builds it too, with
# --strict, in tests/test_docs.py. `.venv/bin/mkdocs serve` previews it while writing.
$(VENV)/.docs-deps: pyproject.toml | $(BIN)/parlour
	$(BIN)/pip install --quiet -e '.[docs]'
	touch $@ $(BIN)/parlour

docs: $(VENV)/.docs-deps
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict
	@echo "the site is in build/site (open build/site/index.html)"

# The release files, into dist/: an abi3 wheel of this platform (CPython 3.11 and every later
# version) and the source distribution, the wheel built from it; tests/test_wheel.py installs
# both into fresh environments (docs/releasing.md). maturin checks the wheel's manylinux tag.
WHEEL_SOURCES := pyproject.toml README.md LICENSE $(RUST_SOURCES) \
	$(shell find src/parlour -type f -not -name '_core*.so' -not -path '*/__pycache__/*')

$(VENV)/.build-deps: | $(BIN)/python
	$(BIN)/pip install --quiet 'maturin>=1.5,<2'
	touch $@

dist/.built: $(WHEEL_SOURCES) | $(VENV)/.build-deps
	rm -rf dist
	$(BIN)/maturin build --release --sdist --out dist
	touch $@

wheel: dist/.built

bench: $(BIN)/parlour
	$(BIN)/parlour bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache rust/target src/parlour/_core*.so build/site \
		dist
