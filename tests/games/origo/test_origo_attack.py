"""Attacks and battles (O-ATK-1…13) on the tiny board:

    A   B   C   D
1   L1  L1  S1  S1
2   L1  L2  S1  L3
3   L2  L2  L3  L3
"""

from __future__ import annotations

import pytest

from games.origo.rules import battle as calc
from games.origo.rules.engine import apply, legal_moves
from games.origo.rules.errors import IllegalMoveError
from games.origo.rules.moves import Attack, Card, Stop, parse_move
from games.origo.rules.state import Phase
from tests.games.origo.origo_helpers import play, setup, start


def refused(state, text, clause):
    with pytest.raises(IllegalMoveError) as info:
        apply(state, parse_move(text))
    assert info.value.clause == clause, str(info.value)
    return str(info.value)


def l1_founded(**fields):
    """L1 founded; Ann on A1, Bob on B1 (plus ``fields``)."""
    return setup(start(), {"A1": "Ann", "B1": "Bob", **fields}, founded=("L1",))


def test_O_ATK_1_only_an_opponents_field_in_a_founded_land_or_full_sea_next_to_your_shield():
    s = l1_founded()
    assert Attack("Ann", "B1") in legal_moves(s)
    assert "A2 is free" in refused(s, "attack Ann A2", "O-ATK-1")
    assert "own shield" in refused(s, "attack Ann A1", "O-ATK-1")
    # a land that is not founded
    s2 = setup(start(), {"A1": "Ann", "B1": "Bob"})
    assert "not founded" in refused(s2, "attack Ann B1", "O-ATK-1")
    # a sea with a free field, then full
    s3 = setup(start(), {"B1": "Ann", "C1": "Bob", "D1": "Bob"})
    assert "only a fully occupied sea" in refused(s3, "attack Ann C1", "O-ATK-1")
    s4 = setup(s3, {"C2": "Bob"})
    assert Attack("Ann", "C1") in legal_moves(s4)
    # no shield of the attacker next to the field
    s5 = setup(start(), {"A1": "Bob", "B1": "Bob", "A2": "Bob", "B3": "Ann"}, founded=("L1",))
    assert "no shield of Ann lies on a field adjacent to A1" in refused(s5, "attack Ann A1", "O-ATK-1")


def test_O_ATK_2_a_shield_touching_only_at_a_corner_neither_allows_an_attack_nor_counts():
    s = setup(start(), {"A2": "Ann", "B1": "Bob"}, founded=("L1",))
    assert "diagonal fields are not adjacent" in refused(s, "attack Ann B1", "O-ATK-2")
    # with an adjacent shield the attack is allowed, and the diagonal one (C2) still does not count
    s = l1_founded(C2="Ann")
    assert calc.base_points(s.board, s.owners, s.board.find("B1"), 0, 1) == (1, 1)
    s = l1_founded(C1="Ann")  # C1 shares a side with B1: it counts
    assert calc.base_points(s.board, s.owners, s.board.find("B1"), 0, 1) == (2, 1)


def test_O_ATK_3_the_attacker_needs_a_card():
    s = setup(l1_founded(), hands=(0, 10))
    assert "holds no card to attack with" in refused(s, "attack Ann B1", "O-ATK-3")
    assert not any(isinstance(m, Attack) for m in legal_moves(s))


def test_O_ATK_4_the_attack_lays_a_shield_plays_a_card_and_opens():
    s = setup(l1_founded(), supply=(0, 9))
    assert "no unused shield" in refused(s, "attack Ann B1", "O-ATK-4")
    s = play(l1_founded(), "attack Ann B1")
    assert s.phase is Phase.BATTLE and s.supply == (8, 9) and s.hands == (9, 10)
    assert s.battle.opening and s.battle.attacker_cards == 1 and s.on_board(0) == 2
    # in the opening only the attacker plays, as many cards as he likes, even while ahead
    assert "still playing the opening cards" in refused(s, "card Bob", "O-ATK-4")
    s = play(s, "card Ann", "card Ann")
    assert s.battle.opening and s.battle.attacker_cards == 3 and s.hands == (7, 10)
    s = play(s, "stop Ann")  # ahead: the opening ends and the defender answers
    assert s.phase is Phase.BATTLE and not s.battle.opening
    assert [str(m) for m in legal_moves(s)] == ["card Bob", "stop Bob"]


def test_O_ATK_5_attacker_points_two_per_card_plus_adjacent_own_shields():
    s = play(l1_founded(C1="Ann", B2="Ann"), "attack Ann B1", "card Ann")
    a, d = calc.battle_points(s, s.battle)
    assert a == 2 * 2 + 3  # A1, C1, B2 share a side with B1; Ann's shield on B1 itself does not count
    assert d == 1


