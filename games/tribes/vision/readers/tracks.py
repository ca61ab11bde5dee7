"""The track reader: on which space of each progress track each player's marker stands.

Every player has exactly one marker per track, so the reader does not ask "is there a marker on
this space" but "on which space is this colour's marker": for each track and colour it scores every
space by how much of the space's window looks like the colour (likeness mass above the track's
median, so a table that is itself a bit like the colour cancels out; and each pixel's likeness taken
relative to the bare table's enrolled colour, so that a table of nearly a player's colour — a dark
table and black pieces — does not drown the marker) and takes the best space. The
confidence grows with how far the best space beats the second.
"""

from __future__ import annotations

import time

import numpy as np

from games.tribes.vision.layout import TRACK_NAMES
from games.tribes.vision.observation import TrackReading
from games.tribes.vision.readers.base import FrameContext, colour_sigma
from vision.colour import lab, likeness
from vision.patches import patch_set

TRACK_PX = 24


class TrackReader:
    """Reads the progress markers of the colours in play."""

    def __init__(
        self,
        colours: list[tuple[str, np.ndarray, float]],
        window_mm: float | None = None,
        table: np.ndarray | None = None,
    ) -> None:
        self.colours = colours
        self.window_mm = window_mm
        self.table = table  # Lab of the bare table (enrolled), or None

    def read(self, ctx: FrameContext) -> tuple[list[TrackReading], set[str]]:
        """One reading per colour and track; ``{"tracks"}`` hidden when a space is out of view."""
        t0 = time.perf_counter()
        reg = ctx.regions
        centers, index = [], []
        for t in TRACK_NAMES:
            for j, p in enumerate(reg.track_spaces(t)):
                centers.append(p)
                index.append((t, j))
        side = self.window_mm or min(0.9 * reg.track_pitch, 44.0)
        ps = patch_set("tracks", centers, 0.0, side, TRACK_PX)
        if not ctx.inside(ps).all():
            ctx.timings["tracks"] = (time.perf_counter() - t0) * 1000
            return [], {"tracks"}
        labs = lab(ctx.windows(ps))
        out = []
        for name, ref, spread in self.colours:
            like = likeness(labs, ref, colour_sigma(spread))
            if self.table is not None:
                # a pixel counts as far as it looks more like the colour than like the bare table
                # (a dark table is "black" to the plain likeness; elsewhere this changes little)
                bare = likeness(labs, self.table, colour_sigma(spread))
                like = like * like / (like + bare + 1e-3)
            mass = (like > 0.5).mean(axis=(1, 2)) + 0.25 * like.mean(axis=(1, 2))
            start = 0
            for t in TRACK_NAMES:
                n = len(reg.track_spaces(t))
                m = mass[start : start + n] - np.median(mass[start : start + n])
                start += n
                order = np.argsort(m)
                best = int(order[-1])
                gap = float(m[best] - (m[order[-2]] if n > 1 else 0.0))
                conf = float(1.0 - np.exp(-gap / 0.01)) if gap > 0 else 0.0
                out.append(TrackReading(name, t, best, round(conf, 4)))
        ctx.timings["tracks"] = (time.perf_counter() - t0) * 1000
        return out, set()
