"""Serial strips against emulated Adalight and WLED controllers on pty pairs: exact bytes, keep-alive,
newest frame wins, unplug/replug, busy and missing ports, blank on close; virtual and null strips."""

from __future__ import annotations

import time

import pytest

from devices.config import LedConfig
from devices.errors import PortError
from devices.fakes import FakeAdalight, FakeController, FakeWled
from devices.frames import encode_adalight, reorder
from devices.ports import open_serial
from devices.strip import AdalightStrip, NullStrip, SerialStrip, VirtualStrip, WledStrip, open_strip

N = 8


def fast_config(port: str, **changes) -> LedConfig:
    """Tiny timeouts so that reconnect tests run in milliseconds (production: 0.5 s → 5 s back-off)."""
    base = dict(
        port=port,
        led_count=N,
        leds_per_slot=1,
        max_row=N,
        keepalive_s=0.03,
        min_interval_s=0.0,
        backoff_min_s=0.002,
        backoff_max_s=0.02,
        greeting_timeout_s=0.5,
        probe_interval_s=0.05,
        write_timeout_s=0.5,
    )
    base.update(changes)
    return LedConfig(**base)


def wait_until(predicate, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.002)
    return True


def frame_n(k: int) -> list[tuple[int, int, int]]:
    """A distinct frame for every k."""
    return [((k * 7 + i) % 256, (k * 13) % 256, (i * 31) % 256) for i in range(N)]


@pytest.fixture
def adalight(tmp_path):
    dev = FakeAdalight(N, link=tmp_path / "ttyADA", greet_interval_s=0.01)
    dev.plug()
    yield dev
    dev.close()


@pytest.fixture
def wled(tmp_path):
    dev = FakeWled(N, link=tmp_path / "ttyWLED")
    dev.plug()
    yield dev
    dev.close()


def test_adalight_exact_bytes_on_the_wire(adalight):
    """Forced Adalight sends nothing but whole frames; the newest frame's bytes arrive unchanged."""
    strip = AdalightStrip(fast_config(adalight.path, greeting_timeout_s=0.2))
    try:
        assert strip.wait_status("connected", 2)
        assert strip.status().firmware == "Adalight"
        strip.show(frame_n(1))
        assert adalight.wait_shown(frame_n(1), 2)
    finally:
        strip.close()
    assert adalight.wait_shown([(0, 0, 0)] * N, 2)  # closing blanks the strip
    raw = bytes(adalight.raw)
    size = 6 + 3 * N
    assert len(raw) % size == 0
    chunks = [raw[i : i + size] for i in range(0, len(raw), size)]
    assert encode_adalight(frame_n(1)) in chunks
    assert chunks[-1] == encode_adalight([(0, 0, 0)] * N)


def test_colour_order_is_applied_on_the_wire(adalight):
    strip = SerialStrip(fast_config(adalight.path, color_order="GRB", protocol="adalight"))
    try:
        strip.show(frame_n(2))
        assert adalight.wait_shown(reorder(frame_n(2), "GRB"), 2)
    finally:
        strip.close()


def test_auto_detects_wled_and_sends_json(wled):
    strip = SerialStrip(fast_config(wled.path))
    try:
        assert strip.wait_status("connected", 2)
        st = strip.status()
        assert (st.protocol, st.firmware) == ("wled", "WLED 2405180")
        strip.show(frame_n(3))
        assert wled.wait_shown(frame_n(3), 2)
        assert wled.on and all(line.get("on") is True for line in wled.json_lines)
    finally:
        strip.close()
    assert wled.wait_shown([(0, 0, 0)] * N, 2)


def test_forced_wled_strip(wled):
    strip = WledStrip(fast_config(wled.path, greeting_timeout_s=0.2))
    try:
        strip.show(frame_n(4))
        assert wled.wait_shown(frame_n(4), 2)
        assert strip.status().protocol == "wled"
    finally:
        strip.close()


