"""Property tests with a seeded RNG: simulated battles (points never negative, shields conserved, a
tie always to the defender, the loser the side that stopped behind: O-ATK-5…11) and whole simulated
games (conservation of shields, hands within the hand size, leaders on the path, positions that
round-trip). A few dozen by default; thousands under ``-m slow``."""

from __future__ import annotations

import json
import random

import pytest

import games
from games.origo.rules import battle as calc
from games.origo.rules.board import board_spec
from games.origo.rules.engine import apply, legal_moves
from games.origo.rules.moves import Attack, Card, Stop
from games.origo.rules.position import state_from_dict, state_to_dict
from games.origo.rules.state import Phase
from games.origo.sim import random_battlefield
from games.record import simulate

GAME = games.get("origo")


def one_battle(seed: int) -> None:
    rng = random.Random(seed)
    s, target = random_battlefield(rng)
    attacker, defender = s.to_move, s.owners[target]
    totals = [s.shields_total(i) for i in range(s.n)]
    eager = rng.random()
    s = apply(s, Attack(s.name(attacker), s.board.name_of(target)))
    last = None
    while s.phase is Phase.BATTLE:
        b = s.battle
        a, d = calc.battle_points(s, b)
        assert a >= 2 and d >= 1, "points never negative: a card and the attacked shield count"
        assert [s.shields_total(i) for i in range(s.n)] == totals
        assert min(s.hands) >= 0
        moves = list(legal_moves(s))
        card = next((m for m in moves if isinstance(m, Card)), None)
        last = (a, d, b.opening, b.attacker if calc.side_to_answer(s, b).value == "attacker" else b.defender)
        s = apply(s, card if card is not None and rng.random() < eager else Stop(s.name(last[3])))
    # the battle is over
    a, d, _opening, stopper = last
    assert [s.shields_total(i) for i in range(s.n)] == totals, "shields are conserved"
    winner = s.owners[target]
    assert winner in (attacker, defender)
    assert winner == (attacker if a > d else defender), "the side ahead wins; a tie goes to the defender"
    assert stopper != winner, "the side that stopped while behind lost"
    assert sum(s.out) == 1
    assert s.out[defender if winner == attacker else attacker] == 1


@pytest.mark.parametrize("seed", range(40))
def test_simulated_battles(seed):
    one_battle(seed)


@pytest.mark.slow
def test_thousands_of_simulated_battles():
    for seed in range(1000, 4000):
        one_battle(seed)


def test_a_battle_played_card_for_card_ends_as_the_calculator_says():
    for seed in range(30):
        rng = random.Random(seed)
        s, target = random_battlefield(rng)
        attacker, defender = s.to_move, s.owners[target]
        s = apply(s, Attack(s.name(attacker), s.board.name_of(target)))
        a, d = calc.battle_points(s, s.battle)
        if a > d:  # ahead after the opening card: the opening ends, the defender answers
            s = apply(s, Stop(s.name(attacker)))
        predicted = calc.play_out(a, d, s.hands[attacker], s.hands[defender])
        while s.phase is Phase.BATTLE:
            moves = list(legal_moves(s))
            s = apply(s, next((m for m in moves if isinstance(m, Card)), moves[-1]))
        assert (s.owners[target] == attacker) == (predicted.winner.value == "attacker")


def check_game(seed: int, n: int, policy) -> int:
    rec = simulate(GAME, n, seed=seed, policies=policy, max_moves=20000)
    assert GAME.rules.is_over(rec.state)
    first = rec.states[0]
    per = first.board.shields_per_player[n]
    for i, st in enumerate(rec.states):
        assert all(st.shields_total(p) == per for p in range(n)), f"shields conserved (move {i})"
        assert all(0 <= h <= st.board.hand_size for h in st.hands)
        assert all(st.board.path_start <= x <= st.board.path_length for x in st.leader)
        assert min(st.tribe) >= 0 and min(st.final) >= 0 and min(st.supply) >= 0
        assert len(st.founded) <= st.board.stones
        assert st.scorings_due + st.scorings_held + (st.phase is Phase.SCORING) == sum(f.red for f in st.founded)
        if i % 17 == 0:
            doc = json.loads(json.dumps(state_to_dict(st, board=board_spec(st.board))))
            assert state_from_dict(doc, None, "pos") == st
    return len(rec.moves)


@pytest.mark.parametrize("seed", range(10))
def test_simulated_games_conserve_everything(seed):
    n = 2 + seed % 4
    policy = ["random", "greedy"] * 3
    check_game(seed, n, policy[:n] if seed % 2 else "random")


@pytest.mark.slow
def test_hundreds_of_simulated_games_conserve_everything():
    for seed in range(100, 400):
        n = 2 + seed % 4
        check_game(seed, n, "random" if seed % 3 else "greedy")


def test_the_simulated_battles_of_the_benchmark_conserve_shields_and_end():
    from games.origo.sim import battles, play_battle

    for seed in range(10):
        rng = random.Random(seed)
        s, f = random_battlefield(rng)
        states = play_battle(s, f, rng)
        assert states[-1].phase is Phase.TURN and states[-1].battle is None
        assert all(x.shields_total(p) == s.shields_total(p) for x in states for p in range(s.n))
    assert battles(range(5)) >= 5
