"""LiveStrip: a strip following a live game source off the source's thread, reporting its status and
picture to whoever asks; the ``--leds-…`` options shared with ``serve``."""

from __future__ import annotations

import argparse
import json
import threading
from types import SimpleNamespace

import pytest
from helpers_devices import first_choice

from devices.cli import add_strip_options, config_from_args, live_strip_from_args
from devices.config import LedConfig
from devices.errors import ConfigError, PortError
from devices.fakes import FakeAdalight
from devices.live import LiveStrip
from devices.looks import scale, slot_leds
from devices.strip import SerialStrip, VirtualStrip
from games.tribes.leds import frame_for_state, mover_colour
from games.tribes.rules.engine import apply
from games.tribes.rules.moves import parse_move

CFG = LedConfig(brightness=0.5, leds_per_slot=2, max_row=10, pulse_s=0.0)


class Source:
    """The least a game source offers: ``subscribe(callback) -> unsubscribe``, plus the current game."""

    def __init__(self, state=None) -> None:
        self.state = state
        self.state_id = 1
        self.callbacks: list = []

    @property
    def has_game(self) -> bool:
        return self.state is not None

    def subscribe(self, callback):
        self.callbacks.append(callback)
        return lambda: self.callbacks.remove(callback)

    def snapshot(self):
        return SimpleNamespace(state=self.state, state_id=self.state_id)

    def commit(self, move, op: str = "move", state=None) -> None:
        self.state = state if state is not None else apply(self.state, move)
        self.state_id += 1
        for cb in list(self.callbacks):
            cb(SimpleNamespace(op=op, state=self.state, move=move, state_id=self.state_id))


def test_attach_shows_the_current_game_then_follows_every_move():
    start = first_choice()
    src = Source(start)
    with LiveStrip(VirtualStrip(CFG.strip_length), CFG) as live:
        live.attach(src)
        assert live.flush()
        assert live.strip.frame == frame_for_state(start, CFG)
        mover = start.to_move
        src.commit(parse_move("1:" + ("exp" if start.row[0].tile == "exp" else "off 0,0")), "move")
        assert live.flush()
        after = src.state
        assert after.to_move != mover
        assert live.strip.frame == frame_for_state(after, CFG)
        free = mover_colour(after, CFG)
        assert [live.strip.frame[i] for i in slot_leds(1, CFG)] == [scale(free, CFG.brightness)] * 2
        snap = live.snapshot()
        assert snap["frame"] == [list(c) for c in frame_for_state(after, CFG)]
        assert snap["slots"][0] == {
            "slot": 1,
            "kind": "free",
            "cost": 0,
            "leds": slot_leds(1, CFG),
            "colour": list(scale(free, CFG.brightness)),
        }
        assert snap["layout"] == [slot_leds(s, CFG) for s in range(1, CFG.max_row + 1)]
        assert snap["status"] == "connected" and snap["port"] == "virtual" and snap["virtual"] is True
        json.dumps(snap)  # plain JSON data
    assert src.callbacks == []  # closing stops following


def _free_move(state):
    return parse_move("1:exp" if state.row[0].tile == "exp" else "1:off 0,0")


def test_the_taken_tile_pulses_only_after_a_committed_move():
    cfg = CFG.replace(pulse_s=30.0)
    start = first_choice()
    after = apply(start, _free_move(start))
    with LiveStrip(VirtualStrip(cfg.strip_length), cfg) as undo_live:
        src = Source(start)
        undo_live.attach(src)
        src.commit(_free_move(start), "undo", state=after)  # an undo or a correction names a move too
        assert undo_live.flush()
        assert undo_live.snapshot()["pulse"] is None
    with LiveStrip(VirtualStrip(cfg.strip_length), cfg) as live:
        src = Source(start)
        live.attach(src)
        src.commit(_free_move(start))
        assert live.flush()
        pulse = live.snapshot()["pulse"]
        assert pulse["slot"] == len(after.row)  # R-TURN-1: the taken tile lies at the end of the row now
        assert pulse["leds"] == slot_leds(len(after.row), cfg)
        assert pulse["colour"] == list(scale(cfg.pulse_colour, cfg.brightness))
        assert pulse["duration_s"] == 30.0 and 0 <= pulse["elapsed_s"] < 30


def test_an_older_state_queued_after_a_newer_one_is_skipped():
    old = first_choice()
    new = apply(old, _free_move(old))
    with LiveStrip(VirtualStrip(CFG.strip_length), CFG) as live:
        live.show_state(new, None, 8)
        live.show_state(old, None, 7)  # e.g. attach read the game just before a change was announced
        assert live.flush()
        assert live.strip.frame == frame_for_state(new, CFG)


class BrokenStrip(VirtualStrip):
    def _shown(self, frame) -> None:
        raise RuntimeError("the strip fell off the table")


