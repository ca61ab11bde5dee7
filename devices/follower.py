"""Keeps a strip in step with the game: the runtime calls :meth:`StripFollower.update` on every change.

``update(state, last_move)`` renders :func:`devices.mapping.slot_looks` for the new state and, when
``last_move`` took a tile of the row (``move.takes_slot``), plays a short pulse on that tile: an action
tile is found where it now lies — at the end of the row (R-TURN-1) — an event tile where it lay, since
it leaves the row (R-EVT-7). The pulse is a rise and fall towards ``pulse_colour`` over ``pulse_s``,
drawn by a small thread; the base picture is shown again when it ends. At game end the strip goes dark.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import Any

from devices.config import LedConfig
from devices.frames import RGB
from devices.strip import Strip
from games.tribes.leds import SlotLook, overflow, player_colour, render, slot_looks
from games.tribes.rules.moves import Move
from games.tribes.rules.state import State


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


def pulse_amount(elapsed: float, duration: float) -> float:
    """How far the pulse has blended the tile towards the pulse colour: 0 → 1 → 0 over ``duration``."""
    if duration <= 0 or not 0 <= elapsed < duration:
        return 0.0
    return math.sin(math.pi * elapsed / duration)


class StripFollower:
    """Shows the game on ``strip``; safe to call from any thread. ``clock`` is injectable for tests."""

    def __init__(
        self,
        strip: Strip,
        config: LedConfig,
        fps: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if strip.led_count != config.strip_length:
            raise ValueError(f"the strip has {strip.led_count} LEDs, the config {config.strip_length}")
        self.strip = strip
        self.config = config
        self.fps = fps
        self.clock = clock
        self._lock = threading.Condition()
        self._looks: list[SlotLook] = []
        self._before: State | None = None
        self._pulse: tuple[int, float] | None = None
        self._warnings: tuple[str, ...] = ()
        self._closed = False
        self._thread: threading.Thread | None = None

    def update(self, state: State, last_move: Move | None = None) -> list[RGB]:
        """Show ``state`` (reached by ``last_move``, if given); returns the frame shown now."""
        looks = slot_looks(state, self.config)
        with self._lock:
            before = self._before
        slot = None if state.is_over else taken_slot(before, state, last_move)
        warnings = []
        if (n := overflow(state, self.config)) > 0:
            warnings.append(
                f"the row has {len(state.row)} tiles, the strip maps {self.config.max_row}: {n} not shown (max_row)"
            )
        mover = state.players[state.to_move].colour if state.players else None
        if mover is not None and player_colour(mover, self.config) is None:
            warnings.append(f"player colour {mover!r} is unknown: add it to player_colours")
        with self._lock:
            self._before = state
            self._looks = looks
            self._warnings = tuple(warnings)
            if state.is_over:
                self._pulse = None
            elif slot is not None and self.config.pulse_s > 0:
                self._pulse = (slot, self.clock())
                self._start_animation()
            frame = self.frame_at(self.clock())
        self.strip.show(frame)
        return frame

    def frame_at(self, now: float) -> list[RGB]:
        """The frame for time ``now``: the base picture with the pulse as it is at that moment."""
        with self._lock:
            looks, pulse = self._looks, self._pulse
        if pulse is not None:
            amount = pulse_amount(now - pulse[1], self.config.pulse_s)
            if amount > 0:
                return render(looks, self.config, (pulse[0], amount))
        return render(looks, self.config)

    def looks(self) -> list[SlotLook]:
        """The look of every slot for the last state (empty while the strip is dark)."""
        with self._lock:
            return list(self._looks)

    def base_frame(self) -> list[RGB]:
        """The picture for the last state without the pulse: what the strip settles on."""
        with self._lock:
            looks = self._looks
        return render(looks, self.config)

    def pulse(self, now: float | None = None) -> tuple[int, float] | None:
        """``(slot, seconds since it began)`` while a pulse runs at ``now`` (default: the clock), else None."""
        now = self.clock() if now is None else now
        with self._lock:
            pulse = self._pulse
        if pulse is None or not 0 <= now - pulse[1] < self.config.pulse_s:
            return None
        return pulse[0], now - pulse[1]

    @property
    def warnings(self) -> tuple[str, ...]:
        """Problems with showing the last state (row longer than the strip, unknown player colour)."""
        with self._lock:
            return self._warnings

    def status(self) -> dict[str, Any]:
        """The strip's status plus the warnings, as JSON data for the page."""
        out = self.strip.status().to_dict()
        out["warnings"] = list(self.warnings)
        return out

    def close(self) -> None:
        """Stop the pulse thread (the strip itself belongs to the caller)."""
        with self._lock:
            self._closed = True
            self._lock.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join(2)

    def _start_animation(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._animate, name="led-pulse", daemon=True)
            self._thread.start()
        else:
            self._lock.notify_all()

    def _animate(self) -> None:
        step = 1.0 / self.fps
        while True:
            with self._lock:
                if self._closed or self._pulse is None:
                    self._thread = None
                    return
                ended = self.clock() - self._pulse[1] >= self.config.pulse_s
                if ended:
                    self._pulse = None
            self.strip.show(self.frame_at(self.clock()))
            if ended:
                with self._lock:
                    if self._pulse is None:
                        self._thread = None
                        return
                continue
            with self._lock:
                self._lock.wait(step)
