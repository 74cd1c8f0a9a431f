"""The figure-specific computations of the paper's figures (reproduce/studies/paper_figures/) on synthetic results,
and Table 9 (its study, ``reproduce.studies.mslr_subsets``, and its script run from its file)."""

from types import SimpleNamespace

import numpy as np
import pytest
from pandas import testing as pd_testing

from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.claims.verdict import FAILS, HOLDS
from dts_reproduction.reproduce.config.paper import DELAY_GRID
from dts_reproduction.reproduce.harness.runner import Line, run_lines
from dts_reproduction.reproduce.studies import mslr_subsets
from dts_reproduction.reproduce.studies.paper_figures import delay_figure, diversity_figure, std_figure
from dts_reproduction.reproduce.studies.paper_figures.delay_figure import delay_panels
from tests.scripts import run_script


def result(dataset, algorithm, final, self_counts=None, checkpoints=None, regret=None, horizon=1000):
    """A stand-in LineResult."""
    final = np.asarray(final, dtype=np.float64)
    line = SimpleNamespace(dataset=dataset, name=algorithm, algorithm=algorithm, horizon=horizon)
    return SimpleNamespace(line=line, label=algorithm, final=final, self_counts=self_counts,
                           checkpoints=checkpoints, regret=regret)


def test_winner_shares_are_fractions_of_the_winners_self_comparisons():
    dataset = load_dataset("nc_cyclic")
    counts = np.zeros((2, dataset.K), dtype=np.int64)
    counts[0, dataset.winners] = [10, 30, 60]
    counts[0, 0 if 0 not in dataset.winners else 4] = 1000  # a non-winner's self-comparisons do not count
    shares = diversity_figure.winner_shares(result("nc_cyclic", "dts", [0, 0], self_counts=counts))
    assert shares[0] == pytest.approx([0.1, 0.3, 0.6])
    assert shares[1] == pytest.approx([0.0, 0.0, 0.0])  # a run without any winner self-comparison


def test_delay_panels_leave_out_delays_of_the_horizon_or_more():
    delays = {panel.delay for panel in delay_panels(1000)}
    assert delays == {d for d in DELAY_GRID if d < 1000}
    # d = 1 is no delay: kept at T = 1 (an empty grid stopped --horizon 1 with KeyError 'panel')
    assert {panel.delay for panel in delay_panels(1)} == {1}


def grid(values):
    """{delay: {algorithm: result}} with 400 runs per point, means as given and s.e. 1."""
    z = np.tile([-1.0, 1.0], 200) * np.sqrt(400) / np.tile([-1.0, 1.0], 200).std(ddof=1)
    return {d: {name: result("nc_cyclic", name, mean + z) for name, mean in row.items()}
            for d, row in values.items()}


def test_crossover_inside_the_paper_range_holds():
    g = grid({1: {"ecw_rmed": 100, "dts": 200, "dts_plus": 190}, 100: {"ecw_rmed": 150, "dts": 210, "dts_plus": 200},
              300: {"ecw_rmed": 400, "dts": 230, "dts_plus": 220},
              1000: {"ecw_rmed": 900, "dts": 300, "dts_plus": 280}})
    measured, verdict = delay_figure.crossover(g)
    assert "d = 300" in measured and verdict == HOLDS


def test_crossover_never_reached_fails():
    g = grid({1: {"ecw_rmed": 100, "dts": 200, "dts_plus": 190}, 1000: {"ecw_rmed": 150, "dts": 210, "dts_plus": 200}})
    assert delay_figure.crossover(g)[1] == FAILS


def test_regret_at_reads_the_checkpoint_or_the_final_value():
    res = result("mslr5_condorcet", "dts", [5.0, 7.0], checkpoints=np.array([10, 100, 1000]),
                 regret=np.array([[1.0, 2.0, 5.0], [1.0, 3.0, 7.0]]))
    assert std_figure.regret_at(res, 1000) == pytest.approx([5.0, 7.0])
    assert std_figure.regret_at(res, 100) == pytest.approx([2.0, 3.0])
    with pytest.raises(ValueError, match="no checkpoint at t = 50"):
        std_figure.regret_at(res, 50)


def test_table9_scores_computed_from_data_match_the_paper():
    for name in mslr_subsets.TABLE9:
        rows = mslr_subsets.subset_rows(name)
        assert all(row["matches"] for row in rows)
        assert [row["ranker"] for row in rows if row["winner"]] == mslr_subsets.TABLE9[name][3]


