"""A run of one's own (``reproduce/run.py``, its command line): any algorithms on any dataset or matrix file, drawn
and tabulated.  An ``--algorithms`` entry's curve (``algorithm_curve``: a preset's parameters with the overrides on
top), a parameter value in the type of its default (``canonical_value``: one value, one storage key), what ``--list``
prints (``listing``), one panel per dataset (``dataset_panels``) and the run itself (``run_custom``)."""

from pathlib import Path

import pandas as pd

from dts_reproduction.algorithms import ALGORITHMS, get_algorithm, is_plugin_reference, resolve_algorithm
from dts_reproduction.algorithms.plugins import entry_point_names
from dts_reproduction.data import dataset_names, load_dataset
from dts_reproduction.reproduce.harness.atomic import atomic_group
from dts_reproduction.reproduce.harness.limits import check_output_files
from dts_reproduction.reproduce.harness.runner import dataset_key
from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.output.tables import write_table
from dts_reproduction.reproduce.studies.experiment import Curve, Panel, curves_and_stores
from dts_reproduction.reproduce.studies.regret_panels import draw_regret_panels


def entry_spec(entry: str):
    """The spec of an ``--algorithms`` entry: a plug-in reference's (loaded, ``algorithms.plugins``), else that of
    the NAME of ``NAME`` or ``NAME:PRESET``; ValueError for an unknown name or a plug-in that cannot be loaded."""
    return resolve_algorithm(entry if is_plugin_reference(entry) else entry.partition(":")[0])


def canonical_value(entry: str, name: str, value):
    """``value`` in the type of the parameter's default where that loses nothing (alpha=1 is alpha=1.0, a
    float parameter; an int parameter given as 3.0 is 3), so that one value has one storage key; ``entry`` is
    an ``--algorithms`` entry, NAME, NAME:PRESET or a plug-in reference."""
    default = entry_spec(entry).defaults.get(name)
    if isinstance(value, bool) or isinstance(default, bool):
        return value
    if isinstance(default, float) and isinstance(value, int):
        return float(value)
    if isinstance(default, int) and isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def listing() -> str:
    """What ``--list`` prints: every dataset with K and whether it has a Condorcet winner, then every algorithm
    (the built-in ones, then those installed distributions offer as entry points, ``algorithms.plugins``) with its
    legend label and its parameters with their defaults (``--param ALG.NAME=VALUE`` overrides one); an entry point
    that cannot be loaded is listed last with the reason."""
    lines = ["datasets (--dataset NAME, or a path to a matrix file):"]
    width = max(map(len, dataset_names()))
    for name in dataset_names():
        dataset = load_dataset(name)
        winner = "Condorcet winner" if dataset.has_condorcet_winner else "no Condorcet winner"
        lines.append(f"  {name:<{width}} K = {dataset.K:<4} {winner}")
    lines.append("algorithms (--algorithms NAME ...; parameters with defaults, --param ALG.PARAM=VALUE):")
    specs, broken = dict(ALGORITHMS), []
    for name in entry_point_names():
        try:
            specs[name] = get_algorithm(name)
        except ValueError as error:
            broken.append(f"  {name}: cannot be loaded ({error})")
    entries = [name + suffix for name, spec in specs.items() for suffix in ["", *(f":{p}" for p in spec.presets)]]
    width, label_width = max(map(len, entries)), max(len(spec.label) for spec in specs.values())
    for name, spec in specs.items():
        params = ", ".join(f"{key}={value!r}" for key, value in spec.defaults.items()) or "(none)"
        lines.append(f"  {name:<{width}} {spec.label:<{label_width}} {params}")
        for preset, values in spec.presets.items():
            settings = ", ".join(f"{key}={value!r}" for key, value in values.items())
            lines.append(f"  {name + ':' + preset:<{width}} {'(preset)':<{label_width}} {settings}")
    return "\n".join(lines + broken)


def algorithm_curve(entry: str, params: dict, shuffle: bool) -> Curve:
    """The curve of one ``--algorithms`` entry, ``NAME``, ``NAME:PRESET`` or a plug-in reference (``entry_spec``: a
    plug-in's curve is its algorithm's, by name), with the ``--param`` overrides ``params`` on top of the preset's
    parameters; a preset curve is tagged "<label> (<preset>)".  ValueError for an unknown algorithm or preset, or a
    plug-in that cannot be loaded."""
    spec = entry_spec(entry)
    _name, sep, preset = entry.partition(":")
    if not sep or is_plugin_reference(entry):
        return Curve(spec.name, tuple(params.items()), shuffle=shuffle)
    merged = {**dict(spec.preset_params(preset)), **params}
    return Curve(spec.name, tuple(sorted(merged.items())), tag=f"{spec.label} ({preset})", shuffle=shuffle)


def dataset_panels(datasets, curves: tuple, delay: int = 1) -> list[Panel]:
    """One panel per dataset of ``datasets`` (names or matrix files, in the order given) holding ``curves``, titled by
    its matrix's name (the name as given where two matrices share one), with feedback every ``delay`` slots.
    ValueError for a dataset named twice (its two panels could only be the same runs) or one that does not load."""
    twice = sorted({name for name in datasets if list(datasets).count(name) > 1})
    if twice:
        raise ValueError(f"dataset {twice[0]!r} is given twice")
    names = [load_dataset(dataset).name for dataset in datasets]
    return [Panel(dataset=dataset, title=name if names.count(name) == 1 else dataset, delay=delay, algorithms=curves)
            for dataset, name in zip(datasets, names, strict=True)]


def run_custom(name: str, datasets, params: dict, delay: int, shuffle: bool,
               settings: Settings) -> tuple[pd.DataFrame, list[Path]]:
    """Run the curve of every ``--algorithms`` entry of ``params`` ({entry: its ``--param`` overrides}, in the order
    of ``--algorithms``; ``algorithm_curve``) on each of ``datasets`` (names or matrix files: one panel each,
    ``dataset_panels``) under ``settings``, with feedback every ``delay`` slots and the arms shuffled in every run
    unless not ``shuffle``; write ``<figures>/<name>.png|pdf|csv`` (one panel per dataset, each with the slope of its
    lower bound wherever it can be computed: ``regret_panels.draw_regret_panels``), ``<name>_final.csv`` (with the
    panel's dataset and lower bound) and ``<name>_lines.csv``, all or none of them (a full disk).  A file in the way,
    or a bad dataset, algorithm or preset, is bad input (ValueError) before anything is computed.  Returns the
    final-regret table and the results folders read or written (``<out>/<dataset key>`` per dataset,
    ``runner.dataset_key``; with --fast the defaults' too)."""
    stem = settings.figures / name
    check_output_files([*(stem.with_suffix(suffix) for suffix in (".png", ".pdf", ".csv")),
                        *(settings.figures / f"{name}{end}.csv" for end in ("_final", "_lines"))], "figure file")
    panels = dataset_panels(datasets, tuple(algorithm_curve(entry, overrides, shuffle)
                                            for entry, overrides in params.items()), delay)
    with atomic_group(settings.figures):  # the figure and its tables appear together, or none of them (a full disk)
        _results, table = draw_regret_panels(name, panels, settings, ncols=1 if len(panels) == 1 else 2)
        write_table(table, settings.figures / f"{name}_final.csv")
    folders = dict.fromkeys(curves_and_stores(panels, settings)[1].values())  # --fast: the defaults' folder too
    return table, [folder / dataset_key(load_dataset(dataset), settings.seed) for folder in folders
                   for dataset in datasets]