def test_O_ATK_6_defender_points_adjacent_shields_including_the_attacked_one_plus_cards():
    s = setup(start(), {"A1": "Ann", "B1": "Bob", "C1": "Bob", "B2": "Bob"}, founded=("L1",))
    s = play(s, "attack Ann B1")
    assert calc.battle_points(s, s.battle) == (2 + 1, 2 + 1)
    s = play(s, "card Ann", "stop Ann", "card Bob")  # Ann opens with 2 cards, Bob answers with 1
    assert calc.battle_points(s, s.battle) == (5, 5)


def test_O_ATK_7_a_tie_goes_to_the_defender_and_only_the_attacker_answers():
    s = setup(start(), {"A1": "Ann", "B1": "Bob", "C1": "Bob", "B2": "Bob"}, founded=("L1",))
    s = play(s, "attack Ann B1", "card Ann", "stop Ann", "card Bob")  # 5 : 5
    assert calc.leading(*calc.battle_points(s, s.battle)).value == "defender"
    assert "a tie is the defender's" in refused(s, "card Bob", "O-ATK-7")
    s2 = play(s, "stop Ann")
    assert s2.phase is Phase.TURN and s2.owners[s2.board.find("B1")] == 1 and s2.out == (1, 0)


def test_O_ATK_8_while_the_attacker_leads_only_the_defender_answers_one_card_at_a_time():
    s = play(l1_founded(), "attack Ann B1", "stop Ann")  # 3 : 1
    assert "only Bob answers" in refused(s, "card Ann", "O-ATK-8")
    s = play(s, "card Bob")  # 3 : 3: now Ann is behind
    assert [str(m) for m in legal_moves(s)] == ["card Ann", "stop Ann"]
    s = play(s, "card Ann")  # 5 : 3
    assert [str(m) for m in legal_moves(s)] == ["card Bob", "stop Bob"]


def test_O_ATK_9_the_battle_goes_on_until_a_side_cannot_or_will_not_play():
    s = setup(l1_founded(), hands=(10, 1))
    s = play(s, "attack Ann B1", "stop Ann", "card Bob", "card Ann")  # 5 : 3, Bob has no card left
    assert "holds no card" in refused(s, "card Bob", "O-ATK-9")
    assert list(legal_moves(s)) == [Stop("Bob")]
    s = play(s, "stop Bob")
    assert s.phase is Phase.TURN and s.owners[s.board.find("B1")] == 0


def test_O_ATK_10_the_attacker_wins_the_defenders_shield_leaves_the_game():
    s = play(l1_founded(), "attack Ann B1", "stop Ann", "stop Bob")
    assert s.owners[s.board.find("B1")] == 0 and s.out == (0, 1)
    assert s.supply == (8, 9) and s.shields_total(0) == 10 and s.shields_total(1) == 10


def test_O_ATK_11_the_defender_wins_the_attackers_shield_leaves_the_game():
    s = play(l1_founded(), "attack Ann B1", "stop Ann", "card Bob", "stop Ann")
    assert s.owners[s.board.find("B1")] == 1 and s.out == (1, 0)
    assert s.supply == (8, 9) and s.shields_total(0) == 10


def test_O_ATK_12_one_battle_at_a_time_and_hands_refill_only_at_the_attackers_refill():
    s = play(l1_founded(), "attack Ann B1")
    assert "a battle for B1 is in progress" in refused(s, "lay Ann A2", "O-ATK-12")
    refused(s, "refill Ann", "O-ATK-12")
    refused(s, "attack Ann B1", "O-ATK-12")
    s = play(s, "stop Ann", "card Bob", "card Ann", "stop Bob")
    assert s.hands == (8, 9)  # not refilled when the battle ends
    assert play(s, "refill Ann").hands == (10, 10)


def test_O_ATK_13_several_attacks_in_one_turn():
    s = setup(start(), {"A1": "Ann", "B1": "Bob", "A2": "Bob"}, founded=("L1",))
    s = play(s, "attack Ann B1", "stop Ann", "stop Bob")
    assert Attack("Ann", "A2") in legal_moves(s)
    s = play(s, "attack Ann A2", "stop Ann", "stop Bob")
    assert s.out == (0, 2) and s.hands == (8, 10)


def test_the_battle_actor_and_prompt_follow_the_side_behind():
    import games

    rules = games.get("origo").rules
    s = play(l1_founded(), "attack Ann B1")
    assert rules.actor(s) == 0
    p = rules.prompt(s)
    assert p["battle"]["attacker_points"] == 3 and p["options"][1]["means"].startswith("ends Ann's opening")
    s = play(s, "stop Ann")
    assert rules.actor(s) == 1
    assert rules.prompt(s)["options"][1]["means"] == "Bob's shield on B1 leaves the game"
    assert Card("Bob") in legal_moves(s) and rules.turn_key(s) == ("turn", 1)
