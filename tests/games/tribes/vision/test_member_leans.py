"""The lean of a standing piece in a count window (``games.tribes.vision.regions.leans``) and the ramp
a counting model may read it from (``vision.patches.lean_ramps``): the lean points, in the window's
own pixels, to where a tilted camera sees the top of a piece standing at the window's centre; the
ramp turns and flips with its window, so the quarter turns a counter averages stay consistent; a
counter whose model reads a fifth channel gets the ramp there and refuses to read without it."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from games.tribes.rules.profile import default_profile
from games.tribes.vision.layout import default_layout
from games.tribes.vision.regions import LEAN_MM, Regions, leans
from sim.camera import Camera
from vision.features import Counter
from vision.patches import lean_ramps, window_vectors
from vision.registration import Registration


def _window_point(ps, i: int, v_px: np.ndarray) -> np.ndarray:
    """The table point (mm) ``v_px`` window pixels from the centre of window ``i``."""
    a = np.radians(ps.rotations[i])
    local = np.asarray(v_px) * ps.side_mm / ps.px
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return ps.centers[i] + rot @ local


@pytest.mark.parametrize("tilt,azimuth,fov", [(8.0, 40.0, 70.0), (22.0, 130.0, 75.0), (34.0, 250.0, 60.0)])
def test_a_lean_points_where_the_camera_sees_a_pieces_top(tilt, azimuth, fov):
    lay = default_layout()
    cam = Camera.framing(lay, width=1920, height=1080, tilt=tilt, azimuth=azimuth, fov=fov)
    reg = Registration(cam.table_homography(), 0.0, (1920, 1080))
    regions = Regions(lay, default_profile())
    cells = [(s, h) for s in range(len(lay.seats)) for h in lay.area_hexes(s)[:3]]
    ps = regions.count_patches(cells)
    got = leans(reg, ps)
    seen = reg.to_table(cam.project(ps.centers, LEAN_MM))  # where the top of a piece at the centre shows
    for i in range(len(ps)):
        assert np.linalg.norm(_window_point(ps, i, got[i]) - seen[i]) < 0.2
    # the farther a window lies from below the camera, the longer its lean
    foot, _ = reg.viewpoint()
    far = np.linalg.norm(ps.centers - foot, axis=1)
    assert np.corrcoef(far, np.linalg.norm(got, axis=1))[0, 1] > 0.99


def test_straight_down_the_window_below_the_camera_has_no_lean():
    lay = default_layout()
    cam = Camera.framing(lay, width=1920, height=1080, tilt=0.0, azimuth=0.0, fov=70.0)
    reg = Registration(cam.table_homography(), 0.0, (1920, 1080))
    foot, _ = reg.viewpoint()
    ps = Regions(lay, default_profile()).count_patches([(0, (0, 0))])
    ps = type(ps)(ps.key, np.array([foot]), ps.rotations, ps.side_mm, ps.px)
    assert np.abs(leans(reg, ps)).max() < 0.05


def test_window_vectors_turn_with_the_window():
    ps = Regions(default_layout(), default_profile()).count_patches([(0, (0, 0))])
    for rot in (0.0, 90.0, 33.0):
        turned = type(ps)(ps.key, ps.centers, np.array([rot]), ps.side_mm, ps.px)
        v = window_vectors(turned, np.array([[10.0, -4.0]]))[0]
        assert np.allclose(_window_point(turned, 0, v) - turned.centers[0], [10.0, -4.0])


def test_a_ramp_turns_and_flips_with_its_window():
    rng = np.random.default_rng(3)
    for v in rng.normal(0, 8, (5, 2)):
        ramp = lean_ramps(v[None], 48)[0]
        # a quarter turn (np.rot90 over rows, columns) turns the vector (columns, rows) to (rows, -columns)
        assert np.allclose(np.rot90(ramp), lean_ramps(np.array([[v[1], -v[0]]]), 48)[0], atol=1e-5)
        assert np.allclose(ramp[:, ::-1], lean_ramps(np.array([[-v[0], v[1]]]), 48)[0], atol=1e-5)
        # its slope is the vector: one pixel along it rises |v|^2 / (px/2)^2
        assert ramp[24, 25] - ramp[24, 24] == pytest.approx(v[0] / 24**2, rel=1e-4, abs=1e-6)
    assert not lean_ramps(np.zeros((1, 2)), 48).any()


def _model(channels: int) -> SimpleNamespace:
    seen: list[np.ndarray] = []

    def run(x: np.ndarray) -> np.ndarray:
        seen.append(x.copy())
        out = np.zeros((len(x), 16), np.float32)
        out[:, 2] = 5.0
        return out

    return SimpleNamespace(spec=SimpleNamespace(px=48, channels=channels, outputs=16), path="m.onnx", run=run, seen=seen)


def test_a_counter_that_reads_leans_gets_the_ramp_as_its_fifth_channel():
    win = np.full((2, 48, 48, 3), 0.5, np.float32)
    like = np.zeros((2, 48, 48), np.float32)
    ramp = lean_ramps(np.array([[6.0, 0.0], [0.0, -3.0]]), 48)
    model = _model(5)
    counter = Counter(model)  # type: ignore[arg-type]
    assert counter.leans
    p = counter.probabilities(win, like, ramp)
    assert p.argmax(axis=1).tolist() == [2, 2]
    x = model.seen[0]
    assert x.shape == (2, 5, 48, 48) and np.allclose(x[:, 4], ramp - 0.5)
    with pytest.raises(ValueError, match="lean"):
        counter.probabilities(win, like)
    # a model of four channels reads the window and the likeness map only
    plain = _model(4)
    assert not Counter(plain).leans  # type: ignore[arg-type]
    Counter(plain).probabilities(win, like, ramp)  # type: ignore[arg-type]
    assert plain.seen[0].shape == (2, 4, 48, 48)
