"""Scores and ranking: the live score of every player and the final order (O-SCORE-1…3).

The points themselves are entered by the table (tribe scorings and the final scoring are not in the
fragment); the companion adds them up, shows the leader's field and the shields, and ranks players
by total points, then by the leader farther on the path (companion's choice).
"""

from __future__ import annotations

from typing import Any

from games.api import Standing
from games.origo.rules.state import State


def scores(state: State) -> list[dict[str, Any]]:
    """Per seat: total (tribe + final points), the parts, the leader's field, lands founded, shields
    on the board, in the supply and out of the game, cards in hand."""
    return [
        {
            "seat": i,
            "name": s.name,
            "colour": s.colour,
            "total": state.tribe[i] + state.final[i],
            "tribe": state.tribe[i],
            "final": state.final[i],
            "leader": state.leader[i],
            "lands_founded": sum(1 for f in state.founded if f.seat == i),
            "on_board": state.on_board(i),
            "supply": state.supply[i],
            "out": state.out[i],
            "hand": state.hands[i],
        }
        for i, s in enumerate(state.seats)
    ]


def ranking(state: State) -> list[Standing]:
    """Most points, then the leader farther on the path; players level on both share the place."""
    key = [(state.tribe[i] + state.final[i], state.leader[i]) for i in range(state.n)]
    order = sorted(range(state.n), key=lambda i: (-key[i][0], -key[i][1], i))
    out: list[Standing] = []
    for k, i in enumerate(order):
        place = out[-1].place if k and key[order[k - 1]] == key[i] else k + 1
        out.append(Standing(place, i, state.name(i), key[i][0], (("leader", key[i][1]),)))
    return out


__all__ = ["ranking", "scores"]
