"""Benchmark of the Origo engine: complete simulated games per second (random and greedy players,
2 to 5 players) and simulated battles per second, on one core.

    PYTHONPATH=. python benchmarks/origo_bench.py [--games N] [--battles N] [--seed S]

Prints, per policy and player count, games/s, moves/s and moves per game; then battles/s and battle
moves/s (random battlefields on the shipped board, each side answering at random), and the calculator's
``play_out`` calls per second. Pure Python, one process, one thread.
"""

from __future__ import annotations

import argparse
import random
import time

import games
from games.origo.rules import battle as calc
from games.origo.sim import battles
from games.record import simulate


def bench_games(policy: str, players: int, n: int, seed: int) -> tuple[float, float, float]:
    game = games.get("origo")
    simulate(game, players, seed=seed + 99_999, policies=policy)  # warm-up
    moves = 0
    t0 = time.perf_counter()
    for g in range(n):
        rec = simulate(game, players, seed=seed + g, policies=policy)
        assert game.rules.is_over(rec.state)
        moves += len(rec.moves)
    dt = time.perf_counter() - t0
    return n / dt, moves / dt, moves / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="games per policy and player count")
    ap.add_argument("--battles", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    print(f"{'policy':8} {'players':>7} {'games/s':>9} {'moves/s':>9} {'moves/game':>10}")
    for policy in ("random", "greedy"):
        for players in (2, 3, 4, 5):
            gps, mps, mpg = bench_games(policy, players, args.games, args.seed)
            print(f"{policy:8} {players:7d} {gps:9.1f} {mps:9.0f} {mpg:10.1f}")

    battles(range(10))  # warm-up
    t0 = time.perf_counter()
    moves = battles(range(args.seed, args.seed + args.battles))
    dt = time.perf_counter() - t0
    print(
        f"battles: {args.battles / dt:.0f} battles/s, {moves / dt:.0f} battle moves/s "
        f"({moves / args.battles:.1f} moves per battle, random battlefields on the shipped board)"
    )

    rng = random.Random(args.seed)
    cases = [(rng.randint(2, 12), rng.randint(1, 12), rng.randint(0, 10), rng.randint(0, 10)) for _ in range(20_000)]
    t0 = time.perf_counter()
    for a, d, la, ld in cases:
        calc.play_out(a, d, la, ld)
    dt = time.perf_counter() - t0
    print(f"calculator: {len(cases) / dt:.0f} play_out calls/s")


if __name__ == "__main__":
    main()
