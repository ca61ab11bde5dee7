"""The LED strip configuration: where the strip is, how it is laid along the action row, its look.

:class:`LedConfig` is an immutable value checked on construction: a bad value raises
:class:`~devices.errors.ConfigError` naming the field (``led_count: must be at least 1, got 0``).
:meth:`LedConfig.load` reads the same fields from a JSON file (docs/leds.md lists them) and names the
file in its errors. Colours are ``"#rrggbb"`` or a name from :data:`NAMED_COLOURS`.
"""

from __future__ import annotations

import dataclasses
import math
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from datafile import DataFileError, read_json
from devices.errors import ConfigError
from devices.frames import ADALIGHT_MAX_LEDS, COLOR_ORDERS, RGB

PROTOCOLS = ("auto", "adalight", "wled")
"""``auto``: ask the device (Adalight greeting, WLED ``v`` probe), else Adalight."""
DIRECTIONS = ("forward", "reverse")

NAMED_COLOURS: dict[str, RGB] = {
    "red": (255, 0, 0),
    "green": (0, 200, 20),
    "blue": (0, 40, 255),
    "yellow": (255, 170, 0),
    "orange": (255, 70, 0),
    "purple": (130, 0, 255),
    "violet": (130, 0, 255),
    "magenta": (255, 0, 140),
    "pink": (255, 40, 110),
    "cyan": (0, 200, 200),
    "teal": (0, 150, 110),
    "white": (255, 255, 255),
    "grey": (120, 120, 120),
    "gray": (120, 120, 120),
    "black": (255, 255, 255),
    "brown": (150, 50, 0),
    "off": (0, 0, 0),
}
"""Colour names understood in configs and for player colours. Light cannot be black: a player whose
colour is ``black`` shows white (change it with ``player_colours``)."""


def parse_colour(spec: object) -> RGB:
    """``"#rrggbb"``, a name from :data:`NAMED_COLOURS`, or an ``[r, g, b]`` list; raises ``ValueError``."""
    if isinstance(spec, str):
        text = spec.strip().lower()
        if text in NAMED_COLOURS:
            return NAMED_COLOURS[text]
        if len(text) == 7 and text[0] == "#":
            try:
                v = int(text[1:], 16)
            except ValueError:
                pass
            else:
                return (v >> 16 & 255, v >> 8 & 255, v & 255)
        raise ValueError(f"colour {spec!r} is neither #rrggbb nor one of {', '.join(sorted(NAMED_COLOURS))}")
    if isinstance(spec, (list, tuple)) and len(spec) == 3 and all(_byte(v) for v in spec):
        return (spec[0], spec[1], spec[2])
    raise ValueError(f"colour {spec!r} is neither #rrggbb, a colour name nor [r, g, b] with 0-255")


