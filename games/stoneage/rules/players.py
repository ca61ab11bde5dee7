"""Simulated Stone Age players: ``random`` and ``greedy``, deterministic from their seed.

Both read a State or a Work (the fast playout's) and return a legal decision; they never see a
chance node. ``random`` picks uniformly among the legal decisions. ``greedy`` follows simple
priorities: buildings it can pay, then cheap cards, the village, hunting when food runs short, then
the most valuable resource place it can fill; it buys what it can, spends the tools
:func:`~games.stoneage.rules.helpers.roll_help` recommends, feeds with the cheapest resources when
that costs less than 10 points.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.api import PlayerFactory
from games.stoneage.rules import engine
from games.stoneage.rules.helpers import roll_help
from games.stoneage.rules.moves import AnyMove, AnyRes, Buy, Feed, Pick, Place, Skip, Starve, Take, Tools
from games.stoneage.rules.state import FIELD, FIRST_CARD, HUNT, HUT, TOOLMAKER, Phase, View, unused


class RandomPlayer:
    """Plays at random: while placing, a random open place and then a random number of people for
    it; while carrying out, a random place of its own and then a random way to do it (skip or one of
    the payments); each tool in or out of a roll with even odds; otherwise a random legal decision.
    Using an "any resources" card is one more option wherever it is allowed."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: View) -> AnyMove:
        """A legal decision."""
        rnd = self.rng.random
        ph = state.phase
        seat = state.actor
        p = state.players[seat]
        if ph is Phase.PLACE and not p.anyc:
            # uniform over the open places by rejection (the same choice as from open_places, cheaper)
            names = state.names
            count = len(names)
            while True:
                idx = int(rnd() * count)
                room = engine.place_room(state, seat, idx)
                if room is not None:
                    lo, hi = room
                    if idx <= 4:
                        return Place(names[idx], lo + int(rnd() * (hi - lo + 1)))
                    return Place(names[idx], 0)
        if ph is Phase.PLACE or ph is Phase.ACT:
            if ph is Phase.PLACE:
                opts: list[Any] = engine.open_places(state, seat)
            else:
                opts = [i for i, k in enumerate(p.placed) if k]
            extra = 1 if p.anyc else 0
            pick = int(rnd() * (len(opts) + extra))
            if pick == len(opts):
                anys = list(engine.any_moves(state, p))
                return anys[int(rnd() * len(anys))]
            names = state.names
            if ph is Phase.PLACE:
                idx, lo, hi = opts[pick]
                if idx <= 4:
                    return Place(names[idx], lo + int(rnd() * (hi - lo + 1)))
                return Place(names[idx], 0)
            idx = opts[pick]
            if idx <= FIELD:
                return Take(names[idx])
            if idx < FIRST_CARD + len(state.display):
                pays = list(engine.payments(engine.card_cost(state, idx), p.res))
            else:
                b = engine.building_at(state, idx)
                pays = [] if b is None else list(engine.building_payments(b, p.res))
            k = int(rnd() * (len(pays) + 1))
            return Skip(names[idx]) if k == len(pays) else Buy(names[idx], pays[k])
        if ph is Phase.TOOLS:  # each tool in or out with even odds (no list of every choice)
            prof = state.profile
            vals = tuple(v for v in p.unused_tools() if rnd() < 0.5)
            once = tuple(v for v in engine.once_values(prof, p) if rnd() < 0.5)
            return Tools(vals, once)
        moves = list(engine.generate(state))
        return moves[int(rnd() * len(moves))]


_BAR_VALUE = {"agriculture": 9, "tool": 8, "gold": 6, "stone": 5, "clay": 4, "wood": 3}


