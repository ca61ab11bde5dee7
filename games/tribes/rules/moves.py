"""Moves: small typed values with a text notation that round-trips (docs/notation.md).

Every input to the engine is a :class:`Move`: a player's decision (take a tile of the row and carry
out its action, place tiles, answer an event) or a chance outcome (the setup, a draw from the bag, a
revealed achievement or event). ``str(move)`` gives the notation and :func:`parse_move` reads it back;
``repr(move)`` is Python you can paste back. Moves are canonical: two moves that do the same thing
compare equal (members are identical pieces, so a Movement is its net change of members per hex).

Row slots are numbered from 1 (the front tile, which is free) in both the values and the notation.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from itertools import permutations
from typing import ClassVar

from games.tribes.rules.errors import InvalidMoveError
from games.tribes.rules.hexgrid import Hex, distance, format_hex, parse_hex

Delta = tuple[tuple[Hex, int], ...]
"""Net change of members per hex, sorted by hex, zero entries left out."""


class Move:
    """Base class of all moves. ``chance`` is True for outcomes reported from the table."""

    __slots__ = ()
    kind: ClassVar[str] = ""
    chance: ClassVar[bool] = False
    takes_slot: ClassVar[bool] = False

    def __str__(self) -> str:  # pragma: no cover - every subclass overrides
        raise NotImplementedError


def _hexes(hs: Iterable[Hex]) -> tuple[Hex, ...]:
    return tuple(sorted(hs))


def delta_of(transfers: Iterable[tuple[Hex, Hex]]) -> Delta:
    """The net member change of a list of ``(from, to)`` transfers."""
    c: Counter[Hex] = Counter()
    for a, b in transfers:
        c[a] -= 1
        c[b] += 1
    return tuple(sorted((h, n) for h, n in c.items() if n))


def pair_delta(delta: Delta, dist: Callable[[Hex, Hex], int] = distance) -> tuple[int, list[tuple[Hex, Hex]]]:
    """Cheapest way to realise a net change as single-member transfers.

    Returns ``(cost, transfers)``; ``dist`` gives the step count between two hexes and may return a
    negative number for "unreachable", which makes the whole delta unreachable (cost -1). Ties are
    broken towards the lexicographically first assignment, so the result is deterministic.
    """
    sources = [h for h, n in delta if n < 0 for _ in range(-n)]
    sinks = [h for h, n in delta if n > 0 for _ in range(n)]
    if len(sources) != len(sinks):
        raise ValueError("a movement must keep the number of members: sources and targets differ")
    k = len(sources)
    if k == 0:
        return 0, []
    cost = [[dist(a, b) for b in sinks] for a in sources]
    if k <= 4:  # few members move in a turn: try every assignment, lexicographic order
        best_total, best_perm = -1, tuple[int, ...]()
        for perm in permutations(range(k)):
            total = 0
            for i, j in enumerate(perm):
                c = cost[i][j]
                if c < 0:
                    break
                total += c
            else:
                if best_total < 0 or total < best_total:
                    best_total, best_perm = total, perm
        if best_total < 0:
            return -1, []
        return best_total, [(sources[i], sinks[j]) for i, j in enumerate(best_perm)]
    inf = 1 << 30
    if k > 14:  # far beyond any track intensity; greedy keeps this total but maybe not optimal
        used = [False] * k
        total = 0
        pairs = []
        for i in range(k):
            j = min((j for j in range(k) if not used[j]), key=lambda j: (cost[i][j] < 0, cost[i][j]))
            used[j] = True
            if cost[i][j] < 0:
                return -1, []
            total += cost[i][j]
            pairs.append((sources[i], sinks[j]))
        return total, pairs

    @cache
    def best(i: int, mask: int) -> int:
        if i == k:
            return 0
        out = inf
        for j in range(k):
            if not mask & (1 << j) and cost[i][j] >= 0:
                out = min(out, cost[i][j] + best(i + 1, mask | (1 << j)))
        return out

    total = best(0, 0)
    if total >= inf:
        return -1, []
    pairs = []
    mask = 0
    for i in range(k):
        for j in range(k):
            if not mask & (1 << j) and cost[i][j] >= 0 and cost[i][j] + best(i + 1, mask | (1 << j)) == best(i, mask):
                pairs.append((sources[i], sinks[j]))
                mask |= 1 << j
                break
    return total, pairs


def _balanced(delta: Delta, what: str) -> Delta:
    """``delta`` without zeros, sorted; an :class:`InvalidMoveError` when members would appear or vanish
    (a move of members takes each from one hex to another: R-ACT-MOV-1, R-ACT-OFF-2)."""
    clean = tuple(sorted((h, n) for h, n in delta if n))
    net = sum(n for _, n in clean)
    if net:
        shown = " ".join(f"{format_hex(h)}{n:+d}" for h, n in clean)
        raise InvalidMoveError(
            f"{what} {shown}: members are moved from hex to hex, so the changes must add up to 0, not {net:+d}"
        )
    return clean


def _format_delta(delta: Delta) -> list[str]:
    _, pairs = pair_delta(delta)
    return [f"{format_hex(a)}>{format_hex(b)}" for a, b in pairs]


# --- chance outcomes -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Setup(Move):
    """Setup outcome (R-SET-3..6): row order of action tiles, the era-1 tiles by column, and each
    seat's three starting resources on the triangle hexes (0,0), (1,0), (0,1)."""

    kind: ClassVar[str] = "setup"
    chance: ClassVar[bool] = True
    row: tuple[str, ...]
    era1: tuple[str, ...]
    lands: tuple[tuple[str, str, str], ...]

    def __str__(self) -> str:
        lands = ",".join("/".join(t) for t in self.lands)
        return f"setup row={','.join(self.row)} era1={','.join(self.era1)} lands={lands}"


