"""Helpers of the web tests: the recorded game's players, entering its moves into a runtime, a real
``table-companion serve`` process and calls to it, reading SSE blocks from a test response."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from games.tribes.rules.game import Game
from session.runtime import GameRuntime

PLAYERS = [("Ann", "red"), ("Bob", "blue"), ("Cid", "yellow")]


def play(runtime: GameRuntime, game: Game, upto: int) -> None:
    """Start a game with the recorded game's players and enter its first ``upto`` moves."""
    runtime.new_game(PLAYERS)
    for move in game.moves[:upto]:
        runtime.submit(move, runtime.state_id)


def start_server(data: Path, *extra: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--data", str(data), "--port", "0", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("listening on "), line + (proc.stderr.read() if proc.poll() is not None else "")
    return proc, line.split()[-1].rstrip("/")


def call(url: str, method: str = "GET", body: dict | None = None, headers: dict | None = None) -> tuple[int, dict]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(
        url, data=data, method=method, headers={"Content-Type": "application/json", **(headers or {})}
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def read_events(resp, want: int, timeout: float = 5.0) -> list[str]:
    """Read SSE blocks from a streaming test response until ``want`` blocks arrived."""
    blocks: list[str] = []
    buf = ""
    end = time.monotonic() + timeout
    it = iter(resp.response)
    while len(blocks) < want and time.monotonic() < end:
        chunk = next(it)
        buf += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in buf:
            block, buf = buf.split("\n\n", 1)
            blocks.append(block)
    return blocks
