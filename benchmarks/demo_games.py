"""Does every demo game reach "game over" in the record? The camera demo's games, read one after the
other in this process exactly as ``table-companion demo --speed 8`` reads them — rendered 1920 px
pictures, the whole camera pipeline, the tracker link, the simulated players answering the camera's
questions and correcting the record (``companion.play.DemoAnswers``) — but on the game's own clock
instead of the wall clock (a question is answered after ``--delay`` seconds of game time), so the
result does not depend on how fast the machine renders.

    python benchmarks/demo_games.py --seeds 1-8 -o benchmarks/results/demo_games.json

Prints, per seed: the moves recorded and the game's, whether the record equals the game at the end,
the questions answered, the corrections by hand (``fixed``; ``noticed``: a record that went astray
without a question), the frames shown after the last one while something was left to settle, and
the seconds it took.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.play import DEMO_PLAYERS, sim_session  # noqa: E402


def seeds(text: str) -> list[int]:
    """``1-8`` or ``2,4,5``."""
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out += list(range(int(a), int(b or a) + 1))
    return out


def play(seed: int, players: int, speed: float, delay: float, width: int) -> dict[str, Any]:
    """One demo game to its end; what became of the record."""
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="demo-games-") as d:
        s = sim_session(d, players=players, seed=seed, width=width, vision="recognizer", answer_after=delay)
        frames, answers = s.frames, s.answers
        assert answers is not None
        answers.clock = lambda: frames.frame.time if frames.frame is not None else 0.0
        frames.speed = speed
        for f in frames:
            s.link.feed(s.recognize(f))
        record = [str(m) for m in s.runtime.snapshot().moves]
        truth = [str(m) for m in s.game.moves]
        out = {
            "seed": seed,
            "moves_recorded": len(record),
            "moves_game": len(truth),
            "equal": record == truth,
            "answered": answers.answered,
            "fixed": answers.fixed,
            "noticed": answers.noticed,
            "lingered_frames": frames.lingered,
            "frames_read": frames.shown,
            "seconds": round(time.monotonic() - t0, 1),
        }
        s.runtime.close()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="1-8", help="the games' seeds: 1-8 or 2,4,5 (the demo plays 1, 2, 3, …)")
    ap.add_argument("--players", type=int, default=3, choices=range(2, len(DEMO_PLAYERS) + 1))
    ap.add_argument("--speed", type=float, default=8.0, help="the demo's speed (default 8, the top)")
    ap.add_argument("--delay", type=float, default=3.0, help="seconds of game time a question stays open")
    ap.add_argument("--width", type=int, default=1920, help="picture width (default 1920, the demo's)")
    ap.add_argument("-o", "--output", help="write the results here (JSON)")
    args = ap.parse_args(argv)
    rows = []
    for seed in seeds(args.seeds):
        r = play(seed, args.players, args.speed, args.delay, args.width)
        rows.append(r)
        print(json.dumps(r), flush=True)
    over = sum(r["equal"] for r in rows)
    summary = {
        "games": len(rows),
        "record_equals_game": over,
        "answered": sum(r["answered"] for r in rows),
        "fixed": sum(r["fixed"] for r in rows),
        "noticed": sum(r["noticed"] for r in rows),
    }
    print(json.dumps(summary))
    if args.output:
        Path(args.output).write_text(json.dumps({"args": vars(args), "games": rows, **summary}, indent=1) + "\n")
    return 0 if over == len(rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
