"""Section 3 and the end: feeding with agriculture first, paying or starving, the next round, the end
conditions, the final scoring and the tie-break (S-FEED-*, S-ROUND-2, S-SET-5, S-END-*, S-SCORE-1)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sa_helpers import acting, moves_of, play, started, with_player

from games.errors import IllegalMoveError
from games.stoneage.plugin import GAME
from games.stoneage.rules.engine import explain
from games.stoneage.rules.moves import parse_move
from games.stoneage.rules.scoring import breakdown, culture_sets, ranking
from games.stoneage.rules.state import Phase


def refused(state, move: str, clause: str) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as exc:
        play(state, move)
    assert exc.value.clause == clause, str(exc.value)
    assert explain(state, parse_move(move)).startswith(clause)
    return exc.value


def feeding(fields: dict, n: int = 4, **kw):
    """Section 2 with only Dee's hunting left (1 person, no tools): 'take hunt' + 'roll hunt 1' ends it."""
    s = acting(n, fields=fields, **kw)
    return play(s, "take hunt", "roll hunt 1")


def test_S_FEED_1_agriculture_food_first_then_one_food_per_person():
    s = feeding({0: {"food": 2, "agri": 3}, 1: {"food": 5}, 2: {"food": 7, "agri": 1}, 3: {"food": 4}})
    # nobody is short: everyone fed without a move; no card was taken, so round 2 starts placing
    assert s.phase is Phase.PLACE and s.round == 2 and s.actor == 1
    assert [p.food for p in s.players] == [0, 0, 3, 0]


def test_S_FEED_2_short_of_food_pay_the_rest_with_resources_or_lose_ten():
    s = feeding({0: {"food": 1, "res": (2, 1, 1, 0)}, 1: {"food": 9}, 2: {"food": 9}, 3: {"food": 9}})
    assert s.phase is Phase.FEED and s.actor == 0
    assert moves_of(s) == ["starve", "feed wood,wood,clay,stone"]
    refused(s, "feed wood,wood", "S-FEED-2")
    refused(s, "feed gold,gold,gold,gold", "S-FEED-2")
    paid = play(s, "feed wood,wood,clay,stone")
    assert paid.players[0].food == 0 and paid.players[0].res == (0, 0, 0, 0) and paid.players[0].points == 0
    starved = play(s, "starve")
    assert starved.players[0].food == 0 and starved.players[0].res == (2, 1, 1, 0)
    assert starved.players[0].points == -10 and starved.players[0].starved == 1


def test_S_FEED_2_ten_points_once_whatever_the_shortfall():
    s = feeding({0: {"food": 0, "people": 9, "res": (1, 0, 0, 0)}, 1: {"food": 9}, 2: {"food": 9}, 3: {"food": 9}})
    assert s.players[0].points == -10 and s.players[0].res == (1, 0, 0, 0)


def test_S_FEED_3_fed_from_the_start_player_on_only_choices_are_asked():
    s = feeding(
        {
            0: {"food": 9},
            1: {"food": 0, "res": (5, 0, 0, 0)},
            2: {"food": 0},
            3: {"food": 2, "res": (0, 0, 0, 3)},
        }
    )
    assert s.phase is Phase.FEED and s.actor == 1  # Ann fed without a move; Bob chooses
    assert s.players[0].food == 4 and s.players[2].points == 0
    s = play(s, "feed wood,wood,wood,wood,wood")
    assert s.actor == 3 and s.players[2].points == -10  # Cid has no resources: -10 without a move
    s = play(s, "feed gold,gold,gold")
    assert s.phase is Phase.PLACE and s.round == 2


def test_S_FEED_3_the_any_resources_card_may_still_pay():
    s = feeding(
        {0: {"food": 3, "anyc": ("c09",), "cards": ("c09",)}, 1: {"food": 9}, 2: {"food": 9}, 3: {"food": 9}},
        unseen_cards=tuple(sorted(set(started().unseen_cards) - {"c09"})),
    )
    assert s.phase is Phase.FEED and s.actor == 0 and moves_of(s)[0] == "starve"
    s = play(s, "any wood,wood", "feed wood,wood")
    assert s.players[0].res == (0, 0, 0, 0) and s.players[0].points == 0


def test_S_ROUND_2_S_SET_5_cards_slide_and_refill_start_player_passes_tools_turn_back():
    s = acting(placed={1: {"card2": 1, "wood": 1}}, fields={1: {"res": (2, 0, 0, 0), "tools": (2,)}})
    s = play(s, "buy card2 wood,wood", "take wood", "roll wood 1", "tools 2")
    assert s.players[1].used == (2,)
    s = play(s, "take hunt", "roll hunt 6")
    assert s.phase is Phase.REVEAL and s.round == 2 and s.start == 1
    assert s.display == ("c01", "c12", "c20", None)  # slid right to the cheaper places
    assert s.players[1].used == ()
    s = play(s, "reveal c05")
    assert s.display[3] == "c05" and s.phase is Phase.PLACE and s.actor == 1


def test_S_END_1_an_empty_building_stack_ends_the_game_after_feeding():
    s = acting(placed={0: {"building1": 1}}, fields={0: {"res": (2, 1, 0, 0)}}, left=(0, 6, 6, 6))
    s = play(s, "buy building1 wood,wood,clay")
    assert s.phase is Phase.ACT and s.tops[0] is None  # nothing to reveal; the round goes on
    s = play(s, "take hunt", "roll hunt 2")
    assert s.phase is Phase.OVER and s.ended == "buildings" and s.round == 1
    refused(s, "place hunt 1", "S-END-1")
    assert moves_of(s) == []


