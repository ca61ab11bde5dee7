"""What every reader gets for one frame: the image, its registration, the colour normalisation, the
window geometry and the sampler — and helpers to cut normalised windows and likeness maps."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..colour import ColourNorm, lab, likeness
from ..regions import PatchSet, Regions
from ..registration import Registration
from ..sampling import Sampler


@dataclass
class FrameContext:
    """One registered frame as the readers see it."""

    image: np.ndarray
    reg: Registration
    norm: ColourNorm
    regions: Regions
    sampler: Sampler
    timings: dict[str, float] = field(default_factory=dict)

    def windows(self, ps: PatchSet) -> np.ndarray:
        """Normalised BGR windows (N x px x px x 3, float32 0..1)."""
        return self.norm.apply(self.sampler.sample(self.image, self.reg, ps))

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


def colour_sigma(spread: float) -> float:
    """The likeness width for a colour measured with ``spread`` (Lab units) at enrollment."""
    return float(np.clip(1.6 * spread + 8.0, 10.0, 22.0))
