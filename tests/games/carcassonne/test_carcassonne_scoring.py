"""Scoring: the rulebook's examples with their points, majorities, figures going home, gold and bonus
tiles, the end and the final scoring (H-SCORE, H-RIVER, H-FOREST, H-MAJ, H-RET, H-GOLD, H-END, H-FINAL,
H-BONUS)."""

from __future__ import annotations

import pytest
from carc_boxes import box, counts, meadow_box
from carc_helpers import BLUE, GREEN, RED, YELLOW, T, build, play, profile

from games.carcassonne.rules.engine import apply, final_events, projected
from games.carcassonne.rules.legal import legal_moves
from games.carcassonne.rules.moves import Discard, parse_move
from games.carcassonne.rules.scoring import features, ranking, scoreboard
from games.carcassonne.rules.state import Phase
from games.carcassonne.rules.tiles import Role


def last_event(state, feature: str):
    return next(e for e in reversed(state.log) if e.feature == feature)


# --- rivers ---------------------------------------------------------------------------------------


def test_H_RIVER_2_Rot_erhaelt_6_Punkte():
    """'Der fertige Fluss besteht aus 3 Abschnitten … Der See am Abschnitt 1 enthält 1 Fisch, der See am
    Abschnitt 3 enthält 2 Fische.' 3 + 3 = 6."""
    s = build(box(), [("lakeE1", 1, 0, 0), ("riverEW", 2, 0, 0)], [(RED, "fisher", 2, "r0")], drawn="lakeW2")
    after = play(s, "place 3,0 r0")
    assert after.scores[RED] == 6
    e = last_event(after, "river")
    assert e.points == 6 and e.winners == (RED,) and dict(e.detail) == {"tiles": 3, "fish": 3}
    assert after.members[RED] == 5 and after.figures == ()  # H-RET-1: the fisher goes home


def test_H_RIVER_3_Rot_erhaelt_3_Punkte_though_Blau_completed_the_river():
    """'Rot erhält 3 Punkte (2 Abschnitte und 1 Fisch). Auch wenn Blau die neue Karte angelegt hätte …'"""
    s = build(box(), [("lakeE1", 1, 0, 0)], [(RED, "fisher", 1, "r0")], drawn="springW", to_move=BLUE)
    after = play(s, "place 2,0 r0")
    assert after.scores[RED] == 3 and after.scores[BLUE] == 0
    e = last_event(after, "river")
    assert e.by == BLUE and e.winners == (RED,)


def test_H_RIVER_1_complete_between_springs_and_as_a_closed_loop():
    # spring - river - spring: 3 sections, no lake, 3 points
    s = build(box(), [("springW", 1, 0, 2), ("riverEW", 2, 0, 0)], [(RED, "fisher", 2, "r0")], drawn="springW")
    assert play(s, "place 3,0 r0").scores[RED] == 3
    # an open end: not complete, nothing scored
    s = build(box(), [("lakeE1", 1, 0, 0)], [(RED, "fisher", 1, "r0")], drawn="riverEW")
    after = play(s, "place 2,0 r0")
    assert after.scores == (0, 0, 0, 0) and len(after.figures) == 1
    # a closed loop of four bends: 4 sections
    s = build(
        box(), [("bend", 1, 0, 2), ("bend", 1, -1, 3), ("bend", 2, -1, 0)], [(RED, "fisher", 1, "r0")], drawn="bend"
    )
    after = play(s, "place 2,0 r1")
    e = last_event(after, "river")
    assert after.scores[RED] == 4 and dict(e.detail) == {"tiles": 4, "fish": 0}


