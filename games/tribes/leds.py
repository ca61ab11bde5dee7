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

The tile just taken pulses (:func:`taken_slot`); :mod:`devices.looks` draws the looks into a frame.
"""

from __future__ import annotations

from typing import Any

from devices.config import LedConfig
from devices.frames import RGB
from devices.looks import SlotLook, cost_level, player_colour, render
from games.tribes.rules.engine import describe_context
from games.tribes.rules.legal import overview
from games.tribes.rules.moves import Move
from games.tribes.rules.pending import PendingKind
from games.tribes.rules.state import State


def mover_colour(state: State, config: LedConfig) -> RGB:
    """The colour of the player to move (``unknown_colour`` for a name the config does not know)."""
    if not state.players:
        return config.unknown_colour
    rgb = player_colour(state.players[state.to_move].colour, config)
    return rgb if rgb is not None else config.unknown_colour


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


def overflow(state: State, config: LedConfig) -> int:
    """How many tiles of the row lie past ``max_row`` and cannot be shown."""
    return max(0, len(state.row) - config.max_row)


def frame_for_state(state: State, config: LedConfig) -> list[RGB]:
    """The strip frame for a rules state (used by ``leds`` commands and by the game runtime)."""
    return render(slot_looks(state, config), config)


def taken_slot(before: State | None, after: State, move: Move | None) -> int | None:
    """The slot of ``after``'s row where the tile ``move`` took now lies (or lay, for an event that left
    the row); None when ``move`` took no tile."""
    if move is None or not getattr(move, "takes_slot", False):
        return None
    slot = int(move.slot)  # type: ignore[attr-defined]
    if before is not None and 1 <= slot <= len(before.row):
        tile = before.row[slot - 1]
        if not tile.event:
            for i in range(len(after.row), 0, -1):
                t = after.row[i - 1]
                if t.tile == tile.tile and not t.event:
                    return i
        return slot
    if move.kind == "evt":
        return slot
    return len(after.row) or None  # an action tile goes to the end of the row (R-TURN-1)


class TribesLeds:
    """The LED map of Tribes (:class:`games.api.LedMap`): one slot per tile of the action row."""

    def looks(self, state: Any, config: Any) -> list[SlotLook]:
        """See :func:`slot_looks`."""
        return slot_looks(state, config)

    def taken_slot(self, before: Any, after: Any, move: Any) -> int | None:
        """See :func:`taken_slot`."""
        return taken_slot(before, after, move)

    def warnings(self, state: Any, config: Any) -> list[str]:
        """A row longer than the strip; a player colour the config does not know."""
        out = []
        if (n := overflow(state, config)) > 0:
            out.append(f"the row has {len(state.row)} tiles, the strip maps {config.max_row}: {n} not shown (max_row)")
        mover = state.players[state.to_move].colour if state.players else None
        if mover is not None and player_colour(mover, config) is None:
            out.append(f"player colour {mover!r} is unknown: add it to player_colours")
        return out

    def mover_colour(self, state: Any, config: Any) -> RGB:
        """See :func:`mover_colour`."""
        return mover_colour(state, config)

    def context(self, state: Any) -> str:
        """Where the game stands, in one line (with the colour and shells of a player choosing)."""
        context = describe_context(state)
        if state.players and state.pending.kind == PendingKind.CHOOSE:
            mover = state.players[state.to_move]
            context += f"; {mover.colour}, {mover.shells} shell(s)"
        return context

    def slot_label(self, state: Any, slot: int) -> str:
        """The tile lying in ``slot``."""
        return str(state.row[slot - 1].tile) if 1 <= slot <= len(state.row) else "?"

    def dark(self, state: Any) -> bool:
        """The strip is dark once the game is over (R-END-2)."""
        return bool(state.is_over)


LEDS = TribesLeds()
