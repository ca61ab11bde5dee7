"""``table-companion leds …``: list serial ports, test a strip's wiring and mapping, show a game on it.

* ``leds list`` — the serial ports of this machine with their USB VID:PID (for ``hwgrep://VID:PID``).
* ``leds test --port P`` — connects (detecting Adalight or WLED), walks one light along the whole
  strip, lights each slot of the row in turn, then shows the look of the tiles (free, by cost, event,
  unaffordable) in each player colour, and blanks the strip.
* ``leds show GAME`` — prints what the strip shows for a journal or position file and, with
  ``--port``, lights it until Ctrl-C (or ``--hold`` seconds).

Layout and look come from ``--config FILE`` (JSON, docs/leds.md) and the flags, flags winning. Every
user mistake prints one line on stderr and exits with status 2. ``--port virtual`` prints the frames
instead of lighting a strip.

The same settings serve ``table-companion serve`` with the prefix ``leds`` (:func:`add_strip_options`,
:func:`config_from_args`): ``--leds PORT``, ``--leds-config``, ``--leds-protocol``, ``--leds-count`` …;
:func:`live_strip_from_args` turns them into a :class:`~devices.live.LiveStrip` for the server.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

from devices.config import LedConfig
from devices.errors import ConfigError, DeviceError
from devices.frames import RGB

if TYPE_CHECKING:  # pragma: no cover
    from devices.live import LiveStrip


@dataclass(frozen=True)
class StripOption:
    """One LED setting on the command line. ``name`` is the flag of the ``leds`` commands (``--name``);
    under a prefix (``serve --leds-…``) it is ``--PREFIX-prefixed`` (``prefixed`` defaults to ``name``;
    empty means the bare ``--PREFIX``, as for the port)."""

    name: str
    field: str | None
    """The :class:`LedConfig` field, or None for ``config`` (a file) and ``reverse`` (a switch)."""
    convert: Callable[[str], Any] | None
    metavar: str | None
    help: str
    prefixed: str | None = None

    def flag(self, prefix: str = "") -> str:
        """The flag as typed: ``--per-slot``, or ``--leds-per-slot`` under the prefix ``leds``."""
        if not prefix:
            return "--" + self.name
        rest = self.name if self.prefixed is None else self.prefixed
        return f"--{prefix}-{rest}" if rest else f"--{prefix}"

    def dest(self, prefix: str = "") -> str:
        """The attribute argparse stores it under."""
        return self.flag(prefix)[2:].replace("-", "_")


STRIP_OPTIONS: tuple[StripOption, ...] = (
    StripOption("port", "port", str, None, "device path, hwgrep://VID:PID, or 'virtual' (print the frames)", ""),
    StripOption("protocol", "protocol", str, None, "auto (default: ask the device, else Adalight), adalight or wled"),
    StripOption("config", None, None, "FILE", "LED settings as JSON (docs/leds.md); flags override it"),
    StripOption("baud", "baud", int, "N", "serial speed (default 115200)"),
    StripOption(
        "leds", "led_count", int, "N", "LEDs on the strip as set in the firmware (default: what the row needs)", "count"
    ),
    StripOption("per-slot", "leds_per_slot", int, "N", "LEDs under one tile of the row (default 3)"),
    StripOption("gap", "gap", int, "N", "unlit LEDs between two tiles (default 0)"),
    StripOption("offset", "offset", int, "N", "LEDs before the front tile (default 0)"),
    StripOption("reverse", None, None, None, "the front tile is at the far end of the strip"),
    StripOption("order", "color_order", str.upper, "RGB", "channel order the firmware expects (default RGB)"),
    StripOption("brightness", "brightness", float, "F", "overall brightness 0-1 (default 0.5)"),
    StripOption("max-row", "max_row", int, "N", "tiles the row can hold (default 12: 6 action tiles + events)"),
    StripOption(
        "greeting-timeout", "greeting_timeout_s", float, "S", "seconds to wait for the device to answer (default 3)"
    ),
)
"""The LED settings every command that drives a strip accepts (``leds test|show``, ``serve --leds``)."""


def add_strip_options(
    p: argparse.ArgumentParser | argparse._ArgumentGroup,
    prefix: str = "",
    port_required: bool = False,
    port_help: str | None = None,
) -> None:
    """Add the LED settings to ``p``: ``--port``, ``--protocol``, ``--config``, ``--leds`` (count) … or,
    with ``prefix='leds'``, ``--leds`` (the port), ``--leds-protocol``, ``--leds-config``,
    ``--leds-count`` … (read back with :func:`config_from_args` and the same prefix)."""
    for opt in STRIP_OPTIONS:
        kwargs: dict[str, Any] = {"dest": opt.dest(prefix), "help": opt.help}
        if opt.name == "reverse":
            kwargs["action"] = "store_true"
        else:
            kwargs["metavar"] = opt.metavar or opt.name.upper()
        if opt.name == "port":
            kwargs["required"] = port_required
            kwargs["metavar"] = "PORT"
            if port_help:
                kwargs["help"] = port_help
        p.add_argument(opt.flag(prefix), **kwargs)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``leds`` command and its subcommands to the top-level parser."""
    leds = sub.add_parser("leds", help="the LED strip along the action row: list ports, test wiring, show a game")
    lsub = leds.add_subparsers(dest="leds_cmd", required=True, metavar="COMMAND")

    p = lsub.add_parser("list", help="list the serial ports with their USB VID:PID")
    p.set_defaults(func=_guard(cmd_list))

    p = lsub.add_parser("test", help="walk a light along the strip, light each slot, show the tile colours")
    add_strip_options(p, port_required=True)
    p.add_argument("--step", default="0.05", metavar="S", help="seconds per LED of the walk (default 0.05)")
    p.add_argument("--hold", default="0.8", metavar="S", help="seconds per slot and per colour sample (default 0.8)")
    p.set_defaults(func=_guard(cmd_test))

    p = lsub.add_parser("show", help="show what the strip shows for a game file (and light it with --port)")
    p.add_argument("game", help="journal or position JSON")
    add_strip_options(p)
    p.add_argument("--hold", metavar="S", help="with --port: seconds to keep it lit (default: until Ctrl-C)")
    p.set_defaults(func=_guard(cmd_show))


