"""The arm an algorithm would recommend now: ``Policy.best_arm()`` (docs/algorithms.md#recommendations).

An algorithm's rule is its spec's ``best_arm(state)`` (``AlgorithmSpec.best_arm``), defined in its own module and read
from the statistics or the winner estimate the algorithm itself keeps (never from the true matrix).  An algorithm that
declares none is recommended the empirical Copeland winner of its pair statistics ``state.comparisons`` /
``state.wins`` (``copeland_of_statistics``); one whose state has no such statistics must declare its rule.  Ties go to
the lowest arm index, as every tie of the authors' simulator.
"""

import numpy as np

# A pair counts for the empirical Copeland score once it has been compared at least once (the pseudo-counts of
# D-TS, RUCB, CCB, SCB and SAVAGE are far below one comparison).
MIN_COMPARISONS = 1.0


def empirical_copeland_winner(comparisons, wins) -> int:
    """The arm that empirically beats the most others: i beats j if w_ij / n_ij > 1/2 with n_ij >= 1 (a pair
    never compared beats nobody); ties to the lowest index."""
    n, w = np.asarray(comparisons, dtype=np.float64), np.asarray(wins, dtype=np.float64)
    compared = n >= MIN_COMPARISONS
    p_hat = np.divide(w, n, out=np.zeros_like(w), where=compared)
    beats = compared & (p_hat > 0.5)
    np.fill_diagonal(beats, False)
    return int(np.argmax(beats.sum(axis=1)))


def copeland_of_statistics(state) -> int:
    """The default rule (D-TS, D-TS+, pure D-TS, CCB, SCB, RMED1/2, ECW-RMED, SAVAGE): the empirical Copeland winner of
    the comparison statistics ``state.comparisons`` / ``state.wins`` (SCB's are those of the current round)."""
    return empirical_copeland_winner(state.comparisons, state.wins)


def recommend(spec, state) -> int:
    """The arm the algorithm of ``spec`` (an ``AlgorithmSpec``) recommends in ``state``: ``spec.best_arm(state)`` if
    it declares a rule, else the empirical Copeland winner of ``state.comparisons`` / ``state.wins``; ValueError
    naming the algorithm if it declares no rule and its state has no such statistics."""
    if spec.best_arm is not None:
        return spec.best_arm(state)
    if not (hasattr(state, "comparisons") and hasattr(state, "wins")):
        raise ValueError(f"algorithm {spec.name!r} has no recommendation rule: its state has no comparisons and wins "
                         f"for the default (their empirical Copeland winner); declare best_arm= on its AlgorithmSpec")
    return copeland_of_statistics(state)
