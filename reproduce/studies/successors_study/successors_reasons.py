"""Why the successors study's checks that do not hold do not (its ``Study.reasons``, attached in
``successors_report``): each entry a ``reproduce.claims.reasons.Reason`` keyed by (claim label, site id), its text
computing its numbers from the study's final table (``successors_tables.final_rows``), its long-line table
(``successors_tables.long_rows``) and the asymptotic study's final table, so that it follows the stored runs.  The
sections it links to are in docs/successors.md; the matrices each reason is written for are listed here, and
``tests/figures_claims/test_verdict_reasons.py`` checks that every non-holding row has one and every one is used."""

import math

import numpy as np

from dts_reproduction.algorithms.cw_rmed_program import program_constant
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.claims.reasons import (
    BEATEN,
    CONCEDED,
    CONCEDED_DOC,
    ESTIMATES,
    HEAVY_TAIL,
    LATER_CLAIM,
    NOISE,
    NOISE_DOC,
    ORDER_NOT_CONSTANT,
    OUTSIDE_SETTING,
    PARTNER,
    STILL_EXPLORING,
    TRANSIENT,
    UNRESOLVED_ORDER,
    WEAK_TOO,
    Numbers,
    Reason,
)
from dts_reproduction.reproduce.claims.registry import ASYMPTOTIC, SUCCESSORS
from dts_reproduction.reproduce.claims.verdict import Estimate, ratio_of
from dts_reproduction.reproduce.studies.successors_study.successors_claims import weighted_slope
from dts_reproduction.reproduce.studies.successors_study.successors_panels import PUBLISHED

DOC = "docs/successors.md"
LATER_DOC = f"{DOC}#successors-that-never-ran-against-d-ts"
PARTNER_DOC = f"{DOC}#strongborda-c2b-below-d-ts"
ORDER_DOC = f"{DOC}#c2b-the-order-of-its-bound-not-its-constant"
TRANSIENT_DOC = f"{DOC}#versatile-db-still-in-its-transient"
UNRESOLVED_DOC = f"{DOC}#orders-the-runs-do-not-resolve"
REX3_DOC = f"{DOC}#rex3-without-a-condorcet-winner"
WEAK_DOC = f"{DOC}#rmed1s-weak-regret-stops-growing-too"
CW_RMED_DOC = f"{DOC}#cw-rmed-short-of-its-theorems-constant"
TRAPPED_DOC = f"{DOC}#cw-rmed-trapped-on-arxivs-tie"
HEAVY_TAIL_DOC = f"{DOC}#heavy-tails-without-a-condorcet-winner-on-mslr-k5"
LONG = "_long.csv"


def row(n: Numbers, panel: str, algorithm: str):
    """The study's final-table row of ``algorithm`` on the panel ``panel`` (its matrix)."""
    table = n.finals[SUCCESSORS]
    return table[(table["panel_id"] == panel) & (table["algorithm"] == algorithm)].iloc[0]


def estimate(n: Numbers, panel: str, algorithm: str, metric: str = "copeland") -> Estimate:
    """R(T) (``metric`` "copeland") or the weak regret ("weak") of ``algorithm`` on ``panel``: mean and standard
    error over its runs."""
    found = row(n, panel, algorithm)
    return Estimate(float(found[f"{metric}_regret"]), float(found[f"{metric}_se"]))


def ratio_text(panel: str, high: str, low: str, tail):
    """A reason text: R(T) of ``high`` against ``low`` on ``panel`` and their ratio, then ``tail(n)``."""
    def text(n: Numbers) -> str:
        """The two regrets at T, their ratio and the tail."""
        x, y = estimate(n, panel, high), estimate(n, panel, low)
        return (f"{row(n, panel, high)['label']} {x} against {row(n, panel, low)['label']} {y} at T: "
                f"{ratio_of(x, y)}x; {tail(n)}")
    return text


