"""Simulated players: ``random`` and ``greedy``, deterministic from their seed (simulations, tests and
the benchmark; a real game's moves come from the table)."""

from __future__ import annotations

import random
from collections.abc import Mapping

from games.api import PlayerFactory
from games.carcassonne.rules.engine import apply, free_spots, lay, placements, projected
from games.carcassonne.rules.moves import Discard, Move, Place
from games.carcassonne.rules.state import CHUNK_BITS, CHUNK_MASK, FIG_BITS, FIG_MASK, Phase, State, find
from games.carcassonne.rules.tiles import SEG_FOREST, Role, cell_xy

PROBES = 8
"""Random squares a random player tries before it lists every placement."""


def _decision(state: State) -> None:
    if state.phase not in (Phase.PLACE, Phase.BONUS_PLACE):
        raise ValueError(f"a simulated player decides only where to lay a tile, not at {state.phase}")


class RandomPlayer:
    """Lays the drawn tile on a random legal square and rotation, then takes one of the allowed
    figures or none, each equally likely."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Move:
        _decision(state)
        rnd = self.rng.random
        fits = state.profile.compiled[state.drawn].fits
        frontier = state.frontier
        cells = list(frontier)
        found = None
        for _ in range(PROBES):
            cell = cells[int(rnd() * len(cells))]
            rots = fits[frontier[cell][0]]
            if rots:
                found = (cell, rots[int(rnd() * len(rots))])
                break
        if found is None:
            pl = placements(state)
            if not pl:
                return Discard()
            found = pl[int(rnd() * len(pl))]
        cell, rot = found
        x, y = cell_xy(cell)
        opts = free_spots(state, lay(state, cell, rot))
        k = int(rnd() * (len(opts) + 1))
        if k == len(opts):
            return Place(x, y, rot)
        role, spot = opts[k]
        return Place(x, y, rot, role, spot)


def potential(state: State, seat: int) -> float:
    """Half of what the player's gatherers and fishers would score if their forests and rivers were
    completed now (the greedy player's look ahead)."""
    dsu = state.dsu
    n = len(state.seats)
    total = 0.0
    seen: set[int] = set()
    for f in state.figures:
        if f.seat != seat or f.role not in (Role.GATHERER, Role.FISHER):
            continue
        r = find(dsu.nodes, f.node)
        if r in seen:
            continue
        seen.add(r)
        info = dsu.nodes[r >> CHUNK_BITS][r & CHUNK_MASK]
        counts = [(info[2] >> (FIG_BITS * i)) & FIG_MASK for i in range(n)]
        if counts[seat] < max(counts):
            continue
        tiles = info[4].bit_count()
        if info[0] == SEG_FOREST:
            value = 2 * tiles + 2 * (info[5] >> 8)
        else:
            value = tiles + sum(fish for _, fish in set(info[5]))
        total += value / 2
    return total


def value(state: State, seat: int) -> float:
    """How good ``state`` is for ``seat``: projected final score plus look-ahead, against the best
    other player."""
    proj = projected(state)
    mine = proj[seat] + potential(state, seat) + 0.3 * (state.members[seat] if not state.is_over else 0)
    others = [proj[i] + potential(state, i) for i in range(len(proj)) if i != seat]
    return mine - (max(others) if others else 0.0)


class GreedyPlayer:
    """Tries every legal placement with every allowed figure (or none) and keeps the one with the best
    :func:`value`; ties go to a seeded random pick."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Move:
        _decision(state)
        pl = placements(state)
        if not pl:
            return Discard()
        seat = state.to_move
        best: list[Move] = []
        best_value = float("-inf")
        for cell, rot in pl:
            x, y = cell_xy(cell)
            cands: list[Move] = [Place(x, y, rot)]
            cands += [Place(x, y, rot, role, spot) for role, spot in free_spots(state, lay(state, cell, rot))]
            for mv in cands:
                v = value(apply(state, mv), seat)
                if v > best_value + 1e-9:
                    best_value, best = v, [mv]
                elif v > best_value - 1e-9:
                    best.append(mv)
        return best[self.rng.randrange(len(best))]


POLICIES: Mapping[str, PlayerFactory] = {"random": RandomPlayer, "greedy": GreedyPlayer}


__all__ = ["POLICIES", "GreedyPlayer", "RandomPlayer", "potential", "value"]
