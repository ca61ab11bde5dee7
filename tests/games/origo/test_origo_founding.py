"""Founding lands (O-FOUND-1…7), tribe scorings with the one-per-round carry-over, the final scoring
and the end of the game (O-SCORE-1…3, O-END-1…3)."""

from __future__ import annotations

import pytest

import games
from games.origo.page.view import scoring_view
from games.origo.rules.engine import apply, legal_moves, scoring_rounds
from games.origo.rules.errors import IllegalMoveError
from games.origo.rules.moves import Points, Reveal, parse_move
from games.origo.rules.state import EndTrigger, Phase
from tests.games.origo.origo_helpers import play, setup, start, tiny_board, tiny_doc

RULES = games.get("origo").rules


def refused(state, text, clause):
    with pytest.raises(IllegalMoveError) as info:
        apply(state, parse_move(text))
    assert info.value.clause == clause, str(info.value)
    return str(info.value)


def found_l1(state=None, reveal="reveal 2"):
    s = play(state or start(), "lay Ann A1", "lay Ann B1", "lay Ann A2")
    assert s.phase is Phase.REVEAL
    return play(s, reveal)


def test_O_FOUND_1_filling_the_last_free_field_of_a_land_founds_it():
    s = play(start(), "lay Ann A1", "lay Ann B1")
    assert s.phase is Phase.TURN
    s = play(s, "lay Ann A2")
    assert s.phase is Phase.REVEAL and s.founding_land == s.board.region("L1")
    assert RULES.is_chance(s)


def test_O_FOUND_1_the_layer_founds_even_if_others_hold_the_other_fields():
    s = setup(start(), {"A1": "Ann", "B1": "Ann"}, to_move=1)
    s = play(s, "lay Bob A2", "reveal 3")
    assert s.founded[-1].seat == 1 and s.leader == (0, 3)


def test_O_FOUND_1_a_full_sea_is_not_founded():
    s = play(start(), "lay Ann C1", "lay Ann D1", "lay Ann C2")
    assert s.phase is Phase.TURN and not s.founded


def test_O_FOUND_2_the_table_reports_the_founding_field_and_nothing_else_is_accepted_first():
    s = play(start(), "lay Ann A1", "lay Ann B1", "lay Ann A2")
    assert "report the founding field revealed first" in refused(s, "lay Ann B2", "O-FOUND-2")
    refused(s, "refill Ann", "O-FOUND-2")
    assert "at most 6" in refused(s, "reveal 7", "O-FOUND-2")
    moves = list(legal_moves(s))
    assert len(moves) == 2 * 7 and all(m.chance for m in moves)
    # the board file's field under the leftmost stone is the expectation, not a constraint
    assert RULES.chance_outcomes(s) == [(Reveal(2, False), 1.0)]
    s2 = play(s, "reveal 5 red")
    assert s2.founded[-1].value == 5 and s2.founded[-1].red and s2.leader[0] == 5
    assert s2.stones_left == 2


def test_O_FOUND_2_the_leftmost_stone_goes_first():
    s = found_l1()
    assert RULES.chance_outcomes(play(s, "lay Ann B2", "lay Ann A3", "lay Ann B3")) == [(Reveal(3, True), 1.0)]
    assert refused(s, "reveal 1", "O-FOUND-2")


def test_O_FOUND_3_the_leader_advances_by_the_value_and_stops_at_the_path_end():
    s = found_l1(reveal="reveal 4")
    assert s.leader == (4, 0)
    near = setup(start(), leader=(18, 0))
    s = found_l1(near, reveal="reveal 6")
    assert s.leader == (20, 0)  # the path has 20 fields


def test_O_FOUND_4_a_red_field_schedules_a_tribe_scoring_at_the_round_end():
    s = found_l1(reveal="reveal 3 red")
    assert s.scorings_due == 1 and scoring_rounds(s) == [1]
    s = play(s, "refill Ann")
    view = scoring_view(s)
    assert "tribe scoring takes place at the end of this round (round 1)" in view["reminder"]
    assert "Bob's turn is the last of the round" in view["reminder"]
    s = play(s, "pass Bob")
    assert s.phase is Phase.SCORING and s.round == 1 and s.scorings_due == 0
    assert "Tribe scoring at the end of round 1" in scoring_view(s)["reminder"]
    assert RULES.prompt(s)["missing"] == ["Ann", "Bob"]
    s = play(s, "points Bob 4", "points Ann 7")
    assert s.phase is Phase.TURN and s.round == 2 and s.tribe == (7, 4) and s.scorings_held == 1


