# cardgen — the whole set-up on a fresh machine is `make build` and `make test`.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
JOBS    ?= 2

.PHONY: build test validate bench lint clean tools goldens

# uv installs the same packages as pip, a few times faster; pip does it when uv cannot be had.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	($(BIN)/python -m pip install -q uv >/dev/null 2>&1 && \
	  $(BIN)/uv pip install -q --compile-bytecode --python $(BIN)/python -e '.[test]') || \
	  $(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

# Debian tools the tests read PDFs back with (qpdf --check, pdftoppm) and the headless browser
# the live preview and the simulation report are tested in (chromium); installed when missing.
tools:
	@if ! command -v qpdf >/dev/null || ! command -v pdftoppm >/dev/null || ! command -v chromium >/dev/null; then \
	  if command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ]; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qpdf poppler-utils chromium) >/dev/null; \
	  else echo "warning: install qpdf, poppler-utils and chromium for the PDF and preview checks" >&2; fi; \
	fi

build: $(STAMP)
	$(BIN)/cardgen build

validate: $(STAMP)
	$(BIN)/cardgen validate

# mypy types the code beside the tests (a few seconds of one core); both must pass.
test: $(STAMP) tools
	$(BIN)/ruff check cardgen tests bench
	@$(BIN)/mypy > $(VENV)/mypy.out 2>&1 & typing=$$!; \
	  $(BIN)/python -m pytest -n $(JOBS); status=$$?; \
	  wait $$typing || status=1; echo "mypy: $$(tail -n 1 $(VENV)/mypy.out)"; \
	  if grep -q "error:" $(VENV)/mypy.out; then cat $(VENV)/mypy.out; fi; exit $$status

# Every generated file (docs/rules/<game>.md, docs/problems.md, log schemas, the event reference,
# golden traces and manifests) rewritten from the current sources: a new game needs only this.
goldens: $(STAMP)
	$(BIN)/python -m pytest --update-goldens -q -k "current or golden" tests/test_standalone.py \
	  tests/test_checker_framework.py tests/test_layout.py

bench: $(STAMP)
	$(BIN)/python bench/run.py
	$(BIN)/python bench/simulate.py
	$(BIN)/python bench/agents.py
	$(BIN)/python bench/tune.py

clean:
	rm -rf build bench/work
