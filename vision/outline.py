"""Outline evidence: which sides of a flat piece's outline a window shows as an edge.

A tile is card, cut: whatever its art and whatever the table, where it lies its outline shows in the
picture as a step or a line in brightness (the cut edge, the card's side, the shadow it casts, the
seam against a neighbouring tile) along every side. Bare table shows none of that, except along the
sides it shares with tiles lying next to it. So the number of sides showing an edge tells a tile
from table that merely looks like tile art — a pale table under pale art, a mottled cloth that the
tile model takes for gold — without any colour or enrolled example.

:class:`Outline` measures it on the windows the readers already cut (a window centred on the
place, turned with the piece, its side a known multiple of the piece's size): per side, at points
spread along its middle, the strongest brightness gradient across the side within a band about the
outline; the side's strength is the median over the points (a symbol printed near the edge or a
member standing on it moves a few points, not the median).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.colour import LUMA_BGR


class Outline:
    """Side strengths of a regular ``sides``-gon centred in ``px`` x ``px`` windows.

    ``apothem``: the centre-to-side distance as a share of the window's side; ``first_normal``: the
    direction (degrees, image axes: x right, y down) of the first side's outward normal, the others
    following every 360/sides degrees; ``band``: how far (share of the window's side) inside and
    outside the outline the edge is looked for (the piece's own misplacement and the card's side
    seen under a tilted camera); ``along``: the share of each side's length the points spread over
    (its middle: the corners are shared by three pieces)."""

    def __init__(
        self,
        px: int,
        sides: int,
        apothem: float,
        first_normal: float,
        band: float,
        along: float = 0.6,
        points: int = 9,
    ) -> None:
        self.px = px
        self.sides = sides
        c = (px - 1) / 2
        half = apothem * math.tan(math.pi / sides)  # half a side, share of the window
        radii = np.arange(apothem - band, apothem + band + 1e-9, 0.5 / px)
        ts = np.linspace(-along, along, points) * half
        xs, ys, nx, ny = [], [], [], []
        for k in range(sides):
            a = math.radians(first_normal + 360.0 * k / sides)
            n = np.array([math.cos(a), math.sin(a)])
            t = np.array([-n[1], n[0]])
            p = (n[None, None] * radii[None, :, None] + t[None, None] * ts[:, None, None]) * px + c
            xs.append(np.rint(p[..., 0]).astype(np.intp))
            ys.append(np.rint(p[..., 1]).astype(np.intp))
            nx.append(n[0])
            ny.append(n[1])
        self._x = np.stack(xs)  # sides x points x radii
        self._y = np.stack(ys)
        if min(self._x.min(), self._y.min()) < 1 or max(self._x.max(), self._y.max()) > px - 2:
            raise ValueError(f"an outline of apothem {apothem} and band {band} reaches the window's edge")
        self._n = np.array([nx, ny], np.float32)  # 2 x sides

    def strengths(self, windows: np.ndarray) -> np.ndarray:
        """Per window and side (N x sides): the edge strength across that side (the median over
        points along it of the strongest gradient across it; brightness on the windows' 0..1 scale,
        per pixel as OpenCV's 3x3 Sobel gives it)."""
        if len(windows) == 0:
            return np.zeros((0, self.sides), np.float32)
        n, px = len(windows), self.px
        gray = np.clip(windows, 0.0, 1.5).astype(np.float32) @ LUMA_BGR
        # the windows stacked into one tall picture: one pass of each filter; the rows where two
        # windows meet are never sampled (the outline keeps clear of a window's first and last row)
        tall = np.ascontiguousarray(gray.reshape(n * px, px))
        gx = cv2.Sobel(tall, cv2.CV_32F, 1, 0, ksize=3).reshape(n, px, px)
        gy = cv2.Sobel(tall, cv2.CV_32F, 0, 1, ksize=3).reshape(n, px, px)
        across = np.abs(
            gx[:, self._y, self._x] * self._n[0, None, :, None, None]
            + gy[:, self._y, self._x] * self._n[1, None, :, None, None]
        )  # windows x sides x points x radii
        return np.median(across.max(axis=3), axis=2).astype(np.float32)

    def shown(self, windows: np.ndarray, threshold: float) -> np.ndarray:
        """Per window, how many sides show an edge at least ``threshold`` strong."""
        return (self.strengths(windows) >= threshold).sum(axis=1)
