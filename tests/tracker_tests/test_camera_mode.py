"""Camera mode of the web companion (webui/camera.py): the tracker's status and answers over HTTP,
the MJPEG stream (one encode for every viewer), the page in headless Chromium, and the whole demo
path — a rendered game read frame by frame into the runtime — ending with the simulated game's
journal."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest

from rules.game import Game, simulate
from rules.moves import Offspring
from tests.tracker_tests.footage import Footage, feed, find, runtime_at
from tracker.link import TrackerLink
from tracker.tracker import TrackerConfig
from webui.app import create_app
from webui.camera import FrameHub, attach


@pytest.fixture(scope="module")
def game3() -> Game:
    return simulate(3, 2, "greedy")


def _prompted(tmp_path: Path, game: Game) -> tuple[object, TrackerLink, int]:
    """A runtime and a link with an open prompt: an Offspring made under a hidden land."""
    i = find(game, lambda s, m: isinstance(m, Offspring) and s.round > 2)
    rt = runtime_at(tmp_path, game, i)
    link = TrackerLink(rt, config=TrackerConfig(hidden_prompt_after=0.5), freeze_gc=False)
    before, after = game.states[i], game.states[i + 1]
    feed(rt, Footage().show(before).hand().show(after, 1.5, hidden_seats=[before.to_move]), link=link)
    assert link.status.prompt is not None
    return rt, link, i


def test_status_and_answers_over_http(tmp_path: Path, game3: Game) -> None:
    rt, link, i = _prompted(tmp_path, game3)
    app = create_app(rt, {"SSE_HEARTBEAT": 0.2})
    attach(app, link, FrameHub(), source="test footage")
    client = app.test_client()
    st = client.get("/api/tracker").get_json()
    assert st["kind"] == "prompt" and st["source"] == "test footage"
    pid = st["prompt"]["id"]
    labels = [o["label"] for o in st["prompt"]["options"]]
    assert client.post("/api/tracker/answer", data="x").status_code == 415
    r = client.post("/api/tracker/answer", json={"id": pid, "option": -1})
    assert r.status_code == 400 and r.get_json()["error"]["field"] == "option"
    r = client.post("/api/tracker/answer", json={"id": pid, "option": 0, "extra": 1})
    assert r.status_code == 400 and r.get_json()["error"]["field"] == "extra"
    assert client.post("/api/tracker/answer", json={"id": pid + 7, "option": 0}).status_code == 404
    r = client.post("/api/tracker/answer", json={"id": pid, "option": labels.index(str(game3.moves[i]))})
    assert r.status_code == 200 and r.get_json()["moves"] == [str(game3.moves[i])]
    assert [str(m) for m in rt.snapshot().moves] == [str(m) for m in game3.moves[: i + 1]]
    assert client.get("/api/tracker").get_json()["prompt"] is None
    assert client.post("/api/tracker/answer", json={"id": pid, "option": 0}).status_code == 404


def test_answers_need_the_pairing_token_on_the_network(tmp_path: Path, game3: Game) -> None:
    rt, link, _ = _prompted(tmp_path, game3)
    app = create_app(rt, {"PAIRING_TOKEN": "K7QD-M2XP"})
    attach(app, link, FrameHub())
    client = app.test_client()
    pid = client.get("/api/tracker").get_json()["prompt"]["id"]
    assert client.post("/api/tracker/answer", json={"id": pid, "option": 0}).status_code == 401
    r = client.post("/api/tracker/answer", json={"id": pid, "option": 0}, headers={"X-Pairing-Token": "K7QD-M2XP"})
    assert r.status_code == 200


def test_mjpeg_gives_every_viewer_the_same_encoded_picture(tmp_path: Path) -> None:
    rt = runtime_at(tmp_path, simulate(2, 1, "greedy"), 3)
    app = create_app(rt)
    hub = FrameHub()
    attach(app, TrackerLink(rt, freeze_gc=False), hub)
    client = app.test_client()
    assert client.get("/camera.jpg").status_code == 404
    picture = b"\xff\xd8 not really a jpeg \xff\xd9"
    threading.Timer(0.2, hub.publish, [picture]).start()  # the test client waits for the first part
    streams = [client.get("/camera.mjpg", buffered=False) for _ in range(2)]
    parts = []
    for st in streams:
        it = iter(st.response)
        assert next(it) == b"--tribesframe\r\n"
        parts.append(next(it))
    assert parts[0] == parts[1] and picture in parts[0] and parts[0].endswith(b"\r\n--tribesframe\r\n")
    assert streams[0].mimetype == "multipart/x-mixed-replace"
    assert client.get("/camera.jpg").data == picture
    hub.close()
    for s in streams:
        s.close()


CHROMIUM = os.environ.get("TRIBES_CHROMIUM", "/usr/bin/chromium")


def test_page_shows_the_camera_and_a_prompt_to_tap(tmp_path: Path, game3: Game) -> None:
    """Headless Chromium: the camera panel appears in camera mode with the picture and the tracker's
    state; tapping the prompt's option enters the move."""
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is not installed")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    cv2 = pytest.importorskip("cv2")
    import numpy as np

    from webui.server import LiveServer

    rt, link, i = _prompted(tmp_path, game3)
    app = create_app(rt, {"SSE_HEARTBEAT": 1.0})
    hub = FrameHub()
    attach(app, link, hub, leds=lambda: [[255, 0, 0], [0, 0, 0]], source="test footage")
    ok, jpeg = cv2.imencode(".jpg", np.full((90, 160, 3), 120, np.uint8))
    assert ok
    hub.publish(jpeg.tobytes())
    server = LiveServer(app).start()
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(server.url + "/")
            sync_api.expect(page.get_by_test_id("cam-state")).to_have_attribute("data-kind", "prompt")
            page.wait_for_function("document.querySelector('#camera-img').naturalWidth === 160")
            sync_api.expect(page.get_by_test_id("cam-leds").locator("span")).to_have_count(2)
            page.get_by_role("button", name=str(game3.moves[i]), exact=True).click()
            sync_api.expect(page.get_by_test_id("cam-state")).not_to_have_attribute("data-kind", "prompt")
            browser.close()
        assert errors == []
        assert [str(m) for m in rt.snapshot().moves] == [str(m) for m in game3.moves[: i + 1]]
    finally:
        hub.close()
        app.extensions["tribes"]["camera"]["feed"].close()
        server.stop()


