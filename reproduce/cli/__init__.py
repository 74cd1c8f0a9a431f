"""The command line the entry points share: ``arguments`` (parsing, the bad-input rules, one-line errors)
and ``figure`` (the main of a figure script).  Only the scripts at the top of ``reproduce/`` import it."""