def test_H_RIVER_2_a_tile_and_a_lake_count_once_on_a_river_that_returns_to_its_lake():
    """Companion's choice: the river leaves the lake north, loops round and comes back east: 4 tiles
    (the lake tile once) + the lake's 3 fish once = 7."""
    lake = T("loopLake", "RRMM", rivers=("N>lake", "E>lake"), lakes=(3,), meadows=("NE EN", "NW ES S W"))
    se = T("bSE", "MRRM", count=1, rivers=("ES",), meadows=("ES SE", "N EN SW W"))
    sw = T("bSW", "MMRR", count=1, rivers=("SW",), meadows=("SW WS", "N E SE WN"))
    nw = T("bNW", "RMMR", count=1, rivers=("NW",), meadows=("WN NW", "NE E S WS"))
    doc = profile([se, sw, nw, T("fill", "MMMM", count=3, meadows=("N E S W",))], start=lake)
    s = build(doc, [("bSE", 0, -1, 0), ("bSW", 1, -1, 0)], [(RED, "fisher", 1, "r0")], drawn="bNW")
    after = play(s, "place 1,0 r0")
    e = last_event(after, "river")
    assert dict(e.detail) == {"tiles": 4, "fish": 3} and after.scores[RED] == 7


# --- forests --------------------------------------------------------------------------------------


def test_H_FOREST_2_Rot_erhaelt_4_Punkte():
    s = build(box(), [("forestN", 1, 0, 0)], [(RED, "gatherer", 1, "f0")], drawn="forestN")
    after = play(s, "place 1,-1 r2")
    assert after.scores[RED] == 4 and dict(last_event(after, "forest").detail) == {"tiles": 2, "mushrooms": 0}


def test_H_FOREST_1_a_forest_with_a_hole_is_not_complete_until_the_hole_is_filled():
    tiles = [
        ("forestN", 1, 0, 0),
        ("fill", 2, 0, 0),
        ("forestN", 2, -1, 3),
        ("fill", 2, -2, 0),
        ("forestN", 1, -2, 2),
        ("fill", 0, -2, 0),
        ("forestN", 0, -1, 1),
    ]
    s = build(box(), tiles, [(RED, "gatherer", 1, "f0")], drawn="f4")
    # four forests, each with its one open side towards the hole
    assert {s.feature(s.placements()[i].base)[3] for i in (1, 3, 5, 7)} == {1}
    after = play(s, "place 1,-1 r0")
    e = last_event(after, "forest")
    assert e.points == 10 and e.winners == (RED,) and dict(e.detail)["tiles"] == 5
    # an open side left: nothing scored
    s = build(box(), [("forestN", 1, 0, 0)], [(RED, "gatherer", 1, "f0")], drawn="forestNS")
    assert play(s, "place 1,-1 r0").scores == (0, 0, 0, 0)


def test_H_FOREST_2_a_tile_with_two_parts_of_one_forest_counts_once():
    """Companion's choice: a ring of forest through both forest parts of the start tile: 6 tiles, 12
    points (not 14)."""
    start = T("sepS", "FMFM", forests=("N", "S"), meadows=("E W",))
    corner = T("corner", "FFMM", count=4, forests=("NE",), meadows=("S W",))
    straight = T("straight", "FMFM", count=1, forests=("NS",), meadows=("E", "W"))
    doc = profile([corner, straight, T("fill", "MMMM", count=2, meadows=("N E S W",))], start=start)
    s = build(
        doc,
        [("corner", 0, -1, 1), ("corner", 1, -1, 2), ("straight", 1, 0, 0), ("corner", 1, 1, 3)],
        [(RED, "gatherer", 0, "f0")],
        drawn="corner",
    )
    after = play(s, "place 0,1 r0")
    e = last_event(after, "forest")
    assert dict(e.detail)["tiles"] == 6 and e.points == 12 and after.scores[RED] == 12


def test_H_SCORE_1_completed_features_are_scored_in_the_same_turn_and_meadows_never():
    s = build(
        box(),
        [("forestN", 1, 0, 0)],
        [(RED, "gatherer", 1, "f0"), (BLUE, "hunter", 0, "m0")],
        drawn="forestN",
        to_move=YELLOW,
    )
    after = play(s, "place 1,-1 r2")
    assert after.scores[RED] == 4 and after.phase is Phase.DRAW and after.to_move == YELLOW + 1
    assert [e.feature for e in after.log] == ["forest"]  # the meadow is not scored


