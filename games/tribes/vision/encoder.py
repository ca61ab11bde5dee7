"""Tile windows → feature vectors, the same way for enrolled examples and for frames.

:class:`TileEncoder` prepares a batch of windows of one group (:mod:`vision.occlusion`: landscape
windows lose their neighbours and the seat's members, row windows the shells, achievement windows
the stones — looked for on the stone slots only, so that art of a player's colour elsewhere on the
tile stays) and runs the feature extractor. With ``mix`` below 1 the model's vector is joined by a
colour histogram of the prepared window, weighted so that the cosine similarity of two joined
vectors is ``mix * model + (1 - mix) * histogram``. :class:`PlainEncoder` is the baseline: a colour
histogram of the raw window, nothing hidden.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

import numpy as np

from games.tribes.vision.regions import Regions
from vision.features import HistogramFeatures
from vision.occlusion import hex_only, hex_window_mask, hidden_mask


class Extractor(Protocol):
    px: int

    def embed(self, patches01: np.ndarray) -> np.ndarray: ...


class TileEncoder:
    """Prepared windows → features (see the module docstring). ``occluders`` maps a key
    (``seat:<n>``, ``shell``, ``players``) to the (Lab, likeness sigma) colours hidden under it."""

    def __init__(
        self,
        extractor: Extractor,
        regions: Regions,
        occluders: Mapping[str, Sequence[tuple[np.ndarray, float]]],
        mix: float = 1.0,
    ) -> None:
        self.extractor = extractor
        self.px = extractor.px
        self.occluders = dict(occluders)
        self.mix = float(mix)
        self.hist = HistogramFeatures(px=extractor.px) if mix < 1.0 else None
        side = regions.hex_patches([(0, (0, 0))], px=self.px).side_mm
        self.hex_mask = hex_window_mask(self.px, side, regions.layout.hex.flat_to_flat)
        self.stone_mask = stone_area(regions, self.px)

    def prepare(self, windows01: np.ndarray, group: str, key: str | Sequence[str]) -> np.ndarray:
        """The windows with pieces (and, for hexes, neighbours) hidden; ``key`` names the hidden
        colours for all windows, or one key per window."""
        return self._prepare(windows01, group, key)[0]

    def _prepare(
        self, windows01: np.ndarray, group: str, key: str | Sequence[str], cover: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        within = self.stone_mask if group == "board" else None
        if isinstance(key, str):
            out, hidden = hidden_mask(windows01, self.occluders.get(key, ()), extra=cover, within=within)
        else:
            empty: list[tuple[np.ndarray, float]] = []
            out, hidden = hidden_mask(
                windows01, [self.occluders.get(k, empty) for k in key], each=True, extra=cover, within=within
            )
        visible = ~hidden
        if group == "hex":
            out = hex_only(out, self.hex_mask)
            visible &= self.hex_mask
        return out, visible

    def encode(
        self, windows01: np.ndarray, group: str, key: str | Sequence[str], cover: np.ndarray | None = None
    ) -> np.ndarray:
        """Unit feature vectors of the prepared windows (the histogram part counts visible pixels
        only: neither hidden pieces nor, for hexes, what lies outside the tile). ``cover``
        (N x px x px bool) hides more pixels, as if pieces lay there
        (:func:`vision.occlusion.covers`)."""
        prep, visible = self._prepare(windows01, group, key, cover)
        f = self.extractor.embed(prep)
        if self.hist is None:
            return f
        h = self.hist.embed(prep, visible)
        return np.concatenate([np.sqrt(self.mix) * f, np.sqrt(1.0 - self.mix) * h], axis=1)


def stone_area(regions: Regions, px: int) -> np.ndarray | None:
    """Where stones can lie in an achievement window (px x px bool): the stone slots' discs, a
    little grown; None when the layout has no stone slots."""
    slots = regions.layout.stone_slots
    if not slots:
        return None
    side = regions.board_patches().side_mm
    r = (1.25 * regions.stone_radius / side) * px + 1.0
    yy, xx = np.mgrid[0:px, 0:px]
    m = np.zeros((px, px), bool)
    for ox, oy in slots:
        cx, cy = (ox + side / 2) / side * px - 0.5, (oy + side / 2) / side * px - 0.5
        m |= np.hypot(xx - cx, yy - cy) <= r
    return m


class PlainEncoder:
    """The baseline: a colour histogram of the raw window (nothing hidden)."""

    def __init__(self, px: int = 40) -> None:
        self.px = px
        self.hist = HistogramFeatures(px=px)

    def encode(self, windows01: np.ndarray, group: str, key: str | Sequence[str]) -> np.ndarray:
        """Unit histogram vectors."""
        return self.hist.embed(windows01)
