"""Registration: where the table plane lies in a camera frame, from the layout's ArUco markers.

:class:`Registration` maps table millimetres to image pixels: a homography ``H`` to *undistorted*
pixel coordinates followed by one-parameter radial lens distortion about the image centre
(``u = c + (d - c)(1 + k |d - c|^2 / s^2)``, ``d`` the distorted pixel, ``s`` half the image
diagonal). Every visible marker gives 4 corner correspondences; ``H`` is fitted by least squares,
``k`` by a 1-D search when enough markers are spread over the image (otherwise the previous ``k`` or
0 is kept).

:class:`Registrar` keeps the registration across frames: markers are found with
``cv2.aruco.ArucoDetector`` on a half-size copy of the frame (fast) and refined to sub-pixel with
``cv2.cornerSubPix`` on the full frame; once registered, only boxes around where the markers were
are searched (:meth:`Registrar.detect_near`), and the whole frame again when one of the markers
seen last time is not found there. While the visible markers agree with the current
registration it is kept (arms may hide any of them); when they disagree the camera or table was
bumped and the table is registered again from what is visible (at least ``min_markers`` markers);
with too few markers the frame is *unregistered*.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.layout import TableFrame as Layout
from vision.markers import dictionary

K_RANGE = 0.35
"""Largest |k| the distortion search considers (k = -0.12 is a strongly barrel-distorted webcam)."""
K_TOL = 2e-5
"""The distortion search stops when ``k`` is known to this: at the frame's corners a change of
``K_TOL`` moves a point by ``K_TOL`` x half the diagonal, 0.02 px at 1080p."""


@dataclass(frozen=True, eq=False)
class Registration:
    """Table millimetres → image pixels for one camera pose (see the module docstring)."""

    H: np.ndarray
    k: float
    size: tuple[int, int]
    markers: tuple[int, ...] = ()
    rms: float = 0.0
    serial: int = 0
    Hinv: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "Hinv", np.linalg.inv(self.H))

    @property
    def center(self) -> np.ndarray:
        """The distortion centre (image centre, pixel centres at integers)."""
        return np.array([(self.size[0] - 1) / 2, (self.size[1] - 1) / 2])

    @property
    def norm(self) -> float:
        """Half the image diagonal (pixels): the distortion radius unit."""
        return math.hypot(self.size[0], self.size[1]) / 2

    # --- distortion -----------------------------------------------------------------------------
    def undistort(self, px: np.ndarray) -> np.ndarray:
        """Undistorted coordinates of distorted pixels (... x 2)."""
        return undistort_points(px, self.k, self.center, self.norm)

    def distort(self, u: np.ndarray) -> np.ndarray:
        """Distorted pixels of undistorted coordinates (... x 2): Newton on the radial factor."""
        if self.k == 0.0:
            return np.asarray(u, np.float64)
        c, s = self.center, self.norm
        v = (np.asarray(u, np.float64) - c) / s
        rho = np.linalg.norm(v, axis=-1)
        t = rho.copy()
        for _ in range(6):
            f = t * (1 + self.k * t * t) - rho
            t = t - f / (1 + 3 * self.k * t * t)
        scale = np.where(rho > 1e-12, t / np.maximum(rho, 1e-12), 1.0)
        return c + v * scale[..., None] * s

    # --- mapping --------------------------------------------------------------------------------
    def project(self, mm: np.ndarray) -> np.ndarray:
        """Image pixels (... x 2, distorted) of table points (... x 2, mm)."""
        p = np.asarray(mm, np.float64)
        shp = p.shape
        q = p.reshape(-1, 2)
        h = q @ self.H[:, :2].T + self.H[:, 2]
        u = h[:, :2] / h[:, 2:3]
        return self.distort(u).reshape(shp)

    def to_table(self, px: np.ndarray) -> np.ndarray:
        """Table points (mm) seen at image pixels (... x 2)."""
        p = np.asarray(px, np.float64)
        shp = p.shape
        u = self.undistort(p.reshape(-1, 2))
        h = u @ self.Hinv[:, :2].T + self.Hinv[:, 2]
        return (h[:, :2] / h[:, 2:3]).reshape(shp)

    def px_per_mm(self, mm: np.ndarray) -> np.ndarray:
        """Image pixels per table millimetre around table points (N x 2): sqrt of the local area scale."""
        p = np.asarray(mm, np.float64).reshape(-1, 2)
        a = self.project(p)
        bx = self.project(p + np.array([1.0, 0.0]))
        by = self.project(p + np.array([0.0, 1.0]))
        dx, dy = bx - a, by - a
        return np.sqrt(np.abs(dx[:, 0] * dy[:, 1] - dx[:, 1] * dy[:, 0]))

    def viewpoint(self) -> tuple[np.ndarray, float]:
        """Where the camera is, in table millimetres: the table point straight below it and its height
        above the table (:func:`viewpoint`), computed once per registration."""
        vp = self.__dict__.get("_viewpoint")
        if vp is None:
            vp = viewpoint(self.H, self.center, self.size[0])
            object.__setattr__(self, "_viewpoint", vp)
        return vp

    def raised(self, mm: np.ndarray, z: float) -> np.ndarray:
        """The table points (... x 2, mm) where the camera sees the tops of things ``z`` mm tall that
        stand at ``mm``: farther from the point below the camera by ``z / (height - z)`` of their
        distance to it. A reader sampling the table plane there sees a piece's top, not its foot."""
        p = np.asarray(mm, np.float64)
        if z <= 0:
            return p
        foot, h = self.viewpoint()
        return p + (p - foot) * (z / max(h - z, 1e-6))

    def agrees(self, corners: dict[int, np.ndarray], layout: Layout) -> float:
        """Median distance (px) between detected marker corners and where this registration puts them."""
        if not corners:
            return math.inf
        errs = []
        for mid, c in corners.items():
            want = self.project(np.asarray(layout.marker(mid).corners()))
            errs.append(np.linalg.norm(want - c, axis=1))
        return float(np.median(np.concatenate(errs)))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data."""
        return {
            "H": [[float(v) for v in row] for row in self.H],
            "k": self.k,
            "size": list(self.size),
            "markers": list(self.markers),
            "rms": self.rms,
        }

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Registration:
        """Inverse of :meth:`to_dict`."""
        return Registration(
            np.asarray(d["H"], np.float64),
            float(d["k"]),
            (int(d["size"][0]), int(d["size"][1])),
            tuple(int(m) for m in d.get("markers", ())),
            float(d.get("rms", 0.0)),
        )


DEFAULT_FOV = 65.0
"""Horizontal field of view (degrees) assumed for :func:`viewpoint` when the homography cannot tell the
focal length: a camera looking almost straight down (a phone's main camera: 65–80 degrees)."""


def viewpoint(H: np.ndarray, center: np.ndarray, width: int) -> tuple[np.ndarray, float]:
    """The camera's position from a table-to-image homography ``H`` (mm to undistorted pixels): the
    table point below the camera (mm) and its height above the table (mm).

    A pinhole camera with square pixels and its principal point at the image centre is assumed; its
    focal length ``f`` follows from the two conditions a homography of a plane puts on it (the
    plane's axes seen at right angles and at equal scale: Zhang's calibration with one unknown),
    least squares over both. When the camera looks almost straight down they say nothing about ``f``;
    then :data:`DEFAULT_FOV` is assumed, and any ``f`` within a factor 1.5 of it is used as found."""
    T = np.array([[1.0, 0.0, -center[0]], [0.0, 1.0, -center[1]], [0.0, 0.0, 1.0]])
    G = T @ np.asarray(H, np.float64)
    G = G / np.linalg.norm(G[:, 0])
    h1, h2 = G[:, 0], G[:, 1]
    # unknown w = 1 / f^2:  (a . b)_xy w + a_z b_z = 0  and  (|a|^2 - |b|^2)_xy w + a_z^2 - b_z^2 = 0
    A = np.array([h1[0] * h2[0] + h1[1] * h2[1], h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2])
    b = -np.array([h1[2] * h2[2], h1[2] ** 2 - h2[2] ** 2])
    prior = (width / 2) / math.tan(math.radians(DEFAULT_FOV) / 2)
    f = prior
    den = float(A @ A)
    if den > 0:
        w = float(A @ b) / den
        if w > 0 and prior / 1.5 <= 1 / math.sqrt(w) <= prior * 1.5:
            f = 1 / math.sqrt(w)
    M = np.diag([1 / f, 1 / f, 1.0]) @ G
    lam = 2.0 / (np.linalg.norm(M[:, 0]) + np.linalg.norm(M[:, 1]))
    r1, r2, t = M[:, 0] * lam, M[:, 1] * lam, M[:, 2] * lam
    if t[2] < 0:  # the table in front of the camera
        r1, r2, t = -r1, -r2, -t
    R = np.column_stack([r1, r2, np.cross(r1, r2)])
    C = -R.T @ t
    return C[:2].copy(), float(abs(C[2]))


def undistort_points(px: np.ndarray, k: float, center: np.ndarray, norm: float) -> np.ndarray:
    """``c + (d - c)(1 + k |d - c|^2 / s^2)`` for distorted pixels ``d`` (... x 2)."""
    d = np.asarray(px, np.float64)
    if k == 0.0:
        return d
    v = (d - center) / norm
    r2 = np.sum(v * v, axis=-1, keepdims=True)
    return center + v * (1 + k * r2) * norm


def _homography(src: np.ndarray, dst: np.ndarray) -> np.ndarray | None:
    H, _ = cv2.findHomography(src, dst, 0)
    if H is None or not np.all(np.isfinite(H)) or abs(np.linalg.det(H)) < 1e-12:
        return None
    return H


def _rms(H: np.ndarray, src: np.ndarray, dst: np.ndarray) -> float:
    h = src @ H[:, :2].T + H[:, 2]
    p = h[:, :2] / h[:, 2:3]
    return float(np.sqrt(np.mean(np.sum((p - dst) ** 2, axis=1))))


def fit_registration(
    table_pts: np.ndarray,
    image_pts: np.ndarray,
    size: tuple[int, int],
    k: float | None = None,
    markers: tuple[int, ...] = (),
    serial: int = 0,
) -> Registration | None:
    """Fit a registration to corresponding table points (mm) and image pixels; ``k=None`` searches
    the distortion, a number fixes it. None when the points do not determine a homography."""
    src = np.asarray(table_pts, np.float64).reshape(-1, 2)
    dst = np.asarray(image_pts, np.float64).reshape(-1, 2)
    if len(src) < 4:
        return None
    center = np.array([(size[0] - 1) / 2, (size[1] - 1) / 2])
    norm = math.hypot(size[0], size[1]) / 2

    def cost(kk: float) -> tuple[float, np.ndarray | None]:
        u = undistort_points(dst, kk, center, norm)
        H = _homography(src, u)
        return (math.inf, None) if H is None else (_rms(H, src, u), H)

    if k is None:
        grid = np.linspace(-K_RANGE, K_RANGE, 15)
        vals = [cost(float(g))[0] for g in grid]
        i = int(np.argmin(vals))
        lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
        g = (math.sqrt(5) - 1) / 2
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
        fa, fb = cost(a)[0], cost(b)[0]
        for _ in range(30):
            if hi - lo < K_TOL:
                break
            if fa < fb:
                hi, b, fb = b, a, fa
                a = hi - g * (hi - lo)
                fa = cost(a)[0]
            else:
                lo, a, fa = a, b, fb
                b = lo + g * (hi - lo)
                fb = cost(b)[0]
        k = float((lo + hi) / 2)
    _, H = cost(float(k))
    if H is None:
        return None
    reg = Registration(H, float(k), (int(size[0]), int(size[1])), markers, 0.0, serial)
    err = np.linalg.norm(reg.project(src) - dst, axis=1)
    return Registration(H, float(k), reg.size, markers, float(np.sqrt(np.mean(err**2))), serial)


@dataclass(frozen=True)
class RegistrationResult:
    """What :meth:`Registrar.update` found in one frame: the registration in force (None when the
    frame is unregistered), the status (``registered``: a new fit; ``kept``: the visible markers
    agree with the current one; ``moved``: the table was registered again after a bump;
    ``unregistered``), the marker ids seen and the corner error (px) against the registration."""

    registration: Registration | None
    status: str
    seen: tuple[int, ...]
    error: float = 0.0
    corners: dict[int, np.ndarray] = field(default_factory=dict, repr=False)

    @property
    def ok(self) -> bool:
        """True when the frame is registered."""
        return self.registration is not None


class Registrar:
    """Finds the table in successive frames and keeps the registration while the camera stays put."""

    def __init__(
        self,
        layout: Layout,
        min_markers: int = 3,
        tolerance_px: float = 2.5,
        fit_k_markers: int = 5,
        half_size: bool = True,
        outlier_px: float = 3.0,
    ) -> None:
        self.layout = layout
        self.min_markers = min_markers
        self.tolerance_px = tolerance_px
        self.fit_k_markers = fit_k_markers
        self.half_size = half_size
        self.outlier_px = outlier_px
        self.ids = {m.id for m in layout.markers}
        params = cv2.aruco.DetectorParameters()
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
        self._detector = cv2.aruco.ArucoDetector(dictionary(layout.dictionary), params)
        self.current: Registration | None = None
        self._tried: set[int] = set()
        self._last_seen: set[int] = set()  # markers found in the last frame (detect_near wants them back)
        self._serial = 0
        self._criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.01)

    def reset(self) -> None:
        """Forget the registration (the next frame is registered from scratch)."""
        self.current = None
        self._last_seen = set()

    # --- markers --------------------------------------------------------------------------------
    def _scale(self, width: int) -> float:
        """How much smaller than the frame the markers are first looked for (2: at half size)."""
        return 2.0 if self.half_size and width >= 1280 else 1.0

    def detect(self, gray: np.ndarray) -> dict[int, np.ndarray]:
        """Layout markers found in a grey frame: id -> 4 x 2 corners (full-resolution pixels)."""
        f = self._scale(gray.shape[1])
        small = cv2.resize(gray, None, fx=1 / f, fy=1 / f, interpolation=cv2.INTER_AREA) if f != 1.0 else gray
        corners, ids, _ = self._detector.detectMarkers(small)
        if (ids is None or len(ids) < len(self.ids)) and f != 1.0:
            # small or far markers may only show at full resolution
            c2, i2, _ = self._detector.detectMarkers(gray)
            if i2 is not None and (ids is None or len(i2) > len(ids)):
                corners, ids, f = c2, i2, 1.0
        return self._refine(gray, self._found(corners, ids, f, (0, 0)))

    def detect_near(self, gray: np.ndarray, reg: Registration, expected: set[int]) -> dict[int, np.ndarray] | None:
        """The markers searched only where ``reg`` puts them (a box around each, three times as wide
        as the marker): a camera that stays put costs half of :meth:`detect`. None unless every
        marker of ``expected`` (those seen last time) is found there again — then the whole frame
        must be searched (a hand over a marker, a bumped camera)."""
        h, w = gray.shape[:2]
        f = self._scale(w)
        found: dict[int, np.ndarray] = {}
        for m in self.layout.markers:
            pts = reg.project(np.asarray(m.corners(), np.float64))
            lo, hi = pts.min(axis=0), pts.max(axis=0)
            if lo[0] < 0 or lo[1] < 0 or hi[0] > w - 1 or hi[1] > h - 1:
                continue  # not wholly in view where the registration puts it
            pad = float(max(hi - lo))  # a marker's width each side (0.6 of it missed one with pieces beside it)
            # even origins: the half-size crop holds the very pixels of the half-size frame
            x0, y0 = int(max(0, lo[0] - pad)) // 2 * 2, int(max(0, lo[1] - pad)) // 2 * 2
            x1, y1 = int(min(w, hi[0] + pad + 1)), int(min(h, hi[1] + pad + 1))
            crop = gray[y0:y1, x0:x1]
            for scale in (f, 1.0) if f != 1.0 else (1.0,):  # small markers may only show at full size
                img = crop
                if scale != 1.0:
                    img = cv2.resize(crop, None, fx=1 / scale, fy=1 / scale, interpolation=cv2.INTER_AREA)
                corners, ids, _ = self._detector.detectMarkers(img)
                got = self._found(corners, ids, scale, (x0, y0))
                if m.id in got:
                    found[m.id] = got[m.id]
                    break
        if not expected <= set(found) or len(found) < self.min_markers:
            return None
        return self._refine(gray, found)

    def _found(self, corners: Any, ids: np.ndarray | None, f: float, origin: tuple[int, int]) -> dict[int, np.ndarray]:
        """Layout markers of one ``detectMarkers`` answer (found at scale ``1 / f`` in an image whose
        top-left lies at ``origin``), as full-frame corners; an id found twice is dropped."""
        if ids is None:
            return {}
        found: dict[int, np.ndarray] = {}
        dup: set[int] = set()
        for i, c in zip(ids.ravel(), corners, strict=True):
            mid = int(i)
            if mid not in self.ids:
                continue
            if mid in found:
                dup.add(mid)
            pts = c.reshape(4, 2).astype(np.float64)
            found[mid] = (pts + 0.5) * f - 0.5 + np.asarray(origin, np.float64)
        for mid in dup:
            found.pop(mid, None)
        return found

    def _refine(self, gray: np.ndarray, found: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
        """Corners refined to sub-pixel on the full frame."""
        if not found:
            return {}
        allc = np.concatenate([found[m] for m in sorted(found)]).astype(np.float32).reshape(-1, 1, 2)
        side = min(float(np.linalg.norm(c[0] - c[1])) for c in found.values())
        win = int(max(2, min(6, side / 8)))
        try:
            cv2.cornerSubPix(gray, allc, (win, win), (-1, -1), self._criteria)
        except cv2.error:
            return found
        ref = allc.reshape(-1, 4, 2).astype(np.float64)
        for j, mid in enumerate(sorted(found)):
            # keep the refinement only where it stayed close (a corner hidden by a finger may run off)
            moved = np.linalg.norm(ref[j] - found[mid], axis=1)
            found[mid] = np.where((moved < 3.0)[:, None], ref[j], found[mid])
        return found

    def _fit(self, corners: dict[int, np.ndarray], size: tuple[int, int]) -> Registration | None:
        """Fit to the markers seen; a marker whose corners disagree with the others by more than
        ``outlier_px`` on average (misread, lifted, partly covered) is dropped and the fit repeated."""
        ids = sorted(corners)
        while len(ids) >= self.min_markers and self._spread(ids):
            src = np.concatenate([np.asarray(self.layout.marker(m).corners()) for m in ids])
            dst = np.concatenate([corners[m] for m in ids])
            fixed_k = None
            if len(ids) < self.fit_k_markers:
                fixed_k = self.current.k if self.current is not None and self.current.size == size else 0.0
            reg = fit_registration(src, dst, size, fixed_k, tuple(ids), self._serial + 1)
            if reg is None:
                return None
            err = np.linalg.norm(reg.project(src) - dst, axis=1).reshape(-1, 4).mean(axis=1)
            worst = int(np.argmax(err))
            if err[worst] <= self.outlier_px:
                self._serial += 1
                return reg
            ids.pop(worst)
        return None

    def _spread(self, ids: list[int]) -> bool:
        """The markers must span a triangle of at least 2% of the table (else the fit extrapolates)."""
        pts = [self.layout.marker(m).center for m in ids]
        w, h = self.layout.table
        best = 0.0
        for i in range(len(pts)):
            for j in range(i + 1, len(pts)):
                for k in range(j + 1, len(pts)):
                    a, b, c = pts[i], pts[j], pts[k]
                    best = max(best, abs((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])) / 2)
        return best >= 0.02 * w * h

    # --- per frame ------------------------------------------------------------------------------
    def update(self, gray: np.ndarray) -> RegistrationResult:
        """Register one grey frame (see the class docstring)."""
        size = (int(gray.shape[1]), int(gray.shape[0]))
        cur = self.current
        if cur is not None and cur.size != size:
            cur = self.current = None
        near = self.detect_near(gray, cur, self._last_seen) if cur is not None and self._last_seen else None
        corners = near if near is not None else self.detect(gray)
        seen = tuple(sorted(corners))
        self._last_seen = set(corners)
        if not corners:
            return RegistrationResult(None, "unregistered", seen, math.inf, corners)
        if cur is not None:
            err = cur.agrees(corners, self.layout)
            if err <= self.tolerance_px:
                if not set(corners) <= self._tried:
                    # markers in view that the last fit did not try: fit again with them
                    self._tried |= set(corners)
                    better = self._fit(corners, size)
                    if better is not None and better.agrees(corners, self.layout) <= err:
                        self.current = better
                        return RegistrationResult(better, "registered", seen, better.rms, corners)
                return RegistrationResult(cur, "kept", seen, err, corners)
            reg = self._fit(corners, size)
            if reg is None:
                return RegistrationResult(None, "unregistered", seen, err, corners)
            self.current = reg
            self._tried = set(corners)
            return RegistrationResult(reg, "moved", seen, reg.rms, corners)
        reg = self._fit(corners, size)
        if reg is None:
            return RegistrationResult(None, "unregistered", seen, math.inf, corners)
        self.current = reg
        self._tried = set(corners)
        return RegistrationResult(reg, "registered", seen, reg.rms, corners)
