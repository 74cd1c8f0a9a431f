"""``Policy``: for every registered algorithm the live policy, called through its kernels bound to its state's types,
makes the same draws as the njit functions driven directly with the same seed and ends in the same state, with
feedback on time and late; its arms are Python ints; replacing its state rebinds the kernels; a pickled policy
continues as the original."""

import pickle
import threading

import numpy as np
import pytest

from dts_reproduction.algorithms import ALGORITHMS, DTS
from dts_reproduction.algorithms.base import bound_kernel, policy_classes, policy_kernels
from tests.algorithms.test_recommend import P, live_options

SLOTS = 300


def driven(name: str, delay: int) -> tuple[list, list, tuple, tuple]:
    """(pairs of the live policy, pairs of the njit functions driven by hand, the two final states), SLOTS
    slots on the 4-arm matrix of test_recommend, each comparison's feedback given ``delay`` slots after it was
    selected (as a numpy bool every other slot, as a user's ``u < P[a1, a2]`` would be)."""
    cls = policy_classes()[name]
    live = cls(4, seed=11, **live_options(cls.spec))
    spec = cls.spec
    # A copy of the live policy's fresh state, so that scratch arrays left uninitialised by ``init`` start equal too.
    state = type(live.state)(*(np.copy(x) if isinstance(x, np.ndarray) else x for x in live.state))
    rng = np.random.default_rng(11)
    uniforms = np.random.default_rng(12).random(SLOTS)
    ours, theirs, pending = [], [], []
    for t in range(1, SLOTS + 1):
        ours.append(live.select())
        theirs.append(tuple(spec.select(state, t, rng)))
        pending.append((t, *theirs[-1]))
        while pending and (pending[0][0] <= t - delay or t == SLOTS):
            s, a1, a2 = pending.pop(0)
            won = bool(uniforms[s - 1] < P[a1, a2])
            live.update(a1, a2, np.bool_(won) if s % 2 else won)
            spec.update(state, a1, a2, won, s)
    return ours, theirs, live.state, state


@pytest.mark.parametrize("delay", [0, 3])
@pytest.mark.parametrize("name", sorted(ALGORITHMS))
def test_live_policy_equals_the_njit_functions_draw_for_draw(name, delay):
    ours, theirs, live_state, state = driven(name, delay)
    assert ours == theirs
    assert all(type(a) is int for pair in ours for a in pair)
    assert all(np.array_equal(a, b) for a, b in zip(live_state, state, strict=True))


def test_a_replaced_state_is_rebound():
    cls = policy_classes()["rucb"]
    policy = cls(4, seed=0)
    policy.select()
    first = policy._bound[0]
    policy.state = cls.spec.make_state(6)
    policy._selected.clear()
    a1, a2 = policy.select()
    assert policy._bound[0] is policy.state is not first and 0 <= a1 < 6 and 0 <= a2 < 6


def test_each_kernel_is_bound_when_first_called():
    """The first ``select`` binds ``select`` only, so it does not wait for ``update`` to compile
    (docs/install.md#first-use); the first ``update`` binds ``update`` and keeps the bound ``select``."""
    policy = DTS(4, seed=0)
    a1, a2 = policy.select()
    state, select, update = policy._bound
    assert state is policy.state and select is not None and update is None
    policy.update(a1, a2, True)
    assert policy._bound[1] is select and policy._bound[2] is not None


def test_bound_kernels_are_the_dispatchers_compiled_code():
    spec = ALGORITHMS["dts"]
    state, rng = spec.make_state(4), np.random.default_rng(0)
    select, update = (bound_kernel(kernel, args) for kernel, args in policy_kernels(spec, state, rng))
    assert any(select is result.entry_point for result in spec.select.overloads.values())
    assert any(update is result.entry_point for result in spec.update.overloads.values())


def test_a_pickled_policy_continues_as_the_original():
    cls = policy_classes()["dts"]
    policy = cls(4, seed=5)
    for _ in range(20):
        a1, a2 = policy.select()
        policy.update(a1, a2, a1 < a2)
    twin = pickle.loads(pickle.dumps(policy))
    assert [twin.select() for _ in range(30)] == [policy.select() for _ in range(30)]


def _in_threads(work, threads: int = 2) -> list:
    """Run ``work()`` in ``threads`` threads at once; the exceptions they raised."""
    errors = []

    def guarded():
        """``work()``, its exception recorded."""
        try:
            work()
        except Exception as error:  # noqa: BLE001 -- every error of a thread is the test's failure
            errors.append(error)

    started = [threading.Thread(target=guarded) for _ in range(threads)]
    for thread in started:
        thread.start()
    for thread in started:
        thread.join()
    return errors


def test_two_threads_sharing_a_policy_under_its_lock_refuse_nothing():
    # Two threads on one DTS, 20,000 steps each, got 38,387 refused updates and a pending queue of 38k.
    policy, users = DTS(K=5, seed=3), np.random.default_rng(4)
    refused = []

    def steps():
        """20,000 select-update pairs, each under the policy's lock."""
        for _ in range(20_000):
            with policy.lock:
                a1, a2 = policy.select()
                try:
                    policy.update(a1, a2, bool(users.random() < 0.5))
                except ValueError as error:
                    refused.append(error)

    assert _in_threads(steps) == [] and refused == []
    assert policy.t == 40_000 and not policy._selected


def test_concurrent_selects_keep_every_slot_once_in_order():
    policy = DTS(K=5, seed=3)
    assert _in_threads(lambda: [policy.select() for _ in range(20_000)]) == []
    assert policy.t == 40_000 and [t for _, _, t in policy._selected] == list(range(1, 40_001))