def test_S_END_1_too_few_cards_to_refill_ends_the_game():
    base = acting(placed={0: {"card1": 1, "card2": 1}}, fields={0: {"res": (3, 0, 0, 0)}})
    unseen = base.unseen_cards
    # one card left in the deck: two empty places cannot be filled
    gone = unseen[1:]
    s = replace(
        base, unseen_cards=unseen[:1], players=(replace(base.players[0], cards=tuple(sorted(gone))), *base.players[1:])
    )
    s = play(s, "buy card1 wood", "buy card2 wood,wood", "take hunt", "roll hunt 2")
    assert s.phase is Phase.OVER and s.ended == "cards"
    s2 = replace(base, unseen_cards=unseen[:2])
    s2 = play(s2, "buy card1 wood", "buy card2 wood,wood", "take hunt", "roll hunt 2")
    assert s2.phase is Phase.REVEAL  # two cards for two places: the game goes on


def test_S_END_2_culture_sets_squared_duplicates_start_a_second_set():
    prof = started().profile
    assert culture_sets(prof, ["c01", "c02", "c08", "c23"]) == [["pottery", "healing", "art"], ["pottery"]]
    s = with_player(started(), 0, cards=("c01", "c02", "c08", "c23"))
    b = breakdown(s, 0)
    assert b.culture == 9 + 1 and b.projected == 10


def test_S_END_3_multipliers_figures_times_quantity():
    s = with_player(
        started(),
        0,
        cards=("c03", "c13", "c21", "c33"),
        agri=4,
        tools=(3, 2),
        people=7,
        buildings=(("b01", 10), ("b02", 11)),
        points=21,
    )
    m = {k: pts for k, _, _, pts in breakdown(s, 0).multipliers}
    assert m == {"hutbuilder": 3 * 2, "farmer": 2 * 4, "toolmaker": 2 * 5, "shaman": 2 * 7}
    assert breakdown(s, 0).projected == 21 + 6 + 8 + 10 + 14


def test_S_END_4_one_point_per_resource_none_for_food():
    s = with_player(started(), 0, res=(1, 2, 3, 4), food=30)
    assert breakdown(s, 0).resources == 10 and breakdown(s, 0).projected == 10


def test_S_CARD_8_an_unused_any_resources_card_counts_its_two_resources_at_the_end():
    s = with_player(started(), 0, cards=("c09",), anyc=("c09",))
    b = breakdown(s, 0)
    assert b.any_cards == 2 and b.culture == 1 and b.projected == 3


def test_S_END_5_tie_break_agriculture_tools_people_then_shared():
    s = started()
    s = with_player(s, 0, res=(5, 0, 0, 0), agri=2)
    s = with_player(s, 1, res=(5, 0, 0, 0), agri=3)
    s = with_player(s, 2, res=(5, 0, 0, 0), agri=3)
    s = with_player(s, 3, res=(6, 0, 0, 0))
    r = ranking(s)
    assert [(x.place, x.name) for x in r] == [(1, "Dee"), (2, "Bob"), (2, "Cid"), (4, "Ann")]
    standings = GAME.rules.ranking(s)
    assert standings[1].tiebreak == (("agriculture+tools+people", 8),)


def test_S_SCORE_1_the_track_may_go_below_zero():
    s = feeding({0: {"food": 0}, 1: {"food": 9}, 2: {"food": 9}, 3: {"food": 9}})
    assert s.players[0].points == -10
    score = GAME.rules.scores(s)[0]
    assert score["track"] == -10 and score["track_parts"]["starved"] == -10 and score["projected"] == -10


def test_S_HUT_1_the_new_person_is_fed_in_the_round_it_arrives():
    s = acting(placed={0: {"hut": 2}}, fields={0: {"food": 6}, 1: {"food": 9}, 2: {"food": 9}, 3: {"food": 9}})
    s = play(s, "take hut", "take hunt", "roll hunt 1")
    assert s.players[0].people == 6 and s.players[0].food == 0 and s.players[0].starved == 0
    s2 = acting(placed={0: {"hut": 2}}, fields={0: {"food": 5}, 1: {"food": 9}, 2: {"food": 9}, 3: {"food": 9}})
    s2 = play(s2, "take hut", "take hunt", "roll hunt 1")
    assert s2.players[0].starved == 1  # 6 mouths, 5 food, nothing to pay with


def test_turn_keys_follow_the_turns_S_ACT_2_S_CARD_4():
    rules = GAME.rules
    s = started()
    k0 = rules.turn_key(s)
    s1 = play(s, "place hunt 1")
    assert rules.turn_key(s1) != k0
    a = acting(placed={1: {"card4": 1}}, fields={1: {"res": (4, 0, 0, 0)}})
    keys = {rules.turn_key(a)}
    a = play(a, "buy card4 wood,wood,wood,wood")
    keys.add(rules.turn_key(a))
    a = play(a, "roll bar 1,2,3,4")
    keys.add(rules.turn_key(a))  # Bob, the taker, picks first
    a = play(a, "pick 4")
    keys.add(rules.turn_key(a))  # Cid picks for Bob's card
    assert keys == {("act", 1, 1)}
