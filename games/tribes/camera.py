"""The Tribes camera support (:class:`games.api.CameraSupport`): what camera mode needs of Tribes.

The table layout (:mod:`games.tribes.vision.layout`), the recognizer and enrollment
(:mod:`games.tribes.vision.recognizer`, :mod:`games.tribes.vision.enrollment`), the Observation
(:mod:`games.tribes.vision.observation`), the annotated camera picture
(:mod:`games.tribes.vision.overlay`) and the tracker policy (:mod:`games.tribes.tracker.policy`).
Everything heavy (numpy, OpenCV) is imported only when used.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from games.tribes.rules.pending import PendingKind


class TribesCamera:
    """See the module docstring."""

    def default_layout(self) -> Any:
        """The shipped 4-player table."""
        from games.tribes.vision.layout import default_layout

        return default_layout()

    def load_layout(self, path: str) -> Any:
        """A user's table layout (``LayoutError`` names the file and field)."""
        from games.tribes.vision.layout import resolve_layout

        return resolve_layout(path)

    def policy(self) -> Any:
        """The tracker policy."""
        from games.tribes.tracker.policy import POLICY

        return POLICY

    def observation_from_dict(self, data: Any) -> Any:
        """An Observation from JSON (``ObservationError`` names the field)."""
        from games.tribes.vision.observation import Observation

        return Observation.from_dict(data)

    def empty_observation(self, frame: int, time: float) -> Any:
        """What a frame says before anything can be read: not registered, not settled."""
        from games.tribes.vision.observation import Observation

        return Observation(frame=frame, time=time, registered=False, settled=False)

    def open_recognizer(self, path: str | Path, **options: Any) -> Any:
        """The recognizer of a saved enrollment (``table-companion enroll``)."""
        from games.tribes.vision.recognizer import Recognizer

        return Recognizer.open(path, **options)

    def recognizer(self, enrollment: Any, **options: Any) -> Any:
        """A recognizer for an enrollment (``layout`` and ``profile`` among the options)."""
        from games.tribes.vision.recognizer import Recognizer

        return Recognizer(options.pop("layout"), options.pop("profile"), enrollment, **options)

    def setup_missing(self, state: Any) -> str | None:
        """Why the box cannot be learned from the table in ``state`` yet (None: it can)."""
        if state.pending.kind == PendingKind.SETUP:
            return "the setup is not entered yet: enter the setup on the page first"
        return None

    def default_seats(self, players: int, seats_in_layout: int) -> list[int]:
        """Two players face each other (0 and 2) on the 4-seat table, otherwise seat order."""
        if players == 2 and seats_in_layout == 4:
            return [0, 2]
        return list(range(players))

    def enroll_from_frame(
        self,
        frame: Any,
        state: Any,
        *,
        layout: Any = None,
        profile: Any = None,
        seats: Sequence[int] | None = None,
        source: str = "camera",
        pack: Any = None,
    ) -> tuple[Any, Any, Any]:
        """Learn the box from one still picture of the table in ``state``: ``(enrollment, seated
        layout, profile)``. Raises ``EnrollmentError`` / ``FrameError`` (:mod:`vision.errors`) or
        ValueError for seats that do not fit."""
        from games.tribes.vision.enrollment import Enroller, labels_from_state

        layout = layout or self.default_layout()
        profile = profile or state.profile
        order = list(seats) if seats else self.default_seats(state.n, len(layout.seats))
        if len(order) != state.n:
            raise ValueError(f"--seats names {len(order)} seats for a game of {state.n} players")
        seated = layout.with_seats(order)
        enroller = Enroller(seated, profile)
        labels, colours = labels_from_state(state)
        enroller.add_frame(frame, labels, colours, source=source)
        if pack is not None:
            faces = [k for k in pack.faces if k.startswith(("event-", "achievement-"))]
            enroller.add_pack(pack, faces, source=getattr(pack, "source", "") or "pack")
        enrollment = enroller.build()
        enrollment.seat_order = list(order)
        return enrollment, seated, profile

    def enrollment_summary(self, enrollment: Any, profile: Any) -> tuple[list[str], list[str]]:
        """What the enrollment learned (``group:label``) and which tiles of the profile it lacks."""
        learned = sorted(f"{g}:{x}" for g, names in enrollment.labels.items() for x in set(names))
        missing = enrollment.missing(profile) if profile is not None else []
        return learned, list(missing)

    def picture(self, image: Any, obs: Any, status: dict[str, Any], width: int = 960, recognizer: Any = None) -> bytes:
        """The camera picture for the page: what the recognizer read (when registered), the
        tracker's status banner on top, scaled to ``width``, JPEG bytes."""
        from games.tribes.vision.overlay import annotator

        if image is not None and recognizer is not None and obs is not None and obs.registered:
            image = recognizer.annotate(image, obs)
        return annotator(lambda im: im, width=width)(image, obs, status)


CAMERA = TribesCamera()
