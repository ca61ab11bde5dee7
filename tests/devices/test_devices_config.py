"""Bad LED configuration gives one clear line naming the field (and the file)."""

from __future__ import annotations

import json

import pytest

from devices.config import LedConfig, parse_colour
from devices.errors import ConfigError


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"led_count": 0}, "led_count", "must be at least 1, got 0"),
        ({"led_count": 35}, "led_count", "35 LEDs are too few for the row"),
        ({"led_count": 20, "leds_per_slot": 1, "offset": 10}, "led_count", "needs 22"),
        ({"protocol": "dmx"}, "protocol", "unknown protocol 'dmx'"),
        ({"color_order": "RGBW"}, "color_order", "must be one of"),
        ({"direction": "left"}, "direction", "forward or reverse"),
        ({"brightness": 1.5}, "brightness", "from 0 to 1"),
        ({"leds_per_slot": 0}, "leds_per_slot", "at least 1"),
        ({"max_row": 0}, "max_row", "at least 1"),
        ({"baud": "fast"}, "baud", "whole number"),
        ({"cost_levels": ()}, "cost_levels", "at least one level"),
        ({"cost_levels": (1.0, 2.0)}, "cost_levels[1]", "from 0 to 1"),
        ({"keepalive_s": 0}, "keepalive_s", "positive number of seconds"),
        ({"backoff_min_s": 2.0, "backoff_max_s": 1.0}, "backoff_max_s", "below backoff_min_s"),
        ({"event_colour": (300, 0, 0)}, "event_colour", "(r, g, b) colour"),
        ({"port": ""}, "port", "device path"),
    ],
)
def test_bad_values_name_the_field_in_one_line(changes, field, words):
    with pytest.raises(ConfigError) as info:
        LedConfig(**changes)
    assert info.value.field == field
    assert words in str(info.value)
    assert str(info.value).startswith(f"{field}: ") and "\n" not in str(info.value)


def test_led_count_defaults_to_what_the_row_needs_and_extra_leds_are_fine():
    assert LedConfig().strip_length == 12 * 3
    assert LedConfig(leds_per_slot=2, gap=1, offset=4, max_row=8).strip_length == 4 + 16 + 7
    assert LedConfig(led_count=60).strip_length == 60


def test_colours_by_name_hex_or_list():
    assert parse_colour("#FF8000") == (255, 128, 0)
    assert parse_colour("Red") == (255, 0, 0)
    assert parse_colour([1, 2, 3]) == (1, 2, 3)
    for bad in ("#ff80", "rot", [1, 2], [1, 2, 300], True):
        with pytest.raises(ValueError):
            parse_colour(bad)


def test_json_file_roundtrip(tmp_path):
    cfg = LedConfig(
        port="hwgrep://1a86:7523", led_count=40, player_colours={"green": (0, 255, 0)}, event_colour=(1, 2, 3)
    )
    path = tmp_path / "leds.json"
    path.write_text(json.dumps(cfg.to_dict()))
    assert LedConfig.load(path) == cfg


def test_json_file_errors_name_file_and_field(tmp_path):
    path = tmp_path / "leds.json"
    path.write_text('{"led_count": 0}')
    with pytest.raises(ConfigError, match=r"leds\.json: led_count: must be at least 1, got 0$"):
        LedConfig.load(path)
    path.write_text('{"ledcount": 30}')
    with pytest.raises(ConfigError, match=r"leds\.json: ledcount: unknown setting"):
        LedConfig.load(path)
    path.write_text('{"event_colour": "rot"}')
    with pytest.raises(ConfigError, match=r"leds\.json: event_colour: colour 'rot'"):
        LedConfig.load(path)
    path.write_text('{"led_count": 30,}')
    with pytest.raises(ConfigError, match=r"leds\.json: file: invalid JSON at line 1"):
        LedConfig.load(path)
    with pytest.raises(ConfigError, match=r"missing\.json: file: cannot read it"):
        LedConfig.load(tmp_path / "missing.json")
    path.write_text("[1, 2]")
    with pytest.raises(ConfigError, match="must be a JSON object"):
        LedConfig.load(path)
