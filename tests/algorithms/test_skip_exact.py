"""skip="exact" is exact: RUCB, CCB, RMED1/2, ECW-RMED, CW-RMED, WS-S
(docs/algorithms.md#exact-skipping-of-self-comparison-runs).

* frozen states: from a state reached by a default run, windows of slots with no update but the
  self-comparisons' own, walked slot by slot (select) and with the skip (skip + select, as the
  simulator does).  These skips draw no random number and select draws none while they apply, so with
  the same seed both walks must give the same number of self-comparisons, the same first other pair
  and the same state at its end -- exactly, not in law (the never-read diagonal of (n, w) up to the
  rounding of RUCB's pseudo-count: one sum against many).  The window ends are spread so that many skips
  stop at a switch time rather than at the limit (an off-by-one there changes the first other pair);
  a skip made one slot too long is caught (``test_frozen_walks_catch_a_skip_one_slot_too_long``).
* CCB: its select draws random numbers even where they decide nothing, so the two walks above would part
  after the first skip.  Instead every run its skip returns along a simulated stretch is replayed slot by
  slot from the state before it with several seeds: each replay must give (a, a) at every slot and end
  in the state the skip left, and the skip must refuse at the slot after a run that stopped before its
  limit (the run is not cut short).  Runs one slot too long or too short, or that ignore the rows'
  switch times, are caught (``test_ccb_replays_catch_wrong_run_ends``).
* whole runs: with and without skipping over 200 runs (the same run indices, so the same shuffles),
  the regret at several checkpoints, the final g2w and the self-comparison totals agree in law
  (two-sample KS and Welch t-tests, significance ALPHA = 1e-3 per test with fixed seeds), on Condorcet
  and non-Condorcet problems and with delayed feedback.
"""

import numpy as np
import pytest
from numba import njit

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.algorithms.ccb import CHECKED_AT, EARLIEST
from dts_reproduction.algorithms.ccb import skip as ccb_skip
from dts_reproduction.algorithms.cw_rmed_skip import skip as cw_rmed_skip
from dts_reproduction.algorithms.rmed import _explores
from dts_reproduction.algorithms.rucb import skip as rucb_skip
from dts_reproduction.algorithms.winner_stays import skip as ws_s_skip
from dts_reproduction.core.constants import PSEUDO_N, PSEUDO_W
from dts_reproduction.core.simulate import simulate
from dts_reproduction.core.skipping import (
    first_slot_reaching,
    last_slot_before,
    record_self_run,
    run_end_probe,
    run_end_settle,
)
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.harness.runner import Line, line_key, resolved_params
from tests.same_law import CASE_FIELDS, assert_fast_path_exact, cases

ALPHA = 1e-3
# The fields of each state that a walk must leave equal (statistics and bookkeeping; not the scratch).
COMPARED = {
    "rucb": ("comparisons", "wins", "hypothesis_arm"),
    "rmed1": ("comparisons", "wins", "divergences", "counters", "current_list", "in_remaining", "in_next"),
}
COMPARED["rmed2"] = COMPARED["rmed1"]
COMPARED["ecw_rmed"] = ("comparisons", "wins", "p_hat", "kl_half", "counters", "current_list", "in_remaining",
                        "in_next", "copeland_wins", "losses")
COMPARED["cw_rmed"] = ("comparisons", "wins", "p_hat", "kl_half", "counters", "current_list", "in_remaining",
                       "in_next", "copeland_wins", "losses", "allocation")
COMPARED["ws_s"] = ("scores", "counters")
COMPARED["ccb"] = ("comparisons", "wins", "max_losses", "in_winners", "challengers", "challenger_lens", "upper_switch",
                   "lower_switch", "upper_copeland", "lower_copeland", "row_next", "unresolved")


