"""The LED strip in the web companion: ``GET /api/leds``, ``event: leds`` on the stream, the runtime
driving the strip, ``serve --leds`` with an emulated Adalight on a pty, a controller that is not
plugged in, bad LED settings, and the LED dots on the page in headless Chromium."""

from __future__ import annotations

import json
import threading
import time

import pytest
from playwright.sync_api import expect

from companion.cli import main
from devices.config import LedConfig
from devices.fakes import FakeAdalight
from devices.live import LiveStrip
from devices.looks import scale, slot_leds
from devices.strip import VirtualStrip
from games.tribes.leds import frame_for_state, mover_colour
from tests.conftest import wait_until
from tests.webui.webui_helpers import PLAYERS, call, play, start_server
from tests.webui.webui_helpers import read_events as _read_events
from webui.app import create_app
from webui.server import LiveServer

CFG = LedConfig(port="virtual", pulse_s=0.0)


def frame_json(state, cfg: LedConfig = CFG) -> list[list[int]]:
    return [list(c) for c in frame_for_state(state, cfg)]


@pytest.fixture
def leds(runtime):
    live = LiveStrip(VirtualStrip(CFG.strip_length), CFG)
    live.attach(runtime)
    yield live
    live.close()


@pytest.fixture
def lclient(runtime, leds):
    return create_app(runtime, {"SSE_HEARTBEAT": 0.2}, leds=leds).test_client()


def test_api_leds_without_a_strip(client):
    r = client.get("/api/leds")
    assert r.status_code == 200
    data = r.get_json()
    assert data["enabled"] is False and data["status"] == "absent"
    assert data["frame"] == [] and data["slots"] == [] and data["port"] is None and "serve --leds" in data["detail"]


def test_api_leds_with_a_virtual_strip(lclient, runtime, leds, recorded):
    play(runtime, recorded, 4)  # Ann (red) chooses a tile
    assert leds.flush()
    data = lclient.get("/api/leds").get_json()
    state = runtime.snapshot().state
    assert data["enabled"] is True
    assert data["status"] == "connected" and data["virtual"] is True
    assert data["port"] == data["protocol"] == "virtual"
    assert data["frame"] == frame_json(state) and len(data["frame"]) == CFG.strip_length
    assert data["slots"][0]["kind"] == "free" and data["slots"][0]["leds"] == slot_leds(1, CFG)
    red = scale((255, 0, 0), CFG.brightness)
    assert data["slots"][0]["colour"] == list(red) and data["frame"][0] == list(red)
    assert len(data["layout"]) == CFG.max_row


def test_committed_moves_drive_the_virtual_strip(runtime, leds, recorded):
    """Every change of the runtime — moves, an undo, a correction — ends with the strip showing
    frame_for_state of the new state: the free front tile in the colour of the player to move."""
    runtime.new_game(PLAYERS)
    chooses = tiles = 0
    for move in recorded.moves[:40]:
        runtime.submit(move, runtime.state_id)
        assert leds.flush()
        state = runtime.snapshot().state
        assert leds.strip.frame == frame_for_state(state, CFG)
        if state.pending.kind == "choose":
            chooses += 1
            front = [leds.strip.frame[i] for i in slot_leds(1, CFG)]
            colour = CFG.event_colour if state.row[0].event else mover_colour(state, CFG)  # R-TURN-5
            assert front == [scale(colour, CFG.brightness)] * CFG.leds_per_slot
            tiles += not state.row[0].event
    assert chooses >= 10 and tiles >= 8
    # undo within the turn, then a correction of the record: the strip follows both
    runtime.submit(recorded.moves[40], runtime.state_id)
    if runtime.undo_status()[0]:
        runtime.undo(runtime.state_id)
        assert leds.flush() and leds.strip.frame == frame_for_state(runtime.snapshot().state, CFG)
    runtime.correct(len(runtime.snapshot().moves) - 1, runtime.snapshot().moves[-1], runtime.state_id, "truncate")
    assert leds.flush() and leds.strip.frame == frame_for_state(runtime.snapshot().state, CFG)


class BrokenStrip(VirtualStrip):
    def _shown(self, frame) -> None:
        raise OSError("the strip fell off the table")


def test_a_failing_strip_breaks_neither_the_runtime_nor_the_server(runtime, recorded):
    live = LiveStrip(BrokenStrip(CFG.strip_length), CFG)
    live.attach(runtime)
    try:
        client = create_app(runtime, leds=live).test_client()
        play(runtime, recorded, 4)
        r = client.post("/api/moves", json={"state_id": runtime.state_id, "move": str(recorded.moves[4])})
        assert r.status_code == 200
        assert live.flush()
        data = client.get("/api/leds").get_json()
        assert any("fell off the table" in w for w in data["warnings"])
        assert client.get("/api/state").status_code == 200
    finally:
        live.close()


