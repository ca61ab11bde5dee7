"""Emulated LED controllers on pseudo-terminals, for tests and for trying the companion without hardware.

A controller owns the master end of a ``pty.openpty()`` pair and plays the firmware on it; the host
(:class:`~devices.strip.SerialStrip`) opens the slave end like a USB serial port. :meth:`unplug`
closes the master end — the host's next read or write fails exactly as with a pulled USB cable
(``EIO``) and the slave device node disappears. :meth:`plug` makes a new pair; with ``link`` set, a
symlink (like ``/dev/serial/by-id/…``) points at the current slave while the device is plugged in,
so the host finds it again under the same name (and never follows a stale link to a recycled pty).

* :class:`FakeAdalight` follows the Adalight-FastLED sketch (``LEDstream_FastLED.ino``): ``Ada\\n``
  at boot and every ``greet_interval_s`` without input; header ``Ada hi lo chk``; LEDs zeroed before
  each frame; bytes past its own LED count ignored (the sketch's ``SERIAL_FLUSH`` discard of bytes
  queued at a latch is not emulated).
* :class:`FakeWled` follows WLED's ``wled_serial.cpp``: ``v`` → ``WLED <version>``; a JSON object
  starting with ``{`` goes to the JSON API (``on``, ``seg.i``); Adalight frames are shown too.

Everything received is kept (``raw``), every latched picture is appended to ``frames`` and the LEDs as
they are now are ``shown``. Only POSIX (pty).
"""

from __future__ import annotations

import contextlib
import os
import pty
import select
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path

from datafile import DataFileError, parse_json
from devices.frames import RGB, apply_wled_segment_items


