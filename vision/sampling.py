"""Cutting table windows out of a registered frame: one ``cv2.remap`` per batch of patches.

A :class:`~vision.regions.PatchSet` lists square windows on the table; :class:`Sampler` maps every
output pixel centre through the :class:`~vision.registration.Registration` (homography + lens
distortion) and samples the frame bilinearly, all windows of a set in one call (the windows are
stacked into one tall map). Maps are cached per registration and window set, so a steady camera
pays only for the remap. Windows falling partly outside the frame get black pixels there;
:meth:`Sampler.inside` says whether a window's core is in view (then it is read).
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict

import cv2
import numpy as np

from vision.patches import PatchSet
from vision.registration import Registration

CORE = (0.2, 0.8)
"""The part of a window (fractions of its side) that must be in the frame for it to be read."""


def window_xy(reg: Registration, ps: PatchSet) -> tuple[np.ndarray, np.ndarray]:
    """Image column and row (N x px x px each) of every output pixel of every window. The corners of each
    window are projected exactly (homography and lens distortion); inside a window the mapping is
    taken as projective (lens distortion changes too little across a tile to matter), which is
    much cheaper than projecting every pixel."""
    n, px = len(ps), ps.px
    step = ps.side_mm / ps.px
    a = ps.side_mm / 2 - 0.5 * step  # first/last pixel centre, from the window centre
    local = np.array([[-a, -a], [a, -a], [a, a], [-a, a]])
    rot = np.radians(ps.rotations)
    c, s = np.cos(rot)[:, None], np.sin(rot)[:, None]
    cx = c * local[None, :, 0] - s * local[None, :, 1] + ps.centers[:, None, 0]
    cy = s * local[None, :, 0] + c * local[None, :, 1] + ps.centers[:, None, 1]
    dst = reg.project(np.stack([cx, cy], -1).reshape(-1, 2)).reshape(n, 4, 2)
    src = np.array([[0.0, 0.0], [px - 1.0, 0.0], [px - 1.0, px - 1.0], [0.0, px - 1.0]])
    # per window: the homography taking output pixel (i, j) to the image (8 unknowns, 8 equations)
    A = np.zeros((n, 8, 8))
    b = np.zeros((n, 8))
    for k in range(4):
        x, y = src[k]
        u, v = dst[:, k, 0], dst[:, k, 1]
        A[:, 2 * k, 0:3] = [x, y, 1.0]
        A[:, 2 * k, 6] = -x * u
        A[:, 2 * k, 7] = -y * u
        A[:, 2 * k + 1, 3:6] = [x, y, 1.0]
        A[:, 2 * k + 1, 6] = -x * v
        A[:, 2 * k + 1, 7] = -y * v
        b[:, 2 * k] = u
        b[:, 2 * k + 1] = v
    h = np.linalg.solve(A, b[..., None])[..., 0]
    H = np.concatenate([h, np.ones((n, 1))], axis=1).reshape(n, 3, 3)
    jj, ii = np.meshgrid(np.arange(px, dtype=np.float64), np.arange(px, dtype=np.float64))
    g = np.stack([jj.ravel(), ii.ravel(), np.ones(px * px)])  # 3 x P (x = column, y = row)
    q = H @ g  # N x 3 x P
    inv = 1.0 / q[:, 2]
    return (q[:, 0] * inv).reshape(n, px, px), (q[:, 1] * inv).reshape(n, px, px)


def window_pixels(reg: Registration, ps: PatchSet) -> np.ndarray:
    """Image pixel (N x px x px x 2) of every output pixel of every window (see :func:`window_xy`)."""
    x, y = window_xy(reg, ps)
    return np.stack([x, y], axis=-1)


def _key(reg: Registration, ps: PatchSet) -> tuple[object, ...]:
    h = hashlib.blake2b(ps.centers.tobytes() + ps.rotations.tobytes(), digest_size=8).hexdigest()
    return (id(reg), reg.serial, ps.key, len(ps), ps.side_mm, ps.px, h)


class Sampler:
    """Samples :class:`PatchSet` windows from frames; keeps the last few maps."""

    def __init__(self, capacity: int = 32) -> None:
        self.capacity = capacity
        self._maps: OrderedDict[tuple[object, ...], tuple[np.ndarray, np.ndarray, np.ndarray, Registration]] = (
            OrderedDict()
        )

    def maps(self, reg: Registration, ps: PatchSet) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(map_x, map_y, inside)``: float32 maps ((N*px) x px) and a per-window bool (core in view)."""
        key = _key(reg, ps)
        hit = self._maps.get(key)
        if hit is not None and hit[3] is reg:
            self._maps.move_to_end(key)
            return hit[0], hit[1], hit[2]
        n, px = len(ps), ps.px
        if n == 0:
            empty = np.zeros((0, px), np.float32)
            return empty, empty, np.zeros(0, bool)
        xs, ys = window_xy(reg, ps)
        w, h = reg.size
        lo, hi = int(px * CORE[0]), int(np.ceil(px * CORE[1]))
        cx, cy = xs[:, lo:hi, lo:hi].reshape(n, -1), ys[:, lo:hi, lo:hi].reshape(n, -1)
        inside = (cx.min(axis=1) >= 0) & (cx.max(axis=1) <= w - 1) & (cy.min(axis=1) >= 0) & (cy.max(axis=1) <= h - 1)
        mx = xs.reshape(n * px, px).astype(np.float32)
        my = ys.reshape(n * px, px).astype(np.float32)
        self._maps[key] = (mx, my, inside, reg)
        while len(self._maps) > self.capacity:
            self._maps.popitem(last=False)
        return mx, my, inside

    def sample(self, image: np.ndarray, reg: Registration, ps: PatchSet) -> np.ndarray:
        """The windows of ``ps`` cut from ``image``: N x px x px (x channels) uint8."""
        mx, my, _ = self.maps(reg, ps)
        n, px = len(ps), ps.px
        if n == 0:
            return np.zeros((0, px, px, *image.shape[2:]), image.dtype)
        rows = (32000 // px) * px  # cv2.remap wants maps under 32767 rows: cut a long stack in pieces
        parts = [
            cv2.remap(image, mx[i : i + rows], my[i : i + rows], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
            for i in range(0, len(mx), rows)
        ]
        out = parts[0] if len(parts) == 1 else np.concatenate(parts)
        return out.reshape((n, px, px, *image.shape[2:]))

    def inside(self, reg: Registration, ps: PatchSet) -> np.ndarray:
        """Per window: True when its core (the middle 60% of each side) lies inside the frame; the
        rest of such a window may be cut off (black)."""
        return self.maps(reg, ps)[2]

    def points(self, image: np.ndarray, reg: Registration, mm: np.ndarray) -> np.ndarray:
        """Pixels (N x channels, float32) at table points (N x 2, mm), bilinear."""
        pts = np.asarray(mm, np.float64).reshape(-1, 2)
        if len(pts) == 0:
            return np.zeros((0, *image.shape[2:]), np.float32)
        pix = reg.project(pts).astype(np.float32)
        out = cv2.remap(image, pix[:, 0].reshape(-1, 1), pix[:, 1].reshape(-1, 1), cv2.INTER_LINEAR)
        return out.reshape((len(pts), *image.shape[2:])).astype(np.float32)