class Unreadable:
    def snapshot(self) -> dict:
        raise RuntimeError("no answer")


def test_a_provider_that_cannot_report_shows_absent(runtime):
    data = create_app(runtime, leds=Unreadable()).test_client().get("/api/leds").get_json()  # type: ignore[arg-type]
    assert data["enabled"] is True and data["status"] == "absent" and "no answer" in data["detail"]


def test_the_event_stream_carries_strip_changes(lclient, runtime, leds, recorded):
    play(runtime, recorded, 4)
    assert leds.flush()
    resp = lclient.get("/api/events", buffered=False)
    first = _read_events(resp, 3)
    assert first[1].startswith(f"id: {runtime.state_id}\nevent: state")
    assert first[2].startswith("event: leds\ndata: ")  # no id: Last-Event-ID stays the state id
    assert json.loads(first[2].split("data: ", 1)[1])["frame"] == frame_json(runtime.snapshot().state)

    threading.Timer(0.05, lambda: runtime.submit(recorded.moves[4], runtime.state_id)).start()
    blocks = _read_events(resp, 2)
    assert blocks[0].startswith(f"id: {runtime.state_id}\nevent: state")
    assert blocks[1].startswith("event: leds")
    assert json.loads(blocks[1].split("data: ", 1)[1])["frame"] == frame_json(runtime.snapshot().state)
    resp.close()


def test_serve_drives_an_adalight_on_a_pty(tmp_path, recorded):
    """``serve --leds PORT`` (a real server process) with the emulated Arduino: after each move
    submitted over HTTP the controller latches the frame for the new state; Ctrl+C blanks it."""
    link = tmp_path / "ttyACM0"
    with FakeAdalight(36, link=link, greet_interval_s=0.05) as dev:
        proc, base = start_server(tmp_path / "data", "--no-fsync", "--leds", str(link), "--leds-greeting-timeout", "1")
        try:
            players = [{"name": n, "colour": c} for n, c in PLAYERS]
            assert call(base + "/api/games", "POST", {"players": players})[0] == 200
            cfg = LedConfig()
            for i in range(22):
                sid = call(base + "/api/state")[1]["state_id"]
                status, _ = call(base + "/api/moves", "POST", {"state_id": sid, "move": str(recorded.moves[i])})
                assert status == 200
                if i in (3, 20):  # Ann, then Cid to choose: their colour on the free tile
                    assert dev.wait_shown(frame_for_state(recorded.states[i + 1], cfg), 5), i
            # the strip follows the game in its own thread: the last move may take a moment to reach it
            want, deadline = frame_json(recorded.states[22], cfg), time.monotonic() + 5
            leds = call(base + "/api/leds")[1]
            while leds["frame"] != want and time.monotonic() < deadline:
                time.sleep(0.05)
                leds = call(base + "/api/leds")[1]
            assert (leds["status"], leds["protocol"], leds["firmware"]) == ("connected", "adalight", "Adalight")
            assert leds["port"] == str(link) and leds["frame"] == want
            assert leds["frame"][0] == list(scale((255, 0, 0), cfg.brightness))  # Ann (red) to choose
        finally:
            proc.terminate()
            proc.wait(10)
            proc.stdout.close()
            proc.stderr.close()
        assert dev.wait_shown([(0, 0, 0)] * 36, 5)  # the strip goes dark when the server stops


