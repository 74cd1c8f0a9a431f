"""The one build step pyproject.toml cannot declare: the wheel carries ``bench/step_cost.csv``.

The harness bounds every plan by the per-slot costs of that table (``reproduce.harness.cost``), read from
``bench/step_cost.csv`` below the project's root: the clone's root, or the installed ``dts_reproduction`` folder.
``bench/`` is not a package (its scripts stay in the clone), so the table is copied there at build time: one file,
written by ``make bench``, shipped as it is.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

STEP_COSTS = Path("bench") / "step_cost.csv"


class BuildWithStepCosts(build_py):
    """``build_py`` that also copies ``STEP_COSTS`` into the built package, at the same path below its root (an
    editable install reads the clone's own)."""

    def run(self):
        """Build the packages, then add the step-cost table."""
        super().run()
        if not self.editable_mode:
            target = Path(self.build_lib) / "dts_reproduction" / STEP_COSTS
            self.mkpath(str(target.parent))
            self.copy_file(str(Path(__file__).resolve().parent / STEP_COSTS), str(target))


setup(cmdclass={"build_py": BuildWithStepCosts})