def test_O_FOUND_4_a_founding_field_that_is_not_red_schedules_nothing():
    s = play(found_l1(reveal="reveal 3"), "refill Ann", "pass Bob")
    assert s.phase is Phase.TURN and s.round == 2 and s.scorings_due == 0


def test_O_FOUND_5_a_second_red_in_the_same_round_moves_to_the_next_round():
    s = found_l1(reveal="reveal 3 red")
    s = play(s, "lay Ann B2", "lay Ann A3", "lay Ann B3", "reveal 4 red")
    assert s.scorings_due == 2 and scoring_rounds(s) == [1, 2]
    assert "carried over (O-FOUND-5, one per round): the end of round 2" in scoring_view(s)["reminder"]
    s = play(s, "refill Ann", "pass Bob")
    assert s.phase is Phase.SCORING and s.scorings_due == 1  # only one at this round's end
    s = play(s, "points Ann 1", "points Bob 1")
    assert s.round == 2 and s.phase is Phase.TURN and scoring_rounds(s) == [2]
    s = play(s, "pass Ann", "pass Bob")
    assert s.phase is Phase.SCORING and s.round == 2 and s.scorings_due == 0
    s = play(s, "points Ann 2", "points Bob 3")
    assert s.tribe == (3, 4) and s.scorings_held == 2


def test_O_FOUND_5_scorings_queue_one_per_round_end():
    doc = tiny_doc()
    doc["founding_track"]["fields"] = [{"value": 1, "red": True}] * 3
    doc["regions"].append({"id": "L4", "kind": "land", "name": {"de": "Vier", "en": "Four"}})
    doc["map"]["rows"].append("L4 L4 L4 L4")
    doc["founding_track"]["fields"].append({"value": 1, "red": True})
    from games.origo.rules.board import parse_board

    s = start(board=parse_board(doc, "b"))
    s = play(s, "lay Ann A1", "lay Ann B1", "lay Ann A2", "reveal 1 red")
    s = play(s, "lay Ann B2", "lay Ann A3", "lay Ann B3", "reveal 1 red")
    s = play(s, "lay Ann D2", "lay Ann C3", "lay Ann D3", "reveal 1 red")
    assert scoring_rounds(s) == [1, 2, 3]
    held = []
    for sea in ("C1", "D1", "C2"):  # Bob lays a shield each round: not everybody passes (O-END-1)
        s = play(s, "refill Ann" if s.acted else "pass Ann", f"lay Bob {sea}", "refill Bob")
        held.append((s.phase, s.round))
        s = play(s, "points Ann 0", "points Bob 0")
    assert held == [(Phase.SCORING, 1), (Phase.SCORING, 2), (Phase.SCORING, 3)]
    assert s.scorings_held == 3 and s.round == 4


def test_O_FOUND_5_a_carried_scoring_and_a_new_red_in_the_next_round():
    s = found_l1(reveal="reveal 3 red")
    s = play(s, "lay Ann B2", "lay Ann A3", "lay Ann B3", "reveal 4 red", "refill Ann", "pass Bob")
    s = play(s, "points Ann 0", "points Bob 0")  # round 1's scoring; one carried to round 2
    s = play(s, "lay Ann D2", "lay Ann C3", "lay Ann D3", "reveal 1 red")  # a new red in round 2
    assert s.scorings_due == 2 and scoring_rounds(s) == [2, 3]


def test_O_FOUND_6_a_founded_land_is_never_founded_again():
    s = setup(start(), {"A1": "Ann", "B1": "Bob"}, founded=("L1",))
    s = play(s, "lay Ann A2")
    assert s.phase is Phase.TURN and len(s.founded) == 1


def test_O_FOUND_7_without_a_founding_stone_a_filled_land_founds_nothing():
    doc = tiny_doc()
    doc["founding_track"]["fields"] = [{"value": 2, "red": False}]
    from games.origo.rules.board import parse_board

    s = found_l1(start(board=parse_board(doc, "one stone")))
    assert s.stones_left == 0 and s.end is EndTrigger.STONES
    s = play(s, "lay Ann B2", "lay Ann A3", "lay Ann B3")
    assert s.phase is Phase.TURN and len(s.founded) == 1


