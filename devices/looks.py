"""What an LED strip shows, for any game: one look per slot of the strip, drawn into a frame.

A game's LED map (``games/<id>/leds.py``, :class:`games.api.LedMap`) says how each slot should look
for a state (:class:`SlotLook`: a colour at a level); this module turns looks into the frame of the
whole strip (:func:`render`) the way the strip's config lays the slots out. Slot ``s`` covers
``leds_per_slot`` LEDs starting ``offset + (s - 1) * (leds_per_slot + gap)`` from the first LED, or
from the last one when ``direction`` is ``reverse``. A short pulse (see :mod:`devices.follower`)
blends one slot towards ``pulse_colour``. Frames here are logical RGB; the colour order of the wire
is applied by the serial strip.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from devices.config import NAMED_COLOURS, LedConfig, parse_colour
from devices.frames import RGB

OFF: RGB = (0, 0, 0)


@dataclass(frozen=True, slots=True)
class SlotLook:
    """How one slot of the row should look: a colour at a level (0 = off, 1 = full)."""

    slot: int
    kind: str
    """What the look means (Tribes: ``free``, ``cost``, ``blocked``, ``event`` or ``idle``)."""
    colour: RGB
    level: float
    cost: int = 0


def player_colour(name: str, config: LedConfig) -> RGB | None:
    """RGB of a player colour name (``config.player_colours`` first, then the named colours, then
    ``#rrggbb``); None when it is unknown."""
    if name in config.player_colours:
        return config.player_colours[name]
    key = name.strip().lower()
    if key in config.player_colours:
        return config.player_colours[key]
    if key in NAMED_COLOURS:
        return NAMED_COLOURS[key]
    try:
        return parse_colour(name)
    except ValueError:
        return None


def cost_level(cost: int, config: LedConfig) -> float:
    """Level of an affordable tile costing ``cost`` shells; costs past the list use its last entry."""
    levels = config.cost_levels
    return levels[min(cost, len(levels) - 1)]


def slot_leds(slot: int, config: LedConfig) -> list[int]:
    """Indices (into the frame) of the LEDs under ``slot`` (1-based), along the row's direction."""
    if not 1 <= slot <= config.max_row:
        raise ValueError(f"slot {slot} is outside the mapped row 1-{config.max_row}")
    first = config.offset + (slot - 1) * config.pitch
    idx = list(range(first, first + config.leds_per_slot))
    if config.direction == "reverse":
        last = config.strip_length - 1
        idx = [last - i for i in idx]
    return idx


def scale(colour: RGB, factor: float) -> RGB:
    """``colour`` times ``factor`` (0–1), rounded; a lit colour never rounds down to black."""
    if factor <= 0:
        return OFF
    out = tuple(min(255, round(v * factor)) for v in colour)
    if not any(out) and any(colour):
        m = max(range(3), key=lambda i: colour[i])
        out = tuple(1 if i == m else 0 for i in range(3))
    return (out[0], out[1], out[2])


def blend(a: RGB, b: RGB, t: float) -> RGB:
    """The colour ``t`` of the way from ``a`` to ``b`` (``t`` clamped to 0–1)."""
    t = min(1.0, max(0.0, t))
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def blank(config: LedConfig) -> list[RGB]:
    """An all-off frame for the whole strip."""
    return [OFF] * config.strip_length


def render(looks: Sequence[SlotLook], config: LedConfig, pulse: tuple[int, float] | None = None) -> list[RGB]:
    """The frame for ``looks``: every LED of the strip, logical RGB, brightness applied.

    ``pulse=(slot, amount)`` blends that slot towards ``pulse_colour`` by ``amount`` (0–1). Slots past
    ``max_row`` are not shown (:func:`overflow` tells how many)."""
    frame = blank(config)
    base: dict[int, RGB] = {}
    for look in looks:
        if look.slot > config.max_row:
            continue
        base[look.slot] = scale(look.colour, look.level * config.brightness)
    if pulse is not None and 1 <= pulse[0] <= config.max_row and pulse[1] > 0:
        slot, amount = pulse
        base[slot] = blend(base.get(slot, OFF), scale(config.pulse_colour, config.brightness), amount)
    for slot, colour in base.items():
        if colour != OFF:
            for i in slot_leds(slot, config):
                frame[i] = colour
    return frame


class DarkLeds:
    """The LED map of a game that has none: the strip stays dark."""

    def looks(self, state: object, config: object) -> list[SlotLook]:
        return []

    def taken_slot(self, before: object, after: object, move: object) -> int | None:
        return None

    def warnings(self, state: object, config: object) -> list[str]:
        return ["this game does not light the strip"]

    def mover_colour(self, state: object, config: LedConfig) -> RGB:
        return config.unknown_colour

    def context(self, state: object) -> str:
        return ""

    def slot_label(self, state: object, slot: int) -> str:
        return ""

    def dark(self, state: object) -> bool:
        return True
