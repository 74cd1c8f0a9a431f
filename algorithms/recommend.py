"""The arm each algorithm would recommend now: ``Policy.best_arm()`` (docs/algorithms.md#recommendations).

One rule per registered algorithm, read from the statistics or the winner estimate the algorithm itself keeps
(never from the true matrix).  Ties go to the lowest arm index, as every tie of the authors' simulator.
``RECOMMENDERS`` maps each registry name to its rule; a registered algorithm without one is refused by
``recommend`` (and by the test that walks the registry).
"""

import importlib

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
    """D-TS, D-TS+, pure D-TS, CCB, SCB, RMED1/2, ECW-RMED, SAVAGE: the empirical Copeland winner of the
    comparison statistics ``state.comparisons`` / ``state.wins`` (SCB's are those of the current round)."""
    return empirical_copeland_winner(state.comparisons, state.wins)


def rucb_hypothesis(state) -> int:
    """RUCB: its hypothesis B (the arm it currently takes for the Condorcet winner), else the empirical
    Copeland winner."""
    arm = int(state.hypothesis_arm[0])
    return arm if arm >= 0 else copeland_of_statistics(state)


def rcs_champion(state) -> int:
    """RCS: the arm chosen most often as champion (Zoghi et al. WSDM 2014 recommend it), else, before the
    first slot, the empirical Copeland winner."""
    counts = np.asarray(state.champion_counts)
    return int(np.argmax(counts)) if counts.max() > 0 else copeland_of_statistics(state)


def btm_best_active(state) -> int:
    """BTM: the arm of the working set W with the highest empirical win rate against W, P_i = S_i / N_i (1/2
    for N_i = 0): the arm BTM keeps when W shrinks to one."""
    counts = np.asarray(state.count_in_active, dtype=np.float64)
    rate = np.divide(np.asarray(state.wins_in_active, dtype=np.float64), counts, out=np.full(counts.shape, 0.5),
                     where=counts > 0)
    return int(np.argmax(np.where(state.in_active, rate, -np.inf)))


def sparring_left(state) -> int:
    """Sparring: the arm the left SBM (the one that picks a1) played most."""
    return int(np.argmax(state.plays[0]))


def multisbm_most_played(state) -> int:
    """MultiSBM: the arm played most over all its SBMs."""
    return int(np.argmax(np.asarray(state.plays).sum(axis=0)))


def posterior_mean_leader(state) -> int:
    """Self-Sparring: the highest posterior mean S_i / (S_i + F_i).  (The MergeDTS authors' ``get_winner``
    returns the first arm whose mean exceeds 1/2, arm 0 if none does; the highest mean is that rule's intent and
    is defined for every state.)"""
    means = np.asarray(state.successes) / (np.asarray(state.successes) + np.asarray(state.failures))
    return int(np.argmax(means))


def merge_survivor(state) -> int:
    """MergeDTS, MergeRUCB: the last surviving arm, or else the surviving arm (any arm before the first slot)
    with the most empirical wins (W_ij > W_ji) against the other survivors, the lowest arm on ties."""
    survivors = np.sort(state.batch_arms[: state.tree[0]["survivors"]])
    wins = state.wins[np.ix_(survivors, survivors)]
    return int(survivors[int(np.argmax((wins > wins.T).sum(axis=1)))])


def defined_in(module: str, function: str):
    """The rule ``function`` of ``algorithms.<module>``, looked up when first called: an algorithm module imports
    ``algorithms.base``, which imports this module, so this module cannot import it first."""

    def rule(state) -> int:
        """``function`` of ``module`` applied to ``state``."""
        return getattr(importlib.import_module(f"dts_reproduction.algorithms.{module}"), function)(state)

    return rule


RECOMMENDERS = {
    "dts": copeland_of_statistics, "dts_plus": copeland_of_statistics, "pure_dts": copeland_of_statistics,
    "ccb": copeland_of_statistics, "scb": copeland_of_statistics, "rmed1": copeland_of_statistics,
    "rmed2": copeland_of_statistics, "ecw_rmed": copeland_of_statistics, "savage": copeland_of_statistics,
    "rucb": rucb_hypothesis, "rcs": rcs_champion, "btm": btm_best_active, "sparring": sparring_left,
    "multisbm": multisbm_most_played, "self_sparring": posterior_mean_leader,
    "merge_dts": merge_survivor, "merge_rucb": merge_survivor,
    "rex3": defined_in("rex3", "highest_weight"),
    "ws_s": defined_in("winner_stays", "current_winner"), "ws_w": defined_in("winner_stays", "current_winner"),
}


def recommend(name: str, state) -> int:
    """The arm algorithm ``name`` recommends in ``state``; ValueError if it has no rule in ``RECOMMENDERS``."""
    if name not in RECOMMENDERS:
        raise ValueError(f"algorithm {name!r} has no recommendation rule (add one to algorithms/recommend.py)")
    return RECOMMENDERS[name](state)
