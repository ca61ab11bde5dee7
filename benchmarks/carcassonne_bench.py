"""Hunters & Gatherers benchmark: random 4-player games per second on one core (target >= 500) and the
legal-placement listing time late in a game (target <= 2 ms median).

Run from the repository root: ``PYTHONPATH=. python benchmarks/carcassonne_bench.py [--games N]``.
Prints the figures; docs/benchmarks.md ("Carcassonne – Hunters & Gatherers") records them. Not a test.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from collections.abc import Callable

import games
from games.carcassonne.plugin import prompt
from games.carcassonne.rules.engine import apply, new_game, placements
from games.carcassonne.rules.legal import legal_moves, sample_chance
from games.carcassonne.rules.players import RandomPlayer
from games.carcassonne.rules.state import Phase, State
from games.record import simulate

PLAYERS = [("Rot", "red"), ("Blau", "blue"), ("Gelb", "yellow"), ("Grün", "green")]


def play(seed: int, keep: bool = False) -> tuple[State, list[State]]:
    """One random 4-player game on the engine (chance drawn with a seeded generator)."""
    rng = random.Random(seed)
    s = new_game(PLAYERS)
    pols = [RandomPlayer(seed * 31 + i) for i in range(4)]
    kept = []
    while s.phase is not Phase.OVER:
        s = apply(s, sample_chance(s, rng) if s.is_chance else pols[s.to_move].choose(s))
        if keep:
            kept.append(s)
    return s, kept


def games_per_second(n: int, per: int = 10) -> dict[str, float]:
    """Random games per second over ``n`` games in blocks of ``per`` after a warm-up: the best and the
    median block, by wall clock and by this process's CPU time (on a shared machine the best block is
    the figure least disturbed by other work, as timeit takes the minimum)."""
    play(0)
    gc.collect()
    blocks = max(1, n // per)
    wall, cpu = [], []
    moves = 0
    seed = 1
    for _ in range(blocks):
        t, c = time.perf_counter(), time.process_time()
        for _ in range(per):
            end, _ = play(seed)
            moves += 2 * end.ntiles + len(end.removed)
            seed += 1
        wall.append(per / (time.perf_counter() - t))
        cpu.append(per / (time.process_time() - c))
    return {
        "wall_best": max(wall),
        "wall_median": statistics.median(wall),
        "cpu_best": max(cpu),
        "cpu_median": statistics.median(cpu),
        "moves": moves / (per * blocks),
    }


def simulate_per_second(n: int) -> float:
    """Games per second through the generic chassis path (games.record.simulate: journal kept)."""
    game = games.get("carcassonne")
    simulate(game, 4, seed=0)
    t = time.perf_counter()
    for seed in range(1, n + 1):
        simulate(game, 4, seed=seed)
    return n / (time.perf_counter() - t)


def late_states(n_games: int, after: int = 60) -> list[State]:
    """States in which a land tile waits to be laid, from the ``after``-th tile on."""
    out = []
    for seed in range(500, 500 + n_games):
        _, states = play(seed, keep=True)
        out += [s for s in states if s.phase is Phase.PLACE and s.ntiles >= after]
    return out


def median_us(fn: Callable[[State], object], states: list[State], repeat: int = 5) -> tuple[float, float]:
    """Median and 95th percentile of the per-state best-of-``repeat`` time of ``fn(state)``, in µs."""
    times = []
    for s in states:
        best = float("inf")
        for _ in range(repeat):
            t = time.perf_counter()
            fn(s)
            best = min(best, time.perf_counter() - t)
        times.append(best * 1e6)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300, help="games for the games-per-second figure")
    ap.add_argument("--late", type=int, default=20, help="games whose late states are timed")
    args = ap.parse_args()
    g = games_per_second(args.games)
    print(
        f"random 4-player games (engine, {g['moves']:.0f} moves/game, blocks of 10 games): "
        f"wall {g['wall_median']:.0f} games/s median, {g['wall_best']:.0f} best block; "
        f"CPU time {g['cpu_median']:.0f} median, {g['cpu_best']:.0f} best block"
    )
    sps = simulate_per_second(max(20, args.games // 5))
    print(f"random 4-player games (games.record.simulate, journal and every state kept): {sps:.0f} games/s wall")
    states = late_states(args.late)
    sizes = [len(placements(s)) for s in states]
    print(
        f"late states timed: {len(states)} (tile 60 on; {statistics.median(sizes):.0f} legal placements median, "
        f"frontier {statistics.median(len(s.frontier) for s in states):.0f} squares)"
    )
    med, p95 = median_us(placements, states)
    print(f"legal-placement listing (position x rotation): median {med / 1000:.3f} ms, p95 {p95 / 1000:.3f} ms")
    med, p95 = median_us(lambda s: legal_moves(s).count(), states, 2)
    print(f"every legal move incl. figure spots (count):    median {med / 1000:.3f} ms, p95 {p95 / 1000:.3f} ms")
    med, p95 = median_us(prompt, states, 2)
    print(f"prompt: placements with spots and refusals:     median {med / 1000:.3f} ms, p95 {p95 / 1000:.3f} ms")


if __name__ == "__main__":
    main()
