"""The three actions: Offspring, Movement, Exploration (R-ACT-*)."""

from __future__ import annotations

import pytest

from games.tribes.rules.engine import apply
from games.tribes.rules.errors import IllegalMoveError
from games.tribes.rules.legal import legal_moves, movement_deltas
from games.tribes.rules.moves import Movement, Offspring, parse_move
from games.tribes.rules.state import State
from tests.games.tribes.rules.helpers import play, player, position, profile_variant, state


def members(s, seat=0):
    return {h: t.members for h, t in s.players[seat].land.items() if t.members}


# --- Offspring -----------------------------------------------------------------------------------
def test_offspring_places_intensity_members_on_occupied_tiles_R_ACT_OFF_1():
    """R-ACT-OFF-1 (rulebook example): 2 new members, both on the goat tile or split over occupied tiles."""
    a = player("A", {"0,0": "goat:1", "1,0": "horse", "0,1": "wheat:1"}, tracks={"offspring": 1})
    s = state(players=[a, player("B")])
    both = play(s, "1:off 0,0 0,0")
    assert members(both) == {(0, 0): 3, (0, 1): 1} and both.players[0].supply == 11
    split = play(s, "1:off 0,0 0,1")
    assert members(split) == {(0, 0): 2, (0, 1): 2}
    with pytest.raises(IllegalMoveError) as err:
        apply(s, parse_move("1:off 0,0 1,0"))
    assert err.value.clause == "R-ACT-OFF-1" and "1,0 holds none of your members" in str(err.value)
    with pytest.raises(IllegalMoveError, match="R-ACT-OFF-1: take 2 members"):
        apply(s, parse_move("1:off 0,0"))


def test_offspring_with_short_supply_takes_what_is_left_R_ACT_OFF_1():
    """R-ACT-OFF-1: Engine choice (docs/rules-notes.md): intensity 2 but 1 member in supply -> place 1."""
    a = player("A", {"0,0": "goat:14", "1,0": "horse", "0,1": "wheat"}, tracks={"offspring": 1})
    s = state(players=[a, player("B")])
    assert s.players[0].supply == 1
    after = play(s, "1:off 0,0")
    assert after.players[0].supply == 0


def test_empty_supply_allows_relocation_R_ACT_OFF_2():
    """R-ACT-OFF-2: supply empty -> relocate placed members onto occupied tiles, up to the intensity."""
    a = player("A", {"0,0": "goat:10", "1,0": "horse:5", "0,1": "wheat"})
    s = state(players=[a, player("B")])
    assert s.players[0].supply == 0
    after = play(s, "1:off 0,0>1,0")
    assert members(after) == {(0, 0): 9, (1, 0): 6}
    nothing = play(s, "1:off")  # relocating is optional
    assert members(nothing) == members(s)
    with pytest.raises(IllegalMoveError, match="R-ACT-OFF-2: you may relocate at most 1 member"):
        apply(s, parse_move("1:off 0,0>1,0 0,0>1,0"))
    with pytest.raises(IllegalMoveError, match="R-ACT-OFF-2: 0,1 is not occupied"):
        apply(s, parse_move("1:off 0,0>0,1"))
    with pytest.raises(IllegalMoveError, match="R-ACT-OFF-2: your supply is empty"):
        apply(s, parse_move("1:off 0,0"))


def test_relocation_only_with_empty_supply_R_ACT_OFF_2():
    s = state(players=[player("A", {"0,0": "goat:1", "1,0": "horse:1", "0,1": "wheat"}), player("B")])
    with pytest.raises(IllegalMoveError, match="R-ACT-OFF-2"):
        apply(s, parse_move("1:off 0,0>1,0"))


# --- Movement ------------------------------------------------------------------------------------
LONG = {"0,0": "goat:2", "1,0": "horse", "2,0": "wheat:x", "3,0": "gold", "0,1": "incense"}


def test_movement_steps_split_or_joined_and_forfeited_R_ACT_MOV_1():
    """R-ACT-MOV-1 (rulebook example): 3 steps: one member 2 tiles, another 1; unused steps may lapse;
    exhausted tiles may be entered."""
    a = player("A", LONG, tracks={"movement": 2})  # intensity 3 in the default profile
    s = state(players=[a, player("B")])
    after = play(s, "2:mov 0,0>2,0 0,0>1,0")
    assert members(after) == {(1, 0): 1, (2, 0): 1}  # 2,0 is exhausted and may be entered
    assert members(play(s, "2:mov")) == members(s)  # all steps forfeited
    far = play(s, "2:mov 0,0>3,0")  # three steps for one member
    assert members(far) == {(0, 0): 1, (3, 0): 1}
    with pytest.raises(IllegalMoveError) as err:
        apply(s, parse_move("2:mov 0,0>3,0 0,0>1,0"))
    assert err.value.clause == "R-ACT-MOV-1" and "needs 4 steps" in str(err.value)