def _byte(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 255


def default_control_lines() -> bool:
    """Level of DTR and RTS to set before opening a port. Linux and macOS assert both when a port is
    opened, and an ESP32 auto-reset circuit is safe with both asserted, so keep them asserted (dropping
    one alone resets or straps the board). Windows leaves them alone on open, so keep them off there."""
    return sys.platform != "win32"


@dataclass(frozen=True)
class LedConfig:
    """Everything about one LED strip. ``port=None`` means no strip; ``"virtual"`` an in-memory one."""

    # where and how to talk to it
    port: str | None = None
    protocol: str = "auto"
    baud: int = 115200
    # layout along the action row
    led_count: int | None = None
    leds_per_slot: int = 3
    gap: int = 0
    offset: int = 0
    direction: str = "forward"
    color_order: str = "RGB"
    brightness: float = 0.5
    max_row: int = 12
    # look
    player_colours: Mapping[str, RGB] = field(default_factory=dict)
    event_colour: RGB = (255, 0, 140)
    pulse_colour: RGB = (255, 255, 255)
    idle_colour: RGB = (255, 255, 255)
    unknown_colour: RGB = (255, 255, 255)
    cost_levels: tuple[float, ...] = (1.0, 0.3, 0.12, 0.05)
    idle_level: float = 0.05
    pulse_s: float = 0.8
    # timing of the serial link
    keepalive_s: float = 0.5
    min_interval_s: float = 0.01
    backoff_min_s: float = 0.5
    backoff_max_s: float = 5.0
    greeting_timeout_s: float = 3.0
    probe_interval_s: float = 1.2
    write_timeout_s: float = 1.0
    dtr: bool = field(default_factory=default_control_lines)
    rts: bool = field(default_factory=default_control_lines)
    blank_on_close: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "player_colours", dict(self.player_colours))
        object.__setattr__(self, "cost_levels", tuple(self.cost_levels))
        self._check()

    # --- derived -----------------------------------------------------------------------------------
    @property
    def pitch(self) -> int:
        """LEDs from the start of one slot to the start of the next."""
        return self.leds_per_slot + self.gap

    @property
    def needed_leds(self) -> int:
        """LEDs the layout covers: the offset plus ``max_row`` slots."""
        return self.offset + self.max_row * self.leds_per_slot + (self.max_row - 1) * self.gap

    @property
    def strip_length(self) -> int:
        """LEDs in every frame: ``led_count`` or, when unset, just the ones the layout needs."""
        return self.led_count if self.led_count is not None else self.needed_leds

    def replace(self, **changes: Any) -> LedConfig:
        """A copy with some fields changed (checked again)."""
        return dataclasses.replace(self, **changes)

    # --- checks ------------------------------------------------------------------------------------
    def _check(self) -> None:
        if self.port is not None and (not isinstance(self.port, str) or not self.port.strip()):
            raise ConfigError("port", f"must be a device path, hwgrep://VID:PID or 'virtual', got {self.port!r}")
        if self.protocol not in PROTOCOLS:
            raise ConfigError("protocol", f"unknown protocol {self.protocol!r}: choose {', '.join(PROTOCOLS)}")
        _int(self, "baud", 50)
        if self.led_count is not None:
            _int(self, "led_count", 1, ADALIGHT_MAX_LEDS)
        _int(self, "leds_per_slot", 1)
        _int(self, "gap", 0)
        _int(self, "offset", 0)
        _int(self, "max_row", 1)
        if self.direction not in DIRECTIONS:
            raise ConfigError("direction", f"must be forward or reverse, got {self.direction!r}")
        if self.color_order not in COLOR_ORDERS:
            raise ConfigError("color_order", f"must be one of {', '.join(COLOR_ORDERS)}, got {self.color_order!r}")
        if self.led_count is not None and self.led_count < self.needed_leds:
            raise ConfigError(
                "led_count",
                f"{self.led_count} LEDs are too few for the row: offset {self.offset} + max_row {self.max_row}"
                f" slots x {self.leds_per_slot} LEDs"
                + (f" + gaps of {self.gap}" if self.gap else "")
                + f" needs {self.needed_leds}",
            )
        if self.needed_leds > ADALIGHT_MAX_LEDS:
            raise ConfigError("max_row", f"the layout needs {self.needed_leds} LEDs, more than {ADALIGHT_MAX_LEDS}")
        _fraction(self, "brightness", self.brightness)
        _fraction(self, "idle_level", self.idle_level)
        if not self.cost_levels:
            raise ConfigError("cost_levels", "needs at least one level (for the free tile)")
        for i, lv in enumerate(self.cost_levels):
            _fraction(self, f"cost_levels[{i}]", lv)
        for name in ("event_colour", "pulse_colour", "idle_colour", "unknown_colour"):
            _colour(name, getattr(self, name))
        for key, value in self.player_colours.items():
            if not isinstance(key, str):
                raise ConfigError("player_colours", f"keys are player colour names, got {key!r}")
            _colour(f"player_colours.{key}", value)
        for name in ("pulse_s", "keepalive_s", "min_interval_s", "greeting_timeout_s", "probe_interval_s"):
            _seconds(self, name, allow_zero=name in ("pulse_s", "min_interval_s", "greeting_timeout_s"))
        for name in ("backoff_min_s", "backoff_max_s", "write_timeout_s"):
            _seconds(self, name)
        if self.backoff_max_s < self.backoff_min_s:
            raise ConfigError("backoff_max_s", f"{self.backoff_max_s} is below backoff_min_s {self.backoff_min_s}")
        for name in ("dtr", "rts", "blank_on_close"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(name, f"must be true or false, got {getattr(self, name)!r}")

    # --- JSON --------------------------------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str | None = None) -> LedConfig:
        """Build from JSON data; errors name ``source`` (the file) and the field."""
        if not isinstance(data, Mapping):
            raise ConfigError("(top level)", "must be a JSON object of settings", source)
        known = {f.name for f in dataclasses.fields(cls)}
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            if key not in known:
                raise ConfigError(key, f"unknown setting (known: {', '.join(sorted(known))})", source)
            try:
                kwargs[key] = _from_json(key, value)
            except ValueError as exc:
                raise ConfigError(key, str(exc), source) from None
        try:
            return cls(**kwargs)
        except ConfigError as exc:
            raise ConfigError(exc.field, exc.problem, source) from None

    @classmethod
    def load(cls, path: str | Path) -> LedConfig:
        """Read a JSON config file; a file that cannot be read or is not JSON is a
        :class:`ConfigError` of the field ``file``."""
        try:
            data = read_json(path, "it")
        except DataFileError as exc:
            reason = exc.reason
            if exc.field.startswith("line "):  # not JSON: where, then what
                reason = f"invalid JSON at {exc.field}: {reason.removeprefix('not valid JSON: ')}"
            raise ConfigError("file", reason, str(path)) from None
        return cls.from_dict(data, source=str(path))

    def to_dict(self) -> dict[str, Any]:
        """JSON data that :meth:`from_dict` reads back (colours as ``#rrggbb``)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if f.name.endswith("_colour"):
                v = _hexcolour(v)
            elif f.name == "player_colours":
                v = {k: _hexcolour(c) for k, c in v.items()}
            elif f.name == "cost_levels":
                v = list(v)
            out[f.name] = v
        return out


def _hexcolour(c: RGB) -> str:
    return f"#{c[0]:02x}{c[1]:02x}{c[2]:02x}"


_FLOATS = {"brightness", "idle_level"}


def _from_json(key: str, value: Any) -> Any:
    if key.endswith("_colour"):
        return parse_colour(value)
    if key == "player_colours":
        if not isinstance(value, Mapping):
            raise ValueError("must be an object mapping player colour names to colours")
        return {str(k): parse_colour(v) for k, v in value.items()}
    if key == "cost_levels":
        if not isinstance(value, list):
            raise ValueError("must be a list of levels 0-1, the first for the free tile")
        return tuple(value)
    return value


def _int(cfg: LedConfig, name: str, lo: int, hi: int | None = None) -> None:
    v = getattr(cfg, name)
    if not isinstance(v, int) or isinstance(v, bool):
        raise ConfigError(name, f"must be a whole number, got {v!r}")
    if v < lo:
        raise ConfigError(name, f"must be at least {lo}, got {v}")
    if hi is not None and v > hi:
        raise ConfigError(name, f"must be at most {hi}, got {v}")


def _number(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _fraction(cfg: LedConfig, name: str, v: object) -> None:
    if not _number(v) or not 0.0 <= v <= 1.0:  # type: ignore[operator]
        raise ConfigError(name, f"must be a number from 0 to 1, got {v!r}")


def _seconds(cfg: LedConfig, name: str, allow_zero: bool = False) -> None:
    v = getattr(cfg, name)
    if not _number(v) or v < 0 or (v == 0 and not allow_zero):
        kind = "non-negative" if allow_zero else "positive"
        raise ConfigError(name, f"must be a {kind} number of seconds, got {v!r}")


def _colour(name: str, v: object) -> None:
    if not (isinstance(v, tuple) and len(v) == 3 and all(_byte(x) for x in v)):
        raise ConfigError(name, f"must be an (r, g, b) colour 0-255, got {v!r}")
