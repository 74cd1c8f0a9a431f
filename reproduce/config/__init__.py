"""The bottom of ``reproduce``: the paper's settings (``paper``: run counts, horizons, the delay grid, the root
seed, the figures' algorithm sets) and the scale of a run (``scale``: the quick run, the one horizon rule).  It
imports nothing of ``reproduce``, so every layer above may read it (``tests/harness/test_layers.py``)."""
