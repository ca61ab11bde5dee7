"""Setup, turns, draws, laying tiles and placing figures (docs/carcassonne-rules.md: H-SET, H-TURN,
H-DRAW, H-PLACE, H-FIG, H-HUT-2/3, H-MEADOW-1)."""

from __future__ import annotations

import random

import pytest
from carc_boxes import BEND, FFFF, LAKE2, LAND, SEP, box, counts
from carc_helpers import BLUE, FILLER, RED, YELLOW, T, build, play, profile

from games.carcassonne.rules.engine import apply, check, lay, new_game, placements, spot_options
from games.carcassonne.rules.errors import IllegalMoveError, InvalidMoveError
from games.carcassonne.rules.legal import chance_outcomes, legal_moves, sample_chance
from games.carcassonne.rules.moves import Discard, Draw, Place, parse_move
from games.carcassonne.rules.state import Phase
from games.carcassonne.rules.tiles import Role, cell_key, default_profile

PLAYERS = [("Rot", "red"), ("Blau", "blue"), ("Gelb", "yellow"), ("Grün", "green")]


def refused(state, text: str) -> str:
    """The clause that refuses ``text``; the state is unchanged."""
    before = repr(state), state.placements()
    with pytest.raises(IllegalMoveError) as exc:
        apply(state, parse_move(text))
    assert (repr(state), state.placements()) == before
    assert check(state, parse_move(text))[0] == exc.value.clause
    return exc.value.clause


def spots(state, x: int, y: int, rot: int) -> dict[tuple[str, str], tuple[bool, str]]:
    laid = lay(state, cell_key(x, y), rot)
    return {(str(o.role), o.spot): (o.allowed, o.clause) for o in spot_options(state, laid)}


# --- setup ----------------------------------------------------------------------------------------


def test_H_SET_1_the_start_tile_lies_on_0_0_before_the_first_move():
    s = new_game(PLAYERS)
    (p,) = s.placements()
    assert (p.x, p.y, p.rot, p.kind) == (0, 0, 0, s.profile.start)
    assert s.profile.tiles[p.kind].id == "volcano" and s.phase is Phase.DRAW and s.to_move == 0


def test_H_SET_2_draws_are_chance_outcomes_weighted_by_the_counts_left():
    s = new_game(PLAYERS)
    outs = chance_outcomes(s)
    assert s.is_chance and abs(sum(p for _, p in outs) - 1) < 1e-9
    prof = s.profile
    for move, p in outs:
        assert move.chance and p == pytest.approx(prof.tile(move.tile).count / 78)
    # a simulation draws only what the stack holds, in proportion
    rng = random.Random(4)
    seen = {sample_chance(s, rng).tile for _ in range(400)}
    assert seen <= {m.tile for m, _ in outs} and len(seen) > 30
    # once drawn, one fewer of that type is left
    first = outs[0][0]
    after = apply(s, first)
    assert after.bag[prof.index[first.tile]] == s.bag[prof.index[first.tile]] - 1 and after.land_left == 77


def test_H_SET_3_every_player_has_5_members_and_2_huts():
    s = new_game(PLAYERS[:3])
    assert s.members == (5, 5, 5) and s.huts == (2, 2, 2)
    small = new_game(PLAYERS[:2], box(members=1, huts=0))
    assert small.members == (1, 1) and small.huts == (0, 0)


def test_player_count_is_2_to_5():
    with pytest.raises(ValueError, match="2 to 5"):
        new_game(PLAYERS[:1])
    assert new_game([*PLAYERS, ("Schwarz", "black")]).n == 5


# --- turns and draws -------------------------------------------------------------------------------


def test_H_TURN_1_draw_then_lay_then_the_next_player():
    s = new_game(PLAYERS, box())
    assert refused(s, "place 1,0 r0") == "H-TURN-1"  # nothing drawn yet
    s = play(s, "draw fill")
    assert s.phase is Phase.PLACE and s.to_move == RED
    assert refused(s, "draw fill") == "H-TURN-1"  # a tile waits to be laid
    s = play(s, "place 1,0 r0")
    assert s.phase is Phase.DRAW and s.to_move == BLUE and s.turn == 2


