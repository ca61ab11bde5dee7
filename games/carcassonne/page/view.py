"""JSON views of a Hunters & Gatherers game for the page (the Python side of its PageModule).

Everything is plain data the browser module draws schematically: the map of laid tiles (per tile its
square, rotation and segments with the sides and half-sides they reach *on the map*, and what is
drawn on them: lakes with fish, gold, mushrooms, deer, mammoths, tigers, aurochs, fire, cult site),
the figures, the drawn tile with its legal placements and figure spots (refused ones with the clause
and reason), scores with a breakdown per feature, the projected final score and the tiles left.
"""

from __future__ import annotations

from typing import Any

from datafile.provenance import provisional_paths
from games.carcassonne.plugin import INFO, prompt
from games.carcassonne.rules import legal, scoring
from games.carcassonne.rules.engine import context
from games.carcassonne.rules.errors import InvalidMoveError
from games.carcassonne.rules.moves import Discard, Draw, Move, Place, parse_move
from games.carcassonne.rules.position import state_to_dict
from games.carcassonne.rules.state import Phase, State
from games.carcassonne.rules.tiles import (
    HALVES,
    SEG_FOREST,
    SEG_MEADOW,
    SEG_RIVER,
    SIDES,
    SPOT_LETTER,
    BoxProfile,
    Role,
    TileType,
)

SEG_VIEW = ("forest", "river", "lake", "meadow")


def tile_on_map(tile: TileType, rot: int) -> dict[str, Any]:
    """A tile type turned ``rot`` quarter turns clockwise: its edges and segments as they lie on the
    map (sides and half-sides already turned)."""
    edges = "".join(tile.edge_text[(d - rot) % 4] for d in range(4))
    segs = []
    for seg in tile.segments:
        view = seg.to_view()
        if seg.sides:
            view["sides"] = [SIDES[(s + rot) % 4] for s in seg.sides]
        if seg.kind == SEG_MEADOW:
            view["halves"] = [HALVES[(h + 2 * rot) % 8] for h in seg.halves]
        segs.append(view)
    return {"tile": tile.id, "group": tile.group, "rot": rot, "edges": edges, "segments": segs}


def map_view(state: State) -> list[dict[str, Any]]:
    """Every laid tile, in laying order, with its segments on the map and the feature each belongs to
    (``feature``: the same number for segments of one forest, river, lake or meadow; forests and
    rivers say whether they are complete)."""
    prof = state.profile
    out = []
    for p in state.placements():
        tile = prof.tiles[p.kind]
        view = tile_on_map(tile, p.rot)
        for local, seg in enumerate(view["segments"]):
            root = state.root(p.base + local)
            seg["feature"] = root
            kind = tile.segments[local].kind
            if kind in (SEG_FOREST, SEG_RIVER):
                seg["complete"] = state.feature(p.base + local)[3] == 0
            if kind == SEG_RIVER or tile.segments[local].kind == 2:
                seg["system"] = state.system_root(p.base + local)
        view.update({"no": p.no, "at": [p.x, p.y], "by": p.by if p.by >= 0 else None})
        out.append(view)
    return out


def figures_view(state: State) -> list[dict[str, Any]]:
    """The figures on the map with their square."""
    where = {p.no: (p.x, p.y) for p in state.placements()}
    return [
        {
            "seat": f.seat,
            "colour": state.seats[f.seat].colour,
            "role": str(f.role),
            "tile": f.tile,
            "at": list(where[f.tile]),
            "spot": f.spot,
            "cult": f.cult,
            "lying": f.role is Role.HUNTER,
        }
        for f in state.figures
    ]


def tiles_left(state: State) -> dict[str, Any]:
    """The stacks by tile type (what is still in the bag), and what left the game."""
    prof = state.profile
    return {
        "land": [{"tile": prof.tiles[i].id, "left": state.bag[i], "of": prof.tiles[i].count} for i in prof.land],
        "bonus": [{"tile": prof.tiles[i].id, "left": state.bag[i], "of": prof.tiles[i].count} for i in prof.bonus],
        "land_left": state.land_left,
        "bonus_left": state.bonus_left,
        "removed": [prof.tiles[i].id for i in state.removed],
    }


