"""Why a verdict is not "holds": one table keyed by (claim, site), read by ``reproduce/report.py`` together with
each study's own (``reproduce.studies.study.Study.reasons``; ``reporting.claims_report.EVERY_REASON``).

Every row of a claims table whose verdict is not "holds" has an entry in ``REASONS`` or its study's under its claim
label and its site (``reproduce.claims.verdict.Site``: "<figure stem>:<panel key>", and "/<curve>"; stable under a
panel's retitling or reordering).  ``tests/figures_claims/test_verdict_reasons.py`` checks this for every committed
claims table, and that every entry is used and links to a heading of ``docs/``.  An entry names a category
(``CATEGORIES``), the section of ``docs/`` that explains it, and a short text; a text that cites a number computes
it from the figure tables the report reads (``Numbers``, which finds a panel's rows by its id, their ``panel_id``),
so that it follows the stored runs.
"""

import math
from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd

from dts_reproduction.reproduce.claims.registry import FIG1, FIG2, FIG3, FIG4
from dts_reproduction.reproduce.claims.verdict import (
    CLEAR_FACTOR,
    COMPARABLE_FACTOR,
    HOLDS,
    NOISE_SE,
    Estimate,
)

# The categories, in the order the report's summary lists them: first where the paper and its data disagree.
CONCEDED = "the paper's own text concedes it"
DATA_VS_TEXT = "the paper's data disagree with its text"
HEAVY_TAIL = "a heavy tail"
OPEN_SETTING = "a setting the paper leaves open"
NOISE = "noise: a false verdict expected across the checks"
WORD_AS_FACTOR = "a word of the paper read as a factor"
LATER_CLAIM = "a later paper's claim, against an exact D-TS"
STILL_EXPLORING = "a horizon at which D-TS is still exploring"
PARTNER = "the winner is not every arm's optimal partner"
RMED2_SIGN = "the authors' RMED2 reverses the sign of its partner score"
FROM_BELOW = "the slope approaches its limit from below"
SUPERIOR = "Theorem 2's second part: duels with strongest superiors"
RMED2_ANYTIME = "the anytime RMED2 is not the RMED2FH that is proven optimal"
ASSUMPTION2 = "Theorem 2's Assumption 2 fails or nearly fails on the matrix"
FORCED = "ECW-RMED's forced exploration, not its slope"
UNRESOLVED_ORDER = "an order the runs do not resolve"
ORDER_NOT_CONSTANT = "a theorem that bounds the order of the regret, not its constant"
TRANSIENT = "a successor still in its transient at the paper's horizon"
WEAK_TOO = "another algorithm's weak regret stops growing too"
OUTSIDE_SETTING = "a bound checked outside the setting it is proven for"
ESTIMATES = "a program solved on estimates, short of its limit at the horizon"
BEATEN = "a successor does better: the claim is false on this matrix"
CATEGORIES = (DATA_VS_TEXT, CONCEDED, HEAVY_TAIL, OPEN_SETTING, NOISE, WORD_AS_FACTOR, LATER_CLAIM, STILL_EXPLORING,
              PARTNER, SUPERIOR, ASSUMPTION2, RMED2_SIGN, RMED2_ANYTIME, FROM_BELOW, FORCED, UNRESOLVED_ORDER,
              ORDER_NOT_CONSTANT, TRANSIENT, WEAK_TOO, OUTSIDE_SETTING, ESTIMATES, BEATEN)

VERDICTS_DOC = "docs/verdicts.md"
FACTOR_DOC = f"{VERDICTS_DOC}#reading-words-as-factors"
NOISE_DOC = f"{VERDICTS_DOC}#false-verdicts-expected-from-noise"
TAIL_DOC = f"{VERDICTS_DOC}#heavy-tails"
CONCEDED_DOC = f"{VERDICTS_DOC}#what-the-paper-concedes"
SUSHI_DOC = f"{VERDICTS_DOC}#sushi-ecw-rmed-far-above-rmed1"
MSLR5_NC = "mslr5_noncondorcet"