def test_table9_writes_csv_and_markdown(tmp_path, capsys):
    run_script("reproduce/table9_mslr_subsets.py", ["--figures", str(tmp_path)])
    text = (tmp_path / "table9_mslr_subsets.md").read_text()
    assert "## K = 32, non-Condorcet (Copeland winners: 60, 120)" in text
    assert "all 96 Copeland scores match" in capsys.readouterr().out


def exact_outside_probability(q, in_c):
    """P(the uniform-tie vote winner over all arms is outside C), by enumerating every vote outcome."""
    from itertools import product

    K = q.shape[0]
    pairs = [(i, j) for i in range(K) for j in range(i + 1, K)]
    total = 0.0
    for outcome in product([True, False], repeat=len(pairs)):
        prob, votes = 1.0, np.zeros(K)
        for (i, j), i_wins in zip(pairs, outcome, strict=True):
            prob *= q[i, j] if i_wins else 1 - q[i, j]
            votes[i if i_wins else j] += 1
        best = np.flatnonzero(votes == votes.max())
        total += prob * np.mean([not in_c[b] for b in best])
    return total


def test_c18_probe_draws_the_unrestricted_vote_winner_with_its_exact_law():
    """20000 probes of a K = 4 state against the enumerated probability (4 standard errors)."""
    from dts_reproduction.algorithms.dts_probe import unrestricted_winner_outside

    q = np.array([[0.5, 0.7, 0.2, 0.9], [0.3, 0.5, 0.6, 0.4], [0.8, 0.4, 0.5, 0.55], [0.1, 0.6, 0.45, 0.5]])
    in_c = np.array([True, False, True, False])
    rng = np.random.default_rng(7)
    votes = np.zeros(4, np.int64)
    draws = 20000
    hits = sum(unrestricted_winner_outside(rng, q, in_c, votes) for _ in range(draws))
    p = exact_outside_probability(q, in_c)
    assert abs(hits / draws - p) < 4 * np.sqrt(p * (1 - p) / draws)
    assert not unrestricted_winner_outside(rng, q, np.ones(4, np.bool_), votes)  # C = every arm: never outside


def test_c18_runs_on_the_chosen_backend(tmp_path, monkeypatch):
    """c18_elimination.py ran on local loky processes whatever --backend/--scheduler/--local-cluster said
    (its own Parallel call ignored them)."""
    import joblib

    from dts_reproduction.reproduce.harness import runner

    seen = set()

    def fake_run(*_args, **_kwargs):
        seen.add(type(joblib.parallel.get_active_backend()[0]).__name__)
        return {"outside": 0, "restricted": 0}

    monkeypatch.setattr(runner, "run_one", fake_run)
    run_script("reproduce/c18_elimination.py", ["--runs", "2", "--horizon", "10", "--backend", "threading",
                                                "--no-progress", "--out", tmp_path / "r", "--figures", tmp_path / "f"])
    assert seen == {"ThreadingBackend"}