def test_first_slot_reaching_is_the_exact_boundary():
    """Against a scan over the slots, for values near ln s (where rounding decides) and offsets."""
    for value in np.concatenate([np.log(np.arange(1, 3000)) + d for d in (-1e-15, 0.0, 1e-15, 0.3)]):
        for offset in (0.0, 1.7):
            s = first_slot_reaching(value, offset)
            assert np.log(s) + offset >= value and (s == 1 or np.log(s - 1) + offset < value)
            assert last_slot_before(value, offset, 5000) == s - 1
            assert last_slot_before(value, offset, 2) == min(2, s - 1)
    assert last_slot_before(np.inf, 0.0, 7) == 7


def _run_end(t, t_limit, change):
    """The search of ``run_end_probe`` for answers that change at slot ``change`` (> t): (last slot, slots tested)."""
    search, probe = run_end_probe((t, t_limit + 1, 1), t, t_limit)
    tested = []
    while probe:
        tested.append(probe)
        search, probe = run_end_settle(search, probe, probe < change, t, t_limit)
    return search[0], tested


def test_run_end_search_is_the_scan():
    """The last slot before the answers change, or t_limit, against a scan, for changes at every slot of short runs
    and near powers of two of long ones; every slot tested lies in the run's span, and a search of a run of L slots
    tests about 2 log2(L) of them."""
    for t in (1, 2, 7, 1000):
        for t_limit in (t, t + 1, t + 2, t + 37, t + 2**20, 2**53):
            span = t_limit - t
            near_powers = [t + 2**k + d for k in range(6, 54) for d in (-1, 0, 1) if t + 2**k + d <= t_limit + 1]
            changes = list(range(t + 1, t + min(span, 70) + 2)) + near_powers
            for change in changes:
                last, tested = _run_end(t, t_limit, change)
                assert last == min(change - 1, t_limit), (t, t_limit, change)
                assert all(t < probe <= t_limit for probe in tested)
                assert len(tested) <= 2 * max(1, span).bit_length() + 2, (t, t_limit, change, len(tested))


@pytest.mark.parametrize("K", [2, 3, 5, 16, 32, 136, 500])
def test_rmed2_exploration_does_not_come_back(K):
    """The RMED2 skip checks the exploration condition at its first slot only, from t > #pairs * alpha
    on: once t - 1 >= #pairs * alpha ln ln t there, it stays so (checked slot by slot up to 10^6; for
    K = 3 exploration does come back at t = 5 <= 9, which is why the skip waits for t > #pairs * alpha)."""
    assert _explores_again(K, 10**6) < 0


@njit(cache=False)
def _explores_again(K, horizon):
    """The first slot at which RMED2 explores again after a slot t > #pairs * alpha without exploration
    (-1: none up to ``horizon``)."""
    n_pairs = K * (K - 1) // 2
    ended = False
    for t in range(1, horizon + 1):
        explore = _explores(2, 3.0, n_pairs, t)
        if not explore and t > n_pairs * 3.0:
            ended = True
        elif explore and ended:
            return t
    return -1


@njit(cache=False)
def _walk(select, update, skip, use_skip, state, rng, t0, end):
    """From slot t0 to ``end`` (inclusive) in a frozen state: every self-comparison is updated (its
    diagonal), the first other pair ends the walk un-updated.  With ``use_skip``, skip is asked before
    every slot, as the simulator does after a self-comparison.  Returns (self-comparisons, first other
    pair (a1, a2) or (-1, -1), slots skipped, skips that stopped before ``end``)."""
    count = 0
    skipped = 0
    early = 0
    t = t0
    while t <= end:
        if use_skip:
            slots, arm = skip(state, t, rng, end)
            if slots > 0:
                count += slots
                skipped += slots
                early += t + slots - 1 < end
                t += slots
                continue
        a1, a2 = select(state, t, rng)
        if a1 != a2:
            return count, a1, a2, skipped, early
        update(state, a1, a2, True, t)
        count += 1
        t += 1
    return count, -1, -1, skipped, early