class Numbers:
    """The figure tables a reason text computes its numbers from: the ``_final.csv`` tables ({stem: table}), the
    claims table of the report (every row, C19 included), and the further tables the studies declare
    (``reproduce.studies.study.Study.tables``; ``table``), {suffix: {stem: table}}.  Each row of a figure table
    carries its panel's id (``panel_id``, as the report reads the tables: ``reporting.claims_report.with_panel_id``); a
    ``panel`` argument below is that id."""

    def __init__(self, finals: dict[str, pd.DataFrame], claims: pd.DataFrame,
                 tables: dict[str, dict[str, pd.DataFrame]] | None = None):
        """Keep the tables."""
        self.finals = finals
        self.claims = claims
        self.tables = tables or {}

    def table(self, suffix: str, stem: str) -> pd.DataFrame | None:
        """The table ``<stem><suffix>`` of those a study declares (``Study.tables``); None if it was not read."""
        return self.tables.get(suffix, {}).get(stem)

    def row(self, stem: str, panel: str, algorithm: str) -> pd.Series:
        """The final-regret row of ``algorithm`` on the panel ``panel`` of figure ``stem``."""
        table = self.finals[stem]
        return table[(table["panel_id"] == panel) & (table["algorithm"] == algorithm)].iloc[0]

    def final(self, stem: str, panel: str, algorithm: str) -> Estimate:
        """R(T) of a curve: mean and standard error over its runs."""
        row = self.row(stem, panel, algorithm)
        return Estimate(float(row["mean_final_regret"]), float(row["sem_final_regret"]))

    def label(self, stem: str, panel: str, algorithm: str) -> str:
        """The legend label of a curve."""
        return str(self.row(stem, panel, algorithm)["label"])

    def ratio(self, stem: str, panel: str, high: str, low: str) -> float:
        """R(T) of ``high`` over R(T) of ``low``."""
        return self.final(stem, panel, high).value / self.final(stem, panel, low).value

    def distance(self, stem: str, panel: str, a: str, b: str) -> float:
        """|R_a(T) - R_b(T)| in standard errors of the difference."""
        x, y = self.final(stem, panel, a), self.final(stem, panel, b)
        return abs(x.value - y.value) / math.hypot(x.se, y.se)

    def spread(self, stem: str, panel: str, algorithm: str) -> float:
        """The standard deviation of R(T) over the runs, over its mean."""
        row = self.row(stem, panel, algorithm)
        return float(row["std_final_regret"] / row["mean_final_regret"])

    def checks(self, claim: str) -> int:
        """How many rows check the claim label ``claim`` (e.g. "C1")."""
        return int((self.claims["claim"] == claim).sum())

    def claims_holding(self, claim: str) -> int:
        """How many rows of the claim label ``claim`` hold."""
        return int(((self.claims["claim"] == claim) & (self.claims["verdict"] == HOLDS)).sum())


@dataclass(frozen=True)
class Reason:
    """Why a verdict is not "holds": its category, the docs section that explains it
    (``docs/<file>.md#<heading anchor>``) and a text computed from the figure tables."""

    category: str
    anchor: str
    text: Callable[[Numbers], str]


def false_verdict_share(checks: int) -> float:
    """The probability that at least one of ``checks`` independent true "indistinguishable" checks is called
    FAILS by the NOISE_SE rule (two-sided normal tail)."""
    return 1.0 - (1.0 - math.erfc(NOISE_SE / math.sqrt(2.0))) ** checks


def order_and_factor(stem: str, panel: str, high: str, low: str, word: str, factor: float = CLEAR_FACTOR) -> Reason:
    """A factor read from a word of the paper (``word``: "much", CLEAR_FACTOR, or "slightly", COMPARABLE_FACTOR),
    checked on the R(T) of ``high`` against ``low``: the measured ratio and how far the order is from the
    noise."""
    def text(n: Numbers) -> str:
        """The ratio of the two curves and the distance of their order in standard errors."""
        return (f"{n.label(stem, panel, high)} is {n.ratio(stem, panel, high, low):.2f}x "
                f"{n.label(stem, panel, low)}, {n.distance(stem, panel, high, low):.0f} standard errors apart: the "
                f"order holds; \"{word}\" is read with the factor x{factor:g}")
    return Reason(WORD_AS_FACTOR, FACTOR_DOC, text)


