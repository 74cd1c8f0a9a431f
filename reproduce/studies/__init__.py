"""What is simulated: ``paper_config`` (the paper's horizons, runs and seeds), ``experiment`` (panels and
curves, simulated and loaded through the harness), ``paper_panels`` (the panels more than one script draws),
``large_scale_panels`` and ``large_scale_plan`` (the study past the paper and its budget), ``decades``
(slopes per decade of t), ``regret_bound`` (the asymptotic lower bound), ``scale`` (a run's horizon and
runs, --quick's) and ``run_cost`` (what one run costs, measured)."""