def test_H_TURN_2_seats_take_turns_in_order_and_wrap():
    s = new_game(PLAYERS[:3], box())
    order = []
    for x in range(1, 5):
        order.append(s.to_move)
        s = play(s, "draw fill", f"place {x},0 r0")
    assert order == [0, 1, 2, 0]


def test_H_DRAW_1_only_a_tile_still_in_the_stack_can_be_drawn():
    s = new_game(PLAYERS, counts(box(), fill=1))
    assert refused(s, "draw nosuchtile") == "H-DRAW-1"
    assert refused(s, "draw cult") == "H-DRAW-1"  # a bonus tile is not in the land stack
    s = play(s, "draw fill", "place 1,0 r0")
    assert refused(s, "draw fill") == "H-DRAW-1"  # the only one is laid
    assert "fill" not in {m.tile for m, _ in chance_outcomes(s)}


def test_H_DRAW_2_a_tile_that_fits_nowhere_leaves_the_game_and_another_is_drawn():
    doc = profile([dict(FILLER), dict(FFFF)], start=T("SF", "FFFF", forests=("NESW",)))
    s = build(doc, [], drawn="fill")
    assert placements(s) == []
    assert [str(m) for m in legal_moves(s)] == ["discard"]
    assert refused(s, "place 1,0 r0") == "H-PLACE-3"
    after = apply(s, Discard())
    assert after.phase is Phase.DRAW and after.to_move == s.to_move and after.turn == s.turn
    assert [after.profile.tiles[k].id for k in after.removed] == ["fill"]
    assert after.land_left == s.land_left  # the next tile comes from the stack
    # while it fits somewhere it must be laid
    s2 = build(doc, [], drawn="f4")
    assert refused(s2, "discard") == "H-DRAW-2"


def test_H_DRAW_3_when_the_last_land_tile_fits_nowhere_the_game_ends():
    doc = profile([T("fill", "MMMM", count=1, meadows=("N E S W",))], start=T("SF", "FFFF", forests=("NESW",)))
    s = build(doc, [], drawn="fill")
    assert s.land_left == 0
    after = apply(s, Discard())
    assert after.is_over and not legal_moves(after)


# --- laying a tile --------------------------------------------------------------------------------


def test_H_PLACE_1_an_empty_square_touching_a_laid_tile_with_a_side():
    s = build(box(), [], drawn="fill")
    squares = {(c >> 12, c) for c, _ in placements(s)}
    assert len(squares) == 4 and len(placements(s)) == 16  # 4 sides x 4 turns of a plain meadow
    assert refused(s, "place 0,0 r0") == "H-PLACE-1"  # taken
    assert refused(s, "place 3,0 r0") == "H-PLACE-1"  # touches nothing
    assert refused(s, "place 900,-900 r0") == "H-PLACE-1"


def test_H_PLACE_2_corner_contact_only_is_refused():
    s = build(box(), [], drawn="fill")
    for text in ("place 1,1 r0", "place -1,-1 r2", "place 1,-1 r1"):
        assert refused(s, text) == "H-PLACE-2"


def test_H_PLACE_3_every_forest_river_and_meadow_edge_is_continued():
    s = build(box(), [], drawn="forestN")
    assert refused(s, "place 0,-1 r2") == "H-PLACE-3"  # the forest would meet the start tile's meadow
    with pytest.raises(IllegalMoveError, match="S side is forest but meets meadow"):
        apply(s, parse_move("place 0,-1 r2"))
    # a river side must meet a river side
    s = build(box(), [("lakeE1", 1, 0, 0)], drawn="riverEW")
    assert refused(s, "place 2,0 r1") == "H-PLACE-3"
    assert Place(2, 0, 0) in legal_moves(s)


def test_H_PLACE_4_all_four_rotations_that_fit_are_legal():
    s = build(box(), [], drawn="forestN")
    rots_east = sorted(r for c, r in placements(s) if c == cell_key(1, 0))
    assert rots_east == [0, 1, 2]  # r3 turns the forest to the west, against the start tile's meadow
    s = build(box(), [], drawn="fill")
    assert sorted(r for c, r in placements(s) if c == cell_key(1, 0)) == [0, 1, 2, 3]


