"""Which module may import which (docs/harness.md, "Module map").  The command line (the package
``reproduce.cli``: its parsing, and ``reproduce.cli.figure`` built on it) is imported only by entry points,
the scripts run as ``python <script>.py``; the library -- the harness ``reproduce.harness``, the experiment,
tables, claims and plotting modules -- never loads it, even through another module; the harness depends on no other
``reproduce`` package than ``config`` (the paper's constants, a run's scale); no figure script imports another; a
table is written without matplotlib; and every ``reproduce`` module a source or a test names exists in this
repository (the installed project would otherwise answer an import of a moved module from another checkout).
Each rule is checked on the sources (``ast``) or in a fresh interpreter, and the checks are run on small made-up
sources to show that they catch what they guard."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLI = "reproduce.cli"  # the command line itself, a package: parsing and the scripts' shared main
FIGURE_PREFIX = "reproduce.fig"  # reproduce/fig1_mslr.py ... fig7_pure_dts.py
HARNESS = "reproduce.harness"
HARNESS_MAY_IMPORT = {"reproduce.config"}  # besides the harness itself: the paper's constants, a run's scale


def module_name(path: Path) -> str:
    """The dotted name of the source file ``path`` below the repository root."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def sources() -> dict[str, ast.Module]:
    """Every module of ``reproduce/`` (with the harness), ``bench/``, ``core/``, ``algorithms/`` and ``data/``,
    parsed, by dotted name."""
    files = sorted(path for folder in ("reproduce", "bench", "core", "algorithms", "data")
                   for path in ROOT.glob(f"{folder}/**/*.py"))
    return {module_name(path): ast.parse(path.read_text(), str(path)) for path in files}


def sources_of_tests() -> dict[str, ast.Module]:
    """Every module of ``tests/``, parsed, by dotted name."""
    return {module_name(path): ast.parse(path.read_text(), str(path)) for path in sorted(ROOT.glob("tests/**/*.py"))}


def short(name: str) -> str:
    """A module name without the installed package's prefix (``dts_reproduction.reproduce.cli`` ->
    ``reproduce.cli``), as this file names modules by their folders."""
    return name.removeprefix("dts_reproduction.")


def full(name: str) -> str:
    """The importable name of ``name`` (a short name in the project's packages, or a bench script)."""
    return f"dts_reproduction.{name}" if name.split(".")[0] in {"core", "algorithms", "data", "reproduce"} else name


