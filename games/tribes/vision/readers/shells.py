"""The shell reader: how many shells lie on each seat's shell spot.

The spot's window, cut at the counting model's size (the shipped one reads 96 pixels a side: a shell
is 10 x 6–7 pixels in a 48-pixel window of the 80 mm spot), and a likeness map to the enrolled shell
colour go through the shell counting model (:class:`~vision.features.Counter`); the count is the most
probable one and its probability the confidence. A spot out of view is reported hidden (``shells:<seat>``).
"""

from __future__ import annotations

import time

import numpy as np

from games.tribes.vision.observation import ShellReading
from games.tribes.vision.readers.base import FrameContext, colour_sigma, likeness_maps
from vision.features import CountModel


class ShellReader:
    """Counts the shells on the shell spots of the seats in play."""

    def __init__(self, counter: CountModel, shell_colour: tuple[np.ndarray, float]) -> None:
        self.counter = counter
        self.shell = shell_colour

    def read(self, ctx: FrameContext, seats: list[int]) -> tuple[list[ShellReading], set[str]]:
        """Readings per seat, and the hidden spots."""
        t0 = time.perf_counter()
        if not seats:
            return [], set()
        ps = ctx.regions.shell_patches(seats, self.counter.px)  # as its counter cuts
        inside = ctx.inside(ps)
        win = ctx.windows(ps)
        ref, spread = self.shell
        probs = self.counter.probabilities(win, likeness_maps(win, ref, colour_sigma(spread)))
        out, hidden = [], set()
        for i, s in enumerate(seats):
            if not inside[i]:
                hidden.add(f"shells:{s}")
                continue
            k = int(probs[i].argmax())
            out.append(ShellReading(s, k, round(float(probs[i, k]), 4)))
        ctx.timings["shells"] = (time.perf_counter() - t0) * 1000
        return out, hidden
