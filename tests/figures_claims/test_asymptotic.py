"""The asymptotic study (reproduce/studies/asymptotic_study/, and its command line reproduce/asymptotic.py, loaded by
its path): slopes per decade against a plain reference, trapped runs, the limit fit, the bound's optimal allocation
worked by hand, the costliest pair without a Condorcet winner, the chunking of its lines, and its stored runs, whose
first 1e6 slots are those of the stored T = 1e6 fast-path runs bit for bit."""

import math
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from dts_reproduction.algorithms.base import MAX_EXACT_HORIZON
from dts_reproduction.core.copeland import copeland_winners
from dts_reproduction.core.kl import kl_bernoulli
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.claims.registry import ASYMPTOTIC
from dts_reproduction.reproduce.config.paper import ROOT_SEED
from dts_reproduction.reproduce.harness.cost import estimated_run_seconds
from dts_reproduction.reproduce.harness.limits import SKIP_CHUNK_HORIZON
from dts_reproduction.reproduce.harness.paths import RESULTS
from dts_reproduction.reproduce.harness.runner import Line, LineResult, chunk_size, log_grid
from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.studies.asymptotic_study import (
    asymptotic_claims,
    asymptotic_figures,
    asymptotic_lines,
    asymptotic_tables,
    decades,
    pair_costs,
)
from dts_reproduction.reproduce.studies.experiment import Panel, panel_curves, stored_line
from dts_reproduction.reproduce.studies.lower_bound import condorcet_allocation, condorcet_lower_bound, winner_constant
from tests.scripts import run_script

PAPER_SCALE = Settings.library(default_horizon=MAX_EXACT_HORIZON, fast=True)  # the study's own runs and horizons


def fake_result(curves, horizon):
    """A LineResult holding ``curves`` (runs x checkpoints of log_grid(horizon)) as its regret."""
    curves = np.asarray(curves, dtype=np.float64)
    runs = curves.shape[0]
    return LineResult(line=Line("cyclic", "dts", horizon, runs), label="x",
                      arrays={"checkpoints": log_grid(horizon), "regret": curves, "g2w": curves, "final": curves[:, -1],
                              "self_counts": np.zeros((runs, 4), np.int64),
                              "permutation": np.zeros((runs, 4), np.int64)})


def test_decade_slopes_match_a_plain_least_squares_fit():
    rng = np.random.default_rng(1)
    horizon = 10**9
    t = log_grid(horizon).astype(float)
    curves = 40 * np.log(t) + 15 * np.log(np.log(t + 2)) + rng.normal(0, 3, (7, t.size)).cumsum(axis=1) * 0.01
    slopes = decades.decade_slopes(fake_result(curves, horizon))
    assert list(slopes.ends) == [10**k for k in range(3, 10)]
    for k, end in enumerate(slopes.ends):
        keep = (t >= end / 10) & (t <= end)
        reference = [np.polyfit(np.log(t[keep]), row[keep], 1)[0] for row in curves]
        np.testing.assert_allclose(slopes.per_run[:, k], reference, rtol=1e-9)
        assert slopes.mean[k] == pytest.approx(np.mean(reference), rel=1e-9)
        assert slopes.low[k] <= slopes.mean[k] <= slopes.high[k]
    assert decades.decade_ends(2**53)[-2:] == [10**15, 2**53]


def test_slope_limit_recovers_the_log_log_weight():
    """R(t) = a ln t + b ln ln t: the per-decade slopes regressed on 1 / ln t give a and b (to the O(1/ln^2 t) the
    decade's finite width leaves)."""
    horizon = 2**53
    t = log_grid(horizon).astype(float)
    a, b = 50.0, 120.0
    fit = decades.slope_limit(decades.decade_slopes(fake_result([a * np.log(t) + b * np.log(np.log(t + 2))] * 3,
                                                                horizon)))
    assert fit.decades == 11
    assert fit.limit.value == pytest.approx(a, rel=0.02)
    assert fit.loglog.value == pytest.approx(b, rel=0.1)
    flat = decades.slope_limit(decades.decade_slopes(fake_result([a * np.log(t)] * 3, horizon)))
    assert flat.limit.value == pytest.approx(a, rel=1e-6) and abs(flat.loglog.value) < 1e-4


