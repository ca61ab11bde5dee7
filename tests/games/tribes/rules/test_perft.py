"""Perft-style golden counts: the number of move sequences (decisions and chance outcomes) from a fixed
opening. Depths 1 and 2 are derived by hand below; 3 and 4 are golden values that guard the move
generator against silent changes."""

from __future__ import annotations

import pytest

from games.tribes.rules.engine import apply, new_game
from games.tribes.rules.legal import legal_moves
from games.tribes.rules.state import State
from tests.games.tribes.rules.helpers import play

SETUP2 = (
    "setup row=off,mov,exp,off-ach,mov-ach,exp-ach era1=jagen,kochen,toepfern,schmuck "
    "lands=goat/horse/wheat,gold/incense/goat"
)


def opening() -> State:
    return play(new_game(["A", "B"]), SETUP2, "start 0,0", "start 0,0")


def perft(s: State, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft(apply(s, m), depth - 1) for m in legal_moves(s))


def test_perft_1_by_hand_R_TURN_2_R_ACH_4():
    """A has one member on a goat tile, 5 shells, every tile affordable (R-TURN-2):
    Offspring 1 (one placement) + Movement 3 (stay, or step to either neighbour) + Exploration 1,
    and each of the three hand tiles adds its action plus 4 claims: 'Töpfern' with the goat, and
    'Jagen', 'Kochen', 'Schmuck' each with the goat tile as the era-1 joker (R-ACH-4):
    1 + 3 + 1 + (1+4) + (3+4) + (1+4) = 22."""
    assert perft(opening(), 1) == 22


def test_perft_2_by_hand():
    """After each of A's moves: a move that ends the turn leaves B a mirror position with 22 moves; an
    Exploration waits for the draw (5 possible resources); a claim waits for the era-2 tile revealed
    above (5 possible tiles). Per tile: off 22, mov 3*22, exp 5, off-ach 22 + 4*5, mov-ach 3*22 + 4*5,
    exp-ach 5 + 4*5 = 246."""
    assert perft(opening(), 2) == 246


@pytest.mark.parametrize(("depth", "count"), [(3, 1862), (4, 20162)])
def test_perft_golden(depth, count):
    """Depth 4 was 22402 before the R-ACH-6 fix: an event revealed by a lightning slot now lies in
    front of the hand tile (slot 6 of 7, affordable with B's 5 shells) instead of behind it, so after
    a lightning claim B can take the event but no longer the hand tile with its action and claims."""
    assert perft(opening(), depth) == count
