"""Run any algorithms on any dataset (or matrix file) and plot their regret: the researcher's CLI.

Example::

    python reproduce/run.py --dataset mslr5_condorcet --algorithms dts dts_plus rucb \
        --horizon 100000 --runs 50 --param dts.alpha=0.6 --name my_study

``--dataset`` takes a dataset name (``data.dataset_names()``) or a path to a .txt/.csv matrix;
``--algorithms`` takes registry names, or ``NAME:PRESET`` for a named parameter set of the algorithm
(``AlgorithmSpec.presets``, e.g. ``merge_dts:best``, drawn as "MergeDTS (best)"; it is the same stored
line as the one with the preset's parameters written out); ``--param ALG.NAME=VALUE`` (ALG as written in
``--algorithms``, a preset included) overrides a parameter (numbers and True/False are parsed, other values kept as
text); ``--delay d`` batches feedback every d slots (d = 1: no delay; else d < T); ``--no-shuffle`` keeps
the matrix's arm order.  Results go to ``<out>/<dataset key>/<line>/`` (``runner.dataset_key``: a matrix file
of one's own gets its content digest in the key, so it never lands in a paper line's folder) and the figure to
``<figures>/<name>.png|pdf|csv`` (``--name``: a plain file name); ``<out>`` and ``<figures>`` default to the
git-ignored ``results/custom/`` and ``figures/custom/``, and both folders written are printed at the end.
``--list`` prints the datasets and the algorithms with their parameters.  All the common flags of the figure
scripts apply (``--quick --force --n-jobs --seed --backend --scheduler --local-cluster``...); every value and
both folders are checked before any computation.
"""

from pathlib import Path

from dts_reproduction.algorithms import ALGORITHMS, get_algorithm
from dts_reproduction.data import dataset_names, load_dataset
from dts_reproduction.reproduce.cli.arguments import build_parser, check_name, doc_summary, integer, main_guard, resolve
from dts_reproduction.reproduce.config.paper import HORIZON
from dts_reproduction.reproduce.harness.atomic import atomic_group
from dts_reproduction.reproduce.harness.limits import check_output_files
from dts_reproduction.reproduce.harness.paths import CUSTOM, FIGURES, RESULTS
from dts_reproduction.reproduce.harness.runner import check_delay, dataset_key
from dts_reproduction.reproduce.output.plotting import plot_regret_panels
from dts_reproduction.reproduce.output.tables import write_table
from dts_reproduction.reproduce.studies.experiment import Curve, Panel, curves_and_stores, final_table, simulate_panels

# The figure scripts' names (each writes <figures>/<name>.*): not available as --name.
FIGURE_NAMES = frozenset(path.stem for pattern in ("fig[0-9]_*.py", "table9_*.py", "c18_*.py")
                         for path in Path(__file__).resolve().parent.glob(pattern))


def _parse_value(text: str):
    """``text`` as an int, a float, a bool ("True"/"False", e.g. btm.faithful_bug=False) or else the text."""
    if text in ("True", "False"):
        return text == "True"
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def canonical_value(entry: str, name: str, value):
    """``value`` in the type of the parameter's default where that loses nothing (alpha=1 is alpha=1.0, a
    float parameter; an int parameter given as 3.0 is 3), so that one value has one storage key; ``entry`` is
    an ``--algorithms`` entry, NAME or NAME:PRESET."""
    default = get_algorithm(entry.partition(":")[0]).defaults.get(name)
    if isinstance(value, bool) or isinstance(default, bool):
        return value
    if isinstance(default, float) and isinstance(value, int):
        return float(value)
    if isinstance(default, int) and isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def parse_params(items, algorithms) -> dict:
    """``["dts.alpha=0.6", ...]`` -> {"dts": {"alpha": 0.6}}, each value in its canonical type
    (``canonical_value``); ValueError on a malformed item or an algorithm named twice (its two curves could
    only be the same runs)."""
    twice = sorted({name for name in algorithms if algorithms.count(name) > 1})
    if twice:
        raise ValueError(f"--algorithms names {twice[0]!r} twice")
    params = {name: {} for name in algorithms}
    for item in items or ():
        key, sep, value = item.partition("=")
        alg, dot, name = key.partition(".")
        if not sep or not dot or not name:
            raise ValueError(f"--param must look like ALGORITHM.NAME=VALUE, got {item!r}")
        if alg not in params:
            raise ValueError(f"--param {item!r} names algorithm {alg!r}, which is not in --algorithms")
        if name in params[alg]:
            raise ValueError(f"--param {key} is given twice")
        params[alg][name] = canonical_value(alg, name, _parse_value(value))
    return params


