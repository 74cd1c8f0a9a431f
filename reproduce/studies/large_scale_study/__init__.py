"""The large-scale study, past the paper (``reproduce/large_scale.py``; docs/experiments.md#large-scale-past-the-
paper): MergeDTS, MergeRUCB, Self-Sparring, exact D-TS and the baselines on the 136/135-ranker MSLR matrices, every
algorithm on the 500-armed instance, R(T) against K on nested Perfect subsets.  The script is its command line
only; its modules:

  ``large_scale_panels``  its panels and lines (per panel title its curves, under --runs, --horizon and --quick)
  ``large_scale_plan``    what each line is estimated to cost and which lines its CPU budget takes; the lines table
  ``large_scale_claims``  its final table and its claims L1 and L2
  ``large_scale_reasons`` why its checks that do not hold do not (its ``Study.reasons``)
  ``large_scale_figures`` its figure: regret curves, the ranking at T on the 500-armed instance, R(T) against K
  ``large_scale_run``     a run of the study: its lines computed or loaded, its figure and tables written
  ``large_scale_report``  its record, ``LARGE_SCALE_STUDY`` (registered in ``reproduce.studies.study_registry``),
                          and its section of REPORT.md: the lines over budget

The modules it shares stay in ``reproduce.studies``: ``experiment`` (the figures' shared step that simulates,
stores and loads its lines), ``paper_panels`` (the paper's 500-armed panel, whose stored runs it reuses) and
``run_cost`` (the probe runs behind its estimates, which ``bench/paper_cost.py`` also prices the paper's figures
with)."""