def test_movement_stays_inside_own_land_R_ACT_MOV_1():
    """A step goes to an adjacent tile of the player's own area: no walking over empty table."""
    gap = {"0,0": "goat:1", "1,0": "horse", "2,-1": "wheat", "2,0": "gold"}
    s = state(players=[player("A", gap, tracks={"movement": 1}), player("B")])
    with pytest.raises(IllegalMoveError, match="R-ACT-MOV-1: 5,5 is not one of your tiles"):
        apply(s, parse_move("2:mov 0,0>5,5"))
    with pytest.raises(IllegalMoveError, match="R-ACT-MOV-1: 1,0 holds 0 members"):
        apply(s, parse_move("2:mov 1,0>2,0"))
    play(s, "2:mov 0,0>2,0")  # 2 steps via 1,0 with intensity 2


def test_movement_notation_is_canonical_by_net_change():
    """Members are identical: A>B B>C is the same move as A>C."""
    assert parse_move("2:mov 0,0>1,0 1,0>2,0") == parse_move("2:mov 0,0>2,0")
    assert str(Movement(2, (((0, 0), -1), ((2, 0), 1)))) == "2:mov 0,0>2,0"


def test_movement_enumeration_counts_distinct_results():
    """With 1 step and one member on a triangle: stay, or go to either neighbour = 3 results."""
    s = state()
    assert len(list(movement_deltas(s.players[0], 1))) == 3
    moves = [m for m in legal_moves(s) if isinstance(m, Movement) and m.slot == 2]
    assert len(moves) == 3


# --- Exploration ---------------------------------------------------------------------------------
def test_exploration_draws_then_places_adjacent_R_ACT_EXP_1():
    """R-ACT-EXP-1 (rulebook example): draw 2 (wheat, gold), then lay both next to the land."""
    s = state(players=[player("A", tracks={"exploration": 1}), player("B")])
    s = play(s, "3:exp")
    assert s.pending.kind == "draw" and s.pending.count == 2 and s.is_chance
    bag_before = s.bag_total()
    s = play(s, "draw wheat gold")
    assert s.bag_total() == bag_before - 2 and s.pending.kind == "place"
    with pytest.raises(IllegalMoveError, match="R-ACT-EXP-1: place exactly the drawn tiles"):
        apply(s, parse_move("place wheat@1,-1"))
    with pytest.raises(IllegalMoveError, match="R-ACT-EXP-1: every new tile must be edge-adjacent"):
        apply(s, parse_move("place wheat@1,-1 gold@5,5"))
    chained = play(s, "place wheat@1,-1 gold@2,-2")  # the second touches only the first new tile
    assert chained.players[0].land[(2, -2)].resource == "gold"
    assert len(chained.players[0].land) == 5


def test_placed_tiles_never_move_R_ACT_EXP_2():
    s = play(state(), "3:exp", "draw goat")
    with pytest.raises(IllegalMoveError) as err:
        apply(s, parse_move("place goat@1,0"))
    assert err.value.clause == "R-ACT-EXP-2"


def test_draw_must_match_the_bag_R_ACT_EXP_1():
    s = play(state(), "3:exp")
    with pytest.raises(IllegalMoveError, match="R-ACT-EXP-1: the player draws 1 tile"):
        apply(s, parse_move("draw goat wheat"))
    with pytest.raises(IllegalMoveError, match="R-COMP-4"):
        apply(s, parse_move("draw fish"))


