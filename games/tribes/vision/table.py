"""What lies on the table: a plain physical model read straight from a rules :class:`~rules.state.State`.

The rules state is the single source of truth; :meth:`TableModel.from_state` copies from it what a
camera can see — each seat's land (``player.land[hex]``: resource, exhausted, members), the members,
stones and arrow token still in the seat's supply, the seat's shells and track markers
(``player.shells``, ``player.tracks``), the action row (``state.row``), the achievement board with
its stones (``state.board``), the arrow tokens laid (``state.arrows``), the event stacks, the bag,
the shell supply and the tiles drawn from the bag but not yet laid (``pending.drawn``). Members of
a player stand on that player's own land.

The model is mutable so that a video can carry out a move step by step (a member lifted from the
supply, held, put down); a settled model always equals ``from_state`` of some state.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from games.tribes.rules.hexgrid import Hex
from games.tribes.rules.pending import PendingKind
from games.tribes.rules.profile import BoxProfile
from games.tribes.rules.state import State


@dataclass
class LandTile:
    """A landscape tile in a seat's land."""

    resource: str
    exhausted: bool = False
    members: int = 0


@dataclass
class SeatTable:
    """One seat's things on the table (a track value of -1: that marker is in a hand)."""

    name: str
    colour: str
    land: dict[Hex, LandTile]
    supply: int
    stones: int
    arrow: bool
    shells: int
    tracks: list[int]


@dataclass
class RowItem:
    """A tile in the action row; ``place`` is its slot (1 = front), fractional while it slides."""

    tile: str
    event: bool
    shells: int
    place: float


@dataclass
class BoardItem:
    """An achievement position: the tile (None while face down) and the seats of its stones."""

    tile: str | None
    stones: list[int]


@dataclass
class ArrowToken:
    """An arrow token laid on the board from ``lower`` to ``upper`` (``(era, col)``) by ``owner``."""

    lower: tuple[int, int]
    upper: tuple[int, int]
    owner: int


@dataclass
class TableModel:
    """Everything visible on the table (see the module docstring)."""

    seats: list[SeatTable]
    row: list[RowItem]
    board: list[list[BoardItem]]
    arrows: list[ArrowToken]
    stacks: list[int]
    discard: int
    bag: int
    shell_supply: int
    track_spaces: tuple[int, ...]
    resources: tuple[str, ...] = ()
    discard_top: str | None = None
    drawn: dict[int, list[str]] = field(default_factory=dict)
    extra: dict[str, object] = field(default_factory=dict)

    @staticmethod
    def from_state(state: State) -> TableModel:
        """The table as the rules state describes it."""
        prof: BoxProfile = state.profile
        seats = []
        for seat, p in enumerate(state.players):
            # shells lying on the tile just taken are in the taker's hands already; the rules
            # credit them at the end of the turn (R-TURN-3, ``state.turn_shells``)
            extra = state.turn_shells if seat == state.to_move else 0
            seats.append(
                SeatTable(
                    name=p.name,
                    colour=p.colour,
                    land={h: LandTile(t.resource, t.exhausted, t.members) for h, t in p.land.items()},
                    supply=p.supply,
                    stones=prof.stones_per_player - state.stones_used(seat),
                    arrow=p.arrow,
                    shells=p.shells + extra,
                    tracks=list(p.tracks),
                )
            )
        row = [RowItem(t.tile, t.event, t.shells, float(i + 1)) for i, t in enumerate(state.row)]
        # an event being carried out has left the row: it lies on the discard pile already
        done = list(state.done_events)
        current = getattr(state.pending, "event", None) if state.pending.kind == PendingKind.EVENT else None
        if current and current not in done:
            done.append(current)
        board = [[BoardItem(bt.tile, list(bt.stones)) for bt in era] for era in state.board]
        arrows = [ArrowToken(a.lower, a.upper, a.owner) for a in state.arrows]
        return TableModel(
            seats=seats,
            row=row,
            board=board,
            arrows=arrows,
            stacks=list(state.stacks),
            discard=len(done),
            bag=state.bag_total(),
            shell_supply=state.shell_supply,
            track_spaces=tuple(len(t.vp) for t in prof.tracks),
            resources=prof.resources,
            discard_top=done[-1] if done else None,
            drawn={state.pending.seat: list(state.pending.drawn)} if state.pending.kind == PendingKind.PLACE else {},  # type: ignore[attr-defined]
        )

    def copy(self) -> TableModel:
        """A deep copy (for stepping through a move)."""
        return copy.deepcopy(self)

    def signature(self) -> tuple[object, ...]:
        """A hashable summary of everything drawn (equal signatures draw equal tables)."""
        seats = tuple(
            (
                s.colour,
                tuple(sorted((h, t.resource, t.exhausted, t.members) for h, t in s.land.items())),
                s.supply,
                s.stones,
                s.arrow,
                s.shells,
                tuple(s.tracks),
            )
            for s in self.seats
        )
        row = tuple((r.tile, r.event, r.shells, round(r.place, 4)) for r in self.row)
        board = tuple(tuple((b.tile, tuple(b.stones)) for b in era) for era in self.board)
        arrows = tuple((a.lower, a.upper, a.owner) for a in self.arrows)
        drawn = tuple(sorted((k, tuple(v)) for k, v in self.drawn.items() if v))
        return (
            seats,
            row,
            board,
            arrows,
            tuple(self.stacks),
            self.discard,
            self.discard_top,
            self.bag,
            self.shell_supply,
            drawn,
        )

    def settled_equal(self, other: TableModel) -> bool:
        """True when both models show the same table (row places compared as slots)."""
        return self.signature() == other.signature()
