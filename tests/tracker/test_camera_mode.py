"""Camera mode of the web companion (webui/camera.py): the tracker's status and answers over HTTP,
the MJPEG stream (one encode for every viewer), the page in headless Chromium (with the app's LED
bar), the whole demo path — a rendered game read frame by frame into the runtime — ending with the
simulated game's journal and the virtual LED strip showing the final position, and ``demo`` as a
real process with its virtual strip at ``/api/leds``."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from devices.config import LedConfig
from devices.live import LiveStrip
from games.tribes.leds import frame_for_state
from games.tribes.rules.game import Game, simulate
from games.tribes.rules.moves import Offspring
from tests.conftest import wait_until
from tests.tracker.footage import Footage, feed, find, runtime_at
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
    # nothing overruled: looking again at everything drops nothing; a key not overruled is a 404
    assert client.get("/api/tracker").get_json()["overruled"] == []
    assert client.post("/api/tracker/recheck", json={}).get_json() == {"rechecked": 0}
    r = client.post("/api/tracker/recheck", json={"key": ["face", 1, 0]})
    assert r.status_code == 404 and "not overruled" in r.get_json()["error"]["message"]
    r = client.post("/api/tracker/recheck", json={"key": "face 1 0"})
    assert r.status_code == 400 and r.get_json()["error"]["field"] == "key"
    r = client.post("/api/tracker/recheck", json={"fact": ["face", 1, 0]})
    assert r.status_code == 400 and r.get_json()["error"]["field"] == "fact"


def test_answers_need_the_pairing_code_on_the_network(tmp_path: Path, game3: Game) -> None:
    rt, link, _ = _prompted(tmp_path, game3)
    app = create_app(rt, {"PAIRING_TOKEN": "K7QD-M2XP-4RTA-9WZB", "SERVE_NETWORK": True})
    attach(app, link, FrameHub())
    client = app.test_client()
    lan = {"environ_base": {"REMOTE_ADDR": "192.0.2.7"}}
    host = {"Host": "192.0.2.2"}
    assert client.get("/api/tracker", headers=host, **lan).status_code == 401
    pid = client.get("/api/tracker").get_json()["prompt"]["id"]
    answer = {"id": pid, "option": 0}
    assert client.post("/api/tracker/answer", json=answer, headers=host, **lan).status_code == 401
    assert client.get("/camera.jpg", headers=host, **lan).status_code == 401  # a picture of the room
    paired = {**host, "X-Pairing-Token": "K7QD-M2XP-4RTA-9WZB"}
    assert client.post("/api/tracker/answer", json=answer, headers=paired, **lan).status_code == 200


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


def test_page_shows_the_camera_and_a_prompt_to_tap(tmp_path: Path, game3: Game, browser) -> None:
    """Headless Chromium: the camera panel appears in camera mode with the picture and the tracker's
    state; tapping the prompt's option enters the move."""
    sync_api = pytest.importorskip("playwright.sync_api")
    cv2 = pytest.importorskip("cv2")
    import numpy as np

    from webui.server import LiveServer

    rt, link, i = _prompted(tmp_path, game3)
    live = LiveStrip.open(LedConfig(port="virtual"))
    live.attach(rt)
    app = create_app(rt, {"SSE_HEARTBEAT": 1.0}, leds=live)
    hub = FrameHub()
    attach(app, link, hub, source="test footage")
    ok, jpeg = cv2.imencode(".jpg", np.full((90, 160, 3), 120, np.uint8))
    assert ok
    hub.publish(jpeg.tobytes())
    server = LiveServer(app).start()
    try:
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url + "/")
        sync_api.expect(page.get_by_test_id("cam-state")).to_have_attribute("data-kind", "prompt")
        wait_until(page, "document.querySelector('#camera-img').naturalWidth === 160")
        # one LED system: the page's LED bar above the action row, no strip of the camera panel's own
        sync_api.expect(page.locator("#ledbar .led")).to_have_count(live.strip.led_count)
        sync_api.expect(page.get_by_test_id("leds-status")).to_have_attribute("data-status", "connected")
        assert page.locator("#camera .led, .cam-leds").count() == 0
        before = ",".join(map(str, frame_for_state(rt.snapshot().state, live.config)[0]))
        sync_api.expect(page.get_by_test_id("led-0")).to_have_attribute("data-rgb", before)
        page.get_by_role("button", name=str(game3.moves[i]), exact=True).click()
        sync_api.expect(page.get_by_test_id("cam-state")).not_to_have_attribute("data-kind", "prompt")
        after = ",".join(map(str, frame_for_state(rt.snapshot().state, live.config)[0]))
        assert after != before  # the next player's colour on the free tile
        sync_api.expect(page.get_by_test_id("led-0")).to_have_attribute("data-rgb", after)
        page.close()
        assert errors == []
        assert [str(m) for m in rt.snapshot().moves] == [str(m) for m in game3.moves[: i + 1]]
    finally:
        hub.close()
        app.extensions["companion"]["camera"]["feed"].close()
        server.stop()
        live.close()