def test_empty_bag_restores_unoccupied_exhausted_tiles_R_ACT_EXP_3():
    """R-ACT-EXP-3: bag empty -> turn exhausted tiles without members back, up to the intensity;
    none -> nothing happens."""
    prof = profile_variant(components=lambda raw: raw["components"].update(tiles_per_resource=4))
    # 20 tiles in the box: B holds wheat, gold, incense; A holds the other 17 in a line
    kinds = ["goat"] * 4 + ["horse"] * 4 + ["wheat"] * 3 + ["gold"] * 3 + ["incense"] * 3
    a_land = {f"{i},0": r for i, r in enumerate(kinds)}
    a_land.update({"0,0": "goat:1", "1,0": "goat:x", "2,0": "goat:1x", "4,0": "horse:x"})
    b = player("B", {"0,0": "wheat:1", "1,0": "gold", "0,1": "incense"})
    s = State.from_dict(position(players=[player("A", a_land), b]), prof)
    assert s.bag_total() == 0
    s2 = play(s, "3:exp")
    assert s2.pending.kind == "restore"
    with pytest.raises(IllegalMoveError, match="R-ACT-EXP-3: 2,0 is not one of your exhausted tiles without members"):
        apply(s2, parse_move("restore 2,0"))
    with pytest.raises(IllegalMoveError, match="R-ACT-EXP-3: turn back at most 1 tile"):
        apply(s2, parse_move("restore 1,0 4,0"))
    done = play(s2, "restore 4,0")
    assert not done.players[0].land[(4, 0)].exhausted and done.to_move == 1
    # B has no exhausted tile: exploring with an empty bag does nothing and the turn passes
    s3 = play(done, "6:exp")
    assert s3.pending.kind == "choose" and s3.to_move == 0


def test_offspring_moves_listing_matches_multisets():
    """Two new members over two occupied tiles: {a,a}, {a,b}, {b,b} = 3 placements."""
    a = player("A", {"0,0": "goat:1", "1,0": "horse:1", "0,1": "wheat"}, tracks={"offspring": 1})
    s = state(players=[a, player("B")])
    offs = [m for m in legal_moves(s) if isinstance(m, Offspring) and m.slot == 1]
    assert sorted(str(m) for m in offs) == ["1:off 0,0 0,0", "1:off 0,0 1,0", "1:off 1,0 1,0"]


def test_exploration_draws_what_is_left_in_the_bag_R_ACT_EXP_1():
    """R-ACT-EXP-1: Engine choice: intensity 2 but one tile left in the bag -> draw that one."""
    prof = profile_variant(components=lambda raw: raw["components"].update(tiles_per_resource=4))
    kinds = ["goat"] * 4 + ["horse"] * 4 + ["wheat"] * 3 + ["gold"] * 3 + ["incense"] * 2
    a_land = {f"{i},0": r for i, r in enumerate(kinds)}
    a_land["0,0"] = "goat:1"
    b = player("B", {"0,0": "wheat:1", "1,0": "gold", "0,1": "incense"})
    s = State.from_dict(position(players=[player("A", a_land, tracks={"exploration": 1}), b]), prof)
    assert s.bag_total() == 1
    s = play(s, "3:exp")
    assert s.pending.kind == "draw" and s.pending.count == 1
    s = play(s, "draw incense", "place incense@0,-1")
    assert s.bag_total() == 0


def test_members_neither_appear_nor_vanish_in_a_movement_R_ACT_MOV_1_R_ACT_OFF_2():
    """R-ACT-MOV-1 / R-ACT-OFF-2: a movement or relocation takes members from hex to hex, so a net change
    that does not add up to 0 is not a move at all: a typed InvalidMoveError (a ValueError) quoting the
    change, raised when the value is made, so neither ``apply`` nor the notation ever sees it."""
    from games.tribes.rules.errors import InvalidMoveError

    with pytest.raises(InvalidMoveError, match=r"movement 0,0-1 1,0\+2: .* add up to 0, not \+1"):
        Movement(1, (((0, 0), -1), ((1, 0), 2)))
    with pytest.raises(InvalidMoveError, match="relocation 0,0-1"):
        Offspring(2, relocate=(((0, 0), -1),))
    assert str(Movement(1, (((0, 0), -1), ((1, 0), 1)))) == "1:mov 0,0>1,0"


def test_a_draw_names_resources_R_ACT_EXP_1():
    """R-ACT-EXP-1: the tiles drawn are named by their resource; anything else is an InvalidMoveError."""
    from games.tribes.rules.errors import InvalidMoveError
    from games.tribes.rules.moves import Draw

    with pytest.raises(InvalidMoveError, match=r"draw \(None, 'gold'\): each drawn tile is a resource name"):
        Draw((None, "gold"))  # type: ignore[arg-type]
    assert str(Draw(("wheat", "goat"))) == "draw goat wheat"
