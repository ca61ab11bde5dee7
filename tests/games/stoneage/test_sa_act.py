"""Section 2, carrying out: the order, the village, dice places with tools, civilization cards and
buildings (S-ACT-*, S-TOOL-*, S-HUT-1, S-FIELD-1, S-DICE-*, S-CARD-*, S-BLD-*)."""

from __future__ import annotations

import pytest
from sa_helpers import acting, moves_of, play, profile_with

from games.errors import IllegalMoveError, InvalidMoveError
from games.stoneage.rules.engine import add_tool, explain
from games.stoneage.rules.moves import parse_move
from games.stoneage.rules.state import Phase, Work


def refused(state, move: str, clause: str) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as exc:
        play(state, move)
    assert exc.value.clause == clause, str(exc.value)
    assert explain(state, parse_move(move)).startswith(clause)
    return exc.value


def test_S_ACT_1_the_player_chooses_the_order_of_their_own_places():
    s = acting(placed={0: {"wood": 2, "toolmaker": 1}, 1: {"hunt": 1}})
    assert s.phase is Phase.ACT and s.actor == 0
    assert set(moves_of(s)) == {"take wood", "take toolmaker"}
    refused(s, "take clay", "S-ACT-1")
    refused(s, "skip card1", "S-ACT-1")
    s = play(s, "take toolmaker")  # the tool first, to use it in the forest
    assert s.players[0].tools == (1,) and s.actor == 0
    s = play(s, "take wood", "roll wood 1,1", "tools 1")
    assert s.players[0].res == (1, 0, 0, 0)


def test_S_ACT_2_people_come_home_and_the_next_player_follows_only_after_all():
    s = acting(placed={0: {"field": 1, "hut": 2}, 1: {"toolmaker": 1}})
    s = play(s, "take field")
    assert s.players[0].placed[7] == 0 and s.players[0].placed[6] == 2 and s.actor == 0
    s = play(s, "take hut")
    assert s.actor == 1 and not any(s.players[0].placed)


def test_S_TOOL_1_new_tools_then_upgrades_lowest_first_up_to_four():
    s = acting(placed={0: {"toolmaker": 1}})
    w = Work(s)
    t = w.tribe(0)
    seen = []
    for _ in range(13):
        add_tool(w, t)
        seen.append(tuple(t.tools))
    assert seen[:6] == [(1,), (1, 1), (1, 1, 1), (2, 1, 1), (2, 2, 1), (2, 2, 2)]
    assert seen[11] == (4, 4, 4) and seen[12] == (4, 4, 4)  # nothing more at the top
    # an unused tool goes up when used and unused ones share the lowest value (companion's choice)
    t.tools, t.used = [2, 1, 1], [1]
    add_tool(w, t)
    assert (t.tools, t.used) == ([2, 2, 1], [1])
    t.tools, t.used = [2, 1, 1], [1, 1]
    add_tool(w, t)
    assert (t.tools, t.used) == ([2, 2, 1], [2, 1])  # both 1s were used: the upgraded one stays used


def test_S_TOOL_1_the_tool_maker_works_through_the_engine():
    s = acting(placed={0: {"toolmaker": 1}}, fields={0: {"tools": (4, 4, 4)}})
    s = play(s, "take toolmaker")
    assert s.players[0].tools == (4, 4, 4)


def test_S_TOOL_2_each_tool_once_per_round():
    s = acting(placed={0: {"wood": 2, "clay": 1}}, fields={0: {"tools": (2, 1)}})
    s = play(s, "take wood", "roll wood 1,2", "tools 2")
    assert s.players[0].used == (2,) and s.players[0].res[0] == 1
    s = play(s, "take clay", "roll clay 3")
    assert s.phase is Phase.TOOLS
    assert moves_of(s) == ["tools -", "tools 1"]
    refused(s, "tools 2", "S-TOOL-2")


def test_S_TOOL_3_a_tool_is_used_whole_never_part_of_it():
    s = acting(placed={0: {"wood": 1}}, fields={0: {"tools": (3,)}})
    s = play(s, "take wood", "roll wood 1")
    refused(s, "tools 2", "S-TOOL-2")  # no splitting the 3 into 2 + 1
    s = play(s, "tools 3")
    assert s.players[0].res[0] == 1 and s.players[0].used == (3,)


