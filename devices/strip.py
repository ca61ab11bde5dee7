"""The LED strip interface and its implementations: serial (Adalight, WLED JSON), virtual, null.

Every strip takes whole frames with :meth:`Strip.show` — one ``(r, g, b)`` per LED of the strip,
logical RGB — and never blocks the caller. :class:`SerialStrip` hands frames to one writer thread that
always sends the newest frame (frames shown in between are skipped), resends it every
``keepalive_s`` (WLED leaves realtime mode 2.5 s after the last Adalight frame; the Adalight sketch
blanks after 150 s), and survives unplugging: on any serial error it closes the port, backs off
(``backoff_min_s`` doubling up to ``backoff_max_s``), finds the device again (same path, or the same
VID:PID via ``hwgrep://``), redoes the handshake and resends the newest frame. :meth:`Strip.status`
tells whoever asks whether the strip is ``connected``, ``reconnecting`` or ``absent``.
"""

from __future__ import annotations

import logging
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any

from devices.config import LedConfig
from devices.detect import Detection, detect
from devices.errors import PortBusyError, PortError
from devices.frames import RGB, check_frame, encode_adalight, encode_wled_json, reorder
from devices.ports import VIRTUAL_PORT, open_serial, resolve_port

if TYPE_CHECKING:  # pragma: no cover
    import serial

log = logging.getLogger(__name__)

CONNECTED = "connected"
RECONNECTING = "reconnecting"
ABSENT = "absent"


