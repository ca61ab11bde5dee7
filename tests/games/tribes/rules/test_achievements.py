"""Achievements and arrow tokens (R-ACH-*, R-ARR-*), including the rulebook's examples."""

from __future__ import annotations

import pytest

from games.tribes.rules.engine import apply
from games.tribes.rules.errors import IllegalMoveError
from games.tribes.rules.legal import legal_moves, overview
from games.tribes.rules.moves import Achieve, parse_move
from games.tribes.rules.profile import TRACKS
from tests.games.tribes.rules.helpers import play, player, profile_variant, state


def track(s, seat, name):
    return s.players[seat].tracks[TRACKS.index(name)]


def test_first_on_jagen_rulebook_example_1_R_ACH_5_6_7_8():
    """Example 1: first on 'Jagen' -> leftmost slot, 2 VP, Exploration +1, the tile above is revealed,
    and the lightning on that slot reveals an era-1 event to the end of the row (not carried out)."""
    a = player("A", {"0,0": "horse:1", "1,0": "goat", "0,1": "wheat"})
    s = state(players=[a, player("B")])
    s = play(s, "4:ach jagen")
    assert s.board[0][0].stones == (0,)  # R-ACH-5: leftmost slot
    assert s.players[0].vp == 2
    assert track(s, 0, "exploration") == 1  # R-ACH-7
    assert s.pending.kind == "reveal" and (s.pending.era, s.pending.col) == (2, 0)  # R-ACH-8
    with pytest.raises(IllegalMoveError, match="R-ACH-8: the tile above is an era-2 tile"):
        apply(s, parse_move("reveal weben"))
    s = play(s, "reveal leder")
    assert s.board[1][0].tile == "leder"
    assert s.pending.kind == "event_reveal" and s.pending.era == 1  # R-ACH-6: this era's stack
    with pytest.raises(IllegalMoveError, match="R-ACH-6: the event comes from the era-1 stack"):
        apply(s, parse_move("event war"))
    s = play(s, "event cold")
    # laid at the end of the row during the achievement; the hand tile follows it (R-TURN-1)
    assert s.row[-2].tile == "cold" and s.row[-2].event
    assert s.row[-1].tile == "off-ach" and not s.row[-1].event
    assert s.stacks == (7, 8, 8) and s.done_events == ()  # revealed, not carried out
    assert s.to_move == 1


def test_R_ACH_6_the_event_lies_in_front_of_the_hand_tile_R_TURN_1():
    """R-ACH-6 lays the event at the end of the row during the achievement; R-TURN-1 puts the hand
    tile at the end only after the achievement ("Nach Durchführung der Aktion bzw. Errungenschaft
    legt der Spieler die Tafel ganz ans Ende der Reihe"): the event lies in front of it, so the next
    player pays one shell less for the event and one more for that tile than if it were the other
    way round."""
    a = player("A", {"0,0": "horse:1", "1,0": "goat", "0,1": "wheat"})
    s = state(players=[a, player("B")])
    before = [t.tile for t in s.row]
    s = play(s, "4:ach jagen", "reveal leder", "event cold")
    after = [t.tile for t in s.row]
    assert after == [*before[:3], *before[4:], "cold", "off-ach"]
    n = len(after)
    # what the next player pays for each: one shell per tile skipped (R-TURN-2)
    assert after.index("cold") + 1 == n - 1 and after.index("off-ach") + 1 == n
    from games.tribes.rules.legal import overview

    costs = {t.tile: t.cost for t in overview(s)}
    assert costs["cold"] == n - 2 and costs["off-ach"] == n - 1


def test_third_on_kochen_rulebook_example_2_R_ACH_5_7():
    """R-ACH-5, R-ACH-7: Example 2: Brown and Grey are on 'Kochen' -> third slot, 1 VP, Offspring +1, no lightning, nothing
    revealed (the tile above was revealed by the first stone)."""
    a = player("A", {"0,0": "wheat:1", "1,0": "goat", "0,1": "horse"})
    b = player("B", {"0,0": "gold:1", "1,0": "incense", "0,1": "goat"})
    c = player("C", {"0,0": "horse:1", "1,0": "gold", "0,1": "incense"})
    s = state(
        players=[a, b, c],
        board=[["jagen", "kochen:1,2", "toepfern", "schmuck"], [None, "kaese", None, None], [None] * 4],
    )
    s = play(s, "4:ach kochen")
    assert s.board[0][1].stones == (1, 2, 0)
    assert s.players[0].vp == 1 and track(s, 0, "offspring") == 1
    assert s.pending.kind == "choose" and s.to_move == 1


