"""The typed errors every game raises, so the chassis can catch them without knowing the game.

All derive from :class:`ValueError` (python-chess style). A game may subclass them (Tribes does);
the message is one line that quotes the input and names the rule clause or the file and field.
"""

from __future__ import annotations

from typing import Any

from datafile import DataFileError


class GameError(ValueError):
    """Base of the errors a game raises for bad input."""


class IllegalMoveError(GameError):
    """A well-formed move that the rules forbid in this state; ``clause`` names the rule
    (``R-ACT-OFF-2``), ``reason`` says why, ``move`` quotes the move and ``context`` the state.
    A game whose reasons are templates gives the template ``reason_key`` and its ``reason_args`` too
    (the page says the reason in the reader's language; empty otherwise)."""

    def __init__(
        self,
        clause: str,
        message: str,
        move: str = "",
        context: str = "",
        reason_key: str = "",
        reason_args: dict[str, Any] | None = None,
    ) -> None:
        self.clause = clause
        self.reason = message
        self.move = move
        self.context = context
        self.reason_key = reason_key
        self.reason_args = dict(reason_args or {})
        text = f"{clause}: {message}"
        if move:
            text = f"illegal move {move!r}: {text}"
        if context:
            text = f"{text} ({context})"
        super().__init__(text)


class InvalidMoveError(GameError):
    """Text that is not a move in the game's notation (it quotes the text)."""


class JournalError(DataFileError):
    """A saved game (settings + move log) that cannot be read or does not replay."""


class FieldError(ValueError):
    """A structured input (a move as JSON, a value path) with a bad field; ``field`` names it
    (``move.place[1]``), ``reason`` says what is wrong."""

    def __init__(self, field: str, reason: str) -> None:
        self.field = field
        self.reason = reason
        super().__init__(f"{field}: {reason}")


class UnknownGameError(GameError):
    """No game is registered under this id."""


__all__ = [
    "DataFileError",
    "FieldError",
    "GameError",
    "IllegalMoveError",
    "InvalidMoveError",
    "JournalError",
    "UnknownGameError",
]
