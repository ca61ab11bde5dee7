"""Table surfaces: procedural textures in physical units (grain and weave sizes in millimetres).

``table_texture(kind, canvas, seed)`` returns a BGR uint8 image covering the canvas. The kinds differ
in colour, contrast and structure so that recognition meets light, dark, patterned and plain tables:
oak and walnut planks, green felt, light linen, speckled laminate and dark slate.
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

from sim.warp import Canvas

TEXTURES: tuple[str, ...] = ("oak", "walnut", "felt", "linen", "laminate", "slate")


def _noise(h: int, w: int, rng: np.random.Generator, cell_px: float) -> np.ndarray:
    """Smooth noise in about [-1, 1] with features ``cell_px`` pixels large."""
    gh = max(2, int(h / cell_px) + 3)
    gw = max(2, int(w / cell_px) + 3)
    small = rng.standard_normal((gh, gw)).astype(np.float32)
    big = cv2.resize(small, (int(gw * cell_px), int(gh * cell_px)), interpolation=cv2.INTER_CUBIC)
    return big[:h, :w] * 0.6


def table_texture(
    kind: str, canvas: Canvas, seed: int = 0, bounds: tuple[float, float, float, float] | None = None
) -> np.ndarray:
    """A ``kind`` table surface for ``canvas`` (BGR uint8). With ``bounds`` (x0, y0, x1, y1 in mm,
    covering every canvas to come) the surface is made once for that area (cached) and cut out for
    each canvas, so that new cameras do not pay for a new texture."""
    if kind not in TEXTURES:
        raise ValueError(f"unknown table texture {kind!r}: choose from {', '.join(TEXTURES)}")
    if bounds is None:
        return _texture(kind, canvas, seed)
    bs = max(1.0, math.ceil(canvas.scale * 2) / 2)
    bx0, by0, bx1, by1 = bounds
    base_canvas = Canvas(bx0, by0, bs, math.ceil((bx1 - bx0) * bs), math.ceil((by1 - by0) * bs))
    base = _cached_texture(kind, base_canvas, seed)
    # the canvas's area in base pixels (edges), cut out with a margin and resampled
    u0 = (canvas.x0 - bx0) * bs
    v0 = (canvas.y0 - by0) * bs
    u1 = u0 + canvas.width * bs / canvas.scale
    v1 = v0 + canvas.height * bs / canvas.scale
    iu0, iv0 = max(math.floor(u0), 0), max(math.floor(v0), 0)
    iu1, iv1 = min(math.ceil(u1), base.shape[1]), min(math.ceil(v1), base.shape[0])
    if iu1 - iu0 < 2 or iv1 - iv0 < 2 or u0 < 0 or v0 < 0 or u1 > base.shape[1] or v1 > base.shape[0]:
        return _texture(kind, canvas, seed)
    crop = base[iv0:iv1, iu0:iu1]
    interp = cv2.INTER_AREA if canvas.scale < bs else cv2.INTER_LINEAR
    return cv2.resize(crop, (canvas.width, canvas.height), interpolation=interp)


@lru_cache(maxsize=8)  # a demo clears it between games (companion.play.forget_pictures)
def _cached_texture(kind: str, canvas: Canvas, seed: int) -> np.ndarray:
    img = _texture(kind, canvas, seed)
    img.setflags(write=False)
    return img


def clear_cache() -> None:
    """Forget the cached textures (a demo between games: the next game has another seed)."""
    _cached_texture.cache_clear()


STRIP_ROWS = 128
"""Rows of a texture computed at once: the full-size random fields first (in a fixed order), the
rest strip by strip, so the float temporaries of a large table surface stay small (a 1080p demo
table peaked at ~250 MB above its size when the whole surface was computed in one go)."""


def _texture(kind: str, canvas: Canvas, seed: int) -> np.ndarray:
    rng = np.random.default_rng([seed, TEXTURES.index(kind)])
    h, w, s = canvas.height, canvas.width, canvas.scale
    ys = (np.arange(h, dtype=np.float32)[:, None] + 0.5) / s + canvas.y0
    xs = (np.arange(w, dtype=np.float32)[None, :] + 0.5) / s + canvas.x0
    out = np.empty((h, w, 3), np.uint8)
    if kind in ("oak", "walnut"):
        base = np.array([120, 170, 205] if kind == "oak" else [48, 72, 98], np.float32)  # BGR
        plank = 140.0 if kind == "oak" else 110.0
        idx = np.floor((ys - 7.0) / plank)
        tone = rng.uniform(-0.12, 0.12, 64).astype(np.float32)
        shade = 1.0 + tone[(idx.astype(np.int64) % 64)]
        warp = _noise(h, w, rng, 40 * s) * 6.0
        fine = _noise(h, w, rng, 3 * s) * 0.5
        seam = np.abs(((ys - 7.0) % plank) - plank / 2) > plank / 2 - 0.6

        def lum_of(a: int, b: int) -> np.ndarray:
            y = ys[a:b]
            grain = np.sin((y + warp[a:b]) * (2 * np.pi / 2.6) + xs * 0.01) * 0.5 + 0.5
            lum = shade[a:b] * (0.9 + 0.12 * grain + 0.06 * fine[a:b])
            return np.where(seam[a:b], lum * 0.55, lum)

    elif kind == "felt":
        base = np.array([70, 110, 40], np.float32)
        n = _noise(h, w, rng, 25 * s) * 0.06 + rng.normal(0, 0.05, (h, w)).astype(np.float32)

        def lum_of(a: int, b: int) -> np.ndarray:
            return 1 + n[a:b]

    elif kind == "linen":
        base = np.array([200, 214, 222], np.float32)
        n = _noise(h, w, rng, 60 * s) * 0.05 + rng.normal(0, 0.025, (h, w)).astype(np.float32)

        def lum_of(a: int, b: int) -> np.ndarray:
            weave = (np.sin(xs * 2 * np.pi / 0.9) * np.sin(ys[a:b] * 2 * np.pi / 0.9)) * 0.04
            return 1 + weave + n[a:b]

    elif kind == "laminate":
        base = np.array([205, 205, 200], np.float32)
        n = _noise(h, w, rng, 80 * s) * 0.04
        speck = (rng.random((h, w)) < 0.01).astype(np.float32) * -0.25

        def lum_of(a: int, b: int) -> np.ndarray:
            return 1 + n[a:b] + speck[a:b]

    else:  # slate
        base = np.array([62, 60, 58], np.float32)
        n = _noise(h, w, rng, 30 * s) * 0.12 + _noise(h, w, rng, 4 * s) * 0.08

        def lum_of(a: int, b: int) -> np.ndarray:
            return 1 + n[a:b]

    for a in range(0, h, STRIP_ROWS):
        b = min(a + STRIP_ROWS, h)
        out[a:b] = np.clip(lum_of(a, b)[..., None] * base, 0, 255).astype(np.uint8)
    return out
