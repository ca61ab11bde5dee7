"""The live journal: an append-only JSON-lines file per game that survives ``kill -9`` at any moment.

Line 1 is a header with the game's settings; every later line is one committed change (a move, an
undo, a correction). Each line is written with a single ``write`` and ``fsync``-ed before the change
is reported to anyone, so an acknowledged change is on disk. A crash can leave at most the last line
torn (no newline, or not JSON); :func:`read_journal` drops such a line with a warning and
:meth:`JournalFile.open_append` cuts it off the file before anything is appended. The format is
documented in ``docs/live-journal.md``.

A new game's file is written whole to a temporary name, fsync-ed and renamed, so a game file either
exists with its header or not at all. Files are named ``game-000001.jsonl``, ``game-000002.jsonl`` …;
the highest number is the game to resume.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from datafile import DataFileError, parse_json, read_bytes, replace_atomically

LIVE_FORMAT = "tribes-live-journal"
LIVE_VERSION = 1
OPS = ("move", "undo", "correct")
_NAME_RE = re.compile(r"^game-(\d{6,})\.jsonl$")


class JournalFileError(DataFileError):
    """A journal file that cannot be read: names the file, the line (0: the whole file) and the
    reason in one line (``field`` is ``line N``)."""

    def __init__(self, path: str | Path, line: int, reason: str) -> None:
        super().__init__(str(path), f"line {line}" if line else "", reason)
        self.path = str(path)
        self.line = line


def now_iso() -> str:
    """The current time as an ISO 8601 string in UTC, to the second."""
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


@dataclass
class JournalContents:
    """What a journal file holds: the header, the change entries and any warnings about dropped
    bytes (a torn last line)."""

    path: Path
    header: dict[str, Any]
    entries: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    valid_size: int = 0


def _check_entry(entry: Any, path: Path, line: int) -> dict[str, Any]:
    if not isinstance(entry, dict):
        raise JournalFileError(path, line, "an entry must be a JSON object")
    if entry.get("op") not in OPS:
        raise JournalFileError(path, line, f"op must be one of {', '.join(OPS)}, got {entry.get('op')!r}")
    if not isinstance(entry.get("n"), int) or isinstance(entry.get("n"), bool) or entry["n"] < 0:
        raise JournalFileError(path, line, "n (the move index) must be a non-negative integer")
    if not isinstance(entry.get("move"), str):
        raise JournalFileError(path, line, "move must be a move in notation")
    return entry


def _line_problem(exc: DataFileError) -> str:
    """What is wrong with one line, as :func:`datafile.parse_json` found it (a line of text is always
    line 1 of itself: only the column is kept)."""
    where = exc.field.removeprefix("line 1 ")
    return f"{where}: {exc.reason}" if where else exc.reason


def read_journal(path: str | Path) -> JournalContents:
    """Read a journal file. A torn or unreadable LAST line is dropped with a warning (what a crash
    during a write leaves); any other damage raises :class:`JournalFileError`."""
    p = Path(path)
    try:
        data = read_bytes(p, "the journal")
    except DataFileError as exc:
        raise JournalFileError(p, 0, exc.reason) from None
    lines = data.split(b"\n")
    # After the split the last element is b"" when the file ends with a newline; otherwise it is a
    # torn write that never got its newline.
    tail = lines.pop()
    warnings: list[str] = []
    if tail:
        warnings.append(
            f"{p}: line {len(lines) + 1}: dropped a torn last line ({len(tail)} bytes without a newline), "
            "left by an interrupted write; that change was never acknowledged"
        )
    parsed: list[Any] = []
    for i, raw in enumerate(lines, start=1):
        try:
            parsed.append(parse_json(raw, str(p)))
        except DataFileError as exc:
            reason = _line_problem(exc)
            if i == len(lines) and i > 1:
                warnings.append(f"{p}: line {i}: dropped an unreadable last line ({reason})")
                lines.pop()
                break
            raise JournalFileError(p, i, reason) from None
    if not parsed:
        raise JournalFileError(p, 1, "empty file: the header line is missing")
    header = parsed[0]
    if not isinstance(header, dict) or header.get("format") != LIVE_FORMAT:
        raise JournalFileError(p, 1, f"the header must have format {LIVE_FORMAT!r}")
    if header.get("version") != LIVE_VERSION:
        raise JournalFileError(p, 1, f"version must be {LIVE_VERSION}, got {header.get('version')!r}")
    if not isinstance(header.get("settings"), dict):
        raise JournalFileError(p, 1, "settings must be an object")
    base = header.get("base_state_id")
    if not isinstance(base, int) or isinstance(base, bool) or base < 1:
        raise JournalFileError(p, 1, "base_state_id must be a positive integer")
    entries = [_check_entry(e, p, i) for i, e in enumerate(parsed[1:], start=2)]
    valid_size = sum(len(raw) + 1 for raw in lines)
    return JournalContents(p, header, entries, warnings, valid_size)


def game_files(directory: str | Path) -> list[Path]:
    """The game journals in ``directory``, oldest first."""
    d = Path(directory)
    if not d.is_dir():
        return []
    found = []
    for p in d.iterdir():
        m = _NAME_RE.match(p.name)
        if m:
            found.append((int(m.group(1)), p))
    return [p for _, p in sorted(found)]


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory fds
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomic(path: Path, data: bytes, fsync: bool = True) -> None:
    """Write a whole file atomically (:func:`datafile.replace_atomically`) and, with ``fsync``, its
    folder too; on failure the error is raised and an existing file keeps its old contents."""
    replace_atomically(path, data, fsync)
    if fsync:
        _fsync_dir(path.parent)


def dumps_line(obj: dict[str, Any]) -> bytes:
    """One journal line: compact JSON and a newline."""
    return (json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


class JournalFile:
    """An open journal that appends entries durably (one write + fsync each)."""

    def __init__(self, path: Path, fsync: bool = True) -> None:
        self.path = path
        self.fsync = fsync
        self._fd: int | None = None

    @staticmethod
    def create(
        directory: str | Path, header: dict[str, Any], fsync: bool = True, entries: list[dict[str, Any]] | None = None
    ) -> JournalFile:
        """Create the next ``game-NNNNNN.jsonl`` in ``directory`` holding ``header`` and ``entries``
        (written whole and renamed into place: the file appears complete or not at all)."""
        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        files = game_files(d)
        number = int(_NAME_RE.match(files[-1].name).group(1)) + 1 if files else 1  # type: ignore[union-attr]
        path = d / f"game-{number:06d}.jsonl"
        write_atomic(path, b"".join(dumps_line(e) for e in [header, *(entries or [])]), fsync)
        return JournalFile(path, fsync)

    def open_append(self, valid_size: int | None = None) -> None:
        """Open for appending; with ``valid_size``, first cut off anything after it (a torn line)."""
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        if valid_size is not None and os.fstat(fd).st_size != valid_size:
            os.ftruncate(fd, valid_size)
            if self.fsync:
                os.fsync(fd)
        self._fd = fd

    def append(self, entry: dict[str, Any]) -> None:
        """Append one entry and make it durable; on failure nothing of it stays in the file."""
        if self._fd is None:
            self.open_append()
        assert self._fd is not None
        data = dumps_line(entry)
        size = os.fstat(self._fd).st_size
        try:
            written = os.write(self._fd, data)
            if written != len(data):
                raise OSError(f"short write: {written} of {len(data)} bytes")
            if self.fsync:
                os.fsync(self._fd)
        except OSError:
            with contextlib.suppress(OSError):  # the reader drops a torn line anyway
                os.ftruncate(self._fd, size)
            raise

    def close(self) -> None:
        """Close the file descriptor."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
