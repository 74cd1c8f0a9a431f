"""Why each of the asymptotic study's checks that does not hold does not (``ASYMPTOTIC_REASONS``, the study's
``Study.reasons``): A1-A7 and C5 at T = 2**53, keyed by (claim, site) like the paper figures' shared reasons
(``reproduce.claims.reasons``, whose record, categories and helpers these use).  A text computes its numbers from the
study's tables as the report reads them (``Numbers``): its final table, and the tables it declares
(``Study.tables``): the decade parts (``decade_pairs.class_limit_rows``), the partner runs (``partner_runs``) and the
sweeps (``forced_sweeps``)."""

import math

import pandas as pd

from dts_reproduction.algorithms.base import MAX_EXACT_HORIZON
from dts_reproduction.algorithms.ecw_rmed_steps import gap_threshold
from dts_reproduction.core.constants import ECW_RMED_BETA
from dts_reproduction.reproduce.claims.paper_checks import DTS_FAMILY
from dts_reproduction.reproduce.claims.reasons import (
    ASSUMPTION2,
    DATA_VS_TEXT,
    FORCED,
    FROM_BELOW,
    NOISE,
    NOISE_DOC,
    PARTNER,
    RMED2_ANYTIME,
    RMED2_SIGN,
    SUPERIOR,
    SUSHI_DOC,
    Numbers,
    Reason,
    false_verdict_share,
    order_and_factor,
    site,
)
from dts_reproduction.reproduce.claims.registry import ASYMPTOTIC
from dts_reproduction.reproduce.claims.verdict import NOISE_SE

ASYMPTOTIC_DOC = "docs/asymptotic.md#why-the-slopes-stay-above-c"
FORCED_BAND_DOC = "docs/asymptotic.md#ecw-rmed-trapped-by-forced-exploration"
SWEEPS_DOC = "docs/asymptotic.md#ecw-rmeds-sweeps-of-every-pair"
SUPERIOR_DOC = "docs/asymptotic.md#why-d-ts-sits-above-c_w"
LOGLOG_DOC = "docs/asymptotic.md#where-the-slope-still-moves"
RMED2_CYCLIC_DOC = "docs/asymptotic.md#rmed2-with-the-papers-sign-on-cyclic"
# The claims whose rows are decided on a fitted limit (``claims.verdict.reaches_limit``): the family over which a
# false FAILS from noise is counted.
LIMIT_CLAIMS = ("A1", "A2", "A3", "A5", "A6", "A7")
# The study's tables its reasons read besides its final table (``Study.tables``).
DECADE_PARTS, PARTNER_RUNS, SWEEPS = "_decade_parts.csv", "_partner_runs.csv", "_sweeps.csv"
# The study's panels (Panel.key) whose rows need each kind of reason.
CONSTANT_FACTOR_PANELS = ("arxiv", "mslr5_condorcet", "mslr16_condorcet", "mslr32_condorcet")
SWAMPED_PANELS = ("cyclic", "strong_borda")
FORCED_BAND_PANELS = ("mslr135_informational_cdc",)
SWEEP_PANELS = ("mslr136_perfect", "mslr136_navigational")
CONDORCET_PANELS = ("cyclic", "strong_borda", "arxiv", "sushi", "mslr5_condorcet", "mslr16_condorcet",
                    "mslr32_condorcet", "mslr136_perfect", "mslr136_navigational", "mslr135_informational_cdc")
# The panels where C_w > C (the winner is not every arm's optimal partner).
PARTNER_PANELS = ("cyclic", "strong_borda", "arxiv", "mslr136_perfect", "mslr136_navigational",
                  "mslr135_informational_cdc")
