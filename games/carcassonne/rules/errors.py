"""Typed errors of the Carcassonne rules engine, all under :class:`ValueError`.

Each message is one line that quotes the offending input and names where it came from: a rule clause
(``H-…``) for an illegal move, a file and field for a bad profile, position or journal.
"""

from __future__ import annotations

import datafile
from games import errors as base


class RulesError(base.GameError):
    """Base class of every error the Carcassonne engine raises for bad input."""


class IllegalMoveError(RulesError, base.IllegalMoveError):
    """A well-formed move the rules forbid here; ``clause`` names the rule (``H-PLACE-3``)."""


class InvalidMoveError(RulesError, base.InvalidMoveError):
    """Text that is no move in the notation (docs/carcassonne.md)."""


class DataFileError(RulesError, datafile.DataFileError):
    """A document (profile, position, settings) that is malformed: file, field and reason."""

    def __init__(self, source: str, field: str, reason: str) -> None:
        datafile.DataFileError.__init__(self, source, field, reason)


class ProfileError(DataFileError):
    """A box profile that fails validation."""


class PositionError(DataFileError):
    """A position document that is malformed or inconsistent."""


__all__ = ["DataFileError", "IllegalMoveError", "InvalidMoveError", "PositionError", "ProfileError", "RulesError"]
