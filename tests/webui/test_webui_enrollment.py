"""Enrollment of the user's box at setup, as the page drives it in camera mode (webui/camera.py):
``GET /api/camera/enrollment``, ``POST /api/camera/enroll`` (success, a user mistake as 409
``enroll_failed``, 404 outside camera mode, the pairing token with --lan), the status in
``/api/tracker`` and its event stream, and the panel in headless Chromium (press 'Learn my box',
see what was learned).

The backend (learning the box from a camera picture) is another part's job; here it is a fake that
follows the contract: ``enroll()`` looks at the runtime's game and raises a ``ValueError`` subclass
with a one-line message for a user mistake."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from playwright.sync_api import expect

from session.runtime import GameRuntime
from tests.webui.webui_helpers import PLAYERS
from tracker.link import TrackerLink
from webui.app import create_app
from webui.camera import FrameHub, attach

TOKEN = "K7QD-M2XP"


class EnrollMistake(ValueError):
    """A user mistake while learning the box."""


class FakeBox:
    """The backend's side of the contract: learns the box once a game is set up and no hand is in view."""

    def __init__(self, runtime: GameRuntime) -> None:
        self.runtime = runtime
        self.hands = False
        self.calls = 0
        self.status: dict[str, Any] = {
            "state": "needed",
            "message": "no box learned yet",
            "learned": [],
            "missing": [],
            "path": None,
        }

    def enroll(self) -> dict[str, Any]:
        self.calls += 1
        if not self.runtime.has_game:
            raise EnrollMistake("no game yet: start a new game and enter the setup first")
        if self.hands:
            raise EnrollMistake("hands in view: keep hands off the table while the box is learned")
        self.status = {
            "state": "enrolled",
            "message": f"learned from the setup of game {self.runtime.state_id}",
            "learned": ["player colours: red, blue, yellow", "action tiles: 6 of 6 in the row"],
            "missing": ["event tiles (none seen yet)"],
            "path": "/tmp/box.json",
        }
        return dict(self.status)

    def enrollment_status(self) -> dict[str, Any]:
        return dict(self.status)


def camera_app(runtime: GameRuntime, box: FakeBox | None, config: dict[str, Any] | None = None):
    app = create_app(runtime, {"SSE_HEARTBEAT": 0.2, **(config or {})})
    kwargs = {"enroll": box.enroll, "enrollment_status": box.enrollment_status} if box else {}
    attach(app, TrackerLink(runtime, freeze_gc=False), FrameHub(), source="test", **kwargs)
    return app


def test_enrollment_routes_answer_404_outside_camera_mode(client):
    for r in (client.get("/api/camera/enrollment"), client.post("/api/camera/enroll", json={})):
        assert r.status_code == 404
        assert r.get_json()["error"]["type"] == "not_found" and "camera mode is off" in r.get_json()["error"]["message"]


def test_a_camera_source_without_enrollment_answers_404_and_reports_null(runtime):
    client = camera_app(runtime, None).test_client()
    assert client.get("/api/tracker").get_json()["enrollment"] is None
    r = client.get("/api/camera/enrollment")
    assert r.status_code == 404 and "needs no enrollment" in r.get_json()["error"]["message"]
    assert client.post("/api/camera/enroll", json={}).status_code == 404


def test_enroll_learns_the_box_and_the_tracker_status_carries_it(runtime):
    box = FakeBox(runtime)
    client = camera_app(runtime, box).test_client()
    st = client.get("/api/camera/enrollment").get_json()
    assert st == box.status and st["state"] == "needed"
    assert client.get("/api/tracker").get_json()["enrollment"]["state"] == "needed"
    runtime.new_game(PLAYERS)
    r = client.post("/api/camera/enroll", json={})
    assert r.status_code == 200, r.get_json()
    got = r.get_json()
    assert got["state"] == "enrolled" and got["missing"] == ["event tiles (none seen yet)"]
    assert got["message"] == f"learned from the setup of game {runtime.state_id}"
    assert client.get("/api/camera/enrollment").get_json() == got
    assert client.get("/api/tracker").get_json()["enrollment"] == got
    assert box.calls == 1


def test_a_user_mistake_is_409_enroll_failed_in_one_line(runtime):
    box = FakeBox(runtime)
    client = camera_app(runtime, box).test_client()
    r = client.post("/api/camera/enroll", json={})
    err = r.get_json()["error"]
    assert r.status_code == 409 and err["type"] == "enroll_failed"
    assert err["message"] == "no game yet: start a new game and enter the setup first"
    runtime.new_game(PLAYERS)
    box.hands = True
    r = client.post("/api/camera/enroll", json={})
    assert r.status_code == 409 and r.get_json()["error"]["message"].startswith("hands in view")
    assert client.get("/api/camera/enrollment").get_json()["state"] == "needed"  # nothing learned
    box.hands = False
    assert client.post("/api/camera/enroll", json={}).status_code == 200


def test_enroll_takes_an_empty_json_object(runtime):
    box = FakeBox(runtime)
    runtime.new_game(PLAYERS)
    client = camera_app(runtime, box).test_client()
    assert client.post("/api/camera/enroll", data="{}").status_code == 415  # not sent as JSON
    r = client.post("/api/camera/enroll", json={"now": True})
    assert r.status_code == 400 and r.get_json()["error"]["field"] == "now"
    r = client.post("/api/camera/enroll", json=[1])
    assert r.status_code == 400 and r.get_json()["error"]["field"] == "body"
    assert client.get("/api/camera/enroll").status_code == 405
    assert box.calls == 0