# A1 fails where C_w = C by D-TS's strongest-superior duels; A5 where its limit is above C_w.
A1_SUPERIOR_PANELS = ("mslr16_condorcet",)
A5_SUPERIOR_PANELS = ("cyclic", "arxiv", "mslr16_condorcet", "mslr136_navigational", "mslr135_informational_cdc")
RMED2_BELOW_BOUND_PANELS = ("sushi", "mslr32_condorcet")
RMED2_AT_WINNER_PANELS = ("mslr136_perfect", "mslr136_navigational", "mslr135_informational_cdc")
A3_NOISE_PANELS = ("arxiv",)
A7_TIED_PANELS = ("sushi", "mslr5_condorcet", "mslr16_condorcet")
A7_UNRESOLVED_PANELS = ("arxiv",)


def part_row(n: Numbers, panel: str, algorithm: str, part: str) -> pd.Series:
    """The row of the decade-parts table for ``algorithm``'s class ``part`` on the panel ``panel``."""
    table = n.table(DECADE_PARTS, ASYMPTOTIC)
    return table[(table["panel_id"] == panel) & (table["algorithm"] == algorithm) & (table["part"] == part)].iloc[0]


def has_parts(n: Numbers, panel: str, algorithm: str) -> bool:
    """Whether the decade-parts table splits ``algorithm`` on the panel ``panel``."""
    table = n.table(DECADE_PARTS, ASYMPTOTIC)
    return table is not None and bool(((table["panel_id"] == panel) & (table["algorithm"] == algorithm)).any())


def partner_row(n: Numbers, panel: str, algorithm: str) -> pd.Series:
    """The row of the partner-runs table for ``algorithm`` on the panel ``panel``."""
    table = n.table(PARTNER_RUNS, ASYMPTOTIC)
    return table[(table["panel_id"] == panel) & (table["algorithm"] == algorithm)].iloc[0]


def sweep_row(n: Numbers, panel: str) -> pd.Series:
    """The row of the sweeps table for the panel ``panel``."""
    table = n.table(SWEEPS, ASYMPTOTIC)
    return table[table["panel_id"] == panel].iloc[0]


def asymptotic_row(n: Numbers, panel: str, algorithm: str) -> pd.Series:
    """The asymptotic study's summary row of ``algorithm`` on the panel ``panel``."""
    return n.row(ASYMPTOTIC, panel, algorithm)


def slope_against_bounds(n: Numbers, panel: str, algorithm: str) -> str:
    """"<label>'s slope s over the last decade to 2**53 is x C and y C_w" for one line of the study."""
    row = asymptotic_row(n, panel, algorithm)
    slope = row["slope_last_decade"]
    return (f"{row['label']}'s slope over the last decade to T = 2^53 is {slope:.3g}, "
            f"{slope / row['lower_bound_slope']:.1f}x C = {row['lower_bound_slope']:.3g} and "
            f"{slope / row['winner_constant']:.2f}x C_w = {row['winner_constant']:.3g}")


def limit_against_bounds(n: Numbers, panel: str, algorithm: str) -> str:
    """"<label>'s slope limit a +- se (tolerance) is x C and y C_w" for one line of the study."""
    row = asymptotic_row(n, panel, algorithm)
    limit = row["slope_limit"]
    return (f"{row['label']}'s slope limit is {limit:.4g} +- {row['slope_limit_se']:.2g} (tolerance "
            f"{row['slope_limit_tolerance']:.2g}), {limit / row['lower_bound_slope']:.2f}x C = "
            f"{row['lower_bound_slope']:.4g} and {limit / row['winner_constant']:.2f}x C_w = "
            f"{row['winner_constant']:.4g}")


def limit_noise_share(n: Numbers) -> str:
    """How many rows are decided on a fitted limit, and the share of reproductions with a false FAILS among them."""
    checks = sum(n.checks(claim) for claim in LIMIT_CLAIMS)
    share = false_verdict_share(checks)
    return (f"With {checks} checks decided on a fitted limit at {NOISE_SE:g} standard errors, at least one false "
            f"FAILS is expected in {share:.0%} of reproductions")