def test_S_TOOL_4_tools_are_chosen_after_the_roll_only_when_there_is_one():
    s = acting(placed={0: {"hunt": 2}, 1: {"hunt": 2}}, fields={0: {"tools": (1,)}})
    s = play(s, "take hunt", "roll hunt 3,4")
    assert s.phase is Phase.TOOLS and s.actor == 0 and s.dice == (3, 4)
    refused(s, "take hunt", "S-TOOL-4")
    s = play(s, "tools 1")
    assert s.players[0].food == 12 + 4
    s = play(s, "take hunt", "roll hunt 3,4")  # Bob has no tool: the food comes at once
    assert s.players[1].food == 12 + 3 and s.phase is not Phase.TOOLS


def test_S_TOOL_4_no_question_when_no_tool_could_add_to_the_yield():
    s = acting(placed={0: {"stone": 2}}, fields={0: {"tools": (1,)}})
    s = play(s, "take stone", "roll stone 1,2")  # 3 pips + 1 = 4: still no stone
    assert s.phase is not Phase.TOOLS and s.players[0].res == (0, 0, 0, 0) and s.players[0].used == ()
    s2 = play(acting(placed={0: {"stone": 2}}, fields={0: {"tools": (1,)}}), "take stone", "roll stone 2,2")
    assert s2.phase is Phase.TOOLS  # 4 + 1 = 5: the tool makes a stone


def test_S_HUT_1_one_more_person_at_most_ten():
    s = acting(placed={0: {"hut": 2}, 1: {"hut": 2}}, fields={1: {"people": 10}})
    s = play(s, "take hut")
    assert s.players[0].people == 6
    s = play(s, "take hut")
    assert s.players[1].people == 10


def test_S_FIELD_1_agriculture_up_one_at_most_ten():
    s = acting(placed={0: {"field": 1}, 1: {"field": 1}}, fields={1: {"agri": 10}})
    s = play(s, "take field", "take field")
    assert s.players[0].agri == 1 and s.players[1].agri == 10


def test_S_DICE_1_hunting_one_die_per_person_food_is_the_sum_halved_down():
    s = acting(placed={0: {"hunt": 3}})
    s = play(s, "take hunt")
    assert s.phase is Phase.ROLL and s.ndice == 3 and s.what == "hunt"
    s = play(s, "roll hunt 1,2,4")
    assert s.players[0].food == 12 + 3


@pytest.mark.parametrize("place,got", [("wood", 4), ("clay", 3), ("stone", 2), ("gold", 2)])
def test_S_DICE_2_resource_places_divide_by_three_four_five_six(place, got):
    s = acting(placed={0: {place: 3}})
    s = play(s, f"take {place}", f"roll {place} 3,5,6")
    assert sum(s.players[0].res) == got


def test_S_DICE_2_the_divisor_is_the_profile_s():
    s = acting(placed={0: {"wood": 3}})
    s = s.__class__(
        **{
            **{f: getattr(s, f) for f in s.__dataclass_fields__},
            "profile": profile_with(**{"resources.wood.divisor": 2}),
        }
    )
    s = play(s, "take wood", "roll wood 3,5,6")
    assert s.players[0].res[0] == 7


def test_S_DICE_3_the_dice_are_reported_one_per_person_any_order_faces_one_to_six():
    s = play(acting(placed={0: {"wood": 3}}), "take wood")
    refused(s, "roll wood 3,5", "S-DICE-3")
    refused(s, "roll clay 3,5,6", "S-DICE-3")
    with pytest.raises(InvalidMoveError):
        parse_move("roll wood 3,5,7")
    assert parse_move("roll wood 6,3,5") == parse_move("roll wood 3,5,6")
    assert len(moves_of(s)) == 56  # multisets of 3 dice: C(8, 3)


def test_S_CARD_1_cost_by_position_any_resources_never_food():
    s = acting(placed={0: {"card2": 1}}, fields={0: {"res": (1, 0, 0, 0), "food": 20}})
    e = refused(s, "buy card2 wood", "S-CARD-1")
    assert "costs 2" in str(e)
    refused(s, "buy card2 wood,wood", "S-CARD-1")  # has only one wood; food cannot pay
    s2 = acting(placed={0: {"card2": 1}}, fields={0: {"res": (1, 1, 0, 0)}})
    assert moves_of(s2) == ["skip card2", "buy card2 wood,clay"]
    s2 = play(s2, "buy card2 wood,clay")
    assert s2.players[0].res == (0, 0, 0, 0) and "c03" in s2.players[0].cards and s2.display[1] is None


