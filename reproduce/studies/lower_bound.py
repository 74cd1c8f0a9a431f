"""Asymptotic regret lower bounds: the constant C(P) with liminf E[R(T)] / ln T >= C(P) for every
uniformly good algorithm, for the Copeland regret of the paper's Eq. (1).  This one quantity is called the lower
bound everywhere (identifiers ``lower_bound``, the tables' ``lower_bound_*`` columns, "C" in figures and docs);
this module is its computation and ``reproduce.studies.lower_bound_cache`` its cache on disk.

Both bounds come from the same change-of-measure argument (Komiyama et al., COLT 2015, Thm. 2 for the
Condorcet case; Komiyama et al., ICML 2016, Thm. 1 for the Copeland case).  An *alternative* is a matrix
P' whose winners are all different from P's: an algorithm that is good under P plays pairs of P's winners
nearly always, under P' it must not (each of them has positive regret there), so it has to tell P from P'
and collect sum_e E[N_e] KL(p_e, p'_e) >= ln T.  (An alternative that keeps one of P's winners does not
count: an algorithm playing that winner need not tell the two apart.)  The cheapest alternatives move
pairs just past 1/2 ("flip" them), so each is a set S of flipped pairs with the constraint
sum_{e in S} x_e >= 1 in x_e = E[N_e] KL(p_e, 1/2) / ln T, and C is the least cost sum_e x_e r_e / KL(p_e, 1/2)
(r_e the per-slot regret of pair e) over all of them: a linear program.

* ``condorcet_lower_bound``: the model is "P has a Condorcet winner"; the alternatives make one arm i
  the Condorcet winner by moving all its losses past 1/2, which gives the closed form
  C = sum_{i != c} min_{j beats i} r_ij / KL(p_ij, 1/2).
* ``copeland_lower_bound_and_exactness``: the model is every matrix.  It starts from the families of
  ``copeland_groups`` (alternatives written as "these pairs and any k of those", each one checked to
  make the winners disjoint) and, up to EXACT_MAX_ARMS arms, adds by constraint generation the cheapest
  alternative the current solution violates (a small integer program over the flips,
  ``cheapest_alternative``) until there is none: the exact constant.  Above EXACT_MAX_ARMS (or past
  MAX_CUTS generated alternatives) it returns the program of the alternatives it has, a valid but possibly
  loose lower bound, named a relaxation.

Pairs at exactly 1/2 (ties) carry no information (x_e = 0) and an alternative may give them to either
side for free; if some alternative is made of ties alone, no algorithm can be uniformly good and C is
infinite.
"""

import math
from typing import NamedTuple

import numpy as np

from dts_reproduction.core.bound_allocation import copeland_pair_regrets, kl_to_half, optimal_partners
from dts_reproduction.core.constants import TIE_TOLERANCE
from dts_reproduction.core.copeland import condorcet_winner, copeland_scores, copeland_winners

# Bumped whenever a change of this module changes a computed constant, so that cached constants are
# recomputed (2: alternatives must make the winners disjoint, and the Copeland bound is exact up to
# EXACT_MAX_ARMS; version 1 also counted alternatives that kept a winner and was up to 30x too high).
METHOD_VERSION = 2



def pair_regrets(P) -> np.ndarray:
    """r_ij = zeta* - (zeta_i + zeta_j) / 2, the per-slot Copeland regret of comparing i with j (Eq. 1);
    zeta the Copeland scores normalised by K - 1 (``core.bound_allocation.copeland_pair_regrets``)."""
    return copeland_pair_regrets(np.ascontiguousarray(P, dtype=np.float64))


class CondorcetAllocation(NamedTuple):
    """The optimal allocation of the Condorcet-model bound (Komiyama et al. 2015, Thm. 2): what an algorithm that
    meets the bound compares, per ln T, asymptotically.  One entry per arm (original labels); the winner's entries are
    -1, 0 and 0.

    partner: int64 (K,): each non-winner i's optimal partner b(i) = argmin over {j : p_ji > 1/2} of r_ij / KL(p_ij, 1/2)
      (first index on ties; ``core.bound_allocation.optimal_partners``): the arm whose comparisons show most cheaply
      that i is not the winner;
    comparisons: float64 (K,): 1 / KL(p_i b(i), 1/2), the comparisons of (i, b(i)) per ln T;
    cost: float64 (K,): r_i b(i) / KL(p_i b(i), 1/2), their regret per ln T (the bound C is their sum);
    winner_cost: float64 (K,): r_ic / KL(p_ic, 1/2), the regret per ln T of showing i beaten by the winner c itself
      (what an algorithm that compares every non-winner with the winner pays: their sum is ``winner_constant``).
    """

    winner: int
    partner: np.ndarray
    comparisons: np.ndarray
    cost: np.ndarray
    winner_cost: np.ndarray


