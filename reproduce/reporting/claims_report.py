"""Every claim of the paper, its numbers and its verdict, collected from the tables the figure scripts write.

Reads ``<figures>/*_claims.csv``, ``*_final.csv`` and ``*_lines.csv`` and writes ``<figures>/REPORT.md``:
the verdict of each claim of ``reproduce/claims/registry.py`` (one no figure has checked yet is listed as "not
measured", with the command that measures it), C19 from the final regrets of Figs. 1, 3 and 4
(``reproduce/claims/c19.py``), the distance of each algorithm's fitted slope to the asymptotic lower bound,
and the worker time of every figure.  With ``--readme README.md`` it also rewrites every generated block
(between ``<!-- BEGIN generated: NAME -->`` and ``<!-- END generated: NAME -->``) in the file that holds it
(``BLOCK_FILES``, paths from the README's folder: the README and pages under docs/ and bench/), so that no
number in them is typed by hand.  Its command line is ``reproduce/report.py``.
"""

import os
import re
from pathlib import Path

import pandas as pd

from dts_reproduction.reproduce.claims.c19 import C19, c19_rows
from dts_reproduction.reproduce.claims.reasons import CATEGORIES, REASONS, WORD_AS_FACTOR, Numbers, Reason
from dts_reproduction.reproduce.claims.registry import EVERY_CLAIM, PAPER_CLAIMS, claim_id
from dts_reproduction.reproduce.claims.verdict import (
    CLAIM_COLUMNS,
    CLEAR_FACTOR,
    DIRECTION_ONLY,
    FACTOR_BORDERLINE,
    HOLDS,
    NOT_MEASURED,
    REDUCED_PREFIX,
    SEVERITY,
    Site,
    claim_row,
    not_evidence_verdict,
    stable_slope,
)
from dts_reproduction.reproduce.harness.paths import BENCH_TABLE, FAST, QUICK, ROOT, STARTUP_TABLE
from dts_reproduction.reproduce.output.tables import NOT_STORED, load_tables, markdown_table, read_table
from dts_reproduction.reproduce.reporting import newcomer_times
from dts_reproduction.reproduce.reporting.constants_table import constants_frame, defaults_frame, registry_frame
from dts_reproduction.reproduce.studies.study_registry import STUDIES

# The command that writes each study's tables (by table stem, as a claim's ``figures`` name them).
FIGURE_COMMANDS = {study.stem: study.command for study in STUDIES}
# The report's own generated blocks and the file that holds each, relative to the README's folder (the repository
# root); every study's blocks are in the file its record names (``BLOCK_FILES``).
REPORT_BLOCK_FILES = {"summary": "README.md", "claims": "README.md", "bounds": "docs/figures.md",
                      "compute": "docs/figures.md", "registry": "docs/algorithms.md", "constants": "docs/algorithms.md",
                      "defaults": "docs/algorithms.md",
                      "bench": "bench/README.md", "newcomer_main": "README.md", "newcomer_tests": "README.md",
                      "newcomer_suites": "docs/testing.md", "startup": "docs/install.md"}
BLOCK_FILES = {**REPORT_BLOCK_FILES, **{name: study.block_file for study in STUDIES for name in study.block_names}}
# The algorithm names of the lines that are yardsticks, not algorithms (the studies' oracles): no slope ranks them.
YARDSTICKS = frozenset(name for study in STUDIES for name in study.yardsticks)
# Why each check that does not hold does not, {(claim label, site id): Reason}: the reasons the paper's figures share
# and each study's own (``Study.reasons``).
EVERY_REASON = {**REASONS, **{key: reason for study in STUDIES for key, reason in study.reasons.items()}}
# The column of a *_final.csv holding R(T): the paper figures' mean, or the large-scale table's Copeland regret.
FINAL_REGRET_COLUMNS = ("mean_final_regret", "copeland_regret")
# {table stem: {panel title: panel id}}: the id by which claims are attached to a panel, as each study declares
# them (``Study.panel_ids``); its tables name a panel by its title.
PANEL_IDS = {study.stem: study.panel_ids for study in STUDIES}