def test_S_CARD_2_a_card_can_be_left_the_person_comes_home():
    s = acting(placed={0: {"card1": 1}}, fields={0: {"res": (3, 0, 0, 0)}})
    s = play(s, "skip card1")
    assert s.display[0] == "c01" and not any(s.players[0].placed) and s.players[0].res == (3, 0, 0, 0)


def test_S_CARD_3_immediate_food_points_agriculture_tool_resource():
    from dataclasses import replace

    base = acting(placed={0: {"card1": 1}}, fields={0: {"res": (9, 0, 0, 0)}})
    for card, check in [
        ("c01", lambda p: p.food == 12 + 7),
        ("c03", lambda p: p.points == 3 and p.card_points == 3),
        ("c19", lambda p: p.agri == 1),
        ("c23", lambda p: p.tools == (1,)),
        ("c27", lambda p: p.res == (8, 0, 2, 0)),
    ]:
        unseen = tuple(sorted(set(base.unseen_cards) - {card} | {"c01"})) if card != "c01" else base.unseen_cards
        s = replace(base, display=(card, *base.display[1:]), unseen_cards=unseen)
        s = play(s, "buy card1 wood")
        assert check(s.players[0]), card
        assert card in s.players[0].cards


def test_S_CARD_4_dice_bar_one_die_each_from_the_taker_clockwise_no_tools():
    s = acting(placed={1: {"card4": 1}}, fields={1: {"res": (4, 0, 0, 0), "tools": (3,)}})
    assert s.actor == 1
    s = play(s, "buy card4 wood,wood,wood,wood")
    assert s.phase is Phase.ROLL and s.what == "bar" and s.ndice == 4
    refused(s, "roll bar 1,2", "S-CARD-4")
    s = play(s, "roll bar 1,5,6,6")
    assert s.phase is Phase.BAR and s.actor == 1 and moves_of(s) == ["pick 1", "pick 5", "pick 6"]
    refused(s, "pick 2", "S-CARD-4")
    s = play(s, "pick 5")  # Bob: a tool
    assert s.players[1].tools == (3, 1) and s.actor == 2
    s = play(s, "pick 1")  # Cid: a wood; the two 6s left need no choice
    assert s.players[2].res == (1, 0, 0, 0)
    assert s.players[3].agri == 1 and s.players[0].agri == 1
    assert s.phase is not Phase.BAR and s.phase is not Phase.TOOLS


def test_S_CARD_5_two_dice_for_a_resource_with_tools():
    from dataclasses import replace

    s = acting(placed={0: {"card1": 1}}, fields={0: {"res": (1, 0, 0, 0), "tools": (2,)}})
    s = replace(s, display=("c24", *s.display[1:]), unseen_cards=tuple(sorted(set(s.unseen_cards) - {"c24"} | {"c01"})))
    s = play(s, "buy card1 wood", "roll gold 5,5")
    assert s.phase is Phase.TOOLS
    s = play(s, "tools 2")
    assert s.players[0].res == (0, 0, 0, 2)


def test_S_CARD_6_one_time_tool_once_in_addition_to_the_others():
    s = acting(placed={0: {"card3": 1, "stone": 2}}, fields={0: {"res": (3, 0, 0, 0), "tools": (1,)}})
    s = play(s, "buy card3 wood,wood,wood")
    assert s.players[0].once == ("c12",)
    s = play(s, "take stone", "roll stone 2,3")
    assert "tools 1,once4" in moves_of(s)
    refused(s, "tools once3", "S-CARD-6")
    s = play(s, "tools 1,once4")
    assert s.players[0].res == (0, 0, 2, 0) and s.players[0].once == () and "c12" in s.players[0].cards


