"""The web companion against an attacker and a careless user (issue 15): absurd bodies on every write
route, the Host allow-list (DNS rebinding), writes from another site, pairing for every read of game
data or camera pictures and every write from anything but loopback, its rate limit and constant-time
compare, the security headers, a 10 MB chunked body, the cap on live streams, stalled requests that
hold no thread, and the incremental log."""

from __future__ import annotations

import hmac
import io
import json
import socket
import time

import pytest

from tests.webui.test_webui_api import err
from tests.webui.webui_helpers import PLAYERS, play
from webui import security
from webui.app import create_app
from webui.camera import FrameHub, attach
from webui.pairing import ALPHABET, new_token
from webui.server import LiveServer

CODE = "K7QD-M2XP-4RTA-9WZB"
PHONE = {"REMOTE_ADDR": "192.0.2.7"}  # a phone on the network (RFC 5737); the server is 192.0.2.2
AT_LAN = {"Host": "192.0.2.2:8321"}


@pytest.fixture
def lan_app(runtime):
    return create_app(runtime, {"PAIRING_TOKEN": CODE, "SERVE_NETWORK": True, "ALLOWED_HOSTS": ["tablebox"]})


def phone(client, method: str, path: str, headers: dict | None = None, **kw):
    return client.open(path, method=method, environ_base=PHONE, headers={**AT_LAN, **(headers or {})}, **kw)


# --- bodies no route may choke on ------------------------------------------------------------------
WRITES = [
    ("POST", "/api/moves"),
    ("POST", "/api/undo"),
    ("POST", "/api/corrections"),
    ("POST", "/api/games"),
    ("POST", "/api/profile/validate"),
    ("PUT", "/api/profile"),
    ("POST", "/api/pair"),
    ("POST", "/api/tracker/answer"),
    ("POST", "/api/tracker/recheck"),
    ("POST", "/api/camera/enroll"),
]
BODIES = {
    "nested 1000 deep (2 KB)": (b"[" * 1000 + b"]" * 1000, "1000 deep"),
    "nested objects": (b'{"a":' * 500 + b"1" + b"}" * 500, "500 deep"),
    "an integer of 5000 digits": (b'{"state_id": ' + b"9" * 5000 + b"}", "5000 digits"),
    "NaN": (b'{"state_id": NaN}', "NaN"),
    "not UTF-8": (b'{"move": "\xff\xfe"}', "not UTF-8"),
    "not JSON": (b"{", "not valid JSON"),
}


@pytest.mark.parametrize("body", BODIES, ids=list(BODIES))
@pytest.mark.parametrize(("method", "path"), WRITES, ids=[p for _, p in WRITES])
def test_an_absurd_body_is_a_typed_400_on_every_write_route(runtime, recorded, method, path, body):
    play(runtime, recorded, 3)
    app = create_app(runtime)
    attach(app, _NoTracker(), FrameHub(), enroll=lambda: {"state": "enrolled"}, enrollment_status=lambda: None)
    data, words = BODIES[body]
    r = app.test_client().open(path, method=method, data=data, content_type="application/json")
    e = err(r, 400, "bad_request")
    assert e["field"] == "body" and words in e["message"]


class _NoTracker:
    def subscribe(self, fn):
        return lambda: None

    def status_dict(self):
        return {"kind": "idle", "message": "", "prompt": None, "desync": None}


