"""Typed errors of the rules engine. All derive from :class:`ValueError`.

Each message is one line that quotes the offending input and names where it came from: a rule clause
(``R-…``) for illegal moves, a file and field for bad data files.
"""

from __future__ import annotations

import datafile
from games import errors as base


class RulesError(base.GameError):
    """Base class of every error the rules engine raises for bad input."""


class IllegalMoveError(RulesError, base.IllegalMoveError):
    """A well-formed move that the rules forbid in this state; ``clause`` names the rule."""


class InvalidMoveError(RulesError, base.InvalidMoveError):
    """Text that is not a move in the notation (see docs/notation.md)."""


class DataFileError(RulesError, datafile.DataFileError):
    """A data file (profile, position, journal) that is malformed: names the file, field and reason."""

    def __init__(self, source: str, field: str, reason: str) -> None:
        datafile.DataFileError.__init__(self, source, field, reason)


class ProfileError(DataFileError):
    """A box profile that fails validation."""


class PositionError(DataFileError):
    """A position (JSON) that is malformed or inconsistent."""


class JournalError(DataFileError, base.JournalError):
    """A journal (settings + move log) that cannot be read or does not replay."""