# --- majorities -----------------------------------------------------------------------------------


def test_H_MAJ_1_most_figures_take_all_and_a_tie_scores_everyone_in_full():
    # tie: one gatherer each on two forests the new tile joins and completes
    s = build(
        box(),
        [("fill", 0, -1, 0), ("fill", 0, -2, 0), ("forestN", 1, -2, 2), ("forestN", 1, 0, 0)],
        [(BLUE, "gatherer", 3, "f0"), (RED, "gatherer", 4, "f0")],
        drawn="forestNS",
        to_move=YELLOW,
    )
    after = play(s, "place 1,-1 r0")
    assert after.scores == (6, 6, 0, 0) and last_event(after, "forest").winners == (RED, BLUE)
    assert after.members[RED] == after.members[BLUE] == 5  # both go home (H-RET-1)
    # majority: Rot 2, Blau 1
    s = build(
        box(),
        [("forestN", 1, 0, 0), ("forestNS", 1, -1, 0), ("forestNS", 1, -2, 0)],
        [(RED, "gatherer", 1, "f0"), (RED, "gatherer", 2, "f0"), (BLUE, "gatherer", 3, "f0")],
        drawn="forestN",
    )
    after = play(s, "place 1,-3 r2")
    assert after.scores == (8, 0, 0, 0) and last_event(after, "forest").figures == (2, 1, 0, 0)
    # no figures: nobody scores
    s = build(box(), [("forestN", 1, 0, 0)], drawn="forestN")
    after = play(s, "place 1,-1 r2")
    assert after.scores == (0, 0, 0, 0) and last_event(after, "forest").winners == ()


# --- figures going home ---------------------------------------------------------------------------


def test_H_RET_2_place_score_and_return_in_one_turn():
    s = build(box(), [("forestN", 1, 0, 0)], drawn="forestN")
    after = play(s, "place 1,-1 r2 gatherer f0")
    assert after.scores[RED] == 4 and after.members[RED] == 5 and after.figures == ()


def test_H_RET_1_only_completed_features_send_figures_home():
    s = build(box(), [("forestN", 1, 0, 0)], [(RED, "gatherer", 1, "f0")], drawn="forestNS")
    after = play(s, "place 1,-1 r0 hunter m0")
    assert after.members[RED] == 3 and len(after.figures) == 2


def test_H_RET_1_a_returned_member_can_go_on_the_bonus_tile_of_the_same_turn():
    doc = box(members=1)
    s = build(doc, [("forestNg", 1, 0, 0)], [(RED, "gatherer", 1, "f0")], drawn="forestN", players=2)
    assert s.members[RED] == 0
    s = play(s, "place 1,-1 r2")
    assert s.phase is Phase.BONUS_DRAW and s.members[RED] == 1 and s.to_move == RED
    s = play(s, "bonus aurochs")
    assert parse_move("place -1,0 r0 hunter m0") in legal_moves(s)
    s = play(s, "place -1,0 r0 hunter m0")
    assert s.members[RED] == 0 and s.phase is Phase.DRAW and s.to_move == BLUE


def test_H_RET_3_hunters_and_huts_stay_until_the_end():
    s = build(
        box(),
        [("lakeE1", 1, 0, 0)],
        [(RED, "fisher", 1, "r0"), (BLUE, "hut", 1, "l0"), (YELLOW, "hunter", 0, "m0")],
        drawn="lakeW2",
        to_move=GREEN,
    )
    s = play(s, "place 2,0 r0")  # completes the river lake-lake: 2 tiles + 1 + 2 fish
    assert s.scores[RED] == 5
    assert {str(f.role) for f in s.figures} == {"hut", "hunter"} and s.huts[BLUE] == 1


# --- gold and bonus tiles -------------------------------------------------------------------------


