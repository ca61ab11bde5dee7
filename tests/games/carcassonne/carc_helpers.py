"""Test helpers: small hand-made box profiles and positions built from them.

``T(...)`` writes a tile type in a short form; ``profile(...)`` makes a valid profile document around
some tiles; ``build(...)`` makes a position (through the position reader, so every tile is checked
by H-PLACE-1..3 as it is laid again); ``play(state, *texts)`` applies moves in notation."""

from __future__ import annotations

from typing import Any

from games.carcassonne.rules.engine import apply
from games.carcassonne.rules.moves import parse_move
from games.carcassonne.rules.position import state_from_dict
from games.carcassonne.rules.state import State
from games.carcassonne.rules.tiles import BoxProfile, parse_profile

PLAYERS = ("Rot", "Blau", "Gelb", "Grün")
RED, BLUE, YELLOW, GREEN = 0, 1, 2, 3


def T(
    tid: str,
    edges: str,
    count: int = 1,
    forests: tuple[Any, ...] = (),
    rivers: tuple[str, ...] = (),
    lakes: tuple[int, ...] = (),
    meadows: tuple[Any, ...] = (),
) -> dict[str, Any]:
    """A tile type: forests ``"NE"`` or ``("N", {"gold": 1})``; rivers ``"EW"`` (through), ``"E>lake"``,
    ``"E>lake1"``, ``"E>spring"``; lakes as fish counts; meadows ``"N E SW"`` or ``("N", {"deer": 1})``."""
    doc: dict[str, Any] = {"id": tid, "count": count, "edges": edges}
    if forests:
        doc["forests"] = []
        for f in forests:
            sides, extra = (f, {}) if isinstance(f, str) else f
            doc["forests"].append({"sides": list(sides), **extra})
    if rivers:
        doc["rivers"] = []
        for r in rivers:
            if ">" in r:
                sides, end = r.split(">")
                entry: dict[str, Any] = {"sides": list(sides), "end": "spring" if end == "spring" else "lake"}
                if end.startswith("lake") and end != "lake":
                    entry["lake"] = int(end[4:])
            else:
                entry = {"sides": list(r)}
            doc["rivers"].append(entry)
    if lakes:
        doc["lakes"] = [{"fish": n} for n in lakes]
    if meadows:
        doc["meadows"] = []
        for m in meadows:
            sides, extra = (m, {}) if isinstance(m, str) else m
            doc["meadows"].append({"sides": sides.split(), **extra})
    return doc


START_MEADOW = T("S", "MMMM", meadows=("N E S W",))
FILLER = T("fill", "MMMM", count=10, meadows=("N E S W",))
LAKE_E1 = T("lakeE1", "MRMM", count=3, rivers=("E>lake",), lakes=(1,), meadows=("N E S W",))
LAKE_W2 = T("lakeW2", "MMMR", rivers=("W>lake",), lakes=(2,), meadows=("N E S W",))
RIVER_EW = T("riverEW", "MRMR", count=4, rivers=("EW",), meadows=("N EN WN", "ES S WS"))
SPRING_W = T("springW", "FMMR", count=2, forests=("N",), rivers=("W>spring",), meadows=("E S W",))
FOREST_N = T("forestN", "FMMM", count=8, forests=("N",), meadows=("E S W",))
FOREST_NS = T("forestNS", "FMFM", count=4, forests=("NS",), meadows=("E", "W"))
FOREST_N_GOLD = T("forestNg", "FMMM", forests=(("N", {"gold": 2}),), meadows=("E S W",))


def profile(
    land: list[dict[str, Any]],
    bonus: list[dict[str, Any]] | None = None,
    start: dict[str, Any] | None = None,
    members: int = 5,
    huts: int = 2,
) -> dict[str, Any]:
    """A valid profile document with these tiles (the component totals are their counts)."""
    st = dict(start or START_MEADOW)
    st.pop("count", None)
    bonus = bonus or []
    return {
        "format": "carcassonne-box-profile",
        "version": 1,
        "name": "test box",
        "_source": "provisional: a test profile",
        "components": {
            "land_tiles": sum(t["count"] for t in land),
            "bonus_tiles": sum(t["count"] for t in bonus),
            "members_per_player": members,
            "huts_per_player": huts,
        },
        "start": st,
        "land": land,
        "bonus": bonus,
    }


def build(
    doc: dict[str, Any],
    tiles: list[tuple[Any, ...]],
    figures: list[tuple[int, str, int, str]] = (),  # type: ignore[assignment]
    drawn: str | None = None,
    phase: str | None = None,
    players: int = 4,
    to_move: int = 0,
    cult: tuple[int, ...] = (),
) -> State:
    """A position: ``tiles`` as ``(id, x, y, rot)`` after the start tile (which lies on 0,0 r0),
    ``figures`` as ``(seat, role, tile number, spot)`` (tile 0 is the start tile; ``cult``: indexes of
    figures that are cult hunters), ``drawn`` the tile to lay now."""
    prof: BoxProfile = parse_profile(doc, "test profile")
    used: dict[str, int] = {}
    laid = [{"tile": prof.tiles[prof.start].id, "at": [0, 0], "rot": 0, "by": None}]
    for t in tiles:
        tid, x, y, rot = t[:4]
        laid.append({"tile": tid, "at": [x, y], "rot": rot, "by": t[4] if len(t) > 4 else 0})
        used[tid] = used.get(tid, 0) + 1
    if drawn is not None:
        used[drawn] = used.get(drawn, 0) + 1
    stacks: dict[str, dict[str, int]] = {"land": {}, "bonus": {}}
    for t in prof.tiles:
        if t.group != "start":
            left = t.count - used.get(t.id, 0)
            assert left >= 0, f"the test profile has too few {t.id}"
            stacks[t.group][t.id] = left
    on_map = [0] * players
    huts_on = [0] * players
    figs = []
    for i, (seat, role, tno, spot) in enumerate(figures):
        figs.append({"seat": seat, "role": role, "tile": tno, "spot": spot, **({"cult": True} if i in cult else {})})
        if role == "hut":
            huts_on[seat] += 1
        else:
            on_map[seat] += 1
    if phase is None:
        if drawn is None:
            phase = "draw"
        else:
            phase = "bonus-place" if prof.tiles[prof.index[drawn]].group == "bonus" else "place"
    doc_pos = {
        "format": "carcassonne-position",
        "version": 1,
        "profile": doc,
        "players": [
            {
                "name": PLAYERS[i],
                "colour": "grey",
                "score": 0,
                "members": prof.members - on_map[i],
                "huts": prof.huts - huts_on[i],
            }
            for i in range(players)
        ],
        "phase": phase,
        "to_move": to_move,
        "turn": 5,
        "drawn": drawn,
        "stacks": stacks,
        "removed": [],
        "tiles": laid,
        "figures": figs,
        "log": [],
    }
    return state_from_dict(doc_pos, None, "test position")


def play(state: State, *texts: str) -> State:
    """Apply moves written in notation."""
    for t in texts:
        state = apply(state, parse_move(t))
    return state