def _guard(func: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        try:
            return func(args)
        except DeviceError as exc:
            sys.stderr.write(f"table-companion: error: {' '.join(str(exc).split())}\n")
            return 2
        except KeyboardInterrupt:
            sys.stderr.write("table-companion: interrupted\n")
            return 130

    run.__doc__ = func.__doc__
    return run


def config_from_args(args: argparse.Namespace, prefix: str = "") -> LedConfig:
    """The LED config the flags describe (over the config file); :class:`ConfigError` names the flag.
    ``prefix`` as given to :func:`add_strip_options`."""
    by_name = {opt.name: opt for opt in STRIP_OPTIONS}
    config_file = getattr(args, by_name["config"].dest(prefix), None)
    base = LedConfig.load(config_file) if config_file else LedConfig()
    changes: dict[str, Any] = {}
    flags: dict[str, str] = {}
    for opt in STRIP_OPTIONS:
        if opt.field is None or opt.convert is None:
            continue
        text = getattr(args, opt.dest(prefix), None)
        if text is None:
            continue
        flag = opt.flag(prefix)
        try:
            changes[opt.field] = opt.convert(text)
        except ValueError:
            kind = "a whole number" if opt.convert is int else "a number"
            raise ConfigError(flag, f"must be {kind}, got {text!r}") from None
        flags[opt.field] = flag
    if getattr(args, by_name["reverse"].dest(prefix), False):
        changes["direction"] = "reverse"
        flags["direction"] = by_name["reverse"].flag(prefix)
    try:
        return base.replace(**changes)
    except ConfigError as exc:
        if exc.field in flags:
            raise exc.with_field(flags[exc.field]) from None
        raise


NO_STRIP = ("off", "none")
"""Port words that mean "no strip" for ``serve --leds`` (e.g. to run ``--demo`` without the virtual one)."""


def live_strip_from_args(
    args: argparse.Namespace, prefix: str = "leds", default_port: str | None = None
) -> tuple[LiveStrip | None, list[str]]:
    """The strip a long-running command (``serve``) asked for with the ``--leds …`` flags, and notes
    for the user. No port given (on the command line or in the config file) means ``default_port``
    (``virtual`` for the demo) or no strip; ``off`` means no strip. A configuration mistake (a bad
    value, an unreadable config file, a malformed ``hwgrep://`` pattern, an unknown URL scheme) raises
    :class:`DeviceError`; a device that is not plugged in is not a mistake: the strip starts
    ``absent`` (the note says why) and connects when the device appears."""
    from devices.live import LiveStrip
    from devices.ports import check_port

    port_dest = STRIP_OPTIONS[0].dest(prefix)
    raw = getattr(args, port_dest, None)
    if raw is not None and raw.strip().lower() in NO_STRIP:
        return None, []
    config = config_from_args(args, prefix)
    if not config.port:
        if default_port is None:
            return None, []
        config = config.replace(port=default_port)
    notes = []
    missing = check_port(config.port)  # type: ignore[arg-type]
    if missing:
        notes.append(
            f"LED strip {config.port}: {missing}; it shows as absent on the page and connects when the device appears"
        )
    return LiveStrip.open(config), notes


def _seconds(text: str, flag: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ConfigError(flag, f"must be a number of seconds, got {text!r}") from None
    if not value >= 0:
        raise ConfigError(flag, f"must be 0 or more seconds, got {text!r}")
    return value


def describe_frame(frame: Sequence[RGB]) -> str:
    """A frame as runs of equal LEDs, e.g. ``0-2 #804000, 3-5 #261300, rest off``."""
    parts = []
    i, n = 0, len(frame)
    while i < n:
        j = i + 1
        while j < n and frame[j] == frame[i]:
            j += 1
        if frame[i] != (0, 0, 0):
            span = f"{i}" if j - i == 1 else f"{i}-{j - 1}"
            parts.append(f"{span} #{frame[i][0]:02x}{frame[i][1]:02x}{frame[i][2]:02x}")
        i = j
    return (", ".join(parts) + ", rest off") if parts else "all off"


class _Printer:
    """Prints every frame a virtual strip shows."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def __call__(self, frame: list[RGB]) -> None:
        self.out.write(f"  frame: {describe_frame(frame)}\n")


def _connect(config: LedConfig, out: TextIO) -> Any:
    from devices.strip import SerialStrip, VirtualStrip, open_strip

    strip = open_strip(config, require_port=True)
    if isinstance(strip, VirtualStrip):
        strip.subscribe(_Printer(out))
        out.write(f"virtual strip: {strip.led_count} LEDs\n")
        return strip
    assert isinstance(strip, SerialStrip)
    # the first attempt decides: a user at the command line wants the reason, not a retry loop
    wait = config.greeting_timeout_s + 2 * config.write_timeout_s + 1.0
    strip.wait_until(lambda st: st.state == "connected" or (st.attempts >= 1 and st.detail != "starting"), wait)
    if strip.status().state != "connected":
        status = strip.status()
        strip.close()
        raise DeviceError(f"{config.port}: could not connect: {status.detail}")
    st = strip.status()
    out.write(f"{st.port}: connected, {st.firmware or 'no answer to the handshake'}; sending {st.protocol}, ")
    out.write(f"{strip.led_count} LEDs at {config.baud} baud\n")
    return strip


def _show(strip: Any, frame: list[RGB], hold: float) -> None:
    strip.show(frame)
    if not strip.wait_sent(3.0):
        status = strip.status()
        raise DeviceError(f"lost the strip: {status.state}: {status.detail}")
    if hold > 0:
        time.sleep(hold)


def _span(idx: list[int]) -> str:
    if not idx:
        return "not on the strip"
    lo, hi = min(idx), max(idx)
    return f"LED {lo}" if lo == hi else f"LEDs {lo}-{hi}"


def cmd_test(args: argparse.Namespace) -> int:
    """Walk a light along the strip, light each slot, show the tile colours, blank."""
    from devices.looks import SlotLook, blank, cost_level, player_colour, render, slot_leds

    config = config_from_args(args)
    step = _seconds(args.step, "--step")
    hold = _seconds(args.hold, "--hold")
    out = sys.stdout
    strip = _connect(config, out)
    try:
        n = config.strip_length
        white = (255, 255, 255)
        dim = tuple(round(v * config.brightness) for v in white)
        out.write(f"walking a light over LEDs 0-{n - 1} (LED 0 is the one nearest the controller)\n")
        for i in range(n):
            frame = blank(config)
            frame[i] = dim  # type: ignore[assignment]
            _show(strip, frame, step)
        out.write(f"slots of the row, slot 1 = the front tile ({config.direction}):\n")
        for slot in range(1, config.max_row + 1):
            idx = slot_leds(slot, config)
            out.write(f"  slot {slot}: {_span(idx)}\n")
            _show(strip, render([SlotLook(slot, "free", white, 1.0)], config), hold)
        out.write("tile colours per player: slot 1 free, then 1, 2, 3 shells, an event, one they cannot afford:\n")
        names = sorted(config.player_colours) or ["red", "blue", "yellow", "black"]
        for name in names:
            colour = player_colour(name, config) or config.unknown_colour
            looks = [SlotLook(1, "free", colour, cost_level(0, config))]
            looks += [SlotLook(1 + c, "cost", colour, cost_level(c, config), c) for c in (1, 2, 3)]
            looks.append(SlotLook(5, "event", config.event_colour, cost_level(4, config), 4))
            looks.append(SlotLook(6, "blocked", colour, 0.0, 5))
            out.write(f"  {name}\n")
            _show(strip, render([lk for lk in looks if lk.slot <= config.max_row], config), hold)
        _show(strip, blank(config), 0)
        out.write("done: strip blanked\n")
    finally:
        strip.close()
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    """Print (and with --port light) the frame for a game file's current state."""
    from datafile import DataFileError
    from devices.looks import DarkLeds, render
    from games.errors import GameError
    from games.record import open_record

    config = config_from_args(args)
    hold = _seconds(args.hold, "--hold") if args.hold is not None else None
    try:
        record = open_record(args.game)
    except (GameError, DataFileError) as exc:
        raise DeviceError(str(exc)) from None
    state = record.state
    leds = record.game.leds() if record.game.leds is not None else DarkLeds()
    out = sys.stdout
    out.write(leds.context(state) + "\n")
    looks = leds.looks(state, config)
    if not looks:
        out.write("the strip is dark (no row yet, or the game is over)\n")
    for look in looks:
        where = _span(slot_leds_safe(look.slot, config))
        label = leds.slot_label(state, look.slot)
        out.write(f"slot {look.slot} {label}: {look.kind}, level {look.level:g} ({where})\n")
    for warning in leds.warnings(state, config):
        out.write(f"warning: {warning}\n")
    frame = render(looks, config)
    out.write(f"frame: {describe_frame(frame)}\n")
    if not config.port:
        return 0
    strip = _connect(config, out)
    try:
        _show(strip, frame, 0)
        if hold is None:
            out.write("lit; Ctrl-C to stop\n")
            out.flush()
            try:
                while True:
                    time.sleep(3600)
            except KeyboardInterrupt:
                return 0
        time.sleep(hold)
    finally:
        strip.close()
    return 0


def slot_leds_safe(slot: int, config: LedConfig) -> list[int]:
    """The LEDs of ``slot``, or none past ``max_row``."""
    from devices.looks import slot_leds

    return slot_leds(slot, config) if slot <= config.max_row else []


def cmd_list(args: argparse.Namespace) -> int:
    """List the serial ports."""
    from devices.ports import list_serial_ports

    ports = list_serial_ports()
    out = sys.stdout
    if not ports:
        out.write("no serial ports found (is the controller plugged in? see docs/leds.md, troubleshooting)\n")
        return 0
    for p in ports:
        out.write(p.summary() + "\n")
    usb = [p for p in ports if p.vid_pid]
    if usb:
        out.write(f"use --port {usb[0].device} or --port hwgrep://{usb[0].vid_pid} (finds it again after replugging)\n")
    return 0
