"""The command line of the figure scripts: ``regret_figure`` (a whole regret figure) and ``figure_main``
(any other figure), each parsing and checking the common flags (``reproduce.cli.arguments``) and then calling the
library (``reproduce.studies.experiment``).  Imported by figure scripts only."""

from dts_reproduction.reproduce.cli.arguments import build_parser, main_guard, resolve
from dts_reproduction.reproduce.config.scale import power_of_ten
from dts_reproduction.reproduce.harness.atomic import atomic_group
from dts_reproduction.reproduce.harness.limits import check_output_files
from dts_reproduction.reproduce.output.plotting import plot_regret_panels
from dts_reproduction.reproduce.output.tables import print_table, write_table
from dts_reproduction.reproduce.studies.experiment import (
    LOWER_BOUND_LABEL,
    evidence_note,
    final_table,
    simulate_panels,
    with_lower_bounds,
    write_claims,
)
from dts_reproduction.reproduce.studies.lower_bounds import lower_bound

QUICK_NOTICE = ("quick run (few runs, short horizon): a smoke test of the pipeline, NOT evidence for or against the "
                "paper's claims; verdicts are marked as such")


def figure_main(description: str, default_horizon: int, build, argv=None, more_flags=None, **flags) -> None:
    """Entry point of a figure script that is not a plain regret figure: parse the common CLI (``flags``:
    the options of ``build_parser`` that choose the flags the script offers; ``more_flags(parser)``, if given, adds
    flags that ``resolve`` reads, such as ``add_line_selection``), then call ``build(settings)`` with the run's
    ``Settings``; bad input (ValueError) becomes one ``error:`` line and exit status 2."""

    def main():
        """Parse and check the command line, then build the figure."""
        parser = build_parser(description, default_horizon, **flags)
        if more_flags is not None:
            more_flags(parser)
        settings = resolve(parser.parse_args(argv))
        build(settings)
        if settings.quick:
            print(QUICK_NOTICE)

    main_guard(main)


def regret_figure(name: str, description: str, panels, default_horizon: int, claims=None, argv=None):
    """Entry point of a regret-figure script: parse the CLI, simulate, plot, tabulate and check claims.

    Writes ``<figures>/<name>.png|pdf|csv`` (curves), ``<name>_final.csv`` (R(T) per line) and, when
    ``claims(panels_results) -> list[dict]`` is given, ``<name>_claims.csv``; prints both tables.
    """

    def main():
        """Parse and check the command line, then simulate, draw, tabulate and check the claims."""
        settings = resolve(build_parser(description, default_horizon,
                                        horizon_help=panel_horizons_help(panels, default_horizon)).parse_args(argv))
        stem = settings.figures / name
        check_output_files([*(stem.with_suffix(suffix) for suffix in (".png", ".pdf", ".csv")),
                            *(settings.figures / f"{name}{end}.csv" for end in ("_final", "_lines", "_claims"))],
                           "figure file")
        store = not (settings.plot_only or settings.stored_only)  # nothing written but the figure and its tables
        with atomic_group(settings.figures):  # the figure and its tables appear together, or none of them (a full disk)
            results = simulate_panels(name, panels, settings)
            lower_bounds = {panel.key: lower_bound(panel.dataset, settings.out, store=store) for panel in panels
                            if panel.metric == "regret"}
            table = with_lower_bounds(final_table([(title, res) for (title, res), panel
                                                   in zip(results, panels, strict=True) if panel.metric == "regret"]),
                                      lower_bounds, panels)
            plot_regret_panels(results, stem, zooms=[panel.zoom for panel in panels],
                               metrics=[panel.metric for panel in panels],
                               references=[(lower_bounds[panel.key][0], LOWER_BOUND_LABEL)
                                           if panel.key in lower_bounds else None for panel in panels])
            write_table(table, stem.with_name(f"{name}_final.csv"))
            checks = None if claims is None else write_claims(claims(results), stem.with_name(f"{name}_claims.csv"),
                                                              evidence_note(settings, panels))
        print_table(table[["panel", "label", "runs", "mean_final_regret", "sem_final_regret", "slope_last_decade",
                           "lower_bound_slope"]])
        if checks is not None:
            print_table(checks.drop(columns="statement"))
        if settings.quick:
            print(QUICK_NOTICE)
        print(f"wrote {stem}.png, .pdf, .csv")

    main_guard(main)


def panel_horizons_help(panels, default_horizon: int) -> str:
    """The ``--horizon`` help of a regret figure: its paper horizons, naming the panels with their own."""
    own = [f"{power_of_ten(panel.horizon)} for {panel.title}" for panel in panels
           if panel.horizon not in (None, default_horizon)]
    return (f"time horizon T of every panel, e.g. 100000 or 1e5 (default: the paper's, {power_of_ten(default_horizon)}"
            + (f"; {'; '.join(own)}" if own else "") + ")")