def gold_forest(to_move: int = BLUE, bonus: bool = True, gold: bool = True):
    doc = box() if bonus else box(bonus=[])
    first = "forestNg" if gold else "forestN"
    tiles = [(first, 1, 0, 0), ("forestNS", 1, -1, 0), ("forestNS", 1, -2, 0), ("forestNS", 1, -3, 0)]
    return build(doc, tiles, [(RED, "gatherer", 1, "f0")], drawn="forestN", to_move=to_move)


def test_H_GOLD_1_Rot_erhaelt_10_Punkte_and_Blau_the_bonus_tile():
    """'In diesem fertigen Wald sieht man Goldklumpen. Daher wird 1 Bonuskarte gezogen. 2 Punkte je
    Waldstück. Rot erhält 10 Punkte.' — 'Hat z.B. Blau den Wald fertig gestellt, erhält Rot die Punkte
    und Blau die Bonuskarte.'"""
    s = play(gold_forest(), "place 1,-4 r2")
    assert s.scores == (10, 0, 0, 0)
    assert s.phase is Phase.BONUS_DRAW and s.to_move == BLUE
    assert last_event(s, "forest").gold
    # one bonus tile for two nuggets: after it the turn ends
    s = play(s, "bonus aurochs", "place -1,0 r0")
    assert s.phase is Phase.DRAW and s.to_move == YELLOW


def test_H_GOLD_1_no_gold_no_bonus_tile_and_none_from_an_empty_stack():
    s = play(gold_forest(gold=False), "place 1,-4 r2")
    assert s.scores[RED] == 10 and s.phase is Phase.DRAW and s.to_move == YELLOW
    s = play(gold_forest(bonus=False), "place 1,-4 r2")
    assert s.phase is Phase.DRAW and s.to_move == YELLOW and s.bonus_left == 0


def test_H_GOLD_1_a_gold_forest_without_gatherers_still_gives_the_bonus_tile():
    s = build(box(), [("forestNg", 1, 0, 0)], drawn="forestN", to_move=BLUE)
    s = play(s, "place 1,-1 r2")
    assert s.scores == (0, 0, 0, 0) and s.phase is Phase.BONUS_DRAW and s.to_move == BLUE


def test_H_GOLD_2_the_bonus_tile_anywhere_with_a_figure_and_its_completions_scored():
    s = build(box(), [("forestNg", 1, 0, 0), ("forestN", -1, 0, 0)], [(RED, "gatherer", 2, "f0")], drawn="forestN")
    s = play(s, "place 1,-1 r2", "bonus mush")
    assert s.phase is Phase.BONUS_PLACE
    # anywhere on the map: far from the forest just completed
    assert parse_move("place 0,1 r2 gatherer f0") in legal_moves(s)
    s = play(s, "place -1,-1 r2")  # completes Rot's other forest: 2 tiles + 1 mushroom group
    e = last_event(s, "forest")
    assert e.points == 6 and s.scores[RED] == 6 and dict(e.detail) == {"tiles": 2, "mushrooms": 1}


def test_H_GOLD_3_no_chain_a_gold_forest_completed_by_the_bonus_tile_gives_nothing_more():
    s = build(counts(box(), forestNg=2), [("forestNg", 1, 0, 0), ("forestNg", -1, 0, 0)], drawn="forestN")
    s = play(s, "place 1,-1 r2", "bonus bgold")
    s = play(s, "place -1,-1 r2")  # completes the second gold forest
    assert last_event(s, "forest").gold
    assert s.phase is Phase.DRAW and s.to_move == BLUE and s.bonus_left == 4


def test_H_GOLD_4_one_bonus_tile_per_turn_however_many_gold_forests():
    doc = counts(box(), forestNg=2)
    s = build(doc, [("fill", 0, -1, 0), ("fill", 0, -2, 0), ("forestNg", 1, -2, 2), ("forestNg", 1, 0, 0)], drawn="sep")
    s = play(s, "place 1,-1 r0")
    assert sum(1 for e in s.log if e.gold) == 2
    assert s.phase is Phase.BONUS_DRAW
    s = play(s, "bonus fire", "place 0,1 r0")
    assert s.phase is Phase.DRAW and s.to_move == BLUE


