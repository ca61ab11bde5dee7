"""Finding ports (path, hwgrep://VID:PID), exclusive opening, and firmware detection on emulated devices."""

from __future__ import annotations

import pytest
import serial

from devices.config import LedConfig
from devices.detect import Detection, detect, scan
from devices.errors import PortError
from devices.fakes import FakeAdalight, FakeWled
from devices.ports import PortInfo, open_serial, resolve_port

PORTS = [
    PortInfo("/dev/ttyACM0", "Arduino Uno", "USB VID:PID=2341:0043 SER=857 LOCATION=1-1:1.0", 0x2341, 0x0043),
    PortInfo("/dev/ttyUSB0", "USB-SERIAL CH340", "USB VID:PID=1A86:7523 LOCATION=1-2", 0x1A86, 0x7523),
    PortInfo("/dev/ttyUSB1", "USB-SERIAL CH340", "USB VID:PID=1A86:7523 LOCATION=1-3", 0x1A86, 0x7523),
]


def test_hwgrep_finds_by_vid_pid_case_insensitive():
    assert resolve_port("hwgrep://1a86:7523", lambda: PORTS) == "/dev/ttyUSB0"
    assert resolve_port("hwgrep://1A86:7523&n=2", lambda: PORTS) == "/dev/ttyUSB1"
    assert resolve_port("hwgrep://arduino", lambda: PORTS) == "/dev/ttyACM0"


def test_hwgrep_without_match_is_one_line_naming_the_ports():
    with pytest.raises(PortError) as info:
        resolve_port("hwgrep://303a:1001", lambda: PORTS)
    text = str(info.value)
    assert "no serial port matches hwgrep://303a:1001" in text and "/dev/ttyUSB0 (1a86:7523)" in text
    assert "\n" not in text
    with pytest.raises(PortError, match="only 2 serial port"):
        resolve_port("hwgrep://1a86:7523&n=3", lambda: PORTS)
    with pytest.raises(PortError, match="no serial ports are connected"):
        resolve_port("hwgrep://1a86:7523", lambda: [])


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("hwgrep://", "give a VID:PID"),
        ("hwgrep://1a86:7523&x=1", "unknown option"),
        ("hwgrep://([", "not a valid pattern"),
        ("foo://bar", "unknown URL scheme foo://"),
        ("/dev/does-not-exist-xyz", "serial port /dev/does-not-exist-xyz not found"),
        ("virtual", "in-memory strip"),
    ],
)
def test_unknown_ports_are_clear_errors(spec, words):
    with pytest.raises(PortError, match=words.replace("(", r"\(").replace(")", r"\)")):
        resolve_port(spec, lambda: PORTS)


def test_paths_and_pyserial_urls_pass(tmp_path):
    dev = tmp_path / "ttyFake"
    dev.touch()
    assert resolve_port(str(dev), lambda: []) == str(dev)
    assert resolve_port("loop://", lambda: []) == "loop://"
    assert resolve_port("socket://localhost:7777", lambda: []) == "socket://localhost:7777"


def test_open_is_exclusive_and_sets_control_lines(tmp_path):
    with FakeAdalight(6, link=tmp_path / "tty", greet_interval_s=0.05) as dev:
        cfg = LedConfig(port=dev.path, dtr=False, rts=False)
        first = open_serial(dev.path, cfg)
        try:
            assert first.dtr is False and first.rts is False
            with pytest.raises(PortError, match="is busy: another program has it open"):
                open_serial(dev.path, cfg)
        finally:
            first.close()
        open_serial(dev.path, cfg).close()  # free again once closed


def test_detects_adalight_greeting(tmp_path):
    with FakeAdalight(6, link=tmp_path / "tty", greet_interval_s=0.02) as dev:
        ser = open_serial(dev.path, LedConfig(port=dev.path))
        try:
            assert detect(ser, "auto", timeout_s=2.0, probe_interval_s=0.5) == Detection("adalight", "Adalight")
        finally:
            ser.close()


def test_detects_wled_version(tmp_path):
    with FakeWled(6, link=tmp_path / "tty", version="2405180") as dev:
        ser = open_serial(dev.path, LedConfig(port=dev.path))
        try:
            assert detect(ser, "auto", timeout_s=2.0) == Detection("wled", "WLED 2405180")
        finally:
            ser.close()
        assert dev.raw.startswith(b"v")


def test_silent_device_gives_no_answer_and_adalight_mode_sends_nothing(tmp_path):
    with FakeAdalight(6, link=tmp_path / "a", greet=False) as silent, FakeWled(6, link=tmp_path / "w") as wled:
        ser = open_serial(silent.path, LedConfig(port=silent.path))
        try:
            assert detect(ser, "auto", timeout_s=0.2, probe_interval_s=0.05).protocol is None
        finally:
            ser.close()
        ser = open_serial(wled.path, LedConfig(port=wled.path))
        try:
            assert detect(ser, "adalight", timeout_s=0.1).protocol is None
        finally:
            ser.close()
        assert wled.raw == b""  # listening for Adalight never probes


def test_loop_echo_is_not_mistaken_for_a_device():
    ser = serial.serial_for_url("loop://", timeout=0.01)
    try:
        assert detect(ser, "auto", timeout_s=0.1, probe_interval_s=0.03).protocol is None
    finally:
        ser.close()


def test_scan_reads_answers_in_noise():
    assert scan(b"\x00garbage\r\nAda\n") == Detection("adalight", "Adalight")
    assert scan(b"Baud is now 115200\r\nWLED 0.14.4\r\n") == Detection("wled", "WLED 0.14.4")
    assert scan(b"WLED 0.14") is None  # not a whole line yet
    assert scan(b"Ada\n", want="wled") is None
