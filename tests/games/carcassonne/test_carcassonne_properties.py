"""Golden counts (legal placements after N seeded tiles) and property tests over many random games:
figures, tiles and points are conserved, and the incremental features agree with a model rebuilt from
scratch (carc_reference). A few dozen games run by default; thousands under ``-m slow``."""

from __future__ import annotations

import json
import random

import pytest
from carc_reference import assert_consistent

import games
from games.carcassonne.rules.engine import apply, new_game, placements, projected
from games.carcassonne.rules.legal import legal_moves, sample_chance
from games.carcassonne.rules.players import GreedyPlayer, RandomPlayer
from games.carcassonne.rules.position import state_from_dict, state_to_dict
from games.carcassonne.rules.state import Phase, State
from games.carcassonne.rules.tiles import Role, default_profile
from games.record import Record, simulate

GAME = games.get("carcassonne")
PLAYERS = [("Rot", "red"), ("Blau", "blue"), ("Gelb", "yellow"), ("Grün", "green"), ("Schwarz", "black")]
STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))


def game_states(seed: int, players: int = 4, policy: type = RandomPlayer) -> list[State]:
    rng = random.Random(seed)
    s = new_game(PLAYERS[:players])
    pols = [policy(seed * 31 + i) for i in range(players)]
    out = [s]
    while not s.is_over:
        s = apply(s, sample_chance(s, rng) if s.is_chance else pols[s.to_move].choose(s))
        out.append(s)
    return out


def after_tiles(seed: int, n: int) -> State:
    """The state in which the ``n``-th land tile (after the start tile) waits to be laid."""
    k = 0
    for s in game_states(seed):
        if s.phase is Phase.PLACE:
            k += 1
            if k == n:
                return s
    raise AssertionError("the game ended first")


def brute_placements(s: State) -> int:
    """Legal placements counted from the laid tiles alone: every empty square beside the map, every
    rotation, every side that meets a tile checked against it (no frontier, no tables)."""
    prof = s.profile
    board = {(p.x, p.y): p for p in s.placements()}
    tile = prof.tiles[s.drawn]
    squares = {(x + dx, y + dy) for (x, y) in board for dx, dy in STEP} - set(board)
    count = 0
    for x, y in squares:
        for r in range(4):
            ok = True
            for d, (dx, dy) in enumerate(STEP):
                q = board.get((x + dx, y + dy))
                if q is not None:
                    theirs = prof.tiles[q.kind].edges[((d + 2) % 4 - q.rot) % 4]
                    if theirs != tile.edges[(d - r) % 4]:
                        ok = False
            count += ok
    return count


# Golden counts: computed once with this engine (seed 2024, 4 random players, default profile) and
# written down; each is also checked against the brute-force count above, which shares no code with
# the engine's frontier. (placements, legal moves with figure options)
GOLDEN = {1: (5, 30), 10: (14, 69), 30: (31, 73), 60: (51, 51)}


@pytest.mark.parametrize("n", sorted(GOLDEN))
def test_golden_counts_of_legal_placements_after_n_seeded_tiles(n):
    s = after_tiles(2024, n)
    count, moves = GOLDEN[n]
    assert brute_placements(s) == count
    assert len(placements(s)) == count
    assert legal_moves(s).count() == moves


def test_H_SET_2_H_COMP_1_a_whole_game_lays_every_land_tile_once():
    states = game_states(5)
    end = states[-1]
    prof = end.profile
    laid = [p.kind for p in end.placements()]
    land = [k for k in laid if prof.tiles[k].group == "land"] + [
        k for k in end.removed if prof.tiles[k].group == "land"
    ]
    assert sorted(land) == sorted(k for k in prof.land for _ in range(prof.tiles[k].count))
    assert laid[0] == prof.start and laid.count(prof.start) == 1


def check_invariants(s: State) -> None:
    prof = s.profile
    n = len(s.seats)
    # figures
    for i in range(n):
        members = sum(1 for f in s.figures if f.seat == i and f.role is not Role.HUT)
        huts = sum(1 for f in s.figures if f.seat == i and f.role is Role.HUT)
        assert s.members[i] + members == prof.members and s.huts[i] + huts == prof.huts
    tiles = s.placements()
    assert len(tiles) == s.ntiles and len({(p.x, p.y) for p in tiles}) == s.ntiles
    for f in s.figures:
        assert tiles[f.tile].by == f.seat  # a figure stands on a tile its owner laid (H-FIG-3)
    # tiles
    used = [0] * len(prof.tiles)
    for p in tiles:
        used[p.kind] += 1
    for k in s.removed:
        used[k] += 1
    if s.drawn >= 0:
        used[s.drawn] += 1
    for k, t in enumerate(prof.tiles):
        assert used[k] + s.bag[k] == t.count
    assert s.land_left == sum(s.bag[k] for k in prof.land)
    # points
    for i in range(n):
        assert s.scores[i] == sum(e.points for e in s.log if i in e.winners)
    assert all(p >= c for p, c in zip(projected(s), s.scores, strict=True))


def run_games(seeds, check_every: int = 0, players_cycle=(2, 3, 4, 5)) -> int:
    games_played = 0
    for seed in seeds:
        states = game_states(seed, players_cycle[seed % len(players_cycle)])
        prev = None
        for k, s in enumerate(states):
            check_invariants(s)
            if prev is not None:
                assert all(a >= b for a, b in zip(s.scores, prev.scores, strict=True))
            if check_every and k % check_every == 0:
                assert_consistent(s)
            prev = s
        end = states[-1]
        assert end.is_over and end.land_left == 0
        assert_consistent(end)
        games_played += 1
    return games_played


def test_properties_over_a_few_dozen_random_games():
    """Figures, tiles and points conserved after every move of 20 games of 2-5 players; features checked
    against the rebuilt model every 15 moves and at the end (2,200 more with -m slow)."""
    assert run_games(range(20), check_every=15) == 20


@pytest.mark.slow
def test_properties_over_thousands_of_random_games():
    assert run_games(range(1000, 3000)) == 2000
    assert run_games(range(100, 300), check_every=1) == 200


def test_greedy_and_random_games_replay_from_their_journal_and_positions_round_trip():
    for policy, seed in (("greedy", 1), ("random", 2)):
        rec = simulate(GAME, 3, seed=seed, policies=policy)
        assert rec.state.is_over
        again = Record.from_dict(GAME, json.loads(json.dumps(rec.to_dict())), "j")
        assert again.states == rec.states
        for s in rec.states[::23]:
            assert state_from_dict(json.loads(json.dumps(state_to_dict(s))), None, "p") == s


def test_greedy_beats_random_more_often_than_not():
    wins = 0
    for seed in range(4):
        rec = simulate(GAME, 2, seed=seed, policies=["greedy", "random"])
        wins += rec.state.scores[0] > rec.state.scores[1]
    assert wins >= 3


def test_players_are_deterministic_from_their_seed():
    s = after_tiles(7, 20)
    assert RandomPlayer(3).choose(s) == RandomPlayer(3).choose(s)
    assert GreedyPlayer(3).choose(s) == GreedyPlayer(3).choose(s)
    assert default_profile() is s.profile
