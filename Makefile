# Paper figures, tests and benchmarks.
#   make all-figures          every figure, Table 9, the C18 diagnostic, the agreement with the authors' code
#                             (docs/fidelity.md), the cost-against-K figure (from
#                             bench/step_cost.csv) and figures/REPORT.md at paper scale from
#                             the committed runs under results/ (nothing is computed; a few minutes of redrawing)
#   make all-figures QUICK=1  a minutes-long smoke run of each, under figures/quick/ (not evidence)
#   make all-figures FORCE=1  recompute every run from scratch (hours; resumable)
#   make all-figures FAST=1   the seven figures with every algorithm's exact fast paths (same law, other
#                             random streams), from the committed runs under results/fast/ (nothing is
#                             computed), figures under fast/ (combines with QUICK=1, which computes)
# Every target runs its script each time: a script draws from the stored runs and computes only those not stored
# yet, so redrawing is cheap and no rule depends on file timestamps (a fresh clone gives every file the same age).
PYTHON ?= .venv/bin/python
FIGDIR := figures$(if $(QUICK),/quick,)$(if $(FAST),/fast,)
# The flags each script takes: Fig. 2 only reads Fig. 1's runs (no --force); C18 has no fast path; Table 9 only
# reads data/.
QUICK_FLAG := $(if $(QUICK),--quick,)
# At paper scale (no QUICK or FORCE; FAST=1 included, its runs are committed under results/fast/) the scripts only
# draw the committed runs: --stored-only refuses, naming it and the command that recomputes it, a chunk that is
# missing or damaged instead of computing it for hours.
STORED_FLAG := $(if $(QUICK)$(FORCE),,--stored-only)
FLAGS ?= $(QUICK_FLAG) $(if $(FAST),--fast,) $(if $(FORCE),--force,) $(STORED_FLAG)
READ_FLAGS := $(QUICK_FLAG) $(if $(FAST),--fast,)
C18_FLAGS := $(QUICK_FLAG) $(if $(FORCE),--force,) $(STORED_FLAG)
FIGURES := fig1 fig2 fig3 fig4 fig5 fig6 fig7

.PHONY: install warm-cache all-figures $(FIGURES) table9 c18 large-scale asymptotic successors cost-vs-k report readme verify fast-agreement test test-process test-jit-off test-all \
        lint bench bench-plugin bench-paper bench-targets fidelity clean

install:
	python3 -m venv .venv
	$(PYTHON) -m pip install -r requirements.txt

# Compile every kernel and every algorithm's loop once into numba's cache (docs/install.md#first-use).
warm-cache:
	$(PYTHON) reproduce/warm_cache.py

# Table 9 (data only) and the C18 diagnostic (D-TS slot by slot, by design) have no fast path.  The report last.
all-figures: $(FIGURES) $(if $(FAST),fast-agreement,table9 c18 large-scale asymptotic successors fidelity $(if $(QUICK),,cost-vs-k))
	$(MAKE) --no-print-directory report PYTHON="$(PYTHON)" QUICK="$(QUICK)" FAST="$(FAST)"

fig1:
	$(PYTHON) reproduce/fig1_mslr.py $(FLAGS)
# Fig. 2 is computed from Fig. 1's stored runs.
fig2: fig1
	$(PYTHON) reproduce/fig2_regret_std.py $(READ_FLAGS)
fig3:
	$(PYTHON) reproduce/fig3_condorcet.py $(FLAGS)
fig4:
	$(PYTHON) reproduce/fig4_noncondorcet.py $(FLAGS)
fig5:
	$(PYTHON) reproduce/fig5_diversity.py $(FLAGS)
fig6:
	$(PYTHON) reproduce/fig6_delay.py $(FLAGS)
fig7:
	$(PYTHON) reproduce/fig7_pure_dts.py $(FLAGS)
table9:
	$(PYTHON) reproduce/table9_mslr_subsets.py $(QUICK_FLAG)
# Claim C18: how often the RUCB-based elimination changes D-TS's first candidate (a diagnostic; its runs are
# stored under results/c18_elimination/, ~7 min on 2 cores to compute).
c18:
	$(PYTHON) reproduce/c18_elimination.py $(C18_FLAGS)

# Past the paper (docs/experiments.md): drawn from the stored runs only, since its lines take days of background
# computation (run reproduce/large_scale.py itself, or with FORCE=1 here, to compute them); QUICK=1 computes its smoke run.
large-scale:
	$(PYTHON) reproduce/large_scale.py $(if $(QUICK)$(FORCE),$(FLAGS),--plot-only)

