"""Game end and scoring (R-END-*)."""

from __future__ import annotations

import pytest

from games.tribes.rules.engine import apply
from games.tribes.rules.errors import IllegalMoveError
from games.tribes.rules.moves import parse_move
from games.tribes.rules.scoring import ranking, score_breakdown, scoreboard
from tests.games.tribes.rules.helpers import play, player, state

ROW = ["off", "mov", "exp", "off-ach", "mov-ach", "exp-ach"]
ERA3 = ["war", "empire", "famine", "earthquake", "tribute", "migration", "longtrade", "uprising"]


def test_round_is_finished_to_the_start_players_right_R_END_2():
    """R-END-1/2: in a 3-player game the 3rd era-3 event is carried out by seat 0; seats 1 and 2 still
    play; then the game is over and nothing more is accepted."""
    ps = [player("A"), player("B"), player("C")]
    s = state(players=ps, row=["evt:empire", *ROW], done_events=["war", "famine"])
    s = play(s, "1:evt")
    assert s.end_triggered and not s.is_over and s.to_move == 1
    s = play(s, "1:off 0,0")
    assert not s.is_over and s.to_move == 2
    s = play(s, "1:mov")
    assert s.is_over
    with pytest.raises(IllegalMoveError, match="R-END-2: the game waits for nothing: the game is over"):
        apply(s, parse_move("1:off 0,0"))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_end_threshold_per_player_count_R_END_1(n):
    """R-END-1."""
    names = "ABCD"[:n]
    ps = [player(c) for c in names]
    done = ERA3[: n - 2]
    s = state(players=ps, row=["evt:uprising", *ROW], done_events=done)
    s = play(s, "1:evt")
    assert not s.end_triggered  # n-1 carried out
    s2 = state(players=ps, row=["evt:uprising", *ROW], done_events=ERA3[: n - 1])
    assert play(s2, "1:evt").end_triggered


def test_track_vp_and_bear_teeth_R_END_3_R_END_6():
    """R-END-3: VP of the space each scoring track marker reached (Strength scores none); R-END-6: teeth."""
    a = player("A", tracks={"offspring": 5, "movement": 4, "exploration": 3, "strength": 5}, vp=10)
    b = player("B", vp=12)
    s = state(players=[a, b])
    bd = score_breakdown(s, 0)
    assert (bd.offspring, bd.movement, bd.exploration) == (6, 3, 1)  # default profile values (provisional)
    assert bd.bear_teeth == 10 and bd.tracks == 10


def test_majorities_with_ties_R_END_4_R_END_5():
    """R-END-4: most members placed 2 VP, ties all score; R-END-5: most unexhausted tiles 2 VP, ties all."""
    a = player("A", {"0,0": "goat:3", "1,0": "horse:x", "0,1": "wheat", "1,-1": "gold"})
    b = player("B", {"0,0": "goat:3", "1,0": "horse", "0,1": "wheat"})
    c = player("C", {"0,0": "goat:1", "1,0": "horse", "0,1": "wheat"})
    rows = scoreboard(state(players=[a, b, c]))
    assert [r.most_members for r in rows] == [2, 2, 0]
    assert [r.most_tiles for r in rows] == [2, 2, 2]  # 3 unexhausted each
    assert [r.members_placed for r in rows] == [3, 3, 1]


def test_ranking_tie_breaks_R_END_7():
    """R-END-7: most VP; then more shells; then fewer exhausted tiles; then a shared place."""
    base = {"0,0": "goat:1", "1,0": "horse", "0,1": "wheat"}
    tired = {"0,0": "goat:1", "1,0": "horse:x", "0,1": "wheat"}
    ps = [
        player("A", base, vp=5, shells=2),
        player("B", base, vp=5, shells=3),
        player("C", tired, vp=5, shells=2),
        player("D", base, vp=5, shells=2),
    ]
    # C has an exhausted tile, so only 2 unexhausted: no tile bonus for C (A, B, D have 3)
    r = ranking(state(players=ps))
    assert [(x.place, x.name) for x in r] == [(1, "B"), (2, "A"), (2, "D"), (4, "C")]
    ps[2] = player("C", base, vp=7, shells=2)  # more VP beats every tie-break
    r = ranking(state(players=ps))
    assert r[0].name == "C"


def test_shared_victory_R_END_7():
    """R-END-7."""
    base = {"0,0": "goat:1", "1,0": "horse", "0,1": "wheat"}
    r = ranking(state(players=[player("A", base, vp=3), player("B", base, vp=3)]))
    assert [x.place for x in r] == [1, 1]
