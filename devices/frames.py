"""Pure wire encoders for LED frames: bytes in, bytes out, no I/O.

A frame is one ``(r, g, b)`` triple (0–255 each) per LED of the whole strip, in strip order. Always
send the whole strip the firmware expects: many Adalight sketches ignore the count in the header and
read a fixed number of LEDs (docs/leds.md).

* Adalight: ``'Ada'``, count-1 as 16-bit big-endian ``hi lo``, checksum ``hi ^ lo ^ 0x55``, then
  3 bytes per LED (Adalight-FastLED ``LEDstream_FastLED.ino``; WLED ``wled_serial.cpp``).
* WLED JSON over serial: one line ``{"on":true,"seg":{"i":[...]}}`` — per-LED colours for the
  selected segment (WLED ``json.cpp``: integers set a start and optionally an exclusive stop, a colour
  fills them, a bare colour goes to the next LED). The segment stays frozen on that picture, so no
  streaming is needed; runs of equal LEDs are sent as ranges to keep the line short.
"""

from __future__ import annotations

import json
import numbers
from collections.abc import Iterable, Sequence

RGB = tuple[int, int, int]
"""One LED colour: red, green, blue, each 0–255."""

ADALIGHT_MAGIC = b"Ada"
ADALIGHT_MAX_LEDS = 0x10000
"""The header counts LEDs minus one in 16 bits."""
COLOR_ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")


def check_frame(colors: Sequence[RGB]) -> None:
    """Raise ``ValueError`` unless ``colors`` is a non-empty sequence of ``(r, g, b)`` ints 0–255."""
    if len(colors) == 0:
        raise ValueError("a frame needs at least one LED")
    for i, c in enumerate(colors):
        if len(c) != 3 or not all(isinstance(v, numbers.Integral) and 0 <= v <= 255 for v in c):
            raise ValueError(f"LED {i}: {c!r} is not an (r, g, b) triple of ints 0-255")


def reorder(colors: Iterable[RGB], order: str) -> list[RGB]:
    """Channels in the order the strip expects: ``order`` is a permutation of ``"RGB"`` (``"GRB"``
    sends green first). Only a firmware that forwards bytes unchanged needs this (docs/leds.md)."""
    if order not in COLOR_ORDERS:
        raise ValueError(f"colour order {order!r} is not one of {', '.join(COLOR_ORDERS)}")
    if order == "RGB":
        return [tuple(c) for c in colors]  # type: ignore[misc]
    idx = ["RGB".index(ch) for ch in order]
    return [(c[idx[0]], c[idx[1]], c[idx[2]]) for c in colors]


def adalight_header(count: int) -> bytes:
    """The 6-byte header for ``count`` LEDs."""
    if not 1 <= count <= ADALIGHT_MAX_LEDS:
        raise ValueError(f"Adalight sends 1 to {ADALIGHT_MAX_LEDS} LEDs, not {count}")
    hi, lo = divmod(count - 1, 256)
    return ADALIGHT_MAGIC + bytes((hi, lo, hi ^ lo ^ 0x55))


def encode_adalight(colors: Sequence[RGB]) -> bytes:
    """One Adalight frame: header plus 3 bytes per LED, in the order given."""
    check_frame(colors)
    return adalight_header(len(colors)) + bytes(v for c in colors for v in c)


def decode_adalight(data: bytes) -> list[RGB]:
    """Read back exactly one Adalight frame (for tests and the emulated controllers)."""
    if len(data) < 6 or data[:3] != ADALIGHT_MAGIC:
        raise ValueError("not an Adalight frame: it must start with b'Ada'")
    hi, lo, chk = data[3], data[4], data[5]
    if chk != hi ^ lo ^ 0x55:
        raise ValueError(f"Adalight checksum 0x{chk:02x} should be 0x{hi ^ lo ^ 0x55:02x}")
    count = hi * 256 + lo + 1
    body = data[6:]
    if len(body) != 3 * count:
        raise ValueError(f"Adalight header announces {count} LEDs ({3 * count} bytes), got {len(body)} bytes")
    return [(body[i], body[i + 1], body[i + 2]) for i in range(0, len(body), 3)]


def _hex(c: RGB) -> str:
    return f"{c[0]:02X}{c[1]:02X}{c[2]:02X}"


def wled_segment_items(colors: Sequence[RGB]) -> list[int | str]:
    """The ``seg.i`` array for a whole frame: ``start, stop, "RRGGBB"`` for a run of two or more equal
    LEDs, a bare ``"RRGGBB"`` for a single one (it lands on the LED after the previous run)."""
    check_frame(colors)
    items: list[int | str] = []
    i, n = 0, len(colors)
    while i < n:
        j = i + 1
        while j < n and tuple(colors[j]) == tuple(colors[i]):
            j += 1
        if j - i >= 2:
            items.extend((i, j, _hex(colors[i])))
        else:
            items.append(_hex(colors[i]))
        i = j
    return items


def encode_wled_json(colors: Sequence[RGB]) -> bytes:
    """One line of WLED's JSON API that shows ``colors`` and keeps showing them (``"on"`` first: it
    unfreezes segments, so it must come before ``seg`` in the same object)."""
    payload = {"on": True, "seg": {"i": wled_segment_items(colors)}}
    return json.dumps(payload, separators=(",", ":")).encode("ascii") + b"\n"


def apply_wled_segment_items(pixels: list[RGB], items: Sequence[object]) -> None:
    """Apply a ``seg.i`` array to ``pixels`` the way WLED's ``deserializeSegment`` does (integers set a
    start and an exclusive stop; a colour fills the range or the single LED at start; after a colour,
    a bare colour goes on at the next LED). Colours are ``"RRGGBB"`` or ``[r, g, b]``. Used by the
    emulated WLED controller and by tests to read back what a line shows."""
    start = stop = 0
    nset = 0
    for item in items:
        if isinstance(item, int) and not isinstance(item, bool):
            if nset == 0:
                start, nset = abs(item), 1
            else:
                stop, nset = abs(item), 2
            continue
        if isinstance(item, str):
            if len(item) != 6:
                raise ValueError(f"WLED colour {item!r} is not RRGGBB")
            v = int(item, 16)
            rgb: RGB = (v >> 16 & 255, v >> 8 & 255, v & 255)
        elif isinstance(item, list) and 0 < len(item) < 5:
            vals = [int(x) for x in item[:3]] + [0] * (3 - min(3, len(item)))
            rgb = (vals[0], vals[1], vals[2])
        else:
            raise ValueError(f"WLED seg.i item {item!r} is neither an index nor a colour")
        if nset < 2 or stop <= start:
            stop = start + 1
        while start < stop:
            if start < len(pixels):
                pixels[start] = rgb
            start += 1
        nset = 0