def state_at_self_comparison(spec, params, dataset, slots, seed):
    """(state, t): a default-loop run on ``dataset`` (unshuffled) for ``slots`` slots, continued slot by
    slot until the algorithm's skip applies at slot t (at most ``slots`` more)."""
    P = load_dataset(dataset).P
    state = spec.make_state(P.shape[0], params=params)
    zeta = np.zeros(P.shape[0])
    rng = np.random.default_rng(seed)
    simulate(spec.select, spec.update, state, rng, P, zeta, zeta, np.array([slots]), 1,
             np.zeros(1), np.zeros(1), np.zeros(P.shape[0], np.int64))
    for t in range(slots + 1, 2 * slots + 1):
        if spec.skip(state)(copy_state(state), t, rng, 2 * t)[0] > 0:
            return state, t
        a1, a2 = spec.select(state, t, rng)
        spec.update(state, a1, a2, rng.random() < P[a1, a2], t)
    raise AssertionError(f"the skip applies at no slot in {slots + 1}..{2 * slots}")


def copy_state(state):
    """A deep copy of a NamedTuple state."""
    return type(state)(*(np.copy(part) if isinstance(part, np.ndarray) else part for part in state))


# RUCB wins matrix in which the challenger bound ends the runs, not C: arm 0 beats every arm (in C
# throughout); arm 1 has won 430 of 1000 against arm 0, so u_10 reaches 1/2 near t = 15000, but lost 1400
# of 2000 against arm 2, which keeps it out of C; arms 2 and 3 lost 700 of 1000 against arm 0.
COLUMN_BOUND_WINS = [[0, 570, 700, 700], [430, 0, 600, 500], [300, 1400, 0, 500], [300, 500, 500, 0]]


def column_bound_state(spec, params):
    """The RUCB state of COLUMN_BOUND_WINS (pseudo-counts added)."""
    wins = np.asarray(COLUMN_BOUND_WINS, dtype=np.float64)
    state = spec.make_state(wins.shape[0], params=params)
    return spec.set_statistics(state, wins + wins.T + PSEUDO_N, wins + PSEUDO_W)


def assert_states_agree(name, fast_state, plain_state, where):
    """The fields COMPARED[name] of the two states are equal; the diagonal of (n, w) up to the rounding of
    one sum against many (pseudo-counts)."""
    for field in COMPARED[name]:
        fast_part, plain_part = getattr(fast_state, field), getattr(plain_state, field)
        if field in ("comparisons", "wins"):
            np.testing.assert_allclose(np.diag(fast_part), np.diag(plain_part), rtol=1e-12, err_msg=where)
            fast_part, plain_part = fast_part[~np.eye(len(fast_part), dtype=bool)], \
                plain_part[~np.eye(len(plain_part), dtype=bool)]
        assert np.array_equal(fast_part, plain_part), f"{where}: {field}"


def frozen_walks(name, params, source, slots, skip=None, windows=60, seed=3):
    """``windows`` frozen walks, each twice (slot by slot; with ``skip``, by default the algorithm's
    own), from the state of ``state_at_self_comparison`` on the dataset ``source`` (its slot t), or, for
    source "column_bound", from ``column_bound_state`` (t = slots + 1): start t0 = t + a log-uniform
    offset below ``slots`` (the first window: t), end t0 + a log-uniform length up to 30 slots.  Asserts
    that both walks agree; returns (slots skipped, skips that stopped before the end of their window)."""
    spec = get_algorithm(name)
    params = {**params, "skip": "exact"}
    if source == "column_bound":
        base, t_self = column_bound_state(spec, params), slots + 1
    else:
        base, t_self = state_at_self_comparison(spec, params, source, slots, seed)
    kernel = skip if skip is not None else spec.skip(base)
    draw = np.random.default_rng(seed)
    skipped = early = 0
    for window in range(windows):
        t0 = t_self + (int(np.exp(draw.uniform(0.0, np.log(slots)))) - 1 if window else 0)
        end = t0 + int(np.exp(draw.uniform(0.0, np.log(30 * slots))))
        walked = []
        for use_skip in (False, True):
            state = copy_state(base)
            result = _walk(spec.select, spec.update, kernel, use_skip, state, np.random.default_rng(window), t0, end)
            walked.append((result, state))
        (plain, plain_state), (fast, fast_state) = walked
        where = f"{name} {source} window {window} (t0 = {t0}, end = {end})"
        assert fast[:3] == plain[:3], f"{where}: (self-comparisons, next pair) {fast[:3]} != {plain[:3]}"
        assert_states_agree(name, fast_state, plain_state, where)
        skipped += fast[3]
        early += fast[4]
    return skipped, early