def test_c18_help_gives_its_own_defaults_not_the_papers(capsys):
    """c18_elimination's --help called its 20 runs 'the paper's 500/100/10 rule'; the paper gives no
    numbers for this diagnostic (its horizon is the paper's T = 1e6)."""
    with pytest.raises(SystemExit):
        run_script("reproduce/c18_elimination.py", ["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "default: 20, this script's own" in text and "500/100/10" not in text
    assert "default: 1e6, the horizon of the paper's experiments" in text


def curve(name, t, regret, algorithm="dts"):
    """A stand-in LineResult of a regret curve: per-run ``regret`` (runs, len(t)) at checkpoints ``t``."""
    line = SimpleNamespace(dataset="cyclic", name=name, algorithm=algorithm, horizon=int(t[-1]), shuffle=True,
                           params=())
    return SimpleNamespace(line=line, label=name, checkpoints=np.asarray(t), regret=np.asarray(regret, float),
                           final=np.asarray(regret, float)[:, -1], meta={})


def test_bootstrap_interval_is_the_percentile_interval_of_resampled_means():
    """Against a plain numpy bootstrap with the same draws: resample the runs, take the mean, the 2.5% and
    97.5% percentiles; per point of a curve and for one value per run."""
    from dts_reproduction.reproduce.claims.intervals import (
        BAND_BOOTSTRAP_RESAMPLES,
        BAND_BOOTSTRAP_SEED,
        bootstrap_interval,
    )

    values = np.random.default_rng(3).lognormal(0.0, 2.0, size=(37, 4))
    draws = np.random.default_rng(BAND_BOOTSTRAP_SEED).integers(0, 37, size=(BAND_BOOTSTRAP_RESAMPLES, 37))
    means = values[draws].mean(axis=1)
    low, high = bootstrap_interval(values)
    assert low == pytest.approx(np.percentile(means, 2.5, axis=0), rel=1e-12)
    assert high == pytest.approx(np.percentile(means, 97.5, axis=0), rel=1e-12)
    low1, high1 = bootstrap_interval(values[:, 2])
    assert np.shape(low1) == () and (low1, high1) == pytest.approx((low[2], high[2]), rel=1e-12)
    again = bootstrap_interval(values)
    assert np.array_equal(again[0], low) and np.array_equal(again[1], high)  # a redraw writes the same numbers


def test_bootstrap_interval_respects_a_heavy_tail():
    """One huge run among many small ones (SCB on Cyclic): mean +- 1.96 s.e. reaches below zero, the
    percentile interval stays within the values and is asymmetric around the mean."""
    from dts_reproduction.reproduce.claims.intervals import bootstrap_interval
    from dts_reproduction.reproduce.output.plotting import Z_95

    values = np.concatenate([np.full(199, 10.0), [1e5]])
    mean, se = values.mean(), values.std(ddof=1) / np.sqrt(values.size)
    assert mean - Z_95 * se < 0
    low, high = bootstrap_interval(values)
    assert 10.0 <= low < mean < high and high - mean > 1.5 * (mean - low)
    assert all(np.isnan(bound) for bound in bootstrap_interval(values[:1]))  # one run: no spread to estimate


@pytest.mark.parametrize("slope", [5.0, 80.0, 400.0])
def test_slope_reference_is_never_above_the_curve_it_is_anchored_to(slope):
    """Fig. 4(d): a line through the lowest curve's R(T) with a slope below the curve's lay above it
    earlier and read as a violated bound.  Drawn, the line stays under the lowest curve over its whole
    range and touches it."""
    import matplotlib.pyplot as plt

    from dts_reproduction.reproduce.output.plotting import REFERENCE_DECADES, curve_frame, regret_axes

    t = np.unique(np.geomspace(1, 1e6, 60).astype(int))
    steep = 3.0 * t ** 0.4 + 50 * np.log(t)  # slope in ln t grows from ~50 to ~500
    results = [curve("low", t, [steep * 0.9, steep * 1.1]), curve("high", t, [4 * steep, 4 * steep], "ccb")]
    frame = curve_frame(results, "p")
    fig, ax = plt.subplots()
    regret_axes(ax, frame, results, "(a) p", reference=(slope, "slope C"))
    (line,) = [ln for ln in ax.lines if ln.get_label() == "slope C"]
    x, y = line.get_xdata(), line.get_ydata()
    anchor = np.interp(x, t, steep)
    plt.close(fig)
    assert x.min() >= t[-1] / 10.0 ** REFERENCE_DECADES * 0.999 and x.max() == t[-1]
    assert np.all(y <= anchor + 1e-9) and np.min(anchor - y) == pytest.approx(0.0, abs=1e-9)
    assert np.allclose(np.diff(y) / np.diff(np.log(x)), slope)


def captured_regret_figure(monkeypatch, zooms):
    """The figure ``plot_regret_panels`` draws for three synthetic panels with ``zooms``, kept open."""
    from dts_reproduction.reproduce.output import plotting

    kept = []
    monkeypatch.setattr(plotting, "save_figure", lambda fig, stem: kept.append(fig))
    monkeypatch.setattr(plotting, "write_table", lambda table, path: None)
    t = np.array([1, 10, 100, 1000])
    panels = [(f"({letter}) p", [curve("dts", t, [[0, 1, 2, 3], [0, 1, 2, 5]]),
                                 curve("btm", t, [[0, 10, 100, 1000]] * 2, "btm")]) for letter in "abc"]
    plotting.plot_regret_panels(panels, "unused", zooms=zooms, references=[(1.0, "slope C")] * 3)
    return kept[0]


def test_regret_panels_have_unique_letters_and_insets_for_zooms(monkeypatch):
    """A zoomed panel is drawn once, clipped, with its full range in an inset (the old layout repeated
    it in a second block of rows, so that every letter appeared twice)."""
    import re

    fig = captured_regret_figure(monkeypatch, zooms=[10.0, None, 1e6])
    titled = [ax for ax in fig.axes if ax.get_visible() and ax.get_title()]
    letters = [re.match(r"\((\w)\)", ax.get_title()).group(1) for ax in titled]
    assert letters == ["a", "b", "c"]
    assert titled[0].get_ylim()[1] == 10.0 and len(titled[0].child_axes) == 1
    assert [len(ax.child_axes) for ax in titled[1:]] == [0, 0]  # no zoom, and a zoom above every curve


def test_figure_note_is_clear_of_the_legend_and_the_axes(monkeypatch):
    """The note under a figure overlapped its legend."""
    fig = captured_regret_figure(monkeypatch, zooms=[10.0, None, None])
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    (legend,) = fig.legends
    (note,) = fig.texts
    boxes = [legend.get_window_extent(renderer), note.get_window_extent(renderer)]
    axes = [ax.get_tightbbox(renderer) for ax in fig.axes if ax.get_visible() and ax.get_title()]
    assert "bootstrap percentile" in note.get_text() and "inset" in note.get_text()
    assert not boxes[0].overlaps(boxes[1]) and boxes[1].y1 <= boxes[0].y0
    assert all(not box.overlaps(ax) for box in boxes for ax in axes)


def test_a_single_panel_figures_note_and_legend_stay_inside_it(monkeypatch):
    """A single-panel figure (run.py with one dataset) is half as wide as the others: its note ran past both edges and
    was cut.  Every line of the note and the legend now lie inside the figure, and the note keeps every word."""
    from dts_reproduction.reproduce.output import plotting

    kept = []
    monkeypatch.setattr(plotting, "save_figure", lambda fig, stem: kept.append(fig))
    monkeypatch.setattr(plotting, "write_table", lambda table, path: None)
    t = np.array([1, 10, 100, 1000])
    names = ("dts", "dts_plus", "rmed1", "ecw_rmed", "rucb")
    plotting.plot_regret_panels([("(a) p", [curve(name, t, [[0, 1, 2, 3], [0, 1, 2, 5]], name) for name in names])],
                                "unused", ncols=1, zooms=[1.0], references=[(1.0, "slope C of the lower bound")])
    (fig,) = kept
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    (legend,) = fig.legends
    (note,) = fig.texts
    inside = fig.bbox
    for box in (legend.get_window_extent(renderer), note.get_window_extent(renderer)):
        assert inside.x0 <= box.x0 and box.x1 <= inside.x1, (box, inside)
    whole = plotting.regret_note([(1.0, "slope")], True)
    assert note.get_text().split() == whole.split() and note.get_text().count("\n") > whole.count("\n")


def test_a_note_line_that_fits_is_left_as_it_is_and_a_wider_one_is_broken_between_words():
    from dts_reproduction.reproduce.output.plotting import NOTE_FONT_SIZE, text_inches, wrapped_note

    line = "lines: mean over runs; bands: a 95% interval of the mean"
    assert wrapped_note(line, text_inches(line, NOTE_FONT_SIZE)) == line
    lines = wrapped_note(f"{line}\nshort", 1.2).split("\n")
    assert len(lines) > 3 and lines[-1] == "short" and " ".join(lines[:-1]) == line
    assert all(text_inches(part, NOTE_FONT_SIZE) <= 1.2 for part in lines)


def test_fig2_log_axis_labels_a_tick_at_or_below_every_bar():
    """Fig. 2 had 9 of 11 bars below its first labelled tick, and a raw 'R_ECW-RMED' as y label."""
    import matplotlib.pyplot as plt
    import pandas as pd

    from dts_reproduction.reproduce.output.plotting import bars_axes

    for values in ([57.6, 0.43, 0.31, 0.29, 1.3, 0.3, 34.0, 0.29, 0.31, 0.22, 0.32],
                   [6.2e-4, 0.068, 0.018, 0.012, 0.10, 0.14, 0.34, 0.46, 2.3, 0.25, 0.25]):
        table = pd.DataFrame({"label": [f"A{k}" for k in range(11)], "y": values, "ci": np.full(11, 0.01),
                              "color": ["C0"] * 11})
        fig, ax = plt.subplots()
        bars_axes(ax, table, "y", "ci", "t", "l")
        fig.canvas.draw()
        low, high = ax.get_ylim()
        labelled = [tick.get_loc() for tick in ax.yaxis.get_major_ticks()
                    if tick.label1.get_text() and low <= tick.get_loc() <= high]
        plt.close(fig)
        assert ax.get_yscale() == "log" and min(labelled) <= min(values)
        assert max(values) + 0.01 <= high
    assert all("R_" not in label for _, label in std_figure.NORMALISATIONS)


@pytest.mark.parametrize("values", [[0.0, 0.3, 2.0], [0.0, 0.0, 0.0]])
def test_log_axis_leaves_a_zero_bar_below_it(values):
    """A smoke run's SAVAGE has a regret STD of 0 (its schedule is fixed), which a log axis cannot show: the axis
    starts from the smallest positive bar (or a tenth of the top when none is positive); the quick Fig. 2 stopped
    with "math domain error" when the axis was computed from the 0."""
    import matplotlib.pyplot as plt
    import pandas as pd

    from dts_reproduction.reproduce.output.plotting import bars_axes

    table = pd.DataFrame({"label": ["A", "B", "C"], "y": values, "ci": [0.0, 0.1, 0.5], "color": ["C0"] * 3})
    fig, ax = plt.subplots()
    bars_axes(ax, table, "y", "ci", "t", "l")
    low, high = ax.get_ylim()
    plt.close(fig)
    assert ax.get_yscale() == "log" and high == pytest.approx(1.6 * max(np.add(values, [0.0, 0.1, 0.5])))
    # The labelled tick (1, 2, 5 x a power of ten) at or below 0.3, the smallest positive bar; with none, at or
    # below a tenth of the top (0.08).
    assert low == pytest.approx(0.2 if max(values) > 0 else 0.05)


def shares_frame():
    """A Fig. 5 shares table: three algorithms, three winners, 20 runs and the sample path."""
    import pandas as pd

    rng = np.random.default_rng(1)
    rows = []
    for label in ("D-TS", "D-TS+", "ECW-RMED"):
        shares = rng.dirichlet(np.ones(3), size=20)
        for w, winner in enumerate((60, 106, 130)):
            rows += [{"label": label, "winner": winner, "kind": "runs", "share": s} for s in shares[:, w]]
            rows.append({"label": label, "winner": winner, "kind": "path", "share": shares[0, w]})
    return pd.DataFrame(rows)


def test_fig5_boxes_are_in_the_legend_and_beside_the_bars():
    """Fig. 5 drew each all-runs box over the sample path's bar, and its legend named only the bars."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import PathPatch

    from dts_reproduction.reproduce.output.plotting import SHARE_KINDS, shares_axes

    fig, ax = plt.subplots()
    shares_axes(ax, shares_frame(), "t", 0)
    labels = ax.get_legend_handles_labels()[1]
    assert sorted(labels) == [SHARE_KINDS["path"].format(run=0), SHARE_KINDS["runs"]]
    bars = [(p.get_x(), p.get_x() + p.get_width()) for c in ax.containers for p in c.patches]
    boxes = [tuple(p.get_path().get_extents().intervalx) for p in ax.patches if isinstance(p, PathPatch)]
    plt.close(fig)
    assert len(bars) == len(boxes) == 9
    assert all(b1 <= x0 or x1 <= b0 for b0, b1 in bars for x0, x1 in boxes)


def test_fig6_draws_a_log_y_axis_with_the_bootstrap_interval():
    """Fig. 6's d ~ 300 crossover and its intervals were invisible on a linear y axis."""
    import matplotlib.pyplot as plt
    import pandas as pd

    from dts_reproduction.reproduce.output.plotting import parameter_axes

    table = pd.DataFrame({"label": "dts", "delay": [1, 10, 100], "mean": [500.0, 600.0, 5e4],
                          "ci95_low": [450.0, 580.0, 3e4], "ci95_high": [560.0, 640.0, 9e4]})
    fig, ax = plt.subplots()
    parameter_axes(ax, table, "delay", "t", "d", "R", {"dts": curve("dts", np.array([1, 2]), [[0, 1]])})
    (bars,) = [c for c in ax.collections if c.get_segments()]
    spans = [tuple(seg[:, 1]) for seg in bars.get_segments()]
    plt.close(fig)
    assert ax.get_yscale() == "log" and ax.get_xscale() == "log"
    assert sorted(spans) == sorted(zip(table["ci95_low"], table["ci95_high"], strict=True))


def test_zoomed_row_is_presentation_only(tmp_path):
    """A zoom limit below the curves clips the panel (its full range goes to an inset); the CSV of what is
    drawn is the same."""
    from matplotlib import image

    from dts_reproduction.reproduce.output.plotting import plot_regret_panels
    lines = [Line(dataset="gap", algorithm=a, horizon=300, runs=2) for a in ("dts", "btm")]
    results = [("gap", run_lines(lines, "zoom", tmp_path, seed=2, n_jobs=1, progress=False))]
    plain = plot_regret_panels(results, tmp_path / "plain", ncols=1)
    zoomed = plot_regret_panels(results, tmp_path / "zoomed", ncols=1, zooms=[1.0])
    pd_testing.assert_frame_equal(plain, zoomed)
    pixels = {name: image.imread(tmp_path / f"{name}.png") for name in ("plain", "zoomed")}
    # the same panel (no second row), one note line taller (what the inset is)
    assert pixels["zoomed"].shape[1] == pixels["plain"].shape[1]
    assert pixels["plain"].shape[0] < pixels["zoomed"].shape[0] < 1.1 * pixels["plain"].shape[0]
    unneeded = plot_regret_panels(results, tmp_path / "unneeded", ncols=1, zooms=[1e9])  # above every curve
    assert np.array_equal(image.imread(tmp_path / "unneeded.png"), pixels["plain"])
    pd_testing.assert_frame_equal(plain, unneeded)
    plot_regret_panels(results, tmp_path / "again", ncols=1)  # no timestamp: a redraw is byte-identical
    assert (tmp_path / "again.pdf").read_bytes() == (tmp_path / "plain.pdf").read_bytes()


def test_a_preset_line_is_dash_dotted_and_a_long_line_has_open_markers():
    """plotting.style: a preset (MergeDTS "best", D-TS "best") keeps its algorithm's colour and marker but is
    dash-dotted, the defaults (with the exact fast paths) are solid; the large-scale study draws a line beyond
    LARGE_SCALE_HORIZON with open markers (``large_scale_panels.curve_look``), and only that."""
    from dts_reproduction.core import constants
    from dts_reproduction.reproduce.config.paper import LARGE_SCALE_HORIZON
    from dts_reproduction.reproduce.output.plotting import style
    from dts_reproduction.reproduce.studies.large_scale_study.large_scale_panels import curve_look

    def look(algorithm, params=(), horizon=10**6, look_of=style):
        return look_of(SimpleNamespace(line=Line("mslr136_perfect", algorithm, horizon, 1, tuple(params))))

    fast = (("sampling", "fast"),)
    assert look("dts", fast)["linestyle"] == "-" and "markerfacecolor" not in look("dts", fast)
    best = look("dts", (*fast, *constants.DTS_BEST.items()))
    assert best["linestyle"] == "-." and best["color"] == look("dts")["color"]
    assert look("merge_dts", constants.MERGE_DTS_BEST.items())["linestyle"] == "-."
    long = look("dts", fast, horizon=10 * LARGE_SCALE_HORIZON, look_of=curve_look)
    assert long == {**look("dts", fast, horizon=10 * LARGE_SCALE_HORIZON), "markerfacecolor": "none"}
    assert look("dts", fast, horizon=LARGE_SCALE_HORIZON, look_of=curve_look) == look("dts", fast)


def test_an_explore_then_exploit_curve_and_a_weak_regret_panel_carry_the_weak_regret(tmp_path):
    """BTM's curve is one line per grid horizon (``experiment.combine_ete``): its weak regret at T_h is the final weak
    regret of the runs of horizon T_h, as its regret is theirs; a panel of metric "weak" draws it (finite, at most
    the regret of Eq. 1 at every point, since a slot's weak regret is the smaller of the two gaps it averages)."""
    from dts_reproduction.reproduce.output.plotting import curve_frame
    from dts_reproduction.reproduce.studies.experiment import combine_ete, ete_horizons

    lines = [Line("mslr5_condorcet", "btm", horizon, 3) for horizon in ete_horizons(300)]
    results = run_lines(lines, "ete", tmp_path, seed=4, n_jobs=1, progress=False, backend="sequential")
    curve = combine_ete(results)
    np.testing.assert_array_equal(curve.weak, np.column_stack([res.weak[:, -1] for res in results]))
    np.testing.assert_array_equal(curve.regret, np.column_stack([res.final for res in results]))
    weak, regret = curve_frame([curve], "p", "weak"), curve_frame([curve], "p")
    assert (weak["metric"] == "weak").all() and np.isfinite(weak["mean_regret"]).all()
    assert (weak["mean_regret"].to_numpy() <= regret["mean_regret"].to_numpy() + 1e-9).all()
    assert weak["mean_regret"].iloc[-1] < regret["mean_regret"].iloc[-1]
