"""reproduce/claims/reasons.py and the studies' reasons (``claims_report.EVERY_REASON``): every committed verdict that
is not "holds" has a reason, every reason is used and links to an existing docs heading, and reason texts compute their
numbers from the tables."""

import re
from pathlib import Path

import pandas as pd
import pytest

from dts_reproduction.reproduce.claims.reasons import (
    CATEGORIES,
    Numbers,
    false_verdict_share,
    order_and_factor,
)
from dts_reproduction.reproduce.claims.verdict import FAILS, HOLDS, stable_slope
from dts_reproduction.reproduce.reporting import claims_report
from dts_reproduction.reproduce.studies.asymptotic_study.asymptotic_lines import ORACLE_OPTIMAL, ORACLE_WINNER
from dts_reproduction.reproduce.studies.large_scale_study.large_scale_reasons import (
    merge_without_condorcet,
    mergedts_against_dts,
)

ROOT = Path(__file__).resolve().parents[2]
# The committed paper-scale claims tables: the defaults and the --fast reproduction.
COMMITTED = (ROOT / "figures", ROOT / "figures" / "fast")


def committed_claims() -> list[tuple[Path, pd.DataFrame]]:
    """(folder, claims table as the report builds it, C19 included) of every committed figures folder."""
    return [(folder, claims_report.claims_table(folder)) for folder in COMMITTED]


def heading_anchors(path: Path) -> set[str]:
    """The anchors GitHub gives the headings of a markdown file: lower case, punctuation but hyphens
    dropped, spaces as hyphens."""
    anchors = set()
    for line in path.read_text().splitlines():
        match = re.match(r"#+ (.*)", line)
        if match:
            anchors.add(re.sub(r"[^\w\- ]", "", match.group(1).strip().lower()).replace(" ", "-"))
    return anchors


def test_every_committed_verdict_but_holds_has_a_reason():
    missing = [(folder.name, row.claim, row.site, row.verdict) for folder, claims in committed_claims()
               for row in claims.itertuples() if claims_report.explained(row.verdict)
               and (row.claim, row.site) not in claims_report.EVERY_REASON]
    assert not missing, f"verdicts without a reason in reproduce/claims/reasons.py: {missing}"


def test_every_reason_is_used_by_a_committed_verdict():
    used = {(row.claim, row.site) for _, claims in committed_claims() for row in claims.itertuples()
            if claims_report.explained(row.verdict)}
    unused = sorted(set(claims_report.EVERY_REASON) - used)
    assert not unused, f"reasons no committed verdict needs: {unused}"


def test_every_reason_links_to_an_existing_docs_heading_and_has_a_known_category():
    for key, reason in claims_report.EVERY_REASON.items():
        path, anchor = reason.anchor.split("#")
        assert path.startswith("docs/") and (ROOT / path).is_file(), (key, reason.anchor)
        assert anchor in heading_anchors(ROOT / path), (key, reason.anchor)
        assert reason.category in CATEGORIES, key


def test_every_reason_text_renders_on_the_committed_tables():
    """The report calls each text on its folder's tables: no text may fail on them or leave a NaN."""
    for folder, claims in committed_claims():
        numbers = claims_report.numbers_of(folder, claims)
        for _, row in claims.iterrows():
            cell = claims_report.why(row, numbers, "")
            assert not re.search(r"\bnan\b", cell) and "no reason" not in cell, (folder.name, row["claim"], cell)
            assert bool(cell) == claims_report.explained(row["verdict"])


def final_table(rows):
    """A ``_final.csv`` stand-in as the report reads it: (panel id, algorithm, mean, s.e., std) rows, each panel
    titled "(a) <id>"."""
    return pd.DataFrame([{"panel": f"(a) {panel}", "panel_id": panel, "dataset": panel, "algorithm": name,
                          "label": name.upper(),
                          "mean_final_regret": mean,
                          "sem_final_regret": se, "std_final_regret": std} for panel, name, mean, se, std in rows])


def test_a_reason_text_takes_its_numbers_from_the_tables():
    """The ratio and the distance in standard errors follow the table, not a number typed into the text."""
    reason = order_and_factor("fig3_condorcet", "cyclic", "rmed1", "dts", "much better")
    for rmed1, ratio, distance in ((600.0, "1.20x", "20 standard errors"), (550.0, "1.10x", "10 standard errors")):
        finals = {"fig3_condorcet": final_table([("cyclic", "rmed1", rmed1, 3.0, 30.0),
                                                 ("cyclic", "dts", 500.0, 4.0, 40.0)])}
        text = reason.text(Numbers(finals, pd.DataFrame(columns=["claim"])))
        expected = f"RMED1 is {ratio} DTS, {distance} apart: the order holds; \"much better\" is read with the factor"
        assert expected in text


