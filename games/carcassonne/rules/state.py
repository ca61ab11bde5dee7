"""The state of a Hunters & Gatherers game: immutable values with structural sharing.

A :class:`State` is a tuple (cheap to build, impossible to change) of plain fields — seats, phase,
bags, supplies, scores, the figures on the map, the score log — and three shared structures:

* ``tiles``: the laid tiles as a linked list ``(Placement, rest)`` (the newest first), so laying a
  tile adds one cell and shares the rest;
* ``frontier``: every empty square beside the map with its *constraint* (2 bits per side: the edge
  it must continue, 0 if open) and, per side, the neighbour's features there. A new one is a copy of
  the old one with the few changed squares (the frontier is the map's perimeter, not its area);
* ``dsu``: the features as a union-find over tile segments (one node per segment), stored in chunks of
  32 nodes; an entry is the node's parent, or at a root the feature record. A move copies only the
  chunks it writes (copy-on-write), so the map is never copied.

Feature records, kept at each root node (all fields are integers or tuples, so merging is cheap):

* forest ``(0, size, figs, open, tiles, gold | mushrooms << 8)``
* river ``(1, size, figs, open, tiles, lakes, system)`` — ``lakes``: ``((lake node, fish), …)`` at
  its ends; ``system``: a node of its river system
* lake ``(2, 1, 0, 0, tiles, 0, system)`` (lakes are features of their own; they join river systems)
* meadow ``(3, size, figs, animals, tiles, cult figs)`` — animals packed as in :data:`tiles.ANIMALS`

``figs`` packs the number of figures per seat, 5 bits each (:func:`unpack_figs`); ``tiles`` is a
bit mask of tile numbers (the order they were laid: 0 is the start tile). River systems (for huts)
are a second union-find with one node per group of a tile's rivers and lakes joined at a lake:
``(size, fish, huts, tiles)``; rivers joined across a side join their systems.

Equality compares the game-relevant fields (not the derived structures), so a state read back from
its position document equals the original.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from enum import StrEnum
from typing import Any, NamedTuple, Optional

from games.api import Seat
from games.carcassonne.rules.tiles import BoxProfile, Role

CHUNK_BITS = 5
CHUNK_MASK = (1 << CHUNK_BITS) - 1
FIG_BITS = 5
FIG_MASK = (1 << FIG_BITS) - 1


class Phase(StrEnum):
    """What the game waits for."""

    DRAW = "draw"
    """A land tile drawn from the stack (chance, reported from the table)."""
    PLACE = "place"
    """The player to move lays the drawn land tile (and maybe a figure), or discards it."""
    BONUS_DRAW = "bonus-draw"
    """A bonus tile drawn (chance) after a forest with gold was completed (H-GOLD-1)."""
    BONUS_PLACE = "bonus-place"
    """The player lays the bonus tile (and maybe a figure), or discards it."""
    OVER = "over"
    """After the final scoring (H-END-1)."""


class Figure(NamedTuple):
    """A figure on the map: owner seat, role, the tile (number in laying order) and spot it stands on,
    its segment node, and whether it is a hunter laid with a cult site on its meadow (H-BONUS-4)."""

    seat: int
    role: Role
    tile: int
    spot: str
    node: int
    cult: bool = False


class Placement(NamedTuple):
    """A laid tile: its number (laying order), square, tile type (profile index), rotation (quarter
    turns clockwise), first segment node, and the seat that laid it (-1: the start tile)."""

    no: int
    x: int
    y: int
    kind: int
    rot: int
    base: int
    by: int


class ScoreEvent(NamedTuple):
    """A scoring: a completed forest or river during the game (H-SCORE-1), or a meadow's hunters or a
    river system's huts in the final scoring. ``detail`` says how the points came about."""

    turn: int
    feature: str
    tiles: tuple[int, ...]
    points: int
    winners: tuple[int, ...]
    figures: tuple[int, ...]
    detail: tuple[tuple[str, int], ...]
    by: int = -1
    gold: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data."""
        return {
            "turn": self.turn,
            "feature": self.feature,
            "tiles": list(self.tiles),
            "points": self.points,
            "winners": list(self.winners),
            "figures": list(self.figures),
            "detail": {k: v for k, v in self.detail},
            "by": self.by,
            "gold": self.gold,
        }


Cons = Optional[tuple[Placement, "Cons"]]  # noqa: UP045 - a recursive alias needs the string form
FrontierEntry = tuple[int, tuple[tuple[int, int, int] | None, ...]]
"""``(constraint, sides)``: per side None (nothing there) or the neighbour's nodes facing it, aligned
to the empty square's own ports ``(edge feature, meadow at half 0, meadow at half 1)``."""


class Dsu(NamedTuple):
    """The feature union-find (``nodes``, ``n`` of them) and the river-system one (``systems``,
    ``sn``), in chunks of 32: an entry is its parent's number, or at a root the record itself."""

    nodes: tuple[list[Any], ...]
    systems: tuple[list[Any], ...]
    n: int
    sn: int


