"""The arrow reader: which player's arrow token lies between which two achievement positions.

An arrow token (R-ARR-1) is laid between an achievement and a diagonally adjacent one of the next
era, so it lies on the corner where four achievement positions meet, along one of the two
diagonals. For every such corner a window is cut, aligned with the board; for each diagonal its
footprint (a strip ``LENGTH`` x ``WIDTH`` mm along the diagonal: the shaft and the middle of the
head) is compared with each player's enrolled colour. A pixel counts for a colour when its
likeness to it is above ``LIKE`` and no other player's colour, nor the bare table's, is liker (a
dark table is "black" to the plain likeness). A diagonal holds that player's arrow when the share of
its footprint's pixels clears ``threshold``, beats the other colours there by half again, and its
*ends* — the footprint beyond a token lying on the crossing diagonal — beat the crossing diagonal's
ends by half again (a token's shaft and shadow reach into the crossing footprint's middle, never its
ends). Two players' arrows may cross at one corner; the one underneath shows only its ends beyond
the top token, and counts when ``UNDER`` of each end shows its colour (the top token's shadow,
"black" to the likeness, falls on one side only). A player has one arrow token: if
several places qualify for one colour, the strongest is kept. Stones lie on the tiles' stone slots,
off both footprints.

The confidence is the distance of the share from the threshold, as for stones. The likeness cut-off
was chosen on six sessions of the held-out camera evaluation (``benchmarks/vision_eval.py``), where
an arrow's flat top reads brighter than the enrolled stones of the same colour."""

from __future__ import annotations

import math
import time

import numpy as np

from games.tribes.vision.layout import Layout
from games.tribes.vision.observation import ArrowReading
from games.tribes.vision.readers.base import FrameContext, colour_sigma, threshold_conf
from vision.colour import lab, likeness
from vision.patches import PatchSet, patch_set

LENGTH = 22.0
"""Length (mm) of the footprint along the diagonal (the token is 28 mm long)."""
WIDTH = 5.0
"""Width (mm) of the footprint across the diagonal (the shaft is 6 mm wide)."""
WINDOW_MM = 32.0
LIKE = 0.3
"""Likeness above which a pixel counts as the player's colour (if no other player's colour, nor the
bare table's, is liker)."""
TOKEN = (28.0, 14.0)
"""Length and width (mm) of the whole token (shaft and head): what a top arrow hides of a crossing one."""
UNDER = 0.3
"""Share of the visible ends of a crossing diagonal, beyond a token lying on top, that makes an
arrow under it."""


Place = tuple[tuple[int, int], tuple[int, int]]
"""``(lower, upper)``: the two achievement positions ``(era, col)`` an arrow joins."""
_Geometry = tuple[list[Place], PatchSet, list[np.ndarray], list[np.ndarray], list[np.ndarray], dict[int, int]]
"""Places, their windows, footprints, whole-token masks, forward halves, crossing partners."""