def test_serve_with_a_controller_not_plugged_in_starts_and_shows_absent(tmp_path, browser):
    """Design: the strip is optional hardware that may be plugged in later, so a missing device is not
    a reason to refuse the game: serve starts, warns in one line, and the page shows "absent"."""
    port = tmp_path / "nonexistent" / "ttyUSB9"
    proc, base = start_server(tmp_path / "data", "--no-fsync", "--leds", str(port))
    try:
        leds = call(base + "/api/leds")[1]
        deadline = time.monotonic() + 5
        while leds["status"] != "absent" and time.monotonic() < deadline:
            time.sleep(0.05)
            leds = call(base + "/api/leds")[1]
        assert leds["enabled"] is True and leds["status"] == "absent" and "not found" in leds["detail"]
        page = browser.new_page()
        page.goto(base + "/")
        badge = page.get_by_test_id("leds-status")
        expect(badge).to_have_attribute("data-status", "absent")
        expect(badge).to_contain_text("absent")
        assert "not found" in badge.get_attribute("title")
        page.close()
    finally:
        proc.terminate()
        proc.wait(10)
        err = proc.stderr.read()
        proc.stdout.close()
        proc.stderr.close()
    warnings = [line for line in err.splitlines() if "LED strip" in line]
    assert len(warnings) == 1 and warnings[0].startswith("warning: LED strip ") and "absent" in warnings[0], err


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--leds", "virtual", "--leds-count", "0"], "--leds-count: must be at least 1, got 0"),
        (["--leds", "virtual", "--leds-count", "20"], "--leds-count: 20 LEDs are too few for the row"),
        (["--leds", "/dev/ttyUSB0", "--leds-protocol", "dmx"], "--leds-protocol: unknown protocol 'dmx'"),
        (["--leds", "hwgrep://("], "is not a valid pattern"),
        (["--leds-config", "/nonexistent/leds.json"], "/nonexistent/leds.json: file: cannot read it"),
    ],
)
def test_serve_bad_led_settings_exit_2_with_one_line(tmp_path, capsys, flags, message):
    assert main(["serve", "--data", str(tmp_path), "--port", "0", *flags]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("table-companion serve: ") and message in err, err
    assert not (tmp_path / "games").exists()  # refused before anything started


def test_the_page_shows_the_led_dots_and_they_change_after_a_move(browser, runtime, leds, recorded):
    play(runtime, recorded, 22)  # Ann (red) to choose
    server = LiveServer(create_app(runtime, {"SSE_HEARTBEAT": 1.0}, leds=leds)).start()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(server.url + "/")
        dots = page.locator("#ledbar .led")
        expect(dots).to_have_count(CFG.strip_length)
        expect(page.get_by_test_id("leds-status")).to_have_attribute("data-status", "connected")
        before = frame_json(runtime.snapshot().state)
        expect(page.get_by_test_id("led-0")).to_have_attribute("data-rgb", ",".join(map(str, before[0])))
        expect(page.get_by_test_id("led-0")).to_have_class("led lit")
        runtime.submit(recorded.moves[22], runtime.state_id)  # entered elsewhere: Bob (blue) to choose
        after = frame_json(runtime.snapshot().state)
        assert after[0] != before[0]
        expect(page.get_by_test_id("led-0")).to_have_attribute("data-rgb", ",".join(map(str, after[0])))
        shown = [dots.nth(i).get_attribute("data-rgb") for i in range(CFG.strip_length)]
        assert shown == [",".join(map(str, c)) for c in after]
        page.get_by_test_id("lang").click()
        expect(page.get_by_test_id("leds-status")).to_contain_text("LED-Streifen (virtuell): verbunden")
        page.get_by_test_id("lang").click()
    finally:
        context.close()
        server.stop()
    assert errors == []


def test_the_page_pulses_the_tile_just_taken(browser, runtime, recorded):
    """The same pulse as the strip: the taken tile's dots rise towards the pulse colour (white) and
    fall back to the frame."""
    # a pulse long enough that a slow machine still finds it after the flush (2 s was seen to expire
    # before the snapshot on a machine three times slower than the one it was written on)
    cfg = CFG.replace(pulse_s=6.0)
    live = LiveStrip(VirtualStrip(cfg.strip_length), cfg)
    live.attach(runtime)
    play(runtime, recorded, 13)
    server = LiveServer(create_app(runtime, {"SSE_HEARTBEAT": 1.0}, leds=live)).start()
    page = browser.new_page()
    try:
        page.goto(server.url + "/")
        expect(page.locator("#ledbar .led")).to_have_count(cfg.strip_length)
        runtime.submit(recorded.moves[13], runtime.state_id)  # Ann takes a tile: it pulses at the end of the row
        assert live.flush()
        pulse = live.snapshot()["pulse"]
        led = page.get_by_test_id(f"led-{pulse['leds'][0]}")
        base = ",".join(map(str, frame_json(runtime.snapshot().state, cfg)[pulse["leds"][0]]))
        expect(led).to_have_attribute("data-rgb", base)
        sel = f"[data-testid=led-{pulse['leds'][0]}]"
        white = (
            f"getComputedStyle(document.querySelector('{sel}')).backgroundColor.match(/\\d+/g).every((v) => v > 200)"
        )
        wait_until(page, white, 6)  # near the pulse colour
        wait_until(page, f"!({white})", 8)  # and back to the frame
    finally:
        page.close()
        server.stop()
        live.close()
