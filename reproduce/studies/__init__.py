"""What is simulated, one ``study.Study`` record per study, all listed in ``registry.STUDIES`` (the paper's
figures in ``figures``, the large-scale study in the package ``large_scale_study``, which holds every module of
that study, the asymptotic one in ``asymptotic_study``, Table 9 in ``mslr_subsets``, the comparison with the
authors' code in ``authors_agreement``); and the library they share: ``experiment`` (panels and curves, simulated
and loaded through the harness), ``paper_panels`` (the panels more than one script draws),
``asymptotic_panels`` (the asymptotic study's lines), ``decades`` (slopes per decade of t), ``regret_bound``
and ``lower_bounds`` (the asymptotic lower bound), ``run_cost`` (what one run costs, measured) and
``c18_elimination`` (claim C18's run kind).  The paper's settings and a run's scale are ``reproduce.config``."""
