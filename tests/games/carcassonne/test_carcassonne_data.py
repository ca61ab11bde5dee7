"""The box profile (H-COMP-1, H-TILE-1, provenance, ProfileSupport), positions and move text: they
round-trip, and a corrupt one is one line naming the field that changes nothing."""

from __future__ import annotations

import copy
import json
import random

import pytest
from carc_boxes import box
from carc_helpers import BLUE, RED, build, play

import games
from datafile import DataFileError
from games.carcassonne.rules.engine import apply, new_game
from games.carcassonne.rules.errors import InvalidMoveError, PositionError, ProfileError
from games.carcassonne.rules.legal import legal_moves, sample_chance
from games.carcassonne.rules.moves import Discard, Draw, Place, parse_move
from games.carcassonne.rules.players import RandomPlayer
from games.carcassonne.rules.position import state_from_dict, state_to_dict
from games.carcassonne.rules.tiles import Role, default_profile, load_profile, parse_profile
from games.errors import JournalError
from games.record import Record, open_record

GAME = games.get("carcassonne")
PLAYERS = [("Rot", "red"), ("Blau", "blue"), ("Gelb", "yellow")]


# --- the box profile ------------------------------------------------------------------------------


def test_H_COMP_1_the_default_box_has_78_land_tiles_a_volcano_and_12_bonus_tiles():
    prof = default_profile()
    assert prof.land_total == 78 and prof.bonus_total == 12
    assert sum(prof.tiles[i].count for i in prof.land) == 78
    assert sum(prof.tiles[i].count for i in prof.bonus) == 12
    assert prof.tiles[prof.start].id == "volcano" and prof.members == 5 and prof.huts == 2
    # the components are from the rulebook, every tile type provisional
    assert prof.source_of("components.land_tiles").startswith("rulebook")
    assert all(prof.is_provisional(t.path) for t in prof.tiles)
    # all 24 edge classes of the HG Tile Reference occur among the land tiles
    classes = set()
    for i in prof.land:
        e = prof.tiles[i].edge_text
        classes.add(min(e[k:] + e[:k] for k in range(4)))
    assert len(classes) == 24


def test_H_COMP_1_totals_that_do_not_add_up_are_refused_naming_the_field():
    doc = copy.deepcopy(dict(default_profile().raw))
    doc["land"][0]["count"] += 1
    with pytest.raises(
        ProfileError, match=r"^p: land: the counts add up to 79 tiles, but components.land_tiles says 78$"
    ):
        parse_profile(doc, "p")
    doc = copy.deepcopy(dict(default_profile().raw))
    doc["components"]["bonus_tiles"] = 11
    with pytest.raises(ProfileError, match="bonus: the counts add up to 12"):
        parse_profile(doc, "p")


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda t: t.update(edges="FMX"), "land[0].edges"),
        (lambda t: t["forests"][0].update(sides=["E"]), "land[0].forests[0].sides"),
        (lambda t: t.update(forests=[]), "land[0].forests"),
        (lambda t: t["meadows"][0].update(sides=["E", "S"]), "land[0].meadows"),
        (lambda t: t["meadows"][0].update(deer=-1), "land[0].meadows[0].deer"),
        (lambda t: t["meadows"][0].update(wolves=1), "land[0].meadows[0].wolves"),
        (lambda t: t.update(id="has space"), "land[0].id"),
    ],
)
def test_H_TILE_1_every_side_is_covered_once_and_bad_tiles_name_the_field(change, field):
    doc = copy.deepcopy(dict(default_profile().raw))
    assert doc["land"][0]["edges"] == "FMMM"
    change(doc["land"][0])
    with pytest.raises(ProfileError) as exc:
        parse_profile(doc, "box.json")
    assert exc.value.field == field and "\n" not in str(exc.value)


def test_H_TILE_1_rivers_end_at_a_lake_or_a_spring():
    doc = copy.deepcopy(box())
    river = next(t for t in doc["land"] if t["id"] == "lakeE1")
    river["rivers"][0]["end"] = "sea"
    with pytest.raises(ProfileError, match=r"rivers\[0\].end: must be one of spring, lake"):
        parse_profile(doc, "p")
    river["rivers"][0]["end"] = "lake"
    river["rivers"][0]["lake"] = 3
    with pytest.raises(ProfileError, match=r"rivers\[0\].lake"):
        parse_profile(doc, "p")
    river["rivers"][0] = {"sides": ["E", "W", "N"]}
    with pytest.raises(ProfileError):
        parse_profile(doc, "p")
    river["rivers"][0] = {"sides": ["E"], "end": "lake"}
    del river["lakes"]
    with pytest.raises(ProfileError, match=r"rivers\[0\].end: the river ends at a lake, but the tile has no lakes"):
        parse_profile(doc, "p")


