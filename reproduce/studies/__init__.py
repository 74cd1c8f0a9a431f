"""What is simulated, one ``study.Study`` record per study, all listed in ``registry.STUDIES`` (the paper's
figures in the package ``paper_figures``, the large-scale study in the package ``large_scale_study`` and the
asymptotic one in ``asymptotic_study`` (each package holds every module of its study), C18 in ``elimination_study``,
Table 9 in ``mslr_subsets``, the comparison with the authors' code in ``authors_agreement``); and the library they
share: ``experiment`` (panels and curves, simulated and loaded through the harness), ``paper_panels`` (the panels
more than one study draws), ``regret_bound`` and ``lower_bounds`` (the asymptotic lower bound), ``run_cost`` (what
one run costs, measured) and ``custom_runs`` (a run of one's own: ``reproduce/run.py``).  The paper's settings and a
run's scale are ``reproduce.config``."""
