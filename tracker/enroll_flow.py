"""Enrollment at the table, for camera mode (``serve --camera SOURCE`` without ``--enrollment``).

A user who starts camera mode without an enrollment file sets up the game on the table, enters the
setup on the page, keeps hands off the table and taps "enroll". :class:`EnrollFlow` then learns the
box from the newest camera frame and the runtime's *current* position (what the page says lies on the
table), saves the enrollment next to the games (``enrollment.json`` + ``.npz`` in the data folder) and
hands a ready recognizer to camera mode, which starts reading the table. What learning the box means
is the game's (:class:`games.api.CameraSupport`: ``enroll_from_frame``, ``recognizer``); the flow is
the same for every game.

The contract with the page (``webui.camera.attach(enroll=…, enrollment_status=…)``):

- :meth:`EnrollFlow.status` and :meth:`EnrollFlow.enroll` return
  ``{"state": "needed" | "enrolled" | "failed", "message": str, "learned": [str], "missing": [str],
  "path": str | None}`` — ``learned`` and ``missing`` name example classes as ``group:label``
  (e.g. ``hex:resource:goat``, ``row:event:wolves``; the game's ``enrollment_summary``);
- a user mistake (no game, setup not entered, no picture yet, hands or motion in view, no markers in
  the picture, reference patch not readable) raises :class:`EnrollMistake` (a ``ValueError``) with a
  one-line message; the state is then ``failed`` (or stays ``enrolled`` when an earlier enrollment
  is still in use).

The camera pipeline (:mod:`vision`) is imported only when a frame is looked at or an enrollment made;
nothing here imports OpenCV itself.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ENROLLMENT_NAME = "enrollment.json"
"""File name of the enrollment saved in the data folder (with ``enrollment.npz`` beside it)."""


class EnrollMistake(ValueError):
    """Enrollment cannot be made now, for a reason the user can fix (one line)."""


class EnrollFlow:
    """See the module docstring.

    ``runtime``: the game runtime (``has_game``, ``snapshot().state``, ``game``: the plug-in whose
    camera support learns the box); ``folder``: where the enrollment is saved;
    ``on_enrolled(recognizer)``: called with the new recognizer; ``layout`` and ``profile``: the table
    layout (default: the game's shipped one) and box profile (default: the game's); ``seats``: layout
    seat of each player (default: the game's ``default_seats``); ``models``: models folder (default:
    shipped). Feed every camera frame to :meth:`look` so that the flow knows the newest
    picture and whether the table is still."""

    def __init__(
        self,
        runtime: Any,
        folder: str | Path,
        on_enrolled: Callable[[Any], None],
        *,
        layout: Any = None,
        profile: Any = None,
        seats: Sequence[int] | None = None,
        models: str | Path | None = None,
        fps: float = 10.0,
    ) -> None:
        self.runtime = runtime
        self.folder = Path(folder)
        self.on_enrolled = on_enrolled
        self.layout = layout
        self.profile = profile
        self.seats = list(seats) if seats is not None else None
        self.models = models
        self.fps = fps
        self._lock = threading.Lock()
        self._gate: Any = None
        self._frame: Any = None
        self._still = False
        self._state = "needed"
        self._message = "enrollment needed: set up the game, enter the setup on the page, keep hands off, enroll"
        self._learned: list[str] = []
        self._missing: list[str] = []
        self._path: str | None = None

    # --- the camera side ------------------------------------------------------------------------
    def look(self, image: Any, time_s: float | None = None) -> bool:
        """Remember ``image`` as the newest picture and update the motion gate; True when the table is
        still (settled)."""
        from vision.motion import MotionGate

        # the green channel stands in for brightness (the gate only compares frames with each other)
        gray = image[:, :, 1] if image.ndim == 3 else image
        with self._lock:
            if self._gate is None:
                self._gate = MotionGate(fps=self.fps)
            state = self._gate.update(gray, time_s)
            self._frame = image
            self._still = bool(state.settled)
            return self._still

    def adopt(self, enrollment: Any, path: str | Path | None, profile: Any = None) -> None:
        """Use an enrollment made elsewhere (``serve --enrollment FILE``): the state becomes enrolled."""
        with self._lock:
            self._enrolled(enrollment, str(path) if path else None, profile or self.profile, "loaded")

    # --- the page side ----------------------------------------------------------------------------
    def status(self) -> dict[str, Any]:
        """The enrollment's state (see the module docstring)."""
        with self._lock:
            return {
                "state": self._state,
                "message": self._message,
                "learned": list(self._learned),
                "missing": list(self._missing),
                "path": self._path,
            }

    def enroll(self) -> dict[str, Any]:
        """Learn the box from the newest picture and the current position; save it; start reading.
        Raises :class:`EnrollMistake` (see the module docstring)."""
        try:
            return self._enroll()
        except EnrollMistake as exc:
            with self._lock:
                if self._state != "enrolled":
                    self._state = "failed"
                    self._message = str(exc)
                else:
                    self._message = f"enrollment not renewed: {exc}; the earlier one is still in use"
            raise

    def _enroll(self) -> dict[str, Any]:
        if not self.runtime.has_game:
            raise EnrollMistake("no game yet: start a game on the page and enter its setup first")
        state = self.runtime.snapshot().state
        camera = self._camera()
        not_yet = camera.setup_missing(state)
        if not_yet:
            raise EnrollMistake(not_yet)
        with self._lock:
            frame, still = self._frame, self._still
        if frame is None:
            raise EnrollMistake("no camera picture yet: check the camera")
        if not still:
            raise EnrollMistake("hands or motion in view: keep hands off the table for a moment and enroll again")
        from vision.errors import EnrollmentError, FrameError

        try:
            enrollment, seated, profile = camera.enroll_from_frame(
                frame, state, layout=self.layout, profile=self.profile, seats=self.seats, source="camera"
            )
        except EnrollmentError as exc:
            if exc.field == "markers":
                raise EnrollMistake(f"no table markers in the picture: {_reason(exc.reason)}") from None
            raise EnrollMistake(_reason(exc.reason)) from None
        except FrameError as exc:
            raise EnrollMistake(f"the camera picture cannot be read: {exc}") from None
        except ValueError as exc:
            raise EnrollMistake(_reason(str(exc))) from None
        path = self.folder / ENROLLMENT_NAME
        try:
            js, _ = enrollment.save(path)
        except OSError as exc:
            raise EnrollMistake(f"{path}: cannot save the enrollment: {exc.strerror or exc}") from None
        recognizer = camera.recognizer(
            enrollment, layout=seated, profile=profile, models=self.models, stream=True, fps=self.fps
        )
        with self._lock:
            self._enrolled(enrollment, str(js), profile, "enrolled from the camera")
        self.on_enrolled(recognizer)
        return self.status()

    def _camera(self) -> Any:
        import games

        plugin = getattr(self.runtime, "game", None) or games.get(games.DEFAULT)
        if plugin.camera is None:
            raise EnrollMistake(f"{plugin.info.title} cannot be read by the camera yet")
        return plugin.camera()

    def _enrolled(self, enrollment: Any, path: str | None, profile: Any, how: str) -> None:
        self._state = "enrolled"
        self._path = path
        self._learned, self._missing = self._camera().enrollment_summary(enrollment, profile)
        gaps = f"; {len(self._missing)} tiles not enrolled yet (read as '?')" if self._missing else ""
        self._message = f"{how}: reading the table{gaps}"


def _reason(text: str) -> str:
    """``text`` on one line."""
    return " ".join(str(text).split())
