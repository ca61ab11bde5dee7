"""The move notation (docs/stoneage-notation.md): every kind round-trips, is canonical, pastes back
from its repr, and text that is no move is one error quoting it."""

from __future__ import annotations

import pytest

from games.stoneage.rules.errors import InvalidMoveError
from games.stoneage.rules.moves import (  # noqa: F401  (names used by eval of the reprs)
    AnyRes,
    Buy,
    Draw,
    Feed,
    Pick,
    Place,
    Reveal,
    Roll,
    Skip,
    Starve,
    Take,
    Tools,
    parse_move,
)

CANONICAL = [
    "place hunt 3",
    "place wood 7",
    "place toolmaker",
    "place hut",
    "place field",
    "place card4",
    "place building2",
    "take hunt",
    "take toolmaker",
    "buy card2 wood,clay",
    "buy building1 wood,wood,clay",
    "skip card3",
    "skip building4",
    "roll wood 3,5,6",
    "roll bar 1,1,4,6",
    "roll hunt 1,1,1,1,1,1,1,1,1,1",
    "tools -",
    "tools 3,1",
    "tools 4,2,once4,once2",
    "tools once3",
    "pick 5",
    "any stone,gold",
    "feed wood,wood,gold",
    "starve",
    "reveal c07",
    "reveal b28",
    "draw c12",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_notation_round_trips_and_repr_pastes_back_S_DICE_3(text):
    m = parse_move(text)
    assert str(m) == text
    assert parse_move(str(m)) == m
    assert eval(repr(m)) == m


@pytest.mark.parametrize(
    "text,canonical",
    [
        ("roll wood 6,3,5", "roll wood 3,5,6"),
        ("buy card2 clay,wood", "buy card2 wood,clay"),
        ("buy building3 2wood,gold", "buy building3 wood,wood,gold"),
        ("tools 1,3,once2,once4", "tools 3,1,once4,once2"),
        ("  place   hunt  2 ", "place hunt 2"),
        ("PLACE hunt 2", "place hunt 2"),
    ],
)
def test_notation_is_canonical_S_DICE_3(text, canonical):
    assert str(parse_move(text)) == canonical


def test_chance_moves_are_marked_S_CHANCE_1():
    assert parse_move("roll wood 1").chance and parse_move("reveal c01").chance and parse_move("draw c01").chance
    assert not any(parse_move(t).chance for t in ("place hunt 1", "take wood", "tools -", "pick 1", "starve"))


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("", "is not a move"),
        ("pass", "is not a move"),
        ("place", "is not a move"),
        ("place hunt", "say how many"),
        ("place hut 2", "without a count"),
        ("place forest 2", "is not a place"),
        ("place hunt 0", "not a number of people"),
        ("roll wood 3,5,7", "not a die"),
        ("roll wood 0", "not a die"),
        ("roll river 1,2", "roll for hunt"),
        ("buy card2", "the resources paid"),
        ("buy card2 food", "not a resource"),
        ("buy wood wood", "card or building place"),
        ("take card1", "carries out a village or dice place"),
        ("tools 1.5", "not a tool value"),
        ("pick 7", "die face"),
        ("reveal c 07", "is not a move"),
        ("reveal 7c", "not a card or building id"),
    ],
)
def test_bad_text_is_one_error_quoting_it(text, fragment):
    with pytest.raises(InvalidMoveError) as exc:
        parse_move(text)
    assert fragment in str(exc.value) and "\n" not in str(exc.value)


def test_non_text_is_refused():
    with pytest.raises(InvalidMoveError):
        parse_move(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "move,clause",
    [
        (Place("hunt", 0), "S-PLACE-1"),
        (Place("hut", 2), "S-PLACE-1"),
        (Take("card1"), "S-ACT-1"),
        (Buy("wood", (1, 0, 0, 0)), "S-ACT-1"),
        (Buy("card1", (-1, 2, 0, 0)), "S-ROUND-1"),
        (AnyRes((0, 0, 0, 0)), "S-ROUND-1"),
        (Roll("hunt", (6, 1)), "S-DICE-3"),
        (Tools((1, 2), ()), "S-TOOL-4"),
    ],
)
def test_moves_built_in_python_must_be_canonical_S_ROUND_1(move, clause):
    from sa_helpers import started

    from games.stoneage.rules.engine import check

    assert check(started(), move)[0] == clause
