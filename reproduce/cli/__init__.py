"""The command line the entry points share: ``arguments`` (parsing, the bad-input rules, one-line errors),
``figure`` (the main of a figure script) and ``param_flags`` (``reproduce/run.py``'s ``--param``).  Only the scripts at
the top of ``reproduce/`` import it."""
