"""The board file: the shipped board, validation with one-line errors (O-BOARD-2), adjacency
(O-ATK-2), provenance and the profile support (load, parse, info, mark_checked)."""

from __future__ import annotations

import json

import pytest

import games
from games.origo.rules.board import BoardError, RegionKind, default_board, load_board, parse_board
from tests.games.origo.origo_helpers import tiny_board, tiny_doc


def test_O_BOARD_1_the_shipped_board_is_ten_by_ten_with_twelve_lands_and_four_seas():
    b = default_board()
    assert (b.columns, b.rows, b.n_fields) == (10, 10, 100)
    lands = [r for r in b.regions if r.kind is RegionKind.LAND]
    seas = [r for r in b.regions if r.kind is RegionKind.SEA]
    assert len(lands) == 12 and len(seas) == 4
    assert {r.name["de"] for r in seas} == {"Nordsee", "Ostsee", "Mittelmeer", "Biskaya"}
    eight = {"Britannien", "Germanien", "Baltikum", "Gallien", "Hispanien", "Italien"}
    assert {r.name["de"] for r in lands if len(r.fields) == 8} == eight
    # every field belongs to exactly one region
    owners = [f for r in b.regions for f in r.fields]
    assert sorted(owners) == list(range(100))
    assert b.find("A1") == 0 and b.find("j10") == 99 and b.find("K1") is None and b.find("A11") is None
    assert b.stones == 12 and b.path_length == 100 and b.hand_size == 10


def test_O_BOARD_1_every_region_of_the_shipped_board_is_connected():
    b = default_board()
    for r in b.regions:
        seen = {r.fields[0]}
        todo = [r.fields[0]]
        while todo:
            f = todo.pop()
            for nb in b.neighbours[f]:
                if nb in r.fields and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        assert seen == set(r.fields), r.id


def test_O_ATK_2_neighbours_share_a_side_diagonals_are_not_adjacent():
    b = default_board()
    c4 = b.find("C4")
    assert {b.name_of(n) for n in b.neighbours[c4]} == {"C3", "B4", "D4", "C5"}
    assert not b.adjacent(c4, b.find("D5")) and not b.adjacent(c4, b.find("B3"))
    assert {b.name_of(n) for n in b.neighbours[b.find("A1")]} == {"B1", "A2"}
    assert all(len(n) <= 4 for n in b.neighbours)


def test_O_BOARD_1_provenance_marks_the_map_and_the_track_provisional_and_the_counts_reviewed():
    b = default_board()
    assert b.is_provisional("map.rows[0]")
    assert b.is_provisional("founding_track.fields[0].value")
    assert b.source_of("components.shields_per_player.2").startswith("review")
    assert b.source_of("components.hand_size").startswith("rulebook")
    assert b.source_of("regions[0].size").startswith("review")
    assert b.source_of("path.length").startswith("review")
    assert b.is_provisional("path.start")


