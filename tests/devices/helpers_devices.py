"""Shared helpers for the devices tests: real rules states reached through the engine."""

from __future__ import annotations

import dataclasses
import random

from games.tribes.rules.chance import sample_chance
from games.tribes.rules.engine import apply, new_game
from games.tribes.rules.legal import legal_moves
from games.tribes.rules.state import RowTile, State


def first_choice(players: tuple[str | tuple[str, str], ...] = ("Ann", "Bob", "Cid"), seed: int = 3) -> State:
    """The first tile choice of a game: setup drawn with ``seed``, first members placed."""
    state = new_game(players)
    rng = random.Random(seed)
    while state.pending.kind != "choose":
        move = sample_chance(state, rng) if state.is_chance else next(iter(legal_moves(state)))
        state = apply(state, move)
    return state


def with_shells(state: State, shells: int) -> State:
    """The same position, the player to move holding ``shells`` shells."""
    players = tuple(
        dataclasses.replace(p, shells=shells) if i == state.to_move else p for i, p in enumerate(state.players)
    )
    return state.replace(players=players)


def with_events(state: State, *event_ids: str) -> State:
    """The same position with event tiles added at the end of the row (as a lightning slot does)."""
    return state.replace(row=(*state.row, *(RowTile(e, True, 0) for e in event_ids)))
