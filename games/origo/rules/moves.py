"""Moves: small frozen values with a text notation that round-trips (docs/origo.md, "Moves").

Every input to the engine is a move. The player on turn lays shields and plays cards (plain facts:
the card play behind them is not in the fragment), attacks a field, ends the turn (``refill``) or
passes; in a battle the side whose answer is due plays another card or stops; when a land is founded
the table reports the founding field revealed (the one chance outcome); at a tribe scoring and at
the end the table enters every player's points. ``str(move)`` is the notation, :func:`parse_move`
reads it back, ``repr(move)`` is Python you can paste back. Player names may contain spaces (the
words around them are fixed); fields are written ``C4`` (read case-insensitively).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from games.origo.rules.board import field_name, parse_field
from games.origo.rules.errors import InvalidMoveError

MAX_POINTS = 99
"""Largest tribe-point entry accepted in one ``points`` move (companion's choice, O-SCORE-1)."""
MAX_CARDS = 30
"""Largest card count a ``play`` move can name (no hand holds more; the board file's hand size
bounds it further)."""


class Move:
    """Base of all moves: ``kind`` is the notation's first word, ``chance`` marks the table's report
    of a chance outcome."""

    __slots__ = ()
    kind: ClassVar[str] = ""
    chance: ClassVar[bool] = False

    def __str__(self) -> str:  # pragma: no cover - every subclass overrides
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Lay(Move):
    """``lay Ann C4``: Ann lays a shield from her supply on the free field C4 (O-LAY-1)."""

    player: str
    field: str
    kind: ClassVar[str] = "lay"

    def __str__(self) -> str:
        return f"lay {self.player} {self.field}"


@dataclass(frozen=True, slots=True)
class Play(Move):
    """``play Ann 2``: Ann plays 2 cards outside a battle, e.g. to lay shields (O-LAY-2)."""

    player: str
    cards: int
    kind: ClassVar[str] = "play"

    def __str__(self) -> str:
        return f"play {self.player} {self.cards}"


@dataclass(frozen=True, slots=True)
class Attack(Move):
    """``attack Ann C4``: Ann attacks C4: the action stone, her first card, her shield (O-ATK-4)."""

    player: str
    field: str
    kind: ClassVar[str] = "attack"

    def __str__(self) -> str:
        return f"attack {self.player} {self.field}"


@dataclass(frozen=True, slots=True)
class Card(Move):
    """``card Bob``: in a battle, Bob plays one more card for the field (2 points, O-ATK-7/8)."""

    player: str
    kind: ClassVar[str] = "card"

    def __str__(self) -> str:
        return f"card {self.player}"


@dataclass(frozen=True, slots=True)
class Stop(Move):
    """``stop Bob``: in a battle, Bob plays no more cards (O-ATK-9): if he is behind he has lost;
    the attacker stopping while ahead hands the answer to the defender."""

    player: str
    kind: ClassVar[str] = "stop"

    def __str__(self) -> str:
        return f"stop {self.player}"


@dataclass(frozen=True, slots=True)
class Refill(Move):
    """``refill Ann``: Ann ends her turn; she and the defenders of her attacks refill their hands
    (O-TURN-4, O-TURN-5)."""

    player: str
    kind: ClassVar[str] = "refill"

    def __str__(self) -> str:
        return f"refill {self.player}"


@dataclass(frozen=True, slots=True)
class Pass(Move):
    """``pass Ann``: Ann sits out her whole turn (O-TURN-2)."""

    player: str
    kind: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return f"pass {self.player}"


@dataclass(frozen=True, slots=True)
class Reveal(Move):
    """``reveal 3`` / ``reveal 3 red``: the founding field uncovered shows 3 (and is red) — the
    table's report of the chance outcome of a founding (O-FOUND-2)."""

    value: int
    red: bool = False
    kind: ClassVar[str] = "reveal"
    chance: ClassVar[bool] = True

    def __str__(self) -> str:
        return f"reveal {self.value} red" if self.red else f"reveal {self.value}"


@dataclass(frozen=True, slots=True)
class Points(Move):
    """``points Ann 5``: at a tribe scoring (or the final scoring) Ann receives 5 points (O-SCORE-1)."""

    player: str
    points: int
    kind: ClassVar[str] = "points"

    def __str__(self) -> str:
        return f"points {self.player} {self.points}"


AnyMove = Lay | Play | Attack | Card | Stop | Refill | Pass | Reveal | Points
MOVE_KINDS: tuple[str, ...] = ("lay", "play", "attack", "card", "stop", "refill", "pass", "reveal", "points")

_USAGE = (
    "write 'lay NAME FIELD', 'play NAME N', 'attack NAME FIELD', 'card NAME', 'stop NAME', "
    "'refill NAME', 'pass NAME', 'reveal N [red]' or 'points NAME N'"
)


def _bad(text: str, why: str) -> InvalidMoveError:
    return InvalidMoveError(f"{text!r} is not a move: {why}")


def _field(text: str, tok: str) -> str:
    pos = parse_field(tok)
    if pos is None:
        raise _bad(text, f"{tok!r} is no field name (a column letter and a row number, e.g. C4)")
    return field_name(*pos)


def _count(text: str, tok: str, lo: int, hi: int, what: str) -> int:
    if not tok.isdigit() or len(tok) > 3:
        raise _bad(text, f"{tok!r} is not a number of {what}")
    n = int(tok)
    if not lo <= n <= hi:
        raise _bad(text, f"the number of {what} must be {lo} to {hi}, got {n}")
    return n


def parse_move(text: str) -> AnyMove:
    """The move written ``text``; :class:`InvalidMoveError` quoting the text otherwise."""
    if not isinstance(text, str):
        raise InvalidMoveError(f"{text!r} is not a move: moves are written as text; {_USAGE}")
    words = text.split()
    if not words:
        raise _bad(text, _USAGE)
    verb, rest = words[0].lower(), words[1:]
    if verb == "reveal":
        if not rest or len(rest) > 2 or (len(rest) == 2 and rest[1].lower() != "red"):
            raise _bad(text, "write 'reveal N' or 'reveal N red'")
        return Reveal(_count(text, rest[0], 0, 99, "points on the founding field"), len(rest) == 2)
    if verb in ("card", "stop", "refill", "pass"):
        if not rest:
            raise _bad(text, f"write '{verb} NAME'")
        name = " ".join(rest)
        if verb == "card":
            return Card(name)
        if verb == "stop":
            return Stop(name)
        return Refill(name) if verb == "refill" else Pass(name)
    if verb in ("lay", "attack", "play", "points"):
        if len(rest) < 2:
            raise _bad(text, f"write '{verb} NAME {'FIELD' if verb in ('lay', 'attack') else 'N'}'")
        name, last = " ".join(rest[:-1]), rest[-1]
        if verb == "lay":
            return Lay(name, _field(text, last))
        if verb == "attack":
            return Attack(name, _field(text, last))
        if verb == "play":
            return Play(name, _count(text, last, 1, MAX_CARDS, "cards"))
        return Points(name, _count(text, last, 0, MAX_POINTS, "points"))
    raise _bad(text, _USAGE)


__all__ = [
    "MAX_CARDS",
    "MAX_POINTS",
    "MOVE_KINDS",
    "AnyMove",
    "Attack",
    "Card",
    "Lay",
    "Move",
    "Pass",
    "Play",
    "Points",
    "Refill",
    "Reveal",
    "Stop",
    "parse_move",
]