def test_two_members_on_one_goat_count_once_rulebook_example_3_R_ACH_3():
    """Example 3: 'Käseerzeugung' needs 2 goat TILES with a member each, and 'Kochen' below."""
    board = [["jagen", "kochen:0", "toepfern", "schmuck"], [None, "kaese", None, None], [None] * 4]
    one_tile = player("A", {"0,0": "goat:2", "1,0": "horse", "0,1": "wheat"})
    s = state(players=[one_tile, player("B")], board=board)
    with pytest.raises(IllegalMoveError) as err:
        apply(s, parse_move("4:ach kaese"))
    assert err.value.clause == "R-ACH-3"
    assert "needs 2 goat tiles with a member of yours; you have 1" in str(err.value)
    two_tiles = player("A", {"0,0": "goat:1", "1,0": "horse", "0,1": "goat:1"})
    s2 = state(players=[two_tiles, player("B")], board=board)
    after = play(s2, "4:ach kaese")
    assert after.board[1][1].stones == (0,) and after.players[0].vp == 4
    assert after.players[0].exhausted_tiles == 0  # R-ACH-3: resources are not spent


def test_era_order_needs_the_stone_below_R_ACH_2():
    """Continuation of example 3: without 'Kochen' below, 'Käseerzeugung' is not possible."""
    board = [["jagen", "kochen", "toepfern", "schmuck:0"], [None, "kaese", None, None], [None] * 4]
    a = player("A", {"0,0": "goat:1", "1,0": "horse", "0,1": "goat:1"})
    s = state(players=[a, player("B")], board=board)
    with pytest.raises(IllegalMoveError) as err:
        apply(s, parse_move("4:ach kaese"))
    assert err.value.clause == "R-ACH-2"
    assert "needs your stone on 'Cooking' directly below" in str(err.value)


def test_wheat_as_joker_for_the_missing_goat_rulebook_example_R_ACH_4():
    """Joker example: lacking a second goat tile, exhaust an occupied wheat tile; the member stays."""
    board = [["jagen", "kochen:0", "toepfern", "schmuck"], [None, "kaese", None, None], [None] * 4]
    a = player("A", {"0,0": "goat:1", "1,0": "horse", "0,1": "wheat:1"})
    s = state(players=[a, player("B")], board=board)
    with pytest.raises(IllegalMoveError, match="R-ACH-4: 'Cheese making' needs 1 joker"):
        apply(s, parse_move("4:ach kaese"))
    with pytest.raises(IllegalMoveError, match="R-ACH-4: 1,0 cannot be a joker"):  # no member on it
        apply(s, parse_move("4:ach kaese joker=1,0"))
    after = play(s, "4:ach kaese joker=0,1")
    wheat = after.players[0].land[(0, 1)]
    assert wheat.exhausted and wheat.members == 1
    assert after.board[1][1].stones == (0,)


def test_era_2_and_3_need_one_real_resource_R_ACH_4():
    """Eras 2/3: at least one real tile of the resource; jokers replace only the 2nd (and 3rd)."""
    board = [["jagen", "kochen:0", "toepfern", "schmuck"], [None, "kaese", None, None], [None] * 4]
    a = player("A", {"0,0": "horse:1", "1,0": "gold:1", "0,1": "wheat:1"})
    s = state(players=[a, player("B")], board=board)
    with pytest.raises(IllegalMoveError) as err:
        apply(s, parse_move("4:ach kaese joker=0,0 joker=1,0"))
    assert err.value.clause == "R-ACH-4" and "you have no goat tile with a member" in str(err.value)


def test_era_3_takes_two_jokers_R_ACH_4():
    """R-ACH-4: Era 3: one real goat + two exhausted tiles of any type stand for 3 goats."""
    board = [["jagen", "kochen:0", "toepfern", "schmuck"], [None, "kaese:0", None, None], [None, "weben", None, None]]
    a = player("A", {"0,0": "goat:1", "1,0": "gold:1", "0,1": "wheat:1"})
    s = state(players=[a, player("B")], board=board)
    after = play(s, "4:ach weben joker=1,0 joker=0,1")
    assert after.players[0].exhausted_tiles == 2 and after.players[0].vp == 6
    assert after.pending.kind == "event_reveal"  # R-ACH-8: an era-3 tile has nothing above to reveal