def test_a_10_mb_chunked_body_is_a_typed_413_on_the_real_server(runtime):
    server = LiveServer(create_app(runtime)).start()
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=20) as s:
            s.sendall(
                b"POST /api/moves HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            )
            chunk = b"x" * 65536
            for _ in range(160):  # 10 MB
                s.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            s.sendall(b"0\r\n\r\n")
            answer = b""
            while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
                got = s.recv(65536)
                if not got:
                    break
                answer += got
        head, _, rest = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 413"), head
        assert b'"type":"payload_too_large"' in rest
    finally:
        server.stop()


# --- the Host allow-list and the Origin of writes -------------------------------------------------
@pytest.mark.parametrize("host", ["evil.example", "evil.example:8321", "192.0.2.2:8321", "localhost.evil.example"])
def test_a_loopback_server_answers_only_to_loopback_names(client, host):
    for path in ("/", "/api/state", "/api/journal", "/camera.jpg", "/pair"):
        e = err(client.get(path, headers={"Host": host}), 403, "forbidden")
        assert "Host" in e["message"]


@pytest.mark.parametrize("host", ["localhost", "localhost:8321", "127.0.0.1:8321", "127.3.4.5", "[::1]:8321"])
def test_loopback_names_are_fine(client, host):
    assert client.get("/api/state", headers={"Host": host}).status_code == 200


def test_a_network_server_also_answers_to_its_addresses_and_names_but_not_others(lan_app):
    c = lan_app.test_client()
    for host in ("192.0.2.2:8321", "10.0.0.5", "[fd00::2]:8321", "tablebox", "TableBox:8321", "localhost"):
        assert c.get("/api/state", headers={"Host": host}).status_code == 200, host
    for host in ("evil.example", "tablebox.evil.example", ""):
        err(c.get("/api/state", headers={"Host": host}), 403, "forbidden")


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "http://evil.example:8321", "file://"])
def test_a_write_from_another_sites_page_is_refused(client, origin):
    r = client.post("/api/games", json={"players": [{"name": "A"}, {"name": "B"}]}, headers={"Origin": origin})
    err(r, 403, "forbidden")
    ok = client.post(
        "/api/games", json={"players": [{"name": "A"}, {"name": "B"}]}, headers={"Origin": "http://localhost:8321"}
    )
    assert ok.status_code == 200


# --- pairing ------------------------------------------------------------------------------------------
GAME_DATA = [
    "/api/state",
    "/api/legal",
    "/api/chance",
    "/api/log",
    "/api/journal",
    "/api/positions/0",
    "/api/catalog",
    "/api/profile",
    "/api/leds",
    "/api/events",
    "/api/camera/enrollment",
]
PUBLIC = [
    "/",
    "/static/shell.js",
    "/static/style.css",
    "/games/tribes/static/tribes.js",
    "/api/openapi.json",
    "/api/pair",
]


def test_a_phone_that_is_not_paired_gets_the_page_shell_and_nothing_else(lan_app, runtime, recorded):
    play(runtime, recorded, 3)
    before = runtime.state_id
    c = lan_app.test_client()
    for path in GAME_DATA:
        err(phone(c, "GET", path), 401, "unauthorized")
    for path in PUBLIC:
        with phone(c, "GET", path) as r:
            assert r.status_code == 200, path
    assert phone(c, "GET", "/api/pair").get_json() == {"paired": False, "needed": True}
    move = {"state_id": before, "move": str(recorded.moves[3])}
    err(phone(c, "POST", "/api/moves", json=move), 401, "unauthorized")
    err(phone(c, "GET", "/pair"), 403, "forbidden")  # the code is shown on the host only
    assert runtime.state_id == before


def test_camera_pictures_need_pairing(lan_app, runtime):
    frames = FrameHub()
    frames.publish(b"\xff\xd8jpeg")
    attach(lan_app, _NoTracker(), frames)
    c = lan_app.test_client()
    for path in ("/camera.jpg", "/camera.mjpg", "/api/tracker", "/api/tracker/events"):
        err(phone(c, "GET", path), 401, "unauthorized")
    assert phone(c, "GET", "/camera.jpg", headers={"X-Pairing-Token": CODE}).data == b"\xff\xd8jpeg"
    assert c.get("/camera.jpg").data == b"\xff\xd8jpeg"  # the host itself


