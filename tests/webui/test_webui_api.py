"""The HTTP API with Flask's test client: every endpoint, every typed error, the SSE stream."""

from __future__ import annotations

import json
import threading

import pytest

from games.tribes.rules.game import Game
from tests.webui.webui_helpers import PLAYERS, play
from tests.webui.webui_helpers import read_events as _read_events
from webui.app import create_app

SETUP = "setup row=exp,off-ach,exp-ach,off,mov-ach,mov era1=schmuck,toepfern,kochen,schamanismus " + (
    "lands=horse/goat/gold,goat/wheat/gold,incense/goat/gold"
)


def err(resp, status: int, type_: str) -> dict:
    assert resp.status_code == status, resp.get_data(as_text=True)
    body = resp.get_json()
    assert body["error"]["type"] == type_
    assert "Traceback" not in resp.get_data(as_text=True)
    return body["error"]


def new_game(client, **extra) -> dict:
    body = {"players": [{"name": n, "colour": c} for n, c in PLAYERS], **extra}
    r = client.post("/api/games", json=body)
    assert r.status_code == 200, r.get_json()
    return r.get_json()["view"]


def test_state_before_any_game(client):
    view = client.get("/api/state").get_json()
    assert view["has_game"] is False and view["state_id"] == 0
    err(client.get("/api/legal"), 409, "no_game")
    err(client.post("/api/moves", json={"state_id": 0, "move": "start 0,0"}), 409, "no_game")


def test_new_game_with_setup_then_moves_in_notation_and_structured(client):
    view = new_game(client, setup=SETUP)
    assert view["prompt"]["kind"] == "first_member" and view["prompt"]["player"] == "Ann"
    assert [p["name"] for p in view["players"]] == ["Ann", "Bob", "Cid"]
    sid = view["state_id"]
    r = client.post("/api/moves", json={"state_id": sid, "move": "start 1,0"})
    assert r.status_code == 200
    body = r.get_json()
    assert body["accepted"] == {
        "op": "move",
        "index": 1,
        "move": "start 1,0",
        "structured": {"kind": "start", "hex": "1,0"},
    }
    sid = body["view"]["state_id"]
    r = client.post("/api/moves", json={"state_id": sid, "move": {"kind": "start", "hex": [0, 0]}})
    assert r.get_json()["accepted"]["move"] == "start 0,0"
    assert r.get_json()["view"]["prompt"]["player"] == "Cid"


def test_legal_overview_with_costs_and_reasons(client, runtime, recorded):
    play(runtime, recorded, 4)
    data = client.get("/api/legal?moves=5").get_json()
    assert data["kind"] == "choose" and data["state_id"] == runtime.state_id
    tiles = data["tiles"]
    assert tiles[0]["free"] and tiles[0]["cost"] == 0
    assert [t["cost"] for t in tiles] == list(range(len(tiles)))
    # every option not available carries a reason with a rule clause
    for tile in tiles:
        for opt in tile["options"]:
            if not opt["available"]:
                assert opt["reason"]["clause"].startswith("R-") and opt["reason"]["text"]
    assert len(data["moves"]) == 5
    err(client.get("/api/legal?moves=x"), 400, "bad_request")
    assert err(client.get("/api/legal?moves=5000"), 400, "bad_request")["field"] == "moves"


def test_chance_outcomes_when_the_game_needs_one(client, runtime, recorded):
    new_game(client)
    setup = client.get("/api/chance").get_json()
    assert setup["needed"] and setup["kind"] == "setup"
    assert sorted(setup["setup"]["action_tiles"]) == sorted(["off", "mov", "exp", "off-ach", "mov-ach", "exp-ach"])
    play(runtime, recorded, 5)  # '3:exp' at intensity 1: one tile to draw
    draw = client.get("/api/chance").get_json()
    assert draw["needed"] and draw["kind"] == "draw"
    assert abs(sum(o["probability"] for o in draw["outcomes"]) - 1) < 1e-9
    assert {o["move"] for o in draw["outcomes"]} == {f"draw {r}" for r in ("goat", "horse", "wheat", "gold", "incense")}
    play(runtime, recorded, 4)
    assert client.get("/api/chance").get_json()["needed"] is False


def test_illegal_move_names_the_clause(client):
    view = new_game(client, setup=SETUP)
    e = err(client.post("/api/moves", json={"state_id": view["state_id"], "move": "start 4,4"}), 422, "illegal_move")
    assert e["clause"] == "R-SET-10" and "4,4" in e["reason"]
    e = err(client.post("/api/moves", json={"state_id": view["state_id"], "move": "2:off 0,0"}), 422, "illegal_move")
    assert e["clause"] == "R-SET-10"  # the game waits for the first member