def partner_not_winner(panel: str, algorithm: str) -> Reason:
    """A limit near C_w or above it, far from C: the algorithm shows every arm beaten by the winner, where the
    bound's optimal partner of some arms is another arm."""
    def text(n: Numbers) -> str:
        """The limit against C and C_w."""
        return (f"{limit_against_bounds(n, panel, algorithm)}: it shows every arm beaten by the winner, while the "
                "bound's optimal partner of some arms is another arm, so its slope tends to C_w or above, not to C")
    return Reason(PARTNER, ASYMPTOTIC_DOC, text)


def superior_duels(panel: str) -> Reason:
    """D-TS's limit above C_w: Theorem 2's second part, each non-winner against its strongest superior, where that
    is not the winner (``decade_pairs``), and how much of the excess it and the remaining
    pairs account for."""
    def text(n: Numbers) -> str:
        """D-TS's limit against C_w, its duels of two non-winners by Theorem 2's parts, and what is left; where D-TS
        is not split on this panel, what would settle it."""
        row = asymptotic_row(n, panel, "dts")
        if not has_parts(n, panel, "dts"):
            return (f"{limit_against_bounds(n, panel, 'dts')}, {row['slope_limit'] - row['winner_constant']:.3g} above "
                    "C_w. Open question: on the smaller matrices where the limit is above C_w, D-TS's duels of "
                    "non-winners with their strongest superiors (Theorem 2's second part) carry part of the excess; "
                    "whether they do here is not measured (D-TS's regret is not split by decade at this K yet: each "
                    "run is simulated once per decade end), and a split of a few runs would settle it")
        superior, other = (part_row(n, panel, "dts", part) for part in ("superior", "other"))
        excess = row["slope_limit"] - row["winner_constant"]
        duels = superior["limit"] + other["limit"]
        rest = excess - duels
        rest_se = math.hypot(row["slope_limit_se"], superior["limit_se"], other["limit_se"])
        head = (f"{limit_against_bounds(n, panel, 'dts')}, {excess:.3g} above C_w. For "
                f"{int(superior['superiors_not_winner'])} non-winners here the strongest superior (the arm most likely "
                "to beat it) is not the winner, and Theorem 2's second part, such an arm as first candidate against "
                f"its strongest superior, is a ln T term: split by decade over {int(superior['runs'])} runs, D-TS's "
                f"regret per ln t on those pairs tends to {superior['limit']:.3g} +- {superior['limit_se']:.2g} "
                f"({superior['last_decade']:.3g} over the last decade), on the remaining pairs of two non-winners to "
                f"{other['limit']:.3g} +- {other['limit_se']:.2g} ({other['last_decade']:.3g})")
        if abs(rest) <= NOISE_SE * rest_se:
            return head + f": together {duels:.3g}, which accounts for the excess within the noise"
        return (head + f": together {duels:.3g}, which leaves {rest:.3g} +- {rest_se:.2g} on the pairs with the "
                "winner. That D-TS compares some non-winners with the winner more often than ln t / KL, or approaches "
                "that rate from far above, is an open question: a split of more runs, per arm, would settle it")
    return Reason(SUPERIOR, SUPERIOR_DOC, text)


def superiors_tied(panel: str) -> Reason:
    """A7's remaining pairs not tending to 0 where a non-winner's two strongest superiors beat it with almost the same
    chance: Theorem 2's Assumption 2 fails or nearly fails, and its third part's bound, ln ln T over their KL, is not
    small at any reachable T."""
    def text(n: Numbers) -> str:
        """The remaining pairs' rate, the separation of the superiors, and what the bound's third part is there."""
        other = part_row(n, panel, "dts", "other")
        separation = other["superior_separation"]
        bound = ("unbounded (a tie)" if separation == 0 else
                 f"{math.log(math.log(MAX_EXACT_HORIZON)) / separation:.2g} comparisons at 2^53, times its constants")
        return (f"D-TS's regret per ln t on the remaining pairs is {other['last_decade']:.3g} over the last decade, "
                f"tending to {other['limit']:.3g} +- {other['limit_se']:.2g} (tolerance {other['tolerance']:.2g}, "
                f"{int(other['runs'])} runs), small beside the whole line's but not 0. Theorem 2's Assumption 2 asks "
                "each non-winner's strongest superior to beat it with a clearly larger chance than the next; here "
                f"the closest two are KL {separation:.2g} apart, so its third part, ln ln T over that KL, is {bound}: "
                "the theorem does not say these duels fade at any horizon a run reaches")
    return Reason(ASSUMPTION2, SUPERIOR_DOC, text)