def condorcet_allocation(P) -> CondorcetAllocation:
    """The optimal allocation of the Condorcet-model bound of ``P`` (``CondorcetAllocation``); ValueError if P has
    no Condorcet winner.  A non-winner beaten only by ties (none below 1/2 - TIE_TOLERANCE) gets partner -1 and
    contributes nothing (the matrix cannot have such an arm when it has a Condorcet winner)."""
    P = np.ascontiguousarray(P, dtype=np.float64)
    winner = int(condorcet_winner(P))
    if winner < 0:
        raise ValueError("the matrix has no Condorcet winner: use copeland_lower_bound_and_exactness")
    r, d = pair_regrets(P), kl_to_half(P)
    partner = optimal_partners(P)
    comparisons, cost, winner_cost = np.zeros(P.shape[0]), np.zeros(P.shape[0]), np.zeros(P.shape[0])
    for i in np.flatnonzero(partner >= 0):
        comparisons[i], cost[i] = 1.0 / d[i, partner[i]], r[i, partner[i]] / d[i, partner[i]]
        winner_cost[i] = r[i, winner] / d[i, winner]
    return CondorcetAllocation(winner, partner, comparisons, cost, winner_cost)


def condorcet_lower_bound(P) -> float:
    """The Condorcet-model constant C = sum_{i != c} min_{j: p_ji > 1/2} r_ij / KL(p_ij, 1/2) (the costs of
    ``condorcet_allocation``, added in arm order); ValueError if P has no Condorcet winner."""
    total = 0.0
    for value in condorcet_allocation(P).cost:
        total += float(value)
    return total


def winner_constant(P) -> float:
    """sum_{i != c} r_ic / KL(p_ic, 1/2): the regret per ln T of an algorithm that shows every non-winner beaten by
    comparing it with the Condorcet winner c, at the rate the bound asks of that comparison.  It equals the bound C
    when the winner is every arm's optimal partner (the condition under which Komiyama et al. 2015 prove RMED1
    optimal) and exceeds it otherwise (Cyclic: 49.7 against 5.43).  ValueError if P has no Condorcet winner."""
    total = 0.0
    for value in condorcet_allocation(P).winner_cost:
        total += float(value)
    return total


class Family(NamedTuple):
    """Alternatives "flip every pair of ``forced`` and any ``k`` pairs of ``optional``" (pairs (i, j), i < j)."""

    forced: list
    optional: list
    k: int


# Constraint generation to the exact Copeland constant up to this many arms (K = 32: ~2 minutes, cached by
# reproduce/lower_bounds.py); above, the families' program alone (the 500-armed instance).
EXACT_MAX_ARMS = 32
# At most this many generated alternatives (MSLR K = 32 non-Condorcet needs ~2200); past it the bound is
# reported as a relaxation.  A count, not a time, so that the constant does not depend on the machine.
MAX_CUTS = 5000


def copeland_groups(P) -> list[Family]:
    """Families of alternatives whose winners are disjoint from P's (s the Copeland scores, s* the best,
    W the winners; ties at 1/2 are free wins for the arm they help):

    * a non-winner i becomes the only winner by winning any s* - s_i + 1 - ties_i of the pairs it loses;
    * if every winner beats i, flipping those pairs drops each winner to s* - 1, so i needs only
      s* - s_i - ties_i wins: the pairs (i, w) for every w in W and any s* - s_i - ties_i - |W| other losses;
    * a single winner w (in a matrix without ties) stops being one by losing any s* - s_2 + 1 of its wins
      (s_2 the best other score), or s* - s_2 of them if one is against an arm of score s_2 (that arm then
      leads).
    Families that would need more flips than there are pairs are left out."""
    P = np.asarray(P, dtype=np.float64)
    K = P.shape[0]
    scores = copeland_scores(P)
    best = int(scores.max())
    winners = set(copeland_winners(P).tolist())
    ties = (np.abs(P - 0.5) <= TIE_TOLERANCE) & ~np.eye(K, dtype=bool)

    def pair(i, j):
        """The unordered pair {i, j} as (smaller, larger)."""
        return (min(i, j), max(i, j))

    groups = []
    for i in sorted(set(range(K)) - winners):
        losses = [j for j in range(K) if P[i, j] < 0.5 - TIE_TOLERANCE]
        need = best - int(scores[i]) - int(ties[i].sum())
        if 1 <= need + 1 <= len(losses):
            groups.append(Family([], [pair(i, j) for j in losses], need + 1))
        if winners <= set(losses) and len(winners) <= need <= len(losses):
            groups.append(Family([pair(i, w) for w in sorted(winners)],
                                 [pair(i, j) for j in losses if j not in winners], need - len(winners)))
    if len(winners) == 1 and not ties.any():
        (w,) = winners
        wins = [j for j in range(K) if P[w, j] > 0.5]
        second = int(np.delete(scores, w).max())
        if best - second + 1 <= len(wins):
            groups.append(Family([], [pair(w, j) for j in wins], best - second + 1))
        for j in wins:
            if scores[j] == second:
                groups.append(Family([pair(w, j)], [pair(w, m) for m in wins if m != j], best - second - 1))
    return groups