def test_stale_state_is_refused(client):
    view = new_game(client, setup=SETUP)
    sid = view["state_id"]
    assert client.post("/api/moves", json={"state_id": sid, "move": "start 1,0"}).status_code == 200
    e = err(client.post("/api/moves", json={"state_id": sid, "move": "start 1,0"}), 409, "stale_state")
    assert e["current_state_id"] == sid + 1 and e["given_state_id"] == sid


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"move": "start 0,0"}, "state_id"),
        ({"state_id": "1", "move": "start 0,0"}, "state_id"),
        ({"state_id": True, "move": "start 0,0"}, "state_id"),
        ({"state_id": 1}, "move"),
        ({"state_id": 1, "move": "fly 0,0"}, "move"),
        ({"state_id": 1, "move": 7}, "move"),
        ({"state_id": 1, "move": {"kind": "teleport"}}, "move.kind"),
        ({"state_id": 1, "move": {"kind": "off", "slot": 0}}, "move.slot"),
        ({"state_id": 1, "move": {"kind": "off", "slot": 1, "place": ["x"]}}, "move.place[0]"),
        ({"state_id": 1, "move": {"kind": "place", "tiles": [{"hex": "1,1"}]}}, "move.tiles[0].resource"),
        ({"state_id": 1, "move": "start 0,0", "extra": 1}, "extra"),
    ],
)
def test_bad_requests_name_the_field(client, body, field):
    new_game(client, setup=SETUP)
    assert err(client.post("/api/moves", json=body), 400, "bad_request")["field"] == field


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b'{"state_id": 1, "move": "caf\xe9"}', "is not UTF-8 text (byte 28 is 0xe9)"),
        (b"[" * 100_000 + b"]" * 100_000, "nests objects and lists 100000 deep"),
        (b'{"state_id": ' + b"9" * 5000 + b"}", "holds an integer of 5000 digits"),
        (b'{"state_id": NaN}', "holds NaN"),
        (b'{"state_id": 1e999}', "holds the number 1e999"),
        (b'{"state_id": ', "is not valid JSON (line 1 column 14: Expecting value)"),
    ],
    ids=["non-utf8", "deep", "huge-int", "nan", "inf", "torn"],
)
def test_bodies_are_read_like_data_files(client, data, words):
    """The body goes through the data-file reader: what would be a 500 (a RecursionError) or an
    unreadable value is a typed 400 naming the body."""
    e = err(client.post("/api/moves", data=data, content_type="application/json"), 400, "bad_request")
    assert e["field"] == "body" and words in e["message"] and "\n" not in e["message"]


def test_body_must_be_a_json_object(client):
    assert (
        err(client.post("/api/moves", data="{", content_type="application/json"), 400, "bad_request")["field"] == "body"
    )
    assert err(client.post("/api/moves", json=[1, 2]), 400, "bad_request")["field"] == "body"
    err(
        client.post("/api/moves", data="state_id=1", content_type="application/x-www-form-urlencoded"),
        415,
        "unsupported_media_type",
    )


def test_not_found_and_method_not_allowed_are_typed(client):
    err(client.get("/api/nothing"), 404, "not_found")
    err(client.get("/nothing"), 404, "not_found")
    e = client.delete("/api/state")
    err(e, 405, "method_not_allowed")
    assert "GET" in e.headers["Allow"]
    new_game(client)
    err(client.get("/api/positions/99"), 404, "not_found")


def test_payload_too_large(runtime):
    app = create_app(runtime, {"MAX_CONTENT_LENGTH": 1000})
    c = app.test_client()
    err(c.post("/api/moves", json={"state_id": 1, "move": "x" * 2000}), 413, "payload_too_large")