def test_era_1_joker_stands_for_any_resource_R_ACH_4():
    """Era 1: one exhausted occupied tile may stand for any resource."""
    a = player("A", {"0,0": "goat:1", "1,0": "horse", "0,1": "wheat"})
    s = state(players=[a, player("B")])
    after = play(s, "4:ach jagen joker=0,0")  # Jagen needs horse; the goat tile is the joker
    assert after.players[0].land[(0, 0)].exhausted
    with pytest.raises(IllegalMoveError, match="R-ACH-4: you have the goat tiles 'Pottery' needs: no joker"):
        apply(s, parse_move("4:ach toepfern joker=0,0"))


def test_each_achievement_once_R_ACH_9():
    a = player("A", {"0,0": "goat:1", "1,0": "horse", "0,1": "wheat"})
    s = state(
        players=[a, player("B")],
        board=[["jagen", "kochen", "toepfern:0", "schmuck"], [None, None, "metall", None], [None] * 4],
    )
    with pytest.raises(IllegalMoveError) as err:
        apply(s, parse_move("4:ach toepfern"))
    assert err.value.clause == "R-ACH-9"


def test_full_tile_and_no_stones_R_ACH_5_R_COMP_1():
    """Any valid profile: a tile with fewer slots than players fills up; a player's stones run out."""

    def two_slots(raw):
        raw["achievements"][3]["slots"] = raw["achievements"][3]["slots"][:2]  # toepfern

    prof = profile_variant(achievements=two_slots)
    a = player("A", {"0,0": "goat:1", "1,0": "horse", "0,1": "wheat"})
    s = state(
        players=[a, player("B"), player("C")],
        profile_obj=prof,
        board=[["jagen", "kochen", "toepfern:1,2", "schmuck"], [None, None, "metall", None], [None] * 4],
    )
    with pytest.raises(IllegalMoveError, match="R-ACH-5: all 2 slots of 'Pottery' are taken"):
        apply(s, parse_move("4:ach toepfern"))

    prof1 = profile_variant(components=lambda raw: raw["components"].update(stones_per_player=1))
    s = state(
        players=[a, player("B")],
        profile_obj=prof1,
        board=[["jagen:0", "kochen", "toepfern", "schmuck"], ["leder", None, None, None], [None] * 4],
    )
    with pytest.raises(IllegalMoveError, match="R-COMP-1: you have no marking stone left"):
        apply(s, parse_move("4:ach toepfern"))


def test_second_stone_reveals_nothing_R_ACH_8():
    """R-ACH-8: only the first stone on a tile reveals the tile above."""
    a = player("A", {"0,0": "horse:1", "1,0": "goat", "0,1": "wheat"})
    s = state(
        players=[a, player("B")],
        board=[["jagen:1", "kochen", "toepfern", "schmuck"], ["leder", None, None, None], [None] * 4],
    )
    after = play(s, "4:ach jagen")  # slot 2: no lightning in the default profile
    assert after.pending.kind == "choose" and after.board[1][0].tile == "leder"


def test_lightning_with_empty_stack_reveals_nothing_R_EVT_1b():
    """R-EVT-1b (engine choice): the era's event stack is empty -> no event is revealed."""
    a = player("A", {"0,0": "horse:1", "1,0": "goat", "0,1": "wheat"})
    events1 = ["wolves", "herds", "cold", "bushfire", "children", "feud", "barter", "training"]
    s = state(
        players=[a, player("B")],
        board=[["jagen", "kochen", "toepfern", "schmuck"], ["leder", None, None, None], [None] * 4],
        done_events=events1,
    )
    assert s.stacks[0] == 0
    after = play(s, "4:ach jagen")
    assert after.pending.kind == "choose" and after.to_move == 1
    assert not any(t.event for t in after.row)


def test_track_marker_stops_at_the_top_R_ACH_7():
    """R-ACH-7: Engine choice: a marker on the top space stays there."""
    a = player("A", {"0,0": "horse:1", "1,0": "goat", "0,1": "wheat"}, tracks={"exploration": 5})
    s = state(
        players=[a, player("B")],
        board=[["jagen:1", "kochen", "toepfern", "schmuck"], ["leder", None, None, None], [None] * 4],
    )
    after = play(s, "4:ach jagen")
    assert track(after, 0, "exploration") == 5


ARROW_BOARD = [
    ["jagen", "kochen:0", "toepfern", "schmuck"],
    [None, "kaese:0", "metall", None],
    [None, None, "weben", None],
]