def superior_unresolved(panel: str) -> Reason:
    """A7's strongest-superior pairs not significantly above 0: the split's runs cannot resolve their rate."""
    def text(n: Numbers) -> str:
        """The class's limit and last decade, and how many non-winners it holds."""
        row = part_row(n, panel, "dts", "superior")
        return (f"{int(row['superiors_not_winner'])} non-winner(s) here have a strongest superior other than the "
                f"winner; over the {int(row['runs'])} split runs D-TS's regret per ln t on those pairs tends to "
                f"{row['limit']:.3g} +- {row['limit_se']:.2g} ({row['last_decade']:.3g} +- {row['last_decade_se']:.2g} "
                "over the last decade): in the claimed order, but the runs cannot resolve it from 0")
    return Reason(NOISE, NOISE_DOC, text)


def rmed2_sign(panel: str) -> Reason:
    """RMED2 as run against RMED2 with the paper's sign."""
    def text(n: Numbers) -> str:
        """Both RMED2 limits against C."""
        paper = asymptotic_row(n, panel, "RMED2 (paper)")
        return (f"{limit_against_bounds(n, panel, 'rmed2')}: the authors' score of a partner has the opposite sign of "
                "the RMED2 paper's, so it prefers the partner of the highest estimated regret per unit of "
                f"information, not the lowest; with the paper's sign the limit is {paper['slope_limit']:.4g}, "
                f"{paper['slope_limit'] / paper['lower_bound_slope']:.2f}x C")
    return Reason(RMED2_SIGN, ASYMPTOTIC_DOC, text)


def rmed2_trapped_partner(panel: str) -> Reason:
    """RMED2 with the paper's sign above C on a matrix where the switch count separates the allocations
    (``partner_runs``): a minority of its runs show an arm beaten by the winner for good."""
    def text(n: Numbers) -> str:
        """The limit, the median run's slope, the switched runs and their partner comparisons."""
        row, runs = asymptotic_row(n, panel, "RMED2 (paper)"), partner_row(n, panel, "RMED2 (paper)")
        return (f"{limit_against_bounds(n, panel, 'RMED2 (paper)')}, but its median run's slope is "
                f"{runs['median_run_slope']:.3g} ({runs['median_run_slope'] / row['lower_bound_slope']:.2f}x C): in "
                f"{int(runs['runs_above_threshold'])} of {int(runs['runs'])} runs at least one arm is shown beaten by "
                f"the winner for good (the run's slope above C plus half the cheapest switch, "
                f"{runs['switch_threshold']:.3g}). In those runs the fewest comparisons at T of an arm with its "
                f"optimal partner are {runs['partner_comparisons_above']:.0f} (median; "
                f"{runs['partner_comparisons_below']:.0f} in the other runs): the pair is compared in RMED2's "
                "initial round robin only, which the anytime RMED2 ends once t - 1 reaches #pairs * 3 ln ln t. "
                "Komiyama et al. (2015) prove the bound for the fixed-horizon RMED2FH, not for this anytime RMED2")
    return Reason(RMED2_ANYTIME, RMED2_CYCLIC_DOC, text)


def rmed2_at_winner_constant(panel: str) -> Reason:
    """RMED2 with the paper's sign at C_w on a matrix where the switch count does not separate the allocations."""
    def text(n: Numbers) -> str:
        """The limit against C and C_w."""
        return (f"{limit_against_bounds(n, panel, 'RMED2 (paper)')}: it ends near C_w, like the algorithms that show "
                "every arm beaten by the winner. Whether its partner estimates are held by its initial round robin, "
                "as on Cyclic, is not measured here: at this K the cheapest switch of a partner costs less than the "
                "spread of the runs' slopes, so the runs cannot be sorted by it")
    return Reason(PARTNER, RMED2_CYCLIC_DOC, text)


