"""reproduce/claims/registry.py: one claim is defined once.  Every claim id the committed claims tables produce is
registered, every registered claim is produced by each figure it names, its statement is written exactly once in
the sources under reproduce/ and no other literal there copies part of it, and the registry imports nothing from
the project.  The last test runs the same checks on made-up inputs to show that they catch an unregistered id, an
unproduced claim, a copied statement and a copied part of one."""

import ast
from pathlib import Path

from dts_reproduction.reproduce.claims.c19 import c19_rows
from dts_reproduction.reproduce.claims.registry import EVERY_CLAIM, claim_id
from dts_reproduction.reproduce.reporting import claims_report
from tests.harness.test_layers import imports_of, project

ROOT = Path(__file__).resolve().parents[2]
FIGURES = ROOT / "figures"
REGISTRY = ROOT / "reproduce" / "claims" / "registry.py"


def produced(folder: Path) -> set[tuple[str, str]]:
    """(row label, table stem) of every check in ``folder``: the rows of each ``<stem>_claims.csv`` and the C19
    rows computed from the final tables (the report's ``claims_table`` collects the same)."""
    pairs = {(label, stem) for stem, table in claims_report.read_study_tables(folder, "_claims.csv").items()
             for label in table["claim"]}
    c19 = c19_rows(claims_report.read_study_tables(folder, "_final.csv"))
    return pairs | {(row["claim"], row["site"].split(":")[0]) for row in c19}


def unregistered(labels) -> list[str]:
    """The row labels whose claim id (``claim_id``: "C10(ii)" -> "C10") is not registered, sorted."""
    return sorted({label for label in labels if claim_id(label) not in EVERY_CLAIM})


def unproduced(pairs) -> list[tuple[str, str]]:
    """(claim id, stem) for each figure a registered claim names whose table has no row of it (``pairs``: (row
    label, stem) as ``produced`` gives them)."""
    have = {(claim_id(label), stem) for label, stem in pairs}
    return [(claim.id, stem) for claim in EVERY_CLAIM.values() for stem in claim.figures
            if (claim.id, stem) not in have]


# A passage of a statement this long, found in another string literal, is a copy of the statement's text.  At 30
# characters no literal of reproduce/ shares a passage with a statement but the registry's own (20 finds phrases
# such as "Non-Condorcet Cyclic"); the copy of L1's wording that large_scale.py held shares 90.
PASSAGE = 30


def string_literals(source: str, docstrings: bool = True) -> list[str]:
    """The string literals of the Python ``source`` as Python reads them (implicitly joined lines are one literal);
    without the docstrings if ``docstrings`` is False."""
    tree = ast.parse(source)
    skip = set() if docstrings else {
        id(node.body[0].value) for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body
        and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip]


def statement_counts(sources: dict[str, str]) -> dict[str, int]:
    """{claim id: how many times its statement occurs in the string literals of ``sources``} ({name: Python
    source}), docstrings included."""
    literals = [literal for text in sources.values() for literal in string_literals(text)]
    return {claim.id: sum(literal.count(claim.statement) for literal in literals) for claim in EVERY_CLAIM.values()}


def shared_passages(sources: dict[str, str]) -> dict[str, list[str]]:
    """{claim id: the names of ``sources`` with a string literal, other than the statement itself, that holds a
    PASSAGE-character part of its statement} for the claims that have one: a copy of part of the wording.
    Docstrings are left out (a check's docstring cites the paper's words for the claim it checks)."""
    literals = {name: string_literals(source, docstrings=False) for name, source in sources.items()}
    found = {}
    for claim in EVERY_CLAIM.values():
        text = claim.statement
        parts = {text[start:start + PASSAGE] for start in range(max(len(text) - PASSAGE, 0) + 1)}
        names = [name for name, held in literals.items()
                 if any(literal != text and any(part in literal for part in parts) for literal in held)]
        if names:
            found[claim.id] = names
    return found


def reproduce_sources() -> dict[str, str]:
    """Every Python source under reproduce/, by path."""
    return {str(path): path.read_text() for path in sorted((ROOT / "reproduce").rglob("*.py"))}


def test_every_claim_id_of_the_committed_tables_is_registered():
    labels = [label for label, _ in produced(FIGURES)]
    assert labels, "no claims table under figures/"
    assert unregistered(labels) == []


def test_every_registered_claim_is_produced_by_each_of_its_figures():
    assert unproduced(produced(FIGURES)) == []
    assert all(stem in claims_report.FIGURE_COMMANDS for claim in EVERY_CLAIM.values() for stem in claim.figures), \
        "a figure without the command that measures it"


def test_every_statement_is_written_once_under_reproduce():
    sources = reproduce_sources()
    assert {name: n for name, n in statement_counts(sources).items() if n != 1} == {}
    assert shared_passages(sources) == {}


def test_the_registry_imports_nothing_from_the_project():
    """So that every checking, collecting or rendering module can import it (never the report, nor a figure)."""
    found = project(ROOT)
    relative = REGISTRY.relative_to(ROOT)
    assert imports_of(relative, found.trees[relative], found.modules) == []


def test_the_checks_catch_an_unregistered_id_an_unproduced_claim_and_a_copied_statement():
    assert unregistered(["C10(ii)", "C15a", "L1", "C20", "X1"]) == ["C20", "X1"]
    pairs = produced(FIGURES)
    assert unproduced({pair for pair in pairs if claim_id(pair[0]) != "C15" or pair[1] != "fig2_regret_std"}) \
        == [("C15", "fig2_regret_std")]
    assert ("C19", "fig4_noncondorcet") in unproduced({pair for pair in pairs if pair[0] != "C19"})
    sources = reproduce_sources()
    statement = EVERY_CLAIM["L1"].statement
    head, tail = statement[:40], statement[40:]
    copied = {**sources, "copy.py": f"ROW = ({head!r}\n       {tail!r})\n"}  # split over two lines, joined by Python
    assert statement_counts(copied)["L1"] == 2
    reworded = {**sources, "copy.py": f"ROW = {statement[:-len(', at T = 1e7 and 1e8.')]!r}\n"}  # what it once was
    assert statement_counts(reworded)["L1"] == 1 and shared_passages(reworded) == {"L1": ["copy.py"]}
    cited = {**sources, "copy.py": f"def check():\n    {statement!r}\n"}
    assert shared_passages(cited) == {} and statement_counts(cited)["L1"] == 2
    without = {path: text for path, text in sources.items() if Path(path) != REGISTRY}
    assert set(statement_counts(without).values()) == {0}