def test_S_CARD_7_extra_card_drawn_from_the_deck_only_its_bottom_counts():
    from dataclasses import replace

    s = acting(placed={0: {"card1": 1}}, fields={0: {"res": (1, 0, 0, 0)}})
    s = replace(s, display=("c10", *s.display[1:]), unseen_cards=tuple(sorted(set(s.unseen_cards) - {"c10"} | {"c01"})))
    s = play(s, "buy card1 wood")
    assert s.phase is Phase.DRAW
    refused(s, "draw c10", "S-CARD-7")  # already taken
    s = play(s, "draw c05")  # 2 food / 2 hut builders: no food comes
    assert s.players[0].cards == ("c05", "c10") and s.players[0].food == 12 and "c05" not in s.unseen_cards
    base = acting(placed={0: {"card1": 1}}, fields={0: {"res": (1, 0, 0, 0)}})
    empty = replace(base, display=("c10", *base.display[1:]), unseen_cards=())
    after = play(empty, "buy card1 wood")  # an empty deck: the card gives nothing (companion's choice)
    assert after.phase is Phase.ACT and after.players[0].cards == ("c10",)


def test_S_CARD_8_any_resources_now_or_later_on_the_holder_s_turns():
    from dataclasses import replace

    s = acting(placed={0: {"card1": 1, "wood": 1}}, fields={0: {"res": (1, 0, 0, 0)}})
    s = replace(s, display=("c09", *s.display[1:]), unseen_cards=tuple(sorted(set(s.unseen_cards) - {"c09"} | {"c01"})))
    s = play(s, "buy card1 wood")
    assert s.players[0].anyc == ("c09",)
    assert "any gold,gold" in moves_of(s) and "any wood,clay" in moves_of(s)
    refused(s, "any gold", "S-CARD-8")
    s = play(s, "any stone,gold")
    assert s.players[0].res == (0, 0, 1, 1) and s.players[0].anyc == () and "c09" in s.players[0].cards
    refused(s, "any gold,gold", "S-CARD-8")
    s = play(s, "take wood", "roll wood 2")
    assert s.actor == 3
    refused(s, "any gold,gold", "S-CARD-8")  # not on another player's turn


def test_S_CARD_8_not_while_adding_tools():
    s = acting(
        placed={0: {"wood": 1}},
        fields={0: {"tools": (1,), "anyc": ("c09",), "cards": ("c09",)}},
        unseen_cards=tuple(sorted(set(acting().unseen_cards) - {"c09"})),
    )
    s = play(s, "take wood", "roll wood 2")
    refused(s, "any gold,gold", "S-CARD-8")


def test_S_CARD_9_cards_are_kept_for_the_final_scoring():
    s = acting(placed={0: {"card1": 1, "card2": 1}}, fields={0: {"res": (3, 0, 0, 0)}})
    s = play(s, "buy card1 wood", "buy card2 wood,wood")
    assert s.players[0].cards == ("c01", "c03")


def test_S_BLD_1_pay_score_at_once_and_the_next_building_is_revealed():
    s = acting(placed={0: {"building1": 1}}, fields={0: {"res": (2, 1, 0, 0)}})
    refused(s, "buy building1 wood,clay", "S-BLD-1")
    s = play(s, "buy building1 wood,wood,clay")
    assert s.players[0].points == 10 and s.players[0].buildings == (("b01", 10),)
    assert s.phase is Phase.REVEAL and s.tops[0] is None and s.left[0] == 6
    refused(s, "reveal c05", "S-BLD-1")
    refused(s, "reveal b21", "S-BLD-1")  # on the board already
    s = play(s, "reveal b02")
    assert s.tops[0] == "b02" and s.left[0] == 5 and s.phase is not Phase.REVEAL


def test_S_BLD_2_a_building_can_be_left():
    s = acting(placed={0: {"building1": 1}}, fields={0: {"res": (2, 1, 0, 0)}})
    s = play(s, "skip building1")
    assert s.tops[0] == "b01" and s.players[0].res == (2, 1, 0, 0) and s.players[0].points == 0


def test_S_BLD_3_variable_buildings_score_the_value_paid():
    s = acting(placed={0: {"building2": 1, "building3": 1}}, fields={0: {"res": (6, 2, 0, 2)}})
    e = refused(s, "buy building2 wood,wood,clay,clay", "S-BLD-3")
    assert "exactly 4 resources of exactly 1 kind" in str(e)
    refused(s, "buy building3 wood,wood,wood,wood,wood,wood,clay,clay", "S-BLD-3")
    s = play(s, "buy building2 wood,wood,wood,wood", "reveal b02", "buy building3 gold,gold", "reveal b03")
    assert s.players[0].buildings == (("b21", 12), ("b18", 12)) and s.players[0].points == 24