def test_auto_falls_back_to_adalight_when_nothing_answers(tmp_path):
    with FakeAdalight(N, link=tmp_path / "tty", greet=False) as clone:
        strip = SerialStrip(fast_config(clone.path, greeting_timeout_s=0.1))
        try:
            assert strip.wait_status("connected", 2)
            assert strip.status().protocol == "adalight" and strip.status().firmware == ""
            strip.show(frame_n(5))
            assert clone.wait_shown(frame_n(5), 2)
        finally:
            strip.close()


def test_keepalive_resends_the_frame_without_new_input(adalight):
    """WLED leaves realtime mode 2.5 s after the last frame: the strip resends at least every second."""
    assert LedConfig().keepalive_s <= 1.0
    strip = SerialStrip(fast_config(adalight.path, keepalive_s=0.02))
    try:
        strip.show(frame_n(6))
        assert adalight.wait_shown(frame_n(6), 2)
        before = len(adalight.frames)
        assert adalight.wait_for(lambda d: len(d.frames) >= before + 5, 2), "no keep-alive frames"
        assert all(f == frame_n(6) for f in adalight.frames[before:])
    finally:
        strip.close()


def test_newest_frame_wins(adalight):
    """One writer thread; frames shown faster than the wire are skipped, never queued."""
    strip = SerialStrip(fast_config(adalight.path, min_interval_s=0.01, keepalive_s=1.0))
    try:
        assert strip.wait_status("connected", 2)
        for k in range(300):
            strip.show(frame_n(k))
        assert strip.wait_sent(2)
        assert adalight.wait_shown(frame_n(299), 2)
        assert len(adalight.frames) < 100
    finally:
        strip.close()


def _unplug_replug_cycles(dev: FakeController, strip: SerialStrip, cycles: int) -> set[str]:
    seen: set[str] = set()
    for k in range(cycles):
        dev.unplug()
        # the writer notices at its next keep-alive write at the latest
        assert strip.wait_status("absent", 3), (k, strip.status())
        seen.add(strip.status().state)
        strip.show(frame_n(k))  # a new picture while the device is away
        dev.plug()
        assert dev.wait_shown(frame_n(k), 3), (k, strip.status(), dev.shown)
        seen.add(strip.status().state)
    return seen


@pytest.mark.parametrize("firmware", ["adalight", "wled"])
def test_100_unplug_replug_cycles_show_the_last_frame_each_time(tmp_path, firmware):
    """Closing the pty master = pulling the cable. After each replug the strip finds the device under
    the same name, redoes the handshake and shows the newest frame; it never crashes."""
    if firmware == "adalight":
        dev: FakeController = FakeAdalight(N, link=tmp_path / "tty", greet_interval_s=0.005)
    else:
        dev = FakeWled(N, link=tmp_path / "tty")
    dev.plug()
    strip = SerialStrip(fast_config(dev.path))
    try:
        assert strip.wait_status("connected", 2)
        states = _unplug_replug_cycles(dev, strip, 100)
        assert strip.running
        assert strip.wait_status("connected", 2)
        st = strip.status()
        assert st.reconnects == 100 and st.protocol == firmware
        assert "absent" in states and "connected" in states
        assert dev.plugs == 101
    finally:
        strip.close()
        dev.close()


def test_write_error_reports_reconnecting_before_the_device_is_gone(tmp_path):
    """After a write fails the strip says ``reconnecting``; once the port is missing, ``absent``."""
    dev = FakeWled(N, link=tmp_path / "tty")
    dev.plug()
    strip = SerialStrip(fast_config(dev.path, backoff_min_s=0.3, backoff_max_s=0.3))
    try:
        assert strip.wait_status("connected", 2)
        dev.unplug()
        assert strip.wait_status("reconnecting", 2)
        assert "Input/output error" in strip.status().detail or "write failed" in strip.status().detail
        assert strip.wait_status("absent", 2)
        assert "not found" in strip.status().detail
    finally:
        strip.close()
        dev.close()