def sushi_ecw_rmed(n: Numbers) -> str:
    """Sushi: ECW-RMED against RMED1, with the spread of its runs."""
    panel = "sushi"
    return (f"ECW-RMED {n.final(FIG3, panel, 'ecw_rmed')} against RMED1 {n.final(FIG3, panel, 'rmed1')} "
            f"({n.ratio(FIG3, panel, 'ecw_rmed', 'rmed1'):.1f}x), the standard deviation of its runs "
            f"{n.spread(FIG3, panel, 'ecw_rmed'):.0%} of its mean (RMED1 {n.spread(FIG3, panel, 'rmed1'):.0%}): "
            "ECW-RMED spends most of its regret on pairs of two non-winners, and near ties with its as-run "
            "confidence pre-check add a heavy tail; the 3-decimal matrix of the source data and a perturbed exact "
            "1/2 pair give the same, so the paper's \"slightly worse\" is not what its data give")


def heavy_tail(stem: str, panel: str, other: str, tailed: str = "ecw_rmed") -> Reason:
    """The heavy-tailed R(T) of ``tailed`` (ECW-RMED unless named) on ``panel`` against ``other``."""
    def text(n: Numbers) -> str:
        """The tailed curve's STD over mean against the other curve's, and their distance in standard errors."""
        return (f"{n.label(stem, panel, tailed)}'s R(T) has a standard deviation of "
                f"{n.spread(stem, panel, tailed):.0%} of its mean ({n.label(stem, panel, other)}: "
                f"{n.spread(stem, panel, other):.0%}), which makes its mean uncertain; the means are "
                f"{n.distance(stem, panel, tailed, other):.1f} standard errors apart")
    return Reason(HEAVY_TAIL, TAIL_DOC, text)


def c1_noise(n: Numbers) -> str:
    """C1 on StrongBorda: one false FAILS among the C1 checks is expected."""
    checks = n.checks("C1")
    share = false_verdict_share(checks)
    return (f"D-TS and D-TS+ are {n.distance(FIG3, 'strong_borda', 'dts', 'dts_plus'):.1f} standard errors "
            f"apart; with {checks} checks of \"indistinguishable\" at {NOISE_SE:g} standard errors, at least one "
            f"false FAILS is expected in {share:.0%} of reproductions (about 1 in {1 / share:.0f})")


def c6_arxiv(n: Numbers) -> str:
    """C6 on ArXiv: a slight difference the runs cannot resolve."""
    panel = "arxiv"
    return (f"ECW-RMED is {n.ratio(FIG3, panel, 'ecw_rmed', 'rmed1'):.2f}x RMED1, "
            f"{n.distance(FIG3, panel, 'ecw_rmed', 'rmed1'):.1f} standard errors apart: \"slightly worse\" is "
            "smaller than the noise of the runs")


def c12_k16(n: Numbers) -> str:
    """C12 on MSLR K = 16: the curves meet at the horizon, where the paper says ECW-RMED may catch up."""
    panel = "mslr16_noncondorcet"
    return (f"ECW-RMED and D-TS+ are {n.distance(FIG4, panel, 'ecw_rmed', 'dts_plus'):.1f} standard errors apart "
            "at T = 5e6; App. D.2.2 says ECW-RMED, asymptotically better, \"could outperform D-TS+\" and names "
            "5e6 as the horizon up to which D-TS+ may still be better, so the curves meeting there is what it "
            "allows")


def c19_conceded(n: Numbers) -> str:
    """C19 on Non-Condorcet Cyclic: App. D says D-TS is worse than ECW-RMED there."""
    panel = "nc_cyclic"
    return (f"ECW-RMED {n.final(FIG4, panel, 'ecw_rmed')} is below both D-TS variants "
            f"({n.ratio(FIG4, panel, 'dts_plus', 'ecw_rmed'):.1f}x for D-TS+), as App. D itself says for this "
            "dataset (C11): the summary's \"better or comparable\" cannot hold here")


def fig2_normalisation(n: Numbers) -> str:
    """C15a: D-TS+'s normalised STD against the paper's 13.16% (the numbers are Fig. 2's, in the row)."""
    return ("the paper does not say what D-TS+'s 13.16% regret STD is normalised by (ECW-RMED's mean or its own); "
            "the closer of the two readings (in the row) is at the x1.5 threshold of \"about\" within the noise")


def c5_k32_slope(n: Numbers) -> str:
    """C5 on MSLR K = 32 Condorcet: the constant is much smaller, only the slope ratio is at its threshold."""
    panel = "mslr32_condorcet"
    return (f"RMED1's and ECW-RMED's R(T) are {n.ratio(FIG3, panel, 'rmed1', 'dts'):.1f}x and "
            f"{n.ratio(FIG3, panel, 'ecw_rmed', 'dts'):.1f}x D-TS's (\"a much smaller constant\" holds); "
            "ECW-RMED's slope over the last half decade is at the x1.5 limit of \"about the same slope\" within "
            "the noise (the slopes are in the row)")


