"""Which module may import which, and where a module lives, checked on every import of every source file (``ast``,
one parser: ``imports_of``; issue 33, "Rules as tests"; docs/design.md and docs/harness.md, "Module map"):

  the packages, ``MAY_IMPORT``  core -> nothing of ours; data -> core; algorithms -> core; reproduce -> algorithms,
                        data, core; bench -> reproduce, algorithms, data, core (each also itself).  The drawing of
                        the layers in docs/design.md is checked against this table (``drawn_layers``).
  the library packages of reproduce, in LIBRARY_ORDER (config, harness, claims, output, studies, checks,
                        reporting, cli) -> only their own and the packages before them: no import points up
  reproduce.harness     -> of reproduce only itself and HARNESS_MAY_IMPORT (the paper's constants, a run's scale)
  the command line      (the package reproduce.cli) -> imported by entry points only (and by itself)
  every module          -> never a script (so no figure script imports another; scripts and bench import the
                        library)
  tests/                -> never a script either: a test runs one as ``python <script>`` would (tests/scripts.py's
                        ``run_script``) and imports the library it calls
  every file, tests included -> the project only as ``dts_reproduction.<package>`` (a bare ``core`` or ``data``
                        would be another module of that name in a user's environment), and no ``reproduce`` module
                        that is not in this repository (the installed project would otherwise answer an import of a
                        moved module from another checkout)

A script (an entry point) is a file with a top-level ``if __name__ == "__main__":``, found here, not listed.  An
import by name through ``importlib.import_module`` counts, an f-string name as every module it can name.  The test
fails on the first import (by file and line) that breaks a rule, naming the file, the line and the rule.  And the
layout of ``reproduce/``: its top level holds the entry points only, every folder below it is a library package, and
no module of a package is a script.  In a fresh interpreter: importing the library never loads the command line,
and a table is written without matplotlib.  Each check is run on small made-up sources to show that it catches
what it guards."""

import ast
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "dts_reproduction"
PACKAGES = ("core", "algorithms", "data", "reproduce")
# Which top-level folder may import which project package besides itself: the layers, bottom first.
MAY_IMPORT = {"core": (), "data": ("core",), "algorithms": ("core",), "reproduce": ("algorithms", "data", "core"),
              "bench": ("reproduce", "algorithms", "data", "core")}
COMMAND_LINE = "reproduce.cli"  # a package: parsing and the scripts' shared main
HARNESS = "reproduce.harness"
HARNESS_MAY_IMPORT = ("reproduce.config",)  # besides the harness itself: the paper's constants, a run's scale
# The library packages of reproduce/, bottom first: each imports only itself and those before it.
LIBRARY_ORDER = ("config", "harness", "claims", "output", "studies", "checks", "reporting", "cli")
DESIGN = ROOT / "docs" / "design.md"
POINTS_UP = f"a library package imports only the packages below it ({' < '.join(LIBRARY_ORDER)})"
NO_SCRIPT = "no module imports a script (scripts and bench import the library)"
ENTRY_POINTS_ONLY = "only entry points import the command line (reproduce.cli)"
HARNESS_ONLY = f"the harness imports of reproduce only itself and {', '.join(HARNESS_MAY_IMPORT)}"
NOT_BARE = f"the project is imported as {PACKAGE}.<package>, never as a bare top-level name"
NOT_HERE = "a reproduce module imported is a module of this repository"
TOP_LEVEL = "the top level of reproduce/ holds entry points only (a library module goes into a package)"
IN_A_PACKAGE = "a library package holds no entry point (a script goes at the top level of reproduce/)"
NO_PACKAGE = "a folder of reproduce/ is a library package (an __init__.py)"
NO_SCRIPT_IN_TESTS = "a test imports no script: it runs one as `python <script>` would (tests/scripts.py's run_script)"


def layer_rule(layer: str) -> str:
    """The rule of the top-level folder ``layer`` (``MAY_IMPORT``), as a failure names it."""
    allowed = MAY_IMPORT[layer]
    return f"{layer} imports {' and '.join(allowed) if allowed else 'nothing of ours'} (and itself)"


