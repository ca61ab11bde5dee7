"""Simulated players: a uniformly random player and a simple greedy one.

A policy answers the decision the state waits for with a legal move. :class:`RandomPolicy` picks
uniformly among the top-level options of the legal-move overview (each tile with each of its
actions, each claimable achievement) and then draws the details at random, so it plays whole games
quickly. :class:`GreedyPolicy` scores candidate moves by a one-move look-ahead. Both are seeded and
deterministic.
"""

from __future__ import annotations

import random
from typing import Protocol

from games.tribes.rules.checks import Claim, claim_or_none, intensity
from games.tribes.rules.engine import apply, effect_at, effect_choices, restore_candidates
from games.tribes.rules.hexgrid import Hex, frontier, neighbours
from games.tribes.rules.moves import (
    Achieve,
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
    TakeEvent,
    delta_of,
)
from games.tribes.rules.pending import EventPending, PendingKind, PlacePending, RestorePending
from games.tribes.rules.scoring import score_breakdown
from games.tribes.rules.state import State


class Policy(Protocol):
    """Chooses a legal decision for the state's actor."""

    def choose(self, state: State) -> Move:  # pragma: no cover - protocol
        ...


def claims(state: State, seat: int) -> list[Claim]:
    """Every achievement the player could claim now (ignoring which hand tile they take)."""
    key = ("claims", seat)
    out: list[Claim] | None = state._cache.get(key)
    if out is None:
        out = []
        if state.stones_used(seat) < state.profile.stones_per_player:
            for era, row in enumerate(state.board, start=1):
                for col, bt in enumerate(row):
                    if bt.tile is not None and seat not in bt.stones:
                        c = claim_or_none(state, seat, era, col)
                        if c is not None:
                            out.append(c)
        state._cache[key] = out
    return out


def top_options(state: State) -> list[tuple[int, str, Claim | None]]:
    """The (slot, kind, claim) choices open to the player to move: the overview's granularity."""
    seat = state.to_move
    prof = state.profile
    opts: list[tuple[int, str, Claim | None]] = []
    my_claims: list[Claim] | None = None
    shells = state.players[seat].shells
    for slot, tile in enumerate(state.row, start=1):
        if slot - 1 > shells:
            break  # R-TURN-2: every later slot costs more
        if tile.event:
            opts.append((slot, "evt", None))
            continue
        act = prof.action_tile(tile.tile)
        opts.append((slot, act.action[:3], None))
        if act.hand:
            if my_claims is None:
                my_claims = claims(state, seat)
            opts.extend((slot, "ach", c) for c in my_claims)
    return opts


def _random_delta_walk(state: State, seat: int, steps: int, rng: random.Random) -> list[tuple[Hex, Hex]]:
    land = state.players[seat].land
    members = {h: t.members for h, t in land.items() if t.members}
    transfers = []
    for _ in range(steps):
        src = rng.choice(sorted(members))
        dsts = [n for n in neighbours(src) if n in land]
        if not dsts:
            break
        dst = rng.choice(dsts)
        members[src] -= 1
        if not members[src]:
            del members[src]
        members[dst] = members.get(dst, 0) + 1
        transfers.append((src, dst))
    return transfers


def random_detail(state: State, slot: int, kind: str, claim: Claim | None, rng: random.Random) -> Move:
    """A random legal move for one top-level option."""
    seat = state.to_move
    p = state.players[seat]
    if kind == "evt":
        return TakeEvent(slot)
    if kind == "exp":
        return Explore(slot)
    if kind == "off":
        k = intensity(state, seat, "offspring")
        occ = p.occupied()
        if p.supply > 0:
            return Offspring(slot, tuple(rng.choice(occ) for _ in range(min(k, p.supply))))
        members = {h: p.land[h].members for h in occ}
        moved = []
        for _ in range(rng.randint(0, k)):
            src = rng.choice([h for h, n in members.items() if n])
            dst = rng.choice(occ)
            members[src] -= 1
            members[dst] += 1
            moved.append((src, dst))
        return Offspring(slot, relocate=delta_of(moved))
    if kind == "mov":
        k = intensity(state, seat, "movement")
        return Movement.of(slot, _random_delta_walk(state, seat, rng.randint(0, k), rng))
    assert claim is not None
    jokers = tuple(rng.sample(claim.joker_candidates, claim.jokers_needed)) if claim.jokers_needed else ()
    arrow = None
    if claim.arrow_from:
        e, c = rng.choice(claim.arrow_from)
        arrow = state.board[e - 1][c].tile
    return Achieve(slot, claim.achievement.id, jokers, arrow)