def reason_of(claim: str, site_id: str) -> Reason | None:
    """The reason recorded for the row (``claim``, ``site_id``: its ``site`` column) in ``EVERY_REASON``, or None."""
    return EVERY_REASON.get((claim, site_id))


def figure_id(stem: str) -> str:
    """The short name of a figure's table stem, as a "not measured" row shows where a claim is still to be
    checked: the part of the stem before its first underscore."""
    return stem.split("_")[0]


def read_study_tables(folder: Path, suffix: str) -> dict[str, pd.DataFrame]:
    """{study stem: table} of every ``<stem><suffix>`` in ``folder`` (``output.tables.load_tables``), each table with
    a ``panel_id`` column for its ``panel`` column (``with_panel_id``)."""
    return {stem: with_panel_id(stem, table) for stem, table in load_tables(folder, suffix).items()}


def with_panel_id(stem: str, table: pd.DataFrame) -> pd.DataFrame:
    """``table``, of the figure ``stem``, with a ``panel_id`` column beside its ``panel`` column (the panel's title):
    the id the panel has in ``PANEL_IDS``, by which the claims (``claims.c19``) and the reasons (``claims.reasons``)
    find a panel's rows; NaN for a title its study has no id for.  Kept in memory only: the tables on disk name a
    panel by its title, and a column added to them would rewrite every committed table.  A table without a
    ``panel`` column is returned as it is."""
    if "panel" not in table:
        return table
    return table.assign(panel_id=table["panel"].map(PANEL_IDS.get(stem, {})))


def numbers_of(folder: Path, claims: pd.DataFrame, finals: dict[str, pd.DataFrame] | None = None) -> Numbers:
    """The ``Numbers`` the reasons of ``folder``'s report read: its final tables (``finals``, read if not given),
    ``claims``, and every table a study declares its reasons read (``Study.tables``)."""
    suffixes = dict.fromkeys(suffix for study in STUDIES for suffix in study.tables)
    return Numbers(read_study_tables(folder, "_final.csv") if finals is None else finals, claims,
                   {suffix: read_study_tables(folder, suffix) for suffix in suffixes})




def is_quick(folder: Path) -> bool:
    """Whether ``folder`` holds the tables of a quick (smoke) run: figures/quick or figures/quick/fast."""
    return QUICK in Path(folder).parts[-2:]


def marked_like(table: pd.DataFrame | None, verdict: str, quick: bool) -> str:
    """A C19 verdict marked as not evidence like the rows of the figure it is computed from (``table``, its
    claims): a quick run's folder, or a figure drawn below the paper's scale (REDUCED_PREFIX)."""
    if quick:
        return not_evidence_verdict(verdict)
    if table is not None and len(table) and table["verdict"].str.startswith(REDUCED_PREFIX).all():
        return not_evidence_verdict(verdict, REDUCED_PREFIX)
    return verdict


def claims_table(folder: Path) -> pd.DataFrame:
    """Every claim row of every figure, C19 computed from the final tables (marked as not evidence like the
    rows of its figure, ``marked_like``), and a "not measured" row for each claim and each of its
    figures (``Claim.figures``) that has not checked it -- a claim checked by one of its figures but not yet by
    another (C15a by fig2, C15b by fig4) is not complete."""
    tables = read_study_tables(folder, "_claims.csv")
    rows = pd.concat(list(tables.values()), ignore_index=True) if tables else pd.DataFrame(
        columns=list(CLAIM_COLUMNS))
    finals = read_study_tables(folder, "_final.csv")
    c19 = pd.DataFrame(c19_rows(finals, read_study_tables(folder, "_lines.csv")))
    if len(c19):
        c19["verdict"] = [marked_like(tables.get(site.split(":")[0]), verdict, is_quick(folder))
                          for site, verdict in zip(c19["site"], c19["verdict"], strict=True)]
    rows = pd.concat([rows, c19], ignore_index=True)
    present = {(claim_id(label), stem) for stem, table in tables.items() for label in table["claim"]}
    present |= {(C19.id, stem) for stem in finals if stem in C19.figures}
    missing = []
    for claim in EVERY_CLAIM.values():
        unmeasured = [stem for stem in claim.figures if (claim.id, stem) not in present]
        if not unmeasured:
            continue
        reason = "not measured yet: run " + ", ".join(FIGURE_COMMANDS[stem] for stem in unmeasured)
        where = Site("+".join(unmeasured), ", ".join(map(figure_id, unmeasured)))
        missing.append(claim_row(claim.id, where, claim.statement, reason, NOT_MEASURED))
    rows = pd.concat([rows, pd.DataFrame(missing)], ignore_index=True)
    order = {claim: k for k, claim in enumerate(EVERY_CLAIM)}
    rows["_order"] = rows["claim"].map(lambda label: order.get(claim_id(label), len(order)))
    return rows.sort_values("_order", kind="stable").drop(columns="_order").reset_index(drop=True)


