"""Run any algorithms on any dataset (or matrix file) and plot their regret: the researcher's CLI.

Example::

    python reproduce/run.py --dataset mslr5_condorcet --algorithms dts dts_plus rucb \
        --horizon 100000 --runs 50 --param dts.alpha=0.6 --name my_study

``--dataset`` takes one or more dataset names (``data.dataset_names()``) or paths to .txt/.csv matrices, one panel
each in one figure (its tables name each line's panel and dataset), every panel with the slope of its asymptotic
lower bound C ln t wherever it can be computed (Condorcet or Copeland; ``reproduce.studies.regret_panels``);
``--algorithms`` takes registry names, or ``NAME:PRESET`` for a named parameter set of the algorithm
(``AlgorithmSpec.presets``, e.g. ``merge_dts:best``, drawn as "MergeDTS (best)"; it is the same stored line as the
one with the preset's parameters written out), or a plug-in reference to an algorithm of one's own,
``path/to/file.py:ATTR`` or ``package.module:ATTR`` (docs/extending.md, "Your own algorithm as a plug-in");
``--param ALG.NAME=VALUE`` (ALG as written in ``--algorithms``, a preset or a plug-in reference included) overrides
a parameter (numbers and True/False are parsed, other values kept as text); ``--delay d`` batches feedback every d
slots (d = 1: no delay; else d < T); ``--no-shuffle`` keeps the matrix's arm order. Results go to
``<out>/<dataset key>/<line>/`` (``runner.dataset_key``: a matrix file of one's own gets its content digest in the
key, so it never lands in a paper line's folder) and the figure to ``<figures>/<name>.png|pdf|csv`` (``--name``: a
plain file name); ``<out>`` and ``<figures>`` default to the git-ignored ``results/custom/`` and
``figures/custom/``, and both folders written are printed at the end. ``--list`` prints the datasets and the
algorithms with their parameters. All the common flags of the figure scripts apply
(``--quick --force --n-jobs --seed --backend --scheduler --local-cluster``...); every value and both folders are
checked before any computation.
"""

from dts_reproduction.reproduce.cli.arguments import build_parser, check_name, doc_summary, integer, main_guard, resolve
from dts_reproduction.reproduce.cli.param_flags import parse_params
from dts_reproduction.reproduce.config.paper import HORIZON
from dts_reproduction.reproduce.harness.paths import CUSTOM, FIGURES, RESULTS
from dts_reproduction.reproduce.harness.runner import check_delay
from dts_reproduction.reproduce.studies.custom_runs import listing, run_custom
from dts_reproduction.reproduce.studies.study_registry import BY_STEM


def main(argv=None):
    """Parse the command line, run every algorithm, write the figure and the final-regret table."""
    parser = build_parser(doc_summary(__doc__), HORIZON)
    parser.add_argument("--list", action="store_true",
                        help="print the datasets (K, Condorcet winner or not) and the algorithms with their "
                             "parameters, defaults and presets, then stop")
    parser.add_argument("--dataset", nargs="+", dest="dataset_entries",  # the panels, not a line selection
                        help="dataset names or matrix file paths, one panel each (required unless --list)")
    parser.add_argument("--algorithms", nargs="+", dest="algorithm_entries",  # the curves, not a line selection
                        help="algorithm registry names, NAME:PRESET for a named parameter set (e.g. "
                             "merge_dts:best), or plug-in references path/to/file.py:ATTR or package.module:ATTR; "
                             "required unless --list")
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
        for flag, value in (("--dataset", namespace.dataset_entries), ("--algorithms", namespace.algorithm_entries)):
            if value is None:
                parser.error(f"the following argument is required: {flag} (or --list)")
        settings = resolve(namespace)
        name = check_name(namespace.name)
        if name in BY_STEM:
            raise ValueError(f"--name {name} is the name of {BY_STEM[name].script}'s figure, whose files "
                             f"(and REPORT.md's numbers) it would overwrite: choose another")
        delay = integer(namespace.delay, "--delay")
        check_delay(delay, settings.horizon, ("--delay", "--horizon"))
        params = parse_params(namespace.param, namespace.algorithm_entries)
        table, folders = run_custom(name, namespace.dataset_entries, params, delay, not namespace.no_shuffle,
                                    settings)
        print(table.to_string(index=False, float_format=lambda v: f"{v:.2f}"))
        verb = "read" if settings.plot_only or settings.stored_only else "wrote"
        print(f"{verb} results under {' and '.join(map(str, folders))}")
        print(f"wrote figures {settings.figures / name}.png, .pdf, .csv and {name}_final.csv, {name}_lines.csv")

    main_guard(run)


if __name__ == "__main__":
    main()
