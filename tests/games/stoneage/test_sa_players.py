"""Simulated players: both finish games, are deterministic from their seed, and greedy plays better
than random (S-PLACE-1, S-ACT-1)."""

from __future__ import annotations

import random
import statistics

from games.record import simulate
from games.stoneage.plugin import GAME
from games.stoneage.rules import engine
from games.stoneage.rules.players import POLICIES


def test_both_players_finish_games_deterministically():
    for pol in ("random", "greedy"):
        a = simulate(GAME, 4, seed=11, policies=pol)
        b = simulate(GAME, 4, seed=11, policies=pol)
        assert GAME.rules.is_over(a.state) and [str(m) for m in a.moves] == [str(m) for m in b.moves]
    assert set(POLICIES) == {"random", "greedy"}


def test_greedy_scores_more_than_random():
    def mean_score(pol: str) -> float:
        scores = []
        for seed in range(6):
            rec = simulate(GAME, 4, seed=seed, policies=pol)
            scores += [s["total"] for s in GAME.rules.scores(rec.state)]
        return statistics.mean(scores)

    assert mean_score("greedy") > mean_score("random")


def test_the_fast_playout_is_the_same_game_as_the_interface():
    """playout() runs step/settle on one Work; replaying its log through apply() gives the same end."""
    s0 = GAME.rules.new_state(GAME.rules.settings([("A", "red"), ("B", "blue"), ("C", "green")]))
    for seed in range(4):
        players = [POLICIES["random"](seed * 101 + i) for i in range(3)]
        log: list = []
        end = engine.playout(s0, players, random.Random(seed), log=log)
        s = s0
        for m in log:
            s = engine.apply(s, m)
        assert s == end and end.is_over
