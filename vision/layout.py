"""The table frame: what every game's table layout shares — ArUco markers, the colour patch, geometry.

A table layout is a JSON document describing the play area as seen from above, in millimetres: x to
the right, y towards the bottom edge (where seat 0 sits), origin at the top-left corner. Every game's
layout names the ArUco markers that register the table plane (dictionary, id, size, centre, rotation)
and the white/grey/black reference patch for colour; the rest (where tiles and pieces lie) is the
game's own (``games/<id>/vision/layout.py``). :class:`TableFrame` is what the chassis — registration,
printing markers, colour normalisation — needs of any layout. Pure Python: no OpenCV.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

ARUCO_DICTIONARIES: Mapping[str, int] = {f"DICT_{b}X{b}_{n}": n for b in (4, 5, 6, 7) for n in (50, 100, 250, 1000)} | {
    "DICT_ARUCO_ORIGINAL": 1024,
    "DICT_APRILTAG_16h5": 30,
    "DICT_APRILTAG_25h9": 35,
    "DICT_APRILTAG_36h10": 2320,
    "DICT_APRILTAG_36h11": 587,
}
"""ArUco dictionaries a layout may name, with how many ids each holds (OpenCV's predefined set)."""

MARKER_BITS: Mapping[str, int] = {
    **{f"DICT_{b}X{b}_{n}": b for b in (4, 5, 6, 7) for n in (50, 100, 250, 1000)},
    "DICT_ARUCO_ORIGINAL": 5,
    "DICT_APRILTAG_16h5": 4,
    "DICT_APRILTAG_25h9": 5,
    "DICT_APRILTAG_36h10": 6,
    "DICT_APRILTAG_36h11": 6,
}
"""Data bits per side of each dictionary's markers (a printed marker is bits + 2 border cells wide)."""

CAPTURE_RESERVED = 4
"""The last ids of the dictionary are kept for the tile capture sheet (vision.markers.capture_sheet)."""

Point = tuple[float, float]


def rotate(p: Point, degrees: float) -> Point:
    """Rotate a vector clockwise as seen from above (x right, y down) by ``degrees``."""
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    return (c * p[0] - s * p[1], s * p[0] + c * p[1])


def add(a: Point, b: Point) -> Point:
    """Sum of two points/vectors."""
    return (a[0] + b[0], a[1] + b[1])


def rect_corners(center: Point, size: Point, rotation: float = 0.0) -> list[Point]:
    """Corners of a rotated rectangle: top-left, top-right, bottom-right, bottom-left (before rotation)."""
    w, h = size[0] / 2, size[1] / 2
    return [add(center, rotate(p, rotation)) for p in ((-w, -h), (w, -h), (w, h), (-w, h))]


def circle_polygon(center: Point, radius: float, n: int = 16) -> list[Point]:
    """A regular polygon approximating a circle (for overlap checks and drawing)."""
    return [
        (center[0] + radius * math.cos(2 * math.pi * k / n), center[1] + radius * math.sin(2 * math.pi * k / n))
        for k in range(n)
    ]


# --- value types -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Marker:
    """A printed ArUco marker lying on the table."""

    id: int
    center: Point
    size: float
    rotation: float = 0.0

    def corners(self) -> list[Point]:
        """The marker's outer corners in mm, in OpenCV's order (top-left, top-right, bottom-right,
        bottom-left of the printed marker image)."""
        return rect_corners(self.center, (self.size, self.size), self.rotation)


@dataclass(frozen=True, slots=True)
class Tone:
    """One field of the reference patch: its name and printed grey level (0 black … 255 white)."""

    name: str
    grey: int


@dataclass(frozen=True, slots=True)
class Patch:
    """The reference patch: tones side by side, left to right, in a rotated rectangle."""

    center: Point
    size: Point
    rotation: float
    tones: tuple[Tone, ...]

    def tone_corners(self, index: int) -> list[Point]:
        """Corners (mm) of the field of tone ``index``."""
        n = len(self.tones)
        w = self.size[0] / n
        local = (-self.size[0] / 2 + w * (index + 0.5), 0.0)
        return rect_corners(add(self.center, rotate(local, self.rotation)), (w, self.size[1]), self.rotation)


class TableFrame(Protocol):
    """What the chassis needs of any game's table layout."""

    @property
    def name(self) -> str: ...  # pragma: no cover - protocol

    @property
    def table(self) -> Point: ...  # pragma: no cover - protocol

    @property
    def dictionary(self) -> str: ...  # pragma: no cover - protocol

    @property
    def markers(self) -> tuple[Marker, ...]: ...  # pragma: no cover - protocol

    @property
    def patch(self) -> Patch: ...  # pragma: no cover - protocol

    def marker(self, marker_id: int) -> Marker: ...  # pragma: no cover - protocol


def polygon_contains(poly: Iterable[Point], p: Point) -> bool:
    """True when ``p`` lies inside the polygon (even-odd rule)."""
    pts = list(poly)
    inside = False
    j = len(pts) - 1
    for i in range(len(pts)):
        xi, yi = pts[i]
        xj, yj = pts[j]
        if (yi > p[1]) != (yj > p[1]) and p[0] < (xj - xi) * (p[1] - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside
