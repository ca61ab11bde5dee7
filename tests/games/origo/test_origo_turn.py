"""A turn: the player on turn acts (O-TURN-1, O-TURN-5), lays shields (O-LAY-1), plays cards
(O-LAY-2), ends the turn with a refill (O-TURN-3, O-TURN-4) or passes (O-TURN-2); setup (O-SETUP-1);
refused moves change nothing (O-TURN-1)."""

from __future__ import annotations

import pytest

from games.origo.rules.engine import apply, check, legal_moves, new_game
from games.origo.rules.errors import IllegalMoveError
from games.origo.rules.moves import Lay, Pass, Play, Refill, parse_move
from games.origo.rules.state import FREE, Phase
from tests.games.origo.origo_helpers import default_start, play, setup, start, tiny_board


def refused(state, text, clause):
    with pytest.raises(IllegalMoveError) as info:
        apply(state, parse_move(text))
    assert info.value.clause == clause, str(info.value)
    assert "\n" not in str(info.value) and repr(text) in str(info.value)
    return str(info.value)


def test_O_SETUP_1_a_new_game_fills_supplies_and_hands_on_an_empty_board():
    s = default_start(("Ann", "Bob", "Cem"))
    assert s.supply == (30, 30, 30) and s.hands == (10, 10, 10)
    assert s.leader == (0, 0, 0) and all(o == FREE for o in s.owners)
    assert (s.round, s.turn, s.to_move, s.phase) == (1, 1, 0, Phase.TURN)
    assert default_start().supply == (44, 44)
    assert default_start(("A", "B", "C", "D", "E")).supply == (22,) * 5


@pytest.mark.parametrize(
    ("players", "fragment"),
    [
        ([("Ann", "red")], "played by 2, 3, 4, 5 players"),
        ([("Ann", "red"), ("ann", "blue")], "two players are called 'ann'"),
        ([("Ann", "red"), ("Bob", "red")], "two players play red"),
        ([("Ann", "red"), ("Bob", "pink")], "'pink' is no shield colour"),
        ([("Ann", "red"), ("Bob", "black")], "black has 32 shields; 2 players need 44"),
        ([("Ann ", "red"), ("Bob", "blue")], "single spaces"),
    ],
)
def test_O_SETUP_1_a_bad_player_list_is_refused(players, fragment):
    from games.origo.rules.board import default_board

    with pytest.raises(ValueError, match=fragment):
        new_game(players, default_board())


def test_O_LAY_1_a_shield_goes_from_the_supply_to_a_free_field():
    s = play(start(), "lay Ann A1")
    assert s.owners[s.board.find("A1")] == 0 and s.supply == (9, 10) and s.acted
    refused(s, "lay Ann A1", "O-LAY-1")
    empty = setup(start(), supply=(0, 10))
    assert "no unused shield" in refused(empty, "lay Ann B1", "O-LAY-1")


def test_O_BOARD_1_a_field_the_board_lacks_is_refused():
    assert "the board has no field E1" in refused(start(), "lay Ann E1", "O-BOARD-1")
    assert "the board has no field A4" in refused(start(), "attack Ann A4", "O-BOARD-1")


def test_O_TURN_5_only_the_player_on_turn_moves_and_turns_go_in_seat_order():
    s = start(("Ann", "Bob", "Cem"))
    assert "it is Ann's turn" in refused(s, "lay Bob A1", "O-TURN-5")
    assert "nobody called 'Dan'" in refused(s, "lay Dan A1", "O-TURN-5")
    s = play(s, "lay Ann A1", "refill Ann")
    assert s.to_move == 1 and s.round == 1 and s.turn == 2
    s = play(s, "pass Bob", "lay Cem B1", "refill Cem")
    assert (s.round, s.to_move, s.turn, s.passes) == (2, 0, 4, 0)


def test_O_TURN_1_actions_in_any_order_and_number_and_a_non_move_is_refused():
    s = play(start(), "lay Ann A1", "play Ann 1", "lay Ann B1", "play Ann 2", "lay Ann C1")
    assert s.hands[0] == 7 and s.supply[0] == 7
    assert check(s, "lay Ann D1") == ("O-TURN-1", "'lay Ann D1' is not a move of Origo")
    with pytest.raises(IllegalMoveError) as info:
        apply(s, object())
    assert info.value.clause == "O-TURN-1"


def test_O_LAY_2_cards_played_outside_a_battle_at_most_the_hand():
    s = play(start(), "play Ann 4")
    assert s.hands == (6, 10)
    assert "holds 6 card(s), not 7" in refused(s, "play Ann 7", "O-LAY-2")
    assert Play("Ann", 6) in legal_moves(s) and Play("Ann", 7) not in legal_moves(s)


def test_O_TURN_3_refill_ends_a_turn_with_an_action_and_restores_the_hand():
    s = play(start(), "play Ann 3")
    s2 = play(s, "refill Ann")
    assert s2.hands == (10, 10) and s2.to_move == 1 and not s2.acted
    assert "has done nothing this turn" in refused(start(), "refill Ann", "O-TURN-3")
    assert Refill("Ann") not in legal_moves(start()) and Pass("Ann") in legal_moves(start())


def test_O_TURN_4_the_refill_refills_the_defenders_of_the_turn_too():
    from games.origo.rules.state import Battle

    s = setup(start(), {"A1": "Ann", "B1": "Bob", "A2": "Bob"}, founded=("L1",))
    s = play(s, "attack Ann B1", "stop Ann", "card Bob", "stop Ann")  # Ann 2+1=3 vs Bob 1+1+2=4: Bob wins
    assert s.phase is Phase.TURN and s.hands == (9, 9)
    assert s.battle is None and isinstance(Battle(0, 0, 1), Battle)
    s = play(s, "refill Ann")
    assert s.hands == (10, 10)


def test_O_TURN_2_a_pass_only_before_anything_is_done():
    s = play(start(), "lay Ann A1")
    assert "has acted this turn" in refused(s, "pass Ann", "O-TURN-2")
    s = play(start(), "pass Ann")
    assert s.passes == 1 and s.to_move == 1 and s.hands == (10, 10)
    assert Lay("Bob", "A1") in legal_moves(s)


def test_refused_moves_change_nothing():
    s = start()
    before = repr(s)
    for text in ("lay Bob A1", "refill Ann", "card Ann", "reveal 3", "points Ann 3", "attack Ann A1"):
        with pytest.raises(IllegalMoveError):
            apply(s, parse_move(text))
    assert repr(s) == before


def test_moves_of_other_phases_in_a_turn_name_their_clause():
    s = start()
    refused(s, "card Ann", "O-ATK-4")
    refused(s, "stop Ann", "O-ATK-4")
    refused(s, "reveal 3", "O-FOUND-2")
    refused(s, "points Ann 2", "O-SCORE-1")


def test_the_legal_moves_of_a_new_game_are_lays_plays_and_the_pass():
    s = start()
    moves = [str(m) for m in legal_moves(s)]
    assert len(moves) == s.board.n_fields + 10 + 1 == legal_moves(s).count()
    assert moves[0] == "lay Ann A1" and moves[-1] == "pass Ann"
    assert tiny_board().n_fields == 12