def corners(layout: object) -> list[Place]:
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

    def __init__(
        self, colours: list[tuple[str, np.ndarray, float]], threshold: float = 0.5, table: np.ndarray | None = None
    ) -> None:
        self.colours = colours
        self.threshold = threshold
        self.table = table  # Lab of the bare table (enrolled), or None
        self._geo: tuple[Layout, _Geometry | None] | None = None

    @staticmethod
    def _best(
        shares: np.ndarray,
        threshold: float,
        places: object,
        ends: np.ndarray | None = None,
        partner: dict | None = None,
    ) -> dict[int, tuple[float, int, float]]:
        """Per colour, the place whose share clears ``threshold`` and beats the other colours there by
        half again — and, with ``ends`` (the shares beyond a token lying on the crossing diagonal),
        whose ends beat the crossing diagonal's by half again (a token's shaft and shadow reach into
        the crossing footprint, its ends do not): ``colour -> (share, place, confidence)``."""
        best: dict[int, tuple[float, int, float]] = {}
        n = shares.shape[1]
        for i in places:  # type: ignore[attr-defined]
            for j in range(n):
                s = float(shares[i, j])
                rival = max((float(shares[i, k]) for k in range(n) if k != j), default=0.0)
                if s < threshold or s < 1.5 * rival:
                    continue
                if ends is not None and partner and i in partner and ends[i, j] < 1.5 * ends[partner[i], j] + 1e-6:
                    continue
                if j not in best or s > best[j][0]:
                    best[j] = (s, i, threshold_conf(s, threshold))
        return best

    def _geometry(self, lay: Layout) -> _Geometry | None:
        """The places, their windows and the footprint masks for ``lay`` (worked out once)."""
        if self._geo is not None and self._geo[0] is lay:
            return self._geo[1]
        places = corners(lay)
        geo: _Geometry | None = None
        if places:
            rot = lay.board_rotation
            where = [lay.arrow_position(lo, up) for lo, up in places]
            px = int(WINDOW_MM)
            ps = patch_set("arrows", [c for c, _ in where], rot, WINDOW_MM, px)
            ax = (np.arange(px) + 0.5) * (WINDOW_MM / px) - WINDOW_MM / 2
            gx, gy = np.meshgrid(ax, ax)
            masks, tokens, forward = [], [], []
            for _, angle in where:
                a = math.radians(angle - rot)
                t = gx * math.cos(a) + gy * math.sin(a)
                n = -gx * math.sin(a) + gy * math.cos(a)
                masks.append((np.abs(t) <= LENGTH / 2) & (np.abs(n) <= WIDTH / 2))
                tokens.append((np.abs(t) <= TOKEN[0] / 2) & (np.abs(n) <= TOKEN[1] / 2))
                forward.append(t > 0)
            # the other diagonal through the same corner
            partner = {
                i: k
                for i, (ci, _) in enumerate(where)
                for k, (ck, _) in enumerate(where)
                if k != i and math.dist(ci, ck) < 1.0
            }
            geo = (places, ps, masks, tokens, forward, partner)
        self._geo = (lay, geo)
        return geo

    def read(self, ctx: FrameContext) -> list[ArrowReading]:
        """The arrow tokens seen (the board must be in view: the caller checks)."""
        t0 = time.perf_counter()
        geo = self._geometry(ctx.regions.layout)
        if geo is None or not self.colours:
            return []
        places, ps, masks, tokens, forward, partner = geo
        labs = lab(ctx.windows(ps))
        shares = np.zeros((len(places), len(self.colours)), np.float32)
        raw = np.stack([likeness(labs, ref, colour_sigma(spread)) for _, ref, spread in self.colours])
        top = raw.max(axis=0)
        likes = []
        for j, (_, _, spread) in enumerate(self.colours):
            like = (raw[j] > LIKE) & (raw[j] >= top)
            if self.table is not None:  # a dark table is "black" to the plain likeness
                like &= raw[j] > likeness(labs, self.table, colour_sigma(spread))
            likes.append(like)
        ends = np.zeros_like(shares)
        for j, like in enumerate(likes):
            for i, m in enumerate(masks):
                shares[i, j] = float(like[i][m].mean())
                beyond = m & ~tokens[partner[i]] if i in partner else m
                ends[i, j] = float(like[i][beyond].mean()) if beyond.any() else 0.0
        best = self._best(shares, self.threshold, range(len(places)), ends, partner)
        # an arrow under another one at the same corner shows only its ends beyond the top one
        for _, i, _ in list(best.values()):
            k = partner.get(i)
            if k is None or any(b[1] == k for b in best.values()):
                continue
            region = masks[k] & ~tokens[i]
            tips = (region & forward[k], region & ~forward[k])
            if min(int(x.sum()) for x in tips) < 5:
                continue
            under = np.zeros_like(shares)
            for j2, like in enumerate(likes):
                if j2 not in best:  # both tips must show it (a shadow falls on one side)
                    under[k, j2] = min(float(like[k][x].mean()) for x in tips)
            for j2, found in self._best(under, UNDER, [k]).items():
                best.setdefault(j2, found)
        out = []
        for j, (_, i, conf) in sorted(best.items()):
            lo, up = places[i]
            out.append(ArrowReading(self.colours[j][0], lo, up, round(conf, 4)))
        ctx.timings["arrows"] = (time.perf_counter() - t0) * 1000
        return out
