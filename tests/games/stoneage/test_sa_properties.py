"""Property tests over many simulated games: people, resources, food, cards and buildings are
conserved, every transition is accounted for, and the legal moves are exactly what apply accepts.

A few dozen games by default; ``-m slow`` runs thousands (S-PLACE-1, S-DICE-1, S-DICE-2, S-CARD-1,
S-BLD-1, S-FEED-1, S-FEED-2, S-END-1)."""

from __future__ import annotations

import random

import pytest

from games.stoneage.plugin import GAME
from games.stoneage.rules import engine
from games.stoneage.rules.moves import AnyRes, Buy, Feed, Pick, Roll, Tools
from games.stoneage.rules.players import POLICIES
from games.stoneage.rules.profile import RESOURCES
from games.stoneage.rules.scoring import breakdown
from games.stoneage.rules.state import Phase

RULES = GAME.rules


def playout_log(n: int, seed: int, policy: str):
    s0 = RULES.new_state(RULES.settings([(f"P{i}", "red") for i in range(n)]))
    players = [POLICIES[policy](seed * 101 + i) for i in range(n)]
    log: list = []
    end = engine.playout(s0, players, random.Random(seed), log=log)
    return s0, log, end


def check_state(s) -> None:
    prof = s.profile
    cards = [c for c in s.display if c] + list(s.unseen_cards) + [c for p in s.players for c in p.cards]
    assert sorted(cards) == sorted(c.id for c in prof.cards), "cards conserved"
    blds = [b for b in s.tops if b] + list(s.unseen_buildings) + [b for p in s.players for b, _ in p.buildings]
    assert sorted(blds) == sorted(b.id for b in prof.buildings), "buildings conserved"
    assert sum(s.left) <= len(s.unseen_buildings)
    assert sum(p.people for p in s.players) <= prof.totals["people"]
    for p in s.players:
        assert prof.start_people <= p.people <= prof.max_people
        assert 0 <= sum(p.placed) <= p.people
        assert p.food >= 0 and min(p.res) >= 0 and 0 <= p.agri <= prof.max_agriculture
        assert len(p.tools) <= prof.max_tools and all(1 <= v <= prof.max_tool_value for v in p.tools)
        assert len(p.unused_tools()) + len(p.used) == len(p.tools)
        assert set(p.once) <= set(p.cards) and set(p.anyc) <= set(p.cards)
        assert p.points == sum(pts for _, pts in p.buildings) + p.card_points - 10 * p.starved
    if s.phase is Phase.PLACE:
        assert engine.can_place(s, s.actor)


def asks_tools(s, p, dice) -> bool:
    """The tools choice follows a roll when the player's tools could add to the yield (S-TOOL-4)."""
    div = s.profile.divisor[s.what]
    extra = sum(p.unused_tools()) + sum(s.profile.card(c).top.value for c in p.once)
    return (sum(dice) + extra) // div > sum(dice) // div


def resource_change(s, move) -> list[int]:
    """What ``move`` must do to each player's resources (independent of the engine's code)."""
    prof = s.profile
    delta = [[0, 0, 0, 0] for _ in s.players]
    a = s.actor
    if isinstance(move, Buy):
        for i in range(4):
            delta[a][i] -= move.pay[i]
        idx = s.names.index(move.place)
        if idx < 8 + len(s.display):
            top = prof.card(s.display[idx - 8]).top
            if top.kind == "resource":
                delta[a][RESOURCES.index(top.resource)] += top.amount
    elif isinstance(move, Feed):
        for i in range(4):
            delta[a][i] -= move.pay[i]
    elif isinstance(move, AnyRes):
        for i in range(4):
            delta[a][i] += move.take[i]
    elif isinstance(move, Pick) or (isinstance(move, Roll) and move.what == "bar"):
        # the picker takes the die; when the dice left all show one face they go round without asking
        order = []
        if isinstance(move, Pick):
            left = list(s.dice)
            left.remove(move.face)
            order.append((a, move.face))
            seat = (a + 1) % len(s.players)
        else:
            left = list(move.dice)
            seat = s.actor
        if len(set(left)) == 1:
            for f in left:
                order.append((seat, f))
                seat = (seat + 1) % len(s.players)
        for who, f in order:
            reward = prof.dice_bar[f - 1]
            if reward in RESOURCES:
                delta[who][RESOURCES.index(reward)] += 1
    elif isinstance(move, Roll | Tools) and s.what in RESOURCES:
        p = s.players[a]
        if isinstance(move, Roll) and not asks_tools(s, p, move.dice):
            delta[a][RESOURCES.index(s.what)] += sum(move.dice) // prof.divisor[s.what]
        elif isinstance(move, Tools):
            delta[a][RESOURCES.index(s.what)] += (sum(s.dice) + move.total) // prof.divisor[s.what]
    return [x for row in delta for x in row]


