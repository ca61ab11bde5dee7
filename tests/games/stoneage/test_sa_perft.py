"""Golden counts (perft-style): the number of move sequences from the first placement, and the number
of legal moves along seeded walks. Depths 1 and 2 are derived by hand below; the rest are golden
values computed once with this engine (``perft`` and ``walk`` here) that guard the move generator
against silent changes (S-PLACE-1, S-CAP-*, S-FEW-3, S-DICE-3)."""

from __future__ import annotations

import random

from sa_helpers import new, started

from games.stoneage.rules.engine import apply, generate


def perft(s, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft(apply(s, m), depth - 1) for m in generate(s))


def test_perft_1_by_hand_four_players_S_PLACE_1():
    """Ann has 5 people: hunting 1-5 (5) + four resource places 1-5 each (20) + tool maker, hut, field
    (3) + four cards (4) + four building stacks (4) = 36."""
    assert perft(started(4), 1) == 36


def test_perft_2_by_hand_four_players_S_CAP_5():
    """After Ann's move Bob has 36 options, less one for the place Ann took — except hunting (still
    open to all) and a resource place, where Bob keeps 7 − k (at most 5) of his 5 counts:
    hunting 5 × 36 + 4 places × (36 + 36 + 35 + 34 + 33) + (3 + 4 + 4) × 35 = 180 + 696 + 385 = 1261."""
    assert perft(started(4), 2) == 1261


def test_perft_1_and_2_by_hand_two_players_S_FEW_3():
    """Two players, two stacks: 5 + 20 + 3 + 4 + 2 = 34 for Ann. Bob then: after hunting 34 (×5);
    after a resource place 29 — that place is closed to him (S-FEW-3) (×20); after a village place 33
    (the other two stay open: only 2 of 3 are used, S-FEW-1) (×3); after a card or a building 33 (×6):
    170 + 580 + 99 + 198 = 1047."""
    s = started(2)
    assert perft(s, 1) == 34
    assert perft(s, 2) == 1047


def test_perft_3_golden():
    assert perft(started(2), 3) == 20179
    assert perft(started(4), 3) == 42898


def walk(n: int) -> list[int]:
    """Legal-move counts at every 50th state of a walk from a new game choosing uniformly with a
    fixed seed (the moves in generation order)."""
    rng = random.Random(2024 + n)
    s = new(n)
    out = []
    for i in range(600):
        if s.is_over:
            break
        moves = list(generate(s))
        if i % 50 == 0:
            out.append(len(moves))
        s = apply(s, moves[int(rng.random() * len(moves))])
    return out


def test_seeded_walk_counts_golden_S_DICE_3():
    """The first count is the 36 cards of the deck (S-SET-2); 56 and 792 are rolls of 3 and 7 dice
    (multisets: C(8, 3) and C(12, 7))."""
    assert walk(2) == [36, 1, 9, 6, 4, 1, 34, 21, 1, 1, 9, 792]
    assert walk(3) == [36, 21, 1, 10, 20, 33, 2, 2, 20, 1, 12, 35]
    assert walk(4) == [36, 15, 21, 41, 16, 3, 56, 1, 35, 22, 7, 1]