def listing() -> str:
    """What ``--list`` prints: every dataset with K and whether it has a Condorcet winner, then every algorithm
    with its legend label and its parameters with their defaults (``--param ALG.NAME=VALUE`` overrides one)."""
    lines = ["datasets (--dataset NAME, or a path to a matrix file):"]
    width = max(map(len, dataset_names()))
    for name in dataset_names():
        dataset = load_dataset(name)
        winner = "Condorcet winner" if dataset.has_condorcet_winner else "no Condorcet winner"
        lines.append(f"  {name:<{width}} K = {dataset.K:<4} {winner}")
    lines.append("algorithms (--algorithms NAME ...; parameters with defaults, --param ALG.PARAM=VALUE):")
    entries = [name + suffix for name, spec in ALGORITHMS.items() for suffix in ["", *(f":{p}" for p in spec.presets)]]
    width, label_width = max(map(len, entries)), max(len(spec.label) for spec in ALGORITHMS.values())
    for name, spec in ALGORITHMS.items():
        params = ", ".join(f"{key}={value!r}" for key, value in spec.defaults.items()) or "(none)"
        lines.append(f"  {name:<{width}} {spec.label:<{label_width}} {params}")
        for preset, values in spec.presets.items():
            settings = ", ".join(f"{key}={value!r}" for key, value in values.items())
            lines.append(f"  {name + ':' + preset:<{width}} {'(preset)':<{label_width}} {settings}")
    return "\n".join(lines)


def algorithm_curve(entry: str, params: dict, shuffle: bool) -> Curve:
    """The curve of one ``--algorithms`` entry, ``NAME`` or ``NAME:PRESET``, with the ``--param`` overrides
    ``params`` on top of the preset's parameters; a preset curve is tagged "<label> (<preset>)".  ValueError
    for an unknown algorithm or preset."""
    name, sep, preset = entry.partition(":")
    spec = get_algorithm(name)
    if not sep:
        return Curve(name, tuple(params.items()), shuffle=shuffle)
    merged = {**dict(spec.preset_params(preset)), **params}
    return Curve(name, tuple(sorted(merged.items())), tag=f"{spec.label} ({preset})", shuffle=shuffle)


def main(argv=None):
    """Parse the command line, run every algorithm, write the figure and the final-regret table."""
    parser = build_parser(doc_summary(__doc__), HORIZON)
    parser.add_argument("--list", action="store_true",
                        help="print the datasets (K, Condorcet winner or not) and the algorithms with their "
                             "parameters, defaults and presets, then stop")
    parser.add_argument("--dataset", help="dataset name or matrix file path (required unless --list)")
    parser.add_argument("--algorithms", nargs="+", dest="algorithm_entries",  # the curves, not a line selection
                        help="algorithm registry names, or NAME:PRESET for a named parameter set (e.g. "
                             "merge_dts:best); required unless --list")
    parser.add_argument("--param", action="append", help="ALG.NAME=VALUE parameter override (repeatable)")
    parser.add_argument("--delay", default="1", help="feedback delivered every d slots, d < T (default 1: no delay)")
    parser.add_argument("--no-shuffle", action="store_true", help="keep the matrix's arm order in every run")
    parser.add_argument("--name", default="custom", help="experiment name: results and figure file names")
    parser.set_defaults(out=RESULTS / CUSTOM, figures=FIGURES / CUSTOM)

    def run():
        """Check every argument, simulate the lines, draw them and print the final-regret table (with --list:
        print what can be run instead)."""
        namespace = parser.parse_args(argv)
        if namespace.list:
            print(listing())
            return
        for flag, value in (("--dataset", namespace.dataset), ("--algorithms", namespace.algorithm_entries)):
            if value is None:
                parser.error(f"the following argument is required: {flag} (or --list)")
        settings = resolve(namespace)
        name = check_name(namespace.name)
        if name in FIGURE_NAMES:
            raise ValueError(f"--name {name} is the name of reproduce/{name}.py's figure, whose files "
                             f"(and REPORT.md's numbers) it would overwrite: choose another")
        delay = integer(namespace.delay, "--delay")
        check_delay(delay, settings.horizon, ("--delay", "--horizon"))
        params = parse_params(namespace.param, namespace.algorithm_entries)
        stem = settings.figures / name
        check_output_files([*(stem.with_suffix(suffix) for suffix in (".png", ".pdf", ".csv")),
                            *(settings.figures / f"{name}{end}.csv" for end in ("_final", "_lines"))], "figure file")
        dataset = load_dataset(namespace.dataset)
        title = dataset.name
        panel = Panel(dataset=namespace.dataset, title=title, delay=delay,
                      algorithms=tuple(algorithm_curve(entry, params[entry], not namespace.no_shuffle)
                                       for entry in namespace.algorithm_entries))
        with atomic_group(settings.figures):  # the figure and its tables appear together, or none of them (a full disk)
            panels = simulate_panels(name, [panel], settings)
            table = final_table(panels)
            plot_regret_panels(panels, settings.figures / name, ncols=1)
            write_table(table, settings.figures / f"{name}_final.csv")
        print(table.to_string(index=False, float_format=lambda v: f"{v:.2f}"))
        folders = dict.fromkeys(curves_and_stores([panel], settings)[1].values())  # --fast: the defaults' folder too
        verb = "read" if settings.plot_only or settings.stored_only else "wrote"
        print(f"{verb} results under "
              f"{' and '.join(str(folder / dataset_key(dataset, settings.seed)) for folder in folders)}")
        print(f"wrote figures {settings.figures / name}.png, .pdf, .csv and {name}_final.csv, {name}_lines.csv")

    main_guard(run)


if __name__ == "__main__":
    main()