def test_undo_takes_back_any_last_move_and_refuses_only_when_there_is_none(client, runtime, recorded):
    play(runtime, recorded, 5)  # '3:exp' waits for the draw
    view = client.get("/api/state").get_json()
    assert view["undo"] == {"allowed": True, "reason": "", "message": "undo '3:exp'", "move": "3:exp", "chance": False}
    r = client.post("/api/undo", json={"state_id": view["state_id"]})
    assert r.status_code == 200 and r.get_json()["accepted"]["move"] == "3:exp"
    assert r.get_json()["view"]["prompt"]["kind"] == "choose"
    err(client.post("/api/undo", json={"state_id": view["state_id"]}), 409, "stale_state")
    # the move before it ended Ann's turn: the page's Undo takes it back too
    r = client.post("/api/undo", json={"state_id": runtime.state_id})
    assert r.status_code == 200 and r.get_json()["accepted"]["move"] == str(recorded.moves[3])
    play(runtime, recorded, 6)  # the draw is revealed: undone, the game asks for it again
    assert client.get("/api/state").get_json()["undo"]["chance"] is True
    r = client.post("/api/undo", json={"state_id": runtime.state_id})
    assert r.status_code == 200 and r.get_json()["view"]["prompt"]["kind"] == "draw"
    runtime.new_game([("Ann", "red"), ("Bob", "blue")])
    e = err(client.post("/api/undo", json={"state_id": runtime.state_id}), 409, "undo_refused")
    assert e["reason"] == "nothing"
    assert client.get("/api/state").get_json()["undo"]["reason"] == "nothing"


def test_corrections(client, runtime, recorded):
    play(runtime, recorded, 12)
    sid = runtime.state_id
    r = client.post("/api/corrections", json={"state_id": sid, "index": 6, "move": "place wheat@1,1"})
    assert r.status_code == 200
    assert r.get_json()["accepted"] == {
        "op": "correct",
        "index": 6,
        "move": "place wheat@1,1",
        "structured": {"kind": "place", "tiles": [{"hex": "1,1", "resource": "wheat"}]},
    }
    sid = runtime.state_id
    e = err(
        client.post("/api/corrections", json={"state_id": sid, "index": 5, "move": "draw goat"}), 422, "illegal_move"
    )
    assert e["index"] == 6 and e["clause"] == "R-ACT-EXP-1"
    body = {"state_id": sid, "index": 5, "move": "draw goat", "rest": "sideways"}
    assert err(client.post("/api/corrections", json=body), 400, "bad_request")["field"] == "rest"
    body = {"state_id": sid, "index": 50, "move": "draw goat"}
    assert err(client.post("/api/corrections", json=body), 400, "bad_request")["field"] == "index"
    r = client.post("/api/corrections", json={"state_id": sid, "index": 5, "move": "draw goat", "rest": "prefix"})
    assert r.get_json()["view"]["prompt"]["kind"] == "place"
    entries = client.get("/api/log").get_json()["entries"]
    assert [e["op"] for e in entries[-2:]] == ["correct", "correct"]


@pytest.mark.parametrize(
    ("players", "field"),
    [
        ([{"name": "Solo"}], "players"),
        ([{"name": "A"}, {"name": "A"}], "players[1].name"),
        ([{"name": "A"}, {"name": ""}], "players[1].name"),
        ([{"name": "A", "colour": "red"}, {"name": "B", "colour": "red"}], "players[1].colour"),
        ([{"name": "A", "colour": "<script>"}, {"name": "B"}], "players[0].colour"),
        ([{"name": "A", "age": 3}, {"name": "B"}], "players[0].age"),
        ("Ann,Bob", "players"),
    ],
)
def test_new_game_bad_players(client, players, field):
    assert err(client.post("/api/games", json={"players": players}), 400, "bad_request")["field"] == field


def test_new_game_bad_setup_and_profile_and_position(client):
    players = [{"name": "A"}, {"name": "B"}]
    e = err(
        client.post("/api/games", json={"players": players, "setup": "setup row=off era1=x lands=a/b/c"}),
        422,
        "illegal_move",
    )
    assert e["clause"] == "R-SET-5"
    assert (
        err(client.post("/api/games", json={"players": players, "setup": "1:exp"}), 400, "bad_request")["field"]
        == "setup"
    )
    assert (
        err(client.post("/api/games", json={"players": players, "profile": "/etc/passwd"}), 400, "bad_request")["field"]
        == "profile"
    )
    bad = client.post("/api/games", json={"players": players, "profile": {"format": "nope"}})
    assert err(bad, 400, "bad_request")["field"] == "profile.format"
    assert err(client.post("/api/games", json={"position": {"format": "tribes-position"}}), 400, "bad_request")[
        "field"
    ].startswith("position")
    assert client.get("/api/state").get_json()["has_game"] is False  # nothing was started


def test_new_game_from_a_position(client, recorded):
    position = recorded.states[30].to_dict()
    r = client.post("/api/games", json={"position": position})
    assert r.status_code == 200
    view = r.get_json()["view"]
    assert view["moves"] == 0 and view["position"]["turn"] == recorded.states[30].turn
    sid = view["state_id"]
    r = client.post("/api/moves", json={"state_id": sid, "move": str(recorded.moves[30])})
    assert r.status_code == 200


