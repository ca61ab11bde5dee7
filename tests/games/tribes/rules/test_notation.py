"""Move notation: every move type round-trips through text and repr; bad text gets a clear error."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.tribes.rules import moves as mv
from games.tribes.rules.errors import InvalidMoveError
from games.tribes.rules.moves import parse_move

EXAMPLES = [
    "setup row=off,mov,exp,off-ach,mov-ach,exp-ach era1=jagen,kochen,toepfern,schmuck lands=goat/horse/wheat,gold/incense/goat",
    "start 0,0",
    "1:off 0,0 0,0 1,0",
    "1:off",
    "1:off 0,0>1,0",
    "2:mov 0,0>1,-1 0,0>1,0",
    "2:mov",
    "3:exp",
    "4:ach kaese joker=-1,2 arrow=kochen",
    "4:ach jagen",
    "5:evt",
    "draw goat wheat",
    "place goat@1,-1 wheat@2,0",
    "restore 1,0 2,0",
    "restore",
    "reveal kaese",
    "event wolves",
    "pick 2",
    "lose 0,0 0,0",
    "gain 1,0",
    "exhaust 0,1",
]


@pytest.mark.parametrize("text", EXAMPLES)
def test_text_round_trips(text):
    move = parse_move(text)
    assert str(move) == text
    assert parse_move(str(move)) == move
    assert eval(repr(move), vars(mv)) == move  # repr can be pasted back


def test_canonical_forms():
    assert parse_move("1:off 1,0 0,0") == parse_move("1:off 0,0 1,0")
    assert str(parse_move("draw wheat goat")) == "draw goat wheat"
    assert parse_move("2:mov 0,0>1,0 1,0>0,0") == parse_move("2:mov")
    assert parse_move("4:ach x joker=1,0 joker=0,0") == parse_move("4:ach x joker=0,0 joker=1,0")
    assert parse_move("2:mov (0,0)>(1,0)") == parse_move("2:mov 0,0>1,0")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty move"),
        ("0:off", "row slots count from 1"),
        ("1:fly", "unknown action 'fly'"),
        ("1:exp now", "takes nothing after it"),
        ("1:ach", "needs the achievement id"),
        ("1:ach x joker=a,b", "not a hex"),
        ("1:ach x arrow=a arrow=b", "one 'arrow=<id>'"),
        ("1:off 0,0 0,0>1,0", "either places new members or relocates"),
        ("2:mov 0,0-1,0", "is not a transfer"),
        ("place goat", "is not 'resource@q,r'"),
        ("pick 0", "option number counted from 1"),
        ("setup row=a", "setup is missing era1"),
        ("setup row=a era1=b lands=goat/horse", "must be three resources"),
        ("teleport 1,1", "unknown word 'teleport'"),
        ("start", "'start' takes one hex"),
    ],
)
def test_bad_text_gets_a_clear_error(text, fragment):
    with pytest.raises(InvalidMoveError) as err:
        parse_move(text)
    assert fragment in str(err.value)
    assert repr(text) in str(err.value) or text == ""


hexes = st.tuples(st.integers(-6, 6), st.integers(-6, 6))


@given(st.lists(st.tuples(hexes, hexes), max_size=6), st.integers(1, 12))
def test_movement_text_round_trips_for_any_transfers(transfers, slot):
    move = mv.Movement.of(slot, transfers)
    assert parse_move(str(move)) == move


@given(
    st.lists(
        st.tuples(hexes, st.sampled_from(["goat", "horse", "wheat"])), min_size=1, max_size=4, unique_by=lambda t: t[0]
    )
)
def test_place_round_trips(tiles):
    move = mv.Place(tuple(tiles))
    assert parse_move(str(move)) == move