def copeland_lower_bound_and_exactness(P, exact_max_arms: int = EXACT_MAX_ARMS,
                                       max_cuts: int = MAX_CUTS) -> tuple[float, bool]:
    """(C, exact): the Copeland-model constant (see the module docstring), the program of the families of
    ``copeland_groups`` and, for K <= ``exact_max_arms``, of
    the alternatives ``cheapest_alternative`` adds while the solution violates one (at most ``max_cuts``);
    exact is True when none is left (then C is the exact constant; otherwise C is the optimum over a subset
    of the alternatives, a valid lower bound).  math.inf if an alternative is made of ties alone."""
    P = np.asarray(P, dtype=np.float64)
    groups = copeland_groups(P)
    cuts = []
    while True:
        value, x = lower_bound_lp(P, groups, cuts)
        if not math.isfinite(value):
            return value, True
        if P.shape[0] > exact_max_arms or len(cuts) >= max_cuts:
            return value, False
        cost, flips = cheapest_alternative(P, x)
        if cost >= 1.0 - CUT_TOLERANCE:
            return value, True
        cuts.append(flips)


# A generated alternative counts as violated when its pairs' x sum to less than 1 - CUT_TOLERANCE (the LP
# solver's own feasibility tolerance is ~1e-7).
CUT_TOLERANCE = 1e-6


def _pair_index(K):
    """(iu, ju, index): the pairs i < j in order, and index[i, j] their position (-1 elsewhere)."""
    iu, ju = np.triu_indices(K, 1)
    index = -np.ones((K, K), dtype=np.int64)
    index[iu, ju] = np.arange(iu.size)
    return iu, ju, index


def cheapest_alternative(P, x) -> tuple[float, list]:
    """The alternative (flipped pairs, as (i, j) with i < j) with the least sum of x over its flipped
    pairs, among every flip of P's pairs (ties given to either side for free) after which no winner of P
    is a winner: an integer program over one binary per flip and one per arm that leads afterwards.
    (math.inf, []) if there is none (every arm is a winner)."""
    from scipy.optimize import Bounds, LinearConstraint, milp

    P = np.asarray(P, dtype=np.float64)
    K = P.shape[0]
    iu, ju, _ = _pair_index(K)
    scores = copeland_scores(P).astype(np.float64)
    winners = copeland_winners(P)
    leaders = np.flatnonzero(scores < scores.max())
    if leaders.size == 0:  # every arm is a winner: no alternative exists, every pair has zero regret
        return math.inf, []
    p = P[iu, ju]
    tie = np.abs(p - 0.5) <= TIE_TOLERANCE
    # Flip variables: one per strict pair (moves its win to the other arm), two per tie (i wins, j wins).
    columns, gains = [], []  # gains: (K,) change of every arm's score when the flip is made
    for e in range(iu.size):
        i, j = iu[e], ju[e]
        for winner in ((i, j) if tie[e] else ((j,) if p[e] > 0.5 else (i,))):
            gain = np.zeros(K)
            gain[winner] += 1.0
            if not tie[e]:
                gain[i if winner == j else j] -= 1.0
            columns.append((e, winner))
            gains.append(gain)
    n_flip = len(columns)
    delta = np.array(gains).T  # (K, n_flip)
    objective = np.concatenate([[0.0 if tie[e] else x[e] for e, _ in columns], np.zeros(leaders.size)])
    big = 2.0 * K + 2.0
    rows, low, high = [], [], []
    for b_pos, b in enumerate(leaders):
        for w in winners:
            # if leader b is chosen: score'_b >= score'_w + 1
            row = np.concatenate([delta[b] - delta[w], np.zeros(leaders.size)])
            row[n_flip + b_pos] = -big
            rows.append(row)
            low.append(1.0 - big - scores[b] + scores[w])
            high.append(np.inf)
    rows.append(np.concatenate([np.zeros(n_flip), np.ones(leaders.size)]))
    low.append(1.0)
    high.append(1.0)
    for e in np.flatnonzero(tie):  # a tie goes to at most one side
        row = np.zeros(n_flip + leaders.size)
        row[[c for c, (f, _) in enumerate(columns) if f == e]] = 1.0
        rows.append(row)
        low.append(0.0)
        high.append(1.0)
    result = milp(objective, constraints=LinearConstraint(np.array(rows), low, high),
                  integrality=np.ones(n_flip + leaders.size), bounds=Bounds(0, 1))
    if result.status != 0:
        raise RuntimeError(f"lower-bound integer program failed: {result.message}")
    chosen = sorted({(int(iu[e]), int(ju[e])) for c, (e, _) in enumerate(columns) if result.x[c] > 0.5
                     and not tie[e]})
    return float(result.fun), chosen


