"""What every reader gets for one frame: the image, its registration, the colour normalisation and
the light field (how the light changed since enrollment, :mod:`vision.light`), the window geometry
and the sampler — and helpers to cut normalised windows and likeness maps."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from games.tribes.vision.regions import Regions
from vision.colour import ColourNorm, lab, likeness
from vision.light import LightField
from vision.patches import PatchSet
from vision.registration import Registration
from vision.sampling import Sampler


@dataclass
class FrameContext:
    """One registered frame as the readers see it."""

    image: np.ndarray
    reg: Registration
    norm: ColourNorm
    regions: Regions
    sampler: Sampler
    timings: dict[str, float] = field(default_factory=dict)
    markers: tuple[int, ...] = ()
    """Ids of the markers registration found in this frame (visible, so nothing lies on them)."""
    light: LightField | None = None
    """How the light differs from the enrollment's over the table (None: not known)."""

    def windows(self, ps: PatchSet) -> np.ndarray:
        """Normalised BGR windows (N x px x px x 3, float32 0..1), as under the enrollment's light."""
        out = self.norm.apply(self.sampler.sample(self.image, self.reg, ps))
        if self.light is not None:
            out = self.light.apply(out, ps.centers)
        return out

    def inside(self, ps: PatchSet) -> np.ndarray:
        """Per window: wholly inside the frame."""
        return self.sampler.inside(self.reg, ps)


def disc_mask(px: int, radius: float) -> np.ndarray:
    """Boolean px x px mask of the pixels within ``radius`` (fraction of the side) of the centre."""
    yy, xx = np.mgrid[0:px, 0:px]
    c = (px - 1) / 2
    return np.hypot(xx - c, yy - c) <= radius * px


def likeness_maps(windows01: np.ndarray, ref_lab: np.ndarray, sigma: float) -> np.ndarray:
    """Likeness (N x px x px) of every pixel of the windows to one Lab colour."""
    return likeness(lab(windows01), ref_lab, sigma)


def threshold_conf(value: float, threshold: float, scale: float = 0.15) -> float:
    """Confidence of a yes/no decision taken by comparing ``value`` with ``threshold``: the
    logistic of the distance from it (in units of ``scale``), 0.5 right at the threshold."""
    d = (value - threshold) / scale
    return 1.0 / (1.0 + math.exp(-abs(d) * 3))


def colour_sigma(spread: float) -> float:
    """The likeness width for a colour measured with ``spread`` (Lab units) at enrollment."""
    return float(np.clip(1.6 * spread + 8.0, 10.0, 22.0))


class ChangeCache:
    """Remembers what a reader concluded about a window, keyed by place, with a thumbnail of the
    window it was concluded from. A later window at the same place whose thumbnail differs by less
    than ``threshold`` (normalised units, in every cell of a ``cells`` x ``cells`` grid) gets the same
    conclusion without being read again; anything that changed — a member put down, a tile laid —
    changes whole cells and is read afresh. Cleared whenever the registration changes."""

    def __init__(self, cells: int = 10, threshold: float = 0.06) -> None:
        self.cells = cells
        self.threshold = threshold
        self.serial = -1
        self.store: dict[object, tuple[np.ndarray, object]] = {}
        self.hits = 0
        self.misses = 0

    def thumbnails(self, windows01: np.ndarray) -> np.ndarray:
        """N x cells x cells x C block means of the windows."""
        n, h, w = windows01.shape[:3]
        c = self.cells
        if h % c or w % c:
            return np.stack([cv2.resize(x, (c, c), interpolation=cv2.INTER_AREA) for x in windows01])
        return windows01.reshape(n, c, h // c, c, w // c, -1).mean(axis=(2, 4))

    def split(
        self, serial: int, keys: list[object], windows01: np.ndarray
    ) -> tuple[dict[int, object], list[int], np.ndarray]:
        """``(hits, misses, thumbnails)``: the remembered conclusions by index, the indices to read."""
        if serial != self.serial:
            self.store.clear()
            self.serial = serial
        thumbs = self.thumbnails(windows01)
        hits: dict[int, object] = {}
        misses: list[int] = []
        for i, k in enumerate(keys):
            got = self.store.get(k)
            if got is not None and float(np.abs(got[0] - thumbs[i]).max()) < self.threshold:
                hits[i] = got[1]
            else:
                misses.append(i)
        self.hits += len(hits)
        self.misses += len(misses)
        return hits, misses, thumbs

    def put(self, key: object, thumb: np.ndarray, value: object) -> None:
        """Remember a conclusion."""
        self.store[key] = (thumb, value)
