"""The scale of a run of a script: the quick smoke run's runs and horizon, and the one rule that decides
which horizon a script, and each of its panels, runs at: --horizon, else --quick's horizon, else the panel's
own paper horizon, else the script's; and how a horizon is printed (``power_of_ten``)."""

QUICK_RUNS = 20
QUICK_HORIZON = 10_000


def script_horizon(given: int | None, quick: bool, default: int) -> int:
    """The horizon of a script's run: ``given`` (--horizon) if not None, else QUICK_HORIZON with ``quick``,
    else ``default`` (the script's paper horizon)."""
    if given is not None:
        return given
    return QUICK_HORIZON if quick else default


def horizon_overridden(settings) -> bool:
    """Whether ``settings.horizon`` (``script_horizon``) replaces every panel's own horizon: a horizon was given
    (``settings.horizon_given``, even equal to the default) or the run is quick (``settings.quick``).
    ``settings``: a ``reproduce.harness.settings.Settings`` (not annotated: config imports nothing above it)."""
    return settings.quick or settings.horizon_given


def panel_horizon(settings, own: int | None) -> int:
    """The horizon of a panel whose paper horizon is ``own`` (None: the study's default) under ``settings`` (a
    ``reproduce.harness.settings.Settings``): ``settings.horizon`` if ``horizon_overridden`` or ``own`` is None,
    else ``own``."""
    return settings.horizon if horizon_overridden(settings) or own is None else own


def power_of_ten(value: int) -> str:
    """``value`` as written in the help texts and the README: 1e6, 2e6, 5e6 (a multiple of a power of ten),
    else in digits."""
    mantissa, _, exponent = f"{value:.0e}".partition("e")
    return f"{mantissa}e{int(exponent)}" if int(mantissa) * 10 ** int(exponent) == value else str(value)
