"""Advisory file locks that let several processes share one results folder (docs/harness.md, "Locks").

``FileLock(path)`` is an exclusive ``fcntl.flock`` on a hidden lock file.  The kernel releases a flock when
its process dies, however it dies (``kill -9`` included), so a lock is never stale: a lock file left
behind by a killed process is simply taken by the next one.  The holder removes the file when it
releases the lock; a waiter that wakes up holding a file that was removed meanwhile (or replaced) retries
on the current one, so two processes never both believe they hold the lock.  The file is opened read-only (a
flock needs no write access), so a lock file left by another user is taken like one's own; one they made
unreadable (mode 0600) is a PermissionError whose one line says so and what to do (it cannot be told from one
they hold).  A release that cannot remove the file (a folder made read-only meanwhile) still releases the lock
and leaves the file, which the next holder removes.
"""

import fcntl
import os
from pathlib import Path


class FileLock:
    """An exclusive lock on ``path`` (created if missing, removed on release).  Use ``acquire`` /
    ``release`` or ``with FileLock(path):`` (which blocks until the lock is free)."""

    def __init__(self, path):
        """Name the lock file; nothing is opened yet."""
        self.path = Path(path)
        self._fd = None

    @property
    def held(self) -> bool:
        """Whether this object holds the lock."""
        return self._fd is not None

    def acquire(self, blocking: bool = True) -> bool:
        """Take the lock; with ``blocking=False`` return False at once if another process holds it.  Returns
        True once held.  The lock file's folder must exist (OSError otherwise)."""
        while self._fd is None:
            try:
                fd = os.open(self.path, os.O_RDONLY | os.O_CREAT, 0o666)
            except PermissionError as error:
                raise PermissionError(error.errno, _unreadable(self.path), str(self.path)) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
            except BlockingIOError:
                os.close(fd)
                return False
            except BaseException:
                os.close(fd)
                raise
            try:
                current = os.stat(self.path)
            except FileNotFoundError:
                current = None
            opened = os.fstat(fd)
            if current is not None and (current.st_ino, current.st_dev) == (opened.st_ino, opened.st_dev):
                self._fd = fd
            else:  # the previous holder removed the file between our open and our flock: lock the new one
                os.close(fd)
        return True

    def release(self) -> None:
        """Remove the lock file and release the lock (a no-op if not held).  Never raises: a file that cannot
        be removed (OSError) is left behind, the lock is released all the same."""
        if self._fd is None:
            return
        try:
            os.unlink(self.path)
        except OSError:
            pass
        os.close(self._fd)
        self._fd = None

    def __enter__(self):
        """Block until the lock is held."""
        self.acquire()
        return self

    def __exit__(self, *exc):
        """Release the lock."""
        self.release()


def _unreadable(path: Path) -> str:
    """Why the lock file ``path`` cannot be opened, and what to do: one line naming its owner and mode."""
    try:
        info = path.stat()
    except OSError:
        return "cannot create this lock file (no write access to its folder): use another results folder"
    return (f"cannot open this lock file (owner uid {info.st_uid}, mode {info.st_mode & 0o777:04o}): another user's "
            f"run holds or left it; once no run of theirs computes in this folder, remove it, or use another results "
            f"folder")
