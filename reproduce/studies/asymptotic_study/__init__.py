"""The asymptotic study: past the paper, in time (docs/asymptotic.md; its command is ``reproduce/asymptotic.py``,
``make asymptotic`` draws it from the stored runs).  Every file of the study is in this package; its record for the
report is ``asymptotic_record.ASYMPTOTIC_STUDY`` (``reproduce.studies.study_registry``).

The regret slope of every algorithm with an exact fast path, decade by decade up to T = 2**53, against the lower
bound, on every paper matrix with a Condorcet winner, and at T = 1e7 on the matrices without one.  Per matrix: the
slope of R(t) against ln t over each decade [t/10, t] of D-TS, D-TS+, RUCB, RCS, CCB, RMED1, RMED2 (as run and with
the RMED2 paper's sign, "RMED2 (paper)") and ECW-RMED; the lower bound's slope C (Komiyama et al.) and, with a
Condorcet winner, the winner constant C_w (``regret_bound.winner_constant``: what comparing every arm with the winner
costs), and beside them the two oracles that play those allocations (``algorithms.oracle``); runs whose regret grows
linearly (trapped) are counted apart, never averaged into a slope; where the regret goes, pair by pair, in runs
simulated again.  The paper's run counts (500 for K < 10, 100 up to 100 arms), 50 at K = 136 as in the large-scale
study.  Claims C5 (at T = 2**53) and A1-A7.

Its modules, in the order a run uses them:

  asymptotic_lines    its panels and lines, and the order it computes them in (``cheapest_first``); also read by
                      ``bench/paper_cost.py --asymptotic``
  asymptotic_run      ``build(settings)``, which the script calls: simulate or read the lines, write everything below
  decades             the slope per decade, trapped runs, the fitted limit of the slope and its model error
  asymptotic_tables   the slopes per decade, the summary per line, the comparisons against the bound's allocation,
                      the cost of the lines without a Condorcet winner
  pair_costs          stored runs simulated again with their comparison counts; the costliest pair without a
                      Condorcet winner
  forced_band         the pairs ECW-RMED's forced exploration can hold for good
  forced_sweeps       ECW-RMED's sweeps of every pair
  decade_pairs        Theorem 2's three parts of the regret, decade by decade
  partner_runs        the runs that show an arm beaten by the winner rather than by its optimal partner
  asymptotic_claims   C5 and A1-A7 per Condorcet panel
  asymptotic_reasons  why each of its checks that does not hold does not (its ``Study.reasons``)
  asymptotic_figures  the slope figure and the ratio figure
  asymptotic_blocks   the generated blocks of docs/asymptotic.md
  asymptotic_record   ``ASYMPTOTIC_STUDY``: what the report reads of the study (its panels, tables, blocks,
                      reasons)

No module of the study is used outside it but by the registry (its record), its script, its tests and
``bench/paper_cost.py`` (which reads ``asymptotic_lines``), so none stays behind in ``reproduce/studies/``.  What it
uses from there stays there, shared with other modules: ``experiment`` (panels, lines, simulation: every figure),
``regret_bound`` (the bound's optimal allocation, C and C_w: also the report and ``reproduce/lower_bounds.py``) and
``lower_bounds`` (the cached lower bound: every regret figure); and from ``reproduce/claims/``, ``reasons`` (the
reason record, its categories in the report's order, and the helpers the paper figures' reasons share).
"""
