"""Which code a line's stored chunks are known to come from (docs/harness.md, "What a stored line knows of its code").

A chunk written since chunks recorded their code holds its code identity (``reproduce.harness.code_identity``) in
``meta["code"]``.  Beside a line's chunks, the side file ``CODE_FILE`` (``code.json``) records the identities whose
re-simulation of the line's stored runs gave the very numbers stored: a list of entries, the latest accepted first,
each ``{"digest", "functions", "chunks": {chunk file name: content digest}, "verified": {chunk file name: [content
digest, runs]}}`` -- the chunks it was checked against, by the digest of their content (``store.recorded_digest``, or
computed for a chunk without one), so that a chunk written again later is never covered by an entry made for its
predecessor; ``verified``, the chunks ``reproduce/verify.py`` re-simulated one by one (its first ``runs`` runs), where
the runner's re-check re-simulates a sample of a line's chunks only.  A chunk is *known* to the current code
if it records the current identity or an entry of the current identity covers its content.  The runner
(``runner.run_lines``) re-checks the chunks that are not and refuses (``CodeChanged``) a line whose runs the code
no longer reproduces; ``reproduce/verify.py --record-code`` writes the entries of the chunks it re-simulated, and
``--resume`` skips re-simulating those (``verified``).
"""

import json
from pathlib import Path

from dts_reproduction.reproduce.harness.atomic import write_text_atomic
from dts_reproduction.reproduce.harness.code_identity import changed_functions
from dts_reproduction.reproduce.harness.store import chunk_digest, read_chunk, recorded_digest

CODE_FILE = "code.json"  # in a line's folder: the code identities its stored chunks were re-checked with
MAX_NAMED = 6  # functions a message names before "and N more"


class CodeChanged(ValueError):
    """A line whose stored runs the code as it is now does not reproduce: bad input for a run that would reuse
    them (exit status 2, before anything is computed); the message names the line, what changed and ``--force``."""


def content_digest(path: Path, chunk: dict) -> str:
    """The digest of the content of the chunk at ``path`` whose decoded record (or whole content, as
    ``store.read_chunk`` gives it) is ``chunk``: the one recorded for it, else computed from its arrays (read now if
    ``chunk`` holds only the record)."""
    meta = chunk.get("meta", chunk)
    recorded = recorded_digest(path, meta)
    if recorded is not None:
        return recorded
    arrays = chunk if "meta" in chunk else read_chunk(path)
    return chunk_digest(arrays, arrays["meta"])


def entries(folder: Path) -> list[dict]:
    """The entries of the line folder's ``CODE_FILE``, the latest accepted first; none if it has no such file, or one
    that cannot be read or is not a list of entries (an acceptance writes it again)."""
    try:
        record = json.loads((Path(folder) / CODE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    accepted = record.get("accepted") if isinstance(record, dict) else None
    if not isinstance(accepted, list):
        return []
    return [entry for entry in accepted if isinstance(entry, dict) and isinstance(entry.get("digest"), str)
            and isinstance(entry.get("chunks"), dict) and isinstance(entry.get("functions"), dict)
            and isinstance(entry.get("verified", {}), dict)]


def known(name: str, meta: dict, content: str, current: dict, accepted: list[dict]) -> bool:
    """Whether the chunk file ``name`` whose record is ``meta`` and content digest ``content`` is known to come from
    the code of identity ``current``: it records that identity, or an entry of it in ``accepted`` covers its
    content."""
    if (meta.get("code") or {}).get("digest") == current["digest"]:
        return True
    return any(entry["digest"] == current["digest"] and entry["chunks"].get(name) == content for entry in accepted)


def verified(name: str, content: str, current: dict, accepted: list[dict], runs: int) -> bool:
    """Whether ``reproduce/verify.py`` re-simulated at least the first ``runs`` runs of the chunk file ``name`` of
    content digest ``content`` bit for bit with the code of identity ``current``, by an entry of ``accepted``."""
    for entry in accepted:
        if entry["digest"] == current["digest"]:
            found = entry.get("verified", {}).get(name)
            return isinstance(found, list) and len(found) == 2 and found[0] == content \
                and isinstance(found[1], int) and found[1] >= runs
    return False


def what_changed(name: str, meta: dict, content: str, current: dict, accepted: list[dict]) -> str:
    """What differs between the code identity a chunk (file ``name``, record ``meta``, content digest ``content``)
    comes from and ``current``: "changed: <functions>" against the identity it records, else against the latest
    entry of ``accepted`` covering it; "no identity recorded" if neither is there."""
    recorded = meta.get("code")
    if not isinstance(recorded, dict):
        recorded = next((entry for entry in accepted if entry["chunks"].get(name) == content), None)
    if recorded is None:
        return "no identity recorded"
    changed = changed_functions(recorded.get("functions", {}), current["functions"])
    more = f" and {len(changed) - MAX_NAMED} more" if len(changed) > MAX_NAMED else ""
    return f"changed: {', '.join(changed[:MAX_NAMED])}{more}" if changed else "changed: none named"


def record(folder: Path, current: dict, chunks: dict[str, str], runs: int = 0) -> Path:
    """Add to the line folder's ``CODE_FILE`` that the code of identity ``current`` reproduces the ``chunks`` ({file
    name: content digest}): its entry first, covering them besides what it covered already, the other entries after
    it as they were; with ``runs`` (``reproduce/verify.py``: the first ``runs`` runs of each chunk were re-simulated),
    the chunks are also ``verified``.  Written atomically (the caller holds the line's lock).  Returns the file's
    path."""
    accepted = entries(folder)
    mine = next((entry for entry in accepted if entry["digest"] == current["digest"]), None)
    covered = {**(mine["chunks"] if mine is not None else {}), **chunks}
    checked = {**(mine.get("verified", {}) if mine is not None else {}),
               **({name: [content, runs] for name, content in chunks.items()} if runs else {})}
    entry = {"digest": current["digest"], "functions": current["functions"], "chunks": dict(sorted(covered.items()))}
    if checked:
        entry["verified"] = dict(sorted(checked.items()))
    others = [other for other in accepted if other["digest"] != current["digest"]]
    text = json.dumps({"accepted": [entry, *others]}, indent=1, sort_keys=True) + "\n"
    return write_text_atomic(Path(folder) / CODE_FILE, text)
