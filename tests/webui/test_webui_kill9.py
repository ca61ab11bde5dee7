"""Crash safety: a real server process (``table-companion serve``) is killed with SIGKILL at random
moments while moves are being submitted; after each restart every move the API acknowledged is
there, in order, and the journal reads back without error."""

from __future__ import annotations

import http.client
import os
import random
import re
import signal
import threading
import time
import urllib.error
import urllib.request

from games.tribes.rules.game import Game
from tests.webui.webui_helpers import PLAYERS, call, start_server

ROUNDS = 6




def test_kill9_loses_no_acknowledged_move(tmp_path, recorded: Game):
    rng = random.Random(4)
    data = tmp_path / "data"
    acked: list[int] = []  # indexes of the moves the server acknowledged
    first = True
    for _ in range(ROUNDS):
        proc, base = start_server(data)
        try:
            if first:
                status, _ = call(
                    base + "/api/games", "POST", {"players": [{"name": n, "colour": c} for n, c in PLAYERS]}
                )
                assert status == 200
                first = False
            status, view = call(base + "/api/state")
            done = view["moves"]
            # after a restart the game holds every acknowledged move (and maybe the one in flight)
            log = call(base + "/api/log")[1]["moves"]
            assert [m["move"] for m in log] == [str(m) for m in recorded.moves[:done]]
            assert not acked or done in (acked[-1] + 1, acked[-1] + 2)
            stop = threading.Event()

            def submit(start: int, sid: int, base: str = base, stop: threading.Event = stop) -> None:
                for i in range(start, len(recorded.moves)):
                    if stop.is_set():
                        return
                    try:
                        status, body = call(
                            base + "/api/moves", "POST", {"state_id": sid, "move": str(recorded.moves[i])}
                        )
                    except (urllib.error.URLError, ConnectionError, OSError, http.client.HTTPException):
                        return  # the server died under the request (also mid-body: IncompleteRead): not acknowledged
                    assert status == 200, body
                    acked.append(i)
                    sid = body["view"]["state_id"]

            worker = threading.Thread(target=submit, args=(done, view["state_id"]))
            worker.start()
            time.sleep(rng.uniform(0.05, 0.6))
        finally:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            stop.set()
            worker.join()
            proc.stdout.close()
            proc.stderr.close()
    assert len(acked) > 10  # the rounds did submit moves
    proc, base = start_server(data)
    try:
        log = call(base + "/api/log")[1]["moves"]
        assert [m["move"] for m in log][: acked[-1] + 1] == [str(m) for m in recorded.moves[: acked[-1] + 1]]
    finally:
        proc.terminate()
        proc.wait()
        proc.stdout.close()
        proc.stderr.close()


def test_serve_lan_needs_the_pairing_code_from_the_network(tmp_path):
    """A real server on this computer's network address: a client from that address (not loopback)
    needs the printed pairing code to read or write; the host itself needs nothing."""
    from webui.pairing import lan_addresses

    addrs = lan_addresses()
    assert addrs, "this test needs a network address other than loopback"
    proc, base = start_server(tmp_path / "data", "--lan", "--host", addrs[0])
    try:
        out = ""
        deadline = time.monotonic() + 30
        while "pairing code:" not in out and time.monotonic() < deadline:
            line = proc.stdout.readline()
            assert line, out + proc.stderr.read()
            out += line
        code = out.split("pairing code:")[1].split()[0]
        assert re.fullmatch(r"[A-Z2-9]{4}(-[A-Z2-9]{4}){3}", code)  # 80 bits
        players = {"players": [{"name": "A"}, {"name": "B"}]}
        status, body = call(base + "/api/games", "POST", players)
        assert status == 401 and body["error"]["type"] == "unauthorized"
        assert call(base + "/api/state")[0] == 401  # reading too
        status, _ = call(base + "/api/games", "POST", players, {"X-Pairing-Token": code.lower()})
        assert status == 200
        assert call(base + "/api/state", headers={"X-Pairing-Token": code})[0] == 200
        # a DNS-rebinding page names its own host: refused before anything is read
        status, body = call(base + "/api/state", headers={"X-Pairing-Token": code, "Host": "evil.example"})
        assert status == 403 and "Host" in body["error"]["message"]
    finally:
        proc.terminate()
        proc.wait()
        proc.stdout.close()
        proc.stderr.close()
