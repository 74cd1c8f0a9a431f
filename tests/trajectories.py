"""An algorithm driven slot by slot outside the simulator, for the tests that compare it with its plain transcription
(``tests/reference/``): through its spec's kernels, or through its live ``Policy``, with one generator for the
algorithm's draws and the outcomes, in the order the transcriptions draw them."""

import numpy as np


def kernel_trajectory(spec, P, T: int, seed: int, params=None, horizon=None) -> tuple[list, tuple]:
    """(the pairs of slots 1..T, the final state) of ``spec``'s select and update on matrix ``P``, its state made with
    ``params`` and ``horizon`` (given to an algorithm that needs it), drawing from ``numpy.random.default_rng(seed)``:
    the algorithm's draws, then the outcome, each slot."""
    state = spec.make_state(P.shape[0], horizon, params)
    rng = np.random.default_rng(seed)
    pairs = []
    for t in range(1, T + 1):
        a1, a2 = spec.select(state, t, rng)
        spec.update(state, a1, a2, rng.random() < P[a1, a2], t)
        pairs.append((int(a1), int(a2)))
    return pairs, state


def policy_trajectory(policy, P, steps: int) -> list:
    """The pairs ``policy`` (a live ``Policy``) selects in ``steps`` rounds on matrix ``P``, each outcome drawn from the
    policy's own generator after its selection (as ``kernel_trajectory`` draws them)."""
    pairs = []
    for _ in range(steps):
        a1, a2 = policy.select()
        policy.update(a1, a2, policy.rng.random() < P[a1, a2])
        pairs.append((a1, a2))
    return pairs
