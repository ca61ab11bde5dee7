"""Typed errors of the Origo engine, all under :class:`ValueError` (via :mod:`games.errors`).

Each message is one line that quotes the offending input and names where it came from: a rule clause
(``O-…``, docs/origo-rules.md) for an illegal move, a file and field for a bad board file, position
or journal.
"""

from __future__ import annotations

import datafile
from games import errors as base


class OrigoError(base.GameError):
    """Base of every error the Origo engine raises for bad input."""


class IllegalMoveError(OrigoError, base.IllegalMoveError):
    """A well-formed move the rules forbid in this state; ``clause`` names the rule."""


class InvalidMoveError(OrigoError, base.InvalidMoveError):
    """Text that is no move in the notation (docs/origo.md, "Moves")."""


class DataFileError(OrigoError, datafile.DataFileError):
    """A data file or document (board file, position, settings) that is malformed."""

    def __init__(self, source: str, field: str, reason: str) -> None:
        datafile.DataFileError.__init__(self, source, field, reason)


class BoardError(DataFileError):
    """A board file (the box profile) that fails validation."""


class PositionError(DataFileError):
    """A position document that is malformed or inconsistent."""


class MoveFieldError(OrigoError):
    """A structured (JSON) move with a bad field; ``field`` names it (``move.field``)."""

    def __init__(self, field: str, reason: str) -> None:
        self.field = field
        self.reason = reason
        super().__init__(f"{field}: {reason}")


__all__ = [
    "BoardError",
    "DataFileError",
    "IllegalMoveError",
    "InvalidMoveError",
    "MoveFieldError",
    "OrigoError",
    "PositionError",
]
