"""The project's one atomic file writer: every result, table, figure and report is written through it.

``write_atomic(path, write)`` calls ``write(tmp)`` on a fresh temporary name in ``path``'s folder, flushes
it to disk and renames it over ``path`` (``os.replace``, atomic on POSIX and Windows).  A reader -- or a
run resumed after ``kill -9`` -- therefore sees either the old file or the new one, never half of
one.  If ``write`` raises, the temporary file is removed and ``path`` is left as it was.  A process
killed between the two steps may leave a hidden ``.<name>.<random>.tmp...`` file behind; nothing reads
those (chunk files are found by their ``runs_*.npz`` names).
"""

import os
import secrets
from pathlib import Path
from typing import Callable

_UMASK = os.umask(0)
os.umask(_UMASK)


def temporary_name(path: Path, keep_suffix: bool = True) -> Path:
    """A fresh hidden name next to ``path``: ``.<name>.<random>.tmp`` plus ``path``'s suffix if
    ``keep_suffix`` (writers such as matplotlib pick the format from the suffix)."""
    path = Path(path)
    return path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp{path.suffix if keep_suffix else ''}")


def write_atomic(path, write: Callable[[Path], None], *, keep_suffix: bool = True) -> Path:
    """Create or replace ``path`` atomically: ``write(tmp)`` must write the whole file at ``tmp``.

    The folder of ``path`` is created if missing.  The file gets the usual permissions (0666 minus the
    umask) and is fsynced before the rename.  Returns ``path``.  ``keep_suffix=False`` gives the
    temporary file a name ending in ``.tmp`` (ignored by git under results/).  An OSError (disk full, a
    folder in the way, a folder made read-only, ...) is raised again naming ``path`` itself, never the hidden
    temporary file, with its own cause (a failure to remove the temporary file afterwards does not replace it).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temporary_name(path, keep_suffix)
    try:
        write(tmp)
        with open(tmp, "rb+") as handle:
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o666 & ~_UMASK)
        os.replace(tmp, path)
    except BaseException as error:
        try:
            os.unlink(tmp)
        except OSError:  # never written, or its folder turned read-only: the error to report is the first
            pass
        if isinstance(error, OSError):
            raise OSError(error.errno, error.strerror or str(error), str(path)) from None
        raise
    return path


def write_text_atomic(path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    return write_atomic(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))

