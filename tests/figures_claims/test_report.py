"""reproduce/report.py: every claim listed, C19 computed (reproduce/claims/c19.py), every generated block
(README, docs/, bench/) current."""

import dataclasses
import math
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from dts_reproduction.reproduce.claims.c19 import c19_rows
from dts_reproduction.reproduce.claims.registry import EVERY_CLAIM, PAPER_CLAIMS, claim_id
from dts_reproduction.reproduce.claims.verdict import HOLDS, NOT_MEASURED
from dts_reproduction.reproduce.harness.paths import FIGURES
from dts_reproduction.reproduce.output.tables import markdown_table, write_table
from dts_reproduction.reproduce.reporting import claims_report, constants_table
from dts_reproduction.reproduce.studies.large_scale_study.large_scale_report import LARGE_SCALE_STUDY
from dts_reproduction.reproduce.studies.study import Study
from dts_reproduction.reproduce.studies.study_registry import STUDIES
from tests.bench_scripts import bench_script
from tests.scripts import run_script

ROOT = Path(__file__).resolve().parents[2]


def test_generated_blocks_agree_with_the_committed_tables_and_the_code():
    """The numbers in the README, docs/ and bench/README.md are the ones claims_report.py computes from figures/*.csv,
    bench/step_cost.csv and the code (never typed by hand), each block in the file BLOCK_FILES names."""
    blocks = claims_report.generated_blocks(ROOT / "figures")
    assert set(blocks) == set(claims_report.BLOCK_FILES)
    stale = [path.name for path, (current, wanted) in claims_report.updated_files(ROOT, blocks).items()
             if current != wanted]
    assert not stale, f"{stale} out of date: run python reproduce/report.py --readme README.md"


def test_a_changed_constant_makes_the_algorithms_doc_stale(monkeypatch):
    """The constants block is read from core/constants.py: change a constant without regenerating and the
    committed docs/algorithms.md no longer agrees (so the test above fails); a changed default, or a changed source
    of a registered algorithm, does the same."""
    blocks = claims_report.generated_blocks(ROOT / "figures")
    doc = ROOT / "docs" / "algorithms.md"
    btm = dataclasses.replace(constants_table.ALGORITHMS["btm"], defaults={"gamma": 1.4, "faithful_bug": True})
    rucb = dataclasses.replace(constants_table.ALGORITHMS["rucb"], reference="another paper")
    for change in (lambda patch: patch.setattr(constants_table.constants, "BTM_GAMMA", 1.4),
                   lambda patch: patch.setitem(constants_table.ALGORITHMS, "btm", btm),
                   lambda patch: patch.setitem(constants_table.ALGORITHMS, "rucb", rucb)):
        with monkeypatch.context() as patch:
            change(patch)
            fresh = {"constants": markdown_table(constants_table.constants_frame()),
                     "defaults": markdown_table(constants_table.defaults_frame()),
                     "registry": markdown_table(constants_table.registry_frame())}
        assert fresh != {name: blocks[name] for name in fresh}
        current, wanted = claims_report.updated_files(ROOT, {**blocks, **fresh})[doc]
        assert current != wanted


def test_a_constant_without_its_source_is_refused(tmp_path):
    (tmp_path / "constants.py").write_text("ALPHA = 0.51  # Sec. 5\nBETA = 2\n")
    with pytest.raises(ValueError, match="constant BETA has no comment naming its source"):
        constants_table.constant_sources(tmp_path / "constants.py")


def test_a_missing_block_file_is_refused_before_anything_is_written(tmp_path, capsys):
    """--readme with a docs page missing or lacking its block: one line naming the file (and the block), exit 2,
    and no file touched, not even the README whose blocks could be written."""
    (tmp_path / "README.md").write_text("".join(
        f"<!-- BEGIN generated: {name} -->\nold\n<!-- END generated: {name} -->\n"
        for name, where in claims_report.BLOCK_FILES.items() if where == "README.md"))
    readme = (tmp_path / "README.md").read_text()
    argv = ["--figures", str(ROOT / "figures"), "--readme", str(tmp_path / "README.md")]
    with pytest.raises(SystemExit) as stop:
        run_script("reproduce/report.py", argv)
    assert stop.value.code == 2 and "docs/figures.md: no such file" in capsys.readouterr().err
    for relative in set(claims_report.BLOCK_FILES.values()) - {"README.md"}:
        (tmp_path / relative).parent.mkdir(exist_ok=True)
        (tmp_path / relative).write_text("no markers\n")
    with pytest.raises(SystemExit) as stop:
        run_script("reproduce/report.py", argv)
    error = capsys.readouterr().err.strip()
    assert stop.value.code == 2
    assert re.fullmatch(r"error: docs/figures.md has no generated block '(bounds|compute)'", error)
    assert (tmp_path / "README.md").read_text() == readme
    assert all((tmp_path / relative).read_text() == "no markers\n"
               for relative in set(claims_report.BLOCK_FILES.values()) if relative != "README.md")


