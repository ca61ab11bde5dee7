"""Section 1, placing people: turn order, one place per turn, no passing, no adding, the capacities
of every place and the 2- and 3-player limits (S-PLACE-*, S-CAP-*, S-FEW-*, S-SET-3)."""

from __future__ import annotations

import pytest
from sa_helpers import moves_of, play, profile_with, settled, started, with_player

from games.errors import IllegalMoveError, InvalidMoveError
from games.stoneage.rules.engine import check_place, explain, open_places
from games.stoneage.rules.moves import Place, parse_move
from games.stoneage.rules.state import HUNT, Phase, place_index


def refused(state, move: str, clause: str) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as exc:
        play(state, move)
    assert exc.value.clause == clause, str(exc.value)
    assert explain(state, parse_move(move)).startswith(clause)
    return exc.value


def test_S_PLACE_1_start_player_first_then_clockwise_one_place_per_turn():
    s = started()
    assert s.phase is Phase.PLACE and s.actor == 0
    s = play(s, "place hunt 2")
    assert s.actor == 1 and s.players[0].placed[HUNT] == 2
    s = play(s, "place wood 3", "place clay 1", "place stone 1")
    assert s.actor == 0
    assert s.players[1].placed[1] == 3


def test_S_PLACE_1_no_more_people_than_left():
    s = started()
    e = refused(s, "place hunt 6", "S-PLACE-1")
    assert "only 5 people left" in str(e) and "'place hunt 6'" in str(e)


def test_S_PLACE_2_a_player_who_placed_everyone_is_skipped():
    s = play(started(), "place hunt 5", "place wood 1", "place clay 1", "place stone 1")
    assert s.actor == 1  # Ann has nobody left
    s = play(s, "place gold 4", "place hunt 4")
    assert s.actor == 3
    s = play(s, "place wood 4")
    assert s.phase is Phase.ACT and s.actor == 0  # everyone placed: carrying out begins with the start player


def test_S_PLACE_3_no_pass_move_and_a_player_with_every_place_closed_is_skipped():
    with pytest.raises(InvalidMoveError):
        parse_move("pass")
    s = started(2)
    idx = place_index(4, 2)
    ann = [0] * 14
    for name in ("hunt", "card1", "card2", "card3", "card4", "building1", "building2"):
        ann[idx[name]] = 1
    bob = [0] * 14
    for name in ("wood", "clay", "stone", "gold", "toolmaker"):
        bob[idx[name]] = 1
    bob[idx["hut"]] = 2
    s = with_player(s, 0, people=8, placed=tuple(ann))
    s = with_player(s, 1, people=8, placed=tuple(bob))
    assert open_places(s, 0) == []
    reasons = {n: check_place(s, 0, Place(n, 1 if i <= 4 else 0))[0] for i, n in enumerate(s.names)}
    assert reasons["field"] == "S-FEW-1" and reasons["wood"] == "S-FEW-3" and reasons["hunt"] == "S-PLACE-4"
    s = settled(s)
    assert s.phase is Phase.PLACE and s.actor == 1  # Ann (1 person left) is skipped
    s = play(s, "place hunt 1")
    assert s.phase is Phase.ACT  # nobody can place: section 2


def test_S_PLACE_4_no_adding_to_an_own_place_not_even_hunting():
    s = play(started(), "place hunt 2", "place wood 1", "place clay 1", "place stone 1")
    refused(s, "place hunt 1", "S-PLACE-4")
    s = play(s, "place wood 2")
    refused(s, "place wood 1", "S-PLACE-4")  # Bob already stands in the forest


def test_S_PLACE_5_capacities_come_from_the_box_profile():
    s = started(profile=profile_with(**{"board.capacity.wood": 3}))
    refused(s, "place wood 4", "S-CAP-5")
    assert "place wood 3" in moves_of(s) and "place wood 4" not in moves_of(s)


def test_S_CAP_1_tool_maker_exactly_one_person():
    with pytest.raises(InvalidMoveError):
        parse_move("place toolmaker 1")
    s = play(started(), "place toolmaker")
    assert s.players[0].placed[place_index(4, 4)["toolmaker"]] == 1
    e = refused(s, "place toolmaker", "S-CAP-1")
    assert "taken by Ann" in str(e)