@dataclass(frozen=True, slots=True)
class Draw(Move):
    """Tiles that came out of the bag for an Exploration (R-ACT-EXP-1), as resources."""

    kind: ClassVar[str] = "draw"
    chance: ClassVar[bool] = True
    tiles: tuple[str, ...]

    def __post_init__(self) -> None:
        if not all(isinstance(t, str) and t for t in self.tiles):
            raise InvalidMoveError(f"draw {self.tiles!r}: each drawn tile is a resource name")
        object.__setattr__(self, "tiles", tuple(sorted(self.tiles)))

    def __str__(self) -> str:
        return " ".join(("draw", *self.tiles))


@dataclass(frozen=True, slots=True)
class Reveal(Move):
    """The achievement tile turned face up above a first stone (R-ACH-8)."""

    kind: ClassVar[str] = "reveal"
    chance: ClassVar[bool] = True
    achievement: str

    def __str__(self) -> str:
        return f"reveal {self.achievement}"


@dataclass(frozen=True, slots=True)
class RevealEvent(Move):
    """The event tile revealed for a lightning slot (R-ACH-6)."""

    kind: ClassVar[str] = "event"
    chance: ClassVar[bool] = True
    event: str

    def __str__(self) -> str:
        return f"event {self.event}"


# --- decisions -------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PlaceFirst(Move):
    """Place the first tribe member on one of the three starting tiles (R-SET-10)."""

    kind: ClassVar[str] = "start"
    hex: Hex

    def __str__(self) -> str:
        return f"start {format_hex(self.hex)}"


@dataclass(frozen=True, slots=True)
class Offspring(Move):
    """Take the tile at ``slot`` and do Offspring (R-ACT-OFF-1): new members onto ``place`` (one
    entry per member), or, with an empty supply, ``relocate`` placed members (R-ACT-OFF-2)."""

    kind: ClassVar[str] = "off"
    takes_slot: ClassVar[bool] = True
    slot: int
    place: tuple[Hex, ...] = ()
    relocate: Delta = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "place", _hexes(self.place))
        object.__setattr__(self, "relocate", _balanced(self.relocate, "relocation"))

    def __str__(self) -> str:
        parts = [f"{self.slot}:off", *(format_hex(h) for h in self.place), *_format_delta(self.relocate)]
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Movement(Move):
    """Take the tile at ``slot`` and do Movement (R-ACT-MOV-1); ``delta`` is the net change of
    members per hex (written as ``from>to`` transfers)."""

    kind: ClassVar[str] = "mov"
    takes_slot: ClassVar[bool] = True
    slot: int
    delta: Delta = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "delta", _balanced(self.delta, "movement"))

    @staticmethod
    def of(slot: int, transfers: Iterable[tuple[Hex, Hex]]) -> Movement:
        """A movement from ``(from, to)`` member transfers."""
        return Movement(slot, delta_of(transfers))

    def __str__(self) -> str:
        return " ".join([f"{self.slot}:mov", *_format_delta(self.delta)])