@dataclass(frozen=True, order=True)
class Import:
    """One import of a project module: the file (from the root), its line, the module (the longest prefix of the
    name that is a module of the project, without the package prefix, ``reproduce.cli``; ``reproduce.{}`` for a name
    built at run time) and the name as written (``reproduce.harness.runner.Line`` for ``from ... import Line``)."""

    file: str
    line: int
    module: str
    name: str
    bare: bool = False  # imported as a top-level name (``import data``) rather than through dts_reproduction
    attribute: bool = False  # the name's last part may be an attribute of its module (``from <module> import x``)


@dataclass(frozen=True)
class Project:
    """Every source file of the project's packages, bench/ and tests/ below a root (parsed, by path from the root),
    the project's module names, its packages (a folder with an ``__init__.py``) and its scripts."""

    trees: dict
    modules: set
    packages: set
    scripts: set


def module_name(relative: Path) -> str:
    """The short dotted name of a source file (``reproduce/harness/store.py`` -> ``reproduce.harness.store``)."""
    parts = relative.with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_entry_point(tree: ast.Module) -> bool:
    """Whether the module is a script: it has a top-level ``if __name__ == "__main__":``."""
    return any(isinstance(node, ast.If) and isinstance(node.test, ast.Compare)
               and isinstance(node.test.left, ast.Name) and node.test.left.id == "__name__"
               and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in node.test.comparators)
               for node in tree.body)


def is_command_line(module: str) -> bool:
    """Whether ``module`` is the command-line package or one of its modules."""
    return module == COMMAND_LINE or module.startswith(f"{COMMAND_LINE}.")


def project_module(name: str, modules: set[str]) -> tuple[str | None, bool]:
    """The project module a dotted import name refers to (its longest prefix that is a module; attributes
    dropped) and whether it was written bare; (None, False) for any other module."""
    bare = name.split(".")[0] in PACKAGES
    short = name.removeprefix(f"{PACKAGE}.") if name.startswith(f"{PACKAGE}.") else name if bare else None
    if short is None:
        return None, False
    parts = short.split(".")
    for end in range(len(parts), 0, -1) if "{}" not in short else ():
        if ".".join(parts[:end]) in modules:
            return ".".join(parts[:end]), bare
    return short, bare


def dynamic_name(node: ast.Call) -> str | None:
    """The module name given to ``importlib.import_module``, with ``{}`` for each part built at run time."""
    func = node.func
    if not (isinstance(func, ast.Attribute) and func.attr == "import_module" or
            isinstance(func, ast.Name) and func.id == "import_module") or not node.args:
        return None
    arg = node.args[0]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    if isinstance(arg, ast.JoinedStr):
        return "".join(part.value if isinstance(part, ast.Constant) else "{}" for part in arg.values)
    return None


def imports_of(relative: Path, tree: ast.Module, modules: set[str]) -> list[Import]:
    """Every import of a project module in one parsed file, anywhere in it, relative imports resolved: ``import a.b``
    names a.b, ``from a import b`` names a.b (b a module or an attribute of a), ``import_module("a")`` names a."""
    found = []
    here = module_name(relative).split(".")
    package = here if relative.name == "__init__.py" else here[:-1]
    for node in ast.walk(tree):
        names, attribute = [], False
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package[:len(package) - node.level + 1] + ([base] if base else [])
                base = ".".join([PACKAGE, *parts] if parts[:1] and parts[0] in PACKAGES else parts)
            names, attribute = [f"{base}.{alias.name}" for alias in node.names], True
        elif isinstance(node, ast.Call) and (name := dynamic_name(node)):
            names = [name]
        for name in names:
            module, bare = project_module(name, modules)
            if module is not None:
                found.append(Import(str(relative), node.lineno, module, name.removeprefix(f"{PACKAGE}."), bare,
                                    attribute))
    return sorted(set(found))