def test_false_verdict_share_over_seven_checks_is_about_one_in_four():
    assert false_verdict_share(1) == pytest.approx(0.0455, abs=1e-4)
    assert false_verdict_share(7) == pytest.approx(0.278, abs=1e-3)


def test_summary_groups_the_checks_by_reason_and_lists_the_claims_that_hold_everywhere():
    claims = pd.DataFrame([
        {"claim": "C3", "where": "Fig. 3 (a) Cyclic", "site": "fig3_condorcet:cyclic", "statement": "s",
         "measured": "m", "verdict": HOLDS},
        {"claim": "C6", "where": "Fig. 3 (d) Sushi", "site": "fig3_condorcet:sushi", "statement": "s",
         "measured": "m", "verdict": FAILS},
        {"claim": "C6", "where": "Fig. 3 (a) Cyclic", "site": "fig3_condorcet:cyclic", "statement": "s",
         "measured": "m", "verdict": HOLDS},
    ])
    text = claims_report.summary(claims, "../")
    assert "1 of 19 claims hold on every check: C3. Of all 3 checks, 2 hold." in text
    assert ("* *the paper's data disagree with its text* ([why](../docs/verdicts.md#sushi-ecw-rmed-far-above-rmed1)): "
            "C6 Fig. 3 (d) Sushi: FAILS.") in text


def test_summary_links_a_line_once_when_its_checks_share_one_section():
    """A category whose checks all link to one docs section (the noise rows) gives the link once, after the
    category; one whose checks link to different sections (Sushi and the elimination) keeps a link per check."""
    rows = [("C1", "Fig. 3 (b) StrongBorda", "fig3_condorcet:strong_borda", FAILS),
            ("C6", "Fig. 3 (c) ArXiv", "fig3_condorcet:arxiv", FAILS),
            ("C6", "Fig. 3 (d) Sushi", "fig3_condorcet:sushi", FAILS),
            ("C18", "diagnostic mslr16_noncondorcet", "c18_elimination:mslr16_noncondorcet", FAILS)]
    claims = pd.DataFrame([{"claim": claim, "where": where, "site": site, "statement": "s", "measured": "m",
                            "verdict": verdict} for claim, where, site, verdict in rows])
    text = claims_report.summary(claims, "")
    assert ("* *noise: a false verdict expected across the checks* ([why](docs/verdicts.md#false-verdicts-expected-"
            "from-noise)): C1 Fig. 3 (b) StrongBorda: FAILS; C6 Fig. 3 (c) ArXiv: FAILS.") in text
    assert ("* *the paper's data disagree with its text*: C6 Fig. 3 (d) Sushi: FAILS ([why](docs/verdicts.md#sushi-"
            "ecw-rmed-far-above-rmed1)); C18 diagnostic mslr16_noncondorcet: FAILS ([why](docs/verdicts.md#the-"
            "elimination-on-mslr-non-condorcet)).") in text


def test_a_slope_that_is_zero_up_to_rounding_prints_as_zero():
    """Issue 21: SCB is flat over the last decade on Non-Condorcet Cyclic; its fitted slope, 7.86e-12 in one
    drawing and 7.85e-12 in the next, made the README's generated block change with every redraw."""
    def table(slope):
        """A one-panel final table whose SCB slope is ``slope``."""
        return {"fig4_noncondorcet": pd.DataFrame([
            {"panel": "(a)", "algorithm": name, "label": name, "mean_final_regret": mean, "slope_last_decade": s,
             "slope_se": 0.1, "lower_bound_slope": 58.2, "lower_bound_model": "Copeland"}
            for name, mean, s in (("scb", 2714.8, slope), ("dts", 2350.0, 228.0))])}
    drawn, redrawn = claims_report.slope_table(table(7.861686e-12)), claims_report.slope_table(table(7.849158e-12))
    assert drawn.equals(redrawn)
    assert drawn["lowest slope"].item() == "scb 0"
    assert stable_slope(1e-3, 2714.8) == 1e-3