def below_bound(panel: str, algorithm: str) -> Reason:
    """A fitted limit below the lower bound C, which no consistent algorithm's slope can be, by a little more than
    the noise."""
    def text(n: Numbers) -> str:
        """The limit against C, the last decade's slope, the fitted weight of ln ln t, and the noise share."""
        row = asymptotic_row(n, panel, algorithm)
        distance = (row["lower_bound_slope"] - row["slope_limit"]) / row["slope_limit_se"]
        return (f"{limit_against_bounds(n, panel, algorithm)}: {distance:.1f} standard errors below the bound, which "
                f"no consistent algorithm's slope can be; over the last decade its slope is "
                f"{row['slope_last_decade']:.4g} ({row['slope_over_bound']:.2f}x C), and the fit's positive weight of "
                f"ln ln t ({row['loglog_weight']:.3g} +- {row['loglog_weight_se']:.2g}) extrapolates a falling slope "
                f"past C. {limit_noise_share(n)}")
    return Reason(NOISE, NOISE_DOC, text)


def limits_apart_by_noise(panel: str) -> Reason:
    """A3 where D-TS's and D-TS+'s limits differ by a little more than the noise while their last decades agree."""
    def text(n: Numbers) -> str:
        """Both limits and both last-decade slopes, and the noise share."""
        dts, plus = (asymptotic_row(n, panel, name) for name in ("dts", "dts_plus"))
        return (f"slope limits D-TS {dts['slope_limit']:.4g} +- {dts['slope_limit_se']:.2g}, D-TS+ "
                f"{plus['slope_limit']:.4g} +- {plus['slope_limit_se']:.2g}; over the last decade D-TS "
                f"{dts['slope_last_decade']:.4g} +- {dts['slope_se']:.2g} and D-TS+ {plus['slope_last_decade']:.4g} "
                f"+- {plus['slope_se']:.2g} agree. {limit_noise_share(n)}")
    return Reason(NOISE, NOISE_DOC, text)


def from_below(panel: str) -> Reason:
    """A4: the fitted weight of ln ln t is negative, or not distinguishable from 0; where D-TS's regret is split by
    Theorem 2's parts, which part carries it."""
    def text(n: Numbers) -> str:
        """The fitted limit and weight of D-TS's slope, and of its parts where split."""
        row, rmed1 = asymptotic_row(n, panel, "dts"), asymptotic_row(n, panel, "rmed1")
        weight, se = row["loglog_weight"], row["loglog_weight_se"]
        sign = "negative" if weight + NOISE_SE * se < 0 else "not distinguishable from 0"
        parts = [f"D-TS's fitted weight of ln ln t is {weight:.3g} +- {se:.2g}, {sign}: a positive weight b makes the "
                 "slope over [t/10, t] fall like b / ln t, so Theorem 2's K^2 log log T term would show as a falling "
                 f"slope; RMED1's weight is {rmed1['loglog_weight']:.3g} +- {rmed1['loglog_weight_se']:.2g}"]
        if has_parts(n, panel, "dts"):
            superior, other = (part_row(n, panel, "dts", part) for part in ("superior", "other"))
            winner = weight - superior["loglog_weight"] - other["loglog_weight"]
            winner_se = math.hypot(se, superior["loglog_weight_se"], other["loglog_weight_se"])
            placed = (winner + NOISE_SE * winner_se < 0
                      and min(part["loglog_weight"] + NOISE_SE * part["loglog_weight_se"] for part in (superior, other))
                      >= 0)
            parts.append(f"split by Theorem 2's parts ({int(other['runs'])} runs), the weight of the remaining pairs "
                         f"(its log log T part) is {other['loglog_weight']:.3g} +- {other['loglog_weight_se']:.2g} and "
                         f"of the strongest-superior pairs {superior['loglog_weight']:.3g} +- "
                         f"{superior['loglog_weight_se']:.2g}, which leaves {winner:.3g} +- {winner_se:.2g} to the "
                         "pairs with the winner: " + (
                             "shown, the slope rises in the comparisons with the winner, not in D-TS's duels of two "
                             "non-winners; conjecture, not shown, that those comparisons approach ln t / KL from below"
                             if placed else "the split does not place the rise in one part at this precision"))
        return "; ".join(parts)
    return Reason(FROM_BELOW, LOGLOG_DOC, text)


