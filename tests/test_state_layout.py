"""The njit kernels unpack an algorithm's whole state once, positionally, into locals named after its
fields (numba reads a field of a tuple argument far more cheaply that way than through repeated
``state.<field>``).  This test keeps every such unpacking in step with the ``NamedTuple`` it unpacks:
same length, and each name either the field at that position or ``_``."""

import ast
import importlib
import inspect
import pkgutil

import pytest

import algorithms
from algorithms.base import AlgorithmSpec

# Every module of the algorithms package that declares an algorithm, found rather than listed, so that a new
# algorithm is checked too.
MODULES = [module for module in (importlib.import_module(f"algorithms.{info.name}")
                                 for info in pkgutil.iter_modules(algorithms.__path__))
           if any(isinstance(value, AlgorithmSpec) for value in vars(module).values())]


def state_unpackings(module):
    """(function name, target names) of every ``(...) = state`` in the module."""
    for node in ast.walk(ast.parse(inspect.getsource(module))):
        if isinstance(node, ast.FunctionDef):
            for statement in ast.walk(node):
                if (isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Name)
                        and statement.value.id == "state" and isinstance(statement.targets[0], ast.Tuple)):
                    yield node.name, [element.id for element in statement.targets[0].elts]


def test_every_algorithm_module_is_checked():
    assert {module.__name__ for module in MODULES} >= {
        f"algorithms.{name}" for name in ("btm", "ccb", "dts", "ecw_rmed", "rcs", "rmed", "rucb", "savage", "scb",
                                          "sparring")}


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_state_unpackings_follow_the_fields(module):
    layouts = [cls._fields for cls in vars(module).values()
               if isinstance(cls, type) and issubclass(cls, tuple) and hasattr(cls, "_fields")]
    found = list(state_unpackings(module))
    assert found, "the kernels are expected to unpack the state"
    for function, names in found:
        assert any(len(names) == len(fields) and all(n in ("_", f) for n, f in zip(names, fields, strict=True))
                   for fields in layouts), (function, names, layouts)