def imports(tree: ast.Module, module: str) -> set[str]:
    """Every module ``tree`` imports, anywhere in it: ``import a.b`` gives a.b, ``from a import b`` gives a and
    a.b (b may be a module), a relative import is resolved against ``module``."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {short(alias.name) for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = short(node.module or "")
            if node.level:
                package = module.split(".")[:-node.level]
                base = ".".join([*package, base] if base else package)
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return found


def is_entry_point(tree: ast.Module) -> bool:
    """Whether the module is a script: it has a top-level ``if __name__ == "__main__":``."""
    return any(isinstance(node, ast.If) and isinstance(node.test, ast.Compare)
               and isinstance(node.test.left, ast.Name) and node.test.left.id == "__name__"
               and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in node.test.comparators)
               for node in tree.body)


def is_figure_script(module: str) -> bool:
    """Whether ``module`` is a figure script (reproduce/fig<N>_*.py)."""
    return module.startswith(FIGURE_PREFIX) and module[len(FIGURE_PREFIX):][:1].isdigit()


def is_command_line(module: str) -> bool:
    """Whether ``module`` is the command-line package or one of its modules."""
    return module == CLI or module.startswith(f"{CLI}.")


def cli_importers_outside_entry_points(trees: dict) -> list[str]:
    """The modules that import the command line but are neither entry points nor the command line itself."""
    return sorted(module for module, tree in trees.items()
                  if any(map(is_command_line, imports(tree, module))) and not is_command_line(module)
                  and not is_entry_point(tree))


def figure_scripts_importing_figure_scripts(trees: dict) -> list[tuple[str, str]]:
    """(importer, imported) for every figure script that imports another figure script."""
    return sorted({(module, figure) for module, tree in trees.items() if is_figure_script(module)
                   for other in imports(tree, module) if is_figure_script(figure := ".".join(other.split(".")[:2]))
                   and figure != module})


def harness_imports_outside(trees: dict) -> list[tuple[str, str]]:
    """(harness module, imported) for every ``reproduce`` module outside the harness it imports, other than
    HARNESS_MAY_IMPORT."""
    return sorted((module, other) for module, tree in trees.items() if module.startswith(HARNESS)
                  for other in imports(tree, module)
                  if other.startswith("reproduce.") and not other.startswith(HARNESS)
                  and not any(other == allowed or other.startswith(f"{allowed}.") for allowed in HARNESS_MAY_IMPORT))


def is_module(name: str, root: Path = ROOT) -> bool:
    """Whether the dotted ``name`` is a module or package below ``root``."""
    path = root.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def missing_reproduce_modules(trees: dict, root: Path = ROOT) -> list[tuple[str, str]]:
    """(importer, name) for every ``reproduce`` module imported (``import reproduce.x``, ``from reproduce.x
    import ...``, ``from <package> import x`` of a package) that is no file below ``root``."""
    missing = set()
    for module, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [short(alias.name) for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                base = short(node.module)
                package = root.joinpath(*base.split("."), "__init__.py").is_file()
                names = [base] + [f"{base}.{alias.name}" for alias in node.names if package]
            else:
                continue
            missing |= {(module, name) for name in names
                        if name.split(".")[0] == "reproduce" and not is_module(name, root)}
    return sorted(missing)


def library_modules(trees: dict) -> list[str]:
    """The ``reproduce`` modules that are neither entry points nor the command line."""
    return sorted(module for module, tree in trees.items()
                  if module.startswith("reproduce") and not is_command_line(module) and not is_entry_point(tree))


def loaded_after_import(modules, extra_path: Path | None = None) -> set[str]:
    """The names in ``sys.modules`` of a fresh interpreter after importing ``modules`` (with ``extra_path``
    first on sys.path, if given)."""
    code = ("import importlib, sys\n"
            + (f"sys.path.insert(0, {str(extra_path)!r})\n" if extra_path else "")
            + f"for name in {[full(name) for name in modules]!r}:\n    importlib.import_module(name)\n"
            + "print('\\n'.join(sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return {short(name) for name in done.stdout.split()}


def test_only_entry_points_import_the_command_line():
    assert cli_importers_outside_entry_points(sources()) == []


def test_no_figure_script_imports_another():
    assert figure_scripts_importing_figure_scripts(sources()) == []


def test_the_harness_imports_no_other_reproduce_module():
    assert harness_imports_outside(sources()) == []


def test_every_reproduce_module_named_exists():
    assert missing_reproduce_modules({**sources(), **sources_of_tests()}) == []


@pytest.mark.process
def test_importing_the_library_never_loads_the_command_line():
    """Not even through another module (an entry point imported by a library module would bring it in)."""
    library = library_modules(sources())
    assert {"reproduce.studies.experiment", "reproduce.harness.runner", "reproduce.output.tables"} <= set(library)
    loaded = loaded_after_import(library)
    assert "reproduce.studies.experiment" in loaded and not any(map(is_command_line, loaded))


@pytest.mark.process
def test_a_table_is_written_without_matplotlib():
    """reproduce.output.tables, and bench/step_cost.py that writes bench/step_cost.csv with it, load no matplotlib."""
    loaded = loaded_after_import(["reproduce.output.tables", "step_cost"], extra_path=ROOT / "bench")
    assert {"reproduce.output.tables", "step_cost"} <= loaded
    assert not {name for name in loaded if name.split(".")[0] == "matplotlib"}


def test_the_checks_catch_what_they_guard(tmp_path):
    script = 'def main():\n    pass\n\n\nif __name__ == "__main__":\n    main()\n'
    trees = {name: ast.parse(text) for name, text in {
        "reproduce.experiment": "from reproduce.cli import resolve\n",
        "reproduce.harness.runner": ("from reproduce import plotting\n"
                                     "from reproduce.config.paper import ROOT_SEED\n"
                                     "from reproduce.config.scale import QUICK_RUNS\n"),
        "reproduce.harness.store": "from . import atomic\nfrom .. import cli\n",
        "reproduce.fig2_regret_std": "from reproduce import fig1_mslr\nimport reproduce.cli\n" + script,
        "reproduce.fig1_mslr": "from reproduce.cli.figure import regret_figure\n" + script,
        "reproduce.cli.figure": "from reproduce.cli.arguments import main_guard\n",
        "reproduce.figures_of_claims": "from reproduce.fig1_mslr import PANELS\n",
    }.items()}
    assert cli_importers_outside_entry_points(trees) == ["reproduce.experiment", "reproduce.harness.store"]
    assert figure_scripts_importing_figure_scripts(trees) == [("reproduce.fig2_regret_std", "reproduce.fig1_mslr")]
    assert harness_imports_outside(trees) == [("reproduce.harness.runner", "reproduce.plotting"),
                                              ("reproduce.harness.store", "reproduce.cli")]
    assert library_modules(trees) == ["reproduce.experiment", "reproduce.figures_of_claims",
                                      "reproduce.harness.runner", "reproduce.harness.store"]
    for name in ("reproduce/__init__.py", "reproduce/harness/__init__.py", "reproduce/harness/runner.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    moved = {"tests.test_x": ast.parse("from reproduce import harness, runner\nimport reproduce.harness.store\n"
                                       "from reproduce.harness.runner import Line\nfrom reproduce.paths import ROOT\n")}
    assert missing_reproduce_modules(moved, tmp_path) == [("tests.test_x", "reproduce.harness.store"),
                                                          ("tests.test_x", "reproduce.paths"),
                                                          ("tests.test_x", "reproduce.runner")]


@pytest.mark.process
def test_the_fresh_interpreter_sees_what_a_module_loads():
    """The check behind the two fresh-interpreter rules above does see a module loaded through another."""
    assert "reproduce.cli.arguments" in loaded_after_import(["reproduce.cli.figure"])
