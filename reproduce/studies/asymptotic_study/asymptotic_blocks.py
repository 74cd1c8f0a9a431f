"""The generated blocks of docs/asymptotic.md that the asymptotic study writes from its tables
(``ASYMPTOTIC_STUDY.blocks``; the report places each by its name, ``BLOCK_NAMES``)."""

import math
from pathlib import Path

import pandas as pd

from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.claims.registry import ASYMPTOTIC
from dts_reproduction.reproduce.output.tables import markdown_table, read_table
from dts_reproduction.reproduce.studies.asymptotic_study.asymptotic_lines import ORACLE_OPTIMAL, ORACLE_WINNER
from dts_reproduction.reproduce.studies.asymptotic_study.decade_pairs import theorem2_table
from dts_reproduction.reproduce.studies.asymptotic_study.decades import trapped_scale
from dts_reproduction.reproduce.studies.asymptotic_study.partner_runs import partner_runs_table
from dts_reproduction.reproduce.studies.lower_bound import condorcet_allocation

# The names of the blocks ``asymptotic_blocks`` writes.
BLOCK_NAMES = ("asymptotic", "allocation", "asymptotic_cost", "forced_band", "forced_sweeps", "oracle",
               "noncondorcet_pairs", "theorem2_parts", "partner_runs", "trapped_scale")


def asymptotic_blocks(folder: Path) -> dict[str, str]:
    """The asymptotic study's blocks of docs/asymptotic.md, from its tables in ``folder``: ``asymptotic`` (per
    Condorcet matrix C, C_w, the arms whose optimal partner is not the winner, and each algorithm's last-decade slope
    with its ratio to C; trapped runs counted), ``allocation`` (regret per ln T by kind of pair) and
    ``asymptotic_cost`` (the CPU hours of the lines without a Condorcet winner, and at T = 1e10), ``forced_band``
    (per matrix, the pairs ECW-RMED's forced exploration can hold for good, and whether they hold its trapped runs),
    ``forced_sweeps`` (the cost of ECW-RMED's sweeps of every pair, ``forced_sweeps``), ``oracle``
    (``oracle_rows``), ``noncondorcet_pairs`` (``pair_rows_shown``), ``theorem2_parts``
    (``decade_pairs.theorem2_table``), ``partner_runs`` (``partner_runs.partner_runs_table``) and ``trapped_scale``
    (``decades.trapped_scale``)."""
    final, allocation = (read_table(folder / f"{ASYMPTOTIC}{suffix}") for suffix in ("_final.csv", "_allocation.csv"))
    rows = []
    for panel, part in final[final["winner_constant"].notna()].groupby("panel", sort=False):
        dataset = load_dataset(part["dataset"].iloc[0])
        best = condorcet_allocation(dataset.P)
        row = {"matrix": panel, "K": dataset.K, "C": f"{part['lower_bound_slope'].iloc[0]:.4g}",
               "C_w": f"{part['winner_constant'].iloc[0]:.4g}",
               "partner not the winner": int((best.partner >= 0).sum() - (best.partner == best.winner).sum())}
        for _, line in part.iterrows():
            if not math.isfinite(line["slope_last_decade"]):
                cell = "all trapped" if line["runs"] == 0 else (
                    f"linear: {int(line['trapped_runs'])} of {int(line['runs'] + line['trapped_runs'])} trapped")
            else:
                cell = f"{line['slope_last_decade']:.3g} ({line['slope_over_bound']:.2g})"
            if line["trapped_runs"] > 0 and math.isfinite(line["slope_last_decade"]):
                cell += f", {int(line['trapped_runs'])} trapped"
            row[line["label"]] = cell
        dts = part[part["algorithm"] == "dts"]
        if len(dts) and math.isfinite(dts["loglog_weight"].iloc[0]):
            fit = dts.iloc[0]
            row["D-TS limit; weight of ln ln t"] = (f"{fit['slope_limit']:.3g} +- {fit['slope_limit_se']:.2g}; "
                                                    f"{fit['loglog_weight']:.3g} +- {fit['loglog_weight_se']:.2g}")
        rows.append(row)
    shares = allocation.assign(**{column: allocation[column].map(lambda v: f"{v:.3g}") for column in
                                  ("winner_pairs", "partner_pairs", "other_pairs", "self_comparisons",
                                   "lower_bound_slope", "winner_constant")})
    shares = shares.rename(columns={"winner_pairs": "with the winner", "partner_pairs": "with the optimal partner",
                                    "other_pairs": "with other arms", "self_comparisons": "self-comparisons",
                                    "lower_bound_slope": "C", "winner_constant": "C_w"})
    cost = read_table(folder / f"{ASYMPTOTIC}_cost.csv")
    total = pd.DataFrame([{"panel": "all", "algorithm": "", "runs": int(cost["runs"].sum()), "horizon": "",
                           "cpu_seconds_per_run": "", "source": "",
                           "cpu_hours": cost["cpu_hours"].sum(), "cpu_hours_at_1e10": cost["cpu_hours_at_1e10"].sum()}])
    cost = pd.concat([cost.assign(cpu_seconds_per_run=cost["cpu_seconds_per_run"].map(lambda v: f"{v:.3g}")), total])
    cost = cost.assign(**{column: cost[column].map(lambda v: f"{v:.3g}") for column in ("cpu_hours",
                                                                                         "cpu_hours_at_1e10")})
    band = read_table(folder / f"{ASYMPTOTIC}_forced_band.csv")
    band = band.assign(band=band["band"].map(lambda v: f"{v:.4g}"),
                       winner_smallest_gap=band["winner_smallest_gap"].map(lambda v: f"{v:.3g}" if v == v else ""),
                       with_winner=band["with_winner"].map(lambda v: f"{v:.0f}" if v == v else ""),
                       ecw_rmed_runs=band["ecw_rmed_runs"].map(lambda v: f"{v:.0f}" if v == v else "not computed yet"),
                       **{column: band[column].map(lambda v: f"{v:.0f}" if v == v else "")
                          for column in ("ecw_rmed_trapped", "held_by_a_band_pair")},
                       largest_cost_mismatch=band["largest_cost_mismatch"].map(lambda v: f"{v:.2g}" if v == v else ""))
    sweeps = read_table(folder / f"{ASYMPTOTIC}_sweeps.csv")
    return {"asymptotic_cost": markdown_table(cost),
            "forced_band": markdown_table(band.drop(columns=["dataset"])),
            "forced_sweeps": markdown_table(sweeps.drop(columns=["dataset"]).assign(
                last_sweep=sweeps["last_sweep"].map(lambda v: f"{v:.3g}"))),
            "oracle": markdown_table(oracle_rows(final)),
            "noncondorcet_pairs": markdown_table(pair_rows_shown(read_table(folder / f"{ASYMPTOTIC}_pairs.csv"))),
            "asymptotic": markdown_table(pd.DataFrame(rows).fillna("not computed yet")),
            "allocation": markdown_table(shares.drop(columns=["dataset", "algorithm", "horizon"])),
            "theorem2_parts": markdown_table(theorem2_table(read_table(folder / f"{ASYMPTOTIC}_decade_parts.csv"),
                                                            final)),
            "partner_runs": markdown_table(partner_runs_table(read_table(folder / f"{ASYMPTOTIC}_partner_runs.csv"))),
            "trapped_scale": trapped_scale()}

