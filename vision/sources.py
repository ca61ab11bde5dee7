"""Frame sources and the capture thread.

Sources (all give BGR uint8 frames):

* :class:`OpenCVSource` — a webcam (``0``, ``1``, …), a video file, or an HTTP/RTSP stream URL,
  through ``cv2.VideoCapture``. Asks for a resolution and frame rate and, where the backend allows,
  locks exposure and white balance (what was accepted is in :attr:`OpenCVSource.applied`).
* :class:`FolderSource` — the images of a folder in name order.

(The renderer's source, frames of a simulated game, is tooling: ``games.tribes.sim.source``.)

:func:`open_source` picks one from a text (``0``, ``video.mp4``, ``frames/``, ``rtsp://…``,
a URL).

:class:`Capture` runs a source in a thread and always hands out the *newest* frame (older ones are
dropped: a slow reader never falls behind a live camera). When a live source fails or stops
delivering it reconnects with exponential back-off (``backoff`` doubling up to ``max_backoff``);
its :attr:`~Capture.state` (``connecting``, ``streaming``, ``reconnecting``, ``ended``,
``stopped``) and the last error are reported, and a callback can be told of every change. Nothing
here raises from the thread: errors become states.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from vision.errors import ImageTooLargeError, SourceError
from vision.images import check_pixels, read_image, refusal, too_large

log = logging.getLogger(__name__)
_WARNED: set[str] = set()  # pictures refused for their size, each said once

IMAGE_TYPES = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff")
VIDEO_TYPES = (".mp4", ".avi", ".mkv", ".mov", ".webm", ".m4v", ".mpg", ".mpeg")


class FrameSource(Protocol):
    """What :class:`Capture` needs of a source."""

    name: str
    live: bool  # a camera or stream (reconnect on failure) rather than a file that ends

    def open(self) -> None: ...

    def read(self) -> np.ndarray | None: ...

    def close(self) -> None: ...


@dataclass
class CameraSettings:
    """What to ask of a camera; ``None`` leaves the backend's choice. ``lock`` fixes exposure and
    white balance (values taken from the camera's current ones unless given)."""

    width: int | None = None
    height: int | None = None
    fps: float | None = None
    lock: bool = True
    exposure: float | None = None
    white_balance: float | None = None


class OpenCVSource:
    """A webcam index, video file or stream URL read with ``cv2.VideoCapture``."""

    def __init__(self, spec: int | str, settings: CameraSettings | None = None) -> None:
        self.spec = spec
        self.settings = settings or CameraSettings()
        self.name = f"camera {spec}" if isinstance(spec, int) else str(spec)
        self.live = isinstance(spec, int) or "://" in str(spec)
        self.cap: cv2.VideoCapture | None = None
        self.applied: dict[str, Any] = {}

    def open(self) -> None:
        """Open the device, file or stream (SourceError when it cannot be opened)."""
        if isinstance(self.spec, str) and "://" not in self.spec and not Path(self.spec).is_file():
            raise SourceError(f"{self.spec}: no such video file")
        cap = cv2.VideoCapture(self.spec)
        if not cap.isOpened():
            cap.release()
            raise SourceError(f"{self.name}: cannot be opened")
        self.applied = self._apply(cap) if self.live else {}
        size = int(cap.get(cv2.CAP_PROP_FRAME_WIDTH) or 0), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT) or 0)
        why = too_large(*size)
        if why:
            cap.release()
            raise SourceError(f"{self.name}: its frames are {why}")
        self.cap = cap

    def _apply(self, cap: cv2.VideoCapture) -> dict[str, Any]:
        s = self.settings
        done: dict[str, Any] = {}

        def ask(prop: int, name: str, value: float) -> None:
            done[name] = bool(cap.set(prop, value))

        if s.width:
            ask(cv2.CAP_PROP_FRAME_WIDTH, "width", s.width)
        if s.height:
            ask(cv2.CAP_PROP_FRAME_HEIGHT, "height", s.height)
        if s.fps:
            ask(cv2.CAP_PROP_FPS, "fps", s.fps)
        if s.lock:
            # V4L2: 1 = manual exposure; other backends read 0.25 as manual (backend-specific)
            exposure = s.exposure if s.exposure is not None else cap.get(cv2.CAP_PROP_EXPOSURE)
            if not cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 1):
                cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 0.25)
            ask(cv2.CAP_PROP_EXPOSURE, "exposure", exposure)
            ask(cv2.CAP_PROP_AUTO_WB, "auto_white_balance_off", 0)
            wb = s.white_balance if s.white_balance is not None else cap.get(cv2.CAP_PROP_WB_TEMPERATURE)
            if wb:
                ask(cv2.CAP_PROP_WB_TEMPERATURE, "white_balance", wb)
        done["size"] = (int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT)))
        return done

    def read(self) -> np.ndarray | None:
        """The next frame, or None (end of file, or the stream failed)."""
        if self.cap is None:
            return None
        ok, frame = self.cap.read()
        if not ok or frame is None or not frame.size:
            return None
        why = check_pixels(frame, f"{self.name}: a frame")
        if why:  # a stream that changed its size on the way
            raise SourceError(why)
        return frame

    def close(self) -> None:
        """Release the device."""
        if self.cap is not None:
            self.cap.release()
            self.cap = None


