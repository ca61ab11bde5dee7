"""``tribes-companion leds …``: list serial ports, test a strip's wiring and mapping, show a game on it.

* ``leds list`` — the serial ports of this machine with their USB VID:PID (for ``hwgrep://VID:PID``).
* ``leds test --port P`` — connects (detecting Adalight or WLED), walks one light along the whole
  strip, lights each slot of the row in turn, then shows the look of the tiles (free, by cost, event,
  unaffordable) in each player colour, and blanks the strip.
* ``leds show GAME`` — prints what the strip shows for a journal or position file and, with
  ``--port``, lights it until Ctrl-C (or ``--hold`` seconds).

Layout and look come from ``--config FILE`` (JSON, docs/leds.md) and the flags, flags winning. Every
user mistake prints one line on stderr and exits with status 2. ``--port virtual`` prints the frames
instead of lighting a strip.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from .config import LedConfig
from .errors import ConfigError, DeviceError
from .frames import RGB

# flag -> (config field, converter)
_FLAGS: dict[str, tuple[str, Callable[[str], Any]]] = {
    "port": ("port", str),
    "protocol": ("protocol", str),
    "baud": ("baud", int),
    "leds": ("led_count", int),
    "per_slot": ("leds_per_slot", int),
    "gap": ("gap", int),
    "offset": ("offset", int),
    "order": ("color_order", str.upper),
    "brightness": ("brightness", float),
    "max_row": ("max_row", int),
    "greeting_timeout": ("greeting_timeout_s", float),
}
_FIELD_FLAG = {field: "--" + dest.replace("_", "-") for dest, (field, _) in _FLAGS.items()}


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``leds`` command and its subcommands to the top-level parser."""
    leds = sub.add_parser("leds", help="the LED strip along the action row: list ports, test wiring, show a game")
    lsub = leds.add_subparsers(dest="leds_cmd", required=True, metavar="COMMAND")

    p = lsub.add_parser("list", help="list the serial ports with their USB VID:PID")
    p.set_defaults(func=_guard(cmd_list))

    p = lsub.add_parser("test", help="walk a light along the strip, light each slot, show the tile colours")
    _strip_options(p, port_required=True)
    p.add_argument("--step", default="0.05", metavar="S", help="seconds per LED of the walk (default 0.05)")
    p.add_argument("--hold", default="0.8", metavar="S", help="seconds per slot and per colour sample (default 0.8)")
    p.set_defaults(func=_guard(cmd_test))

    p = lsub.add_parser("show", help="show what the strip shows for a game file (and light it with --port)")
    p.add_argument("game", help="journal or position JSON")
    _strip_options(p, port_required=False)
    p.add_argument("--hold", metavar="S", help="with --port: seconds to keep it lit (default: until Ctrl-C)")
    p.set_defaults(func=_guard(cmd_show))


def _strip_options(p: argparse.ArgumentParser, port_required: bool) -> None:
    p.add_argument(
        "--port",
        required=port_required,
        help="device path, hwgrep://VID:PID, or 'virtual' (print the frames)",
    )
    p.add_argument("--protocol", help="auto (default: ask the device, else Adalight), adalight or wled")
    p.add_argument("--config", metavar="FILE", help="LED settings as JSON (docs/leds.md); flags override it")
    p.add_argument("--baud", metavar="N", help="serial speed (default 115200)")
    p.add_argument("--leds", metavar="N", help="LEDs on the strip as set in the firmware (default: what the row needs)")
    p.add_argument("--per-slot", metavar="N", help="LEDs under one tile of the row (default 3)")
    p.add_argument("--gap", metavar="N", help="unlit LEDs between two tiles (default 0)")
    p.add_argument("--offset", metavar="N", help="LEDs before the front tile (default 0)")
    p.add_argument("--reverse", action="store_true", help="the front tile is at the far end of the strip")
    p.add_argument("--order", metavar="RGB", help="channel order the firmware expects (default RGB)")
    p.add_argument("--brightness", metavar="F", help="overall brightness 0-1 (default 0.5)")
    p.add_argument("--max-row", metavar="N", help="tiles the row can hold (default 12: 6 action tiles + events)")
    p.add_argument("--greeting-timeout", metavar="S", help="seconds to wait for the device to answer (default 3)")


def _guard(func: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        try:
            return func(args)
        except DeviceError as exc:
            sys.stderr.write(f"tribes-companion: error: {' '.join(str(exc).split())}\n")
            return 2
        except KeyboardInterrupt:
            sys.stderr.write("tribes-companion: interrupted\n")
            return 130

    run.__doc__ = func.__doc__
    return run


def config_from_args(args: argparse.Namespace) -> LedConfig:
    """The LED config the flags describe (over ``--config``); :class:`ConfigError` names the flag."""
    base = LedConfig.load(args.config) if getattr(args, "config", None) else LedConfig()
    changes: dict[str, Any] = {}
    given: set[str] = set()
    for dest, (field, convert) in _FLAGS.items():
        text = getattr(args, dest, None)
        if text is None:
            continue
        flag = "--" + dest.replace("_", "-")
        try:
            changes[field] = convert(text)
        except ValueError:
            kind = "a whole number" if convert is int else "a number"
            raise ConfigError(flag, f"must be {kind}, got {text!r}") from None
        given.add(field)
    if getattr(args, "reverse", False):
        changes["direction"] = "reverse"
        given.add("direction")
    try:
        return base.replace(**changes)
    except ConfigError as exc:
        if exc.field in given:
            flag = "--reverse" if exc.field == "direction" else _FIELD_FLAG.get(exc.field, exc.field)
            raise exc.with_field(flag) from None
        raise


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
    from .strip import SerialStrip, VirtualStrip, open_strip

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
    from .mapping import SlotLook, blank, cost_level, player_colour, render, slot_leds

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
    from rules.engine import describe_context
    from rules.errors import RulesError
    from rules.game import load_game

    from .mapping import frame_for_state, overflow, slot_looks

    config = config_from_args(args)
    hold = _seconds(args.hold, "--hold") if args.hold is not None else None
    try:
        game = load_game(args.game)
    except RulesError as exc:
        raise DeviceError(str(exc)) from None
    state = game.state
    out = sys.stdout
    context = describe_context(state)
    if state.players and state.pending.kind == "choose":
        mover = state.players[state.to_move]
        context += f"; {mover.colour}, {mover.shells} shell(s)"
    out.write(context + "\n")
    looks = slot_looks(state, config)
    if not looks:
        out.write("the strip is dark (no row yet, or the game is over)\n")
    for look in looks:
        tile = state.row[look.slot - 1].tile if look.slot <= len(state.row) else "?"
        where = _span(slot_leds_safe(look.slot, config))
        out.write(f"slot {look.slot} {tile}: {look.kind}, level {look.level:g} ({where})\n")
    if (extra := overflow(state, config)) > 0:
        out.write(f"warning: {extra} tile(s) past max_row {config.max_row} are not shown\n")
    frame = frame_for_state(state, config)
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
    from .mapping import slot_leds

    return slot_leds(slot, config) if slot <= config.max_row else []


def cmd_list(args: argparse.Namespace) -> int:
    """List the serial ports."""
    from .ports import list_serial_ports

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