def slope_cell(line, target: float) -> str:
    """A final-table row's last-decade slope, its standard error and its ratio to ``target``; "not computed yet" for a
    line not stored (None) or without a slope."""
    if line is None or not math.isfinite(line["slope_last_decade"]):
        return "not computed yet"
    slope = line["slope_last_decade"]
    return f"{slope:.4g} +- {line['slope_se']:.2g} ({slope / target:.2f})"

def oracle_rows(final: pd.DataFrame) -> pd.DataFrame:
    """Per Condorcet panel of the asymptotic study's final table: C and the last-decade slope of the oracle with the
    optimal partners, C_w and that of the oracle with the winner as partner, and D-TS's (each ``slope_cell``, over
    C for the first oracle, over C_w for the second and for D-TS)."""
    rows = []
    for panel, part in final[final["winner_constant"].notna()].groupby("panel", sort=False):
        lines = {line["algorithm"]: line for _, line in part.iterrows()}
        constant, winner = part["lower_bound_slope"].iloc[0], part["winner_constant"].iloc[0]
        rows.append({"matrix": panel, "C": f"{constant:.4g}",
                     ORACLE_OPTIMAL.tag: slope_cell(lines.get(ORACLE_OPTIMAL.tag), constant),
                     "C_w": f"{winner:.4g}", ORACLE_WINNER.tag: slope_cell(lines.get(ORACLE_WINNER.tag), winner),
                     "D-TS": slope_cell(lines.get("dts"), winner)})
    return pd.DataFrame(rows)

def pair_rows_shown(pairs: pd.DataFrame) -> pd.DataFrame:
    """The asymptotic study's costliest pairs without a Condorcet winner (``pair_costs.costliest_pair_rows``) as the
    docs show them: numbers to 3 digits, the share in percent."""
    return pd.DataFrame({"panel": pairs["panel"], "line": pairs["label"], "runs": pairs["runs"], "pair": pairs["pair"],
                         "p": pairs["p"].map(lambda v: f"{v:.3f}"),
                         "its regret per ln T": pairs["pair_regret_per_log_t"].map(lambda v: f"{v:.3g}"),
                         "share of R(T)": pairs["share_of_regret"].map(lambda v: f"{100 * v:.0f} %"),
                         "r / KL(p, 1/2)": pairs["price_per_log_t"].map(lambda v: f"{v:.3g}"),
                         "a winner survives its flip": pairs["flip_keeps_a_winner"].map({True: "yes", False: "no"})})