FROZEN_CASES = [
    ("rucb", {}, "mslr5_condorcet", 3000),
    ("rucb", {"hypothesis": "original"}, "mslr5_condorcet", 30000),
    ("rucb", {}, "arxiv", 30000),
    ("rucb", {}, "column_bound", 3000),
    ("rucb", {"hypothesis": "original"}, "column_bound", 3000),
    ("rmed1", {}, "mslr5_condorcet", 10000),
    ("rmed1", {}, "arxiv", 30000),
    ("rmed2", {}, "mslr5_condorcet", 10000),
    ("rmed2", {"numerator": "paper"}, "arxiv", 30000),
    ("ecw_rmed", {}, "mslr5_condorcet", 10000),
    ("ecw_rmed", {"confidence_precheck": "none"}, "arxiv", 30000),
    ("ecw_rmed", {}, "mslr5_noncondorcet", 100000),
    ("ecw_rmed", {}, "nc_cyclic", 30000),
    ("cw_rmed", {}, "mslr5_condorcet", 10000),
    ("cw_rmed", {}, "arxiv", 30000),
    ("cw_rmed", {}, "nc_strong_borda", 30000),
    ("cw_rmed", {}, "nc_cyclic", 30000),
    ("ws_s", {}, "mslr5_condorcet", 10000),
    ("ws_s", {}, "nc_cyclic", 30000),
]


@pytest.mark.parametrize("name,params,source,slots", FROZEN_CASES)
def test_frozen_walks_agree_with_and_without_skip(name, params, source, slots):
    skipped, early = frozen_walks(name, params, source, slots)
    assert skipped > 0, "the states chosen must be ones where the skip applies"
    assert early > 0, "some skips must stop at a switch time, not at the window's end"


@njit(cache=False)
def _one_slot_too_long(state, t, rng, t_limit):
    """RUCB's skip with each run made one slot longer when that stays within the limit (a deliberate
    off-by-one at the switch time), its diagonal updated accordingly."""
    slots, arm = rucb_skip(state, t, rng, t_limit)
    if 0 < slots and t + slots <= t_limit:
        state.comparisons[arm, arm] += 2.0
        state.wins[arm, arm] += 1.0
        slots += 1
    return slots, arm


@njit(cache=False)
def _cw_rmed_one_slot_too_long(state, t, rng, t_limit):
    """CW-RMED's skip with each run of self-pairs one slot longer when that stays within the limit."""
    slots, arm = cw_rmed_skip(state, t, rng, t_limit)
    if 0 < slots and t + slots <= t_limit:
        record_self_run(state.comparisons, state.wins, arm, 1)
        state.counters[0].played_slot += 1
        slots += 1
    return slots, arm


@njit(cache=False)
def _ws_s_one_slot_too_long(state, t, rng, t_limit):
    """WS-S's skip with each exploitation phase one slot longer when that stays within the limit."""
    slots, arm = ws_s_skip(state, t, rng, t_limit)
    if 0 < slots and t + slots <= t_limit:
        slots += 1
    return slots, arm


