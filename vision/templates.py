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
of up to ``shift`` pixels (least squares, as :func:`cv2.matchTemplate` finds it; tiles lie a
millimetre or so off their slot),
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
        self._flat = (
            np.stack([t.reshape(-1) for t in self._templates]).astype(np.float32)
            if self._templates
            else np.zeros((0, 1), np.float32)
        )
        self._owner = np.array([self.index[labels[i]] for i in keep], np.int64)

    def __len__(self) -> int:
        return len(self.classes)

    def disagreement(self, windows01: np.ndarray) -> np.ndarray:
        """N x C: for each window and class, the least share (0..1) of pixels that differ from one of
        the class's examples, aligned.

        All windows against all examples at once: the squared difference at every shift is
        ``|q|^2 - 2 q.t + |t|^2``, whose cross term for every shift of every window and every
        example is one matrix product (what ``cv2.matchTemplate(TM_SQDIFF)`` computes one pair at
        a time); the share is then counted at each pair's best shift."""
        n, c = len(windows01), len(self.classes)
        out = np.ones((n, c), np.float32)
        if n == 0 or c == 0 or not len(self._flat):
            return out
        queries = _normalised(np.asarray(windows01), self.px)
        inner = self.px - 2 * self.shift
        shifts = (2 * self.shift + 1) ** 2
        # every shifted inner square of every query: N x S x D
        views = np.lib.stride_tricks.sliding_window_view(queries, (inner, inner, 3), axis=(1, 2, 3))
        qs = np.ascontiguousarray(views.reshape(n, shifts, -1))
        sq = np.einsum("nsd,nsd->ns", qs, qs)
        cost = sq[:, :, None] - 2.0 * (qs.reshape(n * shifts, -1) @ self._flat.T).reshape(n, shifts, -1)
        best = cost.argmin(axis=1)  # N x T (|t|^2 does not change the best shift)
        diff = qs[np.arange(n)[:, None], best]  # N x T x D: each query at each example's best shift
        diff -= self._flat[None]
        np.square(diff, out=diff)
        px3 = diff.reshape(n, len(self._flat), inner * inner, 3)
        d2 = px3[..., 0] + px3[..., 1] + px3[..., 2]  # (three adds: far faster than a sum over a tiny axis)
        share = (d2 > self.tolerance**2).mean(axis=2)  # N x T
        for k in range(c):
            cols = self._owner == k
            if cols.any():
                out[:, k] = np.minimum(out[:, k], share[:, cols].min(axis=1))
        return out