def project(root: Path) -> Project:
    """The ``Project`` below ``root``: its packages' sources, bench/'s and tests/'."""
    trees = {path.relative_to(root): ast.parse(path.read_text(), str(path))
             for folder in (*PACKAGES, "bench", "tests") for path in sorted((root / folder).rglob("*.py"))}
    ours = [path for path in trees if path.parts[0] in PACKAGES]
    return Project(trees, {module_name(path) for path in ours},
                   {module_name(path) for path in ours if path.name == "__init__.py"},
                   {module_name(path) for path in ours if is_entry_point(trees[path])})


def missing_module(imported: Import, packages: set[str]) -> str | None:
    """The ``reproduce`` module ``imported`` names that is not in the project (``imported.module`` is the longest
    prefix of its name that is), or None: past that prefix the name may go on only by an attribute of a plain
    module (``from reproduce.harness.runner import Line``), not of a package (``from reproduce import runner``)."""
    name = imported.name
    if imported.bare or not name.startswith("reproduce.") or name == imported.module or "{}" in name:
        return None
    rest = name[len(imported.module) + 1:].split(".")
    if imported.attribute and len(rest) == 1 and imported.module not in packages:
        return None
    return f"{imported.module}.{rest[0]}"


def broken_rule(importer: Path, imported: Import, found: Project) -> str | None:
    """The rule that ``importer`` importing ``imported`` breaks, or None.  A test file keeps the rules of every file
    (no bare import, no module that is not here) and imports the rest as it needs."""
    module = imported.module
    layer, target = importer.parts[0], module.split(".")[0]
    own = module_name(importer)
    names_a_script = any(module == script or "{}" in module and script.startswith(module.split("{}")[0])
                         for script in found.scripts)
    if imported.bare:
        return NOT_BARE
    if missing_module(imported, found.packages):
        return NOT_HERE
    if layer == "tests":
        return None
    if target != layer and target not in MAY_IMPORT[layer]:
        return layer_rule(layer)
    if is_command_line(module) and not is_command_line(own) and not is_entry_point(found.trees[importer]):
        return ENTRY_POINTS_ONLY
    if own.startswith(HARNESS) and target == "reproduce" and module.startswith("reproduce.") \
            and not module.startswith(HARNESS) \
            and not any(module == allowed or module.startswith(allowed + ".") for allowed in HARNESS_MAY_IMPORT):
        return HARNESS_ONLY
    if names_a_script and module != own:
        return NO_SCRIPT
    if points_up(importer, module):
        return POINTS_UP
    return None


def points_up(importer: Path, module: str) -> bool:
    """Whether a module of a library package of reproduce/ imports a package after its own in LIBRARY_ORDER."""
    own, target = importer.parts[1:2], module.split(".")[1:2]
    return (importer.parts[0] == "reproduce" and len(importer.parts) > 2 and module.startswith("reproduce.")
            and own[0] in LIBRARY_ORDER and target and target[0] in LIBRARY_ORDER
            and LIBRARY_ORDER.index(target[0]) > LIBRARY_ORDER.index(own[0]))


def violations(root: Path) -> list[tuple[Import, str]]:
    """Every import below ``root`` that breaks a rule, with the rule, sorted by file and line."""
    found = project(root)
    out = []
    for path, tree in found.trees.items():
        for imported in imports_of(path, tree, found.modules):
            rule = broken_rule(path, imported, found)
            if rule:
                out.append((imported, rule))
    return sorted(out)


def first_violation(root: Path) -> str | None:
    """``file:line: imports <name>: <rule>`` for the first import that breaks a rule, or None."""
    found = violations(root)
    if not found:
        return None
    imported, rule = found[0]
    return f"{imported.file}:{imported.line}: imports {imported.name}: {rule} ({len(found)} in all)"