def test_demo_path_ends_with_the_simulated_games_journal(tmp_path: Path) -> None:
    """The demo path with ``--vision truth`` end to end on the first moves of a game: rendered pictures
    (the held-out art pack, hands), the ground truth degraded by the noise model, tracker, runtime
    (which reads the setup off the table), the
    annotated MJPEG picture and the virtual LED strip; the journal served by the page equals the
    simulated game's."""
    pytest.importorskip("cv2")
    from companion.play import sim_session
    from tracker.loop import CameraLoop

    session = sim_session(tmp_path / "data", players=2, seed=3, width=480, end=9, pause=0.0, vision="truth")
    session.frames.speed = 2  # every other picture of a moving hand: half the rendering
    live = LiveStrip.open(LedConfig(port="virtual"))
    live.attach(session.runtime)
    app = create_app(session.runtime, leds=live)
    hub = FrameHub()
    loop = CameraLoop(session.frames, session.recognize, session.link, annotate=session.annotate, publish=hub.publish)
    attach(app, session.link, hub, camera_stats=loop.stats.to_dict, source=session.source)
    loop.run()
    client = app.test_client()
    journal = client.get("/api/journal").get_json()
    expected = [str(m) for m in session.game.moves[:9]]
    if expected[-1].startswith("draw "):
        expected.pop()  # drawn tiles are seen only once they are laid
    assert journal["moves"] == expected
    st = client.get("/api/tracker").get_json()
    assert st["camera"]["frames"] == session.frames.shown and st["camera"]["errors"] == 0
    assert "leds" not in st  # the strip is the app's: GET /api/leds
    live.flush()
    leds = client.get("/api/leds").get_json()
    final = frame_for_state(session.runtime.snapshot().state, live.config)
    assert leds["enabled"] and leds["virtual"] and leds["frame"] == [list(c) for c in final]
    assert any(c != [0, 0, 0] for c in leds["frame"])  # the committed moves reached the strip
    assert client.get("/camera.jpg").data[:2] == b"\xff\xd8"
    live.close()


def _get(url: str) -> dict:
    import json
    import urllib.request

    with urllib.request.urlopen(url, timeout=10) as resp:
        return json.loads(resp.read())


def _start(argv: list[str], ready: str) -> tuple[subprocess.Popen[str], list[str]]:
    """A ``table-companion`` process, and its output up to the line starting with ``ready``."""
    proc = subprocess.Popen(
        [sys.executable, "-X", "faulthandler", "-m", "companion", *argv],  # SIGABRT dumps every thread
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert proc.stdout is not None and proc.stderr is not None
    lines: list[str] = []
    while not lines or not lines[-1].startswith(ready):
        line = proc.stdout.readline()
        if not line:
            proc.kill()
            raise AssertionError("".join(lines) + proc.communicate()[1])
        lines.append(line)
    return proc, lines


def _stop(proc: subprocess.Popen[str], sig: int) -> tuple[str, str]:
    """Stop ``proc`` with ``sig``; its output. A process that has not ended a minute later is made to
    print every thread's stack (SIGABRT, with ``-X faulthandler``) and fails the test (killed: nothing
    is left running to spoil a later test)."""
    proc.send_signal(sig)
    try:
        return proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGABRT)
        try:
            err = proc.communicate(timeout=10)[1]
        except subprocess.TimeoutExpired:
            proc.kill()
            err = proc.communicate()[1]
        raise AssertionError(f"still running a minute after signal {sig}:\n{err[-6000:]}") from None


