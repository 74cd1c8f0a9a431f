"""The benchmark: the user's algorithms against D-TS and the paper's baselines on the paper's matrices with and without
a Condorcet winner (Figs. 3 and 4), ranked per matrix with intervals and the claims' verdict rule, in one figure, one
table and one report.  Its command line is ``reproduce/benchmark.py``; its modules:

* ``benchmark_panels``: the tiers, the default algorithms, the panels (the matrices of Figs. 3 and 4, or any chosen);
* ``benchmark_plan``: the lines the repository's stored runs already hold, each line's status and estimated cost;
* ``benchmark_ranking``: per matrix the algorithms ranked by mean R(T), with intervals and verdicts;
* ``benchmark_report``: ``benchmark.md``, the report from the ranking;
* ``benchmark_run``: a run of it, ``run_benchmark``.

It is no ``Study`` of the registry (``reproduce.studies.study_registry``): its algorithms are the user's, so it has no
claims of the paper to check, no generated blocks and no place in REPORT.md or ``make all-figures``; of the studies it
reads only the panels Figs. 3 and 4 declare (``Study.panels``)."""
