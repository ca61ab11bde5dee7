"""Components and setup: R-COMP-*, R-SET-*."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.tribes.rules.chance import sample_setup
from games.tribes.rules.engine import apply, new_game
from games.tribes.rules.errors import IllegalMoveError
from games.tribes.rules.hexgrid import START_TRIANGLE, adjacent
from games.tribes.rules.moves import PlaceFirst, Setup, parse_move
from games.tribes.rules.profile import default_profile
from tests.games.tribes.rules.helpers import play

SETUP2 = "setup row=off,mov,exp,off-ach,mov-ach,exp-ach era1=jagen,kochen,toepfern,schmuck lands=goat/horse/wheat,gold/incense/goat"


def test_components_per_player_R_COMP_1():
    """R-COMP-1: 15 members, 5 shells, arrow token, markers on the lowest spaces (R-SET-1)."""
    s = new_game(["A", "B", "C", "D"])
    for p in s.players:
        assert p.supply == 15 and p.shells == 5 and p.arrow
        assert p.tracks == (0, 0, 0, 0)  # R-SET-1


def test_default_profile_counts_R_COMP_2_3_4_5():
    """R-COMP-3, R-COMP-4, R-COMP-5: R-COMP-2..5: 15 achievements (5 per era), 24 events (8 per era), 6 action tiles, 5 resources x 10
    tiles, 20 shells."""
    prof = default_profile()
    assert Counter(a.era for a in prof.achievements) == {1: 5, 2: 5, 3: 5}
    assert Counter(e.era for e in prof.events) == {1: 8, 2: 8, 3: 8}
    assert len(prof.action_tiles) == 6
    assert sum(t.hand for t in prof.action_tiles) == 3  # R-TURN-4
    assert sorted(t.action for t in prof.action_tiles) == sorted(["offspring", "movement", "exploration"] * 2)
    assert len(prof.resources) == 5 and prof.tiles_per_resource == 10
    assert prof.shells_total == 20 and prof.shells_per_player == 5
    assert prof.members_per_player == 15 and prof.stones_per_player == 12


@pytest.mark.parametrize(("n", "expected"), [(2, [0, 1]), (3, [0, 0, 1]), (4, [0, 0, 1, 1])])
def test_seat_compensation_R_SET_9(n, expected):
    """R-SET-9: 2p: player 2 gets 1 VP; 3p: player 3; 4p: players 3 and 4."""
    s = new_game([f"P{i}" for i in range(n)])
    assert [p.vp for p in s.players] == expected


def test_bag_event_stacks_and_shell_supply_R_SET_2_R_SET_7():
    """R-SET-2: all 50 tiles in the bag; R-SET-7: 8 events per era face down; R-COMP-5: shells left over."""
    s = new_game(["A", "B"])
    assert s.bag == (10,) * 5 and s.bag_total() == 50
    assert s.stacks == (8, 8, 8)
    assert s.shell_supply == 10
    assert all(bt.tile is None for row in s.board for bt in row)
    assert s.pending.kind == "setup" and s.is_chance


def test_setup_lays_triangle_row_and_era1_R_SET_3_5_6():
    """R-SET-3 triangle of mutually adjacent hexes; R-SET-5 row; R-SET-6 era 1 face up, eras 2/3 face down."""
    s = play(new_game(["A", "B"]), SETUP2)
    a, b, c = START_TRIANGLE
    assert adjacent(a, b) and adjacent(b, c) and adjacent(a, c)
    assert {h: t.resource for h, t in s.players[0].land.items()} == dict(
        zip(START_TRIANGLE, ("goat", "horse", "wheat"), strict=False)
    )
    assert [t.tile for t in s.row] == ["off", "mov", "exp", "off-ach", "mov-ach", "exp-ach"]
    assert [bt.tile for bt in s.board[0]] == ["jagen", "kochen", "toepfern", "schmuck"]
    assert all(bt.tile is None for row in s.board[1:] for bt in row)
    assert s.bag_total() == 44 and s.bag[0] == 8  # two goats drawn
    assert s.pending.kind == "first_member" and s.pending.seat == 0


@pytest.mark.parametrize(
    ("text", "clause"),
    [
        (
            "setup row=off,mov,exp,off-ach,mov-ach,off era1=jagen,kochen,toepfern,schmuck lands=goat/horse/wheat,gold/incense/goat",
            "R-SET-5",
        ),
        (
            "setup row=off,mov,exp,off-ach,mov-ach,exp-ach era1=jagen,kochen,toepfern,kaese lands=goat/horse/wheat,gold/incense/goat",
            "R-SET-6",
        ),
        (
            "setup row=off,mov,exp,off-ach,mov-ach,exp-ach era1=jagen,jagen,toepfern,schmuck lands=goat/horse/wheat,gold/incense/goat",
            "R-SET-6",
        ),
        (
            "setup row=off,mov,exp,off-ach,mov-ach,exp-ach era1=jagen,kochen,toepfern,schmuck lands=goat/goat/wheat,gold/incense/goat",
            "R-SET-4",
        ),
        (
            "setup row=off,mov,exp,off-ach,mov-ach,exp-ach era1=jagen,kochen,toepfern,schmuck lands=goat/horse/wheat",
            "R-SET-3",
        ),
        (
            "setup row=off,mov,exp,off-ach,mov-ach,exp-ach era1=jagen,kochen,toepfern,schmuck lands=goat/horse/fish,gold/incense/goat",
            "R-COMP-4",
        ),
    ],
)
def test_bad_setup_is_refused_with_clause_R_SET_4_5_6(text, clause):
    """R-SET-4, R-SET-5, R-SET-6: A setup outcome that breaks a setup rule names the clause and changes nothing."""
    s = new_game(["A", "B"])
    with pytest.raises(IllegalMoveError) as err:
        apply(s, parse_move(text))
    assert err.value.clause == clause
    assert s.pending.kind == "setup"


def test_setup_with_a_small_profile_empties_a_resource_R_SET_2():
    """R-SET-2, any valid profile: with 4 tiles per resource, four players can each start with a goat."""
    from helpers import profile_variant

    prof = profile_variant(components=lambda raw: raw["components"].update(tiles_per_resource=4))
    s = new_game(["A", "B", "C", "D"], prof)
    ok = Setup(
        ("off", "mov", "exp", "off-ach", "mov-ach", "exp-ach"),
        ("jagen", "kochen", "toepfern", "schmuck"),
        (("goat", "horse", "wheat"),) * 4,
    )
    s2 = apply(s, ok)
    assert s2.bag == (0, 0, 0, 4, 4)


@pytest.mark.parametrize("seed", range(40))
def test_sampled_setup_redraws_until_three_different_R_SET_4(seed):
    """R-SET-4: the simulated setup draws until each player holds 3 different resources; surplus returns."""
    s = new_game(["A", "B", "C", "D"])
    setup = sample_setup(s, random.Random(seed))
    assert all(len(set(trio)) == 3 for trio in setup.lands)
    after = apply(s, setup)
    assert after.bag_total() == 50 - 12


def test_first_member_round_R_SET_10_and_start_player_R_SET_8():
    """R-SET-10: from the start player clockwise, each places a first member on one of their tiles;
    then the start player (seat 0, R-SET-8) takes the first turn."""
    s = play(new_game(["A", "B", "C"]), SETUP2.replace("gold/incense/goat", "gold/incense/goat,wheat/gold/horse"))
    assert s.pending.kind == "first_member" and s.pending.seat == 0
    with pytest.raises(IllegalMoveError, match="R-SET-10"):
        apply(s, PlaceFirst((5, 5)))
    s = play(s, "start 1,0")
    assert s.pending.seat == 1
    s = play(s, "start 0,0", "start 0,1")
    assert s.pending.kind == "choose" and s.to_move == 0 and s.turn == 0
    assert [p.supply for p in s.players] == [14, 14, 14]
    assert s.players[0].land[(1, 0)].members == 1
    assert s.players[2].land[(0, 1)].members == 1