def test_the_limit_is_fitted_after_the_hump():
    """At K = 136 the slope per decade rises to seven times its limit before the winner is settled and falls back
    by 1e7; fitted from 1e6, that hump gave D-TS on MSLR Perfect a limit of -4.1e3 and a ln ln t weight of +1.6e5.
    Here R(t) = 2000 ln t - 3000 ln ln t plus a burst of 1e5 regret spread over [1e5, 1e6]: the fit starts two
    decades after the hump's last decade (at 1e8) and recovers both."""
    horizon = 2**53
    t = log_grid(horizon).astype(float)
    a, b = 2000.0, -3000.0
    burst = 1e5 * np.clip(np.log(t / 1e5) / math.log(10), 0, 1)
    slopes = decades.decade_slopes(fake_result([a * np.log(t) + b * np.log(np.log(t + 2)) + burst] * 3, horizon))
    assert slopes.mean[list(slopes.ends).index(10**6)] > decades.HUMP_FACTOR * slopes.mean[-1]
    fit = decades.slope_limit(slopes)
    assert fit.start == 10**8 and fit.decades == 9
    assert fit.limit.value == pytest.approx(a, rel=0.05)
    assert fit.loglog.value == pytest.approx(b, rel=0.15)
    flat = decades.decade_slopes(fake_result([a * np.log(t)] * 3, horizon))
    assert decades.fit_start(flat) == decades.LIMIT_FIT_FROM


def test_trapped_runs_are_the_linear_ones_and_none_below_the_threshold():
    horizon = 10**8
    t = log_grid(horizon).astype(float)
    logarithmic, linear = 300 * np.log(t), 300 * np.log(t) + 0.01 * t
    result = fake_result([logarithmic, linear, logarithmic], horizon)
    assert list(decades.trapped(result)) == [False, True, False]
    assert decades.untrapped(result).final.size == 2
    short = fake_result([linear[: log_grid(10**6).size]], 10**6)
    assert not decades.trapped(short).any()


def test_a_line_most_of_whose_runs_are_trapped_is_linear_and_has_no_slope():
    """RMED2 with the paper's sign on MSLR K = 5 without a Condorcet winner: 99 of 100 runs trapped; the slope of
    the last one was drawn as the line's and named the panel's closest to C.  A line is linear when more than half
    its runs are trapped: the summary gives it no slope, its counts of both kinds of runs, and no decade rows."""
    horizon = 10**8
    t = log_grid(horizon).astype(float)
    logarithmic, trapped_curve = 300 * np.log(t), 300 * np.log(t) + 0.01 * t
    mostly = fake_result([logarithmic, trapped_curve, trapped_curve], horizon)
    half = fake_result([logarithmic, trapped_curve], horizon)
    assert decades.linear(mostly) and not decades.linear(half)
    panels = [Panel("mslr5_noncondorcet", "(a)", ("rmed2",))]
    lower_bounds = {"mslr5_noncondorcet": (5.0, "Copeland", math.nan)}
    for lines in ([mostly], [half, mostly]):
        row = asymptotic_tables.summary_table(panels, [("(a)", lines)], lower_bounds).iloc[-1]
        assert (row["runs"], row["trapped_runs"]) == (1, 2) and math.isnan(row["slope_last_decade"])
    assert asymptotic_tables.slope_rows(panels, [("(a)", [mostly])], lower_bounds).empty
    assert not asymptotic_tables.slope_rows(panels, [("(a)", [half])], lower_bounds).empty


