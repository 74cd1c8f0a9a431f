"""docs/verdicts.md's table of every claim's rule (its section "Every claim's rule") has a row for each claim of
``registry.EVERY_CLAIM`` and names no other, so the table cannot drift from the registry."""

from pathlib import Path

from dts_reproduction.reproduce.claims.registry import EVERY_CLAIM, claim_id

ROOT = Path(__file__).resolve().parents[2]
HEADING = "## Every claim's rule"


def table_claims(text: str) -> list[str]:
    """The first cells of the rows of the first markdown table in the section ``HEADING`` of ``text`` (its header
    and separator rows left out); ValueError if the section or its table is missing."""
    if HEADING not in text:
        raise ValueError(f"no section {HEADING!r}")
    section = text.split(HEADING, 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    if len(rows) < 3:
        raise ValueError(f"no table in the section {HEADING!r}")
    return [row.split("|")[1].strip() for row in rows[2:]]


def test_every_registered_claim_has_a_row_and_every_row_a_registered_claim():
    labels = table_claims((ROOT / "docs" / "verdicts.md").read_text())
    named = {claim_id(label) for label in labels}
    assert not set(EVERY_CLAIM) - named, f"registered claims without a row: {sorted(set(EVERY_CLAIM) - named)}"
    assert not named - set(EVERY_CLAIM), f"rows naming no registered claim: {sorted(named - set(EVERY_CLAIM))}"


def test_a_missing_or_unknown_claim_is_found():
    """The check can fail: a table without C2 and with a C20 row gives both away."""
    text = (f"{HEADING}\n\n| claim | words |\n|---|---|\n| C1 | x |\n| C10(ii) | y |\n| C20 | z |\n\n"
            "## Next\n\n| claim |\n|---|\n| C2 |\n")
    assert table_claims(text) == ["C1", "C10(ii)", "C20"]
    named = {claim_id(label) for label in table_claims(text)}
    assert "C2" not in named and "C20" in named and "C20" not in EVERY_CLAIM
