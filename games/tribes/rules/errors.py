"""Typed errors of the rules engine. All derive from :class:`ValueError`.

Each message is one line that quotes the offending input and names where it came from: a rule clause
(``R-…``) for illegal moves, a file and field for bad data files.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base class of every error the rules engine raises for bad input."""


class IllegalMoveError(RulesError):
    """A well-formed move that the rules forbid in this state; ``clause`` names the rule."""

    def __init__(self, clause: str, message: str, move: str = "", context: str = "") -> None:
        self.clause = clause
        self.reason = message
        self.move = move
        self.context = context
        text = f"{clause}: {message}"
        if move:
            text = f"illegal move {move!r}: {text}"
        if context:
            text = f"{text} ({context})"
        super().__init__(text)


class InvalidMoveError(RulesError):
    """Text that is not a move in the notation (see docs/notation.md)."""


class DataFileError(RulesError):
    """A data file (profile, position, journal) that is malformed: names the file, field and reason."""

    def __init__(self, source: str, field: str, reason: str) -> None:
        self.source = source
        self.field = field
        self.reason = reason
        where = f"{source}: {field}" if field else source
        super().__init__(f"{where}: {reason}")


class ProfileError(DataFileError):
    """A box profile that fails validation."""


class PositionError(DataFileError):
    """A position (JSON) that is malformed or inconsistent."""


class JournalError(DataFileError):
    """A journal (settings + move log) that cannot be read or does not replay."""
