"""Camera imperfections applied to a rendered frame: motion blur, defocus, the camera's own
auto-exposure and white-balance gains, sensor noise, JPEG.

:class:`Effects` is plain data; :class:`EffectsApplier` applies it cheaply, in that order (the
optics blur the picture, the camera's image processor scales it, then noise and compression). The
gains stand for a phone's or webcam's auto exposure and auto white balance re-running as the room's
light changes: a global ``gain`` and per-channel ``channel_gains`` (B, G, R); the default (1 and
1, 1, 1) leaves the frame untouched, bit for bit. A renderer that knows the room's light folds the
gains into it instead, so that light and camera saturate once, as a sensor does
(:meth:`games.tribes.sim.render.Renderer.render`). Sensor noise comes from a
bank of Gaussian noise made once per image size and seed and cut at a random offset per frame (so
frames differ but a frame is reproducible from its seed), added in one saturating OpenCV call.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from vision.errors import VisionError

NOISE_BANK_SCALE = 16.0
BANK_PAD = 64
GAIN_RANGE = (0.5, 2.0)
"""Valid auto-exposure gains."""
CHANNEL_GAIN_RANGE = (0.6, 1.6)
"""Valid auto-white-balance gains, per channel."""


@dataclass(frozen=True)
class Effects:
    """``noise``: sensor noise sigma in 8-bit levels; ``motion_blur``: streak length (px) at
    ``motion_angle`` degrees; ``defocus``: blur sigma (px); ``jpeg``: JPEG quality 5–100, or None;
    ``gain``: the camera's auto-exposure gain (0.5–2, 1 = none); ``channel_gains``: its auto white
    balance, one gain per channel in OpenCV's order (B, G, R), each 0.6–1.6."""

    noise: float = 2.0
    motion_blur: float = 0.0
    motion_angle: float = 0.0
    defocus: float = 0.0
    jpeg: int | None = None
    gain: float = 1.0
    channel_gains: tuple[float, float, float] = (1.0, 1.0, 1.0)

    def __post_init__(self) -> None:
        if not 0 <= self.noise <= 40:
            raise VisionError(f"noise must be 0-40 grey levels, got {self.noise:g}")
        if not 0 <= self.motion_blur <= 60:
            raise VisionError(f"motion blur must be 0-60 pixels, got {self.motion_blur:g}")
        if not 0 <= self.defocus <= 15:
            raise VisionError(f"defocus must be 0-15 pixels, got {self.defocus:g}")
        if self.jpeg is not None and not 5 <= self.jpeg <= 100:
            raise VisionError(f"JPEG quality must be 5-100, got {self.jpeg}")
        if not GAIN_RANGE[0] <= self.gain <= GAIN_RANGE[1]:
            raise VisionError(f"camera gain must be {GAIN_RANGE[0]:g}-{GAIN_RANGE[1]:g}, got {self.gain:g}")
        try:
            cg = tuple(float(v) for v in self.channel_gains)
        except (TypeError, ValueError):
            cg = ()
        if len(cg) != 3 or not all(CHANNEL_GAIN_RANGE[0] <= v <= CHANNEL_GAIN_RANGE[1] for v in cg):
            raise VisionError(
                f"camera channel_gains must be three gains (B, G, R) of {CHANNEL_GAIN_RANGE[0]:g}-"
                f"{CHANNEL_GAIN_RANGE[1]:g}, got {self.channel_gains!r}"
            )
        object.__setattr__(self, "channel_gains", cg)

    @property
    def neutral(self) -> bool:
        """True when the camera's gains change nothing."""
        return self.gain == 1.0 and self.channel_gains == (1.0, 1.0, 1.0)

    @property
    def gains(self) -> tuple[float, float, float]:
        """The camera's whole gain per channel (B, G, R): auto exposure times auto white balance."""
        b, g, r = (self.gain * v for v in self.channel_gains)
        return (b, g, r)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data."""
        return asdict(self)


def motion_kernel(length: float, angle: float) -> np.ndarray:
    """A normalised line kernel ``length`` pixels long at ``angle`` degrees."""
    n = max(3, math.ceil(length) | 1)
    k = np.zeros((n, n), np.float32)
    c = (n - 1) / 2
    dx, dy = math.cos(math.radians(angle)) * length / 2, math.sin(math.radians(angle)) * length / 2
    cv2.line(
        k,
        (round((c - dx) * 16), round((c - dy) * 16)),
        (round((c + dx) * 16), round((c + dy) * 16)),
        1.0,
        1,
        cv2.LINE_AA,
        4,
    )
    return k / max(float(k.sum()), 1e-6)


@lru_cache(maxsize=2)
def _bank(seed: int, h: int, w: int) -> np.ndarray:
    rng = np.random.default_rng([seed, h, w, 77])
    z = rng.standard_normal((h + BANK_PAD, w + BANK_PAD, 3), dtype=np.float32)
    z *= NOISE_BANK_SCALE
    z += 128.0
    np.clip(z, 0, 255, out=z)
    b = z.astype(np.uint8)
    b.setflags(write=False)
    return b


def clear_cache() -> None:
    """Forget the cached noise banks (a demo between games: the next game has another seed)."""
    _bank.cache_clear()


class EffectsApplier:
    """Applies :class:`Effects`; keeps one noise bank per image size."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def bank(self, h: int, w: int) -> np.ndarray:
        """uint8 noise centred on 128 with sigma 16, a little larger than the image."""
        return _bank(self.seed, h, w)

    def apply(self, image: np.ndarray, fx: Effects, rng: np.random.Generator) -> np.ndarray:
        """The image with ``fx`` applied (may be the same array)."""
        out = image
        if fx.motion_blur >= 1.0:
            out = cv2.filter2D(out, -1, motion_kernel(fx.motion_blur, fx.motion_angle), borderType=cv2.BORDER_REFLECT)
        if fx.defocus > 0.2:
            out = cv2.GaussianBlur(out, (0, 0), fx.defocus)
        if not fx.neutral:  # the image processor's gains: one saturating multiply per pixel and channel
            out = cv2.transform(out, np.diag(fx.gains).astype(np.float32))
        if fx.noise > 0:
            h, w = out.shape[:2]
            b = self.bank(h, w)
            oy, ox = (int(v) for v in rng.integers(0, BANK_PAD, 2))
            k = fx.noise / NOISE_BANK_SCALE
            out = cv2.addWeighted(out, 1.0, b[oy : oy + h, ox : ox + w], k, -128.0 * k)
        if fx.jpeg is not None:
            ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(fx.jpeg)])
            if ok:
                out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        return out
