"""The naive baseline: moves read straight off the difference between settled frames, no reasoning.

What a camera companion does without legal-move reasoning: on the first settled frame after a hand
left, compare the picture with the table the record predicts and read the move off the difference in
the most direct way — the tile that went to the end of the row names the action, members that
appeared are the Offspring, members that moved the Movement, new tiles the draw and the placement, a
new stone the achievement, the tile turned up the reveal, a new event in the row the revealed event.
No fusion of frames (one frame decides), no stability window, no search among alternatives, no scoring
with the confidences, no takebacks. The runtime still refuses an illegal move; that, or a difference
it cannot read, is reported as a desync.

It has the same interface as :class:`tracker.tracker.Tracker` so the evaluation can run both on the
same footage (``benchmarks/tracker_eval.py --naive``) and show what the reasoning buys.
"""

from __future__ import annotations

import time as _time
from typing import Any

from games.tribes.rules.engine import apply
from games.tribes.rules.errors import IllegalMoveError, InvalidMoveError
from games.tribes.rules.hexgrid import START_TRIANGLE
from games.tribes.rules.moves import (
    Achieve,
    Draw,
    Exhaust,
    Explore,
    Gain,
    Lose,
    Move,
    Movement,
    Offspring,
    Pick,
    Place,
    PlaceFirst,
    Restore,
    Reveal,
    RevealEvent,
    Setup,
    TakeEvent,
)
from games.tribes.rules.pending import (
    DrawPending,
    EventPending,
    EventRevealPending,
    PendingKind,
    PlacePending,
    RestorePending,
    RevealPending,
)
from games.tribes.rules.profile import BOARD_COLUMNS
from games.tribes.rules.state import State
from games.tribes.tracker.facts import Seating, observation_facts, table_view, value_of
from games.tribes.vision.observation import Observation
from tracker.tracker import Action, Desync, GameView, Option, Status, TrackerConfig, Update


class NaiveTracker:
    """See the module docstring."""

    def __init__(self, seating: Seating, config: TrackerConfig | None = None, policy: Any = None) -> None:
        self.seating = seating
        self.config = config or TrackerConfig()
        self.policy = policy
        self._read_since_hand = False
        self._desync: Desync | None = None
        self.status = Status("idle", "no game yet", 0.0)

    def reset(self) -> None:
        """Forget everything."""
        self._read_since_hand = False
        self._desync = None

    def forget_questions(self) -> None:
        """Close the open desync."""
        self._desync = None

    def dismiss(self, prompt_id: int) -> bool:
        """The naive tracker never asks."""
        return False

    def update(self, obs: Observation, game: GameView | None) -> Update:
        """Read one observation (see the module docstring)."""
        t0 = _time.perf_counter()
        upd = self._update(obs, game)
        self.status = upd.status
        return Update(upd.status, upd.action, _time.perf_counter() - t0)

    def _update(self, obs: Observation, game: GameView | None) -> Update:
        t = obs.time
        if game is None:
            return Update(Status("idle", "no game yet", t))
        if self._desync and self._desync.state_id != game.state_id:
            self._desync = None
        if not obs.registered or not obs.settled:
            self._read_since_hand = False
            return Update(Status("hand", "hand in view", t, hand=obs.hand_in_view, desync=self._desync))
        if self._read_since_hand:
            kind = "desync" if self._desync else "watching"
            return Update(Status(kind, "", t, desync=self._desync))
        self._read_since_hand = True
        seen = {k: r[0] for k, r in observation_facts(obs, self.seating.colours).items()}
        moves = read_moves(game.state, seen, self.seating)
        end = game.state
        for m in moves:
            try:
                end = apply(end, m)
            except IllegalMoveError:
                break
        view = table_view(end, self.seating)
        left = [k for k, v in seen.items() if value_of(view, k) != v]
        action = Action("commit", tuple(moves)) if moves else None
        if left:
            self._desync = Desync(0, game.state_id, (), Option(()), (), f"{len(left)} facts differ from the game", t)
            return Update(Status("desync", self._desync.message, t, desync=self._desync), action)
        self._desync = None
        return Update(Status("watching", "committed" if moves else "no change", t), action)


def _members(seen: dict[Any, Any], seat: int, colour: str) -> dict[Any, int]:
    out = {}
    for k, v in seen.items():
        if k[0] == "members" and k[1] == seat:
            out[k[2]] = dict(v).get(colour, 0)
    return out


def read_moves(state: State, seen: dict[Any, Any], seating: Seating) -> list[Move]:
    """The moves read off the difference between ``seen`` (fact values) and ``state``, step by step
    as the game asks for them ([] when nothing can be read)."""
    out: list[Move] = []
    s = state
    for _ in range(8):
        try:
            m = _read_one(s, seen, seating)
        except InvalidMoveError:  # members read appearing or vanishing in a movement: not a move
            break
        if m is None:
            break
        out.append(m)
        try:
            s = apply(s, m)
        except IllegalMoveError:
            return out  # submitted as read: the runtime refuses it
    return out