def test_demo_path_ends_with_the_simulated_games_journal(tmp_path: Path) -> None:
    """The demo path with ``--vision truth`` end to end on the first moves of a game: rendered pictures
    (the held-out art pack, hands), the ground truth degraded by the noise model, tracker, runtime
    (which reads the setup off the table), the
    annotated MJPEG picture and the virtual LED strip; the journal served by the page equals the
    simulated game's."""
    pytest.importorskip("cv2")
    from tracker.loop import CameraLoop
    from tribes_companion.play import sim_session, virtual_leds

    session = sim_session(tmp_path / "data", players=2, seed=3, width=480, end=14, pause=0.0, vision="truth")
    leds, close_leds = virtual_leds(session.runtime)
    app = create_app(session.runtime)
    hub = FrameHub()
    loop = CameraLoop(session.frames, session.recognize, session.link, annotate=session.annotate, publish=hub.publish)
    attach(app, session.link, hub, camera_stats=loop.stats.to_dict, leds=leds, source=session.source)
    loop.run()
    client = app.test_client()
    journal = client.get("/api/journal").get_json()
    expected = [str(m) for m in session.game.moves[:14]]
    if expected[-1].startswith("draw "):
        expected.pop()  # drawn tiles are seen only once they are laid
    assert journal["moves"] == expected
    st = client.get("/api/tracker").get_json()
    assert st["camera"]["frames"] == len(session.playback.frames) and st["camera"]["errors"] == 0
    assert any(st["leds"][k] != [0, 0, 0] for k in range(len(st["leds"])))
    assert client.get("/camera.jpg").data[:2] == b"\xff\xd8"
    close_leds()
