"""Stone Age engine benchmark: random 4-player games per second on one core (target >= 1,000).

Prints, for random (and greedy) players, whole simulated games per second two ways:

* ``playout`` — :func:`games.stoneage.rules.engine.playout`, the simulation path: for random players
  the C core (:mod:`games.stoneage.rules.fast`, the same games bit for bit) when it is built, else
  the engine's step/settle code on one mutable Work for the whole game;
* ``playout-py`` — the same with ``fast=False``: always the Python step/settle code (random players);
* ``record`` — :func:`games.record.simulate`: the chassis's way, one immutable State per move through
  ``Rules.apply`` with its legality check, and the journal (the path a real game takes).

Also moves per game, moves per second, rounds per game, and the cost of one ``apply`` and of one
legal-move listing. Times are CPU seconds of this process (``time.process_time``) so that other work
on a shared machine disturbs them less; wall-clock figures are printed alongside.

    PYTHONPATH=. python benchmarks/stoneage_bench.py [--games 300] [--players 4] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from games.record import simulate
from games.stoneage.plugin import GAME
from games.stoneage.rules import engine, fast
from games.stoneage.rules.players import POLICIES


def playouts(
    n: int, games: int, policy: str, seed: int, fast: bool | None = None
) -> tuple[float, float, list[int], list[int]]:
    rules = GAME.rules
    s0 = rules.new_state(rules.settings([(f"P{i}", "red") for i in range(n)]))
    moves, rounds = [], []
    c0, w0 = time.process_time(), time.perf_counter()
    for g in range(games):
        log: list = []
        players = [POLICIES[policy]((seed + g) * 101 + i) for i in range(n)]
        end = engine.playout(s0, players, random.Random(seed + g), log=log, fast=fast)
        moves.append(len(log))
        rounds.append(end.round)
    return time.process_time() - c0, time.perf_counter() - w0, moves, rounds


def records(n: int, games: int, policy: str, seed: int) -> tuple[float, float, list[int]]:
    moves = []
    c0, w0 = time.process_time(), time.perf_counter()
    for g in range(games):
        rec = simulate(GAME, n, seed=seed + g, policies=policy)
        moves.append(len(rec.moves))
    return time.process_time() - c0, time.perf_counter() - w0, moves


def micro(n: int, seed: int) -> tuple[float, float]:
    """Microseconds per apply() and per full legal-move listing over the states of one game."""
    rec = simulate(GAME, n, seed=seed, policies="random")
    pairs = list(zip(rec.states, rec.moves, strict=False))
    c0 = time.process_time()
    for _ in range(3):
        for s, m in pairs:
            engine.apply(s, m)
    per_apply = (time.process_time() - c0) / (3 * len(pairs)) * 1e6
    c0 = time.process_time()
    for _ in range(3):
        for s, _m in pairs:
            for _x in engine.generate(s):
                pass
    per_list = (time.process_time() - c0) / (3 * len(pairs)) * 1e6
    return per_apply, per_list


def calibration() -> float:
    """CPU seconds for 10 million additions in a Python loop (to compare machines)."""
    c0 = time.process_time()
    x = 0
    for i in range(10_000_000):
        x += i
    return time.process_time() - c0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300, help="games per measurement (default 300)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    n, g = args.players, args.games
    print(f"Stone Age engine benchmark, {n} players, {g} games per line, Python {sys.version.split()[0]}")
    core = "the C core" if fast.available() else "Python (the C core is not built)"
    print(f"playout random: {core}; playout-py: engine.playout(fast=False)")
    print(
        f"{'path':10} {'players':8} {'games/s (CPU)':>14} {'games/s (wall)':>15} {'moves/game':>11} "
        f"{'moves/s (CPU)':>14} {'rounds':>7}"
    )
    for path, policy, f in (("playout", "random", None), ("playout-py", "random", False), ("playout", "greedy", None)):
        cpu, wall, moves, rounds = playouts(n, g, policy, args.seed, f)
        print(
            f"{path:10} {policy:8} {g / cpu:14.0f} {g / wall:15.0f} {statistics.mean(moves):11.0f} "
            f"{sum(moves) / cpu:14.0f} {statistics.mean(rounds):7.1f}"
        )
    rg = max(10, g // 5)
    for policy in ("random", "greedy"):
        cpu, wall, moves = records(n, rg, policy, args.seed)
        print(
            f"{'record':10} {policy:8} {rg / cpu:14.0f} {rg / wall:15.0f} {statistics.mean(moves):11.0f} "
            f"{sum(moves) / cpu:14.0f} {'':>7}"
        )
    per_apply, per_list = micro(n, args.seed)
    print(f"apply(): {per_apply:.1f} µs per move; listing every legal move: {per_list:.1f} µs per state")
    print(f"calibration: 10^7 Python additions take {calibration():.2f} s CPU on this machine")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