@dataclass(frozen=True, slots=True)
class StripStatus:
    """What a strip reports: ``state`` is ``connected``, ``reconnecting`` or ``absent``; ``detail`` the
    last problem or what is connected; ``firmware`` what answered the handshake (may be empty)."""

    state: str
    detail: str = ""
    port: str | None = None
    protocol: str | None = None
    firmware: str = ""
    led_count: int = 0
    frames_sent: int = 0
    reconnects: int = 0
    attempts: int = 0
    """Connection attempts so far (successful or not)."""
    since: float = 0.0
    """Wall-clock time (``time.time()``) the state began."""

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data (for the web page)."""
        return asdict(self)


class Strip(ABC):
    """A strip of ``led_count`` LEDs. Use as a context manager or call :meth:`close`."""

    def __init__(self, led_count: int) -> None:
        if led_count < 1:
            raise ValueError(f"a strip has at least one LED, not {led_count}")
        self._led_count = led_count
        self._lock = threading.Condition()
        self._frame: list[RGB] = [(0, 0, 0)] * led_count
        self._seq = 0

    @property
    def led_count(self) -> int:
        """LEDs in every frame."""
        return self._led_count

    @property
    def frame(self) -> list[RGB]:
        """The newest frame given to :meth:`show` (all off before the first)."""
        with self._lock:
            return list(self._frame)

    def show(self, frame: Sequence[RGB]) -> None:
        """Display ``frame`` (one colour per LED) as soon as possible; returns at once."""
        check_frame(frame)
        if len(frame) != self._led_count:
            raise ValueError(f"the frame has {len(frame)} LEDs, the strip {self._led_count}")
        copy = [(int(c[0]), int(c[1]), int(c[2])) for c in frame]
        with self._lock:
            self._frame = copy
            self._seq += 1
            self._lock.notify_all()
        self._shown(copy)

    def _shown(self, frame: list[RGB]) -> None:  # noqa: B027 - optional hook
        """Called after :meth:`show` stored a frame."""

    def wait_sent(self, timeout: float) -> bool:
        """Wait until the newest frame reached the device (True) or ``timeout`` passed (False)."""
        return True

    @abstractmethod
    def status(self) -> StripStatus:
        """The connection state, for whoever asks."""

    def close(self) -> None:  # noqa: B027 - nothing to release by default
        """Release the device (a serial strip first blanks the LEDs when ``blank_on_close``)."""

    def __enter__(self) -> Strip:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class NullStrip(Strip):
    """No strip configured: frames are checked and dropped."""

    def status(self) -> StripStatus:
        """Always ``absent``."""
        return StripStatus(ABSENT, "no LED strip configured", led_count=self.led_count)


class VirtualStrip(Strip):
    """An in-memory strip: keeps the newest frame and tells subscribers (the web page, tests)."""

    def __init__(self, led_count: int) -> None:
        super().__init__(led_count)
        self._listeners: list[Callable[[list[RGB]], None]] = []
        self._count = 0
        self._since = time.time()

    def subscribe(self, listener: Callable[[list[RGB]], None]) -> Callable[[], None]:
        """Call ``listener(frame)`` on every shown frame; returns a function that unsubscribes."""
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def _shown(self, frame: list[RGB]) -> None:
        with self._lock:
            self._count += 1
            listeners = list(self._listeners)
        for listener in listeners:
            listener(list(frame))

    def status(self) -> StripStatus:
        """Always ``connected``."""
        return StripStatus(
            CONNECTED, "in-memory strip", VIRTUAL_PORT, "virtual", "", self.led_count, self._count, since=self._since
        )


class SerialStrip(Strip):
    """A strip on a serial port, driven by one writer thread (see the module docstring).

    ``protocol`` overrides ``config.protocol``: ``auto`` detects the firmware on every connect and
    falls back to Adalight; ``adalight`` or ``wled`` force one. The thread starts at once; the port
    need not exist yet (the strip is ``absent`` until it does)."""

    def __init__(self, config: LedConfig, protocol: str | None = None) -> None:
        if not config.port or config.port == VIRTUAL_PORT:
            raise PortError("a serial strip needs a port (a device path or hwgrep://VID:PID)")
        super().__init__(config.strip_length)
        self.config = config
        self.spec = config.port
        self.want = protocol or config.protocol
        if self.want not in ("auto", "adalight", "wled"):
            raise ValueError(f"unknown protocol {self.want!r}")
        self._sent_seq = -1
        self._closing = False
        self._status = StripStatus(RECONNECTING, "starting", self.spec, led_count=self.led_count, since=time.time())
        self._thread = threading.Thread(target=self._run, name=f"led-strip {self.spec}", daemon=True)
        self._thread.start()

    # --- the public side ---------------------------------------------------------------------------
    def status(self) -> StripStatus:
        """The current state; ``frames_sent`` and ``reconnects`` count since the strip was made."""
        with self._lock:
            return self._status

    def wait_sent(self, timeout: float) -> bool:
        """Wait until the newest frame was written to the device."""
        deadline = time.monotonic() + timeout
        with self._lock:
            want = self._seq
            while self._sent_seq < want:
                left = deadline - time.monotonic()
                if left <= 0 or self._closing:
                    return False
                self._lock.wait(left)
            return True

    def wait_status(self, state: str, timeout: float) -> bool:
        """Wait until the strip is in ``state`` (e.g. ``connected``); False after ``timeout``."""
        return self.wait_until(lambda st: st.state == state, timeout)

    def wait_until(self, predicate: Callable[[StripStatus], bool], timeout: float) -> bool:
        """Wait until ``predicate(status)`` holds; False after ``timeout``."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while not predicate(self._status):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._lock.wait(left)
            return True

    @property
    def running(self) -> bool:
        """Whether the writer thread is alive (it only ends on :meth:`close`)."""
        return self._thread.is_alive()

    def close(self, timeout: float = 3.0) -> None:
        """Blank the strip (``blank_on_close``), stop the writer and close the port."""
        with self._lock:
            self._closing = True
            self._lock.notify_all()
        self._thread.join(timeout)

    # --- the writer thread -------------------------------------------------------------------------
    def _set_status(self, state: str, detail: str, **changes: Any) -> None:
        with self._lock:
            old = self._status
            since = old.since if old.state == state else time.time()
            self._status = replace(old, state=state, detail=detail, since=since, **changes)
            self._lock.notify_all()

    def _stopping(self) -> bool:
        return self._closing

    def _pause(self, seconds: float) -> bool:
        """Sleep unless closing; True when the strip is closing."""
        with self._lock:
            return self._lock.wait_for(lambda: self._closing, timeout=seconds)

    def _connect(self) -> tuple[serial.Serial, str, Detection]:
        target = resolve_port(self.spec)
        ser = open_serial(target, self.config)
        try:
            det = detect(
                ser,
                self.want,
                timeout_s=self.config.greeting_timeout_s,
                probe_interval_s=self.config.probe_interval_s,
                stop=self._stopping,
            )
        except BaseException:
            ser.close()
            raise
        protocol = (det.protocol or "adalight") if self.want == "auto" else self.want
        return ser, protocol, det

    def _encode(self, protocol: str, frame: list[RGB]) -> bytes:
        colors = reorder(frame, self.config.color_order)
        return encode_wled_json(colors) if protocol == "wled" else encode_adalight(colors)

    def _run(self) -> None:
        import serial

        cfg = self.config
        backoff = cfg.backoff_min_s
        ser: serial.Serial | None = None
        protocol = "adalight"
        first = True
        last_write = 0.0
        busy_until = 0.0
        connects = 0
        try:
            while True:
                if ser is None:
                    if self._closing:
                        break
                    if not first:
                        if self._pause(backoff):
                            break
                        backoff = min(backoff * 2, cfg.backoff_max_s)
                    first = False
                    with self._lock:
                        self._status = replace(self._status, attempts=self._status.attempts + 1)
                    try:
                        ser, protocol, det = self._connect()
                    except PortBusyError as exc:
                        self._set_status(RECONNECTING, str(exc), protocol=None, firmware="")
                        continue
                    except PortError as exc:
                        self._set_status(ABSENT, str(exc), protocol=None, firmware="")
                        continue
                    except (serial.SerialException, OSError, ValueError) as exc:
                        self._set_status(RECONNECTING, _one_line(exc), protocol=None, firmware="")
                        continue
                    if self._closing and not cfg.blank_on_close:
                        break
                    connects += 1
                    backoff = cfg.backoff_min_s
                    with self._lock:
                        self._sent_seq = -1  # resend the newest frame at once
                    self._set_status(
                        CONNECTED,
                        f"{det.firmware or 'no answer to the handshake'}; sending {protocol}",
                        port=getattr(ser, "port", None) or self.spec,
                        protocol=protocol,
                        firmware=det.firmware,
                        reconnects=connects - 1,
                    )
                # connected: wait for a new frame, the keep-alive, or close
                with self._lock:
                    while not self._closing and self._seq == self._sent_seq:
                        left = last_write + cfg.keepalive_s - time.monotonic()
                        if left <= 0:
                            break
                        self._lock.wait(left)
                    closing = self._closing
                    frame = [(0, 0, 0)] * self.led_count if closing else list(self._frame)
                    seq = self._seq
                if closing and not cfg.blank_on_close:
                    break
                wait = busy_until - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
                data = self._encode(protocol, frame)
                try:
                    pending = ser.in_waiting
                    if pending:
                        ser.read(pending)  # greetings, replies, debug output: not needed now
                    ser.write(data)
                except (serial.SerialException, OSError) as exc:
                    _close_quietly(ser)
                    ser = None
                    self._set_status(RECONNECTING, _one_line(exc), protocol=None)
                    if closing:
                        break
                    continue
                now = time.monotonic()
                last_write = now
                busy_until = now + max(cfg.min_interval_s, len(data) * 10 / cfg.baud)
                with self._lock:
                    if not closing:
                        self._sent_seq = seq
                    self._status = replace(self._status, frames_sent=self._status.frames_sent + 1)
                    self._lock.notify_all()
                if closing:
                    # let the device take the blank frame before the port closes
                    time.sleep(min(0.5, len(data) * 10 / cfg.baud + cfg.min_interval_s))
                    break
        except Exception as exc:  # never let a bug kill the program: report it on the status
            log.exception("LED strip writer stopped")
            self._set_status(ABSENT, f"internal error: {_one_line(exc)}")
        finally:
            if ser is not None:
                _close_quietly(ser)
            with self._lock:
                if self._status.state == CONNECTED or self._closing:
                    self._status = replace(self._status, state=ABSENT, detail="closed", since=time.time())
                self._closing = True
                self._lock.notify_all()


