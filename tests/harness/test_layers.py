"""The package layers, checked on every import of every source file (``ast``; issue 33, "Rules as tests"):

  core                -> nothing of ours but core
  algorithms          -> core (and itself)
  data                -> nothing above it (core and itself)
  reproduce.harness   -> no command-line module (the package reproduce.cli) and no script
  the library packages of reproduce, in LIBRARY_ORDER (config, harness, claims, output, studies, checks,
                        reporting, cli) -> only their own and the packages before them: no import points up
  the rest of reproduce, bench -> the library, never a script
  every file, tests included -> the project only as ``dts_reproduction.<package>`` (a bare ``core`` or ``data``
                        would be another module of that name in a user's environment)

A script is a file with a top-level ``if __name__ == "__main__":``, found here, not listed.  An import by name
through ``importlib.import_module`` counts, an f-string name as every module it can name.  The test fails on
the first import (by file and line) that breaks a rule, naming the file, the line and the rule.  And the layout
of ``reproduce/``: its top level holds the entry points only, every folder below it is a library package, and
no module of a package is a script."""

import ast
from dataclasses import dataclass
from pathlib import Path

from tests.harness.test_layout import is_entry_point

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "dts_reproduction"
PACKAGES = ("core", "algorithms", "data", "reproduce")
COMMAND_LINE = "reproduce.cli"  # a package
HARNESS = "reproduce.harness"
# The library packages of reproduce/, bottom first: each imports only itself and those before it.
LIBRARY_ORDER = ("config", "harness", "claims", "output", "studies", "checks", "reporting", "cli")
POINTS_UP = f"a library package imports only the packages below it ({' < '.join(LIBRARY_ORDER)})"
NO_SCRIPT = "no module imports a script (scripts and bench import the library)"
TOP_LEVEL = "the top level of reproduce/ holds entry points only (a library module goes into a package)"
IN_A_PACKAGE = "a library package holds no entry point (a script goes at the top level of reproduce/)"
NO_PACKAGE = "a folder of reproduce/ is a library package (an __init__.py)"
NOT_BARE = f"the project is imported as {PACKAGE}.<package>, never as a bare top-level name"


@dataclass(frozen=True, order=True)
class Import:
    """One import of a project module: the file (from the root), its line and the module (without the
    package prefix, ``reproduce.cli``; ``reproduce.{}`` for a name built at run time), as written."""

    file: str
    line: int
    module: str
    bare: bool = False  # imported as a top-level name (``import data``) rather than through dts_reproduction


def module_name(relative: Path) -> str:
    """The short dotted name of a source file (``reproduce/harness/store.py`` -> ``reproduce.harness.store``)."""
    parts = relative.with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


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
    """Every import of a project module in one parsed file, relative imports resolved."""
    found = []
    here = module_name(relative).split(".")
    package = here if relative.name == "__init__.py" else here[:-1]
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package[:len(package) - node.level + 1] + ([base] if base else [])
                base = ".".join([PACKAGE, *parts] if parts[:1] and parts[0] in PACKAGES else parts)
            names = [f"{base}.{alias.name}" for alias in node.names]  # each resolves to a module (or its package)
        elif isinstance(node, ast.Call) and (name := dynamic_name(node)):
            names = [name]
        for name in names:
            module, bare = project_module(name, modules)
            if module is not None:
                found.append(Import(str(relative), node.lineno, module, bare))
    return sorted(set(found))


def project(root: Path) -> tuple[dict[Path, ast.Module], set[str], set[str]]:
    """Every source file of the project's packages, bench/ and tests/ below ``root`` (parsed, by path from the
    root), the project's module names and the scripts among them."""
    trees = {path.relative_to(root): ast.parse(path.read_text(), str(path))
             for folder in (*PACKAGES, "bench", "tests") for path in sorted((root / folder).rglob("*.py"))}
    modules = {module_name(path) for path in trees if path.parts[0] in PACKAGES}
    scripts = {module_name(path) for path, tree in trees.items() if path.parts[0] in PACKAGES and is_entry_point(tree)}
    return trees, modules, scripts


def broken_rule(importer: Path, imported: Import, scripts: set[str]) -> str | None:
    """The rule that ``importer`` importing ``imported`` breaks, or None."""
    module = imported.module
    layer, target = importer.parts[0], module.split(".")[0]
    names_a_script = any(module == script or "{}" in module and script.startswith(module.split("{}")[0])
                         for script in scripts)
    if imported.bare:
        return NOT_BARE
    if layer == "core" and target != "core":
        return "core imports nothing of ours but core"
    if layer == "algorithms" and target not in ("core", "algorithms"):
        return "algorithms imports only core"
    if layer == "data" and target not in ("core", "data"):
        return "data imports nothing above it"
    if module_name(importer).startswith(HARNESS) and (module == COMMAND_LINE or module.startswith(f"{COMMAND_LINE}.")):
        return "the harness imports no command-line module"
    if layer in PACKAGES + ("bench",) and names_a_script and module != module_name(importer):
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
    trees, modules, scripts = project(root)
    found = []
    for path, tree in trees.items():
        for imported in imports_of(path, tree, modules):
            rule = broken_rule(path, imported, scripts) if path.parts[0] != "tests" or imported.bare else None
            if rule:
                found.append((imported, rule))
    return sorted(found)


