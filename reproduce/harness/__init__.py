"""The simulation harness: what turns lines (dataset, algorithm, parameters, horizon, runs) into stored,
checked per-run results, independent of any command line (docs/harness.md, "Module map").

``runner`` (lines -> chunks -> results), ``store`` (the chunk files), ``seeds`` (the random streams),
``locks`` (several runs on one results folder), ``atomic`` (every file write), ``paths`` (where inputs and
outputs live), ``limits`` (the bounds and folder checks the harness applies to its inputs), ``backends``
(the joblib backends and a dask cluster for a block of work), ``settings`` (``Settings``, the declared settings
of a run of a study) and ``interrupt`` (stopping on a signal).
The command line (``reproduce.cli.arguments``) imports this package, never the reverse.
"""
