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

import hashlib
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
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

    @property
    def fingerprint(self) -> str | None:
        """A digest of everything that fixes the vectors of given windows (the extractor's model, the
        hidden colours, the mix, the masks), or None when the extractor does not say what it is:
        equal fingerprints encode equal windows alike (:func:`examples_memo`)."""
        ident = getattr(self.extractor, "identity", None)
        if not isinstance(ident, str):
            return None
        h = hashlib.blake2b(digest_size=16)
        h.update(f"{ident}|{self.px}|{self.mix!r}".encode())
        for k in sorted(self.occluders):
            h.update(k.encode())
            for ref, sigma in self.occluders[k]:
                h.update(np.asarray(ref, np.float64).tobytes())
                h.update(repr(float(sigma)).encode())
        h.update(self.hex_mask.tobytes())
        if self.stone_mask is not None:
            h.update(self.stone_mask.tobytes())
        return h.hexdigest()

    def prepare(self, windows01: np.ndarray, group: str, key: str | Sequence[str]) -> np.ndarray:
        """The windows with pieces (and, for hexes, neighbours) hidden; ``key`` names the hidden
        colours for all windows, or one key per window."""
        return self._prepare(windows01, group, key)[0]

    def visible(self, windows01: np.ndarray, group: str, key: str | Sequence[str]) -> np.ndarray:
        """N x px x px bool: the pixels :meth:`prepare` leaves as they are (no piece of the hidden
        colours, and for hexes, on the tile)."""
        return self._prepare(windows01, group, key)[1]

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
        return self.encode_visible(windows01, group, key, cover)[0]

    def encode_visible(
        self, windows01: np.ndarray, group: str, key: str | Sequence[str], cover: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`encode` and :meth:`visible` of the same windows, the pieces hidden once: a reader
        that needs both (where members or stones show) does not prepare its windows twice."""
        prep, visible = self._prepare(windows01, group, key, cover)
        f = self.extractor.embed(prep)
        if self.hist is None:
            return f, visible
        h = self.hist.embed(prep, visible)
        return np.concatenate([np.sqrt(self.mix) * f, np.sqrt(1.0 - self.mix) * h], axis=1), visible


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

    @property
    def fingerprint(self) -> str:
        """See :attr:`TileEncoder.fingerprint`."""
        h = self.hist
        return f"plain|{self.px}|{h.bins}|{h.mask.sum()}"

    def encode(self, windows01: np.ndarray, group: str, key: str | Sequence[str]) -> np.ndarray:
        """Unit histogram vectors."""
        return self.hist.embed(windows01)


EXAMPLES_MEMO_BYTES = 64 * 2**20
"""The vectors of enrolled examples kept for the next recognizer on the same enrollment (bytes)."""
_memo: OrderedDict[str, tuple[np.ndarray, list[str]]] = OrderedDict()


def examples_memo(
    fingerprint: str | None, windows: np.ndarray, tag: str, make: Callable[[], tuple[np.ndarray, list[str]]]
) -> tuple[np.ndarray, list[str]]:
    """``make()`` — the vectors and labels of enrolled example ``windows`` — or, for the same encoder
    (``fingerprint``), windows and ``tag`` (the group, the hidden colours' key, the labels), the
    vectors kept from the last time (read-only: every caller shares them). A recognizer built again on
    an enrollment (the camera restarted, a test) then skips the feature model's pass over every
    example; the result is the same array. Up to :data:`EXAMPLES_MEMO_BYTES` are kept, the least
    recently used dropped first; None: no memo."""
    if fingerprint is None:
        return make()
    h = hashlib.blake2b(digest_size=16)
    h.update(f"{fingerprint}|{tag}|{windows.shape}|{windows.dtype}".encode())
    h.update(np.ascontiguousarray(windows).data)
    key = h.hexdigest()
    hit = _memo.get(key)
    if hit is not None:
        _memo.move_to_end(key)
        return hit[0], list(hit[1])
    feats, labels = make()
    feats.setflags(write=False)  # shared from now on: read-only, not copied
    _memo[key] = (feats, list(labels))
    while len(_memo) > 1 and sum(v[0].nbytes for v in _memo.values()) > EXAMPLES_MEMO_BYTES:
        _memo.popitem(last=False)
    return feats, labels