def test_at_the_non_condorcet_horizon_a_steep_logarithmic_run_is_not_trapped():
    """T = 1e7, where the matrices without a Condorcet winner stop: a logarithmic run as steep as Gap's ECW-RMED
    (slope 1.7e3 per ln t at T = 1e6, three times its mean for one run) is not trapped; the slowest linear run on
    those matrices (K = 9, Copeland regret 1 / (2 (K - 1)) per slot) is."""
    horizon = 10**7
    t = log_grid(horizon).astype(float)
    steep, slow_linear = 3 * 1744 * np.log(t), 66 * np.log(t) + t / 16
    assert list(decades.trapped(fake_result([steep, slow_linear], horizon))) == [False, True]


def test_cyclic_allocation_by_hand():
    """Cyclic: every cyclic arm is beaten by 0.9 by the next one (KL(0.1, 1/2) = 0.368) and by 0.6 by the winner
    (KL(0.4, 1/2) = 0.0201); one comparison of two cyclic arms costs 2/3, of one with the winner 1/3."""
    P = load_dataset("cyclic").P
    best = condorcet_allocation(P)
    assert best.winner == 0
    assert list(best.partner) == [-1, 3, 1, 2]
    kl_far, kl_near = kl_bernoulli(0.1, 0.5), kl_bernoulli(0.4, 0.5)
    np.testing.assert_allclose(best.comparisons[1:], 1 / kl_far)
    np.testing.assert_allclose(best.cost[1:], (2 / 3) / kl_far)
    assert condorcet_lower_bound(P) == pytest.approx(3 * (2 / 3) / kl_far)
    assert winner_constant(P) == pytest.approx(3 * (1 / 3) / kl_near)
    mslr = load_dataset("mslr5_condorcet").P
    assert winner_constant(mslr) == pytest.approx(condorcet_lower_bound(mslr))  # the winner is every arm's partner


def test_skipping_lines_on_condorcet_matrices_are_chunked_by_their_cost():
    cyclic, gap = load_dataset("cyclic"), load_dataset("gap")
    fast = (("sampling", "fast"),)
    assert chunk_size(Line("cyclic", "dts", 2**53, 500, fast), cyclic) == 100
    assert chunk_size(Line("cyclic", "dts", 2**53, 500), cyclic) == 1
    assert chunk_size(Line("gap", "dts", 2**53, 500, fast), gap) == 1
    # at and below SKIP_CHUNK_HORIZON the rule every stored line was chunked by
    assert chunk_size(Line("cyclic", "dts", SKIP_CHUNK_HORIZON, 500, fast), cyclic) == 1
    assert chunk_size(Line("cyclic", "dts", 10**6, 500, fast), cyclic) == 100


def stored_pairs():
    """(asymptotic line, its stored result, the stored T = 1e6 --fast line of Fig. 3 with the same parameters)
    for every Condorcet panel of the study and algorithm that both store."""
    for panel in asymptotic_lines.PANELS[:len(asymptotic_lines.CONDORCET)]:
        for curve in panel_curves(panel, PAPER_SCALE):
            line = curve[0]
            short = Line(line.dataset, line.algorithm, 10**6, line.runs, line.params, line.tag)
            long_result = stored_line(line, RESULTS, ROOT_SEED)
            short_result = stored_line(short, RESULTS / "fast", ROOT_SEED)
            if long_result is not None and short_result is not None:
                yield line, long_result, short_result


def test_stored_runs_extend_the_stored_fast_runs_bit_for_bit():
    """A run is a pure function of its index and its stream does not depend on the horizon, and the checkpoint
    grid of 2**53 holds that of 1e6: so up to 1e6 every stored run of the study equals the stored Fig. 3 --fast run
    of the same index, checkpoint by checkpoint, bit for bit."""
    pairs = list(stored_pairs())
    assert len(pairs) >= 39, "the committed study shares 39 lines with the committed --fast runs of Fig. 1 and 3"
    for line, long_result, short_result in pairs:
        columns = short_result.checkpoints.size
        assert np.array_equal(long_result.checkpoints[:columns], short_result.checkpoints)
        assert np.array_equal(long_result.regret[:, :columns], short_result.regret), line
        assert np.array_equal(long_result.permutations, short_result.permutations), line


