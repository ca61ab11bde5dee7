"""``table-companion leds …``: list, test against emulated devices, show a game; bad input exits 2 with
one line on stderr."""

from __future__ import annotations

import json

import pytest
from helpers_devices import first_choice

from companion.cli import main
from devices.config import LedConfig
from devices.fakes import FakeAdalight, FakeWled
from games.tribes.leds import frame_for_state

SMALL = ["--leds", "8", "--per-slot", "2", "--max-row", "4", "--step", "0", "--hold", "0", "--greeting-timeout", "1"]


def is_subsequence(wanted, frames):
    it = iter(frames)
    return all(any(f == w for f in it) for w in wanted)


def single(i, colour, n=8):
    frame = [(0, 0, 0)] * n
    frame[i] = colour
    return frame


def test_list_runs(capsys):
    assert main(["leds", "list"]) == 0
    out = capsys.readouterr().out
    assert out.strip()


@pytest.mark.parametrize("fake", ["adalight", "wled"])
def test_test_walks_the_strip_lights_each_slot_then_blanks(tmp_path, capsys, fake):
    dev = (
        FakeAdalight(8, link=tmp_path / "tty", greet_interval_s=0.01)
        if fake == "adalight"
        else FakeWled(8, tmp_path / "tty")
    )
    with dev:
        assert main(["leds", "test", "--port", dev.path, *SMALL]) == 0
        assert dev.wait_for(lambda d: len(d.frames) > 8 and d.shown == [(0, 0, 0)] * 8, 2)
        frames = list(dev.frames)
    out = capsys.readouterr().out
    assert ("connected, Adalight; sending adalight" if fake == "adalight" else "WLED 2405180; sending wled") in out
    white = (128, 128, 128)  # brightness 0.5
    assert is_subsequence([single(i, white) for i in range(8)], frames), "the light walks over every LED in order"
    slot_frames = []
    for s in range(4):
        f = [(0, 0, 0)] * 8
        f[2 * s] = f[2 * s + 1] = white
        slot_frames.append(f)
    assert is_subsequence(slot_frames, frames), "each slot lights its own pair of LEDs"
    assert "slot 3: LEDs 4-5" in out and "  red" in out
    red = [f for f in frames if f[0] == (128, 0, 0)]
    assert red and red[0][2] == (38, 0, 0) and red[0][4] == (15, 0, 0), "free, then dimmer by cost"
    assert frames[-1] == [(0, 0, 0)] * 8


def test_test_reverse_and_colour_order_reach_the_wire(tmp_path, capsys):
    with FakeAdalight(8, link=tmp_path / "tty", greet_interval_s=0.01) as dev:
        assert main(["leds", "test", "--port", dev.path, *SMALL, "--reverse", "--order", "grb"]) == 0
        assert dev.wait_for(lambda d: len(d.frames) > 8 and d.shown == [(0, 0, 0)] * 8, 2)
        frames = list(dev.frames)
    assert "slot 1: LEDs 6-7" in capsys.readouterr().out
    red_free = [f for f in frames if f[7] == (0, 128, 0)]  # red sent green-first
    assert red_free and red_free[0][6] == (0, 128, 0)


def test_test_on_the_virtual_strip_prints_frames(capsys):
    assert main(["leds", "test", "--port", "virtual", *SMALL]) == 0
    out = capsys.readouterr().out
    assert "virtual strip: 8 LEDs" in out and "frame: 0 #808080, rest off" in out and "done: strip blanked" in out


def test_show_prints_and_lights_the_frame_for_a_position(tmp_path, capsys):
    state = first_choice()
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(state.to_dict()))
    assert main(["leds", "show", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Ann to choose a tile, round 1; red, 5 shell(s)" in out and "slot 1 off: free" in out
    with FakeAdalight(36, link=tmp_path / "tty", greet_interval_s=0.01) as dev:
        assert main(["leds", "show", str(path), "--port", dev.path, "--hold", "0", "--greeting-timeout", "1"]) == 0
        assert dev.wait_for(lambda d: frame_for_state(state, LedConfig()) in d.frames, 2)
        assert dev.wait_shown([(0, 0, 0)] * 36, 2)  # blanked when the command ends


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["test", "--port", "virtual", "--leds", "0"], "--leds: must be at least 1, got 0"),
        (["test", "--port", "virtual", "--leds", "10"], "--leds: 10 LEDs are too few for the row"),
        (["test", "--port", "virtual", "--leds", "ten"], "--leds: must be a whole number, got 'ten'"),
        (["test", "--port", "virtual", "--protocol", "dmx"], "--protocol: unknown protocol 'dmx'"),
        (["test", "--port", "virtual", "--order", "xyz"], "--order: must be one of"),
        (["test", "--port", "virtual", "--brightness", "2"], "--brightness: must be a number from 0 to 1"),
        (["test", "--port", "virtual", "--step", "-1"], "--step: must be 0 or more seconds"),
        (["test", "--port", "/dev/no-such-tty"], "serial port /dev/no-such-tty not found"),
        (["test", "--port", "hwgrep://ffff:fff0"], "no serial port matches hwgrep://ffff:fff0"),
        (["test", "--port", "bogus://x"], "unknown URL scheme bogus://"),
        (["show", "/no/such/game.json"], "cannot read the game file"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, args, message):
    assert main(["leds", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("table-companion: error: ")
    assert message in err


def test_bad_config_file_names_the_file(tmp_path, capsys):
    cfg = tmp_path / "leds.json"
    cfg.write_text('{"led_count": 0}')
    assert main(["leds", "test", "--port", "virtual", "--config", str(cfg)]) == 2
    err = capsys.readouterr().err
    assert err == f"table-companion: error: {cfg}: led_count: must be at least 1, got 0\n"


def test_device_that_never_answers_a_write_is_an_error(tmp_path, capsys):
    """A port that exists but cannot be used gives one line, not a hang or a traceback."""
    tty = tmp_path / "not-a-tty"
    tty.write_text("")
    assert main(["leds", "test", "--port", str(tty), *SMALL]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "could not connect" in err
