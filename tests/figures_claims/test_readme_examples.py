"""The Python examples of the documentation run as printed: every block fenced as ```python in the README, the
pages under docs/, bench/README.md and data/README.md is executed, each in a fresh namespace, from the
repository root."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "bench" / "README.md",
         ROOT / "data" / "README.md"]
BLOCKS = [(f"{page.relative_to(ROOT).as_posix()} python block {number}", block) for page in PAGES
          for number, block in enumerate(re.findall(r"^```python\n(.*?)^```", page.read_text(), flags=re.M | re.S),
                                         start=1)]


def test_the_docs_have_python_examples():
    """The live-use page's two examples and the data README's are found (the pattern cannot silently miss)."""
    assert {name.split(" python")[0] for name, _ in BLOCKS} >= {"docs/live-use.md", "data/README.md"}
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("name, block", BLOCKS, ids=[name for name, _ in BLOCKS])
def test_docs_block_runs(name, block, monkeypatch):
    monkeypatch.chdir(ROOT)
    exec(compile(block, name, "exec"), {"__name__": "__readme__"})