def test_every_claim_is_listed_and_unchecked_ones_are_not_measured(tmp_path):
    pd.DataFrame([{"claim": "C10(ii)", "where": "Fig. 1 (b)", "statement": "s", "measured": "m",
                   "verdict": HOLDS}]).to_csv(tmp_path / "fig1_mslr_claims.csv", index=False)
    table = claims_report.claims_table(tmp_path)
    ids = [claim_id(label) for label in table["claim"]]
    order = list(EVERY_CLAIM)
    assert list(dict.fromkeys(ids)) == order == [*PAPER_CLAIMS, "L1", "L2", "A1", "A2", "A3", "A4", "A5", "A6", "A7",
                                                        *(f"S{number}" for number in range(1, 12))], \
        "the paper's claims, then past it"
    assert ids == sorted(ids, key=order.index), "rows are in claim order"
    assert table.loc[table["claim"] == "C10(ii)", "verdict"].item() == HOLDS
    c4 = table[table["claim"] == "C4"].iloc[0]
    assert c4["verdict"] == NOT_MEASURED and "make fig3" in c4["measured"]
    l1 = table[table["claim"] == "L1"].iloc[0]
    assert l1["verdict"] == NOT_MEASURED and "make large-scale FORCE=1" in l1["measured"]
    assert "of 19 claims" in claims_report.summary(table, "")  # the paper's claims only


def final_row(panel, dataset, algorithm, mean, sem=1.0):
    """A row of a final table as the report reads it, its panel titled ``panel``, its id the matrix ``dataset``."""
    return {"panel": panel, "panel_id": dataset, "dataset": dataset, "algorithm": algorithm, "label": algorithm,
            "horizon": 1000, "runs": 100, "mean_final_regret": mean, "sem_final_regret": sem}


@pytest.mark.parametrize("dataset, ecw, verdict", [
    ("mslr5_condorcet", 300.0, "holds"),  # Condorcet: ECW-RMED 3x the best D-TS variant, "much better"
    ("mslr5_condorcet", 130.0, "direction holds, magnitude not reached"),
    ("mslr5_condorcet", 150.0, "factor at its threshold, within the noise"),  # exactly x1.5: within the noise
    ("mslr5_noncondorcet", 120.0, "holds"),  # non-Condorcet: "better or comparable" (within x1.5)
    ("mslr5_noncondorcet", 40.0, "FAILS"),
])
def test_c19_reads_condorcet_and_non_condorcet_panels_differently(tmp_path, dataset, ecw, verdict):
    rows = [final_row("p", dataset, name, mean) for name, mean in
            (("dts", 100.0), ("dts_plus", 110.0), ("rucb", 200.0), ("ecw_rmed", ecw))]
    (row,) = c19_rows({"fig1_mslr": pd.DataFrame(rows)})
    assert row["verdict"] == verdict


def test_c19_is_not_measured_while_a_curve_of_the_panel_is_missing():
    rows = [final_row("p", "mslr5_condorcet", name, mean) for name, mean in (("dts", 100.0), ("dts_plus", 110.0))]
    lines = pd.DataFrame([{"dataset": "mslr5_condorcet", "algorithm": "ecw_rmed", "runs": 0},
                          {"dataset": "mslr5_condorcet", "algorithm": "dts", "runs": 500}])
    (row,) = c19_rows({"fig1_mslr": pd.DataFrame(rows)}, {"fig1_mslr": lines})
    assert row["verdict"] == NOT_MEASURED and row["measured"] == "missing: ecw_rmed"


