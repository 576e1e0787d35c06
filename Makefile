# The two commands of the README: `make run` (the main job on the shipped corpora) and `make test`.
# Both set up everything on a fresh machine: a virtualenv in .venv with the project and its pins; `make
# test` also sets up what the whole suite runs against, as CI does (Debian's Chromium and playwright for
# the report's browser test, Label Studio in .ls-venv for the round trip, transformers and a CPU torch for
# the NER backend; each script is idempotent and a second run takes seconds).  `make test-quick` runs
# the suite without that set-up (those tests then skip, saying why).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
OUT ?= out/corpus

$(BIN)/.installed: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev,dask]'
	touch $@

.PHONY: install native run test test-quick setup-test lint
install: $(BIN)/.installed

# The compiled stages (pipeline/native.py): built once for the sources in place (minutes), a no-op while
# they are current; without a C compiler or mypyc the run goes on in pure Python.
native: $(BIN)/.installed
	$(BIN)/python -m pipeline.nativebuild build --optional

run: native
	$(BIN)/newsclaims run corpora/articles --out $(OUT)

setup-test: $(BIN)/.installed
	bash .ci/setup-browser
	bash .ci/setup-ner
	bash .ci/setup-label-studio

test: setup-test
	$(BIN)/python -m pytest

test-quick: $(BIN)/.installed
	$(BIN)/python -m pytest

lint: $(BIN)/.installed
	$(BIN)/ruff check pipeline tests benchmarks docs
	$(BIN)/python -m mypy pipeline
