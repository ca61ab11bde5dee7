"""Events (R-EVT-*): who is affected, choices, never the last member, order of resolution."""

from __future__ import annotations

import pytest

from games.tribes.rules.engine import apply
from games.tribes.rules.errors import IllegalMoveError
from games.tribes.rules.legal import describe, legal_moves, overview
from games.tribes.rules.moves import Lose, parse_move
from tests.games.tribes.rules.helpers import play, player, state

ROW = ["off", "mov", "exp", "off-ach", "mov-ach", "exp-ach"]


def ev_state(event, players, **kw):
    """The event at the front of the row, seat ``to`` to move."""
    seat = kw.pop("to", 0)
    return state(players=players, row=[f"evt:{event}", *ROW], pending={"kind": "choose", "seat": seat}, **kw)


def strong(name, strength, spec=None, **kw):
    return player(name, spec, tracks={"strength": strength}, **kw)


def test_strongest_applies_to_the_chooser_and_ties_count_R_EVT_2():
    """R-EVT-2: 'if you are the strongest' concerns only the chooser; tied players count as strongest."""
    ps = [strong("A", 2), strong("B", 2), strong("C", 0)]
    s = play(ev_state("herds", ps), "1:evt")
    assert [p.vp for p in s.players] == [2, 0, 0]


def test_all_level_are_both_strongest_and_weakest_R_EVT_2():
    """R-EVT-2."""
    ps = [strong("A", 1, vp=3), strong("B", 1, vp=3)]
    assert play(ev_state("wolves", ps), "1:evt").players[0].vp == 1  # weakest: -2
    assert play(ev_state("herds", ps), "1:evt").players[0].vp == 5  # strongest: +2


def test_unaffected_chooser_removes_it_without_effect_R_EVT_3():
    """R-EVT-3 (rulebook example): 'lose 2 VP if you are the weakest' taken by a non-weakest player."""
    ps = [strong("A", 3, vp=4), strong("B", 0, vp=4)]
    s = play(ev_state("wolves", ps), "1:evt")
    assert [p.vp for p in s.players] == [4, 4]
    assert s.done_events == ("wolves",) and all(t.tile != "wolves" for t in s.row)
    info = overview(ev_state("wolves", ps))[0].options[0]
    assert info.detail["affects_you"] is False and "R-EVT-3" in info.detail["note"]


def test_never_the_last_member_R_EVT_4():
    """R-EVT-4: a player with one member on the map loses none; with two, at most one."""
    one = ev_state("cold", [strong("A", 0), strong("B", 1)])
    after = play(one, "1:evt")
    assert after.players[0].members_on_map == 1 and after.pending.kind == "choose"
    two = ev_state("disease", [strong("A", 0, {"0,0": "goat:1", "1,0": "horse:1", "0,1": "wheat"}), strong("B", 1)])
    s = play(two, "1:evt")
    assert s.pending.kind == "event" and s.pending.seat == 0
    assert sorted(str(m) for m in legal_moves(s)) == ["lose 0,0", "lose 1,0"]
    with pytest.raises(IllegalMoveError, match="R-EVT-4: remove 1 member from your tiles, never your last one"):
        apply(s, parse_move("lose 0,0 1,0"))
    s = play(s, "lose 1,0")
    assert s.players[0].members_on_map == 1 and s.players[0].supply == 14
    assert s.pending.kind == "choose" and s.to_move == 1


def test_forced_loss_needs_no_answer_R_EVT_4():
    """R-EVT-4: All members on one tile: the loss is forced and carried out without asking."""
    s = play(
        ev_state("disease", [strong("A", 0, {"0,0": "goat:4", "1,0": "horse", "0,1": "wheat"}), strong("B", 1)]),
        "1:evt",
    )
    assert s.players[0].land[(0, 0)].members == 2 and s.pending.kind == "choose"


def test_exhausting_for_an_event_need_not_be_occupied_R_EVT_5():
    """R-EVT-5."""
    s = play(ev_state("bushfire", [strong("A", 0), strong("B", 1)]), "1:evt")
    assert s.pending.kind == "event"
    assert sorted(str(m) for m in legal_moves(s)) == ["exhaust 0,0", "exhaust 0,1", "exhaust 1,0"]
    s = play(s, "exhaust 0,1")  # no member there
    assert s.players[0].land[(0, 1)].exhausted


def test_all_players_event_chooser_first_then_clockwise_R_EVT_6():
    """R-EVT-6: the chooser (B) resolves first, then C, then A."""
    ps = [strong("A", 0), strong("B", 0), strong("C", 0), strong("D", 3)]
    s = play(ev_state("flood", ps, to=1), "1:evt")
    order = []
    while s.pending.kind == "event":
        order.append(s.pending.seat)
        s = play(
            s, f"exhaust {sorted(s.players[s.pending.seat].land)[0][0]},{sorted(s.players[s.pending.seat].land)[0][1]}"
        )
    assert order == [1, 2, 0]  # D is the strongest: not affected
    assert [p.exhausted_tiles for p in s.players] == [1, 1, 1, 0]
    assert s.to_move == 2


