"""The camera's auto-exposure and white-balance gains (sim.effects): they scale each channel as
specified, the default changes nothing, and invalid gains fail naming the field."""

from __future__ import annotations

import numpy as np
import pytest

from games.tribes.rules.game import simulate
from games.tribes.sim.packs import builtin_pack
from games.tribes.sim.render import Renderer
from games.tribes.vision.layout import default_layout
from sim.camera import Camera
from sim.effects import Effects, EffectsApplier
from sim.lighting import Light
from vision.errors import VisionError


def _image() -> np.ndarray:
    rng = np.random.default_rng(3)
    return rng.integers(20, 150, (60, 80, 3), dtype=np.uint8)


def test_default_gains_leave_the_frame_untouched() -> None:
    img = _image()
    rng = np.random.default_rng(0)
    assert Effects().neutral and Effects().gain == 1.0 and Effects().channel_gains == (1.0, 1.0, 1.0)
    out = EffectsApplier(1).apply(img, Effects(noise=0.0), rng)
    assert out is img  # nothing was done to it
    fx = Effects(noise=3.0, motion_blur=3.0, defocus=0.8, jpeg=80)
    explicit = Effects(noise=3.0, motion_blur=3.0, defocus=0.8, jpeg=80, gain=1.0, channel_gains=(1, 1, 1))
    a = EffectsApplier(1).apply(img.copy(), fx, np.random.default_rng(4))
    b = EffectsApplier(1).apply(img.copy(), explicit, np.random.default_rng(4))
    assert np.array_equal(a, b)


def test_gains_scale_each_channel() -> None:
    img = _image()
    fx = Effects(noise=0.0, gain=1.25, channel_gains=(1.2, 1.0, 0.7))  # B, G, R
    out = EffectsApplier(1).apply(img.copy(), fx, np.random.default_rng(0))
    assert out.shape == img.shape and out.dtype == np.uint8
    want = np.clip(np.rint(img * np.array([1.5, 1.25, 0.875])), 0, 255)
    assert np.abs(out.astype(int) - want).max() <= 1
    # saturates instead of wrapping around
    bright = np.full((4, 4, 3), 250, np.uint8)
    assert (EffectsApplier(1).apply(bright, Effects(noise=0.0, gain=2.0), np.random.default_rng(0)) == 255).all()


def test_gains_on_a_render_come_before_noise() -> None:
    layout = default_layout()
    state = simulate(2, 3, "greedy").states[5]
    cam = Camera.framing(layout, width=320, height=180, tilt=10)
    r = Renderer(layout, builtin_pack("classic"), "oak", seed=2)
    light = Light(kelvin=5000)
    plain = r.render(state, cam, light, Effects(noise=0.0), truth=False).image.astype(float)
    fx = Effects(noise=0.0, gain=0.8, channel_gains=(1.0, 1.1, 0.9))
    dim = r.render(state, cam, light, fx, truth=False).image.astype(float)
    ok = plain.max(axis=2) < 200  # not saturated either way
    ratio = dim[ok].sum(axis=0) / plain[ok].sum(axis=0)
    assert ratio == pytest.approx([0.8, 0.88, 0.72], abs=0.01)
    # with noise the frame is the gained frame plus the same noise as ever
    noisy = r.render(state, cam, light, Effects(noise=3.0, gain=0.8), frame_seed=4, truth=False).image.astype(float)
    dimmed = r.render(state, cam, light, Effects(noise=0.0, gain=0.8), frame_seed=4, truth=False).image.astype(float)
    assert abs(float((noisy - dimmed).mean())) < 0.5 and 2.0 < float((noisy - dimmed).std()) < 4.0


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"gain": 0.4}, "gain"),
        ({"gain": 2.5}, "gain"),
        ({"gain": float("nan")}, "gain"),
        ({"channel_gains": (1.0, 1.7, 1.0)}, "channel_gains"),
        ({"channel_gains": (0.5, 1.0, 1.0)}, "channel_gains"),
        ({"channel_gains": (1.0, 1.0)}, "channel_gains"),
        ({"channel_gains": 1.2}, "channel_gains"),
    ],
)
def test_invalid_gains_name_the_field(kwargs: dict, field: str) -> None:
    with pytest.raises(VisionError, match=field):
        Effects(**kwargs)


def test_gains_are_plain_data() -> None:
    fx = Effects(gain=1.1, channel_gains=[1, 0.9, 1.2])  # type: ignore[arg-type]
    assert fx.channel_gains == (1.0, 0.9, 1.2) and isinstance(fx.channel_gains, tuple)
    assert hash(fx) == hash(Effects(gain=1.1, channel_gains=(1.0, 0.9, 1.2)))
    assert fx.to_dict()["gain"] == 1.1 and tuple(fx.to_dict()["channel_gains"]) == (1.0, 0.9, 1.2)
