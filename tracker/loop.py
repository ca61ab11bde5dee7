"""The camera loop: frames in, observations, tracker decisions and an annotated picture out.

:class:`CameraLoop` runs in its own thread. It takes frames from a source (any iterator of frames;
opaque to this module), turns each into an :class:`~vision.observation.Observation` with the injected
``recognize`` callable, feeds it to a :class:`~tracker.link.TrackerLink` (which commits moves to the
game runtime), and — when ``annotate`` is given — draws what it saw and what the tracker thinks onto
the frame and hands the encoded picture to ``publish`` (the web page's MJPEG stream: one encode for
all viewers). Nothing here knows OpenCV or Flask: the camera pipeline, the drawing and the page are
injected, so the same loop serves a webcam, a video file, a rendered table or a test.

A frame the recognizer cannot read (an exception) is reported as an unregistered observation — the
loop never stops because of one bad frame. ``pace`` (seconds per frame) slows a source that would
otherwise run faster than real time (a video file, a simulation); a live camera sets its own pace.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from tracker.link import TrackerLink

Observation = Any

log = logging.getLogger(__name__)

Recognize = Callable[[Any], Observation]
"""Frame -> Observation (the camera pipeline, or a stand-in)."""

Annotate = Callable[[Any, Observation, dict[str, Any]], bytes]
"""(frame, observation, tracker status as JSON data) -> an encoded picture (JPEG bytes)."""


@dataclass
class LoopStats:
    """What the loop has done so far."""

    frames: int = 0
    errors: int = 0
    last_error: str = ""
    seconds_recognize: float = 0.0
    seconds_track: float = 0.0
    seconds_annotate: float = 0.0
    finished: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON data (mean milliseconds per frame)."""
        n = max(self.frames, 1)
        return {
            "frames": self.frames,
            "errors": self.errors,
            "last_error": self.last_error,
            "recognize_ms": round(1000 * self.seconds_recognize / n, 2),
            "track_ms": round(1000 * self.seconds_track / n, 2),
            "annotate_ms": round(1000 * self.seconds_annotate / n, 2),
            "finished": self.finished,
        }


class CameraLoop:
    """See the module docstring."""

    def __init__(
        self,
        source: Iterable[Any],
        recognize: Recognize,
        link: TrackerLink,
        *,
        annotate: Annotate | None = None,
        publish: Callable[[bytes], None] | None = None,
        pace: float = 0.0,
        annotate_every: int = 1,
        on_finish: Callable[[], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        housekeeping: Callable[[], object] | None = None,
        housekeeping_every: int = 300,
    ) -> None:
        self.source = source
        self.recognize = recognize
        self.link = link
        self.annotate = annotate
        self.publish = publish
        self.pace = pace
        self.annotate_every = max(1, annotate_every)
        self.on_finish = on_finish
        self.clock = clock
        self.housekeeping = housekeeping  # called every ``housekeeping_every`` frames (e.g. give memory back)
        self.housekeeping_every = max(1, housekeeping_every)
        self.stats = LoopStats()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Run in a daemon thread."""
        self._thread = threading.Thread(target=self.run, name="tribes-camera", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop after the current frame."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    @property
    def running(self) -> bool:
        """True while the thread runs."""
        return self._thread is not None and self._thread.is_alive()

    def run(self) -> None:
        """Process frames until the source ends or :meth:`stop` is called."""
        it: Iterator[Any] = iter(self.source)
        next_at = self.clock()
        try:
            while not self._stop.is_set():
                try:
                    frame = next(it)
                except StopIteration:
                    break
                self.step(frame)
                if self.housekeeping is not None and self.stats.frames % self.housekeeping_every == 0:
                    self.housekeeping()
                if self.pace > 0:
                    next_at += self.pace
                    delay = next_at - self.clock()
                    if delay > 0:
                        self._stop.wait(delay)
                    else:
                        next_at = self.clock()  # behind: do not try to catch up
        finally:
            self.stats.finished = True
            if self.on_finish:
                self.on_finish()

    def step(self, frame: Any) -> Observation | None:
        """Read, track and (maybe) draw one frame (None: it could not be read; the tracker is not told,
        as if the frame had not come)."""
        st = self.stats
        t0 = time.perf_counter()
        try:
            obs = self.recognize(frame)
        except Exception as exc:  # one bad frame never stops the camera
            st.errors += 1
            st.last_error = f"{type(exc).__name__}: {exc}"
            log.warning("frame %d not recognised: %s", st.frames, st.last_error)
            st.frames += 1
            st.seconds_recognize += time.perf_counter() - t0
            return None
        t1 = time.perf_counter()
        self.link.feed(obs)
        t2 = time.perf_counter()
        if self.annotate is not None and self.publish is not None and st.frames % self.annotate_every == 0:
            try:
                self.publish(self.annotate(frame, obs, self.link.status_dict()))
            except Exception as exc:
                st.errors += 1
                st.last_error = f"annotate: {type(exc).__name__}: {exc}"
                log.warning("frame %d not drawn: %s", st.frames, st.last_error)
        t3 = time.perf_counter()
        st.frames += 1
        st.seconds_recognize += t1 - t0
        st.seconds_track += t2 - t1
        st.seconds_annotate += t3 - t2
        return obs
