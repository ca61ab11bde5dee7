"""Benchmark of the rules engine: complete random games per second on one core, and the time of one
legal-move listing.

    python benchmarks/rules_bench.py [--games N] [--players 4] [--policy random]

Prints games/s, moves/s, moves per game, and the median time of ``rules.legal.overview`` (the listing
the web page and LED strip show) and of ``rules.legal.describe`` over positions from those games.
Runs in one process, one thread (the engine is pure Python).
"""

from __future__ import annotations

import argparse
import statistics
import time

from games.tribes.rules.game import simulate
from games.tribes.rules.legal import describe, overview
from games.tribes.rules.pending import PendingKind


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--policy", default="random")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    simulate(args.players, args.seed + 10_000, args.policy)  # warm-up
    moves = 0
    turns = 0
    unfinished = 0
    sample_states = []
    t0 = time.perf_counter()
    c0 = time.process_time()
    for g in range(args.games):
        game = simulate(args.players, args.seed + g, args.policy)
        moves += len(game.moves)
        turns += game.state.turn + 1
        unfinished += not game.state.is_over
        if g < 20:
            sample_states.extend(s for s in game.states[::25] if s.pending.kind == PendingKind.CHOOSE)
    dt = time.perf_counter() - t0
    cpu = time.process_time() - c0
    print(
        f"{args.games} complete {args.players}-player games ({args.policy} policy) in {dt:.2f} s "
        f"({cpu:.2f} s of CPU time)"
    )
    print(f"  games/s:        {args.games / dt:8.1f}   (per CPU second: {args.games / cpu:.1f})")
    print(f"  moves/s:        {moves / dt:8.0f}   (a move: a decision or a chance outcome)")
    print(f"  moves per game: {moves / args.games:8.1f}   turns per game: {turns / args.games:.1f}")
    print(f"  unfinished:     {unfinished}")

    for name, fn in (("overview", overview), ("describe", describe)):
        times = []
        for s in sample_states[:300]:
            s = s.replace()  # a fresh state without cached facts
            t = time.perf_counter()
            fn(s)
            times.append(time.perf_counter() - t)
        print(
            f"  legal-move listing ({name}): median {statistics.median(times) * 1e3:.2f} ms, "
            f"max {max(times) * 1e3:.2f} ms over {len(times)} positions"
        )


if __name__ == "__main__":
    main()
