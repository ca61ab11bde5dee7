"""Invariants over thousands of seeded random games with 2, 3 and 4 players.

Conservation (R-COMP-*): 15 members per player between supply and map; 50 landscape tiles between bag
and lands; 20 shells between players, row and supply; marking stones within the box. Every listed legal
move applies; every move apply accepts is listed; a journal replays to the same final state; states
survive a JSON round trip. The default run plays 60 games and fuzzes 9 more; ``-m slow`` plays
7,140 more and fuzzes 66 more (the long runs used to take over half of the default test run).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import islice

import pytest

from games.tribes.rules.engine import apply
from games.tribes.rules.errors import IllegalMoveError
from games.tribes.rules.game import Game, simulate
from games.tribes.rules.hexgrid import is_connected, neighbours
from games.tribes.rules.legal import legal_moves
from games.tribes.rules.moves import Achieve, Exhaust, Lose, Movement, Offspring, Place, Restore
from games.tribes.rules.state import State

PLAYERS = (2, 3, 4)
GAMES_PER_COUNT = 20  # 60 games in the default run
SLOW_GAMES_PER_COUNT = 2380  # 7,140 more with -m slow
FUZZ_GAMES = 3  # games per player count whose states are fuzzed in the default run (25 with -m slow)


def _land_summary(p, cache: dict) -> tuple[Counter, int]:
    """Resource counts and members of one land; players unchanged between states share the object."""
    key = id(p.land)
    got = cache.get(key)
    if got is None:
        assert all(t.members >= 0 for t in p.land.values())
        if p.land:
            assert is_connected(p.land) and len(p.land) >= 3  # R-SET-3, R-ACT-EXP-1
        got = cache[key] = (Counter(t.resource for t in p.land.values()), p.members_on_map)
    return got


def check_invariants(s: State, cache: dict | None = None) -> None:
    """The conservation laws and limits every state must satisfy. ``cache`` (by object id, for the
    states of one game, which are all alive) skips parts that did not change since an earlier state."""
    cache = {} if cache is None else cache
    prof = s.profile
    started = s.pending.kind not in ("setup",)
    lands: Counter[str] = Counter()
    for p in s.players:
        counts, on_map = _land_summary(p, cache)
        lands.update(counts)
        assert p.supply >= 0 and p.supply + on_map == prof.members_per_player  # R-COMP-1
        assert p.shells >= 0 and p.vp >= 0
        if s.pending.kind not in ("setup", "first_member"):
            assert on_map >= 1  # R-EVT-4: never the last member
    lands.update(getattr(s.pending, "drawn", ()))  # drawn tiles in the player's hand, not yet placed
    for i, r in enumerate(prof.resources):
        assert s.bag[i] + lands[r] == prof.tiles_per_resource  # R-COMP-4: tiles are conserved
    shells = sum(p.shells for p in s.players) + sum(t.shells for t in s.row) + s.turn_shells + s.shell_supply
    assert shells == prof.shells_total  # R-COMP-5
    if started and id(s.row) not in cache:
        cache[id(s.row)] = True
        assert sorted(t.tile for t in s.row if not t.event) == sorted(t.id for t in prof.action_tiles)
    if id(s.board) not in cache:
        cache[id(s.board)] = True
        stones = Counter(seat for row in s.board for bt in row for seat in bt.stones)
        assert all(k <= prof.stones_per_player for k in stones.values())  # R-COMP-1
        for row in s.board:
            for bt in row:
                assert len(set(bt.stones)) == len(bt.stones)  # R-ACH-9
                if bt.tile:
                    assert len(bt.stones) <= len(prof.achievement(bt.tile).slots)  # R-ACH-5
    if id(s.seen_events) not in cache:
        cache[id(s.seen_events)] = True
        for era in (1, 2, 3):
            ids = {e.id for e in prof.events_of_era(era)}
            assert s.stacks[era - 1] + len(ids & s.seen_events) == len(ids)
    assert len(s.arrows) + sum(p.arrow for p in s.players) == s.n  # one arrow token each


def play_and_check(seed: int, n: int) -> Game:
    game = simulate(n, seed, "random")
    assert game.state.is_over, f"seed {seed} with {n} players did not finish"
    cache: dict = {}
    for s in game.states:
        check_invariants(s, cache)
    return game


@pytest.mark.parametrize("n", PLAYERS)
def test_random_games_conserve_components_and_replay(n):
    """R-COMP-1/4/5, R-EVT-4, R-ACH-5/9 in every state of 20 random games (2,400 with -m slow);
    journal replay and JSON round trips reproduce the states exactly."""
    for seed in range(GAMES_PER_COUNT):
        game = play_and_check(seed, n)
        final = game.state
        text = json.dumps(game.to_dict())
        replayed = Game.from_dict(json.loads(text))
        assert replayed.state == final
        assert State.from_dict(json.loads(json.dumps(final.to_dict()))) == final
        mid = game.states[len(game.states) // 2]
        assert State.from_dict(json.loads(json.dumps(mid.to_dict()))) == mid


@pytest.mark.slow
@pytest.mark.parametrize("n", PLAYERS)
def test_many_more_random_games(n):
    for seed in range(GAMES_PER_COUNT, GAMES_PER_COUNT + SLOW_GAMES_PER_COUNT):
        play_and_check(seed, n)


def fuzz_moves(s: State, rng: random.Random, count: int) -> list:
    """Random, mostly illegal moves of the kind the state waits for, near the player's land."""
    p = s.players[s.actor]
    near = sorted({n for h in p.land for n in (h, *neighbours(h))})
    out: list = []
    kind = s.pending.kind
    for _ in range(count):
        pick = rng.choice(near)
        slot = rng.randint(1, len(s.row))
        if kind == "choose":
            r = rng.random()
            if r < 0.3:
                out.append(Offspring(slot, tuple(rng.choice(near) for _ in range(rng.randint(0, 3)))))
            elif r < 0.6:
                out.append(Movement.of(slot, [(rng.choice(near), rng.choice(near)) for _ in range(rng.randint(0, 3))]))
            else:
                ach = rng.choice([a.id for a in s.profile.achievements])
                jokers = tuple(rng.sample(near, rng.randint(0, 2)))
                arrow = rng.choice([None, None, *(a.id for a in s.profile.achievements)])
                out.append(Achieve(slot, ach, jokers, arrow))
        elif kind == "place":
            drawn = s.pending.drawn  # type: ignore[attr-defined]
            cells = rng.sample(near, min(len(drawn), len(near)))
            out.append(Place(tuple(zip(cells, drawn, strict=False))))
        elif kind in ("event", "restore"):
            cls = rng.choice([Lose, Exhaust, Restore])
            out.append(cls(tuple(rng.choice(near) for _ in range(rng.randint(0, 2)))))
        _ = pick
    return out


