"""SBM, Sparring and MultiSBM (docs/algorithms.md#sparring, #multisbm): the SBM index, the sticky exploration, the
reward routing on hand-made states, whole trajectories against a plain-Python transcription, the
docs/algorithms.md#sparring options, parameters, and Sparring settling on the Condorcet winner."""

import math

import numpy as np
import pytest

from dts_reproduction.algorithms.sparring import MULTISBM_SPEC, SPARRING_SPEC, MultiSBM, Sparring
from dts_reproduction.core.sbm import new_sbm_arrays, sbm_pull, sbm_update
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.harness.runner import run_one
from tests.reference.sparring_reference import SCALE, ref_pull, ref_trajectory

RNG = np.random.default_rng(0)  # select of Sparring draws nothing; MultiSBM only for its initial x


def fast_trajectory(spec, P, T, seed, sbm_init="as-run"):
    """The njit select/update driven with the same outcome stream as ``ref_trajectory``."""
    state = spec.make_state(P.shape[0], None, {"sbm_init": sbm_init})
    rng = np.random.default_rng(seed)
    uniforms = np.random.default_rng(seed + 1).random(T)
    pairs = []
    for t in range(1, T + 1):
        a1, a2 = spec.select(state, t, rng)
        spec.update(state, a1, a2, uniforms[t - 1] < P[a1, a2], t)
        pairs.append((int(a1), int(a2)))
    return pairs


def test_sbm_pull_index_and_update():
    cnt, sm = new_sbm_arrays(1, 4)
    assert cnt[0].tolist() == [1e-6] * 4 and sm[0].tolist() == [5e-6] * 4
    assert sbm_pull(cnt[0], sm[0], 1, SCALE) == 0  # every index is exactly 1.0: first index
    assert sbm_pull(cnt[0], sm[0], 1, SCALE, math.inf) == 0
    sbm_update(cnt[0], sm[0], 2, 1.0)
    assert cnt[0, 2] == 1.0 + 1e-6 and sm[0, 2] == 1.0 + 5e-6
    # Arm 2: mean ~1 plus a positive width at t = 7 -> beats the 1.0 of the unplayed arms.
    assert sbm_pull(cnt[0], sm[0], 7, SCALE) == 2
    # Original init: unplayed arms (+inf) come first, lowest index first.
    assert sbm_pull(cnt[0], sm[0], 7, SCALE, math.inf) == 0
    rng = np.random.default_rng(4)
    for _ in range(200):
        c = rng.integers(0, 5, 6) + 1e-6
        s = np.minimum(rng.random(6) * c, c)
        t = int(rng.integers(1, 1000))
        assert sbm_pull(c, s, t, SCALE) == ref_pull(c, s, t)


def test_sparring_sticky_exploration():
    # Left always loses (its arm-0 index is sqrt(2.5 ln t / (t - 1)), > 1.0 up to t = 5, < 1.0 at t = 6);
    # right always wins (index 1 + width > 1.0 for ever, so it never leaves arm 0).
    state = SPARRING_SPEC.make_state(3)
    pairs = []
    for t in range(1, 9):
        a1, a2 = SPARRING_SPEC.select(state, t, RNG)
        pairs.append((a1, a2))
        SPARRING_SPEC.update(state, a1, a2, False, t)
    assert pairs[:5] == [(0, 0)] * 5
    assert pairs[5] == (1, 0)  # left's arm-0 index 0 + sqrt(2.5 ln 6 / 5) = 0.947 < 1.0
    assert all(a2 == 0 for _, a2 in pairs)
    for t in range(2, 6):
        assert math.sqrt(2.5 * math.log(t) / (t - 1)) > 1.0
    # "original": every arm is played once first, lowest index first.
    state = SPARRING_SPEC.make_state(3, None, {"sbm_init": "original"})
    pairs = []
    for t in range(1, 4):
        a1, a2 = SPARRING_SPEC.select(state, t, RNG)
        pairs.append((a1, a2))
        SPARRING_SPEC.update(state, a1, a2, True, t)
    assert pairs == [(0, 0), (1, 1), (2, 2)]


@pytest.mark.parametrize("a1_won", [True, False])
def test_sparring_reward_routing(a1_won):
    state = SPARRING_SPEC.make_state(4)
    cnt, sm = state.plays, state.reward_sums
    cnt[0, 1] = cnt[1, 3] = 5.0  # make the pair (1, 3) the one selected
    sm[0, 1] = sm[1, 3] = 5.0
    a1, a2 = SPARRING_SPEC.select(state, 10, RNG)
    assert (a1, a2) == (1, 3)
    SPARRING_SPEC.update(state, a1, a2, a1_won, 10)
    assert cnt[0, 1] == 6.0 and cnt[1, 3] == 6.0
    assert sm[0, 1] == 5.0 + a1_won and sm[1, 3] == 5.0 + (not a1_won)
    changed = (cnt != 1e-6) | (sm != 5e-6)
    assert changed.sum() == 2  # nothing else moved