def test_choice_between_options():
    """'Raid': the weakest loses 3 VP or 2 members, their choice."""
    a = strong("A", 0, {"0,0": "goat:2", "1,0": "horse:1", "0,1": "wheat"}, vp=5)
    s = play(ev_state("raid", [a, strong("B", 1)]), "1:evt")
    assert describe(s)["answers"] == ["pick 1", "pick 2"]
    vp = play(s, "pick 1")
    assert vp.players[0].vp == 2 and vp.pending.kind == "choose"
    members = play(s, "pick 2")
    assert members.pending.kind == "event"
    assert {str(m) for m in legal_moves(members)} == {"lose 0,0 0,0", "lose 0,0 1,0"}
    done = play(members, "lose 0,0 1,0")
    assert done.players[0].members_on_map == 1 and done.players[0].vp == 5
    with pytest.raises(IllegalMoveError, match="choose an option from 1 to 2"):
        apply(s, parse_move("pick 3"))
    with pytest.raises(IllegalMoveError, match=r"the game waits for 'pick N'"):
        apply(s, Lose(((0, 0),)))


def test_events_never_take_vp_below_zero_and_shells_follow_the_supply():
    """Engine choices: VP do not go below 0; shells come from and go back to the supply."""
    s = play(ev_state("war", [strong("A", 0, vp=1), strong("B", 1)]), "1:evt")
    assert s.players[0].vp == 0
    s = play(ev_state("tribute", [strong("A", 0, shells=5), strong("B", 1)]), "1:evt", "pick 1")
    assert s.players[0].shells == 3 and s.shell_supply == 12
    four = [strong("A", 2), strong("B", 0), strong("C", 0), strong("D", 0)]
    s = play(ev_state("barter", four), "1:evt")
    assert s.shell_supply == 0 and s.players[0].shells == 5  # 4 players: no shell left in the supply


def test_stat_condition_and_track_effects():
    """'Festival' (every player with at least 6 members placed gains 2 VP) and 'Training' (weakest +1 Strength)."""
    big = {"0,0": "goat:6", "1,0": "horse", "0,1": "wheat"}
    s = play(ev_state("festival", [strong("A", 0, big), strong("B", 0)]), "1:evt")
    assert [p.vp for p in s.players] == [2, 0]
    s = play(ev_state("training", [strong("A", 0), strong("B", 1)]), "1:evt")
    assert s.players[0].tracks[3] == 1


def test_gain_members_event():
    a = strong("A", 2, {"0,0": "goat:1", "1,0": "horse:1", "0,1": "wheat"})
    s = play(ev_state("children", [a, strong("B", 0)]), "1:evt")
    assert s.pending.kind == "event"
    s = play(s, "gain 1,0")
    assert s.players[0].land[(1, 0)].members == 2 and s.players[0].supply == 12
    with pytest.raises(IllegalMoveError, match="R-ACT-OFF-1"):
        apply(play(ev_state("children", [a, strong("B", 0)]), "1:evt"), parse_move("gain 0,1"))


def test_only_carried_out_era_3_events_end_the_game_R_END_1_R_EVT_7():
    """R-EVT-7: era-3 events are laid beside the board and counted; R-END-1: revealed-but-unresolved
    ones do not count."""
    ps = [strong("A", 1), strong("B", 1)]
    s = state(players=ps, row=["evt:empire", "evt:war", *ROW])
    s = play(s, "1:evt")
    assert s.done_events == ("empire",) and not s.end_triggered  # one of two; 'war' still in the row
    s = play(s, "1:evt")
    assert s.era3_done() == 2 and s.end_triggered
    assert s.is_over  # B is the player to the start player's right (R-END-2)


def test_conditions_are_judged_once_when_the_event_is_taken():
    """Engine choice: 'every strongest player advances on Strength' with A and B level: A goes first and
    becomes the only strongest, yet B, strongest when the event was taken, advances too."""
    from helpers import profile_variant

    def add_event(raw):
        raw["events"].append(
            {
                "id": "rally",
                "era": 1,
                "name": "Rally",
                "text": "Every strongest player advances 1 on Strength.",
                "effects": [{"who": "all", "if": "strongest", "do": [{"track": "strength", "steps": 1}]}],
            }
        )

    prof = profile_variant(events=add_event)
    s = ev_state("rally", [strong("A", 1), strong("B", 1), strong("C", 0)], profile_obj=prof)
    s = play(s, "1:evt")
    assert [p.tracks[3] for p in s.players] == [2, 2, 0]


def test_era_3_event_without_effect_still_counts_R_END_1_R_EVT_3():
    """R-END-1, R-EVT-3: Engine choice: an era-3 event the chooser is not affected by is still chosen and resolved."""
    s = play(ev_state("war", [strong("A", 2), strong("B", 0)]), "1:evt")
    assert s.players[0].vp == 0 and s.era3_done() == 1
