"""Light on the table: colour temperature, a directional light with soft shadows, uneven brightness
and a glare spot.

:class:`Light` is plain data. The renderer uses its direction to shade pieces and cast their
shadows on the canvas (:mod:`vision.pieces`), and :func:`light_field` turns the rest into two images
at the camera's resolution that are applied with two saturating OpenCV operations per frame::

    image = image * gain / 128 + glare

``gain`` holds colour temperature (with partial white balance), exposure, brightness falling off
from a hot spot and lens vignetting; ``glare`` is the mirror reflection of the lamp on a glossy table.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import cv2
import numpy as np

from sim.camera import Camera
from vision.errors import VisionError

MIN_KELVIN, MAX_KELVIN = 2700.0, 6500.0


@dataclass(frozen=True)
class Light:
    """Scene lighting. Angles in degrees; ``azimuth`` is the side the light comes from (0 = seat 0's
    edge, clockwise seen from above, as for the camera); ``elevation`` is above the horizon."""

    kelvin: float = 5000.0
    white_balance: float = 0.7  # 0: camera does not correct the colour cast, 1: fully corrected
    exposure: float = 1.0
    azimuth: float = 30.0
    elevation: float = 60.0
    shadow: float = 0.45  # darkness of shadows, 0..1
    softness: float = 2.5  # shadow blur, mm
    ambient: float = 0.5  # share of light that is not directional (pieces' unlit sides)
    unevenness: float = 0.25  # brightness falls by this share from the hot spot to the far table corner
    hotspot: tuple[float, float] | None = None  # table mm; default: below the light direction's foot
    vignetting: float = 0.2
    glare: float = 0.0  # strength of the glare spot, 0..1
    glare_at: tuple[float, float] | None = None  # table mm; default: mirror point of the light
    glare_radius: float = 70.0  # mm

    def __post_init__(self) -> None:
        if not MIN_KELVIN <= self.kelvin <= MAX_KELVIN:
            raise VisionError(f"colour temperature must be {MIN_KELVIN:g}-{MAX_KELVIN:g} K, got {self.kelvin:g}")
        if not 5 <= self.elevation <= 90:
            raise VisionError(f"light elevation must be 5-90 degrees, got {self.elevation:g}")
        for name in ("white_balance", "shadow", "ambient", "unevenness", "vignetting", "glare"):
            v = getattr(self, name)
            if not 0 <= v <= 1:
                raise VisionError(f"light {name} must be between 0 and 1, got {v:g}")
        if not 0.2 <= self.exposure <= 3:
            raise VisionError(f"exposure must be 0.2-3, got {self.exposure:g}")
        if self.softness < 0 or self.glare_radius <= 0:
            raise VisionError("shadow softness must be >= 0 mm and glare radius > 0 mm")

    @property
    def direction(self) -> np.ndarray:
        """Unit vector towards the light as (x, y, up)."""
        az = math.radians(self.azimuth)
        el = math.radians(self.elevation)
        return np.array([-math.sin(az) * math.cos(el), math.cos(az) * math.cos(el), math.sin(el)])

    @property
    def shadow_step(self) -> np.ndarray:
        """Table displacement (mm) of the shadow of a point per mm of its height."""
        d = self.direction
        return -d[:2] / max(d[2], 1e-3)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data."""
        return asdict(self)


def kelvin_rgb(kelvin: float) -> np.ndarray:
    """Relative RGB of a black-body light at ``kelvin``, normalised to 1 at 6500 K (Tanner
    Helland's fit of the Planckian locus)."""

    def raw(k: float) -> np.ndarray:
        t = k / 100.0
        r = 255.0 if t <= 66 else 329.698727446 * (t - 60) ** -0.1332047592
        g = 99.4708025861 * math.log(t) - 161.1195681661 if t <= 66 else 288.1221695283 * (t - 60) ** -0.0755148492
        b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5177312231 * math.log(t - 10) - 305.0447927307)
        return np.clip(np.array([r, g, b]), 1, 255)

    return raw(kelvin) / raw(6500.0)


def light_field(light: Light, camera: Camera, step: int = 8) -> tuple[np.ndarray, np.ndarray | None]:
    """The per-pixel ``gain`` (uint8, 128 = 1.0, BGR) and ``glare`` (uint8 BGR, or None) images."""
    w, h = camera.width, camera.height
    gw, gh = math.ceil(w / step) + 1, math.ceil(h / step) + 1
    xs = np.linspace(0, w - 1, gw)
    ys = np.linspace(0, h - 1, gh)
    gx, gy = np.meshgrid(xs, ys)
    pix = np.column_stack([gx.ravel(), gy.ravel()])
    table = camera.pixels_to_table(pix, undistort=False)
    # brightness falls off with the distance from the hot spot
    hot = np.array(light.hotspot if light.hotspot is not None else camera.target, np.float64)
    d = np.linalg.norm(table - hot, axis=1)
    far = max(float(np.percentile(d, 98)), 1.0)
    bright = 1.0 - light.unevenness * np.clip(d / far, 0, 1.5) ** 1.5
    # vignetting: cos^4 law scaled
    r = np.hypot((pix[:, 0] - camera.cx) / camera.fx, (pix[:, 1] - camera.cy) / camera.fy)
    edge = max(1 - math.cos(math.atan(float(r.max()))) ** 4, 1e-6)
    vig = 1.0 - light.vignetting * (1 - np.cos(np.arctan(r)) ** 4) / edge
    base = (bright * vig * light.exposure).reshape(gh, gw)
    tint = kelvin_rgb(light.kelvin)
    tint = tint ** (1.0 - light.white_balance)  # the camera's white balance corrects part of the cast
    tint = tint / tint.max()
    small = np.stack([base * tint[2], base * tint[1], base * tint[0]], axis=-1) * 128.0 + 0.5  # BGR
    gain_u8 = cv2.resize(np.clip(small, 0, 255).astype(np.uint8), (w, h), interpolation=cv2.INTER_LINEAR)
    glare_u8 = None
    if light.glare > 0:
        if light.glare_at is not None:
            g = np.array(light.glare_at, np.float64)
        else:  # the table point mirroring the light into the camera
            c = camera.center
            ldir = light.direction
            # P where the light's mirror direction (-lx, -ly, lz) points from P to the camera
            g = np.array([c[0], c[1]]) + ldir[:2] * (-c[2] / max(ldir[2], 1e-3))
        dg = np.linalg.norm(table - g, axis=1)
        blob = np.exp(-0.5 * (dg / light.glare_radius) ** 2).reshape(gh, gw)
        glare = blob[..., None] * (220.0 * light.glare) * np.array([tint[2], tint[1], tint[0]])
        glare_u8 = cv2.resize(np.clip(glare, 0, 255).astype(np.uint8), (w, h), interpolation=cv2.INTER_LINEAR)
    return gain_u8, glare_u8
