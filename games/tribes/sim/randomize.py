"""Random viewing conditions for training and testing data (domain randomisation).

:func:`random_conditions` draws, from a seed, a camera (tilt 0–35 degrees from any side, roll,
field of view, mild lens distortion), a light (2700–6500 K, direction, shadow strength and softness,
uneven brightness, sometimes a glare spot), camera effects (noise, sometimes motion blur, defocus,
JPEG) and a table texture and art pack. The same seed gives the same conditions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from games.tribes.sim.packart import STYLES
from games.tribes.vision.layout import Layout
from sim.camera import Camera
from sim.effects import Effects
from sim.lighting import Light
from sim.textures import TEXTURES


@dataclass(frozen=True)
class Conditions:
    """One draw of viewing conditions."""

    camera: Camera
    light: Light
    effects: Effects
    texture: str
    pack: str


def random_conditions(seed: int, layout: Layout, width: int = 1920, height: int = 1080) -> Conditions:
    """Conditions drawn from ``seed`` for a ``width`` x ``height`` camera over ``layout``."""
    rng = np.random.default_rng([seed, 424242])
    tilt = float(rng.uniform(0, 35))
    cam = Camera.framing(
        layout,
        width=width,
        height=height,
        tilt=tilt,
        azimuth=float(rng.uniform(0, 360)),
        roll=float(rng.normal(0, 6)),
        fov=float(rng.uniform(55, 85)),
        dist=(float(rng.uniform(-0.12, 0.02)), float(rng.uniform(-0.02, 0.03)), 0.0, 0.0, 0.0),
        margin=float(rng.uniform(0.0, 0.08)),
    )
    w, h = layout.table
    glare = float(rng.uniform(0.15, 0.6)) if rng.random() < 0.35 else 0.0
    light = Light(
        kelvin=float(rng.uniform(2700, 6500)),
        white_balance=float(rng.uniform(0.3, 1.0)),
        exposure=float(rng.uniform(0.8, 1.2)),
        azimuth=float(rng.uniform(0, 360)),
        elevation=float(rng.uniform(30, 85)),
        shadow=float(rng.uniform(0.15, 0.7)),
        softness=float(rng.uniform(0.5, 6.0)),
        ambient=float(rng.uniform(0.35, 0.7)),
        unevenness=float(rng.uniform(0.0, 0.5)),
        hotspot=(float(rng.uniform(0, w)), float(rng.uniform(0, h))),
        vignetting=float(rng.uniform(0.0, 0.4)),
        glare=glare,
        glare_at=(float(rng.uniform(0.1 * w, 0.9 * w)), float(rng.uniform(0.1 * h, 0.9 * h))),
        glare_radius=float(rng.uniform(40, 160)),
    )
    effects = Effects(
        noise=float(rng.uniform(0.5, 6.0)),
        motion_blur=float(rng.uniform(1.5, 6.0)) if rng.random() < 0.2 else 0.0,
        motion_angle=float(rng.uniform(0, 180)),
        defocus=float(rng.uniform(0.3, 1.5)) if rng.random() < 0.3 else 0.0,
        jpeg=int(rng.integers(45, 96)) if rng.random() < 0.6 else None,
    )
    texture = TEXTURES[int(rng.integers(0, len(TEXTURES)))]
    pack = STYLES[int(rng.integers(0, len(STYLES)))]
    return Conditions(cam, light, effects, texture, pack)