def test_a_panel_of_linear_lines_reads_every_line_linear_and_linear_lines_are_left_out():
    """The asymptotic study writes a line whose every run is trapped (regret linear in t: RUCB and RMED1 without a
    Condorcet winner) with no slope; the bounds table skips it, and a panel of such lines reads "every line linear"
    (it raised on the first such panel)."""
    def row(panel, name, slope):
        """A final-table row of line ``name`` on ``panel`` with last-decade slope ``slope`` (NaN: a linear line)."""
        return {"panel": panel, "algorithm": name, "label": name, "mean_final_regret": 1000.0,
                "slope_last_decade": slope, "slope_se": 1.0, "lower_bound_slope": 11.0, "lower_bound_model": "Copeland"}
    table = claims_report.slope_table({"asymptotic": pd.DataFrame([
        row("(a)", "rucb", float("nan")), row("(a)", "dts", 40.0), row("(b)", "rucb", float("nan")),
        row("(b)", "rmed1", float("nan"))])})
    assert table["closest slope"].tolist() == ["dts 40 +- 1", "every line linear"]
    assert table["lowest slope"].tolist() == ["dts 40", "every line linear"]
    assert table["lower bound C"].tolist() == [11.0, 11.0]


def test_the_oracles_are_never_the_closest_or_lowest_slope():
    """The oracles of the bound's allocation sit on C by construction (docs/asymptotic.md#the-oracle-that-plays-
    the-bounds-allocation): the bounds table ranks the algorithms only, so an oracle closer to C and lower than every
    algorithm is passed over."""
    rows = [{"panel": "(a)", "algorithm": name, "label": name, "mean_final_regret": 100.0, "slope_last_decade": slope,
             "slope_se": 1.0, "lower_bound_slope": 5.43, "lower_bound_model": "Condorcet"}
            for name, slope in ((ORACLE_OPTIMAL.tag, 5.4), (ORACLE_WINNER.tag, 3.0), ("dts", 56.0), ("rmed1", 50.0))]
    table = claims_report.slope_table({"asymptotic": pd.DataFrame(rows)})
    assert table["closest slope"].item() == "rmed1 50 +- 1" and table["lowest slope"].item() == "rmed1 50"


def l1_numbers(rows) -> Numbers:
    """The large-scale finals of the panel "mslr136_perfect" (titled "(a)") from (label, horizon, MergeDTS regret, its
    s.e., slope) rows of 50 runs."""
    table = pd.DataFrame([{"panel": "(a)", "panel_id": "mslr136_perfect", "dataset": "mslr136_perfect", "label": label,
                           "horizon": horizon, "runs": 50,
                           "mergedts_regret": regret,
                           "mergedts_se": se, "slope_last_decade": slope}
                          for label, horizon, regret, se, slope in rows])
    return Numbers({"large_scale": table}, pd.DataFrame())


def test_l1_reason_rounds_a_settled_slope_to_zero_and_reads_the_long_lines():
    """MergeDTS (best) is flat over the last decade on MSLR Perfect: its fitted slope, -3.04e-10 per ln t, is
    rounding and reads 0, as in the report's slope tables.  At T = 1e8 the reason reads the ", T=1e8" lines and
    leaves out D-TS (best), which has none; the horizon and whether D-TS still grows faster come from the rows."""
    rows = [("MergeDTS (best)", 1e7, 10156.0, -3.04e-10), ("D-TS", 1e7, 13354.1, 2280.0),
            ("D-TS (best)", 1e7, 14118.2, 3610.0), ("MergeDTS (best), T=1e8", 1e8, 10160.0, 0.0),
            ("D-TS, T=1e8", 1e8, 12000.0, -5.0)]
    numbers = l1_numbers([(label, horizon, regret, 100.0, slope) for label, horizon, regret, slope in rows])
    text = mergedts_against_dts("mslr136_perfect", "MergeDTS (best)").text(numbers)
    assert text.startswith("MergeDTS regret at T = 1e7: MergeDTS (best) 10156.0 +- 100.0 (slope 0 per ln t); ")
    assert "D-TS 13354.1 +- 100.0 (slope 2.28e+03 per ln t); D-TS (best) 14118.2" in text
    assert text.endswith("MergeDTS (best) is 0.76x exact D-TS; D-TS's regret still grows faster than MergeDTS (best)'s")
    long = mergedts_against_dts("mslr136_perfect", "MergeDTS (best)", ", T=1e8").text(numbers)
    assert long.startswith("MergeDTS regret at T = 1e8: MergeDTS (best), T=1e8 10160.0 +- 100.0 (slope 0 per ln t)")
    assert "D-TS (best)" not in long and long.endswith("MergeDTS (best) is 0.85x exact D-TS")


