"""The Tribes tracker policy (:class:`tracker.policy.TrackerPolicy`): the facts of a Tribes table, the
parts of its view, the moves to try, and the game's own timing rules for the game-neutral tracker.

Facts and views are :mod:`games.tribes.tracker.facts`, proposals :mod:`games.tribes.tracker.propose`.
The rules the tracker's decisions rest on:

* a move may still grow while a hand is at work: a Movement with steps left, a relocation or
  restore short of its maximum, a tile showing a hand (R-TURN-4) moved to the end of the row while
  an achievement could still be claimed with it (:meth:`TribesPolicy.extendable`);
* two moves that both change one player's members show only their sum (:meth:`split_unclear`);
* a move acting on a land the camera did not read in full is not committed yet (:meth:`unverified`);
* an event answer may not show on the table at all (:meth:`invisible_answer`).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

from games.tribes.plugin import GAME
from games.tribes.rules.checks import claim_or_none, intensity, movement_cost
from games.tribes.rules.hexgrid import format_hex
from games.tribes.rules.moves import Explore, Move, Movement, Offspring, Restore
from games.tribes.rules.pending import (
    DrawPending,
    EventRevealPending,
    PendingKind,
    PlacePending,
    RestorePending,
    RevealPending,
)
from games.tribes.rules.state import State
from games.tribes.tracker import facts as F
from games.tribes.tracker.propose import TableRead, propose
from tracker.evidence import Evidence
from tracker.facts import Key, Reading, Seating
from tracker.policy import PartSpec

NOT_YET_MARGIN = 1.0
"""How much better the tiles just drawn, read where they were laid, must explain the table than
"not laid yet" for the draw and placement to be committed without asking (the tracker's ``margin``,
3.0, elsewhere). With the two moves' step cost (0.25 each) a single tile must read at support 1.5,
about 0.82 in every frame. With the margin of 3.0, tiles read at support 1.86–1.89 were asked about
(``benchmarks/tracker_eval.py --family pale``, seed 4: four prompts for draws that were committed
before, once the reading passed ``disagree``). Which resource a tile is stays asked where it reads
weakly (:data:`~games.tribes.tracker.propose.WEAK_RESOURCE`)."""


class TribesPolicy:
    """See the module docstring."""

    rules = GAME.rules
    residual_kinds: tuple[str, ...] = ("land", "members", "shells", "track", "slotshells", "stones")
    """Pieces that can be knocked or misread beside a move (shells on the row and stones on the board
    too: a misread count, or the stone of an achievement under way); the tiles of the row and the
    board are what moves are read from, never left over."""
    residual_max = 2
    """A knocked piece touches two hexes."""

    # --- facts -----------------------------------------------------------------------------------
    def seating(self, state: State, layout_seats: Sequence[int] | None = None) -> Seating:
        """Players at layout seats ``layout_seats`` (default: player *i* at seat *i*)."""
        return Seating.of(state.players, layout_seats)

    def facts(self, obs: Any, seating: Seating) -> dict[Key, Reading]:
        """:func:`games.tribes.tracker.facts.observation_facts`."""
        return F.observation_facts(obs, seating.colours)

    def default(self, key: Key) -> Any:
        """:func:`games.tribes.tracker.facts.default`."""
        return F.default(key)

    def view_parts(self, state: State, seating: Seating) -> Iterable[PartSpec]:
        """Each player's land and markers, the shells, the row, the board with its arrows."""
        seats = seating.layout_seats
        for g, p in enumerate(state.players):
            yield PartSpec(
                ("p", g, id(p)),
                (p,),
                ("player", g),
                lambda p=p, g=g: F.player_view(p, seats[g]),
                lambda p=p: (frozenset(p.land.items()), p.tracks),
            )
        shells = F.shells_view(state, seating)
        yield PartSpec(("shells",), (), ("shells",), lambda: shells, lambda: tuple(shells.values()), cache=False)
        yield PartSpec(("r", id(state.row)), (state.row,), ("row",), lambda: F.row_view(state), lambda: state.row)
        yield PartSpec(
            ("b", id(state.board), id(state.arrows)),
            (state.board, state.arrows),
            ("board",),
            lambda: F.board_view(state),
            lambda: (state.board, state.arrows),
        )

    def owner_of(self, key: Key, seating: Seating) -> Hashable:
        """Lands and members by the seat sitting there, markers by colour, shells, row, board."""
        kind = key[0]
        if kind in ("land", "members"):
            g = seating.game_seat(key[1])
            return ("player", g) if g is not None else ("none",)
        if kind == "track":
            try:
                return ("player", seating.colours.index(key[1]))
            except ValueError:
                return ("none",)
        if kind == "shells":
            return ("shells",)
        if kind in ("slot", "filled", "slotshells"):
            return ("row",)
        return ("board",)

    # --- the search ------------------------------------------------------------------------------
    def table_read(self, evidence: Evidence, seating: Seating) -> TableRead:
        """The evidence as the proposals read it."""
        return TableRead(evidence, seating)

    def propose(self, state: State, read: TableRead, prune: bool) -> list[Move]:
        """:func:`games.tribes.tracker.propose.propose`."""
        return propose(state, read, prune)

    def hidden_key(self, state: State) -> Hashable:
        """What a camera cannot see: what the game waits for, the turn, the bag, the event stacks,
        the VP and supplies, the events done, the end triggered."""
        return (
            state.pending,
            state.turn,
            state.bag,
            state.stacks,
            tuple(p.vp for p in state.players),
            tuple(p.supply for p in state.players),
            state.done_events,
            state.end_triggered,
        )

    def reads_outcome(self, state: State) -> bool:
        """An achievement turned up (R-ACH-8), an event laid in the row (R-ACH-6), or tiles drawn
        and laid face up (R-ACT-EXP-1: the draw and then where they lie)."""
        return isinstance(state.pending, RevealPending | EventRevealPending | DrawPending | PlacePending)

    def not_yet_margin(self, state: State) -> float | None:
        """:data:`NOT_YET_MARGIN` while drawn tiles are laid (R-ACT-EXP-1); reveals keep the
        tracker's margin (a tile read unsure of its side is asked about, against "not turned yet")."""
        return NOT_YET_MARGIN if isinstance(state.pending, DrawPending | PlacePending) else None

    def starts_turn(self, move: Move) -> bool:
        """A tile taken from the row (R-TURN-1)."""
        return bool(move.takes_slot)

    def turn_of(self, state: State) -> Hashable:
        """The turn counter."""
        return state.turn

    def invisible_answer(self, state: State) -> bool:
        """An event waits for an answer (R-EVT)."""
        return state.pending.kind == PendingKind.EVENT

    # --- timing rules ----------------------------------------------------------------------------
    def extendable(self, before: State, last: Move) -> bool:
        """True when ``last`` (played from ``before``) could still be growing on the table: a Movement
        with steps left, a relocation or restore short of its maximum, or any choice of a tile
        showing a hand (R-TURN-4) whose visible part so far — the tile moved to the end of the row —
        is also the start of an achievement."""
        seat = before.pending.seat
        row_only = isinstance(last, Explore) or (
            isinstance(last, Movement | Offspring) and not (getattr(last, "place", ()) or _members_of(last))
        )
        if row_only:
            tile = before.row[last.slot - 1]  # type: ignore[attr-defined]
            if not tile.event and before.profile.action_tile(tile.tile).hand and _may_claim(before, seat):
                return True
        if isinstance(last, Movement):
            k = intensity(before, seat, "movement")
            used = movement_cost(before.players[seat], last.delta) if last.delta else 0
            return 0 <= used < k and before.players[seat].members_on_map > 0
        if isinstance(last, Offspring) and not last.place:
            k = intensity(before, seat, "offspring")
            return sum(n for _, n in last.relocate if n > 0) < k
        if isinstance(last, Restore) and isinstance(before.pending, RestorePending):
            return len(last.hexes) < before.pending.count
        return False

    def split_unclear(self, start: State, moves: Sequence[Move]) -> int:
        """Where the chain stops being certain: the index of the first of two moves that both change
        one player's members (the table shows only the sum, and other splits between the two may be
        legal too), or -1 when there is no such pair."""
        first: dict[int, int] = {}
        before = start
        for i, m in enumerate(moves):
            seat = before.pending.seat
            if m.kind in ("off", "mov", "lose", "gain"):  # even an empty one may hide part of the other's change
                if seat in first:
                    return first[seat]
                first[seat] = i
            before = self.rules.apply(before, m)
        return -1

    def unverified(
        self,
        start: State,
        moves: Sequence[Move],
        end: State,
        evidence: Evidence,
        seating: Seating,
        hidden: frozenset[str],
        recent: set[Key],
    ) -> list[str]:
        """Lands (``land:<layout seat>``) the moves act on but which the window did not read in full (a
        land hidden, or a tile of it out of view). A land whose tiles (before and after the moves)
        were all read is checked in full even if empty hexes around it are out of view: members
        stand only on tiles, and a tile laid out of view leaves the draw unexplained."""
        seen = {k[1] for k in evidence.facts if k[0] in ("land", "members")}
        part = {int(r.split(":")[1]) for r in hidden if r.startswith("land:") and r.split(":")[1].isdigit()}
        out: list[int] = []
        before = start
        for m in moves:
            seat = before.pending.seat
            if not m.chance or m.kind == "draw":
                ls = seating.layout_seats[seat]
                acts = m.kind not in ("evt", "exp") and ls not in out
                if acts and (ls not in seen or (ls in part and not _tiles_read(recent, ls, before, end, seat))):
                    out.append(ls)
            before = self.rules.apply(before, m)
        return [f"land:{ls}" for ls in out]

    def watched_regions(
        self, hidden: Iterable[str], state: State | None, recent: set[Key], seating: Seating
    ) -> list[str]:
        """Hidden lands; with ``state``, only those with a tile not among the ``recent`` reads (a land
        whose every tile was read hides at most empty hexes around it)."""
        lands = [r for r in hidden if r.startswith("land:")]
        if state is None:
            return lands
        return [r for r in lands if not self._land_read(r, state, recent, seating)]

    def _land_read(self, region: str, state: State, recent: set[Key], seating: Seating) -> bool:
        ls = int(region[5:]) if region[5:].isdigit() else -1
        g = seating.game_seat(ls)
        return g is not None and _tiles_read(recent, ls, state, state, g)

    # --- words -----------------------------------------------------------------------------------
    def describe_region(self, region: str, names: Mapping[int, str]) -> str:
        """``land:2`` → "Ada's land"."""
        if region.startswith("land:") and region[5:].isdigit():
            return f"{names.get(int(region[5:]), region)}'s land"
        return region

    def describe_key(self, key: Key, names: Mapping[int, str] | None = None) -> str:
        """:func:`games.tribes.tracker.facts.describe_key`."""
        return F.describe_key(key, names)

    def describe_value(self, key: Key, value: Any) -> str:
        """:func:`games.tribes.tracker.facts.describe_value`."""
        return F.describe_value(key, value)

    def key_to_json(self, key: Key) -> list[Any]:
        """Hexes as ``"q,r"``."""
        return [format_hex(k) if isinstance(k, tuple) else k for k in key]


def _may_claim(state: State, seat: int) -> bool:
    """True when ``seat`` could claim some achievement now (R-ACH): only then may a tile showing a
    hand, moved to the end of the row, still become an achievement rather than its action."""
    return any(
        claim_or_none(state, seat, era, col) is not None
        for era, tiles in enumerate(state.board, start=1)
        for col in range(len(tiles))
    )


def _members_of(m: Move) -> object:
    return getattr(m, "relocate", ()) or getattr(m, "delta", ())


def _tiles_read(read: set[Key], ls: int, before: State, after: State, seat: int) -> bool:
    """True when the members on every tile of game seat ``seat`` (layout seat ``ls``) in both states
    are among the facts ``read``."""
    tiles = set(before.players[seat].land) | set(after.players[seat].land)
    return all(("members", ls, h) in read for h in tiles)


POLICY = TribesPolicy()
