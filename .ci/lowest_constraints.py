"""Print a constraints file that pins every ``name>=version`` requirement of pyproject.toml (its dependencies and
every extra) at its lower bound, so that a venv installed with it holds the lowest versions the ranges allow.
.ci/run installs the live API's tests with it (docs/install.md, "What was checked").

Usage: python .ci/lowest_constraints.py > lowest.txt
"""

import re
import tomllib
from pathlib import Path

LOWER_BOUND = re.compile(r"^([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?>=([^,;\s]+)$")


def lowest(pyproject: Path) -> list[str]:
    """One ``name==version`` line per requirement of ``pyproject`` that has a lower bound (extras dropped: a
    constraint names a package only)."""
    project = tomllib.loads(pyproject.read_text())["project"]
    extras = project["optional-dependencies"].values()
    requirements = [*project["dependencies"], *(requirement for extra in extras for requirement in extra)]
    return [f"{match[1]}=={match[2]}" for match in map(LOWER_BOUND.match, requirements) if match]


if __name__ == "__main__":
    print("\n".join(lowest(Path(__file__).resolve().parent.parent / "pyproject.toml")))