def test_profile_support_parse_load_info_mark_checked(tmp_path):
    support = GAME.profile
    assert support is not None
    prof = support.default()
    info = support.info(prof)
    assert info["digest"] == prof.digest and "land[0].count" in info["provisional"]
    assert info["sources"]["components.members_per_player"].startswith("rulebook")
    doc = support.mark_checked(prof.raw, ["land[0]", "bonus[1].count"])
    checked = support.parse(doc)
    assert not checked.is_provisional("land[0].meadows[0].deer") and checked.is_provisional("land[1].count")
    assert not checked.is_provisional("bonus[1].count") and checked.digest != prof.digest
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert support.load(str(path)) == checked
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(ProfileError, match=r"mine.json: line 1 column 2"):
        support.load(str(path))
    # a corrected profile plays: the engine is right for any valid profile
    s = GAME.rules.new_state(GAME.rules.settings(PLAYERS, checked))
    assert s.profile == checked and GAME.profile.of_state(s) == checked


def test_a_profile_with_other_figures_and_tiles_plays_to_the_end():
    prof = parse_profile(box(members=2, huts=1))
    rec = Record.new(GAME, GAME.rules.settings(PLAYERS, prof))
    rng = random.Random(3)
    pols = [RandomPlayer(i) for i in range(3)]
    while not rec.state.is_over:
        s = rec.state
        rec.push(sample_chance(s, rng) if s.is_chance else pols[s.to_move].choose(s))
    assert rec.state.land_left == 0 and all(
        m + sum(1 for f in rec.state.figures if f.seat == i and f.role is not Role.HUT) == 2
        for i, m in enumerate(rec.state.members)
    )
    again = Record.from_dict(GAME, json.loads(json.dumps(rec.to_dict())))
    assert again.state == rec.state


# --- moves ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "move",
    [
        Draw("L07"),
        Draw("B-fire", True),
        Place(2, -1, 3),
        Place(-10, 4, 0, Role.HUNTER, "m1"),
        Place(0, 1, 2, Role.HUT, "l0"),
        Discard(),
    ],
)
def test_move_text_round_trips_and_repr_pastes_back(move):
    assert parse_move(str(move)) == move and str(parse_move(str(move))) == str(move)
    from games.carcassonne.rules.moves import Discard as Di
    from games.carcassonne.rules.moves import Draw as Dr
    from games.carcassonne.rules.moves import Place as Pl

    assert eval(repr(move), {"Draw": Dr, "Place": Pl, "Discard": Di, "Role": Role}) == move


@pytest.mark.parametrize(
    "text",
    [
        "",
        "draw",
        "draw two words",
        "place 1 r0",
        "place 1,0 r4",
        "place 1,0 r0 wizard m0",
        "place 1,0 r0 hunter x0",
        "place 1,0 r0 hunter",
        "discard now",
        "bonus",
        "place 12345,0 r0",
        None,
    ],
)
def test_text_that_is_no_move_is_an_invalid_move_error_quoting_it(text):
    with pytest.raises(InvalidMoveError) as exc:
        parse_move(text)  # type: ignore[arg-type]
    assert repr(text) in str(exc.value) and "\n" not in str(exc.value)


def test_moves_parse_loosely_spaced_text():
    assert parse_move("  place  1, -2   r1  hunter   m0 ") == Place(1, -2, 1, Role.HUNTER, "m0")


# --- positions ------------------------------------------------------------------------------------


def random_states(seed: int, players: int = 3):
    rng = random.Random(seed)
    s = new_game(PLAYERS[:players] if players <= 3 else [*PLAYERS, ("Grün", "green")])
    pols = [RandomPlayer(seed * 7 + i) for i in range(players)]
    out = [s]
    while not s.is_over:
        s = apply(s, sample_chance(s, rng) if s.is_chance else pols[s.to_move].choose(s))
        out.append(s)
    return out


def test_positions_round_trip_exactly_through_json():
    states = random_states(11)
    for s in [*states[::7], states[-1]]:
        doc = json.loads(json.dumps(state_to_dict(s)))
        back = state_from_dict(doc, None, "pos")
        assert back == s and state_to_dict(back) == doc
        assert list(legal_moves(back))[:30] == list(legal_moves(s))[:30]