def test_H_GOLD_5_a_bonus_tile_that_fits_nowhere_leaves_and_another_is_drawn():
    rrrr = T(
        "rrrr",
        "RRRR",
        count=1,
        rivers=("N>lake", "E>lake", "S>lake", "W>lake"),
        lakes=(2,),
        meadows=("WN NW", "NE EN", "ES SE", "SW WS"),
    )
    bm = T("bm", "MMMM", count=1, meadows=("N E S W",))
    s = build(box(bonus=[rrrr, bm]), [("forestNg", 1, 0, 0)], drawn="forestN")
    s = play(s, "place 1,-1 r2", "bonus rrrr")
    assert [str(m) for m in legal_moves(s)] == ["discard"]  # no river edge is open anywhere
    s = apply(s, Discard())
    assert s.phase is Phase.BONUS_DRAW and [s.profile.tiles[k].id for k in s.removed] == ["rrrr"]
    s = play(s, "bonus bm", "place 0,1 r0")
    assert s.phase is Phase.DRAW and s.to_move == BLUE
    # with the bonus stack empty the turn ends
    s = build(box(bonus=[rrrr]), [("forestNg", 1, 0, 0)], drawn="forestN")
    s = play(s, "place 1,-1 r2", "bonus rrrr", "discard")
    assert s.phase is Phase.DRAW and s.to_move == BLUE and s.bonus_left == 0


# --- the end and the final scoring ----------------------------------------------------------------


def test_H_FINAL_2_the_four_meadows_of_the_rulebook():
    """Wiese 1: 1 Wild, Grün 2. Wiese 2: 1 Wild, 1 Mammut, 1 Tiger: Gelb und Rot je 2. Wiese 3: 2 Wild,
    2 Mammuts, 1 Auerochse, 1 Tiger: Rot (meiste Jäger) allein 8. Wiese 4: 2 Tiger, 1 Wild: Blau 0."""
    doc = counts(meadow_box(), ff=2)
    tiles = [
        ("c1", 1, 0, 0),
        ("ff", 2, 0, 0),
        ("c4", 3, 0, 0),
        ("h2a", 1, 1, 2),
        ("m3", 0, 1, 0),
        ("hh", -1, 1, 0),
        ("aur", -2, 1, 2),
        ("h0", 2, 1, 0),
    ]
    figs = [
        (GREEN, "hunter", 1, "m0"),
        (BLUE, "hunter", 3, "m0"),
        (YELLOW, "hunter", 4, "m0"),
        (RED, "hunter", 8, "m0"),
        (RED, "hunter", 5, "m0"),
        (RED, "hunter", 7, "m0"),
        (YELLOW, "hunter", 6, "m0"),
    ]
    s = build(doc, tiles, figs, drawn="ff")
    events = {e.tiles: e for e in final_events(s)}
    by_points = sorted((e.points, e.winners) for e in events.values())
    assert by_points == [(0, (BLUE,)), (2, (RED, YELLOW)), (2, (GREEN,)), (8, (RED,))]
    assert projected(s) == [10, 0, 2, 2]
    wiese3 = next(e for e in events.values() if e.points == 8)
    assert dict(wiese3.detail) == {
        "deer": 2,
        "mammoths": 2,
        "aurochs": 1,
        "tigers": 1,
        "eaten": 1,
        "fire": 0,
        "cult": 0,
    }
    assert wiese3.figures == (2, 0, 1, 0)
    # the last land tile ends the game with exactly this final scoring
    end = play(s, "place -1,0 r0")
    assert end.is_over and end.scores == (10, 0, 2, 2)
    assert sorted(e.points for e in end.log if e.feature == "hunters") == [0, 2, 2, 8]


