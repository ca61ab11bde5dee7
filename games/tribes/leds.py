"""From a rules state to one colour per LED: which slot of the action row lights up, and how.

The facts come from the engine: :func:`rules.legal.overview` gives per slot the cost in shells, whether
the player to move can afford it and whether it is free (R-TURN-2) or an event (R-TURN-5); the colour
is the one of the player to move. The default look (colours and levels in :class:`LedConfig`):

* the free front tile in the colour of the player to move at full level;
* every other tile the player can afford dimmer the more shells it costs (``cost_levels``);
* tiles the player cannot afford off;
* event tiles in the warning colour (``event_colour``), dimmed by cost the same way;
* while the game waits for something other than a tile choice (a draw, a placement, an event),
  every tile of the row faintly (``idle_level``), so the strip still shows where the row lies;
* everything off before setup and once the game is over (R-END-2).

A short pulse (see :mod:`devices.follower`) blends one slot towards ``pulse_colour``. Slot ``s`` covers
``leds_per_slot`` LEDs starting ``offset + (s - 1) * (leds_per_slot + gap)`` from the first LED, or
from the last one when ``direction`` is ``reverse``. Frames here are logical RGB; the colour order of
the wire is applied by the serial strip.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from devices.config import NAMED_COLOURS, LedConfig, parse_colour
from devices.frames import RGB
from games.tribes.rules.legal import overview
from games.tribes.rules.state import State

OFF: RGB = (0, 0, 0)


@dataclass(frozen=True, slots=True)
class SlotLook:
    """How one slot of the row should look: a colour at a level (0 = off, 1 = full)."""

    slot: int
    kind: str
    """``free``, ``cost``, ``blocked`` (cannot afford), ``event`` or ``idle`` (not choosing now)."""
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


def mover_colour(state: State, config: LedConfig) -> RGB:
    """The colour of the player to move (``unknown_colour`` for a name the config does not know)."""
    if not state.players:
        return config.unknown_colour
    rgb = player_colour(state.players[state.to_move].colour, config)
    return rgb if rgb is not None else config.unknown_colour


def cost_level(cost: int, config: LedConfig) -> float:
    """Level of an affordable tile costing ``cost`` shells; costs past the list use its last entry."""
    levels = config.cost_levels
    return levels[min(cost, len(levels) - 1)]


def slot_looks(state: State, config: LedConfig) -> list[SlotLook]:
    """The look of every tile of the row (slot 1 first); empty when the strip should be dark."""
    if state.is_over or not state.row:
        return []
    tiles = overview(state)
    if not tiles:  # the game waits for a draw, a placement, an event answer…: show the row faintly
        return [
            SlotLook(i, "idle", config.event_colour if t.event else config.idle_colour, config.idle_level)
            for i, t in enumerate(state.row, start=1)
        ]
    mover = mover_colour(state, config)
    looks = []
    for t in tiles:
        colour = config.event_colour if t.event else mover
        if not t.affordable:
            looks.append(SlotLook(t.slot, "blocked", colour, 0.0, t.cost))
        else:
            kind = "event" if t.event else ("free" if t.free else "cost")
            looks.append(SlotLook(t.slot, kind, colour, cost_level(t.cost, config), t.cost))
    return looks


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


def overflow(state: State, config: LedConfig) -> int:
    """How many tiles of the row lie past ``max_row`` and cannot be shown."""
    return max(0, len(state.row) - config.max_row)


def frame_for_state(state: State, config: LedConfig) -> list[RGB]:
    """The strip frame for a rules state (used by ``leds`` commands and by the game runtime)."""
    return render(slot_looks(state, config), config)