def test_c19_fails_when_a_baseline_beats_both_variants():
    rows = [final_row("p", "mslr5_condorcet", name, mean) for name, mean in
            (("dts", 100.0), ("dts_plus", 110.0), ("rucb", 50.0), ("ecw_rmed", 300.0))]
    assert c19_rows({"fig3_condorcet": pd.DataFrame(rows)})[0]["verdict"] == "FAILS"


def test_update_readme_refuses_a_readme_without_the_block():
    with pytest.raises(ValueError, match="no generated block 'claims'"):
        claims_report.update_readme("no markers here", {"claims": "x"})


def test_quick_report_says_it_is_not_evidence(tmp_path):
    quick = tmp_path / "quick"
    quick.mkdir()
    assert "not evidence" in claims_report.build_report(quick)


@pytest.mark.process
def test_missing_figures_folder_is_one_line_and_exit_2(tmp_path):
    proc = subprocess.run([sys.executable, str(ROOT / "reproduce" / "report.py"), "--figures",
                           str(tmp_path / "absent")], capture_output=True, text=True)
    assert proc.returncode == 2
    message = proc.stderr.strip()
    assert message.startswith("error: figures folder") and "does not exist" in message
    assert len(message.splitlines()) == 1
    assert not (tmp_path / "absent").exists()


def test_startup_block_is_rendered_from_the_startup_table(tmp_path):
    """docs/install.md's startup block: one row per step in the order measured, seconds with two decimals, the
    compilations, when, where and under which load; a checkout without the table says how to measure."""
    rows = [{"step": step, "cache": cache, "cpu_seconds": cpu, "wall_seconds": wall, "compiles": compiles,
             "load_average": load, "measured": "2026-12-02 01:00 UTC", "commit": "0123456789abcdef"}
            for step, cache, cpu, wall, compiles, load in [("first DTS(5).select()", "cold", 24.456, 30.0, 80, 2.5),
                                                           ("make warm-cache", "warm", 6.0, 6.5, 0, 3.25)]]
    pd.DataFrame(rows).to_csv(tmp_path / "startup.csv", index=False)
    text = claims_report.startup_table(tmp_path / "startup.csv")
    assert "on 2026-12-02 01:00 UTC at commit 0123456, load average 2.5-3.2" in text
    lines = text.splitlines()
    assert lines[2] == "| step (a new process each) | numba cache | CPU s | wall s | compilations |"
    assert lines[4:] == ["| first DTS(5).select() | cold | 24.46 | 30.00 | 80 |",
                         "| make warm-cache | warm | 6.00 | 6.50 | 0 |"]
    assert claims_report.startup_table(tmp_path / "missing.csv") == ("Not measured in this checkout: run "
                                                             "`python bench/startup.py`.")


def test_bench_block_is_rendered_from_the_bench_table(tmp_path):
    """The README's bench block: one row per algorithm / options, one column per K, ns and x Beta from the
    CSV `make bench` writes; a checkout without it says how to measure."""
    rows = [{"algorithm": a, "options": s, "K": K, "ns_later": ns, "x_beta": ns / 40.0, "beta_ns": 40.0,
             "measured": "2026-11-26 12:00 UTC", "commit": "0123456789abcdef", "load_average": 2.0}
            for a, s, K, ns in [("dts", "-", 5, 1000.0), ("dts", "sampling=fast", 5, 4.0),
                                ("dts", "-", 16, 2000.0), ("rucb", "-", 5, 300.0),
                                ("rucb", "-", 16, 48000.0)]]
    pd.DataFrame(rows).to_csv(tmp_path / "step_cost.csv", index=False)
    text = claims_report.bench_table(tmp_path / "step_cost.csv")
    assert "one Beta draw 40.0 ns" in text and "commit 0123456" in text and "load average 2.0" in text
    assert "re-measured" not in text
    assert "| algorithm | options | K = 5 | K = 16 |" in text
    assert "| dts | - | 1,000 (25) | 2,000 (50) |" in text
    assert "| dts | sampling=fast | 4 (0.1) | - |" in text and "| rucb | - | 300 (7.5) | 48,000 (1,200) |" in text
    assert "whole run" not in text
    whole = pd.DataFrame(rows).assign(ns_whole=[900.0, 2.0, 1800.0, 250.0, 40000.0],
                                      whole_slots=[1_000_000, 1_000_000, 1_000_000, 1_000_000, 1_000_000])
    whole.to_csv(tmp_path / "step_cost.csv", index=False)
    text = claims_report.bench_table(tmp_path / "step_cost.csv")
    assert "whole run from slot 1 (T = 1e+06 at K = 5, 16;" in text
    assert "| dts | - | 900 (22.5) | 1,800 (45) |" in text and "| rucb | - | 250 (6.25) | 40,000 (1,000) |" in text
    # A row without a whole run (e.g. the defaults at K = 2000, too slow to time whole) shows "-", not nan.
    whole.assign(ns_whole=[900.0, 2.0, float("nan"), 250.0, 40000.0],
                 whole_slots=[1_000_000, 1_000_000, 0, 1_000_000, 1_000_000]).to_csv(tmp_path / "step_cost.csv",
                                                                                    index=False)
    text = claims_report.bench_table(tmp_path / "step_cost.csv")
    assert "nan" not in text and "T = 0e+00" not in text and "| dts | - | 900 (22.5) | - |" in text
    assert claims_report.bench_table(tmp_path / "missing.csv") == "Not measured in this checkout: run `make bench`."


