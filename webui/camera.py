"""Camera mode of the web companion (blueprint ``camera``): the camera picture with what was read drawn
on it, the tracker's state, its prompts to tap, and enrollment of the user's box at setup. The LED strip
is the app's own (``create_app(…, leds=LiveStrip)``, ``GET /api/leds``, the page's LED bar): camera
mode has no strip of its own.

- ``GET /camera.mjpg`` — the annotated camera picture as an MJPEG stream (``multipart/x-mixed-replace``).
  The camera loop encodes each picture once and :class:`FrameHub` hands the same bytes to every
  viewer; a slow viewer skips pictures instead of slowing the camera; without new pictures the last
  one is sent again every second.
- ``GET /api/tracker`` — ``{"enabled": false}`` outside camera mode (the page asks on every load:
  never a 404), else ``enabled: true`` and the tracker's status: ``kind`` (watching, hand, settling, changing, waiting,
  prompt, desync, no_table, idle), ``message``, the open ``prompt`` with its options, the ``desync``
  with the facts that disagree (where, expected, seen) and the fixes offered, the loop's figures
  (``camera``), ``source`` (what the observations come from) and ``enrollment`` (as below; null when
  the source needs none).
- ``GET /api/tracker/events`` — Server-Sent Events: ``event: tracker`` with that status after every
  change.
- ``POST /api/tracker/answer`` — ``{"id": <prompt or desync id>, "option": <index>}``: the chosen
  option is submitted through the game runtime (so the journal, the page and the LEDs see it like any
  move); a "nothing happened" option dismisses the prompt. Errors: 404 ``not_found`` (no such open
  question or option), 409 ``stale_state`` (the game moved on), 422 ``illegal_move``. A desync
  answered overrules the facts it named where the record still disagrees: the status lists them
  (``overruled``: where, what the camera reads, what the record says) and leaves them out while they
  read the same.
- ``POST /api/tracker/recheck`` — ``{"key": [...]}`` (a key of the status's ``overruled`` list) or
  ``{}`` (all): count those facts again; where the table still disagrees, the desync comes back with
  its fixes. ``{"rechecked": n}``; 404 ``not_found`` for a key not overruled.
- ``GET /api/camera/enrollment`` — whether the user's box has been learned: ``{"state": "needed" |
  "enrolled" | "failed", "message", "learned": [...], "missing": [...], "path"}``.
- ``POST /api/camera/enroll`` — ``{}``: learn the box now from the newest camera picture and the setup
  entered on the page; 200 with the new status, 409 ``enroll_failed`` with a one-line message for a
  user mistake (no game yet, setup not entered, no markers in view, hands in view).

Both enrollment routes and ``GET /api/tracker`` are registered by :func:`webui.app.create_app`
(blueprint ``enrollment``): the enrollment routes answer 404 ``not_found`` when the server is not in
camera mode or its source needs no enrollment, ``/api/tracker`` says ``enabled: false`` and the page
shows no camera panel. The other routes exist only after :func:`attach`.
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify

from webui.api import _guard, body
from webui.errors import ApiError, bad_request
from webui.sse import format_event, gated, put_latest, sse_response

bp = Blueprint("camera", __name__)
enrollment_bp = Blueprint("enrollment", __name__)

BOUNDARY = "tribesframe"


class FrameHub:
    """The newest encoded camera picture, shared by every viewer (one encode, many streams)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._jpeg: bytes | None = None
        self._id = 0
        self._closed = False

    def publish(self, jpeg: bytes) -> None:
        """A new picture."""
        with self._cond:
            self._jpeg = jpeg
            self._id += 1
            self._cond.notify_all()

    def latest(self) -> tuple[int, bytes | None]:
        """The newest picture and its number (0: none yet)."""
        with self._cond:
            return self._id, self._jpeg

    def wait(self, after: int, timeout: float) -> tuple[int, bytes | None]:
        """The first picture newer than ``after`` (or the current one after ``timeout``)."""
        with self._cond:
            self._cond.wait_for(lambda: self._id > after or self._closed, timeout)
            return self._id, self._jpeg

    def close(self) -> None:
        """End every stream."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    @property
    def closed(self) -> bool:
        """True after :meth:`close`."""
        return self._closed


class TrackerFeed:
    """Fans tracker status changes out to SSE streams (bounded queues, newest wins)."""

    def __init__(self, status: Callable[[], dict[str, Any]]) -> None:
        self.status = status
        self._lock = threading.Lock()
        self._queues: list[queue.Queue[str | None]] = []

    def message(self) -> str:
        """The current status as an SSE message."""
        return format_event(None, json.dumps(self.status(), separators=(",", ":")), "tracker")

    def changed(self, *_args: object) -> None:
        """Tell every stream (call from the tracker link's subscriber and on runtime changes)."""
        if not self._queues:
            return
        msg = self.message()
        with self._lock:
            for q in self._queues:
                put_latest(q, msg)

    def listen(self) -> queue.Queue[str | None]:
        """A new stream's queue."""
        q: queue.Queue[str | None] = queue.Queue(8)
        with self._lock:
            self._queues.append(q)
        return q

    def unlisten(self, q: queue.Queue[str | None]) -> None:
        """Forget a stream."""
        with self._lock:
            if q in self._queues:
                self._queues.remove(q)

    def close(self) -> None:
        """End every stream."""
        with self._lock:
            for q in self._queues:
                put_latest(q, None)


ENROLL_STATES = ("needed", "enrolled", "failed")


class Enrollment:
    """Learning the user's box at setup, as the page sees it: ``enroll()`` learns it (raising a
    ``ValueError`` with a one-line message for a user mistake) and ``status()`` tells where it stands;
    both return ``{"state", "message", "learned", "missing", "path"}``. Without ``status`` the last
    result of ``enroll`` is the status (``needed`` before the first). One enrollment runs at a time."""

    def __init__(
        self,
        enroll: Callable[[], dict[str, Any]] | None,
        status: Callable[[], dict[str, Any]] | None,
    ) -> None:
        self._enroll = enroll
        self._status = status
        self._lock = threading.Lock()
        self._last: dict[str, Any] = {
            "state": "needed",
            "message": "the box has not been learned yet",
            "learned": [],
            "missing": [],
            "path": None,
        }

    @property
    def available(self) -> bool:
        """Whether this camera source learns a box at all."""
        return self._enroll is not None or self._status is not None

    def status(self) -> dict[str, Any] | None:
        """Where enrollment stands (None: this source needs none)."""
        if self._status is not None:
            return checked_enrollment(self._status())
        if self._enroll is None:
            return None
        return dict(self._last)

    def run(self) -> dict[str, Any]:
        """Learn the box now; a user mistake raises :class:`ApiError` 409 ``enroll_failed``."""
        if self._enroll is None:
            raise ApiError(404, "not_found", "this camera source does not learn a box")
        with self._lock:
            try:
                result = checked_enrollment(self._enroll())
            except ValueError as exc:
                message = " ".join(str(exc).split()) or type(exc).__name__
                raise ApiError(409, "enroll_failed", message) from None
            self._last = result
        return self.status() or result


def checked_enrollment(data: Any) -> dict[str, Any]:
    """An enrollment status as the page needs it; a malformed one (a bug in the backend) raises TypeError."""
    if not isinstance(data, dict) or data.get("state") not in ENROLL_STATES:
        raise TypeError(f"enrollment status must be a dict with state in {ENROLL_STATES}, got {data!r}")
    learned, missing, path = data.get("learned", []), data.get("missing", []), data.get("path")
    if not isinstance(learned, list | tuple) or not isinstance(missing, list | tuple):
        raise TypeError(f"enrollment learned/missing must be lists, got {data!r}")
    return {
        "state": data["state"],
        "message": str(data.get("message", "")),
        "learned": [str(x) for x in learned],
        "missing": [str(x) for x in missing],
        "path": None if path is None else str(path),
    }


def attach(
    app: Flask,
    link: Any,
    frames: FrameHub,
    *,
    camera_stats: Callable[[], dict[str, Any]] | None = None,
    source: str = "",
    enroll: Callable[[], dict[str, Any]] | None = None,
    enrollment_status: Callable[[], dict[str, Any]] | None = None,
) -> TrackerFeed:
    """Add camera mode to ``app``: ``link`` is a :class:`tracker.link.TrackerLink`, ``frames`` the hub
    the camera loop publishes to; ``camera_stats`` reports the loop's figures; ``source`` says what the
    observations come from (shown on the page). ``enroll`` learns the user's box from the newest camera
    picture and the game's position (a ``ValueError`` for a user mistake) and ``enrollment_status``
    says where that stands (cheap: it is called on every tracker change); without them the source needs
    no enrollment. The LED strip is the app's (``create_app(…, leds=…)``)."""
    enrollment = Enrollment(enroll, enrollment_status)

    def status() -> dict[str, Any]:
        out = {"enabled": True, **link.status_dict()}
        out["camera"] = camera_stats() if camera_stats else None
        out["source"] = source
        out["enrollment"] = enrollment.status()
        return out

    feed = TrackerFeed(status)
    link.subscribe(feed.changed)
    app.extensions["companion"]["runtime"].subscribe(feed.changed)
    app.extensions["companion"]["camera"] = {
        "link": link,
        "frames": frames,
        "feed": feed,
        "status": status,
        "enrollment": enrollment,
    }
    app.register_blueprint(bp)
    return feed


def _camera() -> dict[str, Any]:
    cam = current_app.extensions["companion"].get("camera")
    if cam is None:  # the enrollment routes exist without camera mode
        raise ApiError(404, "not_found", "camera mode is off (serve --camera SOURCE)")
    return cam  # type: ignore[no-any-return]


def _enrollment() -> Enrollment:
    enrollment: Enrollment = _camera()["enrollment"]
    if not enrollment.available:
        raise ApiError(404, "not_found", "this camera source needs no enrollment of the box")
    return enrollment


@bp.get("/camera.mjpg")
def mjpeg() -> Response:
    """The annotated camera picture as an MJPEG stream."""
    frames: FrameHub = _camera()["frames"]

    def stream() -> Iterator[bytes]:
        # each part ends with the next boundary, so a browser shows a picture as soon as it arrives
        last = 0
        yield f"--{BOUNDARY}\r\n".encode()
        while not frames.closed:
            n, jpeg = frames.wait(last, 1.0)
            if jpeg is None:
                continue
            # no new picture for a second: send the last one again (a browser may show a part only
            # when the next one arrives, and a still table sends no new pictures from a paused source)
            last = n
            head = f"Content-Type: image/jpeg\r\nContent-Length: {len(jpeg)}\r\n\r\n".encode()
            yield head + jpeg + f"\r\n--{BOUNDARY}\r\n".encode()

    resp = Response(gated(stream()), mimetype=f"multipart/x-mixed-replace; boundary={BOUNDARY}")
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.get("/camera.jpg")
def still() -> Response:
    """The newest annotated picture (404 before the first)."""
    _, jpeg = _camera()["frames"].latest()
    if jpeg is None:
        raise ApiError(404, "not_found", "no camera picture yet")
    resp = Response(jpeg, mimetype="image/jpeg")
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@enrollment_bp.get("/api/tracker")
def get_tracker() -> Response:
    """The tracker's status; ``{"enabled": false}`` outside camera mode."""
    cam = current_app.extensions["companion"].get("camera")
    if cam is None:
        return jsonify({"enabled": False})
    return jsonify(cam["status"]())


@bp.get("/api/tracker/events")
def tracker_events() -> Response:
    """Server-Sent Events with the tracker's status after every change."""
    feed: TrackerFeed = _camera()["feed"]
    heartbeat = float(current_app.config.get("SSE_HEARTBEAT", 15.0))
    q = feed.listen()

    def stream() -> Iterator[str]:
        try:
            yield "retry: 2000\n\n"
            yield feed.message()
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
            feed.unlisten(q)

    try:
        body_ = gated(stream(), on_close=lambda: feed.unlisten(q))
    except ApiError:
        feed.unlisten(q)
        raise
    return sse_response(body_)


@bp.post("/api/tracker/answer")
def post_answer() -> Response:
    """Answer an open prompt or tap a desync's fix: ``{"id", "option"}``."""
    _guard()
    data = body()
    unknown = sorted(set(data) - {"id", "option"})
    if unknown:
        raise bad_request(unknown[0], "is not a field of an answer (id, option)")
    for key in ("id", "option"):
        v = data.get(key)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise bad_request(key, "must be a non-negative integer")
    from tracker.link import AnswerError

    link = _camera()["link"]
    try:
        ev = link.answer(data["id"], data["option"])
    except AnswerError as exc:
        if exc.code == "stale":
            raise ApiError(409, "stale_state", str(exc)) from None
        if exc.code == "refused":
            raise ApiError(422, "illegal_move", str(exc)) from None
        raise ApiError(404, "not_found", str(exc)) from None
    return jsonify({"kind": ev.kind, "moves": [str(m) for m in ev.moves], "back": ev.back, "state_id": ev.state_id})


@bp.post("/api/tracker/recheck")
def post_recheck() -> Response:
    """Count overruled facts again: ``{"key": <a key from the status's overruled list>}`` or ``{}``
    for all of them. Where the table still disagrees with the record, the desync comes back."""
    _guard()
    data = body()
    unknown = sorted(set(data) - {"key"})
    if unknown:
        raise bad_request(unknown[0], "is not a field here (key)")
    key = data.get("key")
    if key is not None and not isinstance(key, list):
        raise bad_request("key", "must be a fact's key as the status's overruled list gives it")
    from tracker.link import AnswerError

    try:  # the link tells its subscribers, the page's stream among them (attach)
        n = _camera()["link"].reinstate(key)
    except AnswerError as exc:
        raise ApiError(404, "not_found", str(exc)) from None
    return jsonify({"rechecked": n})


@enrollment_bp.get("/api/camera/enrollment")
def get_enrollment() -> Response:
    """Whether the user's box has been learned (404 outside camera mode)."""
    return jsonify(_enrollment().status())


@enrollment_bp.post("/api/camera/enroll")
def post_enroll() -> Response:
    """Learn the user's box now from the newest camera picture and the setup entered: ``{}``."""
    _guard()
    data = body()
    if data:
        raise bad_request(sorted(data)[0], "is not a field here; send an empty object {}")
    cam = _camera()
    enrollment = _enrollment()
    try:
        result = enrollment.run()
    finally:
        cam["feed"].changed()  # the page sees the new state (or the failure) over its stream
    return jsonify(result)
