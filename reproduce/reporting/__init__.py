"""The report (``report``: REPORT.md, the README's and docs' generated blocks), the newcomer timings it shows
(``newcomer``) and the constants tables (``constants_table``): the top of the library, reading the claims and
the studies through their registry (``reproduce.studies.study_registry``), naming none; only entry points and ``bench/``
import it."""
