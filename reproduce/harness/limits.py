"""The bounds and folder checks the harness applies to its inputs, whoever calls it (a script, a test, a
notebook): each failure is a ValueError of one line naming the problem and the value, raised before any
work starts or any file is written (the command line turns it into ``error: ...`` and exit status 2); and the
bounds of its chunks' size (read at each call, so that a test may shorten them)."""

import os
import tempfile
from pathlib import Path

MAX_RUNS = 1_000_000  # far above the paper's 500; guards against a typo planning millions of chunks
# Worker processes (--n-jobs, --local-cluster): loky starts as many as asked, whatever the number of chunks,
# so a typo (1e9) would fork until the machine gives out.
MAX_JOBS = 1024
# A plan (the lines of one run_lines call) is refused before anything starts if its chunks to compute are
# estimated (reproduce.harness.cost) at more CPU hours than this (--max-cpu-hours raises it): 16 times the whole
# paper study from scratch (61 CPU hours as stored), far below a typo's years.
MAX_CPU_HOURS = 1000.0
# At most this many chunk files in a plan (the whole study stores 6,761): a horizon of 1e8 or more gets one run a
# chunk, so a million runs would plan a million files, for minutes and gigabytes, before the cost is known.
MAX_CHUNKS = 100_000
# A stored chunk holds about this many (slot x arm) steps of runs (runner.chunk_size): small enough to resume and
# balance work, large enough to amortise its file.
CHUNK_SLOTS = 5e8
# Above this horizon a skipping line on a Condorcet matrix is chunked as if each run cost SKIP_RUN_SLOTS plain slots
# (measured: 0.2-2 s a run at T = 2**53, K <= 32), since its slots not skipped grow like ln T.
SKIP_CHUNK_HORIZON = 10**8
SKIP_RUN_SLOTS = 10**6


def _probe(folder: Path) -> str | None:
    """None if a file can be created in the existing folder ``folder`` (the probe file is removed), else
    the reason.  A real probe, not only os.access: root passes os.access on read-only mounts."""
    if not os.access(folder, os.W_OK | os.X_OK):
        return "permission denied"
    try:
        fd, name = tempfile.mkstemp(dir=folder, prefix=".write-probe.")
    except OSError as error:
        return (error.strerror or str(error)).lower()
    os.close(fd)
    os.unlink(name)
    return None


def check_output_folder(path, what: str = "output folder", create: bool = False) -> Path:
    """``path`` as a Path if files can be written in it (or it can be created); ValueError
    ``"<what> <path>: <reason>"`` otherwise.  With ``create`` the folder (and its parents) is made;
    without, nothing is left on disk, so a later bad input still writes nothing."""
    path = Path(path)
    if _exists(path, what):
        if not path.is_dir():
            raise ValueError(f"{what} {path}: exists and is not a folder")
        reason = _probe(path)
        if reason:
            raise ValueError(f"{what} {path}: not writable ({reason})")
        return path
    ancestor = check_no_file_in_the_way(path, what)
    reason = _probe(ancestor)
    if reason:
        raise ValueError(f"{what} {path}: cannot be created in {ancestor} ({reason})")
    if create:
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ValueError(f"{what} {path}: cannot be created ({error.strerror or error})") from None
    return path


def check_no_file_in_the_way(path, what: str = "output folder") -> Path:
    """The nearest existing folder at or above the folder ``path`` (which need not exist); ValueError
    ``"<what> <path>: cannot be created, <ancestor> is a file, not a folder"`` if what exists there is a file."""
    path = Path(path)
    ancestor = path
    while not _exists(ancestor, what) and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise ValueError(f"{what} {path}: cannot be created, {ancestor} is a file, not a folder")
    return ancestor


def check_output_files(paths, what: str = "output file") -> None:
    """ValueError ``"<what> <path>: is a folder, in the way of the file"`` for the first of ``paths`` (files a
    command will write) that exists and is not a file, before anything is computed or written."""
    for path in map(Path, paths):
        if _exists(path, what) and not path.is_file():
            raise ValueError(f"{what} {path}: is a folder, in the way of the file")


def _exists(path: Path, what: str) -> bool:
    """Whether ``path`` exists; ValueError naming ``what`` and the path's start if it cannot be looked up (a name
    too long: a path that is bad input, exit status 2, not a failure while working)."""
    try:
        return path.exists()
    except OSError as error:
        raise ValueError(f"{what} {str(path)[:80]!r}...: {(error.strerror or str(error)).lower()}") from None


def check_folder_readable(path, what: str = "folder") -> Path:
    """``path`` as a Path if it is an existing, listable folder; ValueError ``"<what> <path>: <reason>"``
    otherwise (does not exist / is not a folder / not readable)."""
    path = Path(path)
    if not path.exists():
        raise ValueError(f"{what} {path}: does not exist")
    if not path.is_dir():
        raise ValueError(f"{what} {path}: is not a folder")
    try:
        next(iter(os.scandir(path)), None)
    except OSError as error:
        raise ValueError(f"{what} {path}: not readable ({(error.strerror or str(error)).lower()})") from None
    return path