def test_every_condorcet_panel_runs_every_fast_path_at_the_largest_exact_horizon():
    condorcet = asymptotic_lines.CONDORCET
    assert [p.dataset for p in asymptotic_lines.PANELS[:len(condorcet)]] == [d for d, _ in condorcet]
    for panel in asymptotic_lines.PANELS:
        K = load_dataset(panel.dataset).K
        if load_dataset(panel.dataset).has_condorcet_winner:
            assert panel.own_runs() == (500 if K < 10 else 100 if K <= 100 else 50) and panel.horizon == 2**53
        else:
            assert panel.own_runs() == 100 and panel.horizon == 10**7
    assert math.log10(2**53) > 15


def test_allocation_re_simulates_the_stored_runs_and_shows_where_the_regret_goes():
    """On Cyclic, the re-simulated runs of RMED1 and of RMED2 with the paper's sign reproduce their stored R(T);
    RMED1 spends its regret on comparisons with the winner, RMED2 (paper) on the optimal partners; a stored R(T)
    that the re-simulation does not reproduce is refused."""
    panel = asymptotic_lines.PANELS[0]
    lines = {curve[0].name: curve[0] for curve in panel_curves(panel, PAPER_SCALE)}
    results = [stored_line(lines[name], RESULTS, ROOT_SEED) for name in ("rmed1", asymptotic_lines.RMED2_PAPER.tag)]
    rows = asymptotic_tables.allocation_rows([panel], [(panel.title, results)]).set_index("algorithm")
    assert rows.loc["rmed1", "winner_pairs"] > 10 * rows.loc["rmed1", "partner_pairs"]
    paper = rows.loc[asymptotic_lines.RMED2_PAPER.tag]
    assert paper["partner_pairs"] > 3 * paper["winner_pairs"]
    assert paper["partner_pairs"] == pytest.approx(paper["lower_bound_slope"], rel=0.2)
    results[0].final[0] += 1.0
    with pytest.raises(ValueError, match="run 0 re-simulated"):
        asymptotic_tables.allocation_rows([panel], [(panel.title, results[:1])])


def test_the_study_computes_the_selected_lines_cheapest_first():
    """``cheapest_first`` keeps exactly the lines --algorithms and --datasets select and orders them by the cost
    model's CPU seconds of the whole line, ascending (a line without an estimate last)."""
    chosen = replace(PAPER_SCALE, algorithms=("rcs", "dts", "rmed2"), datasets=("gap", "mslr136_perfect", "cyclic"))
    lines = [line for panel in asymptotic_lines.PANELS for curve in panel_curves(panel, chosen) for line in curve]
    order = asymptotic_lines.cheapest_first(chosen)(lines)
    assert {(line.algorithm, line.dataset) for line in order} == {
        (a, d) for a in chosen.algorithms for d in chosen.datasets}
    assert len(order) == 3 * 3 + 3  # RMED2 runs twice per matrix: as run and with the paper's sign
    seconds = [estimated_run_seconds(line, load_dataset(line.dataset)) * line.runs for line in order]
    finite = [s for s in seconds if math.isfinite(s)]
    assert finite == sorted(finite) and seconds[:len(finite)] == finite
    assert order[0].dataset == "cyclic" and order[-1].dataset in ("gap", "mslr136_perfect")
    assert len(asymptotic_lines.cheapest_first(PAPER_SCALE)(lines)) == len(lines)


@pytest.mark.parametrize("flag", ["--algorithms", "--datasets"])
def test_the_study_refuses_a_selection_it_has_no_line_of(flag, capsys, tmp_path):
    """A name the study has no line of: one line naming the flag and the name, exit 2, nothing written."""
    with pytest.raises(SystemExit) as stop:
        run_script("reproduce/asymptotic.py", [flag, "nope", "--plot-only", "--figures", tmp_path])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and err.startswith(f"error: {flag}: 'nope'")
    assert not any(tmp_path.iterdir())