def verdict_summary(claims: pd.DataFrame) -> pd.DataFrame:
    """Per claim: how many checks gave each verdict."""
    counts = claims.assign(claim=claims["claim"].map(claim_id)).groupby(["claim", "verdict"], sort=False).size()
    table = counts.unstack(fill_value=0)
    order = [v for v in VERDICT_COLUMNS if v in table.columns] + [v for v in table.columns if v not in VERDICT_COLUMNS]
    return table.loc[[claim for claim in EVERY_CLAIM if claim in table.index], order].reset_index()


# Columns of the verdict summary, most favourable first.
VERDICT_COLUMNS = SEVERITY[::-1]
def explained(verdict: str) -> bool:
    """Whether a verdict needs a reason: every verdict of a paper-scale check but "holds" and "not measured"
    (whose row names the missing curve); the rows of a quick or reduced run are not evidence at all."""
    return verdict not in (HOLDS, NOT_MEASURED) and verdict in VERDICT_COLUMNS


def why(row, numbers: Numbers, docs: str) -> str:
    """The reason cell of a claims row: its category, its text and a link to its docs section (``docs``: the
    path from the file being written to the repository root, "" or "../"); empty for a row that needs none."""
    if not explained(row["verdict"]):
        return ""
    reason = reason_of(row["claim"], row["site"])
    if reason is None:
        return "no reason recorded (reproduce/claims/reasons.py or the study's reasons)"
    return f"{reason.category}: {reason.text(numbers)} ([why]({docs}{reason.anchor}))"


# The summary lists a category's checks one by one up to this many, else only their claims.
SUMMARY_LISTED = 4


