"""Simulated battles for property tests and the benchmark: random battlefields on a board and a
battle played out with random answers, all from a seeded generator (never used in a real game)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from games.origo.rules import battle as calc
from games.origo.rules.board import Board, default_board
from games.origo.rules.engine import apply, attack_targets, legal_moves, new_game
from games.origo.rules.moves import AnyMove, Attack, Card, Stop
from games.origo.rules.state import FREE, Founding, Phase, Side, State

NAMES: tuple[str, ...] = ("Ann", "Bob", "Cem", "Dia", "Eli")


def random_battlefield(rng: random.Random, board: Board | None = None) -> tuple[State, int]:
    """A random position with at least one possible attack, and that attack's field: 2–5 players,
    fields filled at random (every player keeps a shield in the supply), every full land founded
    (as far as there are stones), random hands, the attacker on turn."""
    board = board or default_board()
    colours = [c for c, k in sorted(board.shields_by_colour.items(), key=lambda kv: -kv[1])]
    while True:
        n = rng.choice([k for k in board.player_counts() if k <= len(NAMES)])
        s = new_game([(NAMES[i], colours[i]) for i in range(n)], board)
        cap = s.supply[0]
        owners = [FREE] * board.n_fields
        counts = [0] * n
        density = rng.uniform(0.6, 1.0)
        for f in range(board.n_fields):
            free_players = [p for p in range(n) if counts[p] < cap - 1]
            if free_players and rng.random() < density:
                p = rng.choice(free_players)
                owners[f] = p
                counts[p] += 1
        full = [ri for ri, r in enumerate(board.regions) if r.is_land and all(owners[f] != FREE for f in r.fields)]
        s = replace(
            s,
            owners=tuple(owners),
            supply=tuple(cap - c for c in counts),
            founded=tuple(Founding(ri, 0, 0, False) for ri in full[: board.stones]),
            hands=tuple(rng.randint(1, board.hand_size) for _ in range(n)),
        )
        seats = list(range(n))
        rng.shuffle(seats)
        for seat in seats:
            targets = attack_targets(s, seat)
            if targets:
                return replace(s, to_move=seat, acted=rng.random() < 0.5), rng.choice(targets)


def play_battle(state: State, field: int, rng: random.Random, eager: float | None = None) -> list[State]:
    """The states of a battle for ``field`` attacked by the player on turn, each side playing a card
    (when it may) with probability ``eager`` (random if None) and stopping otherwise; the first state
    is ``state``, the last the one after the battle."""
    p = rng.random() if eager is None else eager
    out = [state]
    s = apply(state, Attack(state.name(state.to_move), state.board.name_of(field)))
    out.append(s)
    while s.phase is Phase.BATTLE:
        b = s.battle
        assert b is not None
        due = b.attacker if calc.side_to_answer(s, b) is Side.ATTACKER else b.defender
        card: AnyMove | None = next((m for m in legal_moves(s) if isinstance(m, Card)), None)
        s = apply(s, card if card is not None and rng.random() < p else Stop(s.name(due)))
        out.append(s)
    return out


def battles(seeds: Sequence[int]) -> int:
    """Play one random battle per seed; the number of battle moves played."""
    moves = 0
    for seed in seeds:
        rng = random.Random(seed)
        s, f = random_battlefield(rng)
        moves += len(play_battle(s, f, rng)) - 1
    return moves


__all__ = ["NAMES", "battles", "play_battle", "random_battlefield"]
