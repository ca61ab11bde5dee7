"""The position format: round trips, mid-game starts, and clear errors for inconsistent positions."""

from __future__ import annotations

import copy
import json

import pytest

from games.tribes.rules.errors import PositionError
from games.tribes.rules.game import simulate
from games.tribes.rules.state import State
from tests.games.tribes.rules.helpers import play, player, position, state


def test_round_trip_at_every_kind_of_pending_step():
    game = simulate(3, 5, "random")
    kinds = {}
    for s in game.states:
        kinds.setdefault(s.pending.kind, s)
    assert {"setup", "first_member", "choose", "draw", "place", "reveal", "event_reveal", "game_over"} <= set(kinds)
    for s in kinds.values():
        data = json.loads(json.dumps(s.to_dict()))
        assert State.from_dict(data) == s


def test_mid_turn_position_keeps_drawn_tiles_out_of_the_bag():
    s = play(state(), "3:exp", "draw gold")
    back = State.from_dict(s.to_dict())
    assert back == s and back.bag == s.bag


def test_event_resolution_position_round_trips():
    ps = [player("A", {"0,0": "goat:1", "1,0": "horse:1", "0,1": "wheat"}), player("B", tracks={"strength": 2})]
    s = play(state(players=ps, row=["evt:disease", "off", "mov", "exp", "off-ach", "mov-ach", "exp-ach"]), "1:evt")
    assert s.pending.kind == "event"
    assert State.from_dict(s.to_dict()) == s


def test_derived_fields_may_be_left_out():
    """A hand-written mid-game position needs no bag, stacks or shell supply: they are derived."""
    doc = position()
    s = State.from_dict(doc)
    assert s.bag_total() == 44 and s.stacks == (8, 8, 8) and s.shell_supply == 10


def bad(**changes):
    doc = position()
    for path, value in changes.items():
        target = doc
        keys = path.split("__")
        for k in keys[:-1]:
            target = target[int(k)] if k.isdigit() else target[k]
        last = keys[-1]
        if value is KeyError:
            del target[int(last) if last.isdigit() else last]
        elif last.isdigit():
            target[int(last)] = value
        else:
            target[last] = value
    return doc


@pytest.mark.parametrize(
    ("doc", "field", "reason"),
    [
        (bad(format="chess"), "format", "must be 'tribes-position'"),
        (bad(players__0__supply=3), "players[0].supply", "must make 15 members"),
        (bad(players__0__land__0__resource="fish"), "players[0].land[0].resource", "must be one of goat"),
        (bad(players__0__land__2__hex=[5, 5]), "players[0].land", "is not one connected area"),
        (bad(players__1__name="A"), "players[1].name", "two players are called 'A'"),
        (bad(players__0__tracks={"strength": 9}), "players[0].tracks.strength", "must be <= 5"),
        (bad(row__0={"tile": "dance"}), "row[0].tile", "is not an action tile"),
        (bad(row__1={"tile": "off"}), "row", "must hold each action tile once"),
        (bad(board__0__0={"tile": "kaese", "stones": []}), "board[0][0].tile", "is an era-2 tile"),
        (bad(board__0__1={"tile": "jagen", "stones": []}), "board[0][1].tile", "lies on the board twice"),
        (bad(board__0__0={"tile": "jagen", "stones": [0, 0]}), "board[0][0].stones", "two stones on one tile"),
        (bad(board__1__0={"tile": None, "stones": [1]}), "board[1][0].stones", "face-down tile holds no stones"),
        (bad(shell_supply=3), "shell_supply", "so the supply is 10"),
        (bad(bag={"goat": 1}), "bag", "must match the tiles not on any land"),
        (bad(pending={"kind": "nap"}), "pending", "kind 'nap' is not one of"),
        (bad(pending={"kind": "event", "seat": 0, "event": "nope"}), "pending.event", "is not an event"),
        (
            bad(pending={"kind": "event", "seat": 0, "event": "wolves", "path": [0, 0]}),
            "pending.path",
            "does not point at an effect",
        ),
        (
            bad(arrows=[{"from": "jagen", "to": "kochen", "owner": 0}]),
            "arrows[0]",
            "diagonal tiles of consecutive eras",
        ),
        (bad(done_events=["wolves", "wolves"]), "done_events", "lists an event twice"),
    ],
)
def test_inconsistent_positions_are_refused_naming_the_field(doc, field, reason):
    with pytest.raises(PositionError) as err:
        State.from_dict(doc, None, "pos.json")
    assert err.value.field == field
    assert reason in str(err.value)
    assert str(err.value).startswith(f"pos.json: {field}: ")


def test_inline_profile_travels_with_the_position():
    from helpers import profile_variant

    prof = profile_variant(components=lambda raw: raw["components"].update(shells_per_player=3))
    s = State.from_dict(position(), prof)
    doc = s.to_dict()
    assert isinstance(doc["profile"], dict)
    back = State.from_dict(copy.deepcopy(doc))
    assert back.profile == prof and back == s
