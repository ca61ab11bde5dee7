"""The legal-move overview and description: what the page and the LED strip show."""

from __future__ import annotations

import json

from games.tribes.rules.game import simulate
from games.tribes.rules.legal import describe, explain, free_slot, legal_moves, overview
from games.tribes.rules.moves import parse_move
from tests.games.tribes.rules.helpers import play, player, state


def test_overview_costs_shells_and_the_free_tile_R_TURN_2_R_TURN_3():
    """R-TURN-3."""
    s = state(
        players=[player("A", shells=2), player("B")], row=["off", "mov+3", "exp", "off-ach", "mov-ach", "exp-ach"]
    )
    tiles = overview(s)
    assert [t.cost for t in tiles] == [0, 1, 2, 3, 4, 5]
    assert [t.affordable for t in tiles] == [True, True, True, False, False, False]
    assert tiles[0].free and not tiles[1].free and free_slot(s) == 1
    assert tiles[1].shells_on == 3
    assert tiles[3].reason.clause == "R-TURN-2"
    assert all(not o.available and o.reason.clause == "R-TURN-2" for o in tiles[3].options)


def test_provisional_values_are_marked_where_shown():
    """Provisional profile data (most slot VP, event texts) is flagged in the listing; sourced values are not."""
    s = state(row=["evt:wolves", "off", "mov", "exp", "off-ach", "mov-ach", "exp-ach"])
    tiles = overview(s)
    assert tiles[0].options[0].detail["provisional"] == ["text", "effects"]
    ach = {o.detail["achievement"]: o for o in tiles[4].options if o.kind == "achievement"}
    assert "resource" in ach["jagen"].detail["provisional"]
    assert "vp" not in ach["jagen"].detail["provisional"]  # Jagen slot 1 = 2 VP is printed in the rulebook
    assert "vp" in ach["toepfern"].detail["provisional"]
    off = tiles[1].options[0]
    assert off.detail["provisional"] == []  # Offspring level 1 = 1 member is known from a review


def test_describe_is_json_for_every_pending_kind():
    game = simulate(3, 8, "random")
    seen = set()
    for s in game.states:
        if s.pending.kind in seen:
            continue
        seen.add(s.pending.kind)
        info = json.loads(json.dumps(describe(s)))
        assert info["kind"] == s.pending.kind
    assert {"setup", "first_member", "choose", "draw", "place", "reveal", "event_reveal"} <= seen


def test_describe_chance_outcomes_and_explain():
    s = play(state(), "3:exp")
    info = describe(s)
    assert info["chance"] and info["count"] == 1 and info["bag"]["goat"] == 8
    assert explain(s, parse_move("draw goat")) is None
    assert "R-ACT-EXP-1" in explain(s, parse_move("draw goat goat"))
    outcomes = list(legal_moves(s))
    assert sorted(str(m) for m in outcomes) == [
        f"draw {r}" for r in sorted(["goat", "horse", "wheat", "gold", "incense"])
    ]


def test_legal_moves_view():
    s = state()
    view = legal_moves(s)
    assert view.count() == 22 and bool(view)
    assert parse_move("1:off 0,0") in view and parse_move("1:off 1,0") not in view
    assert "<LegalMoves at choose:" in repr(view)