def bonus_chain(state: State) -> list[dict[str, Any]]:
    """Every completed forest with gold and what came of it (H-GOLD-1..5): the tile that completed it,
    the bonus tile it gave (laid, still to draw or lay), or why it gave none — a forest completed by a
    bonus tile gives no further one (H-GOLD-3), a second gold forest of the same tile shares the
    turn's one bonus tile (H-GOLD-4), an empty bonus stack gives none (H-GOLD-1) and a bonus tile that
    fits nowhere leaves the game (H-GOLD-5). ``then``: what the bonus tile itself completed.

    The tile that completed a forest is the newest of its tiles (the one just laid), and a bonus tile
    is laid right after the land tile that earned it, so the chain is read off the laying order."""
    prof = state.profile
    laid = state.placements()
    group = [prof.tiles[p.kind].group for p in laid]

    def tile_ref(no: int) -> dict[str, Any]:
        p = laid[no]
        return {"no": no, "tile": prof.tiles[p.kind].id, "at": [p.x, p.y], "group": group[no], "by": p.by}

    by_tile: dict[int, list[Any]] = {}
    for e in state.log:
        if e.by >= 0 and e.tiles:
            by_tile.setdefault(max(e.tiles), []).append(e)
    bonus_removed = [prof.tiles[i].id for i in state.removed if prof.tiles[i].group == "bonus"]
    pending = state.phase in (Phase.BONUS_DRAW, Phase.BONUS_PLACE)
    out: list[dict[str, Any]] = []
    earned: set[int] = set()
    for e in state.log:
        if e.feature != "forest" or not e.gold:
            continue
        c = max(e.tiles)
        entry: dict[str, Any] = {
            "turn": e.turn,
            "by": e.by,
            "player": state.seats[e.by].name,
            "tiles": list(e.tiles),
            "points": e.points,
            "winners": list(e.winners),
            "completed_by": tile_ref(c),
            "bonus": None,
            "then": [],
        }
        if group[c] == "bonus":
            entry.update(status="no-chain", clause="H-GOLD-3")
        elif c in earned:
            entry.update(status="one-per-turn", clause="H-GOLD-4")
        elif c + 1 < len(laid) and group[c + 1] == "bonus":
            entry.update(status="laid", clause="H-GOLD-2", bonus=tile_ref(c + 1))
            entry["then"] = [
                {"feature": x.feature, "points": x.points, "winners": list(x.winners), "gold": x.gold}
                for x in by_tile.get(c + 1, [])
            ]
        elif c + 1 == len(laid) and pending:
            drawn = prof.tiles[state.drawn].id if state.phase is Phase.BONUS_PLACE else None
            entry.update(status="pending", clause="H-GOLD-1", drawn=drawn)
        else:
            entry.update(status="none", clause="H-GOLD-5" if bonus_removed else "H-GOLD-1")
        earned.add(c)
        out.append(entry)
    return out


def state_view(state: State) -> dict[str, Any]:
    """Everything the page draws for one position."""
    prof = state.profile
    position = state_to_dict(state)
    position["profile"] = {"name": prof.name, "digest": prof.digest}
    drawn = None
    if state.drawn >= 0:
        drawn = {
            **prof.tiles[state.drawn].to_view(),
            "rotations": [tile_on_map(prof.tiles[state.drawn], r) for r in range(4)],
        }
    # no "game" key: the shell's view names the game ({"id", "title", "script", ...}) under it
    out: dict[str, Any] = {
        "position": position,
        "prompt": prompt(state),
        "context": context(state),
        "map": map_view(state),
        "figures": figures_view(state),
        "drawn": drawn,
        "scores": scoring.scoreboard(state),
        "features": scoring.features(state),
        "projected": [s["projected"] for s in scoring.scoreboard(state)],
        "tiles_left": tiles_left(state),
        "bonus_chain": bonus_chain(state),
        "over": state.is_over,
    }
    if state.is_over:
        out["ranking"] = [s.to_dict() for s in scoring.ranking(state)]
    return out


def move_to_json(move: Any) -> dict[str, Any]:
    """A move as structured JSON for the page."""
    if isinstance(move, Draw):
        return {"kind": "bonus" if move.bonus else "draw", "tile": move.tile, "text": str(move)}
    if isinstance(move, Place):
        fig = {"role": str(move.role), "spot": move.spot} if move.role is not None else None
        return {"kind": "place", "at": [move.x, move.y], "rot": move.rot, "figure": fig, "text": str(move)}
    if isinstance(move, Discard):
        return {"kind": "discard", "text": str(move)}
    raise TypeError(f"{move!r} is not a Hunters & Gatherers move")