def summary(claims: pd.DataFrame, docs: str) -> str:
    """The generated opening of the report: which claims hold on every check, which hold in the order they
    state with only a factor read from a word missed or borderline, then every check that is not "holds"
    grouped by the category of its reason (where the paper and its data disagree first), each with its
    verdict and a link to the docs section that explains it; one sentence saying so if no claim was checked."""
    ids = claims["claim"].map(claim_id)
    rows = claims[claims["verdict"].map(explained)]
    reasons = [reason_of(row.claim, row.site) for row in rows.itertuples()]
    categories = pd.Series([reason.category if reason else None for reason in reasons], index=rows.index)
    clean = [claim for claim in PAPER_CLAIMS
             if (ids == claim).any() and (claims.loc[ids == claim, "verdict"] == HOLDS).all()]
    wording = [claim for claim in PAPER_CLAIMS if claim not in clean and (ids == claim).any()
               and (claims.loc[ids == claim, "verdict"].isin((HOLDS, FACTOR_BORDERLINE, DIRECTION_ONLY))).all()
               and (categories[ids[rows.index] == claim] == WORD_AS_FACTOR).all()]
    if (claims["verdict"] == NOT_MEASURED).all():
        return ("**What reproduces.** No claim was checked: this folder holds no figure's claims table (make the "
                "figures first).")
    opening = (f"**What reproduces.** {len(clean)} of {len(PAPER_CLAIMS)} claims hold on every check"
               + (f": {', '.join(clean)}." if clean else "."))
    if wording:
        opening += (f" {len(wording)} more hold in the order they state on every check, with only a factor read "
                    f"from a word such as \"much\" missed or borderline somewhere: {', '.join(wording)}.")
    lines = [f"{opening} Of all {len(claims)} checks, {int((claims['verdict'] == HOLDS).sum())} hold.", "",
             "**What does not, and why.** Every check that is not \"holds\", by the reason of its verdict, "
             "first where the paper and its data disagree:", ""]
    for category in (*CATEGORIES, None):
        picked = [(row, reason) for row, reason in zip(rows.itertuples(), reasons, strict=True)
                  if (reason.category if reason else None) == category]
        if category is not None and len(picked) > SUMMARY_LISTED:
            claimed = ", ".join(dict.fromkeys(claim_id(row.claim) for row, _ in picked))
            anchors = ", ".join(f"[why]({docs}{anchor})" for anchor in dict.fromkeys(r.anchor for _, r in picked))
            lines.append(f"* *{category}* ({anchors}): {len(picked)} checks of {claimed} (each in the report's "
                         "table of every check).")
        elif picked:
            anchors = list(dict.fromkeys(reason.anchor for _, reason in picked if reason))
            shared = len(anchors) == 1 and all(reason for _, reason in picked)  # one link for the whole line
            items = "; ".join(f"{row.claim} {row.where}: {row.verdict}" + (
                f" ([why]({docs}{reason.anchor}))" if reason and not shared else "") for row, reason in picked)
            link = f" ([why]({docs}{anchors[0]}))" if shared else ""
            lines.append(f"* *{category or 'no reason recorded'}*{link}: {items}.")
    unmeasured = claims.loc[claims["verdict"] == NOT_MEASURED, "claim"].map(claim_id).unique()
    if len(unmeasured):
        lines.append(f"* *not measured yet*: {', '.join(unmeasured)}.")
    return "\n".join(lines)


