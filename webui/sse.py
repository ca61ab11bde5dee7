"""Server-Sent Events: one stream per page at ``/api/events`` carrying the live view after every change.

Each event is ``event: state`` with ``id: <state id>`` and the whole live view as ``data`` (the same
JSON as ``GET /api/state``), so a page never needs to replay missed events: on reconnect the browser
sends ``Last-Event-ID`` and gets the current view at once if the game moved on meanwhile (nothing if
it did not). A comment line is sent as a heartbeat every ``SSE_HEARTBEAT`` seconds (15 by default),
which also lets the server notice a closed connection. Each stream holds one server thread, so at
most ``MAX_STREAMS`` (config, default :data:`MAX_STREAMS`) live streams — these events, the tracker's
and the MJPEG camera picture together (:class:`StreamGate`) — are open at once; one more gets 503
``busy`` with ``Retry-After`` (the browser's EventSource tries again by itself).

With an LED strip (``create_app(leds=...)``) the same stream also carries ``event: leds`` (no ``id``,
so ``Last-Event-ID`` stays the state id) with the strip's view as ``GET /api/leds`` gives it: once when
the stream opens and whenever the strip's picture or status changes. A stream never holds more than
one pending strip update, so strip updates cannot push a state view out of a slow page's queue.
"""

from __future__ import annotations

import contextlib
import json
import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any

from flask import Blueprint, Response, current_app, request

from session.runtime import Change, GameRuntime
from webui.errors import ApiError
from webui.leds import LedSource, leds_view
from webui.views import live_view

bp = Blueprint("events", __name__, url_prefix="/api")

QUEUE_SIZE = 16
MAX_STREAMS = 80
"""Live streams open at once by default (each holds a server thread: :data:`webui.server.THREADS`):
thirty pages on phones and tablets with room to spare (a page holds one, two in camera mode)."""
LEDS_CHANGED = "\x00leds"
"""Queue item: the LED strip changed (the stream fetches the newest view when it gets there)."""


def format_event(state_id: int | None, payload: str, event: str = "state") -> str:
    """One SSE message (without an ``id`` line when ``state_id`` is None)."""
    data = "\n".join(f"data: {line}" for line in payload.split("\n"))
    head = f"id: {state_id}\n" if state_id is not None else ""
    return f"{head}event: {event}\n{data}\n\n"


class Hub:
    """Fans every runtime change out to the open streams (bounded queues; a slow page skips
    intermediate views, since each view is complete)."""

    def __init__(self, runtime: GameRuntime, leds: LedSource | None = None) -> None:
        self.runtime = runtime
        self.leds = leds
        self._lock = threading.Lock()
        self._queues: list[queue.Queue[str | None]] = []
        self._leds_pending: set[int] = set()
        self._closed = False
        self._unsubscribe = runtime.subscribe(self._on_change)
        subscribe = getattr(leds, "subscribe", None)
        self._unsubscribe_leds = subscribe(self._on_leds) if callable(subscribe) else None

    def current(self) -> tuple[int, str]:
        """The current state id and the live view as an SSE message."""
        view = live_view(self.runtime)
        return view["state_id"], format_event(view["state_id"], json.dumps(view, separators=(",", ":")))

    def _on_change(self, change: Change) -> None:
        if not self._queues:
            return
        _, message = self.current()
        with self._lock:
            for q in self._queues:
                put_latest(q, message)

    def _on_leds(self, snapshot: object) -> None:
        with self._lock:
            for q in self._queues:
                if id(q) not in self._leds_pending:
                    self._leds_pending.add(id(q))
                    put_latest(q, LEDS_CHANGED)

    def take_leds(self, q: queue.Queue[str | None]) -> str | None:
        """The LED strip's current view as an SSE message for the stream of ``q`` (None without a strip)."""
        with self._lock:
            self._leds_pending.discard(id(q))
        if self.leds is None:
            return None
        return format_event(None, json.dumps(leds_view(self.leds), separators=(",", ":")), "leds")

    def listen(self) -> queue.Queue[str | None]:
        """A new stream's queue."""
        q: queue.Queue[str | None] = queue.Queue(QUEUE_SIZE)
        with self._lock:
            if self._closed:
                q.put(None)
            self._queues.append(q)
        return q

    def unlisten(self, q: queue.Queue[str | None]) -> None:
        """Forget a closed stream."""
        with self._lock:
            if q in self._queues:
                self._queues.remove(q)
            self._leds_pending.discard(id(q))

    @property
    def listeners(self) -> int:
        """Open streams."""
        return len(self._queues)

    def close(self) -> None:
        """End every stream (server shutdown)."""
        with self._lock:
            self._closed = True
            for q in self._queues:
                put_latest(q, None)
        self._unsubscribe()
        if self._unsubscribe_leds is not None:
            self._unsubscribe_leds()