def test_pairing_once_sets_a_cookie_that_pairs_that_browser(lan_app, runtime, recorded):
    play(runtime, recorded, 3)
    c = lan_app.test_client()
    err(phone(c, "POST", "/api/pair", json={"code": "AAAA-BBBB-CCCC-DDDD"}), 401, "unauthorized")
    r = phone(c, "POST", "/api/pair", json={"code": "k7qd m2xp 4rta 9wzb"})  # any case, any separators
    assert r.status_code == 200 and r.get_json() == {"paired": True, "needed": True}
    cookie = r.headers["Set-Cookie"]
    assert cookie.startswith(f"{security.COOKIE}=") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert CODE not in cookie and CODE.replace("-", "") not in cookie
    assert phone(c, "GET", "/api/state").status_code == 200  # the test client keeps the cookie
    assert phone(c, "GET", "/api/pair").get_json() == {"paired": True, "needed": True}
    move = {"state_id": runtime.state_id, "move": str(recorded.moves[3])}
    assert phone(c, "POST", "/api/moves", json=move).status_code == 200
    other = lan_app.test_client()
    other.set_cookie(security.COOKIE, "0" * 64, domain="192.0.2.2")
    err(phone(other, "GET", "/api/state"), 401, "unauthorized")


def test_without_a_pairing_code_nothing_but_the_host_gets_in(runtime):
    c = create_app(runtime, {"SERVE_NETWORK": True}).test_client()
    err(phone(c, "GET", "/api/state"), 403, "forbidden")
    err(phone(c, "GET", "/api/state", headers={"X-Pairing-Token": CODE}), 403, "forbidden")
    assert c.get("/api/state").status_code == 200


def test_wrong_codes_are_rate_limited_per_address_and_overall(lan_app):
    c = lan_app.test_client()
    limiter = lan_app.extensions["companion"]["pairing"].limiter
    for _ in range(limiter.per_client):
        err(phone(c, "GET", "/api/state", headers={"X-Pairing-Token": "WRONG"}), 401, "unauthorized")
    r = phone(c, "POST", "/api/pair", json={"code": CODE})  # even the right code, while blocked
    e = err(r, 429, "too_many_requests")
    assert 1 <= int(r.headers["Retry-After"]) <= 61 and e["retry_after"] == int(r.headers["Retry-After"])
    assert c.get("/api/state").status_code == 200  # the host is never locked out
    other = {"REMOTE_ADDR": "192.0.2.8"}
    assert c.get("/api/state", environ_base=other, headers={**AT_LAN, "X-Pairing-Token": CODE}).status_code == 200
    # overall: many addresses, few tries each
    for i in range(limiter.overall):
        limiter.failed(f"198.51.100.{i % 250}")
    r = c.get("/api/state", environ_base={"REMOTE_ADDR": "203.0.113.9"}, headers={**AT_LAN, "X-Pairing-Token": CODE})
    err(r, 429, "too_many_requests")


def test_loopback_is_only_this_computer():
    for addr in ("127.0.0.1", "127.8.9.1", "::1", "::ffff:127.0.0.1"):
        assert security.is_loopback(addr), addr
    for addr in ("192.0.2.7", "::ffff:192.0.2.7", "fd00::2", "0.0.0.0", "", None, "localhost", "garbage"):
        assert not security.is_loopback(addr), addr


def test_the_limiter_forgets_after_its_window():
    lim = security.FailureLimiter(per_client=2, overall=100, window=60)
    lim.failed("a", now=0.0)
    lim.failed("a", now=1.0)
    assert lim.blocked("a", now=2.0) == pytest.approx(58.0) and lim.blocked("b", now=2.0) == 0
    assert lim.blocked("a", now=60.5) == 0  # the first one has left the window


def test_the_code_is_compared_in_constant_time(monkeypatch):
    calls = []
    real = hmac.compare_digest
    monkeypatch.setattr(security.hmac, "compare_digest", lambda a, b: calls.append((len(a), len(b))) or real(a, b))
    p = security.Pairing(CODE)
    assert p.code_ok("k7qdm2xp4rta9wzb") and not p.code_ok("K7QD-M2XP-4RTA-9WZC") and not p.code_ok("")
    assert calls == [(32, 32)] * 3  # HMAC digests of equal length, whatever was given


