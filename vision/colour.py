"""Colour normalisation against the layout's printed reference patch, and colour likeness maps.

The reference patch holds fields of known printed grey (white 245, grey 128, black 24 in the
default layout). :func:`read_tones` measures them in a registered frame; :class:`ColourNorm` fits,
per channel, ``observed = gain * printed + offset`` and maps pixels back to printed units, so that
the same tile or piece gives about the same numbers under a warm lamp, daylight, or a camera with
its own white balance. A patch that cannot be read (glare, a hand over it) gives ``None`` and the
caller keeps the last good normalisation.

:func:`lab` turns normalised BGR into CIE Lab; :func:`likeness` is a per-pixel similarity (0..1) to a
reference colour in Lab, the cue the counting models and the stone/marker readers use to tell the
players' pieces apart whatever their colours are.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class ColourNorm:
    """Per-channel linear map from observed BGR to printed units (0..255): ``(x - offset) / gain``."""

    gain: tuple[float, float, float] = (1.0, 1.0, 1.0)
    offset: tuple[float, float, float] = (0.0, 0.0, 0.0)

    def apply(self, pixels: np.ndarray) -> np.ndarray:
        """Normalised float32 BGR in 0..1 (printed white 255 = 1.0; values may exceed 1 a little)."""
        g = np.asarray(self.gain, np.float32) * 255.0
        o = np.asarray(self.offset, np.float32)
        if pixels.dtype == np.uint8 and pixels.ndim >= 2 and pixels.shape[-1] == 3 and pixels.size:
            # 8-bit BGR: one table look-up per pixel (the same numbers, several times faster)
            lut = np.clip((np.arange(256, dtype=np.float32)[:, None] - o) / g, 0.0, 1.5)
            flat = np.ascontiguousarray(pixels).reshape(-1, 1, 3)
            return cv2.LUT(flat, lut.reshape(1, 256, 3)).reshape(pixels.shape)
        x = pixels.astype(np.float32)
        return np.clip((x - o) / g, 0.0, 1.5)

    def to_dict(self) -> dict[str, list[float]]:
        """Plain JSON data."""
        return {"gain": list(self.gain), "offset": list(self.offset)}

    @staticmethod
    def from_dict(d: dict[str, list[float]]) -> ColourNorm:
        """Inverse of :meth:`to_dict`."""
        g, o = d["gain"], d["offset"]
        return ColourNorm((float(g[0]), float(g[1]), float(g[2])), (float(o[0]), float(o[1]), float(o[2])))


SATURATED = 250.0
"""A patch field whose reading reaches this in any channel (of 255) is clipped by the sensor: a
brighter light the camera's exposure has not caught up with. Its value says only "at least this",
so :func:`fit_norm` leaves it out; fitted from it, the white field read at 255 where it should be
280 bends the line, and every pale face above the grey is then mapped too bright (and read clipped)."""
CRUSHED = 3.0
"""A patch field whose reading is at most this in any channel is clipped at black: left out too."""


def fit_norm(observed: np.ndarray, printed: np.ndarray) -> ColourNorm | None:
    """Fit a :class:`ColourNorm` to the observed BGR of the patch fields (T x 3) and their printed
    grey levels (T); None when the fields are not ordered as printed (glare, shadow, a hand), or
    fewer than two fields 50 grey levels apart are left once the clipped ones (:data:`SATURATED`,
    :data:`CRUSHED`) are left out."""
    obs = np.asarray(observed, np.float64)
    grey = np.asarray(printed, np.float64)
    if obs.ndim == 2 and len(obs) == len(grey):
        clipped = (obs.max(axis=1) >= SATURATED) | (obs.min(axis=1) <= CRUSHED)
        obs, grey = obs[~clipped], grey[~clipped]
    if len(grey) < 2 or np.ptp(grey) < 50:
        return None
    order = np.argsort(grey)
    gains, offsets = [], []
    for ch in range(3):
        y = obs[order, ch]
        if np.any(np.diff(y) <= 2.0):
            return None
        a, b = np.polyfit(grey[order], y, 1)
        if a <= 0.08 or a > 4.0:
            return None
        # the fields must lie on the line (a glare spot on one field breaks it)
        if np.max(np.abs(a * grey[order] + b - y)) > 0.12 * a * np.ptp(grey) + 6.0:
            return None
        gains.append(float(a))
        offsets.append(float(b))
    return ColourNorm((gains[0], gains[1], gains[2]), (offsets[0], offsets[1], offsets[2]))


def read_tones(tone_patches: np.ndarray) -> np.ndarray:
    """Median BGR of each tone window (T x px x px x 3 uint8) → T x 3."""
    t = tone_patches.reshape(len(tone_patches), -1, 3).astype(np.float32)
    return np.median(t, axis=1)


LUMA_BGR = np.array([0.114, 0.587, 0.299], np.float32)
"""Weights of B, G and R in luminance (Rec. 601): ``pixels @ LUMA_BGR`` is brightness, not cut off
at white as :func:`lab` is (it converts through 8 bits)."""


LAB_WEIGHT = np.array([0.5, 1.0, 1.0])
"""Weights of a Lab difference's channels: lightness counts half as much as hue (shading changes
lightness most), as in :func:`likeness`."""


def lab_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The distance between Lab colours (broadcast against each other, L, a, b on the last axis),
    each channel weighted by :data:`LAB_WEIGHT`."""
    return np.asarray(np.linalg.norm((np.asarray(a) - np.asarray(b)) * LAB_WEIGHT, axis=-1))


