"""D-TS ten years on (``reproduce/successors.py``, docs/successors.md): Versatile-DB, Winner Stays (WS-S, WS-W),
CW-RMED, C2B and REX3 beside D-TS, D-TS+, RMED1 and ECW-RMED on the paper's matrices at the paper's scale."""