def test_the_pairing_code_has_at_least_64_bits_and_is_easy_to_type():
    codes = {new_token() for _ in range(200)}
    assert len(codes) == 200
    for code in codes:
        groups = code.split("-")
        assert [len(g) for g in groups] == [4, 4, 4, 4] and set("".join(groups)) <= set(ALPHABET)
    assert len(set(ALPHABET)) == 32 and not set("01IO") & set(ALPHABET)  # nothing to mistake
    assert len(set(ALPHABET)) ** 16 >= 2**80


# --- headers ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/", "/api/state", "/api/nothing", "/static/shell.js", "/pair"])
def test_every_answer_has_the_security_headers(client, path):
    with client.get(path) as r:
        headers = r.headers
    check_headers(headers)


def check_headers(headers) -> None:
    csp = headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe-eval" not in csp
    assert "'unsafe-inline'" not in csp.split("script-src")[1].split(";")[0]
    assert headers["X-Frame-Options"] == "DENY" and headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"


# --- live streams and stalled requests -------------------------------------------------------------
def test_live_streams_are_capped_and_give_their_place_back(runtime):
    app = create_app(runtime, {"MAX_STREAMS": 2, "SSE_HEARTBEAT": 0.1})
    frames = FrameHub()
    attach(app, _NoTracker(), frames)
    c = app.test_client()
    a = c.get("/api/events", buffered=False)
    b = c.get("/camera.mjpg", buffered=False)
    assert a.status_code == 200 and b.status_code == 200
    for path in ("/api/events", "/api/tracker/events", "/camera.mjpg"):
        r = c.get(path)
        e = err(r, 503, "busy")
        assert r.headers["Retry-After"] == "5" and "2 live" in e["message"]
    hub = app.extensions["companion"]["hub"]
    assert hub.listeners == 1  # the refused stream left nothing behind
    a.close()
    assert hub.listeners == 0
    third = c.get("/api/tracker/events", buffered=False)
    assert third.status_code == 200
    third.close()
    b.close()
    frames.close()
    assert app.extensions["companion"]["streams"].open == 0


def test_stalled_requests_hold_no_thread_and_are_dropped(runtime, monkeypatch):
    monkeypatch.setattr("webui.server.CHANNEL_TIMEOUT", 1)
    monkeypatch.setattr("webui.server.CLEANUP_INTERVAL", 1)
    server = LiveServer(create_app(runtime), threads=2).start()
    stalled = []
    try:
        for _ in range(50):  # slow-loris: headers and half a body, then nothing
            s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            s.sendall(
                b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b'Content-Length: 1000\r\n\r\n{"players":'
            )
            stalled.append(s)
        t0 = time.monotonic()
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
            s.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            assert s.recv(100).startswith(b"HTTP/1.1 200")
        assert time.monotonic() - t0 < 2.0  # 2 worker threads, 50 stalled requests: answered at once
        t0 = time.monotonic()
        assert stalled[0].recv(100) == b""  # closed by the server, not by us
        assert time.monotonic() - t0 < 8.0
    finally:
        for s in stalled:
            s.close()
        server.stop()


# --- the incremental log ----------------------------------------------------------------------------
def merged(c, have: dict) -> dict:
    r = c.get(f"/api/log?since={have['state_id']}")
    d = r.get_json()
    if d["since"] is None:
        return d
    assert d["since"] == have["state_id"]
    return {
        **d,
        "moves": have["moves"][: d["from"]] + d["moves"],
        "totals": have["totals"][: d["from"] + 1] + d["totals"],
        "entries": have["entries"] + d["entries"],
    }


