"""The arrow reader: which player's arrow token lies between which two achievement positions.

An arrow token (R-ARR-1) is laid between an achievement and a diagonally adjacent one of the next
era, so it lies on the corner where four achievement positions meet, along one of the two
diagonals. For every such corner a window is cut, aligned with the board; for each diagonal its
footprint (a strip ``LENGTH`` x ``WIDTH`` mm along the diagonal, the shaft and the middle of the
head) is compared with each player's enrolled colour: the share of the footprint's pixels whose
likeness to the colour is above ``LIKE``. A diagonal counts as holding that player's arrow when the
share clears ``threshold`` and clearly beats the other diagonal of the same corner (an arrow covers
only the middle of the crossing footprint) and the other colours. A player has one arrow token: if
several places qualify for one colour, the strongest is kept. Stones on the tiles' stone slots lie
off both footprints.

The confidence is the distance of the share from the threshold, as for stones.
"""

from __future__ import annotations

import math
import time

import numpy as np

from ..colour import lab, likeness
from ..observation import ArrowReading
from ..regions import patch_set
from .base import FrameContext, colour_sigma

LENGTH = 22.0
"""Length (mm) of the footprint along the diagonal (the token is 28 mm long)."""
WIDTH = 5.0
"""Width (mm) of the footprint across the diagonal (the shaft is 6 mm wide)."""
WINDOW_MM = 32.0
LIKE = 0.5
"""Likeness above which a pixel counts as the player's colour."""


def corners(layout: object) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Every place an arrow can lie: ``(lower, upper)`` pairs of diagonally adjacent positions,
    ``lower`` of the earlier era."""
    board = layout.board  # type: ignore[attr-defined]
    out = []
    for e in range(1, len(board)):
        for c in range(len(board[e - 1])):
            for dc in (-1, 1):
                if 0 <= c + dc < len(board[e]):
                    out.append(((e, c), (e + 1, c + dc)))
    return out


class ArrowReader:
    """Reads the arrow tokens on the board (see the module docstring)."""

    def __init__(self, colours: list[tuple[str, np.ndarray, float]], threshold: float = 0.5) -> None:
        self.colours = colours
        self.threshold = threshold
        self.last_shares: np.ndarray | None = None

    def read(self, ctx: FrameContext) -> list[ArrowReading]:
        """The arrow tokens seen (the board must be in view: the caller checks)."""
        t0 = time.perf_counter()
        lay = ctx.regions.layout
        places = corners(lay)
        if not places or not self.colours:
            return []
        rot = lay.board_rotation
        geo = [lay.arrow_position(lo, up) for lo, up in places]
        px = int(WINDOW_MM)
        ps = patch_set("arrows", [c for c, _ in geo], rot, WINDOW_MM, px)
        labs = lab(ctx.windows(ps))
        step = WINDOW_MM / px
        ax = (np.arange(px) + 0.5) * step - WINDOW_MM / 2
        gx, gy = np.meshgrid(ax, ax)
        shares = np.zeros((len(places), len(self.colours)), np.float32)
        masks = []
        for _, angle in geo:
            a = math.radians(angle - rot)
            t = gx * math.cos(a) + gy * math.sin(a)
            n = -gx * math.sin(a) + gy * math.cos(a)
            masks.append((np.abs(t) <= LENGTH / 2) & (np.abs(n) <= WIDTH / 2))
        for j, (_, ref, spread) in enumerate(self.colours):
            like = likeness(labs, ref, colour_sigma(spread)) > LIKE
            for i, m in enumerate(masks):
                shares[i, j] = float(like[i][m].mean())
        self.last_shares = shares  # places x colours, for diagnostics
        # the other diagonal through the same corner
        partner = {}
        for i, (ci, _) in enumerate(geo):
            for k, (ck, _) in enumerate(geo):
                if k != i and math.dist(ci, ck) < 1.0:
                    partner[i] = k
        best: dict[int, tuple[float, int, float]] = {}
        for i in range(len(places)):
            for j in range(len(self.colours)):
                s = float(shares[i, j])
                rival = max(
                    float(shares[partner[i], j]) if i in partner else 0.0,
                    max((float(shares[i, k]) for k in range(len(self.colours)) if k != j), default=0.0),
                )
                if s >= self.threshold and s >= 1.5 * rival:
                    d = (s - self.threshold) / 0.15
                    conf = 1.0 / (1.0 + math.exp(-abs(d) * 3))
                    if j not in best or s > best[j][0]:
                        best[j] = (s, i, conf)
        out = []
        for j, (_, i, conf) in sorted(best.items()):
            lo, up = places[i]
            out.append(ArrowReading(self.colours[j][0], lo, up, round(conf, 4)))
        ctx.timings["arrows"] = (time.perf_counter() - t0) * 1000
        return out