def first_violation(root: Path) -> str | None:
    """``file:line: imports <module>: <rule>`` for the first import that breaks a rule, or None."""
    found = violations(root)
    if not found:
        return None
    imported, rule = found[0]
    return f"{imported.file}:{imported.line}: imports {imported.module}: {rule} ({len(found)} in all)"


def misplaced_modules(root: Path) -> list[tuple[str, str]]:
    """(file, rule) for every module of ``reproduce/`` out of its place: a module at the top level that is not an
    entry point (the top level holds the scripts only), a module of a package below it (the library: harness,
    checks, claims, studies, output, cli) that is one, and a folder with modules that is no package."""
    trees, _, _ = project(root)
    found = []
    for path, tree in trees.items():
        if path.parts[0] != "reproduce" or path.name == "__init__.py" and len(path.parts) == 2:
            continue
        if len(path.parts) == 2 and not is_entry_point(tree):
            found.append((str(path), TOP_LEVEL))
        elif len(path.parts) > 2 and is_entry_point(tree):
            found.append((str(path), IN_A_PACKAGE))
        elif len(path.parts) > 2 and not (root / path.parent / "__init__.py").is_file():
            found.append((str(path), NO_PACKAGE))
    return sorted(found)


def test_every_import_keeps_to_its_layer():
    assert first_violation(ROOT) is None


def test_the_top_of_reproduce_holds_entry_points_only():
    assert misplaced_modules(ROOT) == []


def test_the_rules_catch_what_they_guard(tmp_path):
    script = '\n\nif __name__ == "__main__":\n    pass\n'
    files = {
        "core/__init__.py": "",
        "core/kl.py": "from dts_reproduction.algorithms import dts\n",
        "algorithms/__init__.py": "",
        "algorithms/dts.py": "from dts_reproduction.core import kl\nfrom dts_reproduction.data import loader\n",
        "data/__init__.py": "from .loader import load\n",
        "data/loader.py": "import numpy\n\nfrom dts_reproduction.reproduce.harness.limits import check\n",
        "reproduce/__init__.py": "",
        "reproduce/cli.py": "",
        "reproduce/harness/__init__.py": "",
        "reproduce/harness/limits.py": "from .. import cli\n",
        "reproduce/tables.py": "from dts_reproduction.reproduce.fig1 import PANELS\n",
        "reproduce/claims/__init__.py": "",
        "reproduce/claims/verdict.py": "from dts_reproduction.reproduce.studies import panels\n",
        "reproduce/studies/__init__.py": "",
        "reproduce/studies/panels.py": "from dts_reproduction.reproduce.claims import verdict\n",
        "reproduce/fig1.py": "from dts_reproduction.reproduce import tables\n" + script,
        "reproduce/fig2.py": "from dts_reproduction.reproduce import fig1\n" + script,
        "bench/cost.py": "import importlib\n\nimportlib.import_module(f'dts_reproduction.reproduce.{name}')\n",
        "tests/test_x.py": "from dts_reproduction.reproduce import fig1\nimport data\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    found = [(imported.file, imported.line, imported.module, rule) for imported, rule in violations(tmp_path)]
    assert found == [
        ("algorithms/dts.py", 2, "data.loader", "algorithms imports only core"),
        ("bench/cost.py", 3, "reproduce.{}", NO_SCRIPT),
        ("core/kl.py", 1, "algorithms.dts", "core imports nothing of ours but core"),
        ("data/loader.py", 3, "reproduce.harness.limits", "data imports nothing above it"),
        ("reproduce/claims/verdict.py", 1, "reproduce.studies.panels", POINTS_UP),
        ("reproduce/fig2.py", 1, "reproduce.fig1", NO_SCRIPT),
        ("reproduce/harness/limits.py", 1, "reproduce.cli", "the harness imports no command-line module"),
        ("reproduce/tables.py", 1, "reproduce.fig1", NO_SCRIPT),
        ("tests/test_x.py", 2, "data", NOT_BARE),
    ]
    first = "algorithms/dts.py:2: imports data.loader: algorithms imports only core (9 in all)"
    assert first_violation(tmp_path) == first
    (tmp_path / "algorithms/dts.py").write_text("from dts_reproduction.core import kl\n")
    assert first_violation(tmp_path).startswith("bench/cost.py:3:")  # the next one, once the first is fixed


def test_a_misplaced_module_is_found(tmp_path):
    script = '\n\nif __name__ == "__main__":\n    pass\n'
    files = {"reproduce/__init__.py": "", "reproduce/fig1.py": script, "reproduce/tables.py": "",
             "reproduce/claims/__init__.py": "", "reproduce/claims/verdict.py": "", "reproduce/claims/run.py": script,
             "reproduce/loose/panels.py": ""}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert misplaced_modules(tmp_path) == [("reproduce/claims/run.py", IN_A_PACKAGE),
                                           ("reproduce/loose/panels.py", NO_PACKAGE),
                                           ("reproduce/tables.py", TOP_LEVEL)]


def test_every_package_is_installed():
    """pyproject.toml lists its packages one by one: a new package of the tree missing from it is absent from the
    wheel (and from an install that is not editable), so a user's ``import`` of it fails."""
    import tomllib

    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = {".".join((PACKAGE, *init.parent.relative_to(ROOT).parts)): init.parent.relative_to(ROOT).as_posix()
               for folder in PACKAGES for init in (ROOT / folder).rglob("__init__.py")}
    assert set(setuptools["packages"]) == {PACKAGE, *folders}
    assert setuptools["package-dir"] == folders