@dataclass(frozen=True, slots=True)
class Explore(Move):
    """Take the tile at ``slot`` and do Exploration (R-ACT-EXP-1); the draw and placement follow."""

    kind: ClassVar[str] = "exp"
    takes_slot: ClassVar[bool] = True
    slot: int

    def __str__(self) -> str:
        return f"{self.slot}:exp"


@dataclass(frozen=True, slots=True)
class Achieve(Move):
    """Take the hand tile at ``slot`` and claim ``achievement`` (R-ACH), exhausting ``jokers`` (R-ACH-4)
    and, if ``arrow`` names a lower achievement, laying the arrow token from it (R-ARR-1)."""

    kind: ClassVar[str] = "ach"
    takes_slot: ClassVar[bool] = True
    slot: int
    achievement: str
    jokers: tuple[Hex, ...] = ()
    arrow: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "jokers", _hexes(self.jokers))

    def __str__(self) -> str:
        parts = [f"{self.slot}:ach", self.achievement, *(f"joker={format_hex(h)}" for h in self.jokers)]
        if self.arrow:
            parts.append(f"arrow={self.arrow}")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class TakeEvent(Move):
    """Take the event tile at ``slot`` and carry it out (R-EVT-1)."""

    kind: ClassVar[str] = "evt"
    takes_slot: ClassVar[bool] = True
    slot: int

    def __str__(self) -> str:
        return f"{self.slot}:evt"


