"""The project's one atomic file writer: every result, table, figure and report is written through it.

``write_atomic(path, write)`` calls ``write(tmp)`` on a fresh temporary name in ``path``'s folder, flushes
it to disk and renames it over ``path`` (``os.replace``, atomic on POSIX and Windows).  A reader -- or a
run resumed after ``kill -9`` -- therefore sees either the old file or the new one, never half of
one.  If ``write`` raises, the temporary file is removed and ``path`` is left as it was.  A process
killed between the two steps may leave a hidden ``.<name>.<random>.tmp...`` file behind; nothing reads
those (chunk files are found by their ``runs_*.npz`` names).

``atomic_group(folder)`` makes the files a block writes directly in ``folder`` (a figure's PNG, PDF and tables)
one write: inside it each ``write_atomic`` of such a file leaves it under the temporary name, and only when the
block ends without error are they all renamed into place; if anything raises (a disk that fills at the third file)
every temporary file is removed and none of the set changes.  Files elsewhere (the chunks a run stores meanwhile)
are written as always.
"""

import contextvars
import os
import secrets
from contextlib import contextmanager
from pathlib import Path
from typing import Callable

_UMASK = os.umask(0)
os.umask(_UMASK)
# The folder of the innermost atomic_group and the (temporary, final) names written in it so far; None outside one.
_GROUP: contextvars.ContextVar[tuple[Path, list] | None] = contextvars.ContextVar("atomic_group", default=None)


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
    group = _GROUP.get()
    try:
        write(tmp)
        with open(tmp, "rb+") as handle:
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o666 & ~_UMASK)
        if group is not None and path.parent.resolve() == group[0]:
            group[1].append((tmp, path))
        else:
            os.replace(tmp, path)
    except BaseException as error:
        _remove(tmp)
        cause = _os_error(error)
        if cause is not None:
            raise OSError(cause.errno, cause.strerror or str(cause), str(path)) from None
        raise
    return path


def _os_error(error: BaseException) -> OSError | None:
    """The OSError behind ``error``: itself, or one it was raised while handling (a writer whose clean-up fails
    after the disk filled, as matplotlib's PDF writer does, raises an AttributeError from the OSError); None for
    an interruption or an error without one."""
    while isinstance(error, Exception):
        if isinstance(error, OSError):
            return error
        error = error.__cause__ or error.__context__
    return None


def _remove(tmp: Path) -> None:
    """Remove the temporary file ``tmp`` if it can be: one never written, or in a folder turned read-only, stays, so
    that the error reported is the first one."""
    try:
        os.unlink(tmp)
    except OSError:
        pass


@contextmanager
def atomic_group(folder):
    """A block whose ``write_atomic`` files directly in ``folder`` appear together when it ends, or not at all if
    it raises (every temporary file removed, every final name left as it was); see the module docstring."""
    staged = []
    token = _GROUP.set((Path(folder).resolve(), staged))
    try:
        yield
    except BaseException:
        for tmp, _path in staged:
            _remove(tmp)
        raise
    finally:
        _GROUP.reset(token)
    for index, (tmp, path) in enumerate(staged):
        try:
            os.replace(tmp, path)
        except OSError as error:
            for left, _path in staged[index:]:
                _remove(left)
            raise OSError(error.errno, error.strerror or str(error), str(path)) from None


def write_text_atomic(path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    return write_atomic(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))

