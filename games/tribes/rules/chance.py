"""Chance outcomes: what may come out of the bag or a stack, with probabilities, and a seeded sampler.

In a real game the camera or a user reports each outcome; in a simulated game
:func:`sample_chance` plays the part of the bag and the shuffled stacks, faithfully to the physical
procedure (e.g. the setup redraw of R-SET-4). Either way the outcome becomes a move in the journal,
so replaying never needs the random generator.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import product
from math import comb

from games.tribes.rules.moves import Draw, Move, Reveal, RevealEvent, Setup
from games.tribes.rules.pending import DrawPending, EventRevealPending, PendingKind, RevealPending
from games.tribes.rules.state import State


def _bag_list(state: State) -> list[str]:
    prof = state.profile
    return [r for r, k in zip(prof.resources, state.bag, strict=True) for _ in range(k)]


def unrevealed_achievements(state: State, era: int) -> list[str]:
    """Ids of era-``era`` achievements not face up on the board: what a reveal may show."""
    shown = {bt.tile for row in state.board for bt in row if bt.tile}
    return sorted(a.id for a in state.profile.achievements_of_era(era) if a.id not in shown)


def unseen_events(state: State, era: int) -> list[str]:
    """Ids of era-``era`` events that have not left their stack."""
    return sorted(e.id for e in state.profile.events_of_era(era) if e.id not in state.seen_events)


def sample_setup(state: State, rng: random.Random) -> Setup:
    """Shuffle the row (R-SET-5), lay 4 of the era-1 tiles (R-SET-6), draw starting tiles (R-SET-3/4)."""
    prof = state.profile
    row = [t.id for t in prof.action_tiles]
    rng.shuffle(row)
    era1 = rng.sample(sorted(a.id for a in prof.achievements_of_era(1)), 4)
    bag = _bag_list(state)
    lands = []
    for _ in state.players:
        kept: list[str] = []
        surplus: list[str] = []
        while len(kept) < 3:
            tile = bag.pop(rng.randrange(len(bag)))
            (surplus if tile in kept else kept).append(tile)
        bag.extend(surplus)  # R-SET-4: the surplus goes back into the bag
        lands.append((kept[0], kept[1], kept[2]))
    return Setup(tuple(row), tuple(era1), tuple(lands))


def sample_chance(state: State, rng: random.Random) -> Move:
    """A random outcome for the chance node the state waits at."""
    pend = state.pending
    if pend.kind == PendingKind.SETUP:
        return sample_setup(state, rng)
    if isinstance(pend, DrawPending):
        return Draw(tuple(rng.sample(_bag_list(state), pend.count)))
    if isinstance(pend, RevealPending):
        return Reveal(rng.choice(unrevealed_achievements(state, pend.era)))
    if isinstance(pend, EventRevealPending):
        return RevealEvent(rng.choice(unseen_events(state, pend.era)))
    raise ValueError(f"the game waits for a decision ({pend.kind}), not a chance outcome")


def chance_outcomes(state: State) -> list[tuple[Move, float]]:
    """Every outcome of the current draw or reveal with its probability (empty for decisions).

    The setup is not enumerated (it has millions of outcomes); use :func:`sample_setup`.
    """
    pend = state.pending
    if isinstance(pend, RevealPending):
        ids = unrevealed_achievements(state, pend.era)
        return [(Reveal(a), 1 / len(ids)) for a in ids]
    if isinstance(pend, EventRevealPending):
        ids = unseen_events(state, pend.era)
        return [(RevealEvent(e), 1 / len(ids)) for e in ids]
    if isinstance(pend, DrawPending):
        prof = state.profile
        total = sum(state.bag)
        n = pend.count
        out: list[tuple[Move, float]] = []
        for counts in product(*(range(min(k, n) + 1) for k in state.bag)):
            if sum(counts) != n:
                continue
            p = 1.0
            for k, c in zip(state.bag, counts, strict=True):
                p *= comb(k, c)
            p /= comb(total, n)
            tiles = tuple(r for r, c in zip(prof.resources, counts, strict=True) for _ in range(c))
            out.append((Draw(tiles), p))
        return out
    return []


def draw_counts(move: Draw) -> Counter[str]:
    """The drawn tiles as a multiset."""
    return Counter(move.tiles)
