"""What training may use and what is kept for the evaluation only (one place, checked by both).

* Art: training renders the ``classic`` and ``bold`` packs and colour-transformed variants of them;
  the ``sketch`` pack is never rendered for training (the evaluation's art).
* Piece and shell colours: training draws random colours but none within ``COLOUR_GUARD`` (CIE
  ΔE) of the sketch pack's piece colours or its shell colour (the evaluation's colours).
* Cameras: training draws the horizontal field of view from ``TRAIN_FOV`` (two bands), the
  evaluation from ``EVAL_FOV`` (the gap between them), and training uses several image sizes;
  seeds are disjoint (training below ``EVAL_SEED_BASE``).
"""

from __future__ import annotations

import numpy as np

HELD_OUT_PACK = "sketch"
TRAIN_PACKS = ("classic", "bold")
TRAIN_FOV = ((50.0, 64.0), (76.0, 88.0))
EVAL_FOV = (64.0, 76.0)
EVAL_SEED_BASE = 10_000_000
COLOUR_GUARD = 14.0
SKETCH_COLOURS_RGB = (
    (180, 56, 48),
    (60, 96, 160),
    (220, 190, 70),
    (56, 52, 50),
    (70, 130, 70),
    (225, 220, 210),
    (120, 80, 140),
    (210, 120, 50),
)
SKETCH_SHELL_RGB = (228, 214, 190)


def rgb_to_lab(rgb: tuple[int, int, int] | np.ndarray) -> np.ndarray:
    """CIE Lab of an sRGB colour (0..255), without OpenCV (D65, standard formulas)."""
    c = np.asarray(rgb, np.float64) / 255.0
    c = np.where(c > 0.04045, ((c + 0.055) / 1.055) ** 2.4, c / 12.92)
    m = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
    xyz = (m @ c) / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


_HELD = np.array([rgb_to_lab(c) for c in (*SKETCH_COLOURS_RGB, SKETCH_SHELL_RGB)])


def colour_allowed(rgb: tuple[int, int, int]) -> bool:
    """True when a training colour keeps ``COLOUR_GUARD`` away from every evaluation colour."""
    d = np.linalg.norm(_HELD - rgb_to_lab(rgb), axis=1)
    return bool(d.min() >= COLOUR_GUARD)


def train_fov(rng: np.random.Generator) -> float:
    """A field of view from the training bands."""
    lo, hi = TRAIN_FOV[int(rng.integers(0, len(TRAIN_FOV)))]
    return float(rng.uniform(lo, hi))
