"""The move notation: every kind round-trips through its text and its repr; bad text is one typed
error quoting it."""

from __future__ import annotations

import pytest

from games.errors import InvalidMoveError as BaseInvalid
from games.origo.rules.errors import InvalidMoveError
from games.origo.rules.moves import (
    Attack,
    Card,
    Lay,
    Pass,
    Play,
    Points,
    Refill,
    Reveal,
    Stop,
    parse_move,
)

ALL = [
    Lay("Ann", "C4"),
    Lay("Player 1", "J10"),
    Play("Ann", 2),
    Attack("Bob", "A1"),
    Card("Bob"),
    Stop("Ann Marie"),
    Refill("Ann"),
    Pass("Ann"),
    Reveal(3),
    Reveal(0, True),
    Points("Player 2", 0),
    Points("Ann", 99),
]


@pytest.mark.parametrize("move", ALL, ids=str)
def test_every_move_round_trips_through_text_and_repr(move):
    assert parse_move(str(move)) == move
    assert str(parse_move(str(move))) == str(move)
    from games.origo.rules import moves as ns

    assert eval(repr(move), vars(ns)) == move  # the repr pastes back


def test_only_the_reveal_is_a_chance_outcome():
    assert [m.chance for m in ALL] == [isinstance(m, Reveal) for m in ALL]


def test_fields_are_read_case_insensitively_and_written_canonically():
    assert parse_move("lay Ann c4") == Lay("Ann", "C4")
    assert str(parse_move("  attack   Ann   b10 ")) == "attack Ann B10"
    assert parse_move("REVEAL 4 RED") == Reveal(4, True)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "write 'lay NAME FIELD'"),
        ("lay Ann", "write 'lay NAME FIELD'"),
        ("lay Ann 4C", "'4C' is no field name"),
        ("play Ann 0", "must be 1 to 30"),
        ("play Ann two", "'two' is not a number of cards"),
        ("points Ann 100", "must be 0 to 99"),
        ("reveal", "write 'reveal N' or 'reveal N red'"),
        ("reveal 3 blue", "write 'reveal N' or 'reveal N red'"),
        ("card", "write 'card NAME'"),
        ("castle Ann", "write 'lay NAME FIELD'"),
    ],
)
def test_bad_text_is_one_typed_error_quoting_it(text, fragment):
    with pytest.raises(InvalidMoveError) as info:
        parse_move(text)
    assert isinstance(info.value, BaseInvalid) and isinstance(info.value, ValueError)
    assert repr(text) in str(info.value) and fragment in str(info.value)


def test_non_text_is_refused():
    with pytest.raises(InvalidMoveError):
        parse_move(42)  # type: ignore[arg-type]
