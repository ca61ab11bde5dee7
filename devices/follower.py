"""Keeps a strip in step with the game: the runtime calls :meth:`StripFollower.update` on every change.

``update(state, last_move)`` draws the game's LED map (:class:`games.api.LedMap`: the looks of every
slot) for the new state and, when ``last_move`` took a tile (the map's ``taken_slot``; Tribes: an
action tile where it now lies, at the end of the row, R-TURN-1; an event tile where it lay, since it
leaves the row, R-EVT-7), plays a short pulse on that slot. The pulse is a rise and fall towards
``pulse_colour`` over ``pulse_s``, drawn by a small thread; the base picture is shown again when it
ends. At game end the strip goes dark.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import Any

from devices.config import LedConfig
from devices.frames import RGB
from devices.looks import SlotLook, render
from devices.strip import Strip
from games.api import LedMap


def default_leds() -> LedMap:
    """The LED map of the default game."""
    import games

    factory = games.get(games.DEFAULT).leds
    if factory is None:  # pragma: no cover - the default game has one
        raise ValueError(f"{games.DEFAULT} has no LED map")
    return factory()


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
        leds: LedMap | None = None,
    ) -> None:
        if strip.led_count != config.strip_length:
            raise ValueError(f"the strip has {strip.led_count} LEDs, the config {config.strip_length}")
        self.strip = strip
        self.config = config
        self.fps = fps
        self.clock = clock
        self.leds = leds
        """The game's LED map (None: the default game's, found when first needed)."""
        self._lock = threading.Condition()
        self._looks: list[SlotLook] = []
        self._before: Any = None
        self._pulse: tuple[int, float] | None = None
        self._warnings: tuple[str, ...] = ()
        self._closed = False
        self._thread: threading.Thread | None = None

    def update(self, state: Any, last_move: Any = None, leds: LedMap | None = None) -> list[RGB]:
        """Show ``state`` (reached by ``last_move``, if given) with the game's LED map ``leds``
        (default: the follower's); returns the frame shown now."""
        if leds is not None:
            self.leds = leds
        if self.leds is None:
            self.leds = default_leds()
        lm = self.leds
        looks = lm.looks(state, self.config)
        with self._lock:
            before = self._before
        dark = lm.dark(state)
        slot = None if dark else lm.taken_slot(before, state, last_move)
        warnings = lm.warnings(state, self.config)
        with self._lock:
            self._before = state
            self._looks = looks
            self._warnings = tuple(warnings)
            if dark:
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
