"""Server-Sent Events: one stream per page at ``/api/events`` carrying the live view after every change.

Each event is ``event: state`` with ``id: <state id>`` and the whole live view as ``data`` (the same
JSON as ``GET /api/state``), so a page never needs to replay missed events: on reconnect the browser
sends ``Last-Event-ID`` and gets the current view at once if the game moved on meanwhile (nothing if
it did not). A comment line is sent as a heartbeat every ``SSE_HEARTBEAT`` seconds (15 by default),
which also lets the server notice a closed connection. Each stream holds one server thread.
"""

from __future__ import annotations

import contextlib
import json
import queue
import threading
from collections.abc import Iterator

from flask import Blueprint, Response, current_app, request

from .runtime import Change, GameRuntime
from .view import live_view

bp = Blueprint("events", __name__, url_prefix="/api")

QUEUE_SIZE = 16


def format_event(state_id: int, payload: str, event: str = "state") -> str:
    """One SSE message."""
    data = "\n".join(f"data: {line}" for line in payload.split("\n"))
    return f"id: {state_id}\nevent: {event}\n{data}\n\n"


class Hub:
    """Fans every runtime change out to the open streams (bounded queues; a slow page skips
    intermediate views, since each view is complete)."""

    def __init__(self, runtime: GameRuntime) -> None:
        self.runtime = runtime
        self._lock = threading.Lock()
        self._queues: list[queue.Queue[str | None]] = []
        self._closed = False
        self._unsubscribe = runtime.subscribe(self._on_change)

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
                _put_latest(q, message)

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

    @property
    def listeners(self) -> int:
        """Open streams."""
        return len(self._queues)

    def close(self) -> None:
        """End every stream (server shutdown)."""
        with self._lock:
            self._closed = True
            for q in self._queues:
                _put_latest(q, None)
        self._unsubscribe()


def _put_latest(q: queue.Queue[str | None], item: str | None) -> None:
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
    hub: Hub = current_app.extensions["tribes"]["hub"]
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
            while True:
                try:
                    item = q.get(timeout=heartbeat)
                except queue.Empty:
                    yield ": heartbeat\n\n"
                    continue
                if item is None:
                    return
                yield item
        finally:
            hub.unlisten(q)

    resp = Response(stream(), mimetype="text/event-stream")
    resp.headers["Cache-Control"] = "no-cache"
    resp.headers["X-Accel-Buffering"] = "no"
    return resp