# Past the paper, in time (docs/asymptotic.md): every fast path to T = 2**53 on the Condorcet matrices, drawn from the
# stored runs only (the non-Condorcet part takes hours: run reproduce/asymptotic.py itself to compute what is
# missing, or FORCE=1 here to recompute everything); QUICK=1 computes its smoke run.
asymptotic:
	$(PYTHON) reproduce/asymptotic.py $(if $(QUICK)$(FORCE),$(FLAGS),--plot-only)

# Ten years on (docs/successors.md): D-TS against Versatile-DB, Winner Stays, CW-RMED, C2B and REX3, drawn from the
# stored runs only (its lines take CPU hours: run reproduce/successors.py itself to compute what is missing, or FORCE=1
# here to recompute everything); QUICK=1 computes its smoke run.
successors:
	$(PYTHON) reproduce/successors.py $(if $(QUICK)$(FORCE),$(FLAGS),--plot-only)

# REPORT.md from every figure's tables; at paper scale also every generated block of the README and the pages
# under docs/ and bench/ (BLOCK_FILES in reproduce/reporting/claims_report.py; docs/design.md#generated-blocks).
report:
	$(PYTHON) reproduce/report.py --figures $(FIGDIR) $(if $(QUICK)$(FAST),,--readme README.md)

# Check that every generated block (README, docs/, bench/) agrees with the committed tables and the code.
readme:
	$(PYTHON) reproduce/report.py --readme README.md --check

# Re-simulate the first run of every stored paper-scale chunk and compare bit for bit (~10 min).
verify:
	$(PYTHON) reproduce/verify.py results --max-horizon 2000000

# Every line stored both with the defaults and with --fast, compared: same law (paired and KS tests, Holm over
# all lines), or bit for bit for an algorithm without fast path; writes figures[/quick]/fast/fast_agreement.csv.
fast-agreement:
	$(PYTHON) reproduce/fast_agreement.py --results results$(if $(QUICK),/quick,) --figures figures$(if $(QUICK),/quick,)/fast

# The stored runs against the authors' own code (bench/authors_reference/, committed): figures/fidelity.csv and
# docs/fidelity.md, in seconds.  bench/authors_code.py --cpp CLONE recomputes the reference runs (~35 CPU min).
fidelity:
	$(PYTHON) reproduce/fidelity.py

test:
	$(PYTHON) -m pytest -q

# The tests that start subprocesses, real signals or a cluster (deselected by default; CI runs them), in one
# pytest process (-n 0): a second worker would disturb their timing.
test-process:
	$(PYTHON) -m pytest -q -m process -n 0

# The simulation tests with numba's JIT off, every kernel as plain Python (docs/testing.md#without-the-jit).
test-jit-off:
	$(PYTHON) -m pytest -q -m process -n 0 tests/integration/test_jit_off.py

# Everything: the default suite and the slow checks on every core, then the real-process tests.
test-all:
	$(PYTHON) -m pytest -q -m "not process"
	$(PYTHON) -m pytest -q -m process -n 0

lint:
	$(PYTHON) -m ruff check .

# ns per slot of every algorithm at K = 5 .. 2000 (D-TS family: default vs sampling="fast"); bench/README.md.
bench:
	$(PYTHON) bench/step_cost.py --whole --csv bench/step_cost.csv
	$(MAKE) --no-print-directory cost-vs-k PYTHON="$(PYTHON)"

# ns per slot of a plug-in (bench/plugin_cost.csv): the toy Copeland-UCB of tests/toy_plugins.py, compiled and in
# plain Python, written into a temporary folder and timed by reference as a researcher's own file would be. The cost
# model prices a plain-Python plug-in by its Python row (reproduce/harness/cost.py). About 5 minutes.
bench-plugin:
	toy=$$(mktemp -d) && trap 'rm -rf "$$toy"' EXIT && \
	refs=$$($(PYTHON) -c 'import sys, pathlib, tests.toy_plugins as toy; print(*toy.write_plugins(pathlib.Path(sys.argv[1])))' "$$toy") && \
	$(PYTHON) bench/step_cost.py --algorithms $$refs --K 5 16 32 136 --whole --csv bench/plugin_cost.csv

# The cost-against-K figure from the committed step-cost table (seconds; make bench re-measures the table first).
cost-vs-k:
	$(PYTHON) bench/cost_vs_k.py --table bench/step_cost.csv --figures figures

# Estimated CPU hours of every paper figure from per-slot costs measured here (a few minutes), then the
# worker and CPU hours the stored runs took, defaults and --fast (bench/paper_cost.py --measured: only that).
bench-paper:
	$(PYTHON) bench/paper_cost.py

# The performance targets against bench/step_cost.csv and the stored runs: the table atop bench/README.md.
bench-targets:
	$(PYTHON) bench/targets.py --write

clean:
	rm -rf .numba_cache results/quick figures/quick .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