def test_device_missing_at_start_is_absent_until_plugged(tmp_path):
    dev = FakeAdalight(N, link=tmp_path / "tty", greet_interval_s=0.01)
    strip = SerialStrip(fast_config(str(tmp_path / "tty")))
    try:
        assert strip.wait_status("absent", 2)
        strip.show(frame_n(7))
        dev.plug()
        assert dev.wait_shown(frame_n(7), 3)
        assert strip.status().state == "connected"
    finally:
        strip.close()
        dev.close()


def test_busy_port_is_reported_then_taken_when_free(adalight):
    other = open_serial(adalight.path, LedConfig(port=adalight.path))
    strip = SerialStrip(fast_config(adalight.path))
    try:
        assert wait_until(lambda: "is busy" in strip.status().detail, 2), strip.status()
        assert strip.status().state == "reconnecting"
        other.close()
        strip.show(frame_n(8))
        assert adalight.wait_shown(frame_n(8), 3)
    finally:
        other.close()
        strip.close()


def test_close_blanks_and_stops(adalight):
    strip = SerialStrip(fast_config(adalight.path))
    strip.show(frame_n(9))
    assert adalight.wait_shown(frame_n(9), 2)
    strip.close()
    assert not strip.running
    assert adalight.wait_shown([(0, 0, 0)] * N, 2)
    assert strip.status().state == "absent" and strip.status().detail == "closed"


def test_close_without_blank_leaves_the_picture(adalight):
    strip = SerialStrip(fast_config(adalight.path, blank_on_close=False))
    strip.show(frame_n(10))
    assert adalight.wait_shown(frame_n(10), 2)
    strip.close()
    time.sleep(0.05)
    assert adalight.shown == frame_n(10)


def test_show_checks_the_frame():
    strip = VirtualStrip(4)
    with pytest.raises(ValueError, match="4"):
        strip.show([(0, 0, 0)] * 3)
    with pytest.raises(ValueError):
        strip.show([(0, 0, 256)] * 4)


def test_virtual_strip_keeps_and_publishes_frames():
    strip = VirtualStrip(3)
    got = []
    unsubscribe = strip.subscribe(got.append)
    strip.show([(1, 2, 3)] * 3)
    unsubscribe()
    strip.show([(4, 5, 6)] * 3)
    assert got == [[(1, 2, 3)] * 3]
    assert strip.frame == [(4, 5, 6)] * 3
    assert strip.status().state == "connected" and strip.status().frames_sent == 2


def test_open_strip_picks_the_implementation(tmp_path):
    assert isinstance(open_strip(LedConfig()), NullStrip)
    null = open_strip(LedConfig())
    null.show([(1, 1, 1)] * null.led_count)
    assert null.status().state == "absent"
    assert isinstance(open_strip(LedConfig(port="virtual")), VirtualStrip)
    with pytest.raises(PortError, match="not found"):
        open_strip(LedConfig(port=str(tmp_path / "nope")), require_port=True)
    lazy = open_strip(fast_config(str(tmp_path / "nope")))
    try:
        assert isinstance(lazy, SerialStrip) and lazy.wait_status("absent", 2)
    finally:
        lazy.close()


class RecordingStrip(SerialStrip):
    """Records the back-off pauses instead of sleeping them."""

    def __init__(self, config: LedConfig) -> None:
        self.pauses: list[float] = []
        super().__init__(config)

    def _pause(self, seconds: float) -> bool:
        self.pauses.append(seconds)
        time.sleep(0.001)
        return self._closing


def test_backoff_doubles_from_half_a_second_to_five(tmp_path):
    """The production schedule: 0.5 s, doubling, capped at 5 s, while the device stays away."""
    strip = RecordingStrip(LedConfig(port=str(tmp_path / "missing"), leds_per_slot=1, max_row=6))
    try:
        assert wait_until(lambda: len(strip.pauses) >= 7, 3)
        assert strip.pauses[:7] == [0.5, 1.0, 2.0, 4.0, 5.0, 5.0, 5.0]
        assert strip.status().state == "absent" and strip.status().attempts >= 7
    finally:
        strip.close()