def _bad(**changes):
    doc = tiny_doc()
    for path, val in changes.items():
        node = doc
        keys = path.split("__")
        for k in keys[:-1]:
            node = node[int(k)] if isinstance(node, list) else node[k]
        last = keys[-1]
        if isinstance(node, list):
            node[int(last)] = val
        elif val is ...:
            del node[last]
        else:
            node[last] = val
    with pytest.raises(BoardError) as info:
        parse_board(doc, "my board")
    msg = str(info.value)
    assert "\n" not in msg and msg.startswith("my board: ")
    return msg


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"format": "x"}, "format: must be 'origo-board'"),
        ({"_source": ...}, "_source: is missing"),
        ({"components__shields_total": 31}, "components.shields_total: must be the sum of shields_by_colour (30)"),
        ({"components__cards_total": 4}, "components.cards_total: must be the sum of cards (5)"),
        ({"components__shields_per_player": {"2": 11}}, "components.shields_per_player.2: 2 players need 2 colours"),
        ({"map": {"rows": ["L1 L1 S1 S1", "L1 L2 S1", "L2 L2 L3 L3"]}}, "map.rows[1]: lists 3 fields"),
        ({"map": {"rows": ["L1 L1 S1 S9", "L1 L2 S1 L3", "L2 L2 L3 L3"]}}, "field D1 names 'S9', which is no region"),
        (
            {"map": {"rows": ["L1 L1 S1 S1", "L1 L1 S1 L3", "L1 L1 L3 L3"]}},
            "regions[0].size: 'L1' is 3 fields, but the map",
        ),
        ({"map": {"rows": ["L1 L1 S1 S1", "L1 L3 S1 L3", "L3 L3 L3 L3"]}}, "regions[1]: 'L2' has no field on the map"),
        ({"regions__1__id": "L1"}, "regions[1].id: 'L1' is used twice"),
        ({"regions__1__kind": "lake"}, "regions[1].kind: must be one of land, sea"),
        ({"founding_track__fields__0": {"value": 7, "red": False}}, "founding_track.fields[0].value: must be <= 6"),
        ({"founding_track__fields": []}, "founding_track.fields: must hold at least 1"),
        ({"path__start": 21}, "path.start: must be <= 20"),
        ({"colour": "red"}, "colour: is not a field here"),
    ],
)
def test_O_BOARD_2_a_bad_board_file_is_one_line_naming_the_field(changes, expected):
    assert expected in _bad(**changes)


def test_O_BOARD_2_a_board_without_a_land_or_with_holes():
    doc = tiny_doc()
    doc["regions"] = [r for r in doc["regions"] if r["kind"] == "sea"]
    doc["map"]["rows"] = ["S1 S1 S1 S1"]
    with pytest.raises(BoardError, match="regions: must hold at least one land"):
        parse_board(doc, "b")
    # a grid cell that is no field ('.') is allowed: the board need not be a full rectangle
    doc = tiny_doc()
    doc["map"]["rows"] = ["L1 L1 S1 .", "L1 L2 S1 L3", "L2 L2 L3 L3"]
    doc["regions"][0]["size"] = 3
    b = parse_board(doc, "b")
    assert b.n_fields == 11 and b.find("D1") is None
    assert {b.name_of(n) for n in b.neighbours[b.find("D2")]} == {"C2", "D3"}


def test_O_BOARD_2_files_are_read_through_datafile_with_one_line_errors(tmp_path):
    p = tmp_path / "board.json"
    p.write_text("{ nope", encoding="utf-8")
    with pytest.raises(BoardError, match=r"board.json: line 1 column 3: not valid JSON"):
        load_board(p)
    with pytest.raises(BoardError, match="cannot read the board file"):
        load_board(tmp_path / "missing.json")
    p.write_text(json.dumps(tiny_doc()), encoding="utf-8")
    assert load_board(p) == tiny_board()


def test_O_BOARD_2_equality_is_by_content():
    assert tiny_board() == tiny_board()
    assert tiny_board() != default_board()
    assert hash(tiny_board()) == hash(tiny_board())


def test_profile_support_info_lists_provisional_values_and_mark_checked_moves_them_out():
    prof = games.get("origo").profile
    b = prof.default()
    info = prof.info(b)
    assert "map.rows[3]" in info["provisional"]
    assert "components.shields_total" not in info["provisional"]
    doc = prof.mark_checked(b.raw, ["map.rows[3]", "founding_track.fields[2]"])
    b2 = prof.parse(doc, "edited")
    assert not b2.is_provisional("map.rows[3]") and b2.is_provisional("map.rows[4]")
    assert not b2.is_provisional("founding_track.fields[2].red")
    assert b2 != b  # the document changed (its provenance), so the digest did


def test_profile_support_load_and_of_state(tmp_path):
    prof = games.get("origo").profile
    p = tmp_path / "b.json"
    p.write_text(json.dumps(tiny_doc()), encoding="utf-8")
    b = prof.load(str(p))
    assert b == tiny_board()
    rules = games.get("origo").rules
    st = rules.new_state(rules.settings([("Ann", "red"), ("Bob", "blue")], b))
    assert prof.of_state(st) == b
