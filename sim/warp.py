"""From the top-down table image to the camera's picture: one resampling through the camera model.

The renderer draws the table once, seen from straight above, on a *canvas*: a raster of the table
plane at ``scale`` pixels per millimetre covering what the camera sees (:class:`Canvas`). The camera
image is then a single lookup per output pixel: the pixel's ray (lens distortion undone) meets the
table at some point, whose canvas position is sampled bilinearly. Without distortion that map is a
homography (``cv2.warpPerspective``); with distortion it is computed on a coarse grid, upsampled
and cached per camera, and applied with ``cv2.remap`` on fixed-point maps.

Raised things (pieces, hands) are drawn on the canvas where their points *appear* on the plane
(:meth:`vision.camera.Camera.lean`), so the one warp shows them in correct perspective.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass

import cv2
import numpy as np

from sim.camera import Camera
from vision.layout import TableFrame as Layout

GRID_STEP = 8
"""Pixel spacing of the coarse grid on which distortion maps are computed exactly."""


@dataclass(frozen=True)
class Canvas:
    """A raster of the table plane: pixel ``(u, v)`` covers table mm
    ``[x0 + u/scale, x0 + (u+1)/scale] x [y0 + v/scale, y0 + (v+1)/scale]``."""

    x0: float
    y0: float
    scale: float
    width: int
    height: int

    def to_px(self, points: np.ndarray) -> np.ndarray:
        """Canvas coordinates (pixel centres at integers) of table points (N x 2, mm)."""
        p = np.asarray(points, np.float64)
        return (p - [self.x0, self.y0]) * self.scale - 0.5

    def to_table(self, px: np.ndarray) -> np.ndarray:
        """Table points (mm) of canvas coordinates."""
        return (np.asarray(px, np.float64) + 0.5) / self.scale + [self.x0, self.y0]

    def matrix(self) -> np.ndarray:
        """3x3 map from canvas coordinates to table mm."""
        s = 1.0 / self.scale
        return np.array([[s, 0, self.x0 + 0.5 * s], [0, s, self.y0 + 0.5 * s], [0, 0, 1.0]])

    @staticmethod
    def for_camera(camera: Camera, layout: Layout, oversample: float = 1.2, reach: float = 250.0) -> Canvas:
        """The canvas a camera needs: the table region it sees (clipped to ``reach`` mm around the
        play area) at a scale of ``oversample`` times the camera's sharpest pixels-per-mm there,
        rounded up to a multiple of 1/8."""
        w, h = layout.table
        foot = camera.footprint()
        # rays near the horizon can land far away or behind: clip to the reach box
        lo = np.array([-reach, -reach])
        hi = np.array([w + reach, h + reach])
        foot = np.clip(foot, lo, hi)
        x0, y0 = np.floor(foot.min(axis=0))
        x1, y1 = np.ceil(foot.max(axis=0))
        # sample the density over the visible part of the play area
        xs = np.linspace(max(x0, 0), min(x1, w), 7)
        ys = np.linspace(max(y0, 0), min(y1, h), 7)
        grid = np.array([(x, y) for x in xs for y in ys])
        dens = float(camera.density(grid).max()) if len(grid) else 1.0
        scale = max(0.5, math.ceil(dens * oversample * 8) / 8)
        width = math.ceil((x1 - x0) * scale)
        height = math.ceil((y1 - y0) * scale)
        return Canvas(float(x0), float(y0), float(scale), width, height)


class Warper:
    """Resamples canvases into camera images; keeps the maps of recent cameras (LRU)."""

    def __init__(self, capacity: int = 8) -> None:
        self.capacity = capacity
        self._maps: OrderedDict[tuple[object, ...], tuple[np.ndarray, np.ndarray]] = OrderedDict()

    def canvas_homography(self, camera: Camera, canvas: Canvas) -> np.ndarray:
        """3x3 map from canvas coordinates to undistorted image pixels."""
        return camera.table_homography() @ canvas.matrix()

    def maps(self, camera: Camera, canvas: Canvas) -> tuple[np.ndarray, np.ndarray]:
        """Fixed-point remap tables (for ``cv2.remap``) from image pixels to canvas coordinates."""
        key = (camera.key(), canvas)
        hit = self._maps.get(key)
        if hit is not None:
            self._maps.move_to_end(key)
            return hit
        mx, my = float_maps(camera, canvas)
        m1, m2 = cv2.convertMaps(mx, my, cv2.CV_16SC2)
        self._maps[key] = (m1, m2)
        while len(self._maps) > self.capacity:
            self._maps.popitem(last=False)
        return m1, m2

    def warp(
        self, image: np.ndarray, camera: Camera, canvas: Canvas, border: tuple[int, int, int] = (0, 0, 0)
    ) -> np.ndarray:
        """The camera's picture of the canvas ``image`` (``border``: the colour beyond the canvas)."""
        size = (camera.width, camera.height)
        if not any(camera.dist):
            h = self.canvas_homography(camera, canvas)
            return cv2.warpPerspective(
                image, h, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=border
            )
        m1, m2 = self.maps(camera, canvas)
        return cv2.remap(image, m1, m2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=border)


def float_maps(camera: Camera, canvas: Canvas, step: int = GRID_STEP) -> tuple[np.ndarray, np.ndarray]:
    """Float32 maps (image pixel -> canvas coordinate), exact on a grid every ``step`` pixels and
    bilinear in between (lens distortion and perspective are smooth at that scale)."""
    w, h = camera.width, camera.height
    nx = math.ceil(w / step) + 2
    ny = math.ceil(h / step) + 2
    # coarse sample i sits at image coordinate step*(i-1) + (step-1)/2, which is where
    # cv2.resize (pixel-centre aligned) puts it when upsampling by ``step``
    xs = step * (np.arange(nx) - 1) + (step - 1) / 2
    ys = step * (np.arange(ny) - 1) + (step - 1) / 2
    gx, gy = np.meshgrid(xs, ys)
    table = camera.pixels_to_table(np.column_stack([gx.ravel(), gy.ravel()]))
    px = canvas.to_px(table).astype(np.float32)
    cmx = px[:, 0].reshape(ny, nx)
    cmy = px[:, 1].reshape(ny, nx)
    fx = cv2.resize(cmx, (nx * step, ny * step), interpolation=cv2.INTER_LINEAR)
    fy = cv2.resize(cmy, (nx * step, ny * step), interpolation=cv2.INTER_LINEAR)
    return (
        np.ascontiguousarray(fx[step : step + h, step : step + w]),
        np.ascontiguousarray(fy[step : step + h, step : step + w]),
    )
