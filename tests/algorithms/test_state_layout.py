"""The algorithms' kernels read a state's fields by name (``state.comparisons``), never by position: a
new field must not mean editing every kernel, and the field order is no contract.  This test fails on a
positional unpacking of a state (``(a, b, ...) = state``) anywhere in ``algorithms/``, and on a
``state.<name>`` read of a field that no state ``NamedTuple`` of the package has (numba would only say so
when the kernel is first compiled)."""

import ast
import collections
import importlib
import pkgutil
from pathlib import Path

import numpy as np

from dts_reproduction import algorithms
from dts_reproduction.data import load_dataset

MODULES = [importlib.import_module(f"{algorithms.__name__}.{info.name}")
           for info in pkgutil.iter_modules(algorithms.__path__)]
STATE_FIELDS = {field for module in MODULES for value in vars(module).values()
                if isinstance(value, type) and issubclass(value, tuple) and hasattr(value, "_fields")
                for field in value._fields}


def module_trees():
    """(module name, parsed source) of every module of the algorithms package."""
    for module in MODULES:
        yield module.__name__, ast.parse(Path(module.__file__).read_text())


def positional_unpackings(tree):
    """Line numbers of every tuple unpacking of a name ending in ``state`` (``(a, b, ...) = state``)."""
    for node in ast.walk(tree):
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id.endswith("state")
                and isinstance(node.targets[0], ast.Tuple)):
            yield node.lineno


def state_field_reads(tree):
    """(line, field) of every ``state.<field>`` in the module."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "state":
            yield node.lineno, node.attr


def test_the_state_classes_are_found():
    assert {"comparisons", "wins", "skip_state", "counters", "row_next"} <= STATE_FIELDS


def test_no_kernel_unpacks_a_state_by_position():
    found = {name: lines for name, tree in module_trees() if (lines := list(positional_unpackings(tree)))}
    assert not found, found


def test_every_state_field_read_exists():
    unknown = {name: bad for name, tree in module_trees()
               if (bad := [(line, field) for line, field in state_field_reads(tree)
                           if field not in STATE_FIELDS and not field.startswith("_")])}
    assert not unknown, unknown


def test_the_checks_catch_what_they_guard():
    tree = ast.parse("def select(state, t, rng):\n    (n, w) = state\n    return state.no_such_field\n")
    assert list(positional_unpackings(tree)) == [2]
    assert [field for _, field in state_field_reads(tree) if field not in STATE_FIELDS] == ["no_such_field"]


def is_field_read(node):
    """``state.<field>``, ``state.<field>[<constant>]`` or a tuple of those."""
    if isinstance(node, ast.Tuple):
        return all(is_field_read(element) for element in node.elts)
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        node = node.value
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "state"


def late_state_uses(function):
    """Line numbers of the statements of an njit ``function(state, ...)`` that use ``state`` after its
    opening lines, which may only bind fields to locals (``comparisons, wins = state.comparisons,
    state.wins``).  While ``state`` is live numba holds a reference to every array of it, taken and
    released on each call (two atomic operations an array); bound once at the top, only the fields used
    are counted (bench/HISTORY.md, 2026-11-28 "What made D-TS's fast path slower")."""
    body = function.body[1:] if ast.get_docstring(function) else function.body
    opening = 0
    while (opening < len(body) and isinstance(body[opening], ast.Assign)
           and is_field_read(body[opening].value)):
        opening += 1
    return [statement.lineno for statement in body[opening:]
            if any(isinstance(node, ast.Name) and node.id == "state" for node in ast.walk(statement))]


def njit_state_kernels(tree):
    """The njit-decorated functions of a module whose first parameter is ``state``."""
    for node in tree.body:
        if (isinstance(node, ast.FunctionDef) and node.args.args and node.args.args[0].arg == "state"
                and any("njit" in ast.unparse(decorator) for decorator in node.decorator_list)):
            yield node


def test_kernels_read_the_state_only_in_their_opening_lines():
    late = {f"{name}.{kernel.name}": lines for name, tree in module_trees() for kernel in njit_state_kernels(tree)
            if (lines := late_state_uses(kernel))}
    assert not late, late


def test_the_opening_lines_rule_catches_a_late_use():
    tree = ast.parse("@njit\ndef select(state, t, rng):\n    '''doc'''\n    wins, c = state.wins, state.counters[0]\n"
                     "    a1 = argmax(wins)\n    return a1, helper(state)\n")
    kernel, = njit_state_kernels(tree)
    assert late_state_uses(kernel) == [6]
    assert late_state_uses(ast.parse("def update(state):\n    x = f(state.wins)\n").body[0]) == [2]


def record_fields_shadowed(state) -> list[str]:
    """The fields of ``state``'s structured arrays (its ``counters`` records) whose name is also an attribute of a
    NumPy record (``round``, ``max``, ``sum`` ...): compiled, ``counters.round`` reads the field; run as Python
    (NUMBA_DISABLE_JIT=1, or a plain-Python loop) it reads the method, so the two would differ."""
    return [f"{name}.{field}" for name, value in zip(state._fields, state, strict=True)
            if isinstance(value, np.ndarray) and value.dtype.names
            for field in value.dtype.names if hasattr(np.record, field)]


def test_no_record_field_is_shadowed_by_a_numpy_record_attribute():
    """Every registered algorithm's state, defaults and fast paths: no record field that Python would read as a NumPy
    method (WS-S's round counter, once ``round``, made its JIT-off run fail)."""
    dataset = load_dataset("mslr5_condorcet")
    shadowed = []
    for spec in {**algorithms.ALGORITHMS, **algorithms.YARDSTICKS}.values():
        for params in ({}, dict(spec.fast)):
            state = spec.make_state(5, 1000, spec.problem_params(spec.resolve_params(params), dataset))
            shadowed += [f"{spec.name}: {field}" for field in record_fields_shadowed(state)]
    assert shadowed == []


def test_the_shadowing_check_catches_a_round_field():
    """The check names a field called ``round``, and only it."""
    counters = np.zeros(1, np.dtype([("round", np.int64), ("round_index", np.int64)]))
    state = collections.namedtuple("Toy", "counters")(counters)
    assert record_fields_shadowed(state) == ["counters.round"]