def expected_food(s, move, nxt) -> list[int]:
    """Each player's food after ``move`` (S-DICE-1, S-CARD-3, S-FEED-1, S-FEED-2), worked out from the
    move and which players the transition fed — independently of the engine's code."""
    prof = s.profile
    n = len(s.players)
    a = s.actor
    food = [p.food for p in s.players]
    if s.what == "hunt" and isinstance(move, Roll) and not asks_tools(s, s.players[a], move.dice):
        food[a] += sum(move.dice) // prof.divisor["hunt"]
    if s.what == "hunt" and isinstance(move, Tools):
        food[a] += (sum(s.dice) + move.total) // prof.divisor["hunt"]
    if isinstance(move, Buy) and s.names.index(move.place) < 8 + len(s.display):
        top = prof.card(s.display[s.names.index(move.place) - 8]).top
        if top.kind == "food":
            food[a] += top.amount
    ended = nxt.round != s.round or nxt.is_over
    order = [(s.start + k) % n for k in range(n)]
    if s.phase is Phase.FEED and isinstance(move, AnyRes):
        return food  # using the card first: still the same player's decision
    if s.phase is Phase.FEED:
        food[a] = 0  # feed or starve: all food goes (S-FEED-2)
        fed = order[order.index(a) + 1 :]
    elif nxt.phase is Phase.FEED or ended:
        for i in range(n):
            food[i] += nxt.players[i].agri  # agriculture first (S-FEED-1)
        fed = order
    else:
        return food
    if nxt.phase is Phase.FEED:
        fed = fed[: fed.index(nxt.actor)] if nxt.actor in fed else fed
    for i in fed:
        starved = nxt.players[i].starved > s.players[i].starved
        food[i] = 0 if starved else food[i] - nxt.players[i].people
    return food


def run_game(n: int, seed: int, policy: str) -> int:
    s0, log, end = playout_log(n, seed, policy)
    s = s0
    check_state(s)
    for m in log:
        assert m in RULES.legal_moves(s), (str(m), engine.context(s))
        nxt = engine.apply(s, m)
        before = [x for p in s.players for x in p.res]
        after = [x for p in nxt.players for x in p.res]
        assert [b - a for a, b in zip(before, after, strict=True)] == resource_change(s, m), str(m)
        for p, q in zip(s.players, nxt.players, strict=True):
            assert q.people - p.people in (0, 1) and len(q.cards) >= len(p.cards)
        assert [q.food for q in nxt.players] == expected_food(s, m, nxt), (str(m), engine.context(s))
        check_state(nxt)
        s = nxt
    assert s == end and s.is_over and s.ended in ("buildings", "cards")
    final = [breakdown(end, i) for i in range(n)]
    assert all(b.final and b.projected == b.track + b.final_part for b in final)
    return len(log)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_conservation_over_random_and_greedy_games_S_CARD_1_S_BLD_1_S_FEED_1(n):
    moves = 0
    for seed in range(8):
        moves += run_game(n, seed, "random")
    for seed in range(4):
        moves += run_game(n, seed, "greedy")
    assert moves > 3000


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4])
def test_conservation_over_thousands_of_games(n):
    for seed in range(700):
        run_game(n, 1000 + seed, "random" if seed % 3 else "greedy")


def test_every_generated_move_passes_check_and_checks_agree_with_generation_S_PLACE_1_S_DICE_3():
    rng = random.Random(9)
    for n in (2, 3, 4):
        s0, log, _ = playout_log(n, 40 + n, "random")
        s = s0
        for i, m in enumerate(log):
            if i % 5 == 0 and not s.is_chance:
                legal = {str(x) for x in engine.generate(s)}
                assert all(engine.check(s, RULES.parse_move(t)) is None for t in legal)
                # nearby texts that are not generated are refused with a clause
                for t in rng.sample(sorted(legal), min(5, len(legal))):
                    for variant in (t.replace(" 1", " 2"), t + ",wood" if t.startswith(("buy", "feed")) else t):
                        try:
                            mv = RULES.parse_move(variant)
                        except ValueError:
                            continue
                        ok = engine.check(s, mv) is None
                        assert ok == (str(mv) in legal), (variant, engine.context(s))
            s = engine.apply(s, m)


def test_the_fast_place_check_agrees_with_the_clauses_everywhere_S_PLACE_4_S_CAP_5_S_FEW_2():
    """place_room (the generator's and players' fast path) gives exactly what check_place allows, for
    every place, every count and every seat, over the placing states of many games."""
    from games.stoneage.rules.moves import Place

    checked = 0
    for n in (2, 3, 4):
        for seed in range(3):
            s0, log, _ = playout_log(n, 300 + seed, "random")
            s = s0
            for m in log:
                if s.phase is Phase.PLACE:
                    for seat in range(n):
                        for idx, name in enumerate(s.names):
                            room = engine.place_room(s, seat, idx)
                            counts = range(1, 11) if idx <= 4 else (0,)
                            ok = [k for k in counts if engine.check_place(s, seat, Place(name, k)) is None]
                            if idx <= 4:
                                assert (room is None) == (not ok) and (
                                    room is None or (room[0], room[1]) == (1, max(ok))
                                )
                            else:
                                assert (room is None) == (not ok), (name, engine.context(s))
                            checked += 1
                s = engine.apply(s, m)
    assert checked > 7500
