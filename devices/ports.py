"""Finding and opening the serial port of an LED controller.

A port is given as a device path (``/dev/ttyUSB0``, ``/dev/serial/by-id/…``, ``COM3``), as
``hwgrep://VID:PID`` (any regular expression pyserial's ``hwgrep`` accepts, matched against the
device, its description and its hardware id; ``&n=2`` takes the second match), or as another pyserial
URL (``loop://``, ``socket://host:port``, ``rfc2217://…``). :func:`resolve_port` turns that into what
to open *now* — it is called again on every reconnect, so a controller that comes back under another
path is found by its VID:PID. :func:`open_serial` opens with exclusive access and sets DTR/RTS before
the port opens, so the lines do not toggle (which resets many boards).
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from devices.errors import PortBusyError, PortError

if TYPE_CHECKING:  # pragma: no cover
    import serial

    from devices.config import LedConfig

VIRTUAL_PORT = "virtual"
"""Port name of the in-memory strip."""


@dataclass(frozen=True, slots=True)
class PortInfo:
    """One serial port of this machine, as ``leds list`` shows it."""

    device: str
    description: str = ""
    hwid: str = ""
    vid: int | None = None
    pid: int | None = None
    serial_number: str | None = None
    manufacturer: str | None = None

    @property
    def vid_pid(self) -> str | None:
        """``"1a86:7523"`` for a USB device, else None."""
        if self.vid is None or self.pid is None:
            return None
        return f"{self.vid:04x}:{self.pid:04x}"

    def summary(self) -> str:
        """One line: device, VID:PID, description."""
        parts = [self.device, self.vid_pid or "(no USB id)"]
        if self.description:
            parts.append(self.description)
        if self.serial_number:
            parts.append(f"serial {self.serial_number}")
        return "  ".join(parts)


def list_serial_ports() -> list[PortInfo]:
    """The serial ports pyserial finds on this machine, sorted by device."""
    from serial.tools import list_ports

    out = [
        PortInfo(
            p.device,
            p.description if p.description and p.description != "n/a" else "",
            p.hwid if p.hwid and p.hwid != "n/a" else "",
            p.vid,
            p.pid,
            p.serial_number,
            p.manufacturer,
        )
        for p in list_ports.comports()
    ]
    return sorted(out, key=lambda p: p.device)


def _known_ports(ports: Sequence[PortInfo]) -> str:
    if not ports:
        return "no serial ports are connected"
    named = [p.device + (f" ({p.vid_pid or p.description})" if p.vid_pid or p.description else "") for p in ports]
    return "ports now: " + ", ".join(named)


def parse_hwgrep(spec: str) -> tuple[str, int]:
    """``hwgrep://REGEX[&n=N]`` → (regex, 1-based index); raises :class:`PortError`."""
    body = spec[len("hwgrep://") :]
    regex, *opts = body.split("&")
    n = 1
    for opt in opts:
        key, _, value = opt.partition("=")
        if key == "n" and value.isdigit() and int(value) >= 1:
            n = int(value)
        elif key != "skip_busy":
            raise PortError(f"port {spec}: unknown option {opt!r} (use &n=N to take the N-th match)")
    if not regex:
        raise PortError(f"port {spec}: give a VID:PID or a pattern after hwgrep://, e.g. hwgrep://1a86:7523")
    try:
        re.compile(regex)
    except re.error as exc:
        raise PortError(f"port {spec}: {regex!r} is not a valid pattern: {exc}") from None
    return regex, n


def resolve_port(spec: str, ports: Callable[[], Sequence[PortInfo]] = list_serial_ports) -> str:
    """The path or URL to open for ``spec`` now; :class:`PortError` when nothing matches."""
    spec = spec.strip()
    if spec.lower().startswith("hwgrep://"):
        regex, n = parse_hwgrep(spec)
        pat = re.compile(regex, re.IGNORECASE)
        found = ports()
        hits = [p for p in found if pat.search(p.device) or pat.search(p.description) or pat.search(p.hwid)]
        if len(hits) < n:
            what = "no serial port matches" if not hits else f"only {len(hits)} serial port(s) match"
            raise PortError(f"{what} {spec} ({_known_ports(found)}; see 'table-companion leds list')")
        return hits[n - 1].device
    if "://" in spec:
        scheme = spec.split("://", 1)[0].lower()
        known = re.fullmatch(r"[a-z0-9_]+", scheme) and importlib.util.find_spec(f"serial.urlhandler.protocol_{scheme}")
        if not known:
            raise PortError(f"port {spec}: unknown URL scheme {scheme}:// (use a device path or hwgrep://VID:PID)")
        return spec
    if spec == VIRTUAL_PORT:
        raise PortError("port 'virtual' is the in-memory strip, not a serial port")
    if sys.platform == "win32":  # pragma: no cover - COM ports are not files
        found = ports()
        if any(p.device.lower() == spec.lower() for p in found):
            return spec
        raise PortError(f"serial port {spec} not found ({_known_ports(found)}; see 'table-companion leds list')")
    if not os.path.exists(spec):
        raise PortError(f"serial port {spec} not found ({_known_ports(ports())}; see 'table-companion leds list')")
    return spec


def check_port(spec: str, ports: Callable[[], Sequence[PortInfo]] = list_serial_ports) -> str | None:
    """Check a port given to a long-running program (``serve --leds``), where the device may be plugged
    in later: raises :class:`PortError` for a spec that can never work (a bad ``hwgrep://`` pattern or
    option, an unknown URL scheme); returns why the device is not there now (None when it is)."""
    spec = spec.strip()
    if spec == VIRTUAL_PORT:
        return None
    if spec.lower().startswith("hwgrep://"):
        parse_hwgrep(spec)
    try:
        resolve_port(spec, ports)
    except PortError as exc:
        if "://" in spec and not spec.lower().startswith("hwgrep://"):
            raise
        return str(exc)
    return None


def open_serial(target: str, config: LedConfig, read_timeout_s: float = 0.02) -> serial.Serial:
    """Open ``target`` (a resolved path or URL) for ``config``: exclusive access, DTR/RTS set before
    opening, short read timeout, ``write_timeout_s`` so a stuck device cannot block the writer.
    Raises :class:`PortBusyError` for a busy port, ``serial.SerialException`` for other failures."""
    import serial

    ser = serial.serial_for_url(
        target,
        do_not_open=True,
        baudrate=config.baud,
        timeout=read_timeout_s,
        write_timeout=config.write_timeout_s,
        exclusive=True,
    )
    ser.dtr = config.dtr
    ser.rts = config.rts
    try:
        ser.open()
    except serial.SerialException as exc:
        if "exclusively lock" in str(exc):
            raise PortBusyError(f"serial port {target} is busy: another program has it open") from None
        raise
    return cast("serial.Serial", ser)  # a Serial, or a URL handler's class with the same interface
