"""The camera model: a pinhole camera with OpenCV lens distortion, posed above the table.

World coordinates are the layout's: x right, y towards seat 0, in millimetres on the table plane,
and z pointing *into* the table, so a point ``h`` mm above the table has z = -h. A camera is given by

* its image size (up to 3840 x 2160), focal length (or horizontal field of view), principal point
  and distortion coefficients ``k1, k2, p1, p2, k3`` (OpenCV's model, as ``cv2.projectPoints``);
* its pose: the table point its optical axis meets (``target``), its height above the table, its
  ``tilt`` from vertical (0–35 degrees), the ``azimuth`` of the side it leans from (0 = from seat 0's
  edge, 90 = from seat 1's edge, …, clockwise seen from above) and its ``roll`` about the optical
  axis (the picture of the table turns clockwise by ``roll``).

With tilt 0 and roll 0 the image shows the table as the layout draws it: x to the right, y down.
:meth:`Camera.project` maps table points (optionally above the table) to pixels, with pixel
centres at integer coordinates as everywhere in OpenCV.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import cached_property
from typing import Any

import cv2
import numpy as np

from vision.errors import CameraError
from vision.layout import Point
from vision.layout import TableFrame as Layout

MAX_WIDTH, MAX_HEIGHT = 3840, 2160
MAX_TILT = 35.0


@dataclass(frozen=True)
class Camera:
    """A posed camera; build one with :meth:`looking_at` or :meth:`framing`."""

    width: int
    height: int
    fx: float
    fy: float
    cx: float
    cy: float
    dist: tuple[float, float, float, float, float]
    target: Point
    height_mm: float
    tilt: float
    azimuth: float
    roll: float

    # --- construction ---------------------------------------------------------------------------
    @staticmethod
    def looking_at(
        target: Point,
        height_mm: float,
        *,
        width: int = 1920,
        height: int = 1080,
        tilt: float = 0.0,
        azimuth: float = 0.0,
        roll: float = 0.0,
        fov: float = 70.0,
        focal: float | None = None,
        principal: Point | None = None,
        dist: Sequence[float] = (0.0, 0.0, 0.0, 0.0, 0.0),
    ) -> Camera:
        """A camera ``height_mm`` above the table whose optical axis meets the table at ``target``.

        ``fov`` is the horizontal field of view in degrees (used when ``focal``, in pixels, is not
        given); ``principal`` defaults to the image centre."""
        _check(width, height, tilt, fov, height_mm, dist)
        f = focal if focal is not None else (width / 2) / math.tan(math.radians(fov) / 2)
        if f <= 0:
            raise CameraError(f"focal length must be > 0 pixels, got {f}")
        cx, cy = principal if principal is not None else ((width - 1) / 2, (height - 1) / 2)
        d = tuple(float(v) for v in dist) + (0.0,) * (5 - len(dist))
        cam = Camera(
            int(width),
            int(height),
            float(f),
            float(f),
            float(cx),
            float(cy),
            d[:5],  # type: ignore[arg-type]
            (float(target[0]), float(target[1])),
            float(height_mm),
            float(tilt),
            float(azimuth),
            float(roll),
        )
        cam._check_distortion()
        return cam

    @staticmethod
    def framing(
        layout: Layout,
        *,
        width: int = 1920,
        height: int = 1080,
        tilt: float = 0.0,
        azimuth: float = 0.0,
        roll: float = 0.0,
        fov: float = 70.0,
        dist: Sequence[float] = (0.0, 0.0, 0.0, 0.0, 0.0),
        target: Point | None = None,
        height_mm: float | None = None,
        margin: float = 0.03,
    ) -> Camera:
        """A camera that sees the whole play area: when ``height_mm`` is not given, the lowest
        height at which every corner of the table lies inside the image with ``margin`` to spare."""
        tgt = target if target is not None else (layout.table[0] / 2, layout.table[1] / 2)

        def make(h: float) -> Camera:
            return Camera.looking_at(
                tgt, h, width=width, height=height, tilt=tilt, azimuth=azimuth, roll=roll, fov=fov, dist=dist
            )

        if height_mm is not None:
            return make(height_mm)
        w, h = layout.table
        corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
        t = np.linspace(0, 1, 9)[:, None]
        edges = np.concatenate([corners[i] + (corners[(i + 1) % 4] - corners[i]) * t for i in range(4)])

        def fits(hh: float) -> bool:
            cam = make(hh)
            px = cam.project(edges)
            mx, my = width * margin, height * margin
            in_front = cam.depth(edges) > 0
            return bool(
                in_front.all()
                and (px[:, 0] >= mx).all()
                and (px[:, 0] <= width - 1 - mx).all()
                and (px[:, 1] >= my).all()
                and (px[:, 1] <= height - 1 - my).all()
            )

        lo, hi = 100.0, 20000.0
        if not fits(hi):
            raise CameraError("the table does not fit in the image at any height: widen the field of view")
        for _ in range(50):
            mid = (lo + hi) / 2
            if fits(mid):
                hi = mid
            else:
                lo = mid
        return make(math.ceil(hi))

    # --- matrices -------------------------------------------------------------------------------
    @cached_property
    def K(self) -> np.ndarray:
        """The 3x3 intrinsic matrix."""
        return np.array([[self.fx, 0, self.cx], [0, self.fy, self.cy], [0, 0, 1]], np.float64)

    @cached_property
    def D(self) -> np.ndarray:
        """Distortion coefficients ``k1, k2, p1, p2, k3``."""
        return np.array(self.dist, np.float64)

    @cached_property
    def center(self) -> np.ndarray:
        """The camera centre in world coordinates (z = -height)."""
        az = math.radians(self.azimuth)
        ux, uy = -math.sin(az), math.cos(az)  # azimuth 0 -> +y (seat 0's edge), clockwise from above
        off = self.height_mm * math.tan(math.radians(self.tilt))
        return np.array([self.target[0] + ux * off, self.target[1] + uy * off, -self.height_mm])

    @cached_property
    def R(self) -> np.ndarray:
        """World-to-camera rotation (rows: image x, image y, optical axis)."""
        c = self.center
        z = np.array([self.target[0], self.target[1], 0.0]) - c
        z /= np.linalg.norm(z)
        y = np.array([0.0, 1.0, 0.0]) - z[1] * z
        y /= np.linalg.norm(y)
        x = np.cross(y, z)
        r = math.radians(self.roll)
        x2 = math.cos(r) * x - math.sin(r) * y
        y2 = math.sin(r) * x + math.cos(r) * y
        return np.stack([x2, y2, z])

    @cached_property
    def rvec(self) -> np.ndarray:
        """World-to-camera rotation as a Rodrigues vector."""
        return cv2.Rodrigues(self.R)[0]

    @cached_property
    def t(self) -> np.ndarray:
        """World-to-camera translation."""
        return -self.R @ self.center

    @cached_property
    def nadir(self) -> Point:
        """The table point straight below the camera centre."""
        c = self.center
        return (float(c[0]), float(c[1]))

    def table_homography(self) -> np.ndarray:
        """3x3 map from table points ``(x, y, 1)`` (mm) to undistorted pixel coordinates."""
        r, t = self.R, self.t
        return self.K @ np.column_stack([r[:, 0], r[:, 1], t])

    # --- projection -----------------------------------------------------------------------------
    def world(self, points: np.ndarray | Sequence[Sequence[float]], heights: np.ndarray | float = 0.0) -> np.ndarray:
        """Table points (N x 2, mm) at ``heights`` above the table, as N x 3 world coordinates."""
        p = np.asarray(points, np.float64).reshape(-1, 2)
        z = -np.broadcast_to(np.asarray(heights, np.float64), (len(p),))
        return np.column_stack([p, z])

    def project(self, points: np.ndarray | Sequence[Sequence[float]], heights: np.ndarray | float = 0.0) -> np.ndarray:
        """Pixel coordinates (N x 2, distorted, pixel centres at integers) of table points."""
        w = self.world(points, heights)
        if len(w) == 0:
            return np.zeros((0, 2))
        px, _ = cv2.projectPoints(w.reshape(-1, 1, 3), self.rvec, self.t, self.K, self.D)
        return px.reshape(-1, 2)

    def depth(self, points: np.ndarray | Sequence[Sequence[float]], heights: np.ndarray | float = 0.0) -> np.ndarray:
        """Distance in front of the camera along its optical axis (mm) of table points."""
        w = self.world(points, heights)
        return (w @ self.R.T + self.t)[:, 2]

    def undistort_pixels(self, pixels: np.ndarray) -> np.ndarray:
        """Normalised, undistorted image coordinates (N x 2) of distorted pixel positions."""
        pts = np.asarray(pixels, np.float64).reshape(-1, 1, 2)
        if not any(self.dist):
            out = (pts.reshape(-1, 2) - [self.cx, self.cy]) / [self.fx, self.fy]
            return out
        crit = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 12, 1e-10)
        return cv2.undistortPoints(pts, self.K, self.D, None, None, criteria=crit).reshape(-1, 2)

    def pixels_to_table(self, pixels: np.ndarray, undistort: bool = True) -> np.ndarray:
        """Table points (N x 2, mm) seen at distorted pixel positions (rays meeting the table plane);
        ``undistort=False`` ignores lens distortion (cheaper, for smooth fields such as lighting)."""
        if undistort:
            n = self.undistort_pixels(pixels)
        else:
            n = (np.asarray(pixels, np.float64).reshape(-1, 2) - [self.cx, self.cy]) / [self.fx, self.fy]
        r, t = self.R, self.t
        hinv = np.linalg.inv(np.column_stack([r[:, 0], r[:, 1], t]))
        h = np.column_stack([n, np.ones(len(n))]) @ hinv.T
        return h[:, :2] / h[:, 2:3]

    def lean(self, points: np.ndarray, heights: np.ndarray | float) -> np.ndarray:
        """Where on the table plane a point ``heights`` mm above ``points`` appears to lie (the
        ray from the camera through it meets the table there): the basis of drawing raised pieces
        in the top-down table image."""
        p = np.asarray(points, np.float64).reshape(-1, 2)
        z = np.broadcast_to(np.asarray(heights, np.float64), (len(p),))
        return p + (p - np.array(self.nadir)) * (z / (self.height_mm - z))[:, None]

    def density(self, points: np.ndarray) -> np.ndarray:
        """Image pixels per table millimetre (the larger singular value of the local Jacobian)."""
        p = np.asarray(points, np.float64).reshape(-1, 2)
        e = 0.5
        base = self.project(p)
        dx = (self.project(p + np.array([e, 0.0])) - base) / e
        dy = (self.project(p + np.array([0.0, e])) - base) / e
        out = []
        for a, b in zip(dx, dy, strict=True):
            out.append(np.linalg.svd(np.column_stack([a, b]), compute_uv=False)[0])
        return np.array(out)

    def visible(self, pixels: np.ndarray, margin: float = 0.0) -> np.ndarray:
        """Boolean mask: which pixel positions lie inside the image."""
        p = np.asarray(pixels).reshape(-1, 2)
        return (
            (p[:, 0] >= -0.5 - margin)
            & (p[:, 1] >= -0.5 - margin)
            & (p[:, 0] <= self.width - 0.5 + margin)
            & (p[:, 1] <= self.height - 0.5 + margin)
        )

    def footprint(self, steps: int = 16) -> np.ndarray:
        """The table region seen by the camera: polygon (M x 2, mm) of the image border's rays."""
        w, h = self.width - 1, self.height - 1
        t = np.linspace(0, 1, steps + 1)[:-1]
        z = 0 * t
        border = np.concatenate(
            [
                np.column_stack([t * w, z]),
                np.column_stack([w + z, t * h]),
                np.column_stack([w - t * w, h + z]),
                np.column_stack([z, h - t * h]),
            ]
        )
        return self.pixels_to_table(border)

    # --- data -----------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data (also given in the ground truth)."""
        d = asdict(self)
        d["dist"] = list(self.dist)
        d["target"] = list(self.target)
        d["center_mm"] = [round(float(v), 3) for v in self.center]
        return d

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Camera:
        """Read :meth:`to_dict` data back (extra keys such as ``center_mm`` are ignored)."""
        try:
            return Camera.looking_at(
                tuple(data["target"]),  # type: ignore[arg-type]
                data["height_mm"],
                width=int(data["width"]),
                height=int(data["height"]),
                tilt=data.get("tilt", 0.0),
                azimuth=data.get("azimuth", 0.0),
                roll=data.get("roll", 0.0),
                focal=data["fx"],
                principal=(data["cx"], data["cy"]),
                dist=data.get("dist", (0, 0, 0, 0, 0)),
            )
        except (KeyError, TypeError) as exc:
            raise CameraError(f"camera data is incomplete or malformed: {exc}") from None

    def key(self) -> tuple[Any, ...]:
        """A hashable key for caches."""
        return (
            self.width,
            self.height,
            self.fx,
            self.fy,
            self.cx,
            self.cy,
            self.dist,
            self.target,
            self.height_mm,
            self.tilt,
            self.azimuth,
            self.roll,
        )

    def _check_distortion(self) -> None:
        """Refuse distortion that folds the image over (no unique inverse inside the frame)."""
        if not any(self.dist):
            return
        k1, k2, _, _, k3 = self.dist
        corners = np.array([[0, 0], [self.width - 1, self.height - 1], [0, self.height - 1], [self.width - 1, 0]])
        rmax = float(np.max(np.hypot((corners[:, 0] - self.cx) / self.fx, (corners[:, 1] - self.cy) / self.fy))) * 1.6
        r = np.linspace(0, rmax, 400)
        rd = r * (1 + k1 * r**2 + k2 * r**4 + k3 * r**6)
        if np.any(np.diff(rd) <= 0):
            raise CameraError(
                f"distortion k1={k1}, k2={k2}, k3={k3} folds the image over inside the frame: use smaller values"
            )


def _check(width: int, height: int, tilt: float, fov: float, height_mm: float, dist: Sequence[float]) -> None:
    if not (isinstance(width, int) and isinstance(height, int)) or width < 64 or height < 64:
        raise CameraError(f"image size must be at least 64 x 64 pixels, got {width} x {height}")
    if max(width, height) > MAX_WIDTH or min(width, height) > MAX_HEIGHT:
        raise CameraError(f"image size must be at most {MAX_WIDTH} x {MAX_HEIGHT}, got {width} x {height}")
    if not 0 <= tilt <= MAX_TILT:
        raise CameraError(f"tilt must be between 0 and {MAX_TILT:g} degrees from vertical, got {tilt:g}")
    if not 10 <= fov <= 150:
        raise CameraError(f"field of view must be between 10 and 150 degrees, got {fov:g}")
    if not height_mm > 0:
        raise CameraError(f"camera height must be > 0 mm above the table, got {height_mm:g}")
    if len(dist) > 5 or any(not math.isfinite(v) or abs(v) > 5 for v in dist):
        raise CameraError(f"distortion must be up to 5 numbers k1, k2, p1, p2, k3 with |k| <= 5, got {list(dist)}")
