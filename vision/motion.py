"""The motion gate: is the table still (settled) or is a hand or a piece moving?

Each frame is shrunk to a small grey thumbnail (``width`` pixels wide, blurred) and compared with the
previous one. A pixel *moves* when it changed by more than ``pixel_threshold`` grey levels after the
frame-wide median change is taken out (so a lamp switched on or the camera's auto exposure does not
count as motion). The frame is *moving* when more than ``area_threshold`` of the pixels moved (the
default 0.4% follows karayaman's chess mover, docs/camera.md). The table is *settled* after
``quiet_frames`` consecutive still frames; the first frame is never settled unless ``quiet_frames``
is 0 (single images).

A frame may also be declared unsettled from outside (a reader that sees a hand, a registration
that just moved): :meth:`MotionGate.disturb`.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class GateState:
    """The gate's verdict for one frame: ``settled``, ``moving`` (this frame differs from the last),
    the fraction of thumbnail pixels that moved and the number of still frames in a row."""

    settled: bool
    moving: bool
    moved_fraction: float
    quiet: int


class MotionGate:
    """Decides which frames are settled (see the module docstring)."""

    def __init__(
        self, quiet_frames: int = 3, width: int = 192, pixel_threshold: float = 14.0, area_threshold: float = 0.004
    ) -> None:
        self.quiet_frames = quiet_frames
        self.width = width
        self.pixel_threshold = pixel_threshold
        self.area_threshold = area_threshold
        self._prev: np.ndarray | None = None
        self._quiet = 0

    def reset(self) -> None:
        """Forget the previous frame."""
        self._prev = None
        self._quiet = 0

    def disturb(self) -> None:
        """Count the current stretch of still frames as broken (e.g. a hand was seen)."""
        self._quiet = 0

    def thumbnail(self, gray: np.ndarray) -> np.ndarray:
        """The small blurred grey image the gate compares."""
        h, w = gray.shape[:2]
        tw = min(self.width, w)
        th = max(1, round(h * tw / w))
        small = cv2.resize(gray, (tw, th), interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(small, (3, 3), 0).astype(np.int16)

    def update(self, gray: np.ndarray) -> GateState:
        """Feed one grey frame; returns the verdict."""
        thumb = self.thumbnail(gray)
        prev = self._prev
        self._prev = thumb
        if prev is None or prev.shape != thumb.shape:
            self._quiet = 0
            settled = self.quiet_frames == 0
            return GateState(settled, False, 0.0, 0)
        diff = thumb - prev
        diff = np.abs(diff - np.median(diff))
        frac = float(np.mean(diff > self.pixel_threshold))
        moving = frac > self.area_threshold
        self._quiet = 0 if moving else self._quiet + 1
        return GateState(self._quiet >= self.quiet_frames, moving, frac, self._quiet)
