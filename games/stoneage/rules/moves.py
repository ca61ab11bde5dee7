"""Stone Age moves: small frozen values with a text notation that round-trips (docs/stoneage-notation.md).

Decisions: ``place hunt 3`` / ``place hut`` / ``place card2`` (section 1); ``take wood``,
``buy card2 wood,clay``, ``buy building1 wood,wood,clay``, ``skip card2`` (section 2);
``tools 3,1,once4`` / ``tools -`` (the tools added to a roll); ``pick 5`` (a die of the dice bar);
``any wood,gold`` (the "any 2 resources" card); ``feed wood,clay`` / ``starve`` (section 3).
Chance outcomes, reported from the table: ``roll wood 3,5,6`` (dice, any order), ``reveal c07`` (a
card for an empty card place, or the next building of a stack), ``draw c12`` (the extra card).

Moves are canonical: dice, payments and tools are sorted, so two moves that do the same thing
compare equal, and ``parse_move(str(m)) == m``. ``repr(m)`` is Python you can paste back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from games.stoneage.rules.errors import InvalidMoveError
from games.stoneage.rules.profile import DICE_PLACES, RESOURCES, VILLAGE

Pay = tuple[int, int, int, int]
"""Resources as (wood, clay, stone, gold) counts."""

MAX_DICE = 30
_SLOT = re.compile(r"^(card|building)([1-9])$")
_ITEM = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,31}$")


class Move:
    """Base of all moves; ``chance`` is True for outcomes reported from the table."""

    __slots__ = ()
    kind: ClassVar[str] = ""
    chance: ClassVar[bool] = False

    def __str__(self) -> str:  # pragma: no cover - every subclass overrides
        raise NotImplementedError


def format_pay(pay: Pay) -> str:
    """``(2, 1, 0, 0)`` → ``wood,wood,clay``."""
    return ",".join(r for r, k in zip(RESOURCES, pay, strict=True) for _ in range(k))


def parse_pay(text: str, where: str) -> Pay:
    """``wood,wood,clay`` (any order; ``2wood`` allowed) → counts; InvalidMoveError quotes ``where``."""
    counts = [0, 0, 0, 0]
    for tok in text.split(","):
        tok = tok.strip()
        m = re.match(r"^(\d{0,2})([a-z]+)$", tok)
        if not m or m.group(2) not in RESOURCES:
            raise InvalidMoveError(f"{where!r}: {tok!r} is not a resource (wood, clay, stone, gold)")
        k = int(m.group(1)) if m.group(1) else 1
        if k < 1:
            raise InvalidMoveError(f"{where!r}: {tok!r} must count at least 1")
        counts[RESOURCES.index(m.group(2))] += k
    return (counts[0], counts[1], counts[2], counts[3])


def _is_slot(place: str) -> bool:
    return bool(_SLOT.match(place))


@dataclass(frozen=True, slots=True)
class Place(Move):
    """Put ``n`` people on one place (S-PLACE-1). The hut, tool maker, field, card and building places
    take the exact number they ask for, written without a count (``n`` = 0)."""

    kind: ClassVar[str] = "place"
    place: str
    n: int = 0

    def __str__(self) -> str:
        return f"place {self.place} {self.n}" if self.place in DICE_PLACES else f"place {self.place}"


@dataclass(frozen=True, slots=True)
class Take(Move):
    """Carry out a village or dice place (S-ACT-1): the tool maker, hut or field act at once; a dice
    place makes the table report the roll."""

    kind: ClassVar[str] = "take"
    place: str

    def __str__(self) -> str:
        return f"take {self.place}"


@dataclass(frozen=True, slots=True)
class Buy(Move):
    """Carry out a card or building place by paying ``pay`` (S-CARD-1, S-BLD-1)."""

    kind: ClassVar[str] = "buy"
    place: str
    pay: Pay

    def __str__(self) -> str:
        return f"buy {self.place} {format_pay(self.pay)}"


@dataclass(frozen=True, slots=True)
class Skip(Move):
    """Carry out a card or building place without buying (S-CARD-2, S-BLD-2): the person comes home."""

    kind: ClassVar[str] = "skip"
    place: str

    def __str__(self) -> str:
        return f"skip {self.place}"


@dataclass(frozen=True, slots=True)
class Roll(Move):
    """Dice reported from the table (S-DICE-3): for ``what`` (a dice place or ``bar``), sorted."""

    kind: ClassVar[str] = "roll"
    chance: ClassVar[bool] = True
    what: str
    dice: tuple[int, ...]

    def __str__(self) -> str:
        return f"roll {self.what} {','.join(map(str, self.dice))}"


@dataclass(frozen=True, slots=True)
class Tools(Move):
    """The tools added to the roll just made (S-TOOL-4): values of permanent tools and of one-time
    tool cards, each highest first; both empty is ``tools -``."""

    kind: ClassVar[str] = "tools"
    values: tuple[int, ...] = ()
    once: tuple[int, ...] = ()

    def __str__(self) -> str:
        parts = [str(v) for v in self.values] + [f"once{v}" for v in self.once]
        return "tools " + (",".join(parts) if parts else "-")

    @property
    def total(self) -> int:
        """Pips added."""
        return sum(self.values) + sum(self.once)


@dataclass(frozen=True, slots=True)
class Pick(Move):
    """Take the die showing ``face`` from the dice-bar roll (S-CARD-4)."""

    kind: ClassVar[str] = "pick"
    face: int

    def __str__(self) -> str:
        return f"pick {self.face}"


@dataclass(frozen=True, slots=True)
class AnyRes(Move):
    """Use an "any resources" card: take these resources (S-CARD-8)."""

    kind: ClassVar[str] = "any"
    take: Pay

    def __str__(self) -> str:
        return f"any {format_pay(self.take)}"


@dataclass(frozen=True, slots=True)
class Feed(Move):
    """Short of food: give all food and pay the rest with these resources (S-FEED-2)."""

    kind: ClassVar[str] = "feed"
    pay: Pay

    def __str__(self) -> str:
        return f"feed {format_pay(self.pay)}"


@dataclass(frozen=True, slots=True)
class Starve(Move):
    """Short of food: give all food and lose 10 points (S-FEED-2)."""

    kind: ClassVar[str] = "starve"

    def __str__(self) -> str:
        return "starve"


@dataclass(frozen=True, slots=True)
class Reveal(Move):
    """The card turned up for an empty card place, or the building turned up on a stack (S-SET-2,
    S-BLD-1, S-ROUND-2)."""

    kind: ClassVar[str] = "reveal"
    chance: ClassVar[bool] = True
    item: str

    def __str__(self) -> str:
        return f"reveal {self.item}"


@dataclass(frozen=True, slots=True)
class Draw(Move):
    """The card drawn from the deck for the extra-card card (S-CARD-7)."""

    kind: ClassVar[str] = "draw"
    chance: ClassVar[bool] = True
    card: str

    def __str__(self) -> str:
        return f"draw {self.card}"


AnyMove = Place | Take | Buy | Skip | Roll | Tools | Pick | AnyRes | Feed | Starve | Reveal | Draw


def _dice(text: str, where: str) -> tuple[int, ...]:
    out = []
    for tok in text.split(","):
        tok = tok.strip()
        if not tok.isdigit() or not 1 <= int(tok) <= 6:
            raise InvalidMoveError(f"{where!r}: {tok!r} is not a die (1 to 6)")
        out.append(int(tok))
    if len(out) > MAX_DICE:
        raise InvalidMoveError(f"{where!r}: {len(out)} dice is more than any roll has")
    return tuple(sorted(out))


def _count(tok: str, where: str) -> int:
    if not tok.isdigit() or not 1 <= int(tok) <= 30:
        raise InvalidMoveError(f"{where!r}: {tok!r} is not a number of people (1 or more)")
    return int(tok)


def parse_move(text: str) -> AnyMove:
    """The move written ``text``; :class:`InvalidMoveError` quoting it otherwise."""
    if not isinstance(text, str):
        raise InvalidMoveError(f"{text!r} is not a move: moves are text such as 'place hunt 3'")
    words = text.strip().split()
    if not words:
        raise InvalidMoveError("'' is not a move: write e.g. 'place hunt 3', 'take wood', 'roll wood 3,5,6'")
    verb, args = words[0].lower(), words[1:]
    if verb == "place" and args:
        place = args[0]
        if place in DICE_PLACES:
            if len(args) != 2:
                raise InvalidMoveError(f"{text!r}: say how many people go to {place}, e.g. 'place {place} 2'")
            return Place(place, _count(args[1], text))
        if place in VILLAGE or _is_slot(place):
            if len(args) != 1:
                raise InvalidMoveError(
                    f"{text!r}: {place} takes exactly the people it shows; write 'place {place}' without a count"
                )
            return Place(place, 0)
        raise InvalidMoveError(f"{text!r}: {place!r} is not a place ({_places_hint()})")
    if verb == "take" and len(args) == 1:
        if args[0] in DICE_PLACES or args[0] in VILLAGE:
            return Take(args[0])
        raise InvalidMoveError(
            f"{text!r}: 'take' carries out a village or dice place; cards and buildings are "
            "'buy PLACE RESOURCES' or 'skip PLACE'"
        )
    if verb in ("buy", "skip") and args:
        if not _is_slot(args[0]):
            raise InvalidMoveError(f"{text!r}: {verb} needs a card or building place such as card2 or building1")
        if verb == "skip":
            if len(args) != 1:
                raise InvalidMoveError(f"{text!r}: write 'skip {args[0]}'")
            return Skip(args[0])
        if len(args) != 2:
            raise InvalidMoveError(f"{text!r}: write 'buy {args[0]} wood,clay' (the resources paid)")
        return Buy(args[0], parse_pay(args[1], text))
    if verb == "roll" and len(args) == 2:
        if args[0] not in (*DICE_PLACES, "bar"):
            raise InvalidMoveError(f"{text!r}: roll for hunt, wood, clay, stone, gold or bar")
        return Roll(args[0], _dice(args[1], text))
    if verb == "tools" and len(args) == 1:
        if args[0] == "-":
            return Tools()
        vals, once = [], []
        for tok in args[0].split(","):
            tok = tok.strip()
            if tok.startswith("once") and tok[4:].isdigit() and 1 <= int(tok[4:]) <= 20:
                once.append(int(tok[4:]))
            elif tok.isdigit() and 1 <= int(tok) <= 9:
                vals.append(int(tok))
            else:
                raise InvalidMoveError(f"{text!r}: {tok!r} is not a tool value (1-4) or a one-time tool (once3)")
        return Tools(tuple(sorted(vals, reverse=True)), tuple(sorted(once, reverse=True)))
    if verb == "pick" and len(args) == 1:
        if not args[0].isdigit() or not 1 <= int(args[0]) <= 6:
            raise InvalidMoveError(f"{text!r}: pick a die face from 1 to 6")
        return Pick(int(args[0]))
    if verb == "any" and len(args) == 1:
        return AnyRes(parse_pay(args[0], text))
    if verb == "feed" and len(args) == 1:
        return Feed(parse_pay(args[0], text))
    if verb == "starve" and not args:
        return Starve()
    if verb in ("reveal", "draw") and len(args) == 1:
        if not _ITEM.match(args[0]):
            raise InvalidMoveError(f"{text!r}: {args[0]!r} is not a card or building id")
        return Reveal(args[0]) if verb == "reveal" else Draw(args[0])
    raise InvalidMoveError(
        f"{text!r} is not a move: write e.g. 'place hunt 3', 'take wood', 'buy card2 wood,clay', 'skip building1', "
        "'roll wood 3,5,6', 'tools 2,1', 'pick 5', 'any wood,gold', 'feed wood', 'starve', 'reveal c07', 'draw c12'"
    )


def _places_hint() -> str:
    return "hunt, wood, clay, stone, gold, toolmaker, hut, field, card1-card4, building1-building4"


__all__ = [
    "AnyMove",
    "AnyRes",
    "Buy",
    "Draw",
    "Feed",
    "Move",
    "Pay",
    "Pick",
    "Place",
    "Reveal",
    "Roll",
    "Skip",
    "Starve",
    "Take",
    "Tools",
    "format_pay",
    "parse_move",
    "parse_pay",
]