def misplaced_modules(root: Path) -> list[tuple[str, str]]:
    """(file, rule) for every module of ``reproduce/`` out of its place: a module at the top level that is not an
    entry point (the top level holds the scripts only), a module of a package below it (the library: harness,
    checks, claims, studies, output, cli) that is one, and a folder with modules that is no package."""
    found = []
    for path, tree in project(root).trees.items():
        if path.parts[0] != "reproduce" or path.name == "__init__.py" and len(path.parts) == 2:
            continue
        if len(path.parts) == 2 and not is_entry_point(tree):
            found.append((str(path), TOP_LEVEL))
        elif len(path.parts) > 2 and is_entry_point(tree):
            found.append((str(path), IN_A_PACKAGE))
        elif len(path.parts) > 2 and not (root / path.parent / "__init__.py").is_file():
            found.append((str(path), NO_PACKAGE))
    return sorted(found)


def script_imports_in_tests(root: Path) -> list[Import]:
    """Every import of a script of the project's packages (a module with a top-level ``if __name__ ==
    "__main__":``) by a file under ``root``'s tests/, sorted by file and line.  A bench script is loaded by its path
    (tests/bench_scripts.py), never imported by name."""
    found = project(root)
    return sorted(imported for path, tree in found.trees.items() if path.parts[0] == "tests"
                  for imported in imports_of(path, tree, found.modules) if imported.module in found.scripts)


def drawn_layers(text: str) -> tuple[dict[str, tuple[str, ...]], tuple[str, ...]]:
    """The layers as the first code block of docs/design.md draws them: {folder: the folders it imports}, a layer a
    line (``<folder>/  <what it holds>  -> <folder>/ <folder>/``, "imports nothing of ours" for none), and the
    library packages of reproduce/ bottom first, from the line that lists them top first (``cli/ > ... >
    config/``).  ValueError if a layer imports a folder drawn above it (the drawing goes down)."""
    block = text.split("```")[1]
    layers, library = {}, ()
    for line in block.splitlines():
        if chain := re.search(r"(\w+)/((?: > \w+/)+)", line):
            library = tuple(reversed([chain.group(1), *re.findall(r"(\w+)/", chain.group(2))]))
        elif start := re.match(r"(\w+)/ ", line):
            arrow = re.search(r"->((?: \w+/)+)\s*$", line)
            layers[start.group(1)] = tuple(re.findall(r"(\w+)/", arrow.group(1))) if arrow else ()
    order = list(layers)
    for layer, below in layers.items():
        if any(order.index(other) < order.index(layer) for other in below):
            raise ValueError(f"{layer}/ imports a layer drawn above it")
    return layers, library


def sets(layers: dict) -> dict[str, set]:
    """{layer: the set of layers it imports}: a drawing and the rules compared whatever order a line lists them in."""
    return {layer: set(below) for layer, below in layers.items()}


def library_modules(found: Project) -> list[str]:
    """The ``reproduce`` modules that are neither entry points nor the command line."""
    return sorted(module_name(path) for path, tree in found.trees.items() if path.parts[0] == "reproduce"
                  and not is_command_line(module_name(path)) and not is_entry_point(tree))


def full(name: str) -> str:
    """The importable name of ``name`` (a short name in the project's packages, or a bench script)."""
    return f"{PACKAGE}.{name}" if name.split(".")[0] in PACKAGES else name


