"""One writer per data folder: an OS lock on ``<data>/.companion.lock``.

Two servers on one data folder would both accept "the next move" and the journal would no longer
replay. :class:`FolderLock` takes an exclusive ``flock`` on the lock file (never waiting) and writes
its process id into it; a second process (or a second runtime in the same process) gets
:class:`FolderBusyError` naming the folder and the holder's pid. The lock belongs to the open file,
so the kernel drops it when the process ends in any way (``kill -9`` included): a stale lock file
never blocks a restart.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

LOCK_NAME = ".companion.lock"


class FolderBusyError(Exception):
    """The data folder is in use by another process (``pid``; None when it cannot be read)."""

    def __init__(self, folder: Path, pid: int | None) -> None:
        self.folder = folder
        self.pid = pid
        who = f"another companion (pid {pid})" if pid else "another companion"
        self.message = (
            f"the data folder {folder} is in use by {who}: stop that one first, or give this one "
            "another folder (--data)"
        )
        super().__init__(self.message)


class FolderLock:
    """An exclusive lock on a data folder, held until :meth:`release` (or the process ends)."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.path = self.folder / LOCK_NAME
        self._fd: int | None = None

    def acquire(self) -> FolderLock:
        """Take the lock; :class:`FolderBusyError` when another holds it, ``OSError`` when the
        folder cannot hold a lock file."""
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = _read_pid(fd)
            os.close(fd)
            raise FolderBusyError(self.folder, pid) from None
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd
        return self

    @property
    def held(self) -> bool:
        """True while this object holds the lock."""
        return self._fd is not None

    def __del__(self) -> None:
        self.release()

    def release(self) -> None:
        """Let go of the lock (the file stays: removing it could race with the next holder)."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, 0)
                fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


__all__ = ["LOCK_NAME", "FolderBusyError", "FolderLock"]
