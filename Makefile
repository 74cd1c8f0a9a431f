# Paper figures, tests and benchmarks.
#   make all-figures          every figure, Table 9 and figures/REPORT.md at paper scale (stored runs are
#                             reused, so a checkout with the committed results/ redraws in seconds)
#   make all-figures QUICK=1  a minutes-long smoke run of each, under figures/quick/ (not evidence)
#   make -B all-figures FORCE=1   recompute every run from scratch (hours; resumable)
#   make all-figures FAST=1   the seven figures with every algorithm's exact fast paths (same law, other
#                             random streams), results and figures under fast/ (combines with QUICK=1)
# A figure is redrawn only when its script or the shared plotting/experiment code is newer than it.
PYTHON ?= .venv/bin/python
FIGDIR := figures$(if $(QUICK),/quick,)$(if $(FAST),/fast,)
FLAGS ?= $(if $(QUICK),--quick,) $(if $(FAST),--fast,) $(if $(FORCE),--force,)
FIGURES := fig1_mslr fig2_regret_std fig3_condorcet fig4_noncondorcet fig5_diversity fig6_delay fig7_pure_dts
SHARED := reproduce/experiment.py reproduce/plotting.py reproduce/claims.py reproduce/paper_claims.py \
          reproduce/paper_config.py

.PHONY: install all-figures fig1 fig2 fig3 fig4 fig5 fig6 fig7 table9 c18 report readme verify fast-agreement test \
        test-all lint bench bench-paper bench-targets clean

install:
	python3 -m venv .venv
	$(PYTHON) -m pip install -r requirements.txt

# Table 9 (data only) and the C18 diagnostic (D-TS slot by slot, by design) have no fast path.
all-figures: $(FIGURES:%=$(FIGDIR)/%.png) $(if $(FAST),,$(FIGDIR)/table9_mslr_subsets.md $(FIGDIR)/c18_elimination.csv \
             $(FIGDIR)/large_scale.png) \
             report $(if $(FAST),fast-agreement,)

fig1: $(FIGDIR)/fig1_mslr.png
fig2: $(FIGDIR)/fig2_regret_std.png
fig3: $(FIGDIR)/fig3_condorcet.png
fig4: $(FIGDIR)/fig4_noncondorcet.png
fig5: $(FIGDIR)/fig5_diversity.png
fig6: $(FIGDIR)/fig6_delay.png
fig7: $(FIGDIR)/fig7_pure_dts.png
table9: $(FIGDIR)/table9_mslr_subsets.md
c18: $(FIGDIR)/c18_elimination.csv

$(FIGDIR)/%.png: reproduce/%.py $(SHARED)
	$(PYTHON) reproduce/$*.py $(FLAGS)

# Fig. 2 is computed from Fig. 1's stored runs.
$(FIGDIR)/fig2_regret_std.png: $(FIGDIR)/fig1_mslr.png

# Past the paper: drawn from the stored runs (days of computation, run in the background: docs/experiments.md).
$(FIGDIR)/large_scale.png: reproduce/large_scale.py $(SHARED)
	$(PYTHON) reproduce/large_scale.py $(if $(QUICK)$(FORCE),$(FLAGS),--plot-only)

$(FIGDIR)/table9_mslr_subsets.md: reproduce/table9_mslr_subsets.py
	$(PYTHON) reproduce/table9_mslr_subsets.py $(if $(QUICK),--quick,)

# Claim C18: how often the RUCB-based elimination changes D-TS's first candidate (a diagnostic, ~7 min on 2 cores).
$(FIGDIR)/c18_elimination.csv: reproduce/c18_elimination.py $(SHARED)
	$(PYTHON) reproduce/c18_elimination.py $(FLAGS)

# REPORT.md from every figure's tables; at paper scale also the README's generated blocks.
report:
	$(PYTHON) reproduce/report.py --figures $(FIGDIR) $(if $(QUICK)$(FAST),,--readme README.md)

# Check that the README's generated blocks agree with the committed tables.
readme:
	$(PYTHON) reproduce/report.py --readme README.md --check

# Re-simulate the first run of every stored paper-scale chunk and compare bit for bit (~10 min).
verify:
	$(PYTHON) reproduce/verify.py results --max-horizon 2000000

# Every line stored both with the defaults and with --fast, compared: same law (paired and KS tests, Holm over
# all lines), or bit for bit for an algorithm without fast path; writes figures[/quick]/fast/fast_agreement.csv.
fast-agreement:
	$(PYTHON) reproduce/fast_agreement.py --results results$(if $(QUICK),/quick,) --figures figures$(if $(QUICK),/quick,)/fast

test:
	$(PYTHON) -m pytest -q

test-all:
	$(PYTHON) -m pytest -q -m "slow or not slow"

lint:
	$(PYTHON) -m ruff check .

# ns per slot of every algorithm at K = 5 .. 2000 (D-TS family: default vs sampling="fast"); bench/README.md.
bench:
	$(PYTHON) bench/step_cost.py --whole --csv bench/step_cost.csv

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