def test_a_game_started_from_a_position_plays_on_like_the_original():
    states = random_states(12)
    mid = states[61]
    rec = Record.from_position(GAME, GAME.rules.state_from_json(state_to_dict(mid), "pos"))
    assert rec.state == mid
    assert GAME.rules.settings_of(mid)["start"]["format"] == "carcassonne-position"


def corrupt(doc, path, value):
    out = copy.deepcopy(doc)
    node = out
    for k in path[:-1]:
        node = node[k]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return out


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        (("format",), "chess-position", "format"),
        (("phase",), "lunch", "phase"),
        (("players", 0, "members"), 9, "players[0].members"),
        (("players", 0, "huts"), -1, "players[0].huts"),
        (("players", 1, "score"), 1, "players[1].score"),
        (("tiles", 3, "at"), [40, 40], "tiles[3].at"),
        (("tiles", 3, "rot"), 7, "tiles[3].rot"),
        (("tiles", 0, "tile"), "L01", "tiles[0].tile"),
        (("stacks", "land", "L01"), 0, "stacks.land.L01"),
        (("figures", 0, "spot"), "m9", "figures[0].spot"),
        (("figures", 0, "seat"), 7, "figures[0].seat"),
        (("drawn",), "XX", "drawn"),
        (("log", 0, "points"), -3, "log[0].points"),
        (("turn",), KeyError, "turn"),
        (("extra",), 1, "extra"),
    ],
)
def test_a_corrupt_position_is_one_line_naming_the_field(path, value, field):
    states = random_states(13)
    s = next(x for x in states if x.figures and x.log and x.ntiles > 6 and x.phase.value == "place")
    doc = json.loads(json.dumps(state_to_dict(s)))
    bad = corrupt(doc, path, value)
    with pytest.raises(PositionError) as exc:
        state_from_dict(bad, None, "game.json")
    assert exc.value.field == field, str(exc.value)
    assert str(exc.value).startswith(f"game.json: {field}: ") and "\n" not in str(exc.value)
    assert state_from_dict(doc, None, "game.json") == s  # the good one still reads


def test_a_figure_on_a_completed_forest_is_refused():
    s = build(box(), [("forestN", 1, 0, 0)], drawn="forestN")
    s = play(s, "place 1,-1 r2")
    doc = state_to_dict(s)
    doc["figures"] = [{"seat": RED, "role": "gatherer", "tile": 1, "spot": "f0"}]
    doc["players"][RED]["members"] = 4
    with pytest.raises(PositionError, match=r"figures\[0\]: a gatherer on a completed forest would have gone home"):
        state_from_dict(doc, None, "p")


def test_journal_replays_and_a_bad_move_names_the_move():
    rec = Record.new(GAME, GAME.rules.settings(PLAYERS))
    rng = random.Random(1)
    for _ in range(10):
        s = rec.state
        rec.push(sample_chance(s, rng) if s.is_chance else RandomPlayer(5).choose(s))
    doc = rec.to_dict()
    assert doc["format"] == "carcassonne-journal"
    doc["moves"][3] = "place 40,40 r0"
    with pytest.raises(JournalError, match=r"moves\[3\]: illegal move 'place 40,40 r0': H-PLACE-1"):
        Record.from_dict(GAME, doc, "j.json")


def test_open_record_reads_a_position_file(tmp_path):
    s = random_states(14)[30]
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(state_to_dict(s)), encoding="utf-8")
    assert open_record(path).state == s


def test_state_from_json_takes_the_profile_to_read_with():
    s = build(box(), [("forestN", 1, 0, 0)], [(BLUE, "gatherer", 1, "f0")], drawn="fill")
    doc = state_to_dict(s)
    del doc["profile"]
    with pytest.raises(PositionError):
        GAME.rules.state_from_json(doc, "p")  # the default box has no tile 'forestN'
    assert GAME.rules.state_from_json(doc, "p", parse_profile(box())) == s


def test_settings_name_the_field():
    with pytest.raises(PositionError, match=r"s: settings.players: must hold at least 2"):
        GAME.rules.new_state({"players": [{"name": "A"}]}, "s")
    with pytest.raises(DataFileError, match=r"^s: profile: format: must be 'carcassonne-box-profile'"):
        GAME.rules.new_state({"players": [{"name": "A"}, {"name": "B"}], "profile": {"format": "x"}}, "s")
    with pytest.raises(ProfileError, match=r"no-such-file\.json"):
        load_profile("no-such-file.json")
