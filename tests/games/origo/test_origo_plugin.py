"""The plug-in: registry entry and info, golden legal-move counts (perft-style), simulated players
deterministic from their seed, the legal-move count checked independently of the generator."""

from __future__ import annotations

import games
from games.origo.rules.players import GreedyPlayer, RandomPlayer
from games.origo.rules.state import FREE, Phase
from games.record import simulate

GAME = games.get("origo")
RULES = GAME.rules


def test_origo_is_registered_and_listed():
    assert "origo" in games.available()
    info = GAME.info
    assert (info.id, info.clause_prefix, info.journal_format, info.position_format) == (
        "origo",
        "O-",
        "origo-journal",
        "origo-position",
    )
    assert (info.min_players, info.max_players) == (2, 5)
    assert games.for_format("origo-position") is GAME and set(RULES.players) == {"random", "greedy"}
    assert GAME.docs["rules"] == "docs/origo-rules.md"


# Golden counts: the number of legal moves after N moves of a seeded simulated game. Computed once
# with the code of this commit (python -c "... simulate(games.get('origo'), 3, seed=11) ...") and
# written down; the sanity checks below recompute them independently.
GOLDEN = {
    (11, 3, "random"): (118, {0: 111, 10: 104, 25: 93, 50: 78, 100: 22}),
    (12, 4, "greedy"): (159, {0: 111, 10: 103, 25: 92, 50: 73, 100: 41}),
}


def test_golden_legal_move_counts_of_seeded_games():
    for (seed, n, policy), (length, counts) in GOLDEN.items():
        rec = simulate(GAME, n, seed=seed, policies=policy)
        assert len(rec.moves) == length and RULES.is_over(rec.state)
        assert {i: RULES.legal_moves(rec.states[i]).count() for i in counts} == counts


def _independent_count(state) -> int:
    """The legal-move count from the rules, without the generator: lays on free fields, plays of 1…hand
    cards, attacks on fields found by grid coordinates, and one end-of-turn move; 2 x (max+1) reveals;
    100 points per player not yet entered; card (if any) and stop in a battle."""
    b = state.board
    if state.phase is Phase.OVER:
        return 0
    if state.phase is Phase.REVEAL:
        return 2 * (b.max_reveal + 1)
    if state.phase in (Phase.SCORING, Phase.FINAL):
        return 100 * sum(1 for e in state.entries if e is None)
    if state.phase is Phase.BATTLE:
        return 2 if state.hands[RULES.actor(state)] > 0 else 1
    me = state.to_move
    at = {(c.col, c.row): i for i, c in enumerate(b.cells)}
    n = (sum(1 for o in state.owners if o == FREE) if state.supply[me] else 0) + state.hands[me] + 1
    if state.supply[me] and state.hands[me]:
        for i, c in enumerate(b.cells):
            owner = state.owners[i]
            if owner in (FREE, me):
                continue
            region = [j for j, d in enumerate(b.cells) if d.region == c.region]
            if b.regions[c.region].is_land:
                if not state.is_founded(c.region):
                    continue
            elif any(state.owners[j] == FREE for j in region):
                continue
            near = [at.get((c.col + dx, c.row + dy)) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
            n += any(j is not None and state.owners[j] == me for j in near)
    return n


def test_legal_move_counts_agree_with_an_independent_count():
    for seed, n, policy in ((11, 3, "random"), (12, 4, "greedy"), (21, 5, "random"), (22, 2, "random")):
        rec = simulate(GAME, n, seed=seed, policies=policy)
        for st in rec.states:
            assert RULES.legal_moves(st).count() == _independent_count(st)


def test_simulated_players_are_deterministic_from_their_seed():
    a = simulate(GAME, 4, seed=5, policies=["random", "greedy", "random", "greedy"])
    b = simulate(GAME, 4, seed=5, policies=["random", "greedy", "random", "greedy"])
    assert [str(m) for m in a.moves] == [str(m) for m in b.moves]
    c = simulate(GAME, 4, seed=6, policies=["random", "greedy", "random", "greedy"])
    assert [str(m) for m in a.moves] != [str(m) for m in c.moves]
    s = a.states[0]
    assert str(RandomPlayer(3).choose(s)) == str(RandomPlayer(3).choose(s))
    assert str(GreedyPlayer(3).choose(s)) == str(GreedyPlayer(3).choose(s))


def test_greedy_players_found_lands_and_attack():
    rec = simulate(GAME, 3, seed=8, policies="greedy")
    kinds = {m.kind for m in rec.moves}
    assert {"lay", "reveal", "attack", "points", "refill"} <= kinds
    assert len(rec.state.founded) >= 3


def test_chance_is_sampled_only_at_a_founding_and_from_the_board_file():
    import random

    rec = simulate(GAME, 2, seed=3, policies="greedy")
    reveals = [(i, m) for i, m in enumerate(rec.moves) if m.chance]
    assert reveals
    for k, (i, m) in enumerate(reveals):
        field = rec.states[i].board.founding[k]
        assert (m.value, m.red) == (field.value, field.red)
        assert RULES.sample_chance(rec.states[i], random.Random(0)) == m
    assert RULES.chance_outcomes(rec.states[0]) == []
