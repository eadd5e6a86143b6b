# sftactics - the two commands that work on a fresh machine: `make demo` and `make test`.
# `make setup` also compiles the simulation's fight kernel (numba, once: `python -m sftactics.sim.kernel.run`).
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
STAMP   = $(VENV)/.installed-stamp
SFT     = $(VENV)/bin/sftactics

.PHONY: setup test lint format demo docs clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(PY) -m pip install --quiet --disable-pip-version-check -e ".[test,dev]"
	$(PY) -m sftactics.sim.kernel.run || echo "warning: the fight kernel did not compile now; simulate will try again"
	@touch $(STAMP)

# (worksteal: a worker that runs out takes tests queued on the other; the slowest tests take half a minute)
test: $(STAMP)
	$(PY) -m pytest -n 2 --dist worksteal

# The kernel's same-dice-same-fight tests with 100 fights each instead of 15 (not part of `make test`).
.PHONY: same-dice
same-dice: $(STAMP)
	SFT_FIGHT_EXAMPLES=100 $(PY) -m pytest -n 2 --dist worksteal tests/sim -k "same_dice"

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests
	$(VENV)/bin/ruff format --check src tests
	$(VENV)/bin/mypy

format: $(STAMP)
	$(VENV)/bin/ruff check --fix src tests
	$(VENV)/bin/ruff format src tests

demo: $(STAMP)
	$(SFT) run examples/scenarios/derelict-ambush.yaml --seed 3
	@echo
	$(SFT) attack examples/statblocks/vesk-soldier.yaml examples/statblocks/ksarik.yaml --weapon "tactical doshko" --dice 20,6,8
	@echo
	$(SFT) odds "1d20+10" --ac 14 --damage "1d6+5"
	@echo
	@echo "The live table (docs/table.md): this opens a table and prints the GM's and the players' links;"
	$(SFT) serve examples/scenarios/derelict-ambush.yaml --db $${TMPDIR:-/tmp}/sftactics-demo-table.db --no-serve
	@echo "then serve it and open the links: $(SFT) serve --db $${TMPDIR:-/tmp}/sftactics-demo-table.db"

docs: $(STAMP)
	for k in statblock scenario statblock2e scenario2e chase events; do $(SFT) schema $$k > docs/$$k.schema.json; done
	for k in options conditions commands; do $(SFT) schema $$k > docs/$$k.md; done

# Timings (not part of `make test`): writes bench/results.json and prints a table; see docs/performance.md.
.PHONY: bench bench-check
bench: $(STAMP)
	$(PY) bench/run.py

# Memory and time to load an N x N map, play the first turn and draw it (not part of `make test`; docs/performance.md).
.PHONY: scale
scale: $(STAMP)
	$(PY) scripts/scale.py

# A fresh run (core and grid) against bench/baseline.json, as ratios to the numpy baseline: exit 1 on a >30% regression.
bench-check: $(STAMP)
	$(PY) bench/check.py

# Random commands and mutated files for longer than `make test` does, with a summary (not part of `make test`).
# FUZZ_ARGS="--commands 1000000 --files 10000" for the full goal of issue 20.
.PHONY: fuzz
fuzz: $(STAMP)
	$(PY) scripts/fuzz.py $(FUZZ_ARGS)

# Every shipped scenario simulated 1,000 times (the kernel where it plays, else the engine; not part of `make test`,
# which plays a short version in tests/sim/test_shipped.py). SOAK_ARGS="--policy simple --engine-runs 200" etc.
.PHONY: soak
soak: $(STAMP)
	$(PY) scripts/sim_soak.py $(SOAK_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
