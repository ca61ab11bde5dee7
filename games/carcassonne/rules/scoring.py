"""Scores as the table sees them: the live breakdown per player and per feature, the projected final
score if the game ended now, and the ranking (H-END-2)."""

from __future__ import annotations

from typing import Any

from games.api import Standing
from games.carcassonne.rules.engine import final_events, projected
from games.carcassonne.rules.state import CHUNK_BITS, CHUNK_MASK, ScoreEvent, State, find, majority, unpack_figs
from games.carcassonne.rules.tiles import SEG_FOREST, Role

PARTS = ("forest", "river", "hunters", "huts")
PART_NAMES = {"forest": "forests", "river": "rivers", "hunters": "hunters", "huts": "huts"}


def _parts(events: tuple[ScoreEvent, ...] | list[ScoreEvent], n: int) -> list[dict[str, int]]:
    out = [{PART_NAMES[p]: 0 for p in PARTS} for _ in range(n)]
    for e in events:
        for w in e.winners:
            out[w][PART_NAMES[e.feature]] += e.points
    return out


def scoreboard(state: State) -> list[dict[str, Any]]:
    """Per seat: the total so far with its parts (forests, rivers and — once over — hunters and huts)
    and the projected final score with its parts if the game ended now."""
    n = len(state.seats)
    now = _parts(state.log, n)
    final = [] if state.is_over else final_events(state)
    proj_parts = _parts([*state.log, *final], n)
    proj = projected(state)
    return [
        {
            "seat": i,
            "name": s.name,
            "colour": s.colour,
            "total": state.scores[i],
            **now[i],
            "members": state.members[i],
            "huts_left": state.huts[i],
            "projected": proj[i],
            "projected_parts": proj_parts[i],
        }
        for i, s in enumerate(state.seats)
    ]


def features(state: State) -> list[dict[str, Any]]:
    """Every scored feature (the score log) and every feature that holds figures now, with what it is
    worth: a forest or river if completed now, a meadow or river system in the final scoring now."""
    out: list[dict[str, Any]] = []
    for e in state.log:
        out.append({"status": "final" if e.by < 0 else "completed", **e.to_dict()})
    if state.is_over:
        return out
    n = len(state.seats)
    dsu = state.dsu
    seen: set[int] = set()
    for f in state.figures:
        if f.role not in (Role.GATHERER, Role.FISHER):
            continue
        r = find(dsu.nodes, f.node)
        if r in seen:
            continue
        seen.add(r)
        info = dsu.nodes[r >> CHUNK_BITS][r & CHUNK_MASK]
        figs = unpack_figs(info[2], n)
        tiles = info[4].bit_count()
        if info[0] == SEG_FOREST:
            value = 2 * tiles + 2 * (info[5] >> 8)
            detail = {"tiles": tiles, "mushrooms": info[5] >> 8, "gold": info[5] & 0xFF}
            feature = "forest"
        else:
            fish = sum(fi for _, fi in set(info[5]))
            value = tiles + fish
            detail = {"tiles": tiles, "fish": fish}
            feature = "river"
        out.append(
            {
                "status": "open",
                "feature": feature,
                "tiles": _tiles(info[4]),
                "open_edges": info[3],
                "points_if_completed": value,
                "leaders": list(majority(figs)),
                "figures": figs,
                "detail": detail,
            }
        )
    for e in final_events(state):
        out.append({"status": "projected", **e.to_dict()})
    return out


def _tiles(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def ranking(state: State) -> list[Standing]:
    """Most points first; players level on points share the place (H-END-2, companion's choice: the
    rules name no tie-break)."""
    order = sorted(range(len(state.seats)), key=lambda i: (-state.scores[i], i))
    out = []
    place = 0
    for k, i in enumerate(order):
        if k == 0 or state.scores[i] != state.scores[order[k - 1]]:
            place = k + 1
        out.append(Standing(place, i, state.seats[i].name, state.scores[i]))
    return out


__all__ = ["features", "ranking", "scoreboard"]