def loaded_after_import(modules, extra_path: Path | None = None) -> set[str]:
    """The names in ``sys.modules`` of a fresh interpreter after importing ``modules`` (with ``extra_path``
    first on sys.path, if given), without the package prefix."""
    code = ("import importlib, sys\n"
            + (f"sys.path.insert(0, {str(extra_path)!r})\n" if extra_path else "")
            + f"for name in {[full(name) for name in modules]!r}:\n    importlib.import_module(name)\n"
            + "print('\\n'.join(sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return {name.removeprefix(f"{PACKAGE}.") for name in done.stdout.split()}


def write_tree(root: Path, files: dict[str, str]) -> None:
    """Write the made-up sources ``files`` ({path: text}) below ``root``."""
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def test_every_import_keeps_to_its_layer():
    assert first_violation(ROOT) is None


def test_the_top_of_reproduce_holds_entry_points_only():
    assert misplaced_modules(ROOT) == []


def test_the_design_draws_the_layers_of_these_rules():
    """docs/design.md's drawing of the layers is this module's table, ``MAY_IMPORT`` and ``LIBRARY_ORDER``, each
    layer drawn above the layers it imports."""
    layers, library = drawn_layers(DESIGN.read_text())
    assert sets(layers) == sets(MAY_IMPORT) and library == LIBRARY_ORDER


def test_the_rules_catch_what_they_guard(tmp_path):
    script = '\n\nif __name__ == "__main__":\n    pass\n'
    write_tree(tmp_path, {
        "core/__init__.py": "",
        "core/kl.py": "from dts_reproduction.algorithms import dts\n",
        "algorithms/__init__.py": "",
        "algorithms/dts.py": "from dts_reproduction.core import kl\nfrom dts_reproduction.data import loader\n",
        "data/__init__.py": "from .loader import load\n",
        "data/loader.py": "import numpy\n\nfrom dts_reproduction.reproduce.harness.limits import check\n",
        "reproduce/__init__.py": "",
        "reproduce/cli/__init__.py": "",
        "reproduce/cli/figure.py": "from dts_reproduction.reproduce.cli import arguments\n",
        "reproduce/cli/arguments.py": "",
        "reproduce/config/__init__.py": "",
        "reproduce/config/paper.py": "",
        "reproduce/config/scale.py": "",
        "reproduce/harness/__init__.py": "",
        "reproduce/harness/limits.py": "from .. import cli\n",
        "reproduce/harness/runner.py": ("from dts_reproduction.reproduce.config.paper import ROOT_SEED\n"
                                        "from dts_reproduction.reproduce.claims import verdict\n"),
        "reproduce/tables.py": "from dts_reproduction.reproduce.fig1 import PANELS\n",
        "reproduce/claims/__init__.py": "",
        "reproduce/claims/verdict.py": "from dts_reproduction.reproduce.studies import panels\n",
        "reproduce/studies/__init__.py": "",
        "reproduce/studies/panels.py": ("from dts_reproduction.reproduce.claims import verdict\n"
                                        "from dts_reproduction.reproduce.cli.arguments import main_guard\n"),
        "reproduce/fig1.py": "from dts_reproduction.reproduce.cli.figure import regret_figure\n" + script,
        "reproduce/fig2.py": "from dts_reproduction.reproduce import fig1\nimport dts_reproduction.reproduce.cli\n"
                             + script,
        "bench/cost.py": "import importlib\n\nimportlib.import_module(f'dts_reproduction.reproduce.{name}')\n",
        "bench/helper.py": "from dts_reproduction.reproduce.cli.arguments import main_guard\n",
        "tests/test_x.py": ("from dts_reproduction.reproduce import fig1\nimport data\n"
                            "from dts_reproduction.reproduce import harness, runner\n"
                            "import dts_reproduction.reproduce.harness.store\n"
                            "from dts_reproduction.reproduce.harness.runner import Line\n"
                            "from dts_reproduction.reproduce.paths import ROOT\n"),
    })
    found = [(imported.file, imported.line, imported.name, rule) for imported, rule in violations(tmp_path)]
    assert found == [
        ("algorithms/dts.py", 2, "data.loader", layer_rule("algorithms")),
        ("bench/cost.py", 3, "reproduce.{}", NO_SCRIPT),
        ("bench/helper.py", 1, "reproduce.cli.arguments.main_guard", ENTRY_POINTS_ONLY),
        ("core/kl.py", 1, "algorithms.dts", layer_rule("core")),
        ("data/loader.py", 3, "reproduce.harness.limits.check", layer_rule("data")),
        ("reproduce/claims/verdict.py", 1, "reproduce.studies.panels", POINTS_UP),
        ("reproduce/fig2.py", 1, "reproduce.fig1", NO_SCRIPT),
        ("reproduce/harness/limits.py", 1, "reproduce.cli", ENTRY_POINTS_ONLY),
        ("reproduce/harness/runner.py", 2, "reproduce.claims.verdict", HARNESS_ONLY),
        ("reproduce/studies/panels.py", 2, "reproduce.cli.arguments.main_guard", ENTRY_POINTS_ONLY),
        ("reproduce/tables.py", 1, "reproduce.fig1.PANELS", NO_SCRIPT),
        ("tests/test_x.py", 2, "data", NOT_BARE),
        ("tests/test_x.py", 3, "reproduce.runner", NOT_HERE),
        ("tests/test_x.py", 4, "reproduce.harness.store", NOT_HERE),
        ("tests/test_x.py", 6, "reproduce.paths.ROOT", NOT_HERE),
    ]
    first = "algorithms/dts.py:2: imports data.loader: algorithms imports core (and itself) (15 in all)"
    assert first_violation(tmp_path) == first
    (tmp_path / "algorithms/dts.py").write_text("from dts_reproduction.core import kl\n")
    assert first_violation(tmp_path).startswith("bench/cost.py:3:")  # the next one, once the first is fixed
    assert library_modules(project(tmp_path)) == [
        "reproduce", "reproduce.claims", "reproduce.claims.verdict", "reproduce.config", "reproduce.config.paper",
        "reproduce.config.scale", "reproduce.harness", "reproduce.harness.limits", "reproduce.harness.runner",
        "reproduce.studies", "reproduce.studies.panels", "reproduce.tables"]


def test_a_misplaced_module_is_found(tmp_path):
    script = '\n\nif __name__ == "__main__":\n    pass\n'
    write_tree(tmp_path, {"reproduce/__init__.py": "", "reproduce/fig1.py": script, "reproduce/tables.py": "",
                          "reproduce/claims/__init__.py": "", "reproduce/claims/verdict.py": "",
                          "reproduce/claims/run.py": script, "reproduce/loose/panels.py": ""})
    assert misplaced_modules(tmp_path) == [("reproduce/claims/run.py", IN_A_PACKAGE),
                                           ("reproduce/loose/panels.py", NO_PACKAGE),
                                           ("reproduce/tables.py", TOP_LEVEL)]


def shared_file_names(root: Path) -> dict[str, list[str]]:
    """{file name: its paths} of every name that two modules below ``root`` share (the packages', bench/'s and
    tests/'; ``__init__.py`` aside)."""
    paths = {}
    for path in project(root).trees:
        if path.name != "__init__.py":
            paths.setdefault(path.name, []).append(str(path))
    return {name: sorted(found) for name, found in sorted(paths.items()) if len(found) > 1}


def test_no_two_modules_share_a_file_name(tmp_path):
    """One file name, one module (issue 51: verify.py, report.py, fidelity.py ... each named a script and a library
    module; the algorithms' plain transcriptions the algorithms): a name two modules share is found with both paths."""
    assert shared_file_names(ROOT) == {}
    write_tree(tmp_path, {"core/kl.py": "", "tests/reference/kl.py": "", "reproduce/__init__.py": "",
                          "reproduce/verify.py": "", "algorithms/dts.py": ""})
    assert shared_file_names(tmp_path) == {"kl.py": ["core/kl.py", "tests/reference/kl.py"]}


def test_no_test_imports_a_script():
    """A test runs a script in-process as ``python <script> argv`` would (tests/scripts.py's ``run_script``) and
    imports the library the script calls, never the script (issue #51): each import of a script is named by file and
    line."""
    imports = [f"{imported.file}:{imported.line}: imports {imported.name}: {NO_SCRIPT_IN_TESTS}"
               for imported in script_imports_in_tests(ROOT)]
    assert imports == []


def test_a_test_importing_a_script_is_found(tmp_path):
    script = '\n\nif __name__ == "__main__":\n    pass\n'
    write_tree(tmp_path, {"reproduce/__init__.py": "", "reproduce/fig1.py": "PANELS = ()" + script,
                          "reproduce/studies/__init__.py": "", "reproduce/studies/panels.py": "",
                          "tests/test_x.py": ("import runpy\n\nfrom dts_reproduction.reproduce import fig1\n"
                                              "from dts_reproduction.reproduce.studies import panels\n"),
                          "tests/test_y.py": ("def test():\n    from dts_reproduction.reproduce.fig1 import PANELS\n\n"
                                              "    runpy.run_path('reproduce/fig1.py', run_name='__main__')\n")})
    assert [(imported.file, imported.line, imported.name) for imported in script_imports_in_tests(tmp_path)] == [
        ("tests/test_x.py", 3, "reproduce.fig1"), ("tests/test_y.py", 2, "reproduce.fig1.PANELS")]


def test_a_drawing_that_is_not_the_rules_is_found():
    """A layer drawn with an import the rules do not have, or below a layer it imports, is caught."""
    drawn = ("```\nbench/      b  -> reproduce/ algorithms/ data/ core/\nreproduce/  r  -> algorithms/ data/ core/\n"
             "            cli/ > reporting/ > checks/ > studies/ > output/ > claims/ > harness/ > config/\n"
             "algorithms/ a  -> core/\ndata/       d  -> core/\ncore/       c  imports nothing of ours\n```\n")
    layers, library = drawn_layers(drawn)
    assert sets(layers) == sets(MAY_IMPORT) and library == LIBRARY_ORDER
    assert sets(drawn_layers(drawn.replace("a  -> core/", "a  -> data/ core/"))[0]) != sets(MAY_IMPORT)
    assert drawn_layers(drawn.replace("> output/ > claims/", "> claims/ > output/"))[1] != LIBRARY_ORDER
    with pytest.raises(ValueError, match="data/ imports a layer drawn above it"):
        drawn_layers(drawn.replace("data/       d  -> core/\ncore/       c  imports nothing of ours",
                                   "core/       c  imports nothing of ours\ndata/       d  -> core/"))


def test_the_package_links_the_four_folders_and_finds_every_package():
    """dts_reproduction/ holds its ``__init__.py`` and one relative link per package folder of the layout (core ->
    ../core, ...), nothing else; setuptools' search through those links (pyproject.toml's ``packages.find``) finds every
    package of the tree, so a new package is in the wheel without a list to update, and nothing else of the clone
    (tests/, bench/, results/) is a package of the install."""
    from setuptools import find_packages

    package = ROOT / PACKAGE
    assert sorted(path.name for path in package.iterdir() if path.name != "__pycache__") == sorted(
        ("__init__.py", *PACKAGES))
    assert all(os.readlink(package / folder) == f"../{folder}" for folder in PACKAGES)
    folders = {".".join((PACKAGE, *init.parent.relative_to(ROOT).parts))
               for folder in PACKAGES for init in (ROOT / folder).rglob("__init__.py")}
    assert set(find_packages(str(ROOT), include=[f"{PACKAGE}*"])) == {PACKAGE, *folders}


@pytest.mark.process
def test_importing_the_library_never_loads_the_command_line():
    """Not even through another module (an entry point imported by a library module would bring it in)."""
    library = library_modules(project(ROOT))
    assert {"reproduce.studies.experiment", "reproduce.harness.runner", "reproduce.output.tables"} <= set(library)
    loaded = loaded_after_import(library)
    assert "reproduce.studies.experiment" in loaded and not any(map(is_command_line, loaded))


@pytest.mark.process
def test_a_table_is_written_without_matplotlib():
    """reproduce.output.tables, and bench/step_cost.py that writes bench/step_cost.csv with it, load no matplotlib."""
    loaded = loaded_after_import(["reproduce.output.tables", "step_cost"], extra_path=ROOT / "bench")
    assert {"reproduce.output.tables", "step_cost"} <= loaded
    assert not {name for name in loaded if name.split(".")[0] == "matplotlib"}


@pytest.mark.process
def test_the_fresh_interpreter_sees_what_a_module_loads():
    """The check behind the two fresh-interpreter rules above does see a module loaded through another."""
    assert "reproduce.cli.arguments" in loaded_after_import(["reproduce.cli.figure"])