def test_H_BONUS_5_bonus_tiles_follow_the_usual_placement_rules():
    s = build(box(), [("forestN", 1, 0, 0)], drawn="mush")
    assert s.phase is Phase.BONUS_PLACE
    assert refused(s, "place 0,-1 r2") == "H-PLACE-3"
    assert refused(s, "place 2,1 r0") == "H-PLACE-2"
    assert Place(1, -1, 2, Role.GATHERER, "f0") in legal_moves(s)


# --- figures --------------------------------------------------------------------------------------


def test_H_FIG_1_at_most_one_figure_and_it_is_optional():
    s = build(box(), [], drawn="fill")
    with pytest.raises(InvalidMoveError):
        parse_move("place 1,0 r0 hunter m0 hunter m0")
    after = play(s, "place 1,0 r0")
    assert after.figures == () and after.members == s.members
    after = play(s, "place 1,0 r0 hunter m0")
    assert len(after.figures) == 1 and after.members[RED] == 4


def test_H_FIG_2_figures_come_from_the_supply():
    doc = box(members=1, huts=1)
    s = build(doc, [("fill", 1, 0, 0)], [(RED, "hunter", 1, "m0")], drawn="lakeE1", players=2)
    assert s.members[RED] == 0 and s.huts[RED] == 1
    opts = spots(s, -1, 0, 2)
    assert opts[("fisher", "r0")] == (False, "H-FIG-2")
    assert opts[("hut", "l0")] == (True, "")
    assert refused(s, "place -1,0 r2 fisher r0") == "H-FIG-2"
    s = play(s, "place -1,0 r2 hut r0")
    assert s.huts[RED] == 0
    s = play(s, "draw fill", "place 0,-1 r0", "draw lakeE1")
    assert refused(s, "place 0,1 r1 hut l0") == "H-FIG-2" and Place(0, 1, 1) in legal_moves(s)


def test_H_FIG_3_only_on_the_tile_just_laid():
    s = build(box(), [("forestN", 1, 0, 0)], drawn="fill")
    assert refused(s, "place -1,0 r0 gatherer f0") == "H-FIG-3"  # the filler has no forest
    assert refused(s, "place -1,0 r0 hunter m1") == "H-FIG-3"


def test_H_FIG_4_gatherer_forest_fisher_river_hunter_meadow_hut_river_or_lake():
    s = build(box(), [], drawn="frmr")
    for text in (
        "place 0,1 r2 gatherer m1",
        "place 0,1 r2 fisher f0",
        "place 0,1 r2 hunter r0",
        "place 0,1 r2 hut f0",
        "place 0,1 r2 hut m0",
    ):
        assert refused(s, text) == "H-FIG-4", text
    for text in ("place 0,1 r2 gatherer f0", "place 0,1 r2 fisher r0", "place 0,1 r2 hut r0", "place 0,1 r2 hunter m0"):
        assert parse_move(text) in legal_moves(s), text
    s = build(box(), [], drawn="lakeE1")
    assert refused(s, "place 1,0 r0 fisher l0") == "H-FIG-4"
    assert parse_move("place 1,0 r0 hut l0") in legal_moves(s)


def test_H_FIG_5_Blau_kann_nur_einen_Jaeger_einsetzen():
    """'Blau kann nur einen Jäger einsetzen. In dem Wald steht bereits ein Sammler' — however far away."""
    s = build(
        box(),
        [("forestN", 1, 0, 0), ("forestNS", 1, -1, 0)],
        [(RED, "gatherer", 1, "f0")],
        drawn="forestNS",
        to_move=BLUE,
    )
    opts = spots(s, 1, -2, 0)
    assert opts[("gatherer", "f0")] == (False, "H-FIG-5")
    assert opts[("hunter", "m0")] == (True, "") and opts[("hunter", "m1")] == (True, "")
    assert refused(s, "place 1,-2 r0 gatherer f0") == "H-FIG-5"
    # own figures block too
    s = build(box(), [("forestN", 1, 0, 0)], [(BLUE, "gatherer", 1, "f0")], drawn="forestNS", to_move=BLUE)
    assert refused(s, "place 1,-1 r0 gatherer f0") == "H-FIG-5"


