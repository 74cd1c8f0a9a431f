"""What is written: ``plotting`` (the figures), ``tables`` (the CSV and printed tables), ``constants_table``
(docs/algorithms.md's constants and defaults) and ``newcomer`` (the README's measured times)."""
