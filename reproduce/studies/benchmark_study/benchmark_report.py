"""The benchmark's report, ``benchmark.md``: a self-contained text a reader can paste into an appendix -- the tier and
whether its verdicts are evidence, what was measured, the verdict rule in one sentence, the ranks side by side, then
per matrix the algorithms ranked with their intervals and verdicts.  Every number is read from the ranking table
(``benchmark_ranking``), itself computed from the stored runs; it links nothing."""

import math
from pathlib import Path

import numpy as np
import pandas as pd

from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.claims.intervals import BAND_BOOTSTRAP_RESAMPLES
from dts_reproduction.reproduce.claims.verdict import NOISE_SE, QUICK_PREFIX, REDUCED_PREFIX
from dts_reproduction.reproduce.config.scale import power_of_ten
from dts_reproduction.reproduce.harness.paths import ROOT
from dts_reproduction.reproduce.output.tables import markdown_table
from dts_reproduction.reproduce.studies.benchmark_study.benchmark_panels import NAME, TIERS
from dts_reproduction.reproduce.studies.benchmark_study.benchmark_ranking import NO_VERDICT, RULE

# The chance that the rule reads "holds" for two algorithms of equal expected regret: a normal difference beyond
# NOISE_SE standard errors, one side.
FALSE_HOLDS = 0.5 * math.erfc(NOISE_SE / math.sqrt(2.0))
COMMIT_DIGITS = 10  # a commit as the provenance names it: its hash's first digits
COMMITS_NAMED = 3  # the provenance names the commits up to this many, else counts them
MEASURED = ("R(T) is the cumulative Copeland regret at the horizon T (Wu & Liu 2016, Eq. 1) of one run, each run on "
            "the matrix with its arms shuffled; per algorithm and matrix the table gives its mean over independent "
            "runs, the standard error (s.e.) of that mean and its 95% percentile bootstrap interval "
            f"({BAND_BOOTSTRAP_RESAMPLES} resamples of the runs, fixed seed).  C is the constant of the asymptotic "
            "lower bound R(T) >= C ln T of every uniformly good algorithm (Komiyama et al. 2015 on a matrix with a "
            "Condorcet winner, 2016 without one); C ln T is given for scale, as the bound is approached only as T "
            "grows.")


def evidence_text(tier: str, note: str | None) -> str:
    """What the verdicts of a run of ``tier`` are worth: none for a quick run or a run below the paper's scale
    (``note``, the run's ``experiment.evidence_note``), evidence within the rule's noise at the paper's scale."""
    if note == QUICK_PREFIX:
        return (f"**Not evidence.** The {tier} tier is a smoke test of the pipeline (few runs, a short horizon): "
                f"every verdict is marked \"{QUICK_PREFIX}\".")
    if note == REDUCED_PREFIX:
        return (f"**Not evidence.** Some matrix ran with fewer runs or a shorter horizon than the paper's: every "
                f"verdict is marked \"{REDUCED_PREFIX}\".")
    return ("Every matrix ran at the paper's run count and horizon: the verdicts are evidence, within the noise the "
            "rule allows.")


def scale_text(ranking: pd.DataFrame) -> str:
    """The runs and horizons of the lines of ``ranking``: "20 runs per line, T = 1e4", or each set of values where they
    differ by matrix ("500/100/10 runs per line, T = 1e6/5e6")."""
    runs = "/".join(str(value) for value in sorted(set(ranking["runs"]), reverse=True))
    horizons = "/".join(power_of_ten(int(value)) for value in sorted(set(ranking["horizon"])))
    return f"{runs} runs per line, T = {horizons}"


def number(value: float) -> str:
    """A regret as the report prints it: 3 significant digits, from 1000 on whole numbers with thousands separators
    (12,345 rather than 1.23e+04)."""
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.3g}"


def ranks_table(ranking: pd.DataFrame) -> pd.DataFrame:
    """Every algorithm's rank on every matrix (a column per matrix, by its letter) and its mean rank, algorithms in
    the order of their mean rank."""
    ranks = ranking.pivot_table(index="algorithm", columns="matrix", values="rank", sort=False)
    ranks.columns = [title.split(" ")[0] for title in ranks.columns]
    table = ranks.assign(**{"mean rank": ranks.mean(axis=1)}).sort_values("mean rank", kind="stable")
    cells = table.map(lambda rank: "-" if np.isnan(rank) else f"{rank:.0f}")
    cells["mean rank"] = [f"{rank:.2f}" for rank in table["mean rank"]]
    labels = dict(zip(ranking["algorithm"], ranking["label"], strict=True))
    return cells.rename(index=labels).rename_axis("algorithm").reset_index()