class FakeController:
    """Base of the emulated controllers (see the module docstring)."""

    def __init__(
        self, led_count: int, link: str | Path | None = None, greet_interval_s: float = 1.0, keep_frames: int = 10000
    ) -> None:
        self.led_count = led_count
        self.link = Path(link) if link is not None else None
        self.greet_interval_s = greet_interval_s
        self.keep_frames = keep_frames
        self._cond = threading.Condition()
        self.shown: list[RGB] = [(0, 0, 0)] * led_count
        self.frames: list[list[RGB]] = []
        self.raw = bytearray()
        self.plugs = 0
        self._master: int | None = None
        self._slave: int | None = None
        self._wake: tuple[int, int] | None = None
        self._thread: threading.Thread | None = None
        self._slave_name = ""

    # --- plugging ----------------------------------------------------------------------------------
    @property
    def path(self) -> str:
        """What the host opens: the link if there is one, else the current slave device."""
        return str(self.link) if self.link is not None else self._slave_name

    @property
    def plugged(self) -> bool:
        """Whether the device is plugged in."""
        return self._thread is not None

    def plug(self) -> str:
        """Plug the device in (a new pty pair; it boots and greets); returns :attr:`path`."""
        if self._thread is not None:
            raise RuntimeError("already plugged in")
        master, slave = pty.openpty()
        tty.setraw(slave)  # no echo, no line editing: a USB serial port passes bytes through
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self._slave_name = os.ttyname(slave)
        self._wake = os.pipe()
        if self.link is not None:
            tmp = self.link.with_name(self.link.name + ".new")
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            tmp.symlink_to(self._slave_name)
            os.replace(tmp, self.link)
        self.plugs += 1
        self._boot()
        self._thread = threading.Thread(target=self._serve, name=f"fake {type(self).__name__}", daemon=True)
        self._thread.start()
        return self.path

    def unplug(self) -> None:
        """Pull the cable: the link goes (as udev removes ``/dev/serial/by-id`` links), the master end
        closes and the slave device disappears."""
        if self._thread is None or self._wake is None:
            return
        if self.link is not None:
            with contextlib.suppress(FileNotFoundError):
                self.link.unlink()
        os.write(self._wake[1], b"x")
        self._thread.join(5)
        self._thread = None

    def close(self) -> None:
        """Unplug and remove the link."""
        self.unplug()
        if self.link is not None:
            with contextlib.suppress(FileNotFoundError):
                self.link.unlink()

    def __enter__(self) -> FakeController:
        self.plug()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- observing ---------------------------------------------------------------------------------
    def wait_for(self, predicate: Callable[[FakeController], bool], timeout: float = 5.0) -> bool:
        """Wait until ``predicate(self)`` holds (checked whenever something arrives)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while not predicate(self):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(min(left, 0.05))
            return True

    def wait_shown(self, frame: list[RGB], timeout: float = 5.0) -> bool:
        """Wait until the LEDs show ``frame``."""
        want = [tuple(c) for c in frame]
        return self.wait_for(lambda d: d.shown == want, timeout)

    # --- the firmware side -------------------------------------------------------------------------
    def _send(self, data: bytes) -> None:
        if self._master is None:
            return
        with contextlib.suppress(BlockingIOError, OSError):  # nobody reads: a real UART drops it too
            os.write(self._master, data)

    def _latch(self, pixels: list[RGB]) -> None:
        with self._cond:
            self.shown = list(pixels)
            self.frames.append(list(pixels))
            if len(self.frames) > self.keep_frames:
                del self.frames[: len(self.frames) - self.keep_frames]
            self._cond.notify_all()

    def _boot(self) -> None:
        """Called at plug-in, before serving."""

    def _idle(self, now: float) -> None:
        """Called regularly while serving."""

    def _feed(self, data: bytes, now: float) -> None:
        raise NotImplementedError

    def _serve(self) -> None:
        assert self._master is not None and self._slave is not None and self._wake is not None
        master, wake = self._master, self._wake[0]
        tick = max(0.001, min(0.05, self.greet_interval_s / 2))
        try:
            while True:
                ready, _, _ = select.select([master, wake], [], [], tick)
                if wake in ready:
                    break
                now = time.monotonic()
                if master in ready:
                    try:
                        data = os.read(master, 65536)
                    except BlockingIOError:
                        data = b""
                    except OSError:  # the host side went away entirely
                        data = b""
                        time.sleep(tick)
                    if data:
                        with self._cond:
                            self.raw += data
                        self._feed(data, now)
                        with self._cond:
                            self._cond.notify_all()
                self._idle(now)
        finally:
            master_fd, slave_fd, wake_pair = self._master, self._slave, self._wake
            self._master = self._slave = None
            self._wake = None
            for fd in (master_fd, slave_fd, *(wake_pair or ())):
                if fd is not None:
                    with contextlib.suppress(OSError):
                        os.close(fd)


class _AdalightParser:
    """The Adalight state machine of the reference sketch (header, checksum, data, latch)."""

    def __init__(self, led_count: int, latch: Callable[[list[RGB]], None]) -> None:
        self.led_count = led_count
        self.latch = latch
        self.head = 0
        self.hi = self.lo = 0
        self.remaining = 0
        self.buf = bytearray()
        self.in_data = False

    def byte(self, c: int) -> None:
        if self.in_data:
            if len(self.buf) < 3 * self.led_count:
                self.buf.append(c)
            self.remaining -= 1
            if self.remaining == 0:
                self.in_data = False
                raw = bytes(self.buf) + bytes(3 * self.led_count - len(self.buf))
                self.latch([(raw[i], raw[i + 1], raw[i + 2]) for i in range(0, len(raw), 3)])
            return
        if self.head < 3:
            self.head = self.head + 1 if c == b"Ada"[self.head] else 0
        elif self.head == 3:
            self.hi, self.head = c, 4
        elif self.head == 4:
            self.lo, self.head = c, 5
        else:
            if c == self.hi ^ self.lo ^ 0x55:
                self.remaining = 3 * (256 * self.hi + self.lo + 1)
                self.buf = bytearray()
                self.in_data = True
            self.head = 0


class FakeAdalight(FakeController):
    """An Arduino running the Adalight-FastLED sketch. ``greet=False`` emulates a clone sketch that
    never says ``Ada``."""

    def __init__(
        self,
        led_count: int,
        link: str | Path | None = None,
        greet_interval_s: float = 1.0,
        greet: bool = True,
        keep_frames: int = 10000,
    ) -> None:
        super().__init__(led_count, link, greet_interval_s, keep_frames)
        self.greet = greet
        self._last_ack = 0.0

    def _boot(self) -> None:
        self._parser = _AdalightParser(self.led_count, self._latch)
        self._last_ack = time.monotonic()
        if self.greet:
            self._send(b"Ada\n")

    def _feed(self, data: bytes, now: float) -> None:
        self._last_ack = now  # any byte resets the greeting timer, as in the sketch
        for c in data:
            self._parser.byte(c)

    def _idle(self, now: float) -> None:
        if self.greet and now - self._last_ack >= self.greet_interval_s:
            self._send(b"Ada\n")
            self._last_ack = now


class FakeWled(FakeController):
    """An ESP running stock WLED on its USB serial port (115200 baud)."""

    def __init__(
        self, led_count: int, link: str | Path | None = None, version: str = "2405180", keep_frames: int = 10000
    ) -> None:
        super().__init__(led_count, link, 1.0, keep_frames)
        self.version = version
        self.on = False
        self.frozen = False
        self.json_lines: list[dict[str, object]] = []

    def _boot(self) -> None:
        self._ada = _AdalightParser(self.led_count, self._latch)
        self._json = bytearray()
        self._depth = 0
        self._in_string = False
        self._escape = False

    def _feed(self, data: bytes, now: float) -> None:
        for c in data:
            if self._json:
                self._json_byte(c)
            elif self._ada.in_data or self._ada.head:
                self._ada.byte(c)
            elif c == ord("{"):
                self._json = bytearray(b"{")
                self._depth, self._in_string, self._escape = 1, False, False
            elif c == ord("v"):
                self._send(b"WLED " + self.version.encode("ascii") + b"\r\n")
            else:
                self._ada.byte(c)

    def _json_byte(self, c: int) -> None:
        self._json.append(c)
        ch = chr(c)
        if self._in_string:
            if self._escape:
                self._escape = False
            elif ch == "\\":
                self._escape = True
            elif ch == '"':
                self._in_string = False
            return
        if ch == '"':
            self._in_string = True
        elif ch == "{":
            self._depth += 1
        elif ch == "}":
            self._depth -= 1
            if self._depth == 0:
                text, self._json = bytes(self._json), bytearray()
                self._apply(text)

    def _apply(self, text: bytes) -> None:
        try:
            doc = parse_json(text, "serial line")
        except DataFileError:
            return  # WLED drops a line it cannot parse
        if not isinstance(doc, dict):
            return
        self.json_lines.append(doc)
        if "on" in doc:
            if doc["on"] and not self.on:
                self.frozen = False  # turning on unfreezes every segment
            self.on = bool(doc["on"])
        seg = doc.get("seg")
        if isinstance(seg, dict) and isinstance(seg.get("i"), list):
            pixels = list(self.shown)
            if not self.frozen:  # the first seg.i freezes the segment and fills it black
                self.frozen = True
                pixels = [(0, 0, 0)] * self.led_count
            try:
                apply_wled_segment_items(pixels, seg["i"])
            except ValueError:
                return
            self._latch(pixels)