def _strip_follows_the_game(base: str, moves: int, times: int = 2) -> None:
    """``/api/leds`` shows, ``times`` times, the picture of the position committed at that moment (after
    at least ``moves`` moves); the strip may lag a change by a moment, so a mismatch is retried."""
    from games.tribes.rules.profile import default_profile
    from games.tribes.rules.state import State

    matched = 0
    deadline = time.monotonic() + 90
    while matched < times and time.monotonic() < deadline:
        view = _get(base + "/api/state")
        leds = _get(base + "/api/leds")
        if not view["has_game"] or view["moves"] < moves:
            time.sleep(0.2)
            continue
        assert leds["enabled"] and leds["virtual"] and leds["status"] == "connected"
        state = State.from_dict(view["position"], profile=default_profile())
        if leds["frame"] == [list(c) for c in frame_for_state(state, LedConfig(port="virtual"))]:
            matched += 1
            assert any(c != [0, 0, 0] for c in leds["frame"])
            time.sleep(1.0)
        else:
            time.sleep(0.05)
    assert matched == times, "the strip never showed the committed position"


def test_demo_process_shows_its_virtual_strip_following_the_moves() -> None:
    """``table-companion demo`` as a real process: the virtual LED strip (the default of its
    ``--leds``) is the app's own, at ``/api/leds``, and shows the position the tracker committed."""
    pytest.importorskip("cv2")
    argv = [
        "demo",
        "--port",
        "0",
        "--no-browser",
        "--width",
        "320",
        "--speed",
        "4",
        "--players",
        "2",
        "--vision",
        "truth",
    ]
    proc, lines = _start(argv, "open ")
    try:
        assert any(line.startswith("LED strip: virtual, 36 LEDs") for line in lines), lines
        base = lines[-1].split()[1].rstrip("/")
        _strip_follows_the_game(base, moves=3)
        assert _get(base + "/api/tracker")["source"].startswith("renderer ground truth")
    finally:
        out, err = _stop(proc, signal.SIGINT)
    assert proc.returncode == 0, err
    assert "recorded " in out


# --leds off with a camera starts a second camera process (13-20 s here): run with -m slow
@pytest.mark.parametrize("leds", [None, pytest.param("off", marks=pytest.mark.slow)])
def test_serve_camera_uses_the_apps_led_strip(tmp_path: Path, leds: str | None) -> None:
    """``serve --camera sim [--leds …]``: like ``serve --leds``, one strip for the whole page; the
    simulated table shows a virtual one unless ``--leds`` says otherwise."""
    pytest.importorskip("cv2")
    argv = ["serve", "--port", "0", "--data", str(tmp_path), "--no-fsync", "--camera", "sim"]
    # the camera starts before the server says it listens (a bad source fails before that line)
    proc, lines = _start([*argv, *(["--leds", leds] if leds else [])], "games are kept" if leds else "LED strip")
    try:
        assert lines[0].startswith("camera: sim"), lines
        base = next(line for line in lines if line.startswith("listening on")).split()[-1].rstrip("/")
        if leds == "off":
            assert _get(base + "/api/leds")["enabled"] is False
            assert not any(line.startswith("LED strip") for line in lines)
        else:
            assert any(line.startswith("LED strip: virtual") for line in lines), lines
            _strip_follows_the_game(base, moves=2, times=1)
        assert "leds" not in _get(base + "/api/tracker")
    finally:
        _stop(proc, signal.SIGTERM)
    assert proc.returncode == 0


def test_demo_led_mistakes_are_one_line(capsys) -> None:
    from companion.cli import main

    for flags, words in [
        (["--leds", "virtual", "--leds-count", "0"], "--leds-count: must be at least 1, got 0"),
        (["--leds-protocol", "dmx"], "--leds-protocol: unknown protocol 'dmx'"),
    ]:
        assert main(["demo", "--no-browser", "--port", "0", *flags]) == 2
        err = capsys.readouterr().err
        assert err.startswith("table-companion demo: ") and err.count("\n") == 1 and words in err, err