@dataclass(frozen=True, slots=True)
class Place(Move):
    """Lay the drawn tiles: ``tiles`` pairs each new hex with its resource (R-ACT-EXP-1)."""

    kind: ClassVar[str] = "place"
    tiles: tuple[tuple[Hex, str], ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiles", tuple(sorted(self.tiles)))

    def __str__(self) -> str:
        return " ".join(["place", *(f"{r}@{format_hex(h)}" for h, r in self.tiles)])


@dataclass(frozen=True, slots=True)
class _HexList(Move):
    hexes: tuple[Hex, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "hexes", _hexes(self.hexes))

    def __str__(self) -> str:
        return " ".join([self.kind, *(format_hex(h) for h in self.hexes)])


@dataclass(frozen=True, slots=True)
class Restore(_HexList):
    """Turn exhausted tiles back to their resource face (R-ACT-EXP-3, or an event)."""

    kind: ClassVar[str] = "restore"


@dataclass(frozen=True, slots=True)
class Lose(_HexList):
    """Event: remove members from these hexes (one entry per member) (R-EVT-4)."""

    kind: ClassVar[str] = "lose"


@dataclass(frozen=True, slots=True)
class Gain(_HexList):
    """Event: put new members on these occupied hexes (one entry per member)."""

    kind: ClassVar[str] = "gain"


@dataclass(frozen=True, slots=True)
class Exhaust(_HexList):
    """Event: turn these tiles to their exhausted back; they need not be occupied (R-EVT-5)."""

    kind: ClassVar[str] = "exhaust"


@dataclass(frozen=True, slots=True)
class Pick(Move):
    """Event: choose option ``option`` (counted from 1) of an either/or effect."""

    kind: ClassVar[str] = "pick"
    option: int

    def __str__(self) -> str:
        return f"pick {self.option}"


MOVE_TYPES: tuple[type[Move], ...] = (
    Setup,
    Draw,
    Reveal,
    RevealEvent,
    PlaceFirst,
    Offspring,
    Movement,
    Explore,
    Achieve,
    TakeEvent,
    Place,
    Restore,
    Lose,
    Gain,
    Exhaust,
    Pick,
)

_SLOT_RE = re.compile(r"^(\d+):(\w+)$")


def parse_move(text: str) -> Move:
    """Read a move in the notation of docs/notation.md; raises :class:`InvalidMoveError`."""
    if not isinstance(text, str):
        raise InvalidMoveError(f"a move must be text, got {type(text).__name__}")
    words = text.split()
    if not words:
        raise InvalidMoveError("empty move: expected e.g. '1:off 0,0' or 'draw goat wheat'")
    try:
        return _parse(words)
    except InvalidMoveError as exc:
        raise InvalidMoveError(f"cannot read move {text!r}: {exc}") from None
    except ValueError as exc:
        raise InvalidMoveError(f"cannot read move {text!r}: {exc}") from None


def _parse(words: list[str]) -> Move:
    head, args = words[0], words[1:]
    m = _SLOT_RE.match(head)
    if m:
        slot = int(m.group(1))
        if slot < 1:
            raise InvalidMoveError("row slots count from 1 (the front tile)")
        verb = m.group(2)
        if verb == "off":
            place = [parse_hex(a) for a in args if ">" not in a]
            moves = [_transfer(a) for a in args if ">" in a]
            if place and moves:
                raise InvalidMoveError("Offspring either places new members or relocates, not both")
            return Offspring(slot, tuple(place), delta_of(moves))
        if verb == "mov":
            return Movement.of(slot, [_transfer(a) for a in args])
        if verb == "exp":
            _no_args(args, head)
            return Explore(slot)
        if verb == "evt":
            _no_args(args, head)
            return TakeEvent(slot)
        if verb == "ach":
            if not args:
                raise InvalidMoveError("'ach' needs the achievement id, e.g. '4:ach jagen'")
            jokers: list[Hex] = []
            arrow = None
            for a in args[1:]:
                key, _, val = a.partition("=")
                if key == "joker" and val:
                    jokers.append(parse_hex(val))
                elif key == "arrow" and val and arrow is None:
                    arrow = val
                else:
                    raise InvalidMoveError(f"unexpected {a!r}: expected 'joker=q,r' or one 'arrow=<id>'")
            return Achieve(slot, args[0], tuple(jokers), arrow)
        raise InvalidMoveError(f"unknown action {verb!r}: expected off, mov, exp, ach or evt")
    if head == "setup":
        return _parse_setup(args)
    if head == "start":
        if len(args) != 1:
            raise InvalidMoveError("'start' takes one hex, e.g. 'start 0,0'")
        return PlaceFirst(parse_hex(args[0]))
    if head == "draw":
        if not args:
            raise InvalidMoveError("'draw' lists the drawn resources, e.g. 'draw goat wheat'")
        return Draw(tuple(args))
    if head == "reveal":
        if len(args) != 1:
            raise InvalidMoveError("'reveal' takes one achievement id")
        return Reveal(args[0])
    if head == "event":
        if len(args) != 1:
            raise InvalidMoveError("'event' takes one event id")
        return RevealEvent(args[0])
    if head == "place":
        tiles = []
        for a in args:
            res, at, pos = a.partition("@")
            if not at or not res:
                raise InvalidMoveError(f"{a!r} is not 'resource@q,r'")
            tiles.append((parse_hex(pos), res))
        if not tiles:
            raise InvalidMoveError("'place' lists the tiles, e.g. 'place goat@1,-1'")
        return Place(tuple(tiles))
    if head == "pick":
        if len(args) != 1 or not args[0].isdigit() or int(args[0]) < 1:
            raise InvalidMoveError("'pick' takes an option number counted from 1")
        return Pick(int(args[0]))
    hex_moves = {"restore": Restore, "lose": Lose, "gain": Gain, "exhaust": Exhaust}
    if head in hex_moves:
        return hex_moves[head](tuple(parse_hex(a) for a in args))
    raise InvalidMoveError(
        f"unknown word {head!r}: a move starts with 'N:off|mov|exp|ach|evt', setup, start, draw, "
        "place, reveal, event, restore, lose, gain, exhaust or pick"
    )


def _no_args(args: list[str], head: str) -> None:
    if args:
        raise InvalidMoveError(f"{head!r} takes nothing after it, got {' '.join(args)!r}")


def _transfer(text: str) -> tuple[Hex, Hex]:
    a, sep, b = text.partition(">")
    if not sep or ">" in b:
        raise InvalidMoveError(f"{text!r} is not a transfer 'q,r>q,r'")
    return parse_hex(a), parse_hex(b)


def _parse_setup(args: list[str]) -> Setup:
    fields: dict[str, str] = {}
    for a in args:
        key, sep, val = a.partition("=")
        if not sep or key not in ("row", "era1", "lands") or key in fields:
            raise InvalidMoveError(f"unexpected {a!r}: setup takes row=…, era1=… and lands=… once each")
        fields[key] = val
    missing = [k for k in ("row", "era1", "lands") if k not in fields]
    if missing:
        raise InvalidMoveError(f"setup is missing {missing[0]}=…")
    lands = []
    for part in fields["lands"].split(","):
        res = part.split("/")
        if len(res) != 3 or not all(res):
            raise InvalidMoveError(f"lands entry {part!r} must be three resources like goat/horse/wheat")
        lands.append((res[0], res[1], res[2]))
    row = tuple(x for x in fields["row"].split(",") if x)
    era1 = tuple(x for x in fields["era1"].split(",") if x)
    return Setup(row, era1, tuple(lands))
