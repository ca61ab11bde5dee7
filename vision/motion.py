"""The motion gate: is the table still (settled) or is a hand or a piece moving?

Each frame is shrunk to a small grey thumbnail (``width`` pixels wide, blurred) and compared with the
previous one. A pixel *moves* when it changed by more than ``pixel_threshold`` grey levels after the
frame-wide median change is taken out (so a lamp switched on or the camera's auto exposure does not
count as motion). The frame is *moving* when more than ``area_threshold`` of the pixels moved (the
default 0.4% follows karayaman's chess mover, docs/camera.md).

The table is *settled* once nothing has moved for ``quiet`` seconds. A hand that holds still over
the table for a moment would pass that test, so the gate also looks at the *size* of what differs
from the last settled table: a connected changed region larger than ``hand_area`` (a hand and arm,
not a piece or a tile) means a hand may be resting there, and then the table must stay still for
``quiet_long`` seconds. Such a region also sets ``hand`` (reported as ``hand_in_view``). Times come
from the frames' timestamps, or from ``fps`` when none are given; the first frame is never settled
unless ``quiet`` is 0 (single photos).

A frame may also be declared unsettled from outside (a registration that just moved):
:meth:`MotionGate.disturb`.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class GateState:
    """The gate's verdict for one frame: ``settled``; ``moving`` (this frame differs from the last);
    the fraction of thumbnail pixels that moved; how long (s) nothing has moved; ``hand``: a
    hand-sized region differs from the last settled table or moved just now."""

    settled: bool
    moving: bool
    moved_fraction: float
    quiet_for: float
    hand: bool = False


class MotionGate:
    """Decides which frames are settled (see the module docstring)."""

    def __init__(
        self,
        quiet: float = 0.5,
        quiet_long: float = 2.0,
        fps: float = 10.0,
        width: int = 192,
        pixel_threshold: float = 14.0,
        area_threshold: float = 0.004,
        hand_area: float = 0.02,
    ) -> None:
        self.quiet = quiet
        self.quiet_long = quiet_long
        self.fps = fps
        self.width = width
        self.pixel_threshold = pixel_threshold
        self.area_threshold = area_threshold
        self.hand_area = hand_area
        self.reset()

    def reset(self) -> None:
        """Forget everything seen."""
        self._prev: np.ndarray | None = None
        self._settled: np.ndarray | None = None
        self._count = 0
        self._last_move: float | None = None
        self._need = self.quiet

    def disturb(self) -> None:
        """Count the table as having moved just now (e.g. the camera was bumped)."""
        self._last_move = None
        self._settled = None

    def thumbnail(self, gray: np.ndarray) -> np.ndarray:
        """The small blurred grey image the gate compares."""
        h, w = gray.shape[:2]
        tw = min(self.width, w)
        th = max(1, round(h * tw / w))
        small = cv2.resize(gray, (tw, th), interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(small, (3, 3), 0).astype(np.int16)

    def _changed(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        diff = a - b
        return np.abs(diff - np.median(diff)) > self.pixel_threshold

    def _largest(self, mask: np.ndarray) -> float:
        if not mask.any():
            return 0.0
        n, _, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
        return float(stats[1:, cv2.CC_STAT_AREA].max()) / mask.size if n > 1 else 0.0

    def update(self, gray: np.ndarray, t: float | None = None) -> GateState:
        """Feed one grey frame taken at time ``t`` (seconds; default: frame count / fps)."""
        now = self._count / self.fps if t is None else float(t)
        self._count += 1
        thumb = self.thumbnail(gray)
        prev, self._prev = self._prev, thumb
        if prev is None or prev.shape != thumb.shape:
            self._last_move = None if self.quiet > 0 else now
            self._settled = thumb if self.quiet == 0 else None
            return GateState(self.quiet == 0, False, 0.0, 0.0, False)
        moved = self._changed(thumb, prev)
        frac = float(moved.mean())
        moving = frac > self.area_threshold
        hand = moving and self._largest(moved) > self.hand_area
        if moving or self._last_move is None:
            self._last_move = now
            if hand:
                self._need = self.quiet_long
        quiet_for = now - self._last_move
        # what differs from the last settled table: a hand-sized region may be a resting hand
        if (
            self._settled is not None
            and not moving
            and self._largest(self._changed(thumb, self._settled)) > self.hand_area
        ):
            hand = True
            self._need = max(self._need, self.quiet_long)
        settled = not moving and quiet_for >= self._need - 1e-9
        if settled:
            self._settled = thumb
            self._need = self.quiet
        return GateState(settled, moving, frac, quiet_for, hand)
