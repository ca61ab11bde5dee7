"""Positions as JSON: every phase round-trips exactly; a corrupt or inconsistent document is one
line naming the field; a game can start from a position (settings.start)."""

from __future__ import annotations

import copy
import json

import pytest

import games
from games.origo.rules.board import board_spec, default_board
from games.origo.rules.errors import PositionError
from games.origo.rules.position import state_from_dict, state_to_dict
from games.origo.rules.state import Phase
from games.record import Record, record_from_data
from tests.games.origo.origo_helpers import default_start, play, setup, start, tiny_doc

RULES = games.get("origo").rules


def phases():
    base = setup(start(), {"A1": "Ann", "B1": "Bob"}, founded=())
    turn = play(base, "lay Ann C1")
    reveal = play(base, "lay Ann A2")
    founded = play(reveal, "reveal 3 red")
    battle = play(founded, "attack Ann B1", "card Ann")
    answered = play(battle, "stop Ann", "card Bob")
    scoring = play(founded, "refill Ann", "pass Bob")
    half = play(scoring, "points Bob 3")
    final = play(half, "points Ann 1", "pass Ann", "pass Bob")
    over = play(final, "points Ann 0", "points Bob 2")
    return {
        "start": start(),
        "turn": turn,
        "reveal": reveal,
        "founded": founded,
        "battle": battle,
        "answered": answered,
        "scoring": scoring,
        "half": half,
        "final": final,
        "over": over,
    }


@pytest.mark.parametrize("name", list(phases()))
def test_every_phase_round_trips_exactly(name):
    s = phases()[name]
    doc = json.loads(json.dumps(state_to_dict(s, board=board_spec(s.board))))
    back = state_from_dict(doc, None, "pos")
    assert back == s
    assert state_to_dict(back, board=board_spec(back.board)) == doc


def test_the_shipped_board_is_written_as_default_and_another_in_full():
    s = default_start()
    assert RULES.state_to_json(s)["profile"] == "default"
    t = start()
    assert RULES.state_to_json(t)["profile"]["name"] == "tiny test board"
    assert RULES.state_from_json(RULES.state_to_json(t)) == t


def test_state_from_json_takes_the_board_to_read_with():
    s = setup(start(), {"A1": "Ann"})
    doc = state_to_dict(s, board="default")  # the document names the shipped board...
    with pytest.raises(PositionError):
        RULES.state_from_json(doc, "pos")  # ...whose supply for 2 players differs
    assert RULES.state_from_json(doc, "pos", profile=s.board) == s
    assert RULES.state_from_json(doc, "pos", profile=tiny_doc()) == s


def _doc():
    s = phases()["battle"]
    return state_to_dict(s, board=board_spec(s.board))


@pytest.mark.parametrize(
    ("edit", "fragment"),
    [
        (lambda d: d.update(format="x"), "format: must be 'origo-position'"),
        (lambda d: d.update(extra=1), "extra: is not a field here"),
        (
            lambda d: d["players"][0].update(supply=9),
            "players[0]: Ann's shields (supply 9 + board 3 + out 0 = 12) must add up to 10",
        ),
        (lambda d: d["players"][0].update(hand=11), "players[0].hand: must be <= 10"),
        (lambda d: d["fields"].update(Z9="Ann"), "fields.Z9: is no field of the board"),
        (lambda d: d["fields"].update(D1="Cem"), 'fields.D1: "Cem" is not a player of this position'),
        (lambda d: d.update(phase="turn"), "battle: is given exactly when the phase is 'battle'"),
        (lambda d: d["battle"].update(defender="Ann"), "battle.defender: must be the owner of the shield on B1"),
        (lambda d: d["founded"][0].update(land="S1"), "founded[0].land: 'S1' is no land of the board"),
        (lambda d: d.update(scorings_due=0), "scorings_due: scheduled (0), held (0) and being held (0) must add up"),
        (lambda d: d.update(end="bored"), "end: must be one of passes, stones, shields"),
        (lambda d: d.update(entries={"Ann": 1}), "entries: is given only during a scoring"),
        (lambda d: d.update(profile=7), 'profile: must be "default", a board file path or an object, got 7'),
        (lambda d: d.update(acted=False), "acted: a battle follows an action"),
        (lambda d: d.update(passes=1), "passes: 1 players cannot have passed before Ann's turn"),
    ],
)
def test_a_bad_position_is_one_line_naming_the_field(edit, fragment):
    doc = copy.deepcopy(_doc())
    edit(doc)
    with pytest.raises(PositionError) as info:
        state_from_dict(doc, None, "pos.json")
    msg = str(info.value)
    assert "\n" not in msg and msg.startswith("pos.json: ")
    assert fragment in msg


def test_a_full_unfounded_land_must_be_waiting_for_its_founding_field():
    s = phases()["reveal"]
    doc = state_to_dict(s, board=board_spec(s.board))
    doc.update(phase="turn", founding_land=None)
    with pytest.raises(PositionError, match="L1 is fully occupied but not founded"):
        state_from_dict(doc, None, "pos")


def test_a_game_starts_from_a_position_and_replays():
    s = phases()["founded"]
    rec = Record.from_position(games.get("origo"), s)
    rec.push("attack Ann B1")
    rec.push("stop Ann")
    doc = json.loads(json.dumps(rec.to_dict()))
    again = record_from_data(doc, "journal")
    assert again.states == rec.states and again.state.phase is Phase.BATTLE


def test_settings_errors_name_the_field():
    with pytest.raises(ValueError, match=r"settings\.players"):
        RULES.new_state({"players": "Ann"}, "settings")
    with pytest.raises(ValueError, match=r"settings\.profile"):
        RULES.new_state({"players": [], "profile": {"format": "nope"}}, "settings")
    with pytest.raises(ValueError, match="two players play red"):
        RULES.new_state({"players": [{"name": "A", "colour": "red"}, {"name": "B", "colour": "red"}]})
    with pytest.raises(ValueError):
        RULES.settings([("A", "red")] * 6)
    assert RULES.settings([("A", "red"), ("B", "blue")])["profile"] == "default"
    assert default_board() is RULES.new_state(RULES.settings([("A", "red"), ("B", "blue")])).board
