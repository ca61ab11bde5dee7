"""Enrolled examples brought to a frame's clipping: what a brighter light the camera has not caught
up with does to pale art.

A sensor clips at 255. When the room grows brighter and the camera's auto exposure follows only part
of the change (or not yet), pale faces reach the top of the scale: in the picture they lose their
tint and their pale print, and what is left is white with the dark print. Normalised (the reference
patch, :mod:`vision.colour`) and divided by the light field (:mod:`vision.light`), such a window
shows the clipped pixels at one value per channel, its **ceiling**: ``norm(255) / gain`` at its
place. The enrolled examples were taken under the enrollment's light, with a higher ceiling (or none
reached), so a clipped pale face no longer looks like its own examples, and may look more like
another face's (a white back) than like its own.

No picture can get back what the sensor cut off, but the examples can be shown as this frame's
camera would show them: each example clipped at the same ceiling. :class:`ClippedExamples` does that
for one group of enrolled examples: for a ceiling that clips any example noticeably
(:data:`CLIP_OVER` on :data:`CLIP_SHARE` of its pixels), the clipped examples' vectors are made
again by the same feature model (only theirs; the others are kept) and a classifier is built from
them; ceilings are taken in steps of :data:`CLIP_STEP` and the classifiers of the last few are kept,
so a stream whose light drifts slowly builds one now and then. Pure numpy; the feature model is
passed in.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence

import numpy as np

from vision.classify import ExampleClassifier
from vision.colour import ColourNorm
from vision.light import LightField

CLIP_STEP = 0.02
"""Ceilings are taken in steps of this (normalised units, rounded to the nearest): the classifier of
a step is kept and used again."""
CLIP_OVER = 0.03
"""An example pixel counts as clipped by a ceiling when it lies over it by more than this (normalised
units, any channel): the jitter of a steady light's exposure clips nothing."""
CLIP_SHARE = 0.02
"""An example whose clipped pixels are at least this share of its window is made again; one with
fewer keeps its vectors. A ceiling that clips no example keeps the classifier as enrolled."""
CLIP_KEEP = 8
"""Classifiers of this many ceilings are kept (the least recently used dropped first)."""

Encode = Callable[[np.ndarray, np.ndarray | None], np.ndarray]
"""The feature model: unit vectors of windows (N x px x px x 3, float32 0..1), with the pixels of the
optional covers (N x px x px bool) hidden as if pieces lay there."""


def ceilings(norm: ColourNorm, field: LightField | None, points_mm: np.ndarray) -> np.ndarray:
    """The ceiling (N x 3, BGR) at table points (N x 2, mm): the normalised value, under the
    enrollment's light, that a pixel clipped at 255 shows there in a frame normalised by ``norm`` and
    divided by the light ``field`` (None: no change)."""
    top = norm.apply(np.full((1, 1, 3), 255, np.uint8)).reshape(1, 3).astype(np.float64)
    p = np.asarray(points_mm, np.float64).reshape(-1, 2)
    if field is None:
        return np.asarray(np.repeat(top, len(p), axis=0))
    return np.asarray(top / field.gains(p))


class ClippedExamples:
    """The enrolled examples of one group, and classifiers of them as clipped at a ceiling (see the
    module docstring).

    ``windows`` are the enrolled windows (N x px x px x 3, normalised); ``features`` the vectors the
    base classifier was built from (R x D), with ``sources`` (R x 2): the window each row was made
    from and the cover it was made under (an index into ``covers``, or -1 for none); ``labels`` (R)
    their class names. ``encode`` is the feature model; ``temperature`` and ``condense`` as for
    :class:`vision.classify.ExampleClassifier` (the classifier of the examples as enrolled is the
    caller's: :meth:`classifier` says None where it serves); ``top`` each window's brightest value
    per channel (N x 3), when the caller has it already."""

    def __init__(
        self,
        windows: np.ndarray,
        features: np.ndarray,
        labels: Sequence[str],
        sources: np.ndarray,
        covers: np.ndarray | None,
        encode: Encode,
        temperature: float,
        condense: float | None,
        top: np.ndarray | None = None,
    ) -> None:
        self.windows = np.asarray(windows)
        self.features = np.asarray(features, np.float32)
        self.labels = list(labels)
        self.sources = np.asarray(sources, np.int64).reshape(-1, 2)
        if not (len(self.features) == len(self.labels) == len(self.sources)):
            raise ValueError(f"{len(self.features)} vectors, {len(self.labels)} labels and {len(self.sources)} sources")
        self.covers = covers
        self.encode = encode
        self.temperature = temperature
        self.condense = condense
        if top is None and len(self.windows):
            top = self.windows.reshape(len(self.windows), -1, 3).max(axis=1)
        self.top = None if top is None or not len(self.windows) else np.asarray(top, np.float64).reshape(-1, 3)
        """Per example, its brightest value per channel: a ceiling above every one clips nothing."""
        self._kept: OrderedDict[tuple[int, int, int], ExampleClassifier | None] = OrderedDict()
        self.built = 0
        """How many clipped classifiers were built (a stream's cost)."""

    def step(self, ceiling: np.ndarray) -> tuple[int, int, int]:
        """The step of a ceiling (B, G, R): the key its classifier is kept under."""
        q = np.round(np.asarray(ceiling, np.float64).reshape(3) / CLIP_STEP).astype(np.int64)
        return (int(q[0]), int(q[1]), int(q[2]))

    def classifier(self, ceiling: np.ndarray) -> ExampleClassifier | None:
        """The classifier of the examples as this frame's camera shows them at ``ceiling`` (B, G, R),
        or None when the ceiling clips no example noticeably (the examples as enrolled serve)."""
        if self.top is None or not (self.top > np.asarray(ceiling).reshape(1, 3) + CLIP_OVER).any():
            return None
        key = self.step(ceiling)
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        made = self._build(np.asarray(key, np.float64) * CLIP_STEP)
        self._kept[key] = made
        while len(self._kept) > CLIP_KEEP:
            self._kept.popitem(last=False)
        return made

    def _build(self, ceiling: np.ndarray) -> ExampleClassifier | None:
        c = ceiling.astype(np.float32).reshape(1, 1, 1, 3)
        w = np.asarray(self.windows, np.float32)
        over = (w > c + CLIP_OVER).any(axis=3).reshape(len(w), -1).mean(axis=1)
        changed = np.flatnonzero(over >= CLIP_SHARE)
        if len(changed) == 0:
            return None
        self.built += 1
        clipped = np.minimum(w[changed], c)
        at = {int(i): j for j, i in enumerate(changed)}
        feats = self.features.copy()
        rows = [r for r in range(len(self.sources)) if int(self.sources[r, 0]) in at]
        for lo in range(0, len(rows), 64):
            part = rows[lo : lo + 64]
            batch = clipped[[at[int(self.sources[r, 0])] for r in part]]
            cov = [int(self.sources[r, 1]) for r in part]
            if self.covers is None or all(k < 0 for k in cov):
                feats[part] = self.encode(batch, None)
            else:
                none = np.zeros(self.covers.shape[1:], bool)
                feats[part] = self.encode(batch, np.stack([self.covers[k] if k >= 0 else none for k in cov]))
        return ExampleClassifier(feats, self.labels, self.temperature, condense=self.condense)