def test_l1_reason_says_when_a_few_runs_carry_the_mean():
    """The tuned MergeDTS on Informational-CDC at T = 1e8: one run that lost the Condorcet winner makes the standard
    deviation of the runs 5.2x their mean, and the reason says so; at 0.8x it says nothing of the spread."""
    rows = [("MergeDTS (best), T=1e8", 1e8, 49222.9, 35964.9, 5409.6), ("D-TS, T=1e8", 1e8, 29569.7, 1736.7, 5750.0)]
    text = mergedts_against_dts("mslr136_perfect", "MergeDTS (best)", ", T=1e8").text(l1_numbers(rows))
    assert text.endswith("MergeDTS (best) is 1.66x exact D-TS; D-TS's regret still grows faster than MergeDTS "
                         "(best)'s; MergeDTS (best)'s runs spread widely (standard deviation 5.2x its mean): a few "
                         "runs carry its mean")
    narrow = [("MergeDTS (best), T=1e8", 1e8, 49222.9, 49222.9 * 0.8 / 50 ** 0.5, 0.0), rows[1]]
    reason = mergedts_against_dts("mslr136_perfect", "MergeDTS (best)", ", T=1e8")
    assert "spread" not in reason.text(l1_numbers(narrow))


def l2_numbers(rows) -> Numbers:
    """The large-scale finals of the panel "mslr136_informational" (titled "(d)") from (label, horizon, Copeland
    regret, its s.e., regret per slot over the last decade, over the decade before) rows."""
    table = pd.DataFrame([{"panel": "(d)", "panel_id": "mslr136_informational", "dataset": "mslr136_informational",
                           "label": label, "horizon": horizon,
                           "copeland_regret": regret,
                           "copeland_se": se, "regret_per_slot_last_decade": last,
                           "regret_per_slot_decade_before": before}
                          for label, horizon, regret, se, last, before in rows])
    return Numbers({"large_scale": table}, pd.DataFrame())


def test_l2_reason_reads_whether_each_rate_has_fallen():
    """MSLR Informational at T = 1e7: D-TS's regret per slot is the same over the last two decades (still exploring);
    the tuned MergeDTS keeps its rate from 1e7 to 1e8 (linear regret), and the reason gives how far below D-TS's.
    A D-TS whose rate has fallen is said to settle; a long line whose rate falls is not called linear."""
    rows = [("D-TS", 1e7, 838493.6, 19917.0, 0.083, 0.082), ("MergeDTS (best)", 1e7, 140245.5, 2095.0, 0.0069, 0.058),
            ("MergeDTS (best), T=1e8", 1e8, 780245.5, 20457.0, 0.0071, 0.0069)]
    text = merge_without_condorcet("mslr136_informational", "MergeDTS (best)").text(l2_numbers(rows))
    assert text == ("Copeland regret at T = 1e7: MergeDTS (best) 140245.5 +- 2095.0, D-TS 838493.6 +- 19917.0; "
                    "D-TS 0.083 a slot over the last decade (0.082 over the one before): not falling, it is still "
                    "exploring the arm pairs at this horizon; MergeDTS (best) 0.0069 a slot over the last decade "
                    "(0.058 over the one before); from T = 1e7 to 1e8 MergeDTS (best) keeps 0.0071 a slot: linear "
                    "regret, as its pruning predicts, 11.7x below D-TS's over the decade to T = 1e7")
    settling = [("D-TS", 1e7, 838493.6, 19917.0, 0.04, 0.082), rows[1], ("MergeDTS (best), T=1e8", 1e8, 1.5e5, 2e3,
                                                                        0.001, 0.0069)]
    text = merge_without_condorcet("mslr136_informational", "MergeDTS (best)").text(l2_numbers(settling))
    assert "(0.082 over the one before): falling, it has begun to settle" in text
    assert text.endswith("from T = 1e7 to 1e8 MergeDTS (best)'s falls to 0.001 a slot")
    assert "1e8" not in merge_without_condorcet("mslr136_informational", "MergeDTS (best)").text(l2_numbers(rows[:2]))