class AdalightStrip(SerialStrip):
    """A serial strip that always speaks Adalight (Arduino sketches; WLED accepts it too)."""

    def __init__(self, config: LedConfig) -> None:
        super().__init__(config, "adalight")


class WledStrip(SerialStrip):
    """A serial strip that speaks WLED's JSON API (per-LED ``seg.i``; the picture stays without streaming)."""

    def __init__(self, config: LedConfig) -> None:
        super().__init__(config, "wled")


def open_strip(config: LedConfig, require_port: bool = False) -> Strip:
    """The strip ``config`` describes: :class:`NullStrip` without a port, :class:`VirtualStrip` for
    ``virtual``, else a :class:`SerialStrip`. With ``require_port`` an unknown port raises
    :class:`PortError` at once (the CLI); without it the strip waits for the device (the runtime)."""
    if not config.port:
        return NullStrip(config.strip_length)
    if config.port == VIRTUAL_PORT:
        return VirtualStrip(config.strip_length)
    if require_port:
        resolve_port(config.port)
    return SerialStrip(config)


def _one_line(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return " ".join(text.split())


def _close_quietly(ser: serial.Serial) -> None:
    try:
        ser.close()
    except Exception:  # the device is gone; nothing more to do
        log.debug("closing the port failed", exc_info=True)