def test_a_broken_strip_never_raises_into_the_source():
    start = first_choice()
    src = Source(start)
    with LiveStrip(BrokenStrip(CFG.strip_length), CFG) as live:
        live.attach(src)
        src.commit(_free_move(start))  # does not raise
        live.on_change(object())  # nor does a malformed change
        live.on_change(SimpleNamespace(op="move", state="not a state", move=None, state_id=99))
        assert live.flush()
        snap = live.snapshot()
        assert live.errors >= 2
        assert any("could not show the game" in w for w in snap["warnings"]), snap["warnings"]
        assert snap["status"] == "connected"  # the strip itself still answers


def test_listeners_hear_the_strip_come_and_go(tmp_path):
    cfg = CFG.replace(
        port=str(tmp_path / "ttyACM0"), backoff_min_s=0.05, backoff_max_s=0.1, greeting_timeout_s=1.0, pulse_s=0.0
    )
    seen: list[dict] = []
    got = threading.Condition()

    def listener(snap: dict) -> None:
        with got:
            seen.append(snap)
            got.notify_all()

    def wait_for(pred) -> dict:
        with got:
            assert got.wait_for(lambda: any(pred(s) for s in seen), 5), [s["status"] for s in seen]
            return next(s for s in reversed(seen) if pred(s))

    state = first_choice()
    dev = FakeAdalight(cfg.strip_length, link=tmp_path / "ttyACM0", greet_interval_s=0.02)
    live = LiveStrip(SerialStrip(cfg), cfg, poll_s=0.02)
    try:
        live.subscribe(listener)
        live.show_state(state)
        absent = wait_for(lambda s: s["status"] == "absent")
        assert "not found" in absent["detail"]
        dev.plug()
        connected = wait_for(lambda s: s["status"] == "connected")
        assert connected["protocol"] == "adalight" and connected["firmware"] == "Adalight"
        assert dev.wait_shown(frame_for_state(state, cfg), 5)
        dev.unplug()
        lost = wait_for(lambda s: s["status"] != "connected" and seen.index(s) > seen.index(connected))
        assert lost["status"] in ("reconnecting", "absent")
        dev.plug()
        again = wait_for(lambda s: s["status"] == "connected" and s["reconnects"] >= 1)
        assert again["frame"] == [list(c) for c in frame_for_state(state, cfg)]
        assert dev.wait_shown(frame_for_state(state, cfg), 5)
    finally:
        live.close()
        dev.close()


def _parser(prefix: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser()
    add_strip_options(p, prefix=prefix)
    return p


def test_serve_spells_the_shared_led_options_with_a_prefix():
    args = _parser("leds").parse_args(
        ["--leds", "virtual", "--leds-count", "40", "--leds-per-slot", "2", "--leds-reverse", "--leds-order", "grb"]
    )
    cfg = config_from_args(args, "leds")
    assert (cfg.port, cfg.led_count, cfg.leds_per_slot, cfg.direction, cfg.color_order) == (
        "virtual",
        40,
        2,
        "reverse",
        "GRB",
    )
    with pytest.raises(ConfigError, match=r"^--leds-count: must be at least 1, got 0$"):
        config_from_args(_parser("leds").parse_args(["--leds-count", "0"]), "leds")
    with pytest.raises(ConfigError, match=r"^--leds-protocol: unknown protocol"):
        config_from_args(_parser("leds").parse_args(["--leds-protocol", "dmx"]), "leds")
    with pytest.raises(ConfigError, match=r"^--leds-brightness: must be a number"):
        config_from_args(_parser("leds").parse_args(["--leds-brightness", "bright"]), "leds")
    # the leds commands keep their own spelling: --port, --leds is the count
    cfg = config_from_args(_parser("").parse_args(["--port", "virtual", "--leds", "40"]))
    assert (cfg.port, cfg.led_count) == ("virtual", 40)


def test_live_strip_from_the_serve_flags(tmp_path):
    parse = _parser("leds").parse_args
    assert live_strip_from_args(parse([]), "leds") == (None, [])
    assert live_strip_from_args(parse(["--leds", "off"]), "leds", "virtual") == (None, [])
    live, notes = live_strip_from_args(parse([]), "leds", "virtual")  # the demo's default
    assert live is not None and isinstance(live.strip, VirtualStrip) and notes == []
    live.close()
    conf = tmp_path / "leds.json"
    conf.write_text(json.dumps({"port": "virtual", "led_count": 50}))
    live, _ = live_strip_from_args(parse(["--leds-config", str(conf)]), "leds")
    assert live is not None and live.strip.led_count == 50
    live.close()
    # a controller that is not plugged in: the strip starts absent and says why
    live, notes = live_strip_from_args(parse(["--leds", str(tmp_path / "ttyUSB7")]), "leds")
    try:
        assert isinstance(live.strip, SerialStrip)
        assert len(notes) == 1 and "not found" in notes[0] and "absent" in notes[0]
        assert live.strip.wait_status("absent", 3)
    finally:
        live.close()
    # mistakes that can never work are errors
    for bad in ("hwgrep://(", "hwgrep://1a86:7523&x=1", "nosuch://port"):
        with pytest.raises(PortError):
            live_strip_from_args(parse(["--leds", bad]), "leds")
    with pytest.raises(ConfigError, match="cannot read it"):
        live_strip_from_args(parse(["--leds-config", str(tmp_path / "missing.json")]), "leds")