def test_H_FIG_5_Rot_kann_als_Jaeger_nur_auf_der_kleinen_Wiese():
    """'Rot kann sein Stammesmitglied als Sammler oder Fischer einsetzen, als Jäger aber nur auf der
    kleinen Wiese' — the big meadow already holds a hunter."""
    s = build(box(), [], [(BLUE, "hunter", 0, "m0")], drawn="frmr")
    opts = spots(s, 0, 1, 2)
    assert opts[("gatherer", "f0")][0] and opts[("fisher", "r0")][0] and opts[("hut", "r0")][0]
    assert opts[("hunter", "m0")] == (True, "")  # the small meadow between forest and river
    assert opts[("hunter", "m1")] == (False, "H-FIG-5")  # the big one joins the start tile's meadow


def test_H_FIG_5_a_part_of_the_new_tile_joins_through_another_part_of_it():
    """The new tile's north forest touches only a free forest (X, curled round the north-east corner),
    but its other forest part touches X and, to the south, Blau's forest: after laying, all of it is one
    forest, so no gatherer may go on either part."""
    corner = T("corner", "FFMM", count=3, forests=("NE",), meadows=("S W",))
    nes = T("nes", "FFFM", count=1, forests=("N", "ES"), meadows=("W",))
    doc = box(land=[*(dict(t) for t in LAND), corner, nes])
    tiles = [
        ("fill", 0, -1, 0),
        ("fill", 0, -2, 0),
        ("corner", 1, -2, 1),
        ("corner", 2, -2, 2),
        ("corner", 2, -1, 3),
        ("forestN", 1, 0, 0),
    ]
    s = build(doc, tiles, [(BLUE, "gatherer", 6, "f0")], drawn="nes")
    opts = spots(s, 1, -1, 0)
    assert opts[("gatherer", "f0")] == (False, "H-FIG-5")
    assert opts[("gatherer", "f1")] == (False, "H-FIG-5")
    free = build(doc, tiles, drawn="nes")
    assert spots(free, 1, -1, 0)[("gatherer", "f0")] == (True, "")


def test_H_FIG_6_joined_features_hold_several_figures():
    """'Die neu gelegte Karte verbindet die zuvor getrennten Wälder. Danach stehen mehrere Figuren im
    selben Wald.'"""
    s2 = build(
        box(),
        [("fill", 0, -1, 0), ("fill", 0, -2, 0), ("forestN", 1, 0, 0), ("forestNS", 1, -2, 0)],
        [(RED, "gatherer", 3, "f0"), (BLUE, "gatherer", 4, "f0")],
        drawn="forestNS",
        to_move=YELLOW,
    )
    after = play(s2, "place 1,-1 r0")
    info = after.feature(after.figures[0].node)
    assert after.root(after.figures[0].node) == after.root(after.figures[1].node)
    assert info[2] == 1 + (1 << 5) and info[3] == 1  # one gatherer each, one open side left


def test_H_HUT_2_no_hut_on_a_river_system_with_a_hut_joined_across_lakes():
    # lake2: two rivers ending at one lake: two rivers, one system
    s = build(box(), [("riverEW", 1, 0, 1), ("lake2", 1, -1, 1)], [(BLUE, "hut", 2, "l0")], drawn="riverEW")
    # riverEW turned r1 runs N-S on (1,0); lake2 turned r1 has its rivers N and S, the lake between
    assert refused(s, "place 1,1 r1 hut r0") == "H-HUT-2"  # joins the system through the lake
    assert parse_move("place 1,1 r1 fisher r0") in legal_moves(s)  # H-HUT-3
    # a river system ending at a spring elsewhere is another system
    s = build(box(), [("springW", 1, 0, 2)], [(BLUE, "hut", 1, "r0")], drawn="lakeE1")
    assert parse_move("place -1,0 r2 hut l0") in legal_moves(s)


