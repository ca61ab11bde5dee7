"""The demo's memory over a long run, and how long a whole game takes to watch.

Runs ``table-companion demo`` — Tribes through the whole camera pipeline on a rendered table, game
after game with a new seed each — as a separate process for ``--minutes``, samples its resident memory
(RSS, from /proc: Linux; and its peak, VmHWM, between samples too) every ``--every`` seconds and
reads the live view (``GET /api/state``) to see which game is played, how far it is and when it ends.
It prints the figures docs/benchmarks.md reports ("Demo") and writes every sample to ``-o`` (JSON).

    python benchmarks/demo_memory.py --minutes 30 --speed 8 -o benchmarks/results/demo_memory.json

The figures depend on the machine: a game's length is set by how fast it renders and reads a picture
(the load of the machine is printed with them).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def rss_mb(pid: int, field: str = "VmRSS") -> float:
    """The resident memory of process ``pid`` in MB (``VmRSS``; ``VmHWM``: its peak so far, between
    samples too)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


def state(url: str) -> dict[str, Any]:
    """The live view, or {} while the server does not answer."""
    try:
        with urllib.request.urlopen(url + "/api/state", timeout=5) as resp:
            data: dict[str, Any] = json.loads(resp.read())
            return data
    except (OSError, ValueError):
        return {}


def slope(points: list[tuple[float, float]]) -> float:
    """The least-squares slope of ``(x, y)`` points (0 for fewer than two)."""
    n = len(points)
    if n < 2:
        return 0.0
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=30.0, help="how long to run the demo (default 30)")
    ap.add_argument("--speed", type=float, default=8.0, help="the demo's speed: 1, 2, 4 or 8 (default 8, the top)")
    ap.add_argument("--every", type=float, default=10.0, help="seconds between samples (default 10)")
    ap.add_argument("--vision", default="recognizer", choices=("recognizer", "truth"))
    ap.add_argument("-o", "--output", help="write the samples and figures here (JSON)")
    args = ap.parse_args(argv)
    seconds = args.minutes * 60
    cmd = [sys.executable, "-m", "companion", "demo", "--no-browser", "--port", "0", "--speed", f"{args.speed:g}"]
    cmd += ["--vision", args.vision, "--seconds", f"{seconds + 5:g}"]
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    url = ""
    for line in proc.stdout:
        print("  demo:", line.rstrip(), flush=True)
        if line.startswith("open "):
            url = line.split()[1].rstrip("/")
            break
    if not url:
        print("the demo did not start", file=sys.stderr)
        return 1
    started = time.monotonic() - t0
    said: list[str] = []  # what the demo printed after starting (read on, so that its pipe never fills)

    def drain() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            said.append(line.rstrip())

    threading.Thread(target=drain, daemon=True).start()
    samples: list[dict[str, Any]] = []
    games: list[dict[str, Any]] = []
    journal, over_seen = None, False
    peak = 0.0
    try:
        while proc.poll() is None and time.monotonic() - t0 < seconds + started:
            t = time.monotonic() - t0
            view = state(url)
            mem = rss_mb(proc.pid)
            peak = max(peak, rss_mb(proc.pid, "VmHWM"))
            if view.get("has_game"):
                if view.get("journal") != journal:
                    journal, over_seen = view.get("journal"), False
                    games.append({"journal": journal, "started_s": round(t, 1), "over_s": None, "moves": 0})
                games[-1]["moves"] = view.get("moves", 0)
                if view.get("over") and not over_seen:
                    over_seen = True
                    games[-1]["over_s"] = round(t, 1)
            samples.append(
                {"t_s": round(t, 1), "rss_mb": round(mem, 1), "moves": view.get("moves"), "game": len(games)}
            )
            if len(samples) % 6 == 1:
                print(f"{t / 60:6.1f} min  RSS {mem:6.1f} MB  game {len(games)}  moves {view.get('moves')}", flush=True)
            time.sleep(args.every)
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
    after = [(s["t_s"] / 60, s["rss_mb"]) for s in samples if s["t_s"] >= started + 60]
    second_half = after[len(after) // 2 :]
    finished = [g for g in games if g["over_s"] is not None]
    lengths = [round((g["over_s"] - g["started_s"]) / 60, 1) for g in finished]
    figures = {
        "minutes": round((samples[-1]["t_s"] - samples[0]["t_s"]) / 60, 1) if samples else 0,
        "rss_first_minute_mb": round(max((m for t, m in after if t <= started / 60 + 2), default=0.0), 1),
        "rss_max_mb": round(max((s["rss_mb"] for s in samples), default=0.0), 1),
        "rss_peak_mb": round(peak, 1),  # VmHWM at the last sample: the peak between samples too
        "rss_end_mb": samples[-1]["rss_mb"] if samples else 0.0,
        "slope_second_half_mb_per_min": round(slope(second_half), 2),
        "games_started": len(games),
        "games_finished": len(finished),
        "game_minutes": lengths,
        "demo_said": said[-20:],
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "cpus": os.cpu_count(),
    }
    print(json.dumps(figures, indent=1))
    if args.output:
        doc = {
            "command": " ".join(["python", "benchmarks/demo_memory.py", *(argv or sys.argv[1:])]),
            "figures": figures,
        }
        doc.update(samples=samples, games=games, demo_command=" ".join(cmd[1:]))
        Path(args.output).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
