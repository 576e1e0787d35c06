# The two commands of the README: `make run` (the main job on the shipped corpora) and `make test`.
# Both set up everything on a fresh machine: a virtualenv in .venv with the project and its pins.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
OUT ?= out/corpus

$(BIN)/.installed: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev,dask]'
	touch $@

.PHONY: install run test lint
install: $(BIN)/.installed

run: $(BIN)/.installed
	$(BIN)/newsclaims run corpora/articles --out $(OUT)

test: $(BIN)/.installed
	$(BIN)/python -m pytest

lint: $(BIN)/.installed
	$(BIN)/ruff check pipeline tests