def test_H_END_1_the_final_scoring_follows_the_turn_of_the_last_land_tile():
    doc = counts(box(), fill=1)
    s = build(doc, [("forestN", 1, 0, 0)], [(RED, "gatherer", 1, "f0"), (BLUE, "hunter", 0, "m0")])
    s = s._replace(bag=tuple(1 if s.profile.tiles[i].id == "fill" else 0 for i in range(len(s.bag))), land_left=1)
    s = play(s, "draw fill", "place -1,0 r0")
    assert s.is_over and s.land_left == 0 and not legal_moves(s)
    assert s.scores[RED] == 0  # the incomplete forest scores nothing
    assert any(f.role is Role.GATHERER for f in s.figures)
    hunters = [e for e in s.log if e.feature == "hunters"]
    assert len(hunters) == 1 and hunters[0].winners == (BLUE,)
    with pytest.raises(Exception, match="H-END-1"):
        play(s, "draw fill")


def test_H_END_1_the_last_land_tiles_bonus_tile_is_still_laid():
    s = build(box(), [("forestNg", 1, 0, 0)], drawn="forestN")
    s = s._replace(land_left=0, bag=tuple(0 if s.profile.tiles[i].group == "land" else c for i, c in enumerate(s.bag)))
    s = play(s, "place 1,-1 r2")
    assert s.phase is Phase.BONUS_DRAW
    s = play(s, "bonus fire", "place 0,1 r0")
    assert s.is_over


def test_H_END_2_most_points_wins_and_equal_points_share_the_place():
    s = build(
        box(),
        [("fill", 0, -1, 0), ("fill", 0, -2, 0), ("forestN", 1, -2, 2), ("forestN", 1, 0, 0)],
        [(BLUE, "gatherer", 3, "f0"), (RED, "gatherer", 4, "f0")],
        drawn="forestNS",
        to_move=YELLOW,
    )
    s = play(s, "place 1,-1 r0")
    r = ranking(s)
    assert [(x.place, x.seat, x.score) for x in r] == [(1, RED, 6), (1, BLUE, 6), (3, YELLOW, 0), (3, GREEN, 0)]


def test_H_FINAL_1_Blau_erhaelt_5_Punkte_fuer_5_Fische():
    # a river system: lake (3 fish) - river - lake (2 fish); the hut scores 5, complete or not
    s = build(box(), [("riverEW", 1, 0, 1), ("lakeN3", 1, 1, 0), ("lake2", 1, -1, 1)], [(BLUE, "hut", 1, "r0")])
    huts = [e for e in final_events(s) if e.feature == "huts"]
    assert [(e.points, e.winners) for e in huts] == [(4, (BLUE,))]  # 3 + 1: lake2 holds 1
    s = build(box(), [("riverEW", 1, 0, 1), ("lakeN3", 1, 1, 0), ("lakeW2", 1, -1, 3)], [(BLUE, "hut", 1, "r0")])
    huts = [e for e in final_events(s) if e.feature == "huts"]
    assert [(e.points, e.winners) for e in huts] == [(5, (BLUE,))]
    assert projected(s)[BLUE] == 5


def test_H_HUT_1_a_river_system_runs_across_lakes_and_ties_share():
    # two systems each with a hut, then joined across a lake by a new tile: both huts on one system
    s = build(
        box(),
        [("fill", 0, -1, 0), ("fill", 0, -2, 0), ("riverEW", 1, 0, 1), ("riverEW", 1, -2, 1)],
        [(RED, "hut", 3, "r0"), (BLUE, "hut", 4, "r0")],
        drawn="lake2",
        to_move=YELLOW,
    )
    assert len({e.tiles for e in final_events(s)}) == 2
    s = play(s, "place 1,-1 r1")
    (e,) = [e for e in final_events(s) if e.feature == "huts"]
    assert e.winners == (RED, BLUE) and e.points == 1  # the lake's 1 fish, to both
    assert len(e.tiles) == 3


