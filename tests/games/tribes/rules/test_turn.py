"""A turn: choosing from the action row, paying and collecting shells (R-TURN-*)."""

from __future__ import annotations

import pytest

from games.tribes.rules.engine import apply
from games.tribes.rules.errors import IllegalMoveError
from games.tribes.rules.moves import parse_move
from tests.games.tribes.rules.helpers import play, player, state


def row_of(s):
    return [(t.tile, t.shells) for t in s.row]


def test_front_tile_is_free_rulebook_example_1_R_TURN_2_R_TURN_5():
    """R-TURN-2: R-TURN-5 example 1: Offspring first in the row -> free."""
    s = state()
    after = play(s, "1:off 0,0")
    assert after.players[0].shells == 5
    assert row_of(after) == [("mov", 0), ("exp", 0), ("off-ach", 0), ("mov-ach", 0), ("exp-ach", 0), ("off", 0)]


def test_third_tile_costs_a_shell_on_each_skipped_rulebook_example_2_R_TURN_2():
    """R-TURN-2: R-TURN-5 example 2: Exploration third -> one shell on each of the two tiles before it."""
    s = state()
    after = play(s, "3:exp")
    assert after.players[0].shells == 3
    assert row_of(after)[:2] == [("off", 1), ("mov", 1)]
    assert row_of(after)[-1] == ("exp", 0)  # R-TURN-1: the chosen tile goes to the end


def test_shells_on_chosen_tile_are_collected_rulebook_example_3_R_TURN_3():
    """R-TURN-5 example 3: Exploration second holding 2 shells -> pay 1 on the front tile, take the 2."""
    s = state(row=["off", "exp+2", "mov", "off-ach", "mov-ach", "exp-ach"])
    s = play(s, "2:exp")
    assert s.pending.kind == "draw"
    assert s.players[0].shells == 4  # paid 1; the 2 come after the action (R-TURN-3)
    s = play(s, "draw goat", "place goat@1,-1")
    assert s.players[0].shells == 6
    assert row_of(s)[0] == ("off", 1)
    assert s.to_move == 1  # R-TURN-1: then the next player clockwise


def test_cannot_pay_R_TURN_2():
    """R-TURN-2: a player who cannot pay cannot choose that tile."""
    s = state(players=[player("A", shells=1), player("B")])
    with pytest.raises(IllegalMoveError) as err:
        apply(s, parse_move("3:exp"))
    assert err.value.clause == "R-TURN-2"
    assert "costs 2 shells" in str(err.value) and "you have 1" in str(err.value)
    play(s, "2:mov")  # one shell is enough for the second tile


def test_no_such_slot_R_TURN_1():
    s = state()
    with pytest.raises(IllegalMoveError, match="R-TURN-1: there is no slot 7"):
        apply(s, parse_move("7:off 0,0"))


def test_tile_must_show_the_action_R_TURN_4():
    """R-TURN-4: the chosen tile's action is the one carried out."""
    s = state()
    with pytest.raises(IllegalMoveError) as err:
        apply(s, parse_move("1:mov"))
    assert err.value.clause == "R-TURN-4"
    assert "slot 1 is 'Offspring', not Movement" in str(err.value)


def test_hand_tile_gives_action_or_achievement_not_both_R_TURN_4_R_ACH_1():
    """R-TURN-4: with a hand tile, the action OR an achievement; R-ACH-1: achievements only by a hand."""
    s = state()
    action = play(s, "4:off 0,0")
    assert action.players[0].supply == 13 and not any(0 in bt.stones for r in action.board for bt in r)
    # A (goat on 0,0) claims Töpfern (goat, era 1) with the same tile instead
    ach = play(s, "4:ach toepfern")
    assert ach.players[0].supply == 14 and ach.board[0][2].stones == (0,)
    with pytest.raises(IllegalMoveError) as err:
        apply(s, parse_move("1:ach toepfern"))
    assert err.value.clause == "R-ACH-1"


def test_events_in_row_cost_like_tiles_R_TURN_5_R_EVT_1():
    """R-TURN-5/R-EVT-1: an event in the row is chosen and paid for like any tile; skipping it puts a
    shell on it; the event's shells go to the taker; a taken event leaves the row."""
    s = state(row=["evt:wolves", "off", "mov", "exp", "off-ach", "mov-ach", "exp-ach"])
    skip = play(s, "2:off 0,0")
    assert row_of(skip)[0] == ("wolves", 1)
    # B is the weakest? All strength equal -> all weakest (R-EVT-2): wolves costs B 2 VP (B has 0 -> 0)
    take = play(skip, "1:evt")
    assert [t.tile for t in take.row] == ["mov", "exp", "off-ach", "mov-ach", "exp-ach", "off"]
    assert take.players[1].shells == 6  # collected the shell lying on the event
    assert take.done_events == ("wolves",)


def test_wrong_kind_of_move_names_what_the_game_waits_for():
    s = state()
    with pytest.raises(IllegalMoveError, match=r"R-TURN-1: the game waits for a tile choice"):
        apply(s, parse_move("draw goat"))