class GreedyPlayer:
    """Simple priorities (see the module docstring); deterministic (the seed breaks no ties)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, state: View) -> AnyMove:
        """A legal decision."""
        ph = state.phase
        p = state.players[state.actor]
        prof = state.profile
        if ph is Phase.TOOLS:
            help_ = roll_help(
                state.what, state.dice, prof.divisor[state.what], unused(p.tools, p.used), engine.once_values(prof, p)
            )
            best = help_["best"]
            return Tools(tuple(best["tools"]), tuple(best["once"]))
        if ph is Phase.BAR:
            return Pick(max(set(state.dice), key=lambda f: (_BAR_VALUE[prof.dice_bar[f - 1]], f)))
        if ph is Phase.FEED:
            if p.anyc:
                return AnyRes((0, 0, 0, prof.card(p.anyc[0]).top.amount))
            need = engine.shortfall(p)
            if need < 10 and need <= sum(p.res):
                return Feed(next(iter(engine.payments(need, p.res))))
            return Starve()
        if ph is Phase.ACT:
            return self._act(state)
        return self._place(state)

    def _act(self, s: View) -> AnyMove:
        p = s.players[s.actor]
        if p.anyc:
            return AnyRes((0, 0, 0, s.profile.card(p.anyc[0]).top.amount))
        names = s.names
        # cards before dice places (a tool from a card helps the roll), buildings with the most points
        for idx, n in enumerate(p.placed):
            if n and idx >= FIRST_CARD:
                name = names[idx]
                if idx < FIRST_CARD + len(s.display):
                    pay = next(iter(engine.payments(engine.card_cost(s, idx), p.res)), None)
                else:
                    b = engine.building_at(s, idx)
                    pays = [] if b is None else list(engine.building_payments(b, p.res))
                    pay = (
                        max(pays, key=lambda q: engine.building_points(s.profile, b, q) - sum(q))
                        if b and pays
                        else None
                    )
                if pay is None:
                    return Skip(name)
                return Buy(name, pay)
        for idx in (TOOLMAKER, HUT, FIELD, HUNT, 1, 2, 3, 4):
            if p.placed[idx]:
                return Take(names[idx])
        raise AssertionError("nothing to carry out")  # pragma: no cover - settle guarantees a place

    def _place(self, s: View) -> AnyMove:
        seat = s.actor
        p = s.players[seat]
        prof = s.profile
        names = s.names
        legal = {str(m): m for m in engine.place_moves(s, seat)}
        left = engine.available(p)
        # a building it can pay
        nc = len(s.display)
        for k in range(len(s.tops)):
            b = engine.building_at(s, FIRST_CARD + nc + k)
            m = Place(names[FIRST_CARD + nc + k])
            if b is not None and str(m) in legal and next(iter(engine.building_payments(b, p.res)), None):
                return m
        for k in range(nc):
            m = Place(names[FIRST_CARD + k])
            if str(m) in legal and sum(p.res) >= prof.card_costs[k] + 1:
                return m
        mouths = p.people + 1
        if p.agri < prof.max_agriculture and str(Place("field")) in legal:
            return Place("field")
        if p.people < prof.max_people and left >= 2 and p.food + p.agri >= mouths and str(Place("hut")) in legal:
            return Place("hut")
        if sum(p.tools) < 6 and str(Place("toolmaker")) in legal:
            return Place("toolmaker")
        short = p.people - p.food - p.agri
        if short > 0 and not p.placed[HUNT]:
            k = min(left, max(1, short * 2 // 3 + 1))
            m = Place("hunt", k)
            if str(m) in legal:
                return m
        for place in ("gold", "stone", "clay", "wood"):
            room = [m for m in legal.values() if m.place == place]
            if room and max(m.n for m in room) >= (3 if place in ("gold", "stone") else 2):
                return max(room, key=lambda m: m.n)
        if not p.placed[HUNT]:
            return Place("hunt", left)
        return next(iter(legal.values()))


POLICIES: Mapping[str, PlayerFactory] = {"random": RandomPlayer, "greedy": GreedyPlayer}
"""Simulated players by name."""

__all__ = ["POLICIES", "GreedyPlayer", "RandomPlayer"]