def c7_g2w(n: Numbers) -> str:
    """C7 under G2W regret: SAVAGE's slope against RMED1's."""
    return ("SAVAGE's G2W slope is below RMED1's (in the row); \"approaches\" is read as within x1.5, and the "
            "ratio is at that threshold within the noise")


SUSHI = Reason(DATA_VS_TEXT, SUSHI_DOC, sushi_ecw_rmed)


def site(stem: str, panel: str, curve: str = "") -> str:
    """The site id of a row (``reproduce.claims.verdict.Site``): figure ``stem``, panel key ``panel``, and a curve."""
    return f"{stem}:{panel}" + (f"/{curve}" if curve else "")


REASONS: dict[tuple[str, str], Reason] = {
    ("C1", site(FIG3, "strong_borda")): Reason(NOISE, NOISE_DOC, c1_noise),
    ("C2", site(FIG3, "cyclic")): order_and_factor(FIG3, "cyclic", "rmed1", "dts_plus", "much better"),
    ("C2", site(FIG3, "sushi")): order_and_factor(FIG3, "sushi", "rmed1", "dts", "much better"),
    ("C5", site(FIG3, "cyclic")): order_and_factor(FIG3, "cyclic", "rmed1", "dts", "much smaller constant"),
    ("C5", site(FIG3, "sushi")): SUSHI,
    ("C5", site(FIG3, "mslr32_condorcet")): Reason(WORD_AS_FACTOR, FACTOR_DOC, c5_k32_slope),
    ("C6", site(FIG3, "arxiv")): Reason(NOISE, NOISE_DOC, c6_arxiv),
    ("C6", site(FIG3, "sushi")): SUSHI,
    ("C6", site(FIG3, "mslr32_condorcet")): order_and_factor(FIG3, "mslr32_condorcet", "ecw_rmed", "rmed1",
                                                             "slightly worse", COMPARABLE_FACTOR),
    ("C7", site(FIG3, "strong_borda")): order_and_factor(FIG3, "strong_borda", "ecw_rmed", "dts_plus",
                                                         "does not do well"),
    ("C7", site(FIG3, "strong_borda:g2w")): Reason(WORD_AS_FACTOR, FACTOR_DOC, c7_g2w),
    ("C8", site(FIG4, "mslr32_noncondorcet")): order_and_factor(FIG4, "mslr32_noncondorcet", "rmed1", "dts", "large"),
    ("C9", site(FIG4, "nc_cyclic")): order_and_factor(FIG4, "nc_cyclic", "scb", "dts", "much better"),
    ("C9", site(FIG4, "nc_strong_borda")): heavy_tail(FIG4, "nc_strong_borda", "dts", "scb"),
    ("C10(iii)", site(FIG1, MSLR5_NC)): heavy_tail(FIG1, MSLR5_NC, "dts_plus"),
    ("C12", site(FIG4, "mslr16_noncondorcet")): Reason(CONCEDED, CONCEDED_DOC, c12_k16),
    ("C12", site(FIG4, "mslr32_noncondorcet")): heavy_tail(FIG4, "mslr32_noncondorcet", "dts_plus"),
    ("C15a", site(FIG2, MSLR5_NC)): Reason(OPEN_SETTING, "docs/harness.md#regret", fig2_normalisation),
    ("C19", site(FIG3, "cyclic")): heavy_tail(FIG3, "cyclic", "dts_plus", "scb"),
    ("C19", site(FIG3, "sushi")): order_and_factor(FIG3, "sushi", "rmed1", "dts", "significantly"),
    ("C19", site(FIG4, "nc_strong_borda")): heavy_tail(FIG4, "nc_strong_borda", "dts_plus", "scb"),
    ("C19", site(FIG4, "mslr32_noncondorcet")): order_and_factor(FIG4, "mslr32_noncondorcet", "rmed1", "dts_plus",
                                                                 "significantly"),
    ("C19", site(FIG4, "nc_cyclic")): Reason(CONCEDED, CONCEDED_DOC, c19_conceded),
}
