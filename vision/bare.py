"""The bare table as enrollment saw it, place by place: does anything lie there now?

A reader that tells tiles by their likeness to enrolled examples can be fooled where the table
itself looks like tile art (a wood grain, a cloth of a tile's colour), under a light it was not
enrolled under, or where a neighbouring tile reaches into the window: it then reads a tile on bare
table (a *phantom*). Here the question is turned round: does the window still look like *this very
place* looked when it was bare? At setup every place where a tile may later be laid shows bare
table, and enrollment keeps a small thumbnail of each (:class:`BareLook`, keyed by place). A window
is compared with its own place's thumbnail:

* only the inner disc counts (``radius``, a share of the window's side): a tile laid there covers
  it whole, a neighbouring tile, its shadow or a piece leaning over the edge does not;
* aligned within ``shift`` pixels (registration is good to a fraction of a millimetre, thumbnails
  are coarse);
* brightness and white balance matched per channel, but only within ``gain`` (the light follower,
  :mod:`vision.light`, has already taken out most of a change of light; the bound keeps a flat tile
  from being scaled into a flat table: 4 %, since a pale tile on a pale table is only some 10 %
  brighter — on the tuning set's pale art (``benchmarks/vision_diag.py --set tune --family pale``)
  landscape tiles read right went from 83.3 % at 10 % to 88.6 %, the other art and drifting light
  unchanged);
* the *disagreement* is the share of those pixels further apart than ``tolerance`` (Lab; the
  channels weighted by ``weights``, lightness as much as colour: a pale tile on a pale table differs
  mostly in lightness): near 0 for bare table however it is textured, near 1 for a tile — whose art is
  not the table's, pixel for pixel — or anything else lying there.

A place without a thumbnail (covered at setup, or an enrollment saved before thumbnails were kept)
gives NaN: nothing is known there. So does, for looks of bare table (``washed``), a place that
enrollment saw **washed out** — more than :data:`WASHED_SHARE` of its disc at the top of the scale: a
lamp's reflection on a glossy table, a light brighter than the printed white — while the window is
washed out too: a tile's white paper under the same reflection is just as white, and a tile would
pass for bare table (found on the held-out pack: a reflection on one land at setup, tiles laid there
read as empty, surely, and the walk stopped at them). Where the reflection has gone, the look is
held against the window whole, as before; of a look washed out in part, only the rest counts. The
rule is one-sided: a window that matches its bare look is bare; one that does not is whatever the
other readers make of it. A wrong thumbnail (something lay
there at setup) therefore only loses the check at that place, it never hides a tile.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.colour import lab

PX = 20
"""Pixels per side of a thumbnail (a 48 mm hex window: 2.4 mm per pixel)."""


WASHED_LEVEL = 250 / 255
"""A thumbnail's pixel at or above this in any channel (normalised) is washed out: at the top of the
scale, where a tile's white paper and a glaring table look alike."""
WASHED_SHARE = 0.75
"""A look of bare table (``BareLook(..., washed=WASHED_SHARE)``, as the land reader keeps them — not a
tile's art, whose white paper belongs at the top of the scale) with more than this share of its disc
washed out says nothing where the window is washed out too (:data:`WASHED_NOW`); of a look washed out
in part, only the pixels not washed out count."""
WASHED_NOW = 0.5
"""A window with more than this share of its disc washed out, at a place washed out at setup: NaN."""


def thumbnails(windows01: np.ndarray, px: int = PX) -> np.ndarray:
    """N x px x px x 3 uint8 thumbnails of normalised BGR windows (0..1), by area averaging."""
    w = np.asarray(windows01, np.float32)
    if w.ndim == 4 and w.shape[1] == w.shape[2] and w.shape[1] % px == 0:  # whole blocks: their means
        k = w.shape[1] // px
        blocks = w.reshape(len(w), px, k, px, k, 3)
        acc = blocks[:, :, 0, :, 0].copy()  # summed slice by slice: ~6x faster than a mean over axes 2, 4
        for dy in range(k):
            for dx in range(k):
                if dy or dx:
                    acc += blocks[:, :, dy, :, dx]
        return np.clip(acc * (255.0 / (k * k)) + 0.5, 0, 255).astype(np.uint8)
    out = np.empty((len(w), px, px, 3), np.uint8)
    for i, x in enumerate(w):
        if x.shape[0] != px or x.shape[1] != px:
            x = cv2.resize(x, (px, px), interpolation=cv2.INTER_AREA)
        out[i] = np.clip(x * 255.0 + 0.5, 0, 255).astype(np.uint8)
    return out


