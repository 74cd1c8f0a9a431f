"""Asymptotic regret lower bounds: the constant C(P) with liminf E[R(T)] / ln T >= C(P) for every
uniformly good algorithm, for the Copeland regret of the paper's Eq. (1).

Both bounds come from the same change-of-measure argument (Komiyama et al., COLT 2015, Thm. 2 for the
Condorcet case; Komiyama et al., ICML 2016, Thm. 1 for the Copeland case): for every *alternative* matrix
P' whose set of winners differs from P's, an algorithm must collect sum_{pairs e} E[N_e] KL(p_e, p'_e) >=
ln T, and the cheapest pair counts satisfying all of them give the bound (a linear program in
x_e = E[N_e] KL(p_e, 1/2) / ln T, of cost sum_e x_e r_e / KL(p_e, 1/2), r_e the per-slot regret of pair e).

* ``condorcet_lower_bound``: the model is "P has a Condorcet winner"; the alternatives make one arm i
  the Condorcet winner by moving all its losses past 1/2, which gives the closed form
  C = sum_{i != c} min_{j beats i} r_ij / KL(p_ij, 1/2).
* ``copeland_lower_bound``: the model is every matrix.  The exact constant needs every way of changing the
  winner set; this module uses the two families that are cheap to write and valid on their own -- a
  non-winner i joins the winners by winning s* - s_i of the pairs it loses (any s* - s_i of them), a winner w
  leaves the winners by losing max(1, s* - s_2) of the pairs it wins (s_2 the best score of the others) --
  so it returns a lower bound on the exact constant (a valid, possibly loose, bound), with the
  "sum of the k smallest x_e >= 1" constraints written as a linear program and solved by HiGHS.
"""

import numpy as np

# Pairs closer than this to 1/2 are treated as ties (they carry no information: KL(p, 1/2) ~ 0).
TIE_TOLERANCE = 1e-12


def kl_to_half(p) -> np.ndarray:
    """KL(Bernoulli(p) || Bernoulli(1/2)) elementwise (0 log 0 = 0)."""
    p = np.asarray(p, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, p * np.log(2 * p), 0.0) + np.where(p < 1, (1 - p) * np.log(2 * (1 - p)), 0.0)
    return terms


def pair_regrets(P) -> np.ndarray:
    """r_ij = zeta* - (zeta_i + zeta_j) / 2, the per-slot Copeland regret of comparing i with j (Eq. 1);
    zeta the Copeland scores normalised by K - 1."""
    P = np.asarray(P, dtype=np.float64)
    zeta = (P > 0.5).sum(axis=1) / (P.shape[0] - 1)
    return zeta.max() - 0.5 * (zeta[:, None] + zeta[None, :])


def condorcet_lower_bound(P) -> float:
    """The Condorcet-model constant sum_{i != c} min_{j: p_ji > 1/2} r_ij / KL(p_ij, 1/2); ValueError if
    P has no Condorcet winner."""
    P = np.asarray(P, dtype=np.float64)
    K = P.shape[0]
    scores = (P > 0.5).sum(axis=1)
    if scores.max() != K - 1:
        raise ValueError("the matrix has no Condorcet winner: use copeland_lower_bound")
    r, d = pair_regrets(P), kl_to_half(P)
    total = 0.0
    for i in range(K):
        beaten_by = np.flatnonzero(P[i] < 0.5 - TIE_TOLERANCE)
        if scores[i] < K - 1 and beaten_by.size:
            total += float(np.min(r[i, beaten_by] / d[i, beaten_by]))
    return total