def test_bench_block_names_rows_measured_later_with_merge(tmp_path):
    """Rows replaced by ``bench/step_cost.py --merge`` keep their own date, commit, load and Beta cost, and
    the block says which rows they are; the merge replaces rows by (algorithm, options, K), keeps the rest
    and their order."""
    module = bench_script("step_cost")
    base = {"measured": "2026-11-26 12:00 UTC", "commit": "0123456789abcdef", "load_average": 2.0, "beta_ns": 40.0}
    old = pd.DataFrame([{"algorithm": a, "options": o, "K": K, "ns_later": 100.0, **base}
                        for a in ("dts", "rucb") for K in (5, 16) for o in ("-", "fast")])
    new = pd.DataFrame([{"algorithm": "dts", "options": "fast", "K": 16, "ns_later": 8.0,
                         "measured": "2026-11-27 01:00 UTC", "commit": "fedcba9876543210", "load_average": 3.5,
                         "beta_ns": 32.0}])
    merged = module.merge_rows(old, new)
    assert len(merged) == len(old)
    assert merged[["algorithm", "options", "K"]].equals(old[["algorithm", "options", "K"]])
    assert merged.loc[3, "ns_later"] == 8.0 and (merged.drop(index=3)["ns_later"] == 100.0).all()
    merged.to_csv(tmp_path / "step_cost.csv", index=False)
    text = claims_report.bench_table(tmp_path / "step_cost.csv")
    assert "commit 0123456, load average 2.0, one Beta draw 40.0 ns" in text
    assert "the rows of dts at K = 16 measured 2026-11-27 01:00 UTC at commit fedcba9, load average 3.5" in text
    assert "| dts | fast | 100 (2.5) | 8 (0.25) |" in text


def test_compute_block_counts_the_lines_not_computed_yet(tmp_path):
    """Per figure: its lines, those still missing (commits "missing"), the runs and worker hours stored.  The
    large-scale table gives a missing line its planned runs and a status: it read "0 not computed yet" with 27
    lines missing or over budget, and counted their runs as stored."""
    rows = [{"dataset": "gap", "line": f"dts_T{t}", "algorithm": "dts", "horizon": t, "delay": 1, "runs": runs,
             "worker_seconds": seconds, "cpu_seconds": seconds, "commits": commits}
            for t, runs, seconds, commits in ((10, 500, 1800.0, "abc"), (30, 500, 3600.0, "abc def"),
                                              (100, 0, 0.0, "missing"))]
    write_table(pd.DataFrame(rows), tmp_path / "figX_lines.csv")
    planned = [{"dataset": "gap", "tag": "D-TS", "runs": 50, "status": status, "worker_seconds": seconds,
                "commits": commits} for status, seconds, commits in (("stored", 7200.0, "abc"),
                                                                      ("missing", math.nan, "missing"),
                                                                      ("over budget", math.nan, "missing"))]
    write_table(pd.DataFrame(planned), tmp_path / "large_scale_lines.csv")
    table = claims_report.compute_table(tmp_path)
    assert table.to_dict("records") == [
        {"figure": "figX", "lines": 3, "not computed yet": 1, "runs": 1000, "worker hours": 1.5},
        {"figure": "large_scale", "lines": 3, "not computed yet": 2, "runs": 50, "worker hours": 2.0}]


