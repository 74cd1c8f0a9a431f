"""Claims are attached to panels by ``Panel.key`` (matrix and metric), never by position or title (issue 33): the
figures' claims from their committed runs come out the same when the panels are reordered and retitled, each on
the same site (``Site.id``), so each keeps its reason (``reproduce.claims.reasons``, keyed by claim and site)."""

import dataclasses

import pytest

from dts_reproduction.reproduce.claims import paper_checks as pc
from dts_reproduction.reproduce.claims.registry import FIG1, FIG3, FIG4, FIG7
from dts_reproduction.reproduce.config.paper import HORIZON, ROOT_SEED
from dts_reproduction.reproduce.harness.paths import RESULTS
from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.reporting.claims_report import explained, reason_of
from dts_reproduction.reproduce.studies.experiment import simulate_panels
from dts_reproduction.reproduce.studies.paper_figures import condorcet_figure, mslr_figure, noncondorcet_figure
from dts_reproduction.reproduce.studies.paper_figures.figures import PAPER_FIGURES

# The regret figures (their claims are their ``Study.claim_rows``) and, by stem, the per-panel claims of those that
# attach claims to panels through a table.
REGRET_FIGURES = [study for study in PAPER_FIGURES.values() if study.claim_rows is not None]
PANEL_CLAIMS = {FIG1: mslr_figure.PANEL_CLAIMS, FIG3: condorcet_figure.PANEL_CLAIMS,
                FIG4: noncondorcet_figure.PANEL_CLAIMS}


def stored_results(panels, tmp_path):
    """[(title, [LineResult])] of ``panels`` from the committed runs (nothing computed or written to results/)."""
    settings = Settings.library(default_horizon=HORIZON, out=RESULTS, figures=tmp_path, seed=ROOT_SEED,
                                plot_only=True, stored_only=True)
    return simulate_panels("keys", panels, settings)


def verdicts(rows, renamed=None) -> list:
    """(claim, site, where, verdict, measured, reason) of every row, "where" read through ``renamed`` ({new title:
    old}); reason: the recorded reason of a row that needs one (``explained``), else None."""
    renamed = renamed or {}
    out = []
    for row in rows:
        where = row["where"]
        for new, old in renamed.items():
            where = where.replace(new, old)
        reason = reason_of(row["claim"], row["site"]) if explained(row["verdict"]) else None
        out.append((row["claim"], row["site"], where, row["verdict"], row["measured"], reason))
    return sorted(out, key=lambda row: row[:5])


@pytest.mark.parametrize("study", REGRET_FIGURES, ids=lambda study: study.stem)
def test_claims_and_reasons_follow_the_panel_key_through_a_reorder_and_a_retitle(study, tmp_path):
    """Reverse the panels and rename every title: every claim row is the same, on the same site, with the same
    reason; and every row that needs a reason has one."""
    panels = study.panels
    results = stored_results(panels, tmp_path)
    expected = verdicts(study.claim_rows(panels, results))
    moved = tuple(dataclasses.replace(panel, title=f"{panel.title} (moved)") for panel in reversed(panels))
    moved_results = [(f"{title} (moved)", curves) for title, curves in reversed(results)]
    got = verdicts(study.claim_rows(moved, moved_results), {f"{panel.title} (moved)": panel.title for panel in panels})
    assert got == expected
    assert len(expected) >= sum(len(checks) for checks in PANEL_CLAIMS.get(study.stem, {}).values())
    assert all(reason is not None for *_, verdict, _, reason in expected if explained(verdict))
    if study.stem != FIG7:  # Fig. 7's claims all hold: no reason to carry
        assert any(reason is not None for *_, reason in expected), "the figure has rows with reasons to carry"


@pytest.mark.parametrize("stem", sorted(PANEL_CLAIMS))
def test_every_claimed_panel_key_is_a_panel_of_its_figure(stem):
    """A claim attached to a key the figure has no panel of would be dropped: each key names exactly one panel."""
    keys = [panel.key for panel in PAPER_FIGURES[stem].panels]
    assert len(set(keys)) == len(keys)
    assert set(PANEL_CLAIMS[stem]) <= set(keys)


def test_an_unknown_panel_key_is_one_clear_error():
    """``panel_result`` names the key and the figure's keys."""
    with pytest.raises(ValueError, match="no panel 'nope' in this figure"):
        pc.panel_result(PAPER_FIGURES[FIG1].panels, [("a", []), ("b", [])], "nope")