def test_arrow_token_from_diagonal_rulebook_example_R_ARR_1():
    """Arrow example: A wants 'Weben' (3 goats) above 'Metallschmelzen' without having it, and lays the
    arrow from 'Käseerzeugung' (diagonal, holding A's stone)."""
    a = player("A", {"0,0": "goat:1", "1,0": "goat:1", "0,1": "goat:1"})
    s = state(players=[a, player("B")], board=ARROW_BOARD)
    with pytest.raises(IllegalMoveError) as err:
        apply(s, parse_move("4:ach weben"))
    assert err.value.clause == "R-ACH-2" and "add arrow=<id>" in str(err.value)
    with pytest.raises(IllegalMoveError, match="R-ARR-1: the arrow must come from a diagonal tile"):
        apply(s, parse_move("4:ach weben arrow=kochen"))
    after = play(s, "4:ach weben arrow=kaese")
    assert after.board[2][2].stones == (0,) and after.players[0].vp == 6
    assert not after.players[0].arrow
    (arrow,) = after.arrows
    assert (arrow.lower, arrow.upper, arrow.owner) == ((2, 1), (3, 2), 0)


def test_arrow_not_needed_R_ARR_1():
    board = [["jagen", "kochen:0", "toepfern", "schmuck"], [None, "kaese", None, None], [None] * 4]
    a = player("A", {"0,0": "goat:1", "1,0": "goat:1", "0,1": "wheat"})
    s = state(players=[a, player("B")], board=board)
    with pytest.raises(IllegalMoveError, match="R-ARR-1: you may claim 'Cheese making' without laying your arrow"):
        apply(s, parse_move("4:ach kaese arrow=jagen"))


def test_arrow_used_once_per_game_R_ARR_1():
    """R-ARR-1."""
    a = player("A", {"0,0": "goat:1", "1,0": "goat:1", "0,1": "goat:1"}, arrow=False)
    s = state(players=[a, player("B")], board=ARROW_BOARD)
    with pytest.raises(IllegalMoveError, match=r"R-ACH-2: .*your arrow token is already used"):
        apply(s, parse_move("4:ach weben arrow=kaese"))


def test_arrow_stays_for_everyone_R_ARR_2():
    """R-ARR-2: once laid, every player with a stone on the arrow's lower tile may use it, keeping their
    own arrow token."""
    a = player("A", {"0,0": "goat:1", "1,0": "goat:1", "0,1": "goat:1"})
    b = player("B", {"0,0": "goat:1", "1,0": "goat:1", "0,1": "goat:1"})
    board = [
        ["jagen", "kochen:0,1", "toepfern", "schmuck"],
        [None, "kaese:0,1", "metall", None],
        [None, None, "weben", None],
    ]
    s = state(players=[a, b], board=board, row=["off", "mov", "exp", "off-ach", "mov-ach", "exp-ach"])
    s = play(s, "4:ach weben arrow=kaese", "event war")  # slot 1 of Weben shows a lightning
    # B: the arrow from Käseerzeugung to Weben is on the board; B has a stone on Käseerzeugung
    claim = Achieve(4, "weben")
    assert claim in legal_moves(s)
    after = play(s, claim)
    assert after.board[2][2].stones == (0, 1) and after.players[1].arrow


def test_overview_lists_achievements_with_reasons_R_ACH():
    """The overview shows, for a hand tile, every board tile with availability and the clause why not."""
    board = [["jagen", "kochen:0", "toepfern", "schmuck"], [None, "kaese", None, None], [None] * 4]
    a = player("A", {"0,0": "goat:2", "1,0": "horse", "0,1": "wheat"})
    s = state(players=[a, player("B")], board=board)
    tiles = overview(s)
    hand = tiles[3]
    assert hand.tile == "off-ach" and hand.cost == 3 and hand.affordable
    by_id = {o.detail.get("achievement"): o for o in hand.options if o.kind == "achievement"}
    assert by_id["toepfern"].available and by_id["toepfern"].detail["vp"] == 2
    assert by_id["kochen"].reason.clause == "R-ACH-9"
    assert by_id["kaese"].reason.clause == "R-ACH-3"
    assert by_id["jagen"].available and by_id["jagen"].detail["jokers_needed"] == 1
    face_down = [o for o in hand.options if o.kind == "achievement" and o.detail["achievement"] is None]
    assert len(face_down) == 7 and all(o.reason.clause == "R-ACH-8" for o in face_down)
