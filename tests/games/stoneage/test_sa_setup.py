"""Setup and chance: start values, the card places and building stacks revealed from the table, a
fixed order from the settings, chance only when the table is asked (S-SET-*, S-CHANCE-1)."""

from __future__ import annotations

import random

import pytest
from sa_helpers import CARDS4, RULES, acting, moves_of, new, play, started

from games.errors import IllegalMoveError
from games.stoneage.plugin import state_from_settings
from games.stoneage.rules.engine import chance_outcomes, explain, sample_chance
from games.stoneage.rules.errors import DataFileError
from games.stoneage.rules.moves import parse_move
from games.stoneage.rules.state import Phase


def refused(state, move: str, clause: str) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as exc:
        play(state, move)
    assert exc.value.clause == clause, str(exc.value)
    assert explain(state, parse_move(move)).startswith(clause)
    return exc.value


@pytest.mark.parametrize("n", [2, 3, 4])
def test_S_SET_1_two_to_four_players_five_people_twelve_food(n):
    s = new(n)
    assert len(s.players) == n
    for p in s.players:
        assert (p.people, p.food, p.agri, p.res, p.tools, p.cards, p.points) == (5, 12, 0, (0, 0, 0, 0), (), (), 0)


def test_S_SET_1_one_or_five_players_are_refused():
    for k in (1, 5):
        with pytest.raises(ValueError, match="2 to 4 players"):
            RULES.settings([("X", "red")] * k)
    with pytest.raises(DataFileError, match=r"settings\.players"):
        state_from_settings({"players": [{"name": "Solo"}]})


def test_S_SET_2_the_four_card_places_are_filled_from_the_deck_cheapest_first():
    s = new()
    assert s.phase is Phase.REVEAL and s.is_chance and s.display == (None, None, None, None)
    assert len(moves_of(s)) == 36
    s = play(s, "reveal c17")
    assert s.display == ("c17", None, None, None) and "c17" not in s.unseen_cards
    refused(s, "reveal c17", "S-SET-2")
    refused(s, "reveal b01", "S-SET-2")  # a card is revealed first, not a building
    s = play(s, "reveal c02", "reveal c03", "reveal c04")
    assert s.display == ("c17", "c02", "c03", "c04") and s.phase is Phase.REVEAL
    assert len(moves_of(s)) == 28  # now the building stacks


@pytest.mark.parametrize("n", [2, 3, 4])
def test_S_SET_3_one_building_stack_of_seven_per_player(n):
    s = started(n)
    assert s.phase is Phase.PLACE and len(s.tops) == n and s.left == (6,) * n
    assert len(s.unseen_buildings) == 28 - n  # the stacks set aside stay unseen
    assert [x for x in s.names if x.startswith("building")] == [f"building{i + 1}" for i in range(n)]


def test_S_SET_4_a_fixed_order_from_the_settings_is_followed():
    prof_cards = [f"c{i:02d}" for i in range(36, 0, -1)]
    stacks = [[f"b{7 * k + j + 1:02d}" for j in range(7)] for k in range(2)]
    s = new(2, order={"cards": prof_cards, "buildings": stacks})
    assert moves_of(s) == ["reveal c36"]
    e = refused(s, "reveal c01", "S-SET-4")
    assert "c36" in str(e)
    s = play(s, "reveal c36", "reveal c35", "reveal c34", "reveal c33")
    assert moves_of(s) == ["reveal b01"]
    s = play(s, "reveal b01", "reveal b08")
    assert s.phase is Phase.PLACE and s.building_order == (tuple(stacks[0][1:]), tuple(stacks[1][1:]))
    fixed = new(2, order={"cards": prof_cards})
    assert all(str(sample_chance(fixed, random.Random(seed))) == "reveal c36" for seed in range(5))


def test_S_SET_4_a_bad_order_names_the_field():
    with pytest.raises(DataFileError, match=r"settings\.order\.cards"):
        new(2, order={"cards": ["c01"]})
    with pytest.raises(DataFileError, match=r"settings\.order\.buildings\[1\]"):
        new(
            2,
            order={
                "buildings": [
                    ["b01"] * 1 + [f"b0{i}" for i in range(2, 8)],
                    ["b01", "b09", "b10", "b11", "b12", "b13", "b14"],
                ]
            },
        )


def test_S_SET_5_the_first_seat_starts_round_one():
    s = started()
    assert s.start == 0 and s.actor == 0 and s.round == 1


def test_S_CHANCE_1_chance_outcomes_only_when_the_table_is_asked():
    s = new()
    refused(s, "place hunt 1", "S-CHANCE-1")
    outs = chance_outcomes(s)
    assert len(outs) == 36 and abs(sum(p for _, p in outs) - 1) < 1e-12
    s = started()
    refused(s, "reveal c05", "S-CHANCE-1")
    refused(s, "roll hunt 1", "S-CHANCE-1")
    assert chance_outcomes(s) == []
    with pytest.raises(ValueError, match="no chance outcome"):
        sample_chance(s, random.Random(0))


def test_S_DICE_3_roll_outcomes_carry_their_probabilities():
    s = play(acting(placed={0: {"hunt": 3}}), "take hunt")
    outs = chance_outcomes(s)
    assert len(outs) == 56 and abs(sum(p for _, p in outs) - 1) < 1e-12
    probs = {str(m): p for m, p in outs}
    assert probs["roll hunt 1,1,1"] == pytest.approx(1 / 216) and probs["roll hunt 1,2,3"] == pytest.approx(6 / 216)


def test_S_SET_2_the_round_one_display_of_the_tests():
    assert started().display == tuple(CARDS4)
