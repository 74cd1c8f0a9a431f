"""What is written: ``plotting`` (the figures) and ``tables`` (the CSV and printed tables).  The report that
gathers them is ``reproduce.reporting``."""
