"""The scale of a run of a script: the quick smoke run's runs and horizon, and the one rule that decides
which horizon a script, and each of its panels, runs at: --horizon, else --quick's horizon, else the panel's
own paper horizon, else the script's."""

QUICK_RUNS = 20
QUICK_HORIZON = 10_000


def script_horizon(given: int | None, quick: bool, default: int) -> int:
    """The horizon of a script's run: ``given`` (--horizon) if not None, else QUICK_HORIZON with ``quick``,
    else ``default`` (the script's paper horizon)."""
    if given is not None:
        return given
    return QUICK_HORIZON if quick else default


def horizon_overridden(args) -> bool:
    """Whether ``args.horizon`` (``script_horizon``) replaces every panel's own horizon: --horizon was given
    (``args.horizon_given``, even equal to the default) or --quick (``args.quick``)."""
    return args.quick or args.horizon_given


def panel_horizon(args, own: int | None) -> int:
    """The horizon of a panel whose paper horizon is ``own`` (None: the script's default): ``args.horizon``
    if ``horizon_overridden`` or ``own`` is None, else ``own``."""
    return args.horizon if horizon_overridden(args) or own is None else own
