"""Keeps an LED strip in step with a live game and reports the strip to whoever asks (the web page).

:class:`LiveStrip` owns a strip and its :class:`~devices.follower.StripFollower`. :meth:`LiveStrip.attach`
subscribes it to anything with ``subscribe(callback) -> unsubscribe`` whose callback receives changes
with ``state``, ``move``, ``op`` and ``state_id`` — the web companion's ``GameRuntime`` and its
``Change`` (nothing here imports the web package; the page gets this object injected). The callback only
queues the change and never raises; one worker thread shows the queued states in order and skips a
state older than the one shown, so a broken or slow strip can neither hold up nor break the game. The
tile just taken pulses only after a committed move (``op == "move"``), not after an undo, a correction
or a new game.

:meth:`LiveStrip.snapshot` is the strip as plain JSON data (``GET /api/leds``): the status
(``connected`` / ``reconnecting`` / ``absent``) with its detail, port and protocol, the picture the
strip settles on (``frame``, one ``[r, g, b]`` per LED, LED 0 first, logical RGB with the brightness
applied), which LEDs lie under each slot (``layout``), the look of every tile in the row (``slots``) and
the pulse while one runs. :meth:`LiveStrip.subscribe` tells
listeners (the page's event stream) whenever the picture or the status changes; a serial strip's status
is polled every ``poll_s`` seconds.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from devices.config import LedConfig
from devices.follower import StripFollower
from devices.looks import DarkLeds, scale, slot_leds
from devices.strip import Strip, VirtualStrip, open_strip
from games.api import LedMap
from session.runtime import RuntimeLike

log = logging.getLogger(__name__)

QUEUE_MAX = 256
"""Changes waiting to be shown; past this the oldest are dropped (only the newest state matters)."""

Listener = Callable[[dict[str, Any]], None]


class LiveStrip:
    """A strip following a live game (see the module docstring); thread-safe. Call :meth:`close`."""

    def __init__(
        self, strip: Strip, config: LedConfig, *, poll_s: float = 0.25, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if poll_s <= 0:
            raise ValueError(f"poll_s must be positive, got {poll_s}")
        self.strip = strip
        self.config = config
        self.poll_s = poll_s
        self.follower = StripFollower(strip, config, clock=clock)
        self._cond = threading.Condition()
        self._queue: deque[tuple[Any, Any, int | None, LedMap | None]] = deque()
        self._busy = False
        self._shown_id: int | None = None
        self._listeners: list[Listener] = []
        self._detach: list[Callable[[], None]] = []
        self._seq = 0
        self._error = ""
        self._status_key: tuple[Any, ...] | None = None
        self._closed = False
        self._source: Any = None
        self.dropped = 0
        """Changes dropped because too many were waiting."""
        self.errors = 0
        """Changes the strip failed to show (the reason is in the snapshot's warnings)."""
        self._thread = threading.Thread(target=self._run, name="led-live", daemon=True)
        self._thread.start()

    @classmethod
    def open(cls, config: LedConfig, **kwargs: Any) -> LiveStrip:
        """The strip ``config`` describes (serial, ``virtual`` or none), following nothing yet. A serial
        port that is not there yet is fine: the strip reports ``absent`` and connects when it appears."""
        return cls(open_strip(config), config, **kwargs)

    # --- following a game --------------------------------------------------------------------------
    def attach(self, source: RuntimeLike) -> Callable[[], None]:
        """Follow ``source``'s changes (and show its current game at once); returns a function that
        stops following. :meth:`close` also stops."""
        unsubscribe = source.subscribe(self.on_change)
        with self._cond:
            self._detach.append(unsubscribe)
            self._source = source
        try:
            if getattr(source, "has_game", True) and callable(getattr(source, "snapshot", None)):
                snap = source.snapshot()  # type: ignore[attr-defined]
                self.show_state(snap.state, None, getattr(snap, "state_id", None))
        except Exception:  # the source cannot tell its game now: its next change will
            log.exception("LED strip: cannot read the current game of %r", source)
        return unsubscribe

    def on_change(self, change: Any) -> None:
        """The subscriber callback: queues ``change`` for the worker; never raises."""
        try:
            move = change.move if getattr(change, "op", "move") == "move" else None
            self.show_state(change.state, move, getattr(change, "state_id", None))
        except Exception:  # a malformed change must not reach the runtime as an error
            log.exception("LED strip: cannot take the change %r", change)

    def show_state(self, state: Any, last_move: Any = None, state_id: int | None = None) -> None:
        """Queue ``state`` (reached by ``last_move``) to be shown; returns at once. With ``state_id``, a
        state older than the one already shown is skipped. The LED map is the one of the game the
        attached source plays (``source.game``), else the default game's."""
        leds = self._leds_of_source()
        with self._cond:
            if self._closed:
                return
            if len(self._queue) >= QUEUE_MAX:
                self._queue.popleft()
                self.dropped += 1
            self._queue.append((state, last_move, state_id, leds))
            self._cond.notify_all()

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every queued change is shown (True) or ``timeout`` passed (False)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._queue or self._busy:
                left = deadline - time.monotonic()
                if left <= 0 or self._closed:
                    return False
                self._cond.wait(left)
            return True

    # --- reporting ---------------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(snapshot)`` (from the worker thread) whenever the picture or the status
        changes; returns a function that unsubscribes. A listener must not block or raise."""
        with self._cond:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._cond:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def snapshot(self) -> dict[str, Any]:
        """The strip as plain JSON data (see the module docstring and docs/leds.md)."""
        cfg = self.config
        st = self.strip.status()
        looks = self.follower.looks()
        frame = self.follower.base_frame()
        slots = [
            {
                "slot": lk.slot,
                "kind": lk.kind,
                "cost": lk.cost,
                "leds": slot_leds(lk.slot, cfg),
                "colour": list(scale(lk.colour, lk.level * cfg.brightness)),
            }
            for lk in looks
            if lk.slot <= cfg.max_row
        ]
        pulse = self.follower.pulse()
        with self._cond:
            error, seq = self._error, self._seq
        return {
            "enabled": True,
            "status": st.state,
            "detail": st.detail,
            "port": st.port or cfg.port,
            "protocol": st.protocol,
            "firmware": st.firmware,
            "virtual": isinstance(self.strip, VirtualStrip),
            "led_count": self.strip.led_count,
            "direction": cfg.direction,
            "brightness": cfg.brightness,
            "frame": [list(c) for c in frame],
            "layout": [slot_leds(slot, cfg) for slot in range(1, cfg.max_row + 1)],
            "slots": slots,
            "pulse": None
            if pulse is None or pulse[0] > cfg.max_row
            else {
                "slot": pulse[0],
                "leds": slot_leds(pulse[0], cfg),
                "colour": list(scale(cfg.pulse_colour, cfg.brightness)),
                "duration_s": cfg.pulse_s,
                "elapsed_s": round(pulse[1], 3),
            },
            "frames_sent": st.frames_sent,
            "reconnects": st.reconnects,
            "warnings": [*self.follower.warnings, *([error] if error else [])],
            "seq": seq,
        }

    def close(self) -> None:
        """Stop following, stop the worker, close the follower and the strip (a serial strip blanks)."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            detach, self._detach = self._detach, []
            self._cond.notify_all()
        for unsubscribe in detach:
            try:
                unsubscribe()
            except Exception:
                log.exception("LED strip: unsubscribing failed")
        self._thread.join(5)
        self.follower.close()
        self.strip.close()

    def __enter__(self) -> LiveStrip:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the worker --------------------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            with self._cond:
                if not self._queue and not self._closed:
                    self._cond.wait(self.poll_s)
                if self._closed:
                    self._cond.notify_all()
                    return
                items = list(self._queue)
                self._queue.clear()
                self._busy = bool(items)
            changed = False
            for item in items:
                changed = self._show(*item) or changed
            changed = self._status_changed() or changed
            if changed:
                self._publish()
            with self._cond:
                self._busy = False
                self._cond.notify_all()

    def _leds_of_source(self) -> LedMap | None:
        plugin = getattr(self._source, "game", None)
        if plugin is None or not hasattr(plugin, "leds"):
            return None
        return plugin.leds() if plugin.leds is not None else DarkLeds()

    def _show(self, state: Any, move: Any, state_id: int | None, leds: LedMap | None = None) -> bool:
        if state_id is not None and self._shown_id is not None and state_id < self._shown_id:
            return False  # an older state queued after a newer one (attach racing a change)
        try:
            self.follower.update(state, move, leds)
        except Exception as exc:  # whatever the strip does, the game goes on
            self.errors += 1
            text = " ".join(str(exc).split()) or type(exc).__name__
            with self._cond:
                self._error = f"the strip could not show the game: {text}"
            log.exception("LED strip: showing the game failed")
            return True
        if state_id is not None:
            self._shown_id = state_id
        with self._cond:
            self._error = ""
        return True

    def _status_changed(self) -> bool:
        try:
            st = self.strip.status()
        except Exception:
            log.exception("LED strip: status failed")
            return False
        key = (st.state, st.detail, st.port, st.protocol, st.firmware)
        if key == self._status_key:
            return False
        self._status_key = key
        return True

    def _publish(self) -> None:
        with self._cond:
            self._seq += 1
            listeners = list(self._listeners)
        if not listeners:
            return
        try:
            snap = self.snapshot()
        except Exception:
            log.exception("LED strip: snapshot failed")
            return
        for listener in listeners:
            try:
                listener(snap)
            except Exception:
                log.exception("LED strip: listener %r failed", listener)