def matrix_section(rows: pd.DataFrame) -> list[str]:
    """The lines of one matrix (its ``rows`` of the ranking, in rank order): a heading, its K, whether it has a
    Condorcet winner and its lower bound, the ranking table and the verdict of "the first-ranked has lower regret
    than each other"."""
    first = rows.iloc[0]
    dataset = load_dataset(first["dataset"])
    winner = "a Condorcet winner" if dataset.has_condorcet_winner else "no Condorcet winner"
    slope = first["lower_bound_slope"]
    bound = f"; C = {number(slope)}, C ln T = {number(first['lower_bound_at_T'])}" if np.isfinite(slope) else ""
    columns = {"rank": rows["rank"], "algorithm": rows["label"], "runs": rows["runs"],
               "T": [power_of_ten(int(value)) for value in rows["horizon"]],
               "mean R(T)": [number(value) for value in rows["mean_final_regret"]],
               "s.e.": [number(value) for value in rows["se_final_regret"]],
               "95% interval": [f"{number(low)} .. {number(high)}"
                                for low, high in zip(rows["ci95_low"], rows["ci95_high"], strict=True)],
               f"{first['label']} lower": ["-", *rows["verdict_first_lower"].iloc[1:]]}
    reference = rows[rows["algorithm"] == first["against"]]
    if len(reference):
        columns[f"lower than {reference['label'].iloc[0]}"] = rows["verdict_lower_than_against"].replace(NO_VERDICT,
                                                                                                         "-")
    verdict = first["verdict_first_lower"]
    summary = (f"\"{first['label']} has lower regret than each other\": {verdict}." if verdict != NO_VERDICT
               else f"{first['label']} is the only algorithm measured.")
    return [f"### {first['matrix']}", "", f"K = {dataset.K}, {winner}{bound}.", "",
            markdown_table(pd.DataFrame(columns)), "", summary, ""]


def reuse_text(reused: dict, folder) -> str:
    """What the report says of the lines ``reused`` ({line: LineResult}, ``benchmark_plan.reused_lines``) read from
    ``folder`` (named from the repository's root where it is below it): how many, and how many of them are not known
    to come from the code as it is now."""
    if not reused:
        return ""
    folder = Path(folder).relative_to(ROOT) if Path(folder).is_relative_to(ROOT) else folder  # no local path
    unchecked = sum(bool(result.meta.get("unchecked_code")) for result in reused.values())
    return (f" {len(reused)} of the lines were read as stored from the repository's {folder}"
            + (f", {unchecked} of them with their code not yet checked against the current code (`python "
               f"reproduce/verify.py {folder} --record-code` re-simulates and records it)" if unchecked else "") + ".")


def report_text(ranking: pd.DataFrame, entries, tier: str, note: str | None, command: str, commits,
                reused: str = "") -> str:
    """``benchmark.md`` from the ranking table ``ranking`` (``benchmark_ranking.ranking_table``) of the ``--algorithms``
    ``entries`` (in the order given) in a run of ``tier`` (``note``: its ``experiment.evidence_note``), made by the
    command line ``command`` from runs computed by ``commits`` (full hashes); ``reused``: what it says of the lines
    read from the repository's results (``reuse_text``)."""
    names = dict(zip(ranking["algorithm"], ranking["label"], strict=True))
    labels = [names[entry] for entry in entries if entry in names]
    matrices = list(dict.fromkeys(ranking["matrix"]))
    against = list(ranking.loc[ranking["algorithm"] == ranking["against"], "label"])
    lines = [f"# {', '.join(labels)} on {len(matrices)} preference matrices", "",
             f"Tier: {tier} ({TIERS[tier]}); here {scale_text(ranking)}. {evidence_text(tier, note)}", "",
             f"**Measured.** {MEASURED}", "",
             f"**Verdicts.** {RULE} For two algorithms of equal expected regret it still reads \"holds\" in about "
             f"{FALSE_HOLDS:.1%} of comparisons, so among many comparisons a few may be noise. Per matrix, \"<first> "
             f"lower\" is the verdict that the first-ranked has lower regret than that row's algorithm"
             + (f", and \"lower than {against[0]}\" that the row's algorithm has lower regret than {against[0]}."
                if against else "."), "",
             "## Ranks", "", "Rank by mean R(T) on each matrix (1: lowest regret; -: runs not stored, left out); the "
             "matrices are named below.", "",
             markdown_table(ranks_table(ranking)), "", "## Per matrix", ""]
    for matrix in matrices:
        lines += matrix_section(ranking[ranking["matrix"] == matrix])
    named = f" ({', '.join(commit[:COMMIT_DIGITS] for commit in commits)})" if len(commits) <= COMMITS_NAMED else ""
    lines += ["## Provenance", "", f"Produced by `{command}` from stored runs computed by {len(commits)} commit(s) of "
              f"the code{named}, each line's in {NAME}_lines.csv.{reused} The figure is {NAME}.pdf ({NAME}.png) "
              f"beside this file, and every number above is in {NAME}_ranking.csv.", ""]
    return "\n".join(lines)