def test_forced_band_rows_count_the_pairs_inside_the_band():
    """Against plain loops over the pairs: the band is 0.01 / ln ln T, a pair counts if |p_ij - 1/2| is below it;
    on the Condorcet matrices up to K = 32 only the exact ties of ArXiv and Sushi do, and at K = 136 none holds the
    Condorcet winner."""
    from dts_reproduction.reproduce.studies.asymptotic_study.asymptotic_lines import PANELS
    from dts_reproduction.reproduce.studies.asymptotic_study.forced_band import forced_band_rows

    rows = forced_band_rows(PANELS, PAPER_SCALE, [(panel.title, []) for panel in PANELS]).set_index("dataset")
    for dataset_name in ("sushi", "mslr136_perfect", "mslr5_noncondorcet"):
        P = load_dataset(dataset_name).P
        row = rows.loc[dataset_name]
        band = 0.01 / math.log(math.log(row["horizon"]))
        assert row["band"] == pytest.approx(band, rel=1e-12)
        pairs = [(i, j) for i in range(len(P)) for j in range(i) if abs(P[i, j] - 0.5) < band]
        assert row["pairs_in_band"] == len(pairs)
        assert row["exact_ties"] == sum(P[i, j] == 0.5 for i, j in pairs)
    small = rows[(rows["K"] <= 32) & (rows["horizon"] == 2**53)]
    assert (small["pairs_in_band"] == small["exact_ties"]).all()
    assert small.loc[["arxiv", "sushi"], "exact_ties"].tolist() == [1, 1]
    large = rows[rows["K"] > 100]
    assert (large["with_winner"] == 0).all() and (large["pairs_in_band"] > 100).all()
    assert rows["ecw_rmed_runs"].isna().all()


def test_a_trapped_run_is_held_by_a_band_pair_when_it_pays_that_pair_s_cost_per_slot():
    """Over its last decade a run forced to one pair pays that pair's Copeland cost r_ij at every slot: a trapped
    run at 0.03 a slot is held by a band pair of cost 0.03, one at 0.0301 (0.3 % off) by none, and a logarithmic
    run is not counted."""
    from dts_reproduction.reproduce.studies.asymptotic_study.forced_band import COST_MATCH, band_pair_runs

    horizon = 10**8
    t = log_grid(horizon).astype(float)
    held, missed, logarithmic = 3 * np.log(t) + 0.03 * t, 3 * np.log(t) + 0.0301 * t, 300 * np.log(t)
    counts = band_pair_runs(fake_result([held, missed, logarithmic], horizon), np.array([0.03, 0.05]))
    assert (counts["ecw_rmed_runs"], counts["ecw_rmed_trapped"], counts["held_by_a_band_pair"]) == (3, 2, 1)
    assert counts["largest_cost_mismatch"] == pytest.approx(0.0001 / 0.03, rel=0.01)
    alone = band_pair_runs(fake_result([held, logarithmic], horizon), np.array([0.03]))
    assert alone["held_by_a_band_pair"] == 1 and alone["largest_cost_mismatch"] < COST_MATCH
    none = band_pair_runs(fake_result([logarithmic], horizon), np.array([0.03]))
    assert none["ecw_rmed_trapped"] == 0 and math.isnan(none["largest_cost_mismatch"])


def test_every_committed_trapped_ecw_rmed_run_is_held_by_a_pair_inside_the_band():
    """docs/asymptotic.md says so of the stored runs: every trapped ECW-RMED run of the study spends its last decade
    at the cost per slot of one pair inside step 1's band."""
    from dts_reproduction.reproduce.harness.paths import FIGURES

    table = pd.read_csv(FIGURES / "asymptotic_forced_band.csv")
    stored = table[table["ecw_rmed_runs"].notna()]
    assert (stored["ecw_rmed_trapped"] > 0).any()
    assert (stored["held_by_a_band_pair"] == stored["ecw_rmed_trapped"]).all()


