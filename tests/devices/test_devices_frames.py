"""Wire encoders: exact Adalight and WLED bytes, also through a real pyserial ``loop://`` port."""

from __future__ import annotations

import json

import numpy as np
import pytest
import serial
from helpers_devices import first_choice

from devices.config import LedConfig
from devices.frames import (
    adalight_header,
    apply_wled_segment_items,
    decode_adalight,
    encode_adalight,
    encode_wled_json,
    reorder,
    wled_segment_items,
)
from devices.ports import open_serial
from games.tribes.leds import frame_for_state


def test_adalight_reference_example():
    """6 LEDs, LED 0 red: the bytes from the reference (verified on a socat pty pair)."""
    frame = [(255, 0, 0)] + [(0, 0, 0)] * 5
    assert encode_adalight(frame) == bytes.fromhex("41 64 61 00 05 50 ff 00 00") + bytes(15)


@pytest.mark.parametrize(
    ("count", "hi", "lo"),
    [(1, 0x00, 0x00), (36, 0x00, 0x23), (256, 0x00, 0xFF), (257, 0x01, 0x00), (300, 0x01, 0x2B), (65536, 0xFF, 0xFF)],
)
def test_adalight_header_counts_leds_minus_one_big_endian(count, hi, lo):
    assert adalight_header(count) == b"Ada" + bytes((hi, lo, hi ^ lo ^ 0x55))


def test_adalight_roundtrip_and_length():
    frame = [(i % 256, 255 - i % 256, (7 * i) % 256) for i in range(300)]
    data = encode_adalight(frame)
    assert len(data) == 6 + 900
    assert decode_adalight(data) == frame


@pytest.mark.parametrize(
    "bad",
    [[], [(256, 0, 0)], [(-1, 0, 0)], [(1, 2)], [(1.5, 0, 0)]],
)
def test_adalight_rejects_bad_frames(bad):
    with pytest.raises(ValueError):
        encode_adalight(bad)


def test_adalight_too_many_leds():
    with pytest.raises(ValueError, match="65536"):
        encode_adalight([(0, 0, 0)] * 65537)


def test_decode_rejects_bad_checksum_and_length():
    data = bytearray(encode_adalight([(1, 2, 3)] * 4))
    data[5] ^= 1
    with pytest.raises(ValueError, match="checksum"):
        decode_adalight(bytes(data))
    with pytest.raises(ValueError, match="announces 4 LEDs"):
        decode_adalight(encode_adalight([(1, 2, 3)] * 4)[:-1])


def test_reorder_grb():
    assert reorder([(1, 2, 3), (10, 20, 30)], "GRB") == [(2, 1, 3), (20, 10, 30)]
    assert reorder([(1, 2, 3)], "BGR") == [(3, 2, 1)]
    with pytest.raises(ValueError):
        reorder([(1, 2, 3)], "RGBW")


def test_wled_json_line_exact():
    frame = [(0, 0, 0)] * 3 + [(255, 128, 0)] + [(0, 0, 0)] * 2
    line = encode_wled_json(frame)
    assert line == b'{"on":true,"seg":{"i":[0,3,"000000","FF8000",4,6,"000000"]}}\n'


def test_wled_items_reproduce_the_frame_under_wled_semantics():
    """Runs become ``start, stop, colour``, singles a bare colour that goes on at the next LED."""
    frame = [(1, 2, 3), (1, 2, 3), (9, 9, 9), (0, 0, 0), (5, 5, 5), (5, 5, 5), (5, 5, 5), (7, 0, 0)]
    items = wled_segment_items(frame)
    assert items == [0, 2, "010203", "090909", "000000", 4, 7, "050505", "070000"]
    pixels = [(255, 255, 255)] * len(frame)
    apply_wled_segment_items(pixels, json.loads(encode_wled_json(frame))["seg"]["i"])
    assert pixels == frame


def test_wled_semantics_match_the_documented_example():
    """``[0,6,"000000",2,"FF8000"]`` blacks out LEDs 0-5, then sets LED 2 to orange (json.cpp)."""
    pixels = [(9, 9, 9)] * 8
    apply_wled_segment_items(pixels, [0, 6, "000000", 2, "FF8000"])
    assert pixels == [(0, 0, 0)] * 2 + [(255, 128, 0)] + [(0, 0, 0)] * 3 + [(9, 9, 9)] * 2


def test_exact_frame_bytes_through_loop_port():
    """A frame for a real engine state, written to pyserial's ``loop://`` and read back unchanged;
    DTR was set before opening (loop:// mirrors DTR on DSR)."""
    config = LedConfig(port="loop://", dtr=True, rts=False)
    frame = frame_for_state(first_choice(), config)
    ser = open_serial("loop://", config)
    try:
        assert ser.dsr is True and ser.cts is False
        for data in (encode_adalight(frame), encode_wled_json(frame)):
            ser.write(data)
            got = ser.read(len(data))
            assert got == data
        assert decode_adalight(encode_adalight(frame)) == frame
    finally:
        ser.close()


def test_loop_port_with_colour_order_sends_reordered_channels():
    config = LedConfig(port="loop://", color_order="GRB")
    frame = frame_for_state(first_choice(), config)
    ser = serial.serial_for_url("loop://", timeout=0.5)
    try:
        ser.write(encode_adalight(reorder(frame, config.color_order)))
        got = decode_adalight(ser.read(6 + 3 * len(frame)))
    finally:
        ser.close()
    assert got == [(g, r, b) for r, g, b in frame]
    assert any(r != g for r, g, _ in frame)  # the swap is visible in this frame


def test_numpy_integers_are_accepted():
    frame = [tuple(np.array([255, 128, 0], dtype=np.uint8))] * 2
    assert encode_adalight(frame) == encode_adalight([(255, 128, 0)] * 2)
    assert encode_wled_json(frame) == b'{"on":true,"seg":{"i":[0,2,"FF8000"]}}\n'
