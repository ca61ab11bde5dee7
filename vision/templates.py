"""Pixel templates of the enrolled tiles: how much of a window disagrees with each tile's bare art.

The feature classifiers compare whole windows, so a tile half covered by pale pieces (shells piled
on an action tile) can look more like another tile than like itself, and hiding the pieces by
colour fails when they are as pale as the paper. Here the question is turned round: for each
enrolled tile, *which share of the window's pixels would have to be covered* for the window to be
that tile? A tile under shells disagrees with its own bare art where the shells lie and nowhere
else; any other tile disagrees there and wherever its art differs.

Both the enrolled examples and the queries are white-balanced (each channel divided by its 90th
percentile inside the window, so a lamp's colour or brightness does not count as a difference) and
turned into Lab; each example is aligned to the query by the least squared difference over shifts
of up to ``shift`` pixels (:func:`cv2.matchTemplate`; tiles lie a millimetre or so off their slot),
and the disagreement is the share of the aligned pixels further apart than ``tolerance`` (Lab,
lightness weighted half). A class's score is its best example's.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.colour import lab

WEIGHTS = np.sqrt(np.array([0.5, 1.0, 1.0], np.float32))
"""Per-channel weights of the Lab difference (square roots: applied before squaring)."""


def _normalised(windows01: np.ndarray, px: int) -> np.ndarray:
    """White-balanced, weighted Lab windows (N x px x px x 3, float32)."""
    out = np.empty((len(windows01), px, px, 3), np.float32)
    m = max(1, px // 10)
    for i, w in enumerate(windows01):
        w = np.asarray(w, np.float32)
        if w.shape[0] != px or w.shape[1] != px:
            w = cv2.resize(w, (px, px), interpolation=cv2.INTER_AREA)
        white = np.quantile(w[m:-m, m:-m].reshape(-1, 3), 0.9, axis=0)
        out[i] = lab(np.clip(w / np.maximum(white, 0.05), 0.0, 1.2)) * WEIGHTS
    return out


class TemplateMatcher:
    """Disagreement of windows with the enrolled tiles' art (see the module docstring)."""

    def __init__(
        self,
        windows01: np.ndarray,
        labels: Sequence[str],
        per_class: int = 3,
        shift: int = 3,
        tolerance: float = 14.0,
        skip: Sequence[str] = (),
    ) -> None:
        if len(windows01) != len(labels):
            raise ValueError(f"{len(windows01)} template windows for {len(labels)} labels")
        self.shift = int(shift)
        self.tolerance = float(tolerance)
        keep: list[int] = []
        seen: dict[str, int] = {}
        for i, lb in enumerate(labels):
            if lb in skip or seen.get(lb, 0) >= per_class:
                continue
            seen[lb] = seen.get(lb, 0) + 1
            keep.append(i)
        self.classes: list[str] = sorted(seen)
        self.index = {c: i for i, c in enumerate(self.classes)}
        self.px = int(windows01.shape[1]) if len(windows01) else 0
        if self.px <= 2 * self.shift + 2 and keep:
            raise ValueError(f"template windows of {self.px} px are too small for shifts of {self.shift} px")
        s = self.shift
        norm = _normalised(np.asarray(windows01)[keep], self.px) if keep else np.zeros((0, 1, 1, 3), np.float32)
        self._templates = [np.ascontiguousarray(t[s : self.px - s, s : self.px - s]) for t in norm]
        self._owner = np.array([self.index[labels[i]] for i in keep], np.int64)

    def __len__(self) -> int:
        return len(self.classes)

    def disagreement(self, windows01: np.ndarray) -> np.ndarray:
        """N x C: for each window and class, the least share (0..1) of pixels that differ from one of
        the class's examples, aligned."""
        n, c = len(windows01), len(self.classes)
        out = np.ones((n, c), np.float32)
        if n == 0 or c == 0:
            return out
        queries = _normalised(np.asarray(windows01), self.px)
        tol2 = self.tolerance**2
        inner = self.px - 2 * self.shift
        for i, q in enumerate(queries):
            for t, k in zip(self._templates, self._owner, strict=True):
                r = cv2.matchTemplate(q, t, cv2.TM_SQDIFF)
                dy, dx = np.unravel_index(int(r.argmin()), r.shape)
                a = q[dy : dy + inner, dx : dx + inner]
                share = float(((((a - t) ** 2).sum(axis=-1)) > tol2).mean())
                if share < out[i, k]:
                    out[i, k] = share
        return out