def c5_panel(ecw_rmed_trapped: int):
    """The curves C5 reads at T = 1e8, three noisy runs each: D-TS and D-TS+ at 300 ln t, RMED1 and the logarithmic
    ECW-RMED runs at the same slope with 5000 more regret, and ``ecw_rmed_trapped`` ECW-RMED runs linear in t."""
    horizon = 10**8
    t = log_grid(horizon).astype(float)
    rng = np.random.default_rng(3)

    def line(name, curves):
        """A LineResult named ``name`` of ``curves`` with run-to-run noise in its slope."""
        noisy = [curve * rng.uniform(0.97, 1.03) for curve in curves]
        return replace(fake_result(noisy, horizon), line=Line("cyclic", name, horizon, len(curves)), label=name)

    low, high = 300 * np.log(t), 300 * np.log(t) + 5000
    ecw = [high + 0.01 * t] * ecw_rmed_trapped + [high] * (3 - ecw_rmed_trapped)
    return [line("dts", [low] * 3), line("dts_plus", [low] * 3), line("rmed1", [high] * 3), line("ecw_rmed", ecw)]


@pytest.mark.parametrize("ecw_rmed_trapped, verdict", [(0, "holds"), (1, "holds"), (2, "FAILS")])
def test_c5_fails_against_a_linear_line_and_shows_its_logarithmic_runs(ecw_rmed_trapped, verdict):
    """C5's "about the same slope" against a line most of whose runs are trapped (``decades.linear``): it has no
    slope, so the row fails and names its trapped runs; a minority of trapped runs is named and left out of the
    slope (the remaining runs hold the claim)."""
    lower_bounds = {"cyclic": (5.0, "Condorcet", 6.0)}
    rows = asymptotic_claims.panel_claims("cyclic", "(a)", c5_panel(ecw_rmed_trapped), lower_bounds,
                                          load_dataset("cyclic"), pd.DataFrame())
    row = next(row for row in rows if row["claim"] == "C5")
    assert row["verdict"] == verdict
    shown = {0: "slopes per", 1: "ecw_rmed's regret is linear in 1 of 3 runs, left out (below: its logarithmic runs",
             2: "ecw_rmed's regret is linear in 2 of 3 runs, so it has no slope (below: its logarithmic runs"}
    assert row["measured"].startswith(shown[ecw_rmed_trapped])


def test_flipping_a_pair_keeps_a_winner_or_not():
    """Gap: arm 1 (index 0) keeps a Copeland win over arm 4 at p = 0.51; flipped, it ties the others at two wins
    and is still a winner.  Its win over arm 2 (0.8) flipped, arm 2 gets three wins alone: no winner survives."""
    P = load_dataset("gap").P
    assert copeland_winners(P).tolist() == [0]
    assert pair_costs.flip_keeps_a_winner(P, 0, 3) and pair_costs.flip_keeps_a_winner(P, 3, 0)
    assert not pair_costs.flip_keeps_a_winner(P, 0, 1)


def test_costliest_pair_re_simulates_the_stored_runs_and_finds_the_pair_at_0_51_on_gap():
    """On Gap, the re-simulated runs of D-TS reproduce their stored R(T) and lose nearly all of it on the pair of arms
    1 and 4 (p = 0.51), whose price r / KL is r_14 / KL(0.51, 1/2); an edited stored R(T) is refused."""
    panel = next(panel for panel in asymptotic_lines.PANELS if panel.dataset == "gap")
    line = next(curve[0] for curve in panel_curves(panel, PAPER_SCALE) if curve[0].name == "dts")
    result = stored_line(line, RESULTS, ROOT_SEED)
    (row,) = pair_costs.costliest_pair_rows([panel], [(panel.title, [result])]).to_dict("records")
    assert row["pair"] == "1 vs 4" and row["p"] == 0.51 and row["share_of_regret"] > 0.9
    assert row["price_per_log_t"] == pytest.approx(0.25 / kl_bernoulli(0.51, 0.5))
    result.final[1] += 1.0
    with pytest.raises(ValueError, match="run 1 re-simulated"):
        pair_costs.costliest_pair_rows([panel], [(panel.title, [result])])


