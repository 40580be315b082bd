# Two commands set everything up on a fresh machine: `make play` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: play test bench clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $@

# The suite also tests the optional Dask cluster path, so it installs that extra too.
$(VENV)/.installed-test: $(VENV)/.installed
	$(BIN)/pip install --quiet -e '.[test,cluster]'
	touch $@

$(VENV)/.installed-bench: $(VENV)/.installed-test
	$(BIN)/pip install --quiet -e '.[bench]'
	touch $@

play: $(VENV)/.installed
	$(BIN)/fivefoot play

test: $(VENV)/.installed-test
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m pytest -n 2 -p no:cacheprovider

bench: $(VENV)/.installed-bench
	$(BIN)/python bench/bench_reachable.py
	$(BIN)/python bench/bench_turning.py --quick
	$(BIN)/python bench/bench_hover.py --quick

clean:
	rm -rf $(VENV) build *.egg-info
