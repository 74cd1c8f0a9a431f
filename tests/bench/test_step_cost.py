"""bench/step_cost.py: how many slots a row is timed on (the timings themselves are not tested)."""

import pytest

from tests.bench_scripts import bench_script


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
