"""Moves of Hunters & Gatherers: small frozen values with a text form that round-trips.

* ``draw L07`` — chance: the land tile of type ``L07`` was drawn from the stack (H-DRAW-1);
* ``bonus B-fire`` — chance: a bonus tile was drawn from the bonus stack (H-GOLD-1);
* ``place 2,-1 r3`` — lay the drawn tile on square (2, -1), turned 3 quarter turns clockwise
  (H-PLACE-1..4), with no figure; ``place 2,-1 r3 hunter m1`` — and put a hunter on spot ``m1``
  (roles ``gatherer`` f…, ``fisher`` r…, ``hunter`` m…, ``hut`` r… or l…; H-FIG-4);
* ``discard`` — the drawn tile fits nowhere and leaves the game (H-DRAW-2, H-GOLD-5).

Squares: the start tile lies on 0,0; x grows to the east, y to the south. ``repr(move)`` is Python
you can paste back; :func:`parse_move` reads the text (docs/carcassonne.md, "Moves").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from games.carcassonne.rules.errors import InvalidMoveError
from games.carcassonne.rules.tiles import Role

SPOT_RE = re.compile(r"^[frlm](0|[1-9][0-9]?)$")
_PLACE = re.compile(r"^place\s+(-?\d{1,4})\s*,\s*(-?\d{1,4})\s+r([0-3])(?:\s+([a-z]+)\s+(\S+))?$")
_ID = re.compile(r"^[A-Za-z0-9_-]{1,24}$")
ROLE_LETTERS: dict[Role, str] = {Role.GATHERER: "f", Role.FISHER: "r", Role.HUNTER: "m", Role.HUT: "rl"}
"""Which spot letters each role may stand on (H-FIG-4)."""


@dataclass(frozen=True, slots=True)
class Draw:
    """A tile drawn from the land stack (``bonus`` False) or the bonus stack; ``tile`` is its type id."""

    tile: str
    bonus: bool = False
    chance: ClassVar[bool] = True

    def __str__(self) -> str:
        return f"{'bonus' if self.bonus else 'draw'} {self.tile}"


@dataclass(frozen=True, slots=True)
class Place:
    """Lay the drawn tile at ``(x, y)`` turned ``rot`` quarter turns clockwise; optionally a figure
    (``role`` on ``spot`` of that tile)."""

    x: int
    y: int
    rot: int
    role: Role | None = None
    spot: str | None = None
    chance: ClassVar[bool] = False

    def __str__(self) -> str:
        base = f"place {self.x},{self.y} r{self.rot}"
        return f"{base} {self.role} {self.spot}" if self.role is not None else base

    def without_figure(self) -> Place:
        """The same placement with no figure."""
        return Place(self.x, self.y, self.rot)


@dataclass(frozen=True, slots=True)
class Discard:
    """The drawn tile fits nowhere: it leaves the game (H-DRAW-2)."""

    chance: ClassVar[bool] = False

    def __str__(self) -> str:
        return "discard"


Move = Draw | Place | Discard


def parse_move(text: str) -> Move:
    """The move written ``text``; :class:`InvalidMoveError` quoting it otherwise."""
    if not isinstance(text, str):
        raise InvalidMoveError(f"{text!r} is not a move: moves are text such as 'draw L07' or 'place 1,0 r2'")
    t = " ".join(text.strip().split())
    if t == "discard":
        return Discard()
    words = t.split(" ")
    if len(words) == 2 and words[0] in ("draw", "bonus"):
        if not _ID.match(words[1]):
            raise InvalidMoveError(f"{text!r}: {words[1]!r} is no tile id (letters, digits, '-' or '_')")
        return Draw(words[1], words[0] == "bonus")
    m = _PLACE.match(t)
    if m:
        x, y, rot = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if m.group(4) is None:
            return Place(x, y, rot)
        try:
            role = Role(m.group(4))
        except ValueError:
            raise InvalidMoveError(
                f"{text!r}: {m.group(4)!r} is no figure: write gatherer, fisher, hunter or hut"
            ) from None
        spot = m.group(5)
        if not SPOT_RE.match(spot):
            raise InvalidMoveError(f"{text!r}: {spot!r} is no spot: write f0, r1, l0, m2 … (segment letter and index)")
        return Place(x, y, rot, role, spot)
    if words[0] == "place":
        raise InvalidMoveError(
            f"{text!r} is not a placement: write 'place X,Y rR' with R 0-3, optionally followed by one figure "
            "and its spot ('place 1,0 r2 hunter m0')"
        )
    raise InvalidMoveError(
        f"{text!r} is not a move: write 'draw ID', 'bonus ID', 'place X,Y rR [FIGURE SPOT]' or 'discard'"
    )


__all__ = ["ROLE_LETTERS", "Discard", "Draw", "Move", "Place", "parse_move"]
