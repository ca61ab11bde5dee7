"""Helpers for the Stone Age tests: new games, applying moves by notation, crafted positions."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path

from games.stoneage.plugin import GAME, state_from_settings
from games.stoneage.rules.engine import apply, generate, settle
from games.stoneage.rules.moves import parse_move
from games.stoneage.rules.profile import parse_profile
from games.stoneage.rules.state import State, Work

RULES = GAME.rules
PROFILE_FILE = Path(__file__).resolve().parents[3] / "games" / "stoneage" / "profiles" / "default.json"
NAMES = ["Ann", "Bob", "Cid", "Dee"]
CARDS4 = ["c01", "c03", "c12", "c20"]
"""Round-1 display used by most tests: 7 food/pottery (cost 1), 3 points/3 hut builders (2),
one-time tool 4/1 tool maker (3), dice bar/1 farmer (4)."""
TOPS = ["b01", "b21", "b18", "b05"]
"""Building tops: b01 2 wood + 1 clay (10), b21 4 of 1 kind, b18 1-7 any, b05 wood+clay+stone (12)."""


def raw_profile() -> dict:
    """A fresh copy of the default profile document."""
    return json.loads(PROFILE_FILE.read_text(encoding="utf-8"))


def profile_with(**changes) -> object:
    """The default profile with changes at dotted paths: ``profile_with(**{"board.capacity.wood": 3})``."""
    doc = copy.deepcopy(raw_profile())
    for path, val in changes.items():
        node = doc
        parts = path.split(".")
        for p in parts[:-1]:
            node = node[int(p)] if p.isdigit() else node[p]
        last = parts[-1]
        node[int(last) if last.isdigit() else last] = val
    return parse_profile(doc, "test profile")


def play(state: State, *moves: str) -> State:
    """Apply moves written in notation."""
    for m in moves:
        state = apply(state, parse_move(m))
    return state


def new(n: int = 4, profile=None, order=None) -> State:
    """A new game of ``n`` players (waiting for the first card)."""
    settings = {"players": [{"name": NAMES[i], "colour": "red"} for i in range(n)]}
    if profile is not None:
        settings["profile"] = dict(profile.raw)
    if order is not None:
        settings["order"] = order
    return state_from_settings(settings)


def started(n: int = 4, cards=CARDS4, tops=TOPS, profile=None) -> State:
    """A game of ``n`` with the round-1 display and building tops revealed: Ann to place."""
    s = new(n, profile)
    return play(s, *(f"reveal {c}" for c in cards), *(f"reveal {b}" for b in tops[:n]))


def with_player(state: State, seat: int, **fields) -> State:
    """``state`` with fields of one player replaced (``res=(2, 1, 0, 0)``, ``tools=(2, 1)`` …)."""
    players = list(state.players)
    players[seat] = replace(players[seat], **fields)
    return replace(state, players=tuple(players))


def settled(state: State) -> State:
    """``state`` after the engine's automatic steps."""
    w = Work(state)
    settle(w)
    return w.freeze()


def moves_of(state: State) -> list[str]:
    """The legal moves in notation."""
    return [str(m) for m in generate(state)]


def place_all(state: State, *moves: str) -> State:
    """Apply placements (alias of :func:`play`, for readability)."""
    return play(state, *moves)


def acting(n: int = 4, placed: dict | None = None, fields: dict | None = None, **state_fields) -> State:
    """A game of ``n`` in section 2 with the given people on places (``{seat: {place: k}}``; the last
    seat hunts with 1 unless told) and player fields (``{seat: {"res": (…)}}``); carrying out starts
    with the start player (seat 0)."""
    s = started(n)
    from games.stoneage.rules.state import Phase, place_index

    idx = place_index(len(s.display), len(s.tops))
    placed = dict(placed or {})
    placed.setdefault(n - 1, {"hunt": 1})  # the last player keeps the round going
    for seat in range(n):
        row = [0] * len(s.names)
        for name, k in placed.get(seat, {}).items():
            row[idx[name]] = k
        s = with_player(s, seat, placed=tuple(row), **(fields or {}).get(seat, {}))
    s = replace(s, phase=Phase.ACT, actor=0, **state_fields)
    return settled(s)
