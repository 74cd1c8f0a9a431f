"""The code a line's runs execute, as a digest of its source text (docs/harness.md, "What a stored line knows of
its code").

``run_code(spec, params, dataset, horizon, kind)`` is the *code identity* of a line: ``{"digest": ..., "functions":
{qualified name: digest}}``, one digest per function (or class) a run of the line can execute, and one digest of
them all.  The functions are found from roots by following what each one reads by name:

* the roots: the algorithm's ``init``, ``select``, ``update`` and ``from_problem``; its ``skip`` and ``pair_run``
  hooks (their own text only) and the kernels they return for a state of the line's parameters; the run kind's
  probe and its generator (``RunKind.probe_rng``); the simulation loop (``core.simulate.simulate`` and its template
  ``_loop_segment``); the environment's draws (every function of ``reproduce.harness.seeds`` and
  ``runner.run_one``);
* from a function: every global or closure variable its code (nested code included) names, and every attribute it
  names of a module it reads (``seeds.run_permutation``); a numba dispatcher is followed through the Python function
  it compiles (``py_func``), an intrinsic through its definition, a wrapper through ``__wrapped__``; a class through
  its methods;
* only inside the ``dts_reproduction`` package and the modules the line's own functions live in (a plug-in's): the
  walk stops at numpy, numba and the standard library.

A function's digest is the SHA-256 (``NAME_DIGEST_LENGTH`` hex digits) of its source text (``inspect.getsource``:
the text, never a path or bytecode, so it is the same on any machine, Python version and install layout) followed by
the value of every constant it reads by name (a number, a text, a dtype, a tuple of them; a public dict, list or
array of them): editing ``PSEUDO_N`` changes the digest of the kernels that read it.  Private module values (a
leading underscore: caches filled as a process runs) are not constants.  A function without source text (one built
from a string at run time) is digested from its bytecode instead (another Python version: another digest, so a
re-check, never a silent reuse).

Digests are memoized per process: a function's by the function object (a module reloaded gives new ones), a line's
by its algorithm spec, parameters, dataset, horizon and kind.  ``git_dirty`` says whether the checkout's package
folders hold uncommitted changes.
"""

import enum
import hashlib
import inspect
import json
import subprocess
import sys
import types
import warnings
import weakref
from pathlib import Path

import numpy as np

from dts_reproduction.core.simulate import _loop_segment, simulate
from dts_reproduction.reproduce.harness import seeds
from dts_reproduction.reproduce.harness.paths import ROOT

PACKAGE = "dts_reproduction"
PACKAGE_FOLDERS = ("core", "algorithms", "data", "reproduce", PACKAGE)  # what ``git_dirty`` looks at
NAME_DIGEST_LENGTH = 16  # hex digits of a function's digest (64 bits: enough to tell an edit)
_NODES = weakref.WeakKeyDictionary()  # function or class -> _Node
_RUN_CODES = weakref.WeakKeyDictionary()  # dataset -> {(spec id, params, horizon, kind): (spec, kind, identity)}


class _Node:
    """One function or class of the walk: its ``name`` (module and qualified name, the package prefix dropped), its
    ``digest`` and the objects it reads by name (``references``: functions, classes, modules' attributes)."""

    def __init__(self, name: str, digest: str, references: tuple):
        """Record the node's name, digest and references."""
        self.name, self.digest, self.references = name, digest, references


def unwrapped(value):
    """The Python function or class ``value`` stands for (a numba dispatcher's ``py_func``, an intrinsic's
    definition, a wrapper's ``__wrapped__``, a static or class method's or a bound method's function), or None if it
    is neither (a builtin, an instance, a number)."""
    for _ in range(8):
        if isinstance(value, (types.FunctionType, type)):
            return value
        if isinstance(value, types.ModuleType) or not (callable(value) or isinstance(value, classmethod)):
            return None
        inner = next((getattr(value, attribute) for attribute in ("py_func", "_defn", "__wrapped__", "__func__")
                      if hasattr(value, attribute)), None)
        if inner is None:
            return None
        value = inner
    return None


def qualified_name(obj) -> str:
    """``module.qualname`` of a function or class, without the ``dts_reproduction.`` prefix."""
    return f"{obj.__module__}.{obj.__qualname__}".removeprefix(f"{PACKAGE}.")


def _in_package(module: str | None) -> bool:
    """Whether the module named ``module`` is part of the ``dts_reproduction`` package."""
    return module is not None and (module == PACKAGE or module.startswith(f"{PACKAGE}."))