class StreamGate:
    """Counts the open live streams of an app and refuses one past ``limit``."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open = 0
        self._lock = threading.Lock()

    def enter(self) -> None:
        """Take a place, or raise 503 ``busy``."""
        with self._lock:
            if self.open >= self.limit:
                raise ApiError(
                    503,
                    "busy",
                    f"the companion already serves {self.limit} live pages and pictures: close one, or try again",
                    retry_after=5,
                )
            self.open += 1

    def leave(self) -> None:
        """Give a place back."""
        with self._lock:
            self.open = max(0, self.open - 1)


class GatedStream(Iterator[Any]):
    """A stream's body that holds a place of the gate until the server closes it (also when the
    client went away before the first byte: a generator that never started would not notice)."""

    def __init__(self, gate: StreamGate, inner: Iterator[Any], on_close: Callable[[], None] | None = None) -> None:
        gate.enter()
        self._gate: StreamGate | None = gate
        self._inner = inner
        self._on_close = on_close

    def __iter__(self) -> GatedStream:
        return self

    def __next__(self) -> Any:
        return next(self._inner)

    def close(self) -> None:
        """End the stream and give its place back (once)."""
        try:
            close = getattr(self._inner, "close", None)
            if callable(close):
                close()
            if self._on_close is not None:
                self._on_close()
        finally:
            if self._gate is not None:
                self._gate.leave()
                self._gate = None


def gate() -> StreamGate:
    """The app's stream gate (made on first use from ``MAX_STREAMS``)."""
    ext = current_app.extensions["companion"]
    g: StreamGate | None = ext.get("streams")
    if g is None:
        g = ext.setdefault("streams", StreamGate(int(current_app.config.get("MAX_STREAMS", MAX_STREAMS))))
    return g


def gated(stream: Iterator[Any], on_close: Callable[[], None] | None = None) -> GatedStream:
    """``stream`` holding a place of the app's gate (503 ``busy`` when none is left); ``on_close``
    runs when the server closes it."""
    return GatedStream(gate(), stream, on_close)


def put_latest(q: queue.Queue[str | None], item: str | None) -> None:
    """Put ``item`` on a bounded stream queue, dropping the oldest items when it is full (each message
    is complete, so a slow page only skips intermediate ones; ``None``, the end, always gets in)."""
    while True:
        try:
            q.put_nowait(item)
            return
        except queue.Full:
            with contextlib.suppress(queue.Empty):
                q.get_nowait()


@bp.get("/events")
def events() -> Response:
    """The live event stream."""
    hub: Hub = current_app.extensions["companion"]["hub"]
    heartbeat = float(current_app.config.get("SSE_HEARTBEAT", 15.0))
    retry = int(current_app.config.get("SSE_RETRY_MS", 2000))
    last = request.headers.get("Last-Event-ID", "").strip()
    q = hub.listen()

    def stream() -> Iterator[str]:
        try:
            yield f"retry: {retry}\n\n"
            state_id, message = hub.current()
            if last != str(state_id):
                yield message
            last_leds = hub.take_leds(q)
            if last_leds is not None:
                yield last_leds
            while True:
                try:
                    item = q.get(timeout=heartbeat)
                except queue.Empty:
                    yield ": heartbeat\n\n"
                    continue
                if item is None:
                    return
                if item == LEDS_CHANGED:
                    leds = hub.take_leds(q)
                    if leds is not None and leds != last_leds:
                        last_leds = leds
                        yield leds
                    continue
                yield item
        finally:
            hub.unlisten(q)

    try:
        body = gated(stream(), on_close=lambda: hub.unlisten(q))
    except ApiError:
        hub.unlisten(q)
        raise
    return sse_response(body)


def sse_response(stream: Iterator[str]) -> Response:
    """A Server-Sent Events response for ``stream``, not cached or buffered by proxies."""
    resp = Response(stream, mimetype="text/event-stream")
    resp.headers["Cache-Control"] = "no-cache"
    resp.headers["X-Accel-Buffering"] = "no"
    return resp