def _int(data: dict[str, Any], key: str, field: str, lo: int, hi: int) -> int:
    val = data.get(key)
    if isinstance(val, bool) or not isinstance(val, int) or not lo <= val <= hi:
        raise InvalidMoveError(f"{field}.{key}: must be an integer {lo}..{hi}, got {val!r}")
    return val


def move_from_json(data: Any, field: str = "move") -> Move:
    """A move from notation text or structured JSON; errors name ``field``."""
    if isinstance(data, str):
        try:
            return parse_move(data)
        except InvalidMoveError as exc:
            raise InvalidMoveError(f"{field}: {exc}") from None
    if not isinstance(data, dict):
        raise InvalidMoveError(
            f"{field}: must be a move in notation or an object with 'kind', got {type(data).__name__}"
        )
    kind = data.get("kind")
    if kind in ("draw", "bonus"):
        tile = data.get("tile")
        if not isinstance(tile, str) or not tile:
            raise InvalidMoveError(f"{field}.tile: must be a tile id, got {tile!r}")
        try:
            return parse_move(f"{kind} {tile}")
        except InvalidMoveError as exc:
            raise InvalidMoveError(f"{field}.tile: {exc}") from None
    if kind == "discard":
        return Discard()
    if kind == "place":
        at = data.get("at")
        if not isinstance(at, list) or len(at) != 2:
            raise InvalidMoveError(f"{field}.at: must be a square [x, y], got {at!r}")
        x = _int({"x": at[0]}, "x", f"{field}.at", -1000, 1000)
        y = _int({"y": at[1]}, "y", f"{field}.at", -1000, 1000)
        rot = _int(data, "rot", field, 0, 3)
        fig = data.get("figure")
        if fig is None:
            return Place(x, y, rot)
        if not isinstance(fig, dict):
            raise InvalidMoveError(f"{field}.figure: must be null or {{'role', 'spot'}}, got {fig!r}")
        try:
            role = Role(str(fig.get("role")))
        except ValueError:
            raise InvalidMoveError(
                f"{field}.figure.role: must be gatherer, fisher, hunter or hut, got {fig.get('role')!r}"
            ) from None
        spot = fig.get("spot")
        if not isinstance(spot, str) or not spot or spot[0] not in SPOT_LETTER or not spot[1:].isdigit():
            raise InvalidMoveError(f"{field}.figure.spot: must be a spot such as f0, r1, l0, m2, got {spot!r}")
        return Place(x, y, rot, role, spot)
    raise InvalidMoveError(f"{field}.kind: must be draw, bonus, place or discard, got {kind!r}")


def catalog(profile: BoxProfile) -> dict[str, Any]:
    """The box's tile types as the page draws them, each with its provenance and provisional mark."""
    prov = set(provisional_paths(profile.raw, profile.provenance))
    out_tiles = []
    for t in profile.tiles:
        view = t.to_view()
        view["source"] = profile.source_of(t.path)
        view["provisional"] = any(p == t.path or p.startswith(t.path + ".") for p in prov)
        view["path"] = t.path
        out_tiles.append(view)
    return {
        "game": INFO.id,
        "name": profile.name,
        "digest": profile.digest,
        "components": {
            "land_tiles": profile.land_total,
            "bonus_tiles": profile.bonus_total,
            "members_per_player": profile.members,
            "huts_per_player": profile.huts,
        },
        "tiles": out_tiles,
        "provisional": len(prov),
    }


def chance_view(state: State) -> dict[str, Any]:
    """The draws the table may report now, with how many of each are left."""
    stack = "land" if state.phase is Phase.DRAW else "bonus" if state.phase is Phase.BONUS_DRAW else None
    return {
        "stack": stack,
        "outcomes": [
            {"move": str(m), "tile": m.tile, "left": state.bag[state.profile.index[m.tile]], "probability": p}
            for m, p in legal.chance_outcomes(state)
        ],
    }


__all__ = [
    "bonus_chain",
    "catalog",
    "chance_view",
    "map_view",
    "move_from_json",
    "move_to_json",
    "state_view",
    "tile_on_map",
]
