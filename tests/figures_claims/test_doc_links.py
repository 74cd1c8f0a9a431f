"""Every relative link of the README, docs/*.md, bench/README.md, NOTES.md and data/README.md leads somewhere: to
an existing file and, for a ``#anchor`` into a markdown file, to one of its headings (or an explicit ``<a id>``), so
that the README's one-click map of the documentation stays true."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "bench" / "README.md", ROOT / "NOTES.md",
         ROOT / "data" / "README.md"]
# [text](target) and <img src="target">; code spans are dropped first, so `a[i](x)` in code is no link.
LINK = re.compile(r"\]\(([^)\s]+)\)|<img [^>]*src=\"([^\"]+)\"")
CODE_SPAN = re.compile(r"`[^`\n]*`")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, code marks and punctuation dropped (hyphens and
    underscores kept), each space a hyphen."""
    text = heading.strip().lower().replace("`", "")
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of a markdown file: its headings' slugs (a repeated slug numbered -1, -2, ... as GitHub
    does) and its explicit ``<a id="...">`` anchors."""
    text = FENCE.sub("", path.read_text())
    found, seen = set(), {}
    for heading in re.findall(r"^#{1,6} (.+)$", text, flags=re.M):
        base = slug(heading)
        found.add(base if base not in seen else f"{base}-{seen[base]}")
        seen[base] = seen.get(base, 0) + 1
    return found | set(re.findall(r"<a id=\"([^\"]+)\"", text))


def links(path: Path) -> list[str]:
    """The relative link targets of a markdown file (no URL scheme, no mail), outside code."""
    text = CODE_SPAN.sub("", FENCE.sub("", path.read_text()))
    targets = [a or b for a, b in LINK.findall(text)]
    return [target for target in targets if not re.match(r"[a-z]+:", target)]


def test_slug_matches_githubs_rule():
    assert slug('What `sampling="fast"` is (D-TS, D-TS+, pure D-TS)') == "what-samplingfast-is-d-ts-d-ts-pure-d-ts"
    assert slug("Locks: several runs on one results folder") == "locks-several-runs-on-one-results-folder"
    assert slug("Every algorithm at K = 2000") == "every-algorithm-at-k--2000"


def test_a_broken_link_is_found(tmp_path):
    """The check can fail: a missing file and a missing heading are both reported."""
    (tmp_path / "a.md").write_text("# Title\n\n[ok](#title) [bad](#nowhere) [gone](b.md) `[code](c.md)`\n")
    assert links(tmp_path / "a.md") == ["#title", "#nowhere", "b.md"]
    assert anchors(tmp_path / "a.md") == {"title"}


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(page):
    broken = []
    for target in links(page):
        file, _, anchor = target.partition("#")
        path = (page.parent / file).resolve() if file else page
        if not path.exists():
            broken.append(f"{target}: no such file")
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            broken.append(f"{target}: no heading #{anchor} in {path.relative_to(ROOT)}")
    assert not broken, broken


def test_the_readme_maps_every_docs_page():
    """Every page under docs/, the benchmarks and the notes are one click from the README; every docs page
    from the docs index."""
    readme = set(links(ROOT / "README.md"))
    assert {"bench/README.md", "NOTES.md"} <= readme
    index = set(links(ROOT / "docs" / "README.md"))
    for page in sorted((ROOT / "docs").glob("*.md")):
        assert f"docs/{page.name}" in readme, page.name
        if page.name != "README.md":
            assert page.name in index, page.name
