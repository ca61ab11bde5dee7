"""Which firmware answers on a freshly opened port: an Adalight sketch or WLED.

* The Adalight-FastLED sketch prints ``Ada\\n`` at boot and again every second while it receives
  nothing (``LEDstream_FastLED.ino``), so listening up to about 3 s also covers an Arduino that the
  opening of the port reset.
* WLED answers the byte ``v`` with ``WLED <version>`` (``wled_serial.cpp``); an Adalight sketch
  ignores it.

``auto`` sends ``v`` at once and again every ``probe_interval_s`` while listening for both answers;
the first one decides. Without an answer the caller falls back to the configured protocol; the
time spent listening is then the settle delay a freshly reset board needs anyway.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

ADA_GREETING = re.compile(rb"Ada\r?\n")
WLED_REPLY = re.compile(rb"WLED ([^\r\n]{1,40})\r?\n")


class SerialLike(Protocol):
    """What detection needs from a port (pyserial's ``Serial`` has it)."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...


@dataclass(frozen=True, slots=True)
class Detection:
    """The outcome: ``protocol`` is ``adalight``, ``wled`` or None (no answer); ``firmware`` says what
    answered, e.g. ``Adalight`` or ``WLED 2405180``."""

    protocol: str | None
    firmware: str = ""


def scan(buffer: bytes, want: str = "auto") -> Detection | None:
    """Look for an answer in the bytes received so far."""
    if want in ("auto", "adalight") and ADA_GREETING.search(buffer):
        return Detection("adalight", "Adalight")
    if want in ("auto", "wled"):
        m = WLED_REPLY.search(buffer)
        if m:
            return Detection("wled", "WLED " + m.group(1).decode("ascii", "replace").strip())
    return None


def detect(
    ser: SerialLike,
    want: str = "auto",
    timeout_s: float = 3.0,
    probe_interval_s: float = 1.2,
    stop: Callable[[], bool] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Detection:
    """Listen on ``ser`` (probing WLED unless ``want`` is ``adalight``) until an answer or ``timeout_s``.

    ``stop`` is polled between reads (the strip's writer passes its close flag). Serial errors
    propagate to the caller. Reads must time out quickly (``open_serial`` sets 20 ms)."""
    probe = want in ("auto", "wled")
    deadline = clock() + timeout_s
    next_probe = clock()
    buf = b""
    while True:
        now = clock()
        if probe and now >= next_probe:
            ser.write(b"v")
            next_probe = now + probe_interval_s
        chunk = ser.read(max(1, ser.in_waiting))
        if chunk:
            buf = (buf + chunk)[-512:]
            found = scan(buf, want)
            if found:
                return found
        if clock() >= deadline or (stop is not None and stop()):
            return Detection(None, "")
