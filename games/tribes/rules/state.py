"""The game state: an immutable value describing a whole position of a game of Tribes.

:class:`State` holds everything the rules need — each player's land (hexes with tiles and members),
supply, shells, bear teeth and track markers; the action row; the achievement board with stones and
arrows; the bag; the event stacks; whose turn it is and what the game waits for next
(:mod:`rules.pending`). It never changes: :func:`rules.engine.apply` returns a new one.

``State.to_dict`` / ``State.from_dict`` give the documented JSON *position* format
(docs/position.md), which also lets a group start the companion in the middle of a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from games.tribes.rules.hexgrid import Hex
from games.tribes.rules.pending import Pending, PendingKind
from games.tribes.rules.profile import TRACKS, BoxProfile

TRACK_INDEX: Mapping[str, int] = MappingProxyType({t: i for i, t in enumerate(TRACKS)})


@dataclass(frozen=True, slots=True)
class Land:
    """One landscape tile in a player's area: its resource, whether exhausted, members on it."""

    resource: str
    exhausted: bool = False
    members: int = 0


@dataclass(frozen=True, slots=True)
class Player:
    """One player's part of the state. ``tracks`` follows :data:`rules.profile.TRACKS` order."""

    name: str
    colour: str
    land: Mapping[Hex, Land]
    supply: int
    shells: int
    vp: int
    tracks: tuple[int, int, int, int] = (0, 0, 0, 0)
    arrow: bool = True

    def track(self, name: str) -> int:
        """The space index of this player's marker on track ``name``."""
        return self.tracks[TRACK_INDEX[name]]

    @property
    def members_on_map(self) -> int:
        """Tribe members standing on this player's tiles."""
        return sum(t.members for t in self.land.values())

    @property
    def exhausted_tiles(self) -> int:
        """Tiles turned to their exhausted back."""
        return sum(1 for t in self.land.values() if t.exhausted)

    @property
    def fresh_tiles(self) -> int:
        """Tiles showing their resource (not exhausted): counted for R-END-5."""
        return sum(1 for t in self.land.values() if not t.exhausted)

    def occupied(self) -> list[Hex]:
        """Hexes holding at least one of the player's members, sorted."""
        return sorted(h for h, t in self.land.items() if t.members)


@dataclass(frozen=True, slots=True)
class RowTile:
    """A tile lying in the action row: an action tile or an event tile, with the shells on it."""

    tile: str
    event: bool = False
    shells: int = 0


@dataclass(frozen=True, slots=True)
class BoardTile:
    """One position of the achievement board: the tile there (None while face down) and the
    seats whose marking stones lie on its slots, left to right (R-ACH-5)."""

    tile: str | None
    stones: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Arrow:
    """An arrow token (R-ARR) from board position ``lower`` to the diagonal position ``upper``
    of the next era; positions are ``(era, column)`` with eras 1–3 and columns 0–3."""

    lower: tuple[int, int]
    upper: tuple[int, int]
    owner: int


@dataclass(frozen=True, slots=True)
class State:
    """A complete position. Seats are numbered clockwise from the start player (seat 0)."""

    profile: BoxProfile
    players: tuple[Player, ...]
    row: tuple[RowTile, ...]
    board: tuple[tuple[BoardTile, ...], ...]
    arrows: tuple[Arrow, ...]
    bag: tuple[int, ...]
    stacks: tuple[int, int, int]
    seen_events: frozenset[str]
    done_events: tuple[str, ...]
    shell_supply: int
    to_move: int
    turn: int
    turn_shells: int
    end_triggered: bool
    pending: Pending
    _cache: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False, hash=False)

    # --- derived facts -------------------------------------------------------------------------
    @property
    def n(self) -> int:
        """Number of players."""
        return len(self.players)

    @property
    def actor(self) -> int:
        """Seat that must decide next (for chance nodes: the seat whose turn it is)."""
        return self.pending.seat

    @property
    def is_chance(self) -> bool:
        """True when the game waits for a chance outcome (a draw or reveal) rather than a decision."""
        return self.pending.chance

    @property
    def is_over(self) -> bool:
        """True once the game has ended (R-END-2)."""
        return self.pending.kind == PendingKind.GAME_OVER

    @property
    def round(self) -> int:
        """Round number, counting from 1 for the first round of turns."""
        return self.turn // self.n + 1

    def board_tile(self, era: int, col: int) -> BoardTile:
        """The achievement position at ``era`` (1–3), ``col`` (0–3)."""
        return self.board[era - 1][col]

    def find_achievement(self, ach_id: str) -> tuple[int, int] | None:
        """Board position ``(era, col)`` of a revealed achievement, or None."""
        for e, rowt in enumerate(self.board, start=1):
            for c, bt in enumerate(rowt):
                if bt.tile == ach_id:
                    return (e, c)
        return None

    def stones_used(self, seat: int) -> int:
        """Marking stones the player has on the board."""
        used = self._cache.get("stones")
        if used is None:
            used = [0] * len(self.players)
            for rowt in self.board:
                for bt in rowt:
                    for s in bt.stones:
                        used[s] += 1
            self._cache["stones"] = used
        n: int = used[seat]
        return n

    def era3_done(self) -> int:
        """Era-3 events chosen and carried out so far (R-END-1)."""
        prof = self.profile
        return sum(1 for e in self.done_events if prof.event(e).era == 3)

    def strength_extremes(self) -> tuple[int, int]:
        """Highest and lowest Strength positions among the players (R-EVT-2)."""
        vals = [p.tracks[3] for p in self.players]
        return max(vals), min(vals)

    def bag_total(self) -> int:
        """Landscape tiles left in the bag."""
        return sum(self.bag)

    def player_named(self, name: str) -> int | None:
        """Seat of the player called ``name``, or None."""
        for i, p in enumerate(self.players):
            if p.name == name:
                return i
        return None

    def replace(self, **changes: Any) -> State:
        """A copy with some fields changed (the cache is not carried over)."""
        g = changes.get
        return State(
            g("profile", self.profile),
            g("players", self.players),
            g("row", self.row),
            g("board", self.board),
            g("arrows", self.arrows),
            g("bag", self.bag),
            g("stacks", self.stacks),
            g("seen_events", self.seen_events),
            g("done_events", self.done_events),
            g("shell_supply", self.shell_supply),
            g("to_move", self.to_move),
            g("turn", self.turn),
            g("turn_shells", self.turn_shells),
            g("end_triggered", self.end_triggered),
            g("pending", self.pending),
            {},
        )

    # --- JSON ----------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The position as plain JSON data (docs/position.md)."""
        from games.tribes.rules.position import state_to_dict

        return state_to_dict(self)

    @staticmethod
    def from_dict(
        data: Any, profile: BoxProfile | None = None, source: str = "<position>", base: str | Path | None = None
    ) -> State:
        """Read a position; ``profile`` overrides the one the position names (a relative path is read
        from ``base``, the folder of the file it came from). Raises PositionError."""
        from games.tribes.rules.position import state_from_dict

        return state_from_dict(data, profile, source, base)


def land_proxy(land: dict[Hex, Land]) -> Mapping[Hex, Land]:
    """Freeze a land dictionary for storing in a :class:`Player`."""
    return MappingProxyType(land)
