"""Helpers of the Origo tests: a tiny board, positions built field by field, moves applied in
notation."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

from games.origo.rules.board import Board, default_board, parse_board
from games.origo.rules.engine import apply, new_game
from games.origo.rules.moves import parse_move
from games.origo.rules.state import FREE, Founding, Phase, State

# A 4x3 board: three lands of 3 fields and a sea of 3 fields.
#      A   B   C   D
#  1   L1  L1  S1  S1
#  2   L1  L2  S1  L3
#  3   L2  L2  L3  L3
TINY: dict[str, Any] = {
    "format": "origo-board",
    "version": 1,
    "name": "tiny test board",
    "_source": "provisional: a test board",
    "components": {
        "hand_size": 10,
        "shields_per_player": {"2": 10, "3": 8},
        "shields_by_colour": {"red": 10, "blue": 10, "black": 10},
        "shields_total": 30,
        "cards": {"row": 5},
        "cards_total": 5,
    },
    "regions": [
        {"id": "L1", "kind": "land", "name": {"de": "Eins", "en": "One"}, "size": 3},
        {"id": "L2", "kind": "land", "name": {"de": "Zwei", "en": "Two"}},
        {"id": "L3", "kind": "land", "name": {"de": "Drei", "en": "Three"}},
        {"id": "S1", "kind": "sea", "name": {"de": "Meer", "en": "Sea"}},
    ],
    "map": {"rows": ["L1 L1 S1 S1", "L1 L2 S1 L3", "L2 L2 L3 L3"]},
    "founding_track": {
        "max_value": 6,
        "fields": [{"value": 2, "red": False}, {"value": 3, "red": True}, {"value": 4, "red": True}],
    },
    "path": {"length": 20, "start": 0},
}


def tiny_doc() -> dict[str, Any]:
    """A fresh copy of the tiny board's document."""
    return copy.deepcopy(TINY)


def tiny_board(**changes: Any) -> Board:
    """The tiny board (top-level parts replaced by ``changes``)."""
    doc = tiny_doc()
    doc.update(changes)
    return parse_board(doc, "tiny board")


def start(names: tuple[str, ...] = ("Ann", "Bob"), board: Board | None = None) -> State:
    """A new game on ``board`` (default: the tiny one)."""
    colours = ("red", "blue", "black", "green", "orange")
    return new_game([(n, colours[i]) for i, n in enumerate(names)], board or tiny_board())


def default_start(names: tuple[str, ...] = ("Ann", "Bob")) -> State:
    """A new game on the shipped board."""
    colours = ("red", "blue", "black", "green", "orange")
    return new_game([(n, colours[i]) for i, n in enumerate(names)], default_board())


def setup(
    state: State,
    fields: dict[str, str] | None = None,
    founded: tuple[str, ...] = (),
    **changes: Any,
) -> State:
    """``state`` with shields on ``fields`` (field -> player name, taken from the supply) and the lands
    ``founded`` founded (by the first player, value 0, not red); other fields of the state in
    ``changes``."""
    owners = list(state.owners)
    supply = list(state.supply)
    for name, who in (fields or {}).items():
        idx = state.board.find(name)
        seat = state.seat_of(who)
        assert idx is not None and seat is not None, (name, who)
        assert owners[idx] == FREE
        owners[idx] = seat
        supply[seat] -= 1
    fds = []
    for land in founded:
        ri = state.board.region(land)
        assert ri is not None
        fds.append(Founding(ri, 0, 0, False))
    base = {"owners": tuple(owners), "supply": tuple(supply), "founded": (*state.founded, *fds)}
    base.update(changes)
    return replace(state, **base)


def play(state: State, *moves: str) -> State:
    """``state`` after the moves written in notation."""
    for text in moves:
        state = apply(state, parse_move(text))
    return state


def fill_all_but(state: State, keep_free: tuple[str, ...], who: str = "Ann") -> State:
    """Every field except ``keep_free`` holds ``who``'s shield."""
    names = [c.name for c in state.board.cells if c.name not in keep_free]
    return setup(state, {n: who for n in names})


__all__ = ["TINY", "Phase", "default_start", "fill_all_but", "play", "setup", "start", "tiny_board", "tiny_doc"]
