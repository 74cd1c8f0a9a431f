"""A researcher's own algorithm, defined outside the package, as a plug-in (docs/extending.md, "Your own algorithm
as a plug-in").

A plug-in reference names an ``AlgorithmSpec``, or a ``Policy`` subclass (its ``spec`` is taken), in one of two forms:
``path/to/file.py:ATTR`` (a file, imported under a module name derived from its resolved path, so that every process
gives it the same one) or ``package.module:ATTR`` (an importable module).  An installed distribution may also offer
algorithms through the entry-point group ``ENTRY_POINT_GROUP``: each entry point's name is the algorithm's name, its
value ``module:ATTR``; it is loaded the first time that name is asked for (``entry_point_spec``).

``load_plugin(reference)`` loads a reference and registers its spec in this module's table under the spec's name,
with the reference it came from; ``get_algorithm`` (``algorithms/__init__.py``) looks there after the built-in
algorithms, then in the entry points.  A worker process of the harness starts without the plug-ins of the process
that planned its work: the runner hands it ``plugin_references(names)`` with each task, and the worker calls
``load_plugins(references)`` before it looks an algorithm up (each reference is loaded once per process).
Everything refused is a ValueError of one line naming the reference or the value.
"""

import hashlib
import importlib
import importlib.metadata
import importlib.util
import re
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from dts_reproduction.algorithms.base import AlgorithmSpec, Policy

ENTRY_POINT_GROUP = "dts_reproduction.algorithms"
# An algorithm's name is the first part of its results folders' names (``reproduce.harness.runner.line_key``):
# letters, digits, "_" and "-", starting with a letter or a digit; and not ending in what line_key appends to it
# (``_p<digest>``, ``_d<delay>``, ``_fixed``), so that no line of one algorithm lands in another's folder.
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
FOLDER_SUFFIX = re.compile(r"_(p[0-9a-f]{10}|d[0-9]+|fixed)$")
MAX_NAME_LENGTH = 100
FORMS = "path/to/file.py:ATTR or package.module:ATTR"  # how a reference is written, as the errors say it


@dataclass(frozen=True)
class Plugin:
    """A loaded plug-in: its spec and the reference it was loaded from (canonical: a file's path resolved)."""

    spec: AlgorithmSpec
    reference: str


_PLUGINS: dict[str, Plugin] = {}  # algorithm name -> the plug-in registered under it
_BY_REFERENCE: dict[str, AlgorithmSpec] = {}  # canonical reference -> its spec, loaded once per process
_LOCK = threading.RLock()  # threads of one process (the threading backend) load a reference once


def is_plugin_reference(entry: str) -> bool:
    """Whether an ``--algorithms`` entry is a plug-in reference rather than ``NAME`` or ``NAME:PRESET``: its part
    before the last ``:`` ends in ``.py`` or holds a ``/`` or a ``.`` (no algorithm name holds either)."""
    target, sep, _attr = str(entry).rpartition(":")
    return bool(sep) and (target.endswith(".py") or "/" in target or "." in target)


def _split(reference: str) -> tuple[str, str, bool]:
    """(target, attribute, whether the target is a file) of a reference; ValueError unless it has both parts."""
    target, sep, attr = str(reference).strip().rpartition(":")
    if not sep or not target or not attr:
        raise ValueError(f"plug-in reference {reference!r} must look like {FORMS}")
    return target, attr, target.endswith(".py") or "/" in target


def _canonical(reference: str) -> str:
    """The reference with a file's path resolved (absolute, links followed), the same in every process of the
    machine: what the table remembers and a worker is given."""
    target, attr, is_file = _split(reference)
    if is_file:
        target = str(Path(target).expanduser().resolve())
    return f"{target}:{attr}"


def _module_name(path: Path) -> str:
    """The module name a plug-in file is imported under: its stem (as an identifier) and a digest of its resolved
    path, so that one file always gets one name (numba's on-disk cache keys its kernels by it) and two files never
    share one."""
    stem = re.sub(r"\W", "_", path.stem)
    return f"_dts_plugin_{stem}_{hashlib.sha1(str(path).encode()).hexdigest()[:12]}"


def _import_file(path: Path, reference: str):
    """The module of the plug-in file at ``path`` (resolved), imported once per process; ValueError naming the
    reference and the exception if the file is missing or its import fails."""
    name = _module_name(path)
    if name in sys.modules:
        return sys.modules[name]
    if not path.is_file():
        raise ValueError(f"plug-in {reference!r}: no file {path}")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # before it runs: a dataclass or NamedTuple of the file looks its module up
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[name]
        raise ValueError(f"plug-in {reference!r}: importing {path} failed: {_one_line(error)}") from None
    return module


def _import_module(target: str, reference: str):
    """The importable module ``target``; ValueError naming the reference and the exception if its import fails."""
    try:
        return importlib.import_module(target)
    except Exception as error:
        raise ValueError(f"plug-in {reference!r}: importing module {target} failed: {_one_line(error)}") from None


def _one_line(error: BaseException) -> str:
    """``<exception type>: <the first line of its message>``."""
    message = str(error).strip().splitlines()
    return f"{type(error).__name__}: {message[0]}" if message else type(error).__name__


def _spec_of(value, reference: str) -> AlgorithmSpec:
    """The spec ``value`` holds: itself, or a ``Policy`` subclass's ``spec``; ValueError otherwise."""
    if isinstance(value, type) and issubclass(value, Policy):
        if not isinstance(getattr(value, "spec", None), AlgorithmSpec):
            raise ValueError(f"plug-in {reference!r} is a Policy subclass without an AlgorithmSpec as its spec")
        return value.spec
    if not isinstance(value, AlgorithmSpec):
        raise ValueError(f"plug-in {reference!r} is of type {type(value).__name__}, not an AlgorithmSpec or a Policy "
                         f"subclass")
    return value


