"""Table layout: the shipped layout validates, geometry round-trips, bad files fail clearly."""

from __future__ import annotations

import copy
import json

import pytest

from games.tribes.rules.hexgrid import neighbours
from games.tribes.vision.layout import default_layout, load_layout, parse_layout
from vision.errors import LayoutError


def raw() -> dict:
    return copy.deepcopy(dict(default_layout().raw))


def test_default_layout_is_valid_and_robust():
    lay = default_layout()
    assert len(lay.markers) >= 4
    assert lay.warnings == ()
    assert len(lay.seats) == 4
    assert len(lay.row_slots) >= 12
    assert lay.is_provisional("tiles.hex.flat_to_flat")
    assert not lay.is_provisional("markers.items[0].center")
    assert lay.is_provisional("board.stone_height")
    older = raw()
    del older["board"]["stone_height"]  # a layout written before the field: the default height
    assert parse_layout(older, "old.json").stone_height == lay.stone_height == 7.0


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_hex_lattice_round_trips_and_neighbours_are_one_pitch_apart(orientation):
    data = raw()
    data["tiles"]["hex"]["orientation"] = orientation
    lay = parse_layout(data)
    for seat in range(4):
        for h in [(0, 0), (1, 0), (0, 1), (3, -2), (-2, 4)]:
            c = lay.hex_center(seat, h)
            assert lay.hex_at(seat, c) == h
            for n in neighbours(h):
                cn = lay.hex_center(seat, n)
                assert abs(((c[0] - cn[0]) ** 2 + (c[1] - cn[1]) ** 2) ** 0.5 - lay.hex.pitch) < 1e-9
        # corners lie one circumradius from the centre
        corners = lay.hex_corners(seat, (2, 1))
        c = lay.hex_center(seat, (2, 1))
        for x, y in corners:
            assert abs(((x - c[0]) ** 2 + (y - c[1]) ** 2) ** 0.5 - lay.hex.radius) < 1e-9


def test_start_triangle_lies_in_each_land_area():
    lay = default_layout()
    for seat in range(4):
        for h in [(0, 0), (1, 0), (0, 1)]:
            assert lay.in_area(seat, lay.hex_center(seat, h))
        assert len(lay.area_hexes(seat)) >= 40


def test_track_spaces_follow_the_profile_count():
    lay = default_layout()
    pts = lay.track_spaces("offspring", 6)
    assert len(pts) == 6 and pts[0] == lay.tracks["offspring"].start and pts[-1] == lay.tracks["offspring"].end
    assert len(lay.track_spaces("movement", 9)) == 9


def test_explicit_track_spaces_must_match_the_profile():
    data = raw()
    data["tracks"]["strength"] = {"spaces": [[620, 580], [670, 580], [720, 580]]}
    lay = parse_layout(data, "my.json")
    assert len(lay.track_spaces("strength", 3)) == 3
    with pytest.raises(LayoutError, match=r"my.json: tracks.strength.spaces: lists 3 spaces but the box profile's"):
        lay.track_spaces("strength", 6)


def _error(data: dict) -> str:
    with pytest.raises(LayoutError) as exc:
        parse_layout(data, "t.json")
    return str(exc.value)


def test_validation_errors_name_file_field_and_reason():
    d = raw()
    d["markers"]["items"] = d["markers"]["items"][:3]
    assert (
        _error(d)
        == "t.json: markers.items: must hold at least 4 markers (so that the plane is found with some hidden), got 3"
    )

    d = raw()
    d["markers"]["items"][1]["id"] = 0
    assert _error(d) == "t.json: markers.items[1].id: marker id 0 is used twice"

    d = raw()
    d["markers"]["items"][1]["id"] = 48
    assert "markers.items[1].id: id 48 is reserved for the tile capture sheet" in _error(d)

    d = raw()
    d["markers"]["dictionary"] = "DICT_9X9_1"
    assert _error(d).startswith("t.json: markers.dictionary: must be one of OpenCV's ArUco dictionaries")

    d = raw()
    d["tiles"]["hex"]["orientation"] = "round"
    assert _error(d) == "t.json: tiles.hex.orientation: must be 'flat' or 'pointy', got \"round\""

    d = raw()
    d["tiles"]["hex"]["flat_to_flat"] = -3
    assert _error(d) == "t.json: tiles.hex.flat_to_flat: must be > 0, got -3"

    d = raw()
    del d["seats"][2]["shells"]
    assert _error(d) == "t.json: seats[2].shells: is missing"

    d = raw()
    d["row"]["slots"] = {"first": [325, 350], "step": [50, 0], "count": 4}
    assert _error(d) == "t.json: row.slots: must hold at least 6 point(s), got 4"

    d = raw()
    d["board"]["eras"]["2"] = [[1, 2]]
    assert _error(d) == "t.json: board.eras.2: must hold 4 points, got 1"

    d = raw()
    d["board"]["stone_height"] = -2
    assert _error(d) == "t.json: board.stone_height: must be >= 0.0, got -2"

    d = raw()
    d["tracks"]["luck"] = {"start": [0, 0], "end": [1, 1]}
    assert _error(d).startswith("t.json: tracks.luck: is not a track")


def test_geometry_errors():
    d = raw()
    d["markers"]["items"][0]["center"] = [10, 10]
    assert _error(d).startswith("t.json: markers.items[0]: reaches outside the table")

    d = raw()
    d["bag"]["center"] = [800, 665]  # on top of the shell supply
    msg = _error(d)
    assert msg.startswith("t.json: shell_supply: overlaps bag by")

    d = raw()
    d["markers"]["items"][4]["center"] = [600, 350]  # on the row
    assert "overlaps markers.items[4]" in _error(d)


def test_weak_marker_placement_gives_a_warning():
    d = raw()
    d["markers"]["items"] = [
        {"id": 0, "center": [40, 40]},
        {"id": 1, "center": [1160, 40]},
        {"id": 2, "center": [1160, 960]},
        {"id": 3, "center": [40, 960]},
    ]
    lay = parse_layout(d, "t.json")
    assert lay.warnings and "hidden the rest span too little" in lay.warnings[0]


def test_load_layout_file_errors(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text("{ nope", encoding="utf-8")
    with pytest.raises(LayoutError, match=r"bad.json: line 1 column 3: not valid JSON"):
        load_layout(p)
    with pytest.raises(LayoutError, match=r"missing.json: cannot read the layout"):
        load_layout(tmp_path / "missing.json")
    good = tmp_path / "good.json"
    good.write_text(json.dumps(raw()), encoding="utf-8")
    assert load_layout(good).name == default_layout().name


def test_players_can_take_any_seats():
    lay = default_layout()
    two = lay.with_seats((0, 2))
    assert [s.name for s in two.seats] == ["south", "north"]
    assert two.hex_center(1, (0, 0)) == lay.hex_center(2, (0, 0))
    with pytest.raises(LayoutError, match=r"seats: seat order \[0, 0\] must name distinct seats 0..3"):
        lay.with_seats((0, 0))