@pytest.mark.parametrize("name,source,slots,wrong", [
    ("rucb", "mslr5_condorcet", 3000, _one_slot_too_long),
    ("cw_rmed", "mslr5_condorcet", 10000, _cw_rmed_one_slot_too_long),
    ("ws_s", "mslr5_condorcet", 10000, _ws_s_one_slot_too_long)])
def test_frozen_walks_catch_a_skip_one_slot_too_long(name, source, slots, wrong):
    with pytest.raises(AssertionError, match="self-comparisons, next pair"):
        frozen_walks(name, {}, source, slots, skip=wrong)


@njit(cache=False)
def _replay(select, update, state, rng, arm, t, end):
    """Slots t .. end slot by slot with no update but the self-comparisons' own: the first slot whose
    pair is not (arm, arm), or -1 if there is none."""
    for s in range(t, end + 1):
        a1, a2 = select(state, s, rng)
        if a1 != arm or a2 != arm:
            return s
        update(state, a1, a2, True, s)
    return -1


def ccb_replayed_walk(dataset, slots, stretch, skip=None, replays=3, seed=5):
    """The simulator's loop for ``stretch`` slots (outcomes drawn from P, undelayed) from the CCB state of
    ``state_at_self_comparison`` on ``dataset``, the skip (by default CCB's own) asked after every
    self-comparison with a limit a log-uniform distance up to ``stretch`` away (as a checkpoint or a
    delivery sets it).  Every run the skip returns is replayed (``_replay``) from a copy of the state
    before it with ``replays`` seeds; each replay must give (a, a) at every slot and leave the state the
    skip left, and after a run that stopped before its limit the skip must refuse at the next slot.
    Returns (runs, runs stopped before their limit, slots skipped)."""
    spec = get_algorithm("ccb")
    P = load_dataset(dataset).P
    state, t = state_at_self_comparison(spec, {"skip": "exact"}, dataset, slots, seed)
    kernel = skip if skip is not None else ccb_skip
    rng, draw = np.random.default_rng(seed), np.random.default_rng(seed + 1)
    runs = early = skipped = 0
    after_self, horizon = True, t + stretch
    while t <= horizon:
        if after_self:
            limit = min(horizon, t + int(np.exp(draw.uniform(0.0, np.log(stretch)))))
            before = copy_state(state)
            count, arm = kernel(state, t, rng, limit)
            if count > 0:
                end = t + count - 1
                where = f"ccb {dataset}: run of ({arm}, {arm}) over slots {t}..{end} (limit {limit})"
                for replay in range(replays):
                    plain = copy_state(before)
                    other = _replay(spec.select, spec.update, plain, np.random.default_rng(replay), arm, t, end)
                    assert other < 0, f"{where}: slot by slot, slot {other} is another pair"
                    assert_states_agree("ccb", state, plain, where)
                if end < limit:
                    assert kernel(copy_state(state), end + 1, rng, limit)[0] == 0, f"{where}: cut short"
                    early += 1
                runs += 1
                skipped += count
                t = end + 1
                continue
        a1, a2 = spec.select(state, t, rng)
        after_self = a1 == a2
        spec.update(state, a1, a2, rng.random() < P[a1, a2], t)
        t += 1
    return runs, early, skipped


@pytest.mark.parametrize("dataset,slots,stretch", [
    ("mslr5_condorcet", 3000, 300000), ("arxiv", 10000, 300000), ("mslr16_condorcet", 100000, 300000),
])
def test_ccb_runs_replay_slot_by_slot(dataset, slots, stretch):
    runs, early, skipped = ccb_replayed_walk(dataset, slots, stretch)
    assert runs > 0 and skipped > stretch // 2, "the states chosen must be ones where the skip applies"
    assert early > 0, "some runs must stop at a switch time, not at their limit"