# What the paper's App. D concedes to ECW-RMED, per matrix (claims C11 and C12).
ECW_RMED_CONCESSIONS = {
    "nc_cyclic": "the paper's App. D says ECW-RMED does better than D-TS here (claim C11, Fig. 4)",
    "mslr16_noncondorcet": "the paper's App. D.2.2 says ECW-RMED, asymptotically better, \"could outperform D-TS+\" "
                           "here and names 5e6 as the horizon up to which D-TS+ may still be better (claim C12)"}


def conceded_ecw_rmed(panel: str) -> Reason:
    """S2 where ECW-RMED is not clearly above D-TS+: the paper's App. D concedes it for this matrix
    (ECW_RMED_CONCESSIONS)."""
    return Reason(CONCEDED, CONCEDED_DOC, ratio_text(panel, "dts_plus", "ecw_rmed",
                                                     lambda _n: ECW_RMED_CONCESSIONS[panel]))


def slope_text(n: Numbers, panel: str, algorithm: str) -> str:
    """``algorithm``'s slope per ln t over the last decade on ``panel`` (the final table's), as "value +- se"."""
    found = row(n, panel, algorithm)
    return f"{Estimate(float(found['slope_last_decade']), float(found['slope_se']))}"


def lower_and_flatter(panel: str, reference: str, other: str) -> Reason:
    """S1/S2 where ``other`` is below ``reference`` at T and its slope over the last decade is lower too: the claim is
    false on this matrix, not a transient."""
    def tail(n: Numbers) -> str:
        """Both slopes."""
        return (f"its slope per ln t over the last decade {slope_text(n, panel, other)} is below "
                f"{row(n, panel, reference)['label']}'s {slope_text(n, panel, reference)} as well, so the gap is not "
                "closing at T")
    return Reason(BEATEN, DOC + "#successors-below-d-ts", ratio_text(panel, reference, other, tail))


def lower_not_flatter(panel: str, reference: str, other: str) -> Reason:
    """S1/S2 where ``other`` is below ``reference`` at T but its slope over the last decade is not below (above it, or
    within 2 standard errors of it): a lead the reference is no longer losing ground to at the paper's horizon.
    ValueError when rendered on a slope clearly below (then ``lower_and_flatter`` is the reason)."""
    def tail(n: Numbers) -> str:
        """Both slopes and how they compare."""
        ours, theirs = row(n, panel, other), row(n, panel, reference)
        gap = float(ours["slope_last_decade"]) - float(theirs["slope_last_decade"])
        spread = 2.0 * math.hypot(float(ours["slope_se"]), float(theirs["slope_se"]))
        if gap < -spread:
            raise ValueError(f"{panel}/{other}: its slope is clearly below {reference}'s: lower_and_flatter applies")
        relation = "is above" if gap > spread else "is within 2 standard errors of"
        return (f"but its slope per ln t over the last decade {slope_text(n, panel, other)} {relation} "
                f"{theirs['label']}'s {slope_text(n, panel, reference)}: a lead won early, which "
                f"{theirs['label']} is no longer losing ground to at T")
    return Reason(STILL_EXPLORING, DOC + "#successors-below-d-ts", ratio_text(panel, reference, other, tail))


def near_threshold(panel: str, reference: str, other: str) -> Reason:
    """A "FAILS" barely past the rule's 2 standard errors, with equal slopes over the last decade: noise."""
    def text(n: Numbers) -> str:
        """The distance of the two regrets in standard errors and both slopes."""
        x, y = estimate(n, panel, reference), estimate(n, panel, other)
        distance = abs(x.value - y.value) / math.hypot(x.se, y.se)
        return (f"{row(n, panel, reference)['label']} {x} against {row(n, panel, other)['label']} {y} at T: "
                f"{distance:.1f} standard errors apart, just past the rule's 2; their slopes per ln t over the last "
                f"decade {slope_text(n, panel, reference)} and {slope_text(n, panel, other)} agree within the noise, "
                "so the two grow alike here, and one check in about forty lands this far out by chance")
    return Reason(NOISE, NOISE_DOC, text)


