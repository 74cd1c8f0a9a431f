# Paper figures, tests and benchmarks.  `make all-figures` reproduces every figure at paper scale
# (resumable: stored chunks are reused); add QUICK=1 for a smoke run of each.
PYTHON ?= .venv/bin/python
FLAGS ?= $(if $(QUICK),--quick,)

.PHONY: install all-figures fig1 fig7 report verify test test-all bench clean

install:
	python3 -m venv .venv
	$(PYTHON) -m pip install -r requirements.txt

all-figures: fig1 fig7 report

fig1:
	$(PYTHON) reproduce/fig1_mslr.py $(FLAGS)

fig7:
	$(PYTHON) reproduce/fig7_pure_dts.py $(FLAGS)

report:
	$(PYTHON) reproduce/report.py $(if $(QUICK),--figures figures/quick,)

# Re-simulate the first run of every stored paper-scale chunk and compare bit for bit (~10 min).
verify:
	$(PYTHON) reproduce/verify.py results --max-horizon 2000000

test:
	$(PYTHON) -m pytest -q

test-all:
	$(PYTHON) -m pytest -q -m "slow or not slow"

# ns per slot of every algorithm at K = 5 .. 500 (D-TS family: default vs sampling="fast"); bench/README.md.
bench:
	$(PYTHON) bench/step_cost.py

# Estimated CPU hours of every paper figure from per-slot costs measured here (a few minutes).
.PHONY: bench-paper
bench-paper:
	$(PYTHON) bench/paper_cost.py

clean:
	rm -rf .numba_cache results/quick figures/quick .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
