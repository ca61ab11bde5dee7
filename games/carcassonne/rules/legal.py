"""The legal-move view, chance outcomes and the placement overview the page and the prompt show.

:class:`LegalMoves` is lazy (python-chess style): iterating it lays each candidate placement in a
throw-away transaction to find its figure spots; ``in`` checks one move; nothing is generated before
it is asked for. :func:`overview` lists every legal placement of the drawn tile with each figure spot,
allowed or refused with the clause that forbids it.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Iterator
from itertools import accumulate
from typing import Any

from games.carcassonne.rules.engine import check, lay, placements, spot_options
from games.carcassonne.rules.moves import Discard, Draw, Move, Place
from games.carcassonne.rules.state import Phase, State
from games.carcassonne.rules.tiles import BoxProfile, cell_xy


def sorted_placements(state: State) -> list[tuple[int, int, int, int]]:
    """``(x, y, rotation, cell)`` of every legal placement, by square then rotation."""
    out = []
    for cell, r in placements(state):
        x, y = cell_xy(cell)
        out.append((x, y, r, cell))
    out.sort()
    return out


class LegalMoves:
    """The legal moves of one state, generated on demand."""

    def __init__(self, state: State) -> None:
        self.state = state

    def __iter__(self) -> Iterator[Move]:
        s = self.state
        prof = s.profile
        if s.phase is Phase.DRAW or s.phase is Phase.BONUS_DRAW:
            bonus = s.phase is Phase.BONUS_DRAW
            for i in prof.bonus if bonus else prof.land:
                if s.bag[i]:
                    yield Draw(prof.tiles[i].id, bonus)
            return
        if s.phase is Phase.OVER:
            return
        pl = sorted_placements(s)
        if not pl:
            yield Discard()
            return
        for x, y, r, cell in pl:
            yield Place(x, y, r)
            for opt in spot_options(s, lay(s, cell, r)):
                if opt.allowed:
                    yield Place(x, y, r, opt.role, opt.spot)

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Draw | Place | Discard) and check(self.state, move) is None

    def __bool__(self) -> bool:
        return self.state.phase is not Phase.OVER

    def count(self) -> int:
        """How many legal moves there are."""
        return sum(1 for _ in self)

    def placements(self) -> list[Place]:
        """The legal placements without a figure."""
        return [Place(x, y, r) for x, y, r, _ in sorted_placements(self.state)]


def legal_moves(state: State) -> LegalMoves:
    """The lazy legal-move view of ``state``."""
    return LegalMoves(state)


def chance_outcomes(state: State) -> list[tuple[Draw, float]]:
    """Every tile that can be drawn now with its probability (by the counts left in the stack)."""
    prof = state.profile
    if state.phase is Phase.DRAW:
        left, kinds, bonus = state.land_left, prof.land, False
    elif state.phase is Phase.BONUS_DRAW:
        left, kinds, bonus = state.bonus_left, prof.bonus, True
    else:
        return []
    return [(Draw(prof.tiles[i].id, bonus), state.bag[i] / left) for i in kinds if state.bag[i]]


_DRAWS: dict[str, tuple[Draw, ...]] = {}


def draw_moves(prof: BoxProfile) -> tuple[Draw, ...]:
    """The draw move of every tile type, by profile index (made once per profile)."""
    out = _DRAWS.get(prof.digest)
    if out is None:
        out = tuple(Draw(t.id, t.group == "bonus") for t in prof.tiles)
        _DRAWS[prof.digest] = out
    return out


def sample_chance(state: State, rng: random.Random) -> Draw:
    """A tile drawn at random from the stack (simulations only; a real game reports it)."""
    prof = state.profile
    if state.phase is Phase.DRAW:
        left, kinds = state.land_left, prof.land
    elif state.phase is Phase.BONUS_DRAW:
        left, kinds = state.bonus_left, prof.bonus
    else:
        raise ValueError(f"no tile is drawn now ({state.phase})")
    lo = kinds[0]  # the types of a stack are contiguous in the profile
    cum = list(accumulate(state.bag[lo : kinds[-1] + 1]))
    return draw_moves(prof)[lo + bisect_right(cum, int(rng.random() * left))]


def overview(state: State) -> list[dict[str, Any]]:
    """Every legal placement of the drawn tile with its figure spots — allowed ones and refused ones
    with the clause and reason (the page highlights them; the prompt lists them)."""
    out = []
    for x, y, r, cell in sorted_placements(state):
        laid = lay(state, cell, r)
        out.append(
            {
                "at": [x, y],
                "rot": r,
                "move": str(Place(x, y, r)),
                "spots": [
                    {
                        "role": str(o.role),
                        "spot": o.spot,
                        "allowed": o.allowed,
                        "move": str(Place(x, y, r, o.role, o.spot)),
                        **({"clause": o.clause, "reason": o.reason} if not o.allowed else {}),
                    }
                    for o in spot_options(state, laid)
                ],
            }
        )
    return out


__all__ = [
    "LegalMoves",
    "chance_outcomes",
    "draw_moves",
    "legal_moves",
    "overview",
    "sample_chance",
    "sorted_placements",
]