def lab(bgr01: np.ndarray) -> np.ndarray:
    """CIE Lab (L 0..100, a and b about -128..127) of normalised BGR (float, 0..1, any shape x 3).
    Converted through 8 bits (OpenCV's table-driven conversion, ~0.4 Lab units of rounding): several
    times faster than the float conversion, which matters at a few hundred windows per frame."""
    x = np.asarray(bgr01, np.float32)
    shp = x.shape
    if x.size == 0:
        return np.zeros(shp, np.float32)
    t = x * np.float32(255.0)
    t += np.float32(0.5)
    np.clip(t, 0, 255, out=t)
    # one row of pixels: OpenCV's per-row overhead makes a column of single pixels ~4x slower
    u8 = t.astype(np.uint8).reshape(1, -1, 3)
    out = cv2.transform(cv2.cvtColor(u8, cv2.COLOR_BGR2Lab).astype(np.float32), _LAB_AFFINE)
    return out.reshape(shp)


_LAB_AFFINE = np.array([[100.0 / 255.0, 0, 0, 0], [0, 1, 0, -128.0], [0, 0, 1, -128.0]], np.float32)
"""8-bit Lab (L 0..255, a and b offset by 128) to L 0..100 and signed a, b, per pixel."""


def piece_colour(lab_pixels: np.ndarray, background_lab: np.ndarray, share: float = 0.25) -> tuple[np.ndarray, float]:
    """The colour of the pieces lying on a patch of known background (e.g. a seat's supply: its
    members, stones and arrow): the median Lab of the ``share`` of pixels farthest from the
    background, and their spread (median distance to that colour). Returns ``(lab, spread)``."""
    px = np.asarray(lab_pixels, np.float32).reshape(-1, 3)
    d = lab_distance(px, np.asarray(background_lab, np.float32))
    n = max(8, int(share * len(px)))
    far = px[np.argsort(d)[-n:]]
    ref = np.median(far, axis=0)
    # a second pass keeps the pixels near that colour (drops shadows and table seen between pieces)
    d2 = lab_distance(far, ref)
    core = far[d2 <= np.percentile(d2, 60)]
    ref = np.median(core, axis=0)
    spread = float(np.median(lab_distance(core, ref)))
    return ref.astype(np.float32), spread


def likeness(
    lab_pixels: np.ndarray, ref_lab: np.ndarray, sigma: float = 14.0, chroma_weight: float = 1.0
) -> np.ndarray:
    """Per-pixel similarity (0..1) of Lab pixels (... x 3) to one Lab colour (or to a colour per
    pixel, ``ref_lab`` broadcast against them): a Gaussian of the
    colour distance, lightness weighted half as much as hue (shading changes lightness most).
    Computed in float32 by OpenCV (the weighted sum and the exponential in one pass each: about 4x
    faster than numpy's, at some thirty calls a frame)."""
    ref = np.asarray(ref_lab, np.float32)
    if ref.size != 3:  # a reference per pixel (broadcast against the pixels)
        d = lab_pixels - ref
        dist2 = 0.25 * d[..., 0] ** 2 + chroma_weight * (d[..., 1] ** 2 + d[..., 2] ** 2)
        return np.exp(-dist2 / (2 * sigma * sigma)).astype(np.float32)
    x = np.asarray(lab_pixels, np.float32)
    if x.size == 0:
        return np.zeros(x.shape[:-1], np.float32)
    d = x - ref.reshape(3)
    d *= d
    s = -1.0 / (2 * sigma * sigma)
    weights = np.array([[0.25 * s, chroma_weight * s, chroma_weight * s]], np.float32)
    return cv2.exp(cv2.transform(d.reshape(1, -1, 3), weights)).reshape(x.shape[:-1])