def slope_table(finals: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Per regret panel: the asymptotic lower bound C and the algorithms whose fitted last-decade slope is
    closest to it and lowest.  A line without a slope (most of its runs trapped, their regret linear in t) is left
    out, and so are the yardsticks of the studies (``YARDSTICKS``: oracles, not algorithms); a panel with none reads
    "every line linear"."""
    rows = []
    for stem, table in finals.items():
        if "lower_bound_slope" not in table:
            continue
        for title, panel in table.groupby("panel", sort=False):
            bound = {"figure": stem, "panel": title, "lower bound C": panel["lower_bound_slope"].iloc[0],
                     "model": panel["lower_bound_model"].iloc[0]}
            panel = panel[~panel["algorithm"].isin(YARDSTICKS)].dropna(subset=["slope_last_decade"])
            if panel.empty:
                rows.append({**bound, "closest slope": "every line linear", "lowest slope": "every line linear"})
                continue
            panel = panel.assign(slope_last_decade=[stable_slope(slope, r) for slope, r in
                                                    zip(panel["slope_last_decade"], panel["mean_final_regret"],
                                                        strict=True)])
            gap = (panel["slope_last_decade"] - panel["lower_bound_slope"]).abs()
            closest = panel.loc[gap.idxmin()]
            lowest = panel.loc[panel["slope_last_decade"].idxmin()]
            spread = stable_slope(closest["slope_se"], closest["mean_final_regret"])
            rows.append({**bound,
                         "closest slope": f"{closest['label']} {closest['slope_last_decade']:.3g} +- {spread:.2g}",
                         "lowest slope": f"{lowest['label']} {lowest['slope_last_decade']:.3g}"})
    return pd.DataFrame(rows)


def compute_table(folder: Path) -> pd.DataFrame:
    """Per figure: its lines, how many are not computed yet (commits NOT_STORED: drawn without them; for the
    large-scale study also its lines over budget), the runs stored, and the worker hours of the stored runs it
    draws (the wall time each chunk took in its worker; each line counted once per figure, a line shared by two
    figures in both)."""
    rows = []
    for stem, lines in read_study_tables(folder, "_lines.csv").items():
        stored = lines["commits"] != NOT_STORED
        rows.append({"figure": stem, "lines": len(lines), "not computed yet": int((~stored).sum()),
                     "runs": int(lines.loc[stored, "runs"].sum()),
                     "worker hours": lines["worker_seconds"].sum() / 3600.0})
    return pd.DataFrame(rows)








def bench_table(path: Path = BENCH_TABLE) -> str:
    """The bench block of bench/README.md from ``bench/step_cost.csv`` (``make bench``): ns per slot in the later
    phase and, in brackets, as multiples of one Beta draw, per algorithm / options (rows: the defaults "-"
    and the exact fast paths) and K; then the same for the mean over a whole run, if measured."""
    if not Path(path).exists():
        return "Not measured in this checkout: run `make bench`."
    rows = read_table(path)
    # One bench invocation = one (measured, load, Beta cost); rows merged from later ones are named.
    sessions = sorted(rows.groupby(["measured", "load_average", "beta_ns"], sort=False),
                      key=lambda session: -len(session[1]))

    def when(key, group) -> str:
        """When, at which commits, under which load and Beta-draw cost one bench invocation measured."""
        measured, load, beta = key
        commits = "/".join(dict.fromkeys(str(commit)[:7] for commit in group["commit"]))
        return f"measured {measured} at commit {commits}, load average {load:.1f}, one Beta draw {beta:.1f} ns"

    text = ("ns per slot after the warm-up (in brackets: multiples of one Beta draw timed in the same process); "
            f"{when(*sessions[0])}"
            + "".join(f"; the rows of {', '.join(group['algorithm'].unique())} at K = "
                      f"{', '.join(str(k) for k in sorted(group['K'].unique()))} {when(key, group)}"
                      for key, group in sessions[1:])
            + " on this 2-core machine.\n\n" + markdown_table(_by_k(rows, "ns_later")))
    whole = rows[rows["ns_whole"].notna()] if "ns_whole" in rows else rows.iloc[:0]
    if len(whole):
        slots = ", ".join(f"T = {T:.0e} at K = {', '.join(str(k) for k in sorted(group['K'].unique()))}"
                          for T, group in whole.groupby("whole_slots"))
        text += (f"\n\nMean ns per slot over a whole run from slot 1 ({slots}; in brackets: multiples of one "
                 "Beta draw; - where not timed), what a figure pays:\n\n" + markdown_table(_by_k(whole, "ns_whole")))
    return text


def startup_table(path: Path = STARTUP_TABLE) -> str:
    """The startup block of docs/install.md from ``bench/startup.csv`` (``python bench/startup.py``): when and
    where it was measured, then per start-up step (in the order measured) the numba cache it ran on, its CPU
    and wall seconds and the number of numba compilations in its process."""
    if not Path(path).exists():
        return "Not measured in this checkout: run `python bench/startup.py`."
    rows = read_table(path)
    commits = "/".join(dict.fromkeys(str(commit)[:7] for commit in rows["commit"]))
    loads = f"{rows['load_average'].min():.1f}-{rows['load_average'].max():.1f}"
    table = pd.DataFrame({"step (a new process each)": rows["step"], "numba cache": rows["cache"],
                          "CPU s": rows["cpu_seconds"].map(lambda x: f"{x:.2f}"),
                          "wall s": rows["wall_seconds"].map(lambda x: f"{x:.2f}"),
                          "compilations": rows["compiles"]})
    return (f"Measured by `python bench/startup.py` (`bench/startup.csv`) on {rows['measured'].iloc[0]} at commit "
            f"{commits}, load average {loads}, on this project's 2-core machine:\n\n" + markdown_table(table))


def _by_k(rows: pd.DataFrame, column: str) -> pd.DataFrame:
    """One row per algorithm / options, one column per K: ``column`` (ns) and, in brackets, in Beta draws."""
    rows = rows.assign(cell=[f"{ns:,.0f} ({x:,.0f})" if x >= 100 else f"{ns:,.0f} ({x:.3g})"
                             for ns, x in zip(rows[column], rows[column] / rows["beta_ns"], strict=True)])
    table = rows.pivot_table(index=["algorithm", "options"], columns="K", values="cell", aggfunc="first",
                             sort=False).reset_index().fillna("-")
    table.columns = [f"K = {c}" if isinstance(c, (int, float)) else c for c in table.columns]
    return table


def docs_prefix(folder: Path) -> str:
    """The path from a file written in ``folder`` to the repository root, for its links to ``docs/``."""
    relative = os.path.relpath(ROOT, Path(folder).resolve())
    return "" if relative == "." else relative + "/"


def generated_blocks(folder: Path) -> dict[str, str]:
    """Every generated block (``BLOCK_FILES`` says where each lives): the report's own, ``summary`` (what
    reproduces and why the rest does not, ``summary``), ``claims`` (verdict counts per claim), ``compute`` (worker
    hours per figure), ``bounds`` (lower bounds and closest slopes), ``registry``, ``constants`` and ``defaults``
    (the registered algorithms, ``core/constants.py`` and the algorithms' defaults and presets,
    ``reproduce/reporting/constants_table.py``),
    ``bench`` (step costs, ``bench_table``), ``startup`` (the first use's cost, ``startup_table``) and the newcomer's
    times (``newcomer_blocks``); then every study's (``Study.written_blocks``)."""
    claims = claims_table(folder)
    finals = read_study_tables(folder, "_final.csv")
    counts = verdict_summary(claims)
    counts.insert(1, "statement", counts["claim"].map(lambda claim: EVERY_CLAIM[claim].statement))
    studies = {name: text for study in STUDIES for name, text in study.written_blocks(folder).items()}
    return {"summary": summary(claims, ""), "claims": markdown_table(counts),
            "compute": markdown_table(compute_table(folder)), "bounds": markdown_table(slope_table(finals)),
            "registry": markdown_table(registry_frame()), "constants": markdown_table(constants_frame()),
            "defaults": markdown_table(defaults_frame()),
            "bench": bench_table(), "startup": startup_table(), **newcomer_blocks(), **studies}


def newcomer_blocks(path: Path = newcomer_times.TABLE) -> dict[str, str]:
    """The measured times and test counts of the README's commands and of the deselected suites
    (``reproduce.reporting.newcomer_times``, from ``bench/newcomer.csv``)."""
    table = pd.read_csv(path)
    return {"newcomer_main": newcomer_times.main_block(table), "newcomer_tests": newcomer_times.tests_block(table),
            "newcomer_suites": newcomer_times.suites_block(table)}











def build_report(folder: Path) -> str:
    """The text of REPORT.md for the tables in ``folder``."""
    folder = Path(folder)
    claims = claims_table(folder)
    finals = read_study_tables(folder, "_final.csv")
    numbers = numbers_of(folder, claims, finals)
    docs = docs_prefix(folder)
    quick = is_quick(folder)
    parts = ["# The paper's claims checked against this reproduction", "",
             "Generated by `python reproduce/report.py` from the tables the figure scripts write; do not edit.", ""]
    if quick:
        parts += ["**Quick run (few runs, short horizon): a smoke test of the pipeline, not evidence for or "
                  "against the paper's claims.**", ""]
    if folder.name == FAST:
        parts += ["Computed with `--fast`: every algorithm with its exact fast paths (same law as the defaults, "
                  "other random streams; docs/harness.md#fast-paths), not the committed default-path runs.", ""]
    counts = verdict_summary(claims)
    counts.insert(1, "statement", counts["claim"].map(lambda claim: EVERY_CLAIM[claim].statement))
    checks = claims.assign(why=[why(row, numbers, docs) for _, row in claims.iterrows()]).drop(columns="site")
    parts += ["## Summary", "", summary(claims, docs), "",
              f"The verdicts and the reasons are explained in [docs/verdicts.md]({docs}docs/verdicts.md): a verdict "
              "is *holds* (true by more than 2 standard errors), *factor at its threshold, within the noise* (the "
              f"order is significant, a claimed factor such as \"much lower\" = x{CLEAR_FACTOR:g} is within the "
              "noise of its threshold), *same order, not significant*, *direction holds, magnitude not reached* "
              "(the claimed factor is missed by more than the noise), *opposite order, not significant* (reversed, "
              "but within the noise), *FAILS* (contradicted by more than the noise), or *not measured*; thresholds "
              "are named in `reproduce/claims/verdict.py`, reasons recorded in `reproduce/claims/reasons.py`.", "",
              "## Verdicts per claim", "", markdown_table(counts), "",
              "## Every check", "", markdown_table(checks), "",
              "## Distance to the asymptotic lower bound", "",
              "C is the constant of the asymptotic regret lower bound (R(T) >= C ln T for large T; "
              "`reproduce/studies/lower_bound.py`): with a Condorcet winner Komiyama et al. (2015), else the "
              "linear program of Komiyama et al. (2016) over the alternative matrices whose Copeland winners are "
              "all different, solved exactly up to 32 arms; \"relaxation\" marks a valid bound from a subset of those "
              "alternatives.  Each curve's slope is fitted against ln t over the last decade (a slope that is zero "
              "up to rounding is printed as 0).  At finite T a slope can be below C where pairs are still "
              "unresolved.", "",
              markdown_table(slope_table(finals)), "",
              "## Worker time per figure", "", markdown_table(compute_table(folder)), "",
              *(line for study in STUDIES for line in study.section(folder, docs))]
    for stem, final in finals.items():
        columns = [c for c in ("panel", "label", "horizon", "runs", *FINAL_REGRET_COLUMNS, "sem_final_regret",
                               "copeland_se", "weak_regret", "weak_se", "g2w_regret", "g2w_se", "mergedts_regret",
                               "mergedts_se",
                               "slope_last_decade", "lower_bound_slope", "seconds_per_run") if c in final]
        regret = next((c for c in FINAL_REGRET_COLUMNS if c in final), None)
        if "slope_last_decade" in final and regret is not None:
            final = final.assign(slope_last_decade=[stable_slope(slope, r) for slope, r in
                                                    zip(final["slope_last_decade"], final[regret], strict=True)])
        parts += [f"## Final regret R(T): {stem}", "", markdown_table(final[columns]), ""]
    return "\n".join(parts)


def update_readme(text: str, blocks: dict[str, str], where: str = "README") -> str:
    """``text`` with each ``<!-- BEGIN generated: NAME -->`` ... ``<!-- END generated: NAME -->`` block
    replaced by ``blocks[NAME]``; ValueError if ``text`` (the file ``where``) lacks one of them."""
    for name, body in blocks.items():
        pattern = re.compile(rf"(<!-- BEGIN generated: {name} -->\n).*?(<!-- END generated: {name} -->)", re.S)
        if not pattern.search(text):
            raise ValueError(f"{where} has no generated block {name!r}")
        text = pattern.sub(lambda m, body=body: m.group(1) + body + "\n" + m.group(2), text)
    return text


def updated_files(root: Path, blocks: dict[str, str]) -> dict[Path, tuple[str, str]]:
    """Each file of ``BLOCK_FILES`` under ``root``: (its text, its text with ``blocks`` written in); ValueError
    naming the file if one is missing or lacks its block (checked for every file before any is written)."""
    files = {}
    for relative in dict.fromkeys(BLOCK_FILES.values()):
        path = root / relative
        if not path.is_file():
            raise ValueError(f"{path}: no such file (it holds the generated blocks "
                             f"{', '.join(name for name, where in BLOCK_FILES.items() if where == relative)})")
        current = path.read_text()
        mine = {name: body for name, body in blocks.items() if BLOCK_FILES[name] == relative}
        files[path] = (current, update_readme(current, mine, relative))
    return files

