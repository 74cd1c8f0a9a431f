"""bench/step_cost.py: how many slots a row is timed on, the x_cpp column recomputed from the C++ anchors, and a
plug-in timed by its reference (the timings themselves are not tested)."""

import math

import pandas as pd
import pytest

from tests.bench_scripts import bench_script
from tests.toy_plugins import empty_plugin_table, write_plugins


@pytest.fixture()
def step_cost():
    return bench_script("step_cost")


def _fake_clock(module, monkeypatch, seconds_per_slot, fast_seconds_per_slot=None):
    """Replace the timed simulation by a run costing ``seconds_per_slot`` a slot (``fast_seconds_per_slot``
    with the fast parameters, if given); returns the horizons asked."""
    asked = []

    def timed_run(dataset, spec, params, horizon, seed=0, repeats=3):
        asked.append(horizon)
        return horizon * (seconds_per_slot if params == {} or fast_seconds_per_slot is None else fast_seconds_per_slot)

    monkeypatch.setattr(module, "timed_run", timed_run)
    monkeypatch.setattr(module, "bench_dataset", lambda K: None)
    return asked


@pytest.mark.parametrize("seconds_per_slot, slots", [(1e-4, 20_000), (1e-3, 2_000), (1e-2, 200), (1e-9, 200_000)])
def test_slots_grow_tenfold_until_the_warm_up_run_takes_long_enough(step_cost, monkeypatch, seconds_per_slot, slots):
    """From 200 slots: tenfold while the timed slots take under MIN_TIMED_SECONDS = 0.5 s in all, at most
    MAX_SLOTS; the warm-up grows with them, and the per-slot costs are those of the final counts."""
    assert step_cost.MIN_TIMED_SECONDS == 0.5 and step_cost.MAX_SLOTS == 200_000
    asked = _fake_clock(step_cost, monkeypatch, seconds_per_slot)
    warmup, steps, early, later = step_cost.step_cost("sparring", 2000, 200, 200, {}, adapt=True)
    assert (warmup, steps) == (slots, slots)
    assert asked[-1] == 2 * slots and early == pytest.approx(seconds_per_slot * 1e9)
    assert later == pytest.approx(seconds_per_slot * 1e9)


def test_given_slots_are_kept(step_cost, monkeypatch):
    """Without ``adapt`` (``--warmup`` or ``--steps`` given, or the fast path after the defaults) the counts
    stay as asked, however cheap the run."""
    asked = _fake_clock(step_cost, monkeypatch, 1e-9)
    assert step_cost.step_cost("sparring", 2000, 200, 300, {}, adapt=False)[:2] == (200, 300)
    assert asked == [2, 200, 500]


def test_each_path_grows_its_own_slots(step_cost, monkeypatch, capsys):
    """One algorithm and K: the defaults stop growing at 2000 slots (2 s timed), the far cheaper fast path
    goes on to MAX_SLOTS; each row records its slots, and the ratio says it compares different slots (*);
    with the same cost per slot both paths end at the same slots and the ratio has no mark."""
    _fake_clock(step_cost, monkeypatch, 1e-3, fast_seconds_per_slot=1e-9)
    monkeypatch.setattr(step_cost, "state_mb", lambda spec, K, params: 0.0)
    monkeypatch.setattr(step_cost, "beta_draw_ns", lambda: 30.0)
    monkeypatch.setattr(step_cost, "uniform_draw_ns", lambda: 3.0)
    step_cost.main(["--algorithms", "rucb", "--K", "2000"])
    rows = [line.split() for line in capsys.readouterr().out.splitlines() if line.startswith("rucb")]
    assert [row[1] for row in rows] == ["-", "skip=exact"]
    assert [row[3] for row in rows] == ["2000", "200000"] and rows[1][-1].endswith("*")
    _fake_clock(step_cost, monkeypatch, 1e-3)
    step_cost.main(["--algorithms", "rucb", "--K", "2000"])
    rows = [line.split() for line in capsys.readouterr().out.splitlines() if line.startswith("rucb")]
    assert [row[3] for row in rows] == ["2000", "2000"] and rows[1][-1] == "1.0/1.0"