def constant_swamped(panel: str) -> Reason:
    """C5 at T = 2**53 where a D-TS variant's R(T) is no longer significantly below RMED1's: both slopes sit at C_w
    or above."""
    def text(n: Numbers) -> str:
        """D-TS's and RMED1's slopes against C_w, and the R(T) of the D-TS variant nearer RMED1's (the higher)."""
        rmed1 = asymptotic_row(n, panel, "rmed1")
        near = max(DTS_FAMILY, key=lambda name: n.final(ASYMPTOTIC, panel, name).value)
        ratio, distance = n.ratio(ASYMPTOTIC, panel, near, "rmed1"), n.distance(ASYMPTOTIC, panel, near, "rmed1")
        return (f"{slope_against_bounds(n, panel, 'dts')}, RMED1's {rmed1['slope_last_decade']:.3g}: both show every "
                f"arm beaten by the winner, so both slopes sit at C_w or above, and at T = 2^53 the slope term swamps "
                f"D-TS's smaller constant (R(T) of {n.label(ASYMPTOTIC, panel, near)} {ratio:.2f}x RMED1's, "
                f"{distance:.1f} standard errors apart)")
    return Reason(PARTNER, ASYMPTOTIC_DOC, text)


def ecw_rmed_slope(panel: str) -> Reason:
    """C5 at T = 2**53 where ECW-RMED's slope is far above D-TS's and RMED1's."""
    def text(n: Numbers) -> str:
        """ECW-RMED's slope against D-TS's and RMED1's."""
        ecw, dts, rmed1 = (asymptotic_row(n, panel, name) for name in ("ecw_rmed", "dts", "rmed1"))
        return (f"at T = 2^53 ECW-RMED's slope is {ecw['slope_last_decade']:.3g}, "
                f"{ecw['slope_last_decade'] / dts['slope_last_decade']:.1f}x D-TS's and "
                f"{ecw['slope_last_decade'] / rmed1['slope_last_decade']:.1f}x RMED1's, which agree: ECW-RMED keeps "
                "paying for pairs of two non-winners, as at T = 1e6")
    return Reason(DATA_VS_TEXT, SUSHI_DOC, text)


def ecw_rmed_trapped(panel: str) -> Reason:
    """C5 at T = 2**53 where ECW-RMED's line is linear: most of its runs are held by a pair inside step 1's band."""
    def text(n: Numbers) -> str:
        """ECW-RMED's trapped runs, the band, and D-TS's slope against C_w."""
        ecw = asymptotic_row(n, panel, "ecw_rmed")
        held, runs = int(ecw["trapped_runs"]), int(ecw["trapped_runs"] + ecw["runs"])
        band = gap_threshold(MAX_EXACT_HORIZON, ECW_RMED_BETA)
        return (f"ECW-RMED's regret grows linearly in {held} of {runs} runs: its step 1 compares any pair with "
                f"p-hat within 1/2 +- beta / ln ln t, still +- {band:.2g} at 2^53, and this "
                "matrix has pairs of two non-winners that close to 1/2; a run that has compared one of them often "
                "enough plays it at almost every slot from then on. In theory the band shrinks to 0 and ECW-RMED is "
                f"logarithmic; at every horizon a computer reaches, most runs are not. "
                f"{slope_against_bounds(n, panel, 'dts')}: of a lower order than ECW-RMED's regret")
    return Reason(FORCED, FORCED_BAND_DOC, text)