def test_H_HUT_3_Die_blaue_Huette_darf_eingesetzt_werden_der_rote_Fischer_auch():
    s = build(box(), [("lakeE1", 1, 0, 0)], [(RED, "fisher", 1, "r0")], drawn="riverEW", to_move=BLUE)
    assert spots(s, 2, 0, 0)[("hut", "r0")] == (True, "")
    assert spots(s, 2, 0, 0)[("fisher", "r0")] == (False, "H-FIG-5")
    s = build(box(), [("lakeE1", 1, 0, 0)], [(BLUE, "hut", 1, "l0")], drawn="riverEW")
    assert spots(s, 2, 0, 0)[("fisher", "r0")] == (True, "")
    assert spots(s, 2, 0, 0)[("hut", "r0")] == (False, "H-HUT-2")


def test_H_MEADOW_1_a_new_tile_joins_meadows_and_then_no_hunter_may_join():
    """'Nach dem Anlegen der neuen Karte sind die Wiesen verbunden. Alle 3 Jäger befinden sich nun auf
    einer Wiese' — and the player who laid it may not add a hunter."""
    # three meadows kept apart by rivers: the east meadow of a N-S river at (1,0), its west meadow
    # (joined to the start tile) and the meadow of a bend's inner corner
    s = build(
        box(),
        [("riverEW", 1, 0, 1), ("fill", 2, 0, 0)],
        [(RED, "hunter", 0, "m0"), (BLUE, "hunter", 2, "m0")],
        drawn="springS",
        to_move=YELLOW,
    )
    before = {s.root(f.node) for f in s.figures}
    assert len(before) == 2  # the river keeps the meadows apart
    assert refused(s, "place 1,-1 r0 hunter m0") == "H-FIG-5"
    after = play(s, "place 1,-1 r0")
    assert len({after.root(f.node) for f in after.figures}) == 1  # the spring lets the meadow round it
    # rivers separate meadows: a hunter south of a river while one lies north of it
    s = build(box(), [], [(BLUE, "hunter", 0, "m0")], drawn="frmr")
    assert spots(s, 0, 1, 2)[("hunter", "m0")] == (True, "")


def test_legal_moves_view_is_lazy_and_matches_apply():
    s = build(box(), [("lakeE1", 1, 0, 0)], [(RED, "fisher", 1, "r0")], drawn="riverEW", to_move=BLUE)
    moves = list(legal_moves(s))
    assert legal_moves(s).count() == len(moves) and bool(legal_moves(s))
    for m in moves:
        assert m in legal_moves(s) and check(s, m) is None
        apply(s, m)
    assert Draw("fill") not in legal_moves(s) and Discard() not in legal_moves(s)
    assert "nonsense" not in legal_moves(s)


def test_prompt_lists_every_placement_with_refused_spots_and_their_clause():
    from games.carcassonne.plugin import prompt

    s = build(box(), [("lakeE1", 1, 0, 0)], [(RED, "fisher", 1, "r0")], drawn="riverEW", to_move=BLUE)
    p = prompt(s)
    assert p["kind"] == "place" and p["tile"] == "riverEW" and p["seat"] == BLUE
    assert p["discard"]["allowed"] is False and p["discard"]["clause"] == "H-DRAW-2"
    east = next(o for o in p["options"] if o["at"] == [2, 0] and o["rot"] == 0)
    fisher = next(sp for sp in east["spots"] if sp["role"] == "fisher")
    assert fisher["allowed"] is False and fisher["clause"] == "H-FIG-5" and "already holds" in fisher["reason"]
    hut = next(sp for sp in east["spots"] if sp["role"] == "hut")
    assert hut["allowed"] is True and "clause" not in hut
    assert len(p["options"]) == len(placements(s))


def test_default_profile_first_moves():
    s = new_game(PLAYERS, default_profile())
    s = apply(s, Draw(default_profile().tiles[1].id))
    assert placements(s) and all(m in legal_moves(s) for m in list(legal_moves(s))[:20])
    assert BEND and LAKE2 and SEP  # the test box's tiles are used elsewhere