def copeland_groups(P) -> list[tuple[list[tuple[int, int]], int]]:
    """The constraint families of ``copeland_lower_bound``: (pairs (i, j) with i < j, k) meaning "any k of
    these pairs flipped changes the winner set", one per non-winner (its losses) and one per winner (its
    wins); families that cannot change the winner set by flips alone (too few pairs) are left out."""
    P = np.asarray(P, dtype=np.float64)
    K = P.shape[0]
    scores = (P > 0.5).sum(axis=1)
    best = scores.max()
    groups = []
    for i in range(K):
        if scores[i] < best:
            pairs = [j for j in range(K) if P[i, j] < 0.5 - TIE_TOLERANCE]
            k = int(best - scores[i])
        else:
            pairs = [j for j in range(K) if P[i, j] > 0.5 + TIE_TOLERANCE]
            others = np.delete(scores, i)
            k = int(max(1, best - others.max()))
        if 1 <= k <= len(pairs):
            groups.append(([(min(i, j), max(i, j)) for j in pairs], k))
    return groups


def copeland_lower_bound(P) -> float:
    """Lower bound on the Copeland-model constant (see the module docstring): ``lower_bound_lp`` over the
    families of ``copeland_groups``."""
    return lower_bound_lp(P, copeland_groups(P))


def lower_bound_lp(P, groups) -> float:
    """The minimum of sum_e x_e r_e / KL(p_e, 1/2) over x >= 0 such that, in every family (pairs G, k) of
    ``groups``, the k smallest x_e of G sum to at least 1 (pairs (i, j) with i < j)."""
    from scipy.optimize import linprog
    from scipy.sparse import coo_matrix

    P = np.asarray(P, dtype=np.float64)
    K = P.shape[0]
    if not groups:
        return 0.0
    iu, ju = np.triu_indices(K, 1)
    pair_index = -np.ones((K, K), dtype=np.int64)
    pair_index[iu, ju] = np.arange(iu.size)
    r, d = pair_regrets(P), kl_to_half(P)
    with np.errstate(divide="ignore"):
        cost = np.where(d[iu, ju] > 0, r[iu, ju] / d[iu, ju], 0.0)
    n_pairs = iu.size
    # Variables: x (pairs), then per group its threshold t_g, then u_{g,e} >= max(0, t_g - x_e).
    n_t = len(groups)
    n_u = sum(len(pairs) for pairs, _ in groups)
    rows, cols, vals, rhs = [], [], [], []
    row, u_col = 0, n_pairs + n_t
    for g, (pairs, k) in enumerate(groups):
        t_col = n_pairs + g
        # -k t_g + sum_e u_ge <= -1   (sum of the k smallest x_e >= 1)
        rows += [row] * (len(pairs) + 1)
        cols += [t_col] + list(range(u_col, u_col + len(pairs)))
        vals += [-k] + [1.0] * len(pairs)
        rhs.append(-1.0)
        row += 1
        for offset, (i, j) in enumerate(pairs):
            # t_g - x_e - u_ge <= 0
            rows += [row] * 3
            cols += [t_col, int(pair_index[i, j]), u_col + offset]
            vals += [1.0, -1.0, -1.0]
            rhs.append(0.0)
            row += 1
        u_col += len(pairs)
    A = coo_matrix((vals, (rows, cols)), shape=(row, n_pairs + n_t + n_u)).tocsr()
    c = np.concatenate([cost, np.zeros(n_t + n_u)])
    bounds = [(0, None)] * n_pairs + [(None, None)] * n_t + [(0, None)] * n_u
    result = linprog(c, A_ub=A, b_ub=np.array(rhs), bounds=bounds, method="highs")
    if result.status != 0:
        raise RuntimeError(f"lower-bound linear program failed: {result.message}")
    return float(result.fun)


def regret_lower_bound(P) -> tuple[float, str]:
    """(constant, model): the Condorcet bound if P has a Condorcet winner, else the Copeland bound."""
    P = np.asarray(P, dtype=np.float64)
    if (P > 0.5).sum(axis=1).max() == P.shape[0] - 1:
        return condorcet_lower_bound(P), "Condorcet (Komiyama et al. 2015)"
    return copeland_lower_bound(P), "Copeland (Komiyama et al. 2016, relaxation)"