def test_the_log_since_a_state_is_only_what_came_after_and_merges_into_the_whole(client, runtime, recorded):
    play(runtime, recorded, 6)
    have = client.get("/api/log").get_json()
    assert have["since"] is None and have["from"] == 0 and len(have["totals"]) == 7
    for i in range(6, 12):
        runtime.submit(recorded.moves[i], runtime.state_id)
        part = client.get(f"/api/log?since={have['state_id']}").get_json()
        assert part["since"] == have["state_id"] and part["from"] == i and len(part["moves"]) == 1
        assert len(part["totals"]) == 1 and len(part["entries"]) == 1
        have = (
            merged(client, have)
            if False
            else {
                **part,
                "moves": have["moves"] + part["moves"],
                "totals": have["totals"] + part["totals"],
                "entries": have["entries"] + part["entries"],
            }
        )
        whole = client.get("/api/log").get_json()
        assert {k: have[k] for k in ("moves", "totals", "entries")} == {
            k: whole[k] for k in ("moves", "totals", "entries")
        }
    # an undo or a correction since: the whole log
    if runtime.undo_status()[0]:
        runtime.undo(runtime.state_id)
    else:
        runtime.correct(0, recorded.moves[0], runtime.state_id)
    again = client.get(f"/api/log?since={have['state_id']}").get_json()
    assert again["since"] is None and again["from"] == 0
    assert again == {**client.get("/api/log").get_json()}
    # an id of another game, one in the future, or nonsense
    runtime.new_game(PLAYERS)
    assert client.get(f"/api/log?since={have['state_id']}").get_json()["since"] is None
    assert client.get(f"/api/log?since={runtime.state_id + 5}").get_json()["since"] is None
    err(client.get("/api/log?since=x"), 400, "bad_request")


def test_the_log_is_made_once_per_state_and_has_an_etag(client, runtime, recorded, monkeypatch):
    play(runtime, recorded, 20)
    made = []
    import webui.api

    real = webui.api.log_view
    monkeypatch.setattr(webui.api, "log_view", lambda snap, since=None: made.append(since) or real(snap, since))
    answers = {client.get("/api/log?since=19").data for _ in range(30)}  # thirty pages after one move
    assert len(answers) == 1 and made == [19]
    r = client.get("/api/log?since=19")
    tag = r.headers["ETag"]
    assert client.get("/api/log?since=19", headers={"If-None-Match": tag}).status_code == 304
    runtime.submit(recorded.moves[20], runtime.state_id)
    assert client.get("/api/log?since=19", headers={"If-None-Match": tag}).status_code == 200


def test_the_log_of_thirty_pages_costs_little(client, runtime, recorded):
    """Thirty pages after each of 20 moves of a 300-move game: far below what a whole log each costs."""
    play(runtime, recorded, min(len(recorded.moves) - 21, 300))
    t0 = time.perf_counter()
    for _ in range(20):
        runtime.submit(recorded.moves[len(runtime.snapshot().moves)], runtime.state_id)
        since = runtime.state_id - 1
        for _ in range(30):
            assert client.get(f"/api/log?since={since}").status_code == 200
    incremental = time.perf_counter() - t0
    t0 = time.perf_counter()
    client.get("/api/log")
    one_whole = time.perf_counter() - t0
    assert incremental < 600 * one_whole / 5, (incremental, one_whole)


# --- the API's limits on names, through a position too -------------------------------------------
def test_a_position_with_a_name_the_api_refuses_is_a_400(client, recorded):
    doc = recorded.states[10].to_dict()
    doc["players"][1]["name"] = "B" * 10_000
    e = err(client.post("/api/games", json={"position": doc}), 400, "bad_request")
    assert e["field"] == "position.players[1].name"
    e = err(
        client.post("/api/games", json={"players": [{"name": "A", "colour": "<script>"}, {"name": "B"}]}),
        400,
        "bad_request",
    )
    assert e["field"] == "players[0].colour"


