"""Builders for test positions: write only what a test is about, the rest gets sensible defaults."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from games.tribes.rules.chance import sample_chance
from games.tribes.rules.engine import apply
from games.tribes.rules.moves import Move, parse_move
from games.tribes.rules.profile import default_profile, parse_profile
from games.tribes.rules.state import State

DEFAULT_ROW = ["off", "mov", "exp", "off-ach", "mov-ach", "exp-ach"]
DEFAULT_ERA1 = ["jagen", "kochen", "toepfern", "schmuck"]


def land(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """``{"0,0": "goat:2", "1,0": "horse", "0,1": "wheat:x"}`` -> position land entries.

    After the resource: ``:N`` members, ``x`` exhausted (e.g. ``"wheat:1x"``).
    """
    out = []
    for key, val in spec.items():
        q, r = (int(v) for v in key.split(","))
        res, _, rest = val.partition(":")
        exhausted = rest.endswith("x")
        members = int(rest.rstrip("x") or 0)
        out.append({"hex": [q, r], "resource": res, "exhausted": exhausted, "members": members})
    return out


def player(name: str, spec: dict[str, str] | None = None, **kw: Any) -> dict[str, Any]:
    """A position player; ``supply`` defaults to 15 minus the members on the land."""
    tiles = land(spec or {"0,0": "goat:1", "1,0": "horse", "0,1": "wheat"})
    members = sum(t["members"] for t in tiles)
    tracks = kw.pop("tracks", {})
    out = {
        "name": name,
        "colour": kw.pop("colour", {"A": "red", "B": "blue", "C": "yellow", "D": "black"}.get(name, "red")),
        "supply": kw.pop("supply", 15 - members),
        "shells": kw.pop("shells", 5),
        "vp": kw.pop("vp", 0),
        "tracks": tracks,
        "arrow": kw.pop("arrow", True),
        "land": tiles,
    }
    assert not kw, f"unknown player fields {kw}"
    return out


def position(
    players: list[dict[str, Any]] | None = None,
    row: list[Any] | None = None,
    board: list[list[Any]] | None = None,
    **kw: Any,
) -> dict[str, Any]:
    """A position document (choose, seat 0 by default). ``row`` items: action id, ``"evt:<id>"``,
    optionally ``"+N"`` shells (``"exp+2"``). ``board`` rows: tile id or None, optionally ``"id:0,1"``
    stones by seat."""
    if players is None:
        players = [player("A"), player("B", {"0,0": "gold:1", "1,0": "incense", "0,1": "goat"})]
    row_out = []
    for item in row or DEFAULT_ROW:
        tile, _, shells = item.partition("+")
        entry: dict[str, Any] = {"event": tile[4:]} if tile.startswith("evt:") else {"tile": tile}
        entry["shells"] = int(shells or 0)
        row_out.append(entry)
    if board is None:
        board = [DEFAULT_ERA1, [None] * 4, [None] * 4]
    board_out = []
    for brow in board:
        out_row = []
        for cell in brow:
            if cell is None:
                out_row.append({"tile": None, "stones": []})
                continue
            tile, _, stones = cell.partition(":")
            out_row.append({"tile": tile, "stones": [int(s) for s in stones.split(",") if s]})
        board_out.append(out_row)
    doc: dict[str, Any] = {
        "format": "tribes-position",
        "version": 1,
        "profile": kw.pop("profile", "default"),
        "players": players,
        "row": row_out,
        "board": board_out,
        "pending": kw.pop("pending", {"kind": "choose", "seat": 0}),
    }
    doc.update(kw)
    doc.setdefault("to_move", doc["pending"]["seat"])
    return doc


def state(**kw: Any) -> State:
    """A State from :func:`position` arguments (``profile=`` may be a BoxProfile)."""
    prof = kw.pop("profile_obj", None)
    return State.from_dict(position(**kw), prof)


def play(s: State, *moves: str | Move) -> State:
    """Apply moves in order."""
    for m in moves:
        s = apply(s, parse_move(m) if isinstance(m, str) else m)
    return s


def profile_variant(**changes: Any) -> Any:
    """A copy of the default profile document with top-level sections replaced or patched."""
    raw = copy.deepcopy(json.loads(json.dumps(default_profile().raw)))
    for key, val in changes.items():
        if callable(val):
            val(raw)
        else:
            raw[key] = val
    return parse_profile(raw, "test profile")


def random_game(
    seed: int, players: int, policy: str = "random", max_moves: int = 20000
) -> tuple[list[State], list[Move]]:
    """A complete simulated game: the states and the moves between them."""
    from games.tribes.rules.game import simulate

    game = simulate(players, seed, policy, max_moves=max_moves)
    return game.states, game.moves


def advance_chance(s: State, seed: int = 0) -> State:
    """Resolve pending chance nodes with a seeded sampler."""
    rng = random.Random(seed)
    while s.is_chance:
        s = apply(s, sample_chance(s, rng))
    return s