def random_answer(state: State, rng: random.Random) -> Move:
    """A random legal answer for any decision other than choosing a tile."""
    pend = state.pending
    p = state.players[pend.seat]
    if pend.kind == PendingKind.FIRST_MEMBER:
        return PlaceFirst(rng.choice(sorted(p.land)))
    if isinstance(pend, PlacePending):
        land = set(p.land)
        tiles = []
        for r in pend.drawn:
            h = rng.choice(frontier(land))
            land.add(h)
            tiles.append((h, r))
        return Place(tuple(tiles))
    if isinstance(pend, RestorePending):
        cands = restore_candidates(p, occupied_ok=False)
        k = rng.randint(0, min(pend.count, len(cands)))
        return Restore(tuple(rng.sample(cands, k)))
    if isinstance(pend, EventPending):
        eff = effect_at(state.profile.event(pend.event), pend.path)
        outcomes = effect_choices(state, pend.seat, eff)
        assert outcomes
        ans = rng.choice(outcomes)
        if eff.kind == "choose":
            return Pick(int(ans) + 1)  # type: ignore[call-overload]
        cls = {"exhaust": Exhaust, "restore": Restore}.get(eff.kind, Gain if eff.amount > 0 else Lose)
        return cls(ans)  # type: ignore[arg-type]
    raise ValueError(f"no decision to answer: the game waits for {pend.kind}")


class RandomPolicy:
    """Uniform over the top-level options, then random details. Seeded."""

    def __init__(self, seed: int | None = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Move:
        """A random legal decision."""
        if state.pending.kind == PendingKind.CHOOSE:
            slot, kind, claim = self.rng.choice(top_options(state))
            return random_detail(state, slot, kind, claim, self.rng)
        return random_answer(state, self.rng)


class GreedyPolicy:
    """Looks one move ahead: claims the most valuable achievement it can, otherwise grows its tribe
    towards the resources its next achievements need. Deterministic for a seed."""

    def __init__(self, seed: int | None = 0, samples: int = 6) -> None:
        self.rng = random.Random(seed)
        self.samples = samples

    def choose(self, state: State) -> Move:
        """The candidate move with the best heuristic value."""
        if state.pending.kind != PendingKind.CHOOSE:
            return self._answer(state)
        best: tuple[float, Move] | None = None
        for slot, kind, claim in top_options(state):
            for move in self._candidates(state, slot, kind, claim):
                val = self._value(state, move)
                if best is None or val > best[0]:
                    best = (val, move)
        assert best is not None
        return best[1]

    def _candidates(self, state: State, slot: int, kind: str, claim: Claim | None) -> list[Move]:
        if kind in ("evt", "exp", "ach"):
            return [random_detail(state, slot, kind, claim, self.rng)]
        return [random_detail(state, slot, kind, claim, self.rng) for _ in range(self.samples)]

    def _answer(self, state: State) -> Move:
        seat = state.pending.seat
        best: tuple[float, Move] | None = None
        for _ in range(self.samples):
            move = random_answer(state, self.rng)
            after = apply(state, move)
            val = self._position(after, seat)
            if best is None or val > best[0]:
                best = (val, move)
        assert best is not None
        return best[1]

    def _value(self, state: State, move: Move) -> float:
        seat = state.to_move
        if isinstance(move, Explore):
            after = apply(state, move)
            k = getattr(after.pending, "count", 0)
            return self._position(state, seat) + 0.9 * k - (move.slot - 1) * 0.8
        after = apply(state, move)
        bonus = 0.0
        if isinstance(move, TakeEvent):
            bonus -= 0.5
        return self._position(after, seat) + bonus

    def _position(self, state: State, seat: int) -> float:
        """Heuristic worth of a position for ``seat``: score now plus what it enables."""
        p = state.players[seat]
        score = score_breakdown(state, seat).total
        occupied = {t.resource for t in p.land.values() if t.members and not t.exhausted}
        spread = sum(1 for t in p.land.values() if t.members and not t.exhausted)
        tracks = sum(p.tracks[:3]) * 0.8 + p.tracks[3] * 0.6
        return score + 0.6 * len(occupied) + 0.35 * spread + 0.15 * (15 - p.supply) + 0.25 * p.shells + tracks