def _read_one(s: State, seen: dict[Any, Any], seating: Seating) -> Move | None:
    pend = s.pending
    kind = pend.kind
    if kind == PendingKind.SETUP:
        return _setup(s, seen, seating)
    if kind == PendingKind.GAME_OVER:
        return None
    seat = pend.seat
    ls = seating.layout_seats[seat]
    p = s.players[seat]
    colour = p.colour
    members = _members(seen, ls, colour)
    diff = {h: members[h] - (p.land[h].members if h in p.land else 0) for h in members}
    diff = {h: d for h, d in diff.items() if d}
    new_tiles = {
        k[2]: v
        for k, v in seen.items()
        if k[0] == "land" and k[1] == ls and v is not None and v[0] is not None and k[2] not in p.land
    }
    if kind == PendingKind.FIRST_MEMBER:
        for h, d in diff.items():
            if d > 0 and h in p.land:
                return PlaceFirst(h)
        return None
    if kind == PendingKind.CHOOSE:
        row = [(rt.tile, rt.event) for rt in s.row]
        slot = None
        for i, t in enumerate(row, start=1):
            if seen.get(("slot", i)) != t:
                slot = i
                break
        if slot is None:
            return None
        tile = s.row[slot - 1]
        if tile.event:
            return TakeEvent(slot)
        act = s.profile.action_tile(tile.tile)
        if act.hand:
            for e, era in enumerate(s.board, start=1):
                for c, bt in enumerate(era):
                    st = seen.get(("stones", e, c))
                    if bt.tile and seat not in bt.stones and st and colour in st:
                        jokers = tuple(
                            h
                            for h, t in p.land.items()
                            if not t.exhausted and (v := seen.get(("land", ls, h))) and v[1]
                        )
                        arrow_seen = seen.get(("arrow", colour))
                        arrow = None
                        if arrow_seen and p.arrow:
                            lower = arrow_seen[0]
                            arrow = s.board[lower[0] - 1][lower[1]].tile
                        return Achieve(slot, bt.tile, jokers, arrow)
        if act.action == "offspring":
            if p.supply > 0:
                return Offspring(slot, tuple(h for h, d in sorted(diff.items()) if d > 0 for _ in range(d)))
            return Offspring(slot, relocate=tuple(sorted(diff.items())))
        if act.action == "movement":
            return Movement(slot, tuple(sorted(diff.items())))
        return Explore(slot)
    if isinstance(pend, DrawPending):
        if not new_tiles:
            return None
        return Draw(tuple(v[0] for v in new_tiles.values()))
    if isinstance(pend, PlacePending):
        if not new_tiles:
            return None
        return Place(tuple((h, v[0]) for h, v in new_tiles.items()))
    if isinstance(pend, RestorePending):
        return Restore(
            tuple(h for h, t in p.land.items() if t.exhausted and (v := seen.get(("land", ls, h))) and not v[1])
        )
    if isinstance(pend, RevealPending):
        tile = seen.get(("board", pend.era, pend.col))
        return Reveal(tile) if tile else None
    if isinstance(pend, EventRevealPending):
        in_row = {rt.tile for rt in s.row}
        for k, v in seen.items():
            if k[0] == "slot" and v and v[1] and v[0] not in in_row:
                return RevealEvent(v[0])
        return None
    if isinstance(pend, EventPending):
        lost = tuple(h for h, d in sorted(diff.items()) if d < 0 for _ in range(-d))
        gained = tuple(h for h, d in sorted(diff.items()) if d > 0 for _ in range(d))
        flipped = tuple(
            h for h, t in p.land.items() if (v := seen.get(("land", ls, h))) is not None and v[1] != t.exhausted
        )
        if lost:
            return Lose(lost)
        if gained:
            return Gain(gained)
        if flipped:
            return Exhaust(flipped) if all(not p.land[h].exhausted for h in flipped) else Restore(flipped)
        return Pick(1)
    return None


def _setup(s: State, seen: dict[Any, Any], seating: Seating) -> Setup | None:
    row = [seen.get(("slot", i)) for i in range(1, len(s.profile.action_tiles) + 1)]
    era1 = [seen.get(("board", 1, c)) for c in range(BOARD_COLUMNS)]
    if not all(row) or not all(era1):
        return None
    lands = []
    for g in range(s.n):
        trio = [seen.get(("land", seating.layout_seats[g], h)) for h in START_TRIANGLE]
        if not all(trio):
            return None
        lands.append(tuple(v[0] for v in trio))
    return Setup(tuple(v[0] for v in row), tuple(era1), tuple(lands))  # type: ignore[arg-type]
