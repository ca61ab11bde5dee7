"""Load benchmark of the web server: many open pages and event streams while moves come in.

    python benchmarks/load_bench.py [--game tribes] [--pages 30] [--sse 20] [--seconds 60]
                                    [--rate 2] [--preload 280] [--seed 1]

Starts ``table-companion serve`` (Waitress, its own process, fsync on, like a user's) on a free
port, plays ``--preload`` moves of a simulated game into it, then for ``--seconds`` keeps open:

* ``--pages`` page-like clients: each holds the page's event stream (``/api/events``) and, after
  every state event, fetches the log as the page does (``GET /api/log?since=<state id it has>``,
  merging what comes back; the whole log only at the start);
* ``--sse`` bare event-stream clients (a page left open in the background, the LED follower);

while one mover submits the game's next move ``--rate`` times a second (``POST /api/moves`` with the
state id; a new game when one ends).

Prints, for every submitted move and every stream, the time from the move's acknowledgement (the POST
returning) to the stream delivering that state (``ack→SSE``): median, p99 and worst; the POST and
log-fetch latencies; events missed; and the server process's CPU time over the window (utime + stime
from ``/proc/<pid>/stat``) as a share of one core. Targets (docs/benchmarks.md "Web server under
load"): ack→SSE p99 ≤ 100 ms, server CPU ≤ 25 % of a core. Exit status 1 if a target is missed.
Linux only (``/proc``).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import games  # noqa: E402
from games.record import simulate  # noqa: E402

TARGET_P99_MS = 100.0
TARGET_CPU = 0.25


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pctl(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


class Stream(threading.Thread):
    """One event stream; records when each state id arrived. A page-like one also fetches the log."""

    def __init__(self, port: int, page: bool, stop: threading.Event, whole: bool = False) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.page = page
        self.whole = whole
        self.stop_ = stop
        self.arrived: dict[int, float] = {}
        self.log_ms: list[float] = []
        self.log: dict[str, Any] | None = None
        self.errors: list[str] = []
        self.connected = threading.Event()

    def _get(self, conn: http.client.HTTPConnection, path: str) -> dict[str, Any]:
        conn.request("GET", path)
        r = conn.getresponse()
        body = r.read()
        if r.status != 200:
            raise RuntimeError(f"GET {path}: {r.status} {body[:200]!r}")
        data: dict[str, Any] = json.loads(body)
        return data

    def _fetch_log(self, conn: http.client.HTTPConnection) -> None:
        t0 = time.perf_counter()
        have = None if self.whole else self.log
        d = self._get(conn, f"/api/log?since={have['state_id']}" if have else "/api/log")
        if d.get("since") is not None and have is not None and d["since"] == have["state_id"]:
            d = {
                **d,
                "moves": have["moves"][: d["from"]] + d["moves"],
                "totals": have["totals"][: d["from"] + 1] + d["totals"],
                "entries": have["entries"] + d["entries"],
            }
        self.log = d
        self.log_ms.append((time.perf_counter() - t0) * 1000)

    def run(self) -> None:
        try:
            api = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30) if self.page else None
            if api is not None:
                self._get(api, "/api/state")
                self._fetch_log(api)
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
            sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
            f = sock.makefile("rb")
            status = f.readline()
            if b" 200 " not in status:
                raise RuntimeError(f"events: {status!r}")
            while f.readline() not in (b"\r\n", b""):
                pass
            self.connected.set()
            sid = None
            while not self.stop_.is_set():
                size_line = f.readline()  # chunked transfer: size, data, CRLF
                if not size_line:
                    break
                size = int(size_line.strip() or b"0", 16)
                chunk = f.read(size + 2)[:-2] if size else b""
                now = time.monotonic()
                for line in chunk.split(b"\n"):
                    if line.startswith(b"id: "):
                        sid = int(line[4:])
                        if sid not in self.arrived:
                            self.arrived[sid] = now
                        if api is not None and (self.log is None or self.log["state_id"] < sid):  # the page's loadLog
                            self._fetch_log(api)
            sock.close()
        except Exception as exc:  # a benchmark reports, never hides
            if not self.stop_.is_set():
                self.errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            self.connected.set()


class Mover:
    """Submits the moves of simulated games in order, starting a new game when one ends."""

    def __init__(self, port: int, game_id: str, seed: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.plugin = games.get(game_id)
        self.seed = seed
        self.acks: dict[int, float] = {}
        self.sent: dict[int, float] = {}
        self.post_ms: list[float] = []
        self._new_game()

    def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        data = json.dumps(body).encode()
        t0 = time.perf_counter()
        self.conn.request("POST", path, data, {"Content-Type": "application/json"})
        r = self.conn.getresponse()
        out: dict[str, Any] = json.loads(r.read())
        if r.status != 200:
            raise RuntimeError(f"POST {path}: {r.status} {out}")
        self.post_ms.append((time.perf_counter() - t0) * 1000)
        return out

    def _new_game(self) -> None:
        info = self.plugin.info
        names = ["Ann", "Bob", "Cid"][: max(2, min(3, info.max_players))]
        players = [(n, info.colours[i]) for i, n in enumerate(names)]
        self.record = simulate(self.plugin, players, self.seed, "random")
        self.seed += 1
        self.next = 0
        out = self._post("/api/games", {"players": [{"name": n, "colour": c} for n, c in players]})
        self.state_id = out["view"]["state_id"]

    def step(self) -> None:
        if self.next >= len(self.record.moves):
            self._new_game()
        move = str(self.record.moves[self.next])
        sent = time.monotonic()
        out = self._post("/api/moves", {"state_id": self.state_id, "move": move})
        self.state_id = out["view"]["state_id"]
        self.acks[self.state_id] = time.monotonic()
        self.sent[self.state_id] = sent
        self.next += 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="tribes", choices=games.available(hidden=True))
    ap.add_argument("--pages", type=int, default=30)
    ap.add_argument("--sse", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--rate", type=float, default=2.0, help="moves a second")
    ap.add_argument("--preload", type=int, default=280, help="moves played before the clients open")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--whole-log", action="store_true", help="page clients fetch the whole log after every event (the old page)"
    )
    ap.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="load-bench-") as data:
        proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "--game", args.game, "serve", "--data", data, "--port", "0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if not line.startswith("listening on "):
            print(line + (proc.stderr.read() if proc.stderr else ""), file=sys.stderr)
            return 2
        port = int(line.rsplit(":", 1)[1].strip(" /\n"))
        try:
            return _run(args, proc.pid, port)
        finally:
            proc.terminate()
            proc.wait(timeout=30)


def _run(args: argparse.Namespace, pid: int, port: int) -> int:
    mover = Mover(port, args.game, args.seed)
    for _ in range(args.preload):
        mover.step()
    preloaded = mover.next
    mover.acks.clear()
    mover.sent.clear()
    mover.post_ms.clear()
    stop = threading.Event()
    streams = [Stream(port, True, stop, args.whole_log) for _ in range(args.pages)]
    streams += [Stream(port, False, stop) for _ in range(args.sse)]
    for s in streams:
        s.start()
    for s in streams:
        s.connected.wait(30)
    time.sleep(1.0)  # every page has fetched its log
    cpu0, t0 = cpu_seconds(pid), time.monotonic()
    period = 1.0 / args.rate
    n = 0
    while time.monotonic() - t0 < args.seconds:
        mover.step()
        n += 1
        time.sleep(max(0.0, t0 + n * period - time.monotonic()))
    time.sleep(1.0)  # the last events arrive
    wall = time.monotonic() - t0
    cpu = cpu_seconds(pid) - cpu0
    stop.set()

    lat: list[float] = []  # from the acknowledgement (negative: the event came before the answer)
    full: list[float] = []  # from sending the move
    missed = 0
    for s in streams:
        for sid, acked in mover.acks.items():
            got = s.arrived.get(sid)
            if got is None:
                missed += 1
            else:
                lat.append((got - acked) * 1000)
                full.append((got - mover.sent[sid]) * 1000)
    logs = [ms for s in streams for ms in s.log_ms]
    errors = [e for s in streams for e in s.errors]
    fig = {
        "game": args.game,
        "pages": args.pages,
        "sse": args.sse,
        "seconds": round(wall, 1),
        "moves": len(mover.acks),
        "moves_before": preloaded,
        "ack_to_sse_ms": {"p50": pctl(lat, 0.5), "p99": pctl(lat, 0.99), "max": max(lat, default=float("nan"))},
        "send_to_sse_ms": {"p50": pctl(full, 0.5), "p99": pctl(full, 0.99), "max": max(full, default=float("nan"))},
        "events_missed": missed,
        "post_ms": {"p50": pctl(mover.post_ms, 0.5), "p99": pctl(mover.post_ms, 0.99)},
        "log_fetch_ms": {"p50": pctl(logs, 0.5), "p99": pctl(logs, 0.99), "count": len(logs)},
        "server_cpu_share": cpu / wall,
        "client_errors": errors[:5],
    }
    a, p, lf = fig["ack_to_sse_ms"], fig["post_ms"], fig["log_fetch_ms"]
    how = "the whole log after every event" if args.whole_log else "the log since the state they have"
    print(
        f"web server under load: {args.game}, {args.pages} page clients ({how}) + {args.sse} SSE clients, "
        f"{wall:.0f} s, {fig['moves']} moves at {args.rate:g}/s after {preloaded} moves"
    )
    print(
        f"  ack->SSE   p50 {a['p50']:.1f} ms   p99 {a['p99']:.1f} ms   max {a['max']:.1f} ms   "
        f"({len(lat)} deliveries, {missed} missed)"
    )
    f = fig["send_to_sse_ms"]
    print(
        f"  send->SSE  p50 {f['p50']:.1f} ms   p99 {f['p99']:.1f} ms   max {f['max']:.1f} ms   (from sending the move)"
    )
    print(f"  POST /api/moves   p50 {p['p50']:.1f} ms   p99 {p['p99']:.1f} ms")
    print(f"  GET /api/log?since   p50 {lf['p50']:.1f} ms   p99 {lf['p99']:.1f} ms   ({lf['count']} fetches)")
    print(f"  server CPU   {100 * fig['server_cpu_share']:.1f} % of one core ({cpu:.1f} s over {wall:.0f} s)")
    ok = a["p99"] <= TARGET_P99_MS and fig["server_cpu_share"] <= TARGET_CPU and not missed and not errors
    print(f"  targets (p99 <= {TARGET_P99_MS:g} ms, CPU <= {100 * TARGET_CPU:g} %): {'met' if ok else 'MISSED'}")
    if errors:
        print(f"  client errors: {errors[:3]}")
    if args.json:
        print(json.dumps(fig, indent=1))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
