"""A hex of a starting triangle always holds a tile (R-SET-3 lays it at setup; no rule takes a tile
off a land): where the tile model reads one empty — a pile of members or a changed light hid it — the
land reader reports a tile of an unsure type and walks on from it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tests.games.tribes.vision.camera_scenes as cs
from games.tribes.rules.hexgrid import START_TRIANGLE
from games.tribes.rules.profile import default_profile
from games.tribes.vision.enrollment import EMPTY
from games.tribes.vision.layout import default_layout
from games.tribes.vision.observation import HexReading, observation_from_truth
from games.tribes.vision.readers.land import OUTLINE_CAP, LandReader
from games.tribes.vision.recognizer import Recognizer

SEAT = 3
MOVE = 60  # a position well into the game: seat 3's land has grown to nine tiles


def _bare_start() -> Any:
    """A hex of seat 3's starting triangle that no member stands on (members would show the seat's
    colour, which vouches for a tile on its own)."""
    truth = {(h.seat, h.hex): h for h in observation_from_truth(cs.frame(MOVE).truth).hexes}
    return next(h for h in START_TRIANGLE if truth[(SEAT, h)].tile and not truth[(SEAT, h)].members)


def _read(monkeypatch: pytest.MonkeyPatch, hide_start: bool) -> dict[tuple[int, Any], HexReading]:
    """The frame's hexes, with the tile model made to read :func:`_bare_start` empty when
    ``hide_start`` (the walk reads the starting triangles first, in their order)."""
    row = START_TRIANGLE.index(_bare_start())
    original = LandReader._by_art
    done: list[bool] = []

    def empty_first(
        self: LandReader, cls: Any, probs: np.ndarray, windows: np.ndarray, seat: Any = None, seen: Any = None
    ) -> Any:
        out = original(self, cls, probs, windows, seat, seen)
        if hide_start and seat == SEAT and not done:
            done.append(True)
            p = np.zeros(len(cls.classes))
            p[cls.column(EMPTY)] = 0.97
            p[[k for k in range(len(p)) if cls.classes[k] != EMPTY]] = 0.03 / (len(p) - 1)
            out[row] = (cls.column(EMPTY), 0.97, p)
        return out

    monkeypatch.setattr(LandReader, "_by_art", empty_first)
    rec = Recognizer(default_layout(), default_profile(), cs.enrollment(), stream=False)
    obs = rec.read(cs.frame(MOVE).image)
    assert obs.registered
    return {(h.seat, h.hex): h for h in obs.hexes}


def test_a_starting_hex_read_empty_is_a_tile_and_the_walk_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    start = (SEAT, _bare_start())
    plain = _read(monkeypatch, hide_start=False)
    hidden = _read(monkeypatch, hide_start=True)
    got = hidden[start]
    assert got.tile and got.tile_conf == 1.0 and got.resource_conf == OUTLINE_CAP and got.rivals == {}
    # the rest of the seat's land is read as it is without the forced reading: the walk went on
    rest = {c: r for c, r in plain.items() if c[0] == SEAT and c != start}
    assert len([r for r in rest.values() if r.tile]) >= 6
    assert {c: (r.tile, r.resource, r.exhausted) for c, r in hidden.items() if c in rest} == {
        c: (r.tile, r.resource, r.exhausted) for c, r in rest.items()
    }


def test_without_the_rule_the_hex_would_read_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    """The control: the forced reading does reach the reader (what the rule mends)."""
    monkeypatch.setattr(LandReader, "_starting", lambda self, results, cells: None)
    hidden = _read(monkeypatch, hide_start=True)
    assert not hidden[(SEAT, _bare_start())].tile