class FolderSource:
    """The images of a folder, in name order (unreadable files are skipped; a picture over the pixel
    cap, :data:`vision.images.MAX_PIXELS`, is skipped with one warning line saying so)."""

    def __init__(self, folder: str | Path, loop: bool = False) -> None:
        self.folder = Path(folder)
        self.name = str(folder)
        self.live = False
        self.loop = loop
        self.files: list[Path] = []
        self.index = 0
        self.current: Path | None = None
        self.refused: list[str] = []

    def open(self) -> None:
        """List the images (SourceError when the folder is missing or holds none)."""
        if not self.folder.is_dir():
            raise SourceError(f"{self.folder}: no such folder")
        files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_TYPES and p.is_file())
        self.refused = []
        keep = []
        for p in files:
            why = refusal(p)
            if why:
                self.refused.append(why)
            else:
                keep.append(p)
        self.files = keep
        for why in self.refused if keep else ():  # with nothing left the error below says it
            if why not in _WARNED:
                _WARNED.add(why)
                log.warning("skipped %s", why)
        if not self.files:
            if self.refused:
                raise SourceError(f"{self.folder}: holds no image that may be read: {self.refused[0]}")
            raise SourceError(f"{self.folder}: holds no images ({', '.join(IMAGE_TYPES)})")
        self.index = 0

    def read(self) -> np.ndarray | None:
        """The next image, or None after the last one (unless looping)."""
        while True:
            if self.index >= len(self.files):
                if not self.loop or not self.files:
                    return None
                self.index = 0
            p = self.files[self.index]
            self.index += 1
            try:
                img = read_image(p)
            except ImageTooLargeError as exc:  # grown since open()
                log.warning("skipped %s", exc)
                continue
            if img is not None:
                self.current = p
                return img

    def close(self) -> None:
        """Nothing to release."""


def open_source(spec: str, settings: CameraSettings | None = None) -> FrameSource:
    """A source from text: a webcam index (``0``), an ``http(s)://`` or ``rtsp://`` URL, a folder
    of images, or a video file. (A :class:`RenderSource` is built in code.)"""
    text = spec.strip()
    if text.isdigit():
        return OpenCVSource(int(text), settings)
    if "://" in text:
        if text.split("://", 1)[0].lower() not in ("http", "https", "rtsp", "rtsps", "rtmp", "udp", "tcp"):
            raise SourceError(f"{text}: unsupported URL scheme (use http, https or rtsp)")
        return OpenCVSource(text, settings)
    p = Path(text)
    if p.is_dir():
        return FolderSource(p)
    if p.is_file():
        return OpenCVSource(text, settings)
    raise SourceError(f"{text}: no such camera, video file, folder or URL")