def lower_bound_lp(P, groups, cuts=()) -> tuple[float, np.ndarray]:
    """(value, x): the minimum of sum_e x_e r_e / KL(p_e, 1/2) over x >= 0 (x_e = 0 for a tie) such that,
    in every family of ``groups``, the x of its forced pairs plus the k smallest x of its optional pairs sum
    to at least 1, and the x of every pair set in ``cuts`` sum to at least 1; math.inf if infeasible
    (an alternative made of ties alone)."""
    from scipy.optimize import linprog
    from scipy.sparse import coo_matrix

    P = np.asarray(P, dtype=np.float64)
    K = P.shape[0]
    iu, ju, pair_index = _pair_index(K)
    n_pairs = iu.size
    if not groups and not cuts:
        return 0.0, np.zeros(n_pairs)
    r, d = pair_regrets(P), kl_to_half(P)
    informative = np.abs(P[iu, ju] - 0.5) > TIE_TOLERANCE
    with np.errstate(divide="ignore", invalid="ignore"):
        cost = np.where(informative, r[iu, ju] / d[iu, ju], 0.0)
    # Variables: x (pairs), then per family its threshold t_g, then u_{g,e} >= max(0, t_g - x_e).
    n_t = len(groups)
    n_u = sum(len(family.optional) for family in groups)
    rows, cols, vals, rhs = [], [], [], []
    row, u_col = 0, n_pairs + n_t
    for g, family in enumerate(groups):
        t_col = n_pairs + g
        # -sum_forced x - k t_g + sum_e u_ge <= -1   (forced + the k smallest optional x >= 1)
        forced = [int(pair_index[i, j]) for i, j in family.forced]
        rows += [row] * (len(forced) + 1 + len(family.optional))
        cols += forced + [t_col] + list(range(u_col, u_col + len(family.optional)))
        vals += [-1.0] * len(forced) + [-float(family.k)] + [1.0] * len(family.optional)
        rhs.append(-1.0)
        row += 1
        for offset, (i, j) in enumerate(family.optional):
            # t_g - x_e - u_ge <= 0
            rows += [row] * 3
            cols += [t_col, int(pair_index[i, j]), u_col + offset]
            vals += [1.0, -1.0, -1.0]
            rhs.append(0.0)
            row += 1
        u_col += len(family.optional)
    for flips in cuts:
        rows += [row] * len(flips)
        cols += [int(pair_index[i, j]) for i, j in flips]
        vals += [-1.0] * len(flips)
        rhs.append(-1.0)
        row += 1
    A = coo_matrix((vals, (rows, cols)), shape=(row, n_pairs + n_t + n_u)).tocsr()
    c = np.concatenate([cost, np.zeros(n_t + n_u)])
    bounds = ([(0, None) if ok else (0, 0) for ok in informative] + [(None, None)] * n_t + [(0, None)] * n_u)
    result = linprog(c, A_ub=A, b_ub=np.array(rhs), bounds=bounds, method="highs")
    if result.status == 2:
        return math.inf, np.full(n_pairs, math.inf)
    if result.status != 0:
        raise RuntimeError(f"lower-bound linear program failed: {result.message}")
    return float(result.fun), result.x[:n_pairs]


def regret_lower_bound(P) -> tuple[float, str]:
    """(constant, model): the Condorcet bound if P has a Condorcet winner, else the Copeland bound (the
    model names a relaxation where it is not exact)."""
    P = np.asarray(P, dtype=np.float64)
    if condorcet_winner(P) >= 0:
        return condorcet_lower_bound(P), "Condorcet (Komiyama et al. 2015)"
    constant, exact = copeland_lower_bound_and_exactness(P)
    return constant, "Copeland (Komiyama et al. 2016)" + ("" if exact else ", relaxation")