def test_journal_export_has_the_final_ranking(client, runtime, recorded):
    play(runtime, recorded, len(recorded.moves))
    data = client.get("/api/journal").get_json()
    assert data["format"] == "tribes-journal" and data["moves"] == [str(m) for m in recorded.moves]
    assert [r["name"] for r in data["result"]["ranking"]] == [
        r["name"] for r in recorded.to_dict()["result"]["ranking"]
    ]
    assert Game.from_dict(data).state == recorded.state  # the record replays
    r = client.get("/api/journal?download=1")
    assert "attachment" in r.headers["Content-Disposition"]
    view = client.get("/api/state").get_json()
    assert view["over"] and view["ranking"][0]["place"] == 1


def test_log_positions_and_catalog(client, runtime, recorded):
    play(runtime, recorded, 20)
    log = client.get("/api/log").get_json()
    assert len(log["moves"]) == 20 and len(log["totals"]) == 21
    assert log["moves"][5] == {**log["moves"][5], "chance": True, "seat": None, "move": "draw wheat"}
    assert log["moves"][4]["player"] == "Ann"
    pos = client.get("/api/positions/5").get_json()
    assert pos["n"] == 5 and pos["prompt"]["kind"] == "draw"
    cat = client.get("/api/catalog").get_json()
    assert cat["provisional_count"] > 0
    assert any(s["provisional"] for a in cat["achievements"] for s in a["slots"])


def test_profile_get_validate_save(client, runtime):
    info = client.get("/api/profile").get_json()
    path = "tracks.offspring.vp[3]"
    assert path in info["provisional"] and info["sources"][path].startswith("provisional")
    doc = info["profile"]
    doc["tracks"]["offspring"]["vp"][3] = 2
    r = client.post("/api/profile/validate", json={"profile": doc, "checked": [path]})
    assert r.status_code == 200 and path not in r.get_json()["provisional"]
    assert client.get("/api/profile").get_json()["profile"]["tracks"]["offspring"]["vp"][3] == 1  # not saved
    r = client.put("/api/profile", json={"profile": doc, "checked": [path]})
    assert r.status_code == 200
    saved = client.get("/api/profile").get_json()
    assert saved["profile"]["tracks"]["offspring"]["vp"][3] == 2 and path not in saved["provisional"]
    assert "checked against the owner's box" in saved["sources"][path]
    assert runtime.profile.track("offspring").vp[3] == 2
    bad = json.loads(json.dumps(doc))
    bad["tracks"]["offspring"]["vp"][3] = -1
    e = err(client.put("/api/profile", json={"profile": bad}), 400, "bad_request")
    assert e["field"] == "profile.tracks.offspring.vp[3]"
    e = err(client.put("/api/profile", json={"profile": doc, "checked": ["tracks.nothing[9]"]}), 400, "bad_request")
    assert e["field"] == "checked[0]"


def test_storage_error_changes_nothing(client, runtime, recorded, monkeypatch):
    play(runtime, recorded, 3)

    def full(entry):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(runtime._journal, "append", full)
    e = err(
        client.post("/api/moves", json={"state_id": runtime.state_id, "move": str(recorded.moves[3])}),
        503,
        "storage_error",
    )
    assert "No space left" in e["message"]
    assert len(runtime.snapshot().moves) == 3


def test_an_unexpected_bug_is_a_typed_500_without_traceback(client, runtime, monkeypatch):
    def boom():
        raise ZeroDivisionError("x")

    monkeypatch.setattr(runtime, "snapshot", boom)
    runtime._game = object()  # has_game
    err(client.get("/api/legal"), 500, "internal_error")


LAN = {"REMOTE_ADDR": "192.0.2.7"}
"""A phone on the network (documentation addresses, RFC 5737); the server is 192.0.2.2."""


