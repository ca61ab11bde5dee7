"""PNG files that carry their print resolution (the ``pHYs`` chunk), so they print at true scale.

OpenCV encodes the pixels; :func:`add_dpi` inserts the ``pHYs`` chunk after the header, and
:func:`read_dpi` reads it back (used by the print-scale test).
"""

from __future__ import annotations

import struct
import zlib

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
INCH_M = 0.0254


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def add_dpi(png: bytes, dpi: float) -> bytes:
    """Return ``png`` with a ``pHYs`` chunk saying ``dpi`` pixels per inch (replacing any old one)."""
    if not png.startswith(PNG_SIGNATURE):
        raise ValueError("not a PNG file")
    ppm = round(dpi / INCH_M)
    out = bytearray(PNG_SIGNATURE)
    pos = len(PNG_SIGNATURE)
    inserted = False
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos : pos + 4])
        kind = png[pos + 4 : pos + 8]
        end = pos + 12 + length
        if kind != b"pHYs":
            out += png[pos:end]
        if kind == b"IHDR" and not inserted:
            out += _chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1))
            inserted = True
        pos = end
    return bytes(out)


def read_dpi(png: bytes) -> tuple[float, float] | None:
    """The ``(x, y)`` resolution in dots per inch stored in a PNG, or None when it has none."""
    if not png.startswith(PNG_SIGNATURE):
        raise ValueError("not a PNG file")
    pos = len(PNG_SIGNATURE)
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos : pos + 4])
        kind = png[pos + 4 : pos + 8]
        if kind == b"pHYs":
            x, y, unit = struct.unpack(">IIB", png[pos + 8 : pos + 17])
            if unit != 1:
                return None
            return (x * INCH_M, y * INCH_M)
        if kind == b"IDAT":
            return None
        pos += 12 + length
    return None