def test_sweeps_fall_where_alpha_sqrt_ln_t_reaches_an_integer():
    """By hand, alpha = 3: 3 sqrt(ln 1e6) = 11.15, so the first sweep from 1e6 is m = 12 at exp(16) = 8.9e6, and the
    last before 2**53 (ln 2**53 = 36.7) is m = 18 at exp(36) = 4.3e15."""
    from dts_reproduction.reproduce.studies.asymptotic_study.forced_sweeps import sweep_slots

    slots = sweep_slots(2**53)
    assert len(slots) == 7
    assert slots[0] == pytest.approx(math.exp(16)) and slots[-1] == pytest.approx(math.exp(36))
    for slot in slots:
        assert 3 * math.sqrt(math.log(slot)) == pytest.approx(round(3 * math.sqrt(math.log(slot))), abs=1e-9)
    assert sweep_slots(10**6) == [] and sweep_slots(10**7) == [pytest.approx(math.exp(16))]


def test_a_smoke_run_without_sweeps_writes_a_table_with_its_columns(tmp_path):
    """At a smoke run's T = 1e4 no sweep falls after 1e6: the table is empty but keeps its header, so the report can
    read it (an empty file stopped ``make all-figures QUICK=1``)."""
    from dts_reproduction.reproduce.output.tables import read_table, write_table
    from dts_reproduction.reproduce.studies.asymptotic_study.asymptotic_lines import PANELS
    from dts_reproduction.reproduce.studies.asymptotic_study.forced_sweeps import SWEEP_COLUMNS, sweep_rows

    panel = next(p for p in PANELS if p.dataset == "cyclic")
    lines = [fake_result([300 * np.log(log_grid(10**4).astype(float))], 10**4)]
    lines = [replace(lines[0], line=Line("cyclic", name, 10**4, 1)) for name in ("dts", "ecw_rmed")]
    write_table(sweep_rows([panel], [(panel.title, lines)]), tmp_path / "sweeps.csv")
    table = read_table(tmp_path / "sweeps.csv")
    assert table.empty and tuple(table.columns) == SWEEP_COLUMNS


def test_a_sweep_is_measured_and_taken_off_the_window_slope():
    """Runs at 300 ln t, one with a step of 5000 at a sweep inside C5's window [T / 10^0.5, T]: its increase over
    the sweep's checkpoint interval is the step plus the log growth over that interval (below 300 ln 10 / 20: the
    grid has more than 20 checkpoints a decade), the window slope is far above 300 with the step and back at 300
    without it (the excess taken off is the increase less the growth over the interval before, as wide in ln t);
    the run without the step is left as it was."""
    from dts_reproduction.reproduce.claims.verdict import run_slopes
    from dts_reproduction.reproduce.studies.asymptotic_study.forced_sweeps import (
        sweep_increases,
        window_slope,
        without_sweep,
    )

    horizon = 2**53
    t = log_grid(horizon).astype(float)
    sweep, width, growth = math.exp(36), 136**2, 300 * math.log(10) / 20
    result = fake_result([300 * np.log(t) + 5000 * (t > sweep), 300 * np.log(t)], horizon)
    increases = sweep_increases(result, sweep, width)
    assert 5000 < increases[0] < 5000 + growth and 0 < increases[1] < growth
    assert window_slope(result) > 1.5 * 300
    flat = without_sweep(result, sweep, width)
    np.testing.assert_allclose(flat[1], result.regret[1], rtol=1e-9)
    np.testing.assert_allclose(flat[0], flat[1], rtol=1e-9)
    slopes = run_slopes(result.checkpoints, flat, horizon / 10**0.5, horizon)
    assert slopes == pytest.approx([300, 300], rel=1e-6)
    assert window_slope(result, flat) == pytest.approx(slopes.mean())


