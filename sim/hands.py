"""Hands and arms reaching over the table, for video (and for occluded stills).

A :class:`Hand` is the arm of the player in a seat, reaching from their table edge so that the
fingertips are over ``target`` (table mm) with the palm ``height`` mm above the table; it may hold
a piece or a tile. The arm is a chain of rounded segments (upper arm, forearm, palm, four fingers
and a thumb) in 3-D; like the pieces, every point is drawn where the camera ray through it meets
the table, so after the perspective warp the arm looks raised, foreshortened and correctly placed.
Segments are shaded as cylinders (three nested bands); the arm's shadow is projected along the
light and blurred in proportion to its height.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import cv2
import numpy as np

from sim.camera import Camera
from sim.lighting import Light
from sim.warp import Canvas
from vision.layout import Point, TableFrame, rotate

SHIFT = 4
ONE = 1 << SHIFT

SKIN_TONES: tuple[tuple[int, int, int], ...] = (
    (232, 190, 160),
    (214, 160, 124),
    (176, 118, 84),
    (130, 84, 56),
    (92, 60, 42),
)
"""Skin colours (RGB)."""

SLEEVES: tuple[tuple[int, int, int], ...] = ((40, 60, 110), (150, 30, 40), (60, 60, 60), (200, 200, 190), (80, 110, 60))


@dataclass(frozen=True)
class Hand:
    """An arm from ``seat``'s edge with the fingertips over ``target`` at ``height`` mm; ``holding`` is
    a piece kind (meeple, stone, marker, shell, arrow) or ``tile:<face>``; ``holding_colour`` RGB."""

    seat: int
    target: tuple[float, float]
    height: float = 60.0
    holding: str | None = None
    holding_colour: tuple[int, int, int] | None = None
    skin: int = 0
    sleeve: int = 0
    side: float = 1.0  # +1: right hand (comes from the player's right), -1: left


@dataclass
class Capsule:
    """A rounded segment between two 3-D points (x, y, z up) with radii at each end."""

    a: np.ndarray
    b: np.ndarray
    ra: float
    rb: float
    colour: tuple[int, int, int]


class SeatArea(Protocol):
    """Where a player sits: the area in front of them (an arm reaches in from beyond its far edge)."""

    @property
    def rotation(self) -> float: ...  # pragma: no cover - protocol

    @property
    def area_center(self) -> Point: ...  # pragma: no cover - protocol

    @property
    def area_size(self) -> Point: ...  # pragma: no cover - protocol


class Layout(TableFrame, Protocol):
    """A table layout with seats (any game's)."""

    @property
    def seats(self) -> Sequence[SeatArea]: ...  # pragma: no cover - protocol


def arm_capsules(hand: Hand, layout: Layout) -> list[Capsule]:
    """The arm of ``hand`` as capsules, shoulder first."""
    seat = layout.seats[hand.seat % len(layout.seats)]
    out_dir = np.array(rotate((0.0, 1.0), seat.rotation))  # towards the player
    right = np.array(rotate((1.0, 0.0), seat.rotation))
    # the player's shoulder: beyond the table edge behind the seat's area
    edge = np.array(seat.area_center) + out_dir * (seat.area_size[1] / 2 + 220.0)
    shoulder = np.array([*(edge + right * hand.side * 170.0), 330.0])
    tip = np.array([hand.target[0], hand.target[1], max(hand.height - 25.0, 8.0)])
    to_tip = tip[:2] - shoulder[:2]
    dirn = to_tip / max(float(np.linalg.norm(to_tip)), 1e-6)
    palm_c = np.array([*(tip[:2] - dirn * 55.0), hand.height + 10.0])
    wrist = np.array([*(tip[:2] - dirn * 105.0), hand.height + 28.0])
    elbow_xy = shoulder[:2] + (wrist[:2] - shoulder[:2]) * 0.5 + right[:2] * hand.side * 60.0
    elbow = np.array([*elbow_xy, (shoulder[2] + wrist[2]) / 2 + 30.0])
    skin = SKIN_TONES[hand.skin % len(SKIN_TONES)]
    sleeve = SLEEVES[hand.sleeve % len(SLEEVES)]
    caps = [
        Capsule(shoulder, elbow, 52.0, 46.0, sleeve),
        Capsule(elbow, wrist + (elbow - wrist) * 0.35, 44.0, 40.0, sleeve),
        Capsule(elbow + (wrist - elbow) * 0.6, wrist, 32.0, 26.0, skin),
        Capsule(wrist, palm_c, 30.0, 40.0, skin),
    ]
    side = np.array([-dirn[1], dirn[0]])
    for k, off in enumerate((-0.75, -0.25, 0.25, 0.75)):
        base = np.array([*(palm_c[:2] + dirn * 28.0 + side * off * 26.0), hand.height + 6.0])
        length = 52.0 if k in (1, 2) else 44.0
        end = np.array([*(base[:2] + dirn * length + side * off * 6.0), tip[2]])
        caps.append(Capsule(base, end, 9.0, 8.0, skin))
    thumb_side = -hand.side
    tb = np.array([*(palm_c[:2] + side * thumb_side * 30.0 - dirn * 5.0), hand.height + 4.0])
    te = np.array([*(tip[:2] - dirn * 12.0 + side * thumb_side * 18.0), tip[2] + 4.0])
    caps.append(Capsule(tb, te, 11.0, 9.0, skin))
    return caps


def _circle_pts(c: np.ndarray, r: float, n: int = 12) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return c + r * np.column_stack([np.cos(a), np.sin(a)])


class HandDrawer:
    """Draws hands on a canvas for one camera and light."""

    def __init__(self, camera: Camera, canvas: Canvas, light: Light, layout: Layout) -> None:
        self.camera = camera
        self.canvas = canvas
        self.light = light
        self.layout = layout
        self.nadir = np.array(camera.nadir)

    def _lean(self, p: np.ndarray) -> tuple[np.ndarray, float]:
        z = min(float(p[2]), self.camera.height_mm * 0.8)
        f = z / (self.camera.height_mm - z)
        return p[:2] + (p[:2] - self.nadir) * f, 1.0 + f

    def outline(self, cap: Capsule, scale_r: float = 1.0, offset: np.ndarray | None = None) -> np.ndarray:
        """Canvas polygon (convex hull) of a capsule as seen by the camera."""
        pa, ma = self._lean(cap.a)
        pb, mb = self._lean(cap.b)
        if offset is not None:
            pa, pb = pa + offset * ma, pb + offset * mb
        pts = np.vstack([_circle_pts(pa, cap.ra * ma * scale_r), _circle_pts(pb, cap.rb * mb * scale_r)])
        return cv2.convexHull(np.round(self.canvas.to_px(pts) * ONE).astype(np.int32))

    def shadow(self, image: np.ndarray, caps: list[Capsule]) -> None:
        """Darken the table under the arm's soft shadow."""
        if self.light.shadow <= 0:
            return
        step = self.light.shadow_step
        polys = []
        for cap in caps:
            pts = np.vstack(
                [_circle_pts(cap.a[:2] + step * cap.a[2], cap.ra), _circle_pts(cap.b[:2] + step * cap.b[2], cap.rb)]
            )
            polys.append(cv2.convexHull(np.round(self.canvas.to_px(pts) * ONE).astype(np.int32)))
        allp = np.concatenate([p.reshape(-1, 2) for p in polys]) / ONE
        blur = max(2.0, 0.09 * float(np.mean([c.a[2] for c in caps]))) * self.canvas.scale
        pad = int(blur * 3) + 2
        h, w = image.shape[:2]
        x0, y0 = max(int(allp[:, 0].min()) - pad, 0), max(int(allp[:, 1].min()) - pad, 0)
        x1, y1 = min(int(allp[:, 0].max()) + pad, w), min(int(allp[:, 1].max()) + pad, h)
        if x1 <= x0 or y1 <= y0:
            return
        f = 4
        mw, mh = max((x1 - x0) // f, 1), max((y1 - y0) // f, 1)
        mask = np.zeros((mh, mw), np.uint8)
        off = np.array([x0, y0]) * ONE
        for p in polys:
            q = ((p.reshape(-1, 2) - off) / f).astype(np.int32)
            cv2.fillConvexPoly(mask, q, 255, cv2.LINE_AA, SHIFT)
        mask = cv2.GaussianBlur(mask, (0, 0), max(blur / f, 0.6))
        mask = cv2.resize(mask, (x1 - x0, y1 - y0), interpolation=cv2.INTER_LINEAR)
        factor = 255 - (mask.astype(np.uint16) * int(self.light.shadow * 0.8 * 255) >> 8).astype(np.uint8)
        region = image[y0:y1, x0:x1]
        cv2.multiply(region, cv2.merge([factor, factor, factor]), dst=region, scale=1 / 255)

    def draw(self, image: np.ndarray, caps: list[Capsule]) -> None:
        """Draw the arm: each capsule as three nested bands (dark rim, body, highlight)."""
        ldir = self.light.direction
        for cap in caps:
            col = np.array([cap.colour[2], cap.colour[1], cap.colour[0]], np.float64)
            lit = self.light.ambient + (1 - self.light.ambient) * max(0.0, float(ldir[2]))
            for k, (scale_r, f) in enumerate(((1.0, 0.62), (0.8, 0.86), (0.45, 1.06))):
                c = tuple(float(v) for v in np.clip(col * f * lit * 1.1, 0, 255))
                offset = ldir[:2] * (cap.ra * 0.3 * k)  # highlights shift towards the light
                cv2.fillConvexPoly(image, self.outline(cap, scale_r, offset), c, cv2.LINE_AA, SHIFT)

    def bbox(self, caps: list[Capsule]) -> list[float]:
        """Image box (x0, y0, x1, y1) of the arm as the camera sees it."""
        pts = []
        hts = []
        for cap in caps:
            for p, r in ((cap.a, cap.ra), (cap.b, cap.rb)):
                ring = _circle_pts(p[:2], r, 8)
                pts.append(ring)
                hts.append(np.full(len(ring), p[2]))
        px = self.camera.project(np.vstack(pts), np.concatenate(hts))
        return [float(px[:, 0].min()), float(px[:, 1].min()), float(px[:, 0].max()), float(px[:, 1].max())]


def hand_truth(hand: Hand, box: list[float], camera: Camera) -> dict[str, Any]:
    """Ground truth of a hand: its seat, target, what it holds, its image box and whether it is in view."""
    x0, y0, x1, y1 = box
    vis = not (x1 < 0 or y1 < 0 or x0 > camera.width - 1 or y0 > camera.height - 1)
    cb = [max(x0, 0.0), max(y0, 0.0), min(x1, camera.width - 1.0), min(y1, camera.height - 1.0)]
    return {
        "seat": hand.seat,
        "target_mm": [round(hand.target[0], 2), round(hand.target[1], 2)],
        "height_mm": round(hand.height, 2),
        "holding": hand.holding,
        "bbox": [round(v, 2) for v in cb] if vis else None,
        "in_view": vis,
    }
