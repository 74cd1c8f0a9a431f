"""What is simulated, one ``study.Study`` record per study, all listed in ``registry.STUDIES`` (the paper's
figures in the package ``paper_figures``, the large-scale study in ``large_scale_study``, the asymptotic one in
``asymptotic_study``, the comparison with the authors' code in ``authors_agreement``); and the library they share:
``experiment`` (panels and curves, simulated and loaded through the harness),
``paper_panels`` (the panels more than one study draws), ``large_scale_panels``, ``large_scale_plan`` and
``large_scale_claims`` (the study past the paper: its lines, its budget, its claims L1 and L2),
``asymptotic_panels`` (the asymptotic study's lines), ``decades`` (slopes per decade of t), ``regret_bound``
and ``lower_bounds`` (the asymptotic lower bound), ``run_cost`` (what one
run costs, measured) and ``custom_runs`` (a run of one's own: ``reproduce/run.py``).  The paper's settings and a
run's scale are ``reproduce.config``."""
