"""The successors study as the report sees it: its record, ``SUCCESSORS_STUDY`` (``reproduce.studies.study.Study``,
registered in ``reproduce.studies.study_registry``), and its section of REPORT.md: C2B's long lines against the bound
C, and the lines still to compute."""

from pathlib import Path

from dts_reproduction.reproduce.claims.registry import SUCCESSORS, claim_id
from dts_reproduction.reproduce.claims.verdict import SEVERITY
from dts_reproduction.reproduce.output.tables import NOT_STORED, load_tables, markdown_table
from dts_reproduction.reproduce.studies.study import Study
from dts_reproduction.reproduce.studies.successors_study.successors_panels import PANELS
from dts_reproduction.reproduce.studies.successors_study.successors_reasons import SUCCESSORS_REASONS

LONG = "_long.csv"


def report_section(folder: Path, docs: str) -> list[str]:
    """REPORT.md's section of the study: how many of its lines are stored (the rest are computing:
    ``python reproduce/successors.py`` resumes them) and C2B's long lines, R(T) and the slope per ln T of each decade
    beside the bound C (docs/successors.md)."""
    lines = load_tables(folder, "_lines.csv").get(SUCCESSORS)
    long = load_tables(folder, LONG).get(SUCCESSORS)
    if lines is None:
        return []
    stored = int((lines["commits"] != NOT_STORED).sum())
    parts = ["## The successors study: what is stored", "",
             f"{stored} of its {len(lines)} lines are stored; the others are not drawn and the claims that need them "
             f"read \"not measured\" until `python reproduce/successors.py` has computed them "
             f"([docs/successors.md]({docs}docs/successors.md)).", ""]
    if long is not None and len(long):
        parts += ["### C2B's long lines against the bound C", "", markdown_table(long.drop(columns="dataset")), ""]
    return parts


def status_block(folder: Path) -> dict[str, str]:
    """docs/successors.md's block ``successors_status``: how many lines are stored, and per claim its checks by
    verdict (from ``successors_claims.csv`` and ``successors_lines.csv`` in ``folder``)."""
    lines = load_tables(folder, "_lines.csv").get(SUCCESSORS)
    claims = load_tables(folder, "_claims.csv").get(SUCCESSORS)
    if lines is None or claims is None:
        return {"successors_status": "Not computed yet: run `python reproduce/successors.py`."}
    stored = int((lines["commits"] != NOT_STORED).sum())
    counts = (claims.assign(claim=claims["claim"].map(claim_id)).groupby(["claim", "verdict"], sort=False).size()
              .unstack(fill_value=0))
    counts = counts[[verdict for verdict in reversed(SEVERITY) if verdict in counts]]
    counts = counts.reindex(sorted(counts.index, key=lambda label: int(label[1:])))
    head = (f"{stored} of the study's {len(lines)} lines are stored; a check that needs a line not stored yet reads "
            "\"not measured\". Checks per claim, by verdict:")
    return {"successors_status": f"{head}\n\n{markdown_table(counts.reset_index())}"}


SUCCESSORS_STUDY = Study(SUCCESSORS, "python reproduce/successors.py", panels=PANELS, tables=(LONG,),
                         block_file="docs/successors.md", block_names=("successors_status",), blocks=status_block,
                         report_section=report_section, reasons=SUCCESSORS_REASONS)