def test_S_CAP_2_hut_exactly_two_people_of_one_player():
    s = play(started(), "place hut")
    assert s.players[0].placed[place_index(4, 4)["hut"]] == 2
    refused(s, "place hut", "S-CAP-2")
    s = with_player(started(), 0, people=5, placed=(4,) + (0,) * 15)
    refused(settled(s), "place hut", "S-CAP-2")  # one person left cannot make two


def test_S_CAP_3_field_exactly_one_person():
    s = play(started(), "place field")
    refused(s, "place field", "S-CAP-3")


def test_S_CAP_4_hunting_takes_any_number_of_all_players():
    s = play(started(), "place hunt 5", "place hunt 5", "place hunt 5", "place hunt 5")
    assert s.phase is Phase.ACT and sum(p.placed[HUNT] for p in s.players) == 20
    s = started(profile=profile_with(**{"board.capacity.hunt": 4}))
    refused(play(s, "place hunt 3"), "place hunt 2", "S-CAP-4")


def test_S_CAP_5_resource_places_hold_seven_in_all():
    s = play(started(), "place wood 4", "place wood 3")
    e = refused(s, "place wood 1", "S-CAP-5")
    assert "7 are there" in str(e)
    assert not any(m.startswith("place wood") for m in moves_of(s))


def test_S_CAP_6_one_person_per_card_and_none_on_an_empty_card_place():
    s = play(started(), "place card1")
    refused(s, "place card1", "S-CAP-6")
    from dataclasses import replace

    s2 = replace(
        started(), display=("c01", None, "c12", "c20"), unseen_cards=tuple(sorted((*started().unseen_cards, "c03")))
    )
    refused(s2, "place card2", "S-CAP-6")


def test_S_CAP_7_one_person_per_building_stack_and_none_on_an_empty_stack():
    s = play(started(), "place building2")
    refused(s, "place building2", "S-CAP-7")
    from dataclasses import replace

    s2 = replace(started(), tops=("b01", None, "b18", "b05"), left=(6, 0, 6, 6))
    refused(s2, "place building2", "S-CAP-7")


def test_S_FEW_1_two_and_three_players_use_only_two_of_the_three_village_places():
    for n in (2, 3):
        s = play(started(n), "place toolmaker", "place hut")
        if n == 3:
            refused(s, "place field", "S-FEW-1")
        else:
            refused(s, "place field", "S-FEW-1")
    s = play(started(4), "place toolmaker", "place hut", "place field")
    assert s.actor == 3  # with 4 players all three are open


def test_S_FEW_2_three_players_at_most_two_players_per_resource_place():
    s = play(started(3), "place wood 1", "place wood 1")
    e = refused(s, "place wood 1", "S-FEW-2")
    assert "Ann and Bob" in str(e)
    assert "place hunt 1" in moves_of(s)
    s4 = play(started(4), "place wood 1", "place wood 1", "place wood 1")
    assert s4.actor == 3


def test_S_FEW_3_two_players_one_player_per_resource_place_but_not_hunting():
    s = play(started(2), "place wood 1")
    refused(s, "place wood 1", "S-FEW-3")
    s = play(started(2), "place hunt 1", "place hunt 1")
    assert s.actor == 0


def test_S_SET_3_no_fourth_building_stack_with_three_players():
    s = started(3)
    refused(s, "place building4", "S-SET-3")
    assert len(s.tops) == 3 and "place building3" in moves_of(s)


def test_S_ROUND_1_a_move_of_another_section_is_refused():
    s = started()
    refused(s, "take wood", "S-ROUND-1")
    refused(s, "starve", "S-ROUND-1")


def test_open_places_agrees_with_check_place_S_PLACE_1_S_CAP_5():
    s = play(started(3), "place wood 4", "place wood 2", "place toolmaker", "place card1", "place hut")
    for seat in range(3):
        fast = {(s.names[i], lo, hi) for i, lo, hi in open_places(s, seat)}
        slow = set()
        for i, name in enumerate(s.names):
            if i <= 4:
                ok = [k for k in range(1, 11) if check_place(s, seat, Place(name, k)) is None]
                if ok:
                    slow.add((name, min(ok), max(ok)))
            elif check_place(s, seat, Place(name, 0)) is None:
                need = 2 if name == "hut" else 1
                slow.add((name, need, need))
        assert fast == slow, seat
