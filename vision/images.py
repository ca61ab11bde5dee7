"""Reading image files with a pixel cap: no picture larger than :data:`MAX_PIXELS` is decoded.

A PNG of 20,000 x 20,000 pixels is a few kilobytes on disk and 1.2 GB once decoded; every image the
companion reads from outside (camera folders, ``recognize``/``enroll`` inputs, photo packs, art
packs, video frames) goes through here. :func:`image_size` reads the size from the file's header
(PNG, JPEG, BMP, WebP, TIFF) without decoding it; :func:`read_image` refuses a picture over the cap
with one line (``frames/x.png: 20000 x 20000 pixels (400.0 megapixels) is more than the 64
megapixels an image may have``) before OpenCV sees it. For a format whose header is not understood
here, OpenCV's own cap (``OPENCV_IO_MAX_IMAGE_PIXELS``, set to the same figure before OpenCV is
first used) refuses it, and the decoded picture is checked again. :func:`check_pixels` checks a
frame already decoded (a video, a camera).
"""

from __future__ import annotations

import os
import struct
from pathlib import Path
from typing import Any

from vision.errors import ImageTooLargeError

MAX_PIXELS = 64_000_000
"""Largest picture decoded (an 8000 x 8000 photo; a phone's 48-megapixel photo fits, 192 MB decoded)."""
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(MAX_PIXELS))  # OpenCV reads it on first use

_HEAD = 64 * 1024


def too_large(width: int, height: int, limit: int = MAX_PIXELS) -> str | None:
    """Why a ``width`` x ``height`` picture is refused (None if it is not)."""
    if width * height <= limit:
        return None
    return (
        f"{width} x {height} pixels ({width * height / 1e6:.1f} megapixels) is more than the "
        f"{limit / 1e6:g} megapixels an image may have"
    )


def _png(b: bytes) -> tuple[int, int] | None:
    if b[:8] == b"\x89PNG\r\n\x1a\n" and b[12:16] == b"IHDR" and len(b) >= 24:
        w, h = struct.unpack(">II", b[16:24])
        return int(w), int(h)
    return None


def _jpeg(b: bytes) -> tuple[int, int] | None:
    if b[:2] != b"\xff\xd8":
        return None
    i = 2
    while i + 9 < len(b):
        if b[i] != 0xFF:
            i += 1
            continue
        marker = b[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
            i += 1 if marker == 0xFF else 2
            continue
        (length,) = struct.unpack(">H", b[i + 2 : i + 4])
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            h, w = struct.unpack(">HH", b[i + 5 : i + 9])
            return int(w), int(h)
        i += 2 + length
    return None


def _bmp(b: bytes) -> tuple[int, int] | None:
    if b[:2] == b"BM" and len(b) >= 26:
        w, h = struct.unpack("<ii", b[18:26])
        return abs(int(w)), abs(int(h))
    return None


def _webp(b: bytes) -> tuple[int, int] | None:
    if b[:4] != b"RIFF" or b[8:12] != b"WEBP" or len(b) < 30:
        return None
    kind = b[12:16]
    if kind == b"VP8X":
        w = 1 + int.from_bytes(b[24:27], "little")
        h = 1 + int.from_bytes(b[27:30], "little")
        return w, h
    if kind == b"VP8L":
        bits = int.from_bytes(b[21:25], "little")
        return 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    if kind == b"VP8 ":
        w, h = struct.unpack("<HH", b[26:30])
        return int(w) & 0x3FFF, int(h) & 0x3FFF
    return None


def _tiff(b: bytes) -> tuple[int, int] | None:
    if b[:4] not in (b"II*\x00", b"MM\x00*"):
        return None
    e = "<" if b[:2] == b"II" else ">"
    (ifd,) = struct.unpack(e + "I", b[4:8])
    if ifd + 2 > len(b):
        return None
    (count,) = struct.unpack(e + "H", b[ifd : ifd + 2])
    size: dict[int, int] = {}
    for k in range(count):
        at = ifd + 2 + 12 * k
        if at + 12 > len(b):
            break
        tag, typ = struct.unpack(e + "HH", b[at : at + 4])
        if tag in (256, 257):
            value = struct.unpack(e + ("H" if typ == 3 else "I"), b[at + 8 : at + (10 if typ == 3 else 12)])[0]
            size[tag] = int(value)
    if 256 in size and 257 in size:
        return size[256], size[257]
    return None


def size_of(head: bytes) -> tuple[int, int] | None:
    """``(width, height)`` from the first bytes of an image file (None: a format not known here)."""
    for reader in (_png, _jpeg, _bmp, _webp, _tiff):
        try:
            found = reader(head)
        except struct.error:
            found = None
        if found is not None:
            return found
    return None


def image_size(path: str | Path) -> tuple[int, int] | None:
    """``(width, height)`` of an image file from its header, without decoding it."""
    with open(path, "rb") as fh:
        return size_of(fh.read(_HEAD))


def refusal(path: str | Path, limit: int = MAX_PIXELS) -> str | None:
    """The one line that refuses the image file ``path`` for its size (None: it may be decoded)."""
    try:
        size = image_size(path)
    except OSError:
        return None  # the reader names the problem
    if size is None:
        return None
    why = too_large(*size, limit=limit)
    return f"{path}: {why}" if why else None


def check_pixels(image: Any, what: str, limit: int = MAX_PIXELS) -> str | None:
    """The one line that refuses a decoded picture (an array of height x width x …) for its size."""
    shape = getattr(image, "shape", None)
    if not shape or len(shape) < 2:
        return None
    why = too_large(int(shape[1]), int(shape[0]), limit)
    return f"{what}: {why}" if why else None


def decode(data: bytes, what: str, limit: int = MAX_PIXELS) -> Any:
    """Decode the bytes of an image file (BGR, 8 bits) under the cap; :class:`~vision.errors.ImageTooLargeError`
    with one line for a picture too large, None for bytes OpenCV cannot decode."""
    import cv2
    import numpy as np

    size = size_of(data[:_HEAD])
    why = too_large(*size, limit=limit) if size else None
    if why:
        raise ImageTooLargeError(f"{what}: {why}")
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None
    if img is not None and (late := check_pixels(img, what, limit)):
        raise ImageTooLargeError(late)
    return img


def read_image(path: str | Path, limit: int = MAX_PIXELS) -> Any:
    """An image file decoded (BGR, 8 bits) under the cap: :class:`~vision.errors.ImageTooLargeError` with one
    line for a picture too large, None for a file OpenCV cannot decode (the caller names that)."""
    import cv2

    why = refusal(path, limit)
    if why:
        raise ImageTooLargeError(why)
    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img is not None and (late := check_pixels(img, str(path), limit)):
        raise ImageTooLargeError(late)
    return img


__all__ = ["MAX_PIXELS", "check_pixels", "decode", "image_size", "read_image", "refusal", "size_of", "too_large"]
