"""Typed errors of the Stone Age engine (all :class:`ValueError`, one line each).

An illegal move names its clause (``S-…``, docs/stoneage-rules.md); a bad document names its file and
field (``FILE: FIELD: reason``, :class:`datafile.DataFileError`).
"""

from __future__ import annotations

import datafile
from games import errors as base


class StoneAgeError(base.GameError):
    """Base of every error the Stone Age engine raises for bad input."""


class IllegalMoveError(StoneAgeError, base.IllegalMoveError):
    """A well-formed move the rules forbid in this state; ``clause`` names the rule."""


class InvalidMoveError(StoneAgeError, base.InvalidMoveError):
    """Text that is not a move in the notation (docs/stoneage-notation.md); it quotes the text."""


class DataFileError(StoneAgeError, datafile.DataFileError):
    """A document (profile, position, settings) that is malformed: names the source, field and reason."""

    def __init__(self, source: str, field: str, reason: str) -> None:
        datafile.DataFileError.__init__(self, source, field, reason)


class ProfileError(DataFileError):
    """A box profile that fails validation."""


class PositionError(DataFileError):
    """A position document that is malformed or inconsistent."""


class CoreError(StoneAgeError):
    """The C playout core refused its input (a corrupt encoding, a position it cannot play) or is missing."""


__all__ = [
    "CoreError",
    "DataFileError",
    "IllegalMoveError",
    "InvalidMoveError",
    "PositionError",
    "ProfileError",
    "StoneAgeError",
]
