"""How does my algorithm compare with D-TS? Runs algorithms on the paper's matrices with and without a Condorcet
winner and ranks them per matrix, with intervals and verdicts, in one figure, one table and one report.

Example::

    python reproduce/benchmark.py --algorithms dts rmed1 merge_dts:best --tier quick

``--algorithms`` takes registry names, ``NAME:PRESET`` and ``--param ALG.NAME=VALUE`` overrides as
``reproduce/run.py`` does (default: dts dts_plus rmed1 ecw_rmed rucb); ``--datasets`` any dataset names or matrix files
instead of the twelve matrices of Figs. 3 and 4; ``--tier quick`` (default: 20 runs, T = 1e4, minutes; a smoke test,
not evidence) or ``--tier paper`` (each matrix at the run count and horizon of its paper panel; the lines the
repository's results folders already hold, the paper's algorithms at the paper's scale, are read there and not
computed again); ``--against NAME`` (an ``--algorithms`` entry, default dts) adds each algorithm's verdict against it.
``--runs`` and ``--horizon`` override the tier's.  The plan is printed first, each line with its estimated CPU cost,
and refused above ``--max-cpu-hours``.  Writes into ``<figures>`` (default ``figures/custom/benchmark/``, with
``quick/`` appended for the quick tier): ``benchmark.png|pdf|csv`` (one panel per matrix, regret against t with the
slope of the lower bound), ``benchmark_ranking.csv``, ``benchmark.md`` (the report) and ``benchmark_lines.csv``;
runs go to ``<out>`` (default ``results/custom/``).  All the common flags apply (``--n-jobs --seed --force
--backend --plot-only --stored-only``...); every value is checked before anything is computed.
"""

import shlex
import sys

from dts_reproduction.reproduce.cli.arguments import build_parser, doc_summary, main_guard, resolve
from dts_reproduction.reproduce.cli.param_flags import parse_params
from dts_reproduction.reproduce.config.paper import HORIZON
from dts_reproduction.reproduce.harness.paths import CUSTOM, FIGURES, RESULTS
from dts_reproduction.reproduce.studies.benchmark_study.benchmark_panels import (
    DEFAULT_AGAINST,
    DEFAULT_ALGORITHMS,
    DEFAULT_TIER,
    NAME,
    TIERS,
)
from dts_reproduction.reproduce.studies.benchmark_study.benchmark_run import run_benchmark


def main(argv=None):
    """Parse the command line, run the benchmark, print the first-ranked per matrix and the files written."""
    parser = build_parser(doc_summary(__doc__), HORIZON,
                          runs_help="runs per line (default: the tier's; quick: 20, paper: the paper's rule by K)",
                          horizon_help="time horizon T, e.g. 100000 or 1e5 (default: the tier's; quick: 1e4, paper: "
                                       "each matrix's paper horizon)",
                          folders_help=(f"results folder for the lines not read from {RESULTS} (default "
                                        f"{RESULTS / CUSTOM}; quick/ appended for the quick tier)",
                                        f"figures folder of the outputs (default {FIGURES / CUSTOM / NAME}; quick/ "
                                        "appended for the quick tier)"))
    parser.add_argument("--tier", choices=tuple(TIERS), default=DEFAULT_TIER,
                        help="; ".join(f"{name}: {text}" for name, text in TIERS.items())
                        + f" (default {DEFAULT_TIER}; --quick is --tier quick)")
    parser.add_argument("--algorithms", nargs="+", dest="algorithm_entries", default=list(DEFAULT_ALGORITHMS),
                        metavar="ENTRY", help="registry names, NAME:PRESET or plug-in references (default: "
                                              f"{' '.join(DEFAULT_ALGORITHMS)})")
    parser.add_argument("--param", action="append", help="ALG.NAME=VALUE parameter override (repeatable)")
    parser.add_argument("--datasets", nargs="+", dest="dataset_entries", default=None, metavar="DATASET",
                        help="dataset names or matrix files (default: the matrices of Figs. 3 and 4)")
    parser.add_argument("--against", default=None, metavar="ENTRY",
                        help=f"the --algorithms entry each other is compared with (default {DEFAULT_AGAINST}, if "
                             "given)")
    parser.set_defaults(out=RESULTS / CUSTOM, figures=FIGURES / CUSTOM / NAME)

    def run():
        """Check every argument, run the benchmark and print where its files are."""
        namespace = parser.parse_args(argv)
        if namespace.quick and namespace.tier != "quick":
            raise ValueError(f"--quick is --tier quick, but --tier {namespace.tier} was given: give one of them")
        namespace.quick = namespace.tier == "quick"
        settings = resolve(namespace)
        params = parse_params(namespace.param, namespace.algorithm_entries)
        against = namespace.against or (DEFAULT_AGAINST if DEFAULT_AGAINST in params else None)
        command = shlex.join(["python", "reproduce/benchmark.py", *(sys.argv[1:] if argv is None else argv)])
        done = run_benchmark(params, namespace.dataset_entries, against, namespace.tier, settings, command)
        firsts = done.ranking[done.ranking["rank"] == 1]
        for matrix, label, verdict in zip(firsts["matrix"], firsts["label"], firsts["verdict_first_lower"],
                                          strict=True):
            print(f"{matrix}: {label} first" + (f" (lower than every other: {verdict})" if verdict else ""))
        print(f"wrote {NAME}.png, .pdf, .csv, {NAME}_ranking.csv, {NAME}.md and {NAME}_lines.csv under {done.folder}")

    main_guard(run)


if __name__ == "__main__":
    main()
