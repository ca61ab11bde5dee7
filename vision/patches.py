"""Patches: square windows of the table plane the readers ask for, in table millimetres.

The readers of every game never think in pixels. They ask for *patches*: square windows of the
table plane with a centre (mm), a rotation (degrees, clockwise seen from above), a side (mm) and an
output size (px); :mod:`vision.sampling` cuts them out of a registered frame. A game's regions module
(``games/<id>/vision/regions.py``) computes them from its layout. Pure numpy; no OpenCV.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from vision.layout import Point


@dataclass(frozen=True)
class PatchSet:
    """A batch of square windows on the table: centres (N x 2 mm), rotations (N, degrees), side (mm)
    and output side (px). ``key`` names the set for caching."""

    key: str
    centers: np.ndarray
    rotations: np.ndarray
    side_mm: float
    px: int

    def __len__(self) -> int:
        return len(self.centers)

    @cached_property
    def grid(self) -> np.ndarray:
        """Table points (N x px x px x 2, mm) of every output pixel centre."""
        n = len(self.centers)
        step = self.side_mm / self.px
        ax = (np.arange(self.px) + 0.5) * step - self.side_mm / 2
        gx, gy = np.meshgrid(ax, ax)
        local = np.stack([gx, gy], -1)[None].repeat(n, 0)  # N x px x px x 2
        a = np.radians(self.rotations)[:, None, None]
        c, s = np.cos(a), np.sin(a)
        x = c * local[..., 0] - s * local[..., 1] + self.centers[:, None, None, 0]
        y = s * local[..., 0] + c * local[..., 1] + self.centers[:, None, None, 1]
        return np.stack([x, y], -1)


def patch_set(
    key: str, centers: list[Point] | np.ndarray, rotations: list[float] | np.ndarray | float, side_mm: float, px: int
) -> PatchSet:
    """Build a :class:`PatchSet` (a scalar rotation applies to every window)."""
    c = np.asarray(centers, np.float64).reshape(-1, 2)
    r = np.broadcast_to(np.asarray(rotations, np.float64), (len(c),)).copy()
    return PatchSet(key, c, r, float(side_mm), int(px))


def window_vectors(ps: PatchSet, vectors_mm: np.ndarray) -> np.ndarray:
    """Table vectors (N x 2, mm), one per window, in each window's own pixels (N x 2: columns, rows):
    turned into the window's frame and scaled by its pixels per millimetre."""
    v = np.asarray(vectors_mm, np.float64).reshape(-1, 2)
    a = np.radians(ps.rotations)
    c, s = np.cos(a), np.sin(a)
    k = ps.px / ps.side_mm
    return np.stack([(c * v[:, 0] + s * v[:, 1]) * k, (-s * v[:, 0] + c * v[:, 1]) * k], -1)


def lean_ramps(vectors_px: np.ndarray, px: int) -> np.ndarray:
    """A ramp per window (N x px x px, float32) rising along a vector in its pixels (N x 2): the value
    at a pixel is its offset from the window's centre dotted with the vector, both in half-window
    sides. A model reading the ramp beside the window learns where and how far things lean in it;
    turning or flipping the window turns or flips the ramp with it, so quarter turns of an input stay
    consistent."""
    v = np.asarray(vectors_px, np.float64).reshape(-1, 2) / (px / 2)
    ax = (np.arange(px) - (px - 1) / 2) / (px / 2)
    gx, gy = np.meshgrid(ax, ax)  # column offset, row offset
    ramps: np.ndarray = (v[:, 0, None, None] * gx[None] + v[:, 1, None, None] * gy[None]).astype(np.float32)
    return ramps