def test_reads_from_a_paired_phone_see_the_same_as_the_host(lan_app, runtime, recorded):
    play(runtime, recorded, 5)
    c = lan_app.test_client()
    host = c.get("/api/state").get_json()
    assert phone(c, "GET", "/api/state", headers={"X-Pairing-Token": CODE}).get_json() == host
    sid = runtime.state_id
    body = io.BytesIO(json.dumps({"state_id": sid, "move": str(recorded.moves[5])}).encode())
    r = phone(
        c,
        "POST",
        "/api/moves",
        headers={"X-Pairing-Token": CODE},
        input_stream=body,
        content_type="application/json",
        content_length=len(body.getvalue()),
    )
    assert r.status_code == 200 and runtime.state_id == sid + 1


# --- serve: one writer per data folder, and what it says -------------------------------------------
def test_a_second_serve_on_the_same_data_folder_refuses_naming_the_folder_and_the_pid(tmp_path, capsys):
    from companion.cli import main
    from tests.webui.webui_helpers import call, start_server

    data = tmp_path / "data"
    proc, base = start_server(data)
    try:
        assert call(base + "/api/games", "POST", {"players": [{"name": "A"}, {"name": "B"}]})[0] == 200
        code = main(["serve", "--port", "0", "--data", str(data)])
        out, err_ = capsys.readouterr()
        assert code == 2 and err_.count("\n") == 1 and "listening" not in out
        assert str(data) in err_ and f"pid {proc.pid}" in err_
        assert call(base + "/api/state")[1]["state_id"] == 1  # the first one goes on
    finally:
        proc.terminate()
        proc.wait()
        proc.stdout.close()
        proc.stderr.close()


def test_serve_on_all_interfaces_without_lan_warns_and_still_needs_pairing(tmp_path):
    from tests.webui.webui_helpers import call, start_server

    proc, base = start_server(tmp_path / "data", "--host", "0.0.0.0")
    try:
        lines = []
        while not any(line.startswith("pairing code:") for line in lines):
            line = proc.stdout.readline()
            assert line, "".join(lines)
            lines.append(line)
        assert call(base + "/api/state")[0] == 200  # the host itself (127.0.0.1)
        code = next(line for line in lines if line.startswith("pairing code:")).split()[2]
        assert len(code) == 19
    finally:
        proc.terminate()
        _, err_ = proc.communicate(timeout=30)
    warning = [line for line in err_.splitlines() if line.startswith("warning:")]
    assert len(warning) == 1 and "--host 0.0.0.0 without --lan" in warning[0] and "pairing code" in warning[0]


@pytest.mark.parametrize(
    "damage",
    ["profile_not_utf8", "profile_deep", "journal_fifo", "journal_folder", "journal_deep_line", "journal_not_utf8"],
)
def test_serve_with_a_damaged_data_folder_is_one_line_and_exit_2(tmp_path, capsys, damage):
    import os

    from companion.cli import main

    data = tmp_path / "data"
    (data / "games").mkdir(parents=True)
    if damage == "profile_not_utf8":
        (data / "profile.json").write_bytes(b'{"name": "\xff"}')
    elif damage == "profile_deep":
        (data / "profile.json").write_bytes(b"[" * 5000 + b"]" * 5000)
    elif damage == "journal_fifo":
        os.mkfifo(data / "games" / "game-000001.jsonl")
    elif damage == "journal_folder":
        (data / "games" / "game-000001.jsonl").mkdir()
    else:
        header = json.dumps(
            {"format": "tribes-live-journal", "version": 1, "game": "toy", "base_state_id": 1, "settings": {}}
        ).encode()
        bad = b"[" * 3000 + b"]" * 3000 if damage == "journal_deep_line" else b'{"op": "\xff"}'
        (data / "games" / "game-000001.jsonl").write_bytes(header + b"\n" + bad + b"\n" + b'{"op":"move"}\n')
    code = main(["serve", "--port", "0", "--data", str(data)])
    out, err_ = capsys.readouterr()
    assert code == 2 and err_.count("\n") == 1 and "Traceback" not in err_ and "listening" not in out
    assert str(data) in err_ and "move the file away" in err_