@pytest.mark.parametrize("n", PLAYERS)
def test_legal_moves_are_exactly_what_apply_accepts(n):
    """Every listed move applies and is listed once; every move apply accepts (the players' and random
    fuzzed ones) is in the list."""
    assert _fuzz(n, range(FUZZ_GAMES)) > 200


@pytest.mark.slow
@pytest.mark.parametrize("n", PLAYERS)
def test_legal_moves_are_exactly_what_apply_accepts_in_many_more_games(n):
    assert _fuzz(n, range(FUZZ_GAMES, 25)) > 350


def _fuzz(n: int, seeds: range) -> int:
    """The fuzz check over the games of ``seeds``; returns how many states were checked."""
    rng = random.Random(n * 1000 + seeds.start)
    checked_states = 0
    for seed in seeds:
        game = simulate(n, 1000 + seed, "random")
        for i, (s, played) in enumerate(zip(game.states, game.moves, strict=False)):
            if s.pending.kind == "setup" or i % 4:
                continue
            listed = list(islice(legal_moves(s), 5001))
            if len(listed) > 5000:
                continue  # too many to hold; the sample below still checks they apply
            checked_states += 1
            assert len(set(listed)) == len(listed)
            assert played in set(listed)
            for m in rng.sample(listed, min(25, len(listed))):
                apply(s, m)  # must not raise
            as_set = set(listed)
            if not s.is_chance:
                for m in fuzz_moves(s, rng, 20):
                    try:
                        apply(s, m)
                    except IllegalMoveError:
                        assert m not in as_set
                    else:
                        assert m in as_set, f"{m} is accepted but not listed"
    return checked_states