def constant_text(value, public: bool = True) -> str | None:
    """A text of ``value`` that is the same in every process and on every machine if it is a constant a kernel may
    read (None, a bool, number, text or bytes; a numpy scalar or dtype; an enum member; a tuple or frozenset of
    constants; if ``public``, also a dict, list or array of them), else None."""
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes, enum.Enum)):
        return repr(value)
    if isinstance(value, np.generic):
        return repr(value.item())
    if isinstance(value, np.dtype):
        return repr(value.descr) if value.fields else value.str
    if isinstance(value, (tuple, frozenset)) or (public and isinstance(value, list)):
        parts = [constant_text(item, public) for item in value]
        if None in parts:
            return None
        return f"({', '.join(sorted(parts) if isinstance(value, frozenset) else parts)})"
    if public and isinstance(value, dict):
        parts = [(constant_text(key, public), constant_text(item, public)) for key, item in value.items()]
        if any(None in part for part in parts):
            return None
        return "{" + ", ".join(sorted(f"{key}: {item}" for key, item in parts)) + "}"
    if public and isinstance(value, np.ndarray) and value.dtype.kind in "biufcSU":
        content = hashlib.sha256(np.ascontiguousarray(value).view(np.uint8)).hexdigest()
        return f"array({value.dtype.str}, {value.shape}, {content})"
    return None


def _source(obj) -> str:
    """The source text of a function or class; for one without any (built from a string), its name and bytecode."""
    try:
        return inspect.getsource(obj)
    except (OSError, TypeError):
        code = getattr(obj, "__code__", None)
        if code is None:
            return f"<no source> {qualified_name(obj)} {getattr(obj, '_fields', '')}"
        return f"<no source> {qualified_name(obj)} {code.co_code.hex()} {code.co_names}"


