"""The command line of the figure scripts: ``regret_figure`` (a regret figure) and ``figure_main`` (any other
figure), each parsing and checking the common flags (``reproduce.cli.arguments``) and then calling the figure's study
(``reproduce.studies.paper_figures``), which computes and draws it.  Imported by figure scripts only."""

from dts_reproduction.reproduce.cli.arguments import build_parser, main_guard, resolve
from dts_reproduction.reproduce.config.scale import power_of_ten
from dts_reproduction.reproduce.output.tables import print_table
from dts_reproduction.reproduce.studies.paper_figures.regret_figure import draw_regret_figure
from dts_reproduction.reproduce.studies.study import Study

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


def regret_figure(study: Study, description: str, default_horizon: int, argv=None) -> None:
    """Entry point of a regret-figure script: parse and check the common CLI (``--horizon``'s help naming the panels
    with a paper horizon of their own), draw the figure of ``study`` (``paper_figures.regret_figure``: its curves, its
    final-regret table and its claims), print both tables and the files written; bad input (ValueError) becomes one
    ``error:`` line and exit status 2."""

    def main():
        """Parse and check the command line, then simulate, draw, tabulate and check the claims."""
        horizon_help = panel_horizons_help(study.panels, default_horizon)
        settings = resolve(build_parser(description, default_horizon, horizon_help=horizon_help).parse_args(argv))
        drawn = draw_regret_figure(study, settings)
        print_table(drawn.final[["panel", "label", "runs", "mean_final_regret", "sem_final_regret",
                                 "slope_last_decade", "lower_bound_slope"]])
        print_table(drawn.claims.drop(columns="statement"))
        if settings.quick:
            print(QUICK_NOTICE)
        print(f"wrote {drawn.stem}.png, .pdf, .csv")

    main_guard(main)


def panel_horizons_help(panels, default_horizon: int) -> str:
    """The ``--horizon`` help of a regret figure: its paper horizons, naming the panels with their own."""
    own = [f"{power_of_ten(panel.horizon)} for {panel.title}" for panel in panels
           if panel.horizon not in (None, default_horizon)]
    return (f"time horizon T of every panel, e.g. 100000 or 1e5 (default: the paper's, {power_of_ten(default_horizon)}"
            + (f"; {'; '.join(own)}" if own else "") + ")")


