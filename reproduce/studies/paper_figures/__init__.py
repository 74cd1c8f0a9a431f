"""The paper's seven figures, one study each (``reproduce.studies.study.Study``), every module of them in this
package: each figure's module declares its panels, its claims and how it is drawn, its ``FIG<n>_STUDY``, and the
figure's script (``reproduce/fig<n>_*.py``) parses the command line and calls it.  ``figures.PAPER_FIGURES`` lists
them, by their stem, for the registry (``reproduce.studies.study_registry``) and ``bench/paper_cost.py``, which
never load a script.

  mslr_figure          Fig. 1: all eleven algorithms on MSLR K=5, Condorcet and not; C1-C3, C5, C8-C10, C13
  std_figure           Fig. 2: the STD of R(T) from Fig. 1's stored runs; C15a
  condorcet_figure     Fig. 3: the Condorcet datasets, and StrongBorda's G2W regret; C1-C7
  noncondorcet_figure  Fig. 4: the non-Condorcet datasets; C8, C9, C11-C13, C15b
  diversity_figure     Fig. 5: how the Copeland winners share the self-comparisons; C14
  delay_figure         Fig. 6: R(T) against the feedback delay; C16
  pure_dts_figure      Fig. 7: pure D-TS against D-TS and D-TS+; C17
  regret_figure        the pipeline of the regret figures (1, 3, 4, 7): simulate, bound, draw, tabulate, check
  figures              ``PAPER_FIGURES``, the seven records by stem, and ``SIMULATED``, those with runs of their own

The panels that more than one study draws stay in ``reproduce.studies.paper_panels``: Fig. 1's, whose runs Fig. 2
reads, and Fig. 4's, whose 500-armed panel the large-scale study extends."""