@njit(cache=False)
def _ccb_one_slot_too_long(state, t, rng, t_limit):
    """CCB's skip with each run made one slot longer when that stays within the limit (a deliberate
    off-by-one at the switch time), its diagonal and last check updated accordingly."""
    slots, arm = ccb_skip(state, t, rng, t_limit)
    if 0 < slots and t + slots <= t_limit:
        record_self_run(state.comparisons, state.wins, arm, 1)
        state.row_next[state.row_next.shape[0] - 2 + CHECKED_AT] = np.log(t + slots)
        slots += 1
    return slots, arm


@njit(cache=False)
def _ccb_one_slot_too_short(state, t, rng, t_limit):
    """CCB's skip with each run of two slots or more made one slot shorter (exact, but cut short)."""
    slots, arm = ccb_skip(state, t, rng, t_limit)
    if slots > 1:
        record_self_run(state.comparisons, state.wins, arm, -1)
        slots -= 1
        state.row_next[state.row_next.shape[0] - 2 + CHECKED_AT] = np.log(t + slots - 1)
    return slots, arm


@njit(cache=False)
def _ccb_ignoring_switch_times(state, t, rng, t_limit):
    """CCB's skip blind to the rows' switch times once it applies (it is asked with the earliest of them
    at +inf; the challenger ties still end runs)."""
    earliest = state.row_next.shape[0] - 2 + EARLIEST
    kept = state.row_next[earliest]
    if np.log(t) >= kept:
        return 0, -1
    state.row_next[earliest] = np.inf
    slots, arm = ccb_skip(state, t, rng, t_limit)
    state.row_next[earliest] = kept
    return slots, arm


@pytest.mark.parametrize("wrong,message", [
    (_ccb_one_slot_too_long, "row_next|another pair"), (_ccb_one_slot_too_short, "cut short"),
    (_ccb_ignoring_switch_times, "row_next|another pair|upper_copeland|lower_copeland"),
])
def test_ccb_replays_catch_wrong_run_ends(wrong, message):
    with pytest.raises(AssertionError, match=message):
        ccb_replayed_walk("mslr5_condorcet", 3000, 300000, skip=wrong)


@pytest.mark.parametrize(CASE_FIELDS, cases("rucb", "ccb", "rmed1", "rmed2", "ecw_rmed", "cw_rmed", "ws_s"))
def test_skipping_runs_match_slot_by_slot(algorithm, dataset, horizon, delay, reference, fast):
    """With and without skip, 200 runs each: the same law (``same_law.assert_same_law`` at family-wise level
    ALPHA), and the skip changed some runs (else the comparison would be empty).  The rows are
    tests/same_law.py's CASES."""
    assert_fast_path_exact(algorithm, dataset, horizon, delay, reference, fast, ALPHA, must_change=True)


@pytest.mark.parametrize("name", ["rucb", "ccb", "rmed1", "rmed2", "ecw_rmed", "cw_rmed", "ws_s"])
def test_skip_is_opt_in_and_rejected_values_are_named(name):
    spec = get_algorithm(name)
    assert spec.defaults["skip"] == "off"
    assert spec.skip(spec.make_state(4)) is None
    assert spec.skip(spec.make_state(4, params={"skip": "exact"})) is not None
    with pytest.raises(ValueError, match="skip must be one of 'off', 'exact'"):
        spec.make_state(4, params={"skip": True})


def test_skip_lands_in_the_storage_key_and_off_is_not_recorded():
    """skip="exact" is a non-default parameter (its own ``_p<digest>`` folder, recorded in the config);
    "off" is left out of the config, so the results stored before the option existed stay valid."""
    default = Line(dataset="gap", algorithm="rmed1", horizon=300, runs=2)
    exact = Line(dataset="gap", algorithm="rmed1", horizon=300, runs=2, params=(("skip", "exact"),))
    assert line_key(default) == "rmed1_T300" and resolved_params(default) == {}
    assert line_key(exact).startswith("rmed1_p") and resolved_params(exact) == {"skip": "exact"}
