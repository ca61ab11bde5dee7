"""A land grown up to the action row: a tile whose centre lies just off the row (within the reserved
margin, outside the row itself) is read — it shows its whole outline — while hexes whose centres lie
on the row's or the board's cards are never read as tiles."""

from __future__ import annotations

from collections import deque
from typing import Any

import pytest

import tests.games.tribes.vision.camera_scenes as cs
from games.tribes.rules.hexgrid import START_TRIANGLE, Hex, neighbours
from games.tribes.rules.profile import default_profile
from games.tribes.vision.layout import default_layout
from games.tribes.vision.observation import observation_from_truth
from games.tribes.vision.recognizer import Recognizer
from games.tribes.vision.regions import Regions
from games.tribes.vision.table import LandTile, TableModel

SEAT = 1


def _path_to_the_row(regions: Regions, seat: int) -> list[Hex]:
    """The shortest chain of hexes the walk may read from the seat's starting triangle to a hex
    whose centre lies within the row's or the board's margin but off them (the last hex)."""
    lay = regions.layout
    walk = set(regions.walk_hexes(seat))

    def in_band(h: Hex) -> bool:
        at = lay.hex_center(seat, h)
        return regions.reserved_at(at) and not regions.reserved_at(at, 0.0) and regions.walkable(seat, h, margin=0.0)

    came: dict[Hex, Hex | None] = dict.fromkeys(START_TRIANGLE)
    todo = deque(START_TRIANGLE)
    while todo:
        h = todo.popleft()
        for n in neighbours(h):
            if n in came:
                continue
            if in_band(n):
                path = [n, h]
                while came[path[-1]] is not None:
                    path.append(came[path[-1]])  # type: ignore[arg-type]
                return path[::-1]
            if n in walk:
                came[n] = h
                todo.append(n)
    raise AssertionError(f"seat {seat}: no hex of the walk borders the row's margin")


@pytest.fixture(scope="module")
def grown() -> tuple[Any, list[Hex]]:
    """Seat 1's land grown from its starting triangle to the row: the hex next to the row holds a
    goat tile, those on the way alternate wheat and horse."""
    lay = default_layout()
    path = _path_to_the_row(Regions(lay, default_profile()), SEAT)
    model = TableModel.from_state(cs.game().states[1])
    land = model.seats[SEAT].land
    for i, h in enumerate(path):
        if h not in land:
            land[h] = LandTile("goat" if i == len(path) - 1 else ("wheat", "horse")[i % 2])
    frame = cs.renderer().render(model, cs.camera(), cs.LIGHT, cs.FX, frame_seed=31)
    return frame, path


def test_a_tile_next_to_the_row_is_read_and_the_row_holds_none(grown: tuple[Any, list[Hex]]) -> None:
    frame, path = grown
    lay = default_layout()
    regions = Regions(lay, default_profile())
    rec = Recognizer(lay, default_profile(), cs.enrollment(), stream=False)
    obs = rec.read(frame.image)
    assert obs.registered
    read = {(h.seat, h.hex): h for h in obs.hexes}
    truth = {(h.seat, h.hex): h for h in observation_from_truth(frame.truth).hexes}
    last = (SEAT, path[-1])
    assert truth[last].tile and truth[last].resource == "goat"
    got = read.get(last)
    assert got is not None and got.tile and got.resource == "goat", f"{last}: read {got}"
    # the whole chain up to it is read right, and no card of the row or the board is taken for a tile
    for h in path:
        r = read.get((SEAT, h))
        assert r is not None and r.tile and r.resource == truth[(SEAT, h)].resource, f"{h}: read {r}"
    on_cards = [c for c, r in read.items() if r.tile and regions.reserved_at(lay.hex_center(*c), 0.0)]
    assert not on_cards, f"tiles read on the row or the board: {on_cards}"
    # the hexes beyond the tile that lie on the row are reported empty, surely
    beyond = [
        (SEAT, n)
        for n in neighbours(path[-1])
        if (SEAT, n) in read and regions.reserved_at(lay.hex_center(SEAT, n), 0.0)
    ]
    assert beyond and all(not read[c].tile and read[c].tile_conf == 1.0 for c in beyond)