def test_c19_on_the_500_armed_panel_needs_only_the_d_ts_it_draws():
    """D-TS+ is not run on 500 arms, so C19 required a curve that never comes and stayed "not measured"."""
    rows = [final_row("(d) 500", "copeland500", name, mean) for name, mean in
            (("ccb", 900.0), ("scb", 800.0), ("ecw_rmed", 120.0), ("dts", 100.0))]
    lines = pd.DataFrame([{"dataset": "copeland500", "algorithm": name, "runs": 10}
                          for name in ("ccb", "scb", "ecw_rmed", "dts")])
    (row,) = c19_rows({"fig4_noncondorcet": pd.DataFrame(rows)}, {"fig4_noncondorcet": lines})
    assert row["verdict"] == HOLDS and "dts_plus" not in row["measured"]
    # a panel that draws D-TS+ still waits for it
    lines = pd.concat([lines, pd.DataFrame([{"dataset": "copeland500", "algorithm": "dts_plus", "runs": 0}])])
    (row,) = c19_rows({"fig4_noncondorcet": pd.DataFrame(rows)}, {"fig4_noncondorcet": lines})
    assert row["verdict"] == NOT_MEASURED and row["measured"] == "missing: dts_plus"


def test_c19_rows_of_a_quick_run_are_marked_not_evidence(tmp_path):
    """The figures mark their quick-run verdicts; C19, computed by the report, came out as plain 'holds'."""
    quick = tmp_path / "quick"
    quick.mkdir()
    rows = [final_row("p", "mslr5_condorcet", name, mean) for name, mean in
            (("dts", 100.0), ("dts_plus", 110.0), ("rucb", 300.0), ("ecw_rmed", 300.0))]
    write_table(pd.DataFrame(rows), quick / "fig1_mslr_final.csv")
    def c19_verdicts(folder):
        table = claims_report.claims_table(folder)
        return table.loc[(table["claim"] == "C19") & table["where"].str.startswith("fig1_mslr"), "verdict"].tolist()

    (verdict,) = c19_verdicts(quick)
    assert verdict.startswith("quick run, not evidence") and verdict.endswith(f"({HOLDS})")
    write_table(pd.DataFrame(rows), tmp_path / "fig1_mslr_final.csv")
    assert c19_verdicts(tmp_path) == [HOLDS]


def test_a_claim_checked_by_one_of_its_figures_only_is_not_measured_on_the_other(tmp_path):
    """C15 is C15a (fig2) and C15b (fig4): with fig4's rows alone the report showed C15 as fully checked."""
    pd.DataFrame([{"claim": "C15b", "where": "Fig. 4 (c)", "statement": "s", "measured": "m", "verdict": HOLDS}]
                 ).to_csv(tmp_path / "fig4_noncondorcet_claims.csv", index=False)
    table = claims_report.claims_table(tmp_path)
    c15 = table[table["claim"] == "C15"]
    assert c15["verdict"].tolist() == [NOT_MEASURED] and c15["where"].item() == "fig2"
    assert c15["measured"].item() == "not measured yet: run make fig2"
    c19 = table[table["claim"] == "C19"]
    assert c19["measured"].item() == "not measured yet: run make fig1, make fig3, make fig4"


def test_report_collects_claims_and_final_tables(tmp_path):
    (tmp_path / "figX_final.csv").write_text(
        "panel,dataset,algorithm,label,horizon,runs,mean_final_regret,std_final_regret,sem_final_regret\n"
        "(a),gap,dts,D-TS,100,2,18.25,5.0,3.5\n")
    (tmp_path / "figX_claims.csv").write_text("claim,where,statement,measured,verdict\nC1,w,s,m,holds\n")
    run_script("reproduce/report.py", ["--figures", str(tmp_path)])
    text = (tmp_path / "REPORT.md").read_text()
    assert "## Final regret R(T): figX" in text and "| C1 | w | s | m | holds |" in text
    assert "| (a) | D-TS | 100 | 2 | 18.2 |" in text