def test_the_committed_sweeps_are_paid_by_every_logarithmic_ecw_rmed_run_at_k_136():
    """docs/asymptotic.md says so of the stored runs: on the 136-ranker matrices ECW-RMED's smallest increase over a
    sweep is far above (x3) D-TS's largest over the same slots, and without the last sweep its slope over C5's window
    is within x1.5 of D-TS's."""
    from dts_reproduction.reproduce.harness.paths import FIGURES

    table = pd.read_csv(FIGURES / "asymptotic_sweeps.csv")
    large = table[table["K"] > 100]
    assert not large.empty and large["in_c5_window"].all()
    assert (large["ecw_rmed_sweep_smallest"] > 3 * large["dts_same_interval_largest"]).all()
    ratio = large["ecw_rmed_window_slope_without_sweep"] / large["dts_window_slope"]
    assert ratio.between(1 / 1.5, 1.5).all()


def test_each_committed_c5_reason_of_ecw_rmed_names_what_its_line_shows():
    """The study's reasons explain C5 on FORCED_BAND_PANELS by a linear ECW-RMED line and on SWEEP_PANELS by a sweep
    inside C5's window of a line that keeps a slope: the committed tables must show just that."""
    from dts_reproduction.reproduce.harness.paths import FIGURES
    from dts_reproduction.reproduce.reporting.claims_report import read_study_tables
    from dts_reproduction.reproduce.studies.asymptotic_study.asymptotic_reasons import FORCED_BAND_PANELS, SWEEP_PANELS

    finals = read_study_tables(FIGURES, "_final.csv")[ASYMPTOTIC]
    ecw_rmed = finals[finals["algorithm"] == "ecw_rmed"].set_index("panel_id")
    trapped_share = ecw_rmed["trapped_runs"] / (ecw_rmed["trapped_runs"] + ecw_rmed["runs"])
    sweeps = read_study_tables(FIGURES, "_sweeps.csv")[ASYMPTOTIC].set_index("panel_id")
    assert (trapped_share[list(FORCED_BAND_PANELS)] > decades.LINEAR_SHARE).all()
    assert (trapped_share[list(SWEEP_PANELS)] <= decades.LINEAR_SHARE).all()
    assert sweeps.loc[list(SWEEP_PANELS), "in_c5_window"].all()


def test_the_trapped_note_names_linear_lines_and_the_runs_a_slope_leaves_out():
    """A linear line (2 of 3 runs linear in t) is named under "regret linear in t", a line with 1 of 3 under "left
    out of the slope", a line with none nowhere; no trapped run anywhere gives no note."""
    horizon = 10**8
    t = log_grid(horizon).astype(float)
    logarithmic, linear_run = 300 * np.log(t), 0.01 * t

    def line(label, trapped_runs):
        """Three runs, ``trapped_runs`` of them linear in t, labelled ``label``."""
        runs = [linear_run] * trapped_runs + [logarithmic] * (3 - trapped_runs)
        return replace(fake_result(runs, horizon), label=label)

    note = asymptotic_figures.trapped_note([line("A", 2), line("B", 1), line("C", 0)])
    assert note == "regret linear in t (runs trapped):\nA (2/3)\ntrapped runs left out of the slope:\nB (1/3)"
    assert asymptotic_figures.trapped_note([line("C", 0)]) == ""


def test_room_above_keeps_the_data_below_the_note():
    """After room_above the data's top sits at NOTE_TOP minus the note's lines and a margin of the log axis."""
    import matplotlib.pyplot as plt

    from dts_reproduction.reproduce.output.plotting import NOTE_LINE, NOTE_MARGIN, NOTE_TOP

    fig, ax = plt.subplots()
    ax.set_yscale("log")
    ax.plot([0, 1], [10.0, 1e4])
    ax.set_ylim(10.0, 1e4)
    asymptotic_figures.room_above(ax, 4)
    low, high = ax.get_ylim()
    share = math.log(1e4 / low) / math.log(high / low)
    assert share == pytest.approx(NOTE_TOP - 4 * NOTE_LINE - NOTE_MARGIN)
    plt.close(fig)