def test_enroll_needs_the_pairing_code_on_the_network(runtime):
    box = FakeBox(runtime)
    runtime.new_game(PLAYERS)
    client = camera_app(runtime, box, {"PAIRING_TOKEN": TOKEN, "SERVE_NETWORK": True}).test_client()
    lan = {"environ_base": {"REMOTE_ADDR": "192.0.2.7"}, "headers": {"Host": "192.0.2.2"}}
    r = client.post("/api/camera/enroll", json={}, **lan)
    assert r.status_code == 401 and r.get_json()["error"]["type"] == "unauthorized" and box.calls == 0
    assert client.get("/api/camera/enrollment", **lan).status_code == 401  # reading needs it too
    paired = {"environ_base": {"REMOTE_ADDR": "192.0.2.7"}, "headers": {"Host": "192.0.2.2", "X-Pairing-Token": TOKEN}}
    assert client.get("/api/camera/enrollment", **paired).status_code == 200
    r = client.post("/api/camera/enroll", json={}, **paired)
    assert r.status_code == 200 and r.get_json()["state"] == "enrolled"


def test_without_a_status_callable_the_last_result_is_the_status(runtime):
    box = FakeBox(runtime)
    runtime.new_game(PLAYERS)
    app = create_app(runtime)
    attach(app, TrackerLink(runtime, freeze_gc=False), FrameHub(), enroll=box.enroll)
    client = app.test_client()
    assert client.get("/api/camera/enrollment").get_json()["state"] == "needed"
    assert client.post("/api/camera/enroll", json={}).get_json()["state"] == "enrolled"
    assert client.get("/api/camera/enrollment").get_json()["learned"] == box.status["learned"]


def test_a_malformed_backend_answer_is_an_internal_error_without_traceback(runtime):
    app = create_app(runtime)
    attach(app, TrackerLink(runtime, freeze_gc=False), FrameHub(), enroll=lambda: {"state": "done"})
    r = app.test_client().post("/api/camera/enroll", json={})
    assert r.status_code == 500 and r.get_json()["error"]["type"] == "internal_error"
    assert "Traceback" not in r.get_data(as_text=True)


def test_the_tracker_stream_carries_the_new_enrollment(runtime):
    """The page learns of the result over /api/tracker/events (also when another page pressed)."""
    box = FakeBox(runtime)
    runtime.new_game(PLAYERS)
    app = camera_app(runtime, box)
    client = app.test_client()
    resp = client.get("/api/tracker/events", buffered=False)
    chunks = iter(resp.response)
    assert next(chunks).startswith(b"retry:")
    first = json.loads(next(chunks).decode().split("data: ", 1)[1])
    assert first["enrollment"]["state"] == "needed"
    threading.Timer(0.05, lambda: app.test_client().post("/api/camera/enroll", json={})).start()
    for chunk in chunks:
        text = chunk.decode()
        if text.startswith("event: tracker"):
            assert json.loads(text.split("data: ", 1)[1])["enrollment"]["state"] == "enrolled"
            break
    resp.close()


def test_the_openapi_description_has_the_enrollment_routes(client):
    spec = client.get("/api/openapi.json").get_json()
    assert set(spec["paths"]["/api/camera/enroll"]["post"]["responses"]) >= {"200", "401", "404", "409", "415"}
    assert spec["components"]["schemas"]["Enrollment"]["properties"]["state"]["enum"] == [
        "needed",
        "enrolled",
        "failed",
    ]


@pytest.fixture
def enroll_server(runtime):
    from webui.server import LiveServer

    box = FakeBox(runtime)
    app = camera_app(runtime, box, {"SSE_HEARTBEAT": 1.0})
    server = LiveServer(app).start()
    yield server, box
    app.extensions["companion"]["camera"]["frames"].close()
    app.extensions["companion"]["camera"]["feed"].close()
    server.stop()


def test_the_page_learns_the_box_with_one_press(browser, runtime, enroll_server):
    """Headless Chromium: the panel asks to learn the box; pressing before the game is set up shows the
    mistake in one line; after setup the press shows what was learned and what is still missing, and
    the button becomes 'Learn again'. German texts after switching the language."""
    server, box = enroll_server
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(10000)
    try:
        page.goto(server.url + "/")
        panel = page.get_by_test_id("cam-enroll")
        expect(panel).to_have_attribute("data-state", "needed")
        expect(panel).to_contain_text("Learn your box")
        expect(panel).to_contain_text("keep hands out of view")
        button = page.get_by_test_id("cam-enroll-btn")
        expect(button).to_have_text("Learn my box")
        button.click()
        expect(page.get_by_test_id("cam-enroll-err")).to_have_text(
            "no game yet: start a new game and enter the setup first"
        )
        expect(panel).to_have_attribute("data-state", "needed")
        runtime.new_game(PLAYERS)
        page.get_by_test_id("cam-enroll-btn").click()
        expect(panel).to_have_attribute("data-state", "enrolled")
        expect(page.get_by_test_id("cam-learned").locator("li")).to_have_text(box.status["learned"])
        expect(page.get_by_test_id("cam-missing").locator("li")).to_have_text(["event tiles (none seen yet)"])
        expect(page.get_by_test_id("cam-enroll-err")).to_have_count(0)
        expect(page.get_by_test_id("cam-enroll-btn")).to_have_text("Learn again")
        page.get_by_test_id("lang").click()
        expect(page.get_by_test_id("cam-enroll-btn")).to_have_text("Neu anlernen")
        expect(panel).to_contain_text("Schachtel angelernt.")
        page.get_by_test_id("lang").click()
        expect(page.get_by_test_id("cam-enroll-btn")).to_have_text("Learn again")
    finally:
        context.close()
    assert errors == []
    assert box.calls == 2