@dataclass
class Packet:
    """A frame handed out by :class:`Capture`: its number (counting every frame the source gave,
    so gaps show dropped frames), when it arrived (``time.monotonic``) and the image."""

    seq: int
    time: float
    image: np.ndarray


@dataclass
class CaptureStats:
    """Counters of a capture."""

    frames: int = 0
    handed_out: int = 0
    reconnects: int = 0
    failures: int = 0
    last_error: str = ""
    states: list[tuple[float, str]] = field(default_factory=list)


class Capture:
    """Reads a source in a background thread and keeps only the newest frame (see the module
    docstring). Use as a context manager or call :meth:`start` / :meth:`stop`."""

    def __init__(
        self,
        source: FrameSource,
        backoff: float = 0.5,
        max_backoff: float = 10.0,
        pace: float | None = None,
        on_state: Callable[[str, str], None] | None = None,
    ) -> None:
        self.source = source
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.pace = pace  # finite sources: frames per second to deliver (None: as fast as read)
        self.on_state = on_state
        self.state = "stopped"
        self.stats = CaptureStats()
        self._latest: Packet | None = None
        self._taken = -1
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Capture:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _set(self, state: str, detail: str = "") -> None:
        with self._cond:
            self.state = state
            self.stats.states.append((time.monotonic(), state))
            if detail:
                self.stats.last_error = detail
            self._cond.notify_all()
        if self.on_state is not None:
            with contextlib.suppress(Exception):  # a failing callback must not kill the capture
                self.on_state(state, detail)

    def start(self) -> None:
        """Start the thread (idempotent)."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"capture {self.source.name}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the thread and close the source."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        if self.state != "ended":
            self._set("stopped")

    def latest(self, timeout: float = 1.0, newer: bool = True) -> Packet | None:
        """The newest frame; with ``newer`` one not handed out before (waits up to ``timeout``
        seconds). None when there is none (see :attr:`state`)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                pkt = self._latest
                if pkt is not None and (not newer or pkt.seq > self._taken):
                    self._taken = pkt.seq
                    self.stats.handed_out += 1
                    return pkt
                if self.state in ("ended", "stopped") and self._thread is None:
                    return None
                left = deadline - time.monotonic()
                if left <= 0 or (self.state == "ended"):
                    return None
                self._cond.wait(left)

    def _run(self) -> None:
        delay = self.backoff
        seq = 0
        first = True
        while not self._stop.is_set():
            self._set("connecting" if first else "reconnecting")
            try:
                self.source.open()
            except Exception as exc:  # SourceError or a backend error: report and retry
                self.stats.failures += 1
                self._set("reconnecting" if self.source.live else "ended", str(exc))
                if not self.source.live:
                    return
                self._stop.wait(delay)
                delay = min(delay * 2, self.max_backoff)
                continue
            if not first:
                self.stats.reconnects += 1
            first = False
            self._set("streaming")
            last_ok = time.monotonic()
            while not self._stop.is_set():
                t0 = time.monotonic()
                try:
                    frame = self.source.read()
                except Exception as exc:
                    frame = None
                    self.stats.last_error = str(exc)
                if frame is None:
                    if not self.source.live:
                        self.source.close()
                        self._set("ended")
                        return
                    break  # a live source that returns nothing has dropped out: reconnect
                delay = self.backoff
                last_ok = time.monotonic()
                seq += 1
                with self._cond:
                    self._latest = Packet(seq, last_ok, frame)
                    self.stats.frames += 1
                    self._cond.notify_all()
                if self.pace:
                    self._stop.wait(max(0.0, 1.0 / self.pace - (time.monotonic() - t0)))
            with contextlib.suppress(Exception):
                self.source.close()
            if self._stop.is_set():
                break
            self.stats.failures += 1
            self._set("reconnecting", self.stats.last_error or f"{self.source.name}: stopped delivering frames")
            self._stop.wait(delay)
            delay = min(delay * 2, self.max_backoff)
