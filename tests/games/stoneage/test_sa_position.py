"""Positions as JSON (docs/stoneage-position.md): exact round trips, mid-game starts, and a corrupt or
inconsistent document is one error naming the field (conservation of cards, buildings and people)."""

from __future__ import annotations

import copy
import json

import pytest
from sa_helpers import RULES, acting, new, play, profile_with, started

from games.record import Record, record_from_data, simulate
from games.stoneage.plugin import GAME
from games.stoneage.rules.errors import PositionError
from games.stoneage.rules.position import state_from_dict, state_to_dict


def _states():
    for n, pol in ((2, "greedy"), (3, "random"), (4, "random")):
        rec = simulate(GAME, n, seed=7 + n, policies=pol)
        yield from rec.states[:: max(1, len(rec.states) // 40)]
        yield rec.state


def test_positions_round_trip_exactly():
    count = 0
    for s in _states():
        doc = json.loads(json.dumps(state_to_dict(s)))
        back = state_from_dict(doc, "position")
        assert back == s and state_to_dict(back) == doc
        count += 1
    assert count > 60


def test_a_fixed_order_and_a_box_of_ones_own_round_trip():
    order = {
        "cards": [f"c{i:02d}" for i in range(1, 37)],
        "buildings": [[f"b{j:02d}" for j in range(1, 8)], [f"b{j:02d}" for j in range(8, 15)]],
    }
    s = play(new(2, order=order), "reveal c01", "reveal c02")
    doc = state_to_dict(s)
    assert doc["card_order"][0] == "c03" and doc["building_order"][1][0] == "b08"
    assert state_from_dict(json.loads(json.dumps(doc))) == s
    prof = profile_with(**{"components.start_food": 20})
    s2 = started(profile=prof)
    doc2 = state_to_dict(s2)
    assert isinstance(doc2["profile"], dict)
    assert state_from_dict(json.loads(json.dumps(doc2))) == s2
    # read with another box profile on purpose (the interface's profile argument)
    assert RULES.state_from_json(state_to_dict(started()), "position", prof).profile == prof


def test_a_game_started_from_a_position_plays_on_exactly():
    rec = simulate(GAME, 3, seed=3, policies="random")
    mid = len(rec.moves) // 2
    r2 = record_from_data(json.loads(json.dumps(RULES.state_to_json(rec.states[mid]))), "position")
    for m in rec.moves[mid:]:
        r2.push(str(m))
    assert r2.state == rec.state
    r3 = Record.new(GAME, RULES.settings_of(rec.states[mid]))
    assert r3.state == rec.states[mid]


def _mutations():
    s = acting(placed={0: {"wood": 2}})
    base = state_to_dict(s)

    def m(fn, field):
        doc = copy.deepcopy(base)
        fn(doc)
        return pytest.param(doc, field, id=field)

    return [
        m(lambda d: d.update(format="tribes-position"), "format"),
        m(lambda d: d.update(version=2), "version"),
        m(lambda d: d.pop("round"), "round"),
        m(lambda d: d.update(extra=1), "extra"),
        m(lambda d: d["players"].pop(), "stacks"),  # 3 players cannot have 4 building stacks
        m(lambda d: d["players"][0].update(people=11), "players[0].people"),
        m(lambda d: d["players"][0]["placed"].update(wood=6), "players[0].placed"),
        m(lambda d: d["players"][0]["placed"].update(forest=1), "players[0].placed.forest"),
        m(lambda d: d["players"][1].update(cards=["c01"]), "players[1].cards"),  # c01 is on the board too
        m(lambda d: d["unseen_cards"].pop(), "cards"),
        m(lambda d: d["unseen_buildings"].reverse(), "unseen_buildings"),
        m(lambda d: d["players"][0].update(points=5), "players[0].points"),
        m(lambda d: d["players"][0].update(tools_used=[2]), "players[0].tools_used"),
        m(lambda d: d["players"][0].update(once_tools=["c12"]), "players[0].once_tools"),
        m(lambda d: d.update(phase="feed"), "actor"),
        m(lambda d: d["stacks"][0].update(face_down=9), "stacks[0].face_down"),
        m(lambda d: d["stacks"][0].update(top="c01"), "stacks[0].top"),
        m(lambda d: d.update(profile={"format": "x"}), "profile"),
        m(lambda d: d["pending"].update(resume="feed"), "pending.resume"),
    ]


@pytest.mark.parametrize("doc,field", _mutations())
def test_a_corrupt_position_is_one_error_naming_the_field(doc, field):
    with pytest.raises(PositionError) as exc:
        state_from_dict(doc, "game.json")
    msg = str(exc.value)
    assert msg.startswith("game.json: " + field) and "\n" not in msg, msg


def test_not_an_object_is_refused():
    with pytest.raises(PositionError, match="must be an object"):
        state_from_dict([], "p")