DISC_RADIUS = 0.3
"""The inner disc a :class:`BareLook` compares, as a share of the thumbnail's side (its ``radius``)."""


def disc(side: int, radius: float) -> np.ndarray:
    """A ``side`` x ``side`` mask of the pixels within ``radius`` x ``side`` of the centre."""
    yy, xx = np.mgrid[0:side, 0:side]
    c = (side - 1) / 2
    return np.hypot(xx - c, yy - c) <= radius * side


class BareLook:
    """Thumbnails of the bare table by place (``keys``), and how far a window has left its own.

    ``thumbs`` are :func:`thumbnails` (N x px x px x 3 uint8, normalised BGR under the enrollment's
    light)."""

    def __init__(
        self,
        keys: Sequence[str],
        thumbs: np.ndarray,
        radius: float = DISC_RADIUS,
        shift: int = 1,
        gain: float = 1.04,
        tolerance: float = 10.0,
        weights: tuple[float, float, float] = (1.0, 1.0, 1.0),
        washed: float | None = None,
    ) -> None:
        t = np.asarray(thumbs)
        if len(keys) != len(t):
            raise ValueError(f"{len(t)} bare-table thumbnails for {len(keys)} places")
        if len(t) and (t.ndim != 4 or t.shape[1] != t.shape[2] or t.shape[3] != 3):
            raise ValueError(f"bare-table thumbnails must be N x px x px x 3, got {t.shape}")
        self.px = int(t.shape[1]) if len(t) else PX
        self.shift = int(shift)
        if self.px <= 2 * self.shift + 4:
            raise ValueError(f"thumbnails of {self.px} px are too small for shifts of {self.shift} px")
        if washed is not None and not 0.0 <= washed < 1.0:
            raise ValueError(f"the share of a look washed out must be in [0, 1), got {washed}")
        self.gain = float(gain)
        self.tolerance = float(tolerance)
        self.weights = np.asarray(weights, np.float32)
        self.index = {k: i for i, k in enumerate(keys)}
        s = self.shift
        inner = self.px - 2 * s
        self.mask = disc(inner, radius * self.px / inner)
        # the stored side: the disc of every thumbnail's inner square in Lab, and its median BGR
        inner_bgr = t[:, s : self.px - s, s : self.px - s].astype(np.float32) / 255.0 if len(t) else t
        # the disc's pixels as flat indices into a whole thumbnail, one row per shift (dy, dx)
        yy, xx = np.nonzero(self.mask)
        self._at = np.stack(
            [(yy + dy) * self.px + (xx + dx) for dy in range(2 * s + 1) for dx in range(2 * s + 1)]
        )
        self._lab_disc = lab(inner_bgr[:, self.mask]) if len(t) else np.zeros((0, len(yy), 3), np.float32)
        self._median = (
            np.median(inner_bgr[:, self.mask], axis=1) if len(t) else np.zeros((0, 3), np.float32)
        )  # N x 3
        # the bare table that enrollment saw washed out (a lamp's reflection, a light brighter than
        # the printed white: at the top of the scale) tells nothing — a tile's white paper laid there
        # looks the same. Those pixels of a look are left out; a place with too few others, whole.
        self._valid: np.ndarray | None = None
        self.washed = np.zeros(len(t), bool)
        if len(t) and washed is not None:
            valid = ~(inner_bgr[:, self.mask] >= WASHED_LEVEL).any(axis=2)  # N x P
            self.washed = valid.mean(axis=1) < 1.0 - washed
            valid[self.washed] = True  # judged whole, where the window is not washed out too
            if not valid.all():
                self._valid = valid
                for i in np.flatnonzero(~valid.all(axis=1)):
                    self._median[i] = np.median(inner_bgr[i][self.mask][valid[i]], axis=0)

    def __len__(self) -> int:
        return len(self.index)

    def __contains__(self, key: object) -> bool:
        return key in self.index

    def _washed_now(self, ref: Sequence[int], q: np.ndarray) -> np.ndarray:
        """Per thumbnail ``q`` of a window at place ``ref``: the place was washed out at setup and
        more than :data:`WASHED_NOW` of the window's disc is washed out now."""
        s, inner = self.shift, self.px - 2 * self.shift
        now = (q[:, s : s + inner, s : s + inner][:, self.mask] >= WASHED_LEVEL).any(axis=2).mean(axis=1)
        return np.asarray(self.washed[list(ref)] & (now > WASHED_NOW), bool)

    def washed_now(self, keys: Sequence[str], windows01: np.ndarray) -> np.ndarray:
        """Per window: its place was washed out at setup and the window is washed out now — the
        places where :meth:`disagreement` says nothing although a look was kept."""
        return self.compare(keys, windows01)[1]

    def disagreement(self, keys: Sequence[str], windows01: np.ndarray) -> np.ndarray:
        """Per window, the share of its inner disc that differs from its place's bare look (0..1;
        NaN where the place has none). ``windows01`` are normalised BGR windows of any size, cut as
        the thumbnails were."""
        return self.compare(keys, windows01)[0]

    def compare(self, keys: Sequence[str], windows01: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`disagreement` and :meth:`washed_now` of the same windows at once (each window
        thumbnailed once)."""
        out = np.full(len(keys), np.nan, np.float32)
        washed = np.zeros(len(keys), bool)
        idx = [(j, self.index[k]) for j, k in enumerate(keys) if k in self.index]
        if not idx:
            return out, washed
        rows = [j for j, _ in idx]
        ref = [i for _, i in idx]
        q = thumbnails(np.asarray(windows01)[rows], self.px).astype(np.float32) / 255.0  # M x px x px x 3
        s, inner = self.shift, self.px - 2 * self.shift
        m = self.mask
        if self.washed[ref].any():  # a place washed out at setup, and washed out now: nothing is known
            now = self._washed_now(ref, q)
            washed[rows] = now
            if now.any():
                keep = ~now
                rows = [j for j, k in zip(rows, keep, strict=True) if k]
                ref = [i for i, k in zip(ref, keep, strict=True) if k]
                q = q[keep]
                if not rows:
                    return out, washed
        valid = None if self._valid is None else self._valid[ref]  # M x P: the look's pixels not washed out
        if valid is not None and valid.all():
            valid = None
        # brightness and white balance matched on the unshifted disc, within the bound
        disc = q[:, s : s + inner, s : s + inner][:, m]  # M x P x 3
        if valid is None:
            med = np.median(disc, axis=1)  # M x 3
        else:
            med = np.nanmedian(np.where(valid[:, :, None], disc, np.nan), axis=1)
        g = np.clip(self._median[ref] / np.maximum(med, 1e-3), 1.0 / self.gain, self.gain)
        q_lab = lab(q * g[:, None, None, :]).reshape(len(rows), self.px * self.px, 3)
        ref_disc = self._lab_disc[ref]  # M x P x 3
        tol2 = self.tolerance**2
        # every shift at once: M x shifts x P pixels of the disc, their weighted squared distances
        d = q_lab[:, self._at] - ref_disc[:, None]
        d *= d
        d2 = cv2.transform(d.reshape(1, -1, 3), self.weights.reshape(1, 3)).reshape(d.shape[:3])
        if valid is None:
            best = d2.mean(axis=2).argmin(axis=1)  # the first of equal costs, as a loop over shifts would
            share = (d2[np.arange(len(rows)), best] > tol2).mean(axis=1)
        else:
            n = valid.sum(axis=1)
            best = ((d2 * valid[:, None, :]).sum(axis=2) / n[:, None]).argmin(axis=1)
            share = ((d2[np.arange(len(rows)), best] > tol2) & valid).sum(axis=1) / n
        out[rows] = share
        return out, washed