EMPTY_DSU = Dsu((), (), 0, 0)


def find(arr: Any, g: int) -> int:
    """The root of node ``g`` in the chunked union-find ``arr``."""
    while True:
        v = arr[g >> CHUNK_BITS][g & CHUNK_MASK]
        if v.__class__ is tuple:
            return g
        g = v


def record(arr: Any, g: int) -> tuple[Any, ...]:
    """The record of node ``g``'s root."""
    while True:
        v = arr[g >> CHUNK_BITS][g & CHUNK_MASK]
        if v.__class__ is tuple:
            rec: tuple[Any, ...] = v
            return rec
        g = v


def unpack_figs(figs: int, n: int) -> list[int]:
    """Figures per seat from a packed count."""
    return [(figs >> (FIG_BITS * i)) & FIG_MASK for i in range(n)]


def majority(counts: list[int]) -> tuple[int, ...]:
    """The seats with the most figures (all of them on a tie), none if nobody has one (H-MAJ-1)."""
    top = max(counts) if counts else 0
    return tuple(i for i, c in enumerate(counts) if c == top) if top > 0 else ()


def iter_tiles(tiles: Cons) -> Iterator[Placement]:
    """The laid tiles, newest first."""
    while tiles is not None:
        yield tiles[0]
        tiles = tiles[1]


class State(NamedTuple):
    """A position. Build new ones with the engine; never change one (it is a tuple)."""

    profile: BoxProfile
    seats: tuple[Seat, ...]
    phase: Phase
    to_move: int
    turn: int
    drawn: int
    """Profile index of the tile being laid (-1 if none)."""
    bag: tuple[int, ...]
    """Tiles of each type still in their stack (land or bonus), by profile index."""
    land_left: int
    bonus_left: int
    removed: tuple[int, ...]
    """Tiles that fitted nowhere and left the game (H-DRAW-2), in order."""
    scores: tuple[int, ...]
    members: tuple[int, ...]
    huts: tuple[int, ...]
    figures: tuple[Figure, ...]
    log: tuple[ScoreEvent, ...]
    tiles: Cons
    ntiles: int
    frontier: Mapping[int, FrontierEntry]
    dsu: Dsu

    # --- value semantics over the game-relevant fields -------------------------------------------
    def placements(self) -> tuple[Placement, ...]:
        """The laid tiles in laying order."""
        out = list(iter_tiles(self.tiles))
        out.reverse()
        return tuple(out)

    def _head(self) -> tuple[Any, ...]:
        return (
            self.profile.digest,
            self.seats,
            self.phase,
            self.to_move,
            self.turn,
            self.drawn,
            self.bag,
            self.removed,
            self.scores,
            self.members,
            self.huts,
            self.figures,
            self.log,
            self.ntiles,
        )

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, State) or self._head() != other._head():
            return False
        a, b = self.tiles, other.tiles
        while a is not None and b is not None:
            if a is b:
                return True
            if a[0] != b[0]:
                return False
            a, b = a[1], b[1]
        return a is None and b is None

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash((self.profile.digest, self.phase, self.turn, self.ntiles, self.scores, self.figures))

    def __repr__(self) -> str:
        return (
            f"<State turn {self.turn} {self.phase} seat {self.to_move} tiles {self.ntiles} "
            f"land left {self.land_left} scores {list(self.scores)}>"
        )

    # --- small helpers ---------------------------------------------------------------------------
    @property
    def n(self) -> int:
        """Number of players."""
        return len(self.seats)

    @property
    def is_chance(self) -> bool:
        """The next move is a draw reported from the table."""
        return self.phase in (Phase.DRAW, Phase.BONUS_DRAW)

    @property
    def is_over(self) -> bool:
        """The game has ended."""
        return self.phase is Phase.OVER

    def board(self) -> dict[int, Placement]:
        """Cell key → laid tile (built on demand, for views and documents)."""
        return {p.x * 4096 + p.y: p for p in iter_tiles(self.tiles)}

    def feature(self, node: int) -> tuple[Any, ...]:
        """The feature record of the feature that segment node ``node`` belongs to."""
        return record(self.dsu.nodes, node)

    def root(self, node: int) -> int:
        """The root node of ``node``'s feature."""
        return find(self.dsu.nodes, node)

    def system_root(self, node: int) -> int:
        """The river-system root of a river or lake node."""
        return find(self.dsu.systems, self.feature(node)[6])

    def system(self, node: int) -> tuple[Any, ...]:
        """The river-system record ``(size, fish, huts, tiles)`` of a river or lake node."""
        return record(self.dsu.systems, self.feature(node)[6])


__all__ = [
    "EMPTY_DSU",
    "Cons",
    "Dsu",
    "Figure",
    "FrontierEntry",
    "Phase",
    "Placement",
    "Role",
    "ScoreEvent",
    "State",
    "find",
    "iter_tiles",
    "majority",
    "record",
    "unpack_figs",
]