def later_claim(panel: str, algorithm: str) -> Reason:
    """S6/S7: a successor above the lowest of the algorithms published before it (``PUBLISHED``; its claim over "the
    existing" algorithms is decided against them, D-TS included): its regret, that one's and the factor."""
    def text(n: Numbers) -> str:
        """The regrets at T of the successor and of the lowest earlier algorithm, and their ratio."""
        table = n.finals[SUCCESSORS]
        rows = table[table["panel_id"] == panel]
        earlier = rows[rows["algorithm"].map(lambda name: PUBLISHED[name] < PUBLISHED[algorithm])]
        lowest = str(earlier.loc[earlier["copeland_regret"].idxmin(), "algorithm"])
        return ratio_text(panel, algorithm, lowest, lambda _n: "its abstract's claim over the existing algorithms "
                                                               "is decided here against every earlier one, D-TS "
                                                               "included")(n)
    return Reason(LATER_CLAIM, LATER_DOC, text)


def c2b_below_dts(panel: str) -> Reason:
    """S1 on StrongBorda: C2B below D-TS, whose slope tends to the winner constant C_w, not to C (claim A5); C2B's slope
    on its long lines beside both."""
    def text(n: Numbers) -> str:
        """The two regrets, C_w and C from the asymptotic study, and C2B's long-line slope."""
        c2b, dts = estimate(n, panel, "c2b"), estimate(n, panel, "dts")
        found = asymptotic_row(n, panel, "dts")
        slope, _bound = long_fit(n, panel)
        return (f"C2B {c2b} below D-TS {dts} at T; D-TS learns every arm against the Condorcet winner, whose winner "
                f"constant C_w = {found['winner_constant']:.3g} is "
                f"{found['winner_constant'] / found['lower_bound_slope']:.1f}x C = {found['lower_bound_slope']:.3g} "
                f"here (claim A5), while C2B eliminates an arm by any arm that beats it clearly: its slope on its long "
                f"lines is {slope}, {'below' if slope.value < found['winner_constant'] else 'not below'} C_w")
    return Reason(PARTNER, PARTNER_DOC, text)


def long_fit(n: Numbers, panel: str) -> tuple[Estimate, float]:
    """C2B's slope per ln T fitted to its long lines on ``panel`` (``successors_claims.weighted_slope``, from the
    long-line table) and the bound C of the matrix."""
    long = n.table(LONG, SUCCESSORS)
    rows = long[(long["panel_id"] == panel) & (long["algorithm"] == "c2b")]
    return (weighted_slope(rows["horizon"], rows["regret"], rows["regret_se"]),
            float(rows["lower_bound_slope"].iloc[0]))


def c2b_order(panel: str) -> Reason:
    """S4: C2B's slope far from C: its theorem bounds the order (Hoeffding confidence at level 1 / (K^2 T)), not the
    constant."""
    def text(n: Numbers) -> str:
        """The fitted slope and C, and their ratio."""
        slope, bound = long_fit(n, panel)
        return (f"slope per ln T of the long lines {slope} against C = {bound:.3g}: {slope.value / bound:.1f}x C; "
                "C2B's theorem bounds the order of its regret (K log T), not its constant")
    return Reason(ORDER_NOT_CONSTANT, ORDER_DOC, text)


def long_decades(n: Numbers, panel: str, algorithm: str):
    """The long-line table's rows of ``algorithm`` ("cw_rmed", "cw_rmed_true") on ``panel``, indexed by T."""
    long = n.table(LONG, SUCCESSORS)
    return long[(long["panel_id"] == panel) & (long["algorithm"] == algorithm)].set_index("horizon")


def five_decade_slope(rows) -> float:
    """(R(1e15) - R(1e10)) / ln 1e5 from a long line's decade rows (its mean regret)."""
    return float((rows.loc[10**15, "regret"] - rows.loc[10**10, "regret"]) / math.log(1e5))