def test_on_the_network_reads_and_writes_need_the_pairing_code(runtime):
    app = create_app(runtime, {"PAIRING_TOKEN": "ABCD-EFGH-JKLM-NPQR", "SERVE_NETWORK": True})
    c = app.test_client()
    kw = {"environ_base": LAN, "headers": {"Host": "192.0.2.2:8321"}}
    players = [{"name": "A"}, {"name": "B"}]
    e = err(c.post("/api/games", json={"players": players}, **kw), 401, "unauthorized")
    assert "pairing code" in e["message"]
    err(c.get("/api/state", **kw), 401, "unauthorized")  # reading game data needs it too
    wrong = {"X-Pairing-Token": "WRONG", "Host": "192.0.2.2:8321"}
    err(c.post("/api/games", json={"players": players}, environ_base=LAN, headers=wrong), 401, "unauthorized")
    good = {"X-Pairing-Token": "abcd efgh jklm npqr", "Host": "192.0.2.2:8321"}  # any case, any separators
    assert c.post("/api/games", json={"players": players}, environ_base=LAN, headers=good).status_code == 200
    bearer = {"Authorization": "Bearer ABCDEFGHJKLMNPQR", "Host": "192.0.2.2:8321"}
    assert c.get("/api/state", environ_base=LAN, headers=bearer).status_code == 200
    # the host itself needs nothing
    assert c.post("/api/games", json={"players": players}).status_code == 200
    # the pairing screen (code + QR code) only for the host itself
    page = c.get("/pair")
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and "ABCD-EFGH-JKLM-NPQR" in text and "<svg" in text
    err(c.get("/pair", **kw), 403, "forbidden")


def test_openapi_is_served(client):
    spec = client.get("/api/openapi.json").get_json()
    assert spec["openapi"].startswith("3.")
    assert {"/api/moves", "/api/undo", "/api/corrections", "/api/games", "/api/events"} <= set(spec["paths"])


def test_page_is_served(client):
    with client.get("/") as r:
        assert r.status_code == 200 and b"shell.js" in r.data
    with client.get("/static/shell.js") as r:
        assert r.status_code == 200 and b"EventSource" in r.data
    script = client.get("/api/state").get_json()["game"]["script"]
    assert script == "/games/tribes/static/tribes.js"
    with client.get(script) as r:
        assert r.status_code == 200 and b"export function mount" in r.data
    with client.get("/games/toy/static/toy.js") as r:
        assert r.status_code == 200 and b"export function mount" in r.data




def test_sse_sends_the_view_on_every_change_with_ids_and_heartbeats(client, runtime, recorded):
    play(runtime, recorded, 3)
    resp = client.get("/api/events", buffered=False)
    assert resp.mimetype == "text/event-stream"
    first = _read_events(resp, 2)
    assert first[0].startswith("retry:")
    assert first[1].startswith(f"id: {runtime.state_id}\nevent: state\ndata: ")
    view = json.loads(first[1].split("data: ", 1)[1])
    assert view["state_id"] == runtime.state_id and view["prompt"]["kind"] == "first_member"

    threading.Timer(0.05, lambda: runtime.submit(recorded.moves[3], runtime.state_id)).start()
    nxt = _read_events(resp, 1)
    view = json.loads(nxt[0].split("data: ", 1)[1])
    assert nxt[0].startswith(f"id: {runtime.state_id}") and view["prompt"]["kind"] == "choose"
    beat = _read_events(resp, 1)  # nothing happens: a heartbeat comment (0.2 s in these tests)
    assert beat == [": heartbeat"]
    resp.close()
    assert client.application.extensions["companion"]["hub"].listeners == 0


def test_sse_reconnect_with_last_event_id(client, runtime, recorded):
    play(runtime, recorded, 3)
    same = client.get("/api/events", buffered=False, headers={"Last-Event-ID": str(runtime.state_id)})
    assert _read_events(same, 2) == ["retry: 2000", ": heartbeat"]  # up to date: no view resent
    same.close()
    old = client.get("/api/events", buffered=False, headers={"Last-Event-ID": str(runtime.state_id - 2)})
    blocks = _read_events(old, 2)
    assert blocks[1].startswith(f"id: {runtime.state_id}\nevent: state")  # missed changes: the current view
    old.close()


def test_a_view_read_while_another_game_starts_is_of_one_game(client, runtime, monkeypatch):
    """The runtime's game of the moment may already be the next game's (someone started one between
    two reads); every answer is made of one snapshot and that snapshot's own game."""
    import games
    from session.runtime import GameRuntime
    from webui.views import live_view

    view = new_game(client)
    r = client.post("/api/moves", json={"state_id": view["state_id"], "move": SETUP})
    assert r.status_code == 200, r.get_json()
    toy = games.get("toy")
    monkeypatch.setattr(GameRuntime, "game", property(lambda self: toy))  # the next game, read early
    view = live_view(runtime)
    assert view["game"]["id"] == "tribes" and len(view["players"]) == 3
    for url in ("/api/state", "/api/legal", "/api/chance", "/api/positions/1?moves=3"):
        r = client.get(url)
        assert r.status_code == 200, (url, r.get_data(as_text=True)[:300])
    assert client.get("/api/state").get_json()["game"]["id"] == "tribes"
    assert client.get("/api/positions/1?moves=3").get_json()["alternatives"]