def check_plugin_name(spec: AlgorithmSpec, reference: str) -> str:
    """The name of the plug-in ``spec`` loaded from ``reference`` if it may name a plug-in algorithm: a valid folder
    name (``NAME_PATTERN``, at most ``MAX_NAME_LENGTH`` characters, not ending like ``FOLDER_SUFFIX``) that no
    built-in algorithm has and no other plug-in's spec has, in any case (results folders on a case-insensitive disk;
    the same spec through another reference, e.g. its ``Policy`` class, is the same plug-in); ValueError otherwise."""
    from dts_reproduction.algorithms import ALGORITHMS, YARDSTICKS  # the registry imports this module

    name = spec.name
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name) or len(name) > MAX_NAME_LENGTH:
        raise ValueError(f"plug-in {reference!r} names its algorithm {name!r}: an algorithm's name becomes a results "
                         f"folder's, so it must be letters, digits, '_' and '-' (starting with a letter or a digit, at "
                         f"most {MAX_NAME_LENGTH} characters)")
    if FOLDER_SUFFIX.search(name):
        raise ValueError(f"plug-in {reference!r} names its algorithm {name!r}, which ends like the suffix a results "
                         f"folder adds to a name (_p<digest>, _d<delay>, _fixed): choose another name")
    builtin = [known for known in (*ALGORITHMS, *YARDSTICKS) if known.lower() == name.lower()]
    if builtin:
        raise ValueError(f"plug-in {reference!r} names its algorithm {name!r}, the name of the built-in algorithm "
                         f"{builtin[0]!r}: choose another name")
    taken = [plugin for known, plugin in _PLUGINS.items() if known.lower() == name.lower() and plugin.spec is not spec]
    if taken:
        raise ValueError(f"plug-in {reference!r} names its algorithm {name!r}, already the name of plug-in "
                         f"{taken[0].reference!r} ({taken[0].spec.name!r})")
    return name


def load_plugin(reference: str) -> AlgorithmSpec:
    """The spec a plug-in reference names (``path/to/file.py:ATTR`` or ``package.module:ATTR``, ATTR an
    ``AlgorithmSpec`` or a ``Policy`` subclass), registered under its name with its canonical reference (a
    reference loaded again returns the same spec, its file not run again).  ValueError of one line naming the
    reference for: a reference of neither form, a missing file, an import that fails (with its exception), a missing
    attribute, an attribute that is no spec or Policy, and a name ``check_plugin_name`` refuses."""
    canonical = _canonical(reference)
    with _LOCK:
        if canonical in _BY_REFERENCE:
            return _BY_REFERENCE[canonical]
        target, attr, is_file = _split(canonical)
        module = _import_file(Path(target), reference) if is_file else _import_module(target, reference)
        value = module
        for part in attr.split("."):
            if not hasattr(value, part):
                raise ValueError(f"plug-in {reference!r}: {target} has no attribute {attr!r}")
            value = getattr(value, part)
        spec = _spec_of(value, reference)
        _PLUGINS.setdefault(check_plugin_name(spec, canonical), Plugin(spec, canonical))
        _BY_REFERENCE[canonical] = spec
        return spec


def plugin_spec(name: str) -> AlgorithmSpec | None:
    """The plug-in registered under ``name``, else the one an entry point of that name offers (loaded now), else
    None.  ValueError if that entry point cannot be loaded or its spec has another name."""
    with _LOCK:
        if name in _PLUGINS:
            return _PLUGINS[name].spec
    return entry_point_spec(name)


def _entry_points() -> dict:
    """The installed entry points of ``ENTRY_POINT_GROUP`` by name."""
    return {point.name: point for point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}


def entry_point_names() -> list[str]:
    """The names of the algorithms installed distributions offer as entry points (``ENTRY_POINT_GROUP``), sorted."""
    return sorted(_entry_points())


def entry_point_spec(name: str) -> AlgorithmSpec | None:
    """The spec of the entry point ``name`` of ``ENTRY_POINT_GROUP``, loaded (``load_plugin`` of its value), or None
    if no installed distribution offers one; ValueError if it cannot be loaded or its spec is named otherwise."""
    point = _entry_points().get(name)
    if point is None:
        return None
    spec = load_plugin(point.value)
    if spec.name != name:
        raise ValueError(f"entry point {name!r} of group {ENTRY_POINT_GROUP} loads {point.value!r}, whose algorithm "
                         f"is named {spec.name!r}: an entry point's name must be its algorithm's")
    return spec


def plugin_names() -> list[str]:
    """The names of the plug-ins loaded in this process and of those the entry points offer, sorted."""
    with _LOCK:
        return sorted({*_PLUGINS, *entry_point_names()})


def plugin_references(names) -> tuple[str, ...]:
    """The references a worker process must load (``load_plugins``) to know the algorithms ``names``: one per name
    that is a loaded plug-in (canonical, in the order of ``names``); a built-in name, or one an entry point offers
    and is not loaded yet, needs none."""
    with _LOCK:
        return tuple(dict.fromkeys(_PLUGINS[name].reference for name in names if name in _PLUGINS))


def load_plugins(references) -> None:
    """Load every plug-in reference of ``references`` in this process (a worker's first task of a plug-in), each
    once (``load_plugin``); ValueError as ``load_plugin``'s (a file missing on a dask worker names the file)."""
    for reference in references:
        load_plugin(reference)