def cw_rmed_estimates(panel: str) -> Reason:
    """S11: CW-RMED's slope above C*(P) while its yardstick with the program on the true matrix reaches it: the
    excess is what the program solved on the estimates costs, not yet gone at 1e15."""
    def text(n: Numbers) -> str:
        """CW-RMED's and its yardstick's slopes from 1e10 to 1e15 against C*(P)."""
        own, true = long_decades(n, panel, "cw_rmed"), long_decades(n, panel, "cw_rmed_true")
        target = program_constant(load_dataset(str(own["dataset"].iloc[0])).P)
        return (f"slope per ln T from 1e10 to 1e15 {five_decade_slope(own):.1f} against C*(P) = {target:.3g}; with "
                f"its program solved on the true matrix (its confidence test and lists still on the data) "
                f"{five_decade_slope(true):.1f} (fitted per run: the measured column): the lists reach C*(P), the "
                "program solved on the estimates costs the rest, and that cost has not died out by 1e15")
    return Reason(ESTIMATES, CW_RMED_DOC, text)


def cw_rmed_tie(panel: str) -> Reason:
    """S11 on a matrix with a tied pair, which the theorem excludes: C*(P) leaves the pair out and falls below the
    bound C every uniformly good algorithm obeys; even the yardstick with the true program stays at C."""
    def text(n: Numbers) -> str:
        """The tie, C*(P) against C, and both slopes."""
        own, true = long_decades(n, panel, "cw_rmed"), long_decades(n, panel, "cw_rmed_true")
        P = load_dataset(str(own["dataset"].iloc[0])).P
        ties = int(((P == 0.5) & ~np.eye(len(P), dtype=bool)).sum() // 2)
        return (f"{ties} pair(s) at exactly 1/2, which Komiyama et al.'s theorem excludes: C*(P) = "
                f"{program_constant(P):.4g} leaves them out and lies below the lower bound C = "
                f"{float(own['lower_bound_slope'].iloc[0]):.4g} of every uniformly good algorithm; slope per ln T from "
                f"1e10 to 1e15 {five_decade_slope(own):.1f}, and {five_decade_slope(true):.1f} with the program on the "
                "true matrix: at C, not at C*(P)")
    return Reason(OUTSIDE_SETTING, CW_RMED_DOC, text)


def c2b_heavy_tail(panel: str) -> Reason:
    """S4 where the runs cannot resolve the slope: their spread, several times their mean (a few runs carry it)."""
    def text(n: Numbers) -> str:
        """The fitted slope, and the largest spread over the mean among the long lines."""
        long = n.table(LONG, SUCCESSORS)
        rows = long[(long["panel_id"] == panel) & (long["algorithm"] == "c2b")]
        spread = (rows["regret_se"] * rows["runs"].map(math.sqrt) / rows["regret"]).max()
        slope, bound = long_fit(n, panel)
        return (f"slope per ln T of the long lines {slope} against C = {bound:.3g}; the runs of a long line spread up "
                f"to {spread:.1f}x their mean: a few runs carry most of the regret, and the fit cannot resolve the "
                "slope")
    return Reason(HEAVY_TAIL, ORDER_DOC, text)


def asymptotic_row(n: Numbers, panel: str, algorithm: str):
    """The asymptotic study's final-table row of ``algorithm`` on the matrix ``panel`` (its slope at T = 2^53 over C
    and the winner constant C_w)."""
    table = n.finals[ASYMPTOTIC]
    return table[(table["panel_id"] == panel) & (table["algorithm"] == algorithm)].iloc[0]


def c2b_against_rmed1(panel: str) -> Reason:
    """S9: C2B several times RMED1 at T; on its long lines its slope per ln T is a larger multiple of C than RMED1's
    own slope at T = 2^53 (the asymptotic study): the factor is in the constants, and T does not close it."""
    def tail(n: Numbers) -> str:
        """C2B's long-line slope against C, beside RMED1's at 2^53 and C_w."""
        slope, bound = long_fit(n, panel)
        rmed = asymptotic_row(n, panel, "rmed1")
        return (f"C2B's slope per ln T on its long lines {slope} = {slope.value / bound:.1f}x C (claim S4), RMED1's at "
                f"T = 2^53 {rmed['slope_last_decade']:.3g} = {rmed['slope_over_bound']:.1f}x C, the winner constant "
                f"C_w = {rmed['winner_constant']:.3g}: C2B's constant is the larger, and growing T does not close the "
                "gap")
    return Reason(ORDER_NOT_CONSTANT, ORDER_DOC, ratio_text(panel, "c2b", "rmed1", tail))


def versatile_transient(panel: str) -> Reason:
    """S3: Versatile-DB's slope per ln t still growing over the last decade: its slopes over the last two decades."""
    def text(n: Numbers) -> str:
        """The two decade slopes and their ratio."""
        versatile = row(n, panel, "versatile_db")
        last, before = float(versatile["slope_last_decade"]), float(versatile["slope_decade_before"])
        return (f"Versatile-DB's slope per ln t: {before:.4g} over the decade before the last, {last:.4g} over the "
                f"last ({last / before:.2f}x): at T = {versatile['horizon']:.0e} its regret has not yet reached the "
                "logarithmic regime of its bound")
    return Reason(TRANSIENT, TRANSIENT_DOC, text)


def unresolved(panel: str, reference: str, other: str, metric: str = "weak") -> Reason:
    """A row whose two regrets are within the noise: their distance in standard errors."""
    def text(n: Numbers) -> str:
        """The two estimates and their distance."""
        x, y = estimate(n, panel, reference, metric), estimate(n, panel, other, metric)
        distance = abs(x.value - y.value) / math.hypot(x.se, y.se)
        return (f"{metric} regret at T: {row(n, panel, reference)['label']} {x}, {row(n, panel, other)['label']} {y}: "
                f"{distance:.1f} standard errors apart")
    return Reason(UNRESOLVED_ORDER, UNRESOLVED_DOC, text)


def tail_text(n: Numbers, panel: str, reference: str, other: str, metric: str = "copeland") -> str:
    """Two regrets at T (``metric``) within the noise, their distance in standard errors, and how far ``other``'s
    largest Copeland regret at T lies from its median, beside ``reference``'s median."""
    x, y = estimate(n, panel, reference, metric), estimate(n, panel, other, metric)
    distance = abs(x.value - y.value) / math.hypot(x.se, y.se)
    tailed, against = row(n, panel, other), row(n, panel, reference)
    return (f"{metric} regret at T: {against['label']} {x}, {tailed['label']} {y}: {distance:.1f} standard errors "
            f"apart; {tailed['label']}'s Copeland regret at T has median {tailed['copeland_median']:.4g} over its "
            f"{int(tailed['runs'])} runs ({against['label']}'s: {against['copeland_median']:.4g}) and largest "
            f"{tailed['copeland_max']:.4g}, {tailed['copeland_max'] / tailed['copeland_median']:.0f}x the median")


def trapped_run(panel: str, reference: str, other: str, metric: str = "copeland") -> Reason:
    """A row the runs do not resolve because ``other``'s mean is carried by a run that forced exploration traps on the
    matrix's pair at exactly 1/2: the distance in standard errors, and ``other``'s median and largest run."""
    def text(n: Numbers) -> str:
        """``tail_text`` and what carries the tail (docs: TRAPPED_DOC)."""
        return (f"{tail_text(n, panel, reference, other, metric)}: a run in which forced exploration plays the pair "
                "at exactly 1/2 at every slot carries the mean and its standard error")
    return Reason(HEAVY_TAIL, TRAPPED_DOC, text)


def heavy_tail_order(panel: str, reference: str, other: str) -> Reason:
    """S2 where ``other``'s Copeland regret at T is within the noise of ``reference``'s and a few of its runs, far
    above its median, carry its mean and standard error (HEAVY_TAIL_DOC)."""
    def text(n: Numbers) -> str:
        """``tail_text``, and what it means for the order."""
        return (f"{tail_text(n, panel, reference, other)}: a few runs carry {row(n, panel, other)['label']}'s mean and "
                "its standard error, so the order of the means is not resolved by the runs")
    return Reason(HEAVY_TAIL, HEAVY_TAIL_DOC, text)


def weak_regret_settled(panel: str, other: str) -> Reason:
    """S5 where another algorithm's weak regret is below WS-W's: it has stopped growing too (its weak regret at T/10
    and at T), at a lower level than WS-W's constant."""
    def text(n: Numbers) -> str:
        """Both weak regrets at T/10 and T."""
        ws, rival = row(n, panel, "ws_w"), row(n, panel, other)
        return (f"weak regret from T/10 to T: WS-W {ws['weak_regret_tenth']:.4g} to "
                f"{estimate(n, panel, 'ws_w', 'weak')}, {rival['label']} {rival['weak_regret_tenth']:.4g} to "
                f"{estimate(n, panel, other, 'weak')}: both have stopped growing, {rival['label']}'s at a lower level")
    return Reason(WEAK_TOO, WEAK_DOC, text)


def rex3_outside_setting(panel: str) -> Reason:
    """S10 on a matrix without a Condorcet winner: REX3's bound is for utility-based preferences, whose best arm
    beats every other; against the Copeland winners of a matrix without one its regret grows faster."""
    def text(n: Numbers) -> str:
        """The growth of R over the last decade against sqrt(10)."""
        found = n.claims[(n.claims["claim"] == "S10") & (n.claims["site"] == f"{SUCCESSORS}:{panel}/rex3")]
        return (f"{found['measured'].iloc[0]} (sqrt(10) = {math.sqrt(10.0):.2f}); REX3's O(sqrt(K ln K T)) bound is "
                "proven for utility-based preferences, whose best arm is a Condorcet winner; this matrix has none, "
                "and the regret here is Copeland regret")
    return Reason(OUTSIDE_SETTING, REX3_DOC, text)


# The matrices each reason is written for (checked against the committed claims table by the reason tests).
LATER_PANELS = {"S6": ("mslr5_condorcet", "cyclic", "strong_borda", "arxiv", "sushi", "mslr16_condorcet",
                       "mslr32_condorcet"),
                "S7": ("mslr5_condorcet", "cyclic", "strong_borda", "arxiv", "sushi", "mslr16_condorcet")}
S7_UNRESOLVED = ("mslr32_condorcet",)
S3_TRANSIENT = ("strong_borda", "mslr32_condorcet")
S10_OUTSIDE = ("nc_cyclic", "nc_strong_borda", "gap", "copeland500", "mslr32_noncondorcet")
S4_ORDER = ("mslr5_condorcet", "cyclic", "strong_borda", "arxiv", "sushi", "mslr16_condorcet")
S4_HEAVY = ("mslr32_condorcet",)
S1_UNRESOLVED = {"cyclic": "cw_rmed", "mslr32_condorcet": "ws_s"}
S5_UNRESOLVED = ("mslr5_condorcet", "cyclic", "strong_borda", "arxiv", "sushi", "mslr16_condorcet", "mslr32_condorcet")
S5_CONSTANT = {"cyclic": "rmed1"}  # S5's row of the competitor, and S7's row of WS-W, whose closest earlier it is
S7_WEAK_SETTLED = {"cyclic": "rmed1"}
S2_BEATEN = {"gap": ("cw_rmed",), "mslr16_noncondorcet": ("ws_s",), "mslr5_noncondorcet": ("ws_s",),
             "nc_cyclic": ("cw_rmed",), "mslr32_noncondorcet": ("rex3",),
             "copeland500": ("versatile_db", "ws_s", "ws_w", "rex3")}
S2_CLOSING = {"mslr16_noncondorcet": ("ws_w", "rex3"), "mslr5_noncondorcet": ("rex3",)}
S2_UNRESOLVED = {"mslr16_noncondorcet": ("versatile_db",), "mslr32_noncondorcet": ("versatile_db", "ws_s")}
S2_HEAVY_TAIL = {"mslr5_noncondorcet": ("cw_rmed", "ecw_rmed")}
S8_NOISE = ("nc_strong_borda",)
# (claim, panel, the row's algorithm, the claim's reference, the metric): rows whose order CW-RMED's trapped run hides.
TRAPPED = (("S1", "arxiv", "cw_rmed", "dts", "copeland"), ("S5", "arxiv", "cw_rmed", "ws_w", "weak"),
           ("S7", "arxiv", "ws_w", "ws_w", "weak"))
S11_ESTIMATES = ("mslr5_condorcet", "cyclic", "strong_borda")
S11_TIE = ("arxiv",)
S9_ORDER = ("mslr5_condorcet", "cyclic", "arxiv", "sushi", "mslr16_condorcet", "mslr32_condorcet")

SUCCESSORS_REASONS = {
    ("S1", f"{SUCCESSORS}:strong_borda/c2b"): c2b_below_dts("strong_borda"),
    **{("S1", f"{SUCCESSORS}:{panel}/{other}"): unresolved(panel, "dts", other, "copeland")
       for panel, other in S1_UNRESOLVED.items()},
    **{("S2", f"{SUCCESSORS}:{panel}/ecw_rmed"): conceded_ecw_rmed(panel) for panel in ECW_RMED_CONCESSIONS},
    **{("S2", f"{SUCCESSORS}:{panel}/{other}"): lower_and_flatter(panel, "dts_plus", other)
       for panel, others in S2_BEATEN.items() for other in others},
    **{("S2", f"{SUCCESSORS}:{panel}/{other}"): lower_not_flatter(panel, "dts_plus", other)
       for panel, others in S2_CLOSING.items() for other in others},
    **{("S2", f"{SUCCESSORS}:{panel}/{other}"): unresolved(panel, "dts_plus", other, "copeland")
       for panel, others in S2_UNRESOLVED.items() for other in others},
    **{("S2", f"{SUCCESSORS}:{panel}/{other}"): heavy_tail_order(panel, "dts_plus", other)
       for panel, others in S2_HEAVY_TAIL.items() for other in others},
    **{("S3", f"{SUCCESSORS}:{panel}/versatile_db"): versatile_transient(panel) for panel in S3_TRANSIENT},
    **{("S4", f"{SUCCESSORS}:{panel}/c2b"): c2b_order(panel) for panel in S4_ORDER},
    **{("S4", f"{SUCCESSORS}:{panel}/c2b"): c2b_heavy_tail(panel) for panel in S4_HEAVY},
    **{("S5", f"{SUCCESSORS}:{panel}/ws_s"): unresolved(panel, "ws_w", "ws_s") for panel in S5_UNRESOLVED},
    **{("S5", f"{SUCCESSORS}:{panel}/{other}"): weak_regret_settled(panel, other)
       for panel, other in S5_CONSTANT.items()},
    **{("S6", f"{SUCCESSORS}:{panel}/versatile_db"): later_claim(panel, "versatile_db")
       for panel in LATER_PANELS["S6"]},
    **{("S7", f"{SUCCESSORS}:{panel}/ws_s"): later_claim(panel, "ws_s") for panel in LATER_PANELS["S7"]},
    **{("S7", f"{SUCCESSORS}:{panel}/ws_s"): unresolved(panel, "dts", "ws_s", "copeland") for panel in S7_UNRESOLVED},
    **{("S7", f"{SUCCESSORS}:{panel}/ws_w"): weak_regret_settled(panel, other)
       for panel, other in S7_WEAK_SETTLED.items()},
    **{(claim, f"{SUCCESSORS}:{panel}/{algorithm}"): trapped_run(panel, reference, "cw_rmed", metric)
       for claim, panel, algorithm, reference, metric in TRAPPED},
    **{("S8", f"{SUCCESSORS}:{panel}/cw_rmed"): near_threshold(panel, "cw_rmed", "ecw_rmed") for panel in S8_NOISE},
    **{("S9", f"{SUCCESSORS}:{panel}/c2b"): c2b_against_rmed1(panel) for panel in S9_ORDER},
    **{("S10", f"{SUCCESSORS}:{panel}/rex3"): rex3_outside_setting(panel) for panel in S10_OUTSIDE},
    **{("S11", f"{SUCCESSORS}:{panel}/cw_rmed"): cw_rmed_estimates(panel) for panel in S11_ESTIMATES},
    **{("S11", f"{SUCCESSORS}:{panel}/cw_rmed"): cw_rmed_tie(panel) for panel in S11_TIE},
}