def test_refresh_cpp_recomputes_only_x_cpp(step_cost, monkeypatch, tmp_path):
    """``--refresh-cpp`` times nothing and rewrites only ``x_cpp``: ns_later / (anchor us * 1e3) where
    CPP_ANCHOR_US has the (algorithm, K), NaN where it has none (a stale value is dropped); other columns and
    row order unchanged."""
    monkeypatch.setattr(step_cost, "CPP_ANCHOR_US", {"dts": {5: 2.0}, "rucb": {16: 0.5}})
    monkeypatch.setattr(step_cost, "timed_run", lambda *args, **kwargs: pytest.fail("--refresh-cpp timed a run"))
    table = pd.DataFrame({"algorithm": ["dts", "dts", "rucb", "sparring"], "options": ["-", "sampling=fast", "-", "-"],
                          "K": [5, 2000, 16, 5], "ns_later": [500.0, 7.0, 250.0, 3.0],
                          "x_cpp": [float("nan"), float("nan"), 9.0, 1.0], "measured": ["a", "b", "c", "d"]})
    path = tmp_path / "step_cost.csv"
    table.to_csv(path, index=False)
    step_cost.main(["--csv", str(path), "--refresh-cpp"])
    refreshed = pd.read_csv(path)
    assert refreshed["x_cpp"].iloc[0] == 0.25 and refreshed["x_cpp"].iloc[2] == 0.5
    assert math.isnan(refreshed["x_cpp"].iloc[1]) and math.isnan(refreshed["x_cpp"].iloc[3])
    pd.testing.assert_frame_equal(refreshed.drop(columns="x_cpp"), table.drop(columns="x_cpp"))


def test_refresh_cpp_needs_an_existing_csv(step_cost, tmp_path, capsys):
    """Without ``--csv`` naming an existing file: one ``error:`` line naming the flag and the value, exit 2."""
    missing = tmp_path / "none.csv"
    with pytest.raises(SystemExit) as stop:
        step_cost.main(["--refresh-cpp", "--csv", str(missing)])
    assert stop.value.code == 2
    assert capsys.readouterr().err == f"error: --refresh-cpp needs --csv naming an existing file, got {missing}\n"
    assert not missing.exists()


def test_a_plugin_reference_is_timed_and_its_rows_carry_its_name(step_cost, monkeypatch, tmp_path, capsys):
    """``--algorithms`` takes plug-in references beside names: each is loaded and timed as a registered algorithm is,
    its printed and written rows named by its spec's name (the name its runs are stored and costed under)."""
    empty_plugin_table(monkeypatch)
    njit, python = write_plugins(tmp_path / "plugins")
    _fake_clock(step_cost, monkeypatch, 2e-5)
    monkeypatch.setattr(step_cost, "state_mb", lambda spec, K, params: 0.0)
    monkeypatch.setattr(step_cost, "beta_draw_ns", lambda: 40.0)
    monkeypatch.setattr(step_cost, "uniform_draw_ns", lambda: 4.0)
    table = tmp_path / "plugin_cost.csv"
    step_cost.main(["--algorithms", python, njit, "rucb", "--K", "5", "32", "--csv", str(table)])
    printed = [line.split()[:3] for line in capsys.readouterr().out.splitlines() if line.startswith(("cop", "rucb"))]
    assert printed == [["copeland_ucb_py", "-", "5"], ["copeland_ucb_py", "-", "32"], ["copeland_ucb", "-", "5"],
                       ["copeland_ucb", "-", "32"], ["rucb", "-", "5"], ["rucb", "skip=exact", "5"],
                       ["rucb", "-", "32"], ["rucb", "skip=exact", "32"]]
    rows = pd.read_csv(table)
    assert [tuple(row) for row in rows[["algorithm", "options", "K"]].to_numpy()] == [
        tuple([name, options, int(K)]) for name, options, K in printed]
    assert rows["ns_later"].tolist() == pytest.approx([2e4] * 8) and rows["x_beta"].tolist() == pytest.approx([500] * 8)


def test_a_bad_plugin_reference_is_one_line_before_any_timing(step_cost, monkeypatch, tmp_path, capsys):
    """A reference to a missing file: one ``error:`` line naming it, exit status 2, nothing timed or written."""
    empty_plugin_table(monkeypatch)
    monkeypatch.setattr(step_cost, "beta_draw_ns", lambda: pytest.fail("timed before the references were checked"))
    missing, table = tmp_path / "mine.py", tmp_path / "plugin_cost.csv"
    with pytest.raises(SystemExit) as stop:
        step_cost.main(["--algorithms", "dts", f"{missing}:MINE_SPEC", "--csv", str(table)])
    assert stop.value.code == 2
    assert capsys.readouterr().err == f"error: plug-in '{missing}:MINE_SPEC': no file {missing}\n"
    assert not table.exists()
