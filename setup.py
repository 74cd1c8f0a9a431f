"""The one build step pyproject.toml cannot declare: the wheel carries ``bench/step_cost.csv`` and
``bench/plugin_cost.csv``.

The harness bounds every plan by the per-slot costs of those tables (``reproduce.harness.cost``; the second prices a
plain-Python plug-in), read from ``bench/`` below the project's root: the clone's root, or the installed
``dts_reproduction`` folder.  ``bench/`` is not a package (its scripts stay in the clone), so the tables are copied
there at build time: two files, written by ``make bench`` and ``make bench-plugin``, shipped as they are.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

COST_TABLES = (Path("bench") / "step_cost.csv", Path("bench") / "plugin_cost.csv")


class BuildWithStepCosts(build_py):
    """``build_py`` that also copies ``COST_TABLES`` into the built package, at the same paths below its root (an
    editable install reads the clone's own)."""

    def run(self):
        """Build the packages, then add the cost tables."""
        super().run()
        if not self.editable_mode:
            for table in COST_TABLES:
                target = Path(self.build_lib) / "dts_reproduction" / table
                self.mkpath(str(target.parent))
                self.copy_file(str(Path(__file__).resolve().parent / table), str(target))


setup(cmdclass={"build_py": BuildWithStepCosts})