def test_O_SCORE_1_every_player_is_entered_once_in_any_order():
    s = play(found_l1(reveal="reveal 3 red"), "refill Ann", "pass Bob")
    assert "Ann's points of this tribe scoring are entered" in refused(
        play(s, "points Ann 2"), "points Ann 1", "O-SCORE-1"
    )
    refused(s, "lay Ann B2", "O-SCORE-1")
    refused(s, "points Cem 1", "O-SCORE-1")
    moves = list(legal_moves(s))
    assert len(moves) == 2 * 100 and Points("Bob", 99) in moves
    assert RULES.actor(s) == 0 and RULES.actor(play(s, "points Ann 0")) == 1
    assert RULES.turn_key(s) == ("scoring", 1)


def test_O_END_1_a_round_in_which_everybody_passes_ends_the_game():
    s = play(start(), "pass Ann", "pass Bob")
    assert s.phase is Phase.FINAL and s.end is EndTrigger.PASSES
    s = play(start(), "pass Ann", "lay Bob A1", "refill Bob")
    assert s.phase is Phase.TURN and s.round == 2


def test_O_END_2_the_last_shield_ends_the_game_at_the_end_of_the_round():
    s = setup(start(), supply=(1, 10))
    s = play(s, "lay Ann C1")
    assert s.end is EndTrigger.SHIELDS and s.phase is Phase.TURN
    s = play(s, "refill Ann")
    assert s.phase is Phase.TURN and s.to_move == 1  # the round is played to its end
    s = play(s, "lay Bob D1", "refill Bob")
    assert s.phase is Phase.FINAL


def test_O_END_2_the_last_founding_stone_ends_the_game_after_the_round_and_its_scoring():
    s = setup(start(), {"A1": "Ann", "B1": "Ann", "B2": "Ann", "A3": "Ann"}, founded=("L2",), scorings_held=0)
    s = play(s, "lay Ann A2", "reveal 3 red", "lay Ann D2", "lay Ann C3", "lay Ann D3", "reveal 4 red")
    assert s.stones_left == 0 and s.end is EndTrigger.STONES and s.scorings_due == 2
    s = play(s, "refill Ann", "pass Bob")
    assert s.phase is Phase.SCORING
    s = play(s, "points Ann 5", "points Bob 2")
    assert s.phase is Phase.FINAL and s.scorings_due == 1


def test_O_SCORE_2_a_scoring_still_scheduled_at_the_end_lapses():
    s = setup(start(), {"A1": "Ann", "B1": "Ann", "B2": "Ann", "A3": "Ann"}, founded=("L2",))
    s = play(s, "lay Ann A2", "reveal 3 red", "lay Ann D2", "lay Ann C3", "lay Ann D3", "reveal 4 red")
    s = play(s, "refill Ann", "pass Bob", "points Ann 5", "points Bob 2")
    view = scoring_view(s)
    assert view["lapsed"] == 1 and view["rounds"] == [] and view["held"] == 1
    s = play(s, "points Ann 0", "points Bob 0")
    assert s.is_over and s.tribe == (5, 2) and scoring_view(s)["lapsed"] == 1


def test_O_SCORE_3_the_final_scoring_then_the_ranking_by_points_then_leader():
    s = play(start(("Ann", "Bob", "Cem")), "pass Ann", "pass Bob", "pass Cem")
    assert s.phase is Phase.FINAL
    assert "Final scoring" in RULES.prompt(s)["text"]
    refused(s, "lay Ann A1", "O-SCORE-3")
    s = setup(s, leader=(3, 5, 5))
    s = play(s, "points Cem 4", "points Ann 6", "points Bob 4")
    assert s.is_over and s.final == (6, 4, 4)
    ranking = RULES.ranking(s)
    assert [(r.place, r.name, r.score) for r in ranking] == [(1, "Ann", 6), (2, "Bob", 4), (2, "Cem", 4)]
    s2 = setup(s, leader=(3, 5, 6))
    assert [(r.place, r.name) for r in RULES.ranking(s2)] == [(1, "Ann"), (2, "Cem"), (3, "Bob")]
    assert RULES.result(s)["end"] == "passes"


def test_O_END_3_no_move_after_the_game_is_over():
    s = play(start(), "pass Ann", "pass Bob", "points Ann 1", "points Bob 1")
    assert s.is_over and not legal_moves(s) and RULES.turn_key(s) == ("over",)
    refused(s, "lay Ann A1", "O-END-3")
    refused(s, "points Ann 1", "O-END-3")


def test_the_tiny_board_has_three_founding_stones():
    assert tiny_board().stones == 3