@pytest.mark.parametrize("a1_won", [True, False])
def test_multisbm_reward_routing_and_transition(a1_won):
    state = MULTISBM_SPEC.make_state(4)
    cnt, sm = state.plays, state.reward_sums
    state.current_arm[0] = 2
    cnt[2, 3] = sm[2, 3] = 5.0  # S_2 plays arm 3
    a1, a2 = MULTISBM_SPEC.select(state, 10, RNG)
    assert (a1, a2) == (2, 3)
    assert state.current_arm[0] == 3  # x = a2 at selection time, before any feedback
    MULTISBM_SPEC.update(state, a1, a2, a1_won, 10)
    assert cnt[2, 3] == 6.0 and sm[2, 3] == 5.0 + (not a1_won)  # reward 1{a2 beats a1} to S_{a1}
    assert ((cnt != 1e-6) | (sm != 5e-6)).sum() == 1
    a1, a2 = MULTISBM_SPEC.select(state, 11, RNG)
    assert a1 == 3 and a2 == 0  # S_3 is fresh: sticky arm 0


def test_multisbm_initial_arm_is_uniform():
    # 4000 initial draws; each arm has probability 1/4, sd of a count sqrt(4000 * 3/16) = 27.4;
    # 5 sd = 137 around 1000.
    firsts = np.bincount([MultiSBM(4, seed=s).select()[0] for s in range(4000)], minlength=4)
    assert np.all(np.abs(firsts - 1000) < 137)


@pytest.mark.parametrize("sbm_init", ["as-run", "original"])
@pytest.mark.parametrize("kind,spec", [("sparring", SPARRING_SPEC), ("multisbm", MULTISBM_SPEC)])
def test_trajectory_matches_transcription(kind, spec, sbm_init):
    P = load_dataset("cyclic").P
    for seed in (1, 2):
        assert fast_trajectory(spec, P, 3000, seed, sbm_init) == ref_trajectory(kind, P, 3000, seed, sbm_init)


def test_parameters_are_validated():
    with pytest.raises(ValueError, match="sbm_init"):
        SPARRING_SPEC.make_state(3, None, {"sbm_init": "paper"})
    with pytest.raises(ValueError, match="scale"):
        MULTISBM_SPEC.make_state(3, None, {"scale": -1.0})
    with pytest.raises(ValueError, match="unknown parameter"):
        Sparring(3, alpha=0.5)


def test_delay_runs_and_keeps_statistics_for_update():
    # Under a delay of 100 slots both still learn: over 10 runs of T = 20000 their mean regret stays within
    # x1.5 of the undelayed runs' (measured x1.24 for Sparring, x1.11 for MultiSBM, ~5 standard errors below
    # the bound); with their feedback lost it would be ~T/2 = 10000.
    ds = load_dataset("mslr5_condorcet")
    for spec in (SPARRING_SPEC, MULTISBM_SPEC):
        delayed, undelayed = (np.mean([run_one(ds, spec, spec.resolve_params({}), horizon=20000, run=r, seed=1,
                                               delay=d)["final"] for r in range(10)]) for d in (100, 1))
        assert delayed < 1.5 * undelayed, spec.name
    # With no feedback the Sparring statistics do not move: select keeps returning (0, 0).
    policy = Sparring(5, seed=0)
    assert {policy.select() for _ in range(50)} == {(0, 0)}


def test_sparring_settles_on_condorcet_winner():
    ds = load_dataset("mslr5_condorcet")
    winner = ds.condorcet_winner
    shares = []
    for run in range(4):
        rng = np.random.default_rng(100 + run)
        perm = rng.permutation(ds.K)
        P = ds.P[np.ix_(perm, perm)]
        w = int(np.flatnonzero(perm == winner)[0])
        policy = Sparring(ds.K, seed=rng)
        late = np.zeros((ds.K, 2), np.int64)
        both = 0
        for t in range(1, 20001):
            a1, a2 = policy.select()
            policy.update(a1, a2, rng.random() < P[a1, a2])
            if t > 15000:
                late[a1, 0] += 1
                late[a2, 1] += 1
                both += a1 == a2 == w
        assert late[:, 0].argmax() == w and late[:, 1].argmax() == w
        shares.append(both / 5000)
    # Pilot runs (6 seeds) gave late (winner, winner) shares 0.50-0.73, sd ~0.09 per run; the mean of
    # 4 runs has sd ~0.045, so 0.35 is more than 5 sd below the expected ~0.6.
    assert np.mean(shares) > 0.35
