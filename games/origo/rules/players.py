"""Simulated players (``random`` and ``greedy``), deterministic from their seed.

They choose a legal decision for the seat the state waits for (never a chance outcome: the founding
field revealed comes from the chance sampler in simulations, from the table in a real game). Since
the tribe-point values are not in the fragment, their ``points`` entries are stand-ins: a random
number (random) or the shields the player has in founded lands (greedy).
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from games.api import PlayerFactory
from games.origo.rules import battle as calc
from games.origo.rules.engine import actor, attack_targets, expected_reveal, legal_moves
from games.origo.rules.moves import AnyMove, Attack, Card, Lay, Pass, Points, Refill, Stop
from games.origo.rules.state import FREE, Phase, Side, State


class RandomPlayer:
    """Picks a kind of move at random among the legal ones (lay, play, attack, end of turn; card or
    stop), then one move of that kind. Kinds are weighted so that games last: passing is rare, since
    a round in which everybody passes ends the game (O-END-1)."""

    WEIGHTS: Mapping[str, float] = {"lay": 4.0, "attack": 3.0, "play": 0.5, "refill": 2.0, "pass": 0.2}

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> AnyMove:
        """A legal decision for the seat the state waits for."""
        if state.phase in (Phase.SCORING, Phase.FINAL):
            return Points(state.name(actor(state)), self.rng.randint(0, 12))
        by_kind: dict[str, list[AnyMove]] = {}
        for m in legal_moves(state):
            if not m.chance:
                by_kind.setdefault(m.kind, []).append(m)
        kinds = sorted(by_kind)
        kind = self.rng.choices(kinds, [self.WEIGHTS.get(k, 1.0) for k in kinds])[0]
        return self.rng.choice(by_kind[kind])


class GreedyPlayer:
    """A simple heuristic: attack once a turn where the battle can be won even if the defender
    answers with a full hand; lay up to three shields a turn, preferring to found a land and to stay
    next to its own shields; in a battle answer only while the battle can still be won."""

    LAYS_PER_TURN = 3

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.turn = 0
        self.lays = 0
        self.attacked = False

    def _field_score(self, state: State, seat: int, f: int) -> float:
        board = state.board
        ri = board.cells[f].region
        region = board.regions[ri]
        free = state.free_fields(ri)
        score = 0.0
        if region.is_land and not state.is_founded(ri):
            if free == 1 and state.stones_left > 0:
                exp = expected_reveal(state)
                score += 50 + (3 * exp.value + (10 if exp.red else 0) if exp else 0)
            elif free == 2:
                score -= 5  # leaves the last field, and the founding, to the next player
            score += 2
        else:
            score += 1
        for nb in board.neighbours[f]:
            o = state.owners[nb]
            if o == seat:
                score += 3
            elif o != FREE:
                score -= 1
        return score + self.rng.random() * 0.5

    def choose(self, state: State) -> AnyMove:
        """A legal decision for the seat the state waits for."""
        seat = actor(state)
        name = state.name(seat)
        if state.phase in (Phase.SCORING, Phase.FINAL):
            mine = sum(
                1 for fd in state.founded for f in state.board.regions[fd.land].fields if state.owners[f] == seat
            )
            return Points(name, min(mine, 99))
        if state.phase is Phase.BATTLE:
            b = state.battle
            assert b is not None
            a, d = calc.battle_points(state, b)
            other = b.defender if seat == b.attacker else b.attacker
            mine_left, their_left = state.hands[seat], state.hands[other]
            if b.opening and a > d:
                return Stop(name)
            # answer while the battle can still be won if both play on
            if seat == b.attacker:
                win = calc.play_out(a, d, mine_left, their_left).winner is Side.ATTACKER
            else:
                win = calc.play_out(a, d, their_left, mine_left).winner is Side.DEFENDER
            return Card(name) if win and mine_left > 0 else Stop(name)
        if state.turn != self.turn:
            self.turn, self.lays, self.attacked = state.turn, 0, False
        hand, sup = state.hands[seat], state.supply[seat]
        if not self.attacked and hand > 0 and sup > 0:
            best: tuple[int, int] | None = None
            for f in attack_targets(state, seat):
                ab, db = calc.base_points(state.board, state.owners, f, seat, state.owners[f])
                a, d = ab + calc.CARD_POINTS, db
                out = calc.play_out(a, d, hand - 1, state.hands[state.owners[f]])
                if out.winner is Side.ATTACKER and (best is None or a - d > best[0]):
                    best = (a - d, f)
            if best is not None:
                self.attacked = True
                return Attack(name, state.board.name_of(best[1]))
        if self.lays < self.LAYS_PER_TURN and sup > 0:
            free = [f for f in range(state.board.n_fields) if state.owners[f] == FREE]
            if free:
                self.lays += 1
                f = max(free, key=lambda x: self._field_score(state, seat, x))
                return Lay(name, state.board.name_of(f))
        return Refill(name) if state.acted else Pass(name)


POLICIES: Mapping[str, PlayerFactory] = {"random": RandomPlayer, "greedy": GreedyPlayer}
"""The simulated players by name."""

__all__ = ["POLICIES", "GreedyPlayer", "RandomPlayer"]
