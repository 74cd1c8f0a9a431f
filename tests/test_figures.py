"""The figure-specific computations of reproduce/fig*.py and table9 on synthetic results."""

from types import SimpleNamespace

import numpy as np
import pytest

from data import load_dataset
from reproduce import fig2_regret_std, fig5_diversity, fig6_delay, table9_mslr_subsets
from reproduce.claims import FAILS, HOLDS


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
    shares = fig5_diversity.winner_shares(result("nc_cyclic", "dts", [0, 0], self_counts=counts))
    assert shares[0] == pytest.approx([0.1, 0.3, 0.6])
    assert shares[1] == pytest.approx([0.0, 0.0, 0.0])  # a run without any winner self-comparison


def test_delay_panels_leave_out_delays_of_the_horizon_or_more():
    delays = {panel.delay for panel in fig6_delay.delay_panels(1000)}
    assert delays == {d for d in fig6_delay.DELAY_GRID if d < 1000}
    # d = 1 is no delay: kept at T = 1 (an empty grid stopped --horizon 1 with KeyError 'panel')
    assert {panel.delay for panel in fig6_delay.delay_panels(1)} == {1}


def grid(values):
    """{delay: {algorithm: result}} with 400 runs per point, means as given and s.e. 1."""
    z = np.tile([-1.0, 1.0], 200) * np.sqrt(400) / np.tile([-1.0, 1.0], 200).std(ddof=1)
    return {d: {name: result("nc_cyclic", name, mean + z) for name, mean in row.items()}
            for d, row in values.items()}


def test_crossover_inside_the_paper_range_holds():
    g = grid({1: {"ecw_rmed": 100, "dts": 200, "dts_plus": 190}, 100: {"ecw_rmed": 150, "dts": 210, "dts_plus": 200},
              300: {"ecw_rmed": 400, "dts": 230, "dts_plus": 220},
              1000: {"ecw_rmed": 900, "dts": 300, "dts_plus": 280}})
    measured, verdict = fig6_delay.crossover(g)
    assert "d = 300" in measured and verdict == HOLDS


def test_crossover_never_reached_fails():
    g = grid({1: {"ecw_rmed": 100, "dts": 200, "dts_plus": 190}, 1000: {"ecw_rmed": 150, "dts": 210, "dts_plus": 200}})
    assert fig6_delay.crossover(g)[1] == FAILS


def test_regret_at_reads_the_checkpoint_or_the_final_value():
    res = result("mslr5_condorcet", "dts", [5.0, 7.0], checkpoints=np.array([10, 100, 1000]),
                 regret=np.array([[1.0, 2.0, 5.0], [1.0, 3.0, 7.0]]))
    assert fig2_regret_std.regret_at(res, 1000) == pytest.approx([5.0, 7.0])
    assert fig2_regret_std.regret_at(res, 100) == pytest.approx([2.0, 3.0])
    with pytest.raises(ValueError, match="no checkpoint at t = 50"):
        fig2_regret_std.regret_at(res, 50)


def test_table9_scores_computed_from_data_match_the_paper():
    for name in table9_mslr_subsets.TABLE9:
        rows = table9_mslr_subsets.subset_rows(name)
        assert all(row["matches"] for row in rows)
        assert [row["ranker"] for row in rows if row["winner"]] == table9_mslr_subsets.TABLE9[name][3]


def test_table9_writes_csv_and_markdown(tmp_path, capsys):
    table9_mslr_subsets.main(["--figures", str(tmp_path)])
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
    from reproduce.c18_elimination import _unrestricted_winner_outside

    q = np.array([[0.5, 0.7, 0.2, 0.9], [0.3, 0.5, 0.6, 0.4], [0.8, 0.4, 0.5, 0.55], [0.1, 0.6, 0.45, 0.5]])
    in_c = np.array([True, False, True, False])
    rng = np.random.default_rng(7)
    votes = np.zeros(4, np.int64)
    draws = 20000
    hits = sum(_unrestricted_winner_outside(rng, q, in_c, votes) for _ in range(draws))
    p = exact_outside_probability(q, in_c)
    assert abs(hits / draws - p) < 4 * np.sqrt(p * (1 - p) / draws)
    assert not _unrestricted_winner_outside(rng, q, np.ones(4, np.bool_), votes)  # C = every arm: never outside


def test_c18_runs_on_the_chosen_backend(tmp_path, monkeypatch):
    """c18_elimination.py ran on local loky processes whatever --backend/--scheduler/--local-cluster said
    (its own Parallel call ignored them)."""
    import joblib

    from reproduce import c18_elimination

    seen = set()

    def fake_run(name, run, horizon, seed):
        seen.add(type(joblib.parallel.get_active_backend()[0]).__name__)
        return 0, 0

    monkeypatch.setattr(c18_elimination, "elimination_counts", fake_run)
    c18_elimination.main(["--runs", "2", "--horizon", "10", "--backend", "threading", "--no-progress",
                          "--out", str(tmp_path / "r"), "--figures", str(tmp_path / "f")])
    assert seen == {"ThreadingBackend"}


def test_c18_help_gives_its_own_defaults_not_the_papers(capsys):
    """c18_elimination's --help called its 20 runs 'the paper's 500/100/10 rule'; the paper gives no
    numbers for this diagnostic (its horizon is the paper's T = 1e6)."""
    from reproduce import c18_elimination

    with pytest.raises(SystemExit):
        c18_elimination.main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "default: 20, this script's own" in text and "500/100/10" not in text
    assert "default: 1e6, the horizon of the paper's experiments" in text
