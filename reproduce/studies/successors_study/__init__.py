"""D-TS ten years on (``reproduce/successors.py``; docs/successors.md): Versatile-DB, Winner Stays (WS-S, WS-W),
CW-RMED, C2B and REX3 beside D-TS, D-TS+, RMED1 and ECW-RMED on every matrix of the paper's Figs. 1, 3 and 4, at the
paper's scale, with C2B's long lines to T = 1e15 and its batches counted.  The script is its command line only; its
modules:

  ``successors_panels``  its panels and lines, C2B's long lines and the run kind that counts C2B's batches
  ``successors_plan``    every line's status and estimated cost, and the order of computation (cheapest first)
  ``successors_tables``  its final table (both regrets, slopes, batches) and C2B's long-line table
  ``successors_claims``  its claims S1-S10
  ``successors_reasons`` why its checks that do not hold do not (its ``Study.reasons``)
  ``successors_figure``  its figures: the final regrets per matrix, and the asymptotic study's slope-ratio figure
                         extended by C2B
  ``successors_run``     a run of the study: its lines computed or loaded, its figures and tables written
  ``successors_report``  its record, ``SUCCESSORS_STUDY`` (registered in ``reproduce.studies.study_registry``), its
                         section of REPORT.md and its generated block in docs/successors.md

The modules it shares stay in ``reproduce.studies``: ``experiment`` (the shared step that simulates, stores and loads
lines), ``paper_panels`` and ``paper_figures`` (the paper's panels, whose horizons and run counts it takes) and
``benchmark_study.benchmark_plan`` (the plan with each line's status and estimate)."""