def ecw_rmed_sweeps(panel: str) -> Reason:
    """C5 at T = 2**53 where a sweep of ECW-RMED's forced exploration falls in the window of C5's slopes."""
    def text(n: Numbers) -> str:
        """The cost of a sweep against D-TS's regret, where the last sweep falls, and the window slope without it."""
        row = sweep_row(n, panel)
        where = "falls in" if row["in_c5_window"] else "misses"
        return (f"each time 3 sqrt(ln t) passes an integer ECW-RMED's step 1 compares every pair once more; at K = "
                f"{row['K']} such a sweep costs its logarithmic runs {row['ecw_rmed_sweep_median']:.3g} regret "
                f"(median; the smallest {row['ecw_rmed_sweep_smallest']:.3g}) within K (K - 1) / 2 slots, where "
                f"D-TS loses at most {row['dts_same_interval_largest']:.3g}, and {row['dts_last_decade']:.3g} over "
                f"the whole last decade. The last sweep before 2^53, at t = {row['last_sweep']:.2g}, {where} the "
                f"window [T / 10^0.5, T] of C5's slopes; taken off every run, it leaves ECW-RMED's slope over that "
                f"window at {row['ecw_rmed_window_slope_without_sweep']:.3g}, against D-TS's "
                f"{row['dts_window_slope']:.3g}. Sweeps come ever more rarely (their cost per ln t falls like "
                "1 / sqrt(ln t)), so they do not change ECW-RMED's asymptotic slope: C5 fails at this horizon, "
                "not in the limit")
    return Reason(FORCED, SWEEPS_DOC, text)


ASYMPTOTIC_REASONS: dict[tuple[str, str], Reason] = {
    **{("A1", site(ASYMPTOTIC, panel)): partner_not_winner(panel, "dts") for panel in PARTNER_PANELS},
    **{("A1", site(ASYMPTOTIC, panel)): superior_duels(panel) for panel in A1_SUPERIOR_PANELS},
    **{("A2", site(ASYMPTOTIC, panel, "rmed2")): rmed2_sign(panel) for panel in CONDORCET_PANELS},
    ("A2", site(ASYMPTOTIC, "cyclic", "RMED2 (paper)")): rmed2_trapped_partner("cyclic"),
    **{("A2", site(ASYMPTOTIC, panel, "RMED2 (paper)")): below_bound(panel, "RMED2 (paper)")
       for panel in RMED2_BELOW_BOUND_PANELS},
    **{("A2", site(ASYMPTOTIC, panel, "RMED2 (paper)")): rmed2_at_winner_constant(panel)
       for panel in RMED2_AT_WINNER_PANELS},
    **{("A3", site(ASYMPTOTIC, panel)): limits_apart_by_noise(panel) for panel in A3_NOISE_PANELS},
    **{("A4", site(ASYMPTOTIC, panel)): from_below(panel) for panel in CONDORCET_PANELS},
    **{("A5", site(ASYMPTOTIC, panel)): superior_duels(panel) for panel in A5_SUPERIOR_PANELS},
    **{("A7", site(ASYMPTOTIC, panel, "other")): superiors_tied(panel) for panel in A7_TIED_PANELS},
    **{("A7", site(ASYMPTOTIC, panel, "superior")): superior_unresolved(panel) for panel in A7_UNRESOLVED_PANELS},
    **{("C5", site(ASYMPTOTIC, panel)): constant_swamped(panel) for panel in SWAMPED_PANELS},
    ("C5", site(ASYMPTOTIC, "sushi")): ecw_rmed_slope("sushi"),
    **{("C5", site(ASYMPTOTIC, panel)): ecw_rmed_trapped(panel) for panel in FORCED_BAND_PANELS},
    **{("C5", site(ASYMPTOTIC, panel)): ecw_rmed_sweeps(panel) for panel in SWEEP_PANELS},
    **{("C5", site(ASYMPTOTIC, panel)): order_and_factor(ASYMPTOTIC, panel, "rmed1", "dts", "much smaller constant")
       for panel in CONSTANT_FACTOR_PANELS},
}
