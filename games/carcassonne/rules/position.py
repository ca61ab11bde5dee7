"""Position documents (``carcassonne-position``, version 1) and game settings, both ways.

A position lists the laid tiles in the order they were laid, the figures on them, the stacks, the
supplies, scores and the score log (docs/carcassonne.md, "Positions"). Reading one lays the tiles
again (each must touch the map and continue its edges: H-PLACE-1..3), puts the figures back and
checks that tiles, figures and points add up: a corrupt document is one :class:`PositionError`
naming the field, never a half-read state. ``state_from_dict(state_to_dict(s)) == s``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from datafile import DataFileError as _BaseDataFileError
from datafile import Reader, show
from games.api import Seat
from games.carcassonne.rules.engine import _Txn, new_game
from games.carcassonne.rules.errors import PositionError
from games.carcassonne.rules.moves import ROLE_LETTERS
from games.carcassonne.rules.state import EMPTY_DSU, Figure, FrontierEntry, Phase, Placement, ScoreEvent, State
from games.carcassonne.rules.tiles import (
    SEG_FOREST,
    SEG_RIVER,
    BoxProfile,
    Role,
    cell_key,
    profile_spec,
    resolve_profile,
)

POSITION_FORMAT = "carcassonne-position"
POSITION_VERSION = 1
FEATURES = ("forest", "river", "hunters", "huts")
_KEYS = (
    "format",
    "version",
    "profile",
    "players",
    "phase",
    "to_move",
    "turn",
    "drawn",
    "stacks",
    "removed",
    "tiles",
    "figures",
    "log",
)


def state_to_dict(state: State) -> dict[str, Any]:
    """The position document of ``state``."""
    prof = state.profile
    return {
        "format": POSITION_FORMAT,
        "version": POSITION_VERSION,
        "profile": profile_spec(prof),
        "players": [
            {
                "name": s.name,
                "colour": s.colour,
                "score": state.scores[i],
                "members": state.members[i],
                "huts": state.huts[i],
            }
            for i, s in enumerate(state.seats)
        ],
        "phase": str(state.phase),
        "to_move": state.to_move,
        "turn": state.turn,
        "drawn": prof.tiles[state.drawn].id if state.drawn >= 0 else None,
        "stacks": {
            "land": {prof.tiles[i].id: state.bag[i] for i in prof.land},
            "bonus": {prof.tiles[i].id: state.bag[i] for i in prof.bonus},
        },
        "removed": [prof.tiles[i].id for i in state.removed],
        "tiles": [
            {"tile": prof.tiles[p.kind].id, "at": [p.x, p.y], "rot": p.rot, "by": p.by if p.by >= 0 else None}
            for p in state.placements()
        ],
        "figures": [
            {"seat": f.seat, "role": str(f.role), "tile": f.tile, "spot": f.spot, **({"cult": True} if f.cult else {})}
            for f in state.figures
        ],
        "log": [e.to_dict() for e in state.log],
    }


def _seat(rd: Reader, val: Any, path: str, n: int) -> int:
    return rd.integer(val, path, 0, n - 1)


def state_from_dict(
    data: Any, profile: Any = None, source: str = "<position>", folder: str | Path | None = None
) -> State:
    """Read a position document; ``profile`` (None: the one the document names) is the box profile
    it is read with. :class:`PositionError` names the source and field."""
    rd = Reader(source, PositionError)
    doc = rd.obj(data, "")
    if doc.get("format") != POSITION_FORMAT:
        raise rd.fail("format", f"must be {POSITION_FORMAT!r}, got {show(doc.get('format'))}")
    if doc.get("version") != POSITION_VERSION:
        raise rd.fail("version", f"must be {POSITION_VERSION}, got {show(doc.get('version'))}")
    rd.only(doc, _KEYS, "")
    try:
        prof = resolve_profile(profile if profile is not None else doc.get("profile", "default"), source, folder)
    except _BaseDataFileError as exc:
        raise PositionError(
            exc.source, exc.field if exc.source != source else f"profile.{exc.field}", exc.reason
        ) from None
    players = rd.list(rd.get(doc, "players", ""), "players", 2, 5)
    n = len(players)
    seats, scores, members, huts = [], [], [], []
    for i, p in enumerate(players):
        path = f"players[{i}]"
        p = rd.obj(p, path)
        rd.only(p, ("name", "colour", "score", "members", "huts"), path)
        seats.append(
            Seat(
                rd.text(rd.get(p, "name", path), f"{path}.name", max_len=40),
                rd.text(rd.get(p, "colour", path, "grey"), f"{path}.colour", max_len=20),
            )
        )
        scores.append(rd.integer(rd.get(p, "score", path), f"{path}.score", 0, 100000))
        members.append(rd.integer(rd.get(p, "members", path), f"{path}.members", 0, prof.members))
        huts.append(rd.integer(rd.get(p, "huts", path), f"{path}.huts", 0, prof.huts))
    phase = Phase(rd.choice(rd.get(doc, "phase", ""), "phase", [ph.value for ph in Phase]))
    to_move = _seat(rd, rd.get(doc, "to_move", ""), "to_move", n)
    turn = rd.integer(rd.get(doc, "turn", ""), "turn", 1, 100000)
    # stacks
    bag = [0] * len(prof.tiles)
    stacks = rd.obj(rd.get(doc, "stacks", ""), "stacks")
    rd.only(stacks, ("land", "bonus"), "stacks")
    for group in ("land", "bonus"):
        st = rd.obj(rd.get(stacks, group, "stacks"), f"stacks.{group}")
        for tid, cnt in st.items():
            k = prof.index.get(tid, -1)
            if k < 0 or prof.tiles[k].group != group:
                raise rd.fail(f"stacks.{group}.{tid}", f"is no {group} tile of the profile")
            bag[k] = rd.integer(cnt, f"stacks.{group}.{tid}", 0, prof.tiles[k].count)

    def kind_of(val: Any, path: str, groups: tuple[str, ...]) -> int:
        tid = rd.text(val, path)
        k = prof.index.get(tid, -1)
        if k < 0 or prof.tiles[k].group not in groups:
            raise rd.fail(path, f"{tid!r} is no {' or '.join(groups)} tile of the profile")
        return k

    drawn_raw = rd.get(doc, "drawn", "", None)
    drawn = -1 if drawn_raw is None else kind_of(drawn_raw, "drawn", ("land", "bonus"))
    removed = tuple(
        kind_of(v, f"removed[{i}]", ("land", "bonus"))
        for i, v in enumerate(rd.list(rd.get(doc, "removed", "", []), "removed"))
    )
    # tiles, laid again in order
    raw_tiles = rd.list(rd.get(doc, "tiles", ""), "tiles", 1)
    txn = _Txn(EMPTY_DSU)
    frontier: dict[int, FrontierEntry] = {}
    cons: Any = None
    used = [0] * len(prof.tiles)
    placed: list[Placement] = []
    for i, t in enumerate(raw_tiles):
        path = f"tiles[{i}]"
        t = rd.obj(t, path)
        rd.only(t, ("tile", "at", "rot", "by"), path)
        k = kind_of(rd.get(t, "tile", path), f"{path}.tile", ("start",) if i == 0 else ("land", "bonus"))
        at = rd.pair(rd.get(t, "at", path), f"{path}.at", "a square [x, y]")
        x = rd.integer(at[0], f"{path}.at[0]", -1000, 1000)
        y = rd.integer(at[1], f"{path}.at[1]", -1000, 1000)
        rot = rd.integer(rd.get(t, "rot", path), f"{path}.rot", 0, 3)
        by_raw = rd.get(t, "by", path, None)
        by = -1 if by_raw is None else _seat(rd, by_raw, f"{path}.by", n)
        if i == 0 and (x, y) != (0, 0):
            raise rd.fail(f"{path}.at", "the start tile lies on 0,0 (H-SET-1)")
        cell = cell_key(x, y)
        comp = prof.compiled[k]
        if i == 0:
            sides: Any = (None, None, None, None)
        else:
            entry = frontier.get(cell)
            if entry is None:
                raise rd.fail(
                    f"{path}.at", f"square {x},{y} is taken or touches no earlier tile with a side (H-PLACE-1)"
                )
            if rot not in comp.fits[entry[0]]:
                raise rd.fail(path, f"{prof.tiles[k].id} turned r{rot} does not continue the edges there (H-PLACE-3)")
            sides = entry[1]
        base = txn.lay(comp, rot, cell, sides, i, frontier)
        used[k] += 1
        p = Placement(i, x, y, k, rot, base, by)
        placed.append(p)
        cons = (p, cons)
    # tiles add up (H-COMP-1)
    for k in removed:
        used[k] += 1
    if drawn >= 0:
        used[drawn] += 1
    for k, t in enumerate(prof.tiles):
        if t.group == "start":
            continue
        if used[k] + bag[k] != t.count:
            raise rd.fail(
                f"stacks.{t.group}.{t.id}",
                f"{bag[k]} in the stack + {used[k]} laid, drawn or removed makes {bag[k] + used[k]}, "
                f"but the box has {t.count}",
            )
    land_left = sum(bag[k] for k in prof.land)
    bonus_left = sum(bag[k] for k in prof.bonus)
    # phase
    if phase in (Phase.PLACE, Phase.BONUS_PLACE):
        want = "land" if phase is Phase.PLACE else "bonus"
        if drawn < 0 or prof.tiles[drawn].group != want:
            raise rd.fail("drawn", f"phase {phase} lays a drawn {want} tile")
    elif drawn >= 0:
        raise rd.fail("drawn", f"must be null in phase {phase}")
    if phase is Phase.DRAW and land_left == 0:
        raise rd.fail("phase", "no land tile is left to draw: the game is over (H-END-1)")
    if phase is Phase.OVER and land_left > 0:
        raise rd.fail("phase", f"{land_left} land tiles are still in the stack (H-END-1)")
    if phase is Phase.BONUS_DRAW and bonus_left == 0:
        raise rd.fail("phase", "the bonus stack is empty (H-GOLD-1)")
    # figures
    figures: list[Figure] = []
    on_map_members = [0] * n
    on_map_huts = [0] * n
    for i, f in enumerate(rd.list(rd.get(doc, "figures", "", []), "figures")):
        path = f"figures[{i}]"
        f = rd.obj(f, path)
        rd.only(f, ("seat", "role", "tile", "spot", "cult"), path)
        seat = _seat(rd, rd.get(f, "seat", path), f"{path}.seat", n)
        role = Role(rd.choice(rd.get(f, "role", path), f"{path}.role", [r.value for r in Role]))
        tno = rd.integer(rd.get(f, "tile", path), f"{path}.tile", 0, len(placed) - 1)
        spot = rd.text(rd.get(f, "spot", path), f"{path}.spot")
        p = placed[tno]
        comp = prof.compiled[p.kind]
        local = comp.spot_local.get(spot, -1)
        if local < 0:
            raise rd.fail(f"{path}.spot", f"tile {tno} ({prof.tiles[p.kind].id}) has no spot {spot!r}")
        if spot[0] not in ROLE_LETTERS[role]:
            raise rd.fail(f"{path}.role", f"a {role} cannot stand on spot {spot} (H-FIG-4)")
        cult = rd.boolean(rd.get(f, "cult", path, False), f"{path}.cult")
        if cult and not (role is Role.HUNTER and comp.cult[local]):
            raise rd.fail(f"{path}.cult", "only a hunter on a cult site's meadow is a cult hunter (H-BONUS-4)")
        g = p.base + local
        seg_kind = comp.seg_kind[local]
        if seg_kind in (SEG_FOREST, SEG_RIVER) and role is not Role.HUT and txn.get(txn.find(g))[3] == 0:
            raise rd.fail(
                path,
                f"a {role} on a completed {'forest' if seg_kind == SEG_FOREST else 'river'} "
                "would have gone home (H-RET-1)",
            )
        txn.add_figure(g, seat, role, cult)
        figures.append(Figure(seat, role, tno, spot, g, cult))
        if role is Role.HUT:
            on_map_huts[seat] += 1
        else:
            on_map_members[seat] += 1
    for i in range(n):
        if members[i] + on_map_members[i] != prof.members:
            raise rd.fail(
                f"players[{i}].members",
                f"{members[i]} in the supply + {on_map_members[i]} on the map, "
                f"but a player has {prof.members} (H-SET-3)",
            )
        if huts[i] + on_map_huts[i] != prof.huts:
            raise rd.fail(
                f"players[{i}].huts",
                f"{huts[i]} in the supply + {on_map_huts[i]} on the map, but a player has {prof.huts} (H-SET-3)",
            )
    # score log
    log = tuple(
        _event(rd, e, f"log[{i}]", n, len(placed)) for i, e in enumerate(rd.list(rd.get(doc, "log", "", []), "log"))
    )
    for i in range(n):
        total = sum(e.points for e in log if i in e.winners)
        if total != scores[i]:
            raise rd.fail(f"players[{i}].score", f"is {scores[i]}, but the score log gives {total}")
    return State(
        prof,
        tuple(seats),
        phase,
        to_move,
        turn,
        drawn,
        tuple(bag),
        land_left,
        bonus_left,
        removed,
        tuple(scores),
        tuple(members),
        tuple(huts),
        tuple(figures),
        log,
        cons,
        len(placed),
        frontier,
        txn.commit(),
    )


def _event(rd: Reader, node: Any, path: str, n: int, ntiles: int) -> ScoreEvent:
    e = rd.obj(node, path)
    rd.only(e, ("turn", "feature", "tiles", "points", "winners", "figures", "detail", "by", "gold"), path)
    feature = rd.choice(rd.get(e, "feature", path), f"{path}.feature", list(FEATURES))
    tiles = tuple(
        rd.integer(t, f"{path}.tiles[{j}]", 0, ntiles - 1)
        for j, t in enumerate(rd.list(rd.get(e, "tiles", path), f"{path}.tiles"))
    )
    winners = tuple(
        _seat(rd, w, f"{path}.winners[{j}]", n)
        for j, w in enumerate(rd.list(rd.get(e, "winners", path), f"{path}.winners", 0, n))
    )
    if len(set(winners)) != len(winners):
        raise rd.fail(f"{path}.winners", "names a seat twice")
    figs = tuple(
        rd.integer(v, f"{path}.figures[{j}]", 0, 99)
        for j, v in enumerate(rd.list(rd.get(e, "figures", path), f"{path}.figures", n, n))
    )
    detail_raw = rd.obj(rd.get(e, "detail", path, {}), f"{path}.detail")
    detail = tuple((k, rd.integer(v, f"{path}.detail.{k}", 0, 100000)) for k, v in detail_raw.items())
    by_raw = rd.get(e, "by", path, -1)
    by = rd.integer(by_raw, f"{path}.by", -1, n - 1)
    return ScoreEvent(
        rd.integer(rd.get(e, "turn", path), f"{path}.turn", 1, 100000),
        feature,
        tiles,
        rd.integer(rd.get(e, "points", path), f"{path}.points", 0, 100000),
        winners,
        figs,
        detail,
        by,
        rd.boolean(rd.get(e, "gold", path, False), f"{path}.gold"),
    )


def settings_for(players: list[tuple[str, str]], profile: BoxProfile) -> dict[str, Any]:
    """Settings of a new game: the players in seat order and the box profile."""
    return {"players": [{"name": nm, "colour": c} for nm, c in players], "profile": profile_spec(profile)}


def state_from_settings(
    settings: Mapping[str, Any], source: str = "settings", profile: Any = None, base: str | Path | None = None
) -> State:
    """The state before the first move of a game with these settings (or its starting position)."""
    rd = Reader(source, PositionError)
    rd.obj(settings, "")
    try:
        prof = resolve_profile(
            profile if profile is not None else settings.get("profile", "default"), source, base
        )
    except _BaseDataFileError as exc:
        raise PositionError(exc.source, exc.field, exc.reason) from None
    if settings.get("start") is not None:
        return state_from_dict(settings["start"], prof, f"{source}: settings.start")
    raw = rd.list(rd.get(settings, "players", "settings"), "settings.players", 2, 5)
    players = []
    for i, p in enumerate(raw):
        path = f"settings.players[{i}]"
        p = rd.obj(p, path)
        players.append(
            (
                rd.text(rd.get(p, "name", path), f"{path}.name", max_len=40),
                rd.text(p.get("colour", "grey"), f"{path}.colour", max_len=20),
            )
        )
    return new_game(players, prof)


__all__ = ["POSITION_FORMAT", "settings_for", "state_from_dict", "state_from_settings", "state_to_dict"]