def test_the_report_lists_the_lines_over_budget_with_what_they_would_need(tmp_path):
    """Issue 23: "If a line does not fit, say what it would need."  The report lists every line over budget,
    cheapest first, with its estimate and the total; stored and missing lines are not listed, and a folder
    without lines over budget has no such section."""
    planned = [{"dataset": "mslr136_perfect", "tag": tag, "horizon": 10**7, "runs": 50, "status": status,
                "estimated_cpu_hours": hours, "worker_seconds": math.nan, "commits": "missing"}
               for tag, status, hours in (("ECW-RMED", "over budget", 3.0), ("RCS", "missing", 0.5),
                                          ("D-TS, T=1e8", "over budget", 1.0), ("D-TS", "stored", 0.2))]
    write_table(pd.DataFrame(planned), tmp_path / "large_scale_lines.csv")
    section = "\n".join(LARGE_SCALE_STUDY.section(tmp_path, "../"))
    assert section.startswith("## Lines over the study's budget\n\n2 lines do not fit the large-scale study's budget "
                              "of 24 CPU hours (12 hours on 2 cores, `--budget`) and are not computed. By their "
                              "estimates they would need 4 CPU hours more, 2 hours on 2 cores")
    listed = [line for line in section.split("\n") if line.startswith("| large_scale")]
    assert listed == ["| large_scale | mslr136_perfect | D-TS, T=1e8 | 10000000 | 50 | 1 |",
                      "| large_scale | mslr136_perfect | ECW-RMED | 10000000 | 50 | 3 |"]
    write_table(pd.DataFrame(planned).query("status != 'over budget'"), tmp_path / "large_scale_lines.csv")
    assert LARGE_SCALE_STUDY.section(tmp_path, "../") == []


def test_a_report_of_no_checked_claim_says_so(tmp_path):
    # It read "0 of 19 claims hold on every check: ." above a list of every claim not measured.
    text = claims_report.summary(claims_report.claims_table(tmp_path), "")
    assert text == ("**What reproduces.** No claim was checked: this folder holds no figure's claims table (make the "
                    "figures first).")
    pd.DataFrame([{"claim": "C10(ii)", "where": "Fig. 1 (b)", "statement": "s", "measured": "m",
                   "verdict": "fails"}]).to_csv(tmp_path / "fig1_mslr_claims.csv", index=False)
    assert claims_report.summary(claims_report.claims_table(tmp_path), "").startswith(
        "**What reproduces.** 0 of 19 claims hold on every check. Of all ")


def test_every_study_writes_the_blocks_it_declares_into_its_file():
    """Each study's record names its blocks and their file; from the committed tables it writes exactly those, and the
    report places them in that file (``BLOCK_FILES``).  A study that writes an undeclared block is refused by name."""
    for study in STUDIES:
        assert set(study.written_blocks(FIGURES)) == set(study.block_names), study.stem
        assert all(claims_report.BLOCK_FILES[name] == study.block_file for name in study.block_names), study.stem
    stray = Study("toy", "make toy", block_file="README.md", block_names=("toy",),
                  blocks=lambda folder: {"toy": "x", "other": "y"})
    with pytest.raises(ValueError, match="study toy: wrote the blocks"):
        stray.written_blocks(FIGURES)


def test_a_registered_study_reaches_the_report_without_a_report_edit(tmp_path, monkeypatch):
    """Adding a study is its module plus a registry line: a toy study's section appears in REPORT.md, and the
    report's code (reproduce/reporting/) names none of the registered studies and imports only their registry."""
    toy = Study("toy_study", "make toy", report_section=lambda folder, docs: ["## The toy study's section", ""])
    monkeypatch.setattr(claims_report, "STUDIES", (*STUDIES, toy))
    assert "## The toy study's section" in claims_report.build_report(tmp_path)
    source = Path(claims_report.__file__).parent.glob("*.py")
    names = {study.stem for study in STUDIES} | {"asymptotic", "large_scale", "fidelity", "c18"}
    for path in source:
        text = path.read_text()
        assert not [name for name in names if f'"{name}' in text or f"studies.{name}" in text], path
        assert "reproduce.studies." not in text.replace("reproduce.studies.study_registry", ""), path