def _code_names(code: types.CodeType) -> set[str]:
    """Every name ``code`` and the code objects nested in it (functions, lambdas, comprehensions) read by name."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _code_names(const)
    return names


def _read(label: str, value, module_names: set[str], constants: list, references: list) -> None:
    """Sort the value a function reads under ``label`` into ``constants`` (``label=text``) or ``references``
    (functions, classes; of a module, the attributes named in ``module_names``; of a tuple or list, its items)."""
    target = unwrapped(value)
    if target is not None:
        references.append(target)
    elif isinstance(value, types.ModuleType):
        for attribute in sorted(module_names):
            item = vars(value).get(attribute)  # not getattr: a module's __getattr__ may warn (numpy's old aliases)
            if unwrapped(item) is not None:
                references.append(unwrapped(item))
            elif _in_package(value.__name__) and constant_text(item, not attribute.startswith("_")) is not None:
                constants.append(f"{label}.{attribute}={constant_text(item, not attribute.startswith('_'))}")
    else:
        text = constant_text(value, public=not label.startswith("_"))
        if text is not None:
            constants.append(f"{label}={text}")
        elif isinstance(value, (tuple, list)):
            references.extend(item for item in map(unwrapped, value) if item is not None)


def _function_reads(function: types.FunctionType, constants: list, references: list) -> None:
    """What ``function`` reads by name (its globals, closure variables and default values), sorted by ``_read``."""
    code = function.__code__
    names = _code_names(code)
    for name in sorted(names):
        if name in function.__globals__:
            _read(name, function.__globals__[name], names, constants, references)
    for name, cell in zip(code.co_freevars, function.__closure__ or (), strict=True):
        try:
            _read(name, cell.cell_contents, names, constants, references)
        except ValueError:  # an empty cell (a variable not assigned yet)
            pass
    defaults = [*(function.__defaults__ or ()), *(function.__kwdefaults__ or {}).values()]
    for index, value in enumerate(defaults):
        _read(f"default{index}", value, names, constants, references)


def _class_members(cls: type) -> list[types.FunctionType]:
    """The functions written in the body of class ``cls`` (methods, static and class methods, properties): those
    whose code comes from its module's file, not those a decorator generated (a dataclass's ``__init__``)."""
    module = sys.modules.get(cls.__module__)
    filename = getattr(module, "__file__", None)
    members = []
    for value in vars(cls).values():
        parts = (value.fget, value.fset, value.fdel) if isinstance(value, property) else (value,)
        for part in parts:
            function = unwrapped(part)
            if isinstance(function, types.FunctionType) and function.__code__.co_filename == filename:
                members.append(function)
    return members


def node(obj) -> _Node:
    """The ``_Node`` of a function or class (memoized per object)."""
    if obj not in _NODES:
        constants, references = [], []
        if isinstance(obj, type):
            for member in _class_members(obj):
                _function_reads(member, constants, references)
            references.extend(base for base in obj.__bases__ if base is not object)
        else:
            _function_reads(obj, constants, references)
        text = _source(obj) + "\n" + "\n".join(sorted(set(constants)))
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:NAME_DIGEST_LENGTH]
        _NODES[obj] = _Node(qualified_name(obj), digest, tuple(dict.fromkeys(references)))
    return _NODES[obj]


def function_digests(roots, shallow=(), modules=()) -> dict[str, str]:
    """{qualified name: digest} of ``roots`` (functions, classes, dispatchers) and of everything they read by name,
    transitively (see the module docstring), inside the package and ``modules`` (module names); ``shallow`` roots
    count by their own text, without what they read.  Two different objects of one name (two lambdas of a module,
    a factory's closures) share one entry, the digest of both."""
    scope = set(modules)
    found = {}
    pending = [(item, True) for item in map(unwrapped, roots) if item is not None]
    pending += [(item, False) for item in map(unwrapped, shallow) if item is not None]
    seen = set()
    while pending:
        obj, follow = pending.pop()
        if (obj, follow) in seen or not (_in_package(obj.__module__) or obj.__module__ in scope):
            continue
        seen.add((obj, follow))
        current = node(obj)
        found.setdefault(current.name, set()).add(current.digest)
        if follow:
            pending.extend((reference, True) for reference in current.references)
    return {name: digests.pop() if len(digests) == 1
            else hashlib.sha256("+".join(sorted(digests)).encode()).hexdigest()[:NAME_DIGEST_LENGTH]
            for name, digests in sorted(found.items())}


def identity(functions: dict[str, str]) -> dict:
    """The code identity of ``functions`` ({qualified name: digest}): them, and the SHA-256 of them all."""
    return {"digest": hashlib.sha256(json.dumps(functions, sort_keys=True).encode()).hexdigest(),
            "functions": dict(functions)}


def _hooked_kernels(spec, params: dict, dataset, horizon: int) -> list:
    """The kernels the ``skip`` and ``pair_run`` hooks of ``spec`` return for a state of ``params`` on ``dataset``
    (a pair run's plan and apply), as a run of the line would get them; empty if it has no hook."""
    if spec.skip is None and spec.pair_run is None:
        return []
    with warnings.catch_warnings():  # a parameter's warning: validating the line gave it already
        warnings.simplefilter("ignore", UserWarning)
        state = spec.make_state(dataset.K, horizon, spec.problem_params(params, dataset))
    kernels = []
    for hook in (spec.skip, spec.pair_run):
        returned = hook(state) if hook is not None else None
        kernels.extend(returned if isinstance(returned, tuple) else [returned] if returned is not None else [])
    return kernels


def run_code(spec, params: dict, dataset, horizon: int, kind) -> dict:
    """The code identity (``identity``) of a line of the algorithm ``spec`` with the resolved ``params`` on
    ``dataset`` at ``horizon``, of the run kind ``kind``: the digests of every function its runs can execute (the
    module docstring lists the roots).  Memoized per process."""
    from dts_reproduction.reproduce.harness.runner import run_one  # the runner imports this module

    key = (id(spec), json.dumps(params, sort_keys=True, default=repr), horizon, kind.name, kind.version)
    known = _RUN_CODES.setdefault(dataset, {})
    if key not in known or known[key][0] is not spec or known[key][1] is not kind:
        own = [spec.init, spec.select, spec.update, spec.from_problem, kind.probe, kind.probe_rng]
        kernels = _hooked_kernels(spec, params, dataset, horizon)
        modules = {getattr(unwrapped(item), "__module__", None) for item in [*own, *kernels] if unwrapped(item)}
        seed_functions = [value for value in vars(seeds).values()
                          if isinstance(value, types.FunctionType) and value.__module__ == seeds.__name__]
        functions = function_digests([*own, *kernels, simulate, _loop_segment, run_one, *seed_functions],
                                     shallow=[spec.skip, spec.pair_run], modules=modules - {None})
        known[key] = (spec, kind, identity(functions))
    return known[key][2]


def changed_functions(recorded: dict, current: dict) -> list[str]:
    """What differs between two ``functions`` records ({qualified name: digest}), sorted by name: "<name>" for a
    function whose digest changed, "<name> (new)" for one only ``current`` has, "<name> (gone)" for one only
    ``recorded`` has."""
    names = sorted(set(recorded) | set(current))
    return [name if name in recorded and name in current else f"{name} ({'new' if name in current else 'gone'})"
            for name in names if recorded.get(name) != current.get(name)]


def git_dirty(root: Path = ROOT) -> bool | None:
    """Whether the git work tree whose top is ``root`` (this checkout) has uncommitted changes to tracked files under
    the package's folders (``PACKAGE_FOLDERS``; ``git status --porcelain``); None outside a git checkout (an installed
    package, no git, or a folder that is not the top of its work tree)."""
    try:
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=root, capture_output=True, text=True,
                             timeout=10)
        if top.returncode != 0 or Path(top.stdout.strip()).resolve() != Path(root).resolve():
            return None
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", *PACKAGE_FOLDERS],
                                cwd=root, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return bool(status.stdout.strip()) if status.returncode == 0 else None