def test_H_BONUS_1_the_fire_drives_every_tiger_off_its_meadow():
    s = build(box(), [("deer2", 1, 0, 0), ("tiger2", -1, 0, 0)], [(RED, "hunter", 0, "m0")], drawn="fire")
    (e,) = final_events(s)
    assert e.points == 0  # 2 deer, 2 tigers
    s = play(s, "place 0,1 r0")  # the fire, no hunter on it
    (e,) = final_events(s)
    assert e.points == 4 and dict(e.detail)["eaten"] == 0 and dict(e.detail)["fire"] == 1


def test_H_FINAL_2_more_tigers_than_deer_give_no_minus_points():
    s = build(box(), [("tiger2", -1, 0, 0)], [(RED, "hunter", 0, "m0")])
    (e,) = final_events(s)
    assert e.points == 0 and e.winners == (RED,)


def test_H_BONUS_2_a_mushroom_group_adds_2_to_its_completed_forest():
    s = build(box(), [("forestN", 1, 0, 0)], [(RED, "gatherer", 1, "f0")], drawn="mush")
    s = play(s, "place 1,-1 r2")
    assert s.scores[RED] == 6


def test_H_BONUS_3_an_aurochs_gives_2_and_tigers_leave_it_alone():
    s = build(box(), [], [(RED, "hunter", 0, "m0")], drawn="aurochs")
    s = play(s, "place 1,0 r0")
    (e,) = final_events(s)
    assert e.points == 2 and dict(e.detail)["tigers"] == 1 and dict(e.detail)["aurochs"] == 1


def test_H_BONUS_4_the_cult_site_hunter_scores_the_meadow_alone():
    s = build(
        box(),
        [("deer2", -1, 0, 0), ("riverEW", 1, 0, 1)],
        [(BLUE, "hunter", 0, "m0"), (BLUE, "hunter", 1, "m0")],
        drawn="cult",
    )
    assert s.phase is Phase.BONUS_PLACE
    # beside Blau's meadow the hunter is refused, as always
    assert parse_move("place 0,1 r0 hunter m0") not in legal_moves(s)
    s = play(s, "place 2,0 r0 hunter m0")
    assert s.figures[-1].cult
    s = play(s, "draw springS", "place 1,-1 r0")  # Blau joins the two meadows round the spring
    (e,) = final_events(s)
    assert e.figures == (1, 2, 0, 0) and e.winners == (RED,) and e.points == 4  # the 2 deer, to Rot alone
    assert dict(e.detail)["cult"] == 1


def test_H_BONUS_4_a_hunter_on_another_meadow_of_the_cult_tile_is_ordinary():
    cult = T("cultR", "MRMR", count=1, rivers=("EW",), meadows=(("N EN WN", {"cult": 1}), "ES S WS"))
    doc = box(bonus=[cult])
    s = build(doc, [], drawn="cultR")
    s = play(s, "place 0,1 r0 hunter m1")
    assert not s.figures[-1].cult


def test_scoreboard_and_features_break_the_points_down():
    s = build(
        box(),
        [("lakeE1", 1, 0, 0), ("riverEW", 2, 0, 0), ("forestN", -1, 0, 0)],
        [(RED, "fisher", 2, "r0"), (BLUE, "gatherer", 3, "f0"), (YELLOW, "hunter", 0, "m0")],
        drawn="lakeW2",
    )
    s = play(s, "place 3,0 r0")
    board = scoreboard(s)
    assert board[RED]["total"] == 6 and board[RED]["rivers"] == 6 and board[RED]["forests"] == 0
    assert board[YELLOW]["projected"] == projected(s)[YELLOW] and "projected_parts" in board[YELLOW]
    feats = features(s)
    done = [f for f in feats if f["status"] == "completed"]
    assert done and done[0]["feature"] == "river" and done[0]["points"] == 6
    open_forest = next(f for f in feats if f["status"] == "open")
    assert open_forest["feature"] == "forest" and open_forest["points_if_completed"] == 2
    assert open_forest["open_edges"] == 1 and open_forest["leaders"] == [BLUE]
    assert any(f["status"] == "projected" and f["feature"] == "hunters" for f in feats)
